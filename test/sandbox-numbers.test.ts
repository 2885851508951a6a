// The sandbox's magic numbers (docs/decisions.md "Sandbox", "Transactions"): one row per number, for each
// service it applies to. TIME_SCALE=0.05 makes the 30 s sandbox delay 1.5 s and the purchase's 5 s
// wait 250 ms: the delayed numbers answer "processing" and settle 1.5 s after they were placed. The
// test of the answer racing the re-query runs in this process on a manual clock instead.
import t, { type Test } from 'tap';
import { start_server, type ApiResponse } from './helpers/server.js';
import {
  airtime_body, all_orders, balance_kobo, buy, check_created, check_error, data_body, electricity_body, entries_of, fast_reseller, idem, iso_us_pattern,
  kobo, order, sandbox, settled_order, token_pattern, tv_body,
} from './helpers/purchases.js';
import { start_in_process, whole_second_ms } from './helpers/in-process.js';
import { purchase_wait_ms } from '../src/services/order-answers.js';
import { requery_delays_ms } from '../src/services/requery-planning.js';
import { sandbox_delay_ms as sandbox_delay_spec_ms } from '../src/services/sandbox-provider.js';

const server = await start_server(t, { env: { TIME_SCALE: '0.05' } });
/** The sandbox's 30 s delay at TIME_SCALE 0.05. */
const sandbox_delay_ms = 1_500;
/** One tick of the server's timer wheel: what is due at an instant has fired once the clock is a tick past it. */
const tick_ms = 4;
/** Reads of the order list while a purchase is being placed; each is a round trip, no sleep. */
const placing_reads_max = 2_000;

interface PhoneRow {
  phone: string;
  what: string;
  /** The first answer: 201 delivered / processing, 422 transaction.failed, 503 provider_unavailable. */
  answer: 'delivered' | 'processing' | 'failed' | 'unavailable';
  /** How the order ends; null when no order is made. */
  ends: 'delivered' | 'failed' | null;
}

const phone_rows: PhoneRow[] = [
  { phone: sandbox.delivered, what: '08011111111 (delivered)', answer: 'delivered', ends: 'delivered' },
  { phone: sandbox.failed, what: '08022222222 (failed at once)', answer: 'failed', ends: 'failed' },
  { phone: sandbox.delayed_delivered, what: '08033333333 (processing, then delivered)', answer: 'processing', ends: 'delivered' },
  { phone: sandbox.delayed_failed, what: '08044444444 (processing, then failed)', answer: 'processing', ends: 'failed' },
  { phone: sandbox.provider_down, what: '08055555555 (provider down)', answer: 'unavailable', ends: null },
  { phone: '07061234567', what: 'any other phone', answer: 'delivered', ends: 'delivered' },
];

const services: { name: string; path: string; body: (phone: string) => Record<string, unknown>; amount_kobo: number }[] = [
  { name: 'airtime', path: '/v1/services/airtime', body: (phone) => airtime_body(phone, 150.25), amount_kobo: 150_25 },
  { name: 'data', path: '/v1/services/data/purchase', body: (phone) => data_body('mtn-1gb-1d', 350, phone), amount_kobo: 350_00 },
];

/** Checks an order that ended as its row says, with its wallet entries, after the answer it gave. */
async function check_phone_row(t: Test, key: string, service: typeof services[number], row: PhoneRow, response: ApiResponse, funded_kobo: number) {
  const what = `${service.name} to ${row.what}`;
  if (row.answer === 'unavailable') {
    check_error(t, response, 503, 'transaction.provider_unavailable', what);
    t.equal(response.headers.get('retry-after'), '60', `${what}: Retry-After is 60`);
    t.equal(await balance_kobo(server, key), funded_kobo, `${what}: nothing was debited`);
    t.equal((await all_orders(server, key)).length, 0, `${what}: no order was made`);
    const entries = await server.api('GET', '/v1/wallet/transactions', { key });
    t.equal(entries.body.data.pagination.total, 1, `${what}: the wallet has only its funding entry`);
    return;
  }
  let reference: string;
  if (row.answer === 'failed') {
    check_error(t, response, 422, 'transaction.failed', what);
    reference = response.body.error.reference;
    t.match(reference, /^BV-/, `${what}: error.reference names the order`);
    t.equal(await balance_kobo(server, key), funded_kobo, `${what}: the wallet is already refunded when the 422 arrives`);
  } else {
    check_created(t, response, row.answer, what);
    reference = response.body.data.reference;
    t.equal(kobo(response.body.data.wallet_balance_after), funded_kobo - service.amount_kobo, `${what}: wallet_balance_after is after the debit`);
    if (row.answer === 'processing') t.match(response.body.message, /processing/i, `${what}: the message says it is processing`);
  }
  const record = await settled_order(server, key, reference, 10_000);
  t.equal(record.status, row.ends, `${what}: the order ends ${row.ends}`);
  if (row.answer === 'processing') {
    const settled_at = Date.parse(row.ends === 'delivered' ? record.delivered_at : record.failed_at);
    const took_ms = settled_at - Date.parse(record.created_at);
    t.ok(took_ms >= 0.9 * sandbox_delay_ms && took_ms < 10_000, `${what}: it settled after the scaled 30 s of ${sandbox_delay_ms} ms (took ${took_ms} ms)`);
  }
  const listed = (await all_orders(server, key)).find((o) => o.reference === reference);
  t.equal(listed?.status, row.ends === 'delivered' ? 'successful' : 'failed', `${what}: the list shows ${row.ends === 'delivered' ? 'successful' : 'failed'}`);
  const entries = await entries_of(server, key, reference);
  if (row.ends === 'delivered') {
    t.equal(record.reversed, false, `${what}: not reversed`);
    t.match(record.delivered_at, iso_us_pattern, `${what}: delivered_at is set`);
    t.same(entries.map((e) => e.type), ['debit'], `${what}: one debit, no reversal`);
    t.equal(await balance_kobo(server, key), funded_kobo - service.amount_kobo, `${what}: the wallet paid the amount`);
  } else {
    t.equal(record.reversed, true, `${what}: reversed is true`);
    t.type(record.failure_reason, 'string', `${what}: a failure reason is given`);
    t.match(record.failed_at, iso_us_pattern, `${what}: failed_at is set`);
    t.match(record.reversed_at, iso_us_pattern, `${what}: reversed_at is set`);
    t.equal(record.delivered_at, null, `${what}: never delivered`);
    t.same(entries.map((e) => e.type), ['debit', 'reversal'], `${what}: a debit then one reversal`);
    t.equal(kobo(entries[1].amount), service.amount_kobo, `${what}: the reversal gives back the full amount`);
    t.equal(kobo(entries[1].balance_before), kobo(entries[0].balance_after), `${what}: the reversal starts where the debit ended`);
    t.equal(kobo(entries[1].balance_after), kobo(entries[0].balance_before), `${what}: the reversal restores the balance before the debit`);
    t.equal(await balance_kobo(server, key), funded_kobo, `${what}: the wallet is whole again`);
  }
  const history = record.status_history.map((h: { status: string }) => h.status);
  t.same(history, ['pending', 'processing', row.ends], `${what}: status_history runs pending → processing → ${row.ends}`);
  const times = record.status_history.map((h: { at: string }) => Date.parse(h.at));
  t.ok(times.every((at: number, i: number) => i === 0 || at >= times[i - 1]), `${what}: status_history is in time order`);
}

for (const service of services) {
  t.test(`${service.name}: each sandbox phone number gives its decided outcome`, async (t) => {
    for (const row of phone_rows) {
      const account = await fast_reseller(server, 2_000);
      const response = await buy(server, account.key, service.path, service.body(row.phone));
      await check_phone_row(t, account.key, service, row, response, 2_000_00);
    }
  });
}

t.test('each sandbox meter gives its decided outcome', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const rows: { meter: string; meter_type: string; outcome: 'prepaid' | 'postpaid' | 'invalid'; what: string }[] = [
    { meter: sandbox.prepaid_meter, meter_type: 'prepaid', outcome: 'prepaid', what: 'prepaid meter 1111111111111' },
    { meter: sandbox.postpaid_meter, meter_type: 'postpaid', outcome: 'postpaid', what: 'postpaid meter 1010101010101' },
    { meter: sandbox.invalid_meter_13, meter_type: 'prepaid', outcome: 'invalid', what: 'meter 0000000000000' },
    { meter: sandbox.invalid_meter_11, meter_type: 'postpaid', outcome: 'invalid', what: 'meter 00000000000' },
    { meter: '62012345678', meter_type: 'prepaid', outcome: 'prepaid', what: 'any other prepaid meter' },
    { meter: '62012345678', meter_type: 'postpaid', outcome: 'postpaid', what: 'any other postpaid meter' },
  ];
  for (const row of rows) {
    const before = await balance_kobo(server, account.key);
    const verify = await server.api('POST', '/v1/services/electricity/verify', { key: account.key, body: { disco: 'abuja-electric', meter_number: row.meter, meter_type: row.meter_type } });
    const response = await buy(server, account.key, '/v1/services/electricity', electricity_body(row.meter, 600, { meter_type: row.meter_type, disco: 'abuja-electric' }));
    if (row.outcome === 'invalid') {
      check_error(t, verify, 422, 'service.invalid_meter', `${row.what}: verify`);
      check_error(t, response, 422, 'service.invalid_meter', `${row.what}: payment`);
      t.equal(await balance_kobo(server, account.key), before, `${row.what}: nothing debited`);
      continue;
    }
    t.equal(verify.status, 200, `${row.what}: verify is 200`);
    t.equal(verify.body.data.customer_name, 'Test Customer', `${row.what}: verify names "Test Customer"`);
    check_created(t, response, 'delivered', `${row.what}: payment`);
    if (row.outcome === 'prepaid') t.match(response.body.data.token, token_pattern, `${row.what}: a 20-digit token in groups of 4`);
    else t.equal(response.body.data.token, null, `${row.what}: no token`);
    t.equal(before - await balance_kobo(server, account.key), 600_00, `${row.what}: 600 debited`);
  }
});

t.test('each sandbox smartcard gives its decided outcome', async (t) => {
  const account = await fast_reseller(server, 30_000);
  const rows: [string, boolean, string][] = [
    [sandbox.valid_smartcard, true, 'smartcard 1212121212'],
    [sandbox.invalid_smartcard, false, 'smartcard 0000000000'],
    ['4131234567', true, 'any other smartcard'],
  ];
  for (const [smartcard, valid, what] of rows) {
    const before = await balance_kobo(server, account.key);
    const verify = await server.api('POST', '/v1/services/tv/verify', { key: account.key, body: { provider: 'startimes', smartcard_number: smartcard } });
    const response = await buy(server, account.key, '/v1/services/tv', tv_body(smartcard));
    if (!valid) {
      check_error(t, verify, 422, 'service.invalid_smartcard', `${what}: verify`);
      check_error(t, response, 422, 'service.invalid_smartcard', `${what}: purchase`);
      t.equal(await balance_kobo(server, account.key), before, `${what}: nothing debited`);
      continue;
    }
    t.equal(verify.status, 200, `${what}: verify is 200`);
    t.equal(verify.body.data.customer_name, 'Test Customer', `${what}: verify names "Test Customer"`);
    check_created(t, response, 'delivered', `${what}: purchase`);
    t.equal(response.body.data.customer_name, 'Test Customer', `${what}: the purchase names "Test Customer"`);
    t.equal(before - await balance_kobo(server, account.key), 8_500_00, `${what}: 8,500 debited`);
  }
});

t.test('a retry of a processing purchase replays the processing answer, and ?idempotency_key finds the order once settled', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const key = idem('delayed');
  const first = await buy(server, account.key, '/v1/services/airtime', airtime_body(sandbox.delayed_delivered, 100), key);
  check_created(t, first, 'processing', 'the first answer');
  const record = await settled_order(server, account.key, first.body.data.reference, 10_000);
  t.equal(record.status, 'delivered', 'the order was delivered meanwhile');
  const retry = await buy(server, account.key, '/v1/services/airtime', airtime_body(sandbox.delayed_delivered, 100), key);
  t.equal(retry.status, 201, 'the retry answers 201');
  t.equal(retry.headers.get('idempotent-replayed'), 'true', 'the retry is a replay');
  t.same(retry.body.data, first.body.data, 'the retry returns the original answer');
  const found = await server.api('GET', `/v1/transactions?idempotency_key=${encodeURIComponent(key)}`, { key: account.key });
  t.equal(found.status, 200, 'the lookup by key is 200');
  t.same(found.body.data.transactions.map((o: { reference: string; status: string }) => [o.reference, o.status]), [[first.body.data.reference, 'successful']], 'the lookup shows the order as it stands now');
  t.equal(await balance_kobo(server, account.key), 900_00, 'the wallet was debited once');
});

t.test('a processing order is never refunded before its answer and is delivered exactly once', async (t) => {
  // In this process on a manual clock (test/helpers/in-process.ts): the sandbox's own answer and the
  // first re-query are both due 30 s after the order was sent, and both fire in the same move of the
  // clock; then the clock runs through every later re-query round.
  const on_clock = await start_in_process(t, { start_ms: whole_second_ms() });
  const account = await fast_reseller(on_clock, 1_000);
  const sent = buy(on_clock, account.key, '/v1/services/airtime', airtime_body(sandbox.delayed_delivered, 100));
  // The request waits up to 5 s of the clock for the answer: once the order is on record, move past it.
  let reads = 0;
  while ((await all_orders(on_clock, account.key)).length === 0) {
    if (++reads > placing_reads_max) throw new Error(`the order was not placed after ${placing_reads_max} reads`);
  }
  const placed_at_ms = on_clock.clock.now_ms();
  on_clock.clock.advance(purchase_wait_ms);
  const first = await sent;
  check_created(t, first, 'processing', 'the delayed purchase');
  const reference = first.body.data.reference;
  on_clock.clock.advance(placed_at_ms + sandbox_delay_spec_ms - 1 - on_clock.clock.now_ms());
  t.equal((await order(on_clock, account.key, reference)).status, 'processing', 'one millisecond before 30 s the order is still processing');
  t.same((await entries_of(on_clock, account.key, reference)).map((e) => e.type), ['debit'], 'and only debited');
  on_clock.clock.advance(1 + tick_ms);
  const record = await settled_order(on_clock, account.key, reference, 10_000);
  t.equal(record.status, 'delivered', 'at 30 s the order is delivered');
  for (const delay_ms of requery_delays_ms) on_clock.clock.advance(delay_ms);
  // Every later round was due within these moves; a second answer taken as new would show in the
  // ledger below as a second debit or a reversal.
  const after = await order(on_clock, account.key, reference);
  t.equal(after.status, 'delivered', 'still delivered after every later re-query round');
  t.same((await entries_of(on_clock, account.key, reference)).map((e) => e.type), ['debit'], 'one debit and never a reversal');
  t.equal(await balance_kobo(on_clock, account.key), 900_00, 'the wallet paid once');
});
