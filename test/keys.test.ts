// API keys through the public API (docs/spec.md section 2 "API key", section 4 "API keys", section 5;
// docs/decisions.md "Names", "Scopes, allowlists, keys" and "Keys and the PIN in detail"; docs/api.md "Limits").
import t from 'tap';
import { start_server } from './helpers/server.js';

const server = await start_server(t);
const key_pattern = { live: /^bv_live_[0-9A-Za-z]{32,}$/, test: /^bv_test_[0-9A-Za-z]{32,}$/ };

t.test('POST /v1/keys answers 201 with the secret api_key and a message to save it', async (t) => {
  const account = await server.reseller(0);
  const test_key = await server.api('POST', '/v1/keys', { key: account.key, body: { name: 'pos fleet', environment: 'test' } });
  t.equal(test_key.status, 201, 'creating a test key is 201');
  for (const field of ['id', 'name', 'api_key', 'environment', 'created_at']) {
    t.ok(Object.prototype.hasOwnProperty.call(test_key.body.data, field), `the answer has ${field}`);
  }
  t.match(test_key.body.data.api_key, key_pattern.test, 'a test key is bv_test_ and at least 32 base62 characters');
  t.equal(test_key.body.data.environment, 'test', 'environment is test');
  t.equal(test_key.body.data.name, 'pos fleet', 'the name is kept');
  t.type(test_key.body.data.id, 'number', 'id is an integer');
  t.match(test_key.body.data.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/, 'created_at is ISO 8601 UTC with microseconds');
  t.type(test_key.body.message, 'string', 'the answer has a message');
  t.match(test_key.body.message, /save/i, 'the message says to save the key');

  const works = await server.api('GET', '/v1/account', { key: test_key.body.data.api_key });
  t.equal(works.status, 200, 'the new key works at once');
  t.equal(works.body.data.id, account.id, 'the new key belongs to the same account');

  const live_owner = await server.create_key(account.id, { name: 'live owner', environment: 'live' });
  const live_key = await server.api('POST', '/v1/keys', { key: live_owner.api_key, body: { name: 'live one' } });
  t.equal(live_key.status, 201, 'a live key creates a live key (environment defaults to live)');
  t.match(live_key.body.data.api_key, key_pattern.live, 'a live key is bv_live_ and at least 32 base62 characters');
  t.equal(live_key.body.data.environment, 'live', 'environment is live');
});

t.test('GET /v1/keys never contains a secret and shows last_used_at after use', async (t) => {
  const account = await server.reseller(0);
  const created = await server.api('POST', '/v1/keys', { key: account.key, body: { name: 'listed', environment: 'test' } });
  t.equal(created.status, 201, 'a key was created');
  const secret: string = created.body.data.api_key;

  const before = await server.api('GET', '/v1/keys', { key: account.key });
  t.equal(before.status, 200, 'the list is 200');
  t.equal(before.body.data.keys.length, 2, 'the list has both active keys');
  t.notOk(before.text.includes(secret), 'the list text does not contain the new secret');
  t.notOk(before.text.includes(account.key), 'the list text does not contain the caller\'s secret');
  t.notOk(before.text.includes(secret.slice(8, 30)), 'the list text does not contain a long part of the secret');
  const listed = before.body.data.keys.find((k: { id: number }) => k.id === created.body.data.id);
  t.ok(listed, 'the new key is listed');
  t.notOk('api_key' in listed, 'a listed key has no api_key field');
  for (const field of ['id', 'name', 'environment', 'last_used_at', 'created_at']) {
    t.ok(Object.prototype.hasOwnProperty.call(listed, field), `a listed key has ${field}`);
  }
  t.equal(listed.last_used_at, null, 'an unused key has last_used_at null');

  const used_at_ms = Date.now();
  const use = await server.api('GET', '/v1/wallet', { key: secret });
  t.equal(use.status, 200, 'the new key is used');
  const after = await server.api('GET', '/v1/keys', { key: account.key });
  const used = after.body.data.keys.find((k: { id: number }) => k.id === created.body.data.id);
  t.match(used.last_used_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+Z$/, 'last_used_at is an ISO 8601 UTC time after use');
  t.ok(Math.abs(Date.parse(used.last_used_at) - used_at_ms) < 5000, 'last_used_at is the time of use');
  t.notOk(after.text.includes(secret), 'the list text still does not contain the secret');
});

t.test('a key name may be 100 characters (code points) and not 101', async (t) => {
  const account = await server.reseller(0);
  const rows: [string, string, number][] = [
    ['100 ASCII characters', 'n'.repeat(100), 201],
    ['101 ASCII characters', 'n'.repeat(101), 400],
    ['100 emoji', '🔑'.repeat(100), 201],
    ['101 emoji', '🔑'.repeat(101), 400],
    ['an empty name', '', 400],
  ];
  for (const [what, name, status] of rows) {
    const response = await server.api('POST', '/v1/keys', { key: account.key, body: { name, environment: 'test' } });
    t.equal(response.status, status, `${what} answers ${status}`);
    if (status === 201) {
      t.equal(response.body.data.name, name, `${what} is kept as sent`);
    } else {
      t.equal(response.body?.error?.code, 'validation.failed', `${what} is validation.failed`);
      t.ok(response.body?.error?.details?.some((d: { field: string }) => d.field === 'name'), `${what} names the field "name" in details`);
    }
  }
  const missing = await server.api('POST', '/v1/keys', { key: account.key, body: { environment: 'test' } });
  t.equal(missing.status, 400, 'a missing name is 400');
  t.same(missing.body?.error?.details, [{ field: 'name', message: 'is required' }], 'a missing name is named in details');
});

t.test('the 5th active key can be created and the 6th is 422 keys.limit_reached, across both environments', async (t) => {
  const account = await server.reseller(0);
  await server.create_key(account.id, { name: 'live by operator', environment: 'live' });
  const made: number[] = [];
  for (let n = 3; n <= 5; n++) {
    const response = await server.api('POST', '/v1/keys', { key: account.key, body: { name: `key ${n}`, environment: 'test' } });
    t.equal(response.status, 201, `active key ${n} of 5 is created`);
    made.push(response.body.data.id);
  }
  const sixth = await server.api('POST', '/v1/keys', { key: account.key, body: { name: 'key 6', environment: 'test' } });
  t.equal(sixth.status, 422, 'the 6th active key is 422');
  t.equal(sixth.body?.error?.code, 'keys.limit_reached', 'the 6th active key is keys.limit_reached');
  const list = await server.api('GET', '/v1/keys', { key: account.key });
  t.equal(list.body.data.keys.length, 5, 'the account has exactly 5 active keys');

  const by_operator = await server.admin('POST', `/admin/accounts/${account.id}/keys`, { name: 'operator 6th', environment: 'test' });
  t.equal(by_operator.status, 422, 'the operator cannot pass the limit either');

  const revoked = await server.api('DELETE', `/v1/keys/${made[0]}`, { key: account.key });
  t.equal(revoked.status, 200, 'one key is revoked');
  const replacement = await server.api('POST', '/v1/keys', { key: account.key, body: { name: 'replacement', environment: 'test' } });
  t.equal(replacement.status, 201, 'after a revocation a new key can be created');
  const full = await server.api('POST', '/v1/keys', { key: account.key, body: { name: 'one too many', environment: 'test' } });
  t.equal(full.status, 422, 'and then the account is full again');
});

t.test('DELETE /v1/keys/{id} revokes at once and for good', async (t) => {
  const account = await server.reseller(0);
  const doomed = await server.api('POST', '/v1/keys', { key: account.key, body: { name: 'doomed', environment: 'test' } });
  const works = await server.api('GET', '/v1/wallet', { key: doomed.body.data.api_key });
  t.equal(works.status, 200, 'the key works before revocation');

  const revoked = await server.api('DELETE', `/v1/keys/${doomed.body.data.id}`, { key: account.key });
  t.equal(revoked.status, 200, 'revocation is 200');
  t.equal(revoked.body.data, null, 'revocation answers data null');
  t.ok(Object.prototype.hasOwnProperty.call(revoked.body, 'data'), 'data is present (as null)');
  t.type(revoked.body.message, 'string', 'revocation answers a message');

  const refused = await server.api('GET', '/v1/wallet', { key: doomed.body.data.api_key });
  t.equal(refused.status, 401, 'the revoked key is 401');
  t.equal(refused.body?.error?.code, 'auth.key_not_found', 'the revoked key is auth.key_not_found');

  const again = await server.api('DELETE', `/v1/keys/${doomed.body.data.id}`, { key: account.key });
  t.equal(again.status, 404, 'revoking again is 404');
  t.equal(again.body?.error?.code, 'keys.not_found', 'revoking again is keys.not_found');

  const list = await server.api('GET', '/v1/keys', { key: account.key });
  t.notOk(list.body.data.keys.some((k: { id: number }) => k.id === doomed.body.data.id), 'the revoked key is not listed');
});

t.test('a key id of another account, an unknown id or a non-numeric id is 404 keys.not_found', async (t) => {
  const mine = await server.reseller(0);
  const theirs = await server.reseller(0);
  const rows: [string, string][] = [
    ['another account\'s key', String(theirs.key_id)],
    ['an unknown id', '999999'],
    ['a non-numeric id', 'abc'],
    ['a negative id', '-1'],
    ['id zero', '0'],
    ['a fractional id', '1.5'],
  ];
  for (const [what, id] of rows) {
    const response = await server.api('DELETE', `/v1/keys/${id}`, { key: mine.key });
    t.equal(response.status, 404, `${what} is 404`);
    t.equal(response.body?.error?.code, 'keys.not_found', `${what} is keys.not_found`);
  }
  const still = await server.api('GET', '/v1/wallet', { key: theirs.key });
  t.equal(still.status, 200, 'the other account\'s key keeps working');
});

t.test('a scoped key may grant only the scopes it has', async (t) => {
  const account = await server.create_account();
  const scoped = await server.create_key(account.id, { scopes: ['keys:manage', 'wallet:read'] });
  const granted = await server.api('POST', '/v1/keys', { key: scoped.api_key, body: { name: 'reader', environment: 'test', scopes: ['wallet:read'] } });
  t.equal(granted.status, 201, 'a keys:manage + wallet:read key creates a wallet:read key');
  t.same(granted.body.data.scopes, ['wallet:read'], 'the new key has exactly wallet:read');
  const reader = granted.body.data.api_key;
  t.equal((await server.api('GET', '/v1/wallet', { key: reader })).status, 200, 'the new key reads the wallet');
  t.equal((await server.api('GET', '/v1/keys', { key: reader })).status, 403, 'the new key cannot list keys');

  for (const scopes of [['services:purchase'], ['*'], ['wallet:read', 'transactions:read']]) {
    const refused = await server.api('POST', '/v1/keys', { key: scoped.api_key, body: { name: 'escalation', environment: 'test', scopes } });
    t.equal(refused.status, 403, `granting ${JSON.stringify(scopes)} is 403`);
    t.equal(refused.body?.error?.code, 'auth.insufficient_scope', `granting ${JSON.stringify(scopes)} is auth.insufficient_scope`);
  }
  const list = await server.api('GET', '/v1/keys', { key: scoped.api_key });
  t.equal(list.body.data.keys.length, 2, 'no refused request created a key');
});

t.test('a test key cannot create a live key, and no environment means live', async (t) => {
  const account = await server.reseller(0);
  const rows: [string, Record<string, unknown>][] = [
    ['environment live', { name: 'live please', environment: 'live' }],
    ['no environment (live by default)', { name: 'default env' }],
  ];
  for (const [what, body] of rows) {
    const response = await server.api('POST', '/v1/keys', { key: account.key, body });
    t.equal(response.status, 403, `a test key asking for ${what} is 403`);
    t.equal(response.body?.error?.code, 'auth.insufficient_scope', `a test key asking for ${what} is auth.insufficient_scope`);
  }
  const list = await server.api('GET', '/v1/keys', { key: account.key });
  t.equal(list.body.data.keys.length, 1, 'no live key was created');
});

t.test('a test key made by a live key sees the test wallet', async (t) => {
  const account = await server.create_account();
  await server.credit(account.id, 'live', 100);
  await server.credit(account.id, 'test', 250.55);
  const live = await server.create_key(account.id, { environment: 'live' });
  const made = await server.api('POST', '/v1/keys', { key: live.api_key, body: { name: 'sandbox', environment: 'test' } });
  t.equal(made.status, 201, 'a live key creates a test key');
  t.match(made.body.data.api_key, key_pattern.test, 'the new key is a bv_test_ key');
  const test_wallet = await server.api('GET', '/v1/wallet', { key: made.body.data.api_key });
  t.equal(test_wallet.body.data.balance, 250.55, 'the new test key sees the test wallet');
  const live_wallet = await server.api('GET', '/v1/wallet', { key: live.api_key });
  t.equal(live_wallet.body.data.balance, 100, 'the live key still sees the live wallet');
});

t.test('an invalid ip_allowlist entry or a past expires_at is 400 validation.failed naming the field', async (t) => {
  const account = await server.reseller(0);
  const rows: [string, Record<string, unknown>, string][] = [
    ['a word in the allowlist', { ip_allowlist: ['not-an-ip'] }, 'ip_allowlist.0'],
    ['a bad second entry', { ip_allowlist: ['10.0.0.0/8', '300.1.1.1'] }, 'ip_allowlist.1'],
    ['a prefix too long', { ip_allowlist: ['10.0.0.0/33'] }, 'ip_allowlist.0'],
    ['an IPv6 prefix too long', { ip_allowlist: ['2001:db8::/129'] }, 'ip_allowlist.0'],
    ['21 allowlist entries', { ip_allowlist: Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`) }, 'ip_allowlist'],
    ['an expiry in the past', { expires_at: new Date(Date.now() - 60_000).toISOString() }, 'expires_at'],
    ['an expiry that is not a time', { expires_at: 'tomorrow' }, 'expires_at'],
    ['an unknown scope', { scopes: ['wallet:write'] }, 'scopes.0'],
    ['an unknown environment', { environment: 'staging' }, 'environment'],
  ];
  for (const [what, extra, field] of rows) {
    const response = await server.api('POST', '/v1/keys', { key: account.key, body: { name: 'x', environment: 'test', ...extra } });
    t.equal(response.status, 400, `${what} is 400`);
    t.equal(response.body?.error?.code, 'validation.failed', `${what} is validation.failed`);
    const fields = (response.body?.error?.details ?? []).map((d: { field: string }) => d.field);
    t.ok(fields.includes(field), `${what} names ${field} in details (got ${JSON.stringify(fields)})`);
  }
  const fine = await server.api('POST', '/v1/keys', {
    key: account.key,
    body: { name: 'fenced', environment: 'test', ip_allowlist: ['10.0.0.0/8', '2001:db8::/32', '127.0.0.1'], expires_at: new Date(Date.now() + 3_600_000).toISOString() },
  });
  t.equal(fine.status, 201, 'valid allowlist entries and a future expiry are accepted');
  t.same(fine.body.data.ip_allowlist, ['10.0.0.0/8', '2001:db8::/32', '127.0.0.1'], 'the allowlist is kept');
});
