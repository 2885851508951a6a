// A webhook backlog larger than the dispatcher's waiting list (src/webhooks/dispatcher.ts): with the
// receiver holding its 8 connections, over 10,000 deliveries come due at once, so the waiting list
// (10,000) fills and the rest stay in the store's queue only. Once the receiver answers, the refill
// brings them back as the list drains: every event arrives once, all before the minute-long sweep
// first runs (which is what used to deliver the overflow: bench, 42,000 of 100,000 events two minutes
// after the load).
import t from 'tap';
import { Agent, request } from 'node:http';
import { start_server } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { endpoint_concurrency_max, endpoint_waiting_max, sweep_interval_ms } from '../src/webhooks/delivery-bounds.js';

/** Two events per purchase: this many purchases overflow the waiting list by about 1,000. */
const purchases = Math.ceil((endpoint_waiting_max + endpoint_concurrency_max + 1_000) / 2);
/** Purchases in flight: the backlog builds in seconds (node:http with keep-alive; fetch takes four times longer). */
const lanes = 64;

t.test(`a backlog of ${2 * purchases} due deliveries to one endpoint is delivered in full, once each, without waiting for the sweep`, async (t) => {
  const started_ms = Date.now();
  // The attempts held by the receiver must not time out while the backlog builds.
  const server = await start_server(t, { env: webhook_env({ WEBHOOK_TIMEOUT_MS: '120000', LOG_LEVEL: 'warn' }) });
  const receiver = new WebhookReceiver();
  receiver.holding = true;
  await receiver.start();
  t.teardown(() => receiver.stop());
  const account = await server.reseller(1_000_000, { kyc_level: 3 }, { rate_limit_per_minute: 1_000_000 });
  const created = await server.api('POST', '/v1/webhooks', { key: account.key, body: { url: receiver.url, events: ['wallet.debited', 'transaction.completed'] } });
  t.equal(created.status, 201, 'the endpoint is registered');
  receiver.secret = created.body.data.secret;

  const agent = new Agent({ keepAlive: true, maxSockets: lanes });
  t.teardown(() => agent.destroy());
  const body = JSON.stringify({ network: 'mtn', phone: '08011111111', amount: 50, pin: '12345' });
  const buy = () => new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(`${server.base}/v1/services/airtime`, {
      method: 'POST',
      agent,
      headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
  let next = 0;
  const failures: string[] = [];
  await Promise.all(Array.from({ length: lanes }, async () => {
    while (next < purchases) {
      next++;
      const response = await buy();
      if (response.status !== 201) failures.push(`${response.status} ${response.text.slice(0, 100)}`);
    }
  }));
  t.same(failures.slice(0, 5), [], `all ${purchases} purchases answered 201`);
  await receiver.wait_for(endpoint_concurrency_max);
  const overflow = 2 * purchases - endpoint_concurrency_max - endpoint_waiting_max;
  t.equal(receiver.received.length, endpoint_concurrency_max, `while the receiver holds, exactly ${endpoint_concurrency_max} attempts are open; of the other ${2 * purchases - endpoint_concurrency_max}, ${overflow} find the waiting list full`);
  t.comment(`purchases done ${((Date.now() - started_ms) / 1000).toFixed(1)} s after the start`);

  const released_ms = Date.now();
  receiver.release();
  const expected = 2 * purchases;
  await receiver.wait_for(expected, 60_000);
  const last_ms = Math.max(...receiver.received.map((r) => r.at_ms));
  t.comment(`delivered in ${((last_ms - released_ms) / 1000).toFixed(1)} s after the release`);
  t.ok(last_ms - started_ms < sweep_interval_ms, `all ${expected} events arrived ${((last_ms - started_ms) / 1000).toFixed(1)} s after the server started, before its first sweep at ${sweep_interval_ms / 1000} s`);
  const ids = receiver.received.map((r) => r.json?.id as string);
  t.equal(new Set(ids).size, expected, `${expected} distinct events, none twice`);
  t.equal(receiver.received.filter((r) => !r.service_signature_ok || !r.standard_signature_ok).length, 0, 'every delivery carries both valid signatures');
  t.equal(receiver.events('wallet.debited').length, purchases, 'one wallet.debited per purchase');
  t.equal(receiver.events('transaction.completed').length, purchases, 'one transaction.completed per purchase');
  // Nothing more comes: the refill does not bring back what was delivered. A barrier instead of a
  // wait: a test event made after every delivery above, so that a second copy would have been started first.
  const barrier = await server.api('POST', `/v1/webhooks/${created.body.data.id}/test`, { key: account.key });
  t.equal(barrier.status, 202, 'a test event is sent after the backlog');
  while (!receiver.received.some((r) => r.json?.id === barrier.body.data.event_id)) await receiver.wait_for(receiver.received.length + 1);
  t.equal(receiver.received.filter((r) => r.json?.event !== 'webhook.test').length, expected, 'once the test event after them has arrived, still exactly one request per event');
});
