// Internet (docs/api.md "Education and internet"): Smile bundles credited to a Smile account, verified first by its
// account number, phone or e-mail; Spectranet bundles sold as PINs (serial and PIN), delivered like exam
// PINs: sealed on the order, shown to the reseller's key only, never in webhooks, exports or logs.
import { createHash } from 'node:crypto';
import type { Static } from 'typebox';
import Type from 'typebox';
import { kobo_to_naira, naira_to_kobo } from '../../lib/money.js';
import { error_reply, success_reply, type Reply } from '../../lib/reply.js';
import { api_error, invalid, type ApiError } from '../../errors.js';
import { FreeText, Naira, Timestamp } from '../../schemas/common.js';
import { Amount, AmountCharged, Commission, LocalPhone, Pin, Status, extras_view, promised_view, purchase_extras } from '../../schemas/service-schemas.js';
import type { Catalog } from '../catalog.js';
import { pins_of, purchase_tail_view, type OrderRecord } from '../order.js';
import type { CustomerCheck, ProviderResult, VerifyResult } from '../provider.js';
import { provider_unavailable } from '../provider.js';
import { upstream_code } from '../upstream-codes.js';
import {
  chosen_plan_code, sandbox_reference,
  type PlanContext, type ProductFamily, type ProductRequest, type PurchasePlan, type Unsealer,
} from './family.js';
import { purchase_errors } from './purchase-errors.js';

export const internet_kind = 'internet-plans';
export const internet_providers = ['smile', 'spectranet'] as const;
type InternetProvider = (typeof internet_providers)[number];

/** Sandbox Smile accounts (docs/api.md "Sandbox"): these are unknown; every other account is valid. */
export const sandbox_invalid_accounts = ['0000000000', 'invalid@example.com'] as const;

const ProviderName = Type.Enum([...internet_providers]);
/** A Smile account number (6 to 15 digits, which covers phone numbers) or the e-mail it was opened with. */
const Account = Type.String({
  minLength: 6, maxLength: 254, pattern: '^([0-9]{6,15}|[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,185}\\.[A-Za-z]{2,})$',
  errorMessage: 'must be a Smile account number, phone number or e-mail address',
});

export const InternetBody = Type.Object({
  provider: ProviderName,
  plan_code: Type.Optional(FreeText({ minLength: 1, maxLength: 64, description: 'the plan to buy, as GET /v1/services/internet/plans lists it (plan_code or plan_id: the same value); plan_code or plan_id is required', errorMessage: 'must be a plan_code from GET /v1/services/internet/plans' })),
  plan_id: Type.Optional(FreeText({ minLength: 1, maxLength: 64, description: 'another name of plan_code: give either (both: the same value)', errorMessage: 'must be a plan_id from GET /v1/services/internet/plans' })),
  account: Type.Optional(Account),
  phone: LocalPhone,
  amount: Amount('must equal the plan price in NGN'),
  pin: Pin,
  ...purchase_extras,
});

export const VerifyAccountBody = Type.Object({ provider: ProviderName, account: Account });

export const InternetPlanView = Type.Object({
  plan_id: Type.String({ description: 'the plan\'s code: a purchase takes it as plan_code or plan_id' }),
  plan_code: Type.String({ description: 'the same value as plan_id, under the name the purchase uses' }),
  name: Type.String(),
  provider: ProviderName,
  amount: Naira,
  amount_charged: Type.Number({ minimum: 0, description: 'what the calling account\'s wallet pays for it: amount less its tier\'s commission (docs/api.md "Pricing")' }),
  validity: Type.String(),
});

export const AccountView = Type.Object({ provider: ProviderName, account: Type.String(), customer_name: Type.String() });

export const InternetResult = Type.Object({
  reference: Type.String(), status: Status, provider: ProviderName, plan_code: Type.String(), plan: Type.Union([Type.String(), Type.Null()]),
  account: Type.Union([Type.String(), Type.Null()]), phone: Type.String(), customer_name: Type.Union([Type.String(), Type.Null()]),
  pins: Type.Union([Type.Array(Type.Object({ serial: Type.Union([Type.String(), Type.Null()]), pin: Type.String() })), Type.Null()], { description: 'Spectranet: the purchased PIN once delivered; null for Smile and while processing' }),
  amount: Naira, amount_charged: AmountCharged, commission: Commission, wallet_balance_after: Naira, delivered_at: Type.Union([Timestamp, Type.Null()]), ...extras_view, ...promised_view,
});

function internet_plans(catalog: Catalog) {
  return catalog.item_list(internet_kind);
}

function list_internet_plans(request: ProductRequest): Reply {
  const provider = request.query.get('provider');
  if (provider !== null && !(internet_providers as readonly string[]).includes(provider)) {
    return error_reply(request.request_id, invalid('provider', `must be one of: ${internet_providers.join(', ')}`));
  }
  return success_reply(request.request_id, 200, {
    plans: internet_plans(request.catalog).list(provider).map((item) => ({
      plan_id: item.code, plan_code: item.code, name: item.name, provider: item.group, amount: kobo_to_naira(item.amount_kobo),
      amount_charged: request.charged_naira('internet', item.group, item.amount_kobo), validity: String(item.attributes.validity ?? ''),
    })),
  });
}

function account_check(account: string): CustomerCheck {
  return { service_type: 'internet', provider: 'smile', service_id: 'smile-direct', billers_code: account, ...(account.includes('@') ? { type: 'email' } : {}) };
}

async function verify_account(request: ProductRequest): Promise<Reply> {
  const body = request.body as Static<typeof VerifyAccountBody>;
  if (body.provider !== 'smile') return error_reply(request.request_id, invalid('provider', 'must be smile: Spectranet bundles are PINs, with no account to verify'));
  const result: VerifyResult = await request.provider.verify_customer(account_check(body.account));
  if (result.outcome === 'invalid') return error_reply(request.request_id, api_error('service.invalid_account'));
  if (result.outcome === 'unavailable') return provider_unavailable(request.request_id, 60);
  return success_reply(request.request_id, 200, { provider: body.provider, account: body.account, customer_name: result.customer_name }, 'Account verified.');
}

function internet_plan(raw: unknown, context: PlanContext): PurchasePlan | ApiError {
  const body = raw as Static<typeof InternetBody>;
  const amount = naira_to_kobo(body.amount);
  if (!amount.ok) return invalid('amount', amount.reason);
  const plan_code = chosen_plan_code(body);
  if (typeof plan_code !== 'string') return plan_code;
  const smile = body.provider === 'smile';
  if (smile && body.account === undefined) return invalid('account', 'is required for Smile');
  const account = smile ? body.account! : null;
  const plans = internet_plans(context.catalog);
  const item = plans.get(plan_code);
  const provider = context.provider;
  return {
    order: {
      service_type: 'internet', network: null, disco: null, provider: body.provider, recipient: body.phone,
      plan_code, plan: item?.name ?? null, package_code: null, meter_type: null, amount_kobo: amount.kobo, customer_name: null,
      customer_id: account,
    },
    check: () => {
      // Read at execution: the operator may have re-priced or disabled the plan meanwhile.
      const current = plans.get(plan_code);
      if (current === undefined || !current.enabled || current.group !== body.provider) {
        return api_error('service.plan_not_found', `Internet plan "${plan_code}" of ${body.provider} is missing or disabled.`);
      }
      if (current.amount_kobo !== amount.kobo) return api_error('service.amount_mismatch', `Amount ${body.amount} differs from the plan price ${kobo_to_naira(current.amount_kobo)}.`);
      return null;
    },
    ...(account !== null ? { verify: () => provider.verify_customer(account_check(account)), invalid_code: 'service.invalid_account' as const } : {}),
  };
}

function internet_result_view(order: OrderRecord, secrets: Unsealer) {
  return {
    reference: order.reference,
    status: order.status,
    provider: order.provider,
    plan_code: order.plan_code,
    plan: order.plan,
    account: order.customer_id ?? null,
    phone: order.recipient,
    customer_name: order.customer_name,
    pins: pins_of(order, secrets),
    ...purchase_tail_view(order),
  };
}

function sandbox_digits(reference: string, length: number): string {
  const digest = createHash('sha256').update(`${reference}#spectranet`).digest();
  let digits = '';
  for (let i = 0; digits.length < length; i++) digits += String(digest[i % digest.length] % 10);
  return digits;
}

function internet_sandbox_delivered(order: OrderRecord): ProviderResult {
  const spectranet = (order.provider as InternetProvider) === 'spectranet';
  return {
    outcome: 'delivered',
    customer_name: order.customer_name,
    provider_reference: sandbox_reference(order),
    ...(spectranet ? { pins: [{ serial: `SPN${sandbox_digits(order.reference, 10)}`, pin: sandbox_digits(`${order.reference}/pin`, 16) }] } : {}),
  };
}

function internet_sandbox_verify(check: CustomerCheck): VerifyResult {
  return (sandbox_invalid_accounts as readonly string[]).includes(check.billers_code) ? { outcome: 'invalid' } : { outcome: 'valid', customer_name: 'Test Subscriber', address: null };
}

export const internet_family: ProductFamily = {
  service_type: 'internet',
  messages: {
    delivered: 'Internet bundle purchase successful.',
    processing: 'Internet bundle purchase is processing; the outcome follows by webhook and on GET /v1/transactions/{reference}.',
  },
  catalog_kinds: [internet_kind],
  routes: [
    {
      method: 'get',
      path: '/v1/services/internet/plans',
      scope: null,
      doc: {
        summary: 'Enabled internet plans (Smile, Spectranet), optionally of one provider',
        tags: ['Internet'],
        response: Type.Object({ plans: Type.Array(InternetPlanView) }),
        query: { provider: { schema: ProviderName, description: 'smile or spectranet' } },
        errors: ['validation.failed'],
      },
      handler: list_internet_plans,
    },
    {
      method: 'post',
      path: '/v1/services/internet/verify',
      scope: 'services:purchase',
      body: VerifyAccountBody,
      idempotent: false,
      doc: { summary: 'Verify a Smile account (account number, phone or e-mail) before buying: the customer name', tags: ['Internet'], response: AccountView, success_status: 200, errors: ['validation.failed', 'service.invalid_account', 'transaction.provider_unavailable'] },
      handler: verify_account,
    },
  ],
  purchase: {
    path: '/v1/services/internet',
    body: InternetBody,
    doc: {
      summary: 'Buy a Smile bundle for an account or a Spectranet PIN; amount must equal the plan price',
      tags: ['Internet'], response: InternetResult, success_status: 201,
      errors: [...purchase_errors, 'validation.failed', 'service.plan_not_found', 'service.amount_mismatch', 'service.invalid_account'],
    },
    plan: internet_plan,
  },
  result_view: internet_result_view,
  sandbox_delivered: internet_sandbox_delivered,
  sandbox_verify: internet_sandbox_verify,
  upstream: {
    vtpass_service_id: (order) => upstream_code(order, 'vtpass')?.service_id ?? (order.provider === 'smile' ? 'smile-direct' : 'spectranet'),
    vtpass_pay_fields: (order) => {
      const code = upstream_code(order, 'vtpass');
      if (code === null) return null;
      return {
        billersCode: order.customer_id ?? order.recipient,
        variation_code: code.variation_code,
        ...(order.provider === 'spectranet' ? { quantity: 1 } : {}),
        phone: order.recipient,
      };
    },
    flutterwave_bill: () => null,
    flutterwave_customer: (order) => order.recipient,
  },
};
