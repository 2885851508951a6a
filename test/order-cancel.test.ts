// Cancel before sending (docs/api.md "Cancel before sending"): a bulk order's live items go to the upstream
// through the account's send lane, at most bulk_sends_in_flight_max awaiting their first answer at once; an
// item still waiting there (pending: debited, not sent) is cancelled with POST
// /v1/transactions/{reference}/cancel: refunded at once in one step with its reversal entry, transaction.failed
// with failure_reason "cancelled", and never sent. An item sent, a settled order, or a single purchase is 409
// transaction.not_cancellable; another account's or environment's reference 404. The fake upstream takes
// 2.5 s over each payment, so the lane is full while the test cancels.
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { balance_kobo, buy_airtime, check_error, entries_of, order, sandbox, settled_order, wait_for_async, warm_up_live } from './helpers/purchases.js';
import { bulk_sends_in_flight_max } from '../src/services/bulk-send-lane.js';

t.setTimeout(120_000);

const cancel = (server: TestServer, key: string, reference: string) => server.api('POST', `/v1/transactions/${reference}/cancel`, { key });

t.test('a bulk item waiting to be sent is cancelled and refunded at once; one sent is not', async (t) => {
  const upstream = await start_upstream(t);
  upstream.slow_ms = 2_500;
  upstream.default_mode = 'slow';
  const server = await start_server(t, { env: upstream.env(10_000) });
  const owner = await server.create_account();
  const key = (await server.create_key(owner.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
  const test_key = (await server.create_key(owner.id, { environment: 'test', rate_limit_per_minute: 1_000_000 })).api_key;
  await server.credit(owner.id, 'live', 10_000);
  upstream.default_mode = 'deliver';
  await warm_up_live(server, key);
  upstream.default_mode = 'slow';
  const count = bulk_sends_in_flight_max + 2;
  const items = Array.from({ length: count }, (_, i) => ({ service_type: 'airtime', network: 'mtn', phone: `080300007${String(i).padStart(2, '0')}`, amount: 100 }));
  const placed = await server.api('POST', '/v1/services/bulk', { key, body: { pin: '12345', items } });
  t.equal(placed.status, 202, `the bulk order is accepted (${placed.text.slice(0, 200)})`);
  const references: string[] = placed.body.data.items.map((item: { reference: string }) => item.reference);
  await wait_for_async(async () => (upstream.calls('/api/pay').length >= bulk_sends_in_flight_max ? true : null), 10_000, 'the lane to fill');
  const before_kobo = await balance_kobo(server, key);
  t.equal(before_kobo, (10_000 - count * 100) * 100, 'every item was debited');
  t.equal(upstream.calls('/api/pay').length, bulk_sends_in_flight_max, `only ${bulk_sends_in_flight_max} items were sent at once`);

  const last = references[count - 1];
  t.equal((await order(server, key, last)).status, 'pending', 'the last item waits, pending');
  const stranger = await server.create_account();
  const stranger_key = (await server.create_key(stranger.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
  check_error(t, await cancel(server, stranger_key, last), 404, 'transaction.not_found', 'another account cancelling the item');
  check_error(t, await cancel(server, test_key, last), 404, 'transaction.not_found', 'the owner\'s key of the other environment');
  const reader = (await server.create_key(owner.id, { environment: 'live', scopes: ['transactions:read'] })).api_key;
  check_error(t, await cancel(server, reader, last), 403, 'auth.insufficient_scope', 'a key without services:purchase');

  const cancelled = await cancel(server, key, last);
  t.equal(cancelled.status, 200, `the waiting item is cancelled (${cancelled.text.slice(0, 200)})`);
  t.equal(cancelled.body.data.status, 'failed', 'it is failed');
  t.equal(cancelled.body.data.failure_reason, 'cancelled', 'with reason cancelled');
  t.equal(cancelled.body.data.reversed, true, 'and refunded');
  t.same(cancelled.body.data.status_history.map((h: { status: string }) => h.status), ['pending', 'failed'], 'it never was processing');
  t.equal(await balance_kobo(server, key), before_kobo + 100_00, 'the wallet got the item back at once');
  t.same((await entries_of(server, key, last)).map((e) => e.type), ['debit', 'reversal'], 'one debit, one reversal');
  const again = await cancel(server, key, last);
  t.equal(again.status, 200, 'cancelling it again answers the cancelled order');
  t.equal(await balance_kobo(server, key), before_kobo + 100_00, 'and refunds nothing more');

  const sent = references[0];
  check_error(t, await cancel(server, key, sent), 409, 'transaction.not_cancellable', 'an item already sent');
  // The lane drains: every other item is delivered, the cancelled one never reached the upstream.
  for (const reference of references.slice(0, count - 1)) t.equal((await settled_order(server, key, reference, 30_000)).status, 'delivered', `item ${reference} is delivered`);
  t.equal(upstream.calls('/api/pay').length, count - 1, 'the cancelled item was never sent');
  t.notOk(upstream.pays_for(items[count - 1].phone).length > 0, 'its phone was never paid');
  check_error(t, await cancel(server, key, sent), 409, 'transaction.not_cancellable', 'a delivered item');
  const batch = await server.api('GET', `/v1/services/bulk/${placed.body.data.id}`, { key });
  t.equal(batch.body.data.status, 'completed', 'the batch completed');
  t.equal(batch.body.data.counts.failed, 1, 'with the cancelled item failed');
  const feed = await server.api('GET', '/v1/events?limit=100&type=transaction.failed', { key });
  const failed = feed.body.data.events.filter((e: any) => e.data.reference === last);
  t.equal(failed.length, 1, 'transaction.failed was emitted once for it');
  t.equal(failed[0].data.failure_reason, 'cancelled', 'with reason cancelled');
});

t.test('a single purchase is no bulk item: not cancellable', async (t) => {
  const server = await start_server(t);
  const account = await server.reseller(1_000, {}, { rate_limit_per_minute: 1_000_000 });
  const delivered = await buy_airtime(server, account.key, sandbox.delivered, 100);
  check_error(t, await cancel(server, account.key, delivered.body.data.reference), 409, 'transaction.not_cancellable', 'a delivered sandbox purchase');
  check_error(t, await cancel(server, account.key, 'BV-20260101-0000000000AB'), 404, 'transaction.not_found', 'a reference of no order');
  const bulk = await server.api('POST', '/v1/services/bulk', { key: account.key, body: { pin: '12345', items: [{ service_type: 'airtime', network: 'mtn', phone: sandbox.delayed_delivered, amount: 100 }] } });
  const processing = bulk.body.data.items[0].reference;
  check_error(t, await cancel(server, account.key, processing), 409, 'transaction.not_cancellable', 'a sandbox bulk item, processing (the sandbox sends at once)');
});
