// Showmax (docs/api.md "Showmax"): a plan of the catalog paid to the Showmax account of a phone number, bought at
// exactly its price. VTpass sells it as serviceID `showmax` with the phone as billersCode and the plan's
// variation_code (docs/upstreams.md "Showmax"). The operator enables, disables and re-prices plans
// (PATCH /admin/catalog/showmax-plans/{code}); a purchase reads the plan again after the PIN.
import type { Static } from 'typebox';
import Type from 'typebox';
import { kobo_to_naira, naira_to_kobo } from '../../lib/money.js';
import { success_reply, type Reply } from '../../lib/reply.js';
import { api_error, invalid, type ApiError } from '../../errors.js';
import { FreeText, Naira, Timestamp } from '../../schemas/common.js';
import { Amount, AmountCharged, Commission, LocalPhone, Pin, Status, extras_view, promised_view, purchase_extras } from '../../schemas/service-schemas.js';
import type { Catalog } from '../catalog.js';
import { purchase_tail_view, type OrderRecord } from '../order.js';
import { upstream_code } from '../upstream-codes.js';
import {
  sandbox_delivered,
  type PlanContext, type ProductFamily, type ProductRequest, type PurchasePlan,
} from './family.js';
import { purchase_errors } from './purchase-errors.js';

export const showmax_kind = 'showmax-plans';
/** Showmax has one provider: the pricing and routing narrow value of every order (showmax). */
export const showmax_provider = 'showmax';

export const ShowmaxBody = Type.Object({
  phone: LocalPhone,
  plan_code: FreeText({ minLength: 1, maxLength: 64, description: 'the plan to buy, as GET /v1/services/showmax/plans lists it', errorMessage: 'must be a plan_code from GET /v1/services/showmax/plans' }),
  amount: Amount('must equal the plan price in NGN'),
  pin: Pin,
  ...purchase_extras,
});

export const ShowmaxPlanView = Type.Object({
  plan_code: Type.String({ description: 'the plan\'s code: a purchase takes it as plan_code' }),
  name: Type.String(),
  amount: Naira,
  amount_charged: Type.Number({ minimum: 0, description: 'what the calling account\'s wallet pays for it: amount less its tier\'s commission (docs/api.md "Pricing")' }),
  validity: Type.String(),
});

export const ShowmaxResult = Type.Object({
  reference: Type.String(), status: Status, phone: Type.String({ description: 'the phone number of the Showmax account' }), plan_code: Type.String(), plan: Type.Union([Type.String(), Type.Null()]),
  amount: Naira, amount_charged: AmountCharged, commission: Commission, wallet_balance_after: Naira, delivered_at: Type.Union([Timestamp, Type.Null()]), ...extras_view, ...promised_view,
});

function showmax_plans(catalog: Catalog) {
  return catalog.item_list(showmax_kind);
}

function list_showmax_plans(request: ProductRequest): Reply {
  return success_reply(request.request_id, 200, {
    plans: showmax_plans(request.catalog).list(null).map((item) => ({
      plan_code: item.code, name: item.name, amount: kobo_to_naira(item.amount_kobo),
      amount_charged: request.charged_naira('showmax', showmax_provider, item.amount_kobo), validity: String(item.attributes.validity ?? ''),
    })),
  });
}

function showmax_plan(raw: unknown, context: PlanContext): PurchasePlan | ApiError {
  const body = raw as Static<typeof ShowmaxBody>;
  const amount = naira_to_kobo(body.amount);
  if (!amount.ok) return invalid('amount', amount.reason);
  const plans = showmax_plans(context.catalog);
  const plan_code = body.plan_code;
  return {
    order: {
      service_type: 'showmax', network: null, disco: null, provider: showmax_provider, recipient: body.phone,
      plan_code, plan: plans.get(plan_code)?.name ?? null, package_code: null, meter_type: null, amount_kobo: amount.kobo, customer_name: null,
    },
    check: () => {
      // Read at execution: the operator may have re-priced or disabled the plan meanwhile.
      const current = plans.get(plan_code);
      if (current === undefined || !current.enabled) return api_error('service.plan_not_found', `Showmax plan "${plan_code}" is missing or disabled.`);
      if (current.amount_kobo !== amount.kobo) return api_error('service.amount_mismatch', `Amount ${body.amount} differs from the plan price ${kobo_to_naira(current.amount_kobo)}.`);
      return null;
    },
  };
}

function showmax_result_view(order: OrderRecord) {
  return {
    reference: order.reference,
    status: order.status,
    phone: order.recipient,
    plan_code: order.plan_code,
    plan: order.plan,
    ...purchase_tail_view(order),
  };
}


export const showmax_family: ProductFamily = {
  service_type: 'showmax',
  messages: {
    delivered: 'Showmax subscription successful.',
    processing: 'Showmax subscription is processing; the outcome follows by webhook and on GET /v1/transactions/{reference}.',
  },
  catalog_kinds: [showmax_kind],
  routes: [
    {
      method: 'get',
      path: '/v1/services/showmax/plans',
      scope: null,
      doc: {
        summary: 'Enabled Showmax plans',
        tags: ['Showmax'],
        response: Type.Object({ plans: Type.Array(ShowmaxPlanView) }),
      },
      handler: list_showmax_plans,
    },
  ],
  purchase: {
    path: '/v1/services/showmax',
    body: ShowmaxBody,
    doc: {
      summary: 'Pay a Showmax plan to the account of a phone number; amount must equal the plan price',
      tags: ['Showmax'], response: ShowmaxResult, success_status: 201,
      errors: [...purchase_errors, 'service.plan_not_found', 'service.amount_mismatch'],
    },
    plan: showmax_plan,
  },
  result_view: showmax_result_view,
  sandbox_delivered,
  upstream: {
    // VTpass: serviceID showmax, the phone as billersCode and as phone (docs/upstreams.md "Showmax").
    vtpass_service_id: (order) => upstream_code(order, 'vtpass')?.service_id ?? 'showmax',
    vtpass_pay_fields: (order) => {
      const code = upstream_code(order, 'vtpass');
      return code === null ? null : { billersCode: order.recipient, variation_code: code.variation_code, phone: order.recipient };
    },
    // Flutterwave's bill categories carry no Showmax biller we have read: not offered there.
    flutterwave_bill: () => null,
    flutterwave_customer: (order) => order.recipient,
  },
};
