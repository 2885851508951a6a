// A promised time (docs/api.md "A promised time"): every processing order carries expected_final_at, the
// first re-query round after its upstream's resolution time (airtime: 5 minutes, so the round 510 s after
// the order), on the purchase's 201, the full record and transaction.processing; null once settled. Past it
// without an answer the order is escalated once: into the operator's review, with transaction.delayed to
// the reseller, its promise moved to the operator's decision 24 hours after the order; it is still
// re-queried until then. The server runs in this process on a manual clock (test/helpers/in-process.ts):
// the test moves through the rounds of the schedule itself.
import t from 'tap';
import { start_in_process, whole_second_ms, type InProcessServer } from './helpers/in-process.js';
import { start_upstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { buy_airtime, check_created, order, sandbox, settled_order, wait_for_async, warm_up_live } from './helpers/purchases.js';
import { purchase_wait_ms } from '../src/services/order-answers.js';
import { review_after_ms } from '../src/services/requery-planning.js';

t.setTimeout(180_000);

/** ISO 8601 with microseconds to epoch microseconds, exactly. */
function iso_to_us(text: string): number {
  const match = /^(.*T\d{2}:\d{2}:\d{2})\.(\d{6})Z$/.exec(text);
  if (match === null) throw new Error(`not a timestamp with microseconds: ${text}`);
  return Date.parse(`${match[1]}Z`) * 1000 + Number(match[2]);
}

async function events_of(server: InProcessServer, key: string, type: string): Promise<any[]> {
  const response = await server.api('GET', `/v1/events?limit=100&type=${type}`, { key });
  if (response.status !== 200) throw new Error(`GET /v1/events answered ${response.status} ${response.text}`);
  return response.body.data.events;
}

async function in_review(server: InProcessServer, reference: string): Promise<boolean> {
  return (await server.admin('GET', '/admin/orders/review')).body.data.orders.some((o: { reference: string }) => o.reference === reference);
}

/** Moves the clock to `at_ms` and waits until the upstream has had `requeries` re-queries of the request. */
async function round_at(server: InProcessServer, upstream: FakeUpstream, request_id: string, at_ms: number, requeries: number): Promise<void> {
  server.clock.advance(Math.max(0, at_ms - server.clock.now_ms()));
  await wait_for_async(async () => (upstream.calls('/api/requery', request_id).length >= requeries ? true : null), 10_000, `re-query ${requeries}`);
  // The answer is applied once it arrives: a read through the same account waits for that turn.
  await new Promise((resolve) => setTimeout(resolve, 100));
}

t.test('a live order past its promised time is escalated once, and still settles', async (t) => {
  const upstream = await start_upstream(t);
  const server = await start_in_process(t, { env: upstream.env(1_000), start_ms: whole_second_ms() });
  const created = await server.create_account();
  const key = (await server.create_key(created.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
  await server.credit(created.id, 'live', 10_000);
  await warm_up_live(server, key);
  const phone = '08030000501';
  upstream.set_mode(phone, 'hold');
  const sent = buy_airtime(server, key, phone, 100);
  let answered = false;
  void sent.finally(() => { answered = true; });
  await wait_for_async(async () => (answered || upstream.pays_for(phone).length > 0 ? true : null), 10_000, 'the upstream to be asked to pay');
  const paid_ms = server.clock.now_ms();
  // 'hold' answers 099 at once, and the first re-query is planned from that answer's arrival: the clock moves
  // only if no answer came in 3 s of real time (pushing it at once raced the answer on a loaded machine, and the
  // rounds then ran purchase_wait_ms late).
  await wait_for_async(async () => (answered ? true : null), 3_000, 'the 201').catch(() => {});
  if (!answered) server.clock.advance(purchase_wait_ms);
  const response = await sent;
  check_created(t, response, 'processing', 'a held airtime purchase');
  const reference = response.body.data.reference;
  const request_id = upstream.pays_for(phone)[0].body.request_id;
  const record = await order(server, key, reference);
  const created_us = iso_to_us(record.created_at);
  const promise_us = created_us + 510_000_000;
  t.equal(iso_to_us(response.body.data.expected_final_at), promise_us, 'the 201 promises the round 510 s after the order (airtime resolves in 5 minutes; rounds at 30, 90, 210, 510 s)');
  t.equal(record.expected_final_at, response.body.data.expected_final_at, 'the full record carries the same promise');
  const processing = (await events_of(server, key, 'transaction.processing')).find((e) => e.data.reference === reference);
  t.equal(processing?.data.expected_final_at, response.body.data.expected_final_at, 'and so does transaction.processing');

  // The rounds before the promise: no escalation.
  let rounds = 0;
  for (const offset_s of [30, 90, 210]) {
    await round_at(server, upstream, request_id, paid_ms + offset_s * 1000, ++rounds);
    const now = await order(server, key, reference);
    t.equal(now.status, 'processing', `after the round at ${offset_s} s the order is processing`);
    t.equal(now.needs_review, false, `and not in review (${offset_s} s)`);
    t.equal(now.expected_final_at, response.body.data.expected_final_at, `its promise stands (${offset_s} s)`);
  }
  t.notOk(await in_review(server, reference), 'before the promise the order is not in the operator\'s review');
  t.same(await events_of(server, key, 'transaction.delayed'), [], 'and no transaction.delayed was sent');

  // The round at 510 s, the promised one, finds it still processing: escalated.
  await round_at(server, upstream, request_id, paid_ms + 510_000, ++rounds);
  await wait_for_async(async () => ((await in_review(server, reference)) ? true : null), 10_000, 'the order to be in review');
  const escalated = await order(server, key, reference);
  t.equal(escalated.status, 'processing', 'the escalated order is still processing');
  t.equal(escalated.needs_review, true, 'it needs an operator decision');
  t.equal(iso_to_us(escalated.expected_final_at), created_us + review_after_ms * 1000, 'its promise is now the operator\'s decision, 24 hours after the order');
  const delayed = await events_of(server, key, 'transaction.delayed');
  t.equal(delayed.length, 1, 'transaction.delayed was emitted once');
  t.equal(delayed[0].data.reference, reference, 'about the order');
  t.equal(delayed[0].data.status, 'processing', 'still processing');
  t.equal(delayed[0].data.expected_final_at, escalated.expected_final_at, 'naming the new promise');
  t.ok(iso_to_us(delayed[0].data.at) >= promise_us, 'at or after the promise that passed');

  // Re-queries go on: the next round (810 s) asks again, and does not escalate again.
  await round_at(server, upstream, request_id, paid_ms + 810_000, ++rounds);
  t.equal((await events_of(server, key, 'transaction.delayed')).length, 1, 'a later round does not escalate again');
  // The upstream settles: the next round delivers it, and the promise is gone.
  upstream.release(phone);
  server.clock.advance(300_000);
  const done = await settled_order(server, key, reference);
  t.equal(done.status, 'delivered', 'the escalated order is delivered by a later round');
  t.equal(done.expected_final_at, null, 'a settled order has no expected_final_at');
  t.notOk(await in_review(server, reference), 'and leaves the review list');
});

t.test('sandbox orders: a delivered one has no promise, a delayed one the round after the sandbox\'s 30 s', async (t) => {
  const server = await start_in_process(t, { start_ms: whole_second_ms() });
  const account = await server.reseller(10_000, {}, { rate_limit_per_minute: 1_000_000 });
  const delivered = await buy_airtime(server, account.key, sandbox.delivered, 100);
  t.equal(delivered.body.data.expected_final_at, null, 'a delivered purchase answers expected_final_at null');
  t.equal((await order(server, account.key, delivered.body.data.reference)).expected_final_at, null, 'its record too');
  const sent = buy_airtime(server, account.key, sandbox.delayed_delivered, 100);
  let answered = false;
  void sent.finally(() => { answered = true; });
  for (let moves = 0; !answered && moves < 100; moves++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (!answered) server.clock.advance(purchase_wait_ms);
  }
  const delayed = await sent;
  const record = await order(server, account.key, delayed.body.data.reference);
  t.equal(iso_to_us(delayed.body.data.expected_final_at), iso_to_us(record.created_at) + 90_000_000, 'a delayed sandbox order promises the round at 90 s, the first after its 30 s');
  server.clock.advance(30_000);
  const done = await settled_order(server, account.key, delayed.body.data.reference);
  t.equal(done.status, 'delivered', 'the sandbox delivers it at 30 s, before its promise');
  t.equal(done.expected_final_at, null, 'and its promise is gone');
  t.same(await events_of(server, account.key, 'transaction.delayed'), [], 'no transaction.delayed');
});
