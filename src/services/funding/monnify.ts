// Monnify reserved accounts as a FundingProvider (docs/funding.md "Monnify", every fact with its page):
//   POST /api/v1/auth/login                            Basic base64(api_key:secret_key) → responseBody.accessToken
//   POST /api/v2/bank-transfer/reserved-accounts       a customer's reserved accounts (one per partner bank)
//   GET  /api/v2/bank-transfer/reserved-accounts/{ref} the same accounts again (a repeat of the create)
//   GET  /api/v2/transactions/{url-encoded transactionReference}   a transaction's status: what is credited
//   GET  /api/v1/transactions/search?from=&to=&page=&size=        the reconciler's list
// Every answer is the envelope {requestSuccessful, responseMessage, responseCode, responseBody}. A callback
// (eventType SUCCESSFUL_TRANSACTION) carries `monnify-signature`: the hex HMAC-SHA512 of the raw body keyed with
// the client secret (the secret key). Amounts are naira with decimals, as numbers or strings ("100.00"):
// converted to kobo by their decimal text, never by floating point arithmetic.
import { createHmac } from 'node:crypto';
import { constant_time_equal } from '../../lib/secrets.js';
import {
  FundingProviderError,
  type CallbackClaim,
  type DedicatedAccount,
  type FundingCustomer,
  type FundingProvider,
  type FundingProviderConfig,
  type ProviderTransfer,
} from './funding-provider.js';

export const monnify_signature_header = 'monnify-signature';
/** Transactions asked for per page of the search; pages read per reconcile at most (a bound, not a hope). */
export const monnify_page_size = 100;
export const monnify_pages_max = 200;
/** Refresh the bearer token this long before Monnify says it expires. */
const token_margin_ms = 60_000;

/** Naira (a JSON number or a decimal string, at most 2 decimals once trailing zeros go) → integer kobo, or null. */
export function naira_text_to_kobo(value: unknown): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    text = String(value);
  } else if (typeof value === 'string') text = value.trim();
  else return null;
  const match = /^(\d{1,13})(?:\.(\d+))?$/.exec(text);
  if (match === null) return null;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > 2) return null;
  return Number(match[1]) * 100 + Number(fraction.padEnd(2, '0'));
}

interface Envelope {
  requestSuccessful?: unknown;
  responseMessage?: unknown;
  responseCode?: unknown;
  responseBody?: any;
}

/** Monnify's paymentStatus as ours: PAID and OVERPAID are money received (the answer's amountPaid is what counts). */
function transfer_status(payment_status: unknown): ProviderTransfer['status'] {
  if (payment_status === 'PAID' || payment_status === 'OVERPAID') return 'successful';
  if (payment_status === 'PENDING') return 'pending';
  return 'failed';
}

/** A transaction record (status answer, search row, or callback eventData) as a ProviderTransfer, or null if malformed. */
export function monnify_transfer(record: any): ProviderTransfer | null {
  if (record === null || typeof record !== 'object') return null;
  const reference = record.transactionReference;
  if (typeof reference !== 'string' || reference === '' || reference.length > 200) return null;
  const paid = naira_text_to_kobo(record.amountPaid);
  if (paid === null) return null;
  const settlement = record.settlementAmount === undefined || record.settlementAmount === null ? paid : naira_text_to_kobo(record.settlementAmount);
  if (settlement === null || settlement > paid) return null;
  const product = record.product !== null && typeof record.product === 'object' ? record.product : {};
  const destination = record.destinationAccountInformation;
  const account_number = destination !== null && typeof destination === 'object' && typeof destination.accountNumber === 'string' ? destination.accountNumber : null;
  return {
    provider_reference: reference,
    status: transfer_status(record.paymentStatus),
    amount_paid_kobo: paid,
    fee_kobo: paid - settlement,
    settlement_kobo: settlement,
    account_number,
    customer_reference: product.type === 'RESERVED_ACCOUNT' && typeof product.reference === 'string' ? product.reference : null,
    paid_at: typeof record.paidOn === 'string' ? record.paidOn : null,
  };
}

export function make_monnify_provider(config: FundingProviderConfig, now: () => number): FundingProvider {
  if (config.contract_code === undefined || config.contract_code === '') throw new Error(`funding provider ${config.name}: monnify needs contract_code`);
  let token: { value: string; expires_ms: number } | null = null;

  async function call(method: 'GET' | 'POST', path: string, body: unknown, signal: AbortSignal, auth: 'basic' | 'bearer' = 'bearer'): Promise<{ status: number; envelope: Envelope }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    headers.authorization = auth === 'basic'
      ? 'Basic ' + Buffer.from(`${config.api_key}:${config.secret_key}`).toString('base64')
      : 'Bearer ' + (await bearer(signal));
    let response: Response;
    try {
      response = await fetch(config.base_url + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.any([signal, AbortSignal.timeout(config.timeout_ms)]),
      });
    } catch (error) {
      throw new FundingProviderError(`${config.name}: ${method} ${path.split('?')[0]} failed: ${(error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message}`, true);
    }
    const text = await response.text().catch(() => '');
    let envelope: Envelope = {};
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed !== null && typeof parsed === 'object') envelope = parsed as Envelope;
    } catch {
      // A 5xx page or a proxy's HTML: judged by the status below.
    }
    if (response.status === 401 && auth === 'bearer') token = null;
    if (response.status >= 500) throw new FundingProviderError(`${config.name}: ${method} ${path.split('?')[0]} answered ${response.status}`, true);
    return { status: response.status, envelope };
  }

  async function bearer(signal: AbortSignal): Promise<string> {
    if (token !== null && token.expires_ms - token_margin_ms > now()) return token.value;
    const { status, envelope } = await call('POST', '/api/v1/auth/login', undefined, signal, 'basic');
    const access = envelope.responseBody?.accessToken;
    if (status !== 200 || envelope.requestSuccessful !== true || typeof access !== 'string') {
      throw new FundingProviderError(`${config.name}: login refused (${status} ${String(envelope.responseMessage ?? '').slice(0, 120)})`, status === 429);
    }
    const expires_in = envelope.responseBody?.expiresIn;
    token = { value: access, expires_ms: now() + (typeof expires_in === 'number' && expires_in > 0 ? expires_in * 1000 : 300_000) };
    return access;
  }

  function accounts_of(body: any): DedicatedAccount[] {
    const out: DedicatedAccount[] = [];
    const status: DedicatedAccount['status'] = body?.status === 'ACTIVE' || body?.status === undefined ? 'active' : 'pending';
    for (const account of Array.isArray(body?.accounts) ? body.accounts : []) {
      if (typeof account?.accountNumber !== 'string' || !/^\d{6,20}$/.test(account.accountNumber)) continue;
      out.push({
        bank_name: String(account.bankName ?? '').slice(0, 100),
        account_number: account.accountNumber,
        account_name: String(account.accountName ?? body.accountName ?? '').slice(0, 100),
        status,
      });
    }
    return out;
  }

  return {
    config,

    async create_accounts(customer: FundingCustomer, signal: AbortSignal): Promise<DedicatedAccount[]> {
      // The GET first: a repeat (a retry after a lost answer, a second POST) finds what the first made.
      const path = `/api/v2/bank-transfer/reserved-accounts/${encodeURIComponent(customer.reference)}`;
      const existing = await call('GET', path, undefined, signal);
      if (existing.status === 200 && existing.envelope.requestSuccessful === true) {
        const accounts = accounts_of(existing.envelope.responseBody);
        if (accounts.length > 0) return accounts;
      }
      const body: Record<string, unknown> = {
        accountReference: customer.reference,
        accountName: customer.name.slice(0, 100),
        currencyCode: 'NGN',
        contractCode: config.contract_code,
        customerEmail: customer.email,
        customerName: customer.name.slice(0, 100),
        getAllAvailableBanks: true,
      };
      if (customer.bvn !== null) body.bvn = customer.bvn;
      if (customer.nin !== null) body.nin = customer.nin;
      const created = await call('POST', '/api/v2/bank-transfer/reserved-accounts', body, signal);
      if (created.status === 200 && created.envelope.requestSuccessful === true) {
        const accounts = accounts_of(created.envelope.responseBody);
        if (accounts.length > 0) return accounts;
        throw new FundingProviderError(`${config.name}: reserved account answer lists no account`, true);
      }
      const message = String(created.envelope.responseMessage ?? `HTTP ${created.status}`).slice(0, 200);
      throw new FundingProviderError(`${config.name}: ${message}`, created.status === 429);
    },

    signature_valid(raw: Uint8Array, headers: Readonly<Record<string, string>>): boolean {
      const given = (headers[monnify_signature_header] ?? '').trim().toLowerCase();
      if (given === '') return false;
      const expected = createHmac('sha512', config.secret_key).update(raw).digest('hex');
      return constant_time_equal(given, expected);
    },

    parse_callback(body: unknown): CallbackClaim | null {
      if (body === null || typeof body !== 'object') return null;
      const event = body as { eventType?: unknown; eventData?: any };
      if (event.eventType !== 'SUCCESSFUL_TRANSACTION') return null;
      const data = event.eventData;
      if (data === null || typeof data !== 'object' || data.product?.type !== 'RESERVED_ACCOUNT') return null;
      const transfer = monnify_transfer(data);
      if (transfer === null) return null;
      return {
        provider_reference: transfer.provider_reference,
        amount_paid_kobo: transfer.amount_paid_kobo,
        account_number: transfer.account_number,
        customer_reference: transfer.customer_reference,
      };
    },

    async verify(provider_reference: string, signal: AbortSignal): Promise<ProviderTransfer | null> {
      const { status, envelope } = await call('GET', `/api/v2/transactions/${encodeURIComponent(provider_reference)}`, undefined, signal);
      if (status === 200 && envelope.requestSuccessful === true) {
        const transfer = monnify_transfer(envelope.responseBody);
        if (transfer === null) throw new FundingProviderError(`${config.name}: transaction status answer not understood`, true);
        return transfer.provider_reference === provider_reference ? transfer : null;
      }
      if (status === 404 || status === 400) return null;
      throw new FundingProviderError(`${config.name}: transaction status answered ${status}`, true);
    },

    async recent_transfers(from_ms: number, to_ms: number, signal: AbortSignal): Promise<ProviderTransfer[]> {
      const out: ProviderTransfer[] = [];
      for (let page = 0; page < monnify_pages_max; page++) {
        const query = new URLSearchParams({ page: String(page), size: String(monnify_page_size), from: String(from_ms), to: String(to_ms) });
        const { status, envelope } = await call('GET', `/api/v1/transactions/search?${query}`, undefined, signal);
        if (status !== 200 || envelope.requestSuccessful !== true) throw new FundingProviderError(`${config.name}: transaction search answered ${status}`, true);
        const content = envelope.responseBody?.content;
        if (!Array.isArray(content)) throw new FundingProviderError(`${config.name}: transaction search answer has no content`, true);
        for (const row of content) {
          if (row?.product?.type !== 'RESERVED_ACCOUNT') continue;
          const transfer = monnify_transfer(row);
          if (transfer !== null) out.push(transfer);
        }
        if (envelope.responseBody.last === true || content.length < monnify_page_size) return out;
      }
      throw new FundingProviderError(`${config.name}: transaction search has more than ${monnify_pages_max} pages`, false);
    },
  };
}
