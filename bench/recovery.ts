// The `recovery` scenario: how long billvend takes to restart and be ready on a big store, and how
// much memory it holds then. The store (100,000 accounts and 1,000,000 orders by default) is seeded
// once through the real engine and kept under bench/results/ for later runs.
import { spawn } from 'node:child_process';
import { existsSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { repo_root } from './server-process.js';
import { OperatorClient } from './fixtures.js';

export interface RecoveryResult {
  accounts: number;
  orders: number;
  seed_ms: number | null;
  /** From spawning the process until /readyz answers 200. */
  ready_ms: number;
  /** What the server's own log says recovery took (loading and checking every account). */
  recovered_ms: number | null;
  rss_bytes: number;
  heap_used_bytes: number;
  store_bytes: number;
}

const ready_timeout_ms = 120_000;

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args[0]} exited with ${code}`))));
  });
}

async function ensure_store(dir: string, accounts: number, orders_per_account: number, log: (line: string) => void): Promise<number | null> {
  const marker = join(dir, 'seeded.json');
  if (existsSync(marker)) return null;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`  seeding ${accounts} accounts × ${orders_per_account} orders into ${dir} (once; kept for later runs)`);
  const out = await run(process.execPath, [join(repo_root, 'dist', 'bench', 'seed-store.js'), dir, String(accounts), String(accounts * orders_per_account)]);
  const summary = JSON.parse(out.trim().split('\n').pop()!) as { seed_ms: number };
  writeFileSync(marker, JSON.stringify({ accounts, orders_per_account, ...summary }) + '\n');
  return summary.seed_ms;
}

function directory_bytes(dir: string): number {
  return existsSync(join(dir, 'data.mdb')) ? statSync(join(dir, 'data.mdb')).size : 0;
}

export async function run_recovery(accounts: number, orders_per_account: number, log: (line: string) => void): Promise<RecoveryResult> {
  const dir = join(repo_root, 'bench', 'results', `recovery-store-${accounts}x${orders_per_account}`);
  const seed_ms = await ensure_store(dir, accounts, orders_per_account, log);
  const token = randomBytes(24).toString('base64url');
  const started = performance.now();
  const child = spawn(process.execPath, [join(repo_root, 'dist', 'cli.js'), 'serve'], {
    env: { ...process.env, DATA_DIR: dir, PORT: '0', ADMIN_PORT: '0', HOST: '127.0.0.1', ADMIN_TOKEN: token, DEMO: '0', NODE_ENV: 'production', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  try {
    let admin_port = 0;
    while (admin_port === 0) {
      if (performance.now() - started > ready_timeout_ms) throw new Error('the server did not start');
      const match = /"admin_port":(\d+)/.exec(output);
      if (match) admin_port = Number(match[1]);
      else await new Promise((r) => setTimeout(r, 10));
    }
    // The listening line is written once recovery is done; /readyz confirms it from outside.
    for (;;) {
      const response = await fetch(`http://127.0.0.1:${admin_port}/readyz`).catch(() => null);
      if (response?.status === 200) break;
      if (performance.now() - started > ready_timeout_ms) throw new Error('the server never became ready');
      await new Promise((r) => setTimeout(r, 10));
    }
    const ready_ms = performance.now() - started;
    const metrics = await new OperatorClient(`http://127.0.0.1:${admin_port}`, token).metrics();
    const gauge = (name: string) => metrics.get(name) ?? 0;
    const recovered = /"duration_ms":(\d+),"msg":"recovered"/.exec(output);
    return {
      accounts,
      orders: accounts * orders_per_account,
      seed_ms,
      ready_ms,
      recovered_ms: recovered ? Number(recovered[1]) : null,
      rss_bytes: gauge('process_resident_memory_bytes'),
      heap_used_bytes: gauge('nodejs_heap_size_used_bytes'),
      store_bytes: directory_bytes(dir),
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
  }
}
