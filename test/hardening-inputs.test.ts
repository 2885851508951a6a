// Findings of the hostile review about input (issue "Hardening from a hostile review"), each through
// real sockets against a real server: webhook URLs that reach the loopback through an IPv6 address
// embedding an IPv4 one, timestamps that do not exist or lie beyond the stated years, control and
// bidi characters and lone surrogates in names, and the dashboard's dead-delivery and order views
// that read other tenants' records or scanned 50,000 orders per request.
import t, { type Test } from 'tap';
import { rmSync } from 'node:fs';
import { open_store, start_server, type ApiResponse, type TestServer } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { buy_airtime, sandbox, tv_body, buy, wait_for_async } from './helpers/purchases.js';
import { sign_in } from './helpers/route-catalog.js';
import { parse_date_days, parse_timestamp_us, timestamp_year_max } from '../src/lib/time-format.js';

function fields_of(response: ApiResponse): string[] {
  return response.body?.error?.details?.map((d: { field: string }) => d.field) ?? [];
}

function check_refused(t: Test, response: ApiResponse, field: string, what: string): void {
  t.equal(response.status, 400, `${what} is refused with 400 (${response.text.slice(0, 200)})`);
  t.equal(response.body?.error?.code, 'validation.failed', `${what} is validation.failed`);
  t.ok(fields_of(response).includes(field), `${what}: the details name ${field} (${fields_of(response).join(', ')})`);
}

async function dashboard_get(server: TestServer, session: { cookie: string }, path: string): Promise<ApiResponse> {
  return server.request('GET', path, { headers: { cookie: `bv_session=${session.cookie}` } });
}

t.test('webhook URLs whose IPv6 address embeds an internal IPv4 address are refused (regression: [::127.0.0.1], NAT64 and 6to4 were accepted)', async (t) => {
  const server = await start_server(t, { env: { LOG_LEVEL: 'warn' } });
  const reseller = await server.reseller(0, {}, { rate_limit_per_minute: 1_000_000 });
  const refused: [string, string][] = [
    ['IPv4-compatible loopback', 'https://[::127.0.0.1]/hooks'],
    ['IPv4-compatible private address', 'https://[::10.0.0.1]:8443/hooks'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hooks'],
    ['NAT64 loopback', 'https://[64:ff9b::7f00:1]/hooks'],
    ['NAT64 metadata address', 'https://[64:ff9b::169.254.169.254]/latest/meta-data'],
    ['local-use NAT64', 'https://[64:ff9b:1::7f00:1]/hooks'],
    ['6to4 loopback', 'https://[2002:7f00:1::]/hooks'],
    ['6to4 private address', 'https://[2002:c0a8:101::1]/hooks'],
    ['Teredo with a loopback client (XORed)', 'https://[2001:0:4136:e378::80ff:fffe]/hooks'],
    ['Teredo with a private server', 'https://[2001:0:a00:1::1]/hooks'],
  ];
  for (const [what, url] of refused) {
    const response = await server.api('POST', '/v1/webhooks', { key: reseller.key, body: { url } });
    check_refused(t, response, 'url', `${what} ${url}`);
  }
  const listed = await server.api('GET', '/v1/webhooks', { key: reseller.key });
  t.same(listed.body.data.webhooks, [], 'none of them was registered');
  const accepted: [string, string][] = [
    ['NAT64 of a public address', 'https://[64:ff9b::cb00:7109]/hooks'],
    ['6to4 of a public address', 'https://[2002:cb00:7109::1]/hooks'],
  ];
  for (const [what, url] of accepted) {
    const response = await server.api('POST', '/v1/webhooks', { key: reseller.key, body: { url } });
    t.equal(response.status, 201, `${what} ${url} is accepted: ${response.text.slice(0, 160)}`);
  }
});

t.test('the strict timestamp reader refuses dates that do not exist, hour 24, wild offsets and years beyond the bound', async (t) => {
  const refused = [
    '9999-12-31T23:59:59.999999-23:59', '2030-02-30T00:00:00Z', '2029-02-29T00:00:00Z', '2030-04-31T00:00:00Z', '2030-13-01T00:00:00Z',
    '2030-00-10T00:00:00Z', '2030-01-00T00:00:00Z', '2030-01-01T24:00:00Z', '2030-01-01T23:60:00Z', '2030-01-01T23:59:60Z',
    '2030-01-01T00:00:00+14:01', '2030-01-01T00:00:00-15:00', '2030-01-01T00:00:00+01:60', '2101-01-01T00:00:00Z',
    '2100-12-31T23:59:59-01:00', '1969-12-31T23:59:59Z', '2030-01-01T00:00:00', '2030-01-01t00:00:00Z', '2030-01-01T00:00:00.1234567Z',
    '2030-01-01 00:00:00Z', '+02030-01-01T00:00:00Z', '2030-1-01T00:00:00Z', '２０３０-01-01T00:00:00Z', '',
  ];
  for (const text of refused) t.equal(parse_timestamp_us(text), null, `${JSON.stringify(text)} is refused`);
  const read: [string, number][] = [
    ['2028-02-29T12:00:00Z', Date.UTC(2028, 1, 29, 12) * 1000],
    ['2030-06-01T00:00:00+14:00', Date.UTC(2030, 4, 31, 10) * 1000],
    ['2030-06-01T00:00:00-14:00', Date.UTC(2030, 5, 1, 14) * 1000],
    ['2030-06-01T10:15:30.123456+01:00', Date.UTC(2030, 5, 1, 9, 15, 30) * 1000 + 123_456],
    ['2030-06-01T10:15:30.5Z', Date.UTC(2030, 5, 1, 10, 15, 30) * 1000 + 500_000],
    ['2100-12-31T23:59:59.999999Z', Date.UTC(2100, 11, 31, 23, 59, 59) * 1000 + 999_999],
    ['2000-02-29T00:00:00Z', Date.UTC(2000, 1, 29) * 1000],
  ];
  for (const [text, us] of read) t.equal(parse_timestamp_us(text), us, `${text} is ${us} µs`);
  t.equal(parse_date_days('2030-02-30'), null, 'the date 2030-02-30 is refused');
  t.equal(parse_date_days('2101-01-01'), null, `a date after ${timestamp_year_max} is refused`);
  t.equal(parse_date_days('2028-02-29'), Date.UTC(2028, 1, 29) / 86_400_000, 'a leap day is read');
});

t.test('impossible or far expires_at timestamps are 400 validation.failed on every key route (regression: 9999-12-31T23:59:59.999999-23:59 was shown as +010000-01-01…, 2030-02-30 became 2030-03-02)', async (t) => {
  const server = await start_server(t, { env: { LOG_LEVEL: 'warn' } });
  const reseller = await server.reseller(0, {}, { rate_limit_per_minute: 1_000_000 });
  const session = await sign_in(server, reseller.email, reseller.password);
  const bad = ['9999-12-31T23:59:59.999999-23:59', '2030-02-30T00:00:00Z', '2030-01-01T24:00:00Z', '2030-01-01T00:00:00+15:00', '2101-01-01T00:00:00Z'];
  for (const expires_at of bad) {
    const body = { name: 'expiring', environment: 'test', expires_at };
    check_refused(t, await server.api('POST', '/v1/keys', { key: reseller.key, body, idempotency_key: `exp-${expires_at}` }), 'expires_at', `POST /v1/keys with expires_at ${expires_at}`);
    check_refused(t, await server.admin('POST', `/admin/accounts/${reseller.id}/keys`, body), 'expires_at', `POST /admin/accounts/{id}/keys with expires_at ${expires_at}`);
    const dashboard = await server.request('POST', '/dashboard/api/keys', { body, headers: { cookie: `bv_session=${session.cookie}`, 'x-csrf-token': session.csrf, origin: server.base } });
    check_refused(t, dashboard, 'expires_at', `POST /dashboard/api/keys with expires_at ${expires_at}`);
  }
  const keys = await server.api('GET', '/v1/keys', { key: reseller.key });
  t.equal(keys.body.data.keys.length, 1, 'no key was created by the refused requests');
  const good = await server.api('POST', '/v1/keys', { key: reseller.key, body: { name: 'leap', environment: 'test', expires_at: '2028-02-29T23:30:00-01:00' }, idempotency_key: 'exp-good' });
  t.equal(good.status, 201, `a real date with an offset is accepted: ${good.text.slice(0, 160)}`);
  t.equal(good.body.data.expires_at, '2028-03-01T00:30:00.000000Z', 'and shown as the UTC instant it names');
  for (const [query, field] of [['from=2030-02-30', 'from'], ['to=2101-01-01', 'to'], ['from=2030-1-1', 'from']]) {
    check_refused(t, await dashboard_get(server, session, `/dashboard/api/orders?environment=test&${query}`), field, `the dashboard order filter with ${query}`);
  }
});

t.test('control characters, bidi overrides and lone surrogates in names and descriptions are 400 validation.failed and change nothing (regression: "\\u202e\\u0000evil" and "\\ud800" were accepted)', async (t) => {
  const server = await start_server(t, { env: webhook_env({ LOG_LEVEL: 'warn' }) });
  const reseller = await server.reseller(0, {}, { rate_limit_per_minute: 1_000_000 });
  const session = await sign_in(server, reseller.email, reseller.password);
  const dashboard_headers = { cookie: `bv_session=${session.cookie}`, 'x-csrf-token': session.csrf, origin: server.base };
  const hostile = ['\u202e\u0000evil', '\ud800', 'a\udc00b', 'tab\there', 'line\nbreak', 'esc\u001b[31m', 'c1\u0085', 'del\u007f', '\u2066isolate\u2069', 'rlm\u200f'];
  let n = 0;
  for (const text of hostile) {
    const what = JSON.stringify(text);
    n++;
    check_refused(t, await server.api('POST', '/v1/keys', { key: reseller.key, body: { name: text, environment: 'test' }, idempotency_key: `ft-key-${n}` }), 'name', `a key named ${what}`);
    check_refused(t, await server.api('POST', '/v1/webhooks', { key: reseller.key, body: { url: 'https://localhost:9/h', description: text }, idempotency_key: `ft-hook-${n}` }), 'description', `a webhook described ${what}`);
    check_refused(t, await server.admin('POST', '/admin/accounts', { name: text, email: `ft${n}@example.ng`, phone: '08012345678', password: 'correct horse battery', kyc_level: 1 }), 'name', `an account named ${what}`);
    check_refused(t, await server.admin('POST', '/admin/accounts', { name: 'Fine', email: `f${text}t${n}@example.ng`, phone: '08012345678', password: 'correct horse battery', kyc_level: 1 }), 'email', `an email holding ${what}`);
    check_refused(t, await server.admin('POST', `/admin/accounts/${reseller.id}/keys`, { name: text, environment: 'test' }), 'name', `an operator key named ${what}`);
    check_refused(t, await server.admin('POST', `/admin/accounts/${reseller.id}/wallet/credit`, { environment: 'test', amount: 10, reference: `FT-${n}`, description: text }), 'description', `a credit described ${what}`);
    check_refused(t, await server.request('POST', '/dashboard/api/keys', { body: { name: text, environment: 'test' }, headers: dashboard_headers }), 'name', `a dashboard key named ${what}`);
    check_refused(t, await server.api('POST', '/v1/services/data/purchase', { key: reseller.key, body: { network: 'mtn', plan_code: `x${text}`, phone: '08011111111', amount: 100, pin: reseller.pin }, idempotency_key: `ft-data-${n}` }), 'plan_code', `a plan code holding ${what}`);
  }
  const keys = await server.api('GET', '/v1/keys', { key: reseller.key });
  t.equal(keys.body.data.keys.length, 1, 'no key was created');
  const hooks = await server.api('GET', '/v1/webhooks', { key: reseller.key });
  t.same(hooks.body.data.webhooks, [], 'no webhook was registered');
  const wallet = await server.api('GET', '/v1/wallet', { key: reseller.key });
  t.equal(wallet.body.data.balance, 0, 'no credit was made');
  const fine = await server.api('POST', '/v1/keys', { key: reseller.key, body: { name: 'Ọ̀jà 🛒 Ikeja — key', environment: 'test' }, idempotency_key: 'ft-fine' });
  t.equal(fine.status, 201, `a name in Yoruba with an emoji and a dash is accepted: ${fine.text.slice(0, 160)}`);
  t.equal(fine.body.data.name, 'Ọ̀jà 🛒 Ikeja — key', 'and kept as given');
});

t.test('another tenant\'s 10,001 dead deliveries do not hide one\'s own on the dashboard (regression: the view filtered the newest 10,000 of all accounts)', async (t) => {
  const receiver = new WebhookReceiver();
  receiver.otherwise = 500;
  await receiver.start();
  t.teardown(() => receiver.stop());
  // TIME_SCALE makes the six attempts of a delivery (30 s … 8 h apart) take about 19 s.
  const server = await start_server(t, { keep_data: true, env: webhook_env({ TIME_SCALE: '0.0005', LOG_LEVEL: 'warn' }) });
  t.teardown(() => rmSync(server.data_dir, { recursive: true, force: true }));
  const mine = await server.reseller(20_000, {}, { rate_limit_per_minute: 1_000_000 });
  const other = await server.reseller(20_000, {}, { rate_limit_per_minute: 1_000_000 });
  const endpoints: number[] = [];
  for (const account of [mine, other]) {
    const created = await server.api('POST', '/v1/webhooks', { key: account.key, body: { url: receiver.url, events: ['transaction.completed'] } });
    t.equal(created.status, 201, `an endpoint is registered: ${created.text.slice(0, 120)}`);
    endpoints.push(created.body.data.id);
    const bought = await buy_airtime(server, account.key, sandbox.delivered, 100);
    t.equal(bought.status, 201, 'a purchase makes a transaction.completed delivery');
  }
  const dead = await wait_for_async(async () => {
    const listed = await server.admin('GET', '/admin/webhooks/dead');
    const found = listed.body?.data?.deliveries ?? [];
    return found.length === 2 ? found : null;
  }, 90_000, 'both deliveries to die');
  const own = dead.find((d: { endpoint_id: number }) => d.endpoint_id === endpoints[0]);
  const theirs = dead.find((d: { endpoint_id: number }) => d.endpoint_id === endpoints[1]);
  t.ok(own !== undefined && theirs !== undefined, 'each account has one dead delivery');
  let session = await sign_in(server, mine.email, mine.password);
  let view = await dashboard_get(server, session, '/dashboard/api/webhooks-dead?environment=test');
  t.same(view.body.data.deliveries.map((d: { id: number }) => d.id), [own.id], 'as it dies, the delivery is listed on its own account\'s dashboard only');
  await server.stop();

  // The other tenant's dead delivery, copied 10,001 times under newer ids, straight into the store.
  const copies = 10_001;
  {
    const { root, db } = open_store(server.data_dir);
    const deliveries = db('deliveries');
    const dead_letters = db('dead_letters');
    const record = deliveries.get([endpoints[1], theirs.id]);
    t.equal(record?.status, 'dead', 'the other tenant\'s delivery is dead in the store');
    const first = Math.max(own.id, theirs.id) + 1_000;
    root.transactionSync(() => {
      for (let i = 0; i < copies; i++) {
        deliveries.putSync([endpoints[1], first + i], { ...record, id: first + i });
        dead_letters.putSync(first + i, { endpoint_id: endpoints[1], account_id: other.id });
      }
    });
    await root.close();
  }
  await server.start();
  const operator_view = await server.admin('GET', '/admin/webhooks/dead');
  t.ok(operator_view.body.data.deliveries.every((d: { account_id: number }) => d.account_id === other.id), 'the newest dead deliveries of the server are all the other tenant\'s');
  session = await sign_in(server, mine.email, mine.password);
  view = await dashboard_get(server, session, '/dashboard/api/webhooks-dead?environment=test');
  t.equal(view.status, 200, 'the dead-deliveries view answers');
  t.same(view.body.data.deliveries.map((d: { id: number }) => d.id), [own.id], 'after a restart, one\'s own dead delivery is still listed, and nothing else');
  const live = await dashboard_get(server, session, '/dashboard/api/webhooks-dead?environment=live');
  t.same(live.body.data.deliveries, [], 'the live environment has none');
  const their_session = await sign_in(server, other.email, other.password);
  const their_view = await dashboard_get(server, their_session, '/dashboard/api/webhooks-dead?environment=test');
  t.equal(their_view.body.data.deliveries.length, 200, 'the other tenant sees its newest 200');
  t.equal(their_view.body.data.deliveries[0].id, Math.max(own.id, theirs.id) + 1_000 + copies - 1, 'newest first');
});

t.test('the dashboard order filter answers from the per-account index, not by scanning (regression: an order older than the newest 50,000 was never found)', async (t) => {
  const server = await start_server(t, { keep_data: true, env: { LOG_LEVEL: 'warn' } });
  t.teardown(() => rmSync(server.data_dir, { recursive: true, force: true }));
  const reseller = await server.reseller(100_000, {}, { rate_limit_per_minute: 1_000_000 });
  const tv = await buy(server, reseller.key, '/v1/services/tv', tv_body('1212121212', 'gotv-max', 8500));
  t.equal(tv.status, 201, `a TV subscription is bought first: ${tv.text.slice(0, 160)}`);
  const airtime = await buy_airtime(server, reseller.key, sandbox.delivered, 100);
  t.equal(airtime.status, 201, 'then airtime');
  const failed = await buy_airtime(server, reseller.key, sandbox.failed, 100);
  t.ok([201, 400, 402, 422, 502].includes(failed.status), `then an airtime purchase that fails (${failed.status})`);
  await server.stop();

  // 60,000 more airtime orders, newer than the TV one, written straight into the store as an older
  // version wrote them: without index keys, so that the next start must build the index.
  const copies = 60_000;
  {
    const { root, db } = open_store(server.data_dir);
    const orders = db('orders');
    const wallets = db('wallets');
    const meta = db('meta');
    const wallet = wallets.get([reseller.id, 'test']);
    const template = orders.get([reseller.id, 'test', 2]);
    t.equal(template?.service_type, 'airtime', 'order 2 is the airtime one');
    const count = wallet.orders_count as number;
    root.transactionSync(() => {
      for (let i = 1; i <= copies; i++) orders.putSync([reseller.id, 'test', count + i], { ...template, seq: count + i });
      wallets.putSync([reseller.id, 'test'], { ...wallet, orders_count: count + copies });
      meta.removeSync('order_index_version');
    });
    await root.close();
  }
  await server.start();
  const session = await sign_in(server, reseller.email, reseller.password);
  const tv_page = await dashboard_get(server, session, '/dashboard/api/orders?environment=test&service=tv');
  t.equal(tv_page.status, 200, 'the filter answers');
  t.same(tv_page.body.data.orders.map((o: { reference: string }) => o.reference), [tv.body.data.reference], 'the TV order behind 60,000 newer ones is found');
  t.equal(tv_page.body.data.pagination.total, 1, 'and counted');
  t.equal(tv_page.body.data.truncated, false, 'the answer is complete');
  const delivered_tv = await dashboard_get(server, session, '/dashboard/api/orders?environment=test&service=tv&status=delivered');
  t.equal(delivered_tv.body.data.pagination.total, 1, 'service and status together find it too');
  const airtime_page = await dashboard_get(server, session, '/dashboard/api/orders?environment=test&service=airtime&status=delivered&per_page=5&page=3');
  t.equal(airtime_page.body.data.pagination.total, copies + 1, 'every delivered airtime order is counted');
  t.equal(airtime_page.body.data.orders.length, 5, 'and a later page holds a full page');
  t.ok(airtime_page.body.data.orders.every((o: { status: string; service_type?: string }) => o.status === 'delivered'), 'of delivered orders');
  const all = await dashboard_get(server, session, '/dashboard/api/orders?environment=test&per_page=100');
  t.equal(all.body.data.pagination.total, copies + 3, 'without a filter every order is counted');
  const today = new Date(Date.now() + 3600_000).toISOString().slice(0, 10);
  const dated = await dashboard_get(server, session, `/dashboard/api/orders?environment=test&service=tv&from=${today}&to=${today}`);
  t.equal(dated.body.data.pagination.total, 1, 'a date range of today (Africa/Lagos) holds the TV order');
  const later = await dashboard_get(server, session, '/dashboard/api/orders?environment=test&from=2099-01-01');
  t.equal(later.body.data.pagination.total, 0, 'a date range in the future holds none');

  // The index follows new orders and their status as they change.
  const next = await buy(server, reseller.key, '/v1/services/tv', tv_body('1212121212', 'gotv-max', 8500));
  t.equal(next.status, 201, 'another TV subscription');
  const after = await dashboard_get(server, session, '/dashboard/api/orders?environment=test&service=tv&status=delivered');
  t.same(after.body.data.orders.map((o: { reference: string }) => o.reference), [next.body.data.reference, tv.body.data.reference], 'both TV orders are listed, newest first');
  const pending = await dashboard_get(server, session, '/dashboard/api/orders?environment=test&status=pending');
  t.equal(pending.body.data.pagination.total, 0, 'no order is left indexed as pending');
});
