// Dedicated-account funding through Monnify (docs/funding.md), end to end: the real server, a fake Monnify
// speaking its documented API over HTTP (test/helpers/fake-monnify.ts, answers from test/fixtures/funding/monnify/).
// Each transfer is credited once, verified with the provider first; what cannot be verified goes to the
// operator's exceptions; the reconciler credits what no callback brought; all of it survives a restart.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { start_server, temp_dir, type TestServer } from './helpers/server.js';
import { start_fake_monnify, type FakeMonnify } from './helpers/fake-monnify.js';
import { funding_fixture_record } from './helpers/funding-fixtures.js';
import { run_cli } from './helpers/fixtures-http.js';
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
  const second = await run_cli(['funding', 'reconcile', '--provider', 'monnify'], { ADMIN_TOKEN: server.admin_token, ADMIN_PORT: String(server.admin_port) });
  t.equal(second.code, 0, `the CLI's funding reconcile exits 0 (${second.stderr.trim()})`);
  t.same(JSON.parse(second.stdout), { found: 1, credited: 0, exceptions: 0 }, 'a second reconcile (by the CLI) credits nothing');
  const late = await post_callback(server, silent.callback);
  t.equal(late.body.data.outcome, 'already_credited', 'the late callback credits nothing');

  const today = new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);
  const report = await run_cli(['funding', 'report', '--date', today], { ADMIN_TOKEN: server.admin_token, ADMIN_PORT: String(server.admin_port) });
  t.equal(report.code, 0, `funding report exits 0 (${report.stderr.trim()})`);
  t.same(JSON.parse(report.stdout), { date: today, providers: [{ provider: 'monnify', count: 1, amount_paid: 12345.67, fees: 123.45, credited: 12345.67, exceptions: 0 }] }, 'the day\'s report counts the credit once');
  const bad_date = await server.admin('GET', '/admin/funding/report?date=2026-02-30');
  t.equal(bad_date.status, 400, 'a date that does not exist is refused');
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

t.test('a tier with funding_fee reseller bears the provider\'s fee; the operator can make the accounts', async (t) => {
  const fake = await start_fake_monnify();
  t.teardown(() => fake.stop());
  const server = await start_server(t, { env: env(fake) });
  const tier = await server.admin('PUT', '/admin/pricing/agents', { rules: [{ service_type: 'airtime', rate_bp: 100 }], funding_fee: 'reseller' });
  t.equal(tier.status, 200, tier.text);
  t.equal(tier.body.data.funding_fee, 'reseller', 'the tier says who bears the fee');
  const account = await server.create_account({ tier: 'agents' });
  const key = (await server.create_key(account.id, { environment: 'live' })).api_key;
  const made = await server.admin('POST', `/admin/accounts/${account.id}/funding/accounts`, { nin: '12034875601' });
  t.equal(made.status, 201, made.text);
  t.equal(made.body.data.accounts.length, 3, 'the operator made the reseller\'s accounts');
  t.notOk(made.text.includes('12034875601'), 'the NIN is not shown back');
  const paid = fake.pay_in({ account_number: made.body.data.accounts[0].account_number, amount_kobo: 10_000_00, fee_kobo: 75_00 });
  const answer = await post_callback(server, paid.callback);
  t.equal(answer.body.data.outcome, 'credited');
  t.equal(await balance(server, key), 9925, 'the wallet got the amount paid less the fee');
  const entry = (await server.api('GET', '/v1/wallet/transactions', { key })).body.data.transactions[0];
  t.same(entry.funding, { provider: 'monnify', provider_reference: paid.provider_reference, amount_paid: 10000, fee: 75, settlement_amount: 9925 });
  t.equal(entry.amount, 9925);
  const missing = await server.admin('POST', '/admin/accounts/999999/funding/accounts', {});
  t.equal(missing.status, 404, 'an unknown account');
  await server.stop();
  const stored = readFileSync(join(server.data_dir, 'data.mdb'));
  t.notOk(stored.includes('12034875601'), 'the NIN is sealed at rest: its digits are nowhere in the store');
  t.notOk(stored.includes(fake.secret_key), 'nor is the provider\'s secret');
});

t.test('kill -9 under callbacks and a reconcile: every acknowledged credit is there once, entries sum to the balance, nothing lost', async (t) => {
  const fake = await start_fake_monnify();
  t.teardown(() => fake.stop());
  const data_dir = temp_dir();
  const server = await start_server(t, { data_dir, env: env(fake), keep_data: true });
  const reseller = await live_reseller(server);
  const rows = (await server.api('POST', '/v1/funding/accounts', { key: reseller.key, body: {} })).body.data.accounts;
  const transfers = Array.from({ length: 30 }, (_, i) => fake.pay_in({ account_number: rows[i % 3].account_number, amount_kobo: 100_00 + i, fee_kobo: 0 }));
  const acknowledged = new Set<string>();
  const sent = transfers.map((transfer, i) => new Promise((r) => setTimeout(r, i * 15)).then(() => post_callback(server, transfer.callback)).then(
    (answer) => {
      // "Already credited" acknowledges a credit as much as "credited" does (the bank stops retrying): the
      // reconcile sent beside the callbacks may credit a transfer first, and then its callback answers so.
      const outcome = answer.body?.data?.outcome;
      if (answer.status === 200 && (outcome === 'credited' || outcome === 'already_credited')) acknowledged.add(transfer.provider_reference);
    },
    () => undefined,
  ));
  const reconcile = server.admin('POST', '/admin/funding/reconcile', {}).catch(() => undefined);
  // Killed in the middle: once some callbacks were acknowledged, others still on their way.
  for (let i = 0; i < 200 && acknowledged.size < 8; i++) await new Promise((r) => setTimeout(r, 5));
  await server.kill();
  t.ok(acknowledged.size >= 1, 'some credits were acknowledged before the kill');
  await Promise.all([...sent, reconcile]);
  await server.start({ LMDB_RESTORE: 'safe' });

  const entries = (await server.api('GET', '/v1/wallet/transactions?per_page=100', { key: reseller.key })).body.data.transactions as any[];
  const by_reference = new Map<string, number>();
  for (const entry of entries) by_reference.set(entry.reference, (by_reference.get(entry.reference) ?? 0) + 1);
  for (const reference of acknowledged) t.equal(by_reference.get(reference), 1, `acknowledged ${reference} is credited once`);
  t.ok([...by_reference.values()].every((n) => n === 1), 'no transfer credited twice');
  const sum = entries.reduce((total, e) => total + Math.round(e.amount * 100), 0);
  t.equal(Math.round((await balance(server, reseller.key)) * 100), sum, 'the entries sum to the balance');

  // Nothing lost: the reconciler credits every transfer the kill left without a credit, once.
  const after = await server.admin('POST', '/admin/funding/reconcile', {});
  t.equal(after.status, 200);
  t.equal(after.body.data.found, 30, 'the provider lists all 30');
  t.equal(after.body.data.credited, 30 - by_reference.size, 'the reconciler credits exactly the ones missing');
  const expected = transfers.reduce((total, tr) => total + tr.amount_kobo, 0);
  t.equal(Math.round((await balance(server, reseller.key)) * 100), expected, 'every transfer is in the wallet once');
  t.comment(`acknowledged before the kill: ${acknowledged.size}, credited before the kill: ${by_reference.size}`);
});
