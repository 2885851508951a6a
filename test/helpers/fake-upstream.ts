// A fake upstream aggregator in the VTpass shape that src/services/live-provider.ts speaks, over real
// HTTP on 127.0.0.1 (docs/style.md "Tests": a fake stands only for what lives outside, and speaks HTTP).
//   POST /api/pay             {request_id, serviceID, billersCode, variation_code, amount, phone}
//   POST /api/requery         {request_id}
//   POST /api/merchant-verify {billersCode, serviceID, type}
// It records every request, so tests can check that a request_id was paid once and never re-sent,
// and it can be told, per billersCode (phone, meter, smartcard) or for everything, how to behave.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createHash } from 'node:crypto';

/**
 * How /api/pay behaves, and what a later /api/requery finds:
 * - deliver: 000 delivered at once.
 * - fail: 016 "TRANSACTION FAILED", a definite failure; the re-query says failed too.
 * - slow: the answer takes `slow_ms` (longer than the adapter's timeout); the upstream delivers
 *   meanwhile, so a re-query after that finds it delivered (099 before).
 * - error_500: HTTP 500, but the upstream did deliver: a re-query finds it delivered.
 * - garbage: HTTP 200 with a body that is not JSON; the upstream did deliver.
 * - processing: 099; the first `processing_requeries` re-queries say 099 again, then delivered.
 * - processing_fail: like processing, but the order then fails definitively (016).
 * - hold / hold_fail: 099 until the test calls release(billersCode), then delivered / failed (016).
 * - lost: HTTP 500 and the request was never taken: a re-query answers 015 (unknown request id).
 */
export type UpstreamMode = 'deliver' | 'fail' | 'slow' | 'error_500' | 'garbage' | 'processing' | 'processing_fail' | 'hold' | 'hold_fail' | 'lost';

export interface UpstreamRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or undefined when it was not JSON. */
  body: any;
  at_ms: number;
}

interface UpstreamTransaction {
  request_id: string;
  billers_code: string;
  service_id: string;
  variation_code: string | undefined;
  amount: number;
  status: 'delivered' | 'failed' | 'processing';
  /** What a processing transaction becomes once its re-queries run out (null: it stays as it is). */
  becomes: 'delivered' | 'failed' | null;
  requeries_left: number;
  transaction_id: string;
  /** PINs bought (education: WAEC, JAMB); 1 for everything else. */
  quantity: number;
}

/** The token the fake issues for a prepaid meter paid under a request_id (stable across re-queries). */
export function upstream_token(request_id: string): string {
  const digest = createHash('sha256').update(request_id).digest();
  let digits = '';
  for (let i = 0; digits.length < 20; i++) digits += String(digest[i] % 10);
  return digits.match(/.{4}/g)!.join('-');
}

/** The PIN the fake issues for the index-th PIN of a request_id (stable across re-queries). */
export function upstream_pin(request_id: string, index: number): string {
  const digest = createHash('sha256').update(`${request_id}#${index}`).digest();
  let digits = '';
  for (let i = 0; digits.length < 12; i++) digits += String(digest[i % digest.length] % 10);
  return digits;
}

export const upstream_units = '14.7';
export const upstream_customer = 'Adaeze Okafor';
export const upstream_address = '12 Allen Avenue, Ikeja, Lagos';
/** What the fake's DStv and GOtv verification gives as the current bouquet's code and renewal amount (NGN text, as VTpass). */
export const upstream_bouquet_code = 'dstv-compact';
export const upstream_renewal_amount = '21500.00';

export class FakeUpstream {
  port = 0;
  readonly requests: UpstreamRequest[] = [];
  /** What the upstream holds per request_id: what it was asked to pay and where that stands. */
  readonly transactions = new Map<string, UpstreamTransaction>();
  default_mode: UpstreamMode = 'deliver';
  /** How long a `slow` answer takes: longer than the PROVIDER_TIMEOUT_MS the server under test runs with. */
  slow_ms = 700;
  /**
   * VTpass's own commission on a transaction (`content.transactions.commission` and
   * `commission_details`), in basis points of the amount, rounded down to the kobo; null: not sent.
   */
  commission_bp: number | null = 300;
  /** How many re-queries of a `processing` order answer 099 before it is delivered. */
  processing_requeries = 1;
  /** billersCodes that /api/merchant-verify does not know (WrongBillersCode). */
  readonly invalid_billers = new Set<string>();
  /**
   * Content fields /api/merchant-verify gives for one billersCode on top of (or replacing) its defaults,
   * in VTpass's names: Customer_Arrears, Minimum_Amount, Min_Purchase_Amount, Can_Vend, Renewal_Amount,
   * Current_Bouquet_Code. A field set to undefined is left out of the answer.
   */
  readonly verify_content = new Map<string, Record<string, unknown>>();
  /** How long every /api/merchant-verify answer takes (the crash campaign's revocations race it). */
  verify_delay_ms = 0;
  /** While set, /api/merchant-verify answers only once release_verifications() is called: a slow recipient check. */
  private verify_hold: { released: Promise<void>; release: () => void } | null = null;
  private readonly modes = new Map<string, UpstreamMode>();
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  get base_url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The server's environment for this upstream (a live key then buys through it). */
  env(timeout_ms = 200): Record<string, string> {
    return {
      PROVIDER_BASE_URL: this.base_url,
      PROVIDER_API_KEY: 'fake-api-key',
      PROVIDER_SECRET_KEY: 'fake-secret-key',
      PROVIDER_TIMEOUT_MS: String(timeout_ms),
    };
  }

  /** Behaviour for one billersCode (phone, meter or smartcard number); the default otherwise. */
  set_mode(billers_code: string, mode: UpstreamMode): void {
    this.modes.set(billers_code, mode);
  }

  mode_of(billers_code: string): UpstreamMode {
    return this.modes.get(billers_code) ?? this.default_mode;
  }

  /** Lets the held payments of a billersCode settle: the next re-query finds them delivered or failed. */
  release(billers_code: string): number {
    let released = 0;
    for (const tx of this.transactions.values()) {
      if (tx.billers_code === billers_code && tx.status === 'processing' && tx.requeries_left === Number.POSITIVE_INFINITY) {
        tx.requeries_left = 0;
        released++;
      }
    }
    return released;
  }

  /** Holds every /api/merchant-verify answer from now on until release_verifications(). */
  hold_verifications(): void {
    if (this.verify_hold !== null) return;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    this.verify_hold = { released, release };
  }

  /** Answers the held verifications, and the next ones at once. */
  release_verifications(): void {
    const hold = this.verify_hold;
    this.verify_hold = null;
    hold?.release();
  }

  /** Requests to one path, optionally only those about one request_id. */
  calls(path: '/api/pay' | '/api/requery' | '/api/merchant-verify', request_id?: string): UpstreamRequest[] {
    return this.requests.filter((r) => r.path === path && (request_id === undefined || r.body?.request_id === request_id));
  }

  /** The /api/pay requests for a billersCode, in arrival order. */
  pays_for(billers_code: string): UpstreamRequest[] {
    return this.requests.filter((r) => r.path === '/api/pay' && r.body?.billersCode === billers_code);
  }

  /** request_ids that were paid more than once: must always be empty. */
  paid_twice(): string[] {
    const counts = new Map<string, number>();
    for (const r of this.calls('/api/pay')) counts.set(r.body?.request_id, (counts.get(r.body?.request_id) ?? 0) + 1);
    return [...counts].filter(([, n]) => n > 1).map(([id]) => id);
  }

  async start(port = 0): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        const path = (request.url ?? '').split('?')[0];
        this.requests.push({ path, headers: request.headers, body, at_ms: Date.now() });
        if (request.method !== 'POST') return this.json(response, 405, { code: '405', response_description: 'METHOD NOT ALLOWED' });
        switch (path) {
          case '/api/pay':
            return this.pay(body ?? {}, response);
          case '/api/requery':
            return this.requery(body ?? {}, response);
          case '/api/merchant-verify':
            if (this.verify_hold !== null) {
              void this.verify_hold.released.then(() => this.verify(body ?? {}, response));
              return;
            }
            if (this.verify_delay_ms > 0) return this.later(this.verify_delay_ms, () => this.verify(body ?? {}, response));
            return this.verify(body ?? {}, response);
          default:
            return this.json(response, 404, { code: '404', response_description: 'NOT FOUND' });
        }
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

  /** Stops listening and drops open connections: the adapter then gets connection errors. */
  async refuse(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Listens again on the same port (the server under test has the address in its settings). */
  async resume(): Promise<void> {
    if (this.server !== null) return;
    await this.start(this.port);
  }

  async stop(): Promise<void> {
    this.release_verifications();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await this.refuse();
  }

  private later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  private json(response: ServerResponse, status: number, body: unknown): void {
    if (response.destroyed || response.writableEnded) return;
    const text = JSON.stringify(body);
    response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    response.end(text);
  }

  /** The VTpass answer for a transaction as it stands. */
  private answer(tx: UpstreamTransaction): Record<string, unknown> {
    const status = tx.status;
    const code = status === 'delivered' ? '000' : status === 'failed' ? '016' : '099';
    const transactions: Record<string, unknown> = { status, transactionId: tx.transaction_id, product_name: tx.service_id, unique_element: tx.billers_code, amount: tx.amount };
    if (this.commission_bp !== null) {
      const commission_kobo = Math.floor((Math.round(tx.amount * 100) * this.commission_bp) / 10_000);
      transactions.commission = commission_kobo / 100;
      transactions.commission_details = { amount: commission_kobo / 100, rate: String(this.commission_bp / 100), rate_type: 'percent', computation_type: 'default' };
    }
    const out: Record<string, unknown> = {
      code,
      content: { transactions },
      response_description: status === 'delivered' ? 'TRANSACTION SUCCESSFUL' : status === 'failed' ? 'TRANSACTION FAILED' : 'TRANSACTION PROCESSING',
      requestId: tx.request_id,
      amount: tx.amount,
    };
    // PINs in VTpass's shapes: WAEC result checkers and Spectranet as cards, WAEC registration as tokens, JAMB as a Pin text.
    if (status === 'delivered' && (tx.service_id === 'waec' || tx.service_id === 'spectranet')) {
      out.cards = Array.from({ length: tx.quantity }, (_, i) => ({ Serial: `WRN${String(100000000 + i)}`, Pin: upstream_pin(tx.request_id, i) }));
    } else if (status === 'delivered' && tx.service_id === 'waec-registration') {
      out.tokens = Array.from({ length: tx.quantity }, (_, i) => upstream_pin(tx.request_id, i));
    } else if (status === 'delivered' && tx.service_id === 'jamb') {
      out.Pin = `Pin : ${upstream_pin(tx.request_id, 0)}`;
    }
    if (status === 'delivered' && tx.service_id.endsWith('-electric')) {
      if (tx.variation_code === 'prepaid') out.purchased_code = `Token : ${upstream_token(tx.request_id)}`;
      out.units = upstream_units;
      out.customerName = upstream_customer;
    }
    return out;
  }

  private pay(body: any, response: ServerResponse): void {
    const request_id = String(body.request_id ?? '');
    const billers_code = String(body.billersCode ?? '');
    const mode = this.mode_of(billers_code);
    const tx: UpstreamTransaction = {
      request_id,
      billers_code,
      service_id: String(body.serviceID ?? ''),
      variation_code: body.variation_code,
      amount: Number(body.amount),
      status: 'delivered',
      becomes: null,
      requeries_left: 0,
      transaction_id: `1700${String(this.transactions.size + 1).padStart(8, '0')}`,
      quantity: Number.isInteger(body.quantity) && body.quantity > 0 ? body.quantity : 1,
    };
    switch (mode) {
      case 'deliver':
        this.transactions.set(request_id, tx);
        return this.json(response, 200, this.answer(tx));
      case 'fail':
        tx.status = 'failed';
        this.transactions.set(request_id, tx);
        return this.json(response, 200, this.answer(tx));
      case 'slow':
        tx.status = 'processing';
        this.transactions.set(request_id, tx);
        this.later(this.slow_ms, () => {
          tx.status = 'delivered';
          this.json(response, 200, this.answer(tx));
        });
        return;
      case 'error_500':
        this.transactions.set(request_id, tx);
        return this.json(response, 500, { code: '500', response_description: 'INTERNAL SERVER ERROR' });
      case 'garbage':
        this.transactions.set(request_id, tx);
        if (!response.destroyed) {
          response.writeHead(200, { 'content-type': 'text/html' });
          response.end('<html><body>Gateway hiccup {"code":"000"</body></html>');
        }
        return;
      case 'processing':
      case 'processing_fail':
      case 'hold':
      case 'hold_fail':
        tx.status = 'processing';
        tx.becomes = mode === 'processing' || mode === 'hold' ? 'delivered' : 'failed';
        tx.requeries_left = mode === 'hold' || mode === 'hold_fail' ? Number.POSITIVE_INFINITY : this.processing_requeries;
        this.transactions.set(request_id, tx);
        return this.json(response, 200, this.answer(tx));
      case 'lost':
        return this.json(response, 500, { code: '500', response_description: 'UPSTREAM UNAVAILABLE' });
    }
  }

  private requery(body: any, response: ServerResponse): void {
    const tx = this.transactions.get(String(body.request_id ?? ''));
    if (tx === undefined) return this.json(response, 200, { code: '015', response_description: 'INVALID REQUEST ID' });
    if (tx.status === 'processing' && tx.requeries_left > 0) tx.requeries_left--;
    else if (tx.status === 'processing' && tx.becomes !== null) tx.status = tx.becomes;
    return this.json(response, 200, this.answer(tx));
  }

  private verify(body: any, response: ServerResponse): void {
    const billers_code = String(body.billersCode ?? '');
    if (this.invalid_billers.has(billers_code)) {
      return this.json(response, 200, { code: '000', content: { WrongBillersCode: true, error: 'This meter/IUC number is invalid.' } });
    }
    const content: Record<string, unknown> = { Customer_Name: upstream_customer, Address: upstream_address, Meter_Type: body.type };
    const service_id = String(body.serviceID ?? '');
    if (service_id.endsWith('-electric')) {
      // VTpass sends these for every meter, empty when the disco says nothing.
      content.Customer_Arrears = '';
      content.Minimum_Amount = '';
      content.Can_Vend = 'yes';
    } else {
      content.Current_Bouquet = 'DStv Compact';
      content.Due_Date = '2030-01-31';
      if (service_id === 'dstv' || service_id === 'gotv') {
        content.Current_Bouquet_Code = upstream_bouquet_code;
        content.Renewal_Amount = upstream_renewal_amount;
      }
    }
    Object.assign(content, this.verify_content.get(billers_code) ?? {});
    return this.json(response, 200, { code: '000', content });
  }
}

/** Starts a fake upstream; the tap test stops it. */
export async function start_upstream(t: { teardown(fn: () => unknown): void }): Promise<FakeUpstream> {
  const upstream = new FakeUpstream();
  await upstream.start();
  t.teardown(() => upstream.stop());
  return upstream;
}
