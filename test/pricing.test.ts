// Reseller pricing (docs/api.md "Pricing", docs/operations.md "Pricing"): the operator's price list per
// tier, the most specific rule winning, commission = floor(amount_kobo × rate_bp / 10000), the wallet
// debited amount_charged, the daily limit and the balance judged on it, refunds, replays and restarts.
import t from 'tap';
import { open_store, start_server, type TestServer } from './helpers/server.js';
import {
  airtime_body, all_wallet_entries, balance_kobo, buy, buy_airtime, check_created, check_error, data_body, electricity_body, entries_of, fast_reseller,
  idem, kobo, order, sandbox, tv_body,
} from './helpers/purchases.js';

const server = await start_server(t);

let tier_count = 0;
/** A tier name of its own for each test: the server is shared. */
function fresh_tier(): string {
  return `tier_${process.pid % 1000}_${++tier_count}`;
}

async function set_rules(s: TestServer, tier: string, rules: Record<string, unknown>[]) {
  const response = await s.admin('PUT', `/admin/pricing/${tier}`, { rules });
  if (response.status !== 200) throw new Error(`set_rules: ${response.status} ${response.text}`);
  return response;
}

async function priced_reseller(s: TestServer, tier: string, funding_ngn = 100_000) {
  return fast_reseller(s, funding_ngn, { tier });
}

t.test('PUT /admin/pricing/{tier} replaces the rules, GET lists every tier and DELETE removes them', async (t) => {
  const tier = fresh_tier();
  const put = await server.admin('PUT', `/admin/pricing/${tier}`, { rules: [{ service_type: 'airtime', network: 'glo', rate_bp: 400 }, { service_type: 'airtime', rate_bp: 250 }] });
  t.equal(put.status, 200, 'PUT answers 200');
  t.equal(put.body.data.tier, tier, 'the answer names the tier');
  t.same(put.body.data.rules, [
    { service_type: 'airtime', network: 'glo', disco: null, provider: null, rate_bp: 400 },
    { service_type: 'airtime', network: null, disco: null, provider: null, rate_bp: 250 },
  ], 'the answer holds the rules');
  const replaced = await set_rules(server, tier, [{ service_type: 'tv', provider: 'dstv', rate_bp: 100 }]);
  t.equal(replaced.body.data.rules.length, 1, 'a second PUT replaces, not merges');
  const listed = await server.admin('GET', '/admin/pricing');
  t.equal(listed.status, 200, 'GET answers 200');
  const mine = listed.body.data.tiers.find((x: { tier: string }) => x.tier === tier);
  t.same(mine?.rules, [{ service_type: 'tv', network: null, disco: null, provider: 'dstv', rate_bp: 100 }], 'GET lists the tier\'s current rules');
  const removed = await server.admin('DELETE', `/admin/pricing/${tier}`);
  t.equal(removed.status, 200, 'DELETE answers 200');
  t.equal(removed.body.data.removed, true, 'DELETE says the rules were removed');
  const again = await server.admin('DELETE', `/admin/pricing/${tier}`);
  t.equal(again.status, 200, 'DELETE of a tier without rules answers 200 too');
  t.equal(again.body.data.removed, false, 'and says nothing was removed');
  const after = await server.admin('GET', '/admin/pricing');
  t.notOk(after.body.data.tiers.some((x: { tier: string }) => x.tier === tier), 'the removed tier is no longer listed');
});

t.test('bad price rules are refused with 400 validation.failed naming each problem, and nothing changes', async (t) => {
  const tier = fresh_tier();
  await set_rules(server, tier, [{ service_type: 'airtime', rate_bp: 100 }]);
  const too_many = Array.from({ length: 201 }, (_, i) => ({ service_type: 'airtime', rate_bp: i }));
  const rows: { what: string; body: unknown; field: string; path?: string }[] = [
    { what: 'an unknown service type', body: { rules: [{ service_type: 'lottery', rate_bp: 100 }] }, field: 'rules.0.service_type' },
    { what: 'a disco on an airtime rule', body: { rules: [{ service_type: 'airtime', disco: 'ikeja-electric', rate_bp: 100 }] }, field: 'rules.0.disco' },
    { what: 'a network on a tv rule', body: { rules: [{ service_type: 'tv', network: 'mtn', rate_bp: 100 }] }, field: 'rules.0.network' },
    { what: 'an unknown network', body: { rules: [{ service_type: 'data', network: 'vodafone', rate_bp: 100 }] }, field: 'rules.0.network' },
    { what: 'an unknown disco', body: { rules: [{ service_type: 'electricity', disco: 'nowhere-electric', rate_bp: 100 }] }, field: 'rules.0.disco' },
    { what: 'an unknown TV provider', body: { rules: [{ service_type: 'tv', provider: 'netflix', rate_bp: 100 }] }, field: 'rules.0.provider' },
    { what: 'two rules for one product', body: { rules: [{ service_type: 'airtime', network: 'glo', rate_bp: 100 }, { service_type: 'airtime', network: 'glo', rate_bp: 200 }] }, field: 'rules.1' },
    { what: 'a disco by code and by service ID', body: { rules: [{ service_type: 'electricity', disco: 'IKEDC', rate_bp: 100 }, { service_type: 'electricity', disco: 'ikeja-electric', rate_bp: 200 }] }, field: 'rules.1' },
    { what: '10000 bp (an order would be free)', body: { rules: [{ service_type: 'airtime', rate_bp: 10_000 }] }, field: 'rules.0.rate_bp' },
    { what: 'a negative rate', body: { rules: [{ service_type: 'airtime', rate_bp: -1 }] }, field: 'rules.0.rate_bp' },
    { what: 'a fractional rate', body: { rules: [{ service_type: 'airtime', rate_bp: 2.5 }] }, field: 'rules.0.rate_bp' },
    { what: 'more than rules_max rules', body: { rules: too_many }, field: 'rules' },
    { what: 'no rules list', body: {}, field: 'rules' },
    { what: 'an invalid tier name', body: { rules: [] }, field: 'tier', path: '/admin/pricing/Not-A-Tier' },
  ];
  for (const row of rows) {
    const response = await server.admin('PUT', row.path ?? `/admin/pricing/${tier}`, row.body);
    check_error(t, response, 400, 'validation.failed', row.what);
    const fields = (response.body?.error?.details ?? []).map((d: { field: string }) => d.field);
    t.ok(fields.includes(row.field), `${row.what}: details name ${row.field} (got ${fields.join(', ')})`);
  }
  const listed = await server.admin('GET', '/admin/pricing');
  t.same(listed.body.data.tiers.find((x: { tier: string }) => x.tier === tier)?.rules, [{ service_type: 'airtime', network: null, disco: null, provider: null, rate_bp: 100 }], 'the tier keeps its rules');
});

t.test('the most specific rule wins at each level: the narrowed product, else the service type, else 0', async (t) => {
  const tier = fresh_tier();
  await set_rules(server, tier, [
    { service_type: 'airtime', rate_bp: 200 },
    { service_type: 'airtime', network: 'glo', rate_bp: 400 },
    { service_type: 'data', network: 'mtn', rate_bp: 300 },
    { service_type: 'electricity', disco: 'IKEDC', rate_bp: 150 },
    { service_type: 'electricity', rate_bp: 50 },
    { service_type: 'tv', provider: 'gotv', rate_bp: 125 },
  ]);
  const account = await priced_reseller(server, tier);
  const rows: { what: string; path: string; body: unknown; amount_kobo: number; commission_kobo: number }[] = [
    { what: 'glo airtime (network rule 4%)', path: '/v1/services/airtime', body: airtime_body(sandbox.delivered, 1_000, { network: 'glo' }), amount_kobo: 1_000_00, commission_kobo: 40_00 },
    { what: 'mtn airtime (service rule 2%)', path: '/v1/services/airtime', body: airtime_body(sandbox.delivered, 1_000), amount_kobo: 1_000_00, commission_kobo: 20_00 },
    { what: 'mtn data (network rule 3%)', path: '/v1/services/data/purchase', body: data_body('mtn-1gb-1d', 350, sandbox.delivered), amount_kobo: 350_00, commission_kobo: 10_50 },
    { what: 'airtel data (no rule: 0%)', path: '/v1/services/data/purchase', body: data_body('airtel-1gb-7d', 500, sandbox.delivered, { network: 'airtel' }), amount_kobo: 500_00, commission_kobo: 0 },
    { what: 'Ikeja electricity (disco rule given by code, 1.5%)', path: '/v1/services/electricity', body: electricity_body(sandbox.prepaid_meter, 2_000), amount_kobo: 2_000_00, commission_kobo: 30_00 },
    { what: 'Eko electricity (service rule 0.5%)', path: '/v1/services/electricity', body: electricity_body(sandbox.prepaid_meter, 2_000, { disco: 'eko-electric' }), amount_kobo: 2_000_00, commission_kobo: 10_00 },
    { what: 'GOtv (provider rule 1.25%)', path: '/v1/services/tv', body: tv_body(sandbox.valid_smartcard), amount_kobo: 8_500_00, commission_kobo: 106_25 },
  ];
  for (const row of rows) {
    const before = await balance_kobo(server, account.key);
    const response = await buy(server, account.key, row.path, row.body, idem('spec'));
    check_created(t, response, 'delivered', row.what);
    const data = response.body.data;
    t.equal(kobo(data.amount), row.amount_kobo, `${row.what}: amount is the face value`);
    t.equal(kobo(data.commission), row.commission_kobo, `${row.what}: commission`);
    t.equal(kobo(data.amount_charged), row.amount_kobo - row.commission_kobo, `${row.what}: amount_charged = amount − commission`);
    t.equal(await balance_kobo(server, account.key), before - (row.amount_kobo - row.commission_kobo), `${row.what}: the wallet was debited amount_charged`);
    const entries = await entries_of(server, account.key, data.reference);
    t.same(entries.map((e) => [e.type, kobo(e.amount)]), [['debit', row.amount_kobo - row.commission_kobo]], `${row.what}: one debit entry of amount_charged`);
    const full = await order(server, account.key, data.reference);
    t.equal(kobo(full.amount_charged), row.amount_kobo - row.commission_kobo, `${row.what}: the order record carries amount_charged`);
    t.equal(kobo(full.commission), row.commission_kobo, `${row.what}: the order record carries commission`);
    t.equal(kobo(full.wallet_balance_before) - kobo(full.wallet_balance_after), row.amount_kobo - row.commission_kobo, `${row.what}: the record's balances differ by amount_charged`);
  }
  const list = await server.api('GET', '/v1/transactions?per_page=100', { key: account.key });
  for (const item of list.body.data.transactions) {
    t.equal(kobo(item.amount_charged) + kobo(item.commission), kobo(item.amount), `list item ${item.reference}: amount_charged + commission = amount`);
  }
});

t.test('commission is rounded down to the kobo: 2.5% of NGN 50.01 is NGN 1.25, so NGN 48.76 is charged', async (t) => {
  const tier = fresh_tier();
  await set_rules(server, tier, [{ service_type: 'airtime', rate_bp: 250 }]);
  const account = await priced_reseller(server, tier, 1_000);
  // 5001 × 250 / 10000 = 125.025 kobo: the fraction goes to the operator.
  const response = await buy_airtime(server, account.key, sandbox.delivered, 50.01);
  check_created(t, response, 'delivered', 'NGN 50.01 at 250 bp');
  t.equal(response.body.data.commission, 1.25, 'commission is NGN 1.25 (125.025 kobo rounded down)');
  t.equal(response.body.data.amount_charged, 48.76, 'amount_charged is NGN 48.76');
  t.equal(response.body.data.amount, 50.01, 'amount stays the face value');
  t.equal(await balance_kobo(server, account.key), 1_000_00 - 48_76, 'the wallet paid 48.76');
  const tier2 = fresh_tier();
  await set_rules(server, tier2, [{ service_type: 'airtime', rate_bp: 9_999 }]);
  const generous = await priced_reseller(server, tier2, 1_000);
  const cheapest = await buy_airtime(server, generous.key, sandbox.delivered, 50);
  check_created(t, cheapest, 'delivered', 'NGN 50 at the highest rate, 9999 bp');
  t.equal(cheapest.body.data.amount_charged, 0.01, 'the highest rate still charges at least 1 kobo (floor(5000 × 9999 / 10000) = 4999)');
});

t.test('a tier change between two purchases applies to the next purchase, with no restart', async (t) => {
  const cheap = fresh_tier();
  await set_rules(server, cheap, [{ service_type: 'airtime', rate_bp: 500 }]);
  const account = await priced_reseller(server, 'standard_unpriced');
  const first = await buy_airtime(server, account.key, sandbox.delivered, 200);
  check_created(t, first, 'delivered', 'the purchase before the change');
  t.equal(first.body.data.commission, 0, 'a tier without rules pays face value');
  const patched = await server.admin('PATCH', `/admin/accounts/${account.id}`, { tier: cheap });
  t.equal(patched.status, 200, 'the operator moves the account to the priced tier');
  t.equal(patched.body.data.tier, cheap, 'the answer shows the new tier');
  const second = await buy_airtime(server, account.key, sandbox.delivered, 200);
  check_created(t, second, 'delivered', 'the purchase after the change');
  t.equal(second.body.data.commission, 10, 'the next purchase gets 5%');
  t.equal(second.body.data.amount_charged, 190, 'and is charged NGN 190');
  await set_rules(server, cheap, [{ service_type: 'airtime', rate_bp: 100 }]);
  const third = await buy_airtime(server, account.key, sandbox.delivered, 200);
  t.equal(third.body.data.commission, 2, 'a price list change applies to the next purchase too');
  const pricing = await server.api('GET', '/v1/pricing', { key: account.key });
  t.equal(pricing.body.data.tier, cheap, 'GET /v1/pricing names the account\'s tier');
});

t.test('a failed discounted order refunds exactly what was debited', async (t) => {
  const tier = fresh_tier();
  await set_rules(server, tier, [{ service_type: 'airtime', rate_bp: 333 }]);
  const account = await priced_reseller(server, tier, 1_000);
  const response = await buy_airtime(server, account.key, sandbox.failed, 123.45, {}, idem('fail'));
  check_error(t, response, 422, 'transaction.failed', 'the sandbox\'s failing number');
  const reference = response.body.error.reference;
  const entries = await entries_of(server, account.key, reference);
  // floor(12345 × 333 / 10000) = floor(411.0885) = 411 kobo; charged 11934.
  t.same(entries.map((e) => [e.type, kobo(e.amount)]), [['debit', 119_34], ['reversal', 119_34]], 'the reversal gives back the debit to the kobo');
  t.equal(await balance_kobo(server, account.key), 1_000_00, 'the balance is restored exactly');
  const full = await order(server, account.key, reference);
  t.equal(full.status, 'failed', 'the order failed');
  t.equal(full.reversed, true, 'and was reversed');
  t.equal(kobo(full.amount_charged), 119_34, 'the order shows what was charged');
});

t.test('the daily limit counts wallet money: amount_charged reaches it, not the face value', async (t) => {
  const tier = fresh_tier();
  await set_rules(server, tier, [{ service_type: 'airtime', rate_bp: 400 }]);
  const account = await priced_reseller(server, tier, 1_000);
  const limited = await server.admin('PATCH', `/admin/accounts/${account.id}`, { daily_limit: 96 });
  t.equal(limited.status, 200, 'a daily limit of NGN 96');
  const first = await buy_airtime(server, account.key, sandbox.delivered, 100);
  check_created(t, first, 'delivered', 'NGN 100 of airtime charged NGN 96 fits the limit of 96');
  const second = await buy_airtime(server, account.key, sandbox.delivered, 50);
  check_error(t, second, 422, 'wallet.limit_exceeded', 'the next purchase is beyond the limit');
  const failed = await buy_airtime(server, account.key, sandbox.failed, 50);
  check_error(t, failed, 422, 'wallet.limit_exceeded', 'even one that would fail');
  await server.admin('PATCH', `/admin/accounts/${account.id}`, { daily_limit: 96.01 });
  const refunded = await buy_airtime(server, account.key, sandbox.failed, 50);
  t.equal(refunded.status, 422, 'with 1 kobo left, NGN 50 charged 48 still does not fit');
});

t.test('insufficient funds is judged on amount_charged: balance = amount_charged passes, one kobo less fails', async (t) => {
  const tier = fresh_tier();
  await set_rules(server, tier, [{ service_type: 'airtime', rate_bp: 400 }]);
  const exact = await priced_reseller(server, tier, 96);
  const passes = await buy_airtime(server, exact.key, sandbox.delivered, 100);
  check_created(t, passes, 'delivered', 'a balance of exactly amount_charged (NGN 96) buys NGN 100 of airtime');
  t.equal(await balance_kobo(server, exact.key), 0, 'the balance is then 0');
  const short = await priced_reseller(server, tier, 95.99);
  const fails = await buy_airtime(server, short.key, sandbox.delivered, 100);
  check_error(t, fails, 422, 'wallet.insufficient_funds', 'one kobo less is insufficient');
  t.equal(await balance_kobo(server, short.key), 95_99, 'nothing was debited');
  t.equal((await all_wallet_entries(server, short.key)).length, 1, 'only the funding entry exists');
});

t.test('an idempotent replay returns the original amounts after the price list and the tier changed', async (t) => {
  const tier = fresh_tier();
  await set_rules(server, tier, [{ service_type: 'airtime', rate_bp: 300 }, { service_type: 'data', rate_bp: 200 }]);
  const account = await priced_reseller(server, tier);
  const key_airtime = idem('replay');
  const key_data = idem('replay');
  const first = await buy_airtime(server, account.key, sandbox.delivered, 500, {}, key_airtime);
  const first_data = await buy(server, account.key, '/v1/services/data/purchase', data_body('mtn-1gb-1d', 350, sandbox.delivered), key_data);
  check_created(t, first, 'delivered', 'the first airtime purchase');
  check_created(t, first_data, 'delivered', 'the first data purchase');
  t.equal(first.body.data.commission, 15, 'the first purchase earned 3%');
  await set_rules(server, tier, [{ service_type: 'airtime', rate_bp: 900 }]);
  const balance = await balance_kobo(server, account.key);
  const replay = await buy_airtime(server, account.key, sandbox.delivered, 500, {}, key_airtime);
  t.equal(replay.status, 201, 'the replay answers 201');
  t.same(replay.body.data, first.body.data, 'the replay returns the original amounts after a price change');
  await server.admin('PATCH', `/admin/accounts/${account.id}`, { tier: 'unpriced_tier' });
  const replay_data = await buy(server, account.key, '/v1/services/data/purchase', data_body('mtn-1gb-1d', 350, sandbox.delivered), key_data);
  t.same(replay_data.body.data, first_data.body.data, 'and after a tier change');
  t.equal(await balance_kobo(server, account.key), balance, 'replays debit nothing');
});

t.test('GET /v1/pricing lists every product\'s effective rate and the plan and package lists show amount_charged', async (t) => {
  const tier = fresh_tier();
  await set_rules(server, tier, [{ service_type: 'data', rate_bp: 100 }, { service_type: 'data', network: 'mtn', rate_bp: 500 }, { service_type: 'tv', provider: 'dstv', rate_bp: 250 }]);
  const account = await priced_reseller(server, tier, 0);
  const pricing = await server.api('GET', '/v1/pricing', { key: account.key });
  t.equal(pricing.status, 200, 'GET /v1/pricing answers 200');
  t.equal(pricing.body.data.tier, tier, 'it names the tier');
  const rate = (service_type: string, field: string, value: string) =>
    pricing.body.data.rates.find((r: Record<string, unknown>) => r.service_type === service_type && r[field] === value)?.rate_bp;
  t.equal(rate('data', 'network', 'mtn'), 500, 'mtn data: the network rule');
  t.equal(rate('data', 'network', 'glo'), 100, 'glo data: the service rule');
  t.equal(rate('airtime', 'network', 'mtn'), 0, 'airtime: no rule, 0');
  t.equal(rate('tv', 'provider', 'dstv'), 250, 'DStv: the provider rule');
  t.equal(rate('electricity', 'disco', 'ikeja-electric'), 0, 'electricity is listed per disco');
  const plans = await server.api('GET', '/v1/services/data/plans', { key: account.key });
  for (const plan of plans.body.data.plans) {
    const bp = plan.network === 'mtn' ? 500 : 100;
    const amount = kobo(plan.amount);
    t.equal(kobo(plan.amount_charged), amount - Math.floor((amount * bp) / 10_000), `plan ${plan.plan_id}: amount_charged for this account`);
  }
  const packages = await server.api('GET', '/v1/services/tv/packages', { key: account.key });
  for (const item of packages.body.data.packages) {
    const bp = item.provider === 'dstv' ? 250 : 0;
    const amount = kobo(item.amount);
    t.equal(kobo(item.amount_charged), amount - Math.floor((amount * bp) / 10_000), `package ${item.package_code}: amount_charged for this account`);
  }
});

t.test('price lists are kept across a restart and apply at once', async (t) => {
  const own = await start_server(t);
  await set_rules(own, 'gold', [{ service_type: 'airtime', rate_bp: 700 }]);
  await set_rules(own, 'silver', [{ service_type: 'airtime', rate_bp: 100 }]);
  await own.admin('DELETE', '/admin/pricing/silver');
  const account = await priced_reseller(own, 'gold', 1_000);
  await own.stop();
  await own.start();
  const listed = await own.admin('GET', '/admin/pricing');
  t.same(listed.body.data.tiers.map((x: { tier: string }) => x.tier), ['gold'], 'after the restart gold is there and the removed silver is not');
  const response = await buy_airtime(own, account.key, sandbox.delivered, 100);
  check_created(t, response, 'delivered', 'a purchase after the restart');
  t.equal(response.body.data.commission, 7, 'the kept price list applies');
});

t.test('POST /admin/accounts takes a tier, and an unknown tier is simply one without rules (0%)', async (t) => {
  const account = await fast_reseller(server, 1_000, { tier: 'never_priced' });
  const shown = await server.admin('GET', `/admin/accounts/${account.id}`);
  t.equal(shown.body.data.tier, 'never_priced', 'the account has the tier');
  const response = await buy_airtime(server, account.key, sandbox.delivered, 100);
  check_created(t, response, 'delivered', 'a purchase in a tier without rules');
  t.equal(response.body.data.commission, 0, 'commission is 0');
  t.equal(response.body.data.amount_charged, 100, 'amount_charged is the face value');
});

t.test('an order stored before pricing (no amount_charged, commission or provider_commission) reads as charged = amount, commission 0', async (t) => {
  const own = await start_server(t);
  const account = await fast_reseller(own, 1_000);
  const bought = await buy_airtime(own, account.key, sandbox.delivered, 150);
  check_created(t, bought, 'delivered', 'a purchase at face value');
  const failed = await buy_airtime(own, account.key, sandbox.delivered, 60);
  check_created(t, failed, 'delivered', 'a second purchase');
  await own.stop();
  {
    // The old shape: the three pricing fields were never written.
    const { root, db } = open_store(own.data_dir);
    const orders = db('orders');
    root.transactionSync(() => {
      for (const { key, value } of orders.getRange({ start: [account.id, 'test', 0], end: [account.id, 'test', 1_000] })) {
        const old = { ...value };
        delete old.amount_charged_kobo;
        delete old.commission_kobo;
        delete old.provider_commission_kobo;
        orders.putSync(key, old);
      }
    });
    await root.close();
  }
  await own.start();
  const full = await order(own, account.key, bought.body.data.reference);
  t.equal(full.amount, 150, 'amount is read');
  t.equal(full.amount_charged, 150, 'amount_charged reads as the face value');
  t.equal(full.commission, 0, 'commission reads as 0');
  const list = await own.api('GET', '/v1/transactions', { key: account.key });
  t.same(list.body.data.transactions.map((o: { amount_charged: number; commission: number }) => [o.amount_charged, o.commission]), [[60, 0], [150, 0]], 'the list shows them the same way');
  const now = Date.now();
  const report = await own.admin('GET', `/admin/reports/margin?from=${new Date(now - 86_400_000).toISOString().slice(0, 10)}&to=${new Date(now + 86_400_000).toISOString().slice(0, 10)}&environment=test`);
  t.equal(report.body.data.totals.amount_charged, 210, 'the margin report counts them at face value');
  t.equal(report.body.data.totals.provider_commission_unknown, 2, 'with an unknown provider commission');
});

t.test('at most tiers_max (1,000) tiers hold rules: the 1,000th is taken, a 1,001st is refused, an existing one can still be replaced', async (t) => {
  const own = await start_server(t);
  const rules = [{ service_type: 'airtime', rate_bp: 100 }];
  let refused = 0;
  for (let i = 1; i <= 1_000; i++) {
    const response = await own.admin('PUT', `/admin/pricing/cap${i}`, { rules });
    if (response.status !== 200) refused++;
  }
  t.equal(refused, 0, 'tiers 1 to 1,000 are all taken');
  const over = await own.admin('PUT', '/admin/pricing/cap1001', { rules });
  t.equal(over.status, 400, `the 1,001st tier is refused (${over.text.slice(0, 160)})`);
  t.equal(over.body?.error?.code, 'validation.failed', 'as validation.failed');
  t.same(over.body?.error?.details?.map((d: { field: string }) => d.field), ['tier'], 'naming the tier');
  const listed = await own.admin('GET', '/admin/pricing');
  t.notOk(JSON.stringify(listed.body).includes('"cap1001"'), 'and nothing of it is stored');
  const replaced = await own.admin('PUT', '/admin/pricing/cap1', { rules: [{ service_type: 'airtime', rate_bp: 150 }] });
  t.equal(replaced.status, 200, 'an existing tier is still replaced at the cap');
  t.equal((await own.admin('DELETE', '/admin/pricing/cap2')).status, 200, 'a tier is removed');
  t.equal((await own.admin('PUT', '/admin/pricing/cap1001', { rules })).status, 200, 'and then a new one fits again');
});
