// Cable TV (docs/spec.md section 4 "Cable TV"): a package of DStv, GOtv or StarTimes at exactly its price, on a
// smartcard or IUC number verified with the provider first; or, for DStv and GOtv, a renewal of the
// smartcard's current package at the provider's renewal amount, and several months at once
// (docs/api.md "TV renewals and months").
import type { Static } from 'typebox';
import Type from 'typebox';
import { kobo_to_naira, naira_to_kobo } from '../../lib/money.js';
import { error_reply, success_reply, type Reply } from '../../lib/reply.js';
import { api_error, invalid, type ApiError } from '../../errors.js';
import { FreeText, Naira, Timestamp } from '../../schemas/common.js';
import {
  Amount, AmountCharged, Commission, Pin, Smartcard, Status, TvProviderName, VerifyResultView, extras_view, promised_view, purchase_extras,
} from '../../schemas/service-schemas.js';
import { tv_providers, type Catalog, type TvProvider } from '../catalog.js';
import { item_of_vtpass, upstream_code } from '../upstream-codes.js';
import { charged_kobo, client_reference_of, commission_of, metadata_of, tv_terms_of, type OrderRecord } from '../order.js';
import type { OrderRequest } from '../../engine/account-orders.js';
import type { ProviderResult } from '../provider.js';
import { iso_us } from '../../lib/time-format.js';
import {
  naira_or_null, sandbox_reference, verify_reply,
  type FlutterwaveBill, type PlanContext, type ProductFamily, type ProductRequest, type PurchasePlan, type ValidVerification,
} from './family.js';
import { purchase_errors } from './purchase-errors.js';

/** Months one TV purchase may pay for, where the provider allows more than one (docs/api.md "TV renewals and months"). */
export const tv_quantity_max = 12;

/** Providers whose smartcards can be renewed and paid several months at once: VTpass takes subscription_type and quantity for these. */
const tv_terms_providers: readonly string[] = ['dstv', 'gotv'];

export const TvBody = Type.Object({
  provider: TvProviderName,
  smartcard_number: Smartcard,
  // Required for change, the default; optional for renew (tv_plan checks which).
  package_code: Type.Optional(FreeText({ minLength: 1, maxLength: 64, errorMessage: 'must be a package_code from GET /v1/services/tv/packages' })),
  amount: Amount('must equal the package price (change) or the renewal amount (renew), times quantity, in NGN'),
  pin: Pin,
  subscription_type: Type.Optional(Type.Enum(['change', 'renew'], {
    description: 'change (default, as before: buy package_code) or renew (the smartcard\'s current package at its renewal amount; DStv and GOtv)',
    errorMessage: 'must be change or renew',
  })),
  quantity: Type.Optional(Type.Integer({
    minimum: 1,
    maximum: tv_quantity_max,
    description: `months, 1 to ${tv_quantity_max} (DStv and GOtv; StarTimes: 1), default 1`,
    errorMessage: `must be a whole number of months from 1 to ${tv_quantity_max}`,
  })),
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
  reference: Type.String(), status: Status, provider: TvProviderName, smartcard_number: Type.String(),
  package_code: Type.Union([Type.String(), Type.Null()], { description: 'null only for a renewal whose current package the provider did not name' }),
  amount: Naira, amount_charged: AmountCharged, commission: Commission, customer_name: Type.Union([Type.String(), Type.Null()]), wallet_balance_after: Naira, delivered_at: Type.Union([Timestamp, Type.Null()]), ...extras_view, ...promised_view,
  // Only where the request set them (docs/api.md "TV renewals and months").
  subscription_type: Type.Optional(Type.Enum(['change', 'renew'])),
  quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: tv_quantity_max, description: 'months paid for' })),
});

/** docs/api.md "Deeper verification": the current package's code and renewal amount, each null when the provider does not say. */
export const SmartcardVerifyView = Type.Object({
  ...VerifyResultView.properties,
  current_package_code: Type.Union([Type.String({ description: 'the package_code of the current package (VTpass Current_Bouquet_Code)' }), Type.Null()]),
  renewal_amount: Type.Union([Type.Number({ minimum: 0, description: 'NGN one month of the current package costs with subscription_type renew (VTpass Renewal_Amount)' }), Type.Null()]),
});

function smartcard_details_view(result: ValidVerification) {
  return { current_package_code: result.current_package_code ?? null, renewal_amount: naira_or_null(result.renewal_amount_kobo) };
}

/**
 * A renewal's price, decided from the smartcard verification the purchase does anyway: the provider's
 * renewal amount of the current package × months. A package_code sent with renew must be that package.
 */
function renewal_outcome(verification: ValidVerification, catalog: Catalog, body: Static<typeof TvBody>, amount_kobo: number): ApiError | Partial<OrderRequest> {
  const renewal_kobo = verification.renewal_amount_kobo;
  if (renewal_kobo == null || renewal_kobo <= 0) return api_error('service.renewal_unavailable');
  const current_code = verification.current_package_code ?? null;
  if (body.package_code !== undefined && current_code !== null && body.package_code !== current_code) {
    return api_error('service.plan_not_found', `A renewal pays the smartcard's current package "${current_code}", not "${body.package_code}"; use subscription_type change to move to another.`);
  }
  const quantity = body.quantity ?? 1;
  if (renewal_kobo * quantity !== amount_kobo) {
    return api_error('service.amount_mismatch', `Amount ${kobo_to_naira(amount_kobo)} differs from the renewal amount ${kobo_to_naira(renewal_kobo)} × ${quantity} month(s) = ${kobo_to_naira(renewal_kobo * quantity)}.`, {
      extra: { renewal_amount: kobo_to_naira(renewal_kobo) },
    });
  }
  const code = current_code ?? body.package_code ?? null;
  return { package_code: code, plan: verification.current_package ?? (code === null ? null : catalog.package(code)?.name ?? null) };
}

/** Bouquet codes read from one Current_Bouquet_Code: a bound on what one answer can make us walk. */
const bouquet_codes_max = 10;

/**
 * Our package_code of a smartcard's current bouquet, from VTpass's merchant-verify Current_Bouquet_Code: a
 * comma-separated list of VTpass variation codes, the bouquet and its add-ons ("dstv79, extraview-access").
 * The first code that is one of our packages of that provider wins (add-ons are not packages). A code that
 * is already one of our package codes of that provider is taken as it is (the sandbox speaks our codes, and
 * for most GOtv and some DStv bouquets the two are the same). Null when none is.
 */
export function current_package_of_vtpass(provider: string, text: unknown): string | null {
  if (typeof text !== 'string') return null;
  for (const raw of text.split(',').slice(0, bouquet_codes_max)) {
    const code = raw.trim();
    if (code === '') continue;
    const item = item_of_vtpass(provider, code);
    if (item !== undefined && item.kind === 'tv-packages') return item.id;
    if (upstream_code({ service_type: 'tv', package_code: code }, 'vtpass')?.service_id === provider) return code;
  }
  return null;
}

/** The subscription's due date of a VTpass merchant-verify answer: `Due_Date`, or `DUE_DATE` as many answers spell it. */
export function due_date_of_vtpass(content: Record<string, unknown>): string | null {
  for (const value of [content.Due_Date, content.DUE_DATE]) {
    if (typeof value === 'string' && value.trim() !== '') return value.trim().slice(0, 64);
  }
  return null;
}

/** Cable TV by provider on Flutterwave (bill categories: DSTV CB141). */
const tv_bills: Record<string, FlutterwaveBill> = {
  dstv: { type: 'DSTV', biller_code: 'BIL119', item_code: 'CB141' },
};

/** The Flutterwave bill of a package (its own codes, src/services/upstream-codes.ts), else of its provider. */
function tv_flutterwave_bill(product: { provider: string | null; package_code?: string | null }): FlutterwaveBill | null {
  const own = product.package_code ? upstream_code({ service_type: 'tv', package_code: product.package_code }, 'flutterwave') : null;
  return own ?? tv_bills[product.provider ?? ''] ?? null;
}

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
  return verify_reply(request.request_id, result, 'service.invalid_smartcard', 'Smartcard verified.', { provider: body.provider, smartcard_number: body.smartcard_number }, smartcard_details_view);
}

function tv_plan(raw: unknown, context: PlanContext): PurchasePlan | ApiError {
  const body = raw as Static<typeof TvBody>;
  const renew = body.subscription_type === 'renew';
  const quantity = body.quantity ?? 1;
  // Per provider (docs/api.md "TV renewals and months"): StarTimes takes neither a renewal nor months.
  if (renew && !tv_terms_providers.includes(body.provider)) return invalid('subscription_type', `renew is offered for ${tv_terms_providers.join(' and ')} only`);
  if (quantity > 1 && !tv_terms_providers.includes(body.provider)) return invalid('quantity', `must be 1 for ${body.provider}`);
  if (!renew && body.package_code === undefined) return invalid('package_code', 'is required unless subscription_type is renew');
  const amount = naira_to_kobo(body.amount);
  if (!amount.ok) return invalid('amount', amount.reason);
  const catalog = context.catalog;
  const item = body.package_code === undefined ? undefined : catalog.package(body.package_code);
  const provider = context.provider;
  return {
    order: {
      service_type: 'tv', network: null, disco: null, provider: body.provider, recipient: body.smartcard_number,
      plan_code: null, plan: item?.name ?? null, package_code: body.package_code ?? null, meter_type: null, amount_kobo: amount.kobo, customer_name: null,
      // Kept on the order only where the request set them: a request without them is today's.
      ...(body.subscription_type !== undefined ? { subscription_type: body.subscription_type } : {}),
      ...(body.quantity !== undefined ? { quantity: body.quantity } : {}),
    },
    check: () => {
      // Read at execution: the operator or the catalog sync may have disabled the package meanwhile.
      const current = body.package_code === undefined ? undefined : catalog.package(body.package_code);
      if (body.package_code !== undefined && (current === undefined || current.provider !== body.provider || (!renew && !current.enabled))) {
        return api_error('service.plan_not_found', `Package "${body.package_code}" of ${body.provider} is not available.`);
      }
      // A renewal's price is the provider's, known after verification (renewal_outcome).
      if (renew || current === undefined) return null;
      if (current.amount_kobo * quantity !== amount.kobo) {
        return api_error('service.amount_mismatch', quantity === 1
          ? `Amount ${body.amount} differs from the package price ${kobo_to_naira(current.amount_kobo)}.`
          : `Amount ${body.amount} differs from the package price ${kobo_to_naira(current.amount_kobo)} × ${quantity} months = ${kobo_to_naira(current.amount_kobo * quantity)}.`);
      }
      return null;
    },
    verify: () => provider.verify_smartcard(body.provider, body.smartcard_number),
    invalid_code: 'service.invalid_smartcard',
    ...(renew ? { on_verified: (verification: ValidVerification) => renewal_outcome(verification, catalog, body, amount.kobo) } : {}),
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
    ...tv_terms_of(order),
  };
}

function tv_sandbox_delivered(order: OrderRecord): ProviderResult {
  return { outcome: 'delivered', customer_name: 'Test Customer', provider_reference: sandbox_reference(order) };
}

/**
 * VTpass's TV pay fields: subscription_type "change" with the package's variation_code as before, or
 * "renew", which takes none; quantity (months) only when the order set it; amount is the total.
 */
function vtpass_tv_fields(order: OrderRecord): Record<string, unknown> | null {
  const renew = order.subscription_type === 'renew';
  // VTpass's own code of the package (DStv Compact is dstv79), never our package_code.
  const code = renew ? null : upstream_code(order, 'vtpass');
  if (!renew && code === null) return null;
  return {
    billersCode: order.recipient,
    variation_code: code?.variation_code,
    // No phone in the request: the adapter sends the account's (docs/upstreams.md "The customer's phone").
    subscription_type: renew ? 'renew' : 'change',
    quantity: order.quantity,
  };
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
      doc: { summary: 'Verify a smartcard or IUC number: the customer name, current package (and its code), due date and renewal_amount', tags: ['Cable TV'], response: SmartcardVerifyView, success_status: 200, errors: ['service.invalid_smartcard', 'transaction.provider_unavailable'] },
      handler: verify_smartcard,
    },
  ],
  purchase: {
    path: '/v1/services/tv',
    body: TvBody,
    doc: {
      summary: 'Renew or change a cable TV subscription; amount must equal the package price (change) or the renewal amount (renew), times quantity',
      tags: ['Cable TV'], response: TvResult, success_status: 201,
      errors: [...purchase_errors, 'service.plan_not_found', 'service.amount_mismatch', 'service.invalid_smartcard', 'service.renewal_unavailable'],
    },
    plan: tv_plan,
  },
  result_view: tv_result_view,
  sandbox_delivered: tv_sandbox_delivered,
  upstream: {
    vtpass_service_id: (order) => order.provider!,
    vtpass_pay_fields: vtpass_tv_fields,
    flutterwave_bill: tv_flutterwave_bill,
    flutterwave_customer: (order) => order.recipient,
  },
};
