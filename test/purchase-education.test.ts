// Education PINs through real sockets (docs/api.md "Education and internet"): the product list, JAMB profile
// verification, purchases of WAEC and JAMB PINs with quantity and price × quantity, the PINs on the 201 and
// again on the order record (sealed at rest: never in the store, webhooks, lists or exports in plain text),
// the sandbox phones for failed and processing orders, and the operator's re-pricing.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { start_server } from './helpers/server.js';
import { balance_kobo, buy, check_created, check_error, fast_reseller, idem, kobo, order, sandbox, settled_order } from './helpers/purchases.js';

const server = await start_server(t, { env: { TIME_SCALE: '0.001' } });
const path = '/v1/services/education';
const valid_profile = '1234567890';
const invalid_profile = '0000000000';

function education_body(product: string, amount: number, overrides: Record<string, unknown> = {}) {
  return { product, phone: '08031234567', amount, pin: '12345', ...overrides };
}

t.test('GET /v1/services/education/products lists the WAEC and JAMB products with their prices and bounds', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const response = await server.api('GET', '/v1/services/education/products', { key: account.key });
  t.equal(response.status, 200, 'the list answers 200');
  const products = response.body.data.products as any[];
  t.same(products.map((p) => p.product_code), ['waec-result-checker', 'waec-registration', 'jamb-utme', 'jamb-de'], 'the four shipped products, in catalog order');
  const checker = products[0];
  t.same(Object.keys(checker).sort(), ['amount', 'amount_charged', 'exam', 'name', 'product_code', 'quantity_max', 'requires_profile'], 'a product has exactly the documented fields');
  t.equal(checker.amount, 3900, 'the WAEC result checker costs NGN 3,900');
  t.equal(checker.quantity_max, 10, 'up to 10 result checker PINs per order');
  t.equal(checker.requires_profile, false, 'WAEC needs no profile');
  const utme = products.find((p) => p.product_code === 'jamb-utme');
  t.equal(utme.amount, 7700, 'JAMB UTME costs NGN 7,700');
  t.equal(utme.quantity_max, 1, 'one JAMB PIN per order');
  t.equal(utme.requires_profile, true, 'JAMB needs a profile ID');
  const jamb_only = await server.api('GET', '/v1/services/education/products?exam=jamb', { key: account.key });
  t.same(jamb_only.body.data.products.map((p: any) => p.exam), ['jamb', 'jamb'], 'the exam filter keeps JAMB products only');
  const bad = await server.api('GET', '/v1/services/education/products?exam=neco', { key: account.key });
  check_error(t, bad, 400, 'validation.failed', 'an unknown exam body');
});

t.test('POST /v1/services/education/verify names the candidate of a JAMB profile and refuses 0000000000 with service.invalid_profile', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const verify = (body: unknown) => server.api('POST', '/v1/services/education/verify', { key: account.key, body });
  const valid = await verify({ product: 'jamb-utme', profile_id: valid_profile });
  t.equal(valid.status, 200, 'a valid profile answers 200');
  t.same(valid.body.data, { product: 'jamb-utme', profile_id: valid_profile, customer_name: 'Test Candidate' }, 'the candidate is named');
  check_error(t, await verify({ product: 'jamb-de', profile_id: invalid_profile }), 422, 'service.invalid_profile', 'the invalid sandbox profile');
  check_error(t, await verify({ product: 'waec-result-checker', profile_id: valid_profile }), 400, 'validation.failed', 'a WAEC product has no profile');
  check_error(t, await verify({ product: 'jamb-utme', profile_id: '12345' }), 400, 'validation.failed', 'a profile ID of 5 digits');
  t.equal(await balance_kobo(server, account.key), 1_000_00, 'verification costs nothing');
});

t.test('three WAEC result checker PINs cost 3 × 3,900 and the 201 carries three serials and PINs, fetched again from the order', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const response = await buy(server, account.key, path, education_body('waec-result-checker', 11_700, { quantity: 3 }));
  check_created(t, response, 'delivered', 'three result checkers');
  const data = response.body.data;
  t.same(Object.keys(data).sort(), ['amount', 'amount_charged', 'client_reference', 'commission', 'customer_name', 'delivered_at', 'exam', 'expected_final_at', 'metadata', 'phone', 'pins', 'product', 'product_name', 'profile_id', 'quantity', 'reference', 'status', 'wallet_balance_after'], 'the result has exactly the documented fields');
  t.equal(data.quantity, 3, 'quantity is echoed');
  t.equal(data.exam, 'waec', 'the exam body is named');
  t.equal(kobo(data.amount), 11_700_00, 'amount is price × quantity');
  t.equal(data.pins.length, 3, 'three PINs');
  for (const pin of data.pins) {
    t.match(pin.serial, /^WRN\d{9}$/, 'each PIN has a WAEC serial');
    t.match(pin.pin, /^\d{12}$/, 'each PIN is 12 digits');
  }
  t.equal(new Set(data.pins.map((p: any) => p.pin)).size, 3, 'the three PINs differ');
  t.equal(await balance_kobo(server, account.key), 38_300_00, 'the wallet paid 11,700');
  const record = await order(server, account.key, data.reference);
  t.equal(record.service_type, 'education', 'the record is an education order');
  t.equal(record.quantity, 3, 'the record keeps the quantity');
  t.same(record.pins, data.pins, 'the same PINs are fetched again from the order record');
  const list = await server.api('GET', '/v1/transactions?service_type=education', { key: account.key });
  t.equal(list.body.data.transactions.length, 1, 'the list filters by service_type education');
  t.notOk(JSON.stringify(list.body).includes(data.pins[0].pin), 'the list never shows a PIN');
});

t.test('the PINs are sealed at rest: no PIN appears in the store files (order nor remembered answer) or the logs in plain text', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const response = await buy(server, account.key, path, education_body('waec-registration', 29_950), idem('edu-seal'));
  check_created(t, response, 'delivered', 'a WAEC registration PIN');
  const pin = response.body.data.pins[0].pin as string;
  // Wait for the group commit so the order and the remembered answer are on disk.
  await server.api('GET', '/v1/wallet', { key: account.key });
  let found = false;
  for (const name of readdirSync(server.data_dir, { recursive: true }) as string[]) {
    const full = join(server.data_dir, name);
    try {
      if (readFileSync(full).includes(Buffer.from(pin))) found = true;
    } catch { /* a directory */ }
  }
  t.notOk(found, 'the PIN is nowhere in the data directory in plain text');
  t.notOk(server.logs.join('\n').includes(pin), 'the PIN is not in the logs');
});

t.test('a replay with the same idempotency key answers the same PINs', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const key = idem('edu-replay');
  const first = await buy(server, account.key, path, education_body('waec-result-checker', 7_800, { quantity: 2 }), key);
  check_created(t, first, 'delivered', 'the first purchase');
  const second = await buy(server, account.key, path, education_body('waec-result-checker', 7_800, { quantity: 2 }), key);
  t.equal(second.status, 201, 'the replay answers 201');
  t.same(second.body.data.pins, first.body.data.pins, 'the replay carries the same PINs');
  t.equal(await balance_kobo(server, account.key), 42_200_00, 'one debit only');
});

t.test('a JAMB UTME PIN is bought for a verified profile: the candidate is named on the order', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const response = await buy(server, account.key, path, education_body('jamb-utme', 7_700, { profile_id: valid_profile }));
  check_created(t, response, 'delivered', 'a JAMB UTME PIN');
  t.equal(response.body.data.profile_id, valid_profile, 'the profile is echoed');
  t.equal(response.body.data.customer_name, 'Test Candidate', 'the candidate is named');
  t.equal(response.body.data.pins.length, 1, 'one PIN');
  t.equal(response.body.data.pins[0].serial, null, 'a JAMB PIN has no serial');
  t.match(response.body.data.pins[0].pin, /^\d{16}$/, 'a JAMB PIN is 16 digits');
  const record = await order(server, account.key, response.body.data.reference);
  t.equal(record.customer_id, valid_profile, 'the order keeps the profile ID');
});

t.test('validation edges and catalog refusals of education purchases, none of which debits', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const rows: [string, Record<string, unknown>, number, string][] = [
    ['quantity 0', education_body('waec-result-checker', 3_900, { quantity: 0 }), 400, 'validation.failed'],
    ['quantity 11', education_body('waec-result-checker', 42_900, { quantity: 11 }), 400, 'validation.failed'],
    ['quantity 1.5', education_body('waec-result-checker', 5_850, { quantity: 1.5 }), 400, 'validation.failed'],
    ['two JAMB PINs in one order', education_body('jamb-de', 12_400, { quantity: 2, profile_id: valid_profile }), 400, 'validation.failed'],
    ['JAMB without a profile', education_body('jamb-utme', 7_700), 400, 'validation.failed'],
    ['a profile of letters', education_body('jamb-utme', 7_700, { profile_id: 'ABCDEFGHIJ' }), 400, 'validation.failed'],
    ['a phone of 10 digits', education_body('waec-result-checker', 3_900, { phone: '0803123456' }), 400, 'validation.failed'],
    ['an amount with 3 decimals', education_body('waec-result-checker', 3_900.001), 400, 'validation.failed'],
    ['an unknown product', education_body('neco-checker', 1_000), 422, 'service.plan_not_found'],
    ['the price of one for two PINs', education_body('waec-result-checker', 3_900, { quantity: 2 }), 422, 'service.amount_mismatch'],
    ['one kobo under the price', education_body('waec-result-checker', 3_899.99), 422, 'service.amount_mismatch'],
    ['the invalid sandbox profile', education_body('jamb-utme', 7_700, { profile_id: invalid_profile }), 422, 'service.invalid_profile'],
    ['a wrong PIN', education_body('waec-result-checker', 3_900, { pin: '99999' }), 403, 'pin.incorrect'],
  ];
  for (const [what, body, status, code] of rows) check_error(t, await buy(server, account.key, path, body), status, code, what);
  t.equal(await balance_kobo(server, account.key), 50_000_00, 'nothing was debited');
});

t.test('sandbox phones: 08022222222 fails and refunds, 08033333333 is processing and then delivers its PINs', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const failed = await buy(server, account.key, path, education_body('waec-result-checker', 3_900, { phone: sandbox.failed }));
  check_error(t, failed, 422, 'transaction.failed', 'the failing phone');
  t.equal(await balance_kobo(server, account.key), 50_000_00, 'the failed order was refunded');
  const delayed = await buy(server, account.key, path, education_body('waec-result-checker', 7_800, { phone: sandbox.delayed_delivered, quantity: 2 }));
  check_created(t, delayed, 'processing', 'the delayed phone');
  t.equal(delayed.body.data.pins, null, 'no PINs while processing');
  const record = await settled_order(server, account.key, delayed.body.data.reference);
  t.equal(record.status, 'delivered', 'the order is delivered later');
  t.equal(record.pins.length, 2, 'its two PINs are on the order record');
  const down = await buy(server, account.key, path, education_body('waec-result-checker', 3_900, { phone: sandbox.provider_down }));
  check_error(t, down, 503, 'transaction.provider_unavailable', 'the provider-down phone');
});

t.test('the operator re-prices and disables an education product through the admin API', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const repriced = await server.admin('PATCH', '/admin/catalog/education-products/waec-registration', { amount: 31_000 });
  t.equal(repriced.status, 200, 'the re-pricing answers 200');
  t.equal(repriced.body.data.amount, 31_000, 'the new price is shown');
  check_error(t, await buy(server, account.key, path, education_body('waec-registration', 29_950)), 422, 'service.amount_mismatch', 'the old price');
  check_created(t, await buy(server, account.key, path, education_body('waec-registration', 31_000)), 'delivered', 'the new price');
  const disabled = await server.admin('PATCH', '/admin/catalog/education-products/waec-registration', { enabled: false });
  t.equal(disabled.body.data.enabled, false, 'the product is disabled');
  check_error(t, await buy(server, account.key, path, education_body('waec-registration', 31_000)), 422, 'service.plan_not_found', 'a disabled product');
  const listed = await server.api('GET', '/v1/services/education/products', { key: account.key });
  t.notOk(listed.body.data.products.some((p: any) => p.product_code === 'waec-registration'), 'the disabled product is no longer listed');
  const unknown = await server.admin('PATCH', '/admin/catalog/education-products/neco', { enabled: false });
  t.equal(unknown.status, 422, 'an unknown item answers 422');
  await server.admin('PATCH', '/admin/catalog/education-products/waec-registration', { enabled: true, amount: 29_950 });
});

t.test('webhook payloads (the events feed) and the CSV export carry quantity but never a PIN', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const response = await buy(server, account.key, path, education_body('waec-result-checker', 7_800, { quantity: 2 }));
  check_created(t, response, 'delivered', 'two result checkers');
  const pins = response.body.data.pins.map((p: any) => p.pin as string);
  const events = await server.api('GET', '/v1/events', { key: account.key });
  t.equal(events.status, 200, 'the events feed answers');
  const completed = (events.body.data.events as any[]).find((e) => e.type === 'transaction.completed' || e.event === 'transaction.completed');
  t.ok(completed !== undefined, 'the completion event is in the feed');
  t.equal(completed.data.quantity, 2, 'the webhook payload carries the quantity');
  t.notOk(pins.some((pin: string) => JSON.stringify(events.body).includes(pin)), 'no PIN is in any webhook payload');
  const today = new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);
  const day_after = new Date(Date.now() + 3_600_000 + 86_400_000).toISOString().slice(0, 10);
  const day_before = new Date(Date.now() + 3_600_000 - 86_400_000).toISOString().slice(0, 10);
  const csv = await server.api('GET', `/v1/transactions/export?from=${day_before}&to=${day_after}`, { key: account.key });
  t.equal(csv.status, 200, `the export answers (${today})`);
  t.ok(csv.text.includes(response.body.data.reference), 'the export lists the order');
  t.notOk(pins.some((pin: string) => csv.text.includes(pin)), 'no PIN is in the export');
});
