// Data bundles (docs/spec.md section 4 "Data"): a plan of the catalog, bought at exactly its price. The operator
// enables, disables and re-prices plans (src/operator/catalog-routes.ts); a purchase reads the plan again
// after the PIN, so a change made meanwhile holds.
import type { Static } from 'typebox';
import Type from 'typebox';
import { kobo_to_naira, naira_to_kobo } from '../../lib/money.js';
import { error_reply, success_reply, type Reply } from '../../lib/reply.js';
import { api_error, invalid, type ApiError } from '../../errors.js';
import { FreeText, Naira, Network, Timestamp } from '../../schemas/common.js';
import { Amount, AmountCharged, Commission, LocalPhone, Pin, Ported, PurchaseNetwork, Status, extras_view, promised_view, purchase_extras } from '../../schemas/service-schemas.js';
import { networks, plan_types, upstream_code, type DataPlan, type Network as NetworkName, type PlanType } from '../catalog.js';
import { purchase_tail_view, type OrderRecord } from '../order.js';
import {
  chosen_plan_code, international_phone, sandbox_delivered, vtpass_network,
  type PlanContext, type ProductFamily, type ProductRequest, type PurchasePlan,
} from './family.js';
import { purchase_errors } from './purchase-errors.js';

export const DataBody = Type.Object({
  network: PurchaseNetwork,
  ported: Ported,
  plan_code: Type.Optional(FreeText({ minLength: 1, maxLength: 64, description: 'the plan to buy, as GET /v1/services/data/plans lists it (plan_code or plan_id: the same value); plan_code or plan_id is required', errorMessage: 'must be a plan_code from GET /v1/services/data/plans' })),
  plan_id: Type.Optional(FreeText({ minLength: 1, maxLength: 64, description: 'another name of plan_code: give either (both: the same value)', errorMessage: 'must be a plan_id from GET /v1/services/data/plans' })),
  phone: LocalPhone,
  amount: Amount('must equal the plan price in NGN'),
  pin: Pin,
  ...purchase_extras,
});

export const DataPlanView = Type.Object({
  plan_id: Type.String({ description: 'the plan\'s code: a purchase takes it as plan_code or plan_id' }),
  plan_code: Type.String({ description: 'the same value as plan_id, under the name the purchase uses' }),
  name: Type.String(),
  network: Network,
  plan_type: Type.Enum([...plan_types], { description: 'how the network provisions the bundle: sme, gifting, corporate or direct (docs/api.md "Data plan types")' }),
  amount: Naira,
  amount_charged: Type.Number({ minimum: 0, description: 'what the calling account\'s wallet pays for it: amount less its tier\'s commission (docs/api.md "Pricing")' }),
  validity: Type.String(),
});

export const DataResult = Type.Object({
  reference: Type.String(), status: Status, network: Network, phone: Type.String(), plan: Type.String(), plan_code: Type.String(),
  amount: Naira, amount_charged: AmountCharged, commission: Commission, wallet_balance_after: Naira, delivered_at: Type.Union([Timestamp, Type.Null()]), ...extras_view, ...promised_view,
});

function data_plan_view(request: ProductRequest, plan: DataPlan) {
  return {
    plan_id: plan.plan_id, plan_code: plan.plan_id, name: plan.name, network: plan.network, plan_type: plan.plan_type, amount: kobo_to_naira(plan.amount_kobo),
    amount_charged: request.charged_naira('data', plan.network, plan.amount_kobo), validity: plan.validity,
  };
}

function list_data_plans(request: ProductRequest): Reply {
  const network = request.query.get('network');
  if (network !== null && !(networks as readonly string[]).includes(network)) {
    return error_reply(request.request_id, invalid('network', `must be one of: ${networks.join(', ')}`));
  }
  // docs/api.md "Data plan types": alone or with network; anything else (wrong case, empty) is refused.
  const plan_type = request.query.get('plan_type');
  if (plan_type !== null && !(plan_types as readonly string[]).includes(plan_type)) {
    return error_reply(request.request_id, invalid('plan_type', `must be one of: ${plan_types.join(', ')}`));
  }
  return success_reply(request.request_id, 200, {
    plans: request.catalog.enabled_plans(network as NetworkName | null, plan_type as PlanType | null).map((plan) => data_plan_view(request, plan)),
  });
}

function data_plan(raw: unknown, context: PlanContext): PurchasePlan | ApiError {
  const body = raw as Static<typeof DataBody>;
  const amount = naira_to_kobo(body.amount);
  if (!amount.ok) return invalid('amount', amount.reason);
  const plan_code = chosen_plan_code(body);
  if (typeof plan_code !== 'string') return plan_code;
  const catalog = context.catalog;
  const plan = catalog.plan(plan_code);
  // Without a network the plan names one; it is checked against the number's like a network given.
  const network = context.numbers.network_of({ ...body, network: body.network ?? plan?.network }, context.environment);
  if (typeof network !== 'string') return network;
  return {
    order: {
      service_type: 'data', network, disco: null, provider: null, recipient: body.phone,
      plan_code, plan: plan?.name ?? null, package_code: null, meter_type: null, amount_kobo: amount.kobo, customer_name: null,
    },
    check: () => {
      // Read at execution: the operator may have re-priced or disabled the plan meanwhile.
      const current = catalog.plan(plan_code);
      if (current === undefined || !current.enabled || current.network !== network) {
        return api_error('service.plan_not_found', `Data plan "${plan_code}" of ${network} is missing or disabled.`);
      }
      if (current.amount_kobo !== amount.kobo) {
        return api_error('service.amount_mismatch', `Amount ${body.amount} differs from the plan price ${kobo_to_naira(current.amount_kobo)}.`);
      }
      return null;
    },
  };
}

function data_result_view(order: OrderRecord) {
  return {
    reference: order.reference, status: order.status, network: order.network, phone: order.recipient, plan: order.plan,
    plan_code: order.plan_code, ...purchase_tail_view(order),
  };
}


export const data_family: ProductFamily = {
  service_type: 'data',
  messages: { delivered: 'Data purchase successful.', processing: 'Data purchase is processing; the outcome follows by webhook and on GET /v1/transactions/{reference}.' },
  routes: [
    {
      method: 'get',
      path: '/v1/services/data/plans',
      scope: null,
      doc: {
        summary: 'Enabled data plans, optionally of one network and one plan type',
        tags: ['Data'],
        response: Type.Object({ plans: Type.Array(DataPlanView) }),
        query: {
          network: { schema: Type.Enum([...networks]), description: 'mtn, airtel, glo or 9mobile' },
          plan_type: { schema: Type.Enum([...plan_types]), description: 'sme, gifting, corporate or direct (docs/api.md "Data plan types")' },
        },
        errors: ['validation.failed'],
      },
      handler: list_data_plans,
    },
  ],
  purchase: {
    path: '/v1/services/data/purchase',
    body: DataBody,
    doc: { summary: 'Buy a data bundle; amount must equal the plan price', tags: ['Data'], response: DataResult, success_status: 201, errors: [...purchase_errors, 'service.plan_not_found', 'service.amount_mismatch', 'service.network_mismatch'] },
    plan: data_plan,
  },
  result_view: data_result_view,
  sandbox_delivered,
  upstream: {
    // The plan's own VTpass serviceID and variation_code (data/catalog/data-plans.json, or learned by the
    // catalog sync); a plan VTpass has no code for is not sent to it.
    vtpass_service_id: (order) => upstream_code(order, 'vtpass')?.service_id ?? `${vtpass_network(order.network!)}-data`,
    vtpass_pay_fields: (order) => {
      const code = upstream_code(order, 'vtpass');
      return code === null ? null : { billersCode: order.recipient, variation_code: code.variation_code, phone: order.recipient };
    },
    // Data bundles are items of per-network Flutterwave billers whose codes change with the bundles on
    // sale: not offered until they are listed here.
    flutterwave_bill: () => null,
    flutterwave_customer: (order) => international_phone(order.recipient),
  },
};
