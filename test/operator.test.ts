// The operator API and the command line (docs/operations.md "Operator API", "Command line"; docs/decisions.md).
import t from 'tap';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { start_server, type ApiResponse } from './helpers/server.js';
import { run_cli } from './helpers/fixtures-http.js';

const server = await start_server(t);
const microseconds = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function email(): string {
  return `op-${randomBytes(5).toString('hex')}@example.ng`;
}

function valid_account(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'Ada Stores', email: email(), phone: '08031234567', password: 'long enough secret', kyc_level: 2, ...overrides };
}

function fields_of(response: ApiResponse): string[] {
  return (response.body?.error?.details ?? []).map((d: { field: string }) => d.field);
}

t.test('every operator route refuses a missing or wrong token with 401 operator.unauthorized', async (t) => {
  const account = await server.create_account();
  const revocable = await server.create_key(account.id, { name: 'must survive' });
  const rows: [string, string, unknown][] = [
    ['POST', '/admin/accounts', valid_account()],
    ['PATCH', `/admin/accounts/${account.id}`, { kyc_level: 3 }],
    ['POST', `/admin/accounts/${account.id}/pin`, { pin: '54321' }],
    ['POST', `/admin/accounts/${account.id}/keys`, { name: 'k', environment: 'test' }],
    ['POST', `/admin/accounts/${account.id}/wallet/credit`, { environment: 'test', amount: 5, reference: `UNAUTH-${account.id}` }],
    ['GET', '/admin/accounts', undefined],
    ['GET', `/admin/accounts/${account.id}`, undefined],
    ['DELETE', `/admin/accounts/${account.id}/keys/${revocable.id}`, undefined],
    ['GET', '/metrics', undefined],
  ];
  const tokens: [string, string | null][] = [
    ['no token', null],
    ['a wrong token', 'wrong-token'],
    ['the right token with a suffix', `${server.admin_token}x`],
    ['a prefix of the right token', server.admin_token.slice(0, -1)],
  ];
  for (const [method, path, body] of rows) {
    for (const [what, token] of tokens) {
      const response = await server.admin(method, path, body, token);
      t.equal(response.status, 401, `${method} ${path} with ${what} is 401`);
      t.equal(response.body?.error?.code, 'operator.unauthorized', `${method} ${path} with ${what} is operator.unauthorized`);
    }
  }
  const api_key_as_token = await server.admin('GET', '/metrics', undefined, (await server.create_key(account.id)).api_key);
  t.equal(api_key_as_token.status, 401, 'an API key is not an operator token');
  const seen = await server.api('GET', '/v1/account', { key: (await server.create_key(account.id, { name: 'reader' })).api_key });
  t.equal(seen.body.data.kyc_level, 2, 'the refused PATCH changed nothing');
  const survivor = await server.api('GET', '/v1/wallet', { key: revocable.api_key });
  t.equal(survivor.status, 200, 'the refused DELETE revoked nothing');
  const credit = await server.admin('POST', `/admin/accounts/${account.id}/wallet/credit`, { environment: 'test', amount: 5, reference: `UNAUTH-${account.id}` });
  t.equal(credit.body.message, 'Wallet credited.', 'the refused credits credited nothing: the reference is still fresh');

  for (const path of ['/healthz', '/readyz']) {
    const response = await server.admin('GET', path, undefined, null);
    t.equal(response.status, 200, `${path} answers 200 without a token`);
  }
});

t.test('POST /admin/accounts refuses invalid fields with 400 validation.failed naming each', async (t) => {
  const rows: [string, Record<string, unknown>, string][] = [
    ['a bad email', { email: 'not-an-email' }, 'email'],
    ['an email with a space', { email: 'a b@example.ng' }, 'email'],
    ['a short password', { password: 'short' }, 'password'],
    ['kyc_level 4', { kyc_level: 4 }, 'kyc_level'],
    ['kyc_level -1', { kyc_level: -1 }, 'kyc_level'],
    ['kyc_level 1.5', { kyc_level: 1.5 }, 'kyc_level'],
    ['pin 1234', { pin: '1234' }, 'pin'],
    ['pin 123456', { pin: '123456' }, 'pin'],
    ['pin as a number', { pin: 12345 }, 'pin'],
    ['a bad phone', { phone: '12345' }, 'phone'],
    ['an empty name', { name: '' }, 'name'],
    ['a missing name', { name: undefined }, 'name'],
  ];
  for (const [what, overrides, field] of rows) {
    const response = await server.admin('POST', '/admin/accounts', valid_account(overrides));
    t.equal(response.status, 400, `${what} is 400`);
    t.equal(response.body?.error?.code, 'validation.failed', `${what} is validation.failed`);
    t.ok(fields_of(response).includes(field), `${what} names ${field} in details (got ${JSON.stringify(fields_of(response))})`);
  }
  const several = await server.admin('POST', '/admin/accounts', valid_account({ email: 'x', password: 'short', kyc_level: 9 }));
  t.same(fields_of(several).sort(), ['email', 'kyc_level', 'password'], 'several bad fields are all named');
});

t.test('an email already taken, in any letter case, is 409 account.email_taken', async (t) => {
  const base = `Case-${randomBytes(4).toString('hex')}@Example.ng`;
  const first = await server.admin('POST', '/admin/accounts', valid_account({ email: base }));
  t.equal(first.status, 201, 'the first account is created');
  for (const variant of [base, base.toLowerCase(), base.toUpperCase()]) {
    const response = await server.admin('POST', '/admin/accounts', valid_account({ email: variant }));
    t.equal(response.status, 409, `${variant} is 409`);
    t.equal(response.body?.error?.code, 'account.email_taken', `${variant} is account.email_taken`);
  }
});

t.test('phone numbers are stored in international format', async (t) => {
  const rows: [string, string][] = [
    ['08012345678', '+2348012345678'],
    ['2348012345678', '+2348012345678'],
    ['+2348012345678', '+2348012345678'],
  ];
  for (const [sent, stored] of rows) {
    const response = await server.admin('POST', '/admin/accounts', valid_account({ phone: sent }));
    t.equal(response.status, 201, `an account with phone ${sent} is created`);
    t.equal(response.body.data.phone, stored, `${sent} is stored as ${stored}`);
  }
});

t.test('GET /v1/account returns exactly the spec Account fields', async (t) => {
  const body = valid_account({ name: 'Exact Fields Ltd', phone: '08012345678', kyc_level: 1, tier: 'corporate' });
  const created = await server.admin('POST', '/admin/accounts', body);
  t.equal(created.status, 201, 'the account is created');
  t.equal(created.body.data.pin_set, false, 'an account created without a PIN has none');
  t.equal(created.body.data.daily_limit, null, 'the daily limit is the KYC level\'s');
  const key = await server.create_key(created.body.data.id);
  const response = await server.api('GET', '/v1/account', { key: key.api_key });
  t.equal(response.status, 200, 'GET /v1/account is 200');
  t.same(Object.keys(response.body.data).sort(), ['created_at', 'email', 'id', 'kyc_level', 'low_balance_threshold', 'name', 'phone', 'tier'], 'exactly id, name, email, phone, tier, kyc_level, created_at and the added low_balance_threshold');
  t.same(
    { ...response.body.data, created_at: undefined },
    { id: created.body.data.id, name: 'Exact Fields Ltd', email: body.email, phone: '+2348012345678', tier: 'corporate', kyc_level: 1, created_at: undefined, low_balance_threshold: null },
    'the values are those the operator set',
  );
  t.match(response.body.data.created_at, microseconds, 'created_at is ISO 8601 UTC with microseconds');
  t.ok(Math.abs(Date.parse(response.body.data.created_at) - Date.now()) < 60_000, 'created_at is the time of creation');
  t.notOk(/password|pin|scrypt/i.test(response.text), 'no password or PIN material is shown');
});

t.test('PATCH /admin/accounts/{id} changes KYC level, tier and daily limit', async (t) => {
  const account = await server.create_account();
  const key = await server.create_key(account.id);
  const steps: [Record<string, unknown>, Record<string, unknown>][] = [
    [{ kyc_level: 3 }, { kyc_level: 3 }],
    [{ tier: 'corporate' }, { tier: 'corporate', kyc_level: 3 }],
    [{ daily_limit: 1_000_000 }, { daily_limit: 1_000_000 }],
    [{ daily_limit: 2500.75 }, { daily_limit: 2500.75 }],
    [{ daily_limit: null }, { daily_limit: null }],
  ];
  for (const [patch, expected] of steps) {
    const response = await server.admin('PATCH', `/admin/accounts/${account.id}`, patch);
    t.equal(response.status, 200, `PATCH ${JSON.stringify(patch)} is 200`);
    t.hasStrict(response.body.data, expected, `PATCH ${JSON.stringify(patch)} shows ${JSON.stringify(expected)}`);
  }
  const seen = await server.api('GET', '/v1/account', { key: key.api_key });
  t.equal(seen.body.data.kyc_level, 3, 'the key sees the new KYC level');
  t.equal(seen.body.data.tier, 'corporate', 'the key sees the new tier');

  const rows: [string, Record<string, unknown>, string][] = [
    ['kyc_level 7', { kyc_level: 7 }, 'kyc_level'],
    ['a negative daily limit', { daily_limit: -5 }, 'daily_limit'],
    ['a daily limit with 3 decimals', { daily_limit: 1.005 }, 'daily_limit'],
    ['a tier with spaces', { tier: 'very big' }, 'tier'],
  ];
  for (const [what, patch, field] of rows) {
    const response = await server.admin('PATCH', `/admin/accounts/${account.id}`, patch);
    t.equal(response.status, 400, `${what} is 400`);
    t.ok(fields_of(response).includes(field), `${what} names ${field}`);
  }
  for (const id of ['999999', 'abc']) {
    const unknown = await server.admin('PATCH', `/admin/accounts/${id}`, { kyc_level: 1 });
    t.equal(unknown.status, 404, `account ${id} is 404`);
    t.equal(unknown.body?.error?.code, 'account.not_found', `account ${id} is account.not_found`);
  }
});

t.test('POST /admin/accounts/{id}/pin sets the transaction PIN', async (t) => {
  const created = await server.admin('POST', '/admin/accounts', valid_account());
  t.equal(created.body.data.pin_set, false, 'the account starts without a PIN');
  const set = await server.admin('POST', `/admin/accounts/${created.body.data.id}/pin`, { pin: '54321' });
  t.equal(set.status, 200, 'setting the PIN is 200');
  t.equal(set.body.data.pin_set, true, 'the answer says the PIN is set');
  t.notOk(set.text.includes('54321'), 'the answer does not echo the PIN');
  const view = await server.admin('PATCH', `/admin/accounts/${created.body.data.id}`, {});
  t.equal(view.body.data.pin_set, true, 'the account now has a PIN');
  const bad = await server.admin('POST', `/admin/accounts/${created.body.data.id}/pin`, { pin: '12' });
  t.equal(bad.status, 400, 'a 2-digit PIN is 400');
  t.ok(fields_of(bad).includes('pin'), 'a 2-digit PIN names pin');
  const unknown = await server.admin('POST', '/admin/accounts/999999/pin', { pin: '54321' });
  t.equal(unknown.status, 404, 'an unknown account is 404');
  t.equal(unknown.body?.error?.code, 'account.not_found', 'an unknown account is account.not_found');
});

t.test('a wallet credit is idempotent by its reference', async (t) => {
  const account = await server.reseller(0);
  const other = await server.create_account();
  const reference = `BANK-${randomBytes(5).toString('hex')}`;
  const path = `/admin/accounts/${account.id}/wallet/credit`;
  const first = await server.admin('POST', path, { environment: 'test', amount: 100.5, reference, description: 'Bank transfer' });
  t.equal(first.status, 201, 'the credit is 201');
  t.hasStrict(first.body.data, { type: 'credit', amount: 100.5, balance_before: 0, balance_after: 100.5, reference, description: 'Bank transfer' }, 'the answer is the wallet entry');
  t.match(first.body.data.created_at, microseconds, 'the entry has a microsecond timestamp');
  t.notOk(first.headers.get('idempotent-replayed'), 'the first credit is not a replay');

  const again = await server.admin('POST', path, { environment: 'test', amount: 100.5, reference, description: 'Bank transfer' });
  t.equal(again.status, 201, 'the same reference again is 201');
  t.same(again.body.data, first.body.data, 'it returns the same entry');
  t.equal(again.headers.get('idempotent-replayed'), 'true', 'it is marked Idempotent-Replayed: true');
  const wallet = await server.api('GET', '/v1/wallet', { key: account.key });
  t.equal(wallet.body.data.balance, 100.5, 'the balance was credited once');

  const other_amount = await server.admin('POST', path, { environment: 'test', amount: 200, reference });
  t.equal(other_amount.status, 422, 'the same reference with another amount is 422');
  t.equal(other_amount.body?.error?.code, 'idempotency.key_reused', 'the same reference with another amount is idempotency.key_reused');
  const other_account = await server.admin('POST', `/admin/accounts/${other.id}/wallet/credit`, { environment: 'test', amount: 100.5, reference });
  t.equal(other_account.status, 422, 'the same reference on another account is 422');
  t.equal(other_account.body?.error?.code, 'idempotency.key_reused', 'the same reference on another account is idempotency.key_reused');
  const live = await server.admin('POST', path, { environment: 'live', amount: 100.5, reference });
  t.equal(live.status, 201, 'the same reference in the other environment is a separate credit');
  t.notOk(live.headers.get('idempotent-replayed'), 'the live credit is not a replay of the test one');
  const after = await server.api('GET', '/v1/wallet', { key: account.key });
  t.equal(after.body.data.balance, 100.5, 'the test balance is unchanged by the refused and live credits');
});

t.test('a wallet credit refuses amounts that are zero, negative, over 2 decimals, strings or too large', async (t) => {
  const account = await server.reseller(0);
  const rows: [string, unknown][] = [
    ['0', 0],
    ['-1', -1],
    ['1.005', 1.005],
    ['the string "10"', '10'],
    ['100000001', 100_000_001],
    ['100000000.01', 100_000_000.01],
    ['null', null],
  ];
  for (const [what, amount] of rows) {
    const response = await server.admin('POST', `/admin/accounts/${account.id}/wallet/credit`, { environment: 'test', amount, reference: `BAD-${randomBytes(5).toString('hex')}` });
    t.equal(response.status, 400, `amount ${what} is 400`);
    t.equal(response.body?.error?.code, 'validation.failed', `amount ${what} is validation.failed`);
    t.ok(fields_of(response).includes('amount'), `amount ${what} names amount in details`);
  }
  const top = await server.admin('POST', `/admin/accounts/${account.id}/wallet/credit`, { environment: 'test', amount: 100_000_000, reference: `TOP-${randomBytes(5).toString('hex')}` });
  t.equal(top.status, 201, 'exactly 100000000 NGN is accepted');
  const wallet = await server.api('GET', '/v1/wallet', { key: account.key });
  t.equal(wallet.body.data.balance, 100_000_000, 'only the valid credit moved the balance');
  const unknown = await server.admin('POST', '/admin/accounts/999999/wallet/credit', { environment: 'test', amount: 1, reference: 'NOBODY-1' });
  t.equal(unknown.status, 404, 'crediting an unknown account is 404');
  t.equal(unknown.body?.error?.code, 'account.not_found', 'crediting an unknown account is account.not_found');
});

t.test('/metrics is Prometheus text with the request, journal and actor metrics', async (t) => {
  await server.api('GET', '/v1/wallet');
  const response = await server.admin('GET', '/metrics');
  t.equal(response.status, 200, '/metrics is 200 with the token');
  t.match(response.headers.get('content-type') ?? '', /^text\/plain/, '/metrics is text/plain');
  for (const name of [
    'billvend_http_requests_total',
    'billvend_http_request_duration_seconds_bucket',
    'billvend_journal_commit_changes_bucket',
    'billvend_journal_commit_duration_seconds',
    'billvend_actors_in_memory',
  ]) {
    t.ok(response.text.includes(name), `/metrics has ${name}`);
  }
  t.match(response.text, /billvend_http_requests_total\{server="public",route="GET \/v1\/wallet",status="401"\} [1-9]/, 'the 401 on GET /v1/wallet is counted by route and status');
  const actors = /^billvend_actors_in_memory (\d+)$/m.exec(response.text);
  t.ok(actors !== null && Number(actors[1]) > 0, 'billvend_actors_in_memory counts the accounts made so far');
  const commits = /^billvend_journal_commit_changes_count (\d+)$/m.exec(response.text);
  t.ok(commits !== null && Number(commits[1]) > 0, 'journal commits have been observed');
});

t.test('/readyz and /healthz answer 200 on a running server', async (t) => {
  const ready = await server.admin('GET', '/readyz', undefined, null);
  t.equal(ready.status, 200, '/readyz is 200');
  t.equal(ready.body.success, true, '/readyz is a success envelope');
  const live = await server.admin('GET', '/healthz', undefined, null);
  t.equal(live.status, 200, '/healthz is 200');
});

t.test('GET /admin/accounts pages by id, finds by email and refuses bad paging with 400 validation.failed', async (t) => {
  const made = [await server.create_account(), await server.create_account()];
  const all = await server.admin('GET', '/admin/accounts?per_page=100');
  t.equal(all.status, 200, 'the list is 200');
  const ids = all.body.data.accounts.map((a: { id: number }) => a.id);
  t.same(ids, [...ids].sort((a: number, b: number) => a - b), 'accounts are listed by id');
  t.ok(made.every((a) => ids.includes(a.id)), 'the list holds the new accounts');
  t.equal(all.body.data.pagination.total, ids.length, 'the total counts them');
  t.hasStrict(all.body.data.accounts.find((a: { id: number }) => a.id === made[0].id), { email: made[0].email, pin_set: true, daily_limit: null }, 'an item is the operator view of the account');
  const page = await server.admin('GET', `/admin/accounts?per_page=1&page=${ids.indexOf(made[1].id) + 1}`);
  t.same(page.body.data.accounts.map((a: { id: number }) => a.id), [made[1].id], 'page N of size 1 is the Nth account');
  const found = await server.admin('GET', `/admin/accounts?email=${encodeURIComponent(made[1].email.toUpperCase())}`);
  t.same(found.body.data.accounts.map((a: { id: number }) => a.id), [made[1].id], 'email finds the account in any letter case');
  t.equal(found.body.data.pagination.total, 1, 'and counts one');
  for (const query of ['per_page=0', 'per_page=101', 'page=0', 'page=x']) {
    const refused = await server.admin('GET', `/admin/accounts?${query}`);
    t.equal(refused.status, 400, `${query} is 400`);
    t.equal(refused.body?.error?.code, 'validation.failed', `${query} is validation.failed`);
  }
});

t.test('GET /admin/accounts/{id} shows wallets and active keys; DELETE /admin/accounts/{id}/keys/{key_id} revokes once', async (t) => {
  const owner = await server.reseller(250);
  const other = await server.reseller(0);
  const shown = await server.admin('GET', `/admin/accounts/${owner.id}`);
  t.equal(shown.status, 200, 'show is 200');
  t.equal(shown.body.data.wallets.test.balance, 250, 'show has the test wallet balance');
  t.same(shown.body.data.keys.map((k: { id: number }) => k.id), [owner.key_id], 'show lists the active key');
  t.notMatch(shown.text, new RegExp(owner.key), 'show never carries a key secret');
  for (const id of ['999999', 'abc', '0']) {
    const missing = await server.admin('GET', `/admin/accounts/${id}`);
    t.equal(missing.status, 404, `show of account ${id} is 404`);
    t.equal(missing.body?.error?.code, 'account.not_found', `show of account ${id} is account.not_found`);
  }

  const foreign = await server.admin('DELETE', `/admin/accounts/${other.id}/keys/${owner.key_id}`);
  t.equal(foreign.status, 404, 'a key revoked through another account is 404');
  t.equal(foreign.body?.error?.code, 'keys.not_found', 'as keys.not_found');
  for (const key_id of ['abc', '0', '999999']) {
    const bad = await server.admin('DELETE', `/admin/accounts/${owner.id}/keys/${key_id}`);
    t.equal(bad.body?.error?.code, 'keys.not_found', `key id ${key_id} is keys.not_found`);
  }
  t.equal((await server.api('GET', '/v1/wallet', { key: owner.key })).status, 200, 'the refused revocations left the key working');
  const revoked = await server.admin('DELETE', `/admin/accounts/${owner.id}/keys/${owner.key_id}`);
  t.equal(revoked.status, 200, 'revoke is 200');
  t.equal(revoked.body.message, 'API key revoked.', 'with a message');
  t.match(revoked.body.data.revoked_at, microseconds, 'the answer has revoked_at with microseconds');
  t.equal((await server.api('GET', '/v1/wallet', { key: owner.key })).body?.error?.code, 'auth.key_not_found', 'the key is refused at once');
  const again = await server.admin('DELETE', `/admin/accounts/${owner.id}/keys/${owner.key_id}`);
  t.equal(again.status, 404, 'revoking again is 404 keys.not_found');
  t.equal((await server.api('GET', '/v1/wallet', { key: other.key })).status, 200, 'the other account\'s key is untouched');
});

t.test('the CLI drives the operator API and prints JSON', async (t) => {
  const env = { ADMIN_TOKEN: server.admin_token, ADMIN_PORT: String(server.admin_port) };
  const address = email();
  const created = await run_cli(['account', 'create', '--name', 'Cli Stores', '--email', address, '--phone', '08031234567', '--password', 'long cli secret', '--kyc-level', '2'], env);
  t.equal(created.code, 0, `account create exits 0 (${created.stderr.trim()})`);
  const account = JSON.parse(created.stdout);
  t.equal(account.email, address, 'account create prints the account as JSON');
  t.equal(account.phone, '+2348031234567', 'the phone is international');
  t.equal(account.pin_set, false, 'no PIN yet');

  const key_made = await run_cli(['key', 'create', String(account.id), '--name', 'POS fleet', '--environment', 'test', '--scopes', 'wallet:read,keys:manage'], env);
  t.equal(key_made.code, 0, `key create exits 0 (${key_made.stderr.trim()})`);
  const key = JSON.parse(key_made.stdout);
  t.match(key.api_key, /^bv_test_[0-9A-Za-z]{32,}$/, 'key create prints the new key');
  t.same(key.scopes, ['wallet:read', 'keys:manage'], 'the scopes list is passed through');

  const credited = await run_cli(['wallet', 'credit', String(account.id), '--environment', 'test', '--amount', '500.25', '--reference', `CLI-${randomBytes(4).toString('hex')}`], env);
  t.equal(credited.code, 0, `wallet credit exits 0 (${credited.stderr.trim()})`);
  t.equal(JSON.parse(credited.stdout).amount, 500.25, 'wallet credit prints the entry');
  const wallet = await server.api('GET', '/v1/wallet', { key: key.api_key });
  t.equal(wallet.body.data.balance, 500.25, 'the credit reached the wallet');

  const updated = await run_cli(['account', 'update', String(account.id), '--daily-limit', '1000000', '--tier', 'corporate'], env);
  t.equal(updated.code, 0, `account update exits 0 (${updated.stderr.trim()})`);
  t.hasStrict(JSON.parse(updated.stdout), { daily_limit: 1_000_000, tier: 'corporate' }, 'account update prints the account');
  const cleared = await run_cli(['account', 'update', String(account.id), '--daily-limit', 'null'], env);
  t.equal(JSON.parse(cleared.stdout).daily_limit, null, '--daily-limit null clears the limit');

  const pin = await run_cli(['pin', 'set', String(account.id), '54321'], env);
  t.equal(pin.code, 0, `pin set exits 0 (${pin.stderr.trim()})`);
  t.equal(JSON.parse(pin.stdout).pin_set, true, 'pin set prints pin_set true');

  const duplicate = await run_cli(['account', 'create', '--name', 'Again', '--email', address.toUpperCase(), '--phone', '08031234567', '--password', 'long cli secret', '--kyc-level', '1'], env);
  t.not(duplicate.code, 0, 'a duplicate email exits non-zero');
  t.match(duplicate.stderr, /account\.email_taken/, 'stderr names the error code');
  t.equal(duplicate.stderr.trim().split('\n').length, 1, 'stderr is one clear line');
  t.equal(duplicate.stdout, '', 'nothing is printed on stdout');

  const invalid = await run_cli(['account', 'create', '--name', 'Bad', '--email', 'nope', '--phone', '08031234567', '--password', 'long cli secret', '--kyc-level', '1'], env);
  t.not(invalid.code, 0, 'an invalid email exits non-zero');
  t.match(invalid.stderr, /validation\.failed[\s\S]*email/, 'stderr names the failing field');

  const unknown = await run_cli(['frobnicate', 'now'], env);
  t.equal(unknown.code, 2, 'an unknown command exits 2');
  t.match(unknown.stderr, /usage:/, 'an unknown command prints the usage on stderr');
  t.equal(unknown.stdout, '', 'an unknown command prints nothing on stdout');

  const missing = await run_cli(['account', 'create', '--name', 'No Email'], env);
  t.equal(missing.code, 2, 'missing flags exit 2');
  t.match(missing.stderr, /--email/, 'missing flags are named');

  const wrong_token = await run_cli(['pin', 'set', String(account.id), '11111'], { ...env, ADMIN_TOKEN: 'wrong' });
  t.not(wrong_token.code, 0, 'a wrong token exits non-zero');
  t.match(wrong_token.stderr, /operator\.unauthorized/, 'a wrong token says operator.unauthorized');
});

t.test('without ADMIN_TOKEN the server generates DATA_DIR/admin-token and the CLI reads it', async (t) => {
  const generated = await start_server(t, { env: { ADMIN_TOKEN: '' } });
  const token_path = join(generated.data_dir, 'admin-token');
  const mode = statSync(token_path).mode & 0o777;
  t.equal(mode, 0o600, 'the token file is mode 0600');
  const harness = await generated.admin('GET', '/metrics');
  t.equal(harness.status, 401, 'the harness token is not the generated one');

  const address = email();
  const env = { DATA_DIR: generated.data_dir, ADMIN_PORT: String(generated.admin_port) };
  const created = await run_cli(['account', 'create', '--name', 'Token File', '--email', address, '--phone', '08031234567', '--password', 'long cli secret', '--kyc-level', '1'], env);
  t.equal(created.code, 0, `the CLI authenticates with the token file (${created.stderr.trim()})`);
  t.equal(JSON.parse(created.stdout).email, address, 'the account is created');

  const no_file = await run_cli(['pin', 'set', '1', '12345'], { DATA_DIR: join(generated.data_dir, 'missing'), ADMIN_PORT: String(generated.admin_port) });
  t.not(no_file.code, 0, 'without a token anywhere the CLI exits non-zero');
  t.match(no_file.stderr, /ADMIN_TOKEN/, 'and says that it has no ADMIN_TOKEN');
});
