// The Paystack funding provider module (src/services/funding/paystack.ts) against the documented fake
// (test/helpers/fake-paystack.ts) over real HTTP: dedicated accounts made once and found again, the
// x-paystack-signature checked on the raw bytes, the charge.success claim read (and junk refused without a
// throw), verify and the reconciler's list in exact kobo, and the provider's failures told apart
// (docs/funding.md "Paystack").
import t from 'tap';
import { createHmac } from 'node:crypto';
import { make_paystack_provider, paystack_page_size } from '../src/services/funding/paystack.js';
import { FundingProviderError, type FundingCustomer, type FundingProviderConfig } from '../src/services/funding/funding-provider.js';
import { paystack_secret_key, start_fake_paystack, type FakePaystack } from './helpers/fake-paystack.js';
import { funding_fixture, funding_fixture_names, funding_fixture_record } from './helpers/funding-fixtures.js';

const signal = () => AbortSignal.timeout(10_000);

function config_for(fake: FakePaystack, overrides: Partial<FundingProviderConfig> = {}): FundingProviderConfig {
  return { name: 'paystack-main', kind: 'paystack', base_url: fake.base_url, api_key: '', secret_key: paystack_secret_key, timeout_ms: 3000, ...overrides };
}

const customer = (n: number, overrides: Partial<FundingCustomer> = {}): FundingCustomer => ({
  account_id: n, reference: `BVF-${String(n).padStart(6, '0')}`, name: `Adaeze Okafor ${n}`, email: `reseller${n}@example.ng`,
  phone: '+2348031234567', bvn: null, nin: null, ...overrides,
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

t.test('every Paystack fixture names the page it is copied from', async (t) => {
  for (const name of funding_fixture_names('paystack')) {
    const record = funding_fixture_record('paystack', name);
    t.match(record._source, /^https:\/\//, `${name}: _source is a URL`);
    t.type(record._verbatim, 'boolean', `${name}: says whether it is verbatim`);
    t.type(record._note, 'string', `${name}: says what it is`);
  }
});

t.test('account creation makes a customer and a dedicated account as documented, and a repeat finds the same account', async (t) => {
  const fake = await start_fake_paystack(t);
  const provider = make_paystack_provider(config_for(fake), Date.now);
  const first = await provider.create_accounts(customer(1), signal());
  t.equal(first.length, 1, 'one account (one bank)');
  t.same(first[0], { bank_name: 'Wema Bank', account_number: fake.accounts()[0].account_number, account_name: fake.accounts()[0].account_name, status: 'active' }, 'the account Paystack made');
  const customer_posts = fake.calls('/customer').filter((c) => c.method === 'POST');
  t.equal(customer_posts.length, 1, 'one customer created');
  t.same(customer_posts[0].body, {
    email: 'reseller1@example.ng', first_name: 'Adaeze', last_name: 'Okafor 1', phone: '+2348031234567', metadata: JSON.stringify({ billvend_reference: 'BVF-000001' }),
  }, 'the documented customer fields, with billvend\'s reference in the metadata');
  const account_posts = fake.calls('/dedicated_account').filter((c) => c.method === 'POST');
  t.equal(account_posts.length, 1, 'one dedicated account asked for');
  t.match(account_posts[0].body, { customer: /^CUS_/ }, 'by the customer_code');
  t.equal(fake.accounts()[0].customer_reference, 'BVF-000001', 'Paystack holds billvend\'s reference');

  const again = await provider.create_accounts(customer(1), signal());
  t.same(again, first, 'a repeat answers the same account');
  t.equal(fake.calls('/customer').filter((c) => c.method === 'POST').length, 1, 'the repeat found the customer (GET /customer/{email}) and made no second');
  t.equal(fake.calls('/dedicated_account').filter((c) => c.method === 'POST').length, 1, 'and found the account (GET /dedicated_account?customer=) and made no second');
  t.equal(fake.accounts().length, 1, 'Paystack has one account for the reseller');

  // Another module instance (a restart) finds it too: the idempotency is Paystack's record, not memory.
  const restarted = make_paystack_provider(config_for(fake), Date.now);
  t.same(await restarted.create_accounts(customer(1), signal()), first, 'after a restart, the same account');
  t.equal(fake.accounts().length, 1, 'still one account');

  const other = await provider.create_accounts(customer(2, { phone: null, name: 'Musa' }), signal());
  t.not(other[0].account_number, first[0].account_number, 'another reseller gets another account');
  const musa = fake.calls('/customer').filter((c) => c.method === 'POST')[1].body as Record<string, unknown>;
  t.equal(musa.first_name, 'Musa', 'a one-word name is the first name');
  t.equal(musa.last_name, 'Musa', 'and the last name (Paystack needs both)');
  t.notOk('phone' in musa, 'no phone is sent when there is none');
});

t.test('account creation failures say whether asking again may help', async (t) => {
  const fake = await start_fake_paystack(t);
  fake.down = true;
  const down = await rejection(make_paystack_provider(config_for(fake), Date.now).create_accounts(customer(3), signal()));
  t.ok(down instanceof FundingProviderError && down.retryable, 'provider down (HTTP 503): retryable');
  fake.down = false;
  const refused = await rejection(make_paystack_provider(config_for(fake, { secret_key: 'sk_test_wrong' }), Date.now).create_accounts(customer(3), signal()));
  t.ok(refused instanceof FundingProviderError && !refused.retryable, 'the documented 401 Invalid key: not retryable');
  t.match((refused as Error).message, /Invalid key/, 'with Paystack\'s message');
  t.notMatch((refused as Error).message, /sk_test_wrong/, 'never the key itself');
});

t.test('the x-paystack-signature is the hex HMAC-SHA512 of the exact raw body', async (t) => {
  const fake = await start_fake_paystack(t);
  const provider = make_paystack_provider(config_for(fake), Date.now);
  const [account] = await provider.create_accounts(customer(4), signal());
  const paid = fake.pay_in({ account_number: account.account_number, amount_kobo: 500_000, fee_kobo: 5000 });
  t.ok(provider.signature_valid(paid.callback.raw, paid.callback.headers), 'the signed callback is valid');
  t.ok(provider.signature_valid(new Uint8Array(paid.callback.raw), paid.callback.headers), 'as a Uint8Array too');

  const forged = createHmac('sha512', 'sk_test_attacker').update(paid.callback.raw).digest('hex');
  t.notOk(provider.signature_valid(paid.callback.raw, { ...paid.callback.headers, 'x-paystack-signature': forged }), 'signed with another key: refused');
  const altered = Buffer.from(paid.callback.raw.toString('utf8').replace('"amount":500000', '"amount":900000'));
  t.not(altered.toString(), paid.callback.raw.toString(), 'the body was altered');
  t.notOk(provider.signature_valid(altered, paid.callback.headers), 'body altered after signing: refused');
  const reformatted = Buffer.from(JSON.stringify(JSON.parse(paid.callback.raw.toString()), null, 1));
  t.notOk(provider.signature_valid(reformatted, paid.callback.headers), 'the same JSON re-serialised: refused (the signature is over the bytes)');
  const { 'x-paystack-signature': _, ...unsigned } = paid.callback.headers;
  t.notOk(provider.signature_valid(paid.callback.raw, unsigned), 'no signature header: refused');
  for (const bad of ['', 'abc', paid.callback.headers['x-paystack-signature'].slice(0, 127), `${paid.callback.headers['x-paystack-signature']}00`, 'z'.repeat(128)]) {
    t.notOk(provider.signature_valid(paid.callback.raw, { ...paid.callback.headers, 'x-paystack-signature': bad }), `a malformed signature (${bad.length} chars): refused`);
  }
});

t.test('parse_callback reads the documented charge.success of a DVA, and null for anything else', async (t) => {
  const fake = await start_fake_paystack(t);
  const provider = make_paystack_provider(config_for(fake), Date.now);
  const documented = funding_fixture('paystack', 'charge-success-dedicated-nuban');
  t.same(provider.parse_callback(documented), { provider_reference: 'zuz8ggd1ro', amount_paid_kobo: 25000, account_number: '9930000902', customer_reference: null },
    'the recorded event: Paystack\'s reference, the amount in kobo, the receiver account of the authorization');

  const [account] = await provider.create_accounts(customer(5), signal());
  const paid = fake.pay_in({ account_number: account.account_number, amount_kobo: 123_456, fee_kobo: 1235 });
  t.same(provider.parse_callback(JSON.parse(paid.callback.raw.toString())), {
    provider_reference: paid.provider_reference, amount_paid_kobo: 123_456, account_number: account.account_number, customer_reference: 'BVF-000005',
  }, 'a fake transfer: its reference, exact kobo, the account, billvend\'s reference from the customer\'s metadata');

  const with_metadata_account = structuredClone(documented);
  delete with_metadata_account.data.authorization.receiver_bank_account_number;
  with_metadata_account.data.metadata = { receiver_account_number: '9930000999' };
  t.equal(provider.parse_callback(with_metadata_account)?.account_number, '9930000999', 'without the authorization\'s receiver, metadata.receiver_account_number');

  const junk: Array<[string, unknown]> = [
    ['null', null], ['undefined', undefined], ['a number', 42], ['a string', 'charge.success'], ['an array', [documented]], ['an empty object', {}],
    ['another event', { ...documented, event: 'transfer.success' }],
    ['no data', { event: 'charge.success' }], ['data not an object', { event: 'charge.success', data: 'x' }],
    ['a card charge', { ...documented, data: { ...documented.data, channel: 'card', authorization: { ...documented.data.authorization, channel: 'card' } } }],
    ['a failed charge', { ...documented, data: { ...documented.data, status: 'failed' } }],
    ['no reference', { ...documented, data: { ...documented.data, reference: undefined } }],
    ['an empty reference', { ...documented, data: { ...documented.data, reference: '' } }],
    ['a fractional amount', { ...documented, data: { ...documented.data, amount: 100.5 } }],
    ['a negative amount', { ...documented, data: { ...documented.data, amount: -100 } }],
    ['an amount in words', { ...documented, data: { ...documented.data, amount: 'ten naira' } }],
    ['an unsafe amount', { ...documented, data: { ...documented.data, amount: 2 ** 60 } }],
    ['authorization null', { ...documented, data: { ...documented.data, channel: 'card', authorization: null } }],
  ];
  for (const [what, body] of junk) {
    let claim: unknown = 'threw';
    t.doesNotThrow(() => (claim = provider.parse_callback(body)), `${what}: no throw`);
    t.equal(claim, null, `${what}: null`);
  }
});

t.test('verify reports Paystack\'s record in exact kobo, null for an unknown reference, and errors by kind', async (t) => {
  const fake = await start_fake_paystack(t);
  const provider = make_paystack_provider(config_for(fake), Date.now);
  const [account] = await provider.create_accounts(customer(6), signal());
  const cases: Array<[number, number]> = [[123_456, 1235], [1, 0], [100, 100], [10_000_000_000, 30_000], [999_999, 10_000]];
  for (const [amount, fee] of cases) {
    const paid = fake.pay_in({ account_number: account.account_number, amount_kobo: amount, fee_kobo: fee });
    const transfer = await provider.verify(paid.provider_reference, signal());
    t.same(transfer, {
      provider_reference: paid.provider_reference, status: 'successful', amount_paid_kobo: amount, fee_kobo: fee, settlement_kobo: amount - fee,
      account_number: account.account_number, customer_reference: 'BVF-000006', paid_at: transfer?.paid_at,
    }, `₦${amount / 100} less a ₦${fee / 100} fee, exactly`);
    t.match(transfer?.paid_at, /^\d{4}-\d\d-\d\dT/, 'paid at an ISO instant');
  }

  const disagreeing = fake.pay_in({ account_number: account.account_number, amount_kobo: 500_000 });
  fake.alter(disagreeing.provider_reference, { amount_kobo: 50_000 });
  t.equal((await provider.verify(disagreeing.provider_reference, signal()))?.amount_paid_kobo, 50_000, 'verify reports Paystack\'s record, not the callback\'s claim');
  fake.alter(disagreeing.provider_reference, { status: 'reversed' });
  t.equal((await provider.verify(disagreeing.provider_reference, signal()))?.status, 'failed', 'a reversed transaction is failed');
  fake.alter(disagreeing.provider_reference, { status: 'ongoing' });
  t.equal((await provider.verify(disagreeing.provider_reference, signal()))?.status, 'pending', 'an ongoing one is pending');

  t.equal(await provider.verify('never-paid-123', signal()), null, 'an unknown reference: null (the documented 404)');
  t.equal(await provider.verify('../transaction?x=1', signal()), null, 'a reference with path characters is sent encoded: unknown, null');
  t.match(fake.calls('/transaction/verify/').at(-1)?.path, /^\/transaction\/verify\/\.\.%2Ftransaction%3Fx%3D1$/, 'encoded in the path');

  fake.down = true;
  const down = await rejection(provider.verify(disagreeing.provider_reference, signal()));
  t.ok(down instanceof FundingProviderError && down.retryable, 'provider down: FundingProviderError, retryable');
  fake.down = false;
  const refused = await rejection(make_paystack_provider(config_for(fake, { secret_key: 'sk_test_wrong' }), Date.now).verify(disagreeing.provider_reference, signal()));
  t.ok(refused instanceof FundingProviderError && !refused.retryable, 'a refused key: not retryable');

  const closed = await start_fake_paystack(t);
  await closed.stop();
  const unreachable = await rejection(make_paystack_provider(config_for(closed), Date.now).verify('x', signal()));
  t.ok(unreachable instanceof FundingProviderError && unreachable.retryable, 'connection refused: retryable');
});

t.test('recent_transfers reads every page of the window, DVA transfers only, in exact kobo', async (t) => {
  const fake = await start_fake_paystack(t);
  const provider = make_paystack_provider(config_for(fake), Date.now);
  const [a] = await provider.create_accounts(customer(7), signal());
  const [b] = await provider.create_accounts(customer(8), signal());
  const from = Date.now() - 1000;
  const paid = [
    fake.pay_in({ account_number: a.account_number, amount_kobo: 123_456, fee_kobo: 1235 }),
    fake.pay_in_silently({ account_number: b.account_number, amount_kobo: 1, fee_kobo: 0 }),
    fake.pay_in({ account_number: a.account_number, amount_kobo: 5_000_000, fee_kobo: 30_000 }),
    fake.pay_in_silently({ account_number: b.account_number, amount_kobo: 777, fee_kobo: 7 }),
    fake.pay_in({ account_number: b.account_number, amount_kobo: 10_050, fee_kobo: 101 }),
  ];
  fake.per_page_cap = 2;
  const listed = await provider.recent_transfers(from, Date.now() + 1000, signal());
  t.same(listed.map((x) => x.provider_reference).sort(), paid.map((x) => x.provider_reference).sort(), 'every transfer, callback or none');
  for (const transfer of paid) {
    const found = listed.find((x) => x.provider_reference === transfer.provider_reference);
    t.same([found?.amount_paid_kobo, found?.fee_kobo, found?.settlement_kobo, found?.account_number, found?.status],
      [transfer.amount_kobo, transfer.fee_kobo, transfer.amount_kobo - transfer.fee_kobo, transfer.account_number, 'successful'], `${transfer.provider_reference}: exact`);
  }
  const pages = fake.calls('/transaction').filter((c) => c.path === '/transaction');
  t.same(pages.map((c) => c.query.page), ['1', '2', '3'], 'three pages of two, read in order until meta.pageCount');
  t.same(pages[0].query, {
    from: new Date(from).toISOString(), to: pages[0].query.to, perPage: String(paystack_page_size), page: '1', channel: 'dedicated_nuban',
  }, 'the documented parameters: from, to (ISO instants), perPage, page, channel=dedicated_nuban');

  t.same(await provider.recent_transfers(Date.now() + 60_000, Date.now() + 120_000, signal()), [], 'an empty window: nothing');
  fake.down = true;
  const down = await rejection(provider.recent_transfers(from, Date.now(), signal()));
  t.ok(down instanceof FundingProviderError && down.retryable, 'provider down: retryable');
});

t.test('recent_transfers keeps DVA transfers only, even if Paystack lists others', async (t) => {
  const fake = await start_fake_paystack(t);
  const provider = make_paystack_provider(config_for(fake), Date.now);
  const list = funding_fixture('paystack', 'transaction-list');
  t.equal(list.data[0].channel, 'card', 'the documented list row is a card payment');
  t.equal(provider.parse_callback({ event: 'charge.success', data: list.data[0] }), null, 'which is no DVA transfer');
  t.same(await provider.recent_transfers(Date.now() - 1000, Date.now(), signal()), [], 'an empty list: nothing, one page read');
  t.equal(fake.calls('/transaction').length, 1, 'one request');
});

t.test('timeouts are honoured (config.timeout_ms), and the caller\'s signal too', async (t) => {
  const fake = await start_fake_paystack(t);
  const provider = make_paystack_provider(config_for(fake, { timeout_ms: 200 }), Date.now);
  fake.delay_ms = 2000;
  for (const [what, call] of [
    ['verify', () => provider.verify('any', signal())],
    ['create_accounts', () => provider.create_accounts(customer(9), signal())],
    ['recent_transfers', () => provider.recent_transfers(0, Date.now(), signal())],
  ] as const) {
    const started = Date.now();
    const error = await rejection(call());
    const took = Date.now() - started;
    t.ok(error instanceof FundingProviderError && error.retryable, `${what}: a timeout is a retryable FundingProviderError`);
    t.match((error as Error).message, /200 ms/, `${what}: says so`);
    t.ok(took >= 150 && took < 1500, `${what}: gave up after about 200 ms (${took} ms)`);
  }
  const patient = make_paystack_provider(config_for(fake, { timeout_ms: 10_000 }), Date.now);
  const abandoned = await rejection(patient.verify('any', AbortSignal.timeout(100)));
  t.ok(abandoned instanceof FundingProviderError && abandoned.retryable, 'the caller\'s abort: retryable');
});

t.test('requery asks Paystack to look at an account for a day', async (t) => {
  const fake = await start_fake_paystack(t);
  const provider = make_paystack_provider(config_for(fake), () => Date.UTC(2026, 10, 28, 1, 2, 3));
  await provider.requery('9930000737', 'wema-bank', signal());
  await provider.requery('9930000737', null, signal(), Date.UTC(2026, 10, 20, 23, 59));
  const [today, earlier] = fake.calls('/dedicated_account/requery');
  t.same(today?.query, { account_number: '9930000737', provider_slug: 'wema-bank', date: '2026-11-28' }, 'today by default, the bank\'s slug');
  t.same(earlier?.query, { account_number: '9930000737', date: '2026-11-20' }, 'a given day; no slug when none is known');
});

