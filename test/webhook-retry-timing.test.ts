// The first webhook retry comes 30 s after the failure (docs/api.md "Webhooks"), not at the next sweep.
// It was planned while the failed attempt was still in flight, which the dispatcher ignored, so the
// minute-long sweep picked it up 40-59 s after the failure. TIME_SCALE=0.1 makes the retry 3 s and the
// sweep 6 s: a retry that waits for the sweep comes 3-9 s after the failure, one planned comes at 3 s.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { sleep } from './helpers/fixtures-http.js';

const time_scale = 0.1;
const first_retry_ms = 30_000 * time_scale;
// Room for a TLS handshake and a commit on a busy machine; a retry left to the sweep misses it 3 times in 4.
const slack_ms = 1_500;
const rounds = 3;

t.test('the first retry of a failed delivery comes 30 s (scaled) after the failure, every time', async (t) => {
  const server = await start_server(t, { env: webhook_env({ TIME_SCALE: String(time_scale), LOG_LEVEL: 'warn' }) });
  const receiver = new WebhookReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  const account = await server.reseller(0, {}, { rate_limit_per_minute: 1_000 });
  const created = await server.api('POST', '/v1/webhooks', { key: account.key, body: { url: receiver.url, events: ['wallet.credited'] } });
  t.equal(created.status, 201, 'the endpoint is registered');
  receiver.secret = created.body.data.secret;

  for (let round = 1; round <= rounds; round++) {
    receiver.script = [500];
    const before = receiver.received.length;
    const topup = await server.api('POST', '/v1/sandbox/wallet/fund', { key: account.key, body: { amount: 10, reference: `RETRY-TIMING-${round}` } });
    t.equal(topup.status, 201, `round ${round}: the top-up is 201`);
    const deadline = Date.now() + 20_000;
    while (receiver.received.length < before + 2 && Date.now() < deadline) await sleep(20);
    const [failed, retried] = receiver.received.slice(before, before + 2);
    t.ok(failed !== undefined && retried !== undefined, `round ${round}: the event came twice`);
    if (failed === undefined || retried === undefined) return;
    t.equal(failed.answered, 500, `round ${round}: the first attempt was answered 500`);
    t.equal(retried.json.id, failed.json.id, `round ${round}: the second attempt is the same event`);
    const gap_ms = retried.at_ms - failed.at_ms;
    t.ok(gap_ms >= first_retry_ms - 50, `round ${round}: the retry came ${gap_ms} ms after the failure, not before ${first_retry_ms} ms`);
    t.ok(gap_ms <= first_retry_ms + slack_ms, `round ${round}: the retry came ${gap_ms} ms after the failure, within ${slack_ms} ms of ${first_retry_ms} ms`);
  }
});
