// Data bundle purchases through real sockets (docs/spec.md section 2 "Purchase results", section 4 "Data";
// section 7 service.plan_not_found and service.amount_mismatch; docs/decisions.md "Services").
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repo_root, start_server } from './helpers/server.js';
import { balance_kobo, buy, check_created, check_error, data_body, entries_of, fast_reseller, iso_us_pattern, kobo, order, phone_on } from './helpers/purchases.js';

const server = await start_server(t, { env: { TIME_SCALE: '0.001' } });
const shipped = (JSON.parse(readFileSync(join(repo_root, 'data', 'catalog', 'data-plans.json'), 'utf8')) as { plans: { plan_id: string; network: string; amount: number; enabled: boolean; name: string }[] }).plans;
const path = '/v1/services/data/purchase';

t.test('a data purchase answers 201 with the spec result: plan name, amount, balance after and delivered_at', async (t) => {
  const account = await fast_reseller(server, 5_000);
  const plan = shipped.find((p) => p.plan_id === 'mtn-2gb-30d')!;
  const response = await buy(server, account.key, path, data_body(plan.plan_id, plan.amount, '08031234567'));
  check_created(t, response, 'delivered', 'MTN 2GB');
  const data = response.body.data;
  for (const field of ['reference', 'status', 'network', 'phone', 'plan', 'amount', 'wallet_balance_after', 'delivered_at']) {
    t.ok(Object.prototype.hasOwnProperty.call(data, field), `the result has ${field}`);
  }
  t.equal(data.network, 'mtn', 'network is mtn');
  t.equal(data.phone, '08031234567', 'phone is echoed');
  t.equal(data.plan, plan.name, 'plan is the plan\'s name as a string');
  t.equal(kobo(data.amount), kobo(plan.amount), 'amount is the plan price');
  t.equal(kobo(data.wallet_balance_after), 5_000_00 - kobo(plan.amount), 'wallet_balance_after is the balance minus the price');
  t.match(data.delivered_at, iso_us_pattern, 'delivered_at is ISO 8601 UTC');
  t.ok(Math.abs(Date.parse(data.delivered_at) - Date.now()) < 10_000, 'delivered_at is now');
  t.match(response.body.message, /data/i, 'the message speaks of data');
  t.equal(await balance_kobo(server, account.key), 5_000_00 - kobo(plan.amount), 'the wallet was debited the price');
  const entries = await entries_of(server, account.key, data.reference);
  t.same(entries.map((e) => [e.type, kobo(e.amount)]), [['debit', kobo(plan.amount)]], 'one debit of the price');
  const record = await order(server, account.key, data.reference);
  t.equal(record.service_type, 'data', 'the full record is a data order');
  t.equal(record.plan, plan.name, 'the full record names the plan');
});

t.test('the cheapest enabled plan of each network can be bought', async (t) => {
  const account = await fast_reseller(server, 5_000);
  for (const network of ['mtn', 'airtel', 'glo', '9mobile']) {
    const plan = shipped.filter((p) => p.network === network && p.enabled).sort((a, b) => a.amount - b.amount)[0];
    const response = await buy(server, account.key, path, data_body(plan.plan_id, plan.amount, phone_on(network, '1234568'), { network }));
    check_created(t, response, 'delivered', `${plan.plan_id} on ${network}`);
    t.equal(response.body.data.network, network, `the result names ${network}`);
  }
});

t.test('a missing, disabled or other network\'s plan is 422 service.plan_not_found and debits nothing', async (t) => {
  const account = await fast_reseller(server, 5_000);
  const disabled = shipped.find((p) => !p.enabled)!;
  const rows: [string, Record<string, unknown>][] = [
    ['an unknown plan code', data_body('mtn-999gb-1d', 100)],
    ['a shipped disabled plan', data_body(disabled.plan_id, disabled.amount, phone_on(disabled.network), { network: disabled.network })],
    ['an MTN plan bought as airtel', data_body('mtn-100mb-1d', 100, '08031234569', { network: 'airtel', ported: true })],
  ];
  for (const [what, body] of rows) {
    check_error(t, await buy(server, account.key, path, body), 422, 'service.plan_not_found', what);
  }
  t.equal(await balance_kobo(server, account.key), 5_000_00, 'nothing was debited');
  const orders = await server.api('GET', '/v1/transactions', { key: account.key });
  t.equal(orders.body.data.pagination.total, 0, 'no order was created');
});

t.test('an amount that differs from the plan price by one kobo either way is 422 service.amount_mismatch', async (t) => {
  const account = await fast_reseller(server, 5_000);
  const rows: [number, number, string][] = [
    [99.99, 422, 'one kobo below the price of 100'],
    [100.01, 422, 'one kobo above the price of 100'],
    [350, 422, 'the price of another plan'],
    [100, 201, 'exactly the price'],
  ];
  for (const [amount, status, what] of rows) {
    const response = await buy(server, account.key, path, data_body('mtn-100mb-1d', amount, '08031234570'));
    if (status === 201) check_created(t, response, 'delivered', what);
    else check_error(t, response, 422, 'service.amount_mismatch', what);
  }
  t.equal(await balance_kobo(server, account.key), 4_900_00, 'only the matching purchase debited the wallet');
  check_error(t, await buy(server, account.key, path, data_body('mtn-100mb-1d', 100.001)), 400, 'validation.failed', 'an amount with 3 decimals');
});

t.test('a data plan the wallet cannot afford is 422 wallet.insufficient_funds', async (t) => {
  const account = await fast_reseller(server, 0);
  await server.credit(account.id, 'test', 1499.99);
  check_error(t, await buy(server, account.key, path, data_body('mtn-2gb-30d', 1500)), 422, 'wallet.insufficient_funds', 'a 1,500 plan from 1,499.99');
  t.equal(await balance_kobo(server, account.key), 1_499_99, 'nothing was debited');
});

t.test('data purchases follow the sandbox phone numbers too', async (t) => {
  const account = await fast_reseller(server, 5_000);
  const failed = await buy(server, account.key, path, data_body('mtn-1gb-1d', 350, '08022222222'));
  check_error(t, failed, 422, 'transaction.failed', 'data to 08022222222');
  t.match(failed.body?.error?.reference, /^BV-/, 'the error names the order reference');
  t.equal(await balance_kobo(server, account.key), 5_000_00, 'the failed data purchase was refunded');
  const down = await buy(server, account.key, path, data_body('mtn-1gb-1d', 350, '08055555555'));
  check_error(t, down, 503, 'transaction.provider_unavailable', 'data to 08055555555');
  t.equal(down.headers.get('retry-after'), '60', 'Retry-After is 60');
  t.equal(await balance_kobo(server, account.key), 5_000_00, 'nothing was debited for the provider being down');
});
