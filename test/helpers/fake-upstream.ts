// A fake VTpass over real HTTP on 127.0.0.1 (docs/style.md "Tests": a fake stands only for what lives
// outside, and speaks HTTP), built on VTpass's documentation (docs/upstreams.md):
//   POST /api/pay                         {request_id, serviceID, billersCode, variation_code, amount, phone}
//   POST /api/requery                     {request_id}
//   POST /api/merchant-verify             {billersCode, serviceID, type}
//   POST /api/merchant-verify/smile/email {billersCode, serviceID}
// Every answer is a recorded documented answer (test/fixtures/upstreams/vtpass/, one file per answer with
// its source), with only the request's own values filled in (request id, amount, transaction id, the
// token or PINs bought). It checks what VTpass checks: the api-key and secret-key headers (087), the
// request_id's format (085) and reuse (014), a known serviceID (012), the same service for the same
// billersCode within 30 s (019), and, when `check_variation_codes` is on, a known variation_code (010).
// It records every request, so tests can check that a request_id was paid once and never re-sent,
// and it can be told, per billersCode (phone, meter, smartcard) or for everything, how to behave.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createHash } from 'node:crypto';
import { fixture } from './upstream-fixtures.js';
import { VariationsRoute, variation_fixtures, variations_of } from './fake-vtpass-variations.js';

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
 * - refuse: 091 TRANSACTION NOT PROCESSED ("you will not be charged"): a refusal before processing; a
 *   re-query answers 015.
 */
export type UpstreamMode = 'deliver' | 'fail' | 'slow' | 'error_500' | 'garbage' | 'processing' | 'processing_fail' | 'hold' | 'hold_fail' | 'lost' | 'refuse';

/** The serviceIDs VTpass documents for what billvend sells (docs/upstreams.md "Service IDs the fake knows"). */
export const vtpass_service_ids: ReadonlySet<string> = new Set([
  'mtn', 'airtel', 'glo', 'etisalat', 'mtn-data', 'airtel-data', 'glo-data', 'etisalat-data', 'glo-sme-data', '9mobile-sme-data',
  'ikeja-electric', 'eko-electric', 'kano-electric', 'portharcourt-electric', 'jos-electric', 'ibadan-electric', 'kaduna-electric',
  'abuja-electric', 'enugu-electric', 'benin-electric', 'aba-electric', 'yola-electric',
  'dstv', 'gotv', 'startimes', 'showmax', 'waec', 'waec-registration', 'jamb', 'smile-direct', 'spectranet', 'foreign-airtime',
]);

/** VTpass's request id: 12+ characters, the first 12 today's date and time in Africa/Lagos (YYYYMMDDHHII). */
export function lagos_minute(ms: number): string {
  return new Date(ms + 60 * 60 * 1000).toISOString().slice(0, 16).replace(/[-T:]/g, '');
}

export interface UpstreamRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or undefined when it was not JSON. */
  body: any;
  at_ms: number;
  /** The query string's parameters (the GET endpoints take theirs there). */
  query?: URLSearchParams;
}

export interface UpstreamTransaction {
  request_id: string;
  billers_code: string;
  service_id: string;
  variation_code: string | undefined;
  amount: number;
  /** reversed: VTpass reversed it after the fact (reverse()): a re-query then says so. */
  status: 'delivered' | 'failed' | 'processing' | 'reversed';
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
  /** The credentials VTpass checks on every POST (api-key, secret-key); a wrong one answers 087. */
  api_key = 'fake-api-key';
  secret_key = 'fake-secret-key';
  /** GET requests carry api-key and public-key (https://www.vtpass.com/documentation/authentication/). */
  public_key = 'fake-public-key';
  /**
   * International airtime (https://www.vtpass.com/documentation/foreign-airtime/): what each GET answers, by
   * the recorded answer's name (test/fixtures/upstreams/vtpass/international-*.json); a key not listed answers
   * an empty list. A test may change them, or add a key naming '#500' (an outage).
   */
  readonly international = new Map<string, string>([
    ['countries', 'international-countries'],
    ['product-types GH', 'international-product-types-gh'],
    ['operators GH 4', 'international-operators-gh-4'],
    ['operators GH 1', 'international-operators-gh-1'],
    ['variations 1 1', 'international-variations-1-1'],
    ['variations 5 1', 'international-variations-5-1'],
    ['variations 5 4', 'international-variations-5-4'],
  ]);
  /** The other services' GET /api/service-variations, from their recorded answers (the catalog sync reads them). */
  readonly variations_route = new VariationsRoute('fake-api-key', 'fake-public-key');
  /** Refuse an unknown serviceID with 012 PRODUCT DOES NOT EXIST. */
  check_service_ids = true;
  /**
   * Refuse a variation_code that `variations` does not list for its serviceID with 010, as VTpass does. A
   * serviceID `variations` has no list for is not checked: we hold no copy of VTpass's list for it.
   */
  check_variation_codes = true;
  /** VTpass's variation codes by serviceID, as documented (default_variations()); a test may change them. */
  readonly variations = default_variations();
  /** VTpass's duplicate guard: the same serviceID for the same billersCode within this long answers 019 (0: off). */
  duplicate_window_ms = 30_000;
  /** A pay answer chosen per billersCode: the name of a recorded answer (test/fixtures/upstreams/vtpass/). */
  readonly pay_answers = new Map<string, string>();
  /** What a re-query of a request id answers, chosen per billersCode: a recorded answer's name. */
  readonly requery_answers = new Map<string, string>();
  /** A verification answer chosen per billersCode: a recorded answer's name, or an HTTP status to fail with. */
  readonly verify_answers = new Map<string, string | number>();
  /**
   * A scripted upstream for one billersCode (the property test): what /api/pay answers (a recorded answer's
   * name, or '#500', '#timeout' (no answer within `slow_ms`), '#garbage'), whether the request is then
   * known (else a re-query answers 015), and what each re-query answers in turn (the last repeats).
   */
  readonly scripts = new Map<string, { pay: string; known: boolean; requery: string[] }>();
  /** request_ids whose /api/pay was answered 019 (the duplicate guard): they must never be paid anywhere. */
  readonly duplicates = new Set<string>();
  /** request_ids reverse() reversed after the fact, in order. */
  readonly reversed: string[] = [];
  /** Last pay of a serviceID for a billersCode, for the duplicate guard. */
  private readonly last_pay = new Map<string, number>();
  /** How long every /api/merchant-verify answer takes (the crash campaign's revocations race it). */
  verify_delay_ms = 0;
  /** While set, /api/merchant-verify answers only once release_verifications() is called: a slow recipient check. */
  private verify_hold: { released: Promise<void>; release: () => void } | null = null;
  /** While set, /api/requery answers only once release_requeries() is called: an upstream slow to say where an order stands. */
  private requery_hold: { released: Promise<void>; release: () => void } | null = null;
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

  /**
   * VTpass reverses a transaction it holds (a delivered one included): every later re-query answers its
   * status `reversed` (test/fixtures/upstreams/vtpass/requery-reversed.json). False: no such request id.
   */
  reverse(request_id: string): boolean {
    const tx = this.transactions.get(request_id);
    if (tx === undefined) return false;
    tx.status = 'reversed';
    tx.becomes = null;
    if (!this.reversed.includes(request_id)) this.reversed.push(request_id);
    return true;
  }

  /**
   * VTpass's transaction-update callback for a request id, POSTed to `url` as VTpass sends it: the recorded
   * update (`callback-transaction-update`) or reversal (`callback-transaction-reversal`) with this request
   * id, or `body` exactly. Answers the status and the text of the reply.
   */
  async send_callback(url: string, request_id: string, kind: 'callback-transaction-update' | 'callback-transaction-reversal' = 'callback-transaction-update', body?: string): Promise<{ status: number; text: string }> {
    const payload = fixture('vtpass', kind);
    payload.data.requestId = request_id;
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body ?? JSON.stringify(payload) });
    return { status: response.status, text: await response.text() };
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

  /** Holds every /api/requery answer from now on until release_requeries() (each is answered as it stands then). */
  hold_requeries(): void {
    if (this.requery_hold !== null) return;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    this.requery_hold = { released, release };
  }

  /** Answers the held re-queries, and the next ones at once. */
  release_requeries(): void {
    const hold = this.requery_hold;
    this.requery_hold = null;
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
        this.requests.push({ path, headers: request.headers, body, at_ms: Date.now(), query: new URL(request.url ?? '/', 'http://fake').searchParams });
        if (request.method === 'GET') return this.get(request, response);
        if (request.method !== 'POST') return this.json(response, 405, { code: '405', response_description: 'METHOD NOT ALLOWED' });
        // POST requests carry api-key and secret-key (https://www.vtpass.com/documentation/authentication/).
        if (request.headers['api-key'] !== this.api_key || request.headers['secret-key'] !== this.secret_key) return this.json(response, 401, fixture('vtpass', 'any-087'));
        switch (path) {
          case '/api/merchant-verify/smile/email':
            return this.verify(body ?? {}, response, true);
          case '/api/pay':
            return this.pay(body ?? {}, response);
          case '/api/requery':
            if (this.requery_hold !== null) {
              void this.requery_hold.released.then(() => this.requery(body ?? {}, response));
              return;
            }
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
    this.release_requeries();
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

  /** The VTpass answer for a transaction as it stands: a recorded answer with this request's values. */
  private answer(tx: UpstreamTransaction): Record<string, unknown> {
    const status = tx.status;
    const base = status === 'failed' ? 'pay-016' : status === 'processing' ? 'pay-099' : status === 'reversed' ? 'requery-reversed' : this.delivered_fixture(tx);
    const out = fixture('vtpass', base);
    const transactions: Record<string, unknown> = out.content?.transactions ?? {};
    transactions.status = status === 'processing' ? 'pending' : status;
    transactions.transactionId = tx.transaction_id;
    transactions.unique_element = tx.billers_code;
    transactions.amount = tx.amount;
    transactions.unit_price = tx.amount;
    transactions.quantity = tx.quantity;
    delete transactions.commission;
    delete transactions.commission_details;
    if (this.commission_bp !== null) {
      const commission_kobo = Math.floor((Math.round(tx.amount * 100) * this.commission_bp) / 10_000);
      transactions.commission = commission_kobo / 100;
      transactions.commission_details = { amount: commission_kobo / 100, rate: String(this.commission_bp / 100), rate_type: 'percent', computation_type: 'default' };
    }
    out.content = { ...(out.content ?? {}), transactions };
    out.requestId = tx.request_id;
    out.amount = tx.amount;
    if (status !== 'delivered') return out;
    // What was bought, in the shapes of the recorded answers: PINs for exams and Spectranet, tokens for meters.
    const pins = Array.from({ length: tx.quantity }, (_, i) => ({ serial: `WRN${String(100000000 + i)}`, pin: upstream_pin(tx.request_id, i) }));
    if (tx.service_id === 'waec' || tx.service_id === 'spectranet') {
      out.cards = pins.map((p) => ({ ...(out.cards?.[0] ?? {}), Serial: p.serial, Pin: p.pin }));
      out.purchased_code = pins.map((p) => `Serial No:${p.serial}, pin: ${p.pin}`).join(' || ');
    } else if (tx.service_id === 'waec-registration') {
      out.tokens = pins.map((p) => p.pin);
      out.purchased_code = `Token : ${pins.map((p) => p.pin).join(', ')}`;
    } else if (tx.service_id === 'jamb') {
      out.Pin = `Pin : ${pins[0].pin}`;
      out.purchased_code = out.Pin;
    } else if (tx.service_id.endsWith('-electric')) {
      const token = tx.variation_code === 'prepaid' ? upstream_token(tx.request_id) : null;
      out.purchased_code = token === null ? '' : `Token : ${token}`;
      out.token = token === null ? null : `Token : ${token}`;
      out.units = upstream_units;
      // IKEDC answers customerName "N/A"; other discos give the meter's name.
      out.customerName = tx.service_id === 'ikeja-electric' ? 'N/A' : upstream_customer;
    }
    return out;
  }

  /**
   * The GET endpoints: international airtime's four lists (https://www.vtpass.com/documentation/foreign-airtime/)
   * from their recorded answers, and every other service's variations from theirs.
   */
  private get(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://fake');
    const q = (name: string) => url.searchParams.get(name) ?? '';
    let key: string | null = null;
    if (url.pathname === '/api/get-international-airtime-countries') key = 'countries';
    else if (url.pathname === '/api/get-international-airtime-product-types') key = `product-types ${q('code')}`;
    else if (url.pathname === '/api/get-international-airtime-operators') key = `operators ${q('code')} ${q('product_type_id')}`;
    else if (url.pathname === '/api/service-variations' && q('serviceID') === 'foreign-airtime') key = `variations ${q('operator_id')} ${q('product_type_id')}`;
    if (key === null) {
      if (this.variations_route.handle(request, response)) return;
      return this.json(response, 404, { code: '404', response_description: 'NOT FOUND' });
    }
    if (request.headers['api-key'] !== this.api_key || request.headers['public-key'] !== this.public_key) return this.json(response, 401, fixture('vtpass', 'any-087'));
    const name = this.international.get(key);
    if (name === '#500') return this.json(response, 500, { code: '500', response_description: 'INTERNAL SERVER ERROR' });
    if (name !== undefined) return this.json(response, 200, fixture('vtpass', name));
    // Nothing recorded for this country, operator or product type: an empty list in the page's shape.
    return this.json(response, 200, key.startsWith('variations') ? { response_description: '000', content: { ServiceName: 'International Airtime', serviceID: 'foreign-airtime', convinience_fee: '0 %', variations: [] } } : { response_description: '000', content: key === 'countries' ? { countries: [] } : [] });
  }

  /** The variation codes the fake's recorded answers list for an operator and product type. */
  private international_codes(operator_id: string, product_type_id: string): Set<string> {
    const name = this.international.get(`variations ${operator_id} ${product_type_id}`);
    if (name === undefined || name.startsWith('#')) return new Set();
    return new Set(variations_of(fixture('vtpass', name) as any).map((v: { variation_code: string }) => String(v.variation_code)));
  }

  /** The recorded delivered answer of a service. */
  private delivered_fixture(tx: UpstreamTransaction): string {
    if (tx.service_id === 'waec') return 'pay-waec';
    if (tx.service_id === 'waec-registration') return 'pay-waec-registration';
    if (tx.service_id === 'jamb') return 'pay-jamb';
    if (tx.service_id === 'spectranet') return 'pay-spectranet';
    if (tx.service_id === 'showmax') return 'pay-showmax';
    if (tx.service_id === 'foreign-airtime') return 'pay-international';
    if (tx.service_id.endsWith('-electric')) return 'pay-ikedc-prepaid';
    return 'pay-delivered';
  }

  /** A recorded answer chosen by a test, with this request's id; a refusal records nothing to re-query. */
  private chosen(name: string, request_id: string): Record<string, any> {
    const out = fixture('vtpass', name);
    if (out.requestId !== undefined) out.requestId = request_id;
    return out;
  }

  /** What VTpass checks before anything is processed; the refusal's recorded answer, or null. */
  private refusal(body: any, request_id: string, billers_code: string, service_id: string): string | null {
    const now = Date.now();
    const minutes = [lagos_minute(now - 86_400_000), lagos_minute(now), lagos_minute(now + 86_400_000)].map((m) => m.slice(0, 8));
    if (!/^\d{12}[A-Za-z0-9]*$/.test(request_id) || !minutes.includes(request_id.slice(0, 8))) return 'pay-085';
    if (this.transactions.has(request_id) || this.calls('/api/pay', request_id).length > 1) return 'pay-014';
    if (typeof body.serviceID !== 'string' || (this.check_service_ids && !vtpass_service_ids.has(service_id))) return 'pay-012';
    // foreign-airtime's mandatory fields (the page's NEEDED PAYLOAD): request_id, serviceID, billersCode,
    // variation_code, phone, operator_id, country_code, product_type_id, email; without one: 011 INVALID ARGUMENTS.
    if (service_id === 'foreign-airtime') {
      for (const field of ['billersCode', 'variation_code', 'phone', 'operator_id', 'country_code', 'product_type_id', 'email']) {
        if (body[field] === undefined || body[field] === null || body[field] === '') return 'pay-011';
      }
      if (this.check_variation_codes && !this.international_codes(String(body.operator_id), String(body.product_type_id)).has(String(body.variation_code))) return 'pay-010';
    }
    if (this.check_variation_codes && body.variation_code !== undefined && this.variations.has(service_id) && !this.variations.get(service_id)!.has(String(body.variation_code))) return 'pay-010';
    const key = `${service_id} ${billers_code}`;
    const last = this.last_pay.get(key);
    this.last_pay.set(key, now);
    if (this.duplicate_window_ms > 0 && last !== undefined && now - last < this.duplicate_window_ms) {
      this.duplicates.add(request_id);
      return 'pay-019';
    }
    return null;
  }

  private pay(body: any, response: ServerResponse): void {
    const request_id = String(body.request_id ?? '');
    const billers_code = String(body.billersCode ?? '');
    const refused = this.refusal(body, request_id, billers_code, String(body.serviceID ?? ''));
    if (refused !== null) return this.json(response, 200, this.chosen(refused, request_id));
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
    const script = this.scripts.get(billers_code);
    if (script !== undefined) {
      if (script.known) {
        tx.status = 'processing';
        tx.becomes = null;
        tx.requeries_left = 0;
        this.transactions.set(request_id, tx);
      }
      if (script.pay === '#500') return this.json(response, 500, { code: '500', response_description: 'INTERNAL SERVER ERROR' });
      if (script.pay === '#garbage') {
        if (!response.destroyed) {
          response.writeHead(200, { 'content-type': 'text/html' });
          response.end('<html><body>Gateway hiccup</body></html>');
        }
        return;
      }
      if (script.pay === '#timeout') return this.later(this.slow_ms, () => this.json(response, 504, { code: '504', response_description: 'GATEWAY TIMEOUT' }));
      return this.json(response, 200, this.chosen(script.pay, request_id));
    }
    const chosen = this.pay_answers.get(billers_code);
    if (chosen !== undefined) {
      const answer = this.chosen(chosen, request_id);
      const status = String(answer.content?.transactions?.status ?? '');
      // An answer that names a transaction leaves one to re-query; a bare refusal leaves none (015 then).
      if (status !== '' || answer.code === '099') {
        tx.status = status === 'delivered' || status === 'successful' ? 'delivered' : status === 'failed' || status === 'reversed' ? 'failed' : 'processing';
        this.transactions.set(request_id, tx);
      }
      return this.json(response, 200, answer);
    }
    switch (mode) {
      case 'refuse':
        return this.json(response, 200, this.chosen('pay-091', request_id));
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
    if (tx === undefined) return this.json(response, 200, this.chosen('requery-015', String(body.request_id ?? '')));
    const script = this.scripts.get(tx.billers_code);
    if (script !== undefined) {
      const n = this.calls('/api/requery', tx.request_id).length;
      return this.json(response, 200, this.chosen(script.requery[Math.min(n - 1, script.requery.length - 1)], tx.request_id));
    }
    const chosen = this.requery_answers.get(tx.billers_code);
    if (chosen !== undefined) return this.json(response, 200, this.chosen(chosen, tx.request_id));
    if (tx.status === 'processing' && tx.requeries_left > 0) tx.requeries_left--;
    else if (tx.status === 'processing' && tx.becomes !== null) tx.status = tx.becomes;
    return this.json(response, 200, this.answer(tx));
  }

  private verify(body: any, response: ServerResponse, smile_email = false): void {
    const billers_code = String(body.billersCode ?? '');
    const chosen = this.verify_answers.get(billers_code);
    if (typeof chosen === 'number') return this.json(response, chosen, { code: String(chosen), response_description: 'UPSTREAM ERROR' });
    if (chosen !== undefined) return this.json(response, 200, fixture('vtpass', chosen));
    if (this.invalid_billers.has(billers_code)) return this.json(response, 200, fixture('vtpass', 'verify-invalid'));
    const service_id = String(body.serviceID ?? '');
    if (this.check_service_ids && !vtpass_service_ids.has(service_id)) return this.json(response, 200, fixture('vtpass', 'pay-012'));
    // A Smile e-mail is checked at its own endpoint only (https://www.vtpass.com/documentation/smile-network-payment-api-2/).
    if (service_id === 'smile-direct' && billers_code.includes('@') && !smile_email) return this.json(response, 200, fixture('vtpass', 'verify-invalid'));
    if (smile_email) {
      const out = fixture('vtpass', 'verify-smile-email');
      out.content.Customer_Name = upstream_customer;
      return this.json(response, 200, out);
    }
    let out: Record<string, any>;
    if (service_id.endsWith('-electric')) {
      out = fixture('vtpass', 'verify-meter');
      // VTpass sends these for every meter, empty when the disco says nothing.
      Object.assign(out.content, { Customer_Name: upstream_customer, Address: upstream_address, Meter_Number: billers_code, Meter_Type: body.type, Customer_Arrears: '', Minimum_Amount: '', Can_Vend: 'yes' });
    } else if (service_id === 'smile-direct') {
      out = fixture('vtpass', 'verify-smile-phone');
      out.content.Customer_Name = upstream_customer;
    } else {
      out = fixture('vtpass', 'verify-smartcard');
      Object.assign(out.content, { Customer_Name: upstream_customer, Current_Bouquet: 'DStv Compact', Due_Date: '2030-01-31', Customer_Number: billers_code });
      delete out.content.Current_Bouquet_Code;
      delete out.content.Renewal_Amount;
      if (service_id === 'dstv' || service_id === 'gotv') {
        out.content.Current_Bouquet_Code = upstream_bouquet_code;
        out.content.Renewal_Amount = upstream_renewal_amount;
      }
    }
    Object.assign(out.content, this.verify_content.get(billers_code) ?? {});
    for (const [field, value] of Object.entries(out.content)) if (value === undefined) delete out.content[field];
    return this.json(response, 200, out);
  }
}

/**
 * Codes VTpass sells whose entries our stored copies of its pages cut off (the GOtv, StarTimes and Smile
 * examples end in '...'; the JAMB example predates the mock/no-mock split), each seen in public VTpass
 * clients' recorded GET /api/service-variations answers or /api/pay calls (docs/upstreams.md "Catalog codes
 * and sync"). Kept apart from the recorded answers, and short, so that what rests on them stays visible.
 */
export const variations_beyond_stored_copy: Readonly<Record<string, readonly string[]>> = {
  gotv: ['gotv-smallie', 'gotv-jinja', 'gotv-jolli', 'gotv-max', 'gotv-supa', 'gotv-supa-plus'],
  startimes: ['smart', 'classic', 'super'],
  'smile-direct': ['624', '730'],
  jamb: ['utme-mock', 'utme-no-mock'],
};

/**
 * The variation codes VTpass sells, by serviceID: every recorded GET /api/service-variations answer
 * (test/fixtures/upstreams/vtpass/service-variations/), the codes beyond those copies above, and the meter
 * types of the electricity pages ("variation_code … prepaid or postpaid",
 * https://www.vtpass.com/documentation/ikedc-ikeja-electricity-distribution-company-payment-api/). Services
 * without a recorded list (WAEC, WAEC registration, Spectranet, Airtel data) are not checked.
 */
export function default_variations(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [service_id, recorded] of variation_fixtures()) out.set(service_id, new Set(variations_of(recorded.answer).map((v: { variation_code: string }) => String(v.variation_code))));
  for (const [service_id, codes] of Object.entries(variations_beyond_stored_copy)) for (const code of codes) out.get(service_id)?.add(code);
  for (const service_id of vtpass_service_ids) if (service_id.endsWith('-electric')) out.set(service_id, new Set(['prepaid', 'postpaid']));
  return out;
}

/** Starts a fake upstream; the tap test stops it. */
export async function start_upstream(t: { teardown(fn: () => unknown): void }): Promise<FakeUpstream> {
  const upstream = new FakeUpstream();
  await upstream.start();
  t.teardown(() => upstream.stop());
  return upstream;
}
