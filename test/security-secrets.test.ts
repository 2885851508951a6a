// Nothing secret is logged or stored in plain text (issue "Reliability and security campaign", item 4;
// docs/decisions.md "Accounts, PIN, limits": "PINs and passwords are never stored in plain text; API keys
// are stored only as a hash"; src/log.ts "nothing secret is ever passed to the logger"). A session creates
// API keys (by the operator, through the API with an X-Idempotency-Key, in the dashboard), webhook endpoints and their
// secrets, buys with right and wrong PINs, changes the PIN, signs in to the dashboard with right and
// wrong passwords, calls the operator API with right and wrong tokens, and posts signed and badly
// signed bank transfers. Then every log line (stdout, at LOG_LEVEL=trace) and stderr, and every byte
// of the LMDB store, are searched for each secret. DEMO stays off (the harness passes DEMO=0): the demo
// banner prints a demo key on stderr on purpose.
import t from 'tap';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { start_server } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { sign_in } from './helpers/route-catalog.js';

// PINs above 65535 cannot be mistaken for a port number (the `listening` log line, webhook URLs with
// a port in the store), and none of them is a run of digits that a timestamp or a reference could
// contain on its own: searched as a standalone token, a match means the PIN itself is there.
const pin_first = '90817';
const pin_second = '73529';
const pin_by_operator = '99173';
const pin_wrong = '86402';
const password = `Correct-Horse-${randomBytes(9).toString('base64url')}`;
const password_wrong = `Wrong-Horse-${randomBytes(9).toString('base64url')}`;
const funding_secret = `funding-${randomBytes(18).toString('base64url')}`;
const admin_token_wrong = `wrong-${randomBytes(18).toString('base64url')}`;

const receiver = new WebhookReceiver();
const dashboard_receiver = new WebhookReceiver();
await receiver.start();
await dashboard_receiver.start();
t.teardown(async () => {
  await receiver.stop();
  await dashboard_receiver.stop();
});
const server = await start_server(t, { env: webhook_env({ FUNDING_WEBHOOK_SECRET: funding_secret, LOG_LEVEL: 'trace' }) });

interface Secret {
  what: string;
  value: string;
}
const secrets: Secret[] = [];
const pins = [pin_first, pin_second, pin_by_operator, pin_wrong];
let email = '';

function keep(what: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new Error(`no ${what} to keep`);
  secrets.push({ what, value });
  return value;
}

/** An API key and its random part (the part after bv_test_ / bv_live_). */
function keep_key(what: string, key: string | undefined): string {
  keep(what, key);
  keep(`${what} (random part)`, key!.replace(/^bv_(test|live)_/, ''));
  return key!;
}

function keep_webhook_secret(what: string, secret: string | undefined): string {
  keep(what, secret);
  keep(`${what} (random part)`, secret!.replace(/^whsec_/, ''));
  return secret!;
}

t.test('a session that handles every kind of secret', async (t) => {
  t.ok(pins.every((p) => Number(p) > 65_535 && p !== String(process.pid) && p !== String(server.pid)), 'the PINs cannot be mistaken for a port or a process id');
  keep('password', password);
  keep('wrong password', password_wrong);
  keep('funding secret', funding_secret);
  keep('operator token', server.admin_token);
  keep('wrong operator token', admin_token_wrong);
  keep('master key', readFileSync(join(server.data_dir, 'master.key'), 'utf8').trim());

  // The operator: an account with a PIN, keys, credits, a PIN change; and a wrong token.
  const refused = await server.admin('POST', '/admin/accounts', { name: 'x', email: 'x@example.ng', phone: '08012345678', password: 'whatever1', kyc_level: 1 }, admin_token_wrong);
  t.equal(refused.status, 401, 'a wrong operator token is refused');
  const account = await server.create_account({ password, pin: pin_first, kyc_level: 3 });
  email = account.email;
  const test_key = keep_key('test key by the operator', (await server.admin('POST', `/admin/accounts/${account.id}/keys`, { name: 'ops test', environment: 'test', rate_limit_per_minute: 100_000 })).body?.data?.api_key);
  keep_key('live key by the operator', (await server.admin('POST', `/admin/accounts/${account.id}/keys`, { name: 'ops live', environment: 'live' })).body?.data?.api_key);
  await server.credit(account.id, 'test', 200_000);

  // Through the API, with an X-Idempotency-Key: the answer carrying the key is kept for replays.
  const created = await server.api('POST', '/v1/keys', { key: test_key, idempotency_key: 'secrets-key-one', body: { name: 'api made', environment: 'test' } });
  t.equal(created.status, 201, 'POST /v1/keys creates a key');
  const api_key = keep_key('test key made through the API', created.body?.data?.api_key);
  const replayed = await server.api('POST', '/v1/keys', { key: test_key, idempotency_key: 'secrets-key-one', body: { name: 'api made', environment: 'test' } });
  t.equal(replayed.body?.data?.api_key, api_key, 'a replay shows the same key (kept sealed for replays)');
  const endpoint = await server.api('POST', '/v1/webhooks', { key: test_key, idempotency_key: 'secrets-hook-one', body: { url: receiver.url } });
  t.equal(endpoint.status, 201, 'POST /v1/webhooks registers an endpoint');
  receiver.secret = keep_webhook_secret('webhook secret made through the API', endpoint.body?.data?.secret);

  // The dashboard: a wrong password, a session, a key, an endpoint, a PIN change with a wrong then the right PIN.
  const wrong = await server.api('POST', '/dashboard/api/session', { body: { email: account.email, password: password_wrong } });
  t.equal(wrong.status, 401, 'a wrong dashboard password is refused');
  const session = await sign_in(server, account.email, password);
  keep('session cookie', session.cookie);
  keep('CSRF token', session.csrf);
  const dashboard_headers = { cookie: `bv_session=${session.cookie}`, 'x-csrf-token': session.csrf };
  const dashboard_key = await server.api('POST', '/dashboard/api/keys?environment=test', { headers: dashboard_headers, body: { name: 'dashboard made', environment: 'test' } });
  t.equal(dashboard_key.status, 201, 'the dashboard creates a key');
  keep_key('test key made in the dashboard', dashboard_key.body?.data?.api_key);
  const dashboard_hook = await server.api('POST', '/dashboard/api/webhooks?environment=test', { headers: dashboard_headers, body: { url: dashboard_receiver.url, events: ['transaction.failed'] } });
  t.equal(dashboard_hook.status, 201, 'the dashboard registers an endpoint');
  dashboard_receiver.secret = keep_webhook_secret('webhook secret made in the dashboard', dashboard_hook.body?.data?.secret);
  const pin_refused = await server.api('POST', '/dashboard/api/pin', { headers: dashboard_headers, body: { new_pin: pin_second, current_pin: pin_wrong } });
  t.equal(pin_refused.status, 403, 'a PIN change with a wrong current PIN is refused');
  const pin_changed = await server.api('POST', '/dashboard/api/pin', { headers: dashboard_headers, body: { new_pin: pin_second, current_pin: pin_first } });
  t.equal(pin_changed.status, 200, 'the dashboard changes the PIN');

  // Purchases: right PIN, wrong PIN, failing, and a refused body that is remembered under its key.
  const buy = (path: string, body: Record<string, unknown>, idempotency_key?: string) => server.api('POST', path, { key: test_key, body, ...(idempotency_key === undefined ? {} : { idempotency_key }) });
  t.equal((await buy('/v1/services/airtime', { network: 'mtn', phone: '08011111111', amount: 100, pin: pin_second }, 'secrets-buy-one')).status, 201, 'an airtime purchase with the PIN is delivered');
  t.equal((await buy('/v1/services/airtime', { network: 'mtn', phone: '08011111111', amount: 100, pin: pin_wrong }, 'secrets-buy-wrong')).status, 403, 'a purchase with a wrong PIN is refused');
  t.equal((await buy('/v1/services/airtime', { network: 'mtn', phone: '08022222222', amount: 100, pin: pin_second })).status, 422, 'a failing purchase is refunded');
  t.equal((await buy('/v1/services/airtime', { network: 'mtn', phone: 'not a phone', amount: 100, pin: pin_second }, 'secrets-buy-invalid')).status, 400, 'a refused purchase body is answered (and remembered)');
  t.equal((await buy('/v1/services/electricity', { disco: 'ikeja-electric', meter_number: '1111111111111', meter_type: 'prepaid', amount: 1000, pin: pin_second }, 'secrets-buy-power')).status, 201, 'an electricity purchase is delivered');

  // The operator sets another PIN; a purchase with it.
  const operator_pin = await server.admin('POST', `/admin/accounts/${account.id}/pin`, { pin: pin_by_operator });
  t.equal(operator_pin.status, 200, 'the operator sets a PIN');
  t.equal((await buy('/v1/services/airtime', { network: 'mtn', phone: '08011111111', amount: 50, pin: pin_by_operator })).status, 201, 'a purchase with the operator\'s PIN is delivered');

  // The bank partner: a signed notification and a badly signed one.
  const notice = Buffer.from(JSON.stringify({ reference: `BANK-${randomBytes(5).toString('hex')}`, account_id: account.id, amount: 1500, sender_name: 'Ada' }));
  const signature = keep('bank transfer signature', 'sha256=' + createHmac('sha256', funding_secret).update(notice).digest('hex'));
  const bad_signature = keep('wrong bank transfer signature', 'sha256=' + createHmac('sha256', 'not the secret').update(notice).digest('hex'));
  const credited = await server.api('POST', '/v1/funding/bank-transfer', { raw_body: notice, headers: { 'content-type': 'application/json', 'x-signature': signature } });
  t.equal(credited.status, 201, 'a signed bank transfer credits the live wallet');
  const forged = await server.api('POST', '/v1/funding/bank-transfer', { raw_body: notice, headers: { 'content-type': 'application/json', 'x-signature': bad_signature } });
  t.equal(forged.status, 401, 'a badly signed bank transfer is refused');

  // Sign out, sign in again, revoke a key, let the deliveries happen.
  const signed_out = await server.api('DELETE', '/dashboard/api/session', { headers: dashboard_headers });
  t.equal(signed_out.status, 200, 'the dashboard signs out');
  const again = await sign_in(server, account.email, password);
  keep('second session cookie', again.cookie);
  keep('second CSRF token', again.csrf);
  t.equal((await server.api('DELETE', `/v1/keys/${created.body.data.id}`, { key: test_key })).status, 200, 'a key is revoked');
  const delivered = [...await receiver.wait_for(3, 20_000), ...await dashboard_receiver.wait_for(1, 20_000)];
  t.ok(delivered.every((r) => r.service_signature_ok && r.standard_signature_ok), `webhook deliveries were signed with their endpoints' secrets (${delivered.length})`);
  t.ok(secrets.length >= 20, `the session handled ${secrets.length} secrets and ${pins.length} PINs`);

  // A clean stop flushes every log line before the files and logs are read.
  t.equal(await server.stop(), 0, 'the server stops cleanly');
});

/** Where a PIN would show in text: "pin":"90817"-like JSON, the word pin shortly before it, or the digits on their own. */
function pin_forms(pin: string): RegExp[] {
  return [
    new RegExp(`pin\\\\?"?\\s*[:=]\\s*\\\\?"?${pin}`, 'i'),
    new RegExp(`pin[^0-9]{0,40}${pin}`, 'i'),
    new RegExp(`(?<![0-9A-Za-z])${pin}(?![0-9A-Za-z])`),
  ];
}

t.test('no log line on stdout and nothing on stderr contains a secret', async (t) => {
  const lines = [...server.logs, ...server.stderr];
  t.ok(server.logs.length > 25, `the server logged the session (${server.logs.length} lines)`);
  for (const route of ['POST /dashboard/api/session', 'POST /v1/keys', 'POST /v1/services/airtime', 'POST /v1/funding/bank-transfer', 'POST /admin/accounts', 'POST /dashboard/api/pin']) {
    t.ok(server.logs.some((line) => line.includes(`"route":"${route}`)), `the log has the requests of ${route}`);
  }
  t.ok(server.logs.some((line) => line.includes(email)) === false, 'the log does not even carry the account\'s email');
  for (const secret of secrets) {
    const found = lines.find((line) => line.includes(secret.value));
    t.equal(found, undefined, `no log line contains the ${secret.what}`);
  }
  for (const pin of pins) {
    for (const form of pin_forms(pin)) {
      const found = lines.find((line) => form.test(line));
      t.equal(found, undefined, `no log line contains the PIN ${pin} as ${form}`);
    }
  }
});

/** Every byte of the LMDB store. */
function store_bytes(): Buffer {
  const parts: Buffer[] = [];
  for (const name of readdirSync(server.data_dir)) {
    if (name === 'master.key') continue;
    const path = join(server.data_dir, name);
    if (statSync(path).isFile()) parts.push(readFileSync(path));
  }
  return Buffer.concat(parts);
}

t.test('the store holds no API key, webhook secret, password, PIN, token or session cookie in plain text', async (t) => {
  const files = readdirSync(server.data_dir).sort();
  t.same(files.filter((f) => !['LOCK', 'data.mdb', 'lock.mdb', 'master.key'].includes(f)), [], `the data directory holds the store, its lock (a pid) and the master key only (${files.join(', ')})`);
  t.equal(statSync(join(server.data_dir, 'master.key')).mode & 0o777, 0o600, 'the master key file is readable by its owner only');
  const bytes = store_bytes();
  // Controls: the search finds what is stored, in the form it is stored.
  t.ok(bytes.includes(Buffer.from(email)), 'the store is searchable: the account\'s email is in it');
  const key_hash = createHash('sha256').update(secrets.find((s) => s.what === 'test key by the operator')!.value).digest('hex');
  t.ok(bytes.includes(Buffer.from(key_hash)), 'the store is searchable: the SHA-256 of an API key is in it');
  // CSRF tokens are not secrets without their session cookie and are kept as they are, to compare.
  for (const secret of secrets.filter((s) => !s.what.includes('CSRF'))) {
    t.notOk(bytes.includes(Buffer.from(secret.value, 'utf8')), `the store does not contain the ${secret.what}`);
  }
  for (const pin of pins) {
    const number = Number(pin);
    const uint32 = Buffer.alloc(5);
    uint32[0] = 0xce;
    uint32.writeUInt32BE(number, 1);
    const float64 = Buffer.alloc(9);
    float64[0] = 0xcb;
    float64.writeDoubleBE(number, 1);
    const forms: [string, Buffer][] = [
      ['a MessagePack string', Buffer.concat([Buffer.from([0xa5]), Buffer.from(pin)])],
      ['a JSON string', Buffer.from(`"${pin}"`)],
      ['"pin":"…" JSON', Buffer.from(`"pin":"${pin}"`)],
      ['a MessagePack uint32', uint32],
      ['a MessagePack float64', float64],
    ];
    for (const [form, needle] of forms) t.notOk(bytes.includes(needle), `the store does not contain the PIN ${pin} as ${form}`);
    const text = bytes.toString('latin1');
    for (const pattern of pin_forms(pin)) t.notOk(pattern.test(text), `the store does not contain the PIN ${pin} as ${pattern}`);
  }
});
