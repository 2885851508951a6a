// Deeper verification (docs/api.md "Deeper verification"): electricity verify gives arrears, minimum_amount
// and can_vend (prepaid and postpaid), TV verify gives the current package's code and renewal_amount; a
// purchase below a meter's minimum, or for a meter that cannot vend, is refused from the verification the
// purchase does anyway, with nothing debited and no order. Sandbox numbers, then the live adapter against
// the fake VTpass (its Customer_Arrears, Minimum_Amount / Min_Purchase_Amount, Can_Vend, Renewal_Amount).
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { start_upstream, upstream_bouquet_code } from './helpers/fake-upstream.js';
import { balance_kobo, buy, check_created, check_error, electricity_body, fast_reseller, kobo, sandbox, warm_up_live } from './helpers/purchases.js';

const server = await start_server(t, { env: { TIME_SCALE: '0.001' } });
const upstream = await start_upstream(t);
const live = await start_server(t, { env: { TIME_SCALE: '0.5', ...upstream.env(1_000) } });

async function live_reseller(s: TestServer, live_ngn: number) {
  const account = await s.reseller(0, {}, { rate_limit_per_minute: 1_000_000 });
  const key = await s.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  await s.credit(account.id, 'live', live_ngn);
  return { ...account, key: key.api_key };
}
const live_account = await live_reseller(live, 100_000);
await warm_up_live(live, live_account.key);

function verify_meter(s: TestServer, key: string, meter_number: string, meter_type = 'prepaid', disco = 'ikeja-electric') {
  return s.api('POST', '/v1/services/electricity/verify', { key, body: { disco, meter_number, meter_type } });
}

async function order_count(s: TestServer, key: string): Promise<number> {
  return (await s.api('GET', '/v1/transactions', { key })).body.data.pagination.total;
}

t.test('sandbox: the arrears meter shows NGN 12,500 owed and a NGN 5,000 minimum, prepaid and postpaid', async (t) => {
  const account = await fast_reseller(server, 1_000);
  for (const meter_type of ['prepaid', 'postpaid']) {
    const response = await verify_meter(server, account.key, sandbox.arrears_meter, meter_type, 'eko-electric');
    t.equal(response.status, 200, `${meter_type}: verify is 200`);
    t.equal(response.body.data.arrears, 12_500, `${meter_type}: arrears is 12,500`);
    t.equal(response.body.data.minimum_amount, 5_000, `${meter_type}: minimum_amount is 5,000`);
    t.equal(response.body.data.can_vend, true, `${meter_type}: can_vend is true`);
    t.equal(response.body.data.customer_name, 'Test Customer', `${meter_type}: the customer is named as before`);
  }
});

t.test('sandbox: the blocked meter cannot vend; an ordinary meter owes nothing, has no minimum and can vend', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const blocked = await verify_meter(server, account.key, sandbox.blocked_meter, 'postpaid');
  t.equal(blocked.status, 200, 'verifying the blocked meter is 200');
  t.equal(blocked.body.data.can_vend, false, 'can_vend is false');
  const plain = await verify_meter(server, account.key, sandbox.prepaid_meter);
  t.equal(plain.status, 200, 'verifying the ordinary meter is 200');
  t.same([plain.body.data.arrears, plain.body.data.minimum_amount, plain.body.data.can_vend], [0, null, true], 'arrears 0, no minimum, can vend');
  t.same(Object.keys(plain.body.data).sort(), ['address', 'arrears', 'can_vend', 'customer_name', 'disco', 'meter_number', 'meter_type', 'minimum_amount'], 'the old fields and the three new ones, no smartcard fields');
  check_error(t, await verify_meter(server, account.key, sandbox.invalid_meter_13), 422, 'service.invalid_meter', 'the invalid meter is still invalid');
});

t.test('sandbox: a purchase below the meter\'s minimum is 422 service.amount_below_minimum, nothing debited, no order', async (t) => {
  const account = await fast_reseller(server, 20_000);
  for (const [amount, meter_type] of [[4_999.99, 'prepaid'], [500, 'postpaid'], [1_000, 'prepaid']] as const) {
    const response = await buy(server, account.key, '/v1/services/electricity', electricity_body(sandbox.arrears_meter, amount, { meter_type }));
    check_error(t, response, 422, 'service.amount_below_minimum', `${amount} NGN ${meter_type}`);
    t.equal(response.body.error?.minimum_amount, 5_000, `${amount} NGN: the error names the minimum`);
    t.same(response.body.error?.details?.map((d: { field: string }) => d.field), ['amount'], `${amount} NGN: the detail names amount`);
  }
  t.equal(await balance_kobo(server, account.key), 20_000_00, 'nothing was debited');
  t.equal(await order_count(server, account.key), 0, 'no order was made');
  const at_minimum = await buy(server, account.key, '/v1/services/electricity', electricity_body(sandbox.arrears_meter, 5_000));
  check_created(t, at_minimum, 'delivered', 'exactly the minimum');
  t.equal(await balance_kobo(server, account.key), 15_000_00, 'the purchase at the minimum was debited');
});

t.test('sandbox: a purchase for a meter that cannot vend is 422 service.meter_cannot_vend, nothing debited, no order', async (t) => {
  const account = await fast_reseller(server, 20_000);
  for (const meter_type of ['prepaid', 'postpaid']) {
    check_error(t, await buy(server, account.key, '/v1/services/electricity', electricity_body(sandbox.blocked_meter, 10_000, { meter_type })), 422, 'service.meter_cannot_vend', `the blocked ${meter_type} meter`);
  }
  t.equal(await balance_kobo(server, account.key), 20_000_00, 'nothing was debited');
  t.equal(await order_count(server, account.key), 0, 'no order was made');
});

t.test('sandbox: an idempotent retry of a refused purchase gets the same refusal', async (t) => {
  const account = await fast_reseller(server, 20_000);
  const key = `below-${Date.now()}`;
  const first = await buy(server, account.key, '/v1/services/electricity', electricity_body(sandbox.arrears_meter, 600), key);
  const again = await buy(server, account.key, '/v1/services/electricity', electricity_body(sandbox.arrears_meter, 600), key);
  check_error(t, first, 422, 'service.amount_below_minimum', 'the first try');
  check_error(t, again, 422, 'service.amount_below_minimum', 'the retry');
  t.equal(await balance_kobo(server, account.key), 20_000_00, 'nothing was debited');
});

t.test('sandbox: the renewal smartcard shows its current package, code and renewal amount; StarTimes gives none', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const rows: [string, string, string, number | null][] = [
    ['dstv', 'DStv Compact', 'dstv-compact', 21_500],
    ['gotv', 'GOtv Max', 'gotv-max', 8_500],
    ['startimes', 'StarTimes Classic', 'startimes-classic', null],
  ];
  for (const [provider, name, code, renewal] of rows) {
    const response = await server.api('POST', '/v1/services/tv/verify', { key: account.key, body: { provider, smartcard_number: sandbox.renewal_smartcard } });
    t.equal(response.status, 200, `${provider}: verify is 200`);
    t.equal(response.body.data.current_package, name, `${provider}: the current package is named`);
    t.equal(response.body.data.current_package_code, code, `${provider}: its code`);
    t.equal(response.body.data.renewal_amount, renewal, `${provider}: renewal_amount`);
  }
  const plain = await server.api('POST', '/v1/services/tv/verify', { key: account.key, body: { provider: 'dstv', smartcard_number: sandbox.valid_smartcard } });
  t.equal(plain.body.data.current_package, 'DStv Compact', 'the ordinary smartcard still names its package');
  t.same([plain.body.data.current_package_code, plain.body.data.renewal_amount], [null, null], 'and gives no renewal amount');
  t.same(Object.keys(plain.body.data).sort(), ['address', 'current_package', 'current_package_code', 'customer_name', 'due_date', 'provider', 'renewal_amount', 'smartcard_number'], 'the old fields and the two new ones, no meter fields');
});

t.test('live: VTpass\'s Customer_Arrears, Minimum_Amount and Can_Vend are read, amounts as NGN text', async (t) => {
  upstream.verify_content.set('4501001310001', { Customer_Arrears: '12,500.50', Minimum_Amount: '2500.00', Can_Vend: 'yes' });
  upstream.verify_content.set('4501001310002', { Customer_Arrears: 0, Minimum_Amount: '', Min_Purchase_Amount: 1500, Can_Vend: 'NO' });
  upstream.verify_content.set('4501001310003', { Customer_Arrears: 'n/a', Minimum_Amount: undefined, Can_Vend: undefined });
  const rows: [string, string, number | null, number | null, boolean | null][] = [
    ['4501001310001', 'prepaid', 12_500.5, 2_500, true],
    ['4501001310002', 'postpaid', 0, 1_500, false],
    ['4501001310003', 'prepaid', null, null, null],
  ];
  for (const [meter, meter_type, arrears, minimum, can_vend] of rows) {
    const response = await verify_meter(live, live_account.key, meter, meter_type);
    t.equal(response.status, 200, `${meter}: verify is 200`);
    t.equal(response.body.data.arrears, arrears, `${meter}: arrears ${arrears}`);
    t.equal(response.body.data.minimum_amount, minimum, `${meter}: minimum_amount ${minimum} (Min_Purchase_Amount when Minimum_Amount is empty)`);
    t.equal(response.body.data.can_vend, can_vend, `${meter}: can_vend ${can_vend}`);
  }
  const plain = await verify_meter(live, live_account.key, '4501001310009');
  t.same([plain.body.data.arrears, plain.body.data.minimum_amount, plain.body.data.can_vend], [null, null, true], 'VTpass\'s empty strings mean not known; Can_Vend "yes" is true');
});

t.test('live: a purchase below the upstream\'s minimum, or for a meter it cannot vend, never reaches /api/pay and debits nothing', async (t) => {
  const account = await live_reseller(live, 50_000);
  upstream.verify_content.set('4501001310011', { Minimum_Amount: '2500.00', Customer_Arrears: '800.00' });
  upstream.verify_content.set('4501001310012', { Can_Vend: 'no' });
  const below = await buy(live, account.key, '/v1/services/electricity', electricity_body('4501001310011', 2_499.99));
  check_error(t, below, 422, 'service.amount_below_minimum', 'one kobo below the upstream minimum');
  t.equal(below.body.error?.minimum_amount, 2_500, 'the error names the upstream minimum');
  check_error(t, await buy(live, account.key, '/v1/services/electricity', electricity_body('4501001310012', 5_000, { meter_type: 'postpaid' })), 422, 'service.meter_cannot_vend', 'the meter the upstream cannot vend');
  t.equal(upstream.pays_for('4501001310011').length + upstream.pays_for('4501001310012').length, 0, 'the upstream was never asked to pay');
  t.equal(await balance_kobo(live, account.key), 50_000_00, 'nothing was debited');
  const at_minimum = await buy(live, account.key, '/v1/services/electricity', electricity_body('4501001310011', 2_500));
  check_created(t, at_minimum, 'delivered', 'the upstream minimum exactly');
  t.equal(upstream.pays_for('4501001310011').length, 1, 'that one was paid once');
  t.equal(kobo(upstream.pays_for('4501001310011')[0].body.amount), 2_500_00, 'for the amount asked');
});

t.test('live: a DStv verification gives VTpass\'s Current_Bouquet_Code and Renewal_Amount', async (t) => {
  const response = await live.api('POST', '/v1/services/tv/verify', { key: live_account.key, body: { provider: 'dstv', smartcard_number: '7012341310' } });
  t.equal(response.status, 200, 'verify is 200');
  t.equal(response.body.data.current_package, 'DStv Compact', 'the current bouquet as before');
  t.equal(response.body.data.current_package_code, upstream_bouquet_code, 'its code from Current_Bouquet_Code');
  t.equal(response.body.data.renewal_amount, 21_500, 'renewal_amount from Renewal_Amount');
  const startimes = await live.api('POST', '/v1/services/tv/verify', { key: live_account.key, body: { provider: 'startimes', smartcard_number: '7012341311' } });
  t.same([startimes.body.data.current_package_code, startimes.body.data.renewal_amount], [null, null], 'StarTimes: VTpass gives neither');
});
