import t from 'tap';
import { start_server } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';

t.test('a purchase delivers signed transaction.completed and wallet.debited events to an HTTPS receiver', async (t) => {
  const receiver = new WebhookReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  const server = await start_server(t, { env: webhook_env({ TIME_SCALE: '0.001' }) });
  const reseller = await server.reseller(10_000);
  const created = await server.api('POST', '/v1/webhooks', { key: reseller.key, body: { url: receiver.url } });
  t.equal(created.status, 201, `endpoint registered: ${created.text}`);
  receiver.secret = created.body.data.secret;
  const bought = await server.api('POST', '/v1/services/airtime', { key: reseller.key, body: { network: 'mtn', phone: '08011111111', amount: 100, pin: reseller.pin } });
  t.equal(bought.status, 201, 'airtime delivered');
  await receiver.wait_for(2);
  const completed = receiver.events('transaction.completed');
  t.equal(completed.length, 1, 'one transaction.completed');
  t.ok(completed[0].service_signature_ok, 'X-Service-Signature verifies');
  t.ok(completed[0].standard_signature_ok, 'webhook-signature verifies');
  t.equal(completed[0].json.data.reference, bought.body.data.reference, 'event names the order');
  t.equal(receiver.events('wallet.debited').length, 1, 'one wallet.debited');
});
