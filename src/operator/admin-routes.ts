// The operator API (docs/operations.md "Operator API"), on ADMIN_HOST:ADMIN_PORT behind ADMIN_TOKEN.
import type { Static } from 'typebox';
import Type from 'typebox';
import type { Deps } from '../front/deps.js';
import type { RequestContext, RouteDef } from '../front/route.js';
import { error_reply, success_reply } from '../lib/reply.js';
import { acts_on } from '../front/durable-reply.js';
import { refusal_reply } from '../front/outcome-errors.js';
import { account_view, key_view, pagination, wallet_entry_view, wallet_view } from '../front/views.js';
import { parse_id, parse_pagination, query_params } from '../front/request-helpers.js';
import { page_query } from '../schemas/common.js';
import { iso_us } from '../lib/time-format.js';
import { check_key_request, create_key_reply } from '../front/routes/key-routes.js';
import { CreateAccountBody, CreditBody, OperatorCreateKeyBody, SetPinBody, UpdateAccountBody } from '../schemas/operator-schemas.js';
import { Account } from '../schemas/account-schemas.js';
import { api_error, invalid, type ApiError } from '../errors.js';
import { kobo_to_naira, naira_to_kobo } from '../lib/money.js';
import type { AccountActor } from '../engine/account-actor.js';
import type { AccountRecord, Scope } from '../engine/records.js';
import { replayed } from '../front/idempotent-run.js';
import { healthz_route, metrics_route, readyz_route } from './probe-routes.js';
import { account_tree_routes } from './account-tree-routes.js';
import { account_statuses, type AccountStatus } from '../engine/records.js';

/** International format for phone numbers (docs/spec.md section 2): local 0XXXXXXXXXX becomes +234XXXXXXXXXX. */
export function international_phone(phone: string): string {
  if (phone.startsWith('+')) return phone;
  if (phone.startsWith('234')) return '+' + phone;
  return '+234' + phone.slice(1);
}

export function operator_account_view(account: AccountRecord) {
  return {
    ...account_view(account),
    daily_limit: account.daily_limit_kobo === null ? null : kobo_to_naira(account.daily_limit_kobo),
    pin_set: account.pin_hash !== null,
    // The tree (docs/decisions.md "Agents"): null for an account the operator created, its parent's id for an agent.
    parent_id: account.parent_id ?? null,
    status: account.status ?? 'active',
  };
}

/** Accounts a status filter reads between two yields to the event loop (GET /admin/accounts?status=). */
export const accounts_scan_slice_max = 1_000;

/** A password or PIN lane full (lib/secrets.ts HashLane): the operator retries, as anyone would. */
function hashing_busy_error(): ApiError {
  return api_error('rate_limit.exceeded', 'Too many passwords or PINs are being hashed; retry in 1 second(s).', { headers: { 'Retry-After': '1' } });
}

export function admin_routes(deps: Deps, extra: RouteDef[]): RouteDef[] {
  const { engine, clock } = deps;
  const account_of = (ctx: RequestContext): AccountActor | ApiError => {
    const id = parse_id(ctx.params.id);
    const actor = id === null ? undefined : engine.accounts.get(id);
    if (actor === undefined) return api_error('account.not_found');
    acts_on(ctx, actor);
    return actor;
  };
  const tags = ['Operator'];
  return [
    {
      method: 'post',
      path: '/admin/accounts',
      auth: 'operator',
      body: CreateAccountBody,
      doc: { summary: 'Create an account', tags, response: Account, errors: ['account.email_taken', 'rate_limit.exceeded'] },
      handler: async (ctx) => {
        const body = ctx.body as Static<typeof CreateAccountBody>;
        // scrypt runs on the thread pool before the command, in the lanes every scrypt takes
        // (lib/secrets.ts HashLane); the command itself stays synchronous.
        const [password_hash, pin_hash] = await Promise.all([
          deps.hash_lanes.password.hash(body.password),
          body.pin === undefined ? Promise.resolve(null) : deps.hash_lanes.pin.hash(body.pin),
        ]);
        if (password_hash === 'busy' || pin_hash === 'busy') return error_reply(ctx.request_id, hashing_busy_error());
        const outcome = engine.create_account({
          name: body.name,
          email: body.email,
          phone: international_phone(body.phone),
          tier: body.tier ?? 'standard',
          kyc_level: body.kyc_level,
          password_hash,
          pin_hash,
        });
        if (!outcome.ok) return refusal_reply(ctx.request_id, outcome.refused);
        acts_on(ctx, outcome.value);
        return success_reply(ctx.request_id, 201, operator_account_view(outcome.value.account), 'Account created.');
      },
    },
    {
      method: 'patch',
      path: '/admin/accounts/:id',
      auth: 'operator',
      body: UpdateAccountBody,
      doc: {
        summary: 'Update KYC level, tier or daily limit; suspend or reactivate',
        description: 'status suspended refuses the keys of the account and of every account below it (403 account.suspended) until it is active again. A closed agent is 409 agents.closed.',
        tags,
        response: Account,
        errors: ['account.not_found', 'agents.closed'],
      },
      handler: (ctx) => {
        const actor = account_of(ctx);
        if ('code' in actor) return error_reply(ctx.request_id, actor);
        const body = ctx.body as Static<typeof UpdateAccountBody>;
        let daily_limit_kobo: number | null | undefined;
        if (body.daily_limit === null) daily_limit_kobo = null;
        else if (body.daily_limit !== undefined) {
          const parsed = naira_to_kobo(body.daily_limit);
          if (!parsed.ok) return error_reply(ctx.request_id, invalid('daily_limit', parsed.reason));
          daily_limit_kobo = parsed.kobo;
        }
        const outcome = engine.run(actor, { kind: 'update_profile', patch: { kyc_level: body.kyc_level, tier: body.tier, daily_limit_kobo, status: body.status } });
        if (!outcome.ok) return refusal_reply(ctx.request_id, outcome.refused);
        return success_reply(ctx.request_id, 200, operator_account_view(outcome.value), 'Account updated.');
      },
    },
    {
      method: 'post',
      path: '/admin/accounts/:id/pin',
      auth: 'operator',
      body: SetPinBody,
      doc: { summary: 'Set the account\'s transaction PIN', tags, errors: ['account.not_found', 'agents.closed', 'rate_limit.exceeded'] },
      handler: async (ctx) => {
        const found = account_of(ctx);
        if ('code' in found) return error_reply(ctx.request_id, found);
        // A closed agent is changed by nobody (docs/decisions.md "Agents"): refused before the scrypt, and by the
        // command itself should it close meanwhile.
        if (found.account.status === 'closed') return error_reply(ctx.request_id, api_error('agents.closed'));
        const pin_hash = await deps.hash_lanes.pin.hash((ctx.body as Static<typeof SetPinBody>).pin);
        if (pin_hash === 'busy') return error_reply(ctx.request_id, hashing_busy_error());
        const actor = engine.accounts.get(found.id);
        if (actor === undefined) return error_reply(ctx.request_id, api_error('account.not_found'));
        acts_on(ctx, actor);
        const outcome = engine.run(actor, { kind: 'set_pin', pin_hash });
        if (!outcome.ok) return refusal_reply(ctx.request_id, outcome.refused);
        return success_reply(ctx.request_id, 200, { pin_set: true }, 'Transaction PIN set.');
      },
    },
    {
      method: 'post',
      path: '/admin/accounts/:id/keys',
      auth: 'operator',
      body: OperatorCreateKeyBody,
      doc: { summary: 'Create an API key for an account (the secret is in this response only)', tags, errors: ['account.not_found', 'keys.limit_reached'] },
      handler: (ctx) => {
        const actor = account_of(ctx);
        if ('code' in actor) return error_reply(ctx.request_id, actor);
        const body = ctx.body as Static<typeof OperatorCreateKeyBody>;
        const checked = check_key_request(body, clock.now_ms());
        if ('code' in checked) return error_reply(ctx.request_id, checked);
        const reply = create_key_reply(deps, actor, ctx.request_id, {
          name: body.name,
          environment: body.environment ?? 'live',
          scopes: (body.scopes ?? ['*']) as Scope[],
          ip_allowlist: checked.ip_allowlist,
          rate_limit_per_minute: body.rate_limit_per_minute ?? 60,
          expires_ms: checked.expires_ms,
        });
        return reply;
      },
    },
    {
      method: 'post',
      path: '/admin/accounts/:id/wallet/credit',
      auth: 'operator',
      body: CreditBody,
      doc: { summary: 'Credit a wallet; the same reference again credits nothing and returns the first', tags, errors: ['account.not_found', 'agents.closed', 'idempotency.key_reused'] },
      handler: (ctx) => {
        const actor = account_of(ctx);
        if ('code' in actor) return error_reply(ctx.request_id, actor);
        // A closed agent's balances were swept to its parent and nothing can move them again (docs/decisions.md
        // "Agents"): money credited there would be stuck. A suspended agent is still credited.
        if (actor.account.status === 'closed') return error_reply(ctx.request_id, api_error('agents.closed'));
        const body = ctx.body as Static<typeof CreditBody>;
        const amount = naira_to_kobo(body.amount);
        if (!amount.ok) return error_reply(ctx.request_id, invalid('amount', amount.reason));
        if (amount.kobo === 0) return error_reply(ctx.request_id, invalid('amount', 'must be greater than 0'));
        const outcome = engine.run(actor, { kind: 'credit', environment: body.environment, amount_kobo: amount.kobo, reference: body.reference, description: body.description ?? 'Wallet funding' }, clock.now_us());
        if (!outcome.ok) return refusal_reply(ctx.request_id, outcome.refused);
        const reply = success_reply(ctx.request_id, 201, wallet_entry_view(outcome.value.entry), outcome.value.created ? 'Wallet credited.' : 'Already credited with this reference.');
        return outcome.value.created ? reply : replayed(reply);
      },
    },
    {
      method: 'get',
      path: '/admin/accounts',
      auth: 'operator',
      doc: {
        summary: 'Accounts by id, a page at a time, or the one with an email address; filtered by parent or status',
        description: 'parent_id lists that account\'s own agents (oldest first); status lists the accounts with that status (active, suspended or closed); both together, that account\'s own agents with that status.',
        tags,
        query: {
          ...page_query,
          email: { schema: Type.String({ maxLength: 254 }), description: 'only the account with this email, in any letter case' },
          parent_id: { schema: Type.Integer({ minimum: 1 }), description: 'only the agents whose parent is this account' },
          status: { schema: Type.Union(account_statuses.map((s) => Type.Literal(s))), description: 'only the accounts with this status: active, suspended or closed' },
        },
        errors: ['validation.failed'],
      },
      handler: async (ctx) => {
        const params = query_params(ctx);
        const paging = parse_pagination(params);
        if ('code' in paging) return error_reply(ctx.request_id, paging);
        const parent_text = params.get('parent_id');
        const parent_id = parent_text === null ? null : parse_id(parent_text);
        if (parent_text !== null && parent_id === null) return error_reply(ctx.request_id, invalid('parent_id', 'must be an account id, a positive integer'));
        const status_text = params.get('status');
        if (status_text !== null && !(account_statuses as readonly string[]).includes(status_text)) return error_reply(ctx.request_id, invalid('status', `must be one of ${account_statuses.join(', ')}`));
        const status = status_text as AccountStatus | null;
        const email = params.get('email');
        if (email !== null) {
          const found = engine.account_by_email(email);
          const matches = found !== undefined && (parent_id === null || found.account.parent_id === parent_id) && (status === null || (found.account.status ?? 'active') === status);
          const shown = !matches || paging.page !== 1 ? [] : [operator_account_view(found.account)];
          return success_reply(ctx.request_id, 200, { accounts: shown, pagination: pagination(matches ? 1 : 0, paging.per_page, paging.page) });
        }
        const first = (paging.page - 1) * paging.per_page;
        const accounts: ReturnType<typeof operator_account_view>[] = [];
        if (parent_id !== null) {
          // The parent's own agents, from the index its commands stage (as GET /v1/agents): once what is staged
          // is durable, the store lists it.
          await engine.journal.durable();
          // A new options object each: lmdb-js's getCount marks the one it is given (see GET /v1/agents).
          const range = () => ({ start: [parent_id], end: [parent_id + 1] });
          if (status === null) {
            const total = engine.store.account_children.getCount(range());
            for (const key of engine.store.account_children.getKeys({ ...range(), offset: first, limit: paging.per_page })) {
              const account = engine.account_record((key as [number, number])[1]);
              if (account !== undefined) accounts.push(operator_account_view(account));
            }
            return success_reply(ctx.request_id, 200, { accounts, pagination: pagination(total, paging.per_page, paging.page) });
          }
          let total = 0;
          let read = 0;
          for (const key of engine.store.account_children.getKeys(range())) {
            const account = engine.account_record((key as [number, number])[1]);
            if (++read % accounts_scan_slice_max === 0) await new Promise((resolve) => setImmediate(resolve));
            if (account === undefined || (account.status ?? 'active') !== status) continue;
            if (total >= first && accounts.length < paging.per_page) accounts.push(operator_account_view(account));
            total++;
          }
          return success_reply(ctx.request_id, 200, { accounts, pagination: pagination(total, paging.per_page, paging.page) });
        }
        const count = engine.account_count();
        if (status !== null) {
          // No index by status: every account is read, in slices of accounts_scan_slice_max between yields, so that
          // a store of many accounts does not hold the event loop (docs/operations.md "Nothing long on the event loop").
          let total = 0;
          for (let id = 1; id <= count; id++) {
            if (id % accounts_scan_slice_max === 0) await new Promise((resolve) => setImmediate(resolve));
            const account = engine.account_record(id);
            if (account === undefined || (account.status ?? 'active') !== status) continue;
            if (total >= first && accounts.length < paging.per_page) accounts.push(operator_account_view(account));
            total++;
          }
          return success_reply(ctx.request_id, 200, { accounts, pagination: pagination(total, paging.per_page, paging.page) });
        }
        // Ids are handed out in order from 1 and accounts are never deleted, so a page is a range of
        // ids, read without building the accounts' actors (engine/actor-cache.ts).
        for (let id = first + 1; id <= Math.min(count, paging.page * paging.per_page); id++) {
          const account = engine.account_record(id);
          if (account !== undefined) accounts.push(operator_account_view(account));
        }
        return success_reply(ctx.request_id, 200, { accounts, pagination: pagination(count, paging.per_page, paging.page) });
      },
    },
    {
      method: 'get',
      path: '/admin/accounts/:id',
      auth: 'operator',
      doc: { summary: 'An account with its wallets and active API keys (never their secrets)', tags, errors: ['account.not_found'] },
      handler: (ctx) => {
        const actor = account_of(ctx);
        if ('code' in actor) return error_reply(ctx.request_id, actor);
        // Sent once the account's pending writes are durable (account_of: acts_on), so what is shown is what a restart keeps.
        return success_reply(ctx.request_id, 200, {
          ...operator_account_view(actor.account),
          wallets: { live: wallet_view(actor.wallets.live), test: wallet_view(actor.wallets.test) },
          keys: actor.active_keys().map((k) => key_view(k.record)),
        });
      },
    },
    {
      method: 'delete',
      path: '/admin/accounts/:id/keys/:key_id',
      auth: 'operator',
      doc: {
        summary: 'Revoke an API key of an account, at once and irreversibly',
        description: 'Later use of the key answers 401 auth.key_not_found. A key id of another account, or one already revoked, is 404 keys.not_found.',
        tags,
        errors: ['account.not_found', 'keys.not_found'],
      },
      handler: (ctx) => {
        const actor = account_of(ctx);
        if ('code' in actor) return error_reply(ctx.request_id, actor);
        const key_id = parse_id(ctx.params.key_id);
        if (key_id === null) return error_reply(ctx.request_id, api_error('keys.not_found'));
        const outcome = engine.run(actor, { kind: 'revoke_key', key_id }, clock.now_us());
        if (!outcome.ok) return refusal_reply(ctx.request_id, outcome.refused);
        const revoked = { ...key_view(outcome.value), revoked_at: iso_us(outcome.value.revoked_us!) };
        return success_reply(ctx.request_id, 200, revoked, 'API key revoked.');
      },
    },
    ...account_tree_routes(deps),
    ...extra,
    metrics_route(deps.metrics),
    healthz_route(),
    readyz_route(engine),
  ];
}
