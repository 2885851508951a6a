// The outbox's promise (src/webhooks/outbox.ts): an event is committed with the state change that
// caused it, so once an operation is acknowledged its events are delivered at least once, whatever
// happens to the process. Here the receiver first fails (503) and then holds every request open, so
// deliveries are pending when the server is killed with SIGKILL; it restarts with LMDB_RESTORE=safe
// (only flushed commits survive, as after a power cut), twice, before the receiver starts answering 200.
import t from 'tap';
import { rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { TestServer, temp_dir } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { sleep } from './helpers/fixtures-http.js';

interface Ack {
  reference: string;
  kinds: string[];
}

t.test('every event of an acknowledged purchase or credit reaches the receiver after kill -9 restarts, none lost, copies sharing their id', async (t) => {
  const data_dir = temp_dir();
  t.teardown(() => rmSync(data_dir, { recursive: true, force: true }));
  const receiver = new WebhookReceiver();
  // The first answers fail, so some deliveries wait for a retry; after that every request hangs, so
  // the rest are in flight. Nothing is acknowledged by the receiver before the last restart.
  receiver.script = Array.from({ length: 20 }, () => 503);
  receiver.otherwise = 'hang';
  await receiver.start();
  t.teardown(() => receiver.stop());
  // A hanging attempt must outlive each server, so the timeout is long.
  const server = new TestServer(data_dir, webhook_env({ TIME_SCALE: '0.001', WEBHOOK_TIMEOUT_MS: '120000', LOG_LEVEL: 'warn' }));
  t.teardown(() => server.kill());
  await server.start();

  const account = await server.create_account();
  const key = (await server.create_key(account.id, { rate_limit_per_minute: 1_000_000 })).api_key;
  await server.credit(account.id, 'test', 100_000);
  const created = await server.api('POST', '/v1/webhooks', { key, body: { url: receiver.url } });
  t.equal(created.status, 201, 'the endpoint is registered');
  receiver.secret = created.body.data.secret;

  const acks: Ack[] = [];
  const unexpected: string[] = [];
  let sequence = 0;
  const rounds = 2;
  const per_round = 75;
  for (let round = 0; round < rounds; round++) {
    // 8 writers buy, get operator credits and top up, until the server dies under them.
    let alive = true;
    const writer = async () => {
      while (alive) {
        const n = sequence++;
        try {
          if (n % 3 === 0) {
            const response = await server.api('POST', '/v1/services/airtime', { key, body: { network: 'mtn', phone: '08011111111', amount: 50, pin: account.pin } });
            if (response.status === 201) acks.push({ reference: response.body.data.reference, kinds: ['transaction.completed', 'wallet.debited'] });
            else if (alive) unexpected.push(`purchase answered ${response.status} ${response.text}`);
          } else if (n % 3 === 1) {
            const reference = `OPS-${round}-${n}-${randomBytes(3).toString('hex')}`;
            const response = await server.admin('POST', `/admin/accounts/${account.id}/wallet/credit`, { environment: 'test', amount: 10, reference });
            if (response.status === 201) acks.push({ reference, kinds: ['wallet.credited'] });
          } else {
            const reference = `TOP-${round}-${n}-${randomBytes(3).toString('hex')}`;
            const response = await server.api('POST', '/v1/sandbox/wallet/fund', { key, body: { amount: 5, reference } });
            if (response.status === 201) acks.push({ reference, kinds: ['wallet.credited'] });
          }
        } catch (error) {
          if (alive) unexpected.push(`request failed while the server was up: ${(error as Error).message}`);
          return; // the connection died with the server
        }
      }
    };
    const writers = Array.from({ length: 8 }, writer);
    const target = acks.length + per_round;
    while (acks.length < target && unexpected.length === 0) await sleep(5);
    // Writers stop starting new operations; the ones in flight die with the server.
    alive = false;
    await server.kill();
    await Promise.all(writers);
    t.same(unexpected, [], `round ${round + 1}: every operation succeeded while the server was up`);
    const before_restart = receiver.received.length;
    t.ok(receiver.received.every((r) => r.answered !== 200), `round ${round + 1}: the receiver acknowledged nothing before the kill (${before_restart} requests held or failed)`);
    if (round === rounds - 1) receiver.otherwise = 200;
    await server.start({ LMDB_RESTORE: 'safe' });
  }
  t.ok(acks.length >= rounds * per_round, `${acks.length} operations were acknowledged across ${rounds} kills`);

  const expected = acks.flatMap((ack) => ack.kinds.map((kind) => `${ack.reference} ${kind}`));
  const acknowledged = () => new Set(receiver.received.filter((r) => r.answered === 200 && r.service_signature_ok).map((r) => `${r.json.data.reference} ${r.json.event}`));
  const deadline = Date.now() + 40_000;
  while (Date.now() < deadline && expected.some((e) => !acknowledged().has(e))) await sleep(50);
  const got = acknowledged();
  const missing = expected.filter((e) => !got.has(e));
  t.same(missing, [], `all ${expected.length} events of the acknowledged operations were delivered and acknowledged by the receiver`);

  // Copies of a delivery (an attempt cut short by the kill, sent again) must carry the same event id.
  const ids_by_event = new Map<string, Set<string>>();
  for (const request of receiver.received) {
    const name = `${request.json.data.reference} ${request.json.event}`;
    ids_by_event.set(name, (ids_by_event.get(name) ?? new Set()).add(request.json.id));
  }
  const split = [...ids_by_event].filter(([, ids]) => ids.size > 1).map(([name, ids]) => `${name}: ${[...ids].join(', ')}`);
  t.same(split, [], 'no event was sent under two ids, so receivers can deduplicate by id');
  const bodies_by_id = new Map<string, Set<string>>();
  for (const request of receiver.received) bodies_by_id.set(request.json.id, (bodies_by_id.get(request.json.id) ?? new Set()).add(request.body));
  t.same([...bodies_by_id].filter(([, bodies]) => bodies.size > 1).map(([id]) => id), [], 'every copy of an event is the same body');
  t.ok(receiver.received.every((r) => r.service_signature_ok && r.standard_signature_ok), 'every request, before and after the kills, was signed');
  const wallet = await server.api('GET', '/v1/wallet', { key });
  t.equal(wallet.status, 200, 'the restarted server answers');
});
