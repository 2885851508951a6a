// The four services, their verification endpoints and the catalog (docs/spec.md section 4, docs/decisions.md
// "Services"). A purchase runs: validation → idempotency → PIN → catalog → recipient verification →
// provider availability → daily limit → balance → debit, and the order desk takes it from there.
import type { Static } from 'typebox';
import Type from 'typebox';
import type { Deps } from '../deps.js';
import type { RequestContext, RouteDef } from '../route.js';
import { error_reply, success_reply, type Reply } from '../../lib/reply.js';
import { fingerprint, idempotency_key, query_params } from '../request-helpers.js';
import { api_error, type ApiError } from '../../errors.js';
import { naira_to_kobo, kobo_to_naira } from '../../lib/money.js';
import { peek_idempotent, run_idempotent } from '../../engine/idempotency.js';
import { remembered_error } from '../remembered.js';
import type { Catalog, Network, PlanType, TvProvider } from '../../services/catalog.js';
import { networks, plan_types, tv_providers } from '../../services/catalog.js';
import type { OrderDesk } from '../../services/order-desk.js';
import type { OrderRequest } from '../../engine/account-orders.js';
import { provider_unavailable } from '../../services/order-desk.js';
import { pin_check_busy_error } from '../../engine/pin-cache.js';
import type { VerifyResult } from '../../services/provider.js';
import {
  AirtimeBody, AirtimeResult, DataBody, DataPlanView, DataResult, DiscoView, ElectricityBody, ElectricityResult,
  TvBody, TvPackageView, TvResult, VerifyMeterBody, VerifyResultView, VerifySmartcardBody,
} from '../../schemas/service-schemas.js';
import { fail } from '../../lib/assert.js';
import { commission_kobo, pricing_rounding_rule } from '../../services/pricing.js';
import { AccountPricingView } from '../../schemas/pricing-schemas.js';

export const airtime_kobo_min = 50_00;
export const airtime_kobo_max = 50_000_00;
export const electricity_kobo_min = 500_00;

function invalid(field: string, message: string): ApiError {
  return api_error('validation.failed', `The request is not valid: ${field} ${message}.`, { details: [{ field, message }] });
}

/** Amount in kobo within [min, max], or the validation error (limits of docs/spec.md section 8). */
function amount_in(value: number, min_kobo: number, max_kobo: number | null, hint: string): number | ApiError {
  const parsed = naira_to_kobo(value);
  if (!parsed.ok) return invalid('amount', parsed.reason);
  if (parsed.kobo < min_kobo || (max_kobo !== null && parsed.kobo > max_kobo)) return invalid('amount', hint);
  return parsed.kobo;
}

interface PurchasePlan {
  order: OrderRequest;
  /** Catalog checks that run after the PIN (plan missing or disabled, price mismatch). */
  check?: () => ApiError | null;
  /** Recipient verification with the provider (meters, smartcards), after the PIN and the catalog. */
  verify?: () => VerifyResult | Promise<VerifyResult>;
  invalid_code?: 'service.invalid_meter' | 'service.invalid_smartcard';
  /**
   * Inside the command, after a valid verification: a refusal decided from what the provider said (a
   * minimum amount, a meter that cannot vend, a renewal price), or what it adds to the order (the
   * renewed package). docs/api.md "Deeper verification".
   */
  on_verified?: (verification: ValidVerification) => ApiError | Partial<OrderRequest> | null;
}

type ValidVerification = Extract<VerifyResult, { outcome: 'valid' }>;

/** Attempts to recompute a PIN verdict when the PIN changes while the first was being computed. */
const pin_attempts_max = 3;

async function purchase(deps: Deps, desk: OrderDesk, ctx: RequestContext, plan: PurchasePlan | ApiError): Promise<Reply> {
  const key = idempotency_key(ctx);
  if (key !== null && typeof key === 'object') return error_reply(ctx.request_id, key);
  if ('code' in plan) return remembered_error(deps, ctx, plan);
  const actor = ctx.actor!;
  const environment = ctx.environment;
  const pin = (ctx.body as { pin: string }).pin;
  // Validated by the body schema (docs/api.md "Client references"); claimed in the command that debits.
  const extras = ctx.body as { client_reference?: string; metadata?: Record<string, string> };
  const request = {
    actor,
    environment,
    key,
    fingerprint: fingerprint(ctx),
    request_id: ctx.request_id,
    now_ms: deps.clock.now_ms(),
  };
  const resume = (record: Parameters<OrderDesk['resume']>[4]) => desk.resume(actor, environment, ctx.request_id, key!, record);
  // A replay, or a repeat of a request in flight, costs neither a PIN check nor a provider call.
  const earlier = peek_idempotent(request, resume);
  if (earlier !== null) return earlier;
  // Whether anything was awaited since the peek: if not, the peek still holds and run_idempotent
  // need not read the store again (the common case: PIN known, sandbox verification instant).
  let awaited = false;
  for (let attempt = 0; attempt < pin_attempts_max; attempt++) {
    const account = actor.account;
    const generation = account.pin_generation;
    let correct = false;
    if (account.pin_hash !== null && actor.pin_lock_remaining_ms(deps.clock.now_ms()) === 0) {
      const verdict = deps.engine.pin_cache.verify(actor.id, generation, pin, account.pin_hash);
      let answer: boolean | 'busy';
      if (verdict instanceof Promise) {
        awaited = true;
        answer = await verdict;
      } else answer = verdict;
      // The PIN lane is full (a flood of first purchases): no verdict, so not a wrong PIN either.
      if (answer === 'busy') return error_reply(ctx.request_id, pin_check_busy_error());
      correct = answer;
    }
    const catalog_error = correct && plan.check ? plan.check() : null;
    let verification: VerifyResult | null = null;
    if (correct && catalog_error === null && plan.verify) {
      const result = plan.verify();
      if (result instanceof Promise) {
        awaited = true;
        verification = await result;
      } else verification = result;
    }
    // The PIN changed while we waited: the verdict is about the old one, compute it again.
    if (actor.account.pin_generation !== generation) continue;
    return run_idempotent({ ...request, now_ms: deps.clock.now_ms() }, () => {
      const now_ms = deps.clock.now_ms();
      const verdict = actor.apply_pin_verdict(correct, generation, now_ms);
      if (verdict === 'stale') fail('PIN verdict went stale inside one command');
      if (verdict !== 'ok') return error_reply(ctx.request_id, verdict);
      const refused = plan.check ? plan.check() : null;
      if (refused !== null) return error_reply(ctx.request_id, refused);
      let customer_name: string | null = null;
      let decided: Partial<OrderRequest> | null = null;
      if (verification !== null) {
        if (verification.outcome === 'invalid') return error_reply(ctx.request_id, api_error(plan.invalid_code!));
        if (verification.outcome === 'unavailable') return provider_unavailable(ctx.request_id, 60);
        customer_name = verification.customer_name;
        const outcome = plan.on_verified ? plan.on_verified(verification) : null;
        if (outcome !== null && 'code' in outcome) return error_reply(ctx.request_id, outcome);
        decided = outcome;
      }
      return desk.place(actor, environment, ctx.request_id, key, request.fingerprint, {
        ...plan.order, ...decided, customer_name: customer_name ?? plan.order.customer_name, client_reference: extras.client_reference ?? null, metadata: extras.metadata ?? null,
      });
    }, resume, !awaited);
  }
  return error_reply(ctx.request_id, api_error('service.unavailable', 'The transaction PIN kept changing during this request; retry.', { headers: { 'Retry-After': '1' } }));
}

const naira_or_null = (kobo: number | null | undefined) => (kobo == null ? null : kobo_to_naira(kobo));

/** docs/api.md "Deeper verification": each null when the provider does not say. */
function meter_details_view(result: ValidVerification) {
  return { arrears: naira_or_null(result.arrears_kobo), minimum_amount: naira_or_null(result.minimum_amount_kobo), can_vend: result.can_vend ?? null };
}

function smartcard_details_view(result: ValidVerification) {
  return { current_package_code: result.current_package_code ?? null, renewal_amount: naira_or_null(result.renewal_amount_kobo) };
}

function verify_reply(request_id: string, result: VerifyResult, invalid_code: 'service.invalid_meter' | 'service.invalid_smartcard', extra: Record<string, unknown>): Reply {
  if (result.outcome === 'invalid') return error_reply(request_id, api_error(invalid_code));
  if (result.outcome === 'unavailable') return provider_unavailable(request_id, 60);
  const meter = invalid_code === 'service.invalid_meter';
  return success_reply(request_id, 200, {
    ...extra,
    customer_name: result.customer_name,
    address: result.address,
    ...(result.current_package !== undefined ? { current_package: result.current_package } : {}),
    ...(result.due_date !== undefined ? { due_date: result.due_date } : {}),
    ...(meter ? meter_details_view(result) : smartcard_details_view(result)),
  }, meter ? 'Meter verified.' : 'Smartcard verified.');
}

/**
 * Electricity refusals from the meter's verification (docs/api.md "Deeper verification"): a meter the
 * disco takes no payment for, and an amount below the meter's minimum (arrears often set one).
 */
function meter_refusal(verification: ValidVerification, amount_kobo: number): ApiError | null {
  if (verification.can_vend === false) {
    return api_error('service.meter_cannot_vend', 'The distribution company takes no payment for this meter now (can_vend is false); nothing was debited.');
  }
  const minimum_kobo = verification.minimum_amount_kobo;
  if (minimum_kobo != null && amount_kobo < minimum_kobo) {
    return api_error('service.amount_below_minimum', `Amount ${kobo_to_naira(amount_kobo)} is below this meter's minimum of ${kobo_to_naira(minimum_kobo)} NGN; nothing was debited.`, {
      details: [{ field: 'amount', message: `must be at least ${kobo_to_naira(minimum_kobo)} NGN for this meter` }],
      extra: { minimum_amount: kobo_to_naira(minimum_kobo) },
    });
  }
  return null;
}

/** Providers whose smartcards can be renewed and paid for several months at once (docs/api.md "TV renewals and months"). */
const tv_terms_providers: readonly string[] = ['dstv', 'gotv'];

/**
 * A renewal's price, decided from the smartcard's verification: the provider's renewal amount of the
 * current package × months. A package_code sent with renew must be that current package.
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

export function service_routes(deps: Deps, catalog: Catalog, desk: OrderDesk): RouteDef[] {
  const pricing = desk.pricing;
  /** What the calling account's wallet would pay for a product of this face value (docs/api.md "Pricing"). */
  const charged_naira = (ctx: RequestContext, service_type: 'data' | 'tv', narrow: string, amount_kobo: number) =>
    kobo_to_naira(amount_kobo - commission_kobo(amount_kobo, pricing.rate_bp(ctx.actor!.account.tier, service_type, narrow)));
  const plan_view = (ctx: RequestContext, plan: ReturnType<Catalog['enabled_plans']>[number]) => ({
    plan_id: plan.plan_id, name: plan.name, network: plan.network, plan_type: plan.plan_type, amount: kobo_to_naira(plan.amount_kobo),
    amount_charged: charged_naira(ctx, 'data', plan.network, plan.amount_kobo), validity: plan.validity,
  });
  const purchase_errors = ['pin.incorrect', 'pin.locked', 'pin.not_set', 'wallet.insufficient_funds', 'wallet.limit_exceeded', 'transaction.failed', 'transaction.provider_unavailable', 'idempotency.key_reused', 'transaction.duplicate_reference'];
  return [
    {
      method: 'get',
      path: '/v1/pricing',
      auth: 'api_key',
      scope: null,
      doc: {
        summary: 'The calling account\'s tier and its effective discount rate for every product',
        description: 'commission = floor(amount_kobo × rate_bp / 10000); the wallet is debited amount_charged = amount − commission (docs/api.md "Pricing").',
        tags: ['Pricing'],
        response: AccountPricingView,
      },
      handler: (ctx) => {
        const tier = ctx.actor!.account.tier;
        return success_reply(ctx.request_id, 200, { tier, rounding: pricing_rounding_rule, rates: pricing.effective_rates(tier) });
      },
    },
    {
      method: 'get',
      path: '/v1/services/data/plans',
      auth: 'api_key',
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
      handler: (ctx) => {
        const params = query_params(ctx);
        const network = params.get('network');
        if (network !== null && !(networks as readonly string[]).includes(network)) {
          return error_reply(ctx.request_id, invalid('network', `must be one of: ${networks.join(', ')}`));
        }
        const plan_type = params.get('plan_type');
        if (plan_type !== null && !(plan_types as readonly string[]).includes(plan_type)) {
          return error_reply(ctx.request_id, invalid('plan_type', `must be one of: ${plan_types.join(', ')}`));
        }
        return success_reply(ctx.request_id, 200, { plans: catalog.enabled_plans(network as Network | null, plan_type as PlanType | null).map((plan) => plan_view(ctx, plan)) });
      },
    },
    {
      method: 'get',
      path: '/v1/services/tv/packages',
      auth: 'api_key',
      scope: null,
      doc: {
        summary: 'Cable TV packages, optionally of one provider',
        tags: ['Cable TV'],
        response: Type.Object({ packages: Type.Array(TvPackageView) }),
        query: { provider: { schema: Type.Enum([...tv_providers]), description: 'dstv, gotv or startimes' } },
        errors: ['validation.failed'],
      },
      handler: (ctx) => {
        const provider = query_params(ctx).get('provider');
        if (provider !== null && !(tv_providers as readonly string[]).includes(provider)) {
          return error_reply(ctx.request_id, invalid('provider', `must be one of: ${tv_providers.join(', ')}`));
        }
        return success_reply(ctx.request_id, 200, {
          packages: catalog.packages_of(provider as TvProvider | null).map((p) => ({ package_code: p.package_code, name: p.name, provider: p.provider, amount: kobo_to_naira(p.amount_kobo), amount_charged: charged_naira(ctx, 'tv', p.provider, p.amount_kobo) })),
        });
      },
    },
    {
      method: 'get',
      path: '/v1/services/electricity/discos',
      auth: 'api_key',
      scope: null,
      doc: { summary: 'The nine distribution companies and their service IDs', tags: ['Electricity'], response: Type.Object({ discos: Type.Array(DiscoView) }) },
      handler: (ctx) => success_reply(ctx.request_id, 200, { discos: catalog.discos }),
    },
    {
      method: 'post',
      path: '/v1/services/airtime',
      auth: 'api_key',
      scope: 'services:purchase',
      body: AirtimeBody,
      doc: { summary: 'Buy airtime (NGN 50 to 50,000)', tags: ['Airtime'], response: AirtimeResult, success_status: 201, errors: purchase_errors },
      handler: (ctx) => {
        const body = ctx.body as Static<typeof AirtimeBody>;
        const amount_kobo = amount_in(body.amount, airtime_kobo_min, airtime_kobo_max, 'must be from 50 to 50000 NGN');
        return purchase(deps, desk, ctx, typeof amount_kobo !== 'number' ? amount_kobo : {
          order: {
            service_type: 'airtime', network: body.network, disco: null, provider: null, recipient: body.phone,
            plan_code: null, plan: null, package_code: null, meter_type: null, amount_kobo, customer_name: null,
          },
        });
      },
    },
    {
      method: 'post',
      path: '/v1/services/data/purchase',
      auth: 'api_key',
      scope: 'services:purchase',
      body: DataBody,
      doc: { summary: 'Buy a data bundle; amount must equal the plan price', tags: ['Data'], response: DataResult, success_status: 201, errors: [...purchase_errors, 'service.plan_not_found', 'service.amount_mismatch'] },
      handler: (ctx) => {
        const body = ctx.body as Static<typeof DataBody>;
        const amount = naira_to_kobo(body.amount);
        if (!amount.ok) return purchase(deps, desk, ctx, invalid('amount', amount.reason));
        const plan = catalog.plan(body.plan_code);
        return purchase(deps, desk, ctx, {
          order: {
            service_type: 'data', network: body.network, disco: null, provider: null, recipient: body.phone,
            plan_code: body.plan_code, plan: plan?.name ?? null, package_code: null, meter_type: null, amount_kobo: amount.kobo, customer_name: null,
          },
          check: () => {
            // Read at execution: the operator may have re-priced or disabled the plan meanwhile.
            const current = catalog.plan(body.plan_code);
            if (current === undefined || !current.enabled || current.network !== body.network) {
              return api_error('service.plan_not_found', `Data plan "${body.plan_code}" of ${body.network} is missing or disabled.`);
            }
            if (current.amount_kobo !== amount.kobo) {
              return api_error('service.amount_mismatch', `Amount ${body.amount} differs from the plan price ${kobo_to_naira(current.amount_kobo)}.`);
            }
            return null;
          },
        });
      },
    },
    {
      method: 'post',
      path: '/v1/services/electricity',
      auth: 'api_key',
      scope: 'services:purchase',
      body: ElectricityBody,
      doc: { summary: 'Pay for electricity (NGN 500 or more, and at least the meter\'s minimum_amount); prepaid meters get a token', tags: ['Electricity'], response: ElectricityResult, success_status: 201, errors: [...purchase_errors, 'service.invalid_meter', 'service.amount_below_minimum', 'service.meter_cannot_vend'] },
      handler: (ctx) => {
        const body = ctx.body as Static<typeof ElectricityBody>;
        const disco = catalog.disco(body.disco);
        if (disco === undefined) return purchase(deps, desk, ctx, invalid('disco', 'must be a distribution company service ID or code (GET /v1/services/electricity/discos)'));
        const amount_kobo = amount_in(body.amount, electricity_kobo_min, null, 'must be at least 500 NGN');
        const provider = desk.providers[ctx.environment];
        return purchase(deps, desk, ctx, typeof amount_kobo !== 'number' ? amount_kobo : {
          order: {
            service_type: 'electricity', network: null, disco: disco.service_id, provider: null, recipient: body.meter_number,
            plan_code: null, plan: null, package_code: null, meter_type: body.meter_type, amount_kobo, customer_name: null,
          },
          verify: () => provider.verify_meter(disco.service_id, body.meter_number, body.meter_type),
          invalid_code: 'service.invalid_meter',
          on_verified: (verification) => meter_refusal(verification, amount_kobo),
        });
      },
    },
    {
      method: 'post',
      path: '/v1/services/tv',
      auth: 'api_key',
      scope: 'services:purchase',
      body: TvBody,
      doc: {
        summary: 'Renew or change a cable TV subscription; amount must equal the package price (change) or the renewal amount (renew), times quantity',
        tags: ['Cable TV'], response: TvResult, success_status: 201,
        errors: [...purchase_errors, 'service.plan_not_found', 'service.amount_mismatch', 'service.invalid_smartcard', 'service.renewal_unavailable'],
      },
      handler: (ctx) => {
        const body = ctx.body as Static<typeof TvBody>;
        const renew = body.subscription_type === 'renew';
        // Per provider (docs/api.md "TV renewals and months"): StarTimes takes neither a renewal nor months.
        if ((renew || (body.quantity ?? 1) > 1) && !tv_terms_providers.includes(body.provider)) {
          return purchase(deps, desk, ctx, renew
            ? invalid('subscription_type', `renew is offered for ${tv_terms_providers.join(' and ')} only`)
            : invalid('quantity', `must be 1 for ${body.provider}`));
        }
        if (!renew && body.package_code === undefined) return purchase(deps, desk, ctx, invalid('package_code', 'is required unless subscription_type is renew'));
        const amount = naira_to_kobo(body.amount);
        if (!amount.ok) return purchase(deps, desk, ctx, invalid('amount', amount.reason));
        const item = body.package_code === undefined ? undefined : catalog.package(body.package_code);
        const quantity = body.quantity ?? 1;
        const provider = desk.providers[ctx.environment];
        return purchase(deps, desk, ctx, {
          order: {
            service_type: 'tv', network: null, disco: null, provider: body.provider, recipient: body.smartcard_number,
            plan_code: null, plan: item?.name ?? null, package_code: body.package_code ?? null, meter_type: null, amount_kobo: amount.kobo, customer_name: null,
            // Kept on the order only where the request set them: a request without them is today's.
            ...(body.subscription_type !== undefined ? { subscription_type: body.subscription_type } : {}),
            ...(body.quantity !== undefined ? { quantity: body.quantity } : {}),
          },
          check: () => {
            if (body.package_code !== undefined && (item === undefined || item.provider !== body.provider)) return api_error('service.plan_not_found', `Package "${body.package_code}" of ${body.provider} is not available.`);
            // A renewal's price is the provider's, known after verification (renewal_outcome).
            if (renew || item === undefined) return null;
            if (item.amount_kobo * quantity !== amount.kobo) {
              return api_error('service.amount_mismatch', quantity === 1
                ? `Amount ${body.amount} differs from the package price ${kobo_to_naira(item.amount_kobo)}.`
                : `Amount ${body.amount} differs from the package price ${kobo_to_naira(item.amount_kobo)} × ${quantity} months = ${kobo_to_naira(item.amount_kobo * quantity)}.`);
            }
            return null;
          },
          verify: () => provider.verify_smartcard(body.provider, body.smartcard_number),
          invalid_code: 'service.invalid_smartcard',
          ...(renew ? { on_verified: (verification: ValidVerification) => renewal_outcome(verification, catalog, body, amount.kobo) } : {}),
        });
      },
    },
    {
      method: 'post',
      path: '/v1/services/electricity/verify',
      auth: 'api_key',
      scope: 'services:purchase',
      body: VerifyMeterBody,
      idempotent: false,
      doc: { summary: 'Verify a meter before paying: the customer name and address, and where the disco gives them its arrears, minimum_amount and can_vend', tags: ['Electricity'], response: VerifyResultView, success_status: 200, errors: ['service.invalid_meter', 'transaction.provider_unavailable'] },
      handler: async (ctx) => {
        const body = ctx.body as Static<typeof VerifyMeterBody>;
        const disco = catalog.disco(body.disco);
        if (disco === undefined) return error_reply(ctx.request_id, invalid('disco', 'must be a distribution company service ID or code (GET /v1/services/electricity/discos)'));
        const result = await desk.providers[ctx.environment].verify_meter(disco.service_id, body.meter_number, body.meter_type);
        return verify_reply(ctx.request_id, result, 'service.invalid_meter', { disco: disco.service_id, meter_number: body.meter_number, meter_type: body.meter_type });
      },
    },
    {
      method: 'post',
      path: '/v1/services/tv/verify',
      auth: 'api_key',
      scope: 'services:purchase',
      body: VerifySmartcardBody,
      idempotent: false,
      doc: { summary: 'Verify a smartcard or IUC number: the customer name, current package (and its code), due date and renewal_amount', tags: ['Cable TV'], response: VerifyResultView, success_status: 200, errors: ['service.invalid_smartcard', 'transaction.provider_unavailable'] },
      handler: async (ctx) => {
        const body = ctx.body as Static<typeof VerifySmartcardBody>;
        const result = await desk.providers[ctx.environment].verify_smartcard(body.provider, body.smartcard_number);
        return verify_reply(ctx.request_id, result, 'service.invalid_smartcard', { provider: body.provider, smartcard_number: body.smartcard_number });
      },
    },
  ];
}
