// The noisy-neighbour scenario (docs/benchmarks.md "Noisy neighbour"): one tenant floods every costly
// route it can reach while another buys. The flood, signed in as its own account: PIN changes by
// password and by PIN (a password or PIN check and a new PIN hash each), sign-ins right and wrong,
// purchases with a wrong PIN, both dashboard CSV exports, the 30-day trend and bulk orders of 100
// items. The figure: the victim's purchase p99 under the flood against its quiet p99 in the same run
// (target ≤ 3×), both measured the same way, by a process of its own; and the server's longest
// event-loop stall under the flood (nodejs_eventloop_lag_max_seconds, perf_hooks.monitorEventLoopDelay)
// and the most scrypt runs it had at once (billvend_scrypt_running_peak). Everything speaks only to
// the server under test on loopback, and stops at its bounds.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { bench_pin, type Reseller } from './fixtures.js';

export interface NoisySettings {
  /** How long each victim phase (quiet, then under the flood) measures. */
  victim_ms: number;
  /** The victim's purchase loops (connections), each waiting for its answer before the next. */
  victim_connections: number;
  /** The flood's connections per kind of request (the PIN changes get twice this, each way). */
  flood_connections: number;
  /** The flood stops by itself after this long, whatever happens to the bench. */
  flood_duration_max_ms: number;
  /** Whether the flood places bulk orders of 100 items (each placed in one step of the event loop). */
  bulk: boolean;
}

/** The ratio of the victim's p99 under the flood to its quiet p99 that the scenario aims at. */
export const noisy_ratio_target = 3;
/** A flood connection refused (429) waits this long before its next request: the flood measures the server, not the bench process's busy loop. */
const pause_after_refusal_ms = 5;
/** The envelope's error code, without parsing the whole body. */
const error_code_in_body = /"code":"([^"]{1,100})"/;

export interface Attacker extends Reseller {
  email: string;
  password: string;
}

/**
 * The victim's purchases, in a process of their own as another tenant's client would be, so that the
 * flood's connections in the bench process do not delay its timings. Prints the latencies (ms) and
 * the answers by status as JSON.
 */
const victim_script = `
const [base, authorization, pin, duration_ms, loops, tag] = process.argv.slice(1);
const latencies = [];
const statuses = {};
const end = performance.now() + Number(duration_ms);
let n = 0;
async function loop() {
  while (performance.now() < end) {
    const sent = performance.now();
    const response = await fetch(base + '/v1/services/airtime', {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', 'x-idempotency-key': 'victim-' + tag + '-' + (++n) },
      body: JSON.stringify({ network: 'mtn', phone: '08011111111', amount: 100, pin }),
    });
    await response.text();
    latencies.push(performance.now() - sent);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  }
}
await Promise.all(Array.from({ length: Number(loops) }, loop));
process.stdout.write(JSON.stringify({ latencies, statuses }));
`;

export interface VictimFigures {
  latencies: number[];
  statuses: Record<string, number>;
}

export function victim_purchases(base_url: string, victim: Reseller, duration_ms: number, connections: number): Promise<VictimFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', victim_script, base_url, victim.authorization, bench_pin, String(duration_ms), String(connections), randomBytes(4).toString('hex')], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as VictimFigures) : reject(new Error(`the victim's purchase process exited with ${code}`))));
  });
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

interface Answer {
  status: number;
  body: string;
  set_cookie: string;
}

export class NoisyFlood {
  /** Answers by "kind status code", e.g. "pin-by-password 429 rate_limit.exceeded". */
  readonly answers = new Map<string, number>();
  sent = 0;
  failed = 0;
  private running = false;
  private loops: Promise<void>[] = [];
  private readonly agent: Agent;
  private readonly url: URL;
  private session: { cookie: string; csrf: string } | null = null;
  private started_ms = 0;
  private stopped_ms = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly items = JSON.stringify(Array.from({ length: 100 }, () => ({ service_type: 'airtime', network: 'mtn', phone: '08011111111', amount: 100 })));
  private n = 0;

  constructor(base_url: string, private readonly attacker: Attacker, private readonly settings: NoisySettings) {
    this.url = new URL(base_url);
    if (this.url.hostname !== '127.0.0.1' && this.url.hostname !== 'localhost') throw new Error(`the flood only runs against loopback, not ${this.url.hostname}`);
    this.agent = new Agent({ keepAlive: true, maxSockets: settings.flood_connections * 12 });
  }

  private send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
    return new Promise((resolve) => {
      const all: Record<string, string | number> = { ...headers };
      if (body !== undefined) {
        all['content-type'] = 'application/json';
        all['content-length'] = Buffer.byteLength(body);
      }
      const req = request(new URL(path, this.url), { method, agent: this.agent, headers: all }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), set_cookie: String(res.headers['set-cookie']?.[0] ?? '') }));
        res.on('error', () => resolve({ status: 0, body: '', set_cookie: '' }));
      });
      req.on('error', () => resolve({ status: 0, body: '', set_cookie: '' }));
      req.end(body);
    });
  }

  private count(kind: string, answer: Answer): void {
    this.sent++;
    if (answer.status === 0) this.failed++;
    const code = answer.status >= 400 ? ` ${error_code_in_body.exec(answer.body.slice(0, 300))?.[1] ?? ''}` : '';
    const key = `${kind} ${answer.status}${code}`;
    this.answers.set(key, (this.answers.get(key) ?? 0) + 1);
  }

  private sign_in(email: string, password: string): Promise<Answer> {
    return this.send('POST', '/dashboard/api/session', {}, JSON.stringify({ email, password }));
  }

  private dashboard(method: string, path: string, body?: string): Promise<Answer> {
    const headers: Record<string, string> = { cookie: this.session?.cookie ?? '', 'x-csrf-token': this.session?.csrf ?? '' };
    return this.send(method, path, headers, body);
  }

  private purchase(path: string, body: string): Promise<Answer> {
    return this.send('POST', path, { authorization: this.attacker.authorization, 'x-idempotency-key': `flood-${process.pid}-${++this.n}` }, body);
  }

  /** Signs the attacker in, then starts every kind of flood request on its connections. */
  async start(): Promise<void> {
    const signed = await this.sign_in(this.attacker.email, this.attacker.password);
    if (signed.status !== 201) throw new Error(`the attacker's sign-in answered ${signed.status} ${signed.body.slice(0, 200)}`);
    this.session = { cookie: signed.set_cookie.split(';')[0], csrf: (JSON.parse(signed.body) as { data: { csrf_token: string } }).data.csrf_token };
    this.running = true;
    this.started_ms = Date.now();
    this.timer = setTimeout(() => void this.stop(), this.settings.flood_duration_max_ms);
    this.timer.unref();
    const c = this.settings.flood_connections;
    const pin_body = (way: 'password' | 'current_pin') => JSON.stringify({ new_pin: bench_pin, [way]: way === 'password' ? this.attacker.password : bench_pin });
    this.repeat('pin-by-password', 2 * c, () => this.dashboard('POST', '/dashboard/api/pin', pin_body('password')));
    this.repeat('pin-by-pin', 2 * c, () => this.dashboard('POST', '/dashboard/api/pin', pin_body('current_pin')));
    this.repeat('sign-in', c, () => this.sign_in(this.attacker.email, this.attacker.password));
    this.repeat('wrong-sign-in', c, () => this.sign_in(`nobody-${randomBytes(6).toString('hex')}@example.invalid`, 'not the password'));
    this.repeat('wrong-pin-purchase', c, () => this.purchase('/v1/services/airtime', JSON.stringify({ network: 'mtn', phone: '08011111111', amount: 100, pin: '99999' })));
    this.repeat('orders-export', 1, () => this.dashboard('GET', '/dashboard/api/export/orders?environment=test'));
    this.repeat('wallet-export', 1, () => this.dashboard('GET', '/dashboard/api/export/wallet?environment=test'));
    this.repeat('trend', 1, () => this.dashboard('GET', '/dashboard/api/trend?environment=test'));
    if (this.settings.bulk) this.repeat('bulk', 1, () => this.purchase('/v1/services/bulk', `{"pin":"${bench_pin}","items":${this.items}}`));
  }

  private repeat(kind: string, connections: number, send: () => Promise<Answer>): void {
    for (let i = 0; i < connections; i++) {
      this.loops.push((async () => {
        while (this.running) {
          const answer = await send();
          this.count(kind, answer);
          if (answer.status === 429 || answer.status === 0) await new Promise((resolve) => setTimeout(resolve, pause_after_refusal_ms));
        }
      })());
    }
  }

  /** Stops sending and waits for the answers still due (the flood also stops itself after its duration). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.stopped_ms = Date.now();
    if (this.timer !== null) clearTimeout(this.timer);
    await Promise.all(this.loops);
    this.agent.destroy();
  }

  /** One line for the report: the answers by kind, status and code. */
  summary(): string {
    const seconds = ((this.stopped_ms || Date.now()) - this.started_ms) / 1000;
    const kinds = [...this.answers].sort((a, b) => a[0].localeCompare(b[0])).map(([kind, n]) => `${n} × ${kind.trim()}`).join(', ');
    return `flood (${this.settings.flood_connections} connections per kind, PIN changes ${2 * this.settings.flood_connections} each way${this.settings.bulk ? '' : ', no bulk orders'}): ${this.sent} answers in ${seconds.toFixed(1)} s: ${kinds}${this.failed > 0 ? `; ${this.failed} connection errors` : ''}`;
  }
}
