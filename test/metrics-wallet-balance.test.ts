// The wallet totals on /metrics (docs/operations.md "Metrics", docs/decisions.md "The first ten
// minutes"): billvend_wallet_balance_naira{environment} is every wallet's balance summed, kept by the
// commits after credits, purchases and refunds, and set at start by a scan of the store made in slices;
// until that scan is complete the balance has no series and billvend_wallet_balance_scan_complete says 0.
// A store of 5,000 accounts, seeded through the engine (bench/seed-store.ts), is scanned at start while
// the server serves.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { open_store, start_server, temp_dir, TestServer, type ApiResponse } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { buy_airtime, sandbox, warm_up_live } from './helpers/purchases.js';
import { bench_script } from '../bench/server-process.js';

const promtool = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';

/** The samples of one metric by their environment label (value as printed, in naira). */
function by_environment(text: string, name: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    found.set(/environment="([^"]*)"/.exec(match[2] ?? '')?.[1] ?? '', Number(match[3]));
  }
  return found;
}

/** Naira as integer kobo, for exact comparisons. */
const kobo = (naira: number) => Math.round(naira * 100);

async function scrape(server: TestServer): Promise<string> {
  const answer = await server.admin('GET', '/metrics');
  if (answer.status !== 200) throw new Error(`/metrics answered ${answer.status}`);
  return answer.text;
}

/** Scrapes until the scan is complete (it runs on later turns of the event loop), at most 60 s. */
async function scanned(server: TestServer): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const text = await scrape(server);
    if (by_environment(text, 'billvend_wallet_balance_scan_complete').get('') === 1) return text;
    if (Date.now() > deadline) throw new Error('the wallet scan did not complete in 60 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

t.test('the balance gauge is every wallet\'s balance summed after credits, purchases and refunds, and promtool accepts it', async (t) => {
  const upstream = await start_upstream(t);
  const server = await start_server(t, { env: { TIME_SCALE: '0.5', ...upstream.env(1_000) } });
  const first = await server.reseller(10_000, {}, { rate_limit_per_minute: 1_000_000 });
  const second = await server.reseller(2_500.75, {}, { rate_limit_per_minute: 1_000_000 });
  const live = await server.create_key(first.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  await server.credit(first.id, 'live', 5_000.5);
  await warm_up_live(server, live.api_key);
  const empty = await scanned(server);
  const wallets = async (): Promise<{ test: number; live: number }> => {
    const read = async (key: string) => kobo(((await server.api('GET', '/v1/wallet', { key })) as ApiResponse).body.data.balance);
    return { test: (await read(first.key)) + (await read(second.key)), live: await read(live.api_key) };
  };
  const at_start = await wallets();
  t.same(by_environment(empty, 'billvend_wallet_balance_naira'), new Map([['live', at_start.live / 100], ['test', at_start.test / 100]]), 'after the credits: the balances summed, per environment, to the kobo');

  t.equal((await buy_airtime(server, first.key, sandbox.delivered, 100)).status, 201, 'test: NGN 100 delivered');
  t.equal((await buy_airtime(server, second.key, sandbox.delivered, 50)).status, 201, 'test: NGN 50 delivered');
  t.equal((await buy_airtime(server, first.key, sandbox.failed, 300)).status, 422, 'test: NGN 300 fails and is refunded');
  t.equal((await buy_airtime(server, live.api_key, '08061230001', 150)).status, 201, 'live: NGN 150 delivered through the upstream');
  const text = await scrape(server);
  const now = await wallets();
  t.equal(now.test, at_start.test - 100_00 - 50_00, 'the wallets moved by the delivered purchases only');
  const gauge = by_environment(text, 'billvend_wallet_balance_naira');
  t.equal(kobo(gauge.get('test') ?? NaN), now.test, `test: NGN ${now.test / 100}, the wallets' balances summed`);
  t.equal(kobo(gauge.get('live') ?? NaN), now.live, `live: NGN ${now.live / 100}`);
  t.equal(by_environment(text, 'billvend_wallet_balance_scan_complete').get(''), 1, 'the scan is complete');
  t.match(text, /# TYPE billvend_wallet_balance_naira gauge/, 'a gauge: balances fall as well as rise');

  const checked = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  t.equal(`${checked.stdout}${checked.stderr}`.trim(), '', 'promtool check metrics finds no problem');
  t.equal(checked.status, 0, 'and exits 0');
});

t.test('a restart on a store of 5,000 accounts scans their wallets in slices while serving, and reports the balance only once complete', async (t) => {
  const data_dir = temp_dir('billvend-wallet-scan-');
  t.teardown(() => rmSync(data_dir, { recursive: true, force: true }));
  const accounts = 5_000;
  const seeder = bench_script('seed-store');
  const seeded_at = Date.now();
  const run = spawnSync(process.execPath, [...seeder.node_flags, seeder.script, data_dir, String(accounts), String(accounts), '1'], { env: { ...process.env, ...seeder.env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  t.equal(run.status, 0, `the seeder exits 0 (${run.stderr.slice(-500)})`);
  t.comment(`seeded ${accounts} accounts in ${Date.now() - seeded_at} ms`);
  const { api_key } = JSON.parse(run.stdout.trim().split('\n').pop()!).keys[0] as { account_id: number; api_key: string };

  // What the store holds, read before the server opens it: the sum the scan must find.
  const expected = { live: 0, test: 0, wallets: 0 };
  const stored = open_store(data_dir, { readOnly: true });
  for (const { key, value } of stored.db('wallets').getRange({})) {
    expected[(key as [number, 'live' | 'test'])[1]] += (value as { balance_kobo: number }).balance_kobo;
    expected.wallets += 1;
  }
  await stored.root.close();
  t.equal(expected.wallets, accounts * 2, 'two wallets an account');
  t.ok(expected.test > 0, `the seeded test wallets hold NGN ${expected.test / 100}`);

  const server = new TestServer(data_dir, { LOG_LEVEL: 'info' });
  await server.start();
  t.teardown(() => server.kill());
  // At once: either the scan is still running (no balance series) or it is complete and right; never a partial sum.
  const early = await scrape(server);
  const early_complete = by_environment(early, 'billvend_wallet_balance_scan_complete').get('');
  t.ok(early_complete === 0 || early_complete === 1, `the scan's state is on /metrics at once (${early_complete})`);
  if (early_complete === 0) t.equal(by_environment(early, 'billvend_wallet_balance_naira').size, 0, 'while it runs the balance has no series');
  else t.equal(kobo(by_environment(early, 'billvend_wallet_balance_naira').get('test') ?? NaN), expected.test, 'complete already: the right sum');
  t.equal(early.includes('# TYPE billvend_wallet_balance_naira gauge'), true, 'the gauge is declared from the start');

  // The server serves while it scans: a wallet read answers.
  const wallet = await server.api('GET', '/v1/wallet', { key: api_key });
  t.equal(wallet.status, 200, 'a wallet read is answered during or right after the scan');

  const text = await scanned(server);
  const gauge = by_environment(text, 'billvend_wallet_balance_naira');
  t.equal(kobo(gauge.get('test') ?? NaN), expected.test, `test: the ${accounts} test wallets' balances summed (NGN ${expected.test / 100})`);
  t.equal(kobo(gauge.get('live') ?? NaN), expected.live, `live: NGN ${expected.live / 100}`);
  const log = server.logs.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.msg === 'wallet totals scanned');
  t.ok(log !== undefined, 'the scan logs its figures');
  t.equal(log?.wallets, accounts * 2, 'it read every wallet');
  t.ok(Number(log?.slices) >= Math.ceil((accounts * 2) / 2_000), `in slices of at most 2,000 wallets (${log?.slices} slices)`);
  t.comment(`scan of ${accounts * 2} wallets: ${log?.duration_ms} ms in ${log?.slices} slices, longest slice ${log?.longest_slice_ms} ms`);

  // After the scan, a credit moves the total by its amount.
  await server.credit(1, 'test', 1_234.56);
  const after = by_environment(await scrape(server), 'billvend_wallet_balance_naira');
  t.equal(kobo(after.get('test') ?? NaN), expected.test + 1_234_56, 'a credit after the scan adds its amount');
});
