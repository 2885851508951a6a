// GET /v1/account, GET /v1/wallet, GET /v1/wallet/transactions (docs/spec.md section 4, "Account", "Wallet").
import type { Deps } from '../deps.js';
import type { RouteDef } from '../route.js';
import { error_reply, success_reply } from '../../lib/reply.js';
import { account_view, pagination, wallet_entry_view, wallet_view } from '../views.js';
import { parse_pagination, query_params } from '../request-helpers.js';
import { success_envelope, page_query } from '../../schemas/common.js';
import { AccountPatchBody, AccountView, Wallet, WalletEntryPage } from '../../schemas/account-schemas.js';
import type { Static } from 'typebox';
import { invalid } from '../../errors.js';
import { kobo_to_naira, naira_to_kobo } from '../../lib/money.js';
import { low_balance_threshold } from '../../engine/low-balance.js';
import type { RequestContext } from '../route.js';
import { assert_entry, type WalletEntry } from '../../engine/records.js';
import type { AccountActor } from '../../engine/account-actor.js';
import type { Environment } from '../../engine/records.js';
import type { Store } from '../../journal/store.js';
import { fail } from '../../lib/assert.js';

/** Reads a page of a wallet's entries, newest first, from the store; each record is checked on read. */
export function read_wallet_entries(store: Store, actor: AccountActor, environment: Environment, total: number, page: number, per_page: number): WalletEntry[] {
  const newest = total - (page - 1) * per_page;
  if (newest < 1) return [];
  const oldest = Math.max(1, newest - per_page + 1);
  const out: WalletEntry[] = [];
  for (const { value } of store.wallet_entries.getRange({ start: [actor.id, environment, newest], end: [actor.id, environment, oldest - 1], reverse: true })) {
    const entry = value as WalletEntry;
    assert_entry(entry);
    out.push(entry);
  }
  if (out.length !== newest - oldest + 1) fail(`wallet ${actor.id}/${environment} is missing entries ${oldest}..${newest}`);
  return out;
}

function account_settings_view(ctx: RequestContext) {
  const actor = ctx.actor!;
  const threshold_kobo = low_balance_threshold(actor, ctx.environment);
  return { ...account_view(actor.account), low_balance_threshold: threshold_kobo === null ? null : kobo_to_naira(threshold_kobo) };
}

export function account_routes(deps: Deps): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/v1/account',
      auth: 'api_key',
      scope: null,
      doc: { summary: 'The account of the API key', description: 'low_balance_threshold is the setting of the key\'s environment.', tags: ['Account'], response: AccountView },
      handler: (ctx) => {
        return success_reply(ctx.request_id, 200, account_settings_view(ctx));
      },
    },
    {
      method: 'patch',
      path: '/v1/account',
      auth: 'api_key',
      scope: '*',
      body: AccountPatchBody,
      doc: {
        summary: 'Set the low-balance alert of the key\'s environment',
        description: 'low_balance_threshold (NGN, or null to turn it off): the event wallet.low_balance is emitted once each time a debit takes the balance from at or above it to below it. Needs a full-access key.',
        tags: ['Account'],
        response: AccountView,
        errors: ['validation.failed', 'auth.insufficient_scope'],
      },
      handler: (ctx) => {
        const body = ctx.body as Static<typeof AccountPatchBody>;
        let threshold_kobo: number | null = null;
        if (body.low_balance_threshold !== null) {
          const parsed = naira_to_kobo(body.low_balance_threshold);
          if (!parsed.ok) {
            return error_reply(ctx.request_id, invalid('low_balance_threshold', parsed.reason));
          }
          threshold_kobo = parsed.kobo;
        }
        const actor = ctx.actor!;
        deps.engine.run(actor, { kind: 'set_low_balance_threshold', environment: ctx.environment, threshold_kobo });
        const reply = success_reply(ctx.request_id, 200, account_settings_view(ctx), 'Account updated.');
        return reply;
      },
    },
    {
      method: 'get',
      path: '/v1/wallet',
      auth: 'api_key',
      scope: 'wallet:read',
      doc: {
        summary: 'Wallet balance of the key\'s environment',
        description: 'A live key sees the live wallet, a test key the sandbox wallet; nothing crosses between them.',
        tags: ['Wallet'],
        response: Wallet,
      },
      handler: (ctx) => {
        // The balance is read now and sent once everything that produced it is durable (the front end's gate).
        return success_reply(ctx.request_id, 200, wallet_view(ctx.actor!.wallets[ctx.environment]));
      },
    },
    {
      method: 'get',
      path: '/v1/wallet/transactions',
      auth: 'api_key',
      scope: 'wallet:read',
      doc: {
        summary: 'Wallet credits, debits and reversals, newest first',
        tags: ['Wallet'],
        response: WalletEntryPage,
        query: page_query,
        errors: ['validation.failed'],
      },
      handler: async (ctx) => {
        const paging = parse_pagination(query_params(ctx));
        if ('code' in paging) return error_reply(ctx.request_id, paging);
        const actor = ctx.actor!;
        const environment = ctx.environment;
        // The page is a snapshot as of the request's arrival: entries staged later are not counted.
        const total = actor.wallets[environment].entries_count;
        await actor.read_settled();
        const entries = read_wallet_entries(deps.engine.store, actor, environment, total, paging.page, paging.per_page);
        return success_reply(ctx.request_id, 200, {
          transactions: entries.map(wallet_entry_view),
          pagination: pagination(total, paging.per_page, paging.page),
        });
      },
    },
  ];
}

export { success_envelope };
