// Where events are kept (src/webhooks/records.ts, DeliveryRecord.event_key): an event is stored under
// the id of its first delivery, so the events store is appended to in order instead of being written
// at a random page per event (its public id is random). A store written before keyed events by their
// public id and its deliveries carry no event_key; their pending deliveries must still go out.
import t from 'tap';
import { rmSync } from 'node:fs';
import { open_store, start_server } from './helpers/server.js';
import { buy_airtime, fast_reseller, sandbox } from './helpers/purchases.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';

const event_id_pattern = /^evt_[0-9A-Za-z]{24}$/;

function open_events(data_dir: string) {
  const { root, db } = open_store(data_dir);
  return { root, events: db('events'), deliveries: db('deliveries') };
}

t.test('events are stored under their first delivery id, and deliveries of events stored by id (older stores) still go out', async (t) => {
  const receiver = new WebhookReceiver();
  // Everything is held unanswered until the server is stopped: the deliveries stay pending.
  receiver.otherwise = 'hang';
  await receiver.start();
  t.teardown(() => receiver.stop());
  const server = await start_server(t, { keep_data: true, env: webhook_env({ WEBHOOK_TIMEOUT_MS: '120000' }) });
  t.teardown(() => rmSync(server.data_dir, { recursive: true, force: true }));
  const reseller = await fast_reseller(server);
  const created = await server.api('POST', '/v1/webhooks', { key: reseller.key, body: { url: receiver.url, events: ['wallet.debited', 'transaction.completed'] } });
  t.equal(created.status, 201, 'the endpoint is registered');
  receiver.secret = created.body.data.secret;
  const endpoint_id: number = created.body.data.id;
  const references: string[] = [];
  for (let i = 0; i < 3; i++) {
    const bought = await buy_airtime(server, reseller.key, sandbox.delivered, 100);
    t.equal(bought.status, 201, `purchase ${i + 1} is delivered`);
    references.push(bought.body.data.reference);
  }
  await receiver.wait_for(6);
  await server.stop();
  const held_ids = new Set(receiver.received.map((r) => r.json?.id));
  t.equal(held_ids.size, 6, 'each purchase sent two events, none acknowledged');

  // As written now: numeric keys, ascending with the deliveries, each delivery naming its event's key.
  const legacy_ids: string[] = [];
  {
    const store = open_events(server.data_dir);
    try {
      const events = [...store.events.getRange({})];
      t.equal(events.length, 6, 'six events are stored');
      t.ok(events.every(({ key }) => typeof key === 'number'), `every event is stored under a number (${events.map((e) => e.key).join(', ')})`);
      const deliveries = [...store.deliveries.getRange({ start: [endpoint_id], end: [endpoint_id + 1] })].map((d) => d.value as Record<string, any>);
      t.equal(deliveries.length, 6, 'with one delivery each');
      for (const delivery of deliveries) {
        t.equal(delivery.status, 'pending', `delivery ${delivery.id} is pending`);
        t.equal(delivery.event_key, delivery.id, `delivery ${delivery.id}: its event is stored under its own id (one endpoint)`);
        t.equal((store.events.get(delivery.event_key) as Record<string, unknown>)?.id, delivery.event_id, `delivery ${delivery.id}: the key finds its event ${delivery.event_id}`);
      }
      // Rewrite the first two events the way older stores hold them: under their public id, and their
      // deliveries without event_key.
      for (const delivery of deliveries.slice(0, 2)) {
        const event = store.events.get(delivery.event_key) as Record<string, unknown>;
        await store.events.remove(delivery.event_key);
        await store.events.put(delivery.event_id, event);
        const { event_key: _dropped, ...older } = delivery;
        await store.deliveries.put([endpoint_id, delivery.id], older);
        legacy_ids.push(delivery.event_id);
      }
    } finally {
      await store.root.close();
    }
  }

  receiver.otherwise = 200;
  const before = receiver.received.length;
  await server.start();
  await receiver.wait_for(before + 6, 30_000);
  const after = receiver.received.slice(before);
  t.same(new Set(after.map((r) => r.json?.id)), held_ids, 'after the restart every held event arrives again, the older-keyed ones included');
  t.ok(after.every((r) => r.service_signature_ok && r.standard_signature_ok), 'each with valid signatures');
  for (const id of legacy_ids) {
    t.ok(after.some((r) => r.json?.id === id && r.headers['webhook-id'] === id && r.answered === 200), `the event ${id} stored under its id was delivered with its id`);
  }
  const more = await buy_airtime(server, reseller.key, sandbox.delivered, 100);
  t.equal(more.status, 201, 'a purchase after the restart is delivered');
  await receiver.wait_for(before + 8, 30_000);
  let listed: Record<string, any>[] = [];
  for (let tries = 0; tries < 100; tries++) {
    listed = (await server.api('GET', `/v1/webhooks/${endpoint_id}/deliveries?per_page=100`, { key: reseller.key })).body?.data?.deliveries ?? [];
    if (listed.length === 8 && listed.every((d) => d.status === 'delivered')) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.equal(listed.length, 8, 'the endpoint lists eight deliveries');
  t.ok(listed.every((d) => d.status === 'delivered'), `all delivered (${listed.map((d) => d.status).join(', ')})`);
  t.ok(listed.every((d) => event_id_pattern.test(d.event_id) && !('event_key' in d)), 'each naming its event by its public id only');
  await server.stop();

  const store = open_events(server.data_dir);
  try {
    const keys = [...store.events.getKeys({})];
    t.equal(keys.length, 8, 'eight events are stored');
    t.same(keys.filter((k) => typeof k === 'string').sort(), [...legacy_ids].sort(), 'the older two still under their ids, the rest under numbers');
  } finally {
    await store.root.close();
  }
});
