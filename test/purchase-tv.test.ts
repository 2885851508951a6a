// Cable TV subscriptions through real sockets (docs/spec.md section 4 "Cable TV"; docs/decisions.md "Services":
// the result fields, the package price check and service.invalid_smartcard; "Sandbox" smartcards).
import t from 'tap';
import { start_server } from './helpers/server.js';
import { balance_kobo, buy, check_created, check_error, fast_reseller, iso_us_pattern, kobo, order, sandbox, tv_body } from './helpers/purchases.js';

const server = await start_server(t, { env: { TIME_SCALE: '0.001' } });
const path = '/v1/services/tv';

t.test('a TV subscription answers 201 with exactly the decided result fields', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const response = await buy(server, account.key, path, tv_body(sandbox.valid_smartcard, 'dstv-compact', 19000, { provider: 'dstv' }));
  check_created(t, response, 'delivered', 'DStv Compact');
  const data = response.body.data;
  t.same(Object.keys(data).sort(), ['amount', 'amount_charged', 'client_reference', 'commission', 'customer_name', 'delivered_at', 'expected_final_at', 'metadata', 'package_code', 'provider', 'reference', 'smartcard_number', 'status', 'wallet_balance_after'], 'the result has exactly the decided fields, the pricing ones (docs/api.md "Pricing") and the client ones ("Client references and metadata")');
  t.equal(data.provider, 'dstv', 'provider is echoed');
  t.equal(data.smartcard_number, sandbox.valid_smartcard, 'smartcard_number is echoed');
  t.equal(data.package_code, 'dstv-compact', 'package_code is echoed');
  t.equal(kobo(data.amount), 19_000_00, 'amount is the package price');
  t.equal(data.customer_name, 'Test Customer', 'the sandbox customer is named');
  t.equal(kobo(data.wallet_balance_after), 31_000_00, 'wallet_balance_after is 50,000 − 19,000');
  t.match(data.delivered_at, iso_us_pattern, 'delivered_at is ISO 8601 UTC');
  t.match(response.body.message, /tv/i, 'the message speaks of TV');
  t.equal(await balance_kobo(server, account.key), 31_000_00, 'the wallet was debited 19,000');
  const record = await order(server, account.key, data.reference);
  t.equal(record.service_type, 'tv', 'the full record is a tv order');
  t.equal(record.provider, 'dstv', 'the full record names the provider');
  t.equal(record.package_code, 'dstv-compact', 'the full record names the package');
});

t.test('one package of each provider can be bought for any other smartcard', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const packages = (await server.api('GET', '/v1/services/tv/packages', { key: account.key })).body.data.packages as { package_code: string; provider: string; amount: number }[];
  for (const provider of ['dstv', 'gotv', 'startimes']) {
    const item = packages.filter((p) => p.provider === provider).sort((a, b) => a.amount - b.amount)[0];
    const response = await buy(server, account.key, path, tv_body('7012345678', item.package_code, item.amount, { provider }));
    check_created(t, response, 'delivered', `${item.package_code} on ${provider}`);
    t.equal(response.body.data.provider, provider, `the result names ${provider}`);
  }
});

t.test('smartcard 0000000000 is 422 service.invalid_smartcard and nothing is debited', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const response = await buy(server, account.key, path, tv_body(sandbox.invalid_smartcard));
  check_error(t, response, 422, 'service.invalid_smartcard', 'smartcard 0000000000');
  t.equal(await balance_kobo(server, account.key), 50_000_00, 'nothing was debited');
  const orders = await server.api('GET', '/v1/transactions', { key: account.key });
  t.equal(orders.body.data.pagination.total, 0, 'no order was created');
});

t.test('an unknown package, or one of another provider, is 422 service.plan_not_found; a wrong price is amount_mismatch', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const rows: [string, Record<string, unknown>, number, string][] = [
    ['an unknown package', tv_body(sandbox.valid_smartcard, 'gotv-mega', 8500), 422, 'service.plan_not_found'],
    ['a DStv package bought as GOtv', tv_body(sandbox.valid_smartcard, 'dstv-padi', 4400), 422, 'service.plan_not_found'],
    ['GOtv Max one kobo under its price', tv_body(sandbox.valid_smartcard, 'gotv-max', 8499.99), 422, 'service.amount_mismatch'],
    ['GOtv Max one kobo over its price', tv_body(sandbox.valid_smartcard, 'gotv-max', 8500.01), 422, 'service.amount_mismatch'],
    ['an unknown provider', tv_body(sandbox.valid_smartcard, 'gotv-max', 8500, { provider: 'showmax' }), 400, 'validation.failed'],
    ['a smartcard number with letters', tv_body('ABC1212121', 'gotv-max', 8500), 400, 'validation.failed'],
  ];
  for (const [what, body, status, code] of rows) check_error(t, await buy(server, account.key, path, body), status, code, what);
  t.equal(await balance_kobo(server, account.key), 50_000_00, 'nothing was debited');
});

t.test('a TV package the wallet cannot afford is 422 wallet.insufficient_funds', async (t) => {
  const account = await fast_reseller(server, 0);
  await server.credit(account.id, 'test', 8499.99);
  check_error(t, await buy(server, account.key, path, tv_body(sandbox.valid_smartcard)), 422, 'wallet.insufficient_funds', 'GOtv Max from 8,499.99');
  t.equal(await balance_kobo(server, account.key), 8_499_99, 'nothing was debited');
});
