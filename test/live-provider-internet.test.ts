// Internet bundles bought with a live key through the live adapter from the fake VTpass upstream over real
// HTTP (docs/api.md "Education and internet"): Smile accounts verified by merchant-verify and paid with
// serviceID smile-direct and the plan's variation code, Spectranet PINs read from VTpass's cards, a pending
// answer re-queried to delivery with its PIN, and a definite failure refunded.
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { start_upstream, upstream_customer, upstream_pin } from './helpers/fake-upstream.js';
import { balance_kobo, buy, check_created, check_error, settled_order, warm_up_live } from './helpers/purchases.js';

const upstream = await start_upstream(t);
// TIME_SCALE=0.005: re-queries after 150 ms, 300 ms, 600 ms; an adapter timeout of 1 s (as in
// live-provider-education): answers are read from the settled order, where they always end up.
const server = await start_server(t, { env: { TIME_SCALE: '0.005', ...upstream.env(1_000) } });
await warm_up_live(server, (await live_reseller(server, 0)).key);
const path = '/v1/services/internet';

async function live_reseller(s: TestServer, live_ngn = 100_000) {
  const account = await s.reseller(10_000, {}, { rate_limit_per_minute: 1_000_000 });
  const live = await s.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  if (live_ngn > 0) await s.credit(account.id, 'live', live_ngn);
  return { ...account, test_key: account.key, key: live.api_key };
}

t.test('a live Smile bundle verifies the account by merchant-verify and pays serviceID smile-direct with the plan\'s variation code', async (t) => {
  const account = await live_reseller(server, 50_000);
  const verified = await server.api('POST', '/v1/services/internet/verify', { key: account.key, body: { provider: 'smile', account: '7071236001' } });
  t.equal(verified.status, 200, 'the Smile account verifies');
  t.equal(verified.body.data.customer_name, upstream_customer, 'the subscriber is the upstream\'s customer name');
  const verify_call = upstream.calls('/api/merchant-verify').at(-1)!;
  t.equal(verify_call.body.serviceID, 'smile-direct', 'merchant-verify asks serviceID smile-direct');
  t.equal(verify_call.body.billersCode, '7071236001', 'for the account');
  const response = await buy(server, account.key, path, { provider: 'smile', plan_code: 'smile-10gb-30d', account: '7071236001', phone: '08071236001', amount: 8_000, pin: '12345' });
  t.equal(response.status, 201, 'a live Smile bundle: answers 201');
  const pay = upstream.pays_for('7071236001')[0];
  t.equal(pay.body.serviceID, 'smile-direct', 'serviceID is smile-direct');
  t.equal(pay.body.variation_code, '516', 'variation_code is the plan\'s VTpass code');
  t.equal(pay.body.billersCode, '7071236001', 'billersCode is the Smile account');
  t.equal(pay.body.phone, '08071236001', 'phone is the buyer\'s');
  const record = await settled_order(server, account.key, response.body.data.reference, 15_000);
  t.equal(record.status, 'delivered', 'the order is delivered');
  t.equal(record.customer_name, upstream_customer, 'the order names the verified subscriber');
  t.notOk(Array.isArray(record.pins) && record.pins.length > 0, 'a Smile bundle issues no PIN');
  upstream.invalid_billers.add('7071236009');
  check_error(t, await server.api('POST', '/v1/services/internet/verify', { key: account.key, body: { provider: 'smile', account: '7071236009' } }), 422, 'service.invalid_account', 'an account the upstream does not know');
});

t.test('a live Spectranet PIN pays serviceID spectranet and keeps the card VTpass sends', async (t) => {
  const account = await live_reseller(server, 50_000);
  const response = await buy(server, account.key, path, { provider: 'spectranet', plan_code: 'spectranet-7000', phone: '08071236002', amount: 7_000, pin: '12345' });
  t.equal(response.status, 201, 'a live Spectranet PIN: answers 201');
  const pay = upstream.pays_for('08071236002')[0];
  t.equal(pay.body.serviceID, 'spectranet', 'serviceID is spectranet');
  t.equal(pay.body.variation_code, '7000', 'variation_code is the plan\'s VTpass code');
  t.equal(pay.body.quantity, 1, 'one PIN is asked for');
  const record = await settled_order(server, account.key, response.body.data.reference, 15_000);
  t.equal(record.pins?.length, 1, 'one PIN on the order');
  t.equal(record.pins[0].pin, upstream_pin(pay.body.request_id, 0), 'the card\'s PIN is the order\'s');
  t.type(record.pins[0].serial, 'string', 'with the card\'s serial');
});

t.test('a pending (099) live Spectranet purchase is re-queried to delivery and its PIN then appears on the order', async (t) => {
  const account = await live_reseller(server, 50_000);
  upstream.set_mode('08071236003', 'processing');
  const response = await buy(server, account.key, path, { provider: 'spectranet', plan_code: 'spectranet-15000', phone: '08071236003', amount: 15_000, pin: '12345' });
  check_created(t, response, 'processing', 'a pending Spectranet purchase');
  const record = await settled_order(server, account.key, response.body.data.reference, 15_000);
  t.equal(record.status, 'delivered', 'the re-query found it delivered');
  const request_id = upstream.pays_for('08071236003')[0].body.request_id;
  t.ok(upstream.calls('/api/requery', request_id).length >= 1, 'it was re-queried');
  t.equal(record.pins?.[0]?.pin, upstream_pin(request_id, 0), 'the PIN arrived with the re-query');
});

t.test('a definite live failure (016) of a Smile purchase is refunded and carries no PIN', async (t) => {
  const account = await live_reseller(server, 50_000);
  upstream.set_mode('7071236005', 'fail');
  const response = await buy(server, account.key, path, { provider: 'smile', plan_code: 'smile-1-5gb-7d', account: '7071236005', phone: '08071236005', amount: 1_000, pin: '12345' });
  t.ok(response.status === 422 || response.status === 201, 'the purchase answers failed (422) or processing (201) on a busy machine');
  const orders = await server.api('GET', '/v1/transactions?service_type=internet', { key: account.key });
  const record = await settled_order(server, account.key, orders.body.data.transactions[0].reference, 15_000);
  t.equal(record.status, 'failed', 'the order failed');
  t.equal(record.reversed, true, 'and was reversed');
  t.equal(await balance_kobo(server, account.key), 50_000_00, 'the live wallet was refunded');
  t.notOk(Array.isArray(record.pins) && record.pins.length > 0, 'a failed order has no PIN');
});
