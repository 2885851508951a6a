// Delivered live orders are re-queried once more 24 h after delivery (docs/upstreams.md "Callbacks and
// reversals"), to catch a reversal whose callback never came: a reversed one is refunded exactly once, a
// delivered one is left as it is, and neither is asked again. The server runs in this process on a manual
// clock (test/helpers/in-process.ts): the 24 hours are real ones the test moves through. Before this check
// existed a delivered order was never asked again, and its reversal was never seen.
import t from 'tap';
import { start_in_process, whole_second_ms } from './helpers/in-process.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { balance_kobo, buy_airtime, entries_of, order, wait_for_async, warm_up_live } from './helpers/purchases.js';
import { reversal_check_after_ms, reversal_sweep_every_ms } from '../src/services/upstreams/upstream-callbacks.js';

t.setTimeout(120_000);

const hour_ms = 60 * 60 * 1000;

t.test('a delivered order VTpass reversed without a callback is refunded by the re-query 24 h after delivery, once', async (t) => {
  const vtpass = await start_upstream(t);
  const server = await start_in_process(t, { env: vtpass.env(1_000), start_ms: whole_second_ms() });
  const created = await server.create_account({ kyc_level: 3 });
  const key = (await server.create_key(created.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
  await server.credit(created.id, 'live', 1_000);
  await warm_up_live(server, key);

  const reversed_phone = '08065000201';
  const kept_phone = '08065000202';
  const first = await buy_airtime(server, key, reversed_phone, 200);
  const second = await buy_airtime(server, key, kept_phone, 100);
  t.equal(first.body.data?.status, 'delivered', 'the first purchase is delivered');
  t.equal(second.body.data?.status, 'delivered', 'the second purchase is delivered');
  const reversed_id = vtpass.pays_for(reversed_phone)[0].body.request_id;
  const kept_id = vtpass.pays_for(kept_phone)[0].body.request_id;
  const after_purchases = await balance_kobo(server, key);

  // Almost 24 hours: nothing is asked yet.
  for (let hour = 0; hour < 23; hour++) server.clock.advance(hour_ms);
  await warm_up_live(server, key);
  t.equal(vtpass.calls('/api/requery').length, 0, 'no delivered order is re-queried within its 24 hours');

  t.ok(vtpass.reverse(reversed_id), 'VTpass reverses the first, and sends no callback');
  server.clock.advance(reversal_check_after_ms - 23 * hour_ms + 2 * reversal_sweep_every_ms);
  await wait_for_async(async () => ((await order(server, key, first.body.data.reference)).status === 'failed' ? true : null), 10_000, 'the reversal to be refunded');
  await wait_for_async(async () => (vtpass.calls('/api/requery', kept_id).length >= 1 ? true : null), 10_000, 'the second order\'s re-query');
  t.equal(vtpass.calls('/api/requery', reversed_id).length, 1, 'the first order was re-queried once');
  t.equal(vtpass.calls('/api/requery', kept_id).length, 1, 'the second order was re-queried once');

  // Days more: neither is asked again.
  for (let hour = 0; hour < 48; hour++) server.clock.advance(hour_ms);
  await warm_up_live(server, key);
  t.equal(vtpass.calls('/api/requery').length, 2, 'a delivered order is re-queried once after 24 h, never again');

  const reversed = await order(server, key, first.body.data.reference);
  t.equal(reversed.status, 'failed', 'the reversed order is failed');
  t.equal(reversed.reversed, true, 'and marked reversed');
  t.same((await entries_of(server, key, first.body.data.reference)).map((e) => e.type), ['debit', 'reversal'], 'one debit, one reversal');
  t.equal(await balance_kobo(server, key), after_purchases + 200_00, 'the wallet got back the reversed purchase');
  t.equal((await order(server, key, second.body.data.reference)).status, 'delivered', 'the other order stays delivered');
  t.same((await entries_of(server, key, second.body.data.reference)).map((e) => e.type), ['debit'], 'and was not refunded');
});
