// The operator's margin report (docs/operations.md "Pricing"): per day and service, face value sold,
// charged to resellers, their commission, the live provider's commission (VTpass `commission`, read
// into provider_commission) and the margin, summed in kobo. It reconciles to the kobo with the wallet
// entries of the same period. Live purchases go through the fake VTpass, which reports 3% commission.
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { airtime_body, all_wallet_entries, buy, check_error, data_body, electricity_body, idem, kobo, sandbox, tv_body, warm_up_live } from './helpers/purchases.js';

const upstream = await start_upstream(t);
const server = await start_server(t, { env: { TIME_SCALE: '0.5', ...upstream.env(1_000) } });

const day_ms = 24 * 60 * 60 * 1000;
/** The Africa/Lagos day of an instant, YYYY-MM-DD. */
const lagos = (ms: number) => new Date(ms + 60 * 60 * 1000).toISOString().slice(0, 10);

async function live_reseller(s: TestServer, tier: string, live_ngn: number) {
  const account = await s.reseller(10_000, { tier }, { rate_limit_per_minute: 1_000_000 });
  const live = await s.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  await s.credit(account.id, 'live', live_ngn);
  return { ...account, test_key: account.key, key: live.api_key };
}

t.test('the margin report reconciles to the kobo with the wallet entries of the same period', async (t) => {
  await server.admin('PUT', '/admin/pricing/gold', { rules: [{ service_type: 'airtime', rate_bp: 250 }, { service_type: 'airtime', network: 'glo', rate_bp: 400 }, { service_type: 'tv', rate_bp: 125 }] });
  await server.admin('PUT', '/admin/pricing/silver', { rules: [{ service_type: 'data', rate_bp: 150 }, { service_type: 'electricity', rate_bp: 75 }] });
  const gold = await live_reseller(server, 'gold', 100_000);
  const silver = await live_reseller(server, 'silver', 100_000);
  await warm_up_live(server, gold.key);
  upstream.set_mode('08061239001', 'fail');
  const purchases: [string, string, unknown][] = [
    [gold.key, '/v1/services/airtime', airtime_body('08061239000', 50.01)],
    [gold.key, '/v1/services/airtime', airtime_body('08051239002', 777.77, { network: 'glo' })],
    [gold.key, '/v1/services/airtime', airtime_body('08061239001', 300)],
    [gold.key, '/v1/services/tv', tv_body('7000000001', 'gotv-max', 8500)],
    [silver.key, '/v1/services/data/purchase', data_body('mtn-100mb-1d', 100, '08061239003')],
    [silver.key, '/v1/services/electricity', electricity_body('1111111111111', 1234.56)],
  ];
  let delivered = 0;
  for (const [key, path, body] of purchases) {
    const response = await buy(server, key, path, body, idem('margin'));
    if (response.status === 201) {
      t.equal(response.body.data.status, 'delivered', `${path}: delivered`);
      delivered++;
    } else check_error(t, response, 422, 'transaction.failed', `${path}: the failing number`);
  }
  t.equal(delivered, 5, 'five purchases were delivered and one failed');
  const now = Date.now();
  const from = lagos(now - day_ms);
  const to = lagos(now + day_ms);
  const report = await server.admin('GET', `/admin/reports/margin?from=${from}&to=${to}`);
  t.equal(report.status, 200, 'the report answers 200');
  const totals = report.body.data.totals;
  t.equal(totals.orders, 5, 'it counts the delivered orders');

  let debits = 0;
  let reversals = 0;
  let face = 0;
  let provider = 0;
  for (const account of [gold, silver]) {
    for (const entry of await all_wallet_entries(server, account.key)) {
      if (entry.type === 'debit') debits += kobo(entry.amount);
      if (entry.type === 'reversal') reversals += kobo(entry.amount);
    }
    const orders = (await server.api('GET', '/v1/transactions?per_page=100', { key: account.key })).body.data.transactions;
    for (const o of orders) {
      if (o.status !== 'successful') continue;
      face += kobo(o.amount);
      provider += Math.floor((kobo(o.amount) * 300) / 10_000);
    }
  }
  t.equal(kobo(totals.amount_charged), debits - reversals, 'charged to resellers = debits − reversals of the live wallets, to the kobo');
  t.equal(kobo(totals.amount), face, 'face value sold = the delivered orders\' amounts');
  t.equal(kobo(totals.commission), face - (debits - reversals), 'reseller commission = face value − what the wallets paid');
  t.equal(kobo(totals.provider_commission), provider, 'provider commission = what VTpass reported on each delivered order (3%)');
  t.equal(totals.provider_commission_unknown, 0, 'every live order has a provider commission');
  t.equal(kobo(totals.margin), provider - kobo(totals.commission), 'margin = provider commission − reseller commission');
  let row_charged = 0;
  for (const row of report.body.data.rows) {
    row_charged += kobo(row.amount_charged);
    t.equal(kobo(row.amount_charged) + kobo(row.commission), kobo(row.amount), `${row.day} ${row.service_type}: charged + commission = face value`);
  }
  t.equal(row_charged, kobo(totals.amount_charged), 'the rows add up to the totals');
  t.same(report.body.data.rows.map((r: { service_type: string }) => r.service_type).sort(), ['airtime', 'data', 'electricity', 'tv'], 'one row per day and service');
  const airtime = report.body.data.rows.find((r: { service_type: string }) => r.service_type === 'airtime');
  // 50.01 at 2.5%: 125 kobo; 777.77 glo at 4%: floor(3111.08) = 3111 kobo.
  t.equal(kobo(airtime.commission), 125 + 3111, 'airtime commission follows each order\'s rule, rounded down per order');

  const test_env = await server.admin('GET', `/admin/reports/margin?from=${from}&to=${to}&environment=test`);
  t.equal(test_env.body.data.totals.orders, 0, 'the test environment is reported apart (no test orders here)');
  const earlier = await server.admin('GET', `/admin/reports/margin?from=${lagos(now - 10 * day_ms)}&to=${lagos(now - 2 * day_ms)}`);
  t.equal(earlier.body.data.totals.orders, 0, 'a period before the orders holds none');
});

t.test('the margin report refuses a missing or reversed period, or one over 366 days, with 400 validation.failed', async (t) => {
  const rows: [string, string][] = [
    ['', 'from'],
    ['?from=2026-01-01', 'to'],
    ['?from=2026-02-01&to=2026-01-01', 'to'],
    ['?from=2024-01-01&to=2026-01-01', 'to'],
    ['?from=2026-02-30&to=2026-03-01', 'from'],
    ['?from=2026-01-01&to=2026-01-02&environment=staging', 'environment'],
  ];
  for (const [query, field] of rows) {
    const response = await server.admin('GET', `/admin/reports/margin${query}`);
    check_error(t, response, 400, 'validation.failed', `GET /admin/reports/margin${query}`);
    t.ok(response.body.error.details.some((d: { field: string }) => d.field === field), `${query}: details name ${field}`);
  }
});

t.test('the provider commission VTpass reports is read from its answer, and null when it sends none', async (t) => {
  await server.admin('PUT', '/admin/pricing/plain', { rules: [] });
  const account = await live_reseller(server, 'plain', 10_000);
  upstream.commission_bp = null;
  try {
    const response = await buy(server, account.key, '/v1/services/airtime', airtime_body('08061239010', 100), idem('nocommission'));
    t.equal(response.status, 201, 'a live purchase whose answer has no commission');
  } finally {
    upstream.commission_bp = 300;
  }
  const now = Date.now();
  const report = await server.admin('GET', `/admin/reports/margin?from=${lagos(now - day_ms)}&to=${lagos(now + day_ms)}`);
  t.ok(report.body.data.totals.provider_commission_unknown >= 1, 'an order without a provider commission is counted as unknown');
});
