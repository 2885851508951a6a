// A fake Flutterwave Bills v3 upstream, the shape src/services/upstreams/flutterwave.ts speaks, over real
// HTTP on 127.0.0.1 (docs/style.md "Tests": a fake stands only for what lives outside, and speaks HTTP):
//   POST /v3/bills                     {country, customer, amount, recurrence, type, reference}
//   GET  /v3/bills/{reference}         the bill's status
//   GET  /v3/bill-items/{item}/validate?code=…&customer=…
// with Authorization: Bearer <secret key>. Every answer is a recorded documented answer
// (test/fixtures/upstreams/flutterwave/, one file per answer with its source, docs/upstreams.md) with
// this request's values filled in. As the real one: a create answers "Bill payment successful" without a
// status, and only the bill's status says whether it was delivered. It records every request, so tests
// can check that a reference was paid once, and can be told per customer (phone +234…, meter,
// smartcard) or for everything how to behave.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { fixture } from './upstream-fixtures.js';

/**
 * How POST /v3/bills behaves, and what a later status fetch finds:
 * - deliver: "Bill payment successful" with data.status successful.
 * - fail: HTTP 400 {status: "error"}: refused before processing; a status fetch finds no bill.
 * - slow: the answer takes `slow_ms` (past the adapter's timeout); the bill is delivered meanwhile.
 * - error_500: HTTP 500, but the bill was delivered: a status fetch finds it successful.
 * - processing: data.status pending for `pending_fetches` status fetches, then successful.
 * - lost: HTTP 500 and the bill was never taken: a status fetch answers 404.
 * - no_status: taken and delivered, but every status fetch answers the documented sample without a status.
 * - timeout: the create answers the documented 503 after `timeout_ms`, and the bill was taken (delivered).
 */
export type FlutterwaveMode = 'deliver' | 'fail' | 'slow' | 'error_500' | 'processing' | 'lost' | 'no_status' | 'timeout';

export interface FlutterwaveRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  at_ms: number;
}

interface Bill {
  reference: string;
  customer: string;
  type: string;
  amount: number;
  status: 'successful' | 'pending';
  flw_ref: string;
  pending_left: number;
  no_status: boolean;
}

export const flutterwave_secret = 'FLWSECK_TEST-fake-secret-X';
export const flutterwave_customer = 'Chinedu Eze';

/** +2348061230001 for 08061230001: the fake keys customers as Flutterwave is sent them. */
export function flw_phone(phone: string): string {
  return /^0\d{10}$/.test(phone) ? `+234${phone.slice(1)}` : phone;
}

export class FakeFlutterwave {
  port = 0;
  readonly requests: FlutterwaveRequest[] = [];
  readonly bills = new Map<string, Bill>();
  default_mode: FlutterwaveMode = 'deliver';
  slow_ms = 700;
  /** How many status fetches of a `processing` bill answer pending (the adapter's own verify after create counts). */
  pending_fetches = 1;
  /** An HTTP status every validation answers with the documented error envelope (401: our key refused), or null. */
  validate_status: number | null = null;
  /** How long Flutterwave waits before its own 503 (28 s in its documentation; shorter in tests). */
  timeout_ms = 28_000;
  private readonly modes = new Map<string, FlutterwaveMode>();
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  get base_url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** This upstream's entry in UPSTREAMS. */
  upstream(name = 'flw', timeout_ms = 1000): Record<string, unknown> {
    return { name, kind: 'flutterwave', base_url: this.base_url, secret_key: flutterwave_secret, timeout_ms };
  }

  /** Behaviour for one customer (a phone as billvend gets it, 0…, or a meter or smartcard number). */
  set_mode(customer: string, mode: FlutterwaveMode): void {
    this.modes.set(flw_phone(customer), mode);
  }

  /** POST /v3/bills requests for a customer (a phone as billvend gets it), in arrival order. */
  pays_for(customer: string): FlutterwaveRequest[] {
    const wanted = flw_phone(customer);
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/v3/bills' && r.body?.customer === wanted);
  }

  status_fetches(reference: string): FlutterwaveRequest[] {
    return this.requests.filter((r) => r.method === 'GET' && r.path === `/v3/bills/${reference}`);
  }

  /** References paid more than once: must always be empty. */
  paid_twice(): string[] {
    const counts = new Map<string, number>();
    for (const r of this.requests) if (r.method === 'POST' && r.path === '/v3/bills') counts.set(r.body?.reference, (counts.get(r.body?.reference) ?? 0) + 1);
    return [...counts].filter(([, n]) => n > 1).map(([reference]) => reference);
  }

  async start(port = 0): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        let body: any;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          body = undefined;
        }
        const url = new URL(request.url ?? '/', 'http://fake');
        this.requests.push({ method: request.method ?? '', path: url.pathname, headers: request.headers, body, at_ms: Date.now() });
        if (request.headers.authorization !== `Bearer ${flutterwave_secret}`) return this.json(response, 401, fixture('flutterwave', 'unauthorized-401'));
        if (request.method === 'POST' && url.pathname === '/v3/bills') return this.pay(body ?? {}, response);
        const status = /^\/v3\/bills\/([^/]+)$/.exec(url.pathname);
        if (request.method === 'GET' && status !== null) return this.status(decodeURIComponent(status[1]), response);
        if (request.method === 'GET' && /^\/v3\/bill-items\/[^/]+\/validate$/.test(url.pathname)) {
          if (this.validate_status !== null) return this.json(response, this.validate_status, fixture('flutterwave', 'unauthorized-401'));
          const out = fixture('flutterwave', 'validate-success');
          Object.assign(out.data, { name: flutterwave_customer, customer: url.searchParams.get('customer'), biller_code: url.searchParams.get('code'), product_code: url.pathname.split('/')[3] });
          return this.json(response, 200, out);
        }
        return this.json(response, 404, { status: 'error', message: 'Not found', data: null });
      });
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.port = (server.address() as { port: number }).port;
  }

  /** Stops listening and drops open connections: the adapter then gets refused connections. */
  async refuse(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async resume(): Promise<void> {
    if (this.server !== null) return;
    await this.start(this.port);
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await this.refuse();
  }

  private json(response: ServerResponse, status: number, body: unknown): void {
    if (response.destroyed || response.writableEnded) return;
    const text = JSON.stringify(body);
    response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    response.end(text);
  }

  /** The bill's status answer: the recorded verbose status with this bill's values. */
  private status_answer(bill: Bill): Record<string, any> {
    if (bill.no_status) {
      const out = fixture('flutterwave', 'status-no-status');
      Object.assign(out.data, { customer_id: bill.customer, amount: `${bill.amount}.0000`, product: bill.type, tx_ref: bill.flw_ref });
      return out;
    }
    const electricity = /PREPAID|POSTPAID/.test(bill.type);
    const out = fixture('flutterwave', electricity ? 'status-successful-electricity' : 'status-successful');
    Object.assign(out.data, { customer_id: bill.customer, amount: `${bill.amount}.0000`, product: bill.type, tx_ref: bill.flw_ref, status: bill.status });
    if (electricity && bill.status === 'successful') out.data.recharge_token = flutterwave_token(bill.reference);
    else delete out.data.recharge_token;
    if (bill.status !== 'successful') delete out.data.units;
    return out;
  }

  /** The create answer: the recorded one ("Bill payment successful", no status) with this bill's values. */
  private created(bill: Bill): Record<string, any> {
    const out = fixture('flutterwave', 'create-success');
    Object.assign(out.data, { phone_number: bill.customer, amount: bill.amount, flw_ref: bill.flw_ref, tx_ref: `BP${bill.reference}`, reference: bill.reference });
    return out;
  }

  private pay(body: any, response: ServerResponse): void {
    const reference = String(body.reference ?? '');
    const customer = String(body.customer ?? '');
    const mode = this.modes.get(customer) ?? this.default_mode;
    const bill: Bill = { reference, customer, type: String(body.type ?? ''), amount: Number(body.amount), status: 'successful', flw_ref: `CF-FLYAPI-${String(this.bills.size + 1).padStart(8, '0')}`, pending_left: 0, no_status: false };
    switch (mode) {
      case 'deliver':
        this.bills.set(reference, bill);
        return this.json(response, 200, this.created(bill));
      case 'no_status':
        bill.no_status = true;
        this.bills.set(reference, bill);
        return this.json(response, 200, this.created(bill));
      case 'fail':
        return this.json(response, 400, fixture('flutterwave', 'create-refused-400'));
      case 'slow':
      case 'timeout': {
        this.bills.set(reference, bill);
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          if (mode === 'slow') this.json(response, 200, this.created(bill));
          else this.json(response, 503, fixture('flutterwave', 'timeout-503'));
        }, mode === 'slow' ? this.slow_ms : this.timeout_ms);
        this.timers.add(timer);
        return;
      }
      case 'error_500':
        this.bills.set(reference, bill);
        return this.json(response, 500, fixture('flutterwave', 'timeout-503'));
      case 'processing':
        bill.status = 'pending';
        bill.pending_left = this.pending_fetches;
        this.bills.set(reference, bill);
        return this.json(response, 200, this.created(bill));
      case 'lost':
        return this.json(response, 500, fixture('flutterwave', 'timeout-503'));
    }
  }

  private status(reference: string, response: ServerResponse): void {
    const bill = this.bills.get(reference);
    if (bill === undefined) return this.json(response, 404, fixture('flutterwave', 'status-not-found'));
    const answer = this.status_answer(bill);
    if (bill.status === 'pending') {
      if (bill.pending_left > 0) bill.pending_left--;
      if (bill.pending_left === 0) bill.status = 'successful';
    }
    return this.json(response, 200, answer);
  }
}

/** The electricity token the fake issues for a bill reference (stable across status fetches). */
export function flutterwave_token(reference: string): string {
  let digits = '';
  for (let i = 0; digits.length < 20; i++) digits += String((reference.charCodeAt(i % reference.length) * (i + 7)) % 10);
  return digits.match(/.{4}/g)!.join('-');
}

export async function start_flutterwave(t: { teardown(fn: () => unknown): void }): Promise<FakeFlutterwave> {
  const upstream = new FakeFlutterwave();
  await upstream.start();
  t.teardown(() => upstream.stop());
  return upstream;
}
