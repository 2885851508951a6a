// TV renewals and months (docs/api.md "TV renewals and months"): subscription_type change (the default,
// today's behaviour) or renew (the smartcard's current package at the provider's renewal amount), and
// quantity (months, 1 to 12, DStv and GOtv; StarTimes 1). Sandbox renewal smartcard, then the live adapter's
// VTpass fields (subscription_type, quantity, no variation_code on renew) through the fake VTpass.
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { start_upstream, upstream_bouquet_code } from './helpers/fake-upstream.js';
import { balance_kobo, buy, check_created, check_error, fast_reseller, kobo, order, sandbox, tv_body, warm_up_live } from './helpers/purchases.js';

const server = await start_server(t, { env: { TIME_SCALE: '0.001' } });
const path = '/v1/services/tv';

/** A renewal body: no package_code unless given. */
function renew_body(smartcard_number: string, amount: number, overrides: Record<string, unknown> = {}) {
  return { provider: 'dstv', smartcard_number, subscription_type: 'renew', amount, pin: '12345', ...overrides };
}

async function order_count(s: TestServer, key: string): Promise<number> {
  return (await s.api('GET', '/v1/transactions', { key })).body.data.pagination.total;
}

t.test('a request without subscription_type or quantity answers exactly as before: no new fields anywhere', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const response = await buy(server, account.key, path, tv_body(sandbox.renewal_smartcard, 'dstv-padi', 4400, { provider: 'dstv' }));
  check_created(t, response, 'delivered', 'a plain change');
  t.same(Object.keys(response.body.data).sort(), ['amount', 'amount_charged', 'client_reference', 'commission', 'customer_name', 'delivered_at', 'expected_final_at', 'metadata', 'package_code', 'provider', 'reference', 'smartcard_number', 'status', 'wallet_balance_after'], 'the result has exactly the fields of before');
  const record = await order(server, account.key, response.body.data.reference);
  t.notOk('subscription_type' in record || 'quantity' in record, 'the full record carries neither');
});

t.test('renew without package_code pays the renewal amount of the current package', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const response = await buy(server, account.key, path, renew_body(sandbox.renewal_smartcard, 21_500));
  check_created(t, response, 'delivered', 'a DStv renewal');
  const data = response.body.data;
  t.equal(data.subscription_type, 'renew', 'the result says renew');
  t.notOk('quantity' in data, 'quantity was not sent, so it is not shown');
  t.equal(data.package_code, 'dstv-compact', 'the renewed package is the current one');
  t.equal(kobo(data.amount), 21_500_00, 'amount is the renewal amount');
  t.equal(await balance_kobo(server, account.key), 28_500_00, 'the wallet was debited the renewal amount');
  const record = await order(server, account.key, data.reference);
  t.equal(record.subscription_type, 'renew', 'the full record says renew');
  t.equal(record.plan, 'DStv Compact', 'the full record names the current package');
  const csv = await server.api('GET', `/v1/transactions/export?from=${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}&to=${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}`, { key: account.key });
  const row = csv.text.split('\r\n').find((line) => line.startsWith(data.reference)) ?? '';
  t.ok(row.endsWith(',renew,'), `the export row ends with subscription_type renew and an empty quantity (${row})`);
  const events = await server.api('GET', '/v1/events?limit=100&type=transaction.completed', { key: account.key });
  const completed = events.body.data.events.find((e: { data: { reference: string } }) => e.data.reference === data.reference);
  t.equal(completed?.data.subscription_type, 'renew', 'the transaction.completed payload carries subscription_type');
  t.notOk(completed !== undefined && 'quantity' in completed.data, 'and no quantity');
});

t.test('renew with quantity pays renewal amount × months; GOtv too', async (t) => {
  const account = await fast_reseller(server, 500_000);
  const dstv = await buy(server, account.key, path, renew_body(sandbox.renewal_smartcard, 21_500 * 3, { quantity: 3 }));
  check_created(t, dstv, 'delivered', 'three months of DStv');
  t.equal(dstv.body.data.quantity, 3, 'the result says 3 months');
  t.equal(kobo(dstv.body.data.amount), 64_500_00, 'amount is 3 × 21,500');
  const gotv = await buy(server, account.key, path, renew_body(sandbox.renewal_smartcard, 8_500 * 12, { provider: 'gotv', quantity: 12 }));
  check_created(t, gotv, 'delivered', 'twelve months of GOtv');
  t.equal(gotv.body.data.package_code, 'gotv-max', 'the GOtv current package');
  t.equal((await order(server, account.key, gotv.body.data.reference)).quantity, 12, 'the full record keeps quantity 12');
  t.equal(await balance_kobo(server, account.key), 500_000_00 - 64_500_00 - 102_000_00, 'each was debited its total');
});

t.test('renew with the current package named explicitly works; another package is 422 plan_not_found', async (t) => {
  const account = await fast_reseller(server, 50_000);
  check_created(t, await buy(server, account.key, path, renew_body(sandbox.renewal_smartcard, 21_500, { package_code: 'dstv-compact' })), 'delivered', 'renewing dstv-compact named');
  check_error(t, await buy(server, account.key, path, renew_body(sandbox.renewal_smartcard, 21_500, { package_code: 'dstv-padi' })), 422, 'service.plan_not_found', 'renewing a package that is not the current one');
  check_error(t, await buy(server, account.key, path, renew_body(sandbox.renewal_smartcard, 21_500, { package_code: 'gotv-max' })), 422, 'service.plan_not_found', 'renewing another provider\'s package');
  t.equal(await balance_kobo(server, account.key), 28_500_00, 'only the first was debited');
});

t.test('a renewal amount that is not renewal × quantity is 422 amount_mismatch naming the renewal amount, nothing debited', async (t) => {
  const account = await fast_reseller(server, 200_000);
  const rows: [string, Record<string, unknown>][] = [
    ['the package price instead of the renewal amount', renew_body(sandbox.renewal_smartcard, 19_000)],
    ['one kobo under', renew_body(sandbox.renewal_smartcard, 21_499.99)],
    ['one kobo over', renew_body(sandbox.renewal_smartcard, 21_500.01)],
    ['one month\'s price for two months', renew_body(sandbox.renewal_smartcard, 21_500, { quantity: 2 })],
    ['two months\' price for one', renew_body(sandbox.renewal_smartcard, 43_000, { quantity: 1 })],
  ];
  for (const [what, body] of rows) {
    const response = await buy(server, account.key, path, body);
    check_error(t, response, 422, 'service.amount_mismatch', what);
    t.equal(response.body.error?.renewal_amount, 21_500, `${what}: the error names the renewal amount`);
  }
  t.equal(await balance_kobo(server, account.key), 200_000_00, 'nothing was debited');
  t.equal(await order_count(server, account.key), 0, 'no order was made');
});

t.test('renew where the provider gives no renewal amount is 422 service.renewal_unavailable; StarTimes cannot renew', async (t) => {
  const account = await fast_reseller(server, 50_000);
  check_error(t, await buy(server, account.key, path, renew_body(sandbox.valid_smartcard, 19_000)), 422, 'service.renewal_unavailable', 'a smartcard without a renewal amount');
  const startimes = await buy(server, account.key, path, renew_body(sandbox.renewal_smartcard, 5_500, { provider: 'startimes' }));
  check_error(t, startimes, 400, 'validation.failed', 'renewing StarTimes');
  t.same(startimes.body.error?.details?.map((d: { field: string }) => d.field), ['subscription_type'], 'the detail names subscription_type');
  check_error(t, await buy(server, account.key, path, renew_body(sandbox.invalid_smartcard, 19_000)), 422, 'service.invalid_smartcard', 'renewing an unknown smartcard');
  t.equal(await balance_kobo(server, account.key), 50_000_00, 'nothing was debited');
});

t.test('quantity edges: 0 and 13 are 400, 1 and 12 buy; a change of several months costs price × months', async (t) => {
  const account = await fast_reseller(server, 500_000);
  for (const quantity of [0, 13, -1, 1.5, '2']) {
    const response = await buy(server, account.key, path, tv_body(sandbox.valid_smartcard, 'gotv-max', 8_500, { quantity }));
    check_error(t, response, 400, 'validation.failed', `quantity ${JSON.stringify(quantity)}`);
    t.same(response.body.error?.details?.map((d: { field: string }) => d.field), ['quantity'], `quantity ${JSON.stringify(quantity)}: the detail names quantity`);
  }
  const one = await buy(server, account.key, path, tv_body(sandbox.valid_smartcard, 'gotv-max', 8_500, { quantity: 1 }));
  check_created(t, one, 'delivered', 'quantity 1');
  t.equal(one.body.data.quantity, 1, 'quantity 1 sent is shown');
  const twelve = await buy(server, account.key, path, tv_body(sandbox.valid_smartcard, 'gotv-max', 8_500 * 12, { quantity: 12, subscription_type: 'change' }));
  check_created(t, twelve, 'delivered', 'quantity 12');
  t.same([twelve.body.data.quantity, twelve.body.data.subscription_type], [12, 'change'], 'quantity 12 and change are shown');
  check_error(t, await buy(server, account.key, path, tv_body(sandbox.valid_smartcard, 'gotv-max', 8_500, { quantity: 2 })), 422, 'service.amount_mismatch', 'one month\'s price for two months of a change');
  const startimes = await buy(server, account.key, path, tv_body(sandbox.valid_smartcard, 'startimes-nova', 1_900 * 2, { provider: 'startimes', quantity: 2 }));
  check_error(t, startimes, 400, 'validation.failed', 'two months of StarTimes');
  check_created(t, await buy(server, account.key, path, tv_body(sandbox.valid_smartcard, 'startimes-nova', 1_900, { provider: 'startimes', quantity: 1 })), 'delivered', 'one month of StarTimes');
  t.equal(await balance_kobo(server, account.key), 500_000_00 - 8_500_00 - 102_000_00 - 1_900_00, 'only the bought ones were debited');
});

t.test('change still needs package_code; a bad subscription_type is 400', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const no_package = await buy(server, account.key, path, { provider: 'gotv', smartcard_number: sandbox.valid_smartcard, amount: 8_500, pin: '12345' });
  check_error(t, no_package, 400, 'validation.failed', 'a change without package_code');
  t.same(no_package.body.error?.details?.map((d: { field: string }) => d.field), ['package_code'], 'the detail names package_code');
  check_error(t, await buy(server, account.key, path, tv_body(sandbox.valid_smartcard, 'gotv-max', 8_500, { subscription_type: 'upgrade' })), 400, 'validation.failed', 'subscription_type upgrade');
  t.equal(await balance_kobo(server, account.key), 50_000_00, 'nothing was debited');
});

t.test('live: renew sends VTpass subscription_type renew, quantity and the total, without variation_code; change as before', async (t) => {
  const upstream = await start_upstream(t);
  const live = await start_server(t, { env: { TIME_SCALE: '0.5', ...upstream.env(1_000) } });
  const account = await live.reseller(0, {}, { rate_limit_per_minute: 1_000_000 });
  const key = (await live.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
  await live.credit(account.id, 'live', 200_000);
  await warm_up_live(live, key);
  const renewed = await buy(live, key, path, renew_body('7012341400', 43_000, { quantity: 2 }));
  check_created(t, renewed, 'delivered', 'a live renewal of two months');
  t.equal(renewed.body.data.package_code, upstream_bouquet_code, 'the renewed package is the upstream\'s current bouquet code');
  const pay = upstream.pays_for('7012341400')[0]?.body;
  t.equal(pay?.subscription_type, 'renew', 'sent as subscription_type renew');
  t.equal(pay?.quantity, 2, 'with quantity 2');
  t.equal(kobo(pay?.amount), 43_000_00, 'for the total: Renewal_Amount × 2');
  t.notOk(pay !== undefined && 'variation_code' in pay, 'without a variation_code');
  const mismatch = await buy(live, key, path, renew_body('7012341401', 19_000));
  check_error(t, mismatch, 422, 'service.amount_mismatch', 'a live renewal at the package price');
  t.equal(upstream.pays_for('7012341401').length, 0, 'the mismatch never reached /api/pay');
  upstream.verify_content.set('7012341402', { Renewal_Amount: undefined });
  check_error(t, await buy(live, key, path, renew_body('7012341402', 21_500)), 422, 'service.renewal_unavailable', 'a live smartcard without Renewal_Amount');
  const changed = await buy(live, key, path, tv_body('7012341403', 'dstv-padi', 4_400, { provider: 'dstv' }));
  check_created(t, changed, 'delivered', 'a live change as before');
  const change_pay = upstream.pays_for('7012341403')[0]?.body;
  t.same([change_pay?.subscription_type, change_pay?.variation_code, 'quantity' in (change_pay ?? {})], ['change', 'dstv-padi', false], 'change sent as before: subscription_type change, the variation_code, no quantity');
  const months = await buy(live, key, path, tv_body('7012341404', 'gotv-max', 8_500 * 6, { quantity: 6 }));
  check_created(t, months, 'delivered', 'six months of GOtv Max');
  t.equal(upstream.pays_for('7012341404')[0]?.body.quantity, 6, 'quantity 6 is sent with a change');
  t.equal(await balance_kobo(live, key), 200_000_00 - 43_000_00 - 4_400_00 - 51_000_00, 'the live wallet paid the three that were bought');
});
