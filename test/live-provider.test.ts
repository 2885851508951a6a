// Live keys buy through the live adapter (src/services/live-provider.ts) from a fake VTpass-style
// upstream over real HTTP: what is sent, delivery, definite failure, verification, and a server
// without provider settings (docs/decisions.md "Transactions", "Services"; src/server/serve-store.ts). TIME_SCALE=0.5
// makes the purchase's 5 s wait 2.5 s: an upstream that answers at once is seen delivered even on a
// busy machine, and nothing here waits for a re-query.
// Faults (timeouts, 5xx, garbage, circuit) are in live-provider-faults.test.ts.
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { start_upstream, upstream_address, upstream_customer, upstream_token, upstream_units } from './helpers/fake-upstream.js';
import {
  airtime_body, balance_kobo, buy, buy_airtime, check_created, check_error, data_body, electricity_body, entries_of, kobo, order, tv_body, warm_up_live,
} from './helpers/purchases.js';

const upstream = await start_upstream(t);
// An adapter timeout of 1 s: nothing here is about timeouts, and a busy machine must not make one.
const server = await start_server(t, { env: { TIME_SCALE: '0.5', ...upstream.env(1_000) } });
await warm_up_live(server, (await live_reseller(server, 0)).key);
/** VTpass request ids: Africa/Lagos YYYYMMDDHHmm, then random characters. */
const request_id_pattern = /^\d{12}[a-z0-9]{12}$/;

/** An account with a funded live wallet and a live key (plus a funded test wallet to show they stay apart). */
async function live_reseller(s: TestServer, live_ngn = 100_000) {
  const account = await s.reseller(10_000, {}, { rate_limit_per_minute: 1_000_000 });
  const live = await s.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  if (live_ngn > 0) await s.credit(account.id, 'live', live_ngn);
  return { ...account, test_key: account.key, key: live.api_key };
}

t.test('a live airtime purchase pays the upstream once with the VTpass fields and the configured keys', async (t) => {
  const account = await live_reseller(server, 1_000);
  const response = await buy_airtime(server, account.key, '08061230001', 250.5);
  check_created(t, response, 'delivered', 'live airtime');
  t.equal(kobo(response.body.data.wallet_balance_after), 749_50, 'wallet_balance_after is the live balance after the debit');
  const pays = upstream.pays_for('08061230001');
  t.equal(pays.length, 1, 'the upstream was paid once');
  const pay = pays[0];
  t.match(pay.body.request_id, request_id_pattern, 'request_id has the VTpass shape');
  t.equal(pay.body.serviceID, 'mtn', 'serviceID is the network');
  t.equal(pay.body.billersCode, '08061230001', 'billersCode is the phone');
  t.equal(pay.body.phone, '08061230001', 'phone is the phone');
  t.equal(kobo(pay.body.amount), 250_50, 'amount is the NGN amount');
  t.equal(pay.headers['api-key'], 'fake-api-key', 'the api-key header carries PROVIDER_API_KEY');
  t.equal(pay.headers['secret-key'], 'fake-secret-key', 'the secret-key header carries PROVIDER_SECRET_KEY');
  t.match(String(pay.headers['content-type']), /application\/json/, 'the body is JSON');
  t.equal(upstream.calls('/api/requery', pay.body.request_id).length, 0, 'a delivered answer needs no re-query');
  t.equal(await balance_kobo(server, account.key), 749_50, 'the live wallet was debited');
  t.equal(await balance_kobo(server, account.test_key), 10_000_00, 'the test wallet was not touched');
  const record = await order(server, account.key, response.body.data.reference);
  t.equal(record.environment, 'live', 'the order is a live order');
  check_error(t, await server.api('GET', `/v1/transactions/${response.body.data.reference}`, { key: account.test_key }), 404, 'transaction.not_found', 'the live order read with the test key');
});

t.test('each service is sent with its upstream serviceID and variation_code', async (t) => {
  const account = await live_reseller(server, 100_000);
  const rows: { what: string; path: string; body: Record<string, unknown>; billers: string; service_id: string; variation: string | undefined }[] = [
    { what: 'airtel airtime', path: '/v1/services/airtime', body: airtime_body('08021230011', 50, { network: 'airtel' }), billers: '08021230011', service_id: 'airtel', variation: undefined },
    { what: 'glo airtime', path: '/v1/services/airtime', body: airtime_body('08051230012', 50, { network: 'glo' }), billers: '08051230012', service_id: 'glo', variation: undefined },
    { what: '9mobile airtime', path: '/v1/services/airtime', body: airtime_body('08091230013', 50, { network: '9mobile' }), billers: '08091230013', service_id: 'etisalat', variation: undefined },
    // VTpass's own variation codes of the plans, never our plan ids (test/catalog-upstream-codes.test.ts).
    { what: 'MTN data', path: '/v1/services/data/purchase', body: data_body('mtn-100mb-1d', 100, '08061230014'), billers: '08061230014', service_id: 'mtn-data', variation: 'mtn-10mb-100' },
    { what: '9mobile data', path: '/v1/services/data/purchase', body: data_body('9mobile-100mb-1d', 100, '08091230015', { network: '9mobile' }), billers: '08091230015', service_id: 'etisalat-data', variation: 'eti-100' },
    { what: 'postpaid electricity', path: '/v1/services/electricity', body: electricity_body('45010012346', 800, { meter_type: 'postpaid', disco: 'PHED' }), billers: '45010012346', service_id: 'portharcourt-electric', variation: 'postpaid' },
    { what: 'GOtv', path: '/v1/services/tv', body: tv_body('7012340001'), billers: '7012340001', service_id: 'gotv', variation: 'gotv-max' },
  ];
  for (const row of rows) {
    const response = await buy(server, account.key, row.path, row.body);
    check_created(t, response, 'delivered', row.what);
    const pays = upstream.pays_for(row.billers);
    t.equal(pays.length, 1, `${row.what}: paid once`);
    t.equal(pays[0]?.body.serviceID, row.service_id, `${row.what}: serviceID ${row.service_id}`);
    t.equal(pays[0]?.body.variation_code, row.variation, `${row.what}: variation_code ${row.variation}`);
  }
  const request_ids = upstream.calls('/api/pay').map((r) => r.body.request_id);
  t.equal(new Set(request_ids).size, request_ids.length, 'every order had its own request_id');
});

t.test('a live prepaid payment verifies the meter upstream and returns the upstream token and units', async (t) => {
  const account = await live_reseller(server, 10_000);
  const meter = '4501001230021';
  const verify = await server.api('POST', '/v1/services/electricity/verify', { key: account.key, body: { disco: 'ikeja-electric', meter_number: meter, meter_type: 'prepaid' } });
  t.equal(verify.status, 200, 'verify is 200');
  t.equal(verify.body.data.customer_name, upstream_customer, 'the customer name comes from the upstream');
  t.equal(verify.body.data.address, upstream_address, 'the address comes from the upstream');
  const asked = upstream.calls('/api/merchant-verify').filter((r) => r.body.billersCode === meter);
  t.equal(asked.length, 1, 'the upstream was asked once');
  t.same([asked[0]?.body.serviceID, asked[0]?.body.type], ['ikeja-electric', 'prepaid'], 'with the disco service ID and the meter type');

  const response = await buy(server, account.key, '/v1/services/electricity', electricity_body(meter, 3000));
  check_created(t, response, 'delivered', 'live prepaid electricity');
  const pay = upstream.pays_for(meter)[0];
  t.equal(response.body.data.token, upstream_token(pay.body.request_id), 'the token is the upstream\'s, without its "Token :" prefix');
  t.equal(response.body.data.units, `${upstream_units} kWh`, 'the upstream units carry the kWh suffix');
  t.equal(response.body.data.customer_name, upstream_customer, 'the customer name comes from the verification');
  t.equal(pay.body.serviceID, 'ikeja-electric', 'paid with the disco service ID');
  t.equal(pay.body.variation_code, 'prepaid', 'paid with the meter type');
});

t.test('a live TV purchase verifies the smartcard upstream first', async (t) => {
  const account = await live_reseller(server, 50_000);
  const verify = await server.api('POST', '/v1/services/tv/verify', { key: account.key, body: { provider: 'dstv', smartcard_number: '7012340031' } });
  t.equal(verify.status, 200, 'verify is 200');
  t.equal(verify.body.data.customer_name, upstream_customer, 'the customer name comes from the upstream');
  t.equal(verify.body.data.current_package, 'DStv Compact', 'the current bouquet comes from the upstream');
  t.equal(verify.body.data.due_date, '2030-01-31', 'the due date comes from the upstream');
  const response = await buy(server, account.key, '/v1/services/tv', tv_body('7012340031', 'dstv-padi', 4400, { provider: 'dstv' }));
  check_created(t, response, 'delivered', 'live DStv Padi');
  t.equal(response.body.data.customer_name, upstream_customer, 'the purchase names the verified customer');
  t.equal(upstream.pays_for('7012340031')[0]?.body.serviceID, 'dstv', 'paid as dstv');
});

t.test('meters and smartcards the upstream does not know are refused before any debit', async (t) => {
  const account = await live_reseller(server, 10_000);
  upstream.invalid_billers.add('4501009999999');
  upstream.invalid_billers.add('7019999999');
  check_error(t, await server.api('POST', '/v1/services/electricity/verify', { key: account.key, body: { disco: 'ikeja-electric', meter_number: '4501009999999', meter_type: 'prepaid' } }), 422, 'service.invalid_meter', 'verifying the unknown meter');
  check_error(t, await buy(server, account.key, '/v1/services/electricity', electricity_body('4501009999999', 1000)), 422, 'service.invalid_meter', 'paying the unknown meter');
  check_error(t, await server.api('POST', '/v1/services/tv/verify', { key: account.key, body: { provider: 'gotv', smartcard_number: '7019999999' } }), 422, 'service.invalid_smartcard', 'verifying the unknown smartcard');
  check_error(t, await buy(server, account.key, '/v1/services/tv', tv_body('7019999999')), 422, 'service.invalid_smartcard', 'paying the unknown smartcard');
  t.equal(upstream.pays_for('4501009999999').length + upstream.pays_for('7019999999').length, 0, 'the upstream was never asked to pay');
  t.equal(await balance_kobo(server, account.key), 10_000_00, 'nothing was debited');
});

t.test('a definite failure (016) is refunded before the 422 transaction.failed answer, and never re-sent', async (t) => {
  const account = await live_reseller(server, 1_000);
  upstream.set_mode('08061230041', 'fail');
  const response = await buy_airtime(server, account.key, '08061230041', 400);
  check_error(t, response, 422, 'transaction.failed', 'airtime the upstream fails');
  const reference = response.body.error.reference;
  t.match(reference, /^BV-/, 'error.reference names the order');
  t.equal(await balance_kobo(server, account.key), 1_000_00, 'the live wallet is whole when the 422 arrives');
  const record = await order(server, account.key, reference);
  t.equal(record.status, 'failed', 'the order failed');
  t.equal(record.reversed, true, 'and was reversed');
  t.match(record.failure_reason, /TRANSACTION FAILED/i, 'the failure reason carries the upstream description');
  t.same((await entries_of(server, account.key, reference)).map((e) => [e.type, kobo(e.amount)]), [['debit', 400_00], ['reversal', 400_00]], 'one debit, one reversal');
  t.equal(upstream.pays_for('08061230041').length, 1, 'the upstream was paid once and never again');
});

t.test('an idempotency key is scoped to the environment: the same key buys once in test and once in live', async (t) => {
  const account = await live_reseller(server, 1_000);
  const key = 'same-key-both-environments';
  const live = await buy_airtime(server, account.key, '08061230061', 100, {}, key);
  const test = await buy_airtime(server, account.test_key, '08061230062', 200, {}, key);
  check_created(t, live, 'delivered', 'the live purchase under the key');
  check_created(t, test, 'delivered', 'the test purchase under the same key with another body');
  t.not(live.body.data.reference, test.body.data.reference, 'they are two orders');
  t.equal(await balance_kobo(server, account.key), 900_00, 'the live wallet paid 100');
  t.equal(await balance_kobo(server, account.test_key), 9_800_00, 'the test wallet paid 200');
  const found_live = await server.api('GET', `/v1/transactions?idempotency_key=${key}`, { key: account.key });
  t.same(found_live.body.data.transactions.map((o: { reference: string }) => o.reference), [live.body.data.reference], 'the live key finds the live order');
  const found_test = await server.api('GET', `/v1/transactions?idempotency_key=${key}`, { key: account.test_key });
  t.same(found_test.body.data.transactions.map((o: { reference: string }) => o.reference), [test.body.data.reference], 'the test key finds the test order');
});

t.test('the daily limit is counted per environment: a full test day leaves the live day untouched', async (t) => {
  const created = await server.reseller(60_000, { kyc_level: 1 }, { rate_limit_per_minute: 1_000_000 });
  const live = await server.create_key(created.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  await server.credit(created.id, 'live', 60_000);
  check_created(t, await buy_airtime(server, created.key, '08061230081', 50_000), 'delivered', 'a test purchase of 50,000, the whole level 1 day');
  check_error(t, await buy_airtime(server, created.key, '08061230081', 50), 422, 'wallet.limit_exceeded', 'one more test purchase');
  check_created(t, await buy_airtime(server, live.api_key, '08061230082', 50_000), 'delivered', 'a live purchase of 50,000 the same day');
  check_error(t, await buy_airtime(server, live.api_key, '08061230082', 50), 422, 'wallet.limit_exceeded', 'one more live purchase');
});

t.test('a server without provider settings answers 503 to every live purchase and debits nothing', async (t) => {
  const bare = await start_server(t, { env: { TIME_SCALE: '0.05' } });
  const account = await live_reseller(bare, 1_000);
  const rows: [string, string, Record<string, unknown>][] = [
    ['airtime', '/v1/services/airtime', airtime_body('08061230051', 100)],
    ['data', '/v1/services/data/purchase', data_body('mtn-100mb-1d', 100, '08061230051')],
    ['electricity', '/v1/services/electricity', electricity_body('4501001230051', 500)],
    ['tv', '/v1/services/tv', tv_body('7012340051')],
  ];
  for (const [what, path, body] of rows) {
    const response = await buy(bare, account.key, path, body);
    check_error(t, response, 503, 'transaction.provider_unavailable', `live ${what} without a provider`);
    t.equal(response.headers.get('retry-after'), '60', `live ${what}: Retry-After is 60`);
  }
  check_error(t, await bare.api('POST', '/v1/services/electricity/verify', { key: account.key, body: { disco: 'ikeja-electric', meter_number: '4501001230051', meter_type: 'prepaid' } }), 503, 'transaction.provider_unavailable', 'live meter verification without a provider');
  t.equal(await balance_kobo(bare, account.key), 1_000_00, 'the live wallet was not touched');
  t.equal((await bare.api('GET', '/v1/transactions', { key: account.key })).body.data.pagination.total, 0, 'no live order was made');
  check_created(t, await buy_airtime(bare, account.test_key, '08061230051', 100), 'delivered', 'the same account\'s test key still buys from the sandbox');
});
