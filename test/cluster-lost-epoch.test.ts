// Finding (cluster partitions, 2026-11-27, docs/cluster.md "Partitions, measured"): after the journal stream's
// Raft leader was cut off and healed twice, the new stream leader itself held, at the sequence where a node's
// epoch message had been acknowledged, the one batch a deposed leader had in flight there (never acknowledged),
// and the next message, by the epoch's node, named the epoch as the batch it follows. The leader's own history
// did not chain: both nodes repaired five times and gave up (exit 76). The repair now reads one message ahead
// and, when the next message names an epoch of its own node as its predecessor, applies that epoch in place
// of the stand-in (src/cluster/divergence-repair.ts, catch_up_verified).
//
// Here the divergence is made on purpose, every time: node a leads and gives the lease back, node b takes
// over (its epoch at seq N) and acknowledges top-ups after it; then a comes back as a standby through a
// proxy that plays the NATS servers after that heal (test/helpers/nats-replica-proxy.ts): at seq N it serves,
// to the consumer and to the JetStream API's message gets alike (the stream leader's word), a batch of a's
// that chains onto seq N-1 as a deposed leader's in-flight batch does. Node a must repair in its process
// (no exit, no give-up), stand where b stands, and, once b is killed, lead with every acknowledged top-up
// once and nothing of the stand-in batch.
import t from 'tap';
import { rmSync } from 'node:fs';
import { Packr } from 'msgpackr';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { NatsCluster, Supervisor, cluster_status, start_node, test_lease_ms, wait_leading, wait_until } from './helpers/nats-cluster.js';
import { NatsReplicaProxy } from './helpers/nats-replica-proxy.js';
import { fast_reseller, idem } from './helpers/purchases.js';
import { applied_position, decode_message, digest_of, stream_name, stream_subject } from '../src/cluster/codec.js';
import { open_store } from '../src/journal/store.js';
import type { TestServer } from './helpers/server.js';

/** The batch a deposed leader had in flight, in the journal's message format (version 2, records inside the message). */
function in_flight_batch(node: string): Buffer {
  const packer = new Packr({ useRecords: true, mapsAsObjects: true });
  return Buffer.from(packer.pack({ v: 2, kind: 'batch', node, changes: [['meta', 'lost_epoch_stand_in', 'a batch no client was told about']] }));
}

t.test('a stream leader holding a deposed leader\'s batch where an epoch was acknowledged is repaired in place, with every acknowledged write kept', async (t) => {
  const nats = await NatsCluster.start(3);
  const nodes: TestServer[] = [];
  const proxy = new NatsReplicaProxy(nats.nodes[0].client_port, stream_name);
  await proxy.start();
  const nc = await connect({ servers: nats.url.split(','), timeout: 5000 });
  let supervisor: Supervisor | null = null;
  t.teardown(async () => {
    supervisor?.stop();
    for (const node of nodes) {
      await node.kill();
      rmSync(node.data_dir, { recursive: true, force: true });
    }
    await nc.close();
    await proxy.stop();
    await nats.stop();
  });
  // Node a speaks to NATS only through the proxy, which passes everything until told otherwise.
  const a = await start_node(nats, 'a', { env: { CLUSTER_NATS_URL: proxy.url } });
  nodes.push(a);
  await wait_leading(a);
  const jsm = await jetstreamManager(nc, { timeout: 5000 }); // JetStream answers once a node leads
  const b = await start_node(nats, 'b');
  nodes.push(b);
  const reseller = await fast_reseller(a, 1_000);
  const starting_kobo = Math.round((await a.api('GET', '/v1/wallet', { key: reseller.key })).body.data.balance * 100);
  let acknowledged_kobo = 0;
  const top_up = async (node: TestServer, label: string) => {
    const funded = await node.api('POST', '/v1/sandbox/wallet/fund', { key: reseller.key, body: { amount: 100, reference: `EPOCH-${label}` }, idempotency_key: idem('epoch') });
    t.equal(funded.status, 201, `top-up ${label} is acknowledged`);
    if (funded.status === 201) acknowledged_kobo += 10_000;
  };
  for (let i = 0; i < 3; i++) await top_up(a, `a-${i}`);
  await wait_until('the standby to apply the stream to its end', async () => {
    const [sa, sb] = [await cluster_status(a), await cluster_status(b)];
    return sb.role === 'standby' && sb.applied_seq === sa.applied_seq && sa.applied_seq > 0;
  });

  // a gives the lease back (SIGTERM); b takes over: its epoch message goes at seq N, after a's last batch.
  const a_last = (await cluster_status(a)).applied_seq as number;
  t.equal(await a.stop(), 0, 'node a stops and gives the lease back');
  await wait_leading(b);
  const epoch_seq = a_last + 1;
  const epoch = await jsm.streams.getMessage(stream_name, { seq: epoch_seq });
  const epoch_message = decode_message(epoch!.data);
  t.same([epoch_message.kind, epoch_message.node], ['epoch', 'b'], `node b's epoch message stands at seq ${epoch_seq}`);
  for (let i = 0; i < 3; i++) await top_up(b, `b-${i}`);
  const b_status = await cluster_status(b);
  t.ok(b_status.applied_seq > epoch_seq + 1, `b acknowledged batches after its epoch (up to seq ${b_status.applied_seq})`);

  // From now on the NATS servers a speaks to hold, at seq N, the batch a had in flight there: it chains onto
  // a's last batch (seq N-1), as the deposed leader's batch does; b's batch at N+1 still names b's epoch.
  const before = await jsm.streams.getMessage(stream_name, { seq: a_last });
  const stand_in = in_flight_batch('a');
  proxy.gets_subject = stream_subject;
  proxy.rewrite = (delivery) => {
    if (delivery.stream_seq !== epoch_seq) return null;
    const headers = new Map<string, string>([
      ['Billvend-Digest', digest_of(stand_in)],
      ['Billvend-Part', '1/1'],
      ['Billvend-Follows', before!.header!.get('Billvend-Digest')],
    ]);
    return { headers, payload: stand_in };
  };
  await a.start();
  supervisor = new Supervisor([a]);

  // Repaired, or given up (exit 76 after five repairs, about 23 leases: what the code before the lost-epoch
  // repair did here); either ends the wait.
  const repaired = await wait_until('node a to repair its store or give up', async () => {
    if (a.logs.some((line) => line.includes('cluster: repaired'))) return 'repaired';
    return supervisor!.exits.length > 0 ? 'exited' : null;
  }, 60_000);
  if (repaired !== 'repaired') {
    const gave_up = a.logs.some((line) => line.includes('gave up repairing'));
    t.fail(`node a did not repair its store: it exited ${JSON.stringify(supervisor.exits)}${gave_up ? ', giving up repairing (exit 76)' : ''}`);
    return;
  }
  t.ok(proxy.rewritten + proxy.gets_rewritten >= 2, `the servers served the stand-in (${proxy.rewritten} deliveries, ${proxy.gets_rewritten} message gets)`);
  t.ok(a.logs.some((line) => line.includes('applying the epoch in its place')), 'node a applied b\'s epoch in place of the stand-in');
  const sa = await wait_until('node a to stand where the leader stands', async () => {
    const [status_a, status_b] = [await cluster_status(a), await cluster_status(b)];
    return status_a.applied_seq === status_b.applied_seq ? status_a : null;
  });
  t.equal(sa.role, 'standby', 'the repaired node is a standby, following the stream');
  // Three leases more: a node that repairs and then loops would exit meanwhile.
  await new Promise((resolve) => setTimeout(resolve, 3 * test_lease_ms));
  t.same(supervisor.exits, [], `node a never exited (exits: ${JSON.stringify(supervisor.exits)})`);
  t.notOk(a.logs.some((line) => line.includes('gave up repairing')), 'and never gave up repairing');

  // b dies: a takes over with every acknowledged top-up once, and serves.
  await b.kill();
  await wait_leading(a, 30_000);
  await top_up(a, 'a-after');
  const wallet = await a.api('GET', '/v1/wallet', { key: reseller.key });
  t.equal(Math.round(wallet.body.data.balance * 100), starting_kobo + acknowledged_kobo, 'the new leader holds every acknowledged top-up once');
  t.same(supervisor.exits, [], 'and never exited');
  supervisor.stop();
  await a.stop();
  const store = open_store(a.data_dir, { read_only: true });
  const marker = store.meta.get('lost_epoch_stand_in');
  const position = applied_position(store);
  await store.root.close();
  t.equal(marker, undefined, 'nothing of the stand-in batch is in the store');
  t.ok((position?.seq ?? 0) > epoch_seq + 3, `the store stands past the diverged sequence (${position?.seq})`);
});
