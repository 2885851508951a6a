// International airtime and data through real sockets (docs/api.md "International airtime and data"): the
// sandbox's catalog and a quote then a purchase with a test key (the wallet pays exactly the quote, the order
// carries the rate and the foreign amount), the quote's expiry at its edge on a manual clock, a quote of another
// account or environment, validation edges, and the live path against the doc-faithful VTpass fake (the four
// lists of https://www.vtpass.com/documentation/foreign-airtime/ as recorded answers, the purchase sent with the
// documented fields, a failed live purchase refunded exactly the NGN charged).
import t from 'tap';
import { start_in_process } from './helpers/in-process.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { balance_kobo, check_created, check_error, entries_of, fast_reseller, order, sandbox } from './helpers/purchases.js';
import { quote_ttl_ms } from '../src/services/foreign-quotes.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';

const upstream = await start_upstream(t);
const server = await start_in_process(t, { env: { ...upstream.env(2_000), PROVIDER_PUBLIC_KEY: 'fake-public-key', ...webhook_env() } });
const base = '/v1/services/international';
const gh_phone = '233241234567';

function quote_body(overrides: Record<string, unknown> = {}) {
  return { country: 'GH', operator: '5', product_type: '1', product_code: 'gh-mtn-topup', foreign_amount: '10.50', ...overrides };
}

async function live_reseller(funding_ngn: number) {
  const account = await fast_reseller(server, 0);
  const live = await server.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  if (funding_ngn > 0) await server.credit(account.id, 'live', funding_ngn);
  return { ...account, live_key: live.api_key };
}

t.test('a test key lists the sandbox catalog: Ghana, its operator and product types, its products', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const countries = await server.api('GET', `${base}/countries`, { key: account.key });
  t.equal(countries.status, 200, 'the countries answer 200');
  t.same(countries.body.data.countries.find((c: any) => c.code === 'GH'), { code: 'GH', name: 'Ghana', currency: 'GHS', prefix: '233', flag: null }, 'Ghana is listed with its currency and prefix');
  const operators = await server.api('GET', `${base}/operators?country=gh`, { key: account.key });
  t.equal(operators.status, 200, `the operators answer 200 (${operators.text.slice(0, 200)})`);
  t.equal(operators.body.data.currency, 'GHS', 'the country\'s currency');
  t.same(operators.body.data.product_types.map((p: any) => p.product_type_id).sort(), ['1', '4'], 'Mobile Top Up and Mobile Data');
  t.same(operators.body.data.operators.map((o: any) => `${o.operator_id}/${o.product_type_id}`).sort(), ['5/1', '5/4'], 'Ghana MTN for both types');
  const only_data = await server.api('GET', `${base}/operators?country=GH&product_type=4`, { key: account.key });
  t.same(only_data.body.data.operators.map((o: any) => o.product_type), ['Mobile Data'], 'one product type\'s operators');
  const products = await server.api('GET', `${base}/products?country=GH&operator=5&product_type=4`, { key: account.key });
  t.equal(products.status, 200, 'the products answer 200');
  t.same(products.body.data.products[0], {
    product_code: 'gh-mtn-data-1gb', name: 'Ghana MTN 1GB Mobile Data', fixed_price: true, currency: 'GHS', foreign_amount: '10.00',
    foreign_amount_min: null, foreign_amount_max: null, rate: '118.5', amount: 1185, amount_charged: 1185,
  }, 'a fixed product: its value in GHS and its NGN price');
  const topup = await server.api('GET', `${base}/products?country=GH&operator=5&product_type=1`, { key: account.key });
  t.match(topup.body.data.products[0], { product_code: 'gh-mtn-topup', fixed_price: false, foreign_amount: null, foreign_amount_min: '1.00', foreign_amount_max: '500.00', rate: '118.5', amount: null }, 'a flexible product: its bounds and rate');
});

t.test('a quote, then a purchase naming it: the wallet pays exactly the quote and the order carries the foreign side', async (t) => {
  const account = await fast_reseller(server, 20_000);
  const quoted = await server.api('POST', `${base}/quote`, { key: account.key, body: quote_body() });
  t.equal(quoted.status, 201, `the quote answers 201 (${quoted.text.slice(0, 300)})`);
  const quote = quoted.body.data;
  t.match(quote.quote_id, /^qt_[a-z0-9]{20}$/, 'a quote id');
  // 10.50 GHS at 118.5 NGN per GHS: 1244.25 NGN, to the kobo.
  t.equal(quote.amount, 1244.25, 'the NGN face value is rate × the foreign amount');
  t.equal(quote.foreign_amount, '10.50', 'the foreign amount as decimal text');
  t.equal(quote.currency, 'GHS', 'in the operator\'s currency');
  t.equal(quote.rate, '118.5', 'at the stated rate');
  t.equal(quote.valid_for_seconds, 600, 'valid for 10 minutes');
  t.equal(Date.parse(quote.expires_at), server.clock.now_ms() + quote_ttl_ms, 'expires 10 minutes from now');
  const bought = await server.api('POST', base, { key: account.key, body: { quote_id: quote.quote_id, phone: gh_phone, pin: '12345' } });
  check_created(t, bought, 'delivered', 'the sandbox purchase');
  t.equal(bought.body.message, 'International top-up successful.', 'the message names the top-up');
  t.same(bought.body.data.international, { quote_id: quote.quote_id, country: 'GH', currency: 'GHS', operator_id: '5', operator: 'Ghana MTN', product_type_id: '1', fixed_price: false, foreign_amount: '10.50', rate: '118.5' }, 'the result carries the foreign side');
  t.equal(bought.body.data.amount_charged, quote.amount_charged, 'charged what was quoted');
  t.equal(await balance_kobo(server, account.key), 20_000_00 - Math.round(quote.amount_charged * 100), 'the wallet paid exactly the quoted charge');
  const record = await order(server, account.key, bought.body.data.reference);
  t.equal(record.service_type, 'international', 'an international order');
  t.equal(record.recipient, gh_phone, 'to the number abroad');
  t.equal(record.plan_code, 'gh-mtn-topup', 'the product');
  t.same(record.international, bought.body.data.international, 'GET /v1/transactions/{reference} shows the rate, the foreign amount and its currency');
  const history = await server.api('GET', '/v1/transactions?service_type=international', { key: account.key });
  t.equal(history.body.data.transactions.length, 1, 'the history filters international orders');
  const receipt = await server.api('GET', `/v1/transactions/${bought.body.data.reference}/receipt`, { key: account.key });
  t.equal(receipt.status, 200, 'the receipt answers 200');
  t.match(receipt.text, /Value abroad<\/dt><dd>10\.50 GHS/, 'the receipt says what they got abroad');
  t.match(receipt.text, /NGN 118\.5 per GHS/, 'and at which rate');
});

t.test('a quote is debited at its price even when the tier\'s rate changes after it', async (t) => {
  const account = await fast_reseller(server, 20_000);
  const quoted = await server.api('POST', `${base}/quote`, { key: account.key, body: quote_body({ product_type: '4', product_code: 'gh-mtn-data-5gb', foreign_amount: undefined }) });
  t.equal(quoted.status, 201, `a fixed product's quote (${quoted.text.slice(0, 200)})`);
  t.equal(quoted.body.data.amount, 4740, 'its NGN price');
  t.equal(quoted.body.data.foreign_amount, '40.00', 'its value in GHS');
  const tier = await server.admin('PUT', '/admin/pricing/intl_gold', { rules: [{ service_type: 'international', rate_bp: 500 }] });
  t.equal(tier.status, 200, `a tier with 5% off international (${tier.text.slice(0, 200)})`);
  const moved = await server.admin('PATCH', `/admin/accounts/${account.id}`, { tier: 'intl_gold' });
  t.equal(moved.status, 200, `the account moves to it after the quote (${moved.text.slice(0, 200)})`);
  const bought = await server.api('POST', base, { key: account.key, body: { quote_id: quoted.body.data.quote_id, phone: sandbox.delivered, pin: '12345' } });
  check_created(t, bought, 'delivered', 'the purchase');
  t.equal(bought.body.data.amount_charged, 4740, 'the quoted charge, not the new tier\'s');
  const next = await server.api('POST', `${base}/quote`, { key: account.key, body: quote_body({ product_type: '4', product_code: 'gh-mtn-data-5gb', foreign_amount: undefined }) });
  t.equal(next.body.data.amount_charged, 4503, 'a new quote has the new tier\'s discount (4740 − 5%)');
  t.equal(next.body.data.commission, 237, 'and shows it');
});

t.test('a quote expires at its stated time: valid at the instant, refused a millisecond after, nothing debited', async (t) => {
  const account = await fast_reseller(server, 20_000);
  const at_edge = (await server.api('POST', `${base}/quote`, { key: account.key, body: quote_body() })).body.data;
  const past_edge = (await server.api('POST', `${base}/quote`, { key: account.key, body: quote_body() })).body.data;
  server.clock.advance(quote_ttl_ms);
  check_created(t, await server.api('POST', base, { key: account.key, body: { quote_id: at_edge.quote_id, phone: gh_phone, pin: '12345' } }), 'delivered', 'a purchase at the expiry instant');
  const before = await balance_kobo(server, account.key);
  server.clock.advance(1);
  const late = await server.api('POST', base, { key: account.key, body: { quote_id: past_edge.quote_id, phone: gh_phone, pin: '12345' } });
  check_error(t, late, 422, 'service.quote_expired', 'a purchase one millisecond after');
  t.equal(late.body.error.expired_at, past_edge.expires_at, 'error.expired_at names when');
  t.equal(await balance_kobo(server, account.key), before, 'nothing was debited');
  // Long after (two lifetimes), the quote is forgotten: unknown.
  server.clock.advance(2 * quote_ttl_ms);
  await server.api('POST', `${base}/quote`, { key: account.key, body: quote_body() });
  check_error(t, await server.api('POST', base, { key: account.key, body: { quote_id: past_edge.quote_id, phone: gh_phone, pin: '12345' } }), 404, 'service.quote_not_found', 'a quote swept after two lifetimes');
});

t.test('a quote of another account, of the live environment or unknown is 404, nothing debited', async (t) => {
  const owner = await fast_reseller(server, 20_000);
  const other = await fast_reseller(server, 20_000);
  const quote = (await server.api('POST', `${base}/quote`, { key: owner.key, body: quote_body() })).body.data;
  check_error(t, await server.api('POST', base, { key: other.key, body: { quote_id: quote.quote_id, phone: gh_phone, pin: '12345' } }), 404, 'service.quote_not_found', 'another account\'s quote');
  t.equal(await balance_kobo(server, other.key), 20_000_00, 'the other account paid nothing');
  const live = await server.create_key(owner.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  await server.credit(owner.id, 'live', 5_000);
  check_error(t, await server.api('POST', base, { key: live.api_key, body: { quote_id: quote.quote_id, phone: gh_phone, pin: '12345' } }), 404, 'service.quote_not_found', 'a test quote with a live key');
  check_error(t, await server.api('POST', base, { key: owner.key, body: { quote_id: 'qt_aaaaaaaaaaaaaaaaaaaa', phone: gh_phone, pin: '12345' } }), 404, 'service.quote_not_found', 'an unknown quote');
  t.equal(await balance_kobo(server, owner.key), 20_000_00, 'the owner paid nothing either');
});

t.test('validation edges: bad and unknown countries, operators and products, amounts out of bounds, bad ids and phones', async (t) => {
  const account = await fast_reseller(server, 20_000);
  const quote = (body: Record<string, unknown>) => server.api('POST', `${base}/quote`, { key: account.key, body });
  check_error(t, await server.api('GET', `${base}/operators`, { key: account.key }), 400, 'validation.failed', 'operators without a country');
  check_error(t, await server.api('GET', `${base}/operators?country=GHA`, { key: account.key }), 400, 'validation.failed', 'a 3-letter country');
  check_error(t, await server.api('GET', `${base}/operators?country=ZZ`, { key: account.key }), 422, 'service.product_not_found', 'an unknown country');
  check_error(t, await server.api('GET', `${base}/products?country=GH&operator=5`, { key: account.key }), 400, 'validation.failed', 'products without a product type');
  check_error(t, await server.api('GET', `${base}/products?country=GH&operator=77&product_type=1`, { key: account.key }), 422, 'service.product_not_found', 'an unknown operator');
  check_error(t, await quote(quote_body({ product_code: 'gh-mtn-nothing' })), 422, 'service.product_not_found', 'an unknown product');
  check_error(t, await quote(quote_body({ foreign_amount: undefined })), 400, 'validation.failed', 'a flexible product without an amount');
  check_error(t, await quote(quote_body({ foreign_amount: '0.99' })), 400, 'validation.failed', 'below the minimum (1.00 GHS)');
  t.equal((await quote(quote_body({ foreign_amount: '1' }))).status, 201, 'the minimum itself');
  t.equal((await quote(quote_body({ foreign_amount: '500.00' }))).status, 201, 'the maximum itself');
  check_error(t, await quote(quote_body({ foreign_amount: '500.01' })), 400, 'validation.failed', 'above the maximum (500.00 GHS)');
  check_error(t, await quote(quote_body({ foreign_amount: '10.505' })), 400, 'validation.failed', 'three decimals');
  check_error(t, await quote(quote_body({ foreign_amount: 10.5 })), 400, 'validation.failed', 'a JSON number rather than decimal text');
  check_error(t, await quote(quote_body({ foreign_amount: '-1' })), 400, 'validation.failed', 'a negative amount');
  check_error(t, await quote(quote_body({ product_type: '4', product_code: 'gh-mtn-data-1gb', foreign_amount: '10.00' })), 400, 'validation.failed', 'an amount for a fixed-price product');
  const valid = (await quote(quote_body())).body.data;
  const buy = (body: Record<string, unknown>) => server.api('POST', base, { key: account.key, body: { quote_id: valid.quote_id, phone: gh_phone, pin: '12345', ...body } });
  check_error(t, await buy({ quote_id: 'quote-1' }), 400, 'validation.failed', 'a malformed quote id');
  check_error(t, await buy({ phone: '+233241234567' }), 400, 'validation.failed', 'a phone with +');
  check_error(t, await buy({ phone: '123456' }), 400, 'validation.failed', 'a 6-digit phone');
  check_error(t, await buy({ pin: '54321' }), 403, 'pin.incorrect', 'a wrong PIN');
  t.equal(await balance_kobo(server, account.key), 20_000_00, 'nothing was debited');
  const failed = await buy({ phone: sandbox.failed });
  check_error(t, failed, 422, 'transaction.failed', 'the sandbox\'s failing number');
  t.equal(await balance_kobo(server, account.key), 20_000_00, 'the failure was refunded');
});

t.test('a live key lists VTpass\'s countries, operators and products through the documented endpoints', async (t) => {
  const account = await live_reseller(1_000);
  const countries = await server.api('GET', `${base}/countries`, { key: account.live_key });
  t.equal(countries.status, 200, `the live countries answer 200 (${countries.text.slice(0, 200)})`);
  t.same(countries.body.data.countries.map((c: any) => c.code), ['CM', 'GH', 'NG', 'RW', 'SZ', 'YE'], 'the page\'s countries');
  t.equal(countries.body.data.countries[1].flag, 'https://sandbox.vtpass.com/resources/images/flags/GH.png', 'with the flag VTpass gives');
  const asked = upstream.requests.filter((r) => r.path === '/api/get-international-airtime-countries');
  t.equal(asked.at(-1)?.headers['api-key'], 'fake-api-key', 'the GET carries the api-key');
  t.equal(asked.at(-1)?.headers['public-key'], 'fake-public-key', 'and the public-key');
  const operators = await server.api('GET', `${base}/operators?country=GH`, { key: account.live_key });
  t.equal(operators.status, 200, `the live operators answer 200 (${operators.text.slice(0, 200)})`);
  t.same(operators.body.data.product_types, [{ product_type_id: '4', name: 'Mobile Data' }, { product_type_id: '1', name: 'Mobile Top Up' }], 'the product types, the numeric ids read as text');
  t.same(operators.body.data.operators.map((o: any) => [o.operator_id, o.name, o.product_type_id]), [['5', 'Ghana MTN', '4'], ['5', 'Ghana MTN', '1']], 'Ghana MTN for each type');
  const sent = upstream.requests.filter((r) => r.path === '/api/get-international-airtime-operators').map((r) => `${r.query?.get('code')}/${r.query?.get('product_type_id')}`);
  t.same(sent.sort(), ['GH/1', 'GH/4'], 'asked by code and product_type_id');
  const products = await server.api('GET', `${base}/products?country=GH&operator=5&product_type=4`, { key: account.live_key });
  t.same(products.body.data.products.map((p: any) => [p.product_code, p.amount, p.foreign_amount]), [['7310', 1202.5, null], ['7311', 4810, null]], 'fixed products at their charged_amount; the GHS value is only in the name');
  const variation_call = upstream.requests.filter((r) => r.path === '/api/service-variations' && r.query?.get('serviceID') === 'foreign-airtime').at(-1);
  t.same([variation_call?.query?.get('operator_id'), variation_call?.query?.get('product_type_id')], ['5', '4'], 'variations asked with serviceID foreign-airtime, operator_id and product_type_id');
  const rw = await server.api('GET', `${base}/operators?country=RW`, { key: account.live_key });
  t.same(rw.body.data.operators, [], 'a listed country VTpass has nothing recorded for: an empty list');
});

t.test('a live quote and purchase send VTpass what its page documents, and debit exactly the quote', async (t) => {
  const account = await live_reseller(10_000);
  const quoted = await server.api('POST', `${base}/quote`, { key: account.live_key, body: quote_body({ product_code: '7301', foreign_amount: '12' }) });
  t.equal(quoted.status, 201, `the live quote answers 201 (${quoted.text.slice(0, 300)})`);
  t.equal(quoted.body.data.amount, 1443, '12 GHS × 120.25 (variation_rate) = NGN 1443');
  t.equal(quoted.body.data.rate, '120.25', 'VTpass\'s rate');
  const phone = '233200000001';
  const bought = await server.api('POST', base, { key: account.live_key, body: { quote_id: quoted.body.data.quote_id, phone, pin: '12345' } });
  check_created(t, bought, 'delivered', 'the live purchase');
  const pays = upstream.pays_for(phone);
  t.equal(pays.length, 1, 'VTpass was paid once');
  const sent = pays[0]?.body ?? {};
  t.equal(sent.serviceID, 'foreign-airtime', 'serviceID foreign-airtime');
  t.equal(sent.billersCode, phone, 'the number as billersCode');
  t.equal(sent.phone, phone, 'and as phone');
  t.equal(sent.variation_code, '7301', 'the variation_code');
  t.equal(sent.operator_id, '5', 'operator_id');
  t.equal(sent.country_code, 'GH', 'country_code');
  t.equal(sent.product_type_id, '1', 'product_type_id');
  t.equal(sent.email, account.email, 'the account\'s e-mail');
  t.equal(sent.amount, 12, 'the amount in GHS for a flexible product');
  t.equal(await balance_kobo(server, account.live_key), 10_000_00 - 1_443_00, 'the live wallet paid exactly the quote');
  const record = await order(server, account.live_key, bought.body.data.reference);
  t.same(record.international, { quote_id: quoted.body.data.quote_id, country: 'GH', currency: 'GHS', operator_id: '5', operator: 'Ghana MTN', product_type_id: '1', fixed_price: false, foreign_amount: '12.00', rate: '120.25' }, 'the order carries the rate and the foreign amount');
});

t.test('a failed live purchase is refunded exactly the NGN charged', async (t) => {
  const account = await live_reseller(10_000);
  const quoted = await server.api('POST', `${base}/quote`, { key: account.live_key, body: quote_body({ product_type: '4', product_code: '7311', foreign_amount: undefined }) });
  t.equal(quoted.body.data.amount, 4810, 'the fixed product\'s charged_amount');
  const phone = '233200000002';
  upstream.set_mode(phone, 'fail');
  const bought = await server.api('POST', base, { key: account.live_key, body: { quote_id: quoted.body.data.quote_id, phone, pin: '12345' } });
  check_error(t, bought, 422, 'transaction.failed', 'VTpass failed it (016)');
  t.equal(upstream.pays_for(phone)[0]?.body.amount, 4810, 'a fixed product is sent at its NGN price (the page: the amount is ignored, the variation decides)');
  t.equal(await balance_kobo(server, account.live_key), 10_000_00, 'the wallet is whole again');
  const entries = await entries_of(server, account.live_key, bought.body.error.reference);
  t.same(entries.map((e: any) => [e.type, e.amount]).sort(), [['debit', 4810], ['reversal', 4810]].sort(), 'debited and refunded the same NGN to the kobo');
});

t.test('VTpass down: the lists and quotes answer 503 and nothing is held', async (t) => {
  const account = await live_reseller(1_000);
  upstream.international.set('countries', '#500');
  t.teardown(() => upstream.international.set('countries', 'international-countries'));
  check_error(t, await server.api('GET', `${base}/countries`, { key: account.live_key }), 503, 'transaction.provider_unavailable', 'the countries');
  check_error(t, await server.api('POST', `${base}/quote`, { key: account.live_key, body: quote_body({ product_code: '7301', foreign_amount: '12' }) }), 503, 'transaction.provider_unavailable', 'a quote');
});

t.test('a bulk order carries international items, each paying its own quote', async (t) => {
  const account = await fast_reseller(server, 20_000);
  const first = (await server.api('POST', `${base}/quote`, { key: account.key, body: quote_body() })).body.data;
  const second = (await server.api('POST', `${base}/quote`, { key: account.key, body: quote_body({ product_type: '4', product_code: 'gh-mtn-data-1gb', foreign_amount: undefined }) })).body.data;
  const batch = await server.api('POST', '/v1/services/bulk', {
    key: account.key,
    body: { pin: '12345', items: [{ service_type: 'international', quote_id: first.quote_id, phone: gh_phone }, { service_type: 'international', quote_id: second.quote_id, phone: gh_phone }] },
  });
  t.same(batch.body.data?.items?.map((item: any) => item.status), ['delivered', 'delivered'], `both items are delivered (${batch.text.slice(0, 300)})`);
  t.equal(await balance_kobo(server, account.key), 20_000_00 - Math.round(first.amount_charged * 100) - Math.round(second.amount_charged * 100), 'the wallet paid the two quotes exactly');
  const unknown = await server.api('POST', '/v1/services/bulk', { key: account.key, body: { pin: '12345', items: [{ service_type: 'international', quote_id: 'qt_bbbbbbbbbbbbbbbbbbbb', phone: gh_phone }] } });
  t.equal(unknown.body.data?.items?.[0]?.error?.code ?? unknown.body.error?.code, 'service.quote_not_found', `an item naming an unknown quote is refused (${unknown.text.slice(0, 300)})`);
});

t.test('one account holds at most quotes_per_account_max quotes at once; another account is not held back', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const { quotes_per_account_max } = await import('../src/services/foreign-quotes.js');
  // Two lifetimes on: every earlier test's quotes are swept, so the bound is this account's alone.
  server.clock.advance(3 * quote_ttl_ms);
  const statuses = new Map<number, number>();
  for (let i = 0; i < quotes_per_account_max; i++) {
    const answer = await server.api('POST', `${base}/quote`, { key: account.key, body: quote_body() });
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  }
  t.same([...statuses], [[201, quotes_per_account_max]], `the ${quotes_per_account_max} quotes of the bound are given`);
  const over = await server.api('POST', `${base}/quote`, { key: account.key, body: quote_body() });
  check_error(t, over, 503, 'service.unavailable', 'one more');
  t.equal(over.headers.get('retry-after'), '60', 'with Retry-After');
  const other = await fast_reseller(server, 1_000);
  t.equal((await server.api('POST', `${base}/quote`, { key: other.key, body: quote_body() })).status, 201, 'another account still gets a quote');
  // The bound counts valid quotes: at the expiry instant still refused, 1 ms later the account quotes again
  // (its expired quotes are still held, told apart as expired, until they are swept a lifetime later).
  server.clock.advance(quote_ttl_ms);
  t.equal((await server.api('POST', `${base}/quote`, { key: account.key, body: quote_body() })).status, 503, 'at the instant its quotes expire the account is still at its bound');
  server.clock.advance(1);
  t.equal((await server.api('POST', `${base}/quote`, { key: account.key, body: quote_body() })).status, 201, 'the bound frees itself as quotes expire, before they are swept');
});

t.test('the page\'s printed variations carry no price: listed with amount null, and a quote is refused, not guessed', async (t) => {
  const account = await live_reseller(1_000);
  // Ghana MTN's Mobile Data answered with the page's printed variations (operator 1, type 1): fixedPrice "Yes",
  // variation_amount "0.00", neither charged_amount nor variation_rate.
  upstream.international.set('variations 5 4', 'international-variations-1-1');
  t.teardown(() => upstream.international.set('variations 5 4', 'international-variations-5-4'));
  const products = await server.api('GET', `${base}/products?country=GH&operator=5&product_type=4`, { key: account.live_key });
  t.equal(products.body.data.products.length, 25, 'the 25 printed variations are listed');
  t.same(products.body.data.products[1], { product_code: '2470', name: '15EUR Top Up', fixed_price: true, currency: 'GHS', foreign_amount: null, foreign_amount_min: null, foreign_amount_max: null, rate: null, amount: null, amount_charged: null }, 'each without a price');
  const quoted = await server.api('POST', `${base}/quote`, { key: account.live_key, body: quote_body({ product_type: '4', product_code: '2470', foreign_amount: undefined }) });
  check_error(t, quoted, 422, 'service.product_not_found', 'a product without an NGN price');
  t.match(quoted.body.error.message, /no NGN price/, 'the message says why');
});

t.test('the transaction.completed webhook of an international order carries its foreign side', async (t) => {
  const account = await fast_reseller(server, 20_000);
  const receiver = new WebhookReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  const endpoint = await server.api('POST', '/v1/webhooks', { key: account.key, body: { url: receiver.url, events: ['transaction.completed'] } });
  t.equal(endpoint.status, 201, `an endpoint (${endpoint.text.slice(0, 200)})`);
  const quote = (await server.api('POST', `${base}/quote`, { key: account.key, body: quote_body() })).body.data;
  check_created(t, await server.api('POST', base, { key: account.key, body: { quote_id: quote.quote_id, phone: gh_phone, pin: '12345' } }), 'delivered', 'the purchase');
  // Deliveries run on the server's timer wheel: move the manual clock until the event arrives.
  for (let i = 0; i < 100 && receiver.events('transaction.completed').length === 0; i++) {
    server.clock.advance(1_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const event = receiver.events('transaction.completed')[0];
  t.ok(event, 'the event arrived');
  t.same(event?.json?.data?.international, { quote_id: quote.quote_id, country: 'GH', currency: 'GHS', operator_id: '5', operator: 'Ghana MTN', product_type_id: '1', fixed_price: false, foreign_amount: '10.50', rate: '118.5' }, 'with the foreign amount, currency and rate');
});
