// The four services, their verification endpoints and the catalog (docs/spec.md section 4, docs/decisions.md
// "Services"). A purchase runs: validation → idempotency → PIN → catalog → recipient verification →
// provider availability → daily limit → balance → debit, and the order desk takes it from there.
import type { Static, TSchema } from 'typebox';
import Type from 'typebox';
import type { Deps } from '../deps.js';
import type { RequestContext, RouteDef } from '../route.js';
import { error_reply, success_reply, type Reply } from '../../lib/reply.js';
import { fingerprint, idempotency_key, query_params } from '../request-helpers.js';
import { api_error, type ApiError } from '../../errors.js';
import { naira_to_kobo, kobo_to_naira } from '../../lib/money.js';
import { peek_idempotent, run_idempotent } from '../../engine/idempotency.js';
import { remembered_error } from '../remembered.js';
import type { Catalog, Network, TvProvider } from '../../services/catalog.js';
import { networks, tv_providers } from '../../services/catalog.js';
import type { OrderDesk } from '../../services/order-desk.js';
import type { OrderRequest } from '../../engine/account-orders.js';
import type { Environment } from '../../engine/records.js';
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

export interface PurchasePlan {
  order: OrderRequest;
  /** Catalog checks that run after the PIN (plan missing or disabled, price mismatch). */
  check?: () => ApiError | null;
  /** Recipient verification with the provider (meters, smartcards), after the PIN and the catalog. */
  verify?: () => VerifyResult | Promise<VerifyResult>;
  invalid_code?: 'service.invalid_meter' | 'service.invalid_smartcard';
}

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
      if (verification !== null) {
        if (verification.outcome === 'invalid') return error_reply(ctx.request_id, api_error(plan.invalid_code!));
        if (verification.outcome === 'unavailable') return provider_unavailable(ctx.request_id, 60);
        customer_name = verification.customer_name;
      }
      return desk.place(actor, environment, ctx.request_id, key, request.fingerprint, {
        ...plan.order, customer_name: customer_name ?? plan.order.customer_name, client_reference: extras.client_reference ?? null, metadata: extras.metadata ?? null,
      });
    }, resume, !awaited);
  }
  return error_reply(ctx.request_id, api_error('service.unavailable', 'The transaction PIN kept changing during this request; retry.', { headers: { 'Retry-After': '1' } }));
}

function verify_reply(request_id: string, result: VerifyResult, invalid_code: 'service.invalid_meter' | 'service.invalid_smartcard', extra: Record<string, unknown>): Reply {
  if (result.outcome === 'invalid') return error_reply(request_id, api_error(invalid_code));
  if (result.outcome === 'unavailable') return provider_unavailable(request_id, 60);
  return success_reply(request_id, 200, {
    ...extra,
    customer_name: result.customer_name,
    address: result.address,
    ...(result.current_package !== undefined ? { current_package: result.current_package } : {}),
    ...(result.due_date !== undefined ? { due_date: result.due_date } : {}),
  }, invalid_code === 'service.invalid_meter' ? 'Meter verified.' : 'Smartcard verified.');
}

/** A service's purchase body and what turns a valid one into its plan (before the PIN). */
export interface PlanBuilder {
  body: TSchema;
  plan(body: unknown, environment: Environment): PurchasePlan | ApiError;
}

/**
 * The plan of each service's purchase, built from a body its schema accepted: shared by the purchase
 * routes and bulk orders (src/services/bulk/item-purchaser.ts).
 */
export function purchase_plan_builders(catalog: Catalog, desk: OrderDesk): Record<'airtime' | 'data' | 'electricity' | 'tv', PlanBuilder> {
  return {
    airtime: {
      body: AirtimeBody,
      plan: (raw) => {
        const body = raw as Static<typeof AirtimeBody>;
        const amount_kobo = amount_in(body.amount, airtime_kobo_min, airtime_kobo_max, 'must be from 50 to 50000 NGN');
        return typeof amount_kobo !== 'number' ? amount_kobo : {
          order: {
            service_type: 'airtime', network: body.network, disco: null, provider: null, recipient: body.phone,
            plan_code: null, plan: null, package_code: null, meter_type: null, amount_kobo, customer_name: null,
          },
        };
      },
    },
    data: {
      body: DataBody,
      plan: (raw) => {
        const body = raw as Static<typeof DataBody>;
        const amount = naira_to_kobo(body.amount);
        if (!amount.ok) return invalid('amount', amount.reason);
        const plan = catalog.plan(body.plan_code);
        return {
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
        };
      },
    },
    electricity: {
      body: ElectricityBody,
      plan: (raw, environment) => {
        const body = raw as Static<typeof ElectricityBody>;
        const disco = catalog.disco(body.disco);
        if (disco === undefined) return invalid('disco', 'must be a distribution company service ID or code (GET /v1/services/electricity/discos)');
        const amount_kobo = amount_in(body.amount, electricity_kobo_min, null, 'must be at least 500 NGN');
        const provider = desk.providers[environment];
        return typeof amount_kobo !== 'number' ? amount_kobo : {
          order: {
            service_type: 'electricity', network: null, disco: disco.service_id, provider: null, recipient: body.meter_number,
            plan_code: null, plan: null, package_code: null, meter_type: body.meter_type, amount_kobo, customer_name: null,
          },
          verify: () => provider.verify_meter(disco.service_id, body.meter_number, body.meter_type),
          invalid_code: 'service.invalid_meter',
        };
      },
    },
    tv: {
      body: TvBody,
      plan: (raw, environment) => {
        const body = raw as Static<typeof TvBody>;
        const amount = naira_to_kobo(body.amount);
        if (!amount.ok) return invalid('amount', amount.reason);
        const item = catalog.package(body.package_code);
        const provider = desk.providers[environment];
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
      },
    },
  };
}

export function service_routes(deps: Deps, catalog: Catalog, desk: OrderDesk): RouteDef[] {
  const pricing = desk.pricing;
  const builders = purchase_plan_builders(catalog, desk);
  /** What the calling account's wallet would pay for a product of this face value (docs/api.md "Pricing"). */
  const charged_naira = (ctx: RequestContext, service_type: 'data' | 'tv', narrow: string, amount_kobo: number) =>
    kobo_to_naira(amount_kobo - commission_kobo(amount_kobo, pricing.rate_bp(ctx.actor!.account.tier, service_type, narrow)));
  const plan_view = (ctx: RequestContext, plan: ReturnType<Catalog['enabled_plans']>[number]) => ({
    plan_id: plan.plan_id, name: plan.name, network: plan.network, amount: kobo_to_naira(plan.amount_kobo),
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
        summary: 'Enabled data plans, optionally of one network',
        tags: ['Data'],
        response: Type.Object({ plans: Type.Array(DataPlanView) }),
        query: { network: { schema: Type.Enum([...networks]), description: 'mtn, airtel, glo or 9mobile' } },
        errors: ['validation.failed'],
      },
      handler: (ctx) => {
        const network = query_params(ctx).get('network');
        if (network !== null && !(networks as readonly string[]).includes(network)) {
          return error_reply(ctx.request_id, invalid('network', `must be one of: ${networks.join(', ')}`));
        }
        return success_reply(ctx.request_id, 200, { plans: catalog.enabled_plans(network as Network | null).map((plan) => plan_view(ctx, plan)) });
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
      handler: (ctx) => purchase(deps, desk, ctx, builders.airtime.plan(ctx.body, ctx.environment)),
    },
    {
      method: 'post',
      path: '/v1/services/data/purchase',
      auth: 'api_key',
      scope: 'services:purchase',
      body: DataBody,
      doc: { summary: 'Buy a data bundle; amount must equal the plan price', tags: ['Data'], response: DataResult, success_status: 201, errors: [...purchase_errors, 'service.plan_not_found', 'service.amount_mismatch'] },
      handler: (ctx) => purchase(deps, desk, ctx, builders.data.plan(ctx.body, ctx.environment)),
    },
    {
      method: 'post',
      path: '/v1/services/electricity',
      auth: 'api_key',
      scope: 'services:purchase',
      body: ElectricityBody,
      doc: { summary: 'Pay for electricity (NGN 500 or more); prepaid meters get a token', tags: ['Electricity'], response: ElectricityResult, success_status: 201, errors: [...purchase_errors, 'service.invalid_meter'] },
      handler: (ctx) => purchase(deps, desk, ctx, builders.electricity.plan(ctx.body, ctx.environment)),
    },
    {
      method: 'post',
      path: '/v1/services/tv',
      auth: 'api_key',
      scope: 'services:purchase',
      body: TvBody,
      doc: { summary: 'Renew or change a cable TV subscription; amount must equal the package price', tags: ['Cable TV'], response: TvResult, success_status: 201, errors: [...purchase_errors, 'service.plan_not_found', 'service.amount_mismatch', 'service.invalid_smartcard'] },
      handler: (ctx) => purchase(deps, desk, ctx, builders.tv.plan(ctx.body, ctx.environment)),
    },
    {
      method: 'post',
      path: '/v1/services/electricity/verify',
      auth: 'api_key',
      scope: 'services:purchase',
      body: VerifyMeterBody,
      idempotent: false,
      doc: { summary: 'Verify a meter before paying: the customer name and address', tags: ['Electricity'], response: VerifyResultView, success_status: 200, errors: ['service.invalid_meter', 'transaction.provider_unavailable'] },
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
      doc: { summary: 'Verify a smartcard or IUC number: the customer name, current package and due date', tags: ['Cable TV'], response: VerifyResultView, success_status: 200, errors: ['service.invalid_smartcard', 'transaction.provider_unavailable'] },
      handler: async (ctx) => {
        const body = ctx.body as Static<typeof VerifySmartcardBody>;
        const result = await desk.providers[ctx.environment].verify_smartcard(body.provider, body.smartcard_number);
        return verify_reply(ctx.request_id, result, 'service.invalid_smartcard', { provider: body.provider, smartcard_number: body.smartcard_number });
      },
    },
  ];
}
