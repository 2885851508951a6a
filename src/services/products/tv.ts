// Cable TV (docs/api.md "Cable TV"): a package of DStv, GOtv or StarTimes at exactly its price, on a
// smartcard or IUC number verified with the provider first.
import type { Static } from 'typebox';
import Type from 'typebox';
import { kobo_to_naira, naira_to_kobo } from '../../lib/money.js';
import { error_reply, success_reply, type Reply } from '../../lib/reply.js';
import { api_error, type ApiError } from '../../errors.js';
import { FreeText, Naira, Timestamp } from '../../schemas/common.js';
import {
  Amount, AmountCharged, Commission, Pin, Smartcard, Status, TvProviderName, VerifyResultView, extras_view, purchase_extras,
} from '../../schemas/service-schemas.js';
import { tv_providers, type TvProvider } from '../catalog.js';
import { charged_kobo, client_reference_of, commission_of, metadata_of, type OrderRecord } from '../order.js';
import type { ProviderResult } from '../provider.js';
import { iso_us } from '../../lib/time-format.js';
import {
  invalid, sandbox_reference, verify_reply,
  type FlutterwaveBill, type PlanContext, type ProductFamily, type ProductRequest, type PurchasePlan,
} from './family.js';
import { purchase_errors } from './purchase-errors.js';

export const TvBody = Type.Object({
  provider: TvProviderName,
  smartcard_number: Smartcard,
  package_code: FreeText({ minLength: 1, maxLength: 64, errorMessage: 'must be a package_code from GET /v1/services/tv/packages' }),
  amount: Amount('must equal the package price in NGN'),
  pin: Pin,
  ...purchase_extras,
});

export const VerifySmartcardBody = Type.Object({
  provider: TvProviderName,
  smartcard_number: Smartcard,
});

export const TvPackageView = Type.Object({
  package_code: Type.String(),
  name: Type.String(),
  provider: TvProviderName,
  amount: Naira,
  amount_charged: Type.Number({ minimum: 0, description: 'what the calling account\'s wallet pays for it: amount less its tier\'s commission (docs/api.md "Pricing")' }),
});

export const TvResult = Type.Object({
  reference: Type.String(), status: Status, provider: TvProviderName, smartcard_number: Type.String(), package_code: Type.String(),
  amount: Naira, amount_charged: AmountCharged, commission: Commission, customer_name: Type.Union([Type.String(), Type.Null()]), wallet_balance_after: Naira, delivered_at: Type.Union([Timestamp, Type.Null()]), ...extras_view,
});

/** Cable TV by provider on Flutterwave (bill categories: DSTV CB141). */
const tv_bills: Record<string, FlutterwaveBill> = {
  dstv: { type: 'DSTV', biller_code: 'BIL119', item_code: 'CB141' },
};

function list_tv_packages(request: ProductRequest): Reply {
  const provider = request.query.get('provider');
  if (provider !== null && !(tv_providers as readonly string[]).includes(provider)) {
    return error_reply(request.request_id, invalid('provider', `must be one of: ${tv_providers.join(', ')}`));
  }
  return success_reply(request.request_id, 200, {
    packages: request.catalog.packages_of(provider as TvProvider | null).map((p) => ({
      package_code: p.package_code, name: p.name, provider: p.provider, amount: kobo_to_naira(p.amount_kobo), amount_charged: request.charged_naira('tv', p.provider, p.amount_kobo),
    })),
  });
}

async function verify_smartcard(request: ProductRequest): Promise<Reply> {
  const body = request.body as Static<typeof VerifySmartcardBody>;
  const result = await request.provider.verify_smartcard(body.provider, body.smartcard_number);
  return verify_reply(request.request_id, result, 'service.invalid_smartcard', 'Smartcard verified.', { provider: body.provider, smartcard_number: body.smartcard_number });
}

function tv_plan(raw: unknown, context: PlanContext): PurchasePlan | ApiError {
  const body = raw as Static<typeof TvBody>;
  const amount = naira_to_kobo(body.amount);
  if (!amount.ok) return invalid('amount', amount.reason);
  const item = context.catalog.package(body.package_code);
  const provider = context.provider;
  return {
    order: {
      service_type: 'tv', network: null, disco: null, provider: body.provider, recipient: body.smartcard_number,
      plan_code: null, plan: item?.name ?? null, package_code: body.package_code, meter_type: null, amount_kobo: amount.kobo, customer_name: null,
    },
    check: () => {
      if (item === undefined || item.provider !== body.provider) return api_error('service.plan_not_found', `Package "${body.package_code}" of ${body.provider} is not available.`);
      if (item.amount_kobo !== amount.kobo) return api_error('service.amount_mismatch', `Amount ${body.amount} differs from the package price ${kobo_to_naira(item.amount_kobo)}.`);
      return null;
    },
    verify: () => provider.verify_smartcard(body.provider, body.smartcard_number),
    invalid_code: 'service.invalid_smartcard',
  };
}

function tv_result_view(order: OrderRecord) {
  return {
    reference: order.reference,
    status: order.status,
    provider: order.provider,
    smartcard_number: order.recipient,
    package_code: order.package_code,
    amount: kobo_to_naira(order.amount_kobo),
    amount_charged: kobo_to_naira(charged_kobo(order)),
    commission: kobo_to_naira(commission_of(order)),
    customer_name: order.customer_name,
    wallet_balance_after: kobo_to_naira(order.wallet_balance_after_kobo),
    delivered_at: order.delivered_us === null ? null : iso_us(order.delivered_us),
    client_reference: client_reference_of(order),
    metadata: metadata_of(order),
  };
}

function tv_sandbox_delivered(order: OrderRecord): ProviderResult {
  return { outcome: 'delivered', customer_name: 'Test Customer', provider_reference: sandbox_reference(order) };
}

export const tv_family: ProductFamily = {
  service_type: 'tv',
  messages: { delivered: 'Cable TV subscription successful.', processing: 'Cable TV subscription is processing; the outcome follows by webhook and on GET /v1/transactions/{reference}.' },
  routes: [
    {
      method: 'get',
      path: '/v1/services/tv/packages',
      scope: null,
      doc: {
        summary: 'Cable TV packages, optionally of one provider',
        tags: ['Cable TV'],
        response: Type.Object({ packages: Type.Array(TvPackageView) }),
        query: { provider: { schema: Type.Enum([...tv_providers]), description: 'dstv, gotv or startimes' } },
        errors: ['validation.failed'],
      },
      handler: list_tv_packages,
    },
    {
      method: 'post',
      path: '/v1/services/tv/verify',
      scope: 'services:purchase',
      body: VerifySmartcardBody,
      idempotent: false,
      doc: { summary: 'Verify a smartcard or IUC number: the customer name, current package and due date', tags: ['Cable TV'], response: VerifyResultView, success_status: 200, errors: ['service.invalid_smartcard', 'transaction.provider_unavailable'] },
      handler: verify_smartcard,
    },
  ],
  purchase: {
    path: '/v1/services/tv',
    body: TvBody,
    doc: { summary: 'Renew or change a cable TV subscription; amount must equal the package price', tags: ['Cable TV'], response: TvResult, success_status: 201, errors: [...purchase_errors, 'service.plan_not_found', 'service.amount_mismatch', 'service.invalid_smartcard'] },
    plan: tv_plan,
  },
  result_view: tv_result_view,
  sandbox_delivered: tv_sandbox_delivered,
  upstream: {
    vtpass_service_id: (order) => order.provider!,
    vtpass_pay_fields: (order) => ({ billersCode: order.recipient, variation_code: order.package_code ?? undefined, phone: '08000000000', subscription_type: 'change' }),
    flutterwave_bill: (product) => tv_bills[product.provider ?? ''] ?? null,
    flutterwave_customer: (order) => order.recipient,
  },
};
