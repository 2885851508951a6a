// The first webhook retry comes 30 s after the failure (docs/api.md "Webhooks"), not at the next sweep.
// It was planned while the failed attempt was still in flight, which the dispatcher ignored, so the
// minute-long sweep picked it up 40-59 s after the failure. The server runs in this process on a
// manual clock (test/helpers/in-process.ts): the 30 s and the sweep's minute are real, and the test
// checks that the retry is attempted exactly 30 s after the failure, not one millisecond before and
// not at a sweep, round after round.
import t from 'tap';
import { start_in_process, whole_second_ms } from './helpers/in-process.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { wait_for_async } from './helpers/purchases.js';
import { retry_delays_ms } from '../src/webhooks/delivery-bounds.js';

t.setTimeout(120_000);

const first_retry_ms = retry_delays_ms[0];
const rounds = 3;

t.test('the first retry of a failed delivery comes exactly 30 s after the failure, every time', async (t) => {
  // Started on a whole second, so that a retry due a whole number of seconds on falls on a tick of
  // the timer wheel and fires at its due millisecond.
  const server = await start_in_process(t, { env: webhook_env({ LOG_LEVEL: 'warn' }), start_ms: whole_second_ms() });
  const receiver = new WebhookReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  const account = await server.reseller(0, {}, { rate_limit_per_minute: 1_000 });
  const created = await server.api('POST', '/v1/webhooks', { key: account.key, body: { url: receiver.url, events: ['wallet.credited'] } });
  t.equal(created.status, 201, 'the endpoint is registered');
  receiver.secret = created.body.data.secret;
  const endpoint_id = created.body.data.id;
  const delivery_of = async (event_id: string) => {
    const listed = await server.api('GET', `/v1/webhooks/${endpoint_id}/deliveries?per_page=100`, { key: account.key });
    return listed.body.data.deliveries.find((d: { event_id: string }) => d.event_id === event_id);
  };

  for (let round = 1; round <= rounds; round++) {
    receiver.script = [500];
    const before = receiver.received.length;
    const topup = await server.api('POST', '/v1/sandbox/wallet/fund', { key: account.key, body: { amount: 10, reference: `RETRY-TIMING-${round}` } });
    t.equal(topup.status, 201, `round ${round}: the top-up is 201`);
    const [failed] = (await receiver.wait_for(before + 1)).slice(before);
    t.equal(failed.answered, 500, `round ${round}: the first attempt was answered 500`);
    const pending = await wait_for_async(async () => {
      const delivery = await delivery_of(failed.json.id);
      return delivery?.attempts?.length === 1 ? delivery : null;
    }, 10_000, `round ${round}: the failed attempt to be recorded`);
    const failed_at_ms = Date.parse(pending.attempts[0].at);
    t.equal(Date.parse(pending.next_attempt_at), failed_at_ms + first_retry_ms, `round ${round}: the retry is planned 30 s after the failure`);
    server.clock.advance(failed_at_ms + first_retry_ms - 1 - server.clock.now_ms());
    t.equal(receiver.received.length, before + 1, `round ${round}: one millisecond before 30 s, no retry has come`);
    server.clock.advance(1);
    const [retried] = (await receiver.wait_for(before + 2)).slice(before + 1);
    t.equal(retried.json.id, failed.json.id, `round ${round}: the second attempt is the same event`);
    const delivered = await wait_for_async(async () => {
      const delivery = await delivery_of(failed.json.id);
      return delivery?.status === 'delivered' ? delivery : null;
    }, 10_000, `round ${round}: the retry to be recorded`);
    t.equal(Date.parse(delivered.attempts[1].at) - failed_at_ms, first_retry_ms, `round ${round}: the retry was attempted exactly 30 s after the failure`);
    // The next round starts some way into the sweep's minute, so that a retry left to the sweep
    // would show in one of the rounds.
    server.clock.advance(17_000);
  }
});
