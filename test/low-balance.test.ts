// The low-balance alert (docs/api.md "Low-balance alert"): PATCH /v1/account low_balance_threshold per
// account and environment, shown by GET /v1/account; wallet.low_balance once each time a debit takes
// the balance from at or above the threshold to below it, never again while it stays below; webhook
// endpoints can subscribe to it.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { buy_airtime, check_error } from './helpers/purchases.js';

const server = await start_server(t, { env: webhook_env({ TIME_SCALE: '0.001', LOG_LEVEL: 'warn' }) });

async function alerts(key: string): Promise<any[]> {
  const response = await server.api('GET', '/v1/events?limit=100&type=wallet.low_balance', { key });
  if (response.status !== 200) throw new Error(`GET /v1/events answered ${response.status} ${response.text}`);
  return response.body.data.events;
}

async function set_threshold(key: string, threshold: unknown) {
  return server.api('PATCH', '/v1/account', { key, body: { low_balance_threshold: threshold } });
}

t.test('the threshold is set, shown and cleared per environment', async (t) => {
  const account = await server.reseller(1_000);
  const live = await server.create_key(account.id, { environment: 'live' });
  const initial = await server.api('GET', '/v1/account', { key: account.key });
  t.equal(initial.body.data.low_balance_threshold, null, 'no threshold at first');
  const set = await set_threshold(account.key, 1000.5);
  t.equal(set.status, 200, `PATCH is 200 (${set.text.slice(0, 200)})`);
  t.equal(set.body.data.low_balance_threshold, 1000.5, 'the answer shows the new threshold');
  t.equal(set.body.data.id, account.id, 'and the account');
  t.equal((await server.api('GET', '/v1/account', { key: account.key })).body.data.low_balance_threshold, 1000.5, 'GET /v1/account shows it to the test key');
  t.equal((await server.api('GET', '/v1/account', { key: live.api_key })).body.data.low_balance_threshold, null, 'the live environment has its own, still unset');
  const cleared = await set_threshold(account.key, null);
  t.equal(cleared.body.data.low_balance_threshold, null, 'null clears it');
  t.equal((await server.api('GET', '/v1/account', { key: account.key })).body.data.low_balance_threshold, null, 'and GET shows it cleared');
});

t.test('crossing the threshold twice in a day sends two alerts, none while the balance stays below', async (t) => {
  const account = await server.reseller(1_500, {}, { rate_limit_per_minute: 1_000_000 });
  t.equal((await set_threshold(account.key, 1_000)).status, 200, 'threshold NGN 1,000');
  await buy_airtime(server, account.key, '08031234567', 300); // 1,500 → 1,200: above
  t.same(await alerts(account.key), [], 'no alert while the balance stays at or above the threshold');
  await buy_airtime(server, account.key, '08031234567', 200); // 1,200 → 1,000: at the threshold, not below
  t.same(await alerts(account.key), [], 'no alert when the balance lands exactly on the threshold');
  const crossing = await buy_airtime(server, account.key, '08031234567', 100); // 1,000 → 900: crossed
  let sent = await alerts(account.key);
  t.equal(sent.length, 1, 'one alert when a debit takes the balance below');
  t.same(sent[0].data, {
    balance: 900,
    threshold: 1_000,
    wallet_transaction_id: sent[0].data.wallet_transaction_id,
    reference: crossing.body.data.reference,
    created_at: sent[0].data.created_at,
  }, 'the alert names the balance, the threshold and the debit');
  await buy_airtime(server, account.key, '08031234567', 100); // 900 → 800: still below
  await buy_airtime(server, account.key, '08031234567', 50); // 800 → 750
  t.equal((await alerts(account.key)).length, 1, 'no new alert while the balance stays below');
  await server.credit(account.id, 'test', 500); // 750 → 1,250: back above
  t.equal((await alerts(account.key)).length, 1, 'a credit sends no alert');
  const second = await buy_airtime(server, account.key, '08031234567', 300); // 1,250 → 950: crossed again
  sent = await alerts(account.key);
  t.equal(sent.length, 2, 'a second crossing the same day sends a second alert');
  t.equal(sent[1].data.reference, second.body.data.reference, 'for the debit that crossed');
  t.equal(sent[1].data.balance, 950, 'with the balance after it');
  const all = (await server.api('GET', '/v1/events?limit=100', { key: account.key })).body.data.events;
  const at = all.findIndex((e: { event: string }) => e.event === 'wallet.low_balance');
  t.equal(all[at - 1].event, 'wallet.debited', 'the alert follows the debit that caused it');
});

t.test('a failed purchase refunded at once sends the alert of its debit, and a refund sends none', async (t) => {
  const account = await server.reseller(500, {}, { rate_limit_per_minute: 1_000_000 });
  await set_threshold(account.key, 400);
  await buy_airtime(server, account.key, '08022222222', 200); // debited 500 → 300 (alert), then refunded
  const sent = await alerts(account.key);
  t.equal(sent.length, 1, 'the debit crossed the threshold: one alert');
  t.equal(sent[0].data.balance, 300, 'with the balance right after the debit');
});

t.test('a webhook endpoint can subscribe to wallet.low_balance and receives it', async (t) => {
  const receiver = new WebhookReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  const account = await server.reseller(1_000, {}, { rate_limit_per_minute: 1_000_000 });
  const created = await server.api('POST', '/v1/webhooks', { key: account.key, body: { url: receiver.url, events: ['wallet.low_balance'] } });
  t.equal(created.status, 201, `the endpoint subscribes to wallet.low_balance (${created.text.slice(0, 200)})`);
  receiver.secret = created.body.data.secret;
  await set_threshold(account.key, 950);
  await buy_airtime(server, account.key, '08031234567', 100);
  await receiver.wait_for(1, 20_000);
  t.equal(receiver.received.length, 1, 'the alert is delivered');
  t.equal(receiver.received[0]?.json?.event, 'wallet.low_balance', 'as wallet.low_balance');
  t.ok(receiver.received[0]?.service_signature_ok, 'signed like every event');
  t.equal(receiver.received[0]?.json?.id, (await alerts(account.key))[0].id, 'with the id the feed shows');
});

t.test('bad thresholds are 400 validation.failed and change nothing; a key without * gets 403', async (t) => {
  const account = await server.reseller(100);
  await set_threshold(account.key, 25);
  for (const bad of [-1, 1.234, 'abc', 100_000_001, true]) {
    const response = await set_threshold(account.key, bad);
    check_error(t, response, 400, 'validation.failed', `threshold ${JSON.stringify(bad)}`);
    t.same(response.body.error.details?.map((d: { field: string }) => d.field), ['low_balance_threshold'], `${JSON.stringify(bad)}: the details name low_balance_threshold`);
  }
  const missing = await server.api('PATCH', '/v1/account', { key: account.key, body: {} });
  check_error(t, missing, 400, 'validation.failed', 'no threshold at all');
  t.equal((await server.api('GET', '/v1/account', { key: account.key })).body.data.low_balance_threshold, 25, 'the threshold is unchanged');
  const reader = await server.create_key(account.id, { scopes: ['wallet:read'] });
  check_error(t, await set_threshold(reader.api_key, 10), 403, 'auth.insufficient_scope', 'a wallet:read key');
});
