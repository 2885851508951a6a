// Finding (cluster partitions, scenario 3): after the journal stream's Raft leader was cut off and healed,
// the cut-off NATS server kept a deposed leader's batch beside the new leader's message at the same
// sequence. A standby's consumer served by that replica applied the foreign batch, the next batch did not
// follow it ("the stream served a batch that does not follow the last one applied"), the node exited 75,
// its start-up check (which reads the stream's leader) rebuilt the store, the consumer served the foreign
// batch again: both nodes crash-looped for minutes.
//
// Here the diverged replica is played by a proxy between the standby and its NATS server that rewrites
// every consumer delivery of one sequence into a deposed leader's batch (it chains onto the batch before,
// as such a batch does), while the JetStream API's answers, which only the stream's leader gives, pass
// untouched (test/helpers/nats-replica-proxy.ts). The standby must repair its store from the stream
// leader's history in the same process, never exit, and take over with every acknowledged write and
// nothing of the foreign batch.
import t from 'tap';
import { rmSync } from 'node:fs';
import { Packr } from 'msgpackr';
import { NatsCluster, Supervisor, cluster_status, start_node, test_lease_ms, wait_leading, wait_until } from './helpers/nats-cluster.js';
import { NatsReplicaProxy } from './helpers/nats-replica-proxy.js';
import { fast_reseller, idem } from './helpers/purchases.js';
import { applied_position, digest_of } from '../src/cluster/codec.js';
import { open_store } from '../src/journal/store.js';
import type { TestServer } from './helpers/server.js';

/** A deposed leader's batch, in the journal's message format (version 2, records inside the message). */
function foreign_batch(): Buffer {
  const packer = new Packr({ useRecords: true, mapsAsObjects: true });
  return Buffer.from(packer.pack({ v: 2, kind: 'batch', node: 'deposed', changes: [['meta', 'diverged_marker', 'a batch the stream leader never held']] }));
}

t.test('a standby served a diverged replica\'s batch repairs its store from the stream leader, keeps running and takes over with every acknowledged write', async (t) => {
  const nats = await NatsCluster.start(3);
  const nodes: TestServer[] = [];
  const proxy = new NatsReplicaProxy(nats.nodes[0].client_port, 'BILLVEND_JOURNAL');
  await proxy.start();
  let supervisor: Supervisor | null = null;
  t.teardown(async () => {
    supervisor?.stop();
    for (const node of nodes) {
      await node.kill();
      rmSync(node.data_dir, { recursive: true, force: true });
    }
    await proxy.stop();
    await nats.stop();
  });
  const a = await start_node(nats, 'a');
  nodes.push(a);
  await wait_leading(a);
  const reseller = await fast_reseller(a, 1_000);
  let acknowledged_kobo = 0;
  const top_up = async (label: string) => {
    const funded = await a.api('POST', '/v1/sandbox/wallet/fund', { key: reseller.key, body: { amount: 100, reference: `DIV-${label}` }, idempotency_key: idem('div') });
    t.equal(funded.status, 201, `top-up ${label} is acknowledged`);
    if (funded.status === 201) acknowledged_kobo += 10_000;
  };
  for (let i = 0; i < 3; i++) await top_up(`before-${i}`);
  const starting_kobo = Math.round((await a.api('GET', '/v1/wallet', { key: reseller.key })).body.data.balance * 100);

  // The standby's only NATS server is the proxy.
  const b = await start_node(nats, 'b', { env: { CLUSTER_NATS_URL: proxy.url } });
  nodes.push(b);
  supervisor = new Supervisor([b]);
  const caught_up = await wait_until('the standby to apply the stream to its end', async () => {
    const [sa, sb] = [await cluster_status(a), await cluster_status(b)];
    return sb.role === 'standby' && sb.applied_seq === sa.applied_seq && sa.applied_seq > 0 ? sb : null;
  });
  // From now on the replica serves, at the next sequence, the deposed leader's batch instead of the
  // leader's one, every time it is asked for it.
  const target = caught_up.applied_seq + 1;
  const foreign = foreign_batch();
  proxy.rewrite = (delivery) => {
    if (delivery.stream_seq !== target) return null;
    const headers = new Map(delivery.headers);
    headers.set('Billvend-Digest', digest_of(foreign));
    headers.set('Billvend-Part', '1/1');
    return { headers, payload: foreign };
  };
  for (let i = 0; i < 4; i++) await top_up(`after-${i}`);

  // The standby is served the foreign batch, then a batch that does not follow it, and repairs.
  await wait_until('the standby to repair its store', async () => b.logs.some((line) => line.includes('cluster: repaired')), 30_000).catch((error) => {
    t.fail(`${(error as Error).message}; meanwhile it exited ${supervisor!.exits.length} times (${JSON.stringify(supervisor!.exits)})`);
    throw error;
  });
  t.ok(proxy.rewritten >= 1, `the replica served the foreign batch (${proxy.rewritten} times)`);
  t.ok(b.logs.some((line) => line.includes('does not follow the last one applied')), 'the standby saw the batch that does not follow');
  t.ok(b.logs.some((line) => line.includes('holds a batch the stream\'s leader does not')), 'and found its last batch is not the stream leader\'s');
  const sa = await cluster_status(a);
  const sb = await wait_until('the standby to stand where the leader does', async () => {
    const status = await cluster_status(b);
    return status.applied_seq === sa.applied_seq ? status : null;
  });
  t.equal(sb.role, 'standby', 'the repaired node is a standby, following the stream');
  // Three leases more: a node that repairs and then loops would exit meanwhile.
  await new Promise((resolve) => setTimeout(resolve, 3 * test_lease_ms));
  t.same(supervisor.exits, [], `the standby never exited (exits: ${JSON.stringify(supervisor.exits)})`);

  // The leader dies: the repaired standby takes over, with every acknowledged write and none of the foreign batch.
  await a.kill();
  const killed_ms = Date.now();
  await wait_leading(b, 30_000);
  t.comment(`the repaired standby led ${Date.now() - killed_ms} ms after the leader's kill (lease ${test_lease_ms} ms)`);
  const wallet = await b.api('GET', '/v1/wallet', { key: reseller.key });
  t.equal(Math.round(wallet.body.data.balance * 100), starting_kobo + acknowledged_kobo - 30_000, 'the new leader holds every acknowledged top-up once');
  t.same(supervisor.exits, [], 'and never exited');
  supervisor.stop();
  await b.stop();
  const store = open_store(b.data_dir, { read_only: true });
  const marker = store.meta.get('diverged_marker');
  const position = applied_position(store);
  await store.root.close();
  t.equal(marker, undefined, 'nothing of the foreign batch is in the store');
  t.ok((position?.seq ?? 0) > target, `the store stands past the diverged sequence (${position?.seq} > ${target})`);
});
