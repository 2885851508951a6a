// The operator's money on /metrics (docs/operations.md "Metrics"): naira sold, resellers' commission, the
// upstream's commission and the margin by service type, environment, biller and upstream, wallet money moved,
// counters named _total; and the Grafana dashboard in docs/ whose every query promtool parses and whose every
// metric the server exposes.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repo_root, start_server, temp_dir } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { buy_airtime, sandbox, warm_up_live } from './helpers/purchases.js';

const promtool = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';
const upstream = await start_upstream(t);
const server = await start_server(t, { env: { TIME_SCALE: '0.5', LOG_LEVEL: 'warn', ...upstream.env(1_000) } });

interface Sample {
  labels: Record<string, string>;
  value: number;
}

/** Every sample of one metric, with its labels. */
function samples(text: string, name: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    out.push({ labels, value: Number(match[3]) });
  }
  return out;
}

function sum(text: string, name: string, labels: Record<string, string>): number {
  const kobo = samples(text, name)
    .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((total, sample) => total + Math.round(sample.value * 100), 0);
  return kobo / 100;
}

const floor_bp = (naira: number, bp: number) => Math.floor((Math.round(naira * 100) * bp) / 10_000) / 100;

t.test('naira sold, commission, the upstream\'s commission and the margin are counted by service, biller and upstream', async (t) => {
  const tier = await server.admin('PUT', '/admin/pricing/gold', { rules: [{ service_type: 'airtime', rate_bp: 250 }, { service_type: 'airtime', network: 'glo', rate_bp: 400 }] });
  t.equal(tier.status, 200, `a tier with airtime commission: ${tier.text}`);
  const account = await server.reseller(10_000, { tier: 'gold' }, { rate_limit_per_minute: 1_000_000 });
  const live = await server.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  await server.credit(account.id, 'live', 10_000);
  await warm_up_live(server, live.api_key);

  t.equal((await buy_airtime(server, account.key, sandbox.delivered, 100)).status, 201, 'test: MTN airtime NGN 100 delivered');
  t.equal((await buy_airtime(server, account.key, sandbox.delivered, 200)).status, 201, 'test: MTN airtime NGN 200 delivered');
  t.equal((await buy_airtime(server, account.key, sandbox.delivered, 50, { network: 'glo' })).status, 201, 'test: Glo airtime NGN 50 delivered');
  t.equal((await buy_airtime(server, account.key, sandbox.failed, 300)).status, 422, 'test: NGN 300 fails and is refunded: not sold');
  const bought = await buy_airtime(server, live.api_key, '08061230001', 150);
  t.equal(bought.status, 201, `live: MTN airtime NGN 150 through the upstream: ${bought.text}`);
  const order = await server.api('GET', `/v1/transactions/${bought.body.data.reference}`, { key: live.api_key });
  const upstream_name = order.body.data.attempts.at(-1).upstream as string;
  t.type(upstream_name, 'string', `the live order names its upstream (${upstream_name})`);

  const text = (await server.admin('GET', '/metrics')).text;
  const mtn_test = { service_type: 'airtime', environment: 'test', biller: 'mtn', upstream: 'sandbox' };
  const glo_test = { ...mtn_test, biller: 'glo' };
  const mtn_live = { service_type: 'airtime', environment: 'live', biller: 'mtn', upstream: upstream_name };
  t.equal(sum(text, 'billvend_sold_naira_total', mtn_test), 300, 'test MTN: NGN 300 sold (100 + 200; the failed 300 is not)');
  t.equal(sum(text, 'billvend_sold_naira_total', glo_test), 50, 'test Glo: NGN 50 sold');
  t.equal(sum(text, 'billvend_sold_naira_total', mtn_live), 150, `live MTN through ${upstream_name}: NGN 150 sold`);
  t.equal(sum(text, 'billvend_commission_naira_total', mtn_test), floor_bp(100, 250) + floor_bp(200, 250), 'test MTN: 2.5% commission');
  t.equal(sum(text, 'billvend_commission_naira_total', glo_test), floor_bp(50, 400), 'test Glo: 4% commission, its own rule');
  t.equal(sum(text, 'billvend_commission_naira_total', mtn_live), floor_bp(150, 250), 'live: 2.5% commission');
  t.equal(sum(text, 'billvend_provider_commission_naira_total', mtn_live), floor_bp(150, 300), 'live: the upstream\'s 3%, as it reported it');
  t.equal(sum(text, 'billvend_provider_commission_naira_total', mtn_test), 0, 'the sandbox gives no commission');
  t.equal(sum(text, 'billvend_margin_naira', mtn_live), Math.round((floor_bp(150, 300) - floor_bp(150, 250)) * 100) / 100, 'live margin: the upstream\'s commission minus the reseller\'s');
  t.equal(sum(text, 'billvend_margin_naira', glo_test), -floor_bp(50, 400), 'a sandbox margin is the commission given, negative');

  // Wallet money: every entry of both wallets, summed by type, is what the counter says.
  for (const [environment, key] of [['test', account.key], ['live', live.api_key]] as const) {
    const entries = (await server.api('GET', '/v1/wallet/transactions?per_page=100', { key })).body.data.transactions as { type: string; amount: number }[];
    for (const type of ['credit', 'debit', 'reversal']) {
      const expected = entries.filter((entry) => entry.type === type).reduce((total, entry) => total + Math.round(entry.amount * 100), 0) / 100;
      t.equal(sum(text, 'billvend_wallet_entries_naira_total', { environment, type }), expected, `${environment} ${type}: NGN ${expected}, the sum of the wallet's entries`);
    }
  }

  const checked = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  t.equal(`${checked.stdout}${checked.stderr}`.trim(), '', 'promtool check metrics finds no problem');
  t.equal(checked.status, 0, 'and exits 0');
  for (const line of text.split('\n').filter((l) => l.startsWith('# TYPE '))) {
    const [, , name, type] = line.split(' ');
    if (type === 'counter') t.match(name, /_total$/, `the counter ${name} ends in _total`);
  }
  t.ok(text.includes('# TYPE billvend_actors_loaded_total counter') && text.includes('# TYPE billvend_actors_evicted_total counter'), 'the actor counts are counters named _total');
  t.ok(text.includes('# TYPE billvend_actors_loaded gauge'), 'the gauges docs/operations.md listed stay, deprecated');
});

t.test('every query of docs/grafana-dashboard.json is PromQL promtool accepts, over metrics the server exposes', async (t) => {
  const dashboard = JSON.parse(readFileSync(join(repo_root, 'docs', 'grafana-dashboard.json'), 'utf8')) as {
    panels: { id: number; title: string; targets?: { refId: string; expr: string }[] }[];
    templating: { list: { name: string; current: { value: string } }[] };
  };
  const variables = new Map(dashboard.templating.list.map((variable) => [variable.name, variable.current.value]));
  const queries: { name: string; panel: string; expr: string }[] = [];
  for (const panel of dashboard.panels) {
    t.ok((panel.targets ?? []).length > 0, `panel "${panel.title}" has a query`);
    for (const target of panel.targets ?? []) {
      // Grafana fills in the dashboard's variables before Prometheus sees a query; so does the test.
      const expr = target.expr.replace(/\$(\w+)/g, (whole, name: string) => variables.get(name) ?? whole);
      t.notMatch(expr, /\$/, `panel "${panel.title}": every variable is one the dashboard defines`);
      queries.push({ name: `dashboard:panel_${panel.id}_${target.refId}`, panel: panel.title, expr });
    }
  }
  t.ok(queries.length >= 20, `the dashboard has its queries (${queries.length})`);
  const dir = temp_dir('billvend-dashboard-');
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const rules = join(dir, 'dashboard.rules.yml');
  writeFileSync(rules, `groups:\n  - name: dashboard\n    rules:\n${queries.map((q) => `      - record: ${q.name}\n        expr: ${JSON.stringify(q.expr)}\n`).join('')}`);
  const checked = spawnSync(promtool, ['check', 'rules', rules], { encoding: 'utf8' });
  t.equal(checked.status, 0, `promtool check rules accepts every query: ${checked.stdout}${checked.stderr}`);
  t.match(checked.stdout, new RegExp(`SUCCESS: ${queries.length} rules found`), 'all of them');

  // A query of a metric that does not exist parses and shows nothing: each name must be on /metrics.
  const exposed = new Set((await server.admin('GET', '/metrics')).text.split('\n').filter((l) => l.startsWith('# TYPE ')).map((l) => l.split(' ')[2]!));
  for (const query of queries) {
    for (const name of query.expr.match(/\b(?:billvend|nodejs|process)_[a-z_]+\b/g) ?? []) {
      const base = name.replace(/_(bucket|sum|count)$/, '');
      t.ok(exposed.has(name) || exposed.has(base), `panel "${query.panel}": ${name} is on /metrics`);
    }
  }
  const checked_names = new Set(queries.flatMap((q) => q.expr.match(/\bbillvend_[a-z_]+\b/g) ?? []));
  for (const name of ['billvend_sold_naira_total', 'billvend_commission_naira_total', 'billvend_provider_commission_naira_total', 'billvend_margin_naira', 'billvend_wallet_entries_naira_total', 'billvend_wallet_balance_naira']) {
    t.ok(checked_names.has(name), `the dashboard shows ${name}`);
  }
});
