// X-Idempotency-Key on POST /v1/keys, the only public POST so far (docs/spec.md section 4, docs/decisions.md
// "Idempotency", docs/api.md "Idempotency" and "Limits").
import t from 'tap';
import { rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { start_server, temp_dir, TestServer, type ApiResponse } from './helpers/server.js';

const server = await start_server(t);

function idem(): string {
  return `idem-${randomBytes(8).toString('hex')}`;
}

async function key_count(on: TestServer, api_key: string): Promise<number> {
  const list = await on.api('GET', '/v1/keys', { key: api_key });
  if (list.status !== 200) throw new Error(`key_count: ${list.status} ${list.text}`);
  return list.body.data.keys.length;
}

function replayed(response: ApiResponse): boolean {
  return response.headers.get('idempotent-replayed') === 'true';
}

t.test('the same key and body replays the original answer byte for byte and creates one key', async (t) => {
  const account = await server.reseller(0);
  const key = idem();
  const body = { name: 'once', environment: 'test' };
  const first = await server.api('POST', '/v1/keys', { key: account.key, body, idempotency_key: key });
  t.equal(first.status, 201, 'the first request creates a key');
  t.notOk(replayed(first), 'the first answer is not marked as a replay');
  const second = await server.api('POST', '/v1/keys', { key: account.key, body, idempotency_key: key });
  t.equal(second.status, 201, 'the repeat has the original status');
  t.equal(second.text, first.text, 'the repeat has the original body, byte for byte');
  t.equal(second.body.request_id, first.body.request_id, 'the repeat\'s body carries the original request_id');
  t.equal(second.body.data.api_key, first.body.data.api_key, 'the repeat returns the same api_key');
  t.ok(replayed(second), 'the repeat has Idempotent-Replayed: true');
  const reordered = await server.api('POST', '/v1/keys', { key: account.key, body: { environment: 'test', name: 'once' }, idempotency_key: key });
  t.equal(reordered.text, first.text, 'the same fields in another order are the same request');
  t.equal(await key_count(server, account.key), 2, 'only one key was created (plus the caller\'s)');
});

t.test('the same key with a different body is 422 idempotency.key_reused', async (t) => {
  const account = await server.reseller(0);
  const key = idem();
  const first = await server.api('POST', '/v1/keys', { key: account.key, body: { name: 'first', environment: 'test' }, idempotency_key: key });
  t.equal(first.status, 201, 'the first request creates a key');
  const rows: [string, Record<string, unknown>][] = [
    ['another name', { name: 'second', environment: 'test' }],
    ['an added field', { name: 'first', environment: 'test', scopes: ['wallet:read'] }],
    ['a name differing only in case', { name: 'First', environment: 'test' }],
  ];
  for (const [what, body] of rows) {
    const response = await server.api('POST', '/v1/keys', { key: account.key, body, idempotency_key: key });
    t.equal(response.status, 422, `${what} under the same key is 422`);
    t.equal(response.body?.error?.code, 'idempotency.key_reused', `${what} under the same key is idempotency.key_reused`);
  }
  t.equal(await key_count(server, account.key), 2, 'no second key was created');
});

t.test('error answers other than 5xx, 429 and 401 are remembered and replayed', async (t) => {
  const rows: [string, number, string, Record<string, unknown>][] = [
    ['a name too long (400)', 400, 'validation.failed', { name: 'n'.repeat(101), environment: 'test' }],
    ['a bad allowlist entry (400)', 400, 'validation.failed', { name: 'fenced', environment: 'test', ip_allowlist: ['nowhere'] }],
    ['a test key asking for a live key (403)', 403, 'auth.insufficient_scope', { name: 'live please', environment: 'live' }],
  ];
  for (const [what, status, code, body] of rows) {
    const account = await server.reseller(0);
    const key = idem();
    const first = await server.api('POST', '/v1/keys', { key: account.key, body, idempotency_key: key });
    t.equal(first.status, status, `${what}: the first answer is ${status}`);
    t.equal(first.body?.error?.code, code, `${what}: the first answer is ${code}`);
    const second = await server.api('POST', '/v1/keys', { key: account.key, body, idempotency_key: key });
    t.equal(second.status, status, `${what}: the repeat is ${status}`);
    t.ok(replayed(second), `${what}: the repeat has Idempotent-Replayed: true`);
    t.equal(second.text, first.text, `${what}: the repeat has the original body, request_id included`);
    const fixed = await server.api('POST', '/v1/keys', { key: account.key, body: { name: 'fixed', environment: 'test' }, idempotency_key: key });
    t.equal(fixed.status, 422, `${what}: a corrected body under the same key is a different request: 422`);
    t.equal(fixed.body?.error?.code, 'idempotency.key_reused', `${what}: a corrected body under the same key is idempotency.key_reused`);
    t.equal(await key_count(server, account.key), 1, `${what}: no key was created`);
  }
});

t.test('a 422 keys.limit_reached is remembered even after a key is revoked', async (t) => {
  const account = await server.reseller(0);
  const made: number[] = [];
  for (let i = 0; i < 4; i++) {
    const response = await server.api('POST', '/v1/keys', { key: account.key, body: { name: `filler ${i}`, environment: 'test' } });
    made.push(response.body.data.id);
  }
  const key = idem();
  const body = { name: 'sixth', environment: 'test' };
  const full = await server.api('POST', '/v1/keys', { key: account.key, body, idempotency_key: key });
  t.equal(full.status, 422, 'the 6th key is 422 keys.limit_reached');
  const revoked = await server.api('DELETE', `/v1/keys/${made[0]}`, { key: account.key });
  t.equal(revoked.status, 200, 'a key is revoked, so there is room again');
  const repeat = await server.api('POST', '/v1/keys', { key: account.key, body, idempotency_key: key });
  t.equal(repeat.status, 422, 'the repeat still answers the original 422');
  t.equal(repeat.text, full.text, 'the repeat has the original body');
  t.ok(replayed(repeat), 'the repeat has Idempotent-Replayed: true');
  t.equal(await key_count(server, account.key), 4, 'the repeat created no key');
  const fresh = await server.api('POST', '/v1/keys', { key: account.key, body, idempotency_key: idem() });
  t.equal(fresh.status, 201, 'a new idempotency key creates the key');
});

t.test('a 401 is not remembered: the same idempotency key then works for a valid key of the account', async (t) => {
  const account = await server.reseller(0);
  const other = await server.create_key(account.id, { name: 'to revoke' });
  const revoked = await server.api('DELETE', `/v1/keys/${other.id}`, { key: account.key });
  t.equal(revoked.status, 200, 'a key of the account is revoked');
  const key = idem();
  const body = { name: 'after 401', environment: 'test' };
  const refused = await server.api('POST', '/v1/keys', { key: other.api_key, body, idempotency_key: key });
  t.equal(refused.status, 401, 'the revoked key is 401');
  const again = await server.api('POST', '/v1/keys', { key: other.api_key, body, idempotency_key: key });
  t.equal(again.status, 401, 'the revoked key is 401 again');
  t.notOk(replayed(again), 'the second 401 is not a replay');
  t.not(again.body.request_id, refused.body.request_id, 'the second 401 is a new answer');
  const served = await server.api('POST', '/v1/keys', { key: account.key, body, idempotency_key: key });
  t.equal(served.status, 201, 'the same idempotency key then creates the key');
  t.notOk(replayed(served), 'that answer is not a replay of the 401');
});

t.test('30 concurrent requests with the same key and body create exactly one key', async (t) => {
  const account = await server.reseller(0);
  const key = idem();
  const body = { name: 'stampede', environment: 'test' };
  const responses = await Promise.all(Array.from({ length: 30 }, () => server.api('POST', '/v1/keys', { key: account.key, body, idempotency_key: key })));
  t.same(responses.map((r) => r.status), new Array(30).fill(201), 'all 30 answers are 201');
  t.equal(new Set(responses.map((r) => r.body?.data?.api_key)).size, 1, 'all 30 answers carry the same api_key');
  t.equal(new Set(responses.map((r) => r.text)).size, 1, 'all 30 answers have the same body');
  t.equal(responses.filter((r) => !replayed(r)).length, 1, 'exactly one answer is the original, 29 are replays');
  t.equal(await key_count(server, account.key), 2, 'exactly one key was created');
});

t.test('a replay after a clean restart still returns the original answer', async (t) => {
  const data_dir = temp_dir();
  const restarted = new TestServer(data_dir, {});
  t.teardown(async () => {
    await restarted.kill();
    rmSync(data_dir, { recursive: true, force: true });
  });
  await restarted.start();
  const account = await restarted.reseller(0);
  const key = idem();
  const body = { name: 'durable', environment: 'test' };
  const first = await restarted.api('POST', '/v1/keys', { key: account.key, body, idempotency_key: key });
  t.equal(first.status, 201, 'the key is created before the restart');
  t.equal(await restarted.stop(), 0, 'the server stops cleanly');
  await restarted.start();
  const again = await restarted.api('POST', '/v1/keys', { key: account.key, body, idempotency_key: key });
  t.equal(again.status, 201, 'the replay after the restart is 201');
  t.equal(again.text, first.text, 'the replay after the restart has the original body and api_key');
  t.ok(replayed(again), 'the replay after the restart has Idempotent-Replayed: true');
  t.equal(await key_count(restarted, account.key), 2, 'still only one key was created');
  const works = await restarted.api('GET', '/v1/wallet', { key: first.body.data.api_key });
  t.equal(works.status, 200, 'the created key works after the restart');
});

t.test('idempotency keys are scoped per account and per environment', async (t) => {
  const key = idem();
  const body = { name: 'shared', environment: 'test' };
  const a = await server.reseller(0);
  const b = await server.reseller(0);
  const from_a = await server.api('POST', '/v1/keys', { key: a.key, body, idempotency_key: key });
  const from_b = await server.api('POST', '/v1/keys', { key: b.key, body, idempotency_key: key });
  t.equal(from_a.status, 201, 'account A creates a key');
  t.equal(from_b.status, 201, 'account B creates a key with the same idempotency key');
  t.notOk(replayed(from_b), 'account B\'s answer is not a replay of A\'s');
  t.not(from_b.body.data.api_key, from_a.body.data.api_key, 'the two accounts get different keys');
  t.equal(await key_count(server, b.key), 2, 'account B has its new key');

  const live = await server.create_key(a.id, { name: 'live caller', environment: 'live' });
  const from_live = await server.api('POST', '/v1/keys', { key: live.api_key, body, idempotency_key: key });
  t.equal(from_live.status, 201, 'the same account\'s live key with the same idempotency key creates a key');
  t.notOk(replayed(from_live), 'the live environment does not replay the test environment\'s answer');
  t.not(from_live.body.data.api_key, from_a.body.data.api_key, 'the live call got its own key');
  t.equal(await key_count(server, a.key), 4, 'account A has the caller, the live caller and two created keys');
});

t.test('an X-Idempotency-Key longer than 255 characters or with a space is 400', async (t) => {
  const account = await server.reseller(0);
  const rows: [string, string, number][] = [
    ['256 characters', 'k'.repeat(256), 400],
    ['a space inside', 'two words', 400],
    ['255 characters', 'k'.repeat(255), 201],
    ['1 character', 'k', 201],
  ];
  for (const [what, key, status] of rows) {
    const response = await server.api('POST', '/v1/keys', { key: account.key, body: { name: what, environment: 'test' }, idempotency_key: key });
    t.equal(response.status, status, `an idempotency key of ${what} answers ${status}`);
    if (status === 400) {
      t.equal(response.body?.error?.code, 'validation.failed', `an idempotency key of ${what} is validation.failed`);
      t.ok(response.body?.error?.details?.some((d: { field: string }) => /idempotency/i.test(d.field)), `an idempotency key of ${what} names the header in details`);
    }
  }
  t.equal(await key_count(server, account.key), 3, 'only the valid idempotency keys created keys');
});
