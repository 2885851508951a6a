// The cluster's lease ends when its revision stops moving, as a standby watches it, not by a TTL on
// the key (docs/cluster.md "Lease"): nats-server 2.9 expires a stream's messages on each replica by
// its own timer, and a replica that had not expired the key held a standby off for most of a minute
// in the cluster crash campaign. Here the holder is the test itself ("ghost"), writing the key the
// way a leader renews it, so the moment it stops is known to the millisecond.
import t from 'tap';
import { rmSync } from 'node:fs';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, StorageType } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { NatsCluster, cluster_status, start_node, test_lease_ms, wait_leading, wait_until } from './helpers/nats-cluster.js';
import type { TestServer } from './helpers/server.js';

const bucket = 'billvend-lease';
const stream = `KV_${bucket}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('a lease whose holder keeps renewing is never taken; one that stopped is taken a lease after its last renewal', async (t) => {
  const nats = await NatsCluster.start(3);
  const nc = await connect({ servers: nats.url.split(','), timeout: 5000 });
  const nodes: TestServer[] = [];
  t.teardown(async () => {
    for (const node of nodes) {
      await node.kill();
      rmSync(node.data_dir, { recursive: true, force: true });
    }
    await nc.close();
    await nats.stop();
  });
  const js = jetstream(nc, { timeout: 5000 });
  // A new NATS cluster answers JetStream requests once it has elected its meta leader.
  const jsm = await wait_until('JetStream to answer', () => jetstreamManager(nc, { timeout: 2000 }));
  // The bucket as an older billvend made it: a TTL of one lease on every key.
  const kv = await wait_until('the lease bucket', () => new Kvm(js).create(bucket, { history: 1, ttl: test_lease_ms, replicas: 3, storage: StorageType.File }));
  let revision = await kv.create('leader', 'ghost');
  // The ghost renews every third of a lease from now on, as a leader does, until told to stop.
  let renewing = true;
  let renewals = 0;
  let checks = 0;
  let not_ready = 0;
  let a = null as TestServer | null;
  let last_sent_ms = Date.now();
  const ghost = (async () => {
    while (renewing) {
      await sleep(Math.floor(test_lease_ms / 3));
      if (!renewing) break;
      last_sent_ms = Date.now();
      revision = await kv.update('leader', 'ghost', revision);
      renewals++;
      if (a === null) continue;
      checks++;
      if ((await a.admin('GET', '/readyz')).status === 503) not_ready++;
    }
  })();

  a = await start_node(nats, 'a');
  nodes.push(a);
  const config = (await jsm.streams.info(stream)).config;
  t.equal(config.max_age, 0, 'the node took the TTL off the lease bucket an older version made (the key no longer expires on the servers)');

  // Four more leases of renewals: the node waits as a standby.
  await sleep(4 * test_lease_ms);
  renewing = false;
  await ghost;
  t.ok(checks >= 10, `the ghost renewed ${renewals} times, ${checks} of them after the node started`);
  t.equal(not_ready, checks, `the node answered /readyz 503 at each of those ${checks}`);
  if (a === null) throw new Error('unreachable');
  const status = await cluster_status(a);
  t.equal(status.role, 'standby', `after ${renewals} renewals over four leases, the node is still a standby`);
  t.equal(status.leader, 'ghost', '/admin/cluster names the holder as the leader');

  // The ghost stops: the node takes over no sooner than a lease after the last renewal, and soon after.
  await wait_leading(a, 20_000);
  const took_ms = Date.now() - last_sent_ms;
  t.ok(took_ms >= test_lease_ms, `the node took over ${took_ms} ms after the ghost's last renewal, not before the lease (${test_lease_ms} ms) ran out`);
  t.ok(took_ms <= 2 * test_lease_ms + 1000, `and within two leases and a second of it (${took_ms} ms)`);
  const taken = await kv.get('leader');
  t.equal(taken?.string().split(' ')[0], 'a', 'the key names the node (then its tenure and renewal count: docs/cluster.md "Lease")');
  t.ok((taken?.revision ?? 0) > revision, 'at a revision after the ghost\'s last one');

  // The ghost's late renewal, from its last revision, is refused: the take-over moved the key on.
  const late = await kv.update('leader', 'ghost', revision).then(() => 'landed', (error: Error) => error.message);
  t.not(late, 'landed', `a renewal from the old holder's revision fails after the take-over (${late})`);

  // The leader keeps the key moving: a standby started now stays a standby over three leases.
  const b = await start_node(nats, 'b');
  nodes.push(b);
  await sleep(3 * test_lease_ms);
  t.equal((await cluster_status(b)).role, 'standby', 'a second node stays a standby while the leader renews');
  t.equal((await cluster_status(a)).role, 'leader', 'and the leader keeps leading');

  // A leader that stops on purpose gives the lease back (a delete marker): the standby takes it at once.
  const stopped_ms = Date.now();
  await a.stop();
  await wait_leading(b, 20_000);
  const handed_ms = Date.now() - stopped_ms;
  t.ok(handed_ms < test_lease_ms + 1000, `after a SIGTERM the standby took over in ${handed_ms} ms, without waiting out a lease it was given back`);
});
