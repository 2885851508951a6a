// Starts the server under test as a child process, so that it competes for the same cores as the
// load generator, exactly as it would on a single box: either the production build of billvend
// (`node dist/cli.js serve`) on a fresh temp store, or the bare uWebSockets.js baseline.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/** dist/bench/ → the repository (bench/ when a test imports this file from the sources). */
export const repo_root = resolve(import.meta.dirname, basename(resolve(import.meta.dirname, '..')) === 'dist' ? '../..' : '..');
const cli_path = join(repo_root, 'dist', 'cli.js');
/**
 * How to run one of the bench's own scripts as a child process (the bare server, the store seeder):
 * the build's, or from the sources when the test suite imports this file (test/bench-scenarios.test.ts),
 * through the TypeScript loader the test process itself runs under (tap's --import of
 * @tapjs/typescript, compiling without type checks as tap does), as the suite does not compile bench/.
 */
export function bench_script(name: string): { script: string; node_flags: string[]; env: Record<string, string> } {
  const from_sources = import.meta.filename.endsWith('.ts');
  return from_sources
    ? {
      script: join(import.meta.dirname, `${name}.ts`),
      node_flags: process.execArgv.filter((arg) => arg.startsWith('--import=') && arg.includes('typescript')),
      env: { TS_NODE_TRANSPILE_ONLY: '1' },
    }
    : { script: join(import.meta.dirname, `${name}.js`), node_flags: [], env: {} };
}
const baseline = bench_script('baseline-server');

/** Recovery of a store with 1,000 accounts takes well under a second; 30 s means something is wrong. */
const startup_timeout_ms = 30_000;
/** billvend promises to exit within 10 s of SIGTERM (README); past this it is killed. */
const stop_timeout_ms = 15_000;
const readiness_poll_ms = 50;
/** How much of a failed server's log is shown. */
const log_tail_bytes_max = 4096;

export type Target = 'billvend' | 'baseline';

export interface StartOptions {
  /** Write a V8 CPU profile of the server to this file (node --cpu-prof); null: no profiler. */
  cpu_profile_path: string | null;
  /** More environment for billvend (a scenario's settings, e.g. the webhook receiver's CA). */
  env?: Record<string, string>;
  /** The admin path that answers 200 once the server is up: /readyz, or /healthz for a cluster standby. */
  ready_path?: string;
  /**
   * A store seeded beforehand (bench/scale.ts) instead of a fresh temp store; the caller owns it and
   * removes it, so stop() leaves it in place.
   */
  data_dir?: string;
  /** Give up on a start after this long: default startup_timeout_ms; a big seeded store takes longer. */
  startup_timeout_ms?: number;
}

/** Every child this process started and has not stopped yet, for the SIGINT clean-up. */
const live = new Set<ServerProcess>();

export class ServerProcess {
  /** Public API (or the baseline) base URL. */
  base_url = '';
  /** Operator API base URL; null for the baseline. */
  admin_url: string | null = null;
  readonly admin_token = randomBytes(24).toString('base64url');
  private readonly temp_dir = mkdtempSync(join(tmpdir(), 'billvend-bench-'));
  private readonly log_path = join(this.temp_dir, 'server.log');
  private child: ChildProcess | null = null;
  /** "code 0", "signal SIGKILL"; resolves when the child has exited. */
  private exit_status: Promise<string> = Promise.resolve('not started');
  private exited = false;

  constructor(readonly target: Target, private readonly options: StartOptions) {}

  async start(): Promise<void> {
    live.add(this);
    const { script, args, env, readiness_url } = await this.plan();
    // BENCH_NODE_FLAGS: extra V8/Node flags for billvend only, to try a setting without a rebuild.
    const node_flags: string[] = this.target === 'billvend' ? (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '') : [...baseline.node_flags];
    if (this.options.cpu_profile_path !== null) {
      const profile = resolve(this.options.cpu_profile_path);
      mkdirSync(dirname(profile), { recursive: true });
      node_flags.push('--cpu-prof', `--cpu-prof-dir=${dirname(profile)}`, `--cpu-prof-name=${basename(profile)}`);
    }

    // The server's output goes straight to a file: reading it through a pipe would cost the load
    // generator CPU, and an unread pipe would eventually block the server.
    const log_fd = openSync(this.log_path, 'a');
    const child = spawn(process.execPath, [...node_flags, script, ...args], {
      cwd: repo_root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', log_fd, log_fd],
    });
    closeSync(log_fd);
    this.child = child;
    this.exit_status = new Promise((done) => child.on('exit', (code, signal) => {
      this.exited = true;
      done(signal === null ? `code ${code}` : `signal ${signal}`);
    }));

    const timeout_ms = this.options.startup_timeout_ms ?? startup_timeout_ms;
    const deadline_ms = Date.now() + timeout_ms;
    for (;;) {
      if (this.exited) throw new Error(`${this.target} exited (${await this.exit_status}) while starting:\n${this.log_tail()}`);
      if (Date.now() > deadline_ms) throw new Error(`${this.target} was not ready after ${timeout_ms} ms:\n${this.log_tail()}`);
      try {
        const response = await fetch(readiness_url);
        await response.arrayBuffer();
        if (response.status === 200) return;
      } catch {
        // Not listening yet.
      }
      await sleep(readiness_poll_ms);
    }
  }

  /** What to run and how to tell that it is up; sets base_url and admin_url. */
  private async plan(): Promise<{ script: string; args: string[]; env: Record<string, string>; readiness_url: string }> {
    const port = await free_port();
    this.base_url = `http://127.0.0.1:${port}`;
    if (this.target === 'baseline') {
      return { script: baseline.script, args: [], env: { HOST: '127.0.0.1', PORT: String(port), ...baseline.env, ...(this.options.env ?? {}) }, readiness_url: `${this.base_url}/healthz` };
    }
    // The ports are chosen here because LOG_LEVEL=warn hides the "listening" line that reports them.
    const admin_port = await free_port();
    this.admin_url = `http://127.0.0.1:${admin_port}`;
    return {
      script: cli_path,
      args: ['serve'],
      env: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: String(port),
        ADMIN_PORT: String(admin_port),
        DATA_DIR: this.options.data_dir ?? join(this.temp_dir, 'store'),
        ADMIN_TOKEN: this.admin_token,
        DEMO: '0',
        ...(this.options.env ?? {}),
      },
      readiness_url: `${this.admin_url}${this.options.ready_path ?? '/readyz'}`,
    };
  }

  /**
   * SIGTERM, wait for the exit (billvend drains and flushes; the profiler writes its file at exit),
   * SIGKILL past stop_timeout_ms; then the temp store goes. Returns how the child exited.
   */
  async stop(): Promise<string> {
    const child = this.child;
    let status = 'not started';
    if (child !== null) {
      if (!this.exited) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), stop_timeout_ms);
      status = await this.exit_status;
      clearTimeout(timer);
    }
    this.child = null;
    if (process.env.BENCH_KEEP_LOG) copyFileSync(this.log_path, process.env.BENCH_KEEP_LOG);
    rmSync(this.temp_dir, { recursive: true, force: true });
    live.delete(this);
    return status;
  }

  /** kill -9 (the cluster bench's failover); the store stays until stop(). */
  async kill(): Promise<void> {
    if (this.child !== null && !this.exited) this.child.kill('SIGKILL');
    await this.exit_status;
  }

  /** For an interrupted run: no draining, just make sure nothing is left behind. */
  kill_now(): void {
    if (this.child !== null && !this.exited) this.child.kill('SIGKILL');
    rmSync(this.temp_dir, { recursive: true, force: true });
    live.delete(this);
  }

  /**
   * CPU time (user + system, all threads) the server has used so far, from /proc/<pid>/stat; null
   * where there is no /proc. Linux counts it in USER_HZ ticks, 100 per second on every mainstream
   * architecture.
   */
  cpu_ms(): number | null {
    return this.stat_cpu_ms('stat');
  }

  /**
   * CPU time of the server's main thread alone (the event loop: the JavaScript a V8 profile shows), from
   * /proc/<pid>/task/<pid>/stat. The rest of cpu_ms() is other threads': lmdb-js's commits, V8's GC
   * helpers, the webhook signers (docs/design.md "The journal's layout, measured").
   */
  main_thread_cpu_ms(): number | null {
    const pid = this.child?.pid;
    return pid === undefined ? null : this.stat_cpu_ms(`task/${pid}/stat`);
  }

  private stat_cpu_ms(file: string): number | null {
    const pid = this.child?.pid;
    if (pid === undefined || this.exited) return null;
    try {
      const stat = readFileSync(`/proc/${pid}/${file}`, 'utf8');
      // Fields after the command name, which is in parentheses and may contain spaces.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return null;
    }
  }

  /**
   * Resident memory of the server now (VmRSS of /proc/<pid>/status, all threads), in bytes; null
   * where there is no /proc.
   */
  rss_bytes(): number | null {
    const pid = this.child?.pid;
    if (pid === undefined || this.exited) return null;
    try {
      const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return match === null ? null : Number(match[1]) * 1024;
    } catch {
      return null;
    }
  }

  /** Whether the server died during the run (a crash is a finding, not noise). */
  get has_exited(): boolean {
    return this.exited;
  }

  log_tail(): string {
    if (!existsSync(this.log_path)) return '(no output)';
    const text = readFileSync(this.log_path, 'utf8');
    return text.length > log_tail_bytes_max ? '…' + text.slice(-log_tail_bytes_max) : text || '(no output)';
  }
}

export async function start_server(target: Target, options: StartOptions): Promise<ServerProcess> {
  const server = new ServerProcess(target, options);
  try {
    await server.start();
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/** Kills every child this process started (each by its own handle) and removes their temp stores. */
export function kill_started_servers(): void {
  for (const server of [...live]) server.kill_now();
}

/** A port that was free a moment ago. The child binds it right after; a clash fails its start loudly. */
function free_port(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}
