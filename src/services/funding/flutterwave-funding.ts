// The Flutterwave funding provider: a static (permanent) virtual account number per reseller, read from
// Flutterwave's v3 API reference and its official SDKs (Flutterwave/Node-v3, Flutterwave/PHP-v3); every fact
// with its page is in docs/funding.md "Flutterwave". (The Flutterwave Bills upstream is another module:
// src/services/upstreams/flutterwave.ts.)
//   POST {base}/v3/virtual-account-numbers   {email, is_permanent: true, bvn, tx_ref, phonenumber, firstname,
//                                             lastname, narration} → data.account_number, bank_name, order_ref
//   GET  {base}/v3/transactions/{id}/verify  the transaction as Flutterwave records it (naira with decimals)
//   GET  {base}/v3/transactions?from=&to=&page=   the reconciler's list (meta.page_info.total_pages)
// with the secret key as a bearer token. Answers are {status: "success" | "error", message, data}.
// A static account's tx_ref is "returned each time a transfer is done to the account": it names the
// customer (billvend's reference), never one transfer; the transfer is the transaction `id`. The webhook
// (charge.completed, payment_type bank_transfer) carries the dashboard's secret hash in the verif-hash
// header: a shared secret compared for equality, not a signature of the body.
import { createHash, timingSafeEqual } from 'node:crypto';
import {
  FundingProviderError,
  type CallbackClaim, type DedicatedAccount, type FundingProvider, type FundingProviderConfig, type ProviderTransfer,
} from './funding-provider.js';
import { provider_request, refusal, type ProviderAnswer } from './provider-request.js';
import { provider_naira_to_kobo } from './provider-amounts.js';
import { split_name } from './paystack.js';

/** Pages read in one recent_transfers call at most (Flutterwave's pages hold 10 rows: 158 rows, 16 pages). */
export const flutterwave_pages_max = 5000;
/** Accounts made by this process remembered by customer reference, so that a repeat (or a concurrent
 *  request) finds the same account instead of asking Flutterwave for a second one. */
export const flutterwave_accounts_memo_max = 10_000;
/** Flutterwave's Node SDK limits narration and tx_ref to 100 characters. */
const text_max = 100;

type Json = Record<string, any>;

function object_or_null(value: unknown): Json | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Json : null;
}

function text_of(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return null;
}

/** A transaction object of verify or list, as the core reads it; null when its amounts are unreadable. */
export function flutterwave_transfer(data: Json): ProviderTransfer | null {
  const id = text_of(data.id);
  const amount = provider_naira_to_kobo(data.amount);
  const fee = data.app_fee === null || data.app_fee === undefined ? 0 : provider_naira_to_kobo(data.app_fee);
  if (id === null || amount === null || fee === null || fee > amount) return null;
  // amount_settled is Flutterwave's own figure for what reaches the merchant; without it, amount less fee.
  const settled = data.amount_settled === null || data.amount_settled === undefined ? amount - fee : provider_naira_to_kobo(data.amount_settled);
  if (settled === null || settled > amount) return null;
  const state = String(data.status ?? '').toLowerCase();
  const naira = data.currency === undefined || data.currency === null || data.currency === 'NGN';
  const status: ProviderTransfer['status'] = !naira ? 'failed'
    : state === 'successful' ? 'successful'
      : state === 'failed' || state === 'cancelled' || state === 'reversed' ? 'failed'
        : 'pending';
  return {
    provider_reference: id,
    status,
    amount_paid_kobo: amount,
    fee_kobo: fee,
    settlement_kobo: settled,
    // Neither the verify answer nor the webhook names the virtual account; the tx_ref names its customer.
    account_number: null,
    customer_reference: text_of(data.tx_ref),
    paid_at: typeof data.created_at === 'string' ? data.created_at : null,
  };
}

function utc_day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const day_ms = 86_400_000;

/** `now` is part of every module's constructor (src/services/funding/providers.ts); this one reads no clock:
 *  Flutterwave's answers carry their own times, and the deadlines are timeout_ms. */
export function make_flutterwave_funding_provider(config: FundingProviderConfig, _now: () => number): FundingProvider {
  const name = `Flutterwave (${config.name})`;
  const headers = { authorization: `Bearer ${config.secret_key}` };
  // Compared through digests of equal length, so neither the hash nor its length leaks through timing.
  const secret_digest = config.secret_hash === undefined || config.secret_hash === '' ? null : createHash('sha256').update(config.secret_hash, 'utf8').digest();
  const made = new Map<string, Promise<DedicatedAccount[]>>();

  const call = (method: 'GET' | 'POST', path: string, signal: AbortSignal, payload?: unknown): Promise<ProviderAnswer> =>
    provider_request({ provider: name, base_url: config.base_url, timeout_ms: config.timeout_ms, method, path, headers, payload, signal });

  function data_of(answer: ProviderAnswer): unknown {
    const body = object_or_null(answer.body);
    if (answer.status >= 200 && answer.status < 300 && body?.status === 'success') return body.data;
    throw refusal(name, answer, body?.message);
  }

  async function create(customer: Parameters<FundingProvider['create_accounts']>[0], signal: AbortSignal): Promise<DedicatedAccount[]> {
    // "BVN is required for creating static account numbers in the Live Environment" (the Node SDK's docs,
    // and its schema requires it whenever is_permanent is true): not asked for without one.
    if (customer.bvn === null || customer.bvn === '') throw new FundingProviderError(`${name}: a static account needs the customer's BVN`, false);
    const { first_name, last_name } = split_name(customer.name);
    const narration = customer.name.trim().slice(0, text_max) || first_name;
    const data = object_or_null(data_of(await call('POST', '/v3/virtual-account-numbers', signal, {
      email: customer.email,
      is_permanent: true,
      bvn: customer.bvn,
      tx_ref: customer.reference.slice(0, text_max),
      ...(customer.phone === null ? {} : { phonenumber: customer.phone }),
      firstname: first_name,
      lastname: last_name,
      narration,
    })));
    if (data === null || typeof data.account_number !== 'string' || data.account_number === '') {
      throw new FundingProviderError(`${name}: virtual account answer without an account number`, true);
    }
    const state = typeof data.account_status === 'string' ? data.account_status.toLowerCase() : null;
    return [{
      bank_name: typeof data.bank_name === 'string' ? data.bank_name : '',
      account_number: data.account_number,
      // "narration: This allows you specify the name shown when the account is resolved".
      account_name: narration,
      // response_code 02 "Transaction in progress": "the account number has been successfully created, and
      // we're ready to accept payments"; a documented account_status other than active says otherwise.
      status: state === null || state === 'active' ? 'active' : 'pending',
    }];
  }

  /** The creation, its errors cleared of the BVN and NIN: a provider's message may quote what it was sent,
   *  and the core logs a failed creation's error and shows it on the row. */
  async function create_redacted(customer: Parameters<FundingProvider['create_accounts']>[0], signal: AbortSignal): Promise<DedicatedAccount[]> {
    try {
      return await create(customer, signal);
    } catch (error) {
      if (!(error instanceof FundingProviderError)) throw error;
      let message = error.message;
      for (const secret of [customer.bvn, customer.nin]) if (secret !== null && secret !== '') message = message.split(secret).join('[redacted]');
      throw message === error.message ? error : new FundingProviderError(message, error.retryable);
    }
  }

  return {
    config,

    create_accounts(customer, signal) {
      const known = made.get(customer.reference);
      if (known !== undefined) return known.then((accounts) => accounts.map((account) => ({ ...account })));
      const making = create_redacted(customer, signal);
      if (made.size >= flutterwave_accounts_memo_max) made.delete(made.keys().next().value!);
      made.set(customer.reference, making);
      // A failure is forgotten: the next request asks Flutterwave again.
      making.catch(() => {
        if (made.get(customer.reference) === making) made.delete(customer.reference);
      });
      return making.then((accounts) => accounts.map((account) => ({ ...account })));
    },

    signature_valid(_raw, request_headers) {
      const given = request_headers['verif-hash'];
      if (secret_digest === null || typeof given !== 'string' || given === '') return false;
      return timingSafeEqual(secret_digest, createHash('sha256').update(given, 'utf8').digest());
    },

    parse_callback(body) {
      const event = object_or_null(body);
      const data = object_or_null(event?.data);
      if (event?.event !== 'charge.completed' || data === null) return null;
      if (String(data.payment_type ?? '').toLowerCase() !== 'bank_transfer') return null;
      if (String(data.status ?? '').toLowerCase() !== 'successful') return null;
      const id = text_of(data.id);
      const amount = provider_naira_to_kobo(data.amount);
      if (id === null || amount === null) return null;
      return { provider_reference: id, amount_paid_kobo: amount, account_number: null, customer_reference: text_of(data.tx_ref) } satisfies CallbackClaim;
    },

    async verify(provider_reference, signal) {
      // Flutterwave's transaction ids are integers; anything else names no transaction there.
      if (!/^\d{1,20}$/.test(provider_reference)) return null;
      const answer = await call('GET', `/v3/transactions/${provider_reference}/verify`, signal);
      const body = object_or_null(answer.body);
      if ((answer.status === 400 || answer.status === 404) && body?.status === 'error' && /no transaction|not found/i.test(String(body.message ?? ''))) return null;
      const data = object_or_null(data_of(answer));
      const transfer = data === null ? null : flutterwave_transfer(data);
      if (transfer === null) throw new FundingProviderError(`${name}: transaction ${provider_reference} answered without readable amounts`, false);
      if (transfer.provider_reference !== provider_reference) throw new FundingProviderError(`${name}: verify of ${provider_reference} answered another transaction`, false);
      return transfer;
    },

    async recent_transfers(from_ms, to_ms, signal) {
      // from and to are dates; a day either side covers any time zone Flutterwave reads them in, and the
      // rows are then kept by their own time.
      const range = `from=${utc_day(from_ms - day_ms)}&to=${utc_day(to_ms + day_ms)}`;
      const out: ProviderTransfer[] = [];
      for (let page = 1; ; page++) {
        if (page > flutterwave_pages_max) throw new FundingProviderError(`${name}: more than ${flutterwave_pages_max} pages of transactions`, false);
        const answer = await call('GET', `/v3/transactions?${range}&page=${page}`, signal);
        const rows = data_of(answer);
        if (!Array.isArray(rows)) throw new FundingProviderError(`${name}: transaction list without rows`, true);
        for (const row of rows) {
          const data = object_or_null(row);
          if (data === null || String(data.payment_type ?? '').toLowerCase() !== 'bank_transfer') continue;
          const at = typeof data.created_at === 'string' ? Date.parse(data.created_at) : Number.NaN;
          if (Number.isFinite(at) && (at < from_ms || at > to_ms)) continue;
          const transfer = flutterwave_transfer(data);
          if (transfer === null) throw new FundingProviderError(`${name}: transaction ${String(data.id ?? '?').slice(0, 32)} listed without readable amounts`, false);
          out.push(transfer);
        }
        const info = object_or_null(object_or_null(object_or_null(answer.body)?.meta)?.page_info);
        const total_pages = Number(info?.total_pages);
        if (rows.length === 0 || !Number.isSafeInteger(total_pages) || page >= total_pages) return out;
      }
    },
  };
}
