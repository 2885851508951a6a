// An order the upstream never settles (docs/decisions.md "Transactions": a transaction still processing is
// re-queried on a schedule; after 24 hours without an answer it needs an operator decision;
// src/operator/catalog-routes.ts: GET /admin/orders/review, POST /admin/orders/{reference}/resolve).
// TIME_SCALE=0.0001: 24 hours are 8.64 s, and re-queries run every 30 ms meanwhile.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { sleep } from './helpers/fixtures-http.js';
import { balance_kobo, buy_airtime, check_created, entries_of, order, wait_for_async, warm_up_live } from './helpers/purchases.js';

t.test('an order without an answer for 24 hours waits for the operator, who refunds it once', async (t) => {
  const quiet = await start_upstream(t);
  quiet.processing_requeries = 1_000_000;
  quiet.default_mode = 'processing';
  const slow_clock = await start_server(t, { env: { TIME_SCALE: '0.0001', ...quiet.env(1_000) } });
  const created = await slow_clock.create_account();
  const account = { ...created, key: (await slow_clock.create_key(created.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key };
  await slow_clock.credit(created.id, 'live', 1_000);
  await warm_up_live(slow_clock, account.key);
  const response = await buy_airtime(slow_clock, account.key, '08070000301', 250);
  check_created(t, response, 'processing', 'airtime the upstream never settles');
  const reference = response.body.data.reference;
  const review = await wait_for_async(async () => {
    const listed = await slow_clock.admin('GET', '/admin/orders/review');
    return listed.body.data.orders.some((o: { reference: string }) => o.reference === reference) ? listed : null;
  }, 30_000, 'the order to need review');
  const listed = review.body.data.orders.find((o: { reference: string }) => o.reference === reference);
  t.equal(listed.status, 'processing', 'the order waiting for review is still processing');
  t.equal(listed.needs_review, true, 'it is marked needs_review');
  t.ok(Date.now() - Date.parse(listed.created_at) >= 0.9 * 8_640, 'it was put up for review only after the scaled 24 hours');
  t.equal((await order(slow_clock, account.key, reference)).needs_review, true, 'the full record shows needs_review');
  const requeries = quiet.calls('/api/requery').length;
  await sleep(300);
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
  t.equal(quiet.pays_for('08070000301').length, 1, 'the upstream was paid once');
});
