// The dashboard's wallet (docs/api.md "Dashboard and documentation"): its history, filtered, and how to
// fund the live wallet.
import type { FundingService } from '../services/funding/funding-service.js';
import { funding_rows_view } from '../front/routes/dedicated-account-routes.js';
import type { Deps } from '../front/deps.js';
import type { RouteDef } from '../front/route.js';
import { error_reply, success_reply } from '../lib/reply.js';
import { pagination, wallet_entry_view } from '../front/views.js';
import { parse_pagination, query_params } from '../front/request-helpers.js';
import { kobo_to_naira } from '../lib/money.js';
import { dashboard_doc as doc } from './route-doc.js';
import { find_wallet_entries, parse_wallet_query } from './wallet-history.js';

export function wallet_session_routes(deps: Deps, funding: FundingService | null): RouteDef[] {
  const { engine } = deps;
  return [
    {
      method: 'get',
      path: '/dashboard/api/wallet/transactions',
      auth: 'session',
      doc: doc('Wallet history of the environment, filtered by entry type and Africa/Lagos dates'),
      handler: async (ctx) => {
        const params = query_params(ctx);
        const paging = parse_pagination(params);
        if ('code' in paging) return error_reply(ctx.request_id, paging);
        const query = parse_wallet_query(params);
        if ('code' in query) return error_reply(ctx.request_id, query);
        const actor = ctx.actor!;
        const entries_count = actor.wallets[ctx.environment].entries_count;
        await actor.settled();
        const found = await find_wallet_entries(engine.store, actor, ctx.environment, query, entries_count, paging.page, paging.per_page, () => ctx.aborted);
        return success_reply(ctx.request_id, 200, {
          transactions: found.entries.map(wallet_entry_view),
          pagination: pagination(found.total, paging.per_page, paging.page),
          truncated: found.truncated,
        });
      },
    },
    {
      method: 'get',
      path: '/dashboard/api/funding',
      auth: 'session',
      doc: doc('How to fund the live wallet: the operator\'s bank account and the account ID to quote'),
      handler: (ctx) => {
        const actor = ctx.actor!;
        const bank = deps.config.funding_bank;
        return success_reply(ctx.request_id, 200, {
          bank: bank === null ? null : { bank_name: bank.bank_name, account_number: bank.account_number, account_name: bank.account_name },
          // The bank partner's notification names the account by its id (docs/api.md "Funding"): it is
          // the reference a transfer must quote.
          funding_reference: String(actor.id),
          live_balance: kobo_to_naira(actor.wallets.live.balance_kobo),
          // The reseller's own dedicated bank accounts (docs/funding.md), as GET /v1/funding/accounts shows them.
          dedicated_accounts: funding === null || !funding.configured ? [] : funding_rows_view(funding.rows(actor.id)).accounts,
        });
      },
    },
  ];
}
