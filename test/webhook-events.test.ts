// Webhook events end to end (docs/spec.md section 6, docs/decisions.md "Webhooks", "Sandbox"): a real server with
// TIME_SCALE=0.001 (the sandbox's 30 s delay lasts 30 ms) delivers to real HTTPS receivers that trust
// the server through a private CA and verify both signatures in constant time.
import t, { type Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { start_server, type ApiResponse, type TestServer } from './helpers/server.js';
import { WebhookReceiver, webhook_env, type Received } from './helpers/webhook-receiver.js';
import { sleep } from './helpers/fixtures-http.js';
import { start_in_process } from './helpers/in-process.js';
import { sweep_interval_ms } from '../src/webhooks/delivery-bounds.js';

const server = await start_server(t, { env: webhook_env({ TIME_SCALE: '0.001', LOG_LEVEL: 'warn' }) });

/** Sweeps of the delivery queue the clock runs through once every delivery is made. */
const sweeps = 5;
const event_id_pattern = /^evt_[0-9A-Za-z]{24}$/;
const iso_us_pattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const all_kinds = ['transaction.completed', 'transaction.failed', 'transaction.processing', 'wallet.credited', 'wallet.debited', 'wallet.reversed'];

type Reseller = Awaited<ReturnType<TestServer['reseller']>>;

async function receiver_for(t: Test): Promise<WebhookReceiver> {
  const receiver = new WebhookReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  return receiver;
}

/** Registers the receiver's URL with the key and gives the receiver the secret shown once. */
async function register(t: Test, key: string, receiver: WebhookReceiver, body: Record<string, unknown> = {}, on: TestServer = server): Promise<number> {
  const created = await on.api('POST', '/v1/webhooks', { key, body: { url: receiver.url, ...body } });
  t.equal(created.status, 201, `the endpoint is registered: ${created.text}`);
  receiver.secret = created.body.data.secret;
  return created.body.data.id;
}

function reseller(funding_ngn = 100_000, on: TestServer = server): Promise<Reseller> {
  return on.reseller(funding_ngn, {}, { rate_limit_per_minute: 1_000_000 });
}

/** Polls an async read until it gives a value, or fails with what was awaited. */
async function eventually<T>(read: () => Promise<T | null | undefined | false>, limit_ms: number, what: string): Promise<T> {
  const deadline = Date.now() + limit_ms;
  for (;;) {
    const value = await read();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${limit_ms} ms waiting for ${what}`);
    await sleep(25);
  }
}

/**
 * Waits on an event instead of for a while: sends a webhook.test event to the endpoint and waits until
 * the receiver has it. Its delivery is made after every event before it, so a delivery of those that
 * should not exist would have been started first. The barrier's request is then taken out of the
 * receiver's log, and webhook.test deliveries are left out of all_deliveries(), so that the checks
 * below see the events under test only.
 */
async function barrier(key: string, endpoint_id: number, receiver: WebhookReceiver, on: TestServer = server): Promise<void> {
  const sent = await on.api('POST', `/v1/webhooks/${endpoint_id}/test`, { key });
  if (sent.status !== 202) throw new Error(`the barrier's test event answered ${sent.status} ${sent.text}`);
  const event_id = sent.body.data.event_id;
  await eventually(async () => receiver.received.some((r) => r.json?.id === event_id), 15_000, 'the barrier\'s test event');
  for (let i = receiver.received.length - 1; i >= 0; i--) if (receiver.received[i].json?.event === 'webhook.test') receiver.received.splice(i, 1);
}

/** Distinct event ids the receiver has seen. */
function distinct_ids(receiver: WebhookReceiver): Set<string> {
  return new Set(receiver.received.map((r) => r.json?.id));
}

async function all_deliveries(key: string, endpoint_id: number, on: TestServer = server): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const response = await on.api('GET', `/v1/webhooks/${endpoint_id}/deliveries?per_page=100&page=${page}`, { key });
    if (response.status !== 200) throw new Error(`GET /v1/webhooks/${endpoint_id}/deliveries answered ${response.status} ${response.text}`);
    out.push(...response.body.data.deliveries.filter((d: { event: string }) => d.event !== 'webhook.test'));
    if (page >= response.body.data.pagination.last_page) return out;
  }
}

async function all_wallet_entries(key: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const response = await server.api('GET', `/v1/wallet/transactions?per_page=100&page=${page}`, { key });
    if (response.status !== 200) throw new Error(`GET /v1/wallet/transactions answered ${response.status} ${response.text}`);
    out.push(...response.body.data.transactions);
    if (page >= response.body.data.pagination.last_page) return out;
  }
}

function airtime(account: Reseller, phone: string, amount = 100, on: TestServer = server): Promise<ApiResponse> {
  return on.api('POST', '/v1/services/airtime', { key: account.key, body: { network: 'mtn', phone, amount, pin: account.pin } });
}

/** The reference an answer names: a purchase's data.reference, a failed purchase's error.reference. */
function reference_of(response: ApiResponse): string {
  return response.body?.data?.reference ?? response.body?.error?.reference;
}

/** Checks what every delivery must carry, whatever its kind. */
function check_envelope(t: Test, request: Received, what: string): void {
  const headers = request.headers;
  const body = request.json;
  t.ok(body !== null && typeof body === 'object', `${what}: the body is JSON`);
  t.same(Object.keys(body ?? {}).sort(), ['created_at', 'data', 'event', 'id'], `${what}: the body is {event, id, created_at, data}`);
  t.match(String(headers['content-type']), /^application\/json\b/, `${what}: Content-Type is application/json`);
  t.equal(headers['x-service-event'], body?.event, `${what}: X-Service-Event names the event kind`);
  t.match(String(headers['x-service-signature']), /^sha256=[0-9a-f]{64}$/, `${what}: X-Service-Signature is sha256= and a lowercase hex digest`);
  t.ok(request.service_signature_ok, `${what}: X-Service-Signature verifies with the endpoint's secret`);
  t.equal(headers['webhook-id'], body?.id, `${what}: webhook-id is the event id`);
  t.match(String(body?.id), event_id_pattern, `${what}: the event id is evt_ and 24 base62 characters`);
  t.match(String(headers['webhook-timestamp']), /^\d{10}$/, `${what}: webhook-timestamp is Unix seconds`);
  const skew_s = Math.abs(Number(headers['webhook-timestamp']) - request.at_ms / 1000);
  t.ok(skew_s < 30, `${what}: webhook-timestamp is near the time of arrival (${skew_s.toFixed(1)} s apart)`);
  t.match(String(headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/, `${what}: webhook-signature is v1, and base64`);
  t.ok(request.standard_signature_ok, `${what}: webhook-signature verifies as Standard Webhooks`);
  t.match(String(body?.created_at), iso_us_pattern, `${what}: created_at is ISO 8601 UTC with microseconds`);
  t.ok(all_kinds.includes(body?.event), `${what}: the event kind is one of the six`);
}

t.test('each of the six event kinds arrives signed, with the spec\'s headers and the payload of its kind', async (t) => {
  const receiver = await receiver_for(t);
  const account = await reseller();
  const endpoint_id = await register(t, account.key, receiver);
  const packages = await server.api('GET', '/v1/services/tv/packages?provider=dstv', { key: account.key });
  const tv_package = packages.body.data.packages[0];

  // One row per way to make events: what to do, its answer, the events it must cause (by reference).
  const rows: { what: string; act: () => Promise<{ response: ApiResponse; reference: string }>; status: number; kinds: string[] }[] = [
    {
      what: 'airtime to 08011111111 (delivered)',
      act: async () => { const response = await airtime(account, '08011111111'); return { response, reference: reference_of(response) }; },
      status: 201,
      kinds: ['transaction.completed', 'wallet.debited'],
    },
    {
      what: 'airtime to 08022222222 (failed at once)',
      act: async () => { const response = await airtime(account, '08022222222'); return { response, reference: reference_of(response) }; },
      status: 422,
      kinds: ['transaction.failed', 'wallet.debited', 'wallet.reversed'],
    },
    {
      what: 'airtime to 08033333333 (processing, then delivered)',
      act: async () => { const response = await airtime(account, '08033333333'); return { response, reference: reference_of(response) }; },
      status: 201,
      kinds: ['transaction.completed', 'transaction.processing', 'wallet.debited'],
    },
    {
      what: 'airtime to 08044444444 (processing, then failed and refunded)',
      act: async () => { const response = await airtime(account, '08044444444'); return { response, reference: reference_of(response) }; },
      status: 201,
      kinds: ['transaction.failed', 'transaction.processing', 'wallet.debited', 'wallet.reversed'],
    },
    {
      what: 'prepaid electricity (delivered with a token)',
      act: async () => {
        const response = await server.api('POST', '/v1/services/electricity', { key: account.key, body: { disco: 'ikeja-electric', meter_number: '1111111111111', meter_type: 'prepaid', amount: 1000, pin: account.pin } });
        return { response, reference: reference_of(response) };
      },
      status: 201,
      kinds: ['transaction.completed', 'wallet.debited'],
    },
    {
      what: 'a DStv renewal (delivered)',
      act: async () => {
        const response = await server.api('POST', '/v1/services/tv', { key: account.key, body: { provider: 'dstv', smartcard_number: '1212121212', package_code: tv_package.package_code, amount: tv_package.amount, pin: account.pin } });
        return { response, reference: reference_of(response) };
      },
      status: 201,
      kinds: ['transaction.completed', 'wallet.debited'],
    },
    {
      what: 'a sandbox top-up',
      act: async () => {
        const reference = `TOPUP-${randomBytes(4).toString('hex')}`;
        return { response: await server.api('POST', '/v1/sandbox/wallet/fund', { key: account.key, body: { amount: 2500.5, reference } }), reference };
      },
      status: 201,
      kinds: ['wallet.credited'],
    },
    {
      what: 'an operator credit of the test wallet',
      act: async () => {
        const reference = `OPS-${randomBytes(4).toString('hex')}`;
        return { response: await server.admin('POST', `/admin/accounts/${account.id}/wallet/credit`, { environment: 'test', amount: 750.25, reference }), reference };
      },
      status: 201,
      kinds: ['wallet.credited'],
    },
  ];

  const expected = new Map<string, { what: string; kinds: string[] }>();
  for (const row of rows) {
    const { response, reference } = await row.act();
    t.equal(response.status, row.status, `${row.what} answers ${row.status}: ${response.text}`);
    t.ok(typeof reference === 'string' && reference.length > 0, `${row.what} names a reference`);
    expected.set(reference, { what: row.what, kinds: row.kinds });
  }
  const total = rows.reduce((sum, row) => sum + row.kinds.length, 0);
  await eventually(async () => distinct_ids(receiver).size >= total, 15_000, `${total} distinct events`);
  await barrier(account.key, endpoint_id, receiver); // any event that should not exist has arrived by now as well

  // Every request carries the envelope, the headers and both signatures.
  for (const [i, request] of receiver.received.entries()) check_envelope(t, request, `request ${i + 1} (${request.json?.event})`);

  // Exactly the expected events per reference, each with its own id (copies of a delivery share it).
  const by_id = new Map<string, Received>();
  for (const request of receiver.received) if (!by_id.has(request.json.id)) by_id.set(request.json.id, request);
  t.equal(by_id.size, total, `${total} distinct events arrived, no more`);
  const kinds_by_reference = new Map<string, string[]>();
  for (const request of by_id.values()) {
    const reference = request.json.data?.reference;
    kinds_by_reference.set(reference, [...(kinds_by_reference.get(reference) ?? []), request.json.event].sort());
  }
  for (const [reference, { what, kinds }] of expected) {
    t.same(kinds_by_reference.get(reference), kinds, `${what}: the events are ${kinds.join(', ')}, one of each`);
  }
  for (const request of receiver.received) {
    t.equal(request.body, by_id.get(request.json.id)!.body, `every copy of ${request.json.id} is the same body, byte for byte`);
  }

  // The payloads agree with the order records and the wallet history.
  const entries = new Map((await all_wallet_entries(account.key)).map((e) => [e.id, e]));
  // status is checked per kind: a processing event's order has moved on since.
  const transaction_fields = ['amount', 'network', 'recipient', 'reference', 'service_type'];
  for (const request of by_id.values()) {
    const { event, data } = request.json;
    const what = `${event} of ${expected.get(data.reference)?.what}`;
    if (event.startsWith('wallet.')) {
      t.same(Object.keys(data).sort(), ['amount', 'balance_after', 'created_at', 'reference', 'type', 'wallet_transaction_id'], `${what}: data is the wallet transaction`);
      const entry = entries.get(data.wallet_transaction_id);
      t.ok(entry !== undefined, `${what}: wallet_transaction_id ${data.wallet_transaction_id} is in the wallet history`);
      const type = { 'wallet.credited': 'credit', 'wallet.debited': 'debit', 'wallet.reversed': 'reversal' }[event as 'wallet.credited'];
      t.equal(data.type, type, `${what}: type is ${type}`);
      for (const field of ['type', 'amount', 'balance_after', 'reference', 'created_at']) {
        t.equal(data[field], entry?.[field], `${what}: ${field} equals the wallet history's`);
      }
      continue;
    }
    const order = (await server.api('GET', `/v1/transactions/${data.reference}`, { key: account.key })).body.data;
    for (const field of transaction_fields) t.equal(data[field], order[field], `${what}: ${field} equals the order's`);
    for (const field of ['disco', 'provider']) {
      if (order[field] !== null) t.equal(data[field], order[field], `${what}: ${field} equals the order's`);
    }
    if (event === 'transaction.completed') {
      t.equal(data.status, 'delivered', `${what}: status is delivered`);
      t.equal(order.status, 'delivered', `${what}: the order is delivered too`);
      t.match(String(data.delivered_at), iso_us_pattern, `${what}: delivered_at is ISO 8601 UTC`);
      t.equal(data.delivered_at, order.delivered_at, `${what}: delivered_at equals the order's`);
      t.notOk('failure_reason' in data, `${what}: no failure_reason`);
      if (order.service_type === 'electricity') {
        for (const field of ['token', 'units', 'meter_type']) t.equal(data[field], order[field], `${what}: ${field} equals the order's`);
        t.match(String(data.token), /^\d{4}-\d{4}-\d{4}-\d{4}-\d{4}$/, `${what}: the token is 20 digits in groups of 4`);
      }
    } else {
      const status = event === 'transaction.processing' ? 'processing' : 'failed';
      t.equal(data.status, status, `${what}: status is ${status}`);
      t.match(String(data.at), iso_us_pattern, `${what}: at is ISO 8601 UTC`);
      t.notOk('delivered_at' in data, `${what}: no delivered_at`);
      if (event === 'transaction.failed') {
        t.equal(order.status, 'failed', `${what}: the order is failed too`);
        t.equal(order.reversed, true, `${what}: the order is refunded`);
        t.ok(typeof data.failure_reason === 'string' && data.failure_reason.length > 0, `${what}: failure_reason says why`);
        t.equal(data.failure_reason, order.failure_reason, `${what}: failure_reason equals the order's`);
      } else {
        t.notOk('failure_reason' in data, `${what}: no failure_reason`);
      }
    }
  }

  const deliveries = await all_deliveries(account.key, endpoint_id);
  t.equal(deliveries.length, total, `the endpoint lists ${total} deliveries`);
  t.same(deliveries.filter((d) => d.status !== 'delivered').map((d) => `${d.event} ${d.status}`), [], 'every delivery is delivered');
  t.same(new Set(deliveries.map((d) => d.event_id)), new Set(by_id.keys()), 'the deliveries are of exactly the events that arrived');
});

t.test('a processing order\'s events carry the order\'s own timeline: processing, then the outcome', async (t) => {
  const receiver = await receiver_for(t);
  const account = await reseller();
  await register(t, account.key, receiver);
  const rows: [string, string][] = [['08033333333', 'transaction.completed'], ['08044444444', 'transaction.failed']];
  for (const [phone, outcome] of rows) {
    const bought = await airtime(account, phone);
    t.equal(bought.body?.data?.status, 'processing', `airtime to ${phone} answers processing`);
    const reference = reference_of(bought);
    const events = await eventually(async () => {
      const mine = receiver.received.filter((r) => r.json?.data?.reference === reference);
      const processing = mine.find((r) => r.json.event === 'transaction.processing');
      const final = mine.find((r) => r.json.event === outcome);
      return processing && final ? { processing, final } : null;
    }, 10_000, `transaction.processing and ${outcome} of ${reference}`);
    t.ok(events.processing.json.created_at <= events.final.json.created_at, `${phone}: transaction.processing happened before ${outcome}`);
    t.ok(events.processing.json.data.at <= (events.final.json.data.delivered_at ?? events.final.json.data.at), `${phone}: the processing time comes before the outcome's`);
  }
});

t.test('an endpoint registered for wallet.credited receives only wallet.credited events', async (t) => {
  const only_credits = await receiver_for(t);
  const everything = await receiver_for(t);
  const account = await reseller();
  const credits_id = await register(t, account.key, only_credits, { events: ['wallet.credited'] });
  await register(t, account.key, everything);
  const listed = await server.api('GET', '/v1/webhooks', { key: account.key });
  t.same(listed.body.data.webhooks.find((w: any) => w.id === credits_id)?.events, ['wallet.credited'], 'the endpoint lists its one event kind');

  const bought = await airtime(account, '08011111111');
  t.equal(bought.status, 201, 'airtime delivered');
  const failed = await airtime(account, '08022222222');
  t.equal(failed.status, 422, 'airtime failed and refunded');
  const funded = await server.api('POST', '/v1/sandbox/wallet/fund', { key: account.key, body: { amount: 100, reference: `ONLY-${randomBytes(4).toString('hex')}` } });
  t.equal(funded.status, 201, 'sandbox top-up');
  await server.credit(account.id, 'test', 200, `OPS-${randomBytes(4).toString('hex')}`);

  // 2 (delivered) + 3 (failed) + 2 credits reach the all-kinds endpoint; its arrival bounds the wait.
  await eventually(async () => distinct_ids(everything).size >= 7, 10_000, '7 events at the all-kinds endpoint');
  await eventually(async () => distinct_ids(only_credits).size >= 2, 10_000, '2 events at the wallet.credited endpoint');
  await barrier(account.key, credits_id, only_credits);
  t.same([...new Set(only_credits.received.map((r) => r.json.event))], ['wallet.credited'], 'the subscribed endpoint got wallet.credited and nothing else');
  t.equal(distinct_ids(only_credits).size, 2, 'it got both credits');
  t.same(new Set(only_credits.received.map((r) => r.json.data.reference)), new Set([funded.body.data.reference, ...everything.events('wallet.credited').map((r) => r.json.data.reference)]), 'the same credits the all-kinds endpoint got');
  const deliveries = await all_deliveries(account.key, credits_id);
  t.same(deliveries.map((d) => d.event), ['wallet.credited', 'wallet.credited'], 'only wallet.credited deliveries were even created for it');
});

t.test('endpoints belong to one environment: a test endpoint hears nothing of live credits, a live one nothing of test events', async (t) => {
  const test_receiver = await receiver_for(t);
  const live_receiver = await receiver_for(t);
  const account = await reseller();
  const live_key = await server.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  const test_endpoint = await register(t, account.key, test_receiver);
  const live_endpoint = await register(t, live_key.api_key, live_receiver);

  const test_list = await server.api('GET', '/v1/webhooks', { key: account.key });
  t.same(test_list.body.data.webhooks.map((w: any) => w.id), [test_endpoint], 'the test key lists only the test endpoint');
  const live_list = await server.api('GET', '/v1/webhooks', { key: live_key.api_key });
  t.same(live_list.body.data.webhooks.map((w: any) => [w.id, w.environment]), [[live_endpoint, 'live']], 'the live key lists only the live endpoint');

  const live_reference = `LIVE-${randomBytes(4).toString('hex')}`;
  await server.credit(account.id, 'live', 5000, live_reference);
  const [live_event] = await eventually(async () => live_receiver.events('wallet.credited').length > 0 && live_receiver.events('wallet.credited'), 10_000, 'the live credit at the live endpoint');
  t.equal(live_event.json.data.reference, live_reference, 'the live endpoint got the live credit');
  t.equal(live_event.json.data.amount, 5000, 'with its amount');
  t.ok(live_event.service_signature_ok && live_event.standard_signature_ok, 'signed with the live endpoint\'s secret');

  const bought = await airtime(account, '08011111111');
  t.equal(bought.status, 201, 'a test purchase is delivered');
  await eventually(async () => distinct_ids(test_receiver).size >= 2, 10_000, 'the test purchase\'s events at the test endpoint');
  await barrier(account.key, test_endpoint, test_receiver);
  await barrier(live_key.api_key, live_endpoint, live_receiver);
  t.same(test_receiver.received.map((r) => r.json.data.reference).filter((r) => r === live_reference), [], 'the test endpoint heard nothing of the live credit');
  t.same(new Set(test_receiver.received.map((r) => r.json.event)), new Set(['transaction.completed', 'wallet.debited']), 'the test endpoint got the test purchase');
  t.equal(distinct_ids(live_receiver).size, 1, 'the live endpoint heard nothing of the test purchase');
  t.equal((await all_deliveries(account.key, test_endpoint)).length, 2, 'the test endpoint has deliveries for the test events only');
  t.equal((await all_deliveries(live_key.api_key, live_endpoint)).length, 1, 'the live endpoint has one delivery, the live credit');
  const cross = await server.api('GET', `/v1/webhooks/${live_endpoint}/deliveries`, { key: account.key });
  t.equal(cross.status, 404, 'a test key cannot read the live endpoint\'s deliveries');
  t.equal(cross.body?.error?.code, 'webhooks.not_found', 'it is webhooks.not_found');
});

t.test('every request a receiver gets is recorded as an attempt of its delivery, so no delivery is repeated unseen', async (t) => {
  // docs/decisions.md: "Every attempt is recorded (status code, duration, error) and visible." A receiver
  // that answers 200 at once must see each event once per recorded attempt, not more. In this process
  // on a manual clock (test/helpers/in-process.ts), so that the delivery queue's minute-long sweeps,
  // which could send a delivery again, are run on purpose and not hoped for during a sleep.
  const on_clock = await start_in_process(t, { env: webhook_env({ LOG_LEVEL: 'warn' }) });
  const receiver = await receiver_for(t);
  const account = await reseller(100_000, on_clock);
  const endpoint_id = await register(t, account.key, receiver, {}, on_clock);
  const purchases = 30;
  for (let i = 0; i < purchases; i += 5) {
    const answers = await Promise.all(Array.from({ length: 5 }, () => airtime(account, '08011111111', 50, on_clock)));
    for (const answer of answers) if (answer.status !== 201) t.fail(`a purchase answered ${answer.status} ${answer.text}`);
  }
  await eventually(async () => distinct_ids(receiver).size >= purchases * 2, 15_000, `${purchases * 2} events`);
  await eventually(async () => (await all_deliveries(account.key, endpoint_id, on_clock)).every((d) => d.status === 'delivered'), 15_000, 'every delivery to be recorded as delivered');
  for (let sweep = 0; sweep < sweeps; sweep++) on_clock.clock.advance(sweep_interval_ms);
  await barrier(account.key, endpoint_id, receiver, on_clock);
  t.ok(receiver.received.every((r) => r.answered === 200), 'the receiver answered every request 200');
  t.equal(receiver.received.length, purchases * 2, `the receiver got ${purchases * 2} requests, one per event, after ${sweeps} sweeps of the delivery queue`);
  const deliveries = await all_deliveries(account.key, endpoint_id, on_clock);
  t.equal(deliveries.length, purchases * 2, `${purchases * 2} deliveries`);
  const requests = new Map<string, number>();
  for (const request of receiver.received) requests.set(request.json.id, (requests.get(request.json.id) ?? 0) + 1);
  const unrecorded = deliveries
    .filter((d) => (requests.get(d.event_id) ?? 0) !== d.attempts.length)
    .map((d) => `delivery ${d.id} (${d.event}): ${requests.get(d.event_id) ?? 0} requests, ${d.attempts.length} recorded attempts`);
  t.same(unrecorded, [], 'each delivery\'s recorded attempts match the requests its receiver got');
});
