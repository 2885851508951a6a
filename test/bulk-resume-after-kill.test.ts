// Open orders after two kills in a row (test/crash/README.md "Cancel runs", the 30-round finding): a live bulk
// order fills its account's send lane (8 items sent, the rest waiting) and the server is killed with kill -9.
// The restart re-queries every open order (src/services/order-desk.ts recover) and, at TIME_SCALE 0.001, finds
// them past their promised time, so it escalates them (needs_review, transaction.delayed) while their first
// re-query is still unanswered (the fake upstream holds re-queries here). A second kill -9 then leaves each
// order escalated with no re-query scheduled in the store. Until the fix, the next restart took that state for
// "in review after 24 hours" and never re-queried them: they stayed processing, their batch never completed,
// and the wallet was short of their debits. Every item must reach its final status, the batch complete, and
// the wallet equal its credit minus its delivered items.
import t from 'tap';
import { rmSync } from 'node:fs';
import { TestServer, temp_dir } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { balance_kobo, entries_of, order, wait_for_async, warm_up_live } from './helpers/purchases.js';
import { bulk_sends_in_flight_max } from '../src/services/bulk-send-lane.js';

t.setTimeout(120_000);

const kobo = (naira: string | number) => Math.round(Number(naira) * 100);

t.test('a live bulk order\'s items escalated at a restart and killed again before any re-query answered are re-queried after the next restart', async (t) => {
  const upstream = await start_upstream(t);
  // Long enough that no slot of the lane frees before the kill; the upstream still delivers them meanwhile.
  upstream.slow_ms = 2_000;
  const data_dir = temp_dir();
  // TIME_SCALE 0.001: an airtime order's promised time (510 s) is 510 ms, re-queries come after 30, 60, 120 ms, ….
  // The upstream timeout (real ms) is far longer than the held re-queries wait before the second kill: none
  // of them ends as a timeout, which would write the next re-query's time.
  const server = new TestServer(data_dir, { TIME_SCALE: '0.001', ...upstream.env(30_000) });
  t.teardown(async () => {
    await server.kill();
    rmSync(data_dir, { recursive: true, force: true });
  });
  await server.start();
  const owner = await server.create_account();
  const key = (await server.create_key(owner.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
  const credit_kobo = 10_000_00;
  await server.credit(owner.id, 'live', credit_kobo / 100);
  upstream.default_mode = 'deliver';
  await warm_up_live(server, key);
  const warm_up_pays = upstream.calls('/api/pay').length;
  upstream.default_mode = 'slow';

  const count = bulk_sends_in_flight_max + 2;
  const items = Array.from({ length: count }, (_, i) => ({ service_type: 'airtime', network: 'mtn', phone: `080300008${String(i).padStart(2, '0')}`, amount: 100 }));
  const placed = await server.api('POST', '/v1/services/bulk', { key, idempotency_key: 'bulk-resume-1', body: { pin: '12345', items } });
  t.equal(placed.status, 202, `the bulk order is accepted (${placed.text.slice(0, 200)})`);
  const references: string[] = placed.body.data.items.map((item: { reference: string }) => item.reference);
  await wait_for_async(async () => (upstream.calls('/api/pay').length - warm_up_pays >= bulk_sends_in_flight_max ? true : null), 10_000, 'the lane to fill');
  await server.kill();
  // A loaded machine may stall past slow_ms before the kill, and a slot freed sends the next item: count them.
  const sent = upstream.calls('/api/pay').length - warm_up_pays;
  t.ok(sent < count, `${sent} items were sent, ${count - sent} waited in the lane when the server was killed`);

  // Past their promised time by the restart: the recovery escalates every item. Their re-queries are held.
  await new Promise((resolve) => setTimeout(resolve, 600));
  upstream.hold_requeries();
  const requeries_before = upstream.calls('/api/requery').length;
  await server.start({ LMDB_RESTORE: 'safe' });
  await wait_for_async(async () => (upstream.calls('/api/requery').length - requeries_before >= count ? true : null), 10_000, 'every open item to be re-queried after the restart');
  const review = await server.admin('GET', '/admin/orders/review');
  const in_review = new Set(review.body.data.orders.map((o: { reference: string }) => o.reference));
  t.ok(references.every((reference) => in_review.has(reference)), 'the restart escalated every item (past its promised time)');
  // Killed again while every first re-query waits for its answer: nothing of a re-query is in the store.
  await server.kill();
  upstream.release_requeries();

  await server.start({ LMDB_RESTORE: 'safe' });
  const requeries_after = upstream.calls('/api/requery').length;
  // Every item is final within a few seconds (re-queries at 30, 60, 120 ms, …), or never: one deadline for all.
  const records = await wait_for_async(async () => {
    const read = await Promise.all(references.map((reference) => order(server, key, reference)));
    return read.every((record) => record.status === 'delivered' || record.status === 'failed') ? read : null;
  }, 10_000, 'every item to reach a final status').catch(() => Promise.all(references.map((reference) => order(server, key, reference))));
  const statuses: string[] = records.map((record) => record.status);
  let delivered_kobo = 0;
  for (const [i, record] of records.entries()) {
    if (record.status === 'delivered') delivered_kobo += kobo(record.amount_charged);
    if (record.status !== 'delivered' && record.status !== 'failed') continue;
    t.same((await entries_of(server, key, record.reference)).map((e: { type: string }) => e.type), record.status === 'failed' ? ['debit', 'reversal'] : ['debit'], `item ${i} (${record.status}): one debit${record.status === 'failed' ? ' and one refund' : ''}`);
  }
  t.ok(upstream.calls('/api/requery').length > requeries_after, 'the items were re-queried after the last restart');
  t.same(statuses.filter((s) => s !== 'delivered' && s !== 'failed'), [], `every item reached a final status (${statuses.join(', ')})`);
  t.equal(statuses.filter((s) => s === 'delivered').length, sent, 'the items the upstream got were delivered');
  t.equal(statuses.filter((s) => s === 'failed').length, count - sent, 'the items never sent were failed (the upstream has no record of them) and refunded');
  const batch = await wait_for_async(async () => {
    const read = await server.api('GET', `/v1/services/bulk/${placed.body.data.id}`, { key });
    return read.body.data.status === 'completed' ? read.body.data : null;
  }, 5_000, 'the batch to complete').catch(() => null);
  t.ok(batch !== null, 'the batch completed');
  t.equal(await balance_kobo(server, key), credit_kobo - delivered_kobo, 'the wallet is its credit minus its delivered items, to the kobo');
  const replay = await server.api('POST', '/v1/services/bulk', { key, idempotency_key: 'bulk-resume-1', body: { pin: '12345', items } });
  t.equal(replay.status, 202, 'the bulk order sent again with its key answers 202');
  t.equal(replay.headers.get('idempotent-replayed'), 'true', 'replayed');
});
