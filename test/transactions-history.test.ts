// Order history and the wallet history of purchases (docs/spec.md section 2 "Service order", section 4
// "Transactions" and "Wallet"; docs/decisions.md "Transactions": "successful" in lists, the full record,
// ?idempotency_key=K, 404 for other accounts' and environments' references, wallet entries).
// A live order held by the fake upstream shows how an order still processing is listed; at
// TIME_SCALE=0.01 its re-queries come every 0.3 to 3 s.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';
import {
  airtime_body, all_orders, all_wallet_entries, buy, buy_airtime, check_created, check_error, data_body, electricity_body, fast_reseller, idem,
  iso_us_pattern, kobo, order, reference_pattern, sandbox, settled_order, tv_body, warm_up_live,
} from './helpers/purchases.js';

const upstream = await start_upstream(t);
const server = await start_server(t, { env: { TIME_SCALE: '0.01', ...upstream.env(1_000) } });

t.test('the list shows every service\'s orders newest first, "successful" for delivered and "failed" for failed', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const made: { reference: string; service_type: string; recipient: string; amount: number; listed: string }[] = [];
  const purchases: [string, string, Record<string, unknown>, string, string, number][] = [
    ['airtime', '/v1/services/airtime', airtime_body('08031234567', 100.25), 'airtime', '08031234567', 100.25],
    ['data', '/v1/services/data/purchase', data_body('glo-350mb-2d', 200, '08051234567', { network: 'glo' }), 'data', '08051234567', 200],
    ['electricity', '/v1/services/electricity', electricity_body(sandbox.prepaid_meter, 1500), 'electricity', sandbox.prepaid_meter, 1500],
    ['tv', '/v1/services/tv', tv_body(sandbox.valid_smartcard), 'tv', sandbox.valid_smartcard, 8500],
  ];
  for (const [what, path, body, service_type, recipient, amount] of purchases) {
    const response = await buy(server, account.key, path, body);
    check_created(t, response, 'delivered', what);
    made.push({ reference: response.body.data.reference, service_type, recipient, amount, listed: 'successful' });
  }
  const failed = await buy_airtime(server, account.key, sandbox.failed, 60);
  check_error(t, failed, 422, 'transaction.failed', 'the failing airtime');
  made.push({ reference: failed.body.error.reference, service_type: 'airtime', recipient: sandbox.failed, amount: 60, listed: 'failed' });
  const last = await buy_airtime(server, account.key, '08031234568', 75);
  made.push({ reference: last.body.data.reference, service_type: 'airtime', recipient: '08031234568', amount: 75, listed: 'successful' });

  const list = await server.api('GET', '/v1/transactions', { key: account.key });
  t.equal(list.status, 200, 'the list is 200');
  t.same(Object.keys(list.body.data).sort(), ['pagination', 'transactions'], 'data has transactions and pagination');
  t.same(list.body.data.pagination, { total: 6, per_page: 20, current_page: 1, last_page: 1 }, 'pagination is exact');
  const items = list.body.data.transactions;
  t.same(items.map((o: { reference: string }) => o.reference), made.map((m) => m.reference).reverse(), 'orders are newest first');
  for (const item of items) {
    const expected = made.find((m) => m.reference === item.reference)!;
    t.same(Object.keys(item).sort(), ['amount', 'amount_charged', 'client_reference', 'commission', 'created_at', 'metadata', 'recipient', 'reference', 'service_type', 'status'], `${item.reference} has exactly the spec fields, the pricing ones and the client ones`);
    t.match(item.reference, reference_pattern, `${item.reference} has the BV shape`);
    t.equal(item.service_type, expected.service_type, `${item.reference} is ${expected.service_type}`);
    t.equal(item.recipient, expected.recipient, `${item.reference} is for ${expected.recipient}`);
    t.equal(kobo(item.amount), kobo(expected.amount), `${item.reference} is for ${expected.amount}`);
    t.equal(item.status, expected.listed, `${item.reference} is listed ${expected.listed}`);
    t.match(item.created_at, iso_us_pattern, `${item.reference} created_at is ISO 8601 UTC with microseconds`);
  }
  for (let i = 0; i < items.length - 1; i++) {
    t.ok(Date.parse(items[i].created_at) >= Date.parse(items[i + 1].created_at), `order ${i + 1} is not older than order ${i + 2}`);
  }
});

t.test('an order the provider is still working on is listed "processing", then "successful" once delivered', async (t) => {
  // A live order held by the fake upstream (099) stays processing for as long as the test needs.
  const account = await server.create_account();
  const live = await server.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  await server.credit(account.id, 'live', 1_000);
  await warm_up_live(server, live.api_key);
  upstream.set_mode('08061230071', 'hold');
  const held = await buy_airtime(server, live.api_key, '08061230071', 150);
  check_created(t, held, 'processing', 'the held live airtime');
  const reference = held.body.data.reference;
  const after = await buy_airtime(server, live.api_key, '08061230072', 50);
  t.equal(after.status, 201, 'a later live airtime is taken');
  t.equal((await settled_order(server, live.api_key, after.body.data.reference, 15_000)).status, 'delivered', 'and delivered');
  const list = await server.api('GET', '/v1/transactions', { key: live.api_key });
  t.same(list.body.data.transactions.map((o: { reference: string; status: string }) => [o.reference, o.status]), [
    [after.body.data.reference, 'successful'],
    [reference, 'processing'],
  ], 'the list shows the later order successful and the held one processing, newest first');
  const record = await order(server, live.api_key, reference);
  t.equal(record.status, 'processing', 'the full record says processing');
  t.same(record.status_history.map((h: { status: string }) => h.status), ['pending', 'processing'], 'its status_history so far is pending → processing');
  t.equal(record.delivered_at, null, 'it has no delivered_at yet');
  t.equal(upstream.release('08061230071'), 1, 'the upstream lets the held payment finish');
  const settled = await settled_order(server, live.api_key, reference, 15_000);
  t.equal(settled.status, 'delivered', 'the order is delivered at a later re-query');
  t.same(settled.status_history.map((h: { status: string }) => h.status), ['pending', 'processing', 'delivered'], 'its status_history is pending → processing → delivered');
  const later = await server.api('GET', '/v1/transactions', { key: live.api_key });
  t.equal(later.body.data.transactions.find((o: { reference: string }) => o.reference === reference)?.status, 'successful', 'the order is now listed successful');
});

t.test('pagination walks the whole list without gaps or repeats and checks per_page and page', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const references: string[] = [];
  for (let i = 0; i < 7; i++) references.push((await buy_airtime(server, account.key, '08031230000', 50 + i)).body.data.reference);
  const walked: string[] = [];
  for (let page = 1; page <= 4; page++) {
    const response = await server.api('GET', `/v1/transactions?per_page=3&page=${page}`, { key: account.key });
    t.equal(response.status, 200, `page ${page} is 200`);
    t.same(response.body.data.pagination, { total: 7, per_page: 3, current_page: page, last_page: 3 }, `page ${page}: pagination is exact`);
    const expected_count = page <= 2 ? 3 : page === 3 ? 1 : 0;
    t.equal(response.body.data.transactions.length, expected_count, `page ${page} holds ${expected_count} orders`);
    walked.push(...response.body.data.transactions.map((o: { reference: string }) => o.reference));
  }
  t.same(walked, [...references].reverse(), 'the pages together are every order once, newest first');
  const rows: [string, number][] = [['per_page=0', 400], ['per_page=101', 400], ['per_page=100', 200], ['page=0', 400], ['per_page=abc', 400], ['page=-1', 400]];
  for (const [query, status] of rows) {
    const response = await server.api('GET', `/v1/transactions?${query}`, { key: account.key });
    if (status === 200) t.equal(response.status, 200, `${query} is 200`);
    else check_error(t, response, 400, 'validation.failed', query);
  }
});

t.test('GET /v1/transactions/{reference} returns the full record of a delivered and of a failed order', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const delivered = await buy(server, account.key, '/v1/services/electricity', electricity_body(sandbox.prepaid_meter, 2000.5, { disco: 'EKEDC' }));
  check_created(t, delivered, 'delivered', 'the electricity payment');
  const record = await order(server, account.key, delivered.body.data.reference);
  for (const field of [
    'reference', 'service_type', 'environment', 'network', 'disco', 'provider', 'recipient', 'plan', 'amount', 'status', 'token', 'units', 'meter_type',
    'customer_name', 'wallet_balance_before', 'wallet_balance_after', 'failure_reason', 'reversed', 'created_at', 'updated_at', 'delivered_at',
    'failed_at', 'reversed_at', 'status_history',
  ]) t.ok(Object.prototype.hasOwnProperty.call(record, field), `the full record has ${field}`);
  t.equal(record.reference, delivered.body.data.reference, 'reference');
  t.equal(record.service_type, 'electricity', 'service_type');
  t.equal(record.environment, 'test', 'environment is test for a test key');
  t.equal(record.disco, 'eko-electric', 'disco is the service ID');
  t.equal(record.recipient, sandbox.prepaid_meter, 'recipient is the meter');
  t.equal(kobo(record.amount), 2_000_50, 'amount');
  t.equal(record.status, 'delivered', 'status is delivered (the list says successful)');
  t.equal(record.token, delivered.body.data.token, 'the token of the answer');
  t.equal(record.meter_type, 'prepaid', 'meter_type');
  t.equal(record.customer_name, 'Test Customer', 'customer_name');
  t.equal(kobo(record.wallet_balance_before), 10_000_00, 'wallet_balance_before');
  t.equal(kobo(record.wallet_balance_after), 7_999_50, 'wallet_balance_after');
  t.equal(record.failure_reason, null, 'no failure_reason');
  t.equal(record.reversed, false, 'not reversed');
  for (const field of ['created_at', 'updated_at', 'delivered_at']) t.match(record[field], iso_us_pattern, `${field} is ISO 8601 UTC with microseconds`);
  t.equal(record.failed_at, null, 'failed_at is null');
  t.equal(record.reversed_at, null, 'reversed_at is null');
  t.ok(Array.isArray(record.status_history) && record.status_history.every((h: { status: string; at: string }) => typeof h.status === 'string' && iso_us_pattern.test(h.at)), 'status_history is a list of {status, at}');

  const failed = await buy_airtime(server, account.key, sandbox.failed, 500, { network: 'airtel' });
  const failed_record = await order(server, account.key, failed.body.error.reference);
  t.equal(failed_record.status, 'failed', 'the failed order says failed');
  t.equal(failed_record.network, 'airtel', 'network');
  t.equal(failed_record.reversed, true, 'reversed is true');
  t.type(failed_record.failure_reason, 'string', 'failure_reason is text');
  t.match(failed_record.failed_at, iso_us_pattern, 'failed_at is set');
  t.match(failed_record.reversed_at, iso_us_pattern, 'reversed_at is set');
  t.equal(failed_record.delivered_at, null, 'delivered_at is null');
  t.equal(kobo(failed_record.wallet_balance_before), 7_999_50, 'wallet_balance_before is the balance before the debit');
  t.equal(kobo(failed_record.wallet_balance_after), 7_499_50, 'wallet_balance_after is the balance right after the debit');
});

t.test('unknown references, and other accounts\' or environments\' references, are 404 transaction.not_found', async (t) => {
  const owner = await fast_reseller(server, 1_000);
  const stranger = await fast_reseller(server, 1_000);
  const bought = await buy_airtime(server, owner.key, '08031234567', 100);
  const reference = bought.body.data.reference;
  t.equal((await server.api('GET', `/v1/transactions/${reference}`, { key: owner.key })).status, 200, 'the owner reads its order');
  const owner_live = await server.create_key(owner.id, { environment: 'live' });
  const rows: [string, string, string][] = [
    ['another account\'s reference', reference, stranger.key],
    ['the same account\'s test reference with its live key', reference, owner_live.api_key],
    ['a well-formed unknown reference', 'BV-20260101-0123456789AB', owner.key],
    ['a malformed reference', 'not-a-reference', owner.key],
  ];
  for (const [what, ref, key] of rows) {
    check_error(t, await server.api('GET', `/v1/transactions/${encodeURIComponent(ref)}`, { key }), 404, 'transaction.not_found', what);
  }
  const stranger_list = await server.api('GET', '/v1/transactions', { key: stranger.key });
  t.equal(stranger_list.body.data.pagination.total, 0, 'another account\'s list does not show the order');
  const live_list = await server.api('GET', '/v1/transactions', { key: owner_live.api_key });
  t.equal(live_list.body.data.pagination.total, 0, 'the live list does not show the test order');
});

t.test('?idempotency_key=K finds the order that key created, for its own account and environment only', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const other = await fast_reseller(server, 1_000);
  const key = idem('lookup');
  const bought = await buy_airtime(server, account.key, '08031234567', 100, {}, key);
  await buy_airtime(server, account.key, '08031234567', 100, {}, idem('other'));
  const found = await server.api('GET', `/v1/transactions?idempotency_key=${encodeURIComponent(key)}`, { key: account.key });
  t.equal(found.status, 200, 'the lookup is 200');
  t.same(found.body.data.transactions.map((o: { reference: string; status: string }) => [o.reference, o.status]), [[bought.body.data.reference, 'successful']], 'exactly the order of that key');
  t.equal(found.body.data.pagination.total, 1, 'pagination counts one order');
  const unknown = await server.api('GET', `/v1/transactions?idempotency_key=${encodeURIComponent(idem('never'))}`, { key: account.key });
  t.same(unknown.body.data.transactions, [], 'an unknown key finds nothing');
  t.equal(unknown.body.data.pagination.total, 0, 'and counts nothing');
  const foreign = await server.api('GET', `/v1/transactions?idempotency_key=${encodeURIComponent(key)}`, { key: other.key });
  t.same(foreign.body.data.transactions, [], 'another account with the same key string finds nothing');
  const refused_key = idem('refused');
  check_error(t, await buy_airtime(server, account.key, '08031234567', 5_000, {}, refused_key), 422, 'wallet.insufficient_funds', 'a purchase the wallet cannot afford');
  const refused = await server.api('GET', `/v1/transactions?idempotency_key=${encodeURIComponent(refused_key)}`, { key: account.key });
  t.same(refused.body.data.transactions, [], 'a key whose purchase was refused names no order');
  const failed_key = idem('failed');
  const failed = await buy_airtime(server, account.key, sandbox.failed, 100, {}, failed_key);
  const failed_lookup = await server.api('GET', `/v1/transactions?idempotency_key=${encodeURIComponent(failed_key)}`, { key: account.key });
  t.same(failed_lookup.body.data.transactions.map((o: { reference: string; status: string }) => [o.reference, o.status]), [[failed.body.error.reference, 'failed']], 'a key whose order failed finds the failed order');
});

t.test('the wallet history shows each debit and reversal with balance_before and balance_after', async (t) => {
  const account = await fast_reseller(server, 0);
  await server.credit(account.id, 'test', 1_000, `FUND-HIST-${account.id}`);
  const delivered = await buy_airtime(server, account.key, '08031234567', 300.5);
  const failed = await buy_airtime(server, account.key, sandbox.failed, 200.25);
  const entries = await all_wallet_entries(server, account.key);
  const rows = entries.map((e) => [e.type, e.reference, kobo(e.amount), kobo(e.balance_before), kobo(e.balance_after)]);
  t.same(rows, [
    ['reversal', failed.body.error.reference, 200_25, 499_25, 699_50],
    ['debit', failed.body.error.reference, 200_25, 699_50, 499_25],
    ['debit', delivered.body.data.reference, 300_50, 1_000_00, 699_50],
    ['credit', `FUND-HIST-${account.id}`, 1_000_00, 0, 1_000_00],
  ], 'newest first: the reversal, the two debits and the credit, each with its balances');
  for (const entry of entries) t.type(entry.description, 'string', `entry ${entry.id} has a description`);
  const wallet = await server.api('GET', '/v1/wallet', { key: account.key });
  t.equal(kobo(wallet.body.data.balance), 699_50, 'the balance is the last entry\'s balance_after');
});

t.test('the history needs the transactions:read scope', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const bought = await buy_airtime(server, account.key, '08031234567', 100);
  const wallet_only = await server.create_key(account.id, { environment: 'test', scopes: ['wallet:read'] });
  check_error(t, await server.api('GET', '/v1/transactions', { key: wallet_only.api_key }), 403, 'auth.insufficient_scope', 'the list with a wallet:read key');
  check_error(t, await server.api('GET', `/v1/transactions/${bought.body.data.reference}`, { key: wallet_only.api_key }), 403, 'auth.insufficient_scope', 'the record with a wallet:read key');
  const reader = await server.create_key(account.id, { environment: 'test', scopes: ['transactions:read'] });
  t.equal((await all_orders(server, reader.api_key)).length, 1, 'a transactions:read key reads the list');
});
