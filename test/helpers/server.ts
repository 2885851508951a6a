// Starts the real server (node dist/cli.js serve) as a child process on random ports with a temp LMDB
// store, and talks to it over real sockets. No part of billvend is mocked.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { open, type Database, type RootDatabase } from 'lmdb';
import { reference_codec, type ReferenceCodec } from '../../src/services/references.js';
import { SecretBox } from '../../src/lib/secrets.js';

export const repo_root = resolve(import.meta.dirname, '..', '..');
export const cli_path = join(repo_root, 'dist', 'cli.js');

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  raw_body?: string | Buffer;
  headers?: Record<string, string>;
  idempotency_key?: string;
}

export interface ServerOptions {
  data_dir?: string;
  env?: Record<string, string>;
  /** Keep the data dir after stop (crash tests restart on it). */
  keep_data?: boolean;
}

/** How long a test waits for a server to say it listens. */
const server_start_ms_max = 45_000;

export class TestServer {
  port = 0;
  admin_port = 0;
  readonly admin_token = randomBytes(24).toString('base64url');
  readonly logs: string[] = [];
  readonly stderr: string[] = [];
  private child: ChildProcess | null = null;
  private exited: Promise<number | null> = Promise.resolve(null);
  /** The address the server listens on (HOST and ADMIN_HOST); another than loopback in a network namespace. */
  host = '127.0.0.1';
  /** A command the server is started under (`ip netns exec NAME`, test/helpers/netns.ts); none by default. */
  launcher: string[] = [];

  constructor(readonly data_dir: string, private readonly env: Record<string, string>) {}

  get base(): string {
    return `http://${this.host}:${this.port}`;
  }

  get admin_base(): string {
    return `http://${this.host}:${this.admin_port}`;
  }

  async start(extra_env: Record<string, string> = {}): Promise<void> {
    const command = [...this.launcher, process.execPath, cli_path, 'serve'];
    const child = spawn(command[0], command.slice(1), {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        PORT: '0',
        ADMIN_PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: this.data_dir,
        ADMIN_TOKEN: this.admin_token,
        DEMO: '0',
        LOG_LEVEL: 'info',
        // Tests sign in often and in parallel from one address; the sign-in bounds are tested on their own,
        // with their own settings (test/hardening-sign-in.test.ts).
        SIGN_IN_ADDRESS_PER_MINUTE_MAX: '100000',
        SIGN_IN_GLOBAL_PER_SECOND_MAX: '100000',
        SIGN_IN_HASH_WAITING_MAX: '10000',
        // Likewise the dashboard's rate limit (test/dashboard-rate-limit.test.ts, test/hardening-noisy-neighbour.test.ts).
        DASHBOARD_SESSION_BURST_MAX: '100000',
        DASHBOARD_ACCOUNT_BURST_MAX: '100000',
        DASHBOARD_SESSION_PER_MINUTE_MAX: '1000000',
        DASHBOARD_ACCOUNT_PER_MINUTE_MAX: '1000000',
        ...this.env,
        ...extra_env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    child.stderr!.on('data', (chunk) => this.stderr.push(String(chunk)));
    const lines = createInterface({ input: child.stdout! });
    const started = new Promise<void>((resolve, reject) => {
      // A start-up takes 1.5 s of CPU; on a 2-core machine at load 15 that was 5-6 s of wall time, and
      // 20 s was outlived now and then (test/crash/README.md). A server that is stuck still fails here.
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${this.stderr.join('')}\n${this.logs.slice(-20).join('\n')}`)), server_start_ms_max);
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited with ${code} while starting:\n${this.stderr.join('')}\n${this.logs.slice(-20).join('\n')}`));
      });
      lines.on('line', (line) => {
        this.logs.push(line);
        if (line.includes('"msg":"listening"')) {
          const parsed = JSON.parse(line) as { port: number; admin_port: number };
          this.port = parsed.port;
          this.admin_port = parsed.admin_port;
          clearTimeout(timer);
          resolve();
        }
      });
    });
    try {
      await started;
    } catch (error) {
      // A server that did not come up must not outlive the test that started it.
      child.kill('SIGKILL');
      this.child = null;
      throw error;
    }
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** SIGTERM and wait; resolves with the exit code. */
  async stop(): Promise<number | null> {
    if (this.child === null) return null;
    this.child.kill('SIGTERM');
    const code = await this.exited;
    this.child = null;
    return code;
  }

  /** Sends a signal: SIGSTOP and SIGCONT pause and resume the process (the cluster's split-brain tests). */
  signal(signal: NodeJS.Signals): void {
    this.child?.kill(signal);
  }

  /** Resolves with the exit code once the process ends by itself (a deposed cluster node exits 75). */
  async exit_code(): Promise<number | null> {
    const code = await this.exited;
    this.child = null;
    return code;
  }

  /** kill -9: no chance to flush anything. */
  async kill(): Promise<void> {
    if (this.child === null) return;
    this.child.kill('SIGKILL');
    await this.exited;
    this.child = null;
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}, base = this.base): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    if (options.idempotency_key !== undefined) headers['x-idempotency-key'] = options.idempotency_key;
    let body: string | Buffer | undefined;
    if (options.raw_body !== undefined) body = options.raw_body;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(base + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  api<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.request<T>(method, path, options);
  }

  admin<T = any>(method: string, path: string, body?: unknown, token: string | null = this.admin_token): Promise<ApiResponse<T>> {
    return this.request<T>(method, path, { body, key: null, headers: token === null ? {} : { authorization: `Bearer ${token}` } }, this.admin_base);
  }

  // ---- Fixtures through the operator API ----

  private accounts_made = 0;

  async create_account(overrides: Record<string, unknown> = {}): Promise<{ id: number; email: string; password: string; pin: string }> {
    const n = ++this.accounts_made;
    const body = {
      name: `Reseller ${n}`,
      email: `reseller${n}-${randomBytes(3).toString('hex')}@example.ng`,
      phone: '08012345678',
      password: 'correct horse battery',
      kyc_level: 2,
      pin: '12345',
      ...overrides,
    };
    const response = await this.admin('POST', '/admin/accounts', body);
    if (response.status !== 201) throw new Error(`create_account: ${response.status} ${response.text}`);
    return { id: response.body.data.id, email: body.email as string, password: body.password as string, pin: body.pin as string };
  }

  async create_key(account_id: number, overrides: Record<string, unknown> = {}): Promise<{ id: number; api_key: string }> {
    const response = await this.admin('POST', `/admin/accounts/${account_id}/keys`, { name: 'test key', environment: 'test', ...overrides });
    if (response.status !== 201) throw new Error(`create_key: ${response.status} ${response.text}`);
    return { id: response.body.data.id, api_key: response.body.data.api_key };
  }

  async credit(account_id: number, environment: 'live' | 'test', amount: number, reference = `FUND-${randomBytes(6).toString('hex')}`): Promise<ApiResponse> {
    const response = await this.admin('POST', `/admin/accounts/${account_id}/wallet/credit`, { environment, amount, reference });
    if (response.status !== 201) throw new Error(`credit: ${response.status} ${response.text}`);
    return response;
  }

  /** An account with a funded test wallet and a full-access test key. */
  async reseller(funding_ngn = 100_000, account: Record<string, unknown> = {}, key: Record<string, unknown> = {}) {
    const created = await this.create_account(account);
    const made = await this.create_key(created.id, key);
    if (funding_ngn > 0) await this.credit(created.id, 'test', funding_ngn);
    return { ...created, key: made.api_key, key_id: made.id };
  }
}

/** The reference codec of a store whose master key is DATA_DIR/master.key (tests never set MASTER_KEY). */
export function store_reference_codec(data_dir: string): ReferenceCodec {
  return reference_codec(new SecretBox(Buffer.from(readFileSync(join(data_dir, 'master.key'), 'utf8').trim(), 'base64')));
}

/** A stopped server's store opened directly with lmdb, as billvend opens it (shared msgpack structures). */
export function open_store(data_dir: string, options: { readOnly?: boolean } = {}): { root: RootDatabase; db(name: string): Database<any, any> } {
  const root = open({ path: data_dir, maxDbs: 32, noSubdir: false, ...options });
  return { root, db: (name) => root.openDB({ name, sharedStructuresKey: Symbol.for('structures') }) };
}

export function temp_dir(prefix = 'billvend-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Starts a server on a fresh temp store; the tap test tears it down and removes the store. */
export async function start_server(t: { teardown(fn: () => unknown): void }, options: ServerOptions = {}): Promise<TestServer> {
  const data_dir = options.data_dir ?? temp_dir();
  const server = new TestServer(data_dir, options.env ?? {});
  await server.start();
  t.teardown(async () => {
    await server.kill();
    if (!options.keep_data) rmSync(data_dir, { recursive: true, force: true });
  });
  return server;
}
