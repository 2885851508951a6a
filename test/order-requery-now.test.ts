// Requery now (docs/api.md "Requery now"): POST /v1/transactions/{reference}/requery asks a processing
// order's upstream at once and answers the full record as it stands after; once per order per 30 real
// seconds (429 rate_limit.exceeded, Retry-After the seconds left), whatever TIME_SCALE; a settled order
// answers as it is, with no upstream call and no limit; another account's or environment's reference is
// 404. The server runs in this process on a manual clock at TIME_SCALE 0.01, so the scheduled re-queries
// run a hundred times faster than the limit, which is measured in real seconds.
import t from 'tap';
import { start_in_process, whole_second_ms, type InProcessServer } from './helpers/in-process.js';
import { start_upstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { buy_airtime, check_created, check_error, iso_us_pattern, sandbox, wait_for_async, warm_up_live } from './helpers/purchases.js';
import { purchase_wait_ms } from '../src/services/order-answers.js';

t.setTimeout(120_000);

const time_scale = Number(process.env.TS ?? 0.01);

/** A live airtime purchase the upstream holds processing: answered 201 processing, its reference. */
async function processing_order(t: Parameters<typeof check_created>[0], server: InProcessServer, upstream: FakeUpstream, key: string, phone: string): Promise<string> {
  upstream.set_mode(phone, 'hold');
  const sent = buy_airtime(server, key, phone, 100);
  let answered = false;
  void sent.finally(() => { answered = true; });
  await wait_for_async(async () => (answered || upstream.pays_for(phone).length > 0 ? true : null), 10_000, 'the upstream to be asked to pay');
  if (!answered) server.clock.advance(server.clock.scaled(purchase_wait_ms) + 10);
  const response = await sent;
    check_created(t, response, 'processing', `the held purchase to ${phone}`);
  return response.body.data.reference;
}

/** A purchase that waits its 5 s for an answer on the manual clock: the clock moves until it is answered. */
async function answered_after_wait<T>(server: InProcessServer, sent: Promise<T>): Promise<T> {
  let answered = false;
  void sent.finally(() => { answered = true; });
  for (let moves = 0; !answered && moves < 100; moves++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (!answered) server.clock.advance(server.clock.scaled(purchase_wait_ms));
  }
  return sent;
}

const requery = (server: InProcessServer, key: string, reference: string) => server.api('POST', `/v1/transactions/${reference}/requery`, { key });

t.test('requery now asks the upstream at once, then waits 30 real seconds per order', async (t) => {
  const upstream = await start_upstream(t);
  const server = await start_in_process(t, { env: upstream.env(1_000), start_ms: whole_second_ms(), time_scale });
  const created = await server.create_account();
  const key = (await server.create_key(created.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
  await server.credit(created.id, 'live', 10_000);
  await warm_up_live(server, key);
  const reference = await processing_order(t, server, upstream, key, '08030000401');
  const other = await processing_order(t, server, upstream, key, '08030000402');
  const request_id = upstream.pays_for('08030000401')[0].body.request_id;
  const asked = () => upstream.calls('/api/requery', request_id).length;

  const before = asked();
  const first = await requery(server, key, reference);
  t.equal(first.status, 200, `the first requery answers 200 (${first.text.slice(0, 200)})`);
  t.equal(first.body.data.reference, reference, 'with the order');
  t.equal(first.body.data.status, 'processing', 'still processing, as the upstream says');
  t.match(first.body.data.updated_at, iso_us_pattern, 'the full record, with its timestamps');
  t.type(first.body.message, 'string', 'and a message');
  t.equal(asked(), before + 1, 'the upstream was asked once, before the answer');

  const second = await requery(server, key, reference);
  check_error(t, second, 429, 'rate_limit.exceeded', 'a second requery at once');
  t.equal(second.headers.get('retry-after'), '30', 'Retry-After is the 30 seconds left');
  t.equal(asked(), before + 1, 'the refused requery asked nothing');
  const neighbour = await requery(server, key, other);
  t.equal(neighbour.status, 200, 'the limit is per order: another order of the account is re-queried');

  // 29.5 s later, real ones on this clock; at TIME_SCALE 0.01 that is many rounds of the schedule.
  server.clock.advance(29_500);
  const early = await requery(server, key, reference);
  check_error(t, early, 429, 'rate_limit.exceeded', 'a requery 29.5 s after the last');
  t.equal(early.headers.get('retry-after'), '1', 'Retry-After rounds the half second left up to 1');
  server.clock.advance(499);
  check_error(t, await requery(server, key, reference), 429, 'rate_limit.exceeded', 'a requery 1 ms short of 30 s');
  t.ok(asked() > before + 1, 'meanwhile the scheduled re-queries ran, TIME_SCALE times faster (the limit is not scaled)');
  server.clock.advance(1);
  const scheduled = asked();
  const again = await requery(server, key, reference);
  t.equal(again.status, 200, 'exactly 30 s after the last, the order is re-queried again');
  t.equal(asked(), scheduled + 1, 'and the upstream asked once more');

  // The upstream settles the order: the next requery finds it delivered and answers so.
  upstream.release('08030000401');
  server.clock.advance(30_000);
  const settled = await wait_for_async(async () => {
    const answer = await requery(server, key, reference);
    return answer.status === 200 && answer.body.data.status === 'delivered' ? answer : null;
  }, 10_000, 'the order to be delivered');
  t.equal(settled.body.data.status, 'delivered', 'a requery answers the order as the upstream settled it');
  t.type(settled.body.data.delivered_at, 'string', 'with its delivery time');
  const after = asked();
  for (let i = 0; i < 3; i++) {
    const once_more = await requery(server, key, reference);
    t.equal(once_more.status, 200, `a settled order answers 200 at once, again and again (${i + 1})`);
    t.equal(once_more.body.data.status, 'delivered', 'as it is');
  }
  t.equal(asked(), after, 'a settled order asks the upstream nothing');
});

t.test('requery now finds only the caller\'s own orders, and needs services:purchase', async (t) => {
  const upstream = await start_upstream(t);
  const server = await start_in_process(t, { env: upstream.env(1_000), start_ms: whole_second_ms(), time_scale });
  const owner = await server.create_account();
  const live_key = (await server.create_key(owner.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
  const test_key = (await server.create_key(owner.id, { environment: 'test', rate_limit_per_minute: 1_000_000 })).api_key;
  await server.credit(owner.id, 'live', 10_000);
  await warm_up_live(server, live_key);
  const reference = await processing_order(t, server, upstream, live_key, '08030000403');
  const stranger = await server.create_account();
  const stranger_key = (await server.create_key(stranger.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
  const reader = (await server.create_key(owner.id, { environment: 'live', scopes: ['transactions:read'] })).api_key;
  const before = upstream.calls('/api/requery').length;
  check_error(t, await requery(server, stranger_key, reference), 404, 'transaction.not_found', 'another account\'s reference');
  check_error(t, await requery(server, test_key, reference), 404, 'transaction.not_found', 'the owner\'s own reference with a key of the other environment');
  check_error(t, await requery(server, live_key, 'BV-20260101-0000000000AB'), 404, 'transaction.not_found', 'a reference of no order');
  check_error(t, await requery(server, live_key, 'not-a-reference'), 404, 'transaction.not_found', 'a malformed reference');
  check_error(t, await requery(server, reader, reference), 403, 'auth.insufficient_scope', 'a key without services:purchase');
  t.equal(upstream.calls('/api/requery').length, before, 'none of them asked the upstream');
  t.equal((await requery(server, live_key, reference)).status, 200, 'and none of them used the order\'s 30 s');
});

t.test('a sandbox order is re-queried through the sandbox, under the same limit', async (t) => {
  const server = await start_in_process(t, { start_ms: whole_second_ms() });
  const account = await server.reseller(10_000, {}, { rate_limit_per_minute: 1_000_000 });
  const delayed = await answered_after_wait(server, buy_airtime(server, account.key, sandbox.delayed_delivered, 100));
  check_created(t, delayed, 'processing', 'the sandbox\'s delayed number');
  const reference = delayed.body.data.reference;
  const first = await requery(server, account.key, reference);
  t.equal(first.status, 200, 'a sandbox order is re-queried');
  t.equal(first.body.data.status, 'processing', 'before its 30 s, the sandbox says processing');
  check_error(t, await requery(server, account.key, reference), 429, 'rate_limit.exceeded', 'the sandbox keeps the same limit');
  // The sandbox's own answer comes after 30 s; a requery once the limit has passed shows the order settled.
  server.clock.advance(30_000);
  const later = await wait_for_async(async () => {
    const answer = await requery(server, account.key, reference);
    return answer.status === 200 && answer.body.data.status === 'delivered' ? answer : null;
  }, 10_000, 'the sandbox order to be delivered');
  t.equal(later.body.data.status, 'delivered', 'after 30 s the order is delivered');
  const settled = await buy_airtime(server, account.key, sandbox.delivered, 100);
  for (let i = 0; i < 2; i++) t.equal((await requery(server, account.key, settled.body.data.reference)).status, 200, `a delivered sandbox order answers 200 every time (${i + 1})`);
});
