// Duplicate keys in a JSON body are refused with 400 request.malformed_json on every route, at any
// depth (docs/api.md "Errors"): JSON.parse keeps the last silently, while a proxy or a partner may read
// the first. The hostile review of 2026-11-27 (row 6) credited 2 for a signed bank notification
// `"amount":1,"amount":2`; now nothing is credited. Keys that only look alike after an escape
// (`"amount"` and `"\u0061mount"`) are the same key; a colon inside a string and the same key in two
// sibling objects are not duplicates.
import t from 'tap';
import { createHmac, randomBytes } from 'node:crypto';
import { start_server, type ApiResponse } from './helpers/server.js';
import { all_orders, balance_kobo, check_created, check_error, fast_reseller, sandbox } from './helpers/purchases.js';

const funding_secret = `bank-${randomBytes(16).toString('hex')}`;
const server = await start_server(t, { env: { FUNDING_WEBHOOK_SECRET: funding_secret, LOG_LEVEL: 'warn' } });

function post_raw(path: string, raw: string, headers: Record<string, string> = {}, admin = false): Promise<ApiResponse> {
  return server.request('POST', path, { raw_body: raw, key: null, headers: { 'content-type': 'application/json', ...headers } }, admin ? server.admin_base : server.base);
}

function bank_transfer(raw: string): Promise<ApiResponse> {
  return post_raw('/v1/funding/bank-transfer', raw, { 'x-signature': 'sha256=' + createHmac('sha256', funding_secret).update(raw).digest('hex') });
}

async function live_balance_kobo(account_id: number): Promise<number> {
  const live = await server.create_key(account_id, { environment: 'live' });
  return balance_kobo(server, live.api_key);
}

t.test('a signed bank notification naming amount twice is refused and credits nothing', async (t) => {
  const account = await server.reseller(0);
  const reference = `TRF-${randomBytes(6).toString('hex')}`;
  const doubled = `{"reference":"${reference}","account_id":${account.id},"amount":1,"amount":2}`;
  const refused = await bank_transfer(doubled);
  check_error(t, refused, 400, 'request.malformed_json', 'a correctly signed notification with amount twice');
  t.match(refused.body?.error?.message, /twice/, 'the message says a key appears twice');
  const escaped = await bank_transfer(`{"reference":"${reference}","account_id":${account.id},"amount":1,"\\u0061mount":2}`);
  check_error(t, escaped, 400, 'request.malformed_json', 'amount and \\u0061mount are the same key');
  const twice = await bank_transfer(`{"reference":"${reference}","account_id":${account.id},"amount":1,"sender_name":"A","narration":"x"}`.replace('"narration":"x"', '"narration":"x","narration":"y"'));
  check_error(t, twice, 400, 'request.malformed_json', 'narration twice');
  t.equal(await live_balance_kobo(account.id), 0, 'nothing was credited');
  const single = await bank_transfer(`{"reference":"${reference}","account_id":${account.id},"amount":2,"narration":"for: invoice 1"}`);
  t.equal(single.status, 201, `the same notification with each key once credits (${single.text.slice(0, 120)})`);
  t.equal(await live_balance_kobo(account.id), 2_00, 'NGN 2 credited, once');
});

t.test('a purchase body with a key twice, at the top or deeper, is refused before anything is debited', async (t) => {
  const account = await fast_reseller(server, 100_000);
  const auth = { authorization: `Bearer ${account.key}` };
  const rows: [string, string, string][] = [
    ['amount twice at the top', '/v1/services/airtime', `{"network":"mtn","phone":"${sandbox.delivered}","amount":100,"pin":"12345","amount":50000}`],
    ['pin twice', '/v1/services/airtime', `{"network":"mtn","phone":"${sandbox.delivered}","amount":100,"pin":"00000","pin":"12345"}`],
    ['a metadata key twice', '/v1/services/airtime', `{"network":"mtn","phone":"${sandbox.delivered}","amount":100,"pin":"12345","metadata":{"a":"1","a":"2"}}`],
    ['an item\'s amount twice, two levels down', '/v1/services/bulk', `{"pin":"12345","items":[{"service_type":"airtime","network":"mtn","phone":"${sandbox.delivered}","amount":100},{"service_type":"airtime","network":"mtn","phone":"${sandbox.delivered}","amount":100,"amount":5000}]}`],
    ['an escaped twin of phone', '/v1/services/airtime', `{"network":"mtn","phone":"${sandbox.delivered}","\\u0070hone":"${sandbox.failed}","amount":100,"pin":"12345"}`],
  ];
  for (const [what, path, raw] of rows) {
    const refused = await post_raw(path, raw, auth);
    check_error(t, refused, 400, 'request.malformed_json', what);
  }
  t.equal((await all_orders(server, account.key)).length, 0, 'no order was placed');
  t.equal(await balance_kobo(server, account.key), 100_000_00, 'nothing was debited');
  const siblings = await post_raw('/v1/services/bulk', `{"pin":"12345","items":[{"service_type":"airtime","network":"mtn","phone":"${sandbox.delivered}","amount":100},{"service_type":"airtime","network":"mtn","phone":"${sandbox.delivered}","amount":100}]}`, auth);
  t.equal(siblings.status, 202, 'the same keys in two sibling objects are not duplicates');
  const colons = await post_raw('/v1/services/airtime', `{"network":"mtn","phone":"${sandbox.delivered}","amount":100,"pin":"12345","metadata":{"note":"a:b:\\":c","b":"{\\"x\\":1,\\"x\\":2}"}}`, auth);
  check_created(t, colons, 'delivered', 'colons, quotes and a duplicate-looking JSON text inside strings are not keys');
});

t.test('every front refuses a duplicate key: public, dashboard and operator routes', async (t) => {
  const account = await fast_reseller(server, 0);
  const keys = await post_raw('/v1/keys', '{"name":"a","name":"b","environment":"test"}', { authorization: `Bearer ${account.key}` });
  check_error(t, keys, 400, 'request.malformed_json', 'POST /v1/keys');
  const sign_in = await post_raw('/dashboard/api/session', `{"email":"${account.email}","password":"wrong","password":${JSON.stringify(account.password)}}`);
  check_error(t, sign_in, 400, 'request.malformed_json', 'POST /dashboard/api/session');
  const admin = await post_raw(`/admin/accounts/${account.id}/pin`, '{"pin":"11111","pin":"22222"}', { authorization: `Bearer ${server.admin_token}` }, true);
  check_error(t, admin, 400, 'request.malformed_json', 'POST /admin/accounts/{id}/pin');
  const deep = await post_raw('/v1/keys', `{"name":"deep","environment":"test","ip_allowlist":[],"x":${'['.repeat(20)}{"k":1,"k":2}${']'.repeat(20)}}`, { authorization: `Bearer ${account.key}` });
  check_error(t, deep, 400, 'request.malformed_json', 'a key twice 21 levels down');
});
