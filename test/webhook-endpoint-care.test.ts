// Caring for a webhook endpoint (docs/api.md "Testing, rolling and retrying"): a webhook.test event
// sent on request, signed and recorded like any delivery; a secret roll whose old secret keeps
// signing for the grace period (X-Service-Signature-Previous, a second webhook-signature value) and
// survives a restart sealed; editing the events; retrying a failing delivery now. Through real
// sockets against a real server and a real HTTPS receiver; the tests about time (the grace period,
// the retry schedule) run the server in this process on a manual clock (test/helpers/in-process.ts).
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { open_store, start_server, temp_dir, type TestServer } from './helpers/server.js';
import { start_in_process } from './helpers/in-process.js';
import { secret_grace_ms } from '../src/webhooks/endpoints.js';
import { retry_delays_ms } from '../src/webhooks/delivery-bounds.js';
import { WebhookReceiver, verify_service_signature, verify_standard_signature, webhook_env, type Received } from './helpers/webhook-receiver.js';

const all_kinds = ['transaction.completed', 'transaction.failed', 'transaction.processing', 'wallet.credited', 'wallet.debited', 'wallet.reversed'];

async function receiver_for(t: { teardown(fn: () => unknown): void }): Promise<WebhookReceiver> {
  const receiver = new WebhookReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  return receiver;
}

async function endpoint_on(server: TestServer, receiver: WebhookReceiver, events?: string[]) {
  const reseller = await server.reseller(10_000, {}, { rate_limit_per_minute: 1_000_000 });
  const created = await server.api('POST', '/v1/webhooks', { key: reseller.key, body: { url: receiver.url, ...(events ? { events } : {}) } });
  if (created.status !== 201) throw new Error(`register: ${created.status} ${created.text}`);
  receiver.secret = created.body.data.secret;
  return { reseller, id: created.body.data.id as number, secret: created.body.data.secret as string };
}

function signed_with(secret: string, received: Received): { service: boolean; previous: boolean; standard: boolean } {
  const h = received.headers;
  return {
    service: verify_service_signature(secret, received.body, h['x-service-signature'] as string | undefined),
    previous: verify_service_signature(secret, received.body, h['x-service-signature-previous'] as string | undefined),
    standard: verify_standard_signature(secret, h['webhook-id'] as string | undefined, h['webhook-timestamp'] as string | undefined, received.body, h['webhook-signature'] as string | undefined),
  };
}

async function wait_until(check: () => Promise<boolean>, timeout_ms = 15_000): Promise<boolean> {
  for (const deadline = Date.now() + timeout_ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    if (await check()) return true;
  }
  return false;
}

t.test('a test event reaches the endpoint whatever it subscribes to, signed, and is listed among its deliveries', async (t) => {
  const receiver = await receiver_for(t);
  const server = await start_server(t, { env: webhook_env({ LOG_LEVEL: 'warn' }) });
  const { reseller, id } = await endpoint_on(server, receiver, ['wallet.reversed']);
  const sent = await server.api('POST', `/v1/webhooks/${id}/test`, { key: reseller.key });
  t.equal(sent.status, 202, `the test event is accepted: ${sent.text}`);
  t.equal(sent.body.data.event, 'webhook.test', 'its delivery names the webhook.test kind');
  t.equal(sent.body.data.status, 'pending', 'and is pending until the receiver answers');
  const [received] = await receiver.wait_for(1);
  t.equal(received.json?.event, 'webhook.test', 'the receiver gets a webhook.test event although it subscribes to wallet.reversed only');
  t.equal(received.json?.id, sent.body.data.event_id, 'with the event id the answer named');
  t.same([received.json?.data?.endpoint_id, received.json?.data?.environment], [id, 'test'], 'its data names the endpoint and the environment');
  t.equal(received.headers['x-service-event'], 'webhook.test', 'X-Service-Event says webhook.test');
  t.ok(received.service_signature_ok && received.standard_signature_ok, 'both signatures verify with the endpoint secret');
  t.equal(received.headers['x-service-signature-previous'], undefined, 'an endpoint never rolled sends no previous signature');
  t.ok(await wait_until(async () => (await server.api('GET', `/v1/webhooks/${id}/deliveries`, { key: reseller.key })).body?.data?.deliveries?.[0]?.status === 'delivered'), 'the delivery is recorded as delivered');
  const other = await server.api('POST', '/v1/webhooks/999999/test', { key: reseller.key });
  t.equal(other.body?.error?.code, 'webhooks.not_found', 'an unknown endpoint answers webhooks.not_found');
});

t.test('after a roll, deliveries carry both signatures for the grace period, across a restart, and the secrets stay sealed', async (t) => {
  const receiver = await receiver_for(t);
  const data_dir = temp_dir();
  const server = await start_server(t, { data_dir, env: webhook_env({ LOG_LEVEL: 'warn' }) });
  const { reseller, id, secret: old_secret } = await endpoint_on(server, receiver);
  const rolled = await server.api('POST', `/v1/webhooks/${id}/roll-secret`, { key: reseller.key });
  t.equal(rolled.status, 200, `the roll answers 200: ${rolled.text}`);
  const new_secret = rolled.body.data.secret as string;
  t.match(new_secret, /^whsec_[0-9A-Za-z]{32}$/, 'the answer shows the new secret');
  t.not(new_secret, old_secret, 'which is not the old one');
  t.equal(rolled.body.data.secret_hint, `whsec_…${new_secret.slice(-4)}`, 'the hint follows the new secret');
  const expires_ms = Date.parse(rolled.body.data.previous_secret_expires_at);
  const hours = (expires_ms - Date.now()) / 3_600_000;
  t.ok(hours > 23.9 && hours <= 24, `the old secret is accepted for 24 hours (${hours.toFixed(3)} h left)`);
  const listed = await server.api('GET', '/v1/webhooks', { key: reseller.key });
  t.notOk(listed.text.includes(new_secret) || listed.text.includes(old_secret), 'the list shows neither secret');
  t.equal(listed.body.data.webhooks[0].previous_secret_expires_at, rolled.body.data.previous_secret_expires_at, 'the list says until when the old secret signs');

  receiver.secret = new_secret;
  await server.api('POST', `/v1/webhooks/${id}/test`, { key: reseller.key });
  const [first] = await receiver.wait_for(1);
  const with_new = signed_with(new_secret, first);
  const with_old = signed_with(old_secret, first);
  t.ok(with_new.service && with_new.standard, 'X-Service-Signature and webhook-signature verify with the new secret');
  t.ok(with_old.previous && with_old.standard, 'X-Service-Signature-Previous and webhook-signature verify with the old secret');
  t.notOk(with_old.service, 'X-Service-Signature carries one value only: the new secret\'s');
  t.equal(String(first.headers['webhook-signature']).split(' ').length, 2, 'webhook-signature lists two signatures, space-separated');

  // A second roll during the grace period keeps the first secret as the previous one.
  const again = await server.api('POST', `/v1/webhooks/${id}/roll-secret`, { key: reseller.key });
  const newest_secret = again.body.data.secret as string;
  t.equal(again.body.data.previous_secret_expires_at, rolled.body.data.previous_secret_expires_at, 'a roll during the grace period keeps the old secret\'s expiry');

  await server.stop();
  const store_bytes = readdirSync(data_dir).map((name) => readFileSync(join(data_dir, name)).toString('latin1')).join('');
  for (const [name, secret] of [['original', old_secret], ['rolled-away', new_secret], ['current', newest_secret]] as const) {
    t.notOk(store_bytes.includes(secret.slice(6)), `the ${name} secret is nowhere in the store in clear text`);
  }
  await server.start();
  receiver.secret = newest_secret;
  await server.api('POST', `/v1/webhooks/${id}/test`, { key: reseller.key });
  const received = await receiver.wait_for(2);
  const after_restart = received[1];
  t.ok(signed_with(newest_secret, after_restart).service, 'after a restart, X-Service-Signature verifies with the newest secret');
  t.ok(signed_with(old_secret, after_restart).previous, 'and X-Service-Signature-Previous still with the original one');
  t.notOk(signed_with(new_secret, after_restart).previous || signed_with(new_secret, after_restart).standard, 'the secret rolled away in between signs nothing');
});

t.test('once the grace period is over, deliveries are signed with the new secret only', async (t) => {
  // On a manual clock the grace period is its real 24 h, checked at its last millisecond and at its end.
  const receiver = await receiver_for(t);
  const server = await start_in_process(t, { env: webhook_env({ LOG_LEVEL: 'warn' }) });
  const { reseller, id, secret: old_secret } = await endpoint_on(server, receiver);
  const rolled_at_ms = server.clock.now_ms();
  const rolled = await server.api('POST', `/v1/webhooks/${id}/roll-secret`, { key: reseller.key });
  receiver.secret = rolled.body.data.secret;
  const expires_ms = Date.parse(rolled.body.data.previous_secret_expires_at);
  t.equal(expires_ms, rolled_at_ms + secret_grace_ms, 'the old secret is kept exactly 24 hours');
  server.clock.advance(expires_ms - 1 - server.clock.now_ms());
  const last_moment = await server.api('GET', '/v1/webhooks', { key: reseller.key });
  t.equal(Date.parse(last_moment.body.data.webhooks[0].previous_secret_expires_at), expires_ms, 'one millisecond before its end the endpoint still names the old secret');
  await server.api('POST', `/v1/webhooks/${id}/test`, { key: reseller.key });
  const [in_grace] = await receiver.wait_for(1);
  t.ok(signed_with(old_secret, in_grace).previous, 'and a delivery then still carries X-Service-Signature-Previous with the old secret');
  server.clock.advance(1);
  const listed = await server.api('GET', '/v1/webhooks', { key: reseller.key });
  t.equal(listed.body.data.webhooks[0].previous_secret_expires_at, null, 'at the end of the grace period the endpoint no longer names an old secret');
  await server.api('POST', `/v1/webhooks/${id}/test`, { key: reseller.key });
  const received = (await receiver.wait_for(2))[1];
  t.ok(received.service_signature_ok && received.standard_signature_ok, 'the new secret verifies both signatures');
  t.equal(received.headers['x-service-signature-previous'], undefined, 'no X-Service-Signature-Previous any more');
  t.notOk(signed_with(old_secret, received).standard, 'and webhook-signature has no value for the old secret');

  // The endpoint's next change drops the old secret's sealed copy from the store.
  const read_record = async () => {
    await server.stop();
    const { root, db } = open_store(server.data_dir, { readOnly: true });
    const record = db('webhook_endpoints').get(id);
    await root.close();
    await server.start();
    return record;
  };
  t.ok((await read_record())?.previous_secret_sealed, 'after the grace period the store still holds the old secret sealed');
  const edited = await server.api('PATCH', `/v1/webhooks/${id}`, { key: reseller.key, body: { description: 'after the roll' } });
  t.equal(edited.status, 200, 'the endpoint is edited');
  const record = await read_record();
  t.equal(record?.previous_secret_sealed, null, 'the edit dropped the old secret\'s sealed copy');
  t.equal(record?.previous_secret_expires_us, null, 'and its expiry');
});

t.test('editing an endpoint\'s events changes what it receives and nothing else', async (t) => {
  const receiver = await receiver_for(t);
  const server = await start_server(t, { env: webhook_env({ LOG_LEVEL: 'warn' }) });
  const { reseller, id } = await endpoint_on(server, receiver, ['transaction.completed']);
  const edited = await server.api('PATCH', `/v1/webhooks/${id}`, { key: reseller.key, body: { events: ['wallet.credited'] } });
  t.equal(edited.status, 200, `the edit answers 200: ${edited.text}`);
  t.same(edited.body.data.events, ['wallet.credited'], 'the endpoint now receives wallet.credited only');
  t.equal(edited.body.data.url, receiver.url, 'its URL stays');
  t.notOk('secret' in edited.body.data, 'the answer carries no secret');
  await server.credit(reseller.id, 'test', 50);
  const [received] = await receiver.wait_for(1);
  t.equal(received.json?.event, 'wallet.credited', 'a credit now reaches the endpoint');
  const empty = await server.api('PATCH', `/v1/webhooks/${id}`, { key: reseller.key, body: {} });
  t.equal(empty.status, 400, 'an edit naming nothing is refused');
  t.equal(empty.body?.error?.code, 'validation.failed', 'as validation.failed');
  const wrong = await server.api('PATCH', `/v1/webhooks/${id}`, { key: reseller.key, body: { events: ['webhook.test'] } });
  t.equal(wrong.body?.error?.code, 'validation.failed', 'nobody subscribes to webhook.test');
  const listed = await server.api('GET', '/v1/webhooks', { key: reseller.key });
  t.same(listed.body.data.webhooks[0].events, ['wallet.credited'], 'the refused edits changed nothing');
  t.same(all_kinds.length, 6, 'the subscribable kinds stay the six of the spec');
});

t.test('retrying a failing delivery attempts it now, and repeating the request sends nothing more', async (t) => {
  const receiver = await receiver_for(t);
  // On a manual clock: the clock stands still, so an attempt that comes is the retry asked for, never the schedule's.
  const server = await start_in_process(t, { env: webhook_env({ LOG_LEVEL: 'warn' }) });
  const { reseller, id } = await endpoint_on(server, receiver);
  receiver.script = [500];
  const sent = await server.api('POST', `/v1/webhooks/${id}/test`, { key: reseller.key });
  const delivery_id = sent.body.data.id as number;
  await receiver.wait_for(1);
  const waiting = async () => (await server.api('GET', `/v1/webhooks/${id}/deliveries`, { key: reseller.key })).body?.data?.deliveries?.find((d: { id: number }) => d.id === delivery_id);
  t.ok(await wait_until(async () => (await waiting())?.attempts?.length === 1), 'the failed attempt is recorded');
  const before = await waiting();
  t.equal(Date.parse(before.next_attempt_at) - Date.parse(before.attempts[0].at), retry_delays_ms[0], 'the next retry is scheduled 30 s after the failed attempt');

  const retried = await server.api('POST', `/v1/webhooks/${id}/deliveries/${delivery_id}/retry`, { key: reseller.key });
  t.equal(retried.status, 202, `the retry is accepted: ${retried.text}`);
  await receiver.wait_for(2, 10_000);
  t.equal(receiver.received[1].json?.id, receiver.received[0].json?.id, 'the same event is attempted again at once');
  t.ok(await wait_until(async () => (await waiting())?.status === 'delivered'), 'and delivered');
  const after = await waiting();
  t.same(after.attempts.map((a: { series: number; number: number }) => [a.series, a.number]), [[1, 1], [1, 2]], 'the retry is the second attempt of the same series');

  const repeated = await server.api('POST', `/v1/webhooks/${id}/deliveries/${delivery_id}/retry`, { key: reseller.key });
  t.equal(repeated.status, 202, 'repeating the retry of a delivery since delivered answers 202');
  t.equal(repeated.body?.data?.status, 'delivered', 'with the delivery as it is');
  t.equal(repeated.body?.message, 'Already delivered; nothing to retry.', 'and says there was nothing to retry');
  // A barrier: another test event. Whatever the repeat had sent would have been started before it.
  const barrier = await server.api('POST', `/v1/webhooks/${id}/test`, { key: reseller.key });
  await receiver.wait_for(3);
  t.equal(receiver.received[2].json?.id, barrier.body.data.event_id, 'and sends nothing: the next request is the barrier\'s event');

  // A repeat while the retry is already due sends it once.
  receiver.script = [500];
  const second = await server.api('POST', `/v1/webhooks/${id}/test`, { key: reseller.key });
  await receiver.wait_for(4);
  t.ok(await wait_until(async () => (await server.api('GET', `/v1/webhooks/${id}/deliveries`, { key: reseller.key })).body.data.deliveries.find((d: { id: number }) => d.id === second.body.data.id)?.attempts?.length === 1), 'the second test event failed once');
  receiver.holding = true;
  const [a, b] = await Promise.all([
    server.api('POST', `/v1/webhooks/${id}/deliveries/${second.body.data.id}/retry`, { key: reseller.key }),
    server.api('POST', `/v1/webhooks/${id}/deliveries/${second.body.data.id}/retry`, { key: reseller.key }),
  ]);
  t.same([a.status, b.status], [202, 202], 'two retries at once are both accepted');
  await receiver.wait_for(5);
  receiver.release();
  t.ok(await wait_until(async () => (await server.api('GET', `/v1/webhooks/${id}/deliveries`, { key: reseller.key })).body.data.deliveries.find((d: { id: number }) => d.id === second.body.data.id)?.status === 'delivered'), 'the retried event is delivered');
  // A barrier: another test event. A second attempt of the retry would have been started before it.
  const last = await server.api('POST', `/v1/webhooks/${id}/test`, { key: reseller.key });
  await receiver.wait_for(6);
  t.equal(receiver.received[5].json?.id, last.body.data.event_id, 'the request after the retry is the barrier\'s event');
  t.equal(receiver.received.filter((r) => r.json?.id === second.body.data.event_id).length, 2, 'and the receiver got the retried event twice in all, the failed attempt and one retry, not two');
  const missing = await server.api('POST', `/v1/webhooks/${id}/deliveries/99999999/retry`, { key: reseller.key });
  t.equal(missing.body?.error?.code, 'webhooks.delivery_not_found', 'an unknown delivery answers webhooks.delivery_not_found');
});

t.test('a delivery cancelled because its endpoint answered 410 cannot be retried', async (t) => {
  const receiver = await receiver_for(t);
  const server = await start_server(t, { env: webhook_env({ LOG_LEVEL: 'warn' }) });
  const { reseller, id } = await endpoint_on(server, receiver);
  receiver.script = [410];
  const sent = await server.api('POST', `/v1/webhooks/${id}/test`, { key: reseller.key });
  await receiver.wait_for(1);
  const status = async () => (await server.api('GET', `/v1/webhooks/${id}/deliveries`, { key: reseller.key })).body?.data?.deliveries?.[0]?.status;
  t.ok(await wait_until(async () => (await status()) === 'cancelled'), 'the 410 cancels the delivery and disables the endpoint');
  const retried = await server.api('POST', `/v1/webhooks/${id}/deliveries/${sent.body.data.id}/retry`, { key: reseller.key });
  t.equal(retried.status, 409, 'its retry answers 409');
  t.equal(retried.body?.error?.code, 'webhooks.delivery_not_retryable', 'with webhooks.delivery_not_retryable');
  // A barrier: a second endpoint at the same receiver and a test event to it. Whatever the refused
  // retry had sent would have been started before it.
  const other = await server.api('POST', '/v1/webhooks', { key: reseller.key, body: { url: receiver.url } });
  receiver.secret = other.body.data.secret;
  const barrier = await server.api('POST', `/v1/webhooks/${other.body.data.id}/test`, { key: reseller.key });
  await receiver.wait_for(2);
  t.equal(receiver.received[1].json?.id, barrier.body.data.event_id, 'and nothing is sent: the next request is the barrier\'s event');
});
