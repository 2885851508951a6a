// Finding (cluster partitions, scenario 5): a standby whose own NATS server sat on the leader's side of a
// partition never took over while the partition lasted. The NATS client pings its server every two
// minutes by default, so the standby stayed attached to a server it could not reach, and its reads of
// the lease timed out instead of moving to a reachable server. A frozen NATS server (SIGSTOP) looks the
// same to a client as one behind a cut: the TCP connection stays open and nothing answers. With pings
// derived from the lease (src/cluster/nats-timings.ts), the standby drops the frozen server, dials
// another, sees the lease stand still and takes over within the lease plus 5 s, while the server is
// still frozen.
import t from 'tap';
import { rmSync } from 'node:fs';
import { NatsCluster, cluster_status, start_node, stream_leader, test_lease_ms, wait_leading, wait_until } from './helpers/nats-cluster.js';
import { fast_reseller } from './helpers/purchases.js';
import type { TestServer } from './helpers/server.js';

const freeze_ms = 25_000;

t.test('a standby whose NATS server froze drops it within a lease and takes over from a dead leader while the server is still frozen', async (t) => {
  const nats = await NatsCluster.start(3);
  const nodes: TestServer[] = [];
  let frozen = -1;
  t.teardown(async () => {
    if (frozen >= 0) nats.signal(frozen, 'SIGCONT');
    for (const node of nodes) {
      await node.kill();
      rmSync(node.data_dir, { recursive: true, force: true });
    }
    await nats.stop();
  });
  const a = await start_node(nats, 'a');
  nodes.push(a);
  await wait_leading(a);
  const reseller = await fast_reseller(a, 1_000);

  // The standby's only configured server leads neither the journal nor the lease bucket, so that freezing
  // it costs JetStream no election and the figure measured is the client's: how soon it drops the server.
  const journal_leader = await wait_until('the journal stream to have a leader', () => stream_leader(nats));
  const lease_leader = await wait_until('the lease bucket to have a leader', () => stream_leader(nats, 'KV_billvend-lease'));
  const candidates = nats.nodes.map((_, i) => i).filter((i) => nats.nodes[i].name !== journal_leader && nats.nodes[i].name !== lease_leader);
  const victim = candidates[0] ?? nats.nodes.findIndex((node) => node.name !== journal_leader);
  const victim_url = `nats://127.0.0.1:${nats.nodes[victim].client_port}`;
  t.comment(`journal led by ${journal_leader}, lease bucket by ${lease_leader}; the standby is given only ${nats.nodes[victim].name} (${victim_url})`);

  const b = await start_node(nats, 'b', { env: { CLUSTER_NATS_URL: victim_url } });
  nodes.push(b);
  const before = await wait_until('the standby to follow the stream', async () => {
    const status = await cluster_status(b);
    return status.role === 'standby' ? status : null;
  });
  t.equal(before.nats_server, `127.0.0.1:${nats.nodes[victim].client_port}`, `/admin/cluster names the server the standby is on (${before.nats_server})`);

  nats.signal(victim, 'SIGSTOP');
  frozen = victim;
  await a.kill();
  const killed_ms = Date.now();
  // The wait ends before the freeze does: a standby that waits for the server to come back fails here.
  await wait_leading(b, freeze_ms - 2_000);
  const took_over_ms = Date.now() - killed_ms;
  t.comment(`the standby led ${took_over_ms} ms after the leader's kill -9, its NATS server frozen (lease ${test_lease_ms} ms)`);
  t.ok(took_over_ms <= test_lease_ms + 5_000, `a leader within the lease plus 5 s of the fault (${took_over_ms} ms)`);
  const after = await cluster_status(b);
  t.not(after.nats_server, before.nats_server, `the new leader is on another NATS server (${after.nats_server})`);
  const write = await b.api('POST', '/v1/sandbox/wallet/fund', { key: reseller.key, body: { amount: 100 } });
  t.equal(write.status, 201, `and it answers writes while the old server is still frozen (${write.text.slice(0, 200)})`);
  t.ok(Date.now() - killed_ms < freeze_ms, 'all of it before the frozen server came back');
});
