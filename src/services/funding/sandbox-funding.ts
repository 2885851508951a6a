// The sandbox funding provider (docs/funding.md "Sandbox"): POST /v1/sandbox/funding/transfer simulates a
// transfer into the reseller's test wallet through the same path as a real provider's callback: a body signed
// with a per-process key (HMAC-SHA512), checked over its raw bytes, parsed into a claim, verified against this
// provider's own record of the transfer, then credited once by the claim [test, sandbox, reference].
import { createHmac, randomBytes } from 'node:crypto';
import { constant_time_equal } from '../../lib/secrets.js';
import type { CallbackClaim, FundingProvider, FundingProviderConfig, ProviderTransfer } from './funding-provider.js';

export const sandbox_funding_name = 'sandbox';
export const sandbox_signature_header = 'x-sandbox-signature';
/** Sandbox transfers remembered for verification; the oldest goes first (a transfer is verified within the request). */
export const sandbox_transfers_max = 10_000;

export interface SandboxFundingProvider extends FundingProvider {
  /** Records a transfer into the account's sandbox account and returns the callback the provider sends. */
  pay_in(account_id: number, reference: string, amount_kobo: number): { raw: Buffer; headers: Record<string, string> };
}

export function make_sandbox_funding_provider(now: () => number): SandboxFundingProvider {
  const key = randomBytes(32);
  const transfers = new Map<string, ProviderTransfer>();
  const config: FundingProviderConfig = { name: sandbox_funding_name, kind: 'monnify', base_url: 'http://sandbox.invalid', api_key: '', secret_key: '', timeout_ms: 1000 };
  const sign = (raw: Buffer) => createHmac('sha512', key).update(raw).digest('hex');
  return {
    config,
    pay_in(account_id, reference, amount_kobo) {
      if (transfers.size >= sandbox_transfers_max) transfers.delete(transfers.keys().next().value!);
      transfers.set(reference, {
        provider_reference: reference,
        status: 'successful',
        amount_paid_kobo: amount_kobo,
        fee_kobo: 0,
        settlement_kobo: amount_kobo,
        account_number: null,
        customer_reference: `billvend-${account_id}`,
        paid_at: new Date(now()).toISOString(),
      });
      const raw = Buffer.from(JSON.stringify({ event: 'transfer.received', reference, amount_kobo, customer_reference: `billvend-${account_id}` }));
      return { raw, headers: { [sandbox_signature_header]: sign(raw) } };
    },
    async create_accounts() {
      return [];
    },
    signature_valid(raw, headers) {
      return constant_time_equal(headers[sandbox_signature_header] ?? '', sign(Buffer.from(raw)));
    },
    parse_callback(body: unknown): CallbackClaim | null {
      const b = body as { event?: unknown; reference?: unknown; amount_kobo?: unknown; customer_reference?: unknown } | null;
      if (b === null || typeof b !== 'object' || b.event !== 'transfer.received') return null;
      if (typeof b.reference !== 'string' || !Number.isSafeInteger(b.amount_kobo) || typeof b.customer_reference !== 'string') return null;
      return { provider_reference: b.reference, amount_paid_kobo: b.amount_kobo as number, account_number: null, customer_reference: b.customer_reference };
    },
    async verify(reference) {
      return transfers.get(reference) ?? null;
    },
    async recent_transfers() {
      return [];
    },
  };
}
