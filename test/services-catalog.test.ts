// The catalog and the verification endpoints (docs/spec.md section 4 "Data", "Electricity", "Cable TV";
// docs/decisions.md "Services"): data plans with the network filter and only enabled plans, the operator's
// re-pricing and disabling without a restart, TV packages, discos, and meter / smartcard verification.
import t from 'tap';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { repo_root, start_server, TestServer, temp_dir } from './helpers/server.js';
import { check_error, fast_reseller, sandbox, data_body, buy, kobo } from './helpers/purchases.js';

const server = await start_server(t, { env: { TIME_SCALE: '0.001' } });
const shipped_plans = (JSON.parse(readFileSync(join(repo_root, 'data', 'catalog', 'data-plans.json'), 'utf8')) as { plans: { plan_id: string; network: string; amount: number; enabled: boolean; name: string; validity: string }[] }).plans;
const shipped_packages = (JSON.parse(readFileSync(join(repo_root, 'data', 'catalog', 'tv-packages.json'), 'utf8')) as { packages: { package_code: string; provider: string; amount: number; name: string }[] }).packages;
const account = await fast_reseller(server, 100_000);

t.test('GET /v1/services/data/plans lists every enabled plan with exactly the spec fields, and no disabled one', async (t) => {
  const response = await server.api('GET', '/v1/services/data/plans', { key: account.key });
  t.equal(response.status, 200, 'the plans list is 200');
  t.equal(response.body.success, true, 'success is true');
  const plans: any[] = response.body.data.plans;
  const enabled = shipped_plans.filter((p) => p.enabled);
  t.ok(shipped_plans.some((p) => !p.enabled), 'the shipped catalog has a disabled plan to leave out');
  t.same(plans.map((p) => p.plan_id).sort(), enabled.map((p) => p.plan_id).sort(), 'exactly the enabled shipped plans are listed');
  for (const plan of plans) {
    t.same(Object.keys(plan).sort(), ['amount', 'amount_charged', 'name', 'network', 'plan_code', 'plan_id', 'plan_type', 'validity'], `plan ${plan.plan_id} has exactly the spec fields, plan_code (the same value, docs/api.md "Plans: plan_id and plan_code"), amount_charged (docs/api.md "Pricing") and plan_type ("Data plan types")`);
    const shipped = shipped_plans.find((p) => p.plan_id === plan.plan_id)!;
    t.equal(kobo(plan.amount), kobo(shipped.amount), `plan ${plan.plan_id} costs its shipped price`);
    t.equal(plan.network, shipped.network, `plan ${plan.plan_id} is of its shipped network`);
  }
});

t.test('the network filter returns only that network\'s enabled plans, and an unknown network is 400', async (t) => {
  const rows: [string, number][] = [['mtn', 200], ['airtel', 200], ['glo', 200], ['9mobile', 200], ['etisalat', 400], ['vodafone', 400]];
  for (const [network, status] of rows) {
    const response = await server.api('GET', `/v1/services/data/plans?network=${encodeURIComponent(network)}`, { key: account.key });
    if (status === 200) {
      t.equal(response.status, 200, `network=${network} is 200`);
      const listed = response.body.data.plans.map((p: { plan_id: string }) => p.plan_id).sort();
      const expected = shipped_plans.filter((p) => p.enabled && p.network === network).map((p) => p.plan_id).sort();
      t.ok(expected.length > 0, `the catalog has ${network} plans`);
      t.same(listed, expected, `network=${network} lists exactly the enabled ${network} plans`);
    } else {
      check_error(t, response, 400, 'validation.failed', `network=${JSON.stringify(network)}`);
      t.ok(response.body?.error?.details?.some((d: { field: string }) => d.field === 'network'), `network=${JSON.stringify(network)} names the field in details`);
    }
  }
});

t.test('the operator disables and re-prices a plan without a restart: the list and purchases follow at once', async (t) => {
  const plan_id = 'airtel-1gb-7d';
  const listed = async () => (await server.api('GET', '/v1/services/data/plans?network=airtel', { key: account.key })).body.data.plans.find((p: { plan_id: string }) => p.plan_id === plan_id);
  t.equal((await listed())?.amount, 500, 'the plan is listed at its shipped price of 500');

  const repriced = await server.admin('PATCH', `/admin/catalog/data-plans/${plan_id}`, { amount: 550.5 });
  t.equal(repriced.status, 200, 'the operator re-prices the plan');
  t.equal(repriced.body.data.amount, 550.5, 'the operator answer shows the new price');
  t.equal((await listed())?.amount, 550.5, 'the list shows the new price at once');
  const old_price = await buy(server, account.key, '/v1/services/data/purchase', data_body(plan_id, 500, '08021230001', { network: 'airtel' }));
  check_error(t, old_price, 422, 'service.amount_mismatch', 'buying at the old price');
  const new_price = await buy(server, account.key, '/v1/services/data/purchase', data_body(plan_id, 550.5, '08021230001', { network: 'airtel' }));
  t.equal(new_price.status, 201, 'buying at the new price is 201');
  t.equal(new_price.body.data.amount, 550.5, 'the purchase costs the new price');

  const disabled = await server.admin('PATCH', `/admin/catalog/data-plans/${plan_id}`, { enabled: false });
  t.equal(disabled.status, 200, 'the operator disables the plan');
  t.equal(disabled.body.data.enabled, false, 'the operator answer shows it disabled');
  t.equal(await listed(), undefined, 'a disabled plan leaves the list at once');
  const while_disabled = await buy(server, account.key, '/v1/services/data/purchase', data_body(plan_id, 550.5, '08021230001', { network: 'airtel' }));
  check_error(t, while_disabled, 422, 'service.plan_not_found', 'buying a disabled plan');

  const enabled = await server.admin('PATCH', `/admin/catalog/data-plans/${plan_id}`, { enabled: true, amount: 500 });
  t.equal(enabled.status, 200, 'the operator enables it again at the old price');
  t.equal((await listed())?.amount, 500, 'the plan is back in the list at 500');
  const again = await buy(server, account.key, '/v1/services/data/purchase', data_body(plan_id, 500, '08021230001', { network: 'airtel' }));
  t.equal(again.status, 201, 'buying it works again');

  const unknown = await server.admin('PATCH', '/admin/catalog/data-plans/no-such-plan', { enabled: false });
  check_error(t, unknown, 422, 'service.plan_not_found', 'the operator changing an unknown plan');
  const bad_price = await server.admin('PATCH', `/admin/catalog/data-plans/${plan_id}`, { amount: 0 });
  check_error(t, bad_price, 400, 'validation.failed', 'the operator setting a price of 0');
});

t.test('a shipped disabled plan is not listed and cannot be bought until the operator enables it', async (t) => {
  const hidden = shipped_plans.find((p) => !p.enabled)!;
  const body = data_body(hidden.plan_id, hidden.amount, '08031230002', { network: hidden.network });
  check_error(t, await buy(server, account.key, '/v1/services/data/purchase', body), 422, 'service.plan_not_found', `buying the disabled plan ${hidden.plan_id}`);
  const enabled = await server.admin('PATCH', `/admin/catalog/data-plans/${hidden.plan_id}`, { enabled: true });
  t.equal(enabled.status, 200, 'the operator enables it');
  const list = await server.api('GET', `/v1/services/data/plans?network=${hidden.network}`, { key: account.key });
  t.ok(list.body.data.plans.some((p: { plan_id: string }) => p.plan_id === hidden.plan_id), 'the enabled plan is now listed');
  const bought = await buy(server, account.key, '/v1/services/data/purchase', body);
  t.equal(bought.status, 201, 'the enabled plan can be bought');
  await server.admin('PATCH', `/admin/catalog/data-plans/${hidden.plan_id}`, { enabled: false });
});

t.test('the operator\'s plan changes survive a restart', async (t) => {
  const data_dir = temp_dir();
  t.teardown(() => rmSync(data_dir, { recursive: true, force: true }));
  const own = new TestServer(data_dir, { TIME_SCALE: '0.001', LOG_LEVEL: 'warn' });
  t.teardown(() => own.kill());
  await own.start();
  const reseller = await fast_reseller(own, 1_000);
  t.equal((await own.admin('PATCH', '/admin/catalog/data-plans/glo-105mb-1d', { amount: 99.5 })).status, 200, 'the operator re-prices glo-105mb-1d');
  t.equal((await own.admin('PATCH', '/admin/catalog/data-plans/glo-350mb-2d', { enabled: false })).status, 200, 'the operator disables glo-350mb-2d');
  t.equal(await own.stop(), 0, 'the server stops cleanly');
  await own.start();
  const plans = (await own.api('GET', '/v1/services/data/plans?network=glo', { key: reseller.key })).body.data.plans as { plan_id: string; amount: number }[];
  t.equal(plans.find((p) => p.plan_id === 'glo-105mb-1d')?.amount, 99.5, 'the new price is still listed after the restart');
  t.notOk(plans.some((p) => p.plan_id === 'glo-350mb-2d'), 'the disabled plan is still left out after the restart');
  check_error(t, await buy(own, reseller.key, '/v1/services/data/purchase', data_body('glo-350mb-2d', 200, '08051230003', { network: 'glo' })), 422, 'service.plan_not_found', 'buying the disabled plan after the restart');
  t.equal((await buy(own, reseller.key, '/v1/services/data/purchase', data_body('glo-105mb-1d', 99.5, '08051230003', { network: 'glo' }))).status, 201, 'buying at the new price after the restart');
});

t.test('GET /v1/services/tv/packages lists package_code, name and amount, filtered by provider', async (t) => {
  const all = await server.api('GET', '/v1/services/tv/packages', { key: account.key });
  t.equal(all.status, 200, 'the packages list is 200');
  t.same(all.body.data.packages.map((p: { package_code: string }) => p.package_code).sort(), shipped_packages.map((p) => p.package_code).sort(), 'every shipped package is listed');
  for (const item of all.body.data.packages) {
    for (const field of ['package_code', 'name', 'amount']) t.ok(field in item, `package ${item.package_code} has ${field}`);
    const shipped = shipped_packages.find((p) => p.package_code === item.package_code)!;
    t.equal(kobo(item.amount), kobo(shipped.amount), `package ${item.package_code} costs its shipped price`);
  }
  for (const provider of ['dstv', 'gotv', 'startimes']) {
    const one = await server.api('GET', `/v1/services/tv/packages?provider=${provider}`, { key: account.key });
    t.equal(one.status, 200, `provider=${provider} is 200`);
    const expected = shipped_packages.filter((p) => p.provider === provider).map((p) => p.package_code).sort();
    t.ok(expected.length > 0, `the catalog has ${provider} packages`);
    t.same(one.body.data.packages.map((p: { package_code: string }) => p.package_code).sort(), expected, `provider=${provider} lists exactly its packages`);
  }
  check_error(t, await server.api('GET', '/v1/services/tv/packages?provider=showmax', { key: account.key }), 400, 'validation.failed', 'an unknown TV provider');
});

t.test('GET /v1/services/electricity/discos lists the nine discos with their service IDs', async (t) => {
  const response = await server.api('GET', '/v1/services/electricity/discos', { key: account.key });
  t.equal(response.status, 200, 'the discos list is 200');
  const by_code = Object.fromEntries(response.body.data.discos.map((d: { code: string; service_id: string }) => [d.code, d.service_id]));
  t.same(by_code, {
    EKEDC: 'eko-electric', IKEDC: 'ikeja-electric', AEDC: 'abuja-electric', IBEDC: 'ibadan-electric', PHED: 'portharcourt-electric',
    KAEDCO: 'kaduna-electric', JEDC: 'jos-electric', KEDCO: 'kano-electric', BEDC: 'benin-electric',
  }, 'the nine codes map to the decided service IDs');
  for (const disco of response.body.data.discos) t.type(disco.name, 'string', `${disco.code} has a name`);
});

t.test('catalog reads need an API key', async (t) => {
  for (const path of ['/v1/services/data/plans', '/v1/services/tv/packages', '/v1/services/electricity/discos']) {
    check_error(t, await server.api('GET', path), 401, 'auth.invalid_key', `${path} without a key`);
  }
});

t.test('POST /v1/services/electricity/verify names the sandbox customer and refuses the invalid meters', async (t) => {
  const rows: { what: string; body: Record<string, unknown>; status: number; code?: string }[] = [
    { what: 'the prepaid test meter', body: { disco: 'ikeja-electric', meter_number: sandbox.prepaid_meter, meter_type: 'prepaid' }, status: 200 },
    { what: 'the postpaid test meter', body: { disco: 'eko-electric', meter_number: sandbox.postpaid_meter, meter_type: 'postpaid' }, status: 200 },
    { what: 'the prepaid test meter by disco code in lower case', body: { disco: 'aedc', meter_number: sandbox.prepaid_meter, meter_type: 'prepaid' }, status: 200 },
    { what: 'any other 11-digit meter', body: { disco: 'IBEDC', meter_number: '45010012345', meter_type: 'prepaid' }, status: 200 },
    { what: 'the invalid 13-digit meter', body: { disco: 'ikeja-electric', meter_number: sandbox.invalid_meter_13, meter_type: 'prepaid' }, status: 422, code: 'service.invalid_meter' },
    { what: 'the invalid 11-digit meter', body: { disco: 'ikeja-electric', meter_number: sandbox.invalid_meter_11, meter_type: 'postpaid' }, status: 422, code: 'service.invalid_meter' },
    { what: 'a 12-digit meter', body: { disco: 'ikeja-electric', meter_number: '111111111111', meter_type: 'prepaid' }, status: 400, code: 'validation.failed' },
    { what: 'an unknown disco', body: { disco: 'lagos-electric', meter_number: sandbox.prepaid_meter, meter_type: 'prepaid' }, status: 400, code: 'validation.failed' },
    { what: 'an unknown meter type', body: { disco: 'ikeja-electric', meter_number: sandbox.prepaid_meter, meter_type: 'smart' }, status: 400, code: 'validation.failed' },
  ];
  for (const row of rows) {
    const response = await server.api('POST', '/v1/services/electricity/verify', { key: account.key, body: row.body });
    if (row.status === 200) {
      t.equal(response.status, 200, `${row.what}: verify is 200`);
      t.equal(response.body.data.customer_name, 'Test Customer', `${row.what}: the customer is "Test Customer"`);
      t.type(response.body.data.address, 'string', `${row.what}: an address is given`);
      t.equal(response.body.data.meter_number, row.body.meter_number, `${row.what}: the meter number is echoed`);
    } else {
      check_error(t, response, row.status, row.code!, row.what);
    }
  }
});

t.test('POST /v1/services/tv/verify names the customer with the current package and due date, and refuses 0000000000', async (t) => {
  const valid = await server.api('POST', '/v1/services/tv/verify', { key: account.key, body: { provider: 'dstv', smartcard_number: sandbox.valid_smartcard } });
  t.equal(valid.status, 200, 'the valid test smartcard verifies');
  t.equal(valid.body.data.customer_name, 'Test Customer', 'the customer is "Test Customer"');
  t.ok('address' in valid.body.data, 'the answer has an address field');
  t.type(valid.body.data.current_package, 'string', 'the current package is given');
  t.match(valid.body.data.due_date, /^\d{4}-\d{2}-\d{2}/, 'the due date is a date');
  const other = await server.api('POST', '/v1/services/tv/verify', { key: account.key, body: { provider: 'gotv', smartcard_number: '7012345678' } });
  t.equal(other.status, 200, 'any other smartcard verifies');
  const invalid = await server.api('POST', '/v1/services/tv/verify', { key: account.key, body: { provider: 'gotv', smartcard_number: sandbox.invalid_smartcard } });
  check_error(t, invalid, 422, 'service.invalid_smartcard', 'the invalid test smartcard');
  const malformed = await server.api('POST', '/v1/services/tv/verify', { key: account.key, body: { provider: 'gotv', smartcard_number: '12ab' } });
  check_error(t, malformed, 400, 'validation.failed', 'a smartcard number that is not digits');
});

t.test('verification costs nothing: the wallet is untouched', async (t) => {
  const fresh = await fast_reseller(server, 1_000);
  await server.api('POST', '/v1/services/electricity/verify', { key: fresh.key, body: { disco: 'ikeja-electric', meter_number: sandbox.prepaid_meter, meter_type: 'prepaid' } });
  await server.api('POST', '/v1/services/tv/verify', { key: fresh.key, body: { provider: 'dstv', smartcard_number: sandbox.valid_smartcard } });
  const wallet = await server.api('GET', '/v1/wallet', { key: fresh.key });
  t.equal(kobo(wallet.body.data.balance), 1_000_00, 'the balance is still 1,000 NGN');
  const entries = await server.api('GET', '/v1/wallet/transactions', { key: fresh.key });
  t.equal(entries.body.data.pagination.total, 1, 'the only wallet entry is the funding credit');
});
