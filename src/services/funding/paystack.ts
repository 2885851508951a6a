// The Paystack funding provider: a Dedicated Virtual Account (DVA) per reseller, read from Paystack's public
// API reference, its OpenAPI document (PaystackOSS/openapi) and the code samples of its docs
// (PaystackOSS/doc-code-snippets); every fact with its page is in docs/funding.md "Paystack".
//   GET  {base}/customer/{email_or_code}         find the customer again (404 when Paystack has none)
//   POST {base}/customer                         {email, first_name, last_name, phone, metadata} → customer_code, id
//   GET  {base}/dedicated_account?customer={id}&active=true   the customer's DVAs (one row per bank)
//   POST {base}/dedicated_account                {customer: customer_code, first_name, last_name, phone}
//   GET  {base}/transaction/verify/{reference}   the transaction as Paystack records it (amount, fees in kobo)
//   GET  {base}/transaction?from=&to=&perPage=&page=&channel=dedicated_nuban   the reconciler's list (meta.pageCount)
//   GET  {base}/dedicated_account/requery?account_number=&provider_slug=&date=   asks Paystack to look again
// with the secret key as a bearer token. Answers are {status: true | false, message, data}. A transfer into
// a DVA arrives as the charge.success event with channel dedicated_nuban, signed by x-paystack-signature:
// the hex HMAC-SHA512 of the raw body keyed with the secret key. Amounts are integer kobo throughout.
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  FundingProviderError,
  type CallbackClaim, type DedicatedAccount, type FundingCustomer, type FundingProvider, type FundingProviderConfig, type ProviderTransfer,
} from './funding-provider.js';
import { provider_request, refusal, type ProviderAnswer } from './provider-request.js';
import { provider_kobo } from './provider-amounts.js';

/** Rows asked for per page of GET /transaction (the reconciler's list). */
export const paystack_page_size = 100;
/** Pages read in one recent_transfers call at most: 48 hours of transfers fit many times over. */
export const paystack_pages_max = 1000;

/** The DVA channel, on the transaction (data.channel) and on its authorization (data.authorization.channel). */
const dva_channel = 'dedicated_nuban';

export interface PaystackFundingProvider extends FundingProvider {
  /** GET /dedicated_account/requery: asks Paystack to check an account (at the bank of provider_slug, when
   *  known) for transfers made on a day (the UTC date of day_ms, today by default). Paystack answers at once
   *  and sends charge.success later for what it finds; the reconciler's list is how billvend learns of it. */
  requery(account_number: string, provider_slug: string | null, signal: AbortSignal, day_ms?: number): Promise<void>;
}

type Json = Record<string, any>;

function object_or_null(value: unknown): Json | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Json : null;
}

/** Paystack's customer, first and last name from billvend's one name (Paystack needs both for a DVA). */
export function split_name(name: string): { first_name: string; last_name: string } {
  const parts = name.trim().split(/\s+/).filter((part) => part !== '');
  if (parts.length === 0) return { first_name: 'Customer', last_name: 'Customer' };
  return { first_name: parts[0], last_name: parts.length > 1 ? parts.slice(1).join(' ') : parts[0] };
}

/** billvend's customer reference, echoed in the customer's metadata (a JSON object, or its text). */
function billvend_reference(customer: unknown): string | null {
  let metadata: unknown = object_or_null(customer)?.metadata;
  if (typeof metadata === 'string') {
    try {
      metadata = JSON.parse(metadata);
    } catch {
      return null;
    }
  }
  const reference = object_or_null(metadata)?.billvend_reference;
  return typeof reference === 'string' && reference !== '' ? reference : null;
}

/** The account the money went into: the authorization's receiver account, else the metadata's. */
function receiver_account(data: Json): string | null {
  const from_authorization = object_or_null(data.authorization)?.receiver_bank_account_number;
  if (typeof from_authorization === 'string' && from_authorization !== '') return from_authorization;
  const from_metadata = object_or_null(data.metadata)?.receiver_account_number;
  return typeof from_metadata === 'string' && from_metadata !== '' ? from_metadata : null;
}

function is_dva(data: Json): boolean {
  return data.channel === dva_channel || object_or_null(data.authorization)?.channel === dva_channel;
}

/** A transaction object of verify or list, as the core reads it; null when its amounts are unreadable. */
export function paystack_transfer(data: Json): ProviderTransfer | null {
  const reference = typeof data.reference === 'string' ? data.reference : null;
  const amount = provider_kobo(data.amount);
  // A successful transfer without a fee field has had none charged to it as far as the record says.
  const fee = data.fees === null || data.fees === undefined ? 0 : provider_kobo(data.fees);
  if (reference === null || reference === '' || amount === null || fee === null || fee > amount) return null;
  const state = String(data.status ?? '').toLowerCase();
  // Only naira is kobo: a record in another currency is nothing this wallet can be credited with.
  const naira = data.currency === undefined || data.currency === null || data.currency === 'NGN';
  const status: ProviderTransfer['status'] = !naira ? 'failed'
    : state === 'success' ? 'successful'
      : state === 'failed' || state === 'reversed' || state === 'abandoned' ? 'failed'
        : 'pending';
  const paid_at = typeof data.paid_at === 'string' ? data.paid_at : typeof data.paidAt === 'string' ? data.paidAt : null;
  return {
    provider_reference: reference,
    status,
    amount_paid_kobo: amount,
    fee_kobo: fee,
    settlement_kobo: amount - fee,
    account_number: receiver_account(data),
    customer_reference: billvend_reference(data.customer),
    paid_at,
  };
}

function dedicated_account(row: Json): DedicatedAccount | null {
  const bank = object_or_null(row.bank);
  if (typeof row.account_number !== 'string' || row.account_number === '') return null;
  return {
    bank_name: typeof bank?.name === 'string' ? bank.name : '',
    account_number: row.account_number,
    account_name: typeof row.account_name === 'string' ? row.account_name : '',
    status: row.active === true && row.assigned !== false ? 'active' : 'pending',
  };
}

function utc_day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function make_paystack_provider(config: FundingProviderConfig, now: () => number): PaystackFundingProvider {
  const name = `Paystack (${config.name})`;
  const headers = { authorization: `Bearer ${config.secret_key}` };
  const key = Buffer.from(config.secret_key, 'utf8');

  const call = (method: 'GET' | 'POST', path: string, signal: AbortSignal, payload?: unknown): Promise<ProviderAnswer> =>
    provider_request({ provider: name, base_url: config.base_url, timeout_ms: config.timeout_ms, method, path, headers, payload, signal });

  /** The answer's data when Paystack says status: true, else the refusal. */
  function data_of(answer: ProviderAnswer): unknown {
    const body = object_or_null(answer.body);
    if (answer.status >= 200 && answer.status < 300 && body?.status === true) return body.data;
    throw refusal(name, answer, body?.message);
  }

  async function find_or_create_customer(customer: FundingCustomer, signal: AbortSignal): Promise<Json> {
    const found = await call('GET', `/customer/${encodeURIComponent(customer.email)}`, signal);
    if (found.status !== 404) {
      const data = object_or_null(data_of(found));
      if (data !== null && typeof data.customer_code === 'string') return data;
      throw new FundingProviderError(`${name}: customer answer without customer_code`, true);
    }
    const { first_name, last_name } = split_name(customer.name);
    const created = object_or_null(data_of(await call('POST', '/customer', signal, {
      email: customer.email, first_name, last_name,
      ...(customer.phone === null ? {} : { phone: customer.phone }),
      // Documented as "Stringified JSON object of custom data"; echoed on the customer of every transaction.
      metadata: JSON.stringify({ billvend_reference: customer.reference }),
    })));
    if (created === null || typeof created.customer_code !== 'string') throw new FundingProviderError(`${name}: customer answer without customer_code`, true);
    return created;
  }

  async function active_accounts(customer_id: unknown, customer_code: string, signal: AbortSignal): Promise<DedicatedAccount[]> {
    if (typeof customer_id !== 'number' && typeof customer_id !== 'string') return [];
    const answer = await call('GET', `/dedicated_account?active=true&customer=${encodeURIComponent(String(customer_id))}`, signal);
    const rows = data_of(answer);
    if (!Array.isArray(rows)) throw new FundingProviderError(`${name}: dedicated account list without rows`, true);
    const out: DedicatedAccount[] = [];
    for (const row of rows) {
      const object = object_or_null(row);
      if (object === null) continue;
      // The list is filtered by customer; a row naming another customer is not this one's.
      const owner = object_or_null(object.customer)?.customer_code;
      if (typeof owner === 'string' && owner !== customer_code) continue;
      const account = dedicated_account(object);
      if (account !== null) out.push(account);
    }
    return out;
  }

  return {
    config,

    async create_accounts(customer, signal) {
      const found = await find_or_create_customer(customer, signal);
      const existing = await active_accounts(found.id, found.customer_code, signal);
      if (existing.length > 0) return existing;
      const { first_name, last_name } = split_name(customer.name);
      const created = object_or_null(data_of(await call('POST', '/dedicated_account', signal, {
        customer: found.customer_code, first_name, last_name,
        ...(customer.phone === null ? {} : { phone: customer.phone }),
      })));
      const account = created === null ? null : dedicated_account(created);
      if (account === null) throw new FundingProviderError(`${name}: dedicated account answer without an account number`, true);
      return [account];
    },

    signature_valid(raw, request_headers) {
      const given = request_headers['x-paystack-signature'];
      if (typeof given !== 'string' || !/^[0-9a-fA-F]{128}$/.test(given)) return false;
      const expected = createHmac('sha512', key).update(raw).digest();
      return timingSafeEqual(expected, Buffer.from(given, 'hex'));
    },

    parse_callback(body) {
      const event = object_or_null(body);
      const data = object_or_null(event?.data);
      if (event?.event !== 'charge.success' || data === null || !is_dva(data)) return null;
      if (String(data.status ?? '').toLowerCase() !== 'success') return null;
      const reference = typeof data.reference === 'string' && data.reference !== '' ? data.reference : null;
      const amount = provider_kobo(data.amount);
      if (reference === null || amount === null) return null;
      return { provider_reference: reference, amount_paid_kobo: amount, account_number: receiver_account(data), customer_reference: billvend_reference(data.customer) } satisfies CallbackClaim;
    },

    async verify(provider_reference, signal) {
      const answer = await call('GET', `/transaction/verify/${encodeURIComponent(provider_reference)}`, signal);
      const body = object_or_null(answer.body);
      // Not found: 404 in the OpenAPI document; a 400 saying so is read the same way.
      if (answer.status === 404 || (answer.status === 400 && body?.status === false && /not found/i.test(String(body.message ?? '')))) return null;
      const data = object_or_null(data_of(answer));
      const transfer = data === null ? null : paystack_transfer(data);
      if (transfer === null) throw new FundingProviderError(`${name}: transaction ${provider_reference.slice(0, 64)} answered without readable amounts`, false);
      if (transfer.provider_reference !== provider_reference) throw new FundingProviderError(`${name}: verify of ${provider_reference.slice(0, 64)} answered another reference`, false);
      return transfer;
    },

    async recent_transfers(from_ms, to_ms, signal) {
      const out: ProviderTransfer[] = [];
      const range = `from=${encodeURIComponent(new Date(from_ms).toISOString())}&to=${encodeURIComponent(new Date(to_ms).toISOString())}`;
      for (let page = 1; ; page++) {
        if (page > paystack_pages_max) throw new FundingProviderError(`${name}: more than ${paystack_pages_max} pages of transactions`, false);
        const answer = await call('GET', `/transaction?${range}&perPage=${paystack_page_size}&page=${page}&channel=${dva_channel}`, signal);
        const rows = data_of(answer);
        const meta = object_or_null(object_or_null(answer.body)?.meta);
        if (!Array.isArray(rows)) throw new FundingProviderError(`${name}: transaction list without rows`, true);
        for (const row of rows) {
          const data = object_or_null(row);
          // The channel filter is asked for and checked again: only transfers into DVAs are the core's.
          if (data === null || !is_dva(data)) continue;
          const transfer = paystack_transfer(data);
          if (transfer === null) throw new FundingProviderError(`${name}: transaction ${String(data.reference ?? '?').slice(0, 64)} listed without readable amounts`, false);
          out.push(transfer);
        }
        const page_count = Number(meta?.pageCount);
        if (rows.length === 0 || !Number.isSafeInteger(page_count) || page >= page_count) return out;
      }
    },

    async requery(account_number, provider_slug, signal, day_ms = now()) {
      const query = `account_number=${encodeURIComponent(account_number)}${provider_slug === null ? '' : `&provider_slug=${encodeURIComponent(provider_slug)}`}&date=${utc_day(day_ms)}`;
      data_of(await call('GET', `/dedicated_account/requery?${query}`, signal));
    },
  };
}
