// Internet bundles through real sockets (docs/api.md "Education and internet"): the plan list, Smile account
// verification, Smile purchases for a verified account, Spectranet PINs (sealed, on the order record only),
// validation edges, the sandbox outcomes, and the operator's re-pricing.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { balance_kobo, buy, check_created, check_error, fast_reseller, order, sandbox, settled_order } from './helpers/purchases.js';

const server = await start_server(t, { env: { TIME_SCALE: '0.001' } });
const path = '/v1/services/internet';

function smile_body(account: string, plan_code = 'smile-1-5gb-7d', amount = 1_000, overrides: Record<string, unknown> = {}) {
  return { provider: 'smile', plan_code, account, phone: '08031234567', amount, pin: '12345', ...overrides };
}

function spectranet_body(overrides: Record<string, unknown> = {}) {
  return { provider: 'spectranet', plan_code: 'spectranet-7000', phone: '08031234567', amount: 7_000, pin: '12345', ...overrides };
}

t.test('GET /v1/services/internet/plans lists Smile and Spectranet plans, filtered by provider', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const all = await server.api('GET', '/v1/services/internet/plans', { key: account.key });
  t.equal(all.status, 200, 'the list answers 200');
  const plans = all.body.data.plans as any[];
  t.same([...new Set(plans.map((p) => p.provider))], ['smile', 'spectranet'], 'both providers are listed');
  t.same(Object.keys(plans[0]).sort(), ['amount', 'amount_charged', 'name', 'plan_code', 'plan_id', 'provider', 'validity'], 'a plan has exactly the documented fields (plan_id and plan_code, one value)');
  const smile = await server.api('GET', '/v1/services/internet/plans?provider=smile', { key: account.key });
  t.ok(smile.body.data.plans.every((p: any) => p.provider === 'smile'), 'the provider filter keeps Smile plans only');
  check_error(t, await server.api('GET', '/v1/services/internet/plans?provider=swift', { key: account.key }), 400, 'validation.failed', 'an unknown provider');
});

t.test('POST /v1/services/internet/verify names a Smile account by number, phone or e-mail and refuses the invalid sandbox accounts', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const verify = (body: unknown) => server.api('POST', '/v1/services/internet/verify', { key: account.key, body });
  for (const id of ['1402000123', '08031234567', 'ada@example.ng']) {
    const response = await verify({ provider: 'smile', account: id });
    t.equal(response.status, 200, `${id} verifies`);
    t.same(response.body.data, { provider: 'smile', account: id, customer_name: 'Test Subscriber' }, `${id}: the subscriber is named`);
  }
  check_error(t, await verify({ provider: 'smile', account: '0000000000' }), 422, 'service.invalid_account', 'the invalid sandbox account number');
  check_error(t, await verify({ provider: 'smile', account: 'invalid@example.com' }), 422, 'service.invalid_account', 'the invalid sandbox e-mail');
  check_error(t, await verify({ provider: 'spectranet', account: '1402000123' }), 400, 'validation.failed', 'Spectranet has no account to verify');
  check_error(t, await verify({ provider: 'smile', account: 'not an account' }), 400, 'validation.failed', 'an account that is neither digits nor an e-mail');
});

t.test('a Smile bundle is bought for a verified account: the subscriber is named and no PIN is issued', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const response = await buy(server, account.key, path, smile_body('1402000123', 'smile-10gb-30d', 8_000));
  check_created(t, response, 'delivered', 'a Smile bundle');
  const data = response.body.data;
  t.same(Object.keys(data).sort(), ['account', 'amount', 'amount_charged', 'client_reference', 'commission', 'customer_name', 'delivered_at', 'expected_final_at', 'metadata', 'phone', 'pins', 'plan', 'plan_code', 'provider', 'reference', 'status', 'wallet_balance_after'], 'the result has exactly the documented fields');
  t.equal(data.account, '1402000123', 'the account is echoed');
  t.equal(data.customer_name, 'Test Subscriber', 'the subscriber is named');
  t.equal(data.pins, null, 'a Smile bundle has no PIN');
  t.equal(await balance_kobo(server, account.key), 42_000_00, 'the wallet paid 8,000');
  const record = await order(server, account.key, data.reference);
  t.equal(record.service_type, 'internet', 'the record is an internet order');
  t.equal(record.customer_id, '1402000123', 'the record keeps the account');
});

t.test('a Spectranet PIN is delivered with its serial and fetched again from the order record', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const response = await buy(server, account.key, path, spectranet_body());
  check_created(t, response, 'delivered', 'a Spectranet PIN');
  const pins = response.body.data.pins;
  t.equal(pins.length, 1, 'one PIN');
  t.match(pins[0].serial, /^SPN\d{10}$/, 'it has a serial');
  t.match(pins[0].pin, /^\d{16}$/, 'the PIN is 16 digits');
  t.same((await order(server, account.key, response.body.data.reference)).pins, pins, 'the order record gives it again');
  const events = await server.api('GET', '/v1/transactions', { key: account.key });
  t.notOk(JSON.stringify(events.body).includes(pins[0].pin), 'the list never shows the PIN');
});

t.test('validation edges and refusals of internet purchases, none of which debits', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const rows: [string, Record<string, unknown>, number, string][] = [
    ['Smile without an account', smile_body('1402000123', 'smile-1-5gb-7d', 1_000, { account: undefined }), 400, 'validation.failed'],
    ['an account with spaces', smile_body('14 020 001'), 400, 'validation.failed'],
    ['an unknown provider', smile_body('1402000123', 'smile-1-5gb-7d', 1_000, { provider: 'swift' }), 400, 'validation.failed'],
    ['an amount with 3 decimals', smile_body('1402000123', 'smile-1-5gb-7d', 999.999), 400, 'validation.failed'],
    ['an unknown plan', smile_body('1402000123', 'smile-100gb', 1_000), 422, 'service.plan_not_found'],
    ['a Spectranet plan bought as Smile', smile_body('1402000123', 'spectranet-7000', 7_000), 422, 'service.plan_not_found'],
    ['one kobo over the price', smile_body('1402000123', 'smile-1-5gb-7d', 1_000.01), 422, 'service.amount_mismatch'],
    ['the invalid sandbox account', smile_body('0000000000'), 422, 'service.invalid_account'],
    ['a wrong PIN', spectranet_body({ pin: '99999' }), 403, 'pin.incorrect'],
  ];
  for (const [what, body, status, code] of rows) check_error(t, await buy(server, account.key, path, JSON.parse(JSON.stringify(body))), status, code, what);
  t.equal(await balance_kobo(server, account.key), 50_000_00, 'nothing was debited');
});

t.test('sandbox phones: 08022222222 fails and refunds, 08033333333 is processing then delivers, 08055555555 is 503', async (t) => {
  const account = await fast_reseller(server, 50_000);
  check_error(t, await buy(server, account.key, path, spectranet_body({ phone: sandbox.failed })), 422, 'transaction.failed', 'the failing phone');
  t.equal(await balance_kobo(server, account.key), 50_000_00, 'the failed order was refunded');
  const delayed = await buy(server, account.key, path, spectranet_body({ phone: sandbox.delayed_delivered }));
  check_created(t, delayed, 'processing', 'the delayed phone');
  const record = await settled_order(server, account.key, delayed.body.data.reference);
  t.equal(record.status, 'delivered', 'the order is delivered later');
  t.equal(record.pins.length, 1, 'its PIN is on the order record');
  check_error(t, await buy(server, account.key, path, smile_body('1402000123', 'smile-1-5gb-7d', 1_000, { phone: sandbox.provider_down })), 503, 'transaction.provider_unavailable', 'the provider-down phone');
});

t.test('the operator re-prices and disables an internet plan through the admin API', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const repriced = await server.admin('PATCH', '/admin/catalog/internet-plans/smile-1-5gb-7d', { amount: 1_200 });
  t.equal(repriced.status, 200, 'the re-pricing answers 200');
  check_error(t, await buy(server, account.key, path, smile_body('1402000123')), 422, 'service.amount_mismatch', 'the old price');
  check_created(t, await buy(server, account.key, path, smile_body('1402000123', 'smile-1-5gb-7d', 1_200)), 'delivered', 'the new price');
  await server.admin('PATCH', '/admin/catalog/internet-plans/smile-1-5gb-7d', { enabled: false });
  check_error(t, await buy(server, account.key, path, smile_body('1402000123', 'smile-1-5gb-7d', 1_200)), 422, 'service.plan_not_found', 'a disabled plan');
  await server.admin('PATCH', '/admin/catalog/internet-plans/smile-1-5gb-7d', { enabled: true, amount: 1_000 });
});
