// History filters on GET /v1/transactions (docs/api.md "History filters"): status (as the list shows
// it), service_type, recipient, from and to (Africa/Lagos dates or ISO 8601 timestamps), all combinable,
// with the spec's pagination; bad values are 400 validation.failed with details.
import t, { type Test } from 'tap';
import { start_server, type ApiResponse } from './helpers/server.js';
import { buy, buy_airtime, check_error, data_body, electricity_body, fast_reseller, sandbox, settled_order } from './helpers/purchases.js';

const server = await start_server(t, { env: { TIME_SCALE: '0.001', LOG_LEVEL: 'warn' } });

interface Listed { reference: string; service_type: string; recipient: string; status: string; created_at: string }

const account = await fast_reseller(server, 100_000);
const other = await fast_reseller(server, 10_000);
const phone_a = '08031110001';
const phone_b = '08031110002';
const made: Listed[] = [];

async function place(what: string, response: Promise<ApiResponse>): Promise<void> {
  const answer = await response;
  const reference = answer.body?.data?.reference ?? answer.body?.error?.reference;
  if (typeof reference !== 'string') throw new Error(`${what}: no reference in ${answer.status} ${answer.text}`);
  const record = await server.api('GET', `/v1/transactions/${reference}`, { key: account.key });
  const status = record.body.data.status === 'delivered' ? 'successful' : record.body.data.status;
  made.push({ reference, service_type: record.body.data.service_type, recipient: record.body.data.recipient, status, created_at: record.body.data.created_at });
}

// Oldest first: airtime A ×3, data A, airtime B, a failed airtime A (sandbox 0802… fails: a different
// recipient), electricity, airtime B.
await place('airtime A 1', buy_airtime(server, account.key, phone_a, 100));
await place('airtime A 2', buy_airtime(server, account.key, phone_a, 110));
await place('data A', buy(server, account.key, '/v1/services/data/purchase', data_body('glo-350mb-2d', 200, phone_a, { network: 'glo', ported: true })));
await place('airtime B 1', buy_airtime(server, account.key, phone_b, 120));
await place('failed airtime', buy_airtime(server, account.key, sandbox.failed, 130));
await place('electricity', buy(server, account.key, '/v1/services/electricity', electricity_body(sandbox.prepaid_meter, 1500)));
await place('airtime A 3', buy_airtime(server, account.key, phone_a, 140));
await place('airtime B 2', buy_airtime(server, account.key, phone_b, 150));
// Another account buys for the same recipient: never in this account's answers.
await buy_airtime(server, other.key, phone_a, 100);

function expected(keep: (o: Listed) => boolean): string[] {
  return made.filter(keep).map((o) => o.reference).reverse();
}

async function list(query: string): Promise<{ references: string[]; total: number; body: any }> {
  const response = await server.api('GET', `/v1/transactions?${query}`, { key: account.key });
  if (response.status !== 200) throw new Error(`GET /v1/transactions?${query} answered ${response.status} ${response.text}`);
  return { references: response.body.data.transactions.map((o: Listed) => o.reference), total: response.body.data.pagination.total, body: response.body };
}

t.test('the orders were placed as the filters expect', async (t) => {
  t.equal(made.length, 8, 'eight orders');
  t.equal(made.filter((o) => o.status === 'failed').length, 1, 'one of them failed');
  t.ok(made.some((o) => o.service_type === 'data'), 'one is a data bundle');
});

t.test('each filter alone and in combination gives exactly the matching orders, newest first', async (t) => {
  const cases: [string, (o: Listed) => boolean][] = [
    ['status=successful', (o) => o.status === 'successful'],
    ['status=failed', (o) => o.status === 'failed'],
    ['service_type=airtime', (o) => o.service_type === 'airtime'],
    [`recipient=${phone_a}`, (o) => o.recipient === phone_a],
    [`recipient=${phone_a}&service_type=airtime`, (o) => o.recipient === phone_a && o.service_type === 'airtime'],
    [`recipient=${phone_a}&service_type=data&status=successful`, (o) => o.recipient === phone_a && o.service_type === 'data' && o.status === 'successful'],
    [`recipient=${phone_b}&status=successful`, (o) => o.recipient === phone_b && o.status === 'successful'],
    ['service_type=airtime&status=failed', (o) => o.service_type === 'airtime' && o.status === 'failed'],
    ['service_type=tv', () => false],
    [`recipient=${phone_b}&status=failed`, () => false],
    ['status=pending', () => false],
  ];
  for (const [query, keep] of cases) {
    const answer = await list(query);
    t.same(answer.references, expected(keep), `${query}: exactly the matching orders, newest first`);
    t.equal(answer.total, expected(keep).length, `${query}: pagination.total counts the matches`);
  }
});

t.test('from and to take instants (inclusive) and Africa/Lagos dates, combined with the other filters', async (t) => {
  const third = made[2].created_at;
  const seventh = made[6].created_at;
  const between = (o: Listed) => Date.parse(o.created_at) >= Date.parse(third) && Date.parse(o.created_at) <= Date.parse(seventh);
  const by_instant = await list(`from=${third}&to=${seventh}`);
  t.same(by_instant.references, expected((o) => made.indexOf(o) >= 2 && made.indexOf(o) <= 6), 'from and to timestamps include both ends');
  t.ok(made.slice(2, 7).every(between), 'the orders in range are those created between the two instants');
  const combined = await list(`from=${third}&to=${seventh}&service_type=airtime&recipient=${phone_a}`);
  t.same(combined.references, expected((o) => made.indexOf(o) >= 2 && made.indexOf(o) <= 6 && o.service_type === 'airtime' && o.recipient === phone_a), 'dates combine with service_type and recipient');
  const with_offset = await list(`from=${encodeURIComponent(third.replace('Z', '+00:00'))}&status=successful`);
  t.same(with_offset.references, expected((o) => made.indexOf(o) >= 2 && o.status === 'successful'), 'a timestamp with an offset works as its instant');
  // Lagos is UTC+1: the Lagos day of an instant is the UTC date of the instant one hour later.
  const lagos_today = new Date(Date.parse(made[0].created_at) + 3_600_000).toISOString().slice(0, 10);
  const lagos_last = new Date(Date.parse(made[7].created_at) + 3_600_000).toISOString().slice(0, 10);
  const today = await list(`from=${lagos_today}&to=${lagos_last}`);
  t.same(today.references, expected(() => true), 'from and to dates cover whole Africa/Lagos days');
  const before = await list('from=2020-01-01&to=2020-01-31');
  t.same(before.references, [], 'a range before every order is empty');
  t.equal(before.total, 0, 'and counts none');
  const future = await list('from=2099-01-01');
  t.same(future.references, [], 'a from after every order is empty');
});

t.test('a filtered list pages with page and per_page exactly like the unfiltered one', async (t) => {
  const all = expected((o) => o.recipient === phone_a);
  const first = await list(`recipient=${phone_a}&per_page=2&page=1`);
  const second = await list(`recipient=${phone_a}&per_page=2&page=2`);
  const past = await list(`recipient=${phone_a}&per_page=2&page=9`);
  t.same(first.references, all.slice(0, 2), 'page 1 holds the two newest matches');
  t.same(second.references, all.slice(2, 4), 'page 2 the next two');
  t.same(past.references, [], 'a page past the last is empty');
  t.same(first.body.data.pagination, { total: all.length, per_page: 2, current_page: 1, last_page: Math.ceil(all.length / 2) }, 'pagination counts the matches');
});

t.test('the status filter takes the word of the list and of the record: "successful" and "delivered" find the same orders', async (t) => {
  const accepted = await list('status=successful');
  t.ok(accepted.references.length > 0, 'status=successful lists the delivered orders');
  t.ok(accepted.body.data.transactions.every((o: Listed) => o.status === 'successful'), 'each shown as successful');
  const delivered = await list('status=delivered');
  t.same(delivered.references, accepted.references, 'status=delivered (the record\'s word, refused before) lists exactly the orders status=successful lists');
  t.same(delivered.body.data.pagination, accepted.body.data.pagination, 'with the same count');
  const refused = await server.api('GET', '/v1/transactions?status=Delivered', { key: account.key });
  check_error(t, refused, 400, 'validation.failed', 'status=Delivered (wrong case)');
  t.same(refused.body.error.details?.map((d: { field: string }) => d.field), ['status'], 'the details name status');
});

t.test('bad filter values are 400 validation.failed naming the parameter', async (t: Test) => {
  const cases: [string, string][] = [
    ['status=done', 'status'],
    ['service_type=gas', 'service_type'],
    ['recipient=0803-111', 'recipient'],
    ['recipient=123', 'recipient'],
    ['from=2026-02-30', 'from'],
    ['from=yesterday', 'from'],
    ['to=2026-11-24T25:00:00Z', 'to'],
    ['from=2026-11-24&to=2026-11-23', 'to'],
    ['from=2026-11-24T10:00:00Z&to=2026-11-24T09:59:59Z', 'to'],
    ['service_type=airtime&per_page=0', 'per_page'],
  ];
  for (const [query, field] of cases) {
    const response = await server.api('GET', `/v1/transactions?${query}`, { key: account.key });
    check_error(t, response, 400, 'validation.failed', query);
    t.same(response.body.error.details?.map((d: { field: string }) => d.field), [field], `${query}: the details name ${field}`);
  }
});

t.test('another account sees none of these orders under any filter', async (t) => {
  const response = await server.api('GET', `/v1/transactions?recipient=${phone_a}`, { key: other.key });
  t.equal(response.status, 200, 'the other account\'s filtered list is 200');
  t.equal(response.body.data.transactions.length, 1, 'it shows only its own order for the same recipient');
  t.notOk(made.some((o) => o.reference === response.body.data.transactions[0].reference), 'which is not one of this account\'s');
});

t.test('an order whose status changes after it was placed is found under its new status with its recipient', async (t) => {
  // The sandbox delivers 08033333333 30 s (30 ms at this TIME_SCALE) after the purchase: pending, then
  // processing, then delivered, each a write of the order and its index keys.
  const bought = await buy_airtime(server, account.key, sandbox.delayed_delivered, 100);
  t.equal(bought.status, 201, 'the delayed purchase is accepted');
  const reference = bought.body.data.reference;
  const settled = await settled_order(server, account.key, reference, 20_000);
  t.equal(settled.status, 'delivered', 'and delivered later');
  const now = await list(`recipient=${sandbox.delayed_delivered}&status=successful`);
  t.same(now.references, [reference], 'it is found by recipient and its new status');
  for (const status of ['pending', 'processing']) {
    const old = await list(`recipient=${sandbox.delayed_delivered}&status=${status}`);
    t.same(old.references, [], `and no longer under ${status}`);
  }
  const by_status = await list('status=processing');
  t.notOk(by_status.references.includes(reference), 'nor in the processing list');
});
