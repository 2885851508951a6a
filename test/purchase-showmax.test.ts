// Showmax through real sockets (docs/api.md "Showmax"): the plan list, a purchase in the sandbox and its outcomes,
// the catalog checks, a bulk item, the operator's re-pricing, and a live purchase through the doc-faithful VTpass
// fake: serviceID showmax, the phone as billersCode, the plan's documented variation_code, and the recorded
// answer (test/fixtures/upstreams/vtpass/pay-showmax.json) read as delivered.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { balance_kobo, check_created, check_error, fast_reseller, order, sandbox, settled_order, warm_up_live } from './helpers/purchases.js';

const upstream = await start_upstream(t);
const server = await start_server(t, { env: { TIME_SCALE: '0.001', ...upstream.env(1_000) } });
const path = '/v1/services/showmax';

function showmax_body(phone: string, plan_code = 'showmax-mobile-3m', amount = 3_800, overrides: Record<string, unknown> = {}) {
  return { phone, plan_code, amount, pin: '12345', ...overrides };
}

t.test('GET /v1/services/showmax/plans lists the enabled plans with their documented fields', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const listed = await server.api('GET', '/v1/services/showmax/plans', { key: account.key });
  t.equal(listed.status, 200, 'the list answers 200');
  const plans = listed.body.data.plans as any[];
  t.ok(plans.length >= 6, 'the shipped plans are listed');
  t.same(Object.keys(plans[0]).sort(), ['amount', 'amount_charged', 'name', 'plan_code', 'validity'], 'a plan has exactly the documented fields');
  t.same(plans.find((p) => p.plan_code === 'showmax-mobile-3m'), { plan_code: 'showmax-mobile-3m', name: 'Showmax Mobile Only - 3 Months', amount: 3800, amount_charged: 3800, validity: '3 months' }, 'Mobile Only 3 months at VTpass\'s N3,800');
});

t.test('a sandbox purchase is delivered and debits the price; the sandbox phones give their outcomes', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const bought = await server.api('POST', path, { key: account.key, body: showmax_body(sandbox.delivered) });
  check_created(t, bought, 'delivered', 'Showmax Mobile Only');
  t.equal(bought.body.message, 'Showmax subscription successful.', 'the message names Showmax');
  t.same(Object.keys(bought.body.data).sort(), ['amount', 'amount_charged', 'client_reference', 'commission', 'delivered_at', 'expected_final_at', 'metadata', 'phone', 'plan', 'plan_code', 'reference', 'status', 'wallet_balance_after'], 'the result has exactly the documented fields');
  t.equal(bought.body.data.plan, 'Showmax Mobile Only - 3 Months', 'the plan is named');
  t.equal(await balance_kobo(server, account.key), 46_200_00, 'the wallet paid the price');
  const record = await order(server, account.key, bought.body.data.reference);
  t.equal(record.service_type, 'showmax', 'the order is a showmax order');
  t.equal(record.provider, 'showmax', 'narrowed as showmax for pricing and routing');
  const failed = await server.api('POST', path, { key: account.key, body: showmax_body(sandbox.failed) });
  check_error(t, failed, 422, 'transaction.failed', 'the sandbox\'s failing phone');
  t.equal(await balance_kobo(server, account.key), 46_200_00, 'the failure was refunded');
  const history = await server.api('GET', '/v1/transactions?service_type=showmax', { key: account.key });
  t.equal(history.body.data.transactions.length, 2, 'the history filters showmax orders');
});

t.test('an unknown or disabled plan, a wrong amount and a bad phone are refused before any debit', async (t) => {
  const account = await fast_reseller(server, 50_000);
  check_error(t, await server.api('POST', path, { key: account.key, body: showmax_body(sandbox.delivered, 'showmax-premium-9m') }), 422, 'service.plan_not_found', 'an unknown plan');
  check_error(t, await server.api('POST', path, { key: account.key, body: showmax_body(sandbox.delivered, 'showmax-mobile-3m', 3_799.99) }), 422, 'service.amount_mismatch', 'a kobo below the price');
  check_error(t, await server.api('POST', path, { key: account.key, body: showmax_body('0801111111') }), 400, 'validation.failed', 'a 10-digit phone');
  check_error(t, await server.api('POST', path, { key: account.key, body: { phone: sandbox.delivered, amount: 3800, pin: '12345' } }), 400, 'validation.failed', 'no plan_code');
  const disabled = await server.admin('PATCH', '/admin/catalog/showmax-plans/showmax-full-3m', { enabled: false });
  t.equal(disabled.status, 200, 'the operator disables a plan');
  check_error(t, await server.api('POST', path, { key: account.key, body: showmax_body(sandbox.delivered, 'showmax-full-3m', 8_400) }), 422, 'service.plan_not_found', 'the disabled plan');
  t.notOk((await server.api('GET', '/v1/services/showmax/plans', { key: account.key })).body.data.plans.some((p: any) => p.plan_code === 'showmax-full-3m'), 'and it is no longer listed');
  t.equal(await balance_kobo(server, account.key), 50_000_00, 'nothing was debited');
  const repriced = await server.admin('PATCH', '/admin/catalog/showmax-plans/showmax-sports-1m', { amount: 3_300 });
  t.equal(repriced.status, 200, 'the operator re-prices a plan');
  check_created(t, await server.api('POST', path, { key: account.key, body: showmax_body(sandbox.delivered, 'showmax-sports-1m', 3_300) }), 'delivered', 'bought at the new price');
});

t.test('a bulk order carries Showmax items', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const batch = await server.api('POST', '/v1/services/bulk', {
    key: account.key,
    body: { pin: '12345', items: [{ service_type: 'showmax', phone: sandbox.delivered, plan_code: 'showmax-mobile-3m', amount: 3800 }] },
  });
  t.equal(batch.body.data?.items?.[0]?.status, 'delivered', `the Showmax item is delivered (${batch.text.slice(0, 300)})`);
});

t.test('a live purchase pays VTpass serviceID showmax with the phone and the plan\'s documented variation_code', async (t) => {
  const account = await fast_reseller(server, 0);
  const live = await server.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  await server.credit(account.id, 'live', 20_000);
  await warm_up_live(server, live.api_key);
  const phone = '08031236100';
  const bought = await server.api('POST', path, { key: live.api_key, body: showmax_body(phone, 'showmax-sports-3m', 9_600) });
  // TIME_SCALE 0.001 makes the purchase's 5 s wait 5 ms: the answer may come as processing, then the order settles.
  t.equal(bought.status, 201, `a live Showmax purchase is placed (${bought.text.slice(0, 200)})`);
  const settled = await settled_order(server, live.api_key, bought.body.data.reference);
  t.equal(settled.status, 'delivered', 'the recorded Showmax answer is read as delivered');
  const pays = upstream.pays_for(phone);
  t.equal(pays.length, 1, 'VTpass was paid once');
  t.equal(pays[0]?.body.serviceID, 'showmax', 'serviceID showmax');
  t.equal(pays[0]?.body.variation_code, 'sports-only-3', 'the documented variation_code of Sports Only 3 months');
  t.equal(pays[0]?.body.billersCode, phone, 'the phone is the billersCode');
  t.equal(pays[0]?.body.phone, phone, 'and the phone');
  t.equal(Number(pays[0]?.body.amount), 9_600, 'the amount is the plan\'s');
  t.equal(await balance_kobo(server, live.api_key), 10_400_00, 'the live wallet paid the price');
});
