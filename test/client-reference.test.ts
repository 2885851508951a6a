// client_reference and metadata on every purchase (docs/api.md "Client references"): the validation
// bounds, a duplicate refused with 409 before any debit, exactly one order for two purchases at once,
// uniqueness per environment, a claim that survives a restart and a refund, and the idempotent replay.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';
import {
  airtime_body, all_orders, balance_kobo, buy, buy_airtime, check_created, check_error, fast_reseller, idem, order, sandbox, warm_up_live,
} from './helpers/purchases.js';

const upstream = await start_upstream(t);
const server = await start_server(t, { env: { TIME_SCALE: '0.01', ...upstream.env(1_000) } });

const airtime = '/v1/services/airtime';

t.test('client_reference of 64 characters is taken and of 65 or with a bad character is 400 validation.failed', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const ok = await buy_airtime(server, account.key, sandbox.delivered, 50, { client_reference: 'a'.repeat(64) });
  check_created(t, ok, 'delivered', 'the 64-character reference');
  t.equal(ok.body.data.client_reference, 'a'.repeat(64), 'the purchase answer echoes the client_reference');
  for (const [what, value] of [['65 characters', 'b'.repeat(65)], ['a space', 'order 1'], ['a slash', 'order/1'], ['an empty string', ''], ['a number', 12]] as const) {
    const refused = await buy_airtime(server, account.key, sandbox.delivered, 50, { client_reference: value });
    check_error(t, refused, 400, 'validation.failed', `client_reference with ${what}`);
    t.same(refused.body.error.details?.map((d: { field: string }) => d.field), ['client_reference'], `client_reference with ${what}: the detail names the field`);
  }
  t.equal(await balance_kobo(server, account.key), 10_000_00 - 50_00, 'only the valid purchase was debited');
});

t.test('metadata of 20 keys is taken; 21 keys, a 41-character key or a 501-character value is 400 validation.failed', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, `v${i}`]));
  twenty['k'.repeat(40)] = 'x'.repeat(500);
  delete twenty.k0;
  const ok = await buy_airtime(server, account.key, sandbox.delivered, 50, { metadata: twenty });
  check_created(t, ok, 'delivered', 'metadata of 20 keys, one of 40 characters with a 500-character value');
  t.same(ok.body.data.metadata, twenty, 'the purchase answer echoes the metadata');
  const full = await order(server, account.key, ok.body.data.reference);
  t.same(full.metadata, twenty, 'the full record holds the metadata');
  t.equal(full.client_reference, null, 'a purchase without client_reference shows null');
  const bad: [string, Record<string, unknown>][] = [
    ['21 keys', Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']))],
    ['a 41-character key', { ['k'.repeat(41)]: 'v' }],
    ['an empty key', { '': 'v' }],
    ['a 501-character value', { note: 'x'.repeat(501) }],
    ['a number value', { note: 5 }],
  ];
  for (const [what, metadata] of bad) {
    const refused = await buy_airtime(server, account.key, sandbox.delivered, 50, { metadata });
    check_error(t, refused, 400, 'validation.failed', `metadata with ${what}`);
    t.ok(refused.body.error.details?.some((d: { field: string }) => d.field.startsWith('metadata')), `metadata with ${what}: a detail names metadata`);
  }
  const array = await buy_airtime(server, account.key, sandbox.delivered, 50, { metadata: ['a'] });
  check_error(t, array, 400, 'validation.failed', 'metadata as an array');
  t.equal(await balance_kobo(server, account.key), 10_000_00 - 50_00, 'only the valid purchase was debited');
});

t.test('a duplicate client_reference is 409 transaction.duplicate_reference naming the order, with nothing debited', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const first = await buy_airtime(server, account.key, sandbox.delivered, 100, { client_reference: 'inv-0001', metadata: { invoice: '1' } });
  check_created(t, first, 'delivered', 'the first purchase');
  const before = await balance_kobo(server, account.key);
  const second = await buy(server, account.key, '/v1/services/data/purchase', { network: 'glo', plan_code: 'glo-350mb-2d', phone: '08051234567', amount: 200, pin: '12345', client_reference: 'inv-0001' });
  check_error(t, second, 409, 'transaction.duplicate_reference', 'the second purchase with the same reference');
  t.equal(second.body.error.reference, first.body.data.reference, 'error.reference names the existing order');
  t.equal(await balance_kobo(server, account.key), before, 'nothing was debited: the balance is unchanged');
  t.equal((await all_orders(server, account.key)).length, 1, 'there is still one order');
  const listed = await server.api('GET', '/v1/transactions?client_reference=inv-0001', { key: account.key });
  t.equal(listed.status, 200, 'the client_reference filter answers 200');
  t.same(listed.body.data.transactions.map((o: { reference: string }) => o.reference), [first.body.data.reference], 'the filter finds the order');
  t.same(listed.body.data.transactions[0].metadata, { invoice: '1' }, 'the list item shows the metadata');
  t.equal(listed.body.data.pagination.total, 1, 'the filter counts one order');
  const none = await server.api('GET', '/v1/transactions?client_reference=inv-0002', { key: account.key });
  t.same(none.body.data.transactions, [], 'an unused reference finds nothing');
  const bad = await server.api('GET', '/v1/transactions?client_reference=a%20b', { key: account.key });
  check_error(t, bad, 400, 'validation.failed', 'a filter value outside the alphabet');
});

t.test('two purchases at once with the same client_reference make exactly one order', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const answers = await Promise.all(Array.from({ length: 8 }, () => buy_airtime(server, account.key, sandbox.delivered, 100, { client_reference: 'race-1' })));
  const created = answers.filter((a) => a.status === 201);
  const refused = answers.filter((a) => a.status === 409);
  t.equal(created.length, 1, 'exactly one purchase is taken');
  t.equal(refused.length, 7, 'the others are 409');
  for (const each of refused) t.equal(each.body.error.reference, created[0].body.data.reference, 'each 409 names the one order');
  t.equal((await all_orders(server, account.key)).length, 1, 'there is one order');
  t.equal(await balance_kobo(server, account.key), 10_000_00 - 100_00, 'one debit');
});

t.test('the same client_reference in test and live makes one order in each', async (t) => {
  const account = await server.create_account();
  const test_key = await server.create_key(account.id, { rate_limit_per_minute: 1_000_000 });
  const live_key = await server.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  await server.credit(account.id, 'test', 1_000);
  await server.credit(account.id, 'live', 1_000);
  await warm_up_live(server, live_key.api_key);
  const in_test = await buy_airtime(server, test_key.api_key, sandbox.delivered, 100, { client_reference: 'both-envs' });
  t.equal(in_test.status, 201, 'test takes it');
  const in_live = await buy_airtime(server, live_key.api_key, '08061230081', 100, { client_reference: 'both-envs' });
  t.equal(in_live.status, 201, 'live takes it too');
  const again = await buy_airtime(server, live_key.api_key, '08061230082', 100, { client_reference: 'both-envs' });
  check_error(t, again, 409, 'transaction.duplicate_reference', 'live a second time');
  t.equal(again.body.error.reference, in_live.body.data.reference, 'names the live order');
});

t.test('a failed, refunded order keeps its client_reference, and a replay of the same idempotency key replays', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const failed = await buy_airtime(server, account.key, sandbox.failed, 100, { client_reference: 'fails-1' });
  check_error(t, failed, 422, 'transaction.failed', 'the failing purchase');
  const retry = await buy_airtime(server, account.key, sandbox.delivered, 100, { client_reference: 'fails-1' });
  check_error(t, retry, 409, 'transaction.duplicate_reference', 'a new purchase with the refunded order\'s reference');
  t.equal(retry.body.error.reference, failed.body.error.reference, 'names the refunded order');
  const key = idem('cref');
  const first = await buy(server, account.key, airtime, airtime_body(sandbox.delivered, 100, { client_reference: 'keyed-1' }), key);
  check_created(t, first, 'delivered', 'the keyed purchase');
  const replay = await buy(server, account.key, airtime, airtime_body(sandbox.delivered, 100, { client_reference: 'keyed-1' }), key);
  t.equal(replay.status, 201, 'the same request with the same key replays 201, not 409');
  t.equal(replay.body.data.reference, first.body.data.reference, 'the replay names the same order');
});

t.test('after a restart a used client_reference is still refused', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const first = await buy_airtime(server, account.key, sandbox.delivered, 100, { client_reference: 'restart-1' });
  check_created(t, first, 'delivered', 'the purchase before the restart');
  await server.stop();
  await server.start();
  const again = await buy_airtime(server, account.key, sandbox.delivered, 100, { client_reference: 'restart-1' });
  check_error(t, again, 409, 'transaction.duplicate_reference', 'the same reference after the restart');
  t.equal(again.body.error.reference, first.body.data.reference, 'names the order from before the restart');
  const other = await buy_airtime(server, account.key, sandbox.delivered, 100, { client_reference: 'restart-2' });
  t.equal(other.status, 201, 'a new reference is taken');
});

t.test('the export, the events feed (the webhook payloads) and the list show client_reference and metadata', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const with_both = await buy_airtime(server, account.key, sandbox.delivered, 100, { client_reference: 'exp-1', metadata: { cart: 'C,1', note: 'say "hi"' } });
  check_created(t, with_both, 'delivered', 'the purchase with both');
  const without = await buy_airtime(server, account.key, sandbox.delivered, 50);
  check_created(t, without, 'delivered', 'the purchase without either');
  t.equal(without.body.data.client_reference, null, 'a purchase without client_reference answers null');
  t.equal(without.body.data.metadata, null, 'and metadata null');
  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  t.ok(today.length === 10, 'dates are YYYY-MM-DD');
  const csv = await server.api('GET', `/v1/transactions/export?from=${yesterday}&to=${tomorrow}`, { key: account.key });
  t.equal(csv.status, 200, 'the export answers 200');
  const lines = csv.text.trim().split('\r\n');
  t.equal(lines[0], 'reference,service_type,recipient,amount,status,created_at,amount_charged,commission,client_reference,metadata,subscription_type,quantity', 'the header names the columns');
  const row_of = (reference: string) => lines.find((line) => line.startsWith(reference)) ?? '';
  t.ok(row_of(with_both.body.data.reference).endsWith(',exp-1,"{""cart"":""C,1"",""note"":""say \\""hi\\""""}",,'), `the row holds the client reference and the metadata as JSON text (${row_of(with_both.body.data.reference)})`);
  t.ok(row_of(without.body.data.reference).endsWith(',,,,'), 'a row without them leaves both cells empty, and the two TV columns after them');
  const filtered = await server.api('GET', `/v1/transactions/export?from=${yesterday}&to=${tomorrow}&client_reference=exp-1`, { key: account.key });
  t.equal(filtered.text.trim().split('\r\n').length, 2, 'the export filtered by client_reference holds the header and one row');
  const events = await server.api('GET', '/v1/events?limit=100&type=transaction.completed', { key: account.key });
  t.equal(events.status, 200, 'the events feed answers 200');
  const completed = events.body.data.events.find((e: { data: { reference: string } }) => e.data.reference === with_both.body.data.reference);
  t.equal(completed?.data.client_reference, 'exp-1', 'the transaction.completed payload carries the client_reference');
  t.same(completed?.data.metadata, { cart: 'C,1', note: 'say "hi"' }, 'and the metadata');
  const plain = events.body.data.events.find((e: { data: { reference: string } }) => e.data.reference === without.body.data.reference);
  t.equal(plain?.data.client_reference, null, 'a payload without a client_reference says null');
});

t.test('a metadata key "__proto__" is 400 validation.failed, and constructor or toString are kept as plain keys', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const body = (metadata: string) => `{"network":"mtn","phone":"08011111111","amount":50,"pin":"12345","metadata":${metadata}}`;
  const proto = await server.api('POST', airtime, { key: account.key, raw_body: body('{"__proto__":"x"}'), headers: { 'Content-Type': 'application/json' } });
  check_error(t, proto, 400, 'validation.failed', 'a "__proto__" key');
  const plain = await server.api('POST', airtime, { key: account.key, raw_body: body('{"constructor":"y","toString":"z"}'), headers: { 'Content-Type': 'application/json' } });
  t.equal(plain.status, 201, 'constructor and toString keys are taken');
  const full = await order(server, account.key, plain.body.data.reference);
  t.same(Object.entries(full.metadata), [['constructor', 'y'], ['toString', 'z']], 'and stored as sent');
});
