// The TypeScript SDK (sdk/, @billvend/sdk; docs/api.md "The TypeScript SDK") against a real server: a purchase, a
// refusal thrown by its code, a list and the events feed as async iterators, retries that reuse the idempotency key
// (through a small HTTP front that answers 429 or loses an answer, as a proxy or a flaky network would), and the
// signature of a real webhook delivery verified by the SDK.
import t, { type Test } from 'tap';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Billvend, BillvendError, verifyWebhook, WebhookVerificationError } from '../sdk/src/index.js';
import { start_server, type TestServer } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';

const server = await start_server(t, { env: webhook_env({ TIME_SCALE: '0.001', LOG_LEVEL: 'warn' }) });

function reseller(on: TestServer = server) {
  return on.reseller(100_000, {}, { rate_limit_per_minute: 1_000_000 });
}

interface Seen {
  method: string;
  url: string;
  idempotency_key: string | undefined;
}

/**
 * An HTTP front between the SDK and the server, as a proxy would be: each request is logged, then answered as
 * `behave` says: 'forward' (the server's answer), a status of its own without reaching the server (with a
 * Retry-After), or 'lose' (the request reaches the server, its answer is dropped and 503 is answered instead).
 */
class Front {
  readonly seen: Seen[] = [];
  private http: Server | null = null;
  port = 0;
  constructor(private readonly target: string, private readonly behave: (n: number, request: IncomingMessage) => 'forward' | 'lose' | { status: number; retry_after?: string }) {}

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.http = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.http!.listen(0, '127.0.0.1', resolve));
    this.port = (this.http.address() as AddressInfo).port;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    this.seen.push({ method: request.method!, url: request.url!, idempotency_key: request.headers['x-idempotency-key'] as string | undefined });
    const behaviour = this.behave(this.seen.length, request);
    if (typeof behaviour === 'object') {
      const body = JSON.stringify({ success: false, error: { code: behaviour.status === 429 ? 'rate_limit.exceeded' : 'service.unavailable', message: 'from the front' }, request_id: 'req_front' });
      response.writeHead(behaviour.status, { 'content-type': 'application/json', ...(behaviour.retry_after !== undefined ? { 'retry-after': behaviour.retry_after } : {}) });
      response.end(body);
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers[name] = value;
    const answer = await fetch(this.target + request.url, { method: request.method, headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined });
    const text = await answer.text();
    if (behaviour === 'lose') {
      response.writeHead(503, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ success: false, error: { code: 'service.unavailable', message: 'answer lost by the front' }, request_id: 'req_front' }));
      return;
    }
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection') out[name] = value;
    });
    response.writeHead(answer.status, out);
    response.end(text);
  }

  async stop(): Promise<void> {
    this.http?.closeAllConnections();
    await new Promise<void>((resolve) => (this.http === null ? resolve() : this.http.close(() => resolve())));
  }
}

async function front(t: Test, behave: ConstructorParameters<typeof Front>[1]): Promise<Front> {
  const made = new Front(server.base, behave);
  await made.start();
  t.teardown(() => made.stop());
  return made;
}

const airtime = (pin: string, phone = '08011111111') => ({ network: 'mtn' as const, phone, amount: 100, pin });

t.test('a purchase with the SDK: typed data, an idempotency key made for it, and the same key replays', async (t) => {
  const account = await reseller();
  const billvend = new Billvend({ apiKey: account.key, baseUrl: server.base });
  const bought = await billvend.request('post', '/v1/services/airtime', { body: airtime(account.pin) });
  t.equal(bought.status, 201, 'the purchase answers 201');
  t.equal(bought.data.status, 'delivered', 'the sandbox number is delivered');
  t.equal(bought.data.amount, 100, 'the amount is the one asked');
  t.equal(bought.replayed, false, 'the first answer is no replay');
  t.match(bought.idempotencyKey, /^[0-9a-f-]{36}$/, 'the SDK made an idempotency key for the POST');
  t.equal(bought.message, 'Airtime purchase successful.', 'the message is kept beside the data');

  const again = await billvend.request('post', '/v1/services/airtime', { body: airtime(account.pin), idempotencyKey: bought.idempotencyKey! });
  t.equal(again.replayed, true, 'the same key again is a replay');
  t.equal(again.data.reference, bought.data.reference, 'the replay names the same order');
  const wallet = await billvend.get('/v1/wallet');
  t.equal(wallet.balance, 100_000 - 100, 'the wallet paid once');

  const order = await billvend.get('/v1/transactions/{reference}', { path: { reference: bought.data.reference } });
  t.equal(order.reference, bought.data.reference, 'a path parameter is filled in');
  t.equal(order.status, 'delivered', 'the order record says delivered');
});

t.test('a refusal is thrown as a BillvendError with its permanent code', async (t) => {
  const account = await reseller();
  const billvend = new Billvend({ apiKey: account.key, baseUrl: server.base });
  const wrong_pin = await billvend.post('/v1/services/airtime', airtime('99999')).then(() => null, (error: unknown) => error);
  t.type(wrong_pin, BillvendError, 'a wrong PIN throws a BillvendError');
  const error = wrong_pin as BillvendError;
  t.equal(error.code, 'pin.incorrect', 'its code is pin.incorrect');
  t.equal(error.status, 403, 'its status is 403');
  t.equal(error.family, 'pin', 'its family is pin');
  t.equal(error.retryable, false, 'a 4xx other than 429 is not retried');
  t.match(error.requestId, /^req_/, 'it names the request');

  const invalid = (await billvend.post('/v1/services/airtime', { ...airtime(account.pin), phone: '12' }).catch((e: unknown) => e)) as BillvendError;
  t.equal(invalid.code, 'validation.failed', 'a bad phone is validation.failed');
  t.ok(invalid.details.some((detail) => detail.field === 'phone'), 'its details name the field');

  const unknown = (await billvend.get('/v1/transactions/{reference}', { path: { reference: 'BV-20260101-AAAAAAAAAAAA' } }).catch((e: unknown) => e)) as BillvendError;
  t.equal(unknown.code, 'transaction.not_found', 'an unknown order is transaction.not_found');
  t.equal(unknown.status, 404, 'with 404');

  const failed = (await billvend.post('/v1/services/airtime', airtime(account.pin, '08022222222')).catch((e: unknown) => e)) as BillvendError;
  t.equal(failed.code, 'transaction.failed', 'the failing sandbox number is transaction.failed');
  t.match(failed.reference, /^BV-/, 'the error names the refunded order');

  const bad_key = new Billvend({ apiKey: 'bv_test_nope', baseUrl: server.base });
  const refused = (await bad_key.get('/v1/wallet').catch((e: unknown) => e)) as BillvendError;
  t.equal(refused.family, 'auth', 'an unknown key is an auth error');
});

t.test('paginate walks every page of the history and events() the whole feed', async (t) => {
  const account = await reseller();
  const billvend = new Billvend({ apiKey: account.key, baseUrl: server.base });
  const references: string[] = [];
  for (let i = 0; i < 5; i++) references.push((await billvend.post('/v1/services/airtime', airtime(account.pin))).reference);

  const listed: string[] = [];
  for await (const order of billvend.paginate('/v1/transactions', { query: { per_page: 2 } })) listed.push(order.reference);
  t.same(listed, [...references].reverse(), 'five orders over three pages of two, newest first, each once');

  const entries = [];
  for await (const entry of billvend.paginate('/v1/wallet/transactions', { query: { per_page: 3 } })) entries.push(entry);
  t.equal(entries.length, 6, 'the wallet list: the funding and five debits over two pages');

  const events = [];
  for await (const event of billvend.events({ limit: 3 })) events.push(event);
  const completed = events.filter((event) => event.event === 'transaction.completed').map((event) => (event.data as { reference: string }).reference);
  t.same(completed, references, 'the feed lists each purchase\'s transaction.completed, oldest first, across pages');
  t.equal(new Set(events.map((event) => event.id)).size, events.length, 'no event is listed twice');

  // Following: the iterator waits at the end of the feed and yields an event made afterwards.
  const controller = new AbortController();
  const followed: string[] = [];
  const following = (async () => {
    for await (const event of billvend.events({ after: events.at(-1)!.id, follow: true, pollIntervalMs: 50, signal: controller.signal, type: 'transaction.completed' })) {
      followed.push((event.data as { reference: string }).reference);
      controller.abort();
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 150));
  const later = await billvend.post('/v1/services/airtime', airtime(account.pin));
  await following;
  t.same(followed, [later.reference], 'the followed feed yields the purchase made after it reached the end, then stops on abort');
});

t.test('a 429 with Retry-After is waited for and retried with the same idempotency key', async (t) => {
  const account = await reseller();
  const proxy = await front(t, (n) => (n === 1 ? { status: 429, retry_after: '1' } : 'forward'));
  const billvend = new Billvend({ apiKey: account.key, baseUrl: proxy.base });
  const started = Date.now();
  const bought = await billvend.request('post', '/v1/services/airtime', { body: airtime(account.pin) });
  const waited_ms = Date.now() - started;
  t.equal(bought.data.status, 'delivered', 'the retry bought the airtime');
  t.equal(bought.attempts, 2, 'in two attempts');
  t.ok(waited_ms >= 1000, `the SDK waited the second Retry-After asked (${waited_ms} ms)`);
  t.equal(proxy.seen.length, 2, 'two requests went out');
  t.ok(proxy.seen[0]!.idempotency_key !== undefined && proxy.seen[0]!.idempotency_key === proxy.seen[1]!.idempotency_key, 'both carried the same X-Idempotency-Key');
});

t.test('a 503 whose purchase went through is retried with the same key and answered by the replay: bought once', async (t) => {
  const account = await reseller();
  // The first request reaches the server and is bought; its answer is lost on the way back (503).
  const proxy = await front(t, (n) => (n === 1 ? 'lose' : 'forward'));
  const billvend = new Billvend({ apiKey: account.key, baseUrl: proxy.base, retryBaseDelayMs: 20 });
  const bought = await billvend.request('post', '/v1/services/airtime', { body: airtime(account.pin) });
  t.equal(bought.attempts, 2, 'the 503 was retried once');
  t.equal(bought.replayed, true, 'the retry is answered by the remembered purchase');
  t.equal(proxy.seen[0]!.idempotency_key, proxy.seen[1]!.idempotency_key, 'under the same X-Idempotency-Key');
  const direct = new Billvend({ apiKey: account.key, baseUrl: server.base });
  t.equal((await direct.get('/v1/wallet')).balance, 100_000 - 100, 'the wallet paid once');
  const orders = [];
  for await (const order of direct.paginate('/v1/transactions')) orders.push(order);
  t.equal(orders.length, 1, 'one order exists');
});

t.test('retries are bounded, a long Retry-After is not waited for, and 4xx is never retried', async (t) => {
  const account = await reseller();
  const always = await front(t, () => ({ status: 503 }));
  const waits: number[] = [];
  const billvend = new Billvend({ apiKey: account.key, baseUrl: always.base, maxAttempts: 3, sleep: async (ms) => void waits.push(ms) });
  const error = (await billvend.post('/v1/services/airtime', airtime(account.pin)).catch((e: unknown) => e)) as BillvendError;
  t.equal(error.code, 'service.unavailable', 'the last 503 is thrown');
  t.equal(always.seen.length, 3, 'after maxAttempts (3) requests');
  t.same(waits, [1000, 2000], 'waiting 1 s then 2 s without Retry-After');
  t.equal(new Set(always.seen.map((seen) => seen.idempotency_key)).size, 1, 'every attempt carried one key');

  const locked = await front(t, () => ({ status: 429, retry_after: '900' }));
  const patient = new Billvend({ apiKey: account.key, baseUrl: locked.base, sleep: async () => void t.fail('no wait of 900 s') });
  const lock_error = (await patient.get('/v1/wallet').catch((e: unknown) => e)) as BillvendError;
  t.equal(lock_error.retryAfterS, 900, 'the Retry-After is on the error');
  t.equal(locked.seen.length, 1, 'a Retry-After beyond maxRetryDelayMs is thrown at once');

  const direct = new Billvend({ apiKey: account.key, baseUrl: server.base, sleep: async () => void t.fail('no retry of a 4xx') });
  await t.rejects(direct.post('/v1/services/airtime', airtime('00000')), { code: 'pin.incorrect' }, 'a 403 is thrown without a retry');
});

t.test('verifyWebhook accepts a real delivery and refuses a changed body, another secret and an old timestamp', async (t) => {
  const account = await reseller();
  const receiver = new WebhookReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  const billvend = new Billvend({ apiKey: account.key, baseUrl: server.base });
  const endpoint = await billvend.post('/v1/webhooks', { url: receiver.url, events: ['transaction.completed'] });
  receiver.secret = endpoint.secret;
  const bought = await billvend.post('/v1/services/airtime', airtime(account.pin));
  const [delivery] = await receiver.wait_for(1);
  t.ok(delivery!.standard_signature_ok, 'the test receiver\'s own check agrees the delivery is signed');

  const event = await verifyWebhook(delivery!.body, delivery!.headers, endpoint.secret);
  t.equal(event.event, 'transaction.completed', 'the verified event is the purchase\'s');
  t.equal((event.data as { reference: string }).reference, bought.reference, 'for the order bought');
  t.equal(event.id, delivery!.headers['webhook-id'], 'with the delivery\'s webhook-id');
  const as_fetch_headers = new Headers(Object.entries(delivery!.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  t.equal((await verifyWebhook(new TextEncoder().encode(delivery!.body), as_fetch_headers, endpoint.secret)).id, event.id, 'fetch Headers and a byte body verify too');

  await t.rejects(verifyWebhook(delivery!.body.replace('"amount":100', '"amount":900'), delivery!.headers, endpoint.secret), WebhookVerificationError, 'a changed body is refused');
  const other = await billvend.post('/v1/webhooks', { url: `${receiver.url}?other`, events: ['transaction.completed'] });
  await t.rejects(verifyWebhook(delivery!.body, delivery!.headers, other.secret), WebhookVerificationError, 'another endpoint\'s secret is refused');
  const sent_s = Number(delivery!.headers['webhook-timestamp']);
  await t.rejects(verifyWebhook(delivery!.body, delivery!.headers, endpoint.secret, { nowS: sent_s + 301 }), /more than 300 s/, 'a delivery older than 5 minutes is refused');
  await t.resolves(verifyWebhook(delivery!.body, delivery!.headers, endpoint.secret, { nowS: sent_s + 299 }), 'within 5 minutes it verifies');
  await t.rejects(verifyWebhook(delivery!.body, { ...delivery!.headers, 'webhook-signature': undefined }, endpoint.secret), WebhookVerificationError, 'a delivery without a signature is refused');
});
