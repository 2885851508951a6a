// Webhook endpoints are held by the webhooks layer (src/webhooks/endpoint-registry.ts), not by the account's
// actor, so an account with endpoints is let go beyond ACTORS_RESIDENT_MAX like any other. When the
// endpoints lived in the actor, such an actor had to stay in memory for ever: built again from the
// store, it would have had no endpoints and its events would have reached no one. This checks that an
// account let go still has its events delivered, signed with its secret, and still lists its endpoint
// (taken back from memory or built again from the store, whichever the garbage collector left).
import t from 'tap';
import { start_server } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';

const others_count = 5;

function series(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? Number.NaN : Number(line.slice(name.length + 1));
}

t.test('an account with a webhook endpoint that was let go still gets its events', async (t) => {
  const server = await start_server(t, { env: webhook_env({ ACTORS_RESIDENT_MAX: '1' }), keep_data: false });
  const metric = async (name: string) => series((await server.admin('GET', '/metrics')).text, name);
  const receiver = new WebhookReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  const account = await server.reseller(0);
  const created = await server.api('POST', '/v1/webhooks', { key: account.key, body: { url: receiver.url, events: ['wallet.credited'] } });
  t.equal(created.status, 201, 'the endpoint is registered');
  receiver.secret = created.body.data.secret;

  // The key's rate-limit window keeps the actor for a minute: a restart lets go of that, and recovery
  // builds the account once to check it. Accounts made through the operator API then push it out.
  await server.stop();
  await server.start();
  for (let i = 0; i < others_count; i++) await server.reseller(0);
  // Held in memory for its endpoint, the account would stay beside the newest one: two actors.
  t.equal(await metric('billvend_actors_in_memory'), 1, 'one actor is in memory, the newest account\'s: the one with an endpoint was let go');
  t.ok((await metric('billvend_actors_evicted')) >= others_count, 'actors were let go (billvend_actors_evicted)');

  await server.credit(account.id, 'test', 1_000);
  const received = await receiver.wait_for(1);
  t.equal(received.length, 1, 'the credit\'s event is delivered once');
  t.equal(received[0].json?.event, 'wallet.credited', 'as wallet.credited');
  t.ok(received[0].service_signature_ok, 'signed with the endpoint\'s secret');
  const listed = await server.api('GET', '/v1/webhooks', { key: account.key });
  t.equal(listed.status, 200, 'the endpoints are listed');
  t.same(listed.body.data.webhooks.map((w: { id: number }) => w.id), [created.body.data.id], 'with the one endpoint, registered before the restart');
});
