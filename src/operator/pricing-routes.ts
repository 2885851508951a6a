// Operator routes of reseller pricing (docs/operations.md "Pricing"): the price list of each tier, and
// the margin report that sets what was sold against what resellers paid and what the provider paid back.
import type { Static } from 'typebox';
import Type from 'typebox';
import type { Deps } from '../front/deps.js';
import type { RequestContext, RouteDef } from '../front/route.js';
import { error_reply, success_reply } from '../lib/reply.js';
import { query_params } from '../front/request-helpers.js';
import { invalid, invalid_first_named, type ApiError, type ErrorDetail } from '../errors.js';
import { kobo_to_naira } from '../lib/money.js';
import { iso_us, lagos_day, parse_date_days } from '../lib/time-format.js';
import { first_seq_at_or_after, lagos_day_start_us } from '../engine/order-history.js';
import type { Environment, WalletRecord } from '../engine/records.js';
import { charged_kobo, commission_of, provider_commission_of, type OrderRecord, type ServiceType } from '../services/order.js';
import { tiers_max, type PriceLists, type PriceRule } from '../services/pricing.js';
import { Tier } from '../schemas/operator-schemas.js';
import { MarginReport, PutPricingBody, TierPricingView } from '../schemas/pricing-schemas.js';
import { compile_schema } from '../lib/validation.js';

/** Days one margin report may span: a year, so that one request reads a bounded range of orders per account. */
export const margin_report_days_max = 366;
const day_ms = 24 * 60 * 60 * 1000;

const tier_check = compile_schema(Tier);

function tier_of(ctx: RequestContext): string | ApiError {
  const tier = ctx.params.tier;
  if (tier_check.check(tier) !== null) return invalid('tier', 'must be a lowercase word such as standard or corporate (at most 32 characters)');
  return tier;
}

export function rule_view(rule: PriceRule) {
  return { service_type: rule.service_type, network: rule.network, disco: rule.disco, provider: rule.provider, rate_bp: rule.rate_bp };
}

function tier_view(tier: { tier: string; rules: PriceRule[]; updated_us: number; funding_fee?: 'operator' | 'reseller' }) {
  return { tier: tier.tier, rules: tier.rules.map(rule_view), funding_fee: tier.funding_fee ?? 'operator', updated_at: iso_us(tier.updated_us) };
}

/** The Lagos calendar day as YYYY-MM-DD. */
function day_text(day: number): string {
  return new Date(day * day_ms).toISOString().slice(0, 10);
}

interface MarginSums {
  orders: number;
  amount_kobo: number;
  charged_kobo: number;
  commission_kobo: number;
  provider_commission_kobo: number;
  provider_commission_unknown: number;
}

function empty_sums(): MarginSums {
  return { orders: 0, amount_kobo: 0, charged_kobo: 0, commission_kobo: 0, provider_commission_kobo: 0, provider_commission_unknown: 0 };
}

function add_order(sums: MarginSums, order: OrderRecord): void {
  sums.orders += 1;
  sums.amount_kobo += order.amount_kobo;
  sums.charged_kobo += charged_kobo(order);
  sums.commission_kobo += commission_of(order);
  const provider = provider_commission_of(order);
  if (provider === null) sums.provider_commission_unknown += 1;
  else sums.provider_commission_kobo += provider;
}

function sums_view(sums: MarginSums) {
  return {
    orders: sums.orders,
    amount: kobo_to_naira(sums.amount_kobo),
    amount_charged: kobo_to_naira(sums.charged_kobo),
    commission: kobo_to_naira(sums.commission_kobo),
    provider_commission: kobo_to_naira(sums.provider_commission_kobo),
    provider_commission_unknown: sums.provider_commission_unknown,
    // Summed in kobo, shown once: the NGN figure is a single division of an exact integer.
    margin: kobo_to_naira(sums.provider_commission_kobo - sums.commission_kobo),
  };
}

export function pricing_admin_routes(deps: Deps, pricing: PriceLists): RouteDef[] {
  const { engine, clock } = deps;
  const tags = ['Operator'];
  return [
    {
      method: 'get',
      path: '/admin/pricing',
      auth: 'operator',
      doc: { summary: 'Every tier\'s price rules', tags, response: Type.Object({ tiers: Type.Array(TierPricingView) }) },
      handler: (ctx) => success_reply(ctx.request_id, 200, { tiers: pricing.tiers().map(tier_view) }),
    },
    {
      method: 'put',
      path: '/admin/pricing/:tier',
      auth: 'operator',
      body: PutPricingBody,
      doc: { summary: 'Replace a tier\'s price rules (effective for the next purchase, kept across restarts)', tags, response: TierPricingView, errors: ['validation.failed'] },
      handler: (ctx) => {
        const tier = tier_of(ctx);
        if (typeof tier !== 'string') return error_reply(ctx.request_id, tier);
        const checked = pricing.check_rules((ctx.body as Static<typeof PutPricingBody>).rules as Record<string, unknown>[]);
        if ('problems' in checked) return error_reply(ctx.request_id, invalid_first_named(checked.problems));
        if (pricing.would_exceed_tiers(tier)) return error_reply(ctx.request_id, invalid('tier', `is new, and at most ${tiers_max} tiers may hold rules (tiers_max)`));
        const stored = pricing.replace(engine.journal, tier, checked.rules, clock.now_us(), (ctx.body as Static<typeof PutPricingBody>).funding_fee);
        const reply = success_reply(ctx.request_id, 200, tier_view(stored), 'Price list replaced.');
        return engine.journal.durable().then(() => reply);
      },
    },
    {
      method: 'delete',
      path: '/admin/pricing/:tier',
      auth: 'operator',
      doc: {
        summary: 'Remove a tier\'s price rules: its accounts pay face value (0%)',
        description: 'Idempotent: a tier without rules answers 200 with removed false.',
        tags,
        response: Type.Object({ tier: Type.String(), rules: Type.Array(Type.Never()), removed: Type.Boolean() }),
        errors: ['validation.failed'],
      },
      handler: (ctx) => {
        const tier = tier_of(ctx);
        if (typeof tier !== 'string') return error_reply(ctx.request_id, tier);
        const removed = pricing.remove(engine.journal, tier);
        const reply = success_reply(ctx.request_id, 200, { tier, rules: [], removed }, removed ? 'Price list removed.' : 'This tier had no price rules.');
        return engine.journal.durable().then(() => reply);
      },
    },
    {
      method: 'get',
      path: '/admin/reports/margin',
      auth: 'operator',
      doc: {
        summary: 'Per day and service: face value sold, charged to resellers, their commission, the provider\'s commission and the operator\'s margin',
        tags,
        response: MarginReport,
        query: {
          from: { schema: Type.String({ format: 'date' }), description: 'first Africa/Lagos day, YYYY-MM-DD (required)' },
          to: { schema: Type.String({ format: 'date' }), description: `last Africa/Lagos day, YYYY-MM-DD (required; at most ${margin_report_days_max} days)` },
          environment: { schema: Type.Enum(['live', 'test']), description: 'live (default) or test' },
        },
        errors: ['validation.failed'],
      },
      handler: async (ctx) => {
        const params = query_params(ctx);
        const problems: ErrorDetail[] = [];
        const from_day = parse_date_days(params.get('from') ?? '');
        const to_day = parse_date_days(params.get('to') ?? '');
        if (from_day === null) problems.push({ field: 'from', message: 'must be a date YYYY-MM-DD' });
        if (to_day === null) problems.push({ field: 'to', message: 'must be a date YYYY-MM-DD' });
        const environment = (params.get('environment') ?? 'live') as Environment;
        if (environment !== 'live' && environment !== 'test') problems.push({ field: 'environment', message: 'must be one of: live, test' });
        if (from_day !== null && to_day !== null) {
          if (to_day < from_day) problems.push({ field: 'to', message: 'must not be before from' });
          else if (to_day - from_day + 1 > margin_report_days_max) problems.push({ field: 'to', message: `must be at most ${margin_report_days_max} days after from` });
        }
        if (problems.length > 0) return error_reply(ctx.request_id, invalid_first_named(problems));
        // What was committed before this request is in the store once durable; open orders are not
        // delivered, so they are not counted (they count on the day they were placed once delivered).
        await engine.journal.durable();
        const rows = new Map<string, MarginSums>();
        const totals = empty_sums();
        // Every account's wallet, read from the store (durable above): accounts not in memory count too
        // (engine/actor-cache.ts).
        for (const { value: stored } of engine.store.wallets.getRange({})) {
          const wallet = stored as WalletRecord;
          if (wallet.environment !== environment) continue;
          const account_id = wallet.account_id;
          const count = wallet.orders_count;
          if (count === 0) continue;
          const low = first_seq_at_or_after(engine.store, account_id, environment, 1, count, lagos_day_start_us(from_day!));
          const high = first_seq_at_or_after(engine.store, account_id, environment, low, count, lagos_day_start_us(to_day! + 1)) - 1;
          if (low > high) continue;
          for (const { value } of engine.store.orders.getRange({ start: [account_id, environment, low], end: [account_id, environment, high + 1] })) {
            const order = value as OrderRecord;
            if (order.status !== 'delivered') continue;
            const day = lagos_day(Math.floor(order.created_us / 1000));
            const key = `${day_text(day)}/${order.service_type}`;
            let sums = rows.get(key);
            if (sums === undefined) rows.set(key, (sums = empty_sums()));
            add_order(sums, order);
            add_order(totals, order);
          }
        }
        const shown = [...rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, sums]) => {
          const [day, service_type] = key.split('/') as [string, ServiceType];
          return { day, service_type, ...sums_view(sums) };
        });
        return success_reply(ctx.request_id, 200, { environment, from: day_text(from_day!), to: day_text(to_day!), rows: shown, totals: sums_view(totals) });
      },
    },
  ];
}
