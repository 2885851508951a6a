// Regression for the scale finding of 2026-11-24 (docs/benchmarks.md "Scale"): every account's actor
// was built at start and held for ever, so a million accounts took 28 s to be ready and 2.2 GiB of
// heap. Actors are now built from the store on first use and let go when idle beyond
// ACTORS_RESIDENT_MAX (docs/operations.md "Actors in memory"). With a bound of 2, accounts that were
// let go must answer exactly as before: by API key, by email, across a restart, and on a store written
// before the lookup databases existed.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { start_server, open_store, type TestServer } from './helpers/server.js';
import { balance_kobo, buy_airtime, sandbox } from './helpers/purchases.js';

const accounts_count = 6;

function series(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? Number.NaN : Number(line.slice(name.length + 1));
}

async function metric(server: TestServer, name: string): Promise<number> {
  const response = await server.admin('GET', '/metrics');
  return series(response.text, name);
}

const server = await start_server(t, { env: { ACTORS_RESIDENT_MAX: '2' }, keep_data: true });

interface Made {
  id: number;
  email: string;
  password: string;
  key: string;
  key_id: number;
}
const made: Made[] = [];

t.test('accounts made through the operator API are let go beyond ACTORS_RESIDENT_MAX', async (t) => {
  // Operator calls open no rate-limit window, so nothing keeps these actors in memory once durable.
  for (let i = 0; i < accounts_count; i++) made.push(await server.reseller(1_000 + i));
  t.ok((await metric(server, 'billvend_actors_evicted')) >= accounts_count - 2, 'actors were let go (billvend_actors_evicted)');
  t.ok((await metric(server, 'billvend_actors_in_memory')) <= 2, 'at most ACTORS_RESIDENT_MAX actors are in memory');
  t.equal(await metric(server, 'billvend_api_keys_active'), accounts_count, 'every key counts as active without walking accounts');
});

t.test('an account that was let go answers by API key with its stored balance, keys and purchases', async (t) => {
  for (const [i, account] of made.entries()) {
    t.equal(await balance_kobo(server, account.key), (1_000 + i) * 100, `account ${account.id}'s balance is the one it was credited`);
  }
  // A key's rate-limit window does not survive its actor, so a key used within the minute keeps its
  // actor in memory: the bound gives way rather than the limit.
  t.equal(await metric(server, 'billvend_actors_in_memory'), accounts_count, 'actors with an open rate window stay, beyond the bound');
  const bought = await buy_airtime(server, made[0].key, sandbox.delivered, 100);
  t.equal(bought.status, 201, 'a purchase on an account built from the store is delivered');
  t.equal(await balance_kobo(server, made[0].key), 900 * 100, 'and debits its wallet once');
  const keys = await server.admin('GET', `/admin/accounts/${made[1].id}`);
  t.equal(keys.status, 200, 'the operator reads the account');
  t.equal(keys.body.data.keys.length, 1, 'with its one key, read from the store');
});

t.test('a key of an account that was let go is revoked at once and then refused', async (t) => {
  // Fill the cache with other accounts first, through the operator API, so that made[5] is let go.
  for (let i = 0; i < 3; i++) await server.reseller(0);
  const revoked = await server.admin('DELETE', `/admin/accounts/${made[5].id}/keys/${made[5].key_id}`);
  t.equal(revoked.status, 200, 'the key is revoked');
  const refused = await server.api('GET', '/v1/wallet', { key: made[5].key });
  t.equal(refused.status, 401, 'the revoked key answers 401');
  t.equal(refused.body.error.code, 'auth.key_not_found', 'as a key that does not exist');
  t.equal(await metric(server, 'billvend_api_keys_active'), accounts_count + 3 - 1, 'the active key count went down by one');
});

t.test('an account that was let go is found by its email, in any letter case', async (t) => {
  const account = made[2];
  const signed_in = await server.api('POST', '/dashboard/api/session', { body: { email: account.email.toUpperCase(), password: account.password } });
  t.equal(signed_in.status, 201, `sign-in by email finds the account: ${signed_in.text}`);
  const taken = await server.admin('POST', '/admin/accounts', {
    name: 'Copy', email: account.email.toUpperCase(), phone: '08012345678', password: 'correct horse battery', kyc_level: 1, pin: '12345',
  });
  t.equal(taken.status, 409, 'an account with the same email in another case is refused');
  t.equal(taken.body.error.code, 'account.email_taken', 'as email_taken');
  const twice = await Promise.all([0, 1].map(() => server.admin('POST', '/admin/accounts', {
    name: 'Twin', email: `twin-${randomBytes(3).toString('hex')}@example.ng`, phone: '08012345678', password: 'correct horse battery', kyc_level: 1, pin: '12345',
  })));
  t.same(twice.map((r) => r.status).sort(), [201, 201], 'two different new emails at once are both created');
  const same_email = `same-${randomBytes(3).toString('hex')}@example.ng`;
  const racing = await Promise.all([0, 1].map(() => server.admin('POST', '/admin/accounts', {
    name: 'Racer', email: same_email, phone: '08012345678', password: 'correct horse battery', kyc_level: 1, pin: '12345',
  })));
  t.same(racing.map((r) => r.status).sort(), [201, 409], 'one email created twice at once makes one account (the staged email counts)');
});

t.test('after a restart nothing is built at start and every account answers', async (t) => {
  await server.stop();
  await server.start();
  t.equal(await metric(server, 'billvend_actors_in_memory'), 0, 'no actor is in memory after recovery');
  const listed = await server.admin('GET', '/admin/accounts?per_page=100');
  t.equal(listed.status, 200, 'the operator lists the accounts');
  t.equal(listed.body.data.pagination.total, listed.body.data.accounts.length, 'the list holds every account');
  t.same(listed.body.data.accounts.slice(0, accounts_count).map((a: { id: number }) => a.id), made.map((m) => m.id), 'in id order, read without building actors');
  t.equal(await balance_kobo(server, made[0].key), 900 * 100, 'a balance survives the restart');
  t.equal(await metric(server, 'billvend_actors_loaded'), 1, 'the one account used was built from the store');
  t.equal((await server.api('GET', '/v1/wallet', { key: made[5].key })).status, 401, 'a revoked key stays refused');
});

t.test('a store written before the lookup databases gets them built at start', async (t) => {
  await server.stop();
  const store = open_store(server.data_dir);
  await store.db('meta').remove('lookup_index_version');
  await store.db('key_hashes').clearAsync();
  await store.db('account_emails').clearAsync();
  await store.db('account_keys').clearAsync();
  await store.root.close();
  await server.start();
  t.ok(server.logs.some((line) => line.includes('account lookup indexes built')), 'the server says it built them');
  t.equal(await balance_kobo(server, made[1].key), 1_001 * 100, 'a key authenticates again');
  t.equal((await server.api('GET', '/v1/wallet', { key: made[5].key })).status, 401, 'a revoked key is not indexed');
  const signed_in = await server.api('POST', '/dashboard/api/session', { body: { email: made[3].email, password: made[3].password } });
  t.equal(signed_in.status, 201, 'sign-in by email works again');
  const keys = await server.admin('GET', `/admin/accounts/${made[4].id}`);
  t.equal(keys.body.data.keys.length, 1, 'an account\'s keys are listed again');
  t.equal(await metric(server, 'billvend_api_keys_active'), accounts_count + 3 - 1, 'the active key count is rebuilt');
});
