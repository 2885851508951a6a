// The wallet and its history (docs/spec.md section 2 "Wallet", section 4 "Wallet", section 8 per_page/page;
// docs/decisions.md "Money" and the wallet transaction record; docs/decisions.md "History, filters and paging").
import t from 'tap';
import { start_server } from './helpers/server.js';

const server = await start_server(t);
const microseconds = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** NGN with at most 2 decimals as integer kobo, for sums without floating-point drift. */
function kobo(naira: number): number {
  return Math.round(naira * 100);
}

t.test('GET /v1/wallet shows the wallet of the key\'s environment', async (t) => {
  const account = await server.create_account();
  await server.credit(account.id, 'live', 100);
  await server.credit(account.id, 'test', 250.55);
  const live = await server.create_key(account.id, { environment: 'live' });
  const test = await server.create_key(account.id, { environment: 'test' });
  const live_wallet = await server.api('GET', '/v1/wallet', { key: live.api_key });
  t.equal(live_wallet.status, 200, 'the live wallet read is 200');
  t.same(live_wallet.body.data, { balance: 100, bonus_balance: 0, currency: 'NGN' }, 'the live key sees 100 NGN');
  const test_wallet = await server.api('GET', '/v1/wallet', { key: test.api_key });
  t.same(test_wallet.body.data, { balance: 250.55, bonus_balance: 0, currency: 'NGN' }, 'the test key sees 250.55 NGN');
  t.match(test_wallet.text, /"balance":250\.55[,}]/, 'the balance is written as 250.55 in the JSON text');

  const live_history = await server.api('GET', '/v1/wallet/transactions', { key: live.api_key });
  t.same(live_history.body.data.transactions.map((e: { amount: number }) => e.amount), [100], 'the live history holds only the live credit');
  const test_history = await server.api('GET', '/v1/wallet/transactions', { key: test.api_key });
  t.same(test_history.body.data.transactions.map((e: { amount: number }) => e.amount), [250.55], 'the test history holds only the test credit');
});

t.test('GET /v1/wallet/transactions lists entries newest first with every field and an exact pagination object', async (t) => {
  const account = await server.reseller(0);
  const references = ['REF-A', 'REF-B', 'REF-C'].map((r) => `${r}-${account.id}`);
  const amounts = [10, 20.5, 0.01];
  for (let i = 0; i < 3; i++) await server.credit(account.id, 'test', amounts[i], references[i]);
  const response = await server.api('GET', '/v1/wallet/transactions', { key: account.key });
  t.equal(response.status, 200, 'the history read is 200');
  t.same(Object.keys(response.body.data).sort(), ['pagination', 'transactions'], 'data has transactions and pagination');
  t.same(response.body.data.pagination, { total: 3, per_page: 20, current_page: 1, last_page: 1 }, 'pagination is exact, per_page defaults to 20');
  const entries = response.body.data.transactions;
  t.same(entries.map((e: { reference: string }) => e.reference), [...references].reverse(), 'entries are newest first');
  t.same(entries.map((e: { id: number }) => e.id), [3, 2, 1], 'entry ids count down');
  const newest = entries[0];
  t.same(Object.keys(newest).sort(), ['amount', 'balance_after', 'balance_before', 'created_at', 'description', 'id', 'reference', 'type'], 'an entry has exactly the documented fields');
  t.equal(newest.type, 'credit', 'a funding entry is a credit');
  t.equal(newest.amount, 0.01, 'amount is NGN');
  t.equal(newest.balance_before, 30.5, 'balance_before is the balance before the entry');
  t.equal(newest.balance_after, 30.51, 'balance_after is the balance after the entry');
  t.type(newest.description, 'string', 'description is text');
  for (const entry of entries) t.match(entry.created_at, microseconds, `entry ${entry.id} created_at is ISO 8601 UTC with microseconds`);
  t.ok(Date.parse(entries[0].created_at) >= Date.parse(entries[2].created_at), 'created_at follows the order');
  for (let i = 0; i < entries.length - 1; i++) {
    t.equal(entries[i].balance_before, entries[i + 1].balance_after, `entry ${entries[i].id} starts where entry ${entries[i + 1].id} ended`);
  }
});

t.test('per_page and page are checked: 1..100 and from 1; past the last page the list is empty', async (t) => {
  const account = await server.reseller(0, {}, { rate_limit_per_minute: 1000 });
  for (let i = 0; i < 3; i++) await server.credit(account.id, 'test', 1);
  const rows: [string, number, string | null][] = [
    ['per_page=100', 200, null],
    ['per_page=1', 200, null],
    ['per_page=101', 400, 'per_page'],
    ['per_page=0', 400, 'per_page'],
    ['per_page=-1', 400, 'per_page'],
    ['per_page=abc', 400, 'per_page'],
    ['per_page=1.5', 400, 'per_page'],
    ['per_page=', 400, 'per_page'],
    ['page=0', 400, 'page'],
    ['page=-2', 400, 'page'],
    ['page=abc', 400, 'page'],
    ['page=1000000', 200, null],
    ['page=1000001', 400, 'page'],
  ];
  for (const [query, status, field] of rows) {
    const response = await server.api('GET', `/v1/wallet/transactions?${query}`, { key: account.key });
    t.equal(response.status, status, `${query} answers ${status}`);
    if (field !== null) {
      t.equal(response.body?.error?.code, 'validation.failed', `${query} is validation.failed`);
      t.ok(response.body?.error?.details?.some((d: { field: string }) => d.field === field), `${query} names ${field} in details`);
    }
  }
  const hundred = await server.api('GET', '/v1/wallet/transactions?per_page=100', { key: account.key });
  t.same(hundred.body.data.pagination, { total: 3, per_page: 100, current_page: 1, last_page: 1 }, 'per_page=100 is used');
  const past = await server.api('GET', '/v1/wallet/transactions?page=5', { key: account.key });
  t.equal(past.status, 200, 'a page past the last is 200');
  t.same(past.body.data.transactions, [], 'a page past the last is empty');
  t.same(past.body.data.pagination, { total: 3, per_page: 20, current_page: 5, last_page: 1 }, 'its pagination says where the pages end');
  const one_each = await server.api('GET', '/v1/wallet/transactions?per_page=1&page=2', { key: account.key });
  t.same(one_each.body.data.transactions.map((e: { id: number }) => e.id), [2], 'per_page=1&page=2 is the second newest entry');
  t.same(one_each.body.data.pagination, { total: 3, per_page: 1, current_page: 2, last_page: 3 }, 'per_page=1 makes 3 pages');

  const empty_account = await server.reseller(0);
  const empty = await server.api('GET', '/v1/wallet/transactions', { key: empty_account.key });
  t.same(empty.body.data, { transactions: [], pagination: { total: 0, per_page: 20, current_page: 1, last_page: 1 } }, 'an empty wallet has one empty page');
});

t.test('25 credits make a page of 20 and a page of 5 whose amounts sum to the balance', async (t) => {
  const account = await server.reseller(0);
  let expected_kobo = 0;
  for (let i = 1; i <= 25; i++) {
    const amount = i + i / 100; // 1.01, 2.02, … 25.25: every amount has 2 decimals
    expected_kobo += kobo(amount);
    await server.credit(account.id, 'test', amount, `BULK-${account.id}-${i}`);
  }
  const first = await server.api('GET', '/v1/wallet/transactions', { key: account.key });
  const second = await server.api('GET', '/v1/wallet/transactions?page=2', { key: account.key });
  t.equal(first.body.data.transactions.length, 20, 'page 1 has 20 entries');
  t.equal(second.body.data.transactions.length, 5, 'page 2 has 5 entries');
  t.same(first.body.data.pagination, { total: 25, per_page: 20, current_page: 1, last_page: 2 }, 'page 1 pagination');
  t.same(second.body.data.pagination, { total: 25, per_page: 20, current_page: 2, last_page: 2 }, 'page 2 pagination');
  const all = [...first.body.data.transactions, ...second.body.data.transactions];
  t.same(all.map((e: { id: number }) => e.id), Array.from({ length: 25 }, (_, i) => 25 - i), 'the pages hold ids 25..1 once each, newest first');
  t.same(all.map((e: { reference: string }) => e.reference), Array.from({ length: 25 }, (_, i) => `BULK-${account.id}-${25 - i}`), 'references match the credits in reverse order');
  const sum_kobo = all.reduce((sum: number, e: { amount: number }) => sum + kobo(e.amount), 0);
  const wallet = await server.api('GET', '/v1/wallet', { key: account.key });
  t.equal(sum_kobo, expected_kobo, 'the entries sum to what was credited');
  t.equal(kobo(wallet.body.data.balance), sum_kobo, 'the entries sum to the balance');
  t.equal(all[0].balance_after, wallet.body.data.balance, 'the newest entry ends at the balance');
});

t.test('amounts are shown exactly: 0.1 + 0.2 credits make a balance of 0.3', async (t) => {
  const account = await server.reseller(0);
  await server.credit(account.id, 'test', 0.1);
  await server.credit(account.id, 'test', 0.2);
  const wallet = await server.api('GET', '/v1/wallet', { key: account.key });
  t.equal(wallet.body.data.balance, 0.3, 'the balance is 0.3');
  t.match(wallet.text, /"balance":0\.3[,}]/, 'the JSON text says 0.3, not 0.30000000000000004');
  const history = await server.api('GET', '/v1/wallet/transactions', { key: account.key });
  t.match(history.text, /"balance_before":0\.1,"balance_after":0\.3[,}]/, 'the second entry moves the balance from 0.1 to 0.3 exactly');

  const more = await server.reseller(0);
  for (const amount of [19.99, 0.07, 1234567.89, 0.29]) await server.credit(more.id, 'test', amount);
  const total = await server.api('GET', '/v1/wallet', { key: more.key });
  t.match(total.text, /"balance":1234588\.24[,}]/, '19.99 + 0.07 + 1234567.89 + 0.29 is exactly 1234588.24');
});
