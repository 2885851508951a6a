// Regressions of the hostile review (issue "Hardening from a hostile review"), keys and funding part:
// a restricted key minting an unrestricted one, a keys:manage key revoking a full-access key, expired
// keys listed and counted as active, idempotent replays revealing the secret of a revoked key or a
// deleted webhook endpoint, and sandbox top-up references answering for other tenants.
// docs/api.md "Key inheritance", "Idempotency" and "Funding" state the rules.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { start_server, type ApiResponse, type TestServer } from './helpers/server.js';
import { start_in_process } from './helpers/in-process.js';

const server = await start_server(t, { env: { LOG_LEVEL: 'warn' } });
let sequence = 0;

function code_of(response: ApiResponse): string | undefined {
  return response.body?.error?.code;
}

function fields_of(response: ApiResponse): string[] {
  return (response.body?.error?.details ?? []).map((d: { field: string }) => d.field);
}

function iso_in(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}

function idem(): string {
  return `hk-${randomBytes(8).toString('hex')}`;
}

/** An account whose own full-access test key makes the fixtures (the reseller's key). */
async function account(on: TestServer = server) {
  return on.reseller(0, {}, { rate_limit_per_minute: 1_000_000 });
}

async function keys_listed(key: string, on: TestServer = server): Promise<number[]> {
  const list = await on.api('GET', '/v1/keys', { key });
  if (list.status !== 200) throw new Error(`GET /v1/keys answered ${list.status} ${list.text}`);
  return list.body.data.keys.map((k: { id: number }) => k.id);
}

t.test('a restricted key can no longer mint an unrestricted one (the review\'s case: a key with an expiry and allowlist 127.0.0.1 asking for neither)', async (t) => {
  const owner = await account();
  const parent = await server.create_key(owner.id, { name: 'short lived', scopes: ['keys:manage'], expires_at: iso_in(60_000), ip_allowlist: ['127.0.0.1'] });
  const child = await server.api('POST', '/v1/keys', { key: parent.api_key, body: { name: 'forever', environment: 'test', scopes: ['keys:manage'] } });
  t.equal(child.status, 400, `a child with no expiry and no allowlist is refused: ${child.text}`);
  t.equal(code_of(child), 'validation.failed', 'with validation.failed');
  t.same(fields_of(child).sort(), ['expires_at', 'ip_allowlist'], 'naming both expires_at and ip_allowlist');
  t.same(await keys_listed(owner.key), [owner.key_id, parent.id], 'no key was created');
});

t.test('a child key expires no later than the key creating it', async (t) => {
  const owner = await account();
  const parent_expiry_ms = Date.now() + 3_600_000;
  const parent = await server.create_key(owner.id, { name: 'one hour', scopes: ['keys:manage'], expires_at: new Date(parent_expiry_ms).toISOString(), rate_limit_per_minute: 1_000 });
  const rows: [string, string | undefined, number][] = [
    ['no expiry', undefined, 400],
    ['an expiry a second later than the parent\'s', new Date(parent_expiry_ms + 1_000).toISOString(), 400],
    ['an expiry a year later', iso_in(365 * 86_400_000), 400],
    ['the parent\'s very expiry', new Date(parent_expiry_ms).toISOString(), 201],
    ['an expiry earlier than the parent\'s', new Date(parent_expiry_ms - 60_000).toISOString(), 201],
  ];
  for (const [what, expires_at, status] of rows) {
    const body: Record<string, unknown> = { name: `child ${++sequence}`, environment: 'test', scopes: ['keys:manage'] };
    if (expires_at !== undefined) body.expires_at = expires_at;
    const response = await server.api('POST', '/v1/keys', { key: parent.api_key, body });
    t.equal(response.status, status, `${what} answers ${status}: ${response.text}`);
    if (status === 400) {
      t.equal(code_of(response), 'validation.failed', `${what} is validation.failed`);
      t.same(fields_of(response), ['expires_at'], `${what} names expires_at`);
    } else {
      t.equal(Date.parse(response.body.data.expires_at), Date.parse(expires_at!), `${what} is kept as asked`);
      await server.api('DELETE', `/v1/keys/${response.body.data.id}`, { key: owner.key });
    }
  }
  const unbounded = await server.create_key(owner.id, { name: 'no expiry', scopes: ['keys:manage'] });
  const free = await server.api('POST', '/v1/keys', { key: unbounded.api_key, body: { name: 'free child', environment: 'test', scopes: ['keys:manage'] } });
  t.equal(free.status, 201, 'a key without an expiry may still create a key without one');
  t.equal(free.body.data.expires_at, null, 'and that key has none');
});

t.test('a child key\'s ip_allowlist lies within its parent\'s, address by address and block by block', async (t) => {
  const owner = await account();
  const parent = await server.create_key(owner.id, { name: 'fenced', scopes: ['keys:manage'], ip_allowlist: ['127.0.0.1', '10.0.0.0/8', '2001:db8::/32'], rate_limit_per_minute: 1_000 });
  const rows: [string, string[] | undefined, number, string[]][] = [
    ['no allowlist (any address)', undefined, 400, ['ip_allowlist']],
    ['an empty allowlist (any address)', [], 400, ['ip_allowlist']],
    ['an address outside', ['192.168.1.1'], 400, ['ip_allowlist.0']],
    ['a block wider than the parent\'s', ['10.0.0.0/7'], 400, ['ip_allowlist.0']],
    ['a block overlapping the parent\'s only partly', ['127.0.0.0/24'], 400, ['ip_allowlist.0']],
    ['one entry inside and one outside', ['10.1.2.3', '172.16.0.0/12'], 400, ['ip_allowlist.1']],
    ['an IPv6 block wider than the parent\'s', ['2001:db8::/31'], 400, ['ip_allowlist.0']],
    ['the parent\'s own list', ['127.0.0.1', '10.0.0.0/8', '2001:db8::/32'], 201, []],
    ['narrower entries', ['127.0.0.1', '10.20.0.0/16', '10.9.8.7', '2001:db8:1::/48'], 201, []],
  ];
  for (const [what, ip_allowlist, status, fields] of rows) {
    const body: Record<string, unknown> = { name: `child ${++sequence}`, environment: 'test', scopes: ['keys:manage'] };
    if (ip_allowlist !== undefined) body.ip_allowlist = ip_allowlist;
    const response = await server.api('POST', '/v1/keys', { key: parent.api_key, body });
    t.equal(response.status, status, `${what} answers ${status}: ${response.text}`);
    if (status === 400) {
      t.equal(code_of(response), 'validation.failed', `${what} is validation.failed`);
      t.same(fields_of(response), fields, `${what} names ${fields.join(', ')}`);
    } else {
      t.same(response.body.data.ip_allowlist, ip_allowlist, `${what}: the allowlist is kept`);
      await server.api('DELETE', `/v1/keys/${response.body.data.id}`, { key: owner.key });
    }
  }
  const open = await server.create_key(owner.id, { name: 'open', scopes: ['keys:manage'] });
  const any = await server.api('POST', '/v1/keys', { key: open.api_key, body: { name: 'anything', environment: 'test', scopes: ['keys:manage'], ip_allowlist: ['192.168.0.0/16'] } });
  t.equal(any.status, 201, 'a key with an empty allowlist (any address) may create a key with any allowlist');
});

t.test('a child key\'s rate limit is no higher than its parent\'s', async (t) => {
  const owner = await account();
  const slow = await server.create_key(owner.id, { name: 'slow', scopes: ['keys:manage'], rate_limit_per_minute: 20 });
  const child = await server.api('POST', '/v1/keys', { key: slow.api_key, body: { name: 'slow child', environment: 'test', scopes: ['keys:manage'] } });
  t.equal(child.status, 201, 'a key with 20 requests a minute creates a key');
  t.equal(child.body.data.rate_limit_per_minute, 20, 'whose limit is its parent\'s 20, not the default 60');
  const heard = await server.api('GET', '/v1/account', { key: child.body.data.api_key });
  t.equal(heard.headers.get('x-ratelimit-limit'), '20', 'and the child is held to 20 a minute');
  const fast = await server.create_key(owner.id, { name: 'fast', scopes: ['keys:manage'], rate_limit_per_minute: 10_000 });
  const default_child = await server.api('POST', '/v1/keys', { key: fast.api_key, body: { name: 'fast child', environment: 'test', scopes: ['keys:manage'] } });
  t.equal(default_child.body.data.rate_limit_per_minute, 60, 'a parent above the default gives its child the default 60');
});

t.test('a child key\'s scopes are no wider than its parent\'s (already enforced, kept)', async (t) => {
  const owner = await account();
  const manager = await server.create_key(owner.id, { name: 'manager', scopes: ['keys:manage', 'wallet:read'] });
  for (const scopes of [['*'], ['services:purchase'], ['keys:manage', 'transactions:read']]) {
    const response = await server.api('POST', '/v1/keys', { key: manager.api_key, body: { name: `wide ${++sequence}`, environment: 'test', scopes } });
    t.equal(response.status, 403, `granting ${scopes.join(', ')} is 403`);
    t.equal(code_of(response), 'auth.insufficient_scope', `granting ${scopes.join(', ')} is auth.insufficient_scope`);
  }
  const no_scopes = await server.api('POST', '/v1/keys', { key: manager.api_key, body: { name: 'default scopes', environment: 'test' } });
  t.equal(code_of(no_scopes), 'auth.insufficient_scope', 'leaving scopes out (the default *) is refused too');
  const narrow = await server.api('POST', '/v1/keys', { key: manager.api_key, body: { name: 'narrow', environment: 'test', scopes: ['wallet:read'] } });
  t.equal(narrow.status, 201, 'granting a scope it holds is 201');
});

t.test('a key with only keys:manage can no longer revoke a full-access key: it revokes only keys whose scopes it holds', async (t) => {
  const owner = await account();
  const manager = await server.create_key(owner.id, { name: 'manager', scopes: ['keys:manage', 'wallet:read'] });
  const full = await server.create_key(owner.id, { name: 'full', scopes: ['*'] });
  const wider = await server.create_key(owner.id, { name: 'buyer and reader', scopes: ['wallet:read', 'services:purchase'] });
  const reader = await server.create_key(owner.id, { name: 'reader', scopes: ['wallet:read'] });
  for (const [what, target] of [['a * key', full], ['a key with a scope it lacks', wider]] as const) {
    const response = await server.api('DELETE', `/v1/keys/${target.id}`, { key: manager.api_key });
    t.equal(response.status, 403, `revoking ${what} is 403`);
    t.equal(code_of(response), 'auth.insufficient_scope', `revoking ${what} is auth.insufficient_scope`);
    const still = await server.api('GET', '/v1/wallet', { key: target.api_key });
    t.equal(still.status, 200, `${what} still works`);
  }
  const narrower = await server.api('DELETE', `/v1/keys/${reader.id}`, { key: manager.api_key });
  t.equal(narrower.status, 200, 'revoking a key whose scopes it holds is 200');
  const gone = await server.api('GET', '/v1/wallet', { key: reader.api_key });
  t.equal(code_of(gone), 'auth.key_not_found', 'and that key is revoked');
  const by_full = await server.api('DELETE', `/v1/keys/${wider.id}`, { key: owner.key });
  t.equal(by_full.status, 200, 'a * key revokes any key of its account');
  const itself = await server.api('DELETE', `/v1/keys/${manager.id}`, { key: manager.api_key });
  t.equal(itself.status, 200, 'a key may revoke itself');
});

t.test('the dashboard, signed in as the account owner, still creates unrestricted keys and revokes any key', async (t) => {
  const owner = await account();
  const signed_in = await server.api('POST', '/dashboard/api/session', { body: { email: owner.email, password: owner.password } });
  t.equal(signed_in.status, 201, `the owner signs in: ${signed_in.text}`);
  const cookie = (signed_in.headers.get('set-cookie') ?? '').split(';')[0];
  const headers = { cookie, 'x-csrf-token': signed_in.body.data.csrf_token as string };
  const made = await server.api('POST', '/dashboard/api/keys', { headers, body: { name: 'from the dashboard', environment: 'live' } });
  t.equal(made.status, 201, `the dashboard creates a full-access live key: ${made.text}`);
  t.equal(made.body.data.expires_at, null, 'without an expiry');
  t.same(made.body.data.scopes, ['*'], 'with every scope');
  const revoked = await server.api('DELETE', `/dashboard/api/keys/${owner.key_id}`, { headers });
  t.equal(revoked.status, 200, 'the dashboard revokes a * key');
});

t.test('expired keys are neither listed as active nor counted toward the 5 active keys', async (t) => {
  // In this process on a manual clock (test/helpers/in-process.ts): the keys live an hour, and the
  // test moves to one millisecond before and to the instant of their expiry.
  const on_clock = await start_in_process(t, { env: { LOG_LEVEL: 'warn' } });
  const owner = await account(on_clock);
  const doomed: number[] = [];
  const expires_ms = on_clock.clock.now_ms() + 3_600_000;
  for (let i = 0; i < 4; i++) {
    const made = await on_clock.create_key(owner.id, { name: `expiring ${i}`, expires_at: new Date(expires_ms).toISOString() });
    doomed.push(made.id);
  }
  const full = await on_clock.api('POST', '/v1/keys', { key: owner.key, body: { name: 'sixth', environment: 'test' } });
  t.equal(code_of(full), 'keys.limit_reached', 'while the 4 keys live, the account has 5 active keys and a 6th is refused');
  on_clock.clock.advance(expires_ms - 1 - on_clock.clock.now_ms());
  t.equal((await keys_listed(owner.key, on_clock)).length, 5, 'one millisecond before their expiry the 4 keys are still listed');
  const still_full = await on_clock.api('POST', '/v1/keys', { key: owner.key, body: { name: 'sixth', environment: 'test' } });
  t.equal(code_of(still_full), 'keys.limit_reached', 'and still count: a 6th is refused');
  on_clock.clock.advance(1);
  const listed = await keys_listed(owner.key, on_clock);
  t.same(listed, [owner.key_id], 'once expired, the keys are no longer listed as active');
  for (let i = 0; i < 4; i++) {
    const made = await on_clock.api('POST', '/v1/keys', { key: owner.key, body: { name: `fresh ${i}`, environment: 'test' } });
    t.equal(made.status, 201, `fresh key ${i + 1} of 4 takes an expired key's place: ${made.text}`);
  }
  const sixth = await on_clock.api('POST', '/v1/keys', { key: owner.key, body: { name: 'one too many', environment: 'test' } });
  t.equal(sixth.status, 422, 'with 5 unexpired keys the limit holds again');
  t.equal(code_of(sixth), 'keys.limit_reached', 'keys.limit_reached');
  const tidy = await on_clock.api('DELETE', `/v1/keys/${doomed[0]}`, { key: owner.key });
  t.equal(tidy.status, 200, 'an expired key may still be revoked, to tidy up');
});

t.test('an idempotent replay of key creation no longer reveals the secret once the key is revoked', async (t) => {
  const owner = await account();
  const key = idem();
  const body = { name: 'replayed', environment: 'test' };
  const first = await server.api('POST', '/v1/keys', { key: owner.key, body, idempotency_key: key });
  t.equal(first.status, 201, 'the key is created');
  const secret: string = first.body.data.api_key;
  const replay = await server.api('POST', '/v1/keys', { key: owner.key, body, idempotency_key: key });
  t.equal(replay.text, first.text, 'while the key lives a replay returns the original answer, secret included');
  const revoked = await server.api('DELETE', `/v1/keys/${first.body.data.id}`, { key: owner.key });
  t.equal(revoked.status, 200, 'the key is revoked');
  const after = await server.api('POST', '/v1/keys', { key: owner.key, body, idempotency_key: key });
  t.equal(after.status, 404, `a replay after revocation is 404: ${after.text}`);
  t.equal(code_of(after), 'keys.not_found', 'with keys.not_found');
  t.equal(after.headers.get('idempotent-replayed'), 'true', 'marked as a replay: the key created nothing new');
  t.notOk(after.text.includes(secret), 'the answer does not contain the secret');
  t.notOk(after.text.includes(secret.slice(8)), 'nor its random part');
  t.same(await keys_listed(owner.key), [owner.key_id], 'and no key was created again');
  const other = await server.api('POST', '/v1/keys', { key: owner.key, body: { name: 'another body' }, idempotency_key: key });
  t.equal(code_of(other), 'idempotency.key_reused', 'the idempotency key still cannot be reused for another request');
});

t.test('an idempotent replay of webhook registration no longer reveals the secret once the endpoint is deleted', async (t) => {
  const owner = await account();
  const key = idem();
  const body = { url: `https://203.0.113.7/hooks/${randomBytes(4).toString('hex')}` };
  const first = await server.api('POST', '/v1/webhooks', { key: owner.key, body, idempotency_key: key });
  t.equal(first.status, 201, `the endpoint is registered: ${first.text}`);
  const secret: string = first.body.data.secret;
  const replay = await server.api('POST', '/v1/webhooks', { key: owner.key, body, idempotency_key: key });
  t.equal(replay.text, first.text, 'while the endpoint exists a replay returns the original answer, secret included');
  const deleted = await server.api('DELETE', `/v1/webhooks/${first.body.data.id}`, { key: owner.key });
  t.equal(deleted.status, 200, 'the endpoint is deleted');
  const after = await server.api('POST', '/v1/webhooks', { key: owner.key, body, idempotency_key: key });
  t.equal(after.status, 404, `a replay after deletion is 404: ${after.text}`);
  t.equal(code_of(after), 'webhooks.not_found', 'with webhooks.not_found');
  t.equal(after.headers.get('idempotent-replayed'), 'true', 'marked as a replay');
  t.notOk(after.text.includes(secret), 'the answer does not contain the secret');
  const listed = await server.api('GET', '/v1/webhooks', { key: owner.key });
  t.same(listed.body.data.webhooks, [], 'and no endpoint was registered again');
});

t.test('a sandbox top-up reference of another tenant is no existence oracle: it is simply a new top-up', async (t) => {
  const first = await account();
  const second = await account();
  const reference = `SHARED-${randomBytes(4).toString('hex')}`;
  const mine = await server.api('POST', '/v1/sandbox/wallet/fund', { key: first.key, body: { amount: 500, reference } });
  t.equal(mine.status, 201, 'the first tenant tops up with a reference');
  const theirs = await server.api('POST', '/v1/sandbox/wallet/fund', { key: second.key, body: { amount: 700, reference } });
  t.equal(theirs.status, 201, `another tenant's use of the same reference is a new top-up: ${theirs.text}`);
  t.notOk(/another account/i.test(theirs.text), 'and says nothing of another account');
  t.equal(theirs.body.data.amount, 700, 'of the second tenant\'s amount');
  t.equal(theirs.headers.get('idempotent-replayed'), null, 'not a replay');
  const unknown = await server.api('POST', '/v1/sandbox/wallet/fund', { key: second.key, body: { amount: 300, reference: `NEVER-${randomBytes(4).toString('hex')}` } });
  t.equal(unknown.status, theirs.status, 'a reference nobody used answers the same status as another tenant\'s');
  for (const [who, made, amount, balance] of [['the first', first, 500, 500], ['the second', second, 700, 700 + 300]] as const) {
    const again = await server.api('POST', '/v1/sandbox/wallet/fund', { key: made.key, body: { amount, reference } });
    t.equal(again.body?.data?.reference, reference, `${who} tenant's repeat names the reference`);
    t.equal(again.headers.get('idempotent-replayed'), 'true', `${who} tenant's repeat is a replay of its own first top-up`);
    const wallet = await server.api('GET', '/v1/wallet', { key: made.key });
    t.equal(wallet.body.data.balance, balance, `${who} tenant was credited once under the reference, with its own amount`);
    const different = await server.api('POST', '/v1/sandbox/wallet/fund', { key: made.key, body: { amount: amount + 1, reference } });
    t.equal(code_of(different), 'idempotency.key_reused', `${who} tenant's own reference with another amount is still idempotency.key_reused`);
  }
});

t.test('a funding reference claimed for the whole environment (as every sandbox top-up was before, and operator credits are) still dedupes for its own account', async (t) => {
  const holder = await account();
  const stranger = await account();
  const reference = `OLD-${randomBytes(4).toString('hex')}`;
  const credited = await server.credit(holder.id, 'test', 250, reference);
  t.equal(credited.status, 201, 'an operator credit claims the reference for the test environment');
  const own = await server.api('POST', '/v1/sandbox/wallet/fund', { key: holder.key, body: { amount: 250, reference } });
  t.equal(own.status, 201, 'the holder\'s top-up with that reference answers with the first credit');
  t.equal(own.body.data.id, credited.body.data.id, 'the same wallet entry');
  t.equal(own.headers.get('idempotent-replayed'), 'true', 'as a replay');
  const own_other_amount = await server.api('POST', '/v1/sandbox/wallet/fund', { key: holder.key, body: { amount: 251, reference } });
  t.equal(code_of(own_other_amount), 'idempotency.key_reused', 'another amount under it is idempotency.key_reused');
  const wallet = await server.api('GET', '/v1/wallet', { key: holder.key });
  t.equal(wallet.body.data.balance, 250, 'the holder was credited once');
  const foreign = await server.api('POST', '/v1/sandbox/wallet/fund', { key: stranger.key, body: { amount: 99, reference } });
  t.equal(foreign.status, 201, 'another tenant\'s top-up under it is a new top-up');
  const operator_again = await server.admin('POST', `/admin/accounts/${stranger.id}/wallet/credit`, { environment: 'test', amount: 99, reference });
  t.equal(operator_again.status, 201, 'the operator crediting that tenant with its own top-up\'s reference gets that top-up back');
  t.equal(operator_again.body.data.id, foreign.body.data.id, 'the same wallet entry, not a second credit');
  const operator_foreign = await server.admin('POST', `/admin/accounts/${stranger.id}/wallet/credit`, { environment: 'test', amount: 5, reference: `OLD2-${randomBytes(4).toString('hex')}` });
  t.equal(operator_foreign.status, 201, 'an operator credit with a fresh reference works');
  const operator_taken = await server.admin('POST', `/admin/accounts/${holder.id}/wallet/credit`, { environment: 'test', amount: 5, reference: operator_foreign.body.data.reference });
  t.equal(code_of(operator_taken), 'idempotency.key_reused', 'operator references stay unique across accounts, as before');
});
