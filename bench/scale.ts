// `npm run bench:scale [-- --sizes 10k,100k,1m,1m:10m] [--load-accounts <n>] [--duration <s>] [--warmup <s>]`
// (docs/benchmarks.md "Scale"): how billvend holds up as its store grows. For each size it seeds a store
// (bench/seed-store.ts: the engine's own commands, written straight into LMDB), starts the production
// build on it, and reports the time to ready, the server's resident memory, and a purchase load's
// throughput, p99 and server CPU per request (from /proc/<pid>/stat); then removes the store. The cost
// curve (purchases/s and CPU µs per purchase as the store grows) is written as a hand-drawn SVG chart
// and a Markdown table under bench/results/, beside the JSON.
//
// After the purchases, a filtered history page (GET /v1/transactions with a filter, one request at a
// time) is read over accounts spread across the store: once per account cold (its actor built from the
// store by that request), then warm, each with its p50 and p99.
//
// A size is <accounts>[:<orders>] with k and m suffixes (orders default to one per account):
// 10k = 10,000 accounts and 10,000 orders, 1m:10m = 1,000,000 accounts and 10,000,000 orders,
// 1k:0 = the load's 1,000 accounts and no orders (the "empty store" the others are compared with).
// SCALE_DIR: where the stores are seeded (default: the OS temp folder).
import { spawn } from 'node:child_process';
import { Pool } from 'undici';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, statfsSync, writeFileSync } from 'node:fs';
import { freemem, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { run_load, type LoadResult, type LoadSettings } from './load.js';
import { OperatorClient, type Reseller } from './fixtures.js';
import { airtime_order, prime_purchases, purchases, seeded_random, type ScenarioContext } from './scenarios.js';
import { bench_script, kill_started_servers, repo_root, start_server, type ServerProcess } from './server-process.js';
import { describe_machine, type Machine } from './report.js';
import { render_scale_markdown, render_scale_svg } from './scale-report.js';

export interface ScaleSize {
  label: string;
  accounts: number;
  orders: number;
}

export interface ScaleRow {
  size: ScaleSize;
  /** null when the size was not measured (see failure). */
  seed_ms: number | null;
  /** Blocks the seeded store holds on disk. */
  store_bytes: number | null;
  /** From spawning the server until /readyz answered 200. */
  ready_ms: number | null;
  rss_ready_bytes: number | null;
  rss_after_load_bytes: number | null;
  load: LoadResult | null;
  /** Filtered history pages read one at a time after the load (null when not measured). */
  history: HistoryReads | null;
  failure: string | null;
}

/** Latencies of GET /v1/transactions with a filter, measured by the client one request at a time. */
export interface HistoryReads {
  accounts: number;
  /** Each account's first page: its actor is built from the store by that request. */
  cold: LatencySummary;
  /** Pages after every account was read once, filters in turn. */
  warm: LatencySummary;
  /** Answers other than 200. */
  not_ok: number;
}

export interface LatencySummary {
  requests: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

export interface ScaleReport {
  machine: Machine;
  load_average: number[];
  settings: LoadSettings & { load_accounts: number };
  rows: ScaleRow[];
}

export const default_sizes = '1k:0,10k,100k,1m,1m:10m';

const usage = `usage: npm run bench:scale [-- --sizes <size>,...] [--load-accounts <n>] [--duration <s>] [--warmup <s>]
sizes: <accounts>[:<orders>] with k/m suffixes, orders default to one per account (0 allowed); default ${default_sizes}
       (the load's 1,000 accounts and no orders, the store every size is compared with; 10,000 / 100,000 /
       1,000,000 accounts; and 1,000,000 accounts with 10,000,000 orders)
--load-accounts: accounts the purchase load spreads over (1000, at most the store's)
--duration / --warmup: measured and warm-up seconds of the load (10 / 2)
environment: SCALE_DIR=<dir> where the stores are seeded (the OS temp folder); each is removed after its size`;

/** A bigger store recovers for longer: give up on a start after this long. */
const ready_timeout_ms = 30 * 60 * 1000;
/**
 * Disk a seeded store may take, to refuse a size the disk cannot hold before seeding it: measured at
 * about 1.5 KiB per account (with its key, funding and first order) and 0.7 KiB per further order
 * (10,000 accounts: 15 MiB; with 200,000 orders: 148 MiB), doubled for LMDB's free pages and the
 * load's own orders.
 */
const store_bytes_per_account = 3 * 1024;
const store_bytes_per_order = 1200;
/** Free space left on the disk after the biggest store, for everything else on the machine. */
const disk_reserve_bytes = 2 * 1024 ** 3;

function log(line: string): void {
  process.stderr.write(line + '\n');
}

function usage_error(message: string): never {
  process.stderr.write(`bench:scale: ${message}\n${usage}\n`);
  process.exit(2);
}

/** "10k" → 10,000; "1m" → 1,000,000; "2500" → 2,500. */
export function parse_count(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim());
  if (match === null) return null;
  const value = Number(match[1]) * (match[2].toLowerCase() === 'k' ? 1e3 : match[2].toLowerCase() === 'm' ? 1e6 : 1);
  return Number.isSafeInteger(value) && value >= 1 ? value : null;
}

/** "10k,1m:10m" → the sizes, in the order given; null and the bad token when one does not parse. */
export function parse_sizes(text: string): { sizes: ScaleSize[] } | { bad: string } {
  const sizes: ScaleSize[] = [];
  for (const token of text.split(',').map((t) => t.trim()).filter((t) => t !== '')) {
    const [accounts_text, orders_text, extra] = token.split(':');
    const accounts = parse_count(accounts_text);
    const orders = orders_text === undefined ? accounts : orders_text.trim() === '0' ? 0 : parse_count(orders_text);
    if (accounts === null || orders === null || extra !== undefined) return { bad: token };
    sizes.push({ label: token.toLowerCase(), accounts, orders });
  }
  return sizes.length === 0 ? { bad: text } : { sizes };
}

function parse_args(argv: readonly string[]): { sizes: ScaleSize[]; load_accounts: number; duration_s: number; warmup_s: number } {
  let sizes_text = default_sizes;
  let load_accounts = 1000;
  let duration_s = 10;
  let warmup_s = 2;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) usage_error(`${arg} needs a value`);
      return next;
    };
    const number = (minimum: number) => {
      const text = value();
      const parsed = Number(text);
      if (!Number.isFinite(parsed) || parsed < minimum) usage_error(`${arg} must be a number ≥ ${minimum}, got "${text}"`);
      return parsed;
    };
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(usage + '\n');
      process.exit(0);
    } else if (arg === '--sizes') sizes_text = value();
    else if (arg === '--load-accounts') load_accounts = Math.floor(number(1));
    else if (arg === '--duration') duration_s = number(1);
    else if (arg === '--warmup') warmup_s = number(0);
    else usage_error(`unknown argument ${arg}`);
  }
  const parsed = parse_sizes(sizes_text);
  if ('bad' in parsed) usage_error(`not a size: "${parsed.bad}"`);
  return { sizes: parsed.sizes, load_accounts, duration_s, warmup_s };
}

/** Bytes the files of a directory hold on disk (allocated blocks, not apparent sizes), like du. */
export function disk_bytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const stat = statSync(join(dir, name));
    total += stat.isDirectory() ? disk_bytes(join(dir, name)) : stat.blocks * 512;
  }
  return total;
}

function free_bytes(dir: string): number {
  const stat = statfsSync(dir);
  return stat.bavail * stat.bsize;
}

/** MiB below a GiB, GiB from there. */
export function gib(bytes: number): string {
  if (bytes < 1024 ** 3) return `${Math.round(bytes / 1024 ** 2).toLocaleString('en-US')} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(bytes < 10 * 1024 ** 3 ? 2 : 1)} GiB`;
}

interface Seeded {
  seed_ms: number;
  keys: { account_id: number; api_key: string }[];
  /** Keys of accounts spread over the store, for the history reads. */
  history_keys: { account_id: number; api_key: string }[];
}

/** The filters the history reads take in turn: each is answered from the order index. */
export const history_filters: readonly string[] = [
  'service_type=airtime',
  'status=successful',
  'service_type=airtime&status=successful',
  'recipient=08011111111&status=successful',
  'status=failed',
];
/** Warm history pages read per size (one at a time), after one cold page per account. */
const history_warm_requests = 2_000;
const history_per_page = 20;

export function summarize(latencies_ms: number[]): LatencySummary {
  const sorted = [...latencies_ms].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]);
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return { requests: sorted.length, p50_ms: round(at(0.5)), p99_ms: round(at(0.99)), max_ms: round(sorted.at(-1) ?? 0) };
}

/**
 * Reads filtered history pages one at a time (a single keep-alive connection, so the latency is the
 * server's work plus one local round trip, not a queue): one per account first (cold), then
 * warm_requests more over the accounts and filters in turn.
 */
export async function read_history(base_url: string, accounts: readonly { api_key: string }[], warm_requests: number = history_warm_requests): Promise<HistoryReads> {
  const pool = new Pool(base_url, { connections: 1, pipelining: 1 });
  let not_ok = 0;
  const read = async (index: number): Promise<number> => {
    const filter = history_filters[index % history_filters.length];
    const started = performance.now();
    const answer = await pool.request({
      method: 'GET',
      path: `/v1/transactions?${filter}&per_page=${history_per_page}`,
      headers: { authorization: `Bearer ${accounts[index % accounts.length].api_key}` },
    });
    await answer.body.arrayBuffer();
    const elapsed = performance.now() - started;
    if (answer.statusCode !== 200) not_ok++;
    return elapsed;
  };
  try {
    const cold: number[] = [];
    for (let i = 0; i < accounts.length; i++) cold.push(await read(i));
    const warm: number[] = [];
    for (let i = 0; i < warm_requests; i++) warm.push(await read(accounts.length + i));
    return { accounts: accounts.length, cold: summarize(cold), warm: summarize(warm), not_ok };
  } finally {
    await pool.close();
  }
}

/** Runs bench/seed-store.js as its own process, its progress on our stderr. */
function seed(dir: string, size: ScaleSize, load_accounts: number): Promise<Seeded> {
  return new Promise((resolve, reject) => {
    const seeder = bench_script('seed-store');
    // A larger young generation: the seeder allocates short-lived records by the million, and the
    // default semi-space made scavenges a quarter of its CPU (--cpu-prof, 1,000,000 orders).
    const child = spawn(process.execPath, [...seeder.node_flags, '--max-semi-space-size=64', seeder.script, dir, String(size.accounts), String(size.orders), String(load_accounts)], {
      env: { ...process.env, ...seeder.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`seed-store exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as Seeded);
      } catch (error) {
        reject(new Error(`seed-store printed no summary: ${(error as Error).message}`));
      }
    });
  });
}

/** One size: seed, start, load, stop; the store is removed whatever happens. */
export async function measure_size(root: string, size: ScaleSize, settings: LoadSettings, load_accounts: number, say: (line: string) => void = log): Promise<ScaleRow> {
  const row: ScaleRow = { size, seed_ms: null, store_bytes: null, ready_ms: null, rss_ready_bytes: null, rss_after_load_bytes: null, load: null, history: null, failure: null };
  const dir = join(root, `store-${size.accounts}x${size.orders}`);
  let server: ServerProcess | null = null;
  try {
    const needed = size.accounts * store_bytes_per_account + size.orders * store_bytes_per_order;
    const free = free_bytes(root);
    say(`${size.label}: ${size.accounts.toLocaleString('en-US')} accounts, ${size.orders.toLocaleString('en-US')} orders; ` +
      `disk free ${gib(free)} under ${root}, the store may take up to ${gib(needed)}; memory free ${gib(freemem())}`);
    if (free < needed + disk_reserve_bytes) throw new Error(`not enough disk: ${gib(free)} free, ${gib(needed)} needed and ${gib(disk_reserve_bytes)} kept free`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const seeded = await seed(dir, size, Math.min(load_accounts, size.accounts));
    row.seed_ms = seeded.seed_ms;
    row.store_bytes = disk_bytes(dir);
    say(`  seeded in ${(seeded.seed_ms / 1000).toFixed(1)} s; the store takes ${gib(row.store_bytes)} on disk`);

    const started = performance.now();
    server = await start_server('billvend', { cpu_profile_path: null, data_dir: dir, startup_timeout_ms: ready_timeout_ms });
    row.ready_ms = performance.now() - started;
    row.rss_ready_bytes = server.rss_bytes();
    say(`  ready ${(row.ready_ms / 1000).toFixed(2)} s after its start, resident memory ${row.rss_ready_bytes === null ? '?' : gib(row.rss_ready_bytes)}`);

    const resellers: Reseller[] = seeded.keys.map((k) => ({ account_id: k.account_id, authorization: `Bearer ${k.api_key}` }));
    const warnings: string[] = [];
    const context: ScenarioContext = {
      server,
      operator: new OperatorClient(server.admin_url!, server.admin_token),
      accounts_count: resellers.length,
      random: seeded_random(1),
      log: say,
      warn: (line) => warnings.push(line),
    };
    await prime_purchases(context, resellers);
    if (warnings.length > 0) throw new Error(`priming: ${warnings.join('; ')}`);
    const running = server;
    row.load = await run_load(running.base_url, purchases(resellers, { service: 'airtime', ...airtime_order }), settings, () => running.cpu_ms());
    row.rss_after_load_bytes = server.rss_bytes();
    if (server.has_exited) throw new Error(`the server died during the load:\n${server.log_tail()}`);
    const l = row.load;
    say(`  ${Math.round(l.requests_per_s)} purchases/s, p99 ${l.latency_p99_ms} ms, ${l.server_cpu_us_per_request?.toFixed(1) ?? '?'} µs of server CPU each` +
      `${l.non_2xx > 0 ? `, ${l.non_2xx} not 2xx ${JSON.stringify(l.error_codes)}` : ''}; other work ${l.other_cpu_cores?.toFixed(2) ?? '?'} cores`);
    const history_keys = seeded.history_keys?.length > 0 ? seeded.history_keys : seeded.keys;
    // The suite's tiny runs bound their requests (requests_max): the history reads follow.
    row.history = await read_history(running.base_url, history_keys, settings.requests_max ?? history_warm_requests);
    const h = row.history;
    say(`  filtered history pages over ${h.accounts} accounts: cold p50 ${h.cold.p50_ms} ms p99 ${h.cold.p99_ms} ms; ` +
      `warm (${h.warm.requests}) p50 ${h.warm.p50_ms} ms p99 ${h.warm.p99_ms} ms max ${h.warm.max_ms} ms${h.not_ok > 0 ? `; ${h.not_ok} not 200` : ''}`);
    if (h.not_ok > 0) throw new Error(`history reads: ${h.not_ok} answers were not 200`);
  } catch (error) {
    row.failure = (error as Error).message;
    say(`  failed: ${row.failure}`);
  } finally {
    if (server !== null) await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return row;
}

async function main(): Promise<void> {
  const { sizes, load_accounts, duration_s, warmup_s } = parse_args(process.argv.slice(2));
  const settings: LoadSettings = { connections: 100, pipelining: 1, duration_s, warmup_s, timeout_s: 10 };
  const started = new Date();
  const parent = process.env.SCALE_DIR || tmpdir();
  mkdirSync(parent, { recursive: true });
  const root = mkdtempSync(join(parent, 'billvend-scale-'));
  const clean_up = () => rmSync(root, { recursive: true, force: true });
  process.on('SIGINT', () => {
    log('bench:scale: interrupted; stopping the server and removing the stores');
    kill_started_servers();
    clean_up();
    process.exit(130);
  });

  const rows: ScaleRow[] = [];
  try {
    for (const size of sizes) rows.push(await measure_size(root, size, settings, load_accounts));
  } finally {
    clean_up();
  }
  const report: ScaleReport = { machine: describe_machine(started), load_average: loadavg(), settings: { ...settings, load_accounts }, rows };
  const results_dir = join(repo_root, 'bench', 'results');
  mkdirSync(results_dir, { recursive: true });
  const stem = join(results_dir, `scale-${report.machine.date.replace(/:/g, '-')}`);
  const markdown = render_scale_markdown(report);
  writeFileSync(`${stem}.json`, JSON.stringify(report, null, 2) + '\n');
  writeFileSync(`${stem}.md`, markdown);
  writeFileSync(`${stem}.svg`, render_scale_svg(report));
  process.stdout.write(`${markdown}\nresults: ${relative(repo_root, stem)}.{md,svg,json}\n`);
  process.exitCode = rows.some((r) => r.failure !== null) ? 1 : 0;
}

// Run as a script (npm run bench:scale); the test suite imports measure_size and the parsers.
if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  main().catch((error) => {
    kill_started_servers();
    process.stderr.write(`bench:scale: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  });
}
