// What the purchase tests share: request bodies, reading whole histories page by page, waiting for an
// order to settle, and the checks every purchase answer and every error answer must pass. Everything
// goes through the public API or the operator API of a real server.
import type { Test } from 'tap';
import type { ApiResponse, TestServer } from './server.js';
import { sleep } from './fixtures-http.js';

/** BV- + UTC date + - + 12 Crockford base32 characters (docs/decisions.md "Names"). */
export const reference_pattern = /^BV-\d{8}-[0-9ABCDEFGHJKMNPQRSTVWXYZ]{12}$/;
export const iso_us_pattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
/** A sandbox prepaid token: 20 digits in groups of 4. */
export const token_pattern = /^\d{4}-\d{4}-\d{4}-\d{4}-\d{4}$/;
export const units_pattern = /^\d+(\.\d+)? kWh$/;

export const sandbox = {
  delivered: '08011111111',
  failed: '08022222222',
  delayed_delivered: '08033333333',
  delayed_failed: '08044444444',
  provider_down: '08055555555',
  prepaid_meter: '1111111111111',
  postpaid_meter: '1010101010101',
  invalid_meter_13: '0000000000000',
  invalid_meter_11: '00000000000',
  valid_smartcard: '1212121212',
  invalid_smartcard: '0000000000',
  /** docs/api.md "Deeper verification": owes NGN 12,500, minimum NGN 5,000. */
  arrears_meter: '1313131313131',
  /** can_vend false. */
  blocked_meter: '1414141414141',
  /** DStv Compact renewed at NGN 21,500; GOtv Max at NGN 8,500; StarTimes gives no renewal amount. */
  renewal_smartcard: '1313131313',
} as const;

/** NGN with at most 2 decimals as integer kobo, for sums without floating-point drift. */
export function kobo(naira: number): number {
  return Math.round(naira * 100);
}

/** A funded reseller whose key will not meet the rate limit in a test. */
export function fast_reseller(server: TestServer, funding_ngn = 100_000, account: Record<string, unknown> = {}, key: Record<string, unknown> = {}) {
  return server.reseller(funding_ngn, account, { rate_limit_per_minute: 1_000_000, ...key });
}

let unique = 0;
/** A fresh idempotency key. */
export function idem(prefix = 'k'): string {
  return `${prefix}-${process.pid}-${Date.now()}-${++unique}`;
}

/**
 * A number on a network by its prefix (src/services/numbering-plan.ts): a purchase naming another network is
 * 422 service.network_mismatch (docs/api.md "Phone lookup").
 */
export function phone_on(network: string, tail = '1234569'): string {
  const prefix: Record<string, string> = { mtn: '0803', airtel: '0802', glo: '0805', '9mobile': '0809' };
  return `${prefix[network] ?? '0702'}${tail}`;
}

export function airtime_body(phone: string, amount: number, overrides: Record<string, unknown> = {}) {
  return { network: 'mtn', phone, amount, pin: '12345', ...overrides };
}

export function data_body(plan_code: string, amount: number, phone = '08031234567', overrides: Record<string, unknown> = {}) {
  return { network: 'mtn', plan_code, phone, amount, pin: '12345', ...overrides };
}

export function electricity_body(meter_number: string, amount: number, overrides: Record<string, unknown> = {}) {
  return { disco: 'ikeja-electric', meter_number, meter_type: 'prepaid', amount, pin: '12345', ...overrides };
}

export function tv_body(smartcard_number: string, package_code = 'gotv-max', amount = 8500, overrides: Record<string, unknown> = {}) {
  return { provider: 'gotv', smartcard_number, package_code, amount, pin: '12345', ...overrides };
}

export function buy(server: TestServer, key: string, path: string, body: unknown, idempotency_key?: string): Promise<ApiResponse> {
  return server.api('POST', path, { key, body, ...(idempotency_key === undefined ? {} : { idempotency_key }) });
}

export function buy_airtime(server: TestServer, key: string, phone: string, amount: number, overrides: Record<string, unknown> = {}, idempotency_key?: string) {
  return buy(server, key, '/v1/services/airtime', airtime_body(phone, amount, overrides), idempotency_key);
}

export async function balance_kobo(server: TestServer, key: string): Promise<number> {
  const response = await server.api('GET', '/v1/wallet', { key });
  if (response.status !== 200) throw new Error(`wallet: ${response.status} ${response.text}`);
  return kobo(response.body.data.balance);
}

async function all_pages(server: TestServer, key: string, path: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const response = await server.api('GET', `${path}?per_page=100&page=${page}`, { key });
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${response.text}`);
    out.push(...response.body.data.transactions);
    if (page >= response.body.data.pagination.last_page) return out;
  }
}

/** Every wallet entry of the key's wallet, newest first. */
export function all_wallet_entries(server: TestServer, key: string): Promise<any[]> {
  return all_pages(server, key, '/v1/wallet/transactions');
}

/** Every order of the key's wallet, newest first. */
export function all_orders(server: TestServer, key: string): Promise<any[]> {
  return all_pages(server, key, '/v1/transactions');
}

export async function order(server: TestServer, key: string, reference: string): Promise<any> {
  const response = await server.api('GET', `/v1/transactions/${reference}`, { key });
  if (response.status !== 200) throw new Error(`order ${reference}: ${response.status} ${response.text}`);
  return response.body.data;
}

/** Polls the full record until the order is delivered or failed. */
export async function settled_order(server: TestServer, key: string, reference: string, timeout_ms = 10_000): Promise<any> {
  const deadline = Date.now() + timeout_ms;
  for (;;) {
    const record = await order(server, key, reference);
    if (record.status === 'delivered' || record.status === 'failed') return record;
    if (Date.now() > deadline) throw new Error(`order ${reference} still ${record.status} after ${timeout_ms} ms`);
    await sleep(20);
  }
}

/** The wallet entries of one order reference, oldest first. */
export async function entries_of(server: TestServer, key: string, reference: string): Promise<any[]> {
  return (await all_wallet_entries(server, key)).filter((e) => e.reference === reference).reverse();
}

/** Polls an async read until it gives a value. */
export async function wait_for_async<T>(read: () => Promise<T | null>, timeout_ms: number, what: string): Promise<T> {
  const deadline = Date.now() + timeout_ms;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** An error answer: status, envelope, code, request_id, and nothing else in the body's top level. */
export function check_error(t: Test, response: ApiResponse, status: number, code: string, what: string): void {
  t.equal(response.status, status, `${what}: answers ${status}`);
  t.equal(response.body?.success, false, `${what}: success is false`);
  t.equal(response.body?.error?.code, code, `${what}: error.code is ${code}`);
  t.type(response.body?.error?.message, 'string', `${what}: error.message is text`);
  t.type(response.body?.request_id, 'string', `${what}: the body carries a request_id`);
}

/** A purchase answer: 201, the envelope with a message, and a BV reference. */
export function check_created(t: Test, response: ApiResponse, status: 'delivered' | 'processing', what: string): void {
  t.equal(response.status, 201, `${what}: answers 201 (${response.text.slice(0, 200)})`);
  t.equal(response.body?.success, true, `${what}: success is true`);
  t.type(response.body?.message, 'string', `${what}: the answer has a message`);
  t.ok(String(response.body?.message ?? '').length > 0, `${what}: the message is not empty`);
  t.type(response.body?.request_id, 'string', `${what}: the body carries a request_id`);
  t.match(response.body?.data?.reference, reference_pattern, `${what}: the reference has the BV shape`);
  t.equal(response.body?.data?.status, status, `${what}: status is ${status}`);
}

/**
 * The first upstream call of a fresh server loads Node's fetch, which on a busy machine can outlast a
 * short adapter timeout (the verification would then be 503). One successful verification first keeps
 * that start-up cost out of what the tests measure. Smartcard 7000000000 is reserved for it.
 */
export async function warm_up_live(server: TestServer, live_key: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await server.api('POST', '/v1/services/tv/verify', { key: live_key, body: { provider: 'dstv', smartcard_number: '7000000000' } });
    if (response.status === 200) return;
    await sleep(100);
  }
  throw new Error('the live provider never answered a verification');
}
