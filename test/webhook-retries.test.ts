// Webhook retries, dead deliveries, replay, 410 and timeouts (docs/spec.md section 6 "Retries", docs/decisions.md
// "Webhooks", "Time"). The server runs in this process on a manual clock (test/helpers/in-process.ts),
// so the retry schedule 30 s, 5 min, 30 min, 2 h, 8 h is the real one: the test moves the clock to one
// millisecond before each retry and then onto it, and the attempts' recorded times show each retry came
// exactly on time. The timeout test runs its own server as a child process with WEBHOOK_TIMEOUT_MS=1000
// (a receiver's timeout is real socket time); the others keep the default 10 s, so that a TLS
// handshake on a busy machine is never a failure.
import t, { type Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { start_server, type ApiResponse, type TestServer } from './helpers/server.js';
import { WebhookReceiver, webhook_env, type Behaviour } from './helpers/webhook-receiver.js';
import { sleep } from './helpers/fixtures-http.js';
import { start_in_process, whole_second_ms, type InProcessServer } from './helpers/in-process.js';
import { retry_delays_ms } from '../src/webhooks/delivery-bounds.js';

t.setTimeout(180_000);

/** The child-process server of the timeout test runs the schedule at this scale. */
const time_scale = 0.0001;
// Long enough that "not on the request path" stays measurable on a busy 2-core machine.
const timeout_ms = 1000;

// Started on a whole second, so that each retry, due a whole number of seconds after its attempt,
// falls on a tick of the timer wheel and fires at its due millisecond exactly.
const server: InProcessServer = await start_in_process(t, { env: webhook_env({ LOG_LEVEL: 'warn' }), start_ms: whole_second_ms() });

type Reseller = Awaited<ReturnType<TestServer['reseller']>>;

function reseller(on: TestServer = server): Promise<Reseller> {
  return on.reseller(100_000, {}, { rate_limit_per_minute: 1_000_000 });
}

async function receiver_for(t: Test, otherwise: Behaviour = 200, script: Behaviour[] = []): Promise<WebhookReceiver> {
  const receiver = new WebhookReceiver();
  receiver.otherwise = otherwise;
  receiver.script = script;
  await receiver.start();
  t.teardown(() => receiver.stop());
  return receiver;
}

async function register(t: Test, key: string, receiver: WebhookReceiver, events?: string[], on: TestServer = server): Promise<number> {
  const created = await on.api('POST', '/v1/webhooks', { key, body: { url: receiver.url, ...(events ? { events } : {}) } });
  t.equal(created.status, 201, `the endpoint is registered: ${created.text}`);
  receiver.secret = created.body.data.secret;
  return created.body.data.id;
}

async function eventually<T>(read: () => Promise<T | null | undefined | false>, limit_ms: number, what: string): Promise<T> {
  const deadline = Date.now() + limit_ms;
  for (;;) {
    const value = await read();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${limit_ms} ms waiting for ${what}`);
    await sleep(25);
  }
}

async function deliveries_of(key: string, endpoint_id: number, on: TestServer = server): Promise<any[]> {
  const response = await on.api('GET', `/v1/webhooks/${endpoint_id}/deliveries?per_page=100`, { key });
  if (response.status !== 200) throw new Error(`GET /v1/webhooks/${endpoint_id}/deliveries answered ${response.status} ${response.text}`);
  return response.body.data.deliveries;
}

/** Waits until the endpoint's only delivery satisfies the predicate. */
function delivery_when(key: string, endpoint_id: number, predicate: (d: any) => boolean, what: string, on: TestServer = server): Promise<any> {
  return eventually(async () => {
    const [delivery] = await deliveries_of(key, endpoint_id, on);
    return delivery !== undefined && predicate(delivery) ? delivery : null;
  }, 15_000, what);
}

function credit(account: Reseller, on: TestServer = server): Promise<ApiResponse> {
  return on.credit(account.id, 'test', 100, `R-${randomBytes(5).toString('hex')}`);
}

/** Waits until the endpoint's only delivery has recorded n attempts: the attempt is over and its retry planned. */
function recorded_attempts(key: string, endpoint_id: number, n: number, on: TestServer = server): Promise<any> {
  return delivery_when(key, endpoint_id, (d) => d.attempts.length >= n, `attempt ${n} to be recorded`, on);
}

t.test('a receiver answering 500 gets the first try and 5 retries each exactly at its delay, then the delivery is dead until a replay delivers it', async (t) => {
  const receiver = await receiver_for(t, 500);
  const account = await reseller();
  const endpoint_id = await register(t, account.key, receiver, ['wallet.credited']);
  const credited = await credit(account);
  await receiver.wait_for(1);
  await recorded_attempts(account.key, endpoint_id, 1);

  for (const [i, delay_ms] of retry_delays_ms.entries()) {
    const before = await recorded_attempts(account.key, endpoint_id, i + 1);
    const last_at_ms = Date.parse(before.attempts[i].at);
    t.equal(Date.parse(before.next_attempt_at), last_at_ms + delay_ms, `after attempt ${i + 1} the next is planned ${delay_ms / 1000} s later`);
    // One millisecond short of the delay the retry is not started: had it been, its attempt would be
    // recorded at this instant, which the exact gap checked below rules out.
    server.clock.advance(last_at_ms + delay_ms - 1 - server.clock.now_ms());
    t.equal(receiver.received.length, i + 1, `one millisecond before retry ${i + 1} is due, ${i + 1} request(s) have arrived`);
    server.clock.advance(1);
    await receiver.wait_for(i + 2);
    const after = await recorded_attempts(account.key, endpoint_id, i + 2);
    t.equal(Date.parse(after.attempts[i + 1].at) - last_at_ms, delay_ms, `retry ${i + 1} was attempted exactly ${delay_ms / 1000} s after attempt ${i + 1}`);
  }
  t.equal(receiver.received.length, 6, 'exactly 6 requests arrived: the first try and 5 retries');

  const event_id = receiver.received[0].json.id;
  t.equal(receiver.received[0].json.data.reference, credited.body.data.reference, 'the event is the credit');
  for (const [i, request] of receiver.received.entries()) {
    t.equal(request.json.id, event_id, `request ${i + 1} carries the same event id`);
    t.equal(request.headers['webhook-id'], event_id, `request ${i + 1} has the same webhook-id`);
    t.equal(request.body, receiver.received[0].body, `request ${i + 1} has the same body`);
    t.ok(request.service_signature_ok && request.standard_signature_ok, `request ${i + 1} is signed`);
  }

  const dead = await delivery_when(account.key, endpoint_id, (d) => d.status === 'dead', 'the delivery to be dead');

  t.equal(dead.event_id, event_id, 'the delivery is of that event');
  t.equal(dead.event, 'wallet.credited', 'of kind wallet.credited');
  t.equal(dead.series, 1, 'in the first series of attempts');
  t.equal(dead.next_attempt_at, null, 'a dead delivery has no next attempt');
  t.equal(receiver.received.length, 6, 'a dead delivery is attempted no more: still 6 requests');
  t.equal(dead.attempts.length, 6, 'all 6 attempts are recorded');
  for (const [i, attempt] of dead.attempts.entries()) {
    t.equal(attempt.series, 1, `attempt ${i + 1} is of series 1`);
    t.equal(attempt.number, i + 1, `attempt ${i + 1} is numbered ${i + 1}`);
    t.equal(attempt.status_code, 500, `attempt ${i + 1} recorded status 500`);
    t.ok(typeof attempt.duration_ms === 'number' && attempt.duration_ms >= 0 && attempt.duration_ms < timeout_ms * 10, `attempt ${i + 1} recorded its duration (${attempt.duration_ms} ms)`);
    t.equal(attempt.error, null, `attempt ${i + 1} got an answer, so no error`);
    if (i > 0) {
      const gap_ms = (Date.parse(attempt.at) - Date.parse(dead.attempts[i - 1].at));
      t.equal(gap_ms, retry_delays_ms[i - 1], `attempt ${i + 1} is recorded ${retry_delays_ms[i - 1] / 1000} s after attempt ${i}`);
    }
  }

  const dead_list = await server.admin('GET', '/admin/webhooks/dead');
  t.equal(dead_list.status, 200, 'the operator lists dead deliveries');
  const listed = dead_list.body.data.deliveries.find((d: any) => d.id === dead.id);
  t.ok(listed !== undefined, 'the dead delivery is on the operator\'s list');
  t.equal(listed?.account_id, account.id, 'with its account');
  t.equal(listed?.environment, 'test', 'and its environment');
  t.equal(listed?.status, 'dead', 'as dead');
  t.equal(listed?.event_id, event_id, 'naming the event');

  receiver.otherwise = 200;
  const replay = await server.api('POST', `/v1/webhooks/${endpoint_id}/deliveries/${dead.id}/replay`, { key: account.key });
  t.equal(replay.status, 202, `the replay is accepted: ${replay.text}`);
  t.equal(replay.body?.data?.status, 'pending', 'the replayed delivery is pending again');
  t.equal(replay.body?.data?.series, 2, 'in a second series of attempts');
  t.equal(replay.body?.data?.event_id, event_id, 'of the same event');
  await receiver.wait_for(7);
  const seventh = receiver.received[6];
  t.equal(seventh.json.id, event_id, 'the 7th request carries the same event id');
  t.equal(seventh.body, receiver.received[0].body, 'and the same body');
  t.ok(seventh.service_signature_ok && seventh.standard_signature_ok, 'and is signed');
  const delivered = await delivery_when(account.key, endpoint_id, (d) => d.status === 'delivered', 'the replay to deliver');
  t.equal(delivered.attempts.length, 7, `the 6 old attempts and the new one are recorded: ${JSON.stringify(delivered.attempts.slice(5))}`);
  t.same(delivered.attempts.map((a: any) => [a.series, a.number, a.status_code]).slice(-2), [[1, 6, 500], [2, 1, 200]], 'the replay\'s attempt is series 2, number 1, status 200');
  // Delivered is final: no attempt of it is planned or can start, so the count is the last one.
  t.equal(delivered.next_attempt_at, null, 'the delivered replay has no next attempt');
  t.equal(receiver.received.length, 7, 'nothing more arrives after the replay delivered');
  const after = await server.admin('GET', '/admin/webhooks/dead');
  t.notOk(after.body.data.deliveries.some((d: any) => d.id === dead.id), 'a delivered replay leaves the dead list');
});

t.test('a replay names an endpoint and a delivery of the key\'s own account and environment', async (t) => {
  const receiver = await receiver_for(t);
  const account = await reseller();
  const stranger = await reseller();
  const endpoint_id = await register(t, account.key, receiver, ['wallet.credited']);
  await credit(account);
  const delivery = await delivery_when(account.key, endpoint_id, (d) => d.status === 'delivered', 'the delivery');
  const live = await server.create_key(account.id, { environment: 'live' });
  const rows: [string, string, string, number, string][] = [
    ['an unknown delivery id', account.key, `/v1/webhooks/${endpoint_id}/deliveries/999999/replay`, 404, 'webhooks.delivery_not_found'],
    ['an unknown endpoint id', account.key, `/v1/webhooks/999999/deliveries/${delivery.id}/replay`, 404, 'webhooks.not_found'],
    ['another account\'s key', stranger.key, `/v1/webhooks/${endpoint_id}/deliveries/${delivery.id}/replay`, 404, 'webhooks.not_found'],
    ['the account\'s live key', live.api_key, `/v1/webhooks/${endpoint_id}/deliveries/${delivery.id}/replay`, 404, 'webhooks.not_found'],
  ];
  for (const [what, key, path, status, code] of rows) {
    const response = await server.api('POST', path, { key });
    t.equal(response.status, status, `a replay with ${what} is ${status}`);
    t.equal(response.body?.error?.code, code, `a replay with ${what} is ${code}`);
  }
  // A refused replay plans nothing: the delivery is as it was, delivered once with one attempt.
  const after = await deliveries_of(account.key, endpoint_id);
  t.equal(after.length, 1, 'the refused replays made no delivery');
  t.same(after[0].attempts.map((a: any) => [a.series, a.number]), [[1, 1]], 'and no attempt: the delivery keeps its one attempt');
  t.equal(after[0].status, 'delivered', 'and stays delivered');
  t.equal(receiver.received.length, 1, 'none of the refused replays sent anything');
});

t.test('any answer but a 2xx is a failure that is retried; a 2xx delivers at once', async (t) => {
  const account = await reseller();
  // One endpoint per first answer (10, the limit); then every receiver answers 200.
  const rows: { first: Behaviour; delivered_first: boolean }[] = [
    { first: 200, delivered_first: true },
    { first: 202, delivered_first: true },
    { first: 204, delivered_first: true },
    { first: 301, delivered_first: false },
    { first: 400, delivered_first: false },
    { first: 404, delivered_first: false },
    { first: 429, delivered_first: false },
    { first: 500, delivered_first: false },
    { first: 503, delivered_first: false },
    { first: 'reset', delivered_first: false },
  ];
  const endpoints: { row: (typeof rows)[number]; receiver: WebhookReceiver; id: number }[] = [];
  for (const row of rows) {
    const receiver = await receiver_for(t, 200, [row.first]);
    endpoints.push({ row, receiver, id: await register(t, account.key, receiver, ['wallet.credited']) });
  }
  await credit(account);
  for (const { row, receiver, id } of endpoints) {
    await receiver.wait_for(1);
    await delivery_when(account.key, id, (d) => d.attempts.length === 1, `the first attempt to the receiver answering ${row.first} to be recorded`);
  }
  // Every first attempt was made at this instant of the clock: 30 s on, the failed ones are retried.
  server.clock.advance(retry_delays_ms[0]);
  for (const { row, receiver } of endpoints) await receiver.wait_for(row.delivered_first ? 1 : 2);
  for (const { row, id, receiver } of endpoints) {
    const delivery = await delivery_when(account.key, id, (d) => d.status === 'delivered', `the delivery to the receiver answering ${row.first} first`);
    // Delivered is final, so the receiver's count is the last one.
    t.equal(receiver.received.length, row.delivered_first ? 1 : 2, `the receiver answering ${row.first} first got ${row.delivered_first ? 1 : 2} request(s)`);
    t.ok(receiver.received.every((r) => r.service_signature_ok), `the receiver answering ${row.first} first saw valid signatures`);
    const expected_attempts = row.delivered_first ? 1 : 2;
    t.equal(delivery.attempts.length, expected_attempts, `first answer ${row.first}: ${expected_attempts} attempt(s) recorded: ${JSON.stringify(delivery.attempts)}`);
    const first = delivery.attempts[0];
    if (row.first === 'reset') {
      t.equal(first.status_code, null, 'a reset connection records no status code');
      t.ok(typeof first.error === 'string' && first.error.length > 0, `a reset connection records an error (${first.error})`);
    } else {
      t.equal(first.status_code, row.first, `first answer ${row.first}: the attempt recorded ${row.first}`);
      t.equal(first.error, null, `first answer ${row.first}: no error`);
    }
    if (!row.delivered_first) {
      t.equal(delivery.attempts[1].status_code, 200, `first answer ${row.first}: the retry got 200`);
      const gap = Date.parse(delivery.attempts[1].at) - Date.parse(first.at);
      t.equal(gap, retry_delays_ms[0], `first answer ${row.first}: the retry came exactly 30 s later`);
    }
  }
});

t.test('an endpoint that answers 410 is disabled and receives nothing more', async (t) => {
  const gone = await receiver_for(t, 200, [410]);
  const control = await receiver_for(t);
  const account = await reseller();
  const gone_id = await register(t, account.key, gone);
  await register(t, account.key, control);
  await credit(account);
  const listed = await eventually(async () => {
    const webhooks = (await server.api('GET', '/v1/webhooks', { key: account.key })).body.data.webhooks;
    const mine = webhooks.find((w: any) => w.id === gone_id);
    return mine?.enabled === false ? mine : null;
  }, 10_000, 'the endpoint to be disabled');
  t.equal(listed?.enabled, false, 'the endpoint is disabled');
  t.ok(typeof listed?.disabled_reason === 'string' && listed.disabled_reason.length > 0, `the endpoint says why: ${listed?.disabled_reason}`);
  const control_listed = (await server.api('GET', '/v1/webhooks', { key: account.key })).body.data.webhooks.find((w: any) => w.id !== gone_id);
  t.equal(control_listed?.enabled, true, 'the other endpoint stays enabled');

  await credit(account);
  const bought = await server.api('POST', '/v1/services/airtime', { key: account.key, body: { network: 'mtn', phone: '08011111111', amount: 100, pin: account.pin } });
  t.equal(bought.status, 201, 'a purchase after the 410');
  await eventually(async () => control.received.length >= 4, 10_000, 'the control endpoint to get both credits and the purchase');
  // The events that reached the control endpoint made no delivery for the disabled one, so nothing
  // can be on its way to it.
  const deliveries = await deliveries_of(account.key, gone_id);
  t.equal(deliveries.length, 1, 'no deliveries are even created for a disabled endpoint');
  t.equal(gone.received.length, 1, 'the disabled endpoint received nothing after its 410');
  t.same(deliveries[0]?.attempts.map((a: any) => a.status_code), [410], 'its one delivery has one attempt, answered 410');
  t.not(deliveries[0]?.status, 'delivered', 'a 410 does not count as delivered');
  t.not(deliveries[0]?.status, 'pending', 'and is not retried');
});

t.test('a receiver that hangs costs an attempt its timeout, recorded with an error and no status code, and never slows purchases', async (t) => {
  const short = await start_server(t, { env: webhook_env({ TIME_SCALE: String(time_scale), WEBHOOK_TIMEOUT_MS: String(timeout_ms), LOG_LEVEL: 'warn' }) });
  const receiver = await receiver_for(t, 'hang');
  const account = await reseller(short);
  const endpoint_id = await register(t, account.key, receiver, undefined, short);
  await credit(account, short);
  await receiver.wait_for(1);

  // Each purchase makes 2 more deliveries to the hanging receiver. Were delivery on the request path,
  // every purchase would last at least the 1 s timeout.
  const durations: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    const bought = await short.api('POST', '/v1/services/airtime', { key: account.key, body: { network: 'mtn', phone: '08011111111', amount: 50, pin: account.pin } });
    durations.push(performance.now() - started);
    if (bought.status !== 201) t.fail(`purchase ${i + 1} answered ${bought.status} ${bought.text}`);
  }
  durations.sort((a, b) => a - b);
  const median = durations[Math.floor(durations.length / 2)];
  t.ok(receiver.received.length >= 2, `the receiver was holding requests open meanwhile (${receiver.received.length} so far)`);
  t.ok(median < timeout_ms, `purchases answered in a median ${median.toFixed(1)} ms, less than the ${timeout_ms} ms a hanging receiver costs`);
  t.ok(durations[durations.length - 1] < 5000, `the slowest purchase took ${durations[durations.length - 1].toFixed(1)} ms`);

  const credit_delivery = await eventually(async () => {
    const found = (await deliveries_of(account.key, endpoint_id, short)).find((d) => d.event === 'wallet.credited');
    return found !== undefined && found.attempts.length > 0 ? found : null;
  }, 15_000, 'the credit\'s first attempt to time out');
  const attempt = credit_delivery.attempts[0];
  t.equal(attempt.status_code, null, 'a timed-out attempt has no status code');
  t.match(String(attempt.error), /time/i, `a timed-out attempt records the timeout as its error (${attempt.error})`);
  t.ok(attempt.duration_ms >= timeout_ms - 5, `the attempt lasted its ${timeout_ms} ms timeout (${attempt.duration_ms} ms)`);
  t.ok(attempt.duration_ms < timeout_ms + 2000, `and not much longer (${attempt.duration_ms} ms)`);
  t.ok(credit_delivery.status === 'pending' || credit_delivery.attempts.length === 6, `a timed-out delivery is retried (${credit_delivery.status}, ${credit_delivery.attempts.length} attempts)`);
});

t.test('deleting an endpoint cancels its pending retries', async (t) => {
  const receiver = await receiver_for(t, 500);
  const account = await reseller();
  const endpoint_id = await register(t, account.key, receiver, ['wallet.credited']);
  const first = await credit(account);
  await receiver.wait_for(1);
  const pending = await recorded_attempts(account.key, endpoint_id, 1);
  t.equal(pending.status, 'pending', 'the failed first attempt leaves the delivery pending, its retries to come');
  const deleted = await server.api('DELETE', `/v1/webhooks/${endpoint_id}`, { key: account.key });
  t.equal(deleted.status, 200, 'the endpoint is deleted');
  t.equal(receiver.received.length, 1, 'the delete came after the first attempt and before any retry');
  // The clock runs through the whole schedule: every retry would have started during these moves.
  for (const delay_ms of retry_delays_ms) server.clock.advance(delay_ms);
  // A barrier through the same receiver: a second endpoint at its URL and a second credit. Any retry
  // would have been started before this event even existed.
  await register(t, account.key, receiver, ['wallet.credited']);
  const second = await credit(account);
  await receiver.wait_for(2);
  t.equal(receiver.received[1].json.data.reference, second.body.data.reference, 'the next request to the receiver is the barrier\'s event, not a retry of the first');
  t.equal(receiver.received.filter((r) => r.json.data.reference === first.body.data.reference).length, 1, 'the first event was sent once: no retries after the delete');
});
