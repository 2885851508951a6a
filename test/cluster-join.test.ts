// A node with an empty DATA_DIR joins a cluster whose stream was trimmed below its first batches:
// it installs the latest snapshot, follows the stream from there, and ends with the leader's store,
// value for value (the replicated values survive the trip through another node's encoders).
import t from 'tap';
import { rmSync } from 'node:fs';
import { NatsCluster, Supervisor, cluster_status, start_node, wait_leading, wait_until } from './helpers/nats-cluster.js';
import { run_load } from './helpers/cluster-load.js';
import { fast_reseller } from './helpers/purchases.js';
import { open_store, type TestServer } from './helpers/server.js';

const database_names = ['meta', 'accounts', 'wallets', 'wallet_entries', 'keys', 'idempotency', 'funding_refs', 'orders', 'order_refs', 'open_orders', 'catalog', 'webhook_endpoints', 'events', 'deliveries', 'delivery_queue', 'dead_letters', 'sessions'];

function dump(data_dir: string): Record<string, string> {
  const store = open_store(data_dir, { readOnly: true });
  const out: Record<string, string> = {};
  for (const name of database_names) {
    const rows: unknown[] = [];
    for (const { key, value } of store.db(name).getRange({})) {
      if (typeof key === 'symbol') continue; // lmdb-js's shared structures: per store by design
      if (name === 'meta' && key === 'probe_ms') continue;
      rows.push([key, value]);
    }
    out[name] = JSON.stringify(rows);
  }
  store.root.close();
  return out;
}

t.test('a node with an empty DATA_DIR joins a cluster with a trimmed stream and catches up to the same store', async (t) => {
  const nats = await NatsCluster.start(3);
  const nodes: TestServer[] = [];
  let supervisor: Supervisor | null = null;
  t.teardown(async () => {
    supervisor?.stop();
    for (const node of nodes) {
      await node.kill();
      rmSync(node.data_dir, { recursive: true, force: true });
    }
    await nats.stop();
  });
  const a = await start_node(nats, 'a', { env: { CLUSTER_SNAPSHOT_BATCHES_MAX: '25' } });
  nodes.push(a);
  await wait_leading(a);
  const resellers = await Promise.all([fast_reseller(a, 20_000), fast_reseller(a, 20_000)]);
  let stop = false;
  const load = run_load(resellers.map((r) => r.key), 4, () => a, () => stop);
  await wait_until('a snapshot that trims the stream under load', async () => a.logs.some((line) => line.includes('snapshot taken') && !line.includes('"purged":0') && /"seq":\d{2,}/.test(line)));
  stop = true;
  const result = await load;
  t.ok(result.acknowledged.length > 25, `the leader acknowledged ${result.acknowledged.length} writes, more than one snapshot's worth`);

  const c = await start_node(nats, 'c');
  nodes.push(c);
  t.ok(c.logs.some((line) => line.includes('installed the latest snapshot')), 'the empty node starts from the snapshot');
  // As in production (docs/cluster.md: Restart=always), a node that exits by itself is started again on
  // its store: a standby whose stream was trimmed past it between the snapshot and its tail exits
  // ("restart to rebuild from a snapshot") and rebuilds from the newer snapshot when it starts again.
  supervisor = new Supervisor([c]);
  const status = await wait_until('the new node to catch up', async () => {
    const [sc, sa] = [await cluster_status(c), await cluster_status(a)];
    return sc.applied_seq === sa.applied_seq ? sc : null;
  }, 90_000);
  t.comment(`the new node exited by itself ${supervisor.exits.length} time(s) before it caught up (${JSON.stringify(supervisor.exits)})`);
  supervisor.stop();
  t.match(status, { role: 'standby', leader: 'a', lag: 0 }, 'it follows the leader with no lag');
  await a.kill();
  await c.kill();
  t.same(dump(c.data_dir), dump(a.data_dir), 'its store holds exactly the leader\'s records');
});
