// Electricity payments through real sockets (docs/spec.md section 2 "Purchase results", section 4
// "Electricity", section 8 "Electricity amount", "Meter number length"; docs/decisions.md "Services" and
// "Sandbox": prepaid tokens are 20 digits in groups of 4, units like "45.3 kWh").
import t from 'tap';
import { start_server } from './helpers/server.js';
import {
  balance_kobo, buy, check_created, check_error, electricity_body, fast_reseller, kobo, order, sandbox, token_pattern, units_pattern, iso_us_pattern,
} from './helpers/purchases.js';

const server = await start_server(t, { env: { TIME_SCALE: '0.001' } });
const path = '/v1/services/electricity';

t.test('a prepaid payment answers 201 with a 20-digit token, units in kWh, the meter and the amount', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const response = await buy(server, account.key, path, electricity_body(sandbox.prepaid_meter, 1000));
  check_created(t, response, 'delivered', 'prepaid 1,000');
  const data = response.body.data;
  for (const field of ['reference', 'status', 'token', 'units', 'meter_number', 'amount']) t.ok(Object.prototype.hasOwnProperty.call(data, field), `the result has ${field}`);
  t.match(data.token, token_pattern, 'the token is 20 digits in groups of 4');
  t.match(data.units, units_pattern, 'units carry the kWh suffix');
  t.ok(Number.parseFloat(data.units) > 0, 'units are more than zero');
  t.equal(data.meter_number, sandbox.prepaid_meter, 'meter_number is echoed');
  t.equal(kobo(data.amount), 1_000_00, 'amount is 1,000');
  t.equal(data.customer_name, 'Test Customer', 'the sandbox customer is named');
  t.equal(data.disco, 'ikeja-electric', 'the disco is the service ID');
  t.match(data.delivered_at, iso_us_pattern, 'delivered_at is ISO 8601 UTC');
  t.match(response.body.message, /electricity/i, 'the message speaks of electricity');
  t.equal(await balance_kobo(server, account.key), 9_000_00, 'the wallet was debited 1,000');
  const record = await order(server, account.key, data.reference);
  t.equal(record.token, data.token, 'the full record keeps the token');
  t.equal(record.units, data.units, 'the full record keeps the units');
  t.equal(record.meter_type, 'prepaid', 'the full record keeps the meter type');
  t.equal(record.disco, 'ikeja-electric', 'the full record keeps the disco');
  t.equal(record.customer_name, 'Test Customer', 'the full record keeps the customer name');
});

t.test('a postpaid payment answers 201 without a token', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const response = await buy(server, account.key, path, electricity_body(sandbox.postpaid_meter, 2500.5, { meter_type: 'postpaid', disco: 'eko-electric' }));
  check_created(t, response, 'delivered', 'postpaid 2,500.50');
  t.equal(response.body.data.token, null, 'a postpaid meter gets no token');
  t.equal(response.body.data.meter_number, sandbox.postpaid_meter, 'meter_number is echoed');
  t.equal(kobo(response.body.data.amount), 2_500_50, 'amount is 2,500.50');
  t.equal(await balance_kobo(server, account.key), 7_499_50, 'the wallet was debited 2,500.50');
});

t.test('the electricity amount is checked at its edge: 499 and 499.99 are refused, 500 is paid', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const rows: [number, number, string][] = [
    [499, 400, '499 NGN'],
    [499.99, 400, '499.99 NGN, one kobo below the minimum'],
    [500, 201, '500 NGN, the minimum'],
    [500.01, 201, '500.01 NGN'],
    [750.125, 400, 'an amount with 3 decimals'],
  ];
  for (const [amount, status, what] of rows) {
    const before = await balance_kobo(server, account.key);
    const response = await buy(server, account.key, path, electricity_body(sandbox.prepaid_meter, amount));
    const after = await balance_kobo(server, account.key);
    if (status === 201) {
      check_created(t, response, 'delivered', what);
      t.equal(before - after, kobo(amount), `${what}: debited exactly`);
    } else {
      check_error(t, response, 400, 'validation.failed', what);
      t.ok(response.body?.error?.details?.some((d: { field: string }) => d.field === 'amount'), `${what}: details name the amount`);
      t.equal(after, before, `${what}: nothing debited`);
    }
  }
});

t.test('meter numbers of 11 and 13 digits are paid; 10, 12 and 14 digits are 400', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const rows: [string, number][] = [
    ['4501001234', 400],
    ['45010012345', 201],
    ['450100123456', 400],
    ['4501001234567', 201],
    ['45010012345678', 400],
    ['4501001234a', 400],
  ];
  for (const [meter, status] of rows) {
    const what = `a meter of ${meter.length} characters (${meter})`;
    const response = await buy(server, account.key, path, electricity_body(meter, 500));
    if (status === 201) {
      check_created(t, response, 'delivered', what);
      t.equal(response.body.data.meter_number, meter, `${what}: meter_number is echoed`);
    } else {
      check_error(t, response, 400, 'validation.failed', what);
      t.ok(response.body?.error?.details?.some((d: { field: string }) => d.field === 'meter_number'), `${what}: details name meter_number`);
    }
  }
  t.equal(await balance_kobo(server, account.key), 9_000_00, 'exactly the two valid meters were debited');
});

t.test('the sandbox\'s invalid meters are 422 service.invalid_meter and nothing is debited', async (t) => {
  const account = await fast_reseller(server, 10_000);
  for (const [meter, meter_type] of [[sandbox.invalid_meter_13, 'prepaid'], [sandbox.invalid_meter_11, 'prepaid'], [sandbox.invalid_meter_13, 'postpaid']]) {
    const response = await buy(server, account.key, path, electricity_body(meter, 500, { meter_type }));
    check_error(t, response, 422, 'service.invalid_meter', `${meter_type} meter ${meter}`);
  }
  t.equal(await balance_kobo(server, account.key), 10_000_00, 'nothing was debited');
  const orders = await server.api('GET', '/v1/transactions', { key: account.key });
  t.equal(orders.body.data.pagination.total, 0, 'no order was created');
});

t.test('every disco is accepted by service ID and by code in any case; an unknown disco is 400', async (t) => {
  const account = await fast_reseller(server, 20_000);
  const discos = (await server.api('GET', '/v1/services/electricity/discos', { key: account.key })).body.data.discos as { code: string; service_id: string }[];
  t.equal(discos.length, 9, 'nine discos are listed');
  for (const disco of discos) {
    const by_id = await buy(server, account.key, path, electricity_body(sandbox.prepaid_meter, 500, { disco: disco.service_id }));
    check_created(t, by_id, 'delivered', `disco ${disco.service_id}`);
    t.equal(by_id.body.data.disco, disco.service_id, `${disco.service_id}: the result names the service ID`);
  }
  for (const text of ['IKEDC', 'ikedc', 'IkEdC']) {
    const by_code = await buy(server, account.key, path, electricity_body(sandbox.prepaid_meter, 500, { disco: text }));
    check_created(t, by_code, 'delivered', `disco code ${text}`);
    t.equal(by_code.body.data.disco, 'ikeja-electric', `${text}: the order is for ikeja-electric`);
  }
  check_error(t, await buy(server, account.key, path, electricity_body(sandbox.prepaid_meter, 500, { disco: 'lagos-electric' })), 400, 'validation.failed', 'an unknown disco');
  check_error(t, await buy(server, account.key, path, electricity_body(sandbox.prepaid_meter, 500, { meter_type: 'smart' })), 400, 'validation.failed', 'an unknown meter type');
  t.equal(await balance_kobo(server, account.key), 20_000_00 - 12 * 500_00, 'twelve payments of 500 were debited');
});

t.test('an electricity payment the wallet cannot afford is 422 wallet.insufficient_funds', async (t) => {
  const account = await fast_reseller(server, 0);
  await server.credit(account.id, 'test', 500);
  check_error(t, await buy(server, account.key, path, electricity_body(sandbox.prepaid_meter, 500.01)), 422, 'wallet.insufficient_funds', '500.01 from 500');
  check_created(t, await buy(server, account.key, path, electricity_body(sandbox.prepaid_meter, 500)), 'delivered', '500 from 500');
  t.equal(await balance_kobo(server, account.key), 0, 'the wallet ends at exactly zero');
});
