// /v1/agents (docs/api.md "Agents", docs/decisions.md "Agents"): a reseller's network of sub-accounts. An
// agent is an account with a parent; a key with agents:manage opens agents under its account, reads and
// changes any account below it (another id is 404 account.not_found, as if it did not exist), and moves
// money between its account and its own agents with its PIN. Every change is a command of the engine: an
// agent's opening, a transfer and a closing span the parent's and the agent's accounts and land in one
// commit (Engine.run_across).
import type { Static } from 'typebox';
import Type from 'typebox';
import type { Deps } from '../deps.js';
import type { RequestContext, RouteDef } from '../route.js';
import { error_reply, success_reply, type Reply } from '../../lib/reply.js';
import { refusal_reply } from '../outcome-errors.js';
import { apply_pin_verdict, check_pin } from '../pin-check.js';
import { pagination, wallet_view } from '../views.js';
import { fingerprint, idempotency_key, parse_id, parse_pagination, query_params } from '../request-helpers.js';
import { page_query } from '../../schemas/common.js';
import { AgentPage, AgentPinBody, AgentPricingBody, AgentPricingView, AgentView, ClosedAgentView, CommissionReport, CreateAgentBody, PatchAgentBody, TransferBody, TransferPage, TransferView, commission_report_days_max, commission_report_entries_max } from '../../schemas/agent-schemas.js';
import { narrow_value, pricing_rounding_rule, type PriceLists, type PriceRule } from '../../services/pricing.js';
import type { OrderDesk } from '../../services/order-desk.js';
import { day_range, day_text } from '../../services/statements.js';
import { lagos_day, parse_date_days } from '../../lib/time-format.js';
import { api_error, invalid, invalid_first_named, type ApiError } from '../../errors.js';
import { kobo_to_naira, naira_to_kobo, format_naira } from '../../lib/money.js';
import { iso_us } from '../../lib/time-format.js';
import { kyc_daily_limit_kobo, type AccountActor } from '../../engine/account-actor.js';
import { agent_depth_max, depth_of, in_subtree, parent_of, wallets_read } from '../../engine/agent-tree.js';
import { authority_refusal } from '../../engine/authority.js';
import { assert_entry, assert_transfer, type AccountRecord, type AgentPriceRule, type Environment, type TransferRecord, type WalletEntry, type WalletRecord } from '../../engine/records.js';
import type { Engine } from '../../engine/engine.js';
import { peek_idempotent, replayed, run_idempotent, settle } from '../idempotent-run.js';
import { international_phone } from '../../operator/admin-routes.js';
import { fail } from '../../lib/assert.js';

function not_found(): ApiError {
  return api_error('account.not_found');
}

/** A password or PIN lane full (lib/secrets.ts HashLane): retry, as for every scrypt. */
function hashing_busy(): ApiError {
  return api_error('rate_limit.exceeded', 'Too many passwords or PINs are being hashed; retry in 1 second(s).', { headers: { 'Retry-After': '1' } });
}

/** The daily purchase limit an account buys under: its own, or its KYC level's (docs/api.md "Limits"). */
export function daily_limit_kobo(account: AccountRecord): number {
  return account.daily_limit_kobo ?? kyc_daily_limit_kobo[account.kyc_level];
}

/**
 * A request's identity for idempotency without its secrets: the password and the PIN authorise or set
 * credentials and must not be derivable from the store (request-helpers.ts fingerprint leaves the PIN out).
 */
function secretless_fingerprint(ctx: RequestContext): string {
  const { password: _password, ...rest } = (ctx.body ?? {}) as Record<string, unknown>;
  return fingerprint({ method: ctx.method, url: ctx.url, body: rest } as RequestContext);
}

/** An error answer remembered under the request's idempotency key, like any other answer to a POST (front/remembered.ts). */
function remembered(deps: Deps, ctx: RequestContext, key: string | null, print: string, error: ApiError): Reply | Promise<Reply> {
  if (key === null) return error_reply(ctx.request_id, error);
  return run_idempotent({ actor: ctx.actor!, environment: ctx.environment, key, fingerprint: print, request_id: ctx.request_id, now_ms: deps.clock.now_ms() }, () => error_reply(ctx.request_id, error));
}

export function agent_view(account: AccountRecord, wallets: Record<Environment, WalletRecord>) {
  if (account.parent_id === undefined) fail(`account ${account.id} shown as an agent has no parent`);
  return {
    id: account.id,
    parent_id: account.parent_id,
    name: account.name,
    email: account.email,
    phone: account.phone,
    tier: account.tier,
    kyc_level: account.kyc_level,
    status: account.status ?? 'active',
    daily_limit: kobo_to_naira(daily_limit_kobo(account)),
    pin_set: account.pin_hash !== null,
    agents_open: account.agents_open ?? 0,
    balances: { live: wallet_view(wallets.live), test: wallet_view(wallets.test) },
    pricing: { rules: (account.price_rules ?? []).map(price_rule_view) },
    created_at: iso_us(account.created_us),
  };
}

function price_rule_view(rule: AgentPriceRule) {
  return { service_type: rule.service_type, network: rule.network, disco: rule.disco, provider: rule.provider, rate_bp: rule.rate_bp };
}

export function transfer_view(transfer: TransferRecord) {
  return {
    reference: transfer.reference,
    kind: transfer.kind,
    direction: transfer.direction,
    environment: transfer.environment,
    amount: kobo_to_naira(transfer.amount_kobo),
    parent_id: transfer.parent_id,
    agent_id: transfer.agent_id,
    balances_after: { parent: kobo_to_naira(transfer.parent_balance_after_kobo), agent: kobo_to_naira(transfer.agent_balance_after_kobo) },
    wallet_transactions: { parent: transfer.parent_entry_id, agent: transfer.agent_entry_id },
    created_at: iso_us(transfer.created_us),
  };
}

/**
 * What a parent may open under it (docs/api.md "Agents"): a level below its own within agent_depth_max, a
 * KYC level no higher than its own, a daily limit no higher than its own. Without a daily_limit, an agent
 * whose KYC level allows more than its parent's limit gets the parent's limit. Checked before the password
 * is hashed and again in the turn that opens the agent (the operator may change the parent meanwhile).
 */
function check_new_agent(engine: Engine, parent: AccountRecord, body: Static<typeof CreateAgentBody>): { daily_limit_kobo: number | null } | ApiError {
  if (parent.status === 'closed') return api_error('agents.closed');
  if (depth_of(engine, parent) >= agent_depth_max) {
    return api_error('agents.depth_limit_reached', `An account at level ${agent_depth_max} of a tree (reseller → super-agent → agent) cannot have agents of its own.`);
  }
  if (body.kyc_level > parent.kyc_level) return invalid('kyc_level', `must not be above the parent's KYC level (${parent.kyc_level})`);
  const parent_limit_kobo = daily_limit_kobo(parent);
  if (body.daily_limit !== undefined) {
    const parsed = naira_to_kobo(body.daily_limit);
    if (!parsed.ok) return invalid('daily_limit', parsed.reason);
    if (parsed.kobo > parent_limit_kobo) return invalid('daily_limit', `must not be above the parent's daily limit (${format_naira(parent_limit_kobo)})`);
    return { daily_limit_kobo: parsed.kobo };
  }
  return { daily_limit_kobo: kyc_daily_limit_kobo[body.kyc_level] > parent_limit_kobo ? parent_limit_kobo : null };
}

interface CommissionSums {
  day: number;
  agent_id: number;
  service_type: string;
  product: string | null;
  orders: number;
  earned_kobo: number;
  reversed_kobo: number;
}

export function agent_routes(deps: Deps, pricing: PriceLists, desk: OrderDesk): RouteDef[] {
  const { engine, clock } = deps;
  const tags = ['Agents'];

  /** The account with this path id, when it lies below the caller; otherwise 404 as if it did not exist. */
  const below_caller = (ctx: RequestContext): AccountActor | ApiError => {
    const id = parse_id(ctx.params.id);
    if (id === null) return not_found();
    const record = engine.account_record(id);
    if (record === undefined || !in_subtree(engine, ctx.actor!.id, record)) return not_found();
    return engine.accounts.get(id) ?? not_found();
  };

  const view_of = (actor: AccountActor) => agent_view(actor.account, actor.wallets);

  return [
    {
      method: 'post',
      path: '/v1/agents',
      auth: 'api_key',
      scope: 'agents:manage',
      body: CreateAgentBody,
      doc: {
        summary: 'Open an agent under the key\'s account',
        description: 'The agent is an account of its own, with its own wallets, keys and PIN, whose parent is the key\'s account. At most three levels: reseller → super-agent → agent. kyc_level and daily_limit may not be above the parent\'s; without daily_limit the agent buys under its KYC level\'s limit, or the parent\'s limit when that is lower. The password signs the agent in to the dashboard.',
        tags,
        response: AgentView,
        success_status: 201,
        errors: ['validation.failed', 'account.email_taken', 'agents.depth_limit_reached', 'agents.closed', 'auth.insufficient_scope', 'idempotency.key_reused', 'rate_limit.exceeded'],
      },
      handler: async (ctx) => {
        const key = idempotency_key(ctx);
        if (key !== null && typeof key === 'object') return error_reply(ctx.request_id, key);
        const body = ctx.body as Static<typeof CreateAgentBody>;
        const print = secretless_fingerprint(ctx);
        const parent = ctx.actor!;
        const first = check_new_agent(engine, parent.account, body);
        if ('code' in first) return remembered(deps, ctx, key, print, first);
        const request = { actor: parent, environment: ctx.environment, key, fingerprint: print, request_id: ctx.request_id, now_ms: clock.now_ms() };
        const earlier = peek_idempotent(request);
        if (earlier !== null) return earlier;
        // scrypt runs on the thread pool before the command, in the lanes every scrypt takes (lib/secrets.ts).
        const [password_hash, pin_hash] = await Promise.all([
          deps.hash_lanes.password.hash(body.password),
          body.pin === undefined ? Promise.resolve(null) : deps.hash_lanes.pin.hash(body.pin),
        ]);
        if (password_hash === 'busy' || pin_hash === 'busy') return error_reply(ctx.request_id, hashing_busy());
        return run_idempotent({ ...request, now_ms: clock.now_ms() }, () => {
          const now = engine.accounts.get(parent.id);
          if (now === undefined) fail(`account ${parent.id} vanished under its own key`);
          const checked = check_new_agent(engine, now.account, body);
          if ('code' in checked) return error_reply(ctx.request_id, checked);
          const denied = authority_refusal(now, ctx.authority ?? fail('a change without an authority'), clock.now_ms());
          if (denied !== null) return refusal_reply(ctx.request_id, denied);
          const outcome = engine.create_account({
            name: body.name,
            email: body.email,
            phone: international_phone(body.phone),
            tier: now.account.tier,
            kyc_level: body.kyc_level,
            password_hash,
            pin_hash,
            parent_id: now.id,
            daily_limit_kobo: checked.daily_limit_kobo,
          });
          if (!outcome.ok) return refusal_reply(ctx.request_id, outcome.refused);
          return success_reply(ctx.request_id, 201, view_of(outcome.value), 'Agent created.');
        });
      },
    },
    {
      method: 'get',
      path: '/v1/agents',
      auth: 'api_key',
      scope: 'agents:manage',
      doc: { summary: 'The key\'s account\'s own agents, oldest first', description: 'Closed agents are listed too, with status closed.', tags, response: AgentPage, query: page_query, errors: ['validation.failed'] },
      handler: async (ctx) => {
        const paging = parse_pagination(query_params(ctx));
        if ('code' in paging) return error_reply(ctx.request_id, paging);
        const parent = ctx.actor!;
        // The index entries are the parent's changes: once they are durable the store lists them.
        await parent.read_settled();
        // A new options object each: lmdb-js's getCount marks the one it is given (onlyCount), and a range
        // read given that object afterwards fails.
        const range = () => ({ start: [parent.id], end: [parent.id + 1] });
        const total = engine.store.account_children.getCount(range());
        const agents: ReturnType<typeof agent_view>[] = [];
        for (const key of engine.store.account_children.getKeys({ ...range(), offset: (paging.page - 1) * paging.per_page, limit: paging.per_page })) {
          const id = (key as [number, number])[1];
          const account = engine.account_record(id);
          if (account === undefined || account.parent_id !== parent.id) fail(`account ${parent.id} lists agent ${id}, which is not its own`);
          agents.push(agent_view(account, wallets_read(engine, id)));
        }
        return success_reply(ctx.request_id, 200, { agents, pagination: pagination(total, paging.per_page, paging.page) });
      },
    },
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
    {
      method: 'get',
      path: '/v1/agents/:id',
      auth: 'api_key',
      scope: 'agents:manage',
      doc: { summary: 'An agent below the key\'s account: balances, status, limits', tags, response: AgentView, errors: ['account.not_found'] },
      handler: (ctx) => {
        const agent = below_caller(ctx);
        if ('code' in agent) return error_reply(ctx.request_id, agent);
        const build = () => success_reply(ctx.request_id, 200, view_of(agent));
        const pending = agent.read_settled();
        return pending === null ? build() : pending.then(build);
      },
    },
    {
      method: 'patch',
      path: '/v1/agents/:id',
      auth: 'api_key',
      scope: 'agents:manage',
      body: PatchAgentBody,
      doc: {
        summary: 'Suspend or reactivate an agent, or set its daily limit',
        description: 'A suspended agent\'s keys answer 403 account.suspended, and so do those of every agent below it; reactivating it restores them. daily_limit (NGN, or null for its KYC level\'s) may not be above its parent\'s.',
        tags,
        response: AgentView,
        errors: ['validation.failed', 'account.not_found', 'agents.closed'],
      },
      handler: (ctx) => {
        const agent = below_caller(ctx);
        if ('code' in agent) return error_reply(ctx.request_id, agent);
        const body = ctx.body as Static<typeof PatchAgentBody>;
        let limit_kobo: number | null | undefined;
        if (body.daily_limit === null) limit_kobo = null;
        else if (body.daily_limit !== undefined) {
          const parsed = naira_to_kobo(body.daily_limit);
          if (!parsed.ok) return error_reply(ctx.request_id, invalid('daily_limit', parsed.reason));
          limit_kobo = parsed.kobo;
        }
        const parent = parent_of(engine, agent.account) ?? fail('an agent without a parent');
        const parent_limit_kobo = daily_limit_kobo(parent);
        const own_kobo = limit_kobo === undefined ? null : limit_kobo ?? kyc_daily_limit_kobo[agent.account.kyc_level];
        if (own_kobo !== null && own_kobo > parent_limit_kobo) {
          return error_reply(ctx.request_id, invalid('daily_limit', `must not be above the parent's daily limit (${format_naira(parent_limit_kobo)})${limit_kobo === null ? ': the KYC level\'s limit is' : ''}`));
        }
        const outcome = engine.run(agent, { kind: 'update_profile', patch: { status: body.status, daily_limit_kobo: limit_kobo } });
        if (!outcome.ok) return refusal_reply(ctx.request_id, outcome.refused);
        return settle(agent, success_reply(ctx.request_id, 200, view_of(agent), 'Agent updated.'));
      },
    },
    {
      method: 'delete',
      path: '/v1/agents/:id',
      auth: 'api_key',
      scope: 'agents:manage',
      doc: {
        summary: 'Close an agent: its balances swept back to its parent, its keys revoked',
        description: 'In one step: each wallet\'s balance moves to its parent\'s wallet (a transfer of kind sweep, reference close/{id}), every key of the agent is revoked, and it is closed for good. An agent with open agents of its own or open orders is 409 agents.not_closable.',
        tags,
        response: ClosedAgentView,
        errors: ['account.not_found', 'agents.closed', 'agents.not_closable'],
      },
      handler: (ctx) => {
        const agent = below_caller(ctx);
        if ('code' in agent) return error_reply(ctx.request_id, agent);
        const parent = engine.accounts.get(agent.account.parent_id ?? fail('an agent without a parent')) ?? fail('an agent\'s parent is missing');
        const outcome = engine.run_across([parent, agent], { kind: 'close_agent' }, clock.now_us());
        if (!outcome.ok) return refusal_reply(ctx.request_id, outcome.refused);
        const { swept, keys_revoked } = outcome.value;
        return settle(agent, success_reply(ctx.request_id, 200, { agent: view_of(agent), swept: swept.map(transfer_view), keys_revoked }, 'Agent closed.'));
      },
    },
    {
      method: 'put',
      path: '/v1/agents/:id/pin',
      auth: 'api_key',
      scope: 'agents:manage',
      body: AgentPinBody,
      doc: { summary: 'Set an agent\'s transaction PIN', tags, response: Type.Object({ pin_set: Type.Boolean() }), errors: ['validation.failed', 'account.not_found', 'agents.closed', 'rate_limit.exceeded'] },
      handler: async (ctx) => {
        const found = below_caller(ctx);
        if ('code' in found) return error_reply(ctx.request_id, found);
        if (found.account.status === 'closed') return error_reply(ctx.request_id, api_error('agents.closed'));
        const pin_hash = await deps.hash_lanes.pin.hash((ctx.body as Static<typeof AgentPinBody>).pin);
        if (pin_hash === 'busy') return error_reply(ctx.request_id, hashing_busy());
        const agent = engine.accounts.get(found.id) ?? fail('an agent vanished');
        if (agent.account.status === 'closed') return error_reply(ctx.request_id, api_error('agents.closed'));
        engine.run(agent, { kind: 'set_pin', pin_hash });
        return settle(agent, success_reply(ctx.request_id, 200, { pin_set: true }, 'Transaction PIN set.'));
      },
    },
    {
      method: 'put',
      path: '/v1/agents/:id/pricing',
      auth: 'api_key',
      scope: 'agents:manage',
      body: AgentPricingBody,
      doc: {
        summary: 'Set an agent\'s price list (its own agent\'s, by its direct parent)',
        description: 'The operator\'s tier rule shapes: product → rate_bp off face value, the most specific rule deciding, no rule 0 bp. No rule may give a larger discount than the parent itself gets on a product it decides (a product the parent has no rate for is 0 bp for it): such a rule is 400 validation.failed naming rules.N.rate_bp. The whole list is replaced; [] removes every rule. At purchase the agent\'s rate is clamped to its parent\'s rate then, and each account above it earns the difference (docs/api.md "Agent pricing").',
        tags,
        response: AgentPricingView,
        errors: ['validation.failed', 'account.not_found', 'agents.not_direct_agent', 'agents.closed'],
      },
      handler: (ctx) => {
        const agent = below_caller(ctx);
        if ('code' in agent) return error_reply(ctx.request_id, agent);
        const parent = ctx.actor!;
        if (agent.account.parent_id !== parent.id) return error_reply(ctx.request_id, api_error('agents.not_direct_agent', `Account ${agent.id} is an agent of account ${agent.account.parent_id}: only that account sets its prices.`));
        if (agent.account.status === 'closed') return error_reply(ctx.request_id, api_error('agents.closed'));
        const checked = pricing.check_rules((ctx.body as Static<typeof AgentPricingBody>).rules as Record<string, unknown>[]);
        if ('problems' in checked) return error_reply(ctx.request_id, invalid_first_named(checked.problems));
        const parent_chain = [parent.account, ...engine.ancestors_of(parent).map((a) => a.account)];
        const above = pricing.check_agent_rules(checked.rules, parent_chain);
        if (above.length > 0) return error_reply(ctx.request_id, invalid_first_named(above));
        const rules: AgentPriceRule[] = checked.rules.map((r: PriceRule) => ({ service_type: r.service_type, network: r.network, disco: r.disco, provider: r.provider, rate_bp: r.rate_bp }));
        const outcome = engine.run(agent, { kind: 'update_profile', patch: { price_rules: rules } });
        if (!outcome.ok) return refusal_reply(ctx.request_id, outcome.refused);
        return settle(agent, success_reply(ctx.request_id, 200, { agent_id: agent.id, rules: rules.map(price_rule_view), rounding: pricing_rounding_rule }, 'Price list replaced.'));
      },
    },
    {
      method: 'get',
      path: '/v1/agents/:id/transfers',
      auth: 'api_key',
      scope: 'agents:manage',
      doc: {
        summary: 'An agent\'s transfers with its parent in the key\'s environment, newest first',
        description: 'Transfers and the sweeps of a closing, of an agent anywhere below the key\'s account.',
        tags,
        response: TransferPage,
        query: page_query,
        errors: ['validation.failed', 'account.not_found'],
      },
      handler: async (ctx) => {
        const paging = parse_pagination(query_params(ctx));
        if ('code' in paging) return error_reply(ctx.request_id, paging);
        const agent = below_caller(ctx);
        if ('code' in agent) return error_reply(ctx.request_id, agent);
        // The index entries are the agent's changes: once they are durable the store lists them.
        await agent.read_settled();
        const environment = ctx.environment;
        // A new options object each: lmdb-js's getCount marks the one it is given (see GET /v1/agents).
        const range = () => ({ start: [agent.id, environment, Number.MAX_SAFE_INTEGER], end: [agent.id, environment, 0], reverse: true });
        const total = engine.store.agent_transfer_index.getCount(range());
        const transfers: ReturnType<typeof transfer_view>[] = [];
        for (const { value } of engine.store.agent_transfer_index.getRange({ ...range(), offset: (paging.page - 1) * paging.per_page, limit: paging.per_page })) {
          const [parent_id, reference] = value as [number, string];
          const transfer = engine.store.agent_transfers.get([environment, parent_id, reference]) as TransferRecord | undefined;
          if (transfer === undefined) fail(`agent ${agent.id} lists a missing transfer ${reference}`);
          assert_transfer(transfer);
          transfers.push(transfer_view(transfer));
        }
        return success_reply(ctx.request_id, 200, { transfers, pagination: pagination(total, paging.per_page, paging.page) });
      },
    },
    {
      method: 'post',
      path: '/v1/agents/:id/transfers',
      auth: 'api_key',
      scope: 'agents:manage',
      body: TransferBody,
      doc: {
        summary: 'Move money between the key\'s account and one of its own agents',
        description: 'direction to_agent debits the parent and credits the agent, from_agent the reverse; both take the parent\'s PIN. Both wallets change in one step, each with an entry (transfer_out, transfer_in) naming the other account, and wallet.debited / wallet.credited on both sides. reference is the parent\'s, unique for ever per environment: a repeat of the same transfer answers it again with Idempotent-Replayed: true; the reference with another transfer is 422 idempotency.key_reused. A test key moves only test money.',
        tags,
        response: TransferView,
        success_status: 201,
        errors: ['validation.failed', 'account.not_found', 'agents.not_direct_agent', 'agents.closed', 'wallet.insufficient_funds', 'pin.incorrect', 'pin.locked', 'pin.not_set', 'auth.insufficient_scope', 'idempotency.key_reused', 'rate_limit.exceeded'],
      },
      handler: async (ctx) => {
        const key = idempotency_key(ctx);
        if (key !== null && typeof key === 'object') return error_reply(ctx.request_id, key);
        const body = ctx.body as Static<typeof TransferBody>;
        const print = fingerprint(ctx);
        const amount = naira_to_kobo(body.amount);
        if (!amount.ok) return remembered(deps, ctx, key, print, invalid('amount', amount.reason));
        if (amount.kobo === 0) return remembered(deps, ctx, key, print, invalid('amount', 'must be greater than 0'));
        if (ctx.environment === 'test' && body.environment === 'live') return remembered(deps, ctx, key, print, api_error('auth.insufficient_scope', 'A test key cannot move live money.'));
        const found = below_caller(ctx);
        if ('code' in found) return remembered(deps, ctx, key, print, found);
        const parent = ctx.actor!;
        if (found.account.parent_id !== parent.id) return remembered(deps, ctx, key, print, api_error('agents.not_direct_agent', `Account ${found.id} is an agent of account ${found.account.parent_id}: money moves only between it and that account.`));
        const request = { actor: parent, environment: ctx.environment, key, fingerprint: print, request_id: ctx.request_id, now_ms: clock.now_ms() };
        // A replay, or a repeat of a request in flight, costs no PIN check.
        const earlier = peek_idempotent(request);
        if (earlier !== null) return earlier;
        // The PIN checked as a purchase's is (front/pin-check.ts): the same refusals, the same lock-out.
        const checking = check_pin(deps, parent, ctx.request_id, body.pin, () => null);
        const checked = checking instanceof Promise ? await checking : checking;
        if ('status' in checked) return checked;
        return run_idempotent({ ...request, now_ms: clock.now_ms() }, () => {
          // The caller's actor is the one the PIN was judged against (as purchases do): if a failed commit
          // replaced it meanwhile, staging through it throws that failure, answered 503 "nothing was changed".
          // The agent as it is now.
          const sender = parent;
          const agent = engine.accounts.get(found.id) ?? fail('an agent vanished');
          // A key revoked, or the caller suspended, while the PIN was checked moves nothing (docs/api.md "Limits").
          const refused = apply_pin_verdict(deps, sender, ctx.authority ?? fail('a change without an authority'), ctx.request_id, checked);
          if (refused !== null) return refused;
          const outcome = engine.run_across([sender, agent], {
            kind: 'transfer', environment: body.environment, direction: body.direction, amount_kobo: amount.kobo, reference: body.reference,
          }, clock.now_us());
          if (!outcome.ok) return refusal_reply(ctx.request_id, outcome.refused);
          const reply = success_reply(ctx.request_id, 201, transfer_view(outcome.value.transfer), 'Transfer made.');
          return outcome.value.created ? reply : replayed(reply);
        }, undefined, !checked.awaited);
      },
    },
  ];
}
