// Webhook retries, dead deliveries, replay, 410 and timeouts (docs/spec.md section 6 "Retries", docs/decisions.md
// "Webhooks", "Time"). TIME_SCALE=0.0001 turns the retry schedule 30 s, 5 min, 30 min, 2 h, 8 h into
// 3 ms, 30 ms, 180 ms, 720 ms, 2.88 s. The timeout test runs its own server with WEBHOOK_TIMEOUT_MS=1000;
// the others keep the default 10 s, so that a TLS handshake on a busy machine is never a failure.
import t, { type Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { start_server, type ApiResponse, type TestServer } from './helpers/server.js';
import { WebhookReceiver, webhook_env, type Behaviour } from './helpers/webhook-receiver.js';
import { sleep } from './helpers/fixtures-http.js';

const time_scale = 0.0001;
// Long enough that "not on the request path" stays measurable on a busy 2-core machine.
const timeout_ms = 1000;
const retry_delays_ms = [30_000, 300_000, 1_800_000, 7_200_000, 28_800_000].map((d) => d * time_scale);

const server = await start_server(t, { env: webhook_env({ TIME_SCALE: String(time_scale), LOG_LEVEL: 'warn' }) });

type Reseller = Awaited<ReturnType<TestServer['reseller']>>;

function reseller(on = server): Promise<Reseller> {
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

async function register(t: Test, key: string, receiver: WebhookReceiver, events?: string[], on = server): Promise<number> {
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

async function deliveries_of(key: string, endpoint_id: number, on = server): Promise<any[]> {
  const response = await on.api('GET', `/v1/webhooks/${endpoint_id}/deliveries?per_page=100`, { key });
  if (response.status !== 200) throw new Error(`GET /v1/webhooks/${endpoint_id}/deliveries answered ${response.status} ${response.text}`);
  return response.body.data.deliveries;
}

/** Waits until the endpoint's only delivery satisfies the predicate. */
function delivery_when(key: string, endpoint_id: number, predicate: (d: any) => boolean, what: string, on = server): Promise<any> {
  return eventually(async () => {
    const [delivery] = await deliveries_of(key, endpoint_id, on);
    return delivery !== undefined && predicate(delivery) ? delivery : null;
  }, 15_000, what);
}

function credit(account: Reseller, on = server): Promise<ApiResponse> {
  return on.credit(account.id, 'test', 100, `R-${randomBytes(5).toString('hex')}`);
}

t.test('a receiver answering 500 gets the first try and 5 retries at the scaled delays, then the delivery is dead until a replay delivers it', async (t) => {
  const receiver = await receiver_for(t, 500);
  const account = await reseller();
  const endpoint_id = await register(t, account.key, receiver, ['wallet.credited']);
  const credited = await credit(account);

  await receiver.wait_for(6, 20_000);
  await sleep(1500); // a 7th request would be a retry past the 5th
  t.equal(receiver.received.length, 6, 'exactly 6 requests arrived: the first try and 5 retries');

  const event_id = receiver.received[0].json.id;
  t.equal(receiver.received[0].json.data.reference, credited.body.data.reference, 'the event is the credit');
  for (const [i, request] of receiver.received.entries()) {
    t.equal(request.json.id, event_id, `request ${i + 1} carries the same event id`);
    t.equal(request.headers['webhook-id'], event_id, `request ${i + 1} has the same webhook-id`);
    t.equal(request.body, receiver.received[0].body, `request ${i + 1} has the same body`);
    t.ok(request.service_signature_ok && request.standard_signature_ok, `request ${i + 1} is signed`);
  }
  for (let i = 0; i < retry_delays_ms.length; i++) {
    const gap = receiver.received[i + 1].at_ms - receiver.received[i].at_ms;
    const delay = retry_delays_ms[i];
    t.ok(gap >= delay, `retry ${i + 1} came ${gap} ms after the previous try, not before the scaled ${delay} ms`);
    t.ok(gap <= delay * 1.5 + 1500, `retry ${i + 1} came ${gap} ms after the previous try, not far past the scaled ${delay} ms`);
  }

  const dead = await delivery_when(account.key, endpoint_id, (d) => d.status === 'dead', 'the delivery to be dead');

  t.equal(dead.event_id, event_id, 'the delivery is of that event');
  t.equal(dead.event, 'wallet.credited', 'of kind wallet.credited');
  t.equal(dead.series, 1, 'in the first series of attempts');
  t.equal(dead.next_attempt_at, null, 'a dead delivery has no next attempt');
  t.equal(dead.attempts.length, 6, 'all 6 attempts are recorded');
  for (const [i, attempt] of dead.attempts.entries()) {
    t.equal(attempt.series, 1, `attempt ${i + 1} is of series 1`);
    t.equal(attempt.number, i + 1, `attempt ${i + 1} is numbered ${i + 1}`);
    t.equal(attempt.status_code, 500, `attempt ${i + 1} recorded status 500`);
    t.ok(typeof attempt.duration_ms === 'number' && attempt.duration_ms >= 0 && attempt.duration_ms < timeout_ms * 10, `attempt ${i + 1} recorded its duration (${attempt.duration_ms} ms)`);
    t.equal(attempt.error, null, `attempt ${i + 1} got an answer, so no error`);
    if (i > 0) {
      const gap_ms = (Date.parse(attempt.at) - Date.parse(dead.attempts[i - 1].at));
      t.ok(gap_ms >= Math.floor(retry_delays_ms[i - 1]), `attempt ${i + 1} is recorded ${gap_ms} ms after attempt ${i}, at least the scaled ${retry_delays_ms[i - 1]} ms`);
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
  await sleep(200);
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
  await sleep(100);
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
  for (const { row, receiver } of endpoints) await receiver.wait_for(row.delivered_first ? 1 : 2);
  await sleep(300);
  for (const { row, receiver } of endpoints) {
    t.equal(receiver.received.length, row.delivered_first ? 1 : 2, `the receiver answering ${row.first} first got ${row.delivered_first ? 1 : 2} request(s)`);
    t.ok(receiver.received.every((r) => r.service_signature_ok), `the receiver answering ${row.first} first saw valid signatures`);
  }
  for (const { row, id } of endpoints) {
    const delivery = await delivery_when(account.key, id, (d) => d.status === 'delivered', `the delivery to the receiver answering ${row.first} first`);
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
      t.ok(gap >= Math.floor(retry_delays_ms[0]), `first answer ${row.first}: the retry came ${gap} ms later, at least the scaled 30 s`);
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
  await sleep(300);
  t.equal(gone.received.length, 1, 'the disabled endpoint received nothing after its 410');
  const deliveries = await deliveries_of(account.key, gone_id);
  t.equal(deliveries.length, 1, 'no deliveries are even created for a disabled endpoint');
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
  await credit(account);
  await receiver.wait_for(1);
  const deleted = await server.api('DELETE', `/v1/webhooks/${endpoint_id}`, { key: account.key });
  t.equal(deleted.status, 200, 'the endpoint is deleted');
  const at_delete = receiver.received.length;
  t.ok(at_delete < 5, `the delete came while retries were still to come (${at_delete} requests so far)`);
  // The whole schedule (3 ms + 30 ms + 180 ms + 720 ms + 2.88 s) would be over by now.
  await sleep(retry_delays_ms.reduce((a, b) => a + b, 0) + 700);
  // An attempt already on its way when the delete landed may still arrive; no later retry may.
  t.ok(receiver.received.length <= at_delete + 1, `no retries after the delete (${receiver.received.length} requests, ${at_delete} at the delete)`);
});
