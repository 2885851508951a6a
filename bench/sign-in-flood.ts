// A flood of dashboard sign-ins with made-up emails, as an attacker would send it to make the server
// burn scrypt (~40 ms of a core each), run beside a purchase load to show what it costs purchases.
// It is bounded in count and in time and speaks only to the server under test on loopback. Each
// sign-in claims a different client address through X-Forwarded-For (the server must trust the
// loopback proxy, TRUSTED_PROXIES=127.0.0.1), as a botnet's would, so the per-address limit does not
// stop it: what holds it is the overall sign-in rate and the bounded scrypt lane.
import { Agent, request } from 'node:http';

export interface FloodSettings {
  /** Sign-ins started per second; 0: unpaced, every connection sends its next as soon as answered. */
  rate_per_s: number;
  /** Connections, and so sign-ins in flight at most. */
  connections: number;
  /** Distinct client addresses claimed, in turn (1: all from one address). */
  addresses: number;
  /** The flood stops by itself after this many sign-ins or this long, whichever comes first. */
  requests_max: number;
  duration_max_ms: number;
}

/** The flood's pacing tick: sign-ins due since the last tick are started together. */
const tick_ms = 10;
/** The envelope's error code, without parsing the whole body. */
const error_code_in_body = /"code":"([^"]{1,100})"/;

/** The n-th address of 198.18.0.0/15, the range set aside for benchmarks (RFC 2544). */
function bench_address(n: number): string {
  return `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`;
}

export class SignInFlood {
  /** Answers by "status code", e.g. { "401 session.invalid_credentials": 120, "429 rate_limit.exceeded": 880 }. */
  readonly answers = new Map<string, number>();
  sent = 0;
  /** Paced only: sign-ins due so far (sent or skipped), and those skipped because every connection waited. */
  private slots = 0;
  skipped = 0;
  failed = 0;
  private in_flight = 0;
  private timer: NodeJS.Timeout | null = null;
  private started_ms = 0;
  private stopped_ms = 0;
  private readonly agent: Agent;
  private readonly url: URL;
  private drained: (() => void) | null = null;
  private stopping: Promise<void> | null = null;
  private readonly tag = Math.random().toString(36).slice(2, 8);

  constructor(base_url: string, private readonly settings: FloodSettings) {
    this.url = new URL('/dashboard/api/session', base_url);
    if (this.url.hostname !== '127.0.0.1' && this.url.hostname !== 'localhost') {
      throw new Error(`the sign-in flood only runs against loopback, not ${this.url.hostname}`);
    }
    this.agent = new Agent({ keepAlive: true, maxSockets: settings.connections });
  }

  start(): void {
    this.started_ms = Date.now();
    this.timer = setInterval(() => this.tick(), tick_ms);
    // A bench that fails before it stops the flood still exits: the flood stops itself at its bounds.
    this.timer.unref();
  }

  private tick(): void {
    const elapsed_ms = Date.now() - this.started_ms;
    if (elapsed_ms >= this.settings.duration_max_ms || this.sent >= this.settings.requests_max) {
      void this.stop();
      return;
    }
    if (this.settings.rate_per_s === 0) {
      while (this.in_flight < this.settings.connections && this.sent < this.settings.requests_max) this.send();
      return;
    }
    // A sign-in due while every connection waits is skipped, not sent later in a burst: a paced
    // attacker's rate is what it is, and the summary says how many were skipped.
    const due = Math.floor((elapsed_ms * this.settings.rate_per_s) / 1000) - this.slots;
    for (let i = 0; i < due; i++) {
      this.slots++;
      if (this.in_flight < this.settings.connections && this.sent < this.settings.requests_max) this.send();
      else this.skipped++;
    }
  }

  private send(): void {
    const n = this.sent++;
    this.in_flight++;
    const body = JSON.stringify({ email: `flood-${this.tag}-${n}@example.invalid`, password: 'not the password' });
    const req = request(this.url, {
      method: 'POST',
      agent: this.agent,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'x-forwarded-for': bench_address(n % this.settings.addresses),
      },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const code = error_code_in_body.exec(Buffer.concat(chunks).toString('utf8'))?.[1] ?? '(no code)';
        const kind = `${res.statusCode} ${code}`;
        this.answers.set(kind, (this.answers.get(kind) ?? 0) + 1);
        this.done();
      });
      res.on('error', () => this.done(true));
    });
    req.on('error', () => this.done(true));
    req.end(body);
  }

  private done(failed = false): void {
    if (failed) this.failed++;
    this.in_flight--;
    if (this.in_flight === 0 && this.timer === null) this.drained?.();
    if (this.timer !== null && this.settings.rate_per_s === 0 && this.in_flight < this.settings.connections && this.sent < this.settings.requests_max) this.send();
  }

  /** Stops sending and waits for the answers still due (the flood also stops itself at its bounds). */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.timer !== null) clearInterval(this.timer);
      this.timer = null;
      this.stopped_ms = Date.now();
      if (this.in_flight > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      this.agent.destroy();
    })();
    return this.stopping;
  }

  count(status: number, code?: string): number {
    let total = 0;
    for (const [kind, n] of this.answers) {
      const [s, c] = kind.split(' ');
      if (Number(s) === status && (code === undefined || c === code)) total += n;
    }
    return total;
  }

  /** One line for the report. */
  summary(): string {
    const seconds = ((this.stopped_ms || Date.now()) - this.started_ms) / 1000;
    const kinds = [...this.answers].sort((a, b) => b[1] - a[1]).map(([kind, n]) => `${n} × ${kind}`).join(', ');
    const pace = this.settings.rate_per_s === 0 ? `unpaced on ${this.settings.connections} connections` : `${this.settings.rate_per_s}/s on up to ${this.settings.connections} connections`;
    return `sign-in flood (${pace}, ${this.settings.addresses} addresses): ${this.sent} sent in ${seconds.toFixed(1)} s` +
      `${this.skipped > 0 ? ` (${this.skipped} more due while every connection waited)` : ''}; ${kinds || 'no answers'}` +
      `${this.failed > 0 ? `; ${this.failed} connection errors` : ''}`;
  }
}
