// GET /v1/agents/commissions (docs/api.md "Agents"): what an account earned on its agents' purchases, by
// day, agent and product, summed from its commission and commission_reversal wallet entries.
import type { Deps } from '../deps.js';
import type { RouteDef } from '../route.js';
import { error_reply, success_reply } from '../../lib/reply.js';
import { parse_id, query_params } from '../request-helpers.js';
import { CommissionReport, commission_report_days_max, commission_report_entries_max } from '../../schemas/agent-schemas.js';
import { narrow_value } from '../../services/pricing.js';
import type { OrderDesk } from '../../services/order-desk.js';
import { day_range, day_text } from '../../services/statements.js';
import { lagos_day, parse_date_days } from '../../lib/time-format.js';
import { api_error, invalid } from '../../errors.js';
import { kobo_to_naira } from '../../lib/money.js';
import { assert_entry, type Environment, type WalletEntry } from '../../engine/records.js';
import { fail } from '../../lib/assert.js';

interface CommissionSums {
  day: number;
  agent_id: number;
  service_type: string;
  product: string | null;
  orders: number;
  earned_kobo: number;
  reversed_kobo: number;
}

export function agent_commission_routes(deps: Deps, desk: OrderDesk): RouteDef[] {
  const { engine, clock } = deps;
  const tags = ['Agents'];
  return [
    {
      method: 'get',
      path: '/v1/agents/commissions',
      auth: 'api_key',
      scope: 'agents:manage',
      doc: {
        summary: 'What the key\'s account earned on its agents\' purchases, by day, agent and product',
        description: `Sums the account's commission and commission_reversal wallet entries of the environment (the key's, or environment=) from the Lagos day from to the day to (YYYY-MM-DD, at most ${commission_report_days_max} days; both default to today), one row per day, agent (the one whose order it was, at any level below) and product; agent_id= keeps one agent's rows.`,
        tags,
        response: CommissionReport,
        errors: ['validation.failed', 'auth.insufficient_scope'],
      },
      handler: async (ctx) => {
        const params = query_params(ctx);
        const today = lagos_day(clock.now_ms());
        const environment_text = params.get('environment') ?? ctx.environment;
        if (environment_text !== 'live' && environment_text !== 'test') return error_reply(ctx.request_id, invalid('environment', 'must be live or test'));
        const environment: Environment = environment_text;
        if (ctx.environment === 'test' && environment === 'live') return error_reply(ctx.request_id, api_error('auth.insufficient_scope', 'A test key cannot read live money.'));
        const from = params.has('from') ? parse_date_days(params.get('from')!) : today;
        if (from === null) return error_reply(ctx.request_id, invalid('from', 'must be a date YYYY-MM-DD'));
        const to = params.has('to') ? parse_date_days(params.get('to')!) : today;
        if (to === null) return error_reply(ctx.request_id, invalid('to', 'must be a date YYYY-MM-DD'));
        if (to < from) return error_reply(ctx.request_id, invalid('to', 'must not be before from'));
        if (to - from + 1 > commission_report_days_max) return error_reply(ctx.request_id, invalid('to', `must be at most ${commission_report_days_max} days from from (commission_report_days_max)`));
        let agent_filter: number | null = null;
        if (params.has('agent_id')) {
          agent_filter = parse_id(params.get('agent_id')!);
          if (agent_filter === null) return error_reply(ctx.request_id, invalid('agent_id', 'must be an account id'));
        }
        const parent = ctx.actor!;
        await parent.read_settled();
        const total = parent.wallets[environment].entries_count;
        const low = day_range(engine.store, parent.id, environment, total, from).low;
        const high = day_range(engine.store, parent.id, environment, total, to).high;
        const sums = new Map<string, CommissionSums>();
        let complete = true;
        for (let id = low, read = 0; id <= high; id++, read++) {
          if (read >= commission_report_entries_max) {
            complete = false;
            break;
          }
          const entry = engine.store.wallet_entries.get([parent.id, environment, id]) as WalletEntry | undefined;
          if (entry === undefined) fail(`wallet ${parent.id}/${environment} is missing entry ${id}`);
          assert_entry(entry);
          if (entry.type !== 'commission' && entry.type !== 'commission_reversal') continue;
          const agent_id = entry.counterparty_id!;
          if (agent_filter !== null && agent_id !== agent_filter) continue;
          const order = desk.find(entry.reference);
          const service_type = order?.service_type ?? 'unknown';
          const product = order === null ? null : narrow_value(order);
          const day = lagos_day(Math.floor(entry.created_us / 1000));
          const key = `${day}|${agent_id}|${service_type}|${product ?? ''}`;
          let row = sums.get(key);
          if (row === undefined) sums.set(key, (row = { day, agent_id, service_type, product, orders: 0, earned_kobo: 0, reversed_kobo: 0 }));
          if (entry.type === 'commission') {
            row.orders++;
            row.earned_kobo += entry.amount_kobo;
          } else row.reversed_kobo += entry.amount_kobo;
        }
        let earned = 0;
        let reversed = 0;
        const rows = [...sums.values()].sort((a, b) => a.day - b.day || a.agent_id - b.agent_id || (a.service_type < b.service_type ? -1 : a.service_type > b.service_type ? 1 : 0) || ((a.product ?? '') < (b.product ?? '') ? -1 : 1)).map((r) => {
          earned += r.earned_kobo;
          reversed += r.reversed_kobo;
          return { day: day_text(r.day), agent_id: r.agent_id, service_type: r.service_type, product: r.product, orders: r.orders, earned: kobo_to_naira(r.earned_kobo), reversed: kobo_to_naira(r.reversed_kobo), net: kobo_to_naira(r.earned_kobo - r.reversed_kobo) };
        });
        return success_reply(ctx.request_id, 200, {
          environment, from: day_text(from), to: day_text(to), rows,
          totals: { earned: kobo_to_naira(earned), reversed: kobo_to_naira(reversed), net: kobo_to_naira(earned - reversed) },
          complete,
        });
      },
    },
  ];
}
