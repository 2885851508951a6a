// Dedicated accounts and the funding providers' callbacks (docs/funding.md, docs/api.md "Funding"):
//   POST /v1/funding/accounts            the reseller's dedicated accounts at every configured provider
//   GET  /v1/funding/accounts            the same rows
//   POST /callbacks/funding/{provider}   a provider's transfer notification (public port, signed)
//   POST /v1/sandbox/funding/transfer    a simulated transfer into the test wallet, through the same path
// The work is services/funding/funding-service.ts; these routes read, check and answer.
import type { Static } from 'typebox';
import Type from 'typebox';
import type { Deps } from '../deps.js';
import type { RequestContext, RouteDef } from '../route.js';
import { error_reply, success_reply, type Reply } from '../../lib/reply.js';
import { api_error, invalid, type ApiError } from '../../errors.js';
import { naira_to_kobo } from '../../lib/money.js';
import { random_crockford } from '../../lib/ids.js';
import { wallet_entry_view } from '../views.js';
import { FundingAccountsBody, FundingAccountsView, SandboxTransferBody } from '../../schemas/funding-schemas.js';
import { WalletEntryView } from '../../schemas/webhook-schemas.js';
import type { CallbackResult, FundingService } from '../../services/funding/funding-service.js';
import type { FundingAccountRecord } from '../../services/funding/funding-records.js';
import type { SandboxFundingProvider } from '../../services/funding/sandbox-funding.js';
import { sandbox_fund_kobo_max } from './funding-routes.js';

/** A callback body is small (Monnify's SUCCESSFUL_TRANSACTION is about 1.5 KiB); this bounds what is read. */
export const funding_callback_body_bytes_max = 64 * 1024;

/** One row per bank (a provider may give several), or one row for a provider that failed. */
export function funding_rows_view(rows: readonly FundingAccountRecord[]) {
  const out: Record<string, unknown>[] = [];
  for (const row of rows) {
    if (row.status === 'failed' || row.accounts.length === 0) {
      out.push({ provider: row.provider, kind: row.kind, bank_name: null, account_number: null, account_name: null, status: 'failed', error: row.error ?? 'not made yet' });
      continue;
    }
    for (const account of row.accounts) {
      out.push({ provider: row.provider, kind: row.kind, bank_name: account.bank_name, account_number: account.account_number, account_name: account.account_name, status: account.status });
    }
  }
  return { accounts: out };
}

export function not_configured(what: string): ApiError {
  return api_error('funding.not_configured', `${what} is not configured on this server.`);
}

/** A callback's outcome as the provider should see it: 200 unless the signature is wrong or we must be asked again. */
export function callback_reply(request_id: string, result: CallbackResult): Reply {
  switch (result.kind) {
    case 'not_configured': return error_reply(request_id, not_configured('This funding provider'));
    case 'invalid_signature': return error_reply(request_id, api_error('funding.invalid_signature'));
    case 'unavailable': return error_reply(request_id, api_error('service.unavailable', result.message, { headers: { 'Retry-After': '60' } }));
    case 'ignored': return success_reply(request_id, 200, { received: true, outcome: 'ignored' }, 'Not a completed transfer into a dedicated account: nothing to do.');
    case 'pending': return success_reply(request_id, 200, { received: true, outcome: 'pending' }, 'The provider has not completed this transfer yet; the reconciler credits it once it has.');
    case 'exception': return success_reply(request_id, 200, { received: true, outcome: 'exception' }, 'Recorded for the operator to review; nothing was credited.');
    case 'credited': return success_reply(request_id, 200, { received: true, outcome: result.created ? 'credited' : 'already_credited' }, result.created ? 'Credited.' : 'Already credited.');
  }
}

export function dedicated_account_routes(deps: Deps, funding: FundingService, sandbox: SandboxFundingProvider): RouteDef[] {
  const create = async (ctx: RequestContext): Promise<Reply> => {
    if (!funding.configured) return error_reply(ctx.request_id, not_configured('Dedicated-account funding'));
    const actor = ctx.actor!;
    const body = (ctx.body ?? {}) as Static<typeof FundingAccountsBody>;
    const rows = await funding.ensure_accounts(actor, { bvn: body.bvn ?? null, nin: body.nin ?? null });
    return success_reply(ctx.request_id, 201, funding_rows_view(rows), 'Dedicated accounts as they stand; a failed one is retried in the background.');
  };
  return [
    {
      method: 'post',
      path: '/v1/funding/accounts',
      auth: 'api_key',
      scope: 'account:manage',
      body: FundingAccountsBody,
      // A repeat is idempotent by itself: it makes only what is missing and answers every row.
      idempotent: false,
      doc: {
        summary: 'Create the reseller\'s dedicated bank accounts (live wallet)',
        description: 'One account (or one per bank) at each configured funding provider; a transfer into it credits the live wallet once, verified with the provider. A repeat makes only what is missing (a failed provider is tried again). bvn and nin are sealed at rest and never shown again. A test key gets 403: the test wallet is funded by POST /v1/sandbox/funding/transfer.',
        tags: ['Wallet'],
        response: FundingAccountsView,
        success_status: 201,
        errors: ['auth.insufficient_scope', 'validation.failed', 'funding.not_configured'],
      },
      handler: (ctx) => {
        if (!funding.configured) return error_reply(ctx.request_id, not_configured('Dedicated-account funding'));
        if (ctx.environment !== 'live') return error_reply(ctx.request_id, api_error('auth.insufficient_scope', 'Dedicated accounts fund the live wallet; use a live key (a test wallet is funded by POST /v1/sandbox/funding/transfer).'));
        return create(ctx);
      },
    },
    {
      method: 'get',
      path: '/v1/funding/accounts',
      auth: 'api_key',
      scope: 'wallet:read',
      doc: {
        summary: 'The reseller\'s dedicated bank accounts',
        tags: ['Wallet'],
        response: FundingAccountsView,
        errors: ['auth.insufficient_scope', 'funding.not_configured'],
      },
      handler: (ctx) => {
        if (!funding.configured) return error_reply(ctx.request_id, not_configured('Dedicated-account funding'));
        const actor = ctx.actor!;
        return success_reply(ctx.request_id, 200, funding_rows_view(funding.rows(actor.id)));
      },
    },
    {
      method: 'post',
      path: '/callbacks/funding/:provider',
      auth: 'none',
      raw_body: true,
      reads_funding_signatures: true,
      idempotent: false,
      body_bytes_max: funding_callback_body_bytes_max,
      doc: {
        summary: 'A funding provider\'s transfer notification (the provider calls it; not for resellers)',
        description: 'Signed as the provider documents it (Monnify: monnify-signature, HMAC-SHA512 of the raw body). Verified through the provider\'s API before anything is credited; answers 200 once the credit is durable, and 200 with nothing credited for a repeat or an exception.',
        tags: ['Partner'],
        hidden: true,
        errors: ['funding.invalid_signature', 'funding.not_configured', 'service.unavailable'],
      },
      handler: (ctx) => {
        const result = funding.receive_callback(ctx.params.provider ?? '', ctx.raw_body ?? Buffer.alloc(0), ctx.headers.funding_signatures);
        return result instanceof Promise ? result.then((r) => callback_reply(ctx.request_id, r)) : callback_reply(ctx.request_id, result);
      },
    },
    {
      method: 'post',
      path: '/v1/sandbox/funding/transfer',
      auth: 'api_key',
      scope: null,
      body: SandboxTransferBody,
      idempotent: false,
      doc: {
        summary: 'Simulate a bank transfer into the test wallet (test keys only)',
        description: 'Goes the way a real transfer does: a signed callback from the sandbox funding provider, checked, verified with it, credited once, wallet.credited emitted. A live key gets 403 auth.insufficient_scope.',
        tags: ['Wallet'],
        response: WalletEntryView,
        success_status: 201,
        errors: ['auth.insufficient_scope', 'validation.failed'],
      },
      handler: async (ctx) => {
        if (ctx.environment !== 'test') return error_reply(ctx.request_id, api_error('auth.insufficient_scope', 'Sandbox transfers need a test key; the live wallet is funded by transfers into its dedicated accounts.'));
        const amount = naira_to_kobo((ctx.body as Static<typeof SandboxTransferBody>).amount);
        if (!amount.ok || amount.kobo === 0 || amount.kobo > sandbox_fund_kobo_max) {
          const message = !amount.ok ? amount.reason : 'must be from 0.01 to 10000000 NGN';
          return error_reply(ctx.request_id, invalid('amount', message));
        }
        const reference = `SBXFUND-${random_crockford(deps.random, 16)}`;
        const callback = sandbox.pay_in(ctx.actor!.id, reference, amount.kobo);
        const result = await funding.sandbox_transfer(sandbox, callback.raw, callback.headers);
        if (result.kind !== 'credited') return error_reply(ctx.request_id, api_error('service.unavailable', 'The sandbox transfer could not be credited; retry.'));
        return success_reply(ctx.request_id, 201, wallet_entry_view(result.entry), 'Sandbox transfer credited.');
      },
    },
  ];
}

export { Type };
