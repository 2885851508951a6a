// The operator's funding routes (docs/operations.md "Funding providers", docs/funding.md "Exceptions"):
//   POST /admin/accounts/{id}/funding/accounts          a reseller's dedicated accounts, as the reseller's POST
//   GET  /admin/funding/exceptions?status=open|all      transfers not credited automatically
//   POST /admin/funding/exceptions/{id}/resolve         {action: credit | reject, account_id?}: the only way one is credited
//   POST /admin/funding/reconcile                       {provider?}: asks the providers for 48 h of transfers now
//   GET  /admin/funding/report?date=                    a day's live funding per provider
import type { Static } from 'typebox';
import Type from 'typebox';
import type { Deps } from '../front/deps.js';
import type { RouteDef } from '../front/route.js';
import { error_reply, success_reply } from '../lib/reply.js';
import { api_error, invalid } from '../errors.js';
import { parse_id, query_params } from '../front/request-helpers.js';
import { kobo_to_naira } from '../lib/money.js';
import { iso_us, parse_date_days } from '../lib/time-format.js';
import { wallet_entry_view } from '../front/views.js';
import { funding_rows_view, not_configured } from '../front/routes/dedicated-account-routes.js';
import { FundingAccountsBody, FundingAccountsView, FundingExceptionView, FundingReportView, ReconcileBody, ReconcileView, ResolveExceptionBody } from '../schemas/funding-schemas.js';
import { WalletEntryView } from '../schemas/webhook-schemas.js';
import type { FundingService } from '../services/funding/funding-service.js';
import type { FundingExceptionRecord } from '../services/funding/funding-records.js';

export function funding_exception_view(record: FundingExceptionRecord) {
  return {
    id: record.id,
    provider: record.provider,
    provider_reference: record.provider_reference,
    amount: kobo_to_naira(record.amount_kobo),
    reason: record.reason,
    account_id: record.account_id,
    provider_amount: record.verified === null ? null : kobo_to_naira(record.verified.amount_paid_kobo),
    status: record.status,
    created_at: iso_us(record.created_us),
    resolved_at: record.resolved_us === null ? null : iso_us(record.resolved_us),
  };
}

export function funding_admin_routes(deps: Deps, funding: FundingService): RouteDef[] {
  const tags = ['Operator'];
  return [
    {
      method: 'post',
      path: '/admin/accounts/:id/funding/accounts',
      auth: 'operator',
      body: FundingAccountsBody,
      doc: { summary: 'Create a reseller\'s dedicated bank accounts (as POST /v1/funding/accounts)', tags, response: FundingAccountsView, success_status: 201, errors: ['account.not_found', 'validation.failed', 'funding.not_configured'] },
      handler: async (ctx) => {
        if (!funding.configured) return error_reply(ctx.request_id, not_configured('Dedicated-account funding'));
        const id = parse_id(ctx.params.id ?? '');
        const actor = id === null ? undefined : deps.engine.accounts.get(id);
        if (actor === undefined) return error_reply(ctx.request_id, api_error('account.not_found'));
        const body = (ctx.body ?? {}) as Static<typeof FundingAccountsBody>;
        const rows = await funding.ensure_accounts(actor, { bvn: body.bvn ?? null, nin: body.nin ?? null });
        return success_reply(ctx.request_id, 201, funding_rows_view(rows), 'Dedicated accounts as they stand.');
      },
    },
    {
      method: 'get',
      path: '/admin/funding/exceptions',
      auth: 'operator',
      doc: {
        summary: 'Funding transfers not credited automatically (oldest first, at most 1,000)',
        tags,
        query: { status: { schema: Type.String(), description: 'open (default) or all' } },
        response: Type.Object({ exceptions: Type.Array(FundingExceptionView) }),
        errors: ['validation.failed', 'funding.not_configured'],
      },
      handler: (ctx) => {
        if (!funding.configured) return error_reply(ctx.request_id, not_configured('Dedicated-account funding'));
        const status = query_params(ctx).get('status') ?? 'open';
        if (status !== 'open' && status !== 'all') return error_reply(ctx.request_id, invalid('status', 'must be open or all'));
        return success_reply(ctx.request_id, 200, { exceptions: funding.exceptions(status).map(funding_exception_view) });
      },
    },
    {
      method: 'post',
      path: '/admin/funding/exceptions/:id/resolve',
      auth: 'operator',
      body: ResolveExceptionBody,
      doc: {
        summary: 'Resolve a funding exception: credit it (once) or reject it',
        description: 'credit credits the provider\'s own amount (else the amount claimed) to account_id, or to the account the transfer seemed to be for; the credit is keyed by the provider\'s transfer id like every other, so it lands once. A closed agent is never credited (409 agents.closed): an account_closed exception is credited to the account_id named (its parent, say) or rejected.',
        tags,
        response: Type.Object({ exception: FundingExceptionView, wallet_transaction: Type.Union([WalletEntryView, Type.Null()]) }),
        errors: ['funding.exception_not_found', 'funding.exception_resolved', 'account.not_found', 'agents.closed', 'validation.failed', 'funding.not_configured'],
      },
      handler: async (ctx) => {
        if (!funding.configured) return error_reply(ctx.request_id, not_configured('Dedicated-account funding'));
        const id = parse_id(ctx.params.id ?? '');
        if (id === null) return error_reply(ctx.request_id, api_error('funding.exception_not_found'));
        const body = ctx.body as Static<typeof ResolveExceptionBody>;
        const result = await funding.resolve(id, body.action, body.account_id ?? null);
        switch (result.kind) {
          case 'not_found': return error_reply(ctx.request_id, api_error('funding.exception_not_found'));
          case 'resolved_already': return error_reply(ctx.request_id, api_error('funding.exception_resolved', `This funding exception was ${result.record.status} already.`));
          case 'account_needed': return error_reply(ctx.request_id, api_error('validation.failed', 'The request is not valid: account_id is needed, the transfer names no known account.', { details: [{ field: 'account_id', message: 'is needed: the transfer names no known account' }] }));
          case 'account_not_found': return error_reply(ctx.request_id, api_error('account.not_found'));
          case 'account_closed': return error_reply(ctx.request_id, api_error('agents.closed', `Account ${result.account_id} is a closed agent and is never credited; name another account_id${result.parent_id === null ? '' : ` (its parent is account ${result.parent_id})`}, or reject the exception.`));
          case 'done': return success_reply(ctx.request_id, 200, { exception: funding_exception_view(result.record), wallet_transaction: result.entry === null ? null : wallet_entry_view(result.entry) }, result.entry === null ? 'Rejected.' : 'Credited.');
        }
      },
    },
    {
      method: 'get',
      path: '/admin/funding/report',
      auth: 'operator',
      doc: {
        summary: 'A day\'s live funding per provider: transfers credited, amount paid, fees, what the wallets got, exceptions',
        tags,
        query: { date: { schema: Type.String(), description: 'the Africa/Lagos day, YYYY-MM-DD', required: true } },
        response: FundingReportView,
        errors: ['validation.failed', 'funding.not_configured'],
      },
      handler: (ctx) => {
        if (!funding.configured) return error_reply(ctx.request_id, not_configured('Dedicated-account funding'));
        const date = query_params(ctx).get('date') ?? '';
        const day = parse_date_days(date);
        if (day === null) return error_reply(ctx.request_id, invalid('date', 'must be a calendar date YYYY-MM-DD'));
        return success_reply(ctx.request_id, 200, {
          date,
          providers: funding.report(day).map((r) => ({
            provider: r.provider,
            count: r.credits,
            amount_paid: kobo_to_naira(r.amount_paid_kobo),
            fees: kobo_to_naira(r.fee_kobo),
            credited: kobo_to_naira(r.credited_kobo),
            exceptions: r.exceptions,
          })),
        });
      },
    },
    {
      method: 'post',
      path: '/admin/funding/reconcile',
      auth: 'operator',
      body: ReconcileBody,
      doc: {
        summary: 'Ask the funding providers for the last 48 hours of transfers now and credit what no callback brought',
        tags,
        response: ReconcileView,
        errors: ['validation.failed', 'funding.not_configured'],
      },
      handler: async (ctx) => {
        if (!funding.configured) return error_reply(ctx.request_id, not_configured('Dedicated-account funding'));
        const only = (ctx.body as Static<typeof ReconcileBody> | undefined)?.provider ?? null;
        if (only !== null && !funding.providers.has(only)) return error_reply(ctx.request_id, not_configured(`The funding provider "${only}"`));
        const counts = await funding.reconcile(only);
        return success_reply(ctx.request_id, 200, counts, `Found ${counts.found} transfers; credited ${counts.credited}; ${counts.exceptions} new exceptions.`);
      },
    },
  ];
}
