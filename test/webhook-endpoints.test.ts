// /v1/webhooks: registering, listing and deleting endpoints (docs/decisions.md "Webhooks"). This server runs
// without WEBHOOK_ALLOW_PRIVATE_TARGETS, as in production, so endpoints here use public IP literals
// (TEST-NET-3, 203.0.113.0/24), which need no DNS; nothing is ever delivered to them in this file.
import t from 'tap';
import { start_server, type ApiResponse, type TestServer } from './helpers/server.js';
import { webhook_env } from './helpers/webhook-receiver.js';

const server = await start_server(t, { env: { LOG_LEVEL: 'warn' } });

const all_kinds = ['transaction.completed', 'transaction.failed', 'transaction.processing', 'transaction.delayed', 'transaction.reversed', 'wallet.credited', 'wallet.debited', 'wallet.reversed', 'wallet.low_balance', 'batch.completed'];
const iso_us_pattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
let sequence = 0;

type Reseller = Awaited<ReturnType<TestServer['reseller']>>;

function reseller(on: TestServer = server, key: Record<string, unknown> = {}): Promise<Reseller> {
  return on.reseller(0, {}, { rate_limit_per_minute: 1_000_000, ...key });
}

function public_url(): string {
  return `https://203.0.113.${1 + (++sequence % 250)}/hooks/${sequence}`;
}

function register(key: string, body: Record<string, unknown>, on: TestServer = server, idempotency_key?: string): Promise<ApiResponse> {
  return on.api('POST', '/v1/webhooks', { key, body, idempotency_key });
}

function code_of(response: ApiResponse): string | undefined {
  return response.body?.error?.code;
}

t.test('registering an endpoint answers 201 with its secret, shown in that answer only', async (t) => {
  const account = await reseller();
  const url = public_url();
  const created = await register(account.key, { url, description: 'orders service' });
  t.equal(created.status, 201, `registered: ${created.text}`);
  const data = created.body.data;
  t.ok(Number.isInteger(data.id) && data.id > 0, 'the endpoint has an integer id');
  t.equal(data.url, url, 'the URL is as given');
  t.equal(data.environment, 'test', 'a test key registers a test endpoint');
  t.same(data.events, all_kinds, 'without events, the endpoint gets every kind, wallet.low_balance included');
  t.equal(data.description, 'orders service', 'the description is kept');
  t.match(data.secret, /^whsec_[0-9A-Za-z]{32}$/, 'the secret is whsec_ and 32 base62 characters');
  t.ok(typeof data.secret_hint === 'string' && data.secret_hint.endsWith(data.secret.slice(-4)), `the hint ends like the secret (${data.secret_hint})`);
  t.notOk(data.secret_hint.includes(data.secret.slice(6, 30)), 'the hint does not give the secret away');
  t.equal(data.enabled, true, 'a new endpoint is enabled');
  t.equal(data.disabled_reason, null, 'with no disabled_reason');
  t.match(data.created_at, iso_us_pattern, 'created_at is ISO 8601 UTC with microseconds');
  t.equal(created.body.success, true, 'the envelope says success');
  t.ok(typeof created.body.request_id === 'string', 'the envelope has a request_id');

  const listed = await server.api('GET', '/v1/webhooks', { key: account.key });
  t.equal(listed.status, 200, 'the endpoints are listed');
  t.equal(listed.body.data.webhooks.length, 1, 'one endpoint');
  const [view] = listed.body.data.webhooks;
  const { secret, ...without_secret } = data;
  t.same(view, without_secret, 'the list shows the endpoint as registered, without its secret');
  t.notOk(listed.text.includes(secret), 'the secret appears nowhere in the list');
  t.notOk('secret' in view, 'the list has no secret field');

  const other = await register(account.key, { url: public_url() });
  t.not(other.body.data.secret, secret, 'each endpoint has its own secret');
});

t.test('the URL must be an absolute https:// URL of a public host', async (t) => {
  const account = await reseller();
  const rows: [string, unknown][] = [
    ['a plain http:// URL', 'http://203.0.113.9/hooks'],
    ['an http:// URL to a public name', 'http://example.com/hooks'],
    ['an ftp:// URL', 'ftp://203.0.113.9/hooks'],
    ['text that is not a URL', 'not a url'],
    ['a relative path', '/hooks'],
    ['an empty string', ''],
    ['a number', 42],
    ['a URL with credentials', 'https://user:secret@203.0.113.9/hooks'],
    ['a URL over 2048 characters', `https://203.0.113.9/${'a'.repeat(2048)}`],
    ['the loopback address', 'https://127.0.0.1:8443/hooks'],
    ['another loopback address', 'https://127.8.9.10/hooks'],
    ['localhost', 'https://localhost/hooks'],
    ['localhost with a port', 'https://localhost:8443/hooks'],
    ['the IPv6 loopback', 'https://[::1]:8443/hooks'],
    ['a 10/8 private address', 'https://10.1.2.3/hooks'],
    ['a 172.16/12 private address', 'https://172.20.0.5/hooks'],
    ['a 192.168/16 private address', 'https://192.168.1.20/hooks'],
    ['the link-local metadata address', 'https://169.254.169.254/latest/meta-data'],
    ['an IPv6 unique-local address', 'https://[fd00::1]/hooks'],
    ['an IPv6 link-local address', 'https://[fe80::1]/hooks'],
    ['the unspecified address', 'https://0.0.0.0/hooks'],
    ['a host that does not resolve', 'https://no-such-host.invalid/hooks'],
  ];
  for (const [what, url] of rows) {
    const response = await register(account.key, { url });
    t.equal(response.status, 400, `${what} is refused with 400`);
    t.equal(code_of(response), 'validation.failed', `${what} is validation.failed`);
    t.same(response.body?.error?.details?.map((d: any) => d.field), ['url'], `${what}: the details name the field url`);
  }
  const missing = await register(account.key, {});
  t.equal(missing.status, 400, 'a body without url is refused with 400');
  t.same(missing.body?.error?.details?.map((d: any) => d.field), ['url'], 'the details name the missing url');
  const listed = await server.api('GET', '/v1/webhooks', { key: account.key });
  t.same(listed.body.data.webhooks, [], 'none of the refused URLs was registered');
  const accepted = await register(account.key, { url: 'https://203.0.113.77:8443/hooks?source=billvend' });
  t.equal(accepted.status, 201, 'a public HTTPS address with a port and a query is accepted');
});

t.test('with WEBHOOK_ALLOW_PRIVATE_TARGETS=1 private hosts are accepted, but http:// still is not', async (t) => {
  const allowing = await start_server(t, { env: webhook_env({ LOG_LEVEL: 'warn' }) });
  const account = await reseller(allowing);
  const rows: [string, string, number][] = [
    ['localhost', 'https://localhost:8443/hooks', 201],
    ['the loopback address', 'https://127.0.0.1:8443/hooks', 201],
    ['a private address', 'https://10.1.2.3/hooks', 201],
    ['a plain http:// URL to localhost', 'http://localhost:8443/hooks', 400],
  ];
  for (const [what, url, status] of rows) {
    const response = await register(account.key, { url }, allowing);
    t.equal(response.status, status, `${what} answers ${status} when private targets are allowed`);
    if (status === 400) t.same(response.body?.error?.details?.map((d: any) => d.field), ['url'], `${what}: the details name the field url`);
  }
});

t.test('event kinds must be a non-empty list of distinct known kinds', async (t) => {
  const account = await reseller();
  const rows: [string, unknown, number][] = [
    ['one kind', ['wallet.credited'], 201],
    ['two kinds', ['transaction.completed', 'transaction.failed'], 201],
    ['every default kind, listed', all_kinds, 201],
    ['an empty list', [], 400],
    ['an unknown kind', ['wallet.topped_up'], 400],
    ['a known and an unknown kind', ['wallet.credited', 'payout.sent'], 400],
    ['a repeated kind', ['wallet.credited', 'wallet.credited'], 400],
    ['a string instead of a list', 'wallet.credited', 400],
  ];
  for (const [what, events, status] of rows) {
    const response = await register(account.key, { url: public_url(), events });
    t.equal(response.status, status, `${what} answers ${status}`);
    if (status === 201) t.same(response.body.data.events, events, `${what}: the endpoint keeps exactly those kinds`);
    else {
      t.equal(code_of(response), 'validation.failed', `${what} is validation.failed`);
      t.ok(response.body?.error?.details?.some((d: any) => d.field.startsWith('events')), `${what}: the details name the field events`);
    }
  }
  const long = await register(account.key, { url: public_url(), description: 'x'.repeat(201) });
  t.equal(long.status, 400, 'a description over 200 characters is refused');
  const listed = await server.api('GET', '/v1/webhooks', { key: account.key });
  t.equal(listed.body.data.webhooks.length, 3, 'only the three valid registrations exist');
});

t.test('an environment holds at most 10 endpoints: the 11th is 422 webhooks.limit_reached', async (t) => {
  const account = await reseller();
  const ids: number[] = [];
  for (let i = 0; i < 10; i++) {
    const response = await register(account.key, { url: public_url() });
    t.equal(response.status, 201, `endpoint ${i + 1} of 10 is registered`);
    ids.push(response.body.data.id);
  }
  const eleventh = await register(account.key, { url: public_url() });
  t.equal(eleventh.status, 422, 'the 11th endpoint is refused with 422');
  t.equal(code_of(eleventh), 'webhooks.limit_reached', 'the 11th endpoint is webhooks.limit_reached');
  const listed = await server.api('GET', '/v1/webhooks', { key: account.key });
  t.equal(listed.body.data.webhooks.length, 10, 'still 10 endpoints');

  const live = await server.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  const live_one = await register(live.api_key, { url: public_url() });
  t.equal(live_one.status, 201, 'the live environment of the same account has its own 10');
  t.equal(live_one.body.data.environment, 'live', 'a live key registers a live endpoint');

  const deleted = await server.api('DELETE', `/v1/webhooks/${ids[0]}`, { key: account.key });
  t.equal(deleted.status, 200, 'one test endpoint is deleted');
  const again = await register(account.key, { url: public_url() });
  t.equal(again.status, 201, 'after a delete there is room for one more');
  const full = await register(account.key, { url: public_url() });
  t.equal(code_of(full), 'webhooks.limit_reached', 'and then the environment is full again');
});

t.test('DELETE removes the key\'s own endpoint; any other id is 404 webhooks.not_found', async (t) => {
  const account = await reseller();
  const stranger = await reseller();
  const live = await server.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  const keep = (await register(account.key, { url: public_url() })).body.data.id;
  const doomed = (await register(account.key, { url: public_url() })).body.data.id;

  const rows: [string, string, string][] = [
    ['another account\'s key', stranger.key, `/v1/webhooks/${keep}`],
    ['the account\'s live key, for a test endpoint', live.api_key, `/v1/webhooks/${keep}`],
    ['an id that was never issued', account.key, '/v1/webhooks/987654'],
    ['an id that is not a number', account.key, '/v1/webhooks/abc'],
  ];
  for (const [what, key, path] of rows) {
    const response = await server.api('DELETE', path, { key });
    t.equal(response.status, 404, `DELETE with ${what} is 404`);
    t.equal(code_of(response), 'webhooks.not_found', `DELETE with ${what} is webhooks.not_found`);
  }
  const stranger_reads = await server.api('GET', `/v1/webhooks/${keep}/deliveries`, { key: stranger.key });
  t.equal(code_of(stranger_reads), 'webhooks.not_found', 'another account cannot read the endpoint\'s deliveries');

  const deleted = await server.api('DELETE', `/v1/webhooks/${doomed}`, { key: account.key });
  t.equal(deleted.status, 200, 'the owner deletes an endpoint with 200');
  t.equal(deleted.body?.data, null, 'a delete answers data null');
  const listed = await server.api('GET', '/v1/webhooks', { key: account.key });
  t.same(listed.body.data.webhooks.map((w: any) => w.id), [keep], 'the deleted endpoint is gone and the other one stays, untouched by the refused deletes');
  const twice = await server.api('DELETE', `/v1/webhooks/${doomed}`, { key: account.key });
  t.equal(code_of(twice), 'webhooks.not_found', 'deleting it again is webhooks.not_found');
  const reads = await server.api('GET', `/v1/webhooks/${doomed}/deliveries`, { key: account.key });
  t.equal(code_of(reads), 'webhooks.not_found', 'a deleted endpoint has no deliveries to read');
});

t.test('webhooks need a full-access key: narrower scopes get 403 auth.insufficient_scope', async (t) => {
  const account = await reseller();
  const endpoint = (await register(account.key, { url: public_url() })).body.data.id;
  const scope_sets = [['wallet:read'], ['services:purchase', 'transactions:read'], ['keys:manage']];
  for (const scopes of scope_sets) {
    const narrow = await server.create_key(account.id, { environment: 'test', scopes, rate_limit_per_minute: 1_000_000 });
    const rows: [string, string, unknown][] = [
      ['GET', '/v1/webhooks', undefined],
      ['POST', '/v1/webhooks', { url: public_url() }],
      ['DELETE', `/v1/webhooks/${endpoint}`, undefined],
      ['GET', `/v1/webhooks/${endpoint}/deliveries`, undefined],
      ['POST', `/v1/webhooks/${endpoint}/deliveries/1/replay`, undefined],
    ];
    for (const [method, path, body] of rows) {
      const response = await server.api(method, path, { key: narrow.api_key, body });
      t.equal(response.status, 403, `a key with scopes ${scopes.join(', ')} gets 403 for ${method} ${path}`);
      t.equal(code_of(response), 'auth.insufficient_scope', `a key with scopes ${scopes.join(', ')} gets auth.insufficient_scope for ${method} ${path}`);
    }
  }
  const anonymous = await server.api('GET', '/v1/webhooks', {});
  t.equal(anonymous.status, 401, 'without a key: 401');
  t.equal(code_of(anonymous), 'auth.invalid_key', 'without a key: auth.invalid_key');
  const listed = await server.api('GET', '/v1/webhooks', { key: account.key });
  t.same(listed.body.data.webhooks.map((w: any) => w.id), [endpoint], 'the refused requests neither added nor deleted an endpoint');
});

t.test('a registration repeated with the same X-Idempotency-Key returns the first endpoint and its secret', async (t) => {
  const account = await reseller();
  const body = { url: public_url(), events: ['wallet.credited'] };
  const first = await register(account.key, body, server, 'hook-1');
  t.equal(first.status, 201, 'the first registration is 201');
  const repeat = await register(account.key, body, server, 'hook-1');
  t.equal(repeat.status, 201, 'the repeat answers the original 201');
  t.equal(repeat.headers.get('idempotent-replayed'), 'true', 'the repeat is marked Idempotent-Replayed');
  t.same(repeat.body.data, first.body.data, 'the repeat returns the same endpoint, secret included');
  const reused = await register(account.key, { ...body, url: public_url() }, server, 'hook-1');
  t.equal(reused.status, 422, 'the same key with another body is 422');
  t.equal(code_of(reused), 'idempotency.key_reused', 'the same key with another body is idempotency.key_reused');
  const listed = await server.api('GET', '/v1/webhooks', { key: account.key });
  t.equal(listed.body.data.webhooks.length, 1, 'one endpoint exists');
});
