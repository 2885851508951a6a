// An order the upstream never settles (docs/decisions.md "Transactions": a transaction still processing is
// re-queried on a schedule; after 24 hours without an answer it needs an operator decision;
// src/operator/catalog-routes.ts: GET /admin/orders/review, POST /admin/orders/{reference}/resolve).
// The server runs in this process on a manual clock (test/helpers/in-process.ts): the 24 hours are real
// ones the test moves through, with a re-query round one millisecond short of them and one past them.
import t from 'tap';
import { start_in_process, whole_second_ms } from './helpers/in-process.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { balance_kobo, buy_airtime, check_created, entries_of, order, wait_for_async, warm_up_live } from './helpers/purchases.js';
import { purchase_wait_ms } from '../src/services/order-answers.js';
import { requery_delays_ms, review_after_ms } from '../src/services/requery-planning.js';

t.setTimeout(120_000);

/** One tick of the server's timer wheel. */
const tick_ms = 4;

t.test('an order without an answer for 24 hours waits for the operator, who refunds it once', async (t) => {
  const quiet = await start_upstream(t);
  quiet.processing_requeries = 1_000_000;
  quiet.default_mode = 'processing';
  const slow_clock = await start_in_process(t, { env: quiet.env(1_000), start_ms: whole_second_ms() });
  const created = await slow_clock.create_account();
  const account = { ...created, key: (await slow_clock.create_key(created.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key };
  await slow_clock.credit(created.id, 'live', 1_000);
  await warm_up_live(slow_clock, account.key);
  // The request waits up to 5 s of the clock for a final answer; the clock moves past that wait once
  // the upstream has been asked to pay.
  const sent = buy_airtime(slow_clock, account.key, '08160000301', 250);
  let answered = false;
  void sent.finally(() => { answered = true; });
  await wait_for_async(async () => (answered || quiet.pays_for('08160000301').length > 0 ? true : null), 10_000, 'the upstream to be asked to pay');
  if (!answered) slow_clock.clock.advance(purchase_wait_ms);
  const response = await sent;
  check_created(t, response, 'processing', 'airtime the upstream never settles');
  const reference = response.body.data.reference;
  const created_ms = Date.parse((await order(slow_clock, account.key, reference)).created_at);
  const in_review = async () => (await slow_clock.admin('GET', '/admin/orders/review')).body.data.orders.find((o: { reference: string }) => o.reference === reference);
  const requeries_seen = async (n: number) => wait_for_async(async () => (quiet.calls('/api/requery').length >= n ? true : null), 10_000, `re-query ${n}`);

  // The first re-query is due 30 s after the order; the clock jumps to one millisecond short of 24 hours,
  // so that round runs then. The order's promised time (docs/api.md "A promised time") has long passed, so
  // that round escalates it into the review already (test/order-promised-time.test.ts); it is still
  // re-queried, 60 s later, until the 24 hours are over.
  slow_clock.clock.advance(created_ms + review_after_ms - 1 - slow_clock.clock.now_ms());
  await requeries_seen(1);
  const early = await wait_for_async(in_review, 10_000, 'the escalated order to be in review');
  t.equal(early.needs_review, true, 'one millisecond short of 24 hours the order is in review: its promised time passed');
  // The next round, 60 s on (and a tick of the timer wheel, as 24 h - 1 ms is no tick boundary), is past
  // 24 hours: it still asks the upstream, and is the last.
  slow_clock.clock.advance(requery_delays_ms[1] + tick_ms);
  await requeries_seen(2);
  const listed = await wait_for_async(in_review, 10_000, 'the order to need review');
  t.equal(listed.status, 'processing', 'the order waiting for review is still processing');
  t.equal(listed.needs_review, true, 'after the next re-query, past 24 hours, it is still marked needs_review');
  t.equal((await order(slow_clock, account.key, reference)).needs_review, true, 'the full record shows needs_review');
  const requeries = quiet.calls('/api/requery').length;
  t.ok(requeries >= 2 && requeries <= 3, `the order was re-queried around the 24 hours only, not on the way (${requeries} re-queries)`);
  // Days of the clock: a re-query still planned would have been started during these moves.
  for (let hour = 0; hour < 48; hour++) slow_clock.clock.advance(60 * 60 * 1000);
  // A barrier through the same upstream: a verification asked after every such start.
  await warm_up_live(slow_clock, account.key);
  t.equal(quiet.calls('/api/requery').length, requeries, 'an order waiting for review is no longer re-queried');
  t.equal(await balance_kobo(slow_clock, account.key), 750_00, 'the wallet stays debited while the order is undecided');

  const resolved = await slow_clock.admin('POST', `/admin/orders/${reference}/resolve`, { outcome: 'failed' });
  t.equal(resolved.status, 200, 'the operator fails the order');
  t.equal(resolved.body.data.status, 'failed', 'the answer shows it failed');
  t.equal(resolved.body.data.reversed, true, 'and reversed');
  t.equal(await balance_kobo(slow_clock, account.key), 1_000_00, 'the wallet is refunded');
  const again = await slow_clock.admin('POST', `/admin/orders/${reference}/resolve`, { outcome: 'delivered' });
  t.equal(again.status, 404, 'a decided order cannot be decided again');
  t.same((await entries_of(slow_clock, account.key, reference)).map((e) => e.type), ['debit', 'reversal'], 'one debit, one reversal');
  const after = await slow_clock.admin('GET', '/admin/orders/review');
  t.notOk(after.body.data.orders.some((o: { reference: string }) => o.reference === reference), 'the order left the review list');
  t.equal(quiet.pays_for('08160000301').length, 1, 'the upstream was paid once');
});
