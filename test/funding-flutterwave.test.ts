// The Flutterwave funding provider module (src/services/funding/flutterwave-funding.ts) against the documented
// fake (test/helpers/fake-flutterwave-funding.ts) over real HTTP: static accounts made with the BVN and
// billvend's reference as tx_ref, found again rather than made twice, the verif-hash compared, the
// charge.completed claim keyed by the transaction id (never the tx_ref that every transfer into the account
// repeats), naira with decimals read into exact kobo, and the provider's failures told apart
// (docs/funding.md "Flutterwave").
import t from 'tap';
import { make_flutterwave_funding_provider } from '../src/services/funding/flutterwave-funding.js';
import { provider_kobo, provider_naira_to_kobo } from '../src/services/funding/provider-amounts.js';
import { FundingProviderError, type FundingCustomer, type FundingProviderConfig } from '../src/services/funding/funding-provider.js';
import {
  flutterwave_funding_secret_key, flutterwave_secret_hash, start_fake_flutterwave_funding, type FakeFlutterwaveFunding,
} from './helpers/fake-flutterwave-funding.js';
import { funding_fixture, funding_fixture_names, funding_fixture_record } from './helpers/funding-fixtures.js';

const signal = () => AbortSignal.timeout(10_000);

function config_for(fake: FakeFlutterwaveFunding, overrides: Partial<FundingProviderConfig> = {}): FundingProviderConfig {
  return {
    name: 'flw-main', kind: 'flutterwave', base_url: fake.base_url, api_key: '', secret_key: flutterwave_funding_secret_key,
    secret_hash: flutterwave_secret_hash, timeout_ms: 3000, ...overrides,
  };
}

const customer = (n: number, overrides: Partial<FundingCustomer> = {}): FundingCustomer => ({
  account_id: n, reference: `BVF-${String(n).padStart(6, '0')}`, name: `Chinedu Eze ${n}`, email: `reseller${n}@example.ng`,
  phone: '08031234567', bvn: '22212345678', nin: null, ...overrides,
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

t.test('naira with decimals is read into exact kobo, and anything not a whole kobo is unreadable', async (t) => {
  const exact: Array<[unknown, number | null]> = [
    [1234.56, 123_456], ['1234.56', 123_456], [0.01, 1], [0.07, 7], [0.1, 10], [19.99, 1999], [1.4, 140], [98.6, 9860], [11741.9, 1_174_190],
    [18558.1, 1_855_810], [100, 10_000], ['100.00', 10_000], ['500.0000', 50_000], [0, 0], ['0', 0], [' 12.5 ', 1250], ['007.10', 710],
    [999_999_999_999.99, 99_999_999_999_999], [4.35, 435], [1.15, 115], [2.675, null], [1.005, null], [0.1 + 0.2, null], [1e21, null],
    [1e-7, null], [-1, null], [-0.01, null], ['-5', null], ['1e3', null], ['12,000.00', null], ['', null], ['abc', null], [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null], [null, null], [undefined, null], [{}, null], [true, null], ['1.', null], ['.5', null], [99_999_999_999_999.9, null],
  ];
  for (const [value, kobo] of exact) t.equal(provider_naira_to_kobo(value), kobo, `${JSON.stringify(value) ?? String(value)} → ${kobo}`);
  // Every kobo amount up to ₦10,000 survives the trip through its JSON number and back.
  let wrong = 0;
  for (let k = 0; k <= 1_000_000; k++) if (provider_naira_to_kobo(JSON.parse(JSON.stringify(k / 100))) !== k) wrong++;
  t.equal(wrong, 0, 'k / 100 read back is k for every k up to 1,000,000 kobo');
  for (const [value, kobo] of [[25000, 25000], ['375', 375], [100.5, null], [-1, null], [2 ** 53, null], ['12a', null], [null, null]] as Array<[unknown, number | null]>) {
    t.equal(provider_kobo(value), kobo, `kobo ${String(value)} → ${kobo}`);
  }
});

t.test('every Flutterwave fixture names the page it is copied from', async (t) => {
  for (const name of funding_fixture_names('flutterwave')) {
    const record = funding_fixture_record('flutterwave', name);
    t.match(record._source, /^https:\/\//, `${name}: _source is a URL`);
    t.type(record._verbatim, 'boolean', `${name}: says whether it is verbatim`);
    t.type(record._note, 'string', `${name}: says what it is`);
  }
});

t.test('account creation asks for a static account with the BVN and billvend\'s reference as tx_ref', async (t) => {
  const fake = await start_fake_flutterwave_funding(t);
  const provider = make_flutterwave_funding_provider(config_for(fake), Date.now);
  const accounts = await provider.create_accounts(customer(1), signal());
  t.same(accounts, [{ bank_name: 'WEMA BANK', account_number: fake.accounts()[0].account_number, account_name: 'Chinedu Eze 1', status: 'active' }], 'the account Flutterwave made');
  const posts = fake.calls('/v3/virtual-account-numbers');
  t.equal(posts.length, 1, 'one request');
  t.same(posts[0].body, {
    email: 'reseller1@example.ng', is_permanent: true, bvn: '22212345678', tx_ref: 'BVF-000001', phonenumber: '08031234567',
    firstname: 'Chinedu', lastname: 'Eze 1', narration: 'Chinedu Eze 1',
  }, 'the documented fields of a static account');

  const again = await provider.create_accounts(customer(1), signal());
  t.same(again, accounts, 'a repeat answers the same account');
  t.equal(fake.calls('/v3/virtual-account-numbers').length, 1, 'without asking Flutterwave for a second');
  const [x, y] = await Promise.all([provider.create_accounts(customer(2), signal()), provider.create_accounts(customer(2), signal())]);
  t.same(x, y, 'two concurrent requests for one reseller: one account');
  t.equal(fake.calls('/v3/virtual-account-numbers').length, 2, 'one request for both');
  t.equal(fake.accounts().length, 2, 'two resellers, two accounts');
});

t.test('account creation without a BVN, or while Flutterwave is down, fails and says whether to retry', async (t) => {
  const fake = await start_fake_flutterwave_funding(t);
  const provider = make_flutterwave_funding_provider(config_for(fake), Date.now);
  const no_bvn = await rejection(provider.create_accounts(customer(3, { bvn: null }), signal()));
  t.ok(no_bvn instanceof FundingProviderError && !no_bvn.retryable, 'no BVN: not retryable (a static account needs it)');
  t.equal(fake.calls('/v3').length, 0, 'and nothing was asked');

  fake.down = true;
  const down = await rejection(provider.create_accounts(customer(4), signal()));
  t.ok(down instanceof FundingProviderError && down.retryable, 'down (the documented 503): retryable');
  t.match((down as Error).message, /503.*contact support/, 'with Flutterwave\'s message');
  fake.down = false;
  const made = await provider.create_accounts(customer(4), signal());
  t.equal(made.length, 1, 'a failure is not remembered: the next request makes the account');

  const refused = await rejection(make_flutterwave_funding_provider(config_for(fake, { secret_key: 'FLWSECK_TEST-wrong' }), Date.now).create_accounts(customer(5), signal()));
  t.ok(refused instanceof FundingProviderError && !refused.retryable, 'the documented 401: not retryable');
  t.notMatch((refused as Error).message, /22212345678|FLWSECK_TEST-wrong/, 'the error names neither the BVN nor the key');

  fake.refuse_creation = 'The BVN 22212345678 could not be validated';
  const quoted = await rejection(provider.create_accounts(customer(12), signal()));
  t.ok(quoted instanceof FundingProviderError && !quoted.retryable, 'a refusal (HTTP 400, the documented envelope): not retryable');
  t.match((quoted as Error).message, /The BVN \[redacted\] could not be validated/, 'Flutterwave\'s message, with the BVN it quoted taken out');
  t.notMatch((quoted as Error).message, /22212345678/, 'the BVN never leaves in an error (the core logs it and shows it on the row)');
});

t.test('verif-hash: the configured secret hash, compared for equality; it does not cover the body', async (t) => {
  const fake = await start_fake_flutterwave_funding(t);
  const provider = make_flutterwave_funding_provider(config_for(fake), Date.now);
  const [account] = await provider.create_accounts(customer(6), signal());
  const paid = fake.pay_in({ account_number: account.account_number, amount_kobo: 500_000, fee_kobo: 7000 });
  t.ok(provider.signature_valid(paid.callback.raw, paid.callback.headers), 'the secret hash: valid');
  for (const forged of ['', 'wrong', `${flutterwave_secret_hash} `, flutterwave_secret_hash.slice(0, -1), flutterwave_secret_hash.toUpperCase()]) {
    t.notOk(provider.signature_valid(paid.callback.raw, { ...paid.callback.headers, 'verif-hash': forged }), `forged verif-hash ${JSON.stringify(forged)}: refused`);
  }
  const { 'verif-hash': _, ...bare } = paid.callback.headers;
  t.notOk(provider.signature_valid(paid.callback.raw, bare), 'no verif-hash: refused');
  const unconfigured = make_flutterwave_funding_provider(config_for(fake, { secret_hash: undefined }), Date.now);
  t.notOk(unconfigured.signature_valid(paid.callback.raw, paid.callback.headers), 'no secret_hash configured: nothing is valid');
  t.notOk(make_flutterwave_funding_provider(config_for(fake, { secret_hash: '' }), Date.now).signature_valid(paid.callback.raw, { 'verif-hash': '' }), 'an empty secret_hash: nothing is valid');

  // Flutterwave's verif-hash is a shared secret, not a signature of the body: an altered body still carries
  // it. What protects the wallet is verify: the core credits Flutterwave's record, never the claim.
  const altered = Buffer.from(paid.callback.raw.toString('utf8').replace('"amount":5000', '"amount":9000'));
  t.not(altered.toString(), paid.callback.raw.toString(), 'the body was altered');
  t.ok(provider.signature_valid(altered, paid.callback.headers), 'body altered after sending: the verif-hash still matches (documented limit)');
  const claim = provider.parse_callback(JSON.parse(altered.toString()));
  t.equal(claim?.amount_paid_kobo, 900_000, 'the altered claim says ₦9,000');
  t.equal((await provider.verify(claim!.provider_reference, signal()))?.amount_paid_kobo, 500_000, 'verify says ₦5,000: the core sees the disagreement');
});

t.test('parse_callback reads the documented charge.completed of a bank transfer, keyed by the transaction id, and null for anything else', async (t) => {
  const fake = await start_fake_flutterwave_funding(t);
  const provider = make_flutterwave_funding_provider(config_for(fake), Date.now);
  const documented = funding_fixture('flutterwave', 'charge-completed-bank-transfer');
  t.same(provider.parse_callback(documented), { provider_reference: '8321945', amount_paid_kobo: 5_000_000, account_number: null, customer_reference: 'order_1736846575470' },
    'the recorded webhook: the id (not the tx_ref), ₦50,000 in kobo, the tx_ref as billvend\'s reference');

  const [account] = await provider.create_accounts(customer(7), signal());
  const one = fake.pay_in({ account_number: account.account_number, amount_kobo: 123_456, fee_kobo: 1235 });
  const two = fake.pay_in({ account_number: account.account_number, amount_kobo: 123_456, fee_kobo: 1235 });
  const first = provider.parse_callback(JSON.parse(one.callback.raw.toString()));
  const second = provider.parse_callback(JSON.parse(two.callback.raw.toString()));
  t.same(first, { provider_reference: one.provider_reference, amount_paid_kobo: 123_456, account_number: null, customer_reference: 'BVF-000007' }, '₦1,234.56 exactly');
  t.equal(JSON.parse(one.callback.raw.toString()).data.tx_ref, JSON.parse(two.callback.raw.toString()).data.tx_ref, 'two transfers into one static account repeat its tx_ref');
  t.not(first?.provider_reference, second?.provider_reference, 'but are two provider references: two credits, not one');

  const junk: Array<[string, unknown]> = [
    ['null', null], ['undefined', undefined], ['a number', 7], ['a string', 'charge.completed'], ['an array', [documented]], ['an empty object', {}],
    ['another event', { ...documented, event: 'transfer.completed' }], ['no data', { event: 'charge.completed' }],
    ['a card charge', { ...documented, data: { ...documented.data, payment_type: 'card' } }],
    ['a failed transfer', { ...documented, data: { ...documented.data, status: 'failed' } }],
    ['a pending transfer', { ...documented, data: { ...documented.data, status: 'pending' } }],
    ['no id', { ...documented, data: { ...documented.data, id: undefined } }],
    ['a fractional id', { ...documented, data: { ...documented.data, id: 1.5 } }],
    ['sub-kobo amount', { ...documented, data: { ...documented.data, amount: 100.005 } }],
    ['a negative amount', { ...documented, data: { ...documented.data, amount: -5 } }],
    ['an amount in words', { ...documented, data: { ...documented.data, amount: 'fifty' } }],
    ['data an array', { event: 'charge.completed', data: [] }],
  ];
  for (const [what, body] of junk) {
    let claim: unknown = 'threw';
    t.doesNotThrow(() => (claim = provider.parse_callback(body)), `${what}: no throw`);
    t.equal(claim, null, `${what}: null`);
  }
});

t.test('verify reports Flutterwave\'s record in exact kobo, null for an unknown id, and errors by kind', async (t) => {
  const fake = await start_fake_flutterwave_funding(t);
  const provider = make_flutterwave_funding_provider(config_for(fake), Date.now);
  const documented = funding_fixture('flutterwave', 'transaction-verify-bank-transfer');
  t.equal(documented.data.amount_settled, 986, 'the documented record: ₦1,000 less a ₦14 fee settles ₦986');

  const [account] = await provider.create_accounts(customer(8), signal());
  for (const [amount, fee] of [[123_456, 1235], [1, 0], [10, 1], [100_000_000_00, 300_00], [999_999, 14_000], [50_005, 5]] as Array<[number, number]>) {
    const paid = fake.pay_in({ account_number: account.account_number, amount_kobo: amount, fee_kobo: fee });
    const transfer = await provider.verify(paid.provider_reference, signal());
    t.same(transfer, {
      provider_reference: paid.provider_reference, status: 'successful', amount_paid_kobo: amount, fee_kobo: fee, settlement_kobo: amount - fee,
      account_number: null, customer_reference: 'BVF-000008', paid_at: transfer?.paid_at,
    }, `₦${amount / 100} less ₦${fee / 100}, exactly`);
  }
  const paid = fake.pay_in({ account_number: account.account_number, amount_kobo: 500_000 });
  fake.alter(paid.provider_reference, { amount_kobo: 5_000 });
  t.equal((await provider.verify(paid.provider_reference, signal()))?.amount_paid_kobo, 5_000, 'Flutterwave\'s record, not the claim');
  fake.alter(paid.provider_reference, { status: 'pending' });
  t.equal((await provider.verify(paid.provider_reference, signal()))?.status, 'pending', 'pending');
  fake.alter(paid.provider_reference, { status: 'failed' });
  t.equal((await provider.verify(paid.provider_reference, signal()))?.status, 'failed', 'failed');

  t.equal(await provider.verify('99999999', signal()), null, 'an unknown id: null ("No transaction was found for this id")');
  const before = fake.calls('/v3/transactions').length;
  t.equal(await provider.verify('BVF-000008', signal()), null, 'a tx_ref is no transaction id: null');
  t.equal(await provider.verify('../v3/x', signal()), null, 'path characters: null');
  t.equal(fake.calls('/v3/transactions').length, before, 'neither was sent');

  fake.down = true;
  const down = await rejection(provider.verify(paid.provider_reference, signal()));
  t.ok(down instanceof FundingProviderError && down.retryable, 'down: FundingProviderError, retryable');
  fake.down = false;
  const refused = await rejection(make_flutterwave_funding_provider(config_for(fake, { secret_key: 'nope' }), Date.now).verify(paid.provider_reference, signal()));
  t.ok(refused instanceof FundingProviderError && !refused.retryable, 'a refused key: not retryable');
});

t.test('recent_transfers reads every page, keeps bank transfers of the window, in exact kobo', async (t) => {
  const fake = await start_fake_flutterwave_funding(t);
  const now = Date.now();
  const provider = make_flutterwave_funding_provider(config_for(fake), () => now);
  const [a] = await provider.create_accounts(customer(9), signal());
  const [b] = await provider.create_accounts(customer(10), signal());
  const inside = [];
  for (let i = 0; i < 23; i++) {
    const account = i % 2 === 0 ? a : b;
    const amount = 100_00 + i * 1234 + 56;
    inside.push(i % 3 === 0
      ? fake.pay_in_silently({ account_number: account.account_number, amount_kobo: amount, fee_kobo: i })
      : fake.pay_in({ account_number: account.account_number, amount_kobo: amount, fee_kobo: i }));
  }
  const outside = fake.pay_in_at({ account_number: a.account_number, amount_kobo: 100, at_ms: now - 30 * 3_600_000 });
  const listed = await provider.recent_transfers(now - 24 * 3_600_000, now + 1000, signal());
  t.same(listed.map((x) => x.provider_reference).sort(), inside.map((x) => x.provider_reference).sort(), 'the 23 transfers of the window, callback or none');
  t.notOk(listed.some((x) => x.provider_reference === outside.provider_reference), 'a transfer before the window is left out though listed');
  for (const transfer of inside) {
    const found = listed.find((x) => x.provider_reference === transfer.provider_reference);
    t.same([found?.amount_paid_kobo, found?.fee_kobo, found?.settlement_kobo], [transfer.amount_kobo, transfer.fee_kobo, transfer.amount_kobo - transfer.fee_kobo], `${transfer.provider_reference}: exact`);
  }
  const pages = fake.calls('/v3/transactions').filter((c) => c.path === '/v3/transactions');
  t.same(pages.map((c) => c.query.page), ['1', '2', '3'], '24 rows, 10 a page: three pages, read until page_info.total_pages');
  t.match(pages[0].query, { from: /^\d{4}-\d\d-\d\d$/, to: /^\d{4}-\d\d-\d\d$/ }, 'from and to are dates, as documented');

  const documented = funding_fixture('flutterwave', 'transactions-list');
  t.equal(documented.data[0].payment_type, 'card', 'the documented row is a card payment, which the reconciler leaves alone');
  fake.down = true;
  const down = await rejection(provider.recent_transfers(now - 1000, now, signal()));
  t.ok(down instanceof FundingProviderError && down.retryable, 'down: retryable');
});

t.test('timeouts are honoured (config.timeout_ms)', async (t) => {
  const fake = await start_fake_flutterwave_funding(t);
  const provider = make_flutterwave_funding_provider(config_for(fake, { timeout_ms: 200 }), Date.now);
  fake.delay_ms = 2000;
  for (const [what, call] of [
    ['verify', () => provider.verify('123', signal())],
    ['create_accounts', () => provider.create_accounts(customer(11), signal())],
    ['recent_transfers', () => provider.recent_transfers(Date.now() - 1000, Date.now(), signal())],
  ] as const) {
    const started = Date.now();
    const error = await rejection(call());
    const took = Date.now() - started;
    t.ok(error instanceof FundingProviderError && error.retryable, `${what}: a retryable FundingProviderError`);
    t.ok(took >= 150 && took < 1500, `${what}: gave up after about 200 ms (${took} ms)`);
  }
});
