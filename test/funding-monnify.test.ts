// Dedicated-account funding through Monnify (docs/funding.md), end to end: the real server, a fake Monnify
// speaking its documented API over HTTP (test/helpers/fake-monnify.ts, answers from test/fixtures/funding/monnify/).
// Each transfer is credited once, verified with the provider first; what cannot be verified goes to the
// operator's exceptions; the reconciler credits what no callback brought; all of it survives a restart.
import t from 'tap';
import { start_server, temp_dir, type TestServer } from './helpers/server.js';
import { start_fake_monnify, type FakeMonnify } from './helpers/fake-monnify.js';
import { funding_fixture_record } from './helpers/funding-fixtures.js';
import { make_monnify_provider } from '../src/services/funding/monnify.js';

const env = (fake: FakeMonnify) => ({ FUNDING_PROVIDERS: JSON.stringify([fake.entry('monnify')]), TIME_SCALE: '0.02' });

async function live_reseller(server: TestServer) {
  const account = await server.create_account();
  const key = await server.create_key(account.id, { environment: 'live' });
  return { id: account.id, key: key.api_key };
}

async function balance(server: TestServer, key: string): Promise<number> {
  const wallet = await server.api('GET', '/v1/wallet', { key });
  return wallet.body.data.balance;
}

async function post_callback(server: TestServer, callback: { raw: Buffer; headers: Record<string, string> }, name = 'monnify') {
  return server.api('POST', `/callbacks/funding/${name}`, { raw_body: callback.raw, headers: callback.headers });
}

t.test('the documented monnify-signature example verifies, and a changed byte does not', async (t) => {
  const example = funding_fixture_record('monnify', 'signature-example') as { client_secret: string; body: string; hash: string };
  const provider = make_monnify_provider({ name: 'm', kind: 'monnify', base_url: 'http://127.0.0.1:9', api_key: 'k', secret_key: example.client_secret, contract_code: '1', timeout_ms: 1000 }, Date.now);
  t.ok(provider.signature_valid(Buffer.from(example.body), { 'monnify-signature': example.hash }), 'the page\'s hashed value is accepted');
  t.notOk(provider.signature_valid(Buffer.from(example.body.replace('78000', '78001')), { 'monnify-signature': example.hash }), 'the same signature over altered bytes is refused');
  t.notOk(provider.signature_valid(Buffer.from(example.body), {}), 'a missing signature is refused');
});

t.test('dedicated accounts: created at Monnify, idempotent on repeat, kept across a restart', async (t) => {
  const fake = await start_fake_monnify();
  t.teardown(() => fake.stop());
  const data_dir = temp_dir();
  const server = await start_server(t, { data_dir, env: env(fake), keep_data: true });
  const reseller = await live_reseller(server);

  const created = await server.api('POST', '/v1/funding/accounts', { key: reseller.key, body: { bvn: '22212345678' } });
  t.equal(created.status, 201, `created: ${created.text}`);
  const rows = created.body.data.accounts;
  t.equal(rows.length, 3, 'one row per partner bank Monnify gave');
  t.ok(rows.every((r: any) => r.provider === 'monnify' && r.kind === 'monnify' && r.status === 'active' && /^\d{10}$/.test(r.account_number)), 'every row active with its NUBAN');
  const create_call = fake.calls('/api/v2/bank-transfer/reserved-accounts').find((c) => c.method === 'POST');
  t.equal((create_call?.body as any)?.bvn, '22212345678', 'the BVN went to Monnify');
  t.equal((create_call?.body as any)?.accountReference, `billvend-${reseller.id}`, 'billvend\'s stable reference for the customer');
  t.notOk(created.text.includes('22212345678'), 'the BVN is never shown back');

  const repeat = await server.api('POST', '/v1/funding/accounts', { key: reseller.key, body: {} });
  t.equal(repeat.status, 201);
  t.same(repeat.body.data.accounts, rows, 'a repeat answers the same rows');
  t.equal(fake.calls('/api/v2/bank-transfer/reserved-accounts').filter((c) => c.method === 'POST').length, 1, 'and asks Monnify for nothing new');

  const listed = await server.api('GET', '/v1/funding/accounts', { key: reseller.key });
  t.same(listed.body.data.accounts, rows, 'GET answers the same shape');

  const bad = await server.api('POST', '/v1/funding/accounts', { key: reseller.key, body: { bvn: '123' } });
  t.equal(bad.status, 400, 'a malformed BVN is refused');

  const restricted = await server.create_key(reseller.id, { environment: 'live', scopes: ['wallet:read'] });
  const refused = await server.api('POST', '/v1/funding/accounts', { key: restricted.api_key, body: {} });
  t.equal(refused.status, 403, 'creating accounts needs account:manage');
  t.equal(refused.body.error.code, 'auth.insufficient_scope');

  await server.stop();
  await server.start();
  const after = await server.api('GET', '/v1/funding/accounts', { key: reseller.key });
  t.same(after.body.data.accounts, rows, 'the accounts survive a restart');
});

t.test('a provider down during creation: the row is failed with its error, then retried in the background', async (t) => {
  const fake = await start_fake_monnify();
  t.teardown(() => fake.stop());
  const server = await start_server(t, { env: env(fake) });
  const reseller = await live_reseller(server);
  fake.down = true;
  const created = await server.api('POST', '/v1/funding/accounts', { key: reseller.key, body: {} });
  t.equal(created.status, 201);
  t.equal(created.body.data.accounts.length, 1);
  t.equal(created.body.data.accounts[0].status, 'failed', 'the provider\'s row is failed');
  t.match(created.body.data.accounts[0].error, /503/, 'with the provider\'s error');
  fake.down = false;
  // The retry: 1 minute, doubling (TIME_SCALE 0.02: 1.2 s, then 2.4 s).
  let rows: any[] = [];
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const listed = await server.api('GET', '/v1/funding/accounts', { key: reseller.key });
    t.equal(listed.status, 200, 'listed');
    rows = listed.body.data.accounts;
    if (rows[0]?.status === 'active') break;
  }
  t.equal(rows[0]?.status, 'active', 'the background retry made the accounts once Monnify was back');
});

t.test('callbacks: verified, credited exactly once under 20 concurrent repeats; forged and altered bodies refused', async (t) => {
  const fake = await start_fake_monnify();
  t.teardown(() => fake.stop());
  const server = await start_server(t, { env: env(fake) });
  const reseller = await live_reseller(server);
  const rows = (await server.api('POST', '/v1/funding/accounts', { key: reseller.key, body: {} })).body.data.accounts;
  const before = await balance(server, reseller.key);

  const paid = fake.pay_in({ account_number: rows[1].account_number, amount_kobo: 5_000_00, fee_kobo: 50_00 });
  const answers = await Promise.all(Array.from({ length: 20 }, () => post_callback(server, paid.callback)));
  t.ok(answers.every((a) => a.status === 200), `every repeat answers 200: ${answers.map((a) => a.status).join(',')}`);
  t.equal(answers.filter((a) => a.body.data.outcome === 'credited').length, 1, 'one credited');
  t.equal(await balance(server, reseller.key), before + 5000, 'the wallet got the amount paid once (the operator bears the fee)');
  const entries = (await server.api('GET', '/v1/wallet/transactions', { key: reseller.key })).body.data.transactions;
  const credits = entries.filter((e: any) => e.reference === paid.provider_reference);
  t.equal(credits.length, 1, 'one wallet entry for the transfer');
  t.same(credits[0].funding, { provider: 'monnify', provider_reference: paid.provider_reference, amount_paid: 5000, fee: 50, settlement_amount: 4950 }, 'the entry carries the funding');
  t.ok(fake.calls('/api/v2/transactions/').length >= 1, 'verified with Monnify before crediting');

  const again = await post_callback(server, paid.callback);
  t.equal(again.status, 200);
  t.equal(again.body.data.outcome, 'already_credited', 'a later repeat credits nothing');

  const forged = await post_callback(server, { raw: paid.callback.raw, headers: { 'content-type': 'application/json', 'monnify-signature': 'ab'.repeat(64) } });
  t.equal(forged.status, 401, 'a forged signature is 401');
  t.equal(forged.body.error.code, 'funding.invalid_signature');

  const second = fake.pay_in({ account_number: rows[0].account_number, amount_kobo: 1_000_00 });
  const altered = Buffer.from(second.callback.raw.toString('utf8').replace('"amountPaid":1000', '"amountPaid":9000'));
  t.not(altered.toString(), second.callback.raw.toString(), 'the body was altered');
  const tampered = await post_callback(server, { raw: altered, headers: second.callback.headers });
  t.equal(tampered.status, 401, 'a body altered after signing is 401');
  t.equal(await balance(server, reseller.key), before + 5000, 'nothing credited by either');

  const unknown = await post_callback(server, paid.callback, 'paystack');
  t.equal(unknown.status, 404, 'a provider not configured is 404');
  t.equal(unknown.body.error.code, 'funding.not_configured');
});

t.test('a callback that disagrees with Monnify\'s record and one for an unknown account are exceptions, credited only by a resolve, once', async (t) => {
  const fake = await start_fake_monnify();
  t.teardown(() => fake.stop());
  const server = await start_server(t, { env: env(fake) });
  const reseller = await live_reseller(server);
  const rows = (await server.api('POST', '/v1/funding/accounts', { key: reseller.key, body: {} })).body.data.accounts;
  const before = await balance(server, reseller.key);

  const transfer = fake.record_transfer({ account_number: rows[0].account_number, amount_kobo: 2_000_00, fee_kobo: 0 });
  const inflated = fake.callback_for(transfer.provider_reference, { amountPaid: 20000, totalPayable: 20000 });
  const answer = await post_callback(server, inflated);
  t.equal(answer.status, 200, 'answered 200 so the provider stops retrying');
  t.equal(answer.body.data.outcome, 'exception');
  t.equal(await balance(server, reseller.key), before, 'nothing credited');

  const stranger = fake.pay_in({ account_number: '9999999999', amount_kobo: 700_00 });
  const lost = await post_callback(server, stranger.callback);
  t.equal(lost.body.data.outcome, 'exception', 'a transfer into an account nobody owns is an exception');

  const reconcile = await server.admin('POST', '/admin/funding/reconcile', {});
  t.equal(reconcile.status, 200);
  t.equal(reconcile.body.data.credited, 0, 'the reconciler credits nothing that is in exceptions');
  t.equal(await balance(server, reseller.key), before);

  const listed = await server.admin('GET', '/admin/funding/exceptions');
  t.equal(listed.status, 200);
  const mismatch = listed.body.data.exceptions.find((e: any) => e.provider_reference === transfer.provider_reference);
  t.match(mismatch, { provider: 'monnify', amount: 20000, provider_amount: 2000, reason: 'amount_mismatch', account_id: reseller.id, status: 'open' }, 'the disagreement, with both amounts');
  const unknown = listed.body.data.exceptions.find((e: any) => e.provider_reference === stranger.provider_reference);
  t.match(unknown, { reason: 'unknown_account', account_id: null });

  const metrics = await server.admin('GET', '/metrics');
  t.match(metrics.text, /billvend_funding_exceptions_total 2/, 'counted in billvend_funding_exceptions_total');

  const resolves = await Promise.all([1, 2, 3].map(() => server.admin('POST', `/admin/funding/exceptions/${mismatch.id}/resolve`, { action: 'credit' })));
  t.equal(resolves.filter((r) => r.status === 200).length, 1, 'one resolve wins');
  t.ok(resolves.filter((r) => r.status !== 200).every((r) => r.body.error.code === 'funding.exception_resolved'), 'the others see it resolved');
  t.equal(await balance(server, reseller.key), before + 2000, 'credited once, Monnify\'s own amount');
  const replay = await post_callback(server, inflated);
  t.equal(replay.body.data.outcome, 'already_credited', 'the callback again credits nothing');

  const needs_account = await server.admin('POST', `/admin/funding/exceptions/${unknown.id}/resolve`, { action: 'credit' });
  t.equal(needs_account.status, 400, 'an unknown account needs account_id');
  const rejected = await server.admin('POST', `/admin/funding/exceptions/${unknown.id}/resolve`, { action: 'reject' });
  t.equal(rejected.status, 200);
  t.equal(rejected.body.data.exception.status, 'rejected');
  const missing = await server.admin('POST', '/admin/funding/exceptions/99999/resolve', { action: 'reject' });
  t.equal(missing.status, 404);
  t.equal(missing.body.error.code, 'funding.exception_not_found');
});

t.test('a callback that never comes: the reconciler credits the transfer, once; a restart keeps the credit key', async (t) => {
  const fake = await start_fake_monnify();
  t.teardown(() => fake.stop());
  const data_dir = temp_dir();
  const server = await start_server(t, { data_dir, env: env(fake), keep_data: true });
  const reseller = await live_reseller(server);
  const rows = (await server.api('POST', '/v1/funding/accounts', { key: reseller.key, body: {} })).body.data.accounts;
  const before = await balance(server, reseller.key);
  const silent = fake.pay_in({ account_number: rows[2].account_number, amount_kobo: 12_345_67 });

  const first = await server.admin('POST', '/admin/funding/reconcile', { provider: 'monnify' });
  t.equal(first.status, 200, first.text);
  t.same(first.body.data, { found: 1, credited: 1, exceptions: 0 }, 'found and credited');
  t.equal(await balance(server, reseller.key), before + 12345.67);
  const second = await server.admin('POST', '/admin/funding/reconcile', {});
  t.same(second.body.data, { found: 1, credited: 0, exceptions: 0 }, 'a second reconcile credits nothing');
  const late = await post_callback(server, silent.callback);
  t.equal(late.body.data.outcome, 'already_credited', 'the late callback credits nothing');

  const unconfigured = await server.admin('POST', '/admin/funding/reconcile', { provider: 'nope' });
  t.equal(unconfigured.status, 404);

  await server.stop();
  await server.start();
  const replay = await post_callback(server, silent.callback);
  t.equal(replay.status, 200);
  t.equal(replay.body.data.outcome, 'already_credited', 'after a restart the credit key still holds');
  t.equal(await balance(server, reseller.key), before + 12345.67, 'the balance unchanged');
});

t.test('without providers: the funding routes answer 404 funding.not_configured, the bank notification included', async (t) => {
  const server = await start_server(t);
  const reseller = await live_reseller(server);
  for (const [method, path, options] of [
    ['POST', '/v1/funding/accounts', { key: reseller.key, body: {} }],
    ['GET', '/v1/funding/accounts', { key: reseller.key }],
    ['POST', '/callbacks/funding/monnify', { raw_body: '{}', headers: { 'content-type': 'application/json' } }],
    ['POST', '/v1/funding/bank-transfer', { raw_body: '{}', headers: { 'content-type': 'application/json', 'x-signature': 'sha256=00' } }],
  ] as const) {
    const answer = await server.api(method, path, options as any);
    t.equal(answer.status, 404, `${method} ${path}`);
    t.equal(answer.body?.error?.code, 'funding.not_configured', `${method} ${path} code`);
  }
});

t.test('sandbox: a simulated transfer credits the test wallet through the same path, once per transfer', async (t) => {
  const server = await start_server(t);
  const reseller = await server.reseller(0);
  const answer = await server.api('POST', '/v1/sandbox/funding/transfer', { key: reseller.key, body: { amount: 2500.5 } });
  t.equal(answer.status, 201, answer.text);
  t.equal(answer.body.data.amount, 2500.5);
  t.match(answer.body.data.funding, { provider: 'sandbox', amount_paid: 2500.5, fee: 0, settlement_amount: 2500.5 });
  t.equal(await balance(server, reseller.key), 2500.5);
  const live = await server.create_key(reseller.id, { environment: 'live' });
  const refused = await server.api('POST', '/v1/sandbox/funding/transfer', { key: live.api_key, body: { amount: 1 } });
  t.equal(refused.status, 403, 'a live key is refused');
});
