// A node with an empty DATA_DIR joins a cluster whose stream was trimmed below its first batches:
// it installs the latest snapshot, follows the stream from there, and ends with the leader's store,
// value for value (the replicated values survive the trip through another node's encoders). A
// standby that the stream was trimmed past (between its snapshot and its tail, or while it lagged)
// installs the newer snapshot itself and goes on, in the same process.
import t from 'tap';
import { rmSync } from 'node:fs';
import { NatsCluster, cluster_lab, cluster_status, start_node, wait_leading, wait_until } from './helpers/nats-cluster.js';
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
      // A node's own marker of its derived order index, written when it recovers as a leader
      // (ensure_order_index), not replicated: a standby writes its own when it takes over.
      if (name === 'meta' && key === 'order_index_version') continue;
      // A leader's own mark of what the stream acknowledged to it (src/cluster/codec.ts acked_key), not replicated.
      if (name === 'meta' && key === 'cluster_acked') continue;
      rows.push([key, value]);
    }
    out[name] = JSON.stringify(rows);
  }
  store.root.close();
  return out;
}

/** Follows a node's process: 'running' until it exits by itself, then its exit code. */
function watch_exit(node: TestServer): { state: number | null | 'running' } {
  const watch: { state: number | null | 'running' } = { state: 'running' };
  node.exit_code().then((code) => { watch.state = code; });
  return watch;
}

t.test('a node with an empty DATA_DIR joins a cluster with a trimmed stream and catches up to the same store, without exiting', async (t) => {
  const { nats, nodes } = await cluster_lab(t);
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
  const c_process = watch_exit(c);
  t.ok(c.logs.some((line) => line.includes('installed the latest snapshot')), 'the empty node starts from the snapshot');
  const status = await wait_until('the new node to catch up', async () => {
    // Applied to the leader's end, and the lease read (a status says leader: null until the first read,
    // which a catch-up from the snapshot can outrun).
    const [sc, sa] = [await cluster_status(c), await cluster_status(a)];
    return sc.applied_seq === sa.applied_seq && sc.leader !== null ? sc : null;
  }, 90_000);
  t.equal(c_process.state, 'running', 'the new node caught up in the process that started (no exit for a supervisor to restart)');
  t.match(status, { role: 'standby', leader: 'a', lag: 0 }, 'it follows the leader with no lag');
  await a.kill();
  await c.kill();
  t.same(dump(c.data_dir), dump(a.data_dir), 'its store holds exactly the leader\'s records');
});

t.test('a standby that lagged while the leader trimmed the stream past it installs the newer snapshot itself and catches up, without exiting', async (t) => {
  const nats = await NatsCluster.start(3);
  const nodes: TestServer[] = [];
  t.teardown(async () => {
    for (const node of nodes) {
      node.signal('SIGCONT');
      await node.kill();
      rmSync(node.data_dir, { recursive: true, force: true });
    }
    await nats.stop();
  });
  const a = await start_node(nats, 'a', { env: { CLUSTER_SNAPSHOT_BATCHES_MAX: '25' } });
  nodes.push(a);
  await wait_leading(a);
  const resellers = await Promise.all([fast_reseller(a, 20_000), fast_reseller(a, 20_000)]);
  const b = await start_node(nats, 'b');
  nodes.push(b);
  const b_process = watch_exit(b);
  const before = await wait_until('the standby to catch up before it lags', async () => {
    const [sb, sa] = [await cluster_status(b), await cluster_status(a)];
    return sb.applied_seq === sa.applied_seq ? sb : null;
  }, 60_000);

  // The standby lags (paused, as a slow disk or a long GC would stall it) while the leader takes a
  // snapshot past it and trims the stream: the batches it needs next are gone from the stream.
  b.signal('SIGSTOP');
  // The standby's consumer had asked for up to 100 messages before it paused, and the server sends
  // those into its socket anyway: the trim must reach well past them.
  const trimmed_to = () => Math.max(0, ...a.logs.filter((line) => line.includes('snapshot taken') && !line.includes('"purged":0')).map((line) => Number(/"seq":(\d+)/.exec(line)?.[1] ?? 0)));
  let stop = false;
  const load = run_load(resellers.map((r) => r.key), 4, () => a, () => stop);
  await wait_until('a snapshot that trims the stream well past the paused standby', async () => trimmed_to() > before.applied_seq + 200, 240_000);
  stop = true;
  const result = await load;
  const leader_now = await cluster_status(a);
  t.ok(leader_now.applied_seq > before.applied_seq + 200, `the leader appended ${leader_now.applied_seq - before.applied_seq} batches while the standby was paused at ${before.applied_seq} (${result.acknowledged.length} acknowledged writes)`);
  b.signal('SIGCONT');

  const status = await wait_until('the lagging standby to catch up', async () => {
    const [sb, sa] = [await cluster_status(b), await cluster_status(a)];
    return sb.applied_seq === sa.applied_seq && sb.leader !== null ? sb : null;
  }, 90_000);
  t.equal(b_process.state, 'running', 'the standby caught up in the same process (no exit for a supervisor to restart)');
  t.ok(b.logs.some((line) => line.includes('trimmed past this standby; installing the latest snapshot')), 'it saw the stream trimmed past it and installed the snapshot itself');
  t.match(status, { role: 'standby', leader: 'a', lag: 0 }, 'it follows the leader with no lag');
  await a.kill();
  await b.kill();
  t.same(dump(b.data_dir), dump(a.data_dir), 'its store holds exactly the leader\'s records');
});
