// Dedicated-account funding through Paystack and Flutterwave, end to end (docs/funding.md "Paystack",
// "Flutterwave"): the real server with FUNDING_PROVIDERS naming both, each a fake speaking its provider's
// documented API over HTTP (test/helpers/fake-paystack.ts, fake-flutterwave-funding.ts). Accounts are made at
// both, each transfer is credited once however many times its callback comes, a forged signature is 401, and
// what the provider's record does not confirm credits nothing.
import t, { type Test } from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { start_fake_paystack, type FakePaystack } from './helpers/fake-paystack.js';
import { start_fake_flutterwave_funding, type FakeFlutterwaveFunding } from './helpers/fake-flutterwave-funding.js';
import { createHmac } from 'node:crypto';

async function both(t: Test): Promise<{ paystack: FakePaystack; flutterwave: FakeFlutterwaveFunding; server: TestServer }> {
  const paystack = await start_fake_paystack(t);
  const flutterwave = await start_fake_flutterwave_funding(t);
  const server = await start_server(t, {
    env: { FUNDING_PROVIDERS: JSON.stringify([paystack.entry('paystack'), flutterwave.entry('flw')]), TIME_SCALE: '50' },
  });
  return { paystack, flutterwave, server };
}

async function live_reseller(server: TestServer) {
  const account = await server.create_account();
  const key = await server.create_key(account.id, { environment: 'live' });
  return { id: account.id, key: key.api_key };
}

async function balance(server: TestServer, key: string): Promise<number> {
  const wallet = await server.api('GET', '/v1/wallet', { key });
  return wallet.body.data.balance;
}

function post_callback(server: TestServer, name: string, callback: { raw: Buffer; headers: Record<string, string> }) {
  return server.api('POST', `/callbacks/funding/${name}`, { raw_body: callback.raw, headers: callback.headers });
}

t.test('dedicated accounts are made at Paystack and Flutterwave, once', async (t) => {
  const { paystack, flutterwave, server } = await both(t);
  const reseller = await live_reseller(server);
  const created = await server.api('POST', '/v1/funding/accounts', { key: reseller.key, body: { bvn: '22212345678' } });
  t.equal(created.status, 201, created.text);
  const rows = created.body.data.accounts;
  const at_paystack = rows.find((r: any) => r.provider === 'paystack');
  const at_flutterwave = rows.find((r: any) => r.provider === 'flw');
  t.match(at_paystack, { kind: 'paystack', bank_name: 'Wema Bank', account_number: paystack.accounts()[0].account_number, status: 'active' }, 'the Paystack DVA');
  t.match(at_flutterwave, { kind: 'flutterwave', bank_name: 'WEMA BANK', account_number: flutterwave.accounts()[0].account_number, status: 'active' }, 'the Flutterwave static account');
  t.notOk(created.text.includes('22212345678'), 'the BVN is never shown back');
  const flw_post = flutterwave.calls('/v3/virtual-account-numbers')[0]?.body as Record<string, unknown>;
  t.match(flw_post, { is_permanent: true, bvn: '22212345678', tx_ref: `billvend-${reseller.id}` }, 'Flutterwave got the BVN and billvend\'s reference');
  const ps_post = paystack.calls('/customer').find((c) => c.method === 'POST')?.body as Record<string, unknown>;
  t.equal(ps_post.metadata, JSON.stringify({ billvend_reference: `billvend-${reseller.id}` }), 'Paystack\'s customer holds billvend\'s reference');
  t.notOk('bvn' in ps_post, 'Paystack is not sent the BVN (its validation needs a bank account too: docs/funding.md)');

  const repeat = await server.api('POST', '/v1/funding/accounts', { key: reseller.key, body: {} });
  t.same(repeat.body.data.accounts, rows, 'a repeat answers the same rows');
  t.equal(paystack.calls('/dedicated_account').filter((c) => c.method === 'POST').length, 1, 'no second Paystack account');
  t.equal(flutterwave.calls('/v3/virtual-account-numbers').length, 1, 'no second Flutterwave account');
});

t.test('Flutterwave without a BVN is a failed row with its reason; Paystack is still made', async (t) => {
  const { server } = await both(t);
  const reseller = await live_reseller(server);
  const created = await server.api('POST', '/v1/funding/accounts', { key: reseller.key, body: {} });
  t.equal(created.status, 201, created.text);
  const rows = created.body.data.accounts;
  t.match(rows.find((r: any) => r.provider === 'flw'), { status: 'failed', error: /BVN/ }, 'Flutterwave: failed, needs the BVN');
  t.match(rows.find((r: any) => r.provider === 'paystack'), { status: 'active' }, 'Paystack: made');
  const later = await server.api('POST', '/v1/funding/accounts', { key: reseller.key, body: { bvn: '22212345678' } });
  t.match(later.body.data.accounts.find((r: any) => r.provider === 'flw'), { status: 'active' }, 'repeating the POST with a BVN makes it');
});

t.test('a callback is credited once under 20 concurrent repeats, in exact kobo, for each provider', async (t) => {
  const { paystack, flutterwave, server } = await both(t);
  const reseller = await live_reseller(server);
  const rows = (await server.api('POST', '/v1/funding/accounts', { key: reseller.key, body: { bvn: '22212345678' } })).body.data.accounts;
  const account = (provider: string) => rows.find((r: any) => r.provider === provider).account_number;
  const before = await balance(server, reseller.key);

  const cases = [
    { name: 'paystack', paid: paystack.pay_in({ account_number: account('paystack'), amount_kobo: 123_456, fee_kobo: 1235 }) },
    { name: 'flw', paid: flutterwave.pay_in({ account_number: account('flw'), amount_kobo: 987_654, fee_kobo: 9877 }) },
  ];
  let expected = before;
  for (const { name, paid } of cases) {
    const answers = await Promise.all(Array.from({ length: 20 }, () => post_callback(server, name, paid.callback)));
    t.ok(answers.every((a) => a.status === 200), `${name}: every repeat answers 200 (${[...new Set(answers.map((a) => a.status))].join(',')})`);
    // Repeats that arrive while the first is being verified share its answer ("credited"); later ones are
    // "already_credited". What counts is the wallet: one entry, one amount.
    t.ok(answers.every((a) => a.body.data.outcome === 'credited' || a.body.data.outcome === 'already_credited'), `${name}: each answer is credited or already_credited`);
    expected = Math.round((expected * 100 + paid.amount_kobo)) / 100;
    t.equal(await balance(server, reseller.key), expected, `${name}: the wallet got ₦${paid.amount_kobo / 100} once (the operator bears the fee)`);
    const entries = (await server.api('GET', '/v1/wallet/transactions', { key: reseller.key })).body.data.transactions;
    const credits = entries.filter((e: any) => e.reference === paid.provider_reference);
    t.equal(credits.length, 1, `${name}: one wallet entry`);
    t.same(credits[0].funding, {
      provider: name, provider_reference: paid.provider_reference, amount_paid: paid.amount_kobo / 100, fee: paid.fee_kobo / 100,
      settlement_amount: (paid.amount_kobo - paid.fee_kobo) / 100,
    }, `${name}: the entry's funding, exact`);
    const late = await post_callback(server, name, paid.callback);
    t.equal(late.body.data.outcome, 'already_credited', `${name}: a later repeat credits nothing`);
  }
  t.ok(paystack.calls('/transaction/verify/').length >= 1, 'Paystack verified before crediting');
  t.ok(flutterwave.calls('/v3/transactions/').length >= 1, 'Flutterwave verified before crediting');

  // Two transfers into one static Flutterwave account repeat its tx_ref: two credits, keyed by transaction id.
  const again = flutterwave.pay_in({ account_number: account('flw'), amount_kobo: 987_654, fee_kobo: 9877 });
  const second = await post_callback(server, 'flw', again.callback);
  t.equal(second.body.data.outcome, 'credited', 'a second transfer with the same tx_ref is its own credit');
  t.equal(await balance(server, reseller.key), Math.round(expected * 100 + 987_654) / 100, 'credited');
});

t.test('a forged signature is 401; an altered body is refused (Paystack) or caught by verification (Flutterwave)', async (t) => {
  const { paystack, flutterwave, server } = await both(t);
  const reseller = await live_reseller(server);
  const rows = (await server.api('POST', '/v1/funding/accounts', { key: reseller.key, body: { bvn: '22212345678' } })).body.data.accounts;
  const account = (provider: string) => rows.find((r: any) => r.provider === provider).account_number;
  const before = await balance(server, reseller.key);

  const ps = paystack.pay_in({ account_number: account('paystack'), amount_kobo: 100_000 });
  const forged_ps = await post_callback(server, 'paystack', { raw: ps.callback.raw, headers: { ...ps.callback.headers, 'x-paystack-signature': createHmac('sha512', 'sk_test_attacker').update(ps.callback.raw).digest('hex') } });
  t.equal(forged_ps.status, 401, 'Paystack: forged signature 401');
  t.equal(forged_ps.body.error.code, 'funding.invalid_signature');
  const unsigned = await post_callback(server, 'paystack', { raw: ps.callback.raw, headers: { 'content-type': 'application/json' } });
  t.equal(unsigned.status, 401, 'Paystack: no signature 401');
  const altered_ps = await post_callback(server, 'paystack', { raw: Buffer.from(ps.callback.raw.toString().replace('"amount":100000', '"amount":900000')), headers: ps.callback.headers });
  t.equal(altered_ps.status, 401, 'Paystack: body altered after signing 401');

  const fw = flutterwave.pay_in({ account_number: account('flw'), amount_kobo: 100_000 });
  const forged_fw = await post_callback(server, 'flw', { raw: fw.callback.raw, headers: { ...fw.callback.headers, 'verif-hash': 'guessed' } });
  t.equal(forged_fw.status, 401, 'Flutterwave: forged verif-hash 401');
  t.equal(forged_fw.body.error.code, 'funding.invalid_signature');
  const altered_fw = await post_callback(server, 'flw', { raw: Buffer.from(fw.callback.raw.toString().replace('"amount":1000', '"amount":9000')), headers: fw.callback.headers });
  t.equal(altered_fw.status, 200, 'Flutterwave: an altered body carries a valid verif-hash (it signs nothing): 200 so it is not retried');
  t.equal(altered_fw.body.data.outcome, 'exception', 'but the verification disagrees: an exception, nothing credited');
  t.equal(await balance(server, reseller.key), before, 'nothing was credited by any of them');

  const genuine = await post_callback(server, 'paystack', ps.callback);
  t.equal(genuine.body.data.outcome, 'credited', 'the genuine Paystack callback still credits');
  t.equal(await balance(server, reseller.key), before + 1000);
});

t.test('a callback that never comes: the reconciler finds it at each provider and credits it once', async (t) => {
  const { paystack, flutterwave, server } = await both(t);
  const reseller = await live_reseller(server);
  const rows = (await server.api('POST', '/v1/funding/accounts', { key: reseller.key, body: { bvn: '22212345678' } })).body.data.accounts;
  const account = (provider: string) => rows.find((r: any) => r.provider === provider).account_number;
  const before = await balance(server, reseller.key);
  paystack.per_page_cap = 2;
  for (let i = 0; i < 5; i++) paystack.pay_in_silently({ account_number: account('paystack'), amount_kobo: 10_001 + i });
  for (let i = 0; i < 12; i++) flutterwave.pay_in_silently({ account_number: account('flw'), amount_kobo: 20_001 + i, fee_kobo: 1 });
  const paystack_sum = [0, 1, 2, 3, 4].reduce((s, i) => s + 10_001 + i, 0);
  const flutterwave_sum = Array.from({ length: 12 }, (_, i) => 20_001 + i).reduce((s, k) => s + k, 0);

  const first = await server.admin('POST', '/admin/funding/reconcile', {});
  t.equal(first.status, 200, first.text);
  t.same(first.body.data, { found: 17, credited: 17, exceptions: 0 }, 'all 17 found and credited, across pages');
  t.equal(await balance(server, reseller.key), Math.round(before * 100 + paystack_sum + flutterwave_sum) / 100, 'exactly their sum');
  const second = await server.admin('POST', '/admin/funding/reconcile', { provider: 'flw' });
  t.same(second.body.data, { found: 12, credited: 0, exceptions: 0 }, 'again: nothing credited twice');
});
