// Bulk orders (docs/api.md "Bulk orders"): POST /v1/services/bulk places 1 to 100 purchases under one PIN
// check, each an ordinary order (its own debit, refund and events); GET /v1/services/bulk/{id} shows them;
// batch.completed comes exactly once when every item is final, also across a kill -9 and a restart.
import t, { type Test } from 'tap';
import { start_server, temp_dir } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import {
  all_orders, all_wallet_entries, balance_kobo, buy_airtime, check_error, fast_reseller, idem, kobo, reference_pattern, sandbox, wait_for_async,
} from './helpers/purchases.js';
import type { ApiResponse, TestServer } from './helpers/server.js';
import { sleep } from './helpers/fixtures-http.js';

const receiver = new WebhookReceiver();
await receiver.start();
t.teardown(() => receiver.stop());
const server = await start_server(t, { env: webhook_env({ TIME_SCALE: '0.01', LOG_LEVEL: 'warn' }) });

const bulk = '/v1/services/bulk';

function airtime(phone: string, amount = 100, extra: Record<string, unknown> = {}) {
  return { service_type: 'airtime', network: 'mtn', phone, amount, ...extra };
}

function post_bulk(on: TestServer, key: string, items: unknown[], options: { pin?: string; idempotency_key?: string } = {}): Promise<ApiResponse> {
  return on.api('POST', bulk, { key, body: { pin: options.pin ?? '12345', items }, ...(options.idempotency_key === undefined ? {} : { idempotency_key: options.idempotency_key }) });
}

async function get_batch(on: TestServer, key: string, id: string): Promise<any> {
  const response = await on.api('GET', `${bulk}/${id}`, { key });
  if (response.status !== 200) throw new Error(`GET batch ${id}: ${response.status} ${response.text}`);
  return response.body.data;
}

function completed_batch(on: TestServer, key: string, id: string, timeout_ms = 30_000): Promise<any> {
  return wait_for_async(async () => {
    const batch = await get_batch(on, key, id);
    return batch.status === 'completed' ? batch : null;
  }, timeout_ms, `batch ${id} to complete`);
}

async function feed_of(on: TestServer, key: string, type: string): Promise<any[]> {
  const response = await on.api('GET', `/v1/events?type=${type}&limit=100`, { key });
  if (response.status !== 200) throw new Error(`events: ${response.status} ${response.text}`);
  return response.body.data.events;
}

/** The wallet's entries add up to its balance, and each order was refunded at most once, failed ones exactly once. */
async function check_ledger(t: Test, on: TestServer, key: string, what: string): Promise<void> {
  const entries = await all_wallet_entries(on, key);
  const sum = entries.reduce((total, e) => total + (e.type === 'debit' ? -kobo(e.amount) : kobo(e.amount)), 0);
  t.equal(sum, await balance_kobo(on, key), `${what}: the wallet entries sum to the balance`);
  const orders = await all_orders(on, key);
  for (const order of orders) {
    const reversals = entries.filter((e) => e.type === 'reversal' && e.reference === order.reference).length;
    const debits = entries.filter((e) => e.type === 'debit' && e.reference === order.reference).length;
    if (debits !== 1) t.fail(`${what}: order ${order.reference} has ${debits} debits`);
    if (reversals !== (order.status === 'failed' ? 1 : 0)) t.fail(`${what}: order ${order.reference} (${order.status}) has ${reversals} refunds`);
  }
  t.pass(`${what}: every order has one debit, and a refund exactly when it failed`);
}

t.test('a bulk of 100 mixed sandbox outcomes places 100 orders, refunds each failure once and completes once', async (t) => {
  const account = await fast_reseller(server, 100_000);
  const hook = await server.api('POST', '/v1/webhooks', { key: account.key, body: { url: receiver.url, events: ['batch.completed'] } });
  t.equal(hook.status, 201, 'a receiver subscribes to batch.completed');
  receiver.secret = hook.body.data.secret;
  const kinds = [
    () => airtime(sandbox.delivered),
    () => airtime(sandbox.failed),
    () => airtime(sandbox.delayed_delivered),
    () => airtime(sandbox.delayed_failed),
    () => ({ service_type: 'data', network: 'mtn', plan_code: 'mtn-1gb-1d', phone: sandbox.delivered, amount: 350 }),
    () => ({ service_type: 'electricity', disco: 'ikeja-electric', meter_number: sandbox.prepaid_meter, meter_type: 'prepaid', amount: 500 }),
    () => ({ service_type: 'tv', provider: 'gotv', smartcard_number: sandbox.valid_smartcard, package_code: 'gotv-max', amount: 8500 }),
  ];
  // Eight TV renewals at most, so that the wallet affords all 100.
  const items = Array.from({ length: 100 }, (_, i) => ({ ...(i % 7 === 6 && i > 56 ? airtime(sandbox.delivered) : kinds[i % 7]()), client_reference: `bulk100-${i}` }));
  const failing = items.filter((item) => 'phone' in item && (item.phone === sandbox.failed || item.phone === sandbox.delayed_failed) && item.service_type === 'airtime').length;
  t.equal(failing, 29, 'the batch holds 29 failing numbers');
  const before = await balance_kobo(server, account.key);
  const answer = await post_bulk(server, account.key, items, { idempotency_key: idem('bulk100') });
  t.equal(answer.status, 202, `the batch answers 202 (${answer.text.slice(0, 300)})`);
  const batch = answer.body.data;
  t.match(batch.id, /^bat_[0-9A-Za-z]{24}$/, 'the batch id has the bat_ shape');
  t.equal(batch.status, 'processing', 'the delayed items keep the batch processing');
  t.equal(batch.items.length, 100, 'every item is listed');
  t.ok(batch.items.every((item: any, i: number) => item.index === i && reference_pattern.test(item.reference) && item.error === null), 'each item has its index and an order reference');
  t.equal(new Set(batch.items.map((item: any) => item.reference)).size, 100, 'the 100 references are distinct');
  const done = await completed_batch(server, account.key, batch.id);
  t.equal(done.counts.processing, 0, 'nothing is processing once completed');
  t.equal(done.counts.delivered + done.counts.failed, 100, 'every item ended delivered or failed');
  t.equal(done.counts.failed, failing, 'the failing numbers failed (at once, or after their delay)');
  t.type(done.completed_at, 'string', 'completed_at is set');
  const orders = await all_orders(server, account.key);
  t.equal(orders.length, 100, 'exactly 100 orders were placed');
  t.same(new Set(orders.map((o) => o.reference)), new Set(batch.items.map((item: any) => item.reference)), 'the orders are the batch\'s items');
  for (const item of done.items) {
    const order = orders.find((o) => o.reference === item.reference);
    if (order.client_reference !== item.client_reference) t.fail(`item ${item.index}: the order holds client_reference ${order.client_reference}`);
  }
  await check_ledger(t, server, account.key, 'after the batch');
  const failed_total = orders.filter((o) => o.status === 'failed').length;
  t.equal(failed_total, failing, 'the history shows the same failures');
  const delivered_kobo = orders.filter((o) => o.status !== 'failed').reduce((sum, o) => sum + kobo(o.amount_charged), 0);
  t.equal(await balance_kobo(server, account.key), before - delivered_kobo, 'the balance fell by the delivered items only');
  await receiver.wait_for(1);
  // A barrier instead of a wait: a test event to the same endpoint, made after the batch completed, so
  // that a second batch.completed would have been started before it.
  const barrier = await server.api('POST', `/v1/webhooks/${hook.body.data.id}/test`, { key: account.key });
  t.equal(barrier.status, 202, 'a test event is sent after the batch completed');
  while (!receiver.received.some((r) => r.json?.id === barrier.body.data.event_id)) await receiver.wait_for(receiver.received.length + 1);
  const delivered = receiver.events('batch.completed').filter((r) => r.json?.data?.id === batch.id);
  t.equal(delivered.length, 1, 'the receiver got batch.completed once');
  t.equal(delivered[0].json.data.status, 'completed', 'the event shows the batch completed');
  t.equal(delivered[0].json.data.counts.failed, failing, 'the event counts the failures');
  const feed = await feed_of(server, account.key, 'batch.completed');
  t.equal(feed.length, 1, 'GET /v1/events holds one batch.completed');
  t.equal(feed[0].id, delivered[0].headers['webhook-id'], 'the feed and the webhook carry the same event id');
});

t.test('0 items and 101 items are 400 validation.failed naming items, and nothing is placed', async (t) => {
  const account = await fast_reseller(server, 10_000);
  for (const [what, items] of [['0 items', []], ['101 items', Array.from({ length: 101 }, () => airtime(sandbox.delivered))], ['items not a list', 'x'], ['an item that is not an object', [5]]] as const) {
    const refused = await post_bulk(server, account.key, items as unknown[]);
    check_error(t, refused, 400, 'validation.failed', what);
    t.ok(refused.body.error.details?.some((d: { field: string }) => d.field.startsWith('items')), `${what}: a detail names items`);
  }
  const no_pin = await server.api('POST', bulk, { key: account.key, body: { items: [airtime(sandbox.delivered)] } });
  check_error(t, no_pin, 400, 'validation.failed', 'a batch without pin');
  t.equal((await all_orders(server, account.key)).length, 0, 'no order was placed');
  t.equal(await balance_kobo(server, account.key), 10_000_00, 'nothing was debited');
  const hundred = await post_bulk(server, account.key, Array.from({ length: 100 }, () => airtime(sandbox.delivered, 50)));
  t.equal(hundred.status, 202, 'exactly 100 items are taken');
  t.equal(hundred.body.data.status, 'completed', 'sandbox deliveries complete the batch in its own command');
});

t.test('an invalid item among valid ones is refused alone with its error; the others are placed', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const existing = await buy_airtime(server, account.key, sandbox.delivered, 50, { client_reference: 'taken-1' });
  t.equal(existing.status, 201, 'an order holds client_reference taken-1');
  const items = [
    airtime(sandbox.delivered, 100, { client_reference: 'ok-1' }),
    airtime('0801', 100),
    { service_type: 'payout', amount: 100 },
    airtime(sandbox.delivered, 100, { pin: '12345' }),
    { service_type: 'data', network: 'mtn', plan_code: 'mtn-1gb-1d', phone: sandbox.delivered, amount: 349 },
    airtime(sandbox.delivered, 100, { client_reference: 'taken-1' }),
    airtime(sandbox.delivered, 100, { client_reference: 'ok-1' }),
    airtime(sandbox.delivered, 5_000),
    airtime(sandbox.provider_down, 100),
    { service_type: 'electricity', disco: 'ikeja-electric', meter_number: sandbox.invalid_meter_13, meter_type: 'prepaid', amount: 500 },
    airtime(sandbox.delivered, 100),
    airtime(sandbox.delivered, 100, { client_reference: 'bad ref' }),
  ];
  const answer = await post_bulk(server, account.key, items);
  t.equal(answer.status, 202, `the batch answers 202 (${answer.text.slice(0, 300)})`);
  const by_index = answer.body.data.items;
  const expect: [number, string | null, string | null][] = [
    [0, null, null],
    [1, 'validation.failed', 'items.1.phone'],
    [2, 'validation.failed', 'items.2.service_type'],
    [3, 'validation.failed', 'items.3.pin'],
    [4, 'service.amount_mismatch', null],
    [5, 'transaction.duplicate_reference', null],
    [6, 'transaction.duplicate_reference', null],
    [7, 'wallet.insufficient_funds', null],
    [8, 'transaction.provider_unavailable', null],
    [9, 'service.invalid_meter', null],
    [10, null, null],
    [11, 'validation.failed', 'items.11.client_reference'],
  ];
  for (const [index, code, field] of expect) {
    const item = by_index[index];
    if (code === null) {
      t.match(item.reference, reference_pattern, `item ${index} is placed`);
      t.equal(item.error, null, `item ${index} has no error`);
    } else {
      t.equal(item.reference, null, `item ${index} placed nothing`);
      t.equal(item.status, 'refused', `item ${index} is refused`);
      t.equal(item.error?.code, code, `item ${index} is refused with ${code}`);
      t.type(item.error?.message, 'string', `item ${index}'s error has a message`);
      if (field !== null) t.ok(item.error?.details?.some((d: { field: string }) => d.field === field), `item ${index}'s error names ${field}`);
    }
  }
  t.equal(by_index[5].error.reference, existing.body.data.reference, 'a taken client_reference names the existing order');
  t.equal(by_index[6].error.reference, by_index[0].reference, 'a client_reference repeated in the batch names the batch\'s first order with it');
  t.equal(by_index[11].client_reference, null, 'a client_reference that is not valid is not echoed');
  t.equal(by_index[0].client_reference, 'ok-1', 'a valid one is');
  t.equal(answer.body.data.counts.refused, 10, 'ten items are refused');
  t.equal((await all_orders(server, account.key)).length, 3, 'the first purchase and the two valid items are the only orders');
  await check_ledger(t, server, account.key, 'after a batch with refused items');
});

t.test('a wrong PIN refuses the whole batch with pin.incorrect and places nothing', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const refused = await post_bulk(server, account.key, [airtime(sandbox.delivered), airtime(sandbox.delivered)], { pin: '54321' });
  check_error(t, refused, 403, 'pin.incorrect', 'a wrong PIN');
  t.equal((await all_orders(server, account.key)).length, 0, 'no order was placed');
  t.equal(await balance_kobo(server, account.key), 10_000_00, 'nothing was debited');
  const scope = await server.create_key(account.id, { scopes: ['wallet:read'] });
  const forbidden = await post_bulk(server, scope.api_key, [airtime(sandbox.delivered)]);
  check_error(t, forbidden, 403, 'auth.insufficient_scope', 'a key without services:purchase');
});

t.test('wrong PINs in single purchases and in bulk orders count toward one lock-out (one PIN check for both)', async (t) => {
  const account = await fast_reseller(server, 10_000);
  for (let i = 1; i <= 2; i++) check_error(t, await buy_airtime(server, account.key, sandbox.delivered, 100, { pin: '54321' }), 403, 'pin.incorrect', `single purchase, wrong PIN ${i}`);
  for (let i = 3; i <= 4; i++) check_error(t, await post_bulk(server, account.key, [airtime(sandbox.delivered)], { pin: '54321' }), 403, 'pin.incorrect', `bulk order, wrong PIN ${i}`);
  const fifth = await buy_airtime(server, account.key, sandbox.delivered, 100, { pin: '54321' });
  check_error(t, fifth, 429, 'pin.locked', 'the 5th wrong PIN in a row, whichever route, locks');
  const locked_bulk = await post_bulk(server, account.key, [airtime(sandbox.delivered)]);
  check_error(t, locked_bulk, 429, 'pin.locked', 'a bulk order with the right PIN is locked out too');
  t.ok(locked_bulk.headers.get('retry-after'), 'and says when to retry');
  t.equal((await all_orders(server, account.key)).length, 0, 'nothing was placed');
});

t.test('the same X-Idempotency-Key and body replays the 202; another body is idempotency.key_reused', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const key = idem('bulk-replay');
  const items = [airtime(sandbox.delivered), airtime(sandbox.failed)];
  const first = await post_bulk(server, account.key, items, { idempotency_key: key });
  t.equal(first.status, 202, 'the first batch answers 202');
  const again = await post_bulk(server, account.key, items, { idempotency_key: key });
  t.equal(again.status, 202, 'the repeat answers 202');
  t.equal(again.headers.get('idempotent-replayed'), 'true', 'the repeat is marked replayed');
  t.same(again.body.data, first.body.data, 'the repeat is the same batch');
  const other = await post_bulk(server, account.key, [airtime(sandbox.delivered)], { idempotency_key: key });
  check_error(t, other, 422, 'idempotency.key_reused', 'the key with another body');
  t.equal((await all_orders(server, account.key)).length, 2, 'the batch was placed once');
  await check_ledger(t, server, account.key, 'after the replay');
});

t.test('another account\'s batch id is 404 batch.not_found, and so is an id of no batch', async (t) => {
  const owner = await fast_reseller(server, 10_000);
  const stranger = await fast_reseller(server, 10_000);
  const placed = await post_bulk(server, owner.key, [airtime(sandbox.delivered)]);
  t.equal(placed.status, 202, 'the owner places a batch');
  const id = placed.body.data.id;
  t.equal((await get_batch(server, owner.key, id)).id, id, 'the owner reads it');
  check_error(t, await server.api('GET', `${bulk}/${id}`, { key: stranger.key }), 404, 'batch.not_found', 'another account');
  const live = await server.create_key(owner.id, { environment: 'live' });
  check_error(t, await server.api('GET', `${bulk}/${id}`, { key: live.api_key }), 404, 'batch.not_found', 'the owner\'s live key');
  check_error(t, await server.api('GET', `${bulk}/bat_${'x'.repeat(24)}`, { key: owner.key }), 404, 'batch.not_found', 'an id of no batch');
  check_error(t, await server.api('GET', `${bulk}/${'x'.repeat(3000)}`, { key: owner.key }), 404, 'batch.not_found', 'a long id');
});

t.test('a batch still processing at kill -9 completes after the restart, with batch.completed once and no item placed twice', async (t) => {
  const data_dir = temp_dir();
  // Slower time: the delayed numbers answer 3 s after their order, long after the kill.
  const slow = await start_server(t, { data_dir, env: webhook_env({ TIME_SCALE: '0.1', LOG_LEVEL: 'warn' }) });
  const account = await fast_reseller(slow, 10_000);
  const key = idem('bulk-crash');
  const items = [airtime(sandbox.delayed_delivered), airtime(sandbox.delayed_failed), airtime(sandbox.delivered), airtime(sandbox.delayed_delivered, 200)];
  const answer = await post_bulk(slow, account.key, items, { idempotency_key: key });
  t.equal(answer.status, 202, 'the batch answers 202');
  t.equal(answer.body.data.status, 'processing', 'three items are still processing');
  await slow.kill();
  await slow.start();
  const done = await completed_batch(slow, account.key, answer.body.data.id, 60_000);
  t.same(done.items.map((item: any) => item.status), ['delivered', 'failed', 'delivered', 'delivered'], 'each item ended as its number says');
  const replay = await post_bulk(slow, account.key, items, { idempotency_key: key });
  t.equal(replay.headers.get('idempotent-replayed'), 'true', 'the batch\'s key still replays after the restart');
  t.equal(replay.body.data.id, answer.body.data.id, 'and names the same batch');
  t.equal((await all_orders(slow, account.key)).length, 4, 'four orders: none placed twice');
  await check_ledger(t, slow, account.key, 'after the restart');
  await sleep(1_000);
  t.equal((await feed_of(slow, account.key, 'batch.completed')).length, 1, 'batch.completed is in the feed once');
});

t.test('a batch killed while it is placed is there whole or not at all, and its retry places it once', async (t) => {
  const data_dir = temp_dir();
  const crashing = await start_server(t, { data_dir, env: { TIME_SCALE: '0.01', LOG_LEVEL: 'warn' } });
  const account = await fast_reseller(crashing, 10_000);
  const key = idem('bulk-kill');
  const items = Array.from({ length: 50 }, (_, i) => airtime(i % 2 === 0 ? sandbox.delivered : sandbox.failed, 50, { client_reference: `kill-${i}` }));
  const sent = post_bulk(crashing, account.key, items, { idempotency_key: key }).catch(() => null);
  await sleep(5);
  await crashing.kill();
  await sent;
  await crashing.start();
  const orders_after_crash = (await all_orders(crashing, account.key)).length;
  t.ok(orders_after_crash === 0 || orders_after_crash === 50, `the store holds the whole batch or none of it (${orders_after_crash} orders)`);
  const retry = await post_bulk(crashing, account.key, items, { idempotency_key: key });
  t.equal(retry.status, 202, 'the retry answers 202');
  t.equal(retry.body.data.items.filter((item: any) => item.reference !== null).length, 50, 'the retry shows every item placed');
  t.equal((await all_orders(crashing, account.key)).length, 50, 'fifty orders: none placed twice');
  await check_ledger(t, crashing, account.key, 'after the retry');
});

t.test('a bulk body over 16 KiB is taken up to 256 KiB; beyond, 413 request.too_large', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const metadata = { note: 'n'.repeat(400) };
  const items = Array.from({ length: 100 }, () => airtime(sandbox.delivered, 50, { metadata }));
  const big = await post_bulk(server, account.key, items);
  t.equal(big.status, 202, `a 45 KiB batch is taken (${big.text.slice(0, 200)})`);
  const huge = Array.from({ length: 100 }, () => airtime(sandbox.delivered, 50, { metadata: Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, 'x'.repeat(500)])) }));
  check_error(t, await post_bulk(server, account.key, huge), 413, 'request.too_large', 'a 300 KiB batch');
  const single = await server.api('POST', '/v1/services/airtime', { key: account.key, body: { network: 'mtn', phone: sandbox.delivered, amount: 50, pin: '12345', metadata: { a: 'x'.repeat(500) }, padding: 'p'.repeat(17_000) } });
  check_error(t, single, 413, 'request.too_large', 'a single purchase keeps its 16 KiB limit');
});

t.test('a product family registered after the four services (education) is a bulk item like them', async (t) => {
  const account = await fast_reseller(server, 20_000);
  const answer = await post_bulk(server, account.key, [
    { service_type: 'education', product: 'waec-result-checker', quantity: 1, phone: sandbox.delivered, amount: 3900, client_reference: 'exam-1' },
    airtime(sandbox.delivered),
  ]);
  t.equal(answer.status, 202, `the batch answers 202 (${answer.text.slice(0, 300)})`);
  const [exam, top_up] = answer.body.data.items;
  t.equal(exam.service_type, 'education', 'the first item is an education order');
  t.match(exam.reference, reference_pattern, 'it placed an order');
  t.equal(exam.status, 'delivered', 'the sandbox delivered it');
  t.equal(top_up.status, 'delivered', 'the airtime item too');
  const order = await server.api('GET', `/v1/transactions/${exam.reference}`, { key: account.key });
  t.equal(order.body.data.service_type, 'education', 'the order is an ordinary education order');
  t.equal(order.body.data.client_reference, 'exam-1', 'with its client_reference');
});
