// API key authentication and authorisation (docs/spec.md section 5, section 7 codes, section 8 rate limit;
// docs/decisions.md "Accounts, PIN, limits" and "Scopes, allowlists, keys"; docs/api.md "Limits").
import t from 'tap';
import { start_server, type ApiResponse, type TestServer } from './helpers/server.js';
import { base62 } from './helpers/fixtures-http.js';
import { start_in_process } from './helpers/in-process.js';

const hour_ms = 60 * 60 * 1000;

const server = await start_server(t);

function code_of(response: ApiResponse): string | undefined {
  return response.body?.error?.code;
}

/** A fresh account with one test key made by the operator with the given options. */
async function account_with_key(on: TestServer, key: Record<string, unknown> = {}) {
  const account = await on.create_account();
  const made = await on.create_key(account.id, key);
  return { ...account, key: made.api_key, key_id: made.id };
}

t.test('a missing or malformed Authorization header is 401 auth.invalid_key', async (t) => {
  const rows: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['Basic credentials', { authorization: 'Basic x' }],
    ['Basic with a real-looking key', { authorization: `Basic bv_test_${base62(40)}` }],
    ['Bearer with nothing', { authorization: 'Bearer' }],
    ['Bearer with only spaces', { authorization: 'Bearer    ' }],
    ['a bare key without Bearer', { authorization: `bv_test_${base62(40)}` }],
    ['two tokens', { authorization: `Bearer bv_test_${base62(40)} extra` }],
  ];
  for (const [what, headers] of rows) {
    const response = await server.api('GET', '/v1/wallet', { headers });
    t.equal(response.status, 401, `${what} is 401`);
    t.equal(code_of(response), 'auth.invalid_key', `${what} is auth.invalid_key`);
  }
});

t.test('an unknown, garbage or revoked key is 401 auth.key_not_found', async (t) => {
  const holder = await account_with_key(server);
  const doomed = await server.create_key(holder.id, { name: 'doomed' });
  const revoked = await server.api('DELETE', `/v1/keys/${doomed.id}`, { key: holder.key });
  t.equal(revoked.status, 200, 'the key to revoke is revoked');
  const rows: [string, string][] = [
    ['a well-formed unknown test key', `bv_test_${base62(40)}`],
    ['a well-formed unknown live key', `bv_live_${base62(40)}`],
    ['a garbage token', 'garbage'],
    ['a token with another prefix', `sk_live_${base62(40)}`],
    ['a known key with one character changed', holder.key.slice(0, -1) + (holder.key.endsWith('a') ? 'b' : 'a')],
    ['a revoked key', doomed.api_key],
  ];
  for (const [what, key] of rows) {
    const response = await server.api('GET', '/v1/wallet', { key });
    t.equal(response.status, 401, `${what} is 401`);
    t.equal(code_of(response), 'auth.key_not_found', `${what} is auth.key_not_found`);
  }
  const still = await server.api('GET', '/v1/wallet', { key: holder.key });
  t.equal(still.status, 200, 'the account\'s other key still works');
});

t.test('a key past its expires_at is 401 auth.key_expired: it works up to the millisecond before and is refused from that millisecond on', async (t) => {
  // On a manual clock (test/helpers/in-process.ts) the key lives a real hour and the test moves
  // through it, to the edge, which a sleep could only overshoot.
  const on_clock = await start_in_process(t);
  const account = await on_clock.create_account();
  const expires_ms = on_clock.clock.now_ms() + hour_ms;
  const made = await on_clock.admin('POST', `/admin/accounts/${account.id}/keys`, { name: 'short-lived', environment: 'test', expires_at: new Date(expires_ms).toISOString() });
  t.equal(made.status, 201, 'the operator creates a key expiring in an hour');
  t.equal(Date.parse(made.body.data.expires_at), expires_ms, 'the key shows its expiry');
  const before = await on_clock.api('GET', '/v1/wallet', { key: made.body.data.api_key });
  t.equal(before.status, 200, 'the key works before it expires');
  on_clock.clock.advance(expires_ms - 1 - on_clock.clock.now_ms());
  const last_moment = await on_clock.api('GET', '/v1/wallet', { key: made.body.data.api_key });
  t.equal(last_moment.status, 200, 'the key still works one millisecond before its expiry');
  on_clock.clock.advance(1);
  const after = await on_clock.api('GET', '/v1/wallet', { key: made.body.data.api_key });
  t.equal(after.status, 401, 'the key is refused at its expiry');
  t.equal(code_of(after), 'auth.key_expired', 'the refusal is auth.key_expired');
});

t.test('a key\'s IP allowlist admits or refuses the socket peer (127.0.0.1)', async (t) => {
  const rows: [string[], number][] = [
    [['10.0.0.0/8'], 403],
    [['127.0.0.0/8'], 200],
    [['127.0.0.1'], 200],
    [['127.0.0.1/32'], 200],
    [['127.0.0.2'], 403],
    [['::1/128'], 403],
    [['::1'], 403],
    [['::ffff:127.0.0.1'], 200],
    [['10.0.0.0/8', '192.168.0.0/16', '127.0.0.1'], 200],
    [['0.0.0.0/0'], 200],
  ];
  for (const [allowlist, status] of rows) {
    const account = await account_with_key(server, { ip_allowlist: allowlist });
    const response = await server.api('GET', '/v1/wallet', { key: account.key });
    t.equal(response.status, status, `allowlist ${JSON.stringify(allowlist)} answers ${status} from 127.0.0.1`);
    if (status === 403) t.equal(code_of(response), 'auth.ip_not_allowed', `allowlist ${JSON.stringify(allowlist)} refuses with auth.ip_not_allowed`);
  }
});

t.test('X-Forwarded-For counts only when the peer is a trusted proxy', async (t) => {
  const proxied = await start_server(t, { env: { TRUSTED_PROXIES: '127.0.0.1' } });
  const behind = await account_with_key(proxied, { ip_allowlist: ['203.0.113.0/24'] });
  const rows: [string, Record<string, string>, number][] = [
    ['a client in the allowlist', { 'x-forwarded-for': '203.0.113.7' }, 200],
    ['a client in the allowlist behind two proxies', { 'x-forwarded-for': '198.51.100.1, 203.0.113.7' }, 200],
    ['a client outside the allowlist', { 'x-forwarded-for': '198.51.100.9' }, 403],
    ['a spoofed allowed address before the real client', { 'x-forwarded-for': '203.0.113.7, 198.51.100.9' }, 403],
    ['no X-Forwarded-For (the proxy itself)', {}, 403],
  ];
  for (const [what, headers, status] of rows) {
    const response = await proxied.api('GET', '/v1/wallet', { key: behind.key, headers });
    t.equal(response.status, status, `with TRUSTED_PROXIES, ${what} gets ${status}`);
    if (status === 403) t.equal(code_of(response), 'auth.ip_not_allowed', `with TRUSTED_PROXIES, ${what} is auth.ip_not_allowed`);
  }

  const direct = await account_with_key(server, { ip_allowlist: ['203.0.113.0/24'] });
  const untrusted = await server.api('GET', '/v1/wallet', { key: direct.key, headers: { 'x-forwarded-for': '203.0.113.7' } });
  t.equal(untrusted.status, 403, 'without TRUSTED_PROXIES the same X-Forwarded-For is ignored');
  t.equal(code_of(untrusted), 'auth.ip_not_allowed', 'and the peer address is refused');
});

t.test('requests refused by the IP allowlist do not use the key\'s rate quota', async (t) => {
  const proxied = await start_server(t, { env: { TRUSTED_PROXIES: '127.0.0.1' } });
  const account = await account_with_key(proxied, { ip_allowlist: ['203.0.113.0/24'], rate_limit_per_minute: 5 });
  for (let i = 0; i < 8; i++) {
    const refused = await proxied.api('GET', '/v1/wallet', { key: account.key, headers: { 'x-forwarded-for': '198.51.100.9' } });
    t.equal(refused.status, 403, `refused request ${i + 1} from outside the allowlist is 403`);
  }
  for (let i = 0; i < 5; i++) {
    const allowed = await proxied.api('GET', '/v1/wallet', { key: account.key, headers: { 'x-forwarded-for': '203.0.113.7' } });
    t.equal(allowed.status, 200, `allowed request ${i + 1} of 5 is served`);
    t.equal(allowed.headers.get('x-ratelimit-remaining'), String(4 - i), `allowed request ${i + 1} leaves ${4 - i}`);
  }
  const over = await proxied.api('GET', '/v1/wallet', { key: account.key, headers: { 'x-forwarded-for': '203.0.113.7' } });
  t.equal(over.status, 429, 'the 6th allowed request is over the limit of 5');
});

t.test('a key without the needed scope is 403 auth.insufficient_scope', async (t) => {
  const account = await account_with_key(server, { scopes: ['wallet:read'] });
  const rows: [string, string, number, string | null][] = [
    ['GET', '/v1/keys', 403, 'auth.insufficient_scope'],
    ['POST', '/v1/keys', 403, 'auth.insufficient_scope'],
    ['DELETE', `/v1/keys/${account.key_id}`, 403, 'auth.insufficient_scope'],
    ['GET', '/v1/wallet', 200, null],
    ['GET', '/v1/wallet/transactions', 200, null],
    ['GET', '/v1/account', 200, null],
  ];
  for (const [method, path, status, code] of rows) {
    const body = method === 'POST' ? { name: 'x', environment: 'test' } : undefined;
    const response = await server.api(method, path, { key: account.key, body });
    t.equal(response.status, status, `a wallet:read key gets ${status} for ${method} ${path}`);
    if (code !== null) t.equal(code_of(response), code, `a wallet:read key gets ${code} for ${method} ${path}`);
  }
  const still = await server.api('GET', '/v1/wallet', { key: account.key });
  t.equal(still.status, 200, 'the refused DELETE did not revoke the key');
});

t.test('the 61st request in a minute is 429 rate_limit.exceeded, with X-RateLimit headers counting down', async (t) => {
  const account = await account_with_key(server);
  const first_at_s = Date.now() / 1000;
  let reset_seen: string | null = null;
  for (let i = 0; i < 60; i++) {
    const response = await server.api('GET', '/v1/wallet', { key: account.key });
    if (response.status !== 200) {
      t.fail(`request ${i + 1} of 60 should be 200, got ${response.status} ${response.text}`);
      return;
    }
    t.equal(response.headers.get('x-ratelimit-limit'), '60', `request ${i + 1} has X-RateLimit-Limit 60`);
    t.equal(response.headers.get('x-ratelimit-remaining'), String(59 - i), `request ${i + 1} has X-RateLimit-Remaining ${59 - i}`);
    const reset = response.headers.get('x-ratelimit-reset');
    if (i === 0) {
      t.match(reset, /^\d+$/, 'X-RateLimit-Reset is Unix seconds');
      const ahead_s = Number(reset) - first_at_s;
      t.ok(ahead_s > 58 && ahead_s <= 61, `X-RateLimit-Reset is about 60 s ahead (${ahead_s.toFixed(1)} s)`);
      reset_seen = reset;
    } else if (reset !== reset_seen) {
      t.fail(`X-RateLimit-Reset moved within the window: ${reset_seen} then ${reset}`);
    }
  }
  const over = await server.api('GET', '/v1/wallet', { key: account.key });
  t.equal(over.status, 429, 'the 61st request is 429');
  t.equal(code_of(over), 'rate_limit.exceeded', 'the 61st request is rate_limit.exceeded');
  const retry_after = over.headers.get('retry-after') ?? '';
  t.match(retry_after, /^\d+$/, 'Retry-After is whole seconds');
  t.ok(Number(retry_after) >= 1 && Number(retry_after) <= 60, `Retry-After is between 1 and 60 (${retry_after})`);
  t.equal(over.headers.get('x-ratelimit-limit'), '60', 'the 429 has X-RateLimit-Limit 60');
  t.equal(over.headers.get('x-ratelimit-remaining'), '0', 'the 429 has X-RateLimit-Remaining 0');
  t.equal(over.headers.get('x-ratelimit-reset'), reset_seen, 'the 429 has the window\'s X-RateLimit-Reset');
  const again = await server.api('GET', '/v1/account', { key: account.key });
  t.equal(again.status, 429, 'the limit covers every route of the key');
});

t.test('an operator override of 5 requests per minute makes the 6th a 429', async (t) => {
  const account = await account_with_key(server, { rate_limit_per_minute: 5 });
  for (let i = 0; i < 5; i++) {
    const response = await server.api('GET', '/v1/wallet', { key: account.key });
    t.equal(response.status, 200, `request ${i + 1} of 5 is served`);
    t.equal(response.headers.get('x-ratelimit-limit'), '5', `request ${i + 1} has X-RateLimit-Limit 5`);
  }
  const over = await server.api('GET', '/v1/wallet', { key: account.key });
  t.equal(over.status, 429, 'the 6th request is 429');
  t.equal(code_of(over), 'rate_limit.exceeded', 'the 6th request is rate_limit.exceeded');
  t.match(over.headers.get('retry-after') ?? '', /^\d+$/, 'the 429 carries Retry-After');
});

t.test('another key of the same account has its own quota', async (t) => {
  const account = await account_with_key(server, { rate_limit_per_minute: 5 });
  const second = await server.create_key(account.id, { name: 'second', rate_limit_per_minute: 5 });
  for (let i = 0; i < 5; i++) await server.api('GET', '/v1/wallet', { key: account.key });
  const over = await server.api('GET', '/v1/wallet', { key: account.key });
  t.equal(over.status, 429, 'the first key has used its quota');
  const other = await server.api('GET', '/v1/wallet', { key: second.api_key });
  t.equal(other.status, 200, 'the second key is served');
  t.equal(other.headers.get('x-ratelimit-remaining'), '4', 'the second key has 4 of 5 left');
});
