// Purchases racing each other through real sockets (docs/decisions.md "Idempotency": a key is never
// processed twice, a repeat in flight waits for the first and returns its answer; src/engine/
// account-orders.ts place_order: the limit and balance checks and the debit are one command).
import t from 'tap';
import { start_server, type ApiResponse } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { airtime_body, all_orders, all_wallet_entries, balance_kobo, buy, fast_reseller, idem, kobo, sandbox, settled_order, wait_for_async, warm_up_live } from './helpers/purchases.js';

// TIME_SCALE=0.01: the sandbox's delayed answer comes 300 ms after the order, well after the 50 ms wait.
const server = await start_server(t, { env: { TIME_SCALE: '0.01' } });

/** Status and body text of each answer, deduplicated: one entry means everyone got the same answer. */
function distinct_answers(responses: ApiResponse[]): string[] {
  return [...new Set(responses.map((r) => `${r.status} ${r.text}`))];
}

const same_key_rows: { what: string; phone: string; status: 'delivered' | 'processing' }[] = [
  { what: 'a purchase delivered at once', phone: '08031230001', status: 'delivered' },
  { what: 'a purchase still processing when it answers', phone: sandbox.delayed_delivered, status: 'processing' },
];
for (const row of same_key_rows) {
  t.test(`50 simultaneous requests with one idempotency key, for ${row.what}, debit once and all get the same answer`, async (t) => {
    const account = await fast_reseller(server, 1_000);
    const key = idem('same');
    const responses = await Promise.all(Array.from({ length: 50 }, () => buy(server, account.key, '/v1/services/airtime', airtime_body(row.phone, 123.45), key)));
    t.same(responses.map((r) => r.status).filter((s) => s !== 201), [], 'all 50 answer 201');
    t.same(distinct_answers(responses), [`201 ${responses[0].text}`], 'all 50 bodies are the same text, the same request_id inside included');
    t.equal(responses[0].body?.data?.status, row.status, `the answer says ${row.status}`);
    t.equal(responses.filter((r) => r.headers.get('idempotent-replayed') !== 'true').length, 1, 'exactly one answer is the original; 49 are marked Idempotent-Replayed');
    t.equal(await balance_kobo(server, account.key), 1_000_00 - 123_45, 'the wallet was debited once');
    const debits = (await all_wallet_entries(server, account.key)).filter((e) => e.type === 'debit');
    t.equal(debits.length, 1, 'there is one debit entry');
    const orders = await all_orders(server, account.key);
    t.equal(orders.length, 1, 'there is one order');
    t.equal(orders[0]?.reference, responses[0].body.data.reference, 'it is the order of the answer');
    const settled = await settled_order(server, account.key, responses[0].body.data.reference);
    t.equal(settled.status, 'delivered', 'the order ends delivered');
    const again = await buy(server, account.key, '/v1/services/airtime', airtime_body(row.phone, 123.45), key);
    t.equal(`${again.status} ${again.text}`, `201 ${responses[0].text}`, 'a 51st request afterwards gets the same answer too');
  });
}

t.test('200 simultaneous purchases against a wallet that affords 100 deliver exactly 100 and leave exactly zero', async (t) => {
  const account = await fast_reseller(server, 0);
  await server.credit(account.id, 'test', 9_999);
  const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => buy(server, account.key, '/v1/services/airtime', airtime_body(`0803${String(1_000_000 + i).padStart(7, '0')}`, 99.99), idem('race'))));
  const delivered = responses.filter((r) => r.status === 201 && r.body?.data?.status === 'delivered');
  const refused = responses.filter((r) => r.status === 422 && r.body?.error?.code === 'wallet.insufficient_funds');
  t.equal(delivered.length, 100, 'exactly 100 purchases were delivered');
  t.equal(refused.length, 100, 'exactly 100 were refused with wallet.insufficient_funds');
  t.equal(await balance_kobo(server, account.key), 0, 'the balance ends at exactly zero');
  const balances_after = delivered.map((r) => kobo(r.body.data.wallet_balance_after)).sort((a, b) => a - b);
  t.same(balances_after, Array.from({ length: 100 }, (_, i) => i * 99_99), 'the answers\' wallet_balance_after values are 0, 99.99, … 9,899.01, each once');
  const entries = await all_wallet_entries(server, account.key);
  t.equal(entries.filter((e) => e.type === 'debit').length, 100, 'there are 100 debit entries');
  t.equal(entries.filter((e) => e.type === 'debit').reduce((sum, e) => sum + kobo(e.amount), 0), 9_999_00, 'the debits add up to the funding to the kobo');
  const orders = await all_orders(server, account.key);
  t.equal(orders.length, 100, 'there are 100 orders');
  t.same([...new Set(orders.map((o) => o.reference))].sort(), delivered.map((r) => r.body.data.reference).sort(), 'the orders are exactly the delivered answers, each reference once');
});

t.test('200 simultaneous purchases against a daily limit that affords 100 deliver exactly 100', async (t) => {
  const account = await fast_reseller(server, 100_000, { kyc_level: 1 });
  const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => buy(server, account.key, '/v1/services/airtime', airtime_body(`0803${String(3_000_000 + i).padStart(7, '0')}`, 500), idem('limit'))));
  t.equal(responses.filter((r) => r.status === 201 && r.body?.data?.status === 'delivered').length, 100, 'exactly 100 purchases of 500 were delivered: the 50,000 of KYC level 1');
  t.equal(responses.filter((r) => r.status === 422 && r.body?.error?.code === 'wallet.limit_exceeded').length, 100, 'exactly 100 were refused with wallet.limit_exceeded');
  t.equal(await balance_kobo(server, account.key), 50_000_00, 'exactly 50,000 was spent');
  t.equal((await all_orders(server, account.key)).length, 100, 'there are 100 orders');
});

t.test('live purchases race the same way, and the upstream is paid once per order and once per idempotency key', async (t) => {
  const upstream = await start_upstream(t);
  // A 2 s adapter timeout: this test is about races, not timeouts; should an answer still come late,
  // re-queries at TIME_SCALE 0.005 run within a second or two.
  const live_server = await start_server(t, { env: { TIME_SCALE: '0.005', ...upstream.env(2000) } });
  const account = await live_server.create_account();
  const live = await live_server.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  await live_server.credit(account.id, 'live', 5_005);
  await warm_up_live(live_server, live.api_key);

  const key = idem('live-same');
  const same = await Promise.all(Array.from({ length: 50 }, () => buy(live_server, live.api_key, '/v1/services/airtime', airtime_body('08061239999', 50.05), key)));
  t.same(same.map((r) => r.status).filter((s) => s !== 201), [], 'all 50 same-key live requests answer 201');
  t.equal(distinct_answers(same).length, 1, 'all 50 get the same answer');
  const same_order = await settled_order(live_server, live.api_key, same[0].body.data.reference, 30_000);
  t.equal(same_order.status, 'delivered', 'the order of the key was delivered');
  t.equal(upstream.pays_for('08061239999').length, 1, 'the upstream was paid once for the key');
  t.equal((await all_orders(live_server, live.api_key)).length, 1, 'the key made one order');

  const race = await Promise.all(Array.from({ length: 200 }, (_, i) => buy(live_server, live.api_key, '/v1/services/airtime', airtime_body(`0806${String(2_000_000 + i).padStart(7, '0')}`, 50.05), idem('live-race'))));
  const taken = race.filter((r) => r.status === 201);
  t.equal(taken.length, 99, '99 more purchases were taken, the wallet affording 100 in all');
  t.equal(race.filter((r) => r.status === 422 && r.body?.error?.code === 'wallet.insufficient_funds').length, 101, 'the other 101 were refused with wallet.insufficient_funds');
  const orders = await wait_for_async(async () => {
    const listed = await all_orders(live_server, live.api_key);
    return listed.every((o) => o.status === 'successful' || o.status === 'failed') ? listed : null;
  }, 30_000, 'every live order to settle');
  t.equal(orders.length, 100, 'there are 100 live orders');
  t.same(orders.filter((o) => o.status !== 'successful').map((o) => o.reference), [], 'every live order was delivered');
  t.equal(await balance_kobo(live_server, live.api_key), 0, 'the live balance ends at exactly zero');
  const pays = upstream.calls('/api/pay');
  t.equal(pays.length, 100, 'the upstream was paid 100 times in all');
  t.same(upstream.paid_twice(), [], 'no request_id was paid twice');
});
