// Wallet funding (docs/decisions.md, docs/api.md "Webhooks"):
// - the bank partner's transfer notifications, authenticated with an HMAC of the raw body under
//   FUNDING_WEBHOOK_SECRET, idempotent by the bank's reference, crediting the live wallet;
// - in the test environment, a self-service top-up of sandbox money.
// Both credit through the account actor, which emits wallet.credited in the same command.
import type { Static } from 'typebox';
import Type from 'typebox';
import { createHmac } from 'node:crypto';
import type { Deps } from '../deps.js';
import type { RouteDef } from '../route.js';
import { error_reply, success_reply } from '../../lib/reply.js';
import { acts_on } from '../durable-reply.js';
import { refusal_reply } from '../outcome-errors.js';
import { wallet_entry_view } from '../views.js';
import { fingerprint, idempotency_key } from '../request-helpers.js';
import { remembered_error } from '../remembered.js';
import { run_idempotent, replayed } from '../idempotent-run.js';
import { api_error, invalid } from '../../errors.js';
import { naira_to_kobo } from '../../lib/money.js';
import { constant_time_equal } from '../../lib/secrets.js';
import { read_json } from '../json-body.js';
import { compile_schema } from '../../lib/validation.js';
import { random_crockford } from '../../lib/ids.js';
import { BankTransferBody, SandboxFundBody, WalletEntryView } from '../../schemas/webhook-schemas.js';

/** One sandbox top-up may add at most this much test money. */
export const sandbox_fund_kobo_max = 10_000_000_00;
export const bank_signature_header = 'X-Signature';

const bank_body = compile_schema(BankTransferBody);

export function funding_routes(deps: Deps): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/v1/sandbox/wallet/fund',
      auth: 'api_key',
      scope: null,
      body: SandboxFundBody,
      doc: {
        summary: 'Top up the sandbox wallet (test keys only)',
        description: 'Adds test money to the test wallet, up to NGN 10,000,000 per call, and emits wallet.credited. A live key gets 403 auth.insufficient_scope.',
        tags: ['Wallet'],
        response: WalletEntryView,
        success_status: 201,
        errors: ['auth.insufficient_scope', 'validation.failed', 'idempotency.key_reused'],
      },
      handler: (ctx) => {
        if (ctx.environment !== 'test') return error_reply(ctx.request_id, api_error('auth.insufficient_scope', 'Sandbox funding needs a test key; live wallets are funded by bank transfer.'));
        const key = idempotency_key(ctx);
        if (key !== null && typeof key === 'object') return error_reply(ctx.request_id, key);
        const body = ctx.body as Static<typeof SandboxFundBody>;
        const amount = naira_to_kobo(body.amount);
        if (!amount.ok || amount.kobo === 0 || amount.kobo > sandbox_fund_kobo_max) {
          const message = !amount.ok ? amount.reason : 'must be from 0.01 to 10000000 NGN';
          return remembered_error(deps, ctx, invalid('amount', message));
        }
        const actor = ctx.actor!;
        const reference = body.reference ?? `SANDBOX-${random_crockford(deps.random, 12)}`;
        return run_idempotent(
          { actor, environment: 'test', key, fingerprint: fingerprint(ctx), request_id: ctx.request_id, now_ms: deps.clock.now_ms() },
          () => {
            // Sandbox references are the account's own: another tenant's reference is a new top-up.
            const outcome = deps.engine.run(actor, { kind: 'credit', environment: 'test', amount_kobo: amount.kobo, reference, description: 'Sandbox top-up', scope: 'account' }, deps.clock.now_us());
            if (!outcome.ok) return refusal_reply(ctx.request_id, outcome.refused);
            const reply = success_reply(ctx.request_id, 201, wallet_entry_view(outcome.value.entry), outcome.value.created ? 'Sandbox wallet funded.' : 'Already funded with this reference.');
            return outcome.value.created ? reply : replayed(reply);
          },
        );
      },
    },
    {
      method: 'post',
      path: '/v1/funding/bank-transfer',
      auth: 'none',
      raw_body: true,
      idempotent: false,
      doc: {
        summary: 'Bank partner: a transfer into a reseller\'s funding account (credits the live wallet)',
        description: `Signed with ${bank_signature_header}: sha256=<hex HMAC-SHA256 of the raw body keyed with FUNDING_WEBHOOK_SECRET>. Idempotent by the bank's reference: a repeat credits nothing and answers 200 with the first credit.`,
        tags: ['Partner'],
        headers: { [bank_signature_header]: 'sha256= + hex HMAC-SHA256 of the raw body keyed with FUNDING_WEBHOOK_SECRET' },
        request: BankTransferBody,
        response: Type.Object({ received: Type.Literal(true), wallet_transaction: WalletEntryView }),
        success_status: 201,
        also_success: [200],
        errors: ['funding.invalid_signature', 'validation.failed', 'request.malformed_json', 'account.not_found', 'idempotency.key_reused', 'funding.not_configured'],
      },
      handler: (ctx) => {
        const secret = deps.config.funding_webhook_secret;
        if (secret === null) return error_reply(ctx.request_id, api_error('funding.not_configured', 'Bank transfer funding (FUNDING_WEBHOOK_SECRET) is not configured on this server.'));
        const raw = ctx.raw_body ?? Buffer.alloc(0);
        const expected = 'sha256=' + createHmac('sha256', secret).update(raw).digest('hex');
        // Checked on the raw bytes before anything is parsed; compared in constant time.
        if (!constant_time_equal(ctx.headers.signature.trim().toLowerCase(), expected)) return error_reply(ctx.request_id, api_error('funding.invalid_signature'));
        // A signature vouches for bytes, not for one reading of them: a body that names a key twice
        // (`"amount":1,"amount":2`) may read one way to the bank and another to us, so it is refused
        // before anything in it is used (docs/api.md "Funding"), like a body that is not JSON.
        const parsed = read_json(raw);
        if ('code' in parsed) return error_reply(ctx.request_id, parsed);
        const body = parsed.value;
        const details = bank_body.check(body);
        if (details !== null) return error_reply(ctx.request_id, api_error('validation.failed', 'The notification is not valid.', { details }));
        const notice = body as Static<typeof BankTransferBody>;
        const amount = naira_to_kobo(notice.amount);
        if (!amount.ok || amount.kobo === 0) return error_reply(ctx.request_id, api_error('validation.failed', 'The notification is not valid: amount must be positive.', { details: [{ field: 'amount', message: 'must be a positive NGN amount' }] }));
        const actor = deps.engine.accounts.get(notice.account_id);
        if (actor === undefined) return error_reply(ctx.request_id, api_error('account.not_found'));
        const description = `Bank transfer${notice.sender_name ? ` from ${notice.sender_name}` : ''}`.slice(0, 200);
        const outcome = deps.engine.run(actor, { kind: 'credit', environment: 'live', amount_kobo: amount.kobo, reference: notice.reference, description }, deps.clock.now_us());
        if (!outcome.ok) return refusal_reply(ctx.request_id, outcome.refused);
        const reply = success_reply(ctx.request_id, outcome.value.created ? 201 : 200, { received: true, wallet_transaction: wallet_entry_view(outcome.value.entry) }, outcome.value.created ? 'Credited.' : 'Already credited.');
        acts_on(ctx, actor);
        return reply;
      },
    },
  ];
}

export { Type };
