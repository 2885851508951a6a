// The `history-filtered` scenario: GET /v1/transactions with combined filters (recipient, service_type,
// status, from and to) on one account holding a large history (1,000,000 orders by default), to show
// that a filtered page reads the order index and not every order; after the load, one CSV export of
// about 100,000 rows with the server's memory sampled while it streams.
//
// The store is seeded once through billvend's own engine (bench/seed-store.ts, `history` mode) and kept
// under bench/results/ for later runs; the load only reads, so the store stays as seeded.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import type { Scenario, ScenarioContext } from './scenarios.js';
import { repo_root, start_server, type ServerProcess } from './server-process.js';
import { OperatorClient } from './fixtures.js';

export interface HistoryBenchSettings {
  /** Orders of the one account (BENCH_HISTORY_ORDERS). */
  orders: number;
  /** Where the seeded store is kept between runs; null: a temp folder removed after the run (the suite's tiny run). */
  store_dir: string | null;
  /** Rows the export after the load aims at (it covers as many days as hold about this many orders, at most 31). */
  export_rows_target: number;
}

export function history_bench_settings(env: Record<string, string | undefined> = process.env): HistoryBenchSettings {
  const orders = Number(env.BENCH_HISTORY_ORDERS ?? 1_000_000);
  if (!Number.isInteger(orders) || orders < 100) throw new Error(`BENCH_HISTORY_ORDERS must be an integer ≥ 100, got "${env.BENCH_HISTORY_ORDERS}"`);
  return { orders, store_dir: join(repo_root, 'bench', 'results', `history-store-${orders}`), export_rows_target: 100_000 };
}

/** Mirrors bench/seed-store.ts: the seeded orders span this many days and go to these phones. */
const history_days = 60;
const history_recipients = 10_000;
function history_phone(i: number): string {
  return '080' + String(30_000_000 + ((i * 7_919) % history_recipients)).padStart(8, '0');
}

interface Seeded {
  api_key: string;
  orders: number;
  seed_ms: number;
  /** When the seeding ended: the orders span the history_days before it. */
  seeded_at_ms: number;
}

function run_seeder(dir: string, orders: number): Promise<string> {
  return new Promise((resolve, reject) => {
    // From the build, the built seeder; from the sources (the suite's tiny run under tap), the source
    // file through the same TypeScript loader this process runs with.
    const from_source = import.meta.url.endsWith('.ts');
    const script = from_source ? join(repo_root, 'bench', 'seed-store.ts') : join(repo_root, 'dist', 'bench', 'seed-store.js');
    // The young generation the scale bench gives the seeder (bench/scale.ts): it allocates records by the million.
    const child = spawn(process.execPath, [...(from_source ? process.execArgv : []), '--max-semi-space-size=64', script, dir, 'history', String(orders)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`seed-store exited with ${code}`))));
  });
}

async function ensure_store(dir: string, orders: number, log: (line: string) => void): Promise<Seeded & { seeded_now: boolean }> {
  const marker = join(dir, 'seeded.json');
  if (existsSync(marker)) return { ...JSON.parse(readFileSync(marker, 'utf8')) as Seeded, seeded_now: false };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`  seeding one account with ${orders} orders into ${dir}`);
  const out = await run_seeder(dir, orders);
  const summary = JSON.parse(out.trim().split('\n').pop()!) as { seed_ms: number; api_key: string };
  const seeded: Seeded = { api_key: summary.api_key, orders, seed_ms: summary.seed_ms, seeded_at_ms: Date.now() };
  writeFileSync(marker, JSON.stringify(seeded) + '\n', { mode: 0o600 });
  return { ...seeded, seeded_now: true };
}

function iso_date(ms: number): string {
  return new Date(ms + 3_600_000).toISOString().slice(0, 10);
}

/**
 * The filtered requests autocannon loops over: every combination the index answers, with and without
 * dates, on pages 1 to 3 (each through the index: the rest of the history is never read).
 */
function filtered_requests(seeded: Seeded, authorization: string): autocannon.Request[] {
  const day_ms = 86_400_000;
  const first_ms = seeded.seeded_at_ms - history_days * day_ms;
  const window = (from_day: number, days: number) => `from=${iso_date(first_ms + from_day * day_ms)}&to=${iso_date(first_ms + (from_day + days) * day_ms)}`;
  const queries = [
    `recipient=${history_phone(1)}`,
    `recipient=${history_phone(2)}&status=successful`,
    `recipient=${history_phone(6)}&service_type=data&status=successful`,
    'status=failed&page=3',
    'service_type=electricity&per_page=50',
    `service_type=data&status=successful&${window(20, 7)}`,
    `status=failed&${window(45, 10)}&page=2`,
    `recipient=${history_phone(4)}&${window(10, 30)}`,
    `${window(30, 1)}&per_page=100`,
    `from=${new Date(first_ms + 33 * day_ms).toISOString()}&to=${new Date(first_ms + 33 * day_ms + 3_600_000).toISOString()}&service_type=airtime`,
  ];
  let next = 0;
  return [{
    method: 'GET',
    path: '/v1/transactions',
    setupRequest: (request) => {
      request.path = `/v1/transactions?${queries[next]}`;
      next = next + 1 === queries.length ? 0 : next + 1;
      request.headers = { authorization };
      return request;
    },
  }];
}

/** Streams the export through without keeping it, counting rows; samples the server's memory meanwhile. */
async function measure_export(server: ServerProcess, seeded: Seeded, rows_target: number): Promise<string> {
  const operator = new OperatorClient(server.admin_url!, server.admin_token);
  const rss = async () => (await operator.metrics()).get('process_resident_memory_bytes') ?? 0;
  const per_day = seeded.orders / history_days;
  const days = Math.max(1, Math.min(31, Math.ceil(rows_target / per_day)));
  const to_ms = seeded.seeded_at_ms;
  const from_ms = to_ms - (days - 1) * 86_400_000;
  const before = await rss();
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await rss());
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const started = performance.now();
  const answer = await fetch(`${server.base_url}/v1/transactions/export?from=${iso_date(from_ms)}&to=${iso_date(to_ms)}`, { headers: { authorization: `Bearer ${seeded.api_key}` } });
  if (answer.status !== 200) throw new Error(`the export answered ${answer.status} ${await answer.text()}`);
  let rows = -1; // the header row
  let bytes = 0;
  for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) rows++;
  }
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  const mib = (n: number) => (n / 1_048_576).toFixed(0);
  return `export: ${rows} rows of ${days} days (${mib(bytes)} MiB) in ${seconds.toFixed(1)} s; server RSS ${mib(before)} MiB before, peak ${mib(peak)} MiB while streaming`;
}

export function history_filtered(settings: () => HistoryBenchSettings = history_bench_settings): Scenario {
  let seeded: (Seeded & { seeded_now: boolean }) | null = null;
  let temp_store: string | null = null;
  return {
    name: 'history-filtered',
    summary: 'GET /v1/transactions with combined filters and dates, one account holding BENCH_HISTORY_ORDERS (1,000,000) orders',
    target: 'billvend',
    compare_to: 'baseline-get',
    start: async (options) => {
      const chosen = settings();
      const dir = chosen.store_dir ?? (temp_store = mkdtempSync(join(tmpdir(), 'billvend-history-')));
      seeded = await ensure_store(dir, chosen.orders, (line) => process.stderr.write(line + '\n'));
      return start_server('billvend', { ...options, env: { ...(options.env ?? {}), DATA_DIR: dir } });
    },
    stop: async () => {
      if (temp_store !== null) rmSync(temp_store, { recursive: true, force: true });
      temp_store = null;
    },
    prepare: async (context: ScenarioContext) => {
      if (seeded!.seeded_now) context.log(`  seeded ${seeded!.orders} orders in ${(seeded!.seed_ms / 1000).toFixed(0)} s`);
      const requests = filtered_requests(seeded!, `Bearer ${seeded!.api_key}`);
      // Every query answers 200 before the load: a refused filter would measure the error path.
      const probe = await fetch(`${context.server.base_url}/v1/transactions?recipient=${history_phone(6)}&service_type=data&status=successful`, { headers: { authorization: `Bearer ${seeded!.api_key}` } });
      const body = await probe.json() as { data?: { pagination?: { total?: number } } };
      if (probe.status !== 200) throw new Error(`the filtered list answered ${probe.status} ${JSON.stringify(body)}`);
      context.log(`  one recipient's successful data orders: ${body.data?.pagination?.total} of ${seeded!.orders}`);
      return requests;
    },
    finish: async (context: ScenarioContext) => [
      `history: one account with ${seeded!.orders} orders over ${history_days} days; each filtered page reads its index range only`,
      await measure_export(context.server, seeded!, settings().export_rows_target),
    ],
  };
}
