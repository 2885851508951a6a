// Education PINs bought with a live key through the live adapter from the fake VTpass upstream over real
// HTTP (docs/api.md "Education and internet"): the VTpass fields of waec, waec-registration and jamb, the PINs read
// from VTpass's cards / tokens / Pin shapes, JAMB profile verification by merchant-verify, a pending answer
// re-queried to delivery with its PINs, and a definite failure refunded.
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { start_upstream, upstream_customer, upstream_pin } from './helpers/fake-upstream.js';
import { balance_kobo, buy, check_created, check_error, settled_order, warm_up_live } from './helpers/purchases.js';

const upstream = await start_upstream(t);
// TIME_SCALE=0.005: re-queries after 150 ms, 300 ms, 600 ms; an adapter timeout of 1 s. The purchase's own
// wait for the upstream is then 25 ms, so on a busy machine an answer the upstream gives at once may still be
// reported processing: the tests read the PINs from the settled order, where they always end up.
const server = await start_server(t, { env: { TIME_SCALE: '0.005', ...upstream.env(1_000) } });
await warm_up_live(server, (await live_reseller(server, 0)).key);
const path = '/v1/services/education';

async function live_reseller(s: TestServer, live_ngn = 100_000) {
  const account = await s.reseller(10_000, {}, { rate_limit_per_minute: 1_000_000 });
  const live = await s.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  if (live_ngn > 0) await s.credit(account.id, 'live', live_ngn);
  return { ...account, test_key: account.key, key: live.api_key };
}

function education_body(product: string, amount: number, phone: string, overrides: Record<string, unknown> = {}) {
  return { product, phone, amount, pin: '12345', ...overrides };
}

t.test('live WAEC result checkers pay serviceID waec with variation waecdirect and quantity, and keep the cards VTpass sends', async (t) => {
  const account = await live_reseller(server, 50_000);
  const response = await buy(server, account.key, path, education_body('waec-result-checker', 7_800, '08061235001', { quantity: 2 }));
  t.equal(response.status, 201, 'two live result checkers: answers 201');
  const pay = upstream.pays_for('08061235001')[0];
  t.equal(pay.body.serviceID, 'waec', 'serviceID is waec');
  t.equal(pay.body.variation_code, 'waecdirect', 'variation_code is waecdirect');
  t.equal(pay.body.quantity, 2, 'quantity is sent');
  t.equal(pay.body.phone, '08061235001', 'phone is the buyer\'s phone');
  const record = await settled_order(server, account.key, response.body.data.reference, 15_000);
  t.same(record.pins, [{ serial: 'WRN100000000', pin: upstream_pin(pay.body.request_id, 0) }, { serial: 'WRN100000001', pin: upstream_pin(pay.body.request_id, 1) }], 'the two cards are the PINs, serial and PIN');
  if (response.body.data.status === 'delivered') t.same(response.body.data.pins, record.pins, 'a delivered 201 carries the same PINs');
});

t.test('a live WAEC registration PIN is read from VTpass tokens', async (t) => {
  const account = await live_reseller(server, 50_000);
  const response = await buy(server, account.key, path, education_body('waec-registration', 29_950, '08061235002'));
  t.equal(response.status, 201, 'a live WAEC registration PIN: answers 201');
  const pay = upstream.pays_for('08061235002')[0];
  t.equal(pay.body.serviceID, 'waec-registration', 'serviceID is waec-registration');
  const record = await settled_order(server, account.key, response.body.data.reference, 15_000);
  t.same(record.pins, [{ serial: null, pin: upstream_pin(pay.body.request_id, 0) }], 'the token is the PIN, without a serial');
});

t.test('a live JAMB UTME PIN verifies the profile by merchant-verify, pays billersCode = profile, and reads "Pin : ..."', async (t) => {
  const account = await live_reseller(server, 50_000);
  const verified = await server.api('POST', '/v1/services/education/verify', { key: account.key, body: { product: 'jamb-utme', profile_id: '6061235003' } });
  t.equal(verified.status, 200, 'the profile verifies');
  t.equal(verified.body.data.customer_name, upstream_customer, 'the candidate is the upstream\'s customer name');
  const verify_call = upstream.calls('/api/merchant-verify').at(-1)!;
  t.equal(verify_call.body.serviceID, 'jamb', 'merchant-verify asks serviceID jamb');
  t.equal(verify_call.body.type, 'utme-mock', 'with the variation as type');
  const response = await buy(server, account.key, path, education_body('jamb-utme', 7_700, '08061235003', { profile_id: '6061235003' }));
  t.equal(response.status, 201, 'a live JAMB PIN: answers 201');
  const pay = upstream.pays_for('6061235003')[0];
  t.equal(pay.body.serviceID, 'jamb', 'serviceID is jamb');
  t.equal(pay.body.variation_code, 'utme-mock', 'variation_code is utme-mock');
  t.equal(pay.body.phone, '08061235003', 'phone is the buyer\'s phone');
  const record = await settled_order(server, account.key, response.body.data.reference, 15_000);
  t.same(record.pins, [{ serial: null, pin: upstream_pin(pay.body.request_id, 0) }], 'the label is stripped from the PIN');
  upstream.invalid_billers.add('6061235009');
  check_error(t, await server.api('POST', '/v1/services/education/verify', { key: account.key, body: { product: 'jamb-de', profile_id: '6061235009' } }), 422, 'service.invalid_profile', 'a profile the upstream does not know');
});

t.test('a pending (099) live WAEC purchase is re-queried to delivery and its PINs then appear on the order', async (t) => {
  const account = await live_reseller(server, 50_000);
  upstream.set_mode('08061235004', 'processing');
  const response = await buy(server, account.key, path, education_body('waec-result-checker', 11_700, '08061235004', { quantity: 3 }));
  check_created(t, response, 'processing', 'a pending result checker purchase');
  t.equal(response.body.data.pins, null, 'no PINs while pending');
  const record = await settled_order(server, account.key, response.body.data.reference, 15_000);
  t.equal(record.status, 'delivered', 'the re-query found it delivered');
  const request_id = upstream.pays_for('08061235004')[0].body.request_id;
  t.ok(upstream.calls('/api/requery', request_id).length >= 2, 'it was re-queried');
  t.equal(record.pins.length, 3, 'the three PINs arrived with the re-query');
  t.equal(record.pins[2].pin, upstream_pin(request_id, 2), 'they are the upstream\'s PINs');
});

t.test('a definite live failure (016) of a JAMB purchase is refunded and carries no PINs', async (t) => {
  const account = await live_reseller(server, 50_000);
  upstream.set_mode('6061235005', 'fail');
  const response = await buy(server, account.key, path, education_body('jamb-de', 6_200, '08061235005', { profile_id: '6061235005' }));
  t.ok(response.status === 422 || response.status === 201, 'the purchase answers failed (422) or processing (201) on a busy machine');
  const orders = await server.api('GET', '/v1/transactions?service_type=education', { key: account.key });
  const record = await settled_order(server, account.key, orders.body.data.transactions[0].reference, 15_000);
  t.equal(await balance_kobo(server, account.key), 50_000_00, 'the live wallet was refunded');
  t.equal(record.status, 'failed', 'the order failed');
  t.equal(record.reversed, true, 'and was reversed');
  t.notOk('pins' in record, 'a failed order has no PINs');
});
