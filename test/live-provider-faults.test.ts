// The live adapter when the upstream misbehaves (docs/decisions.md "Transactions": a timeout, a 5xx or an
// unreadable body means processing and a re-query, never a guessed failure; only a definite failure
// fails an order; a "no such request" is believed only after a grace period; when the upstream is
// known to be down the circuit opens: see live-provider-circuit.test.ts).
// The fake upstream speaks real HTTP. The adapter's timeout is PROVIDER_TIMEOUT_MS=1000 (not the
// minimum of 100) so that a busy test machine does not turn an ordinary answer into a timeout; the
// slow upstream takes 2 s.
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { start_upstream, upstream_token, type UpstreamMode } from './helpers/fake-upstream.js';
import { balance_kobo, buy, buy_airtime, check_created, check_error, electricity_body, entries_of, kobo, settled_order, warm_up_live } from './helpers/purchases.js';

async function live_reseller(s: TestServer, live_ngn: number) {
  const account = await s.create_account();
  const live = await s.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  if (live_ngn > 0) await s.credit(account.id, 'live', live_ngn);
  return { ...account, key: live.api_key };
}

// TIME_SCALE=0.005: re-queries after 150 ms, 300 ms, 600 ms, then every 1.5 s; the "no such request"
// grace of 2 minutes is 600 ms.
const upstream = await start_upstream(t);
upstream.slow_ms = 2_000;
const server = await start_server(t, { env: { TIME_SCALE: '0.005', ...upstream.env(1_000) } });
const grace_ms = 600;
await warm_up_live(server, (await live_reseller(server, 0)).key);

t.test('a timeout answers 201 processing, the late delivery is found by re-query, and the upstream is paid once', async (t) => {
  const account = await live_reseller(server, 10_000);
  const meter = '4501001239001';
  upstream.set_mode(meter, 'slow');
  const response = await buy(server, account.key, '/v1/services/electricity', electricity_body(meter, 2000));
  check_created(t, response, 'processing', 'prepaid electricity through a slow upstream');
  t.equal(response.body.data.token, null, 'no token yet');
  t.equal(await balance_kobo(server, account.key), 8_000_00, 'the wallet is debited while the order is processing');
  const record = await settled_order(server, account.key, response.body.data.reference, 15_000);
  t.equal(record.status, 'delivered', 'the order was delivered');
  t.ok(server.logs.some((line) => line.includes(record.reference) && line.includes('"error":"timeout"')), 'the adapter did time out on the payment (its log says so)');
  const pays = upstream.pays_for(meter);
  t.equal(pays.length, 1, 'the upstream was paid once and never re-sent');
  t.ok(upstream.calls('/api/requery', pays[0].body.request_id).length >= 1, 'the outcome came from a re-query');
  t.equal(record.token, upstream_token(pays[0].body.request_id), 'the token found by re-query is the upstream\'s');
  t.equal(record.units, '14.7 kWh', 'the units found by re-query carry the kWh suffix');
  t.same((await entries_of(server, account.key, record.reference)).map((e) => e.type), ['debit'], 'one debit and no reversal');
  t.equal(await balance_kobo(server, account.key), 8_000_00, 'the wallet paid once');
});

const unclear: { mode: UpstreamMode; what: string; requeries_min: number; ends: 'delivered' | 'failed' }[] = [
  { mode: 'error_500', what: 'an HTTP 500 to the payment (having delivered)', requeries_min: 1, ends: 'delivered' },
  { mode: 'garbage', what: 'a body that is not JSON to the payment (having delivered)', requeries_min: 1, ends: 'delivered' },
  { mode: 'processing', what: 'code 099 to the payment and the first re-query, then delivered', requeries_min: 2, ends: 'delivered' },
  { mode: 'processing_fail', what: 'code 099 to the payment and the first re-query, then 016', requeries_min: 2, ends: 'failed' },
];
for (const [i, row] of unclear.entries()) {
  t.test(`an upstream answering ${row.what} gets 201 processing, never a guessed failure, and the order ends ${row.ends}`, async (t) => {
    const account = await live_reseller(server, 1_000);
    const phone = `0816000000${i}`;
    upstream.set_mode(phone, row.mode);
    upstream.processing_requeries = 1;
    const response = await buy_airtime(server, account.key, phone, 300);
    check_created(t, response, 'processing', row.what);
    const record = await settled_order(server, account.key, response.body.data.reference, 15_000);
    t.equal(record.status, row.ends, `${row.what}: the order ends ${row.ends}`);
    const pays = upstream.pays_for(phone);
    t.equal(pays.length, 1, `${row.what}: the upstream was paid once`);
    const requeries = upstream.calls('/api/requery', pays[0].body.request_id).length;
    t.ok(requeries >= row.requeries_min, `${row.what}: re-queried at least ${row.requeries_min} time(s) (${requeries})`);
    const entries = (await entries_of(server, account.key, record.reference)).map((e) => [e.type, kobo(e.amount)]);
    if (row.ends === 'delivered') {
      t.same(entries, [['debit', 300_00]], `${row.what}: one debit, no reversal`);
      t.equal(await balance_kobo(server, account.key), 700_00, `${row.what}: the wallet paid once`);
    } else {
      t.same(entries, [['debit', 300_00], ['reversal', 300_00]], `${row.what}: a debit and one reversal`);
      t.equal(record.reversed, true, `${row.what}: reversed`);
      t.equal(await balance_kobo(server, account.key), 1_000_00, `${row.what}: the wallet is whole again`);
    }
  });
}

t.test('a payment the upstream never took (015 on re-query) is refunded only after the grace period, and never re-sent', async (t) => {
  const account = await live_reseller(server, 1_000);
  const phone = '08160000101';
  upstream.set_mode(phone, 'lost');
  const response = await buy_airtime(server, account.key, phone, 450);
  check_created(t, response, 'processing', 'airtime lost upstream');
  const record = await settled_order(server, account.key, response.body.data.reference, 15_000);
  t.equal(record.status, 'failed', 'the order failed');
  t.equal(record.reversed, true, 'and was refunded');
  const took_ms = Date.parse(record.failed_at) - Date.parse(record.created_at);
  t.ok(took_ms >= 0.9 * grace_ms, `it failed only after the scaled 2-minute grace of ${grace_ms} ms (took ${took_ms} ms)`);
  const pays = upstream.pays_for(phone);
  t.equal(pays.length, 1, 'the payment was sent once and never again');
  t.ok(upstream.calls('/api/requery', pays[0].body.request_id).length >= 2, 'an early "no such request" did not fail it: it was asked again');
  t.same((await entries_of(server, account.key, record.reference)).map((e) => [e.type, kobo(e.amount)]), [['debit', 450_00], ['reversal', 450_00]], 'a debit and one reversal');
  t.equal(await balance_kobo(server, account.key), 1_000_00, 'the wallet is whole again');
});

t.test('an order still processing counts toward the daily limit until it fails and is refunded', async (t) => {
  const created = await server.create_account({ kyc_level: 1 });
  const key = (await server.create_key(created.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
  await server.credit(created.id, 'live', 60_000);
  upstream.set_mode('08160000111', 'hold_fail');
  const held = await buy_airtime(server, key, '08160000111', 50_000);
  check_created(t, held, 'processing', 'airtime of 50,000 the upstream holds');
  check_error(t, await buy_airtime(server, key, '08160000112', 50), 422, 'wallet.limit_exceeded', 'a purchase of 50 while the 50,000 is processing');
  t.equal(upstream.release('08160000111'), 1, 'the upstream lets the held payment fail');
  const record = await settled_order(server, key, held.body.data.reference, 15_000);
  t.equal(record.status, 'failed', 'the held order failed');
  t.equal(await balance_kobo(server, key), 60_000_00, 'and was refunded');
  const after = await buy_airtime(server, key, '08160000112', 50_000);
  t.equal(after.status, 201, 'after the refund the day\'s 50,000 can be spent again');
});

t.test('no request_id was ever paid twice', async (t) => {
  t.same(upstream.paid_twice(), [], 'every request_id was paid at most once');
});
