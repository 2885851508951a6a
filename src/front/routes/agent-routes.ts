// /v1/agents (docs/api.md "Agents", docs/decisions.md "Agents"): a reseller's network of sub-accounts. An
// agent is an account with a parent; a key with agents:manage opens agents under its account, reads and
// changes any account below it (another id is 404 account.not_found, as if it did not exist), and moves
// money between its account and its own agents with its PIN (agent-transfer-routes.ts); what it earned on
// them is agent-commission-routes.ts. Every change is a command of the engine: an agent's opening, a
// transfer and a closing span the parent's and the agent's accounts and land in one commit
// (Engine.run_across).
import type { Static } from 'typebox';
import Type from 'typebox';
import type { Deps } from '../deps.js';
import type { RequestContext, RouteDef } from '../route.js';
import { error_reply, success_reply } from '../../lib/reply.js';
import { refusal_reply } from '../outcome-errors.js';
import { pagination, wallet_view } from '../views.js';
import { fingerprint, idempotency_key, parse_id, parse_pagination, query_params } from '../request-helpers.js';
import { page_query } from '../../schemas/common.js';
import { AgentPage, AgentPinBody, AgentPricingBody, AgentPricingView, AgentView, ClosedAgentView, CreateAgentBody, PatchAgentBody } from '../../schemas/agent-schemas.js';
import { pricing_rounding_rule, type PriceLists, type PriceRule } from '../../services/pricing.js';
import type { OrderDesk } from '../../services/order-desk.js';
import { api_error, invalid, invalid_first_named, type ApiError } from '../../errors.js';
import { kobo_to_naira, naira_to_kobo, format_naira } from '../../lib/money.js';
import { iso_us } from '../../lib/time-format.js';
import { kyc_daily_limit_kobo, type AccountActor } from '../../engine/account-actor.js';
import { agent_depth_max, depth_of, in_subtree, parent_of, wallets_read } from '../../engine/agent-tree.js';
import { authority_refusal } from '../../engine/authority.js';
import { type AccountRecord, type AgentPriceRule, type Environment, type WalletRecord } from '../../engine/records.js';
import type { Engine } from '../../engine/engine.js';
import { peek_idempotent, run_idempotent } from '../idempotent-run.js';
import { acts_on } from '../durable-reply.js';
import { international_phone } from '../../operator/admin-routes.js';
import { remembered_under as remembered } from '../remembered.js';
import { agent_commission_routes } from './agent-commission-routes.js';
import { agent_transfer_routes, transfer_view } from './agent-transfer-routes.js';
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

export function agent_routes(deps: Deps, pricing: PriceLists, desk: OrderDesk): RouteDef[] {
  const { engine, clock } = deps;
  const tags = ['Agents'];

  /** The account with this path id, when it lies below the caller; otherwise 404 as if it did not exist. */
  const below_caller = (ctx: RequestContext): AccountActor | ApiError => {
    const id = parse_id(ctx.params.id);
    if (id === null) return not_found();
    const record = engine.account_record(id);
    if (record === undefined || !in_subtree(engine, ctx.actor!.id, record)) return not_found();
    const agent = engine.accounts.get(id);
    if (agent === undefined) return not_found();
    // The agent's changes are the request's too: its reply waits for their commit (front/durable-reply.ts).
    acts_on(ctx, agent);
    return agent;
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
    ...agent_commission_routes(deps, desk),
    {
      method: 'get',
      path: '/v1/agents/:id',
      auth: 'api_key',
      scope: 'agents:manage',
      doc: { summary: 'An agent below the key\'s account: balances, status, limits', tags, response: AgentView, errors: ['account.not_found'] },
      handler: (ctx) => {
        const agent = below_caller(ctx);
        if ('code' in agent) return error_reply(ctx.request_id, agent);
        return success_reply(ctx.request_id, 200, view_of(agent));
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
        return success_reply(ctx.request_id, 200, view_of(agent), 'Agent updated.');
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
        return success_reply(ctx.request_id, 200, { agent: view_of(agent), swept: swept.map(transfer_view), keys_revoked }, 'Agent closed.');
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
        acts_on(ctx, agent);
        if (agent.account.status === 'closed') return error_reply(ctx.request_id, api_error('agents.closed'));
        engine.run(agent, { kind: 'set_pin', pin_hash });
        return success_reply(ctx.request_id, 200, { pin_set: true }, 'Transaction PIN set.');
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
        return success_reply(ctx.request_id, 200, { agent_id: agent.id, rules: rules.map(price_rule_view), rounding: pricing_rounding_rule }, 'Price list replaced.');
      },
    },
    ...agent_transfer_routes(deps, below_caller),
  ];
}
