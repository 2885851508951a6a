// A leader whose lease renewal times out on a NATS server that still answers its pings dials another server
// (src/cluster/lease.ts, renew_once). Such a server is not dead to the client (its pings keep it), so neither the
// client's own pings nor the probe of a silent request (nats-link.ts) would ever drop it; but it is cut off from the
// lease bucket's Raft leader (a partition between NATS servers), and every renewal sent through it goes nowhere.
// The partition runs of 2026-11-28 saw exactly this: a leader deposed 2.7 s into a 3 s lease while the bucket's
// leader was reachable through the two other servers (docs/cluster.md "Timeouts").
//
// The test puts a proxy between the leader and one server (test/helpers/nats-replica-proxy.ts) and has it drop
// what the leader publishes to the lease bucket, and nothing else: pings, appends and the stream's answers pass.
// The leader must notice within a lease, dial another server, and keep its lease and its writes: deterministic,
// since the server answers every ping and only the renewals are lost.
import t from 'tap';
import { test_lease_ms, wait_until } from './helpers/nats-cluster.js';
import { batch_appender, in_process_cluster } from './helpers/in-process-nodes.js';
import { lease_bucket } from '../src/cluster/lease.js';
import { open_store, type Store } from '../src/journal/store.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('a leader whose lease renewals go nowhere through a server that answers its pings dials another server and keeps its lease', async (t) => {
  const { nodes, proxy } = await in_process_cluster(t, { proxy: true });

  // The leader dials the proxy only; the other servers it learns from the cluster (the INFO's connect_urls).
  const a = await nodes.join('a', null, { url: proxy.url, snapshots: false });
  const a_store: Store = await a.node.follow(() => open_store(a.dir));
  const inner = a.node as any;
  t.equal(inner.role, 'leader', 'a leads');
  t.equal(inner.nats_server, `127.0.0.1:${proxy.port}`, 'a is connected through the proxy');

  const append = batch_appender(a, a_store);
  await append();
  const renewals_before = inner.lease_renewals as number;

  // From now on the server hears nothing a sends to the lease bucket; it still answers a's pings.
  proxy.swallow_prefix = `$KV.${lease_bucket}.`;
  const cut_ms = Date.now();
  await wait_until('a to dial another server', async () => inner.nats_server !== null && inner.nats_server !== `127.0.0.1:${proxy.port}`, 3 * test_lease_ms);
  const moved_ms = Date.now() - cut_ms;
  t.ok(proxy.swallowed >= 1, `the proxy dropped ${proxy.swallowed} renewal(s)`);
  t.ok(moved_ms < test_lease_ms, `a dialled ${inner.nats_server} ${moved_ms} ms after the renewals were cut, within a lease (${test_lease_ms} ms)`);
  t.ok(a.logs.some((line) => line.includes('a lease renewal timed out on a NATS server that answers pings; dialling another')), 'a says why it left a server that answers pings');
  t.notOk(a.logs.some((line) => line.includes('did not answer a ping')), 'the server was not dropped for its pings: it answered them');

  // Three leases later a still leads, has renewed since, and its appends are acknowledged.
  await sleep(3 * test_lease_ms);
  t.equal(inner.role, 'leader', 'a still leads');
  t.ok((inner.lease_renewals as number) > renewals_before + 3, `a renewed its lease through the other server (${(inner.lease_renewals as number) - renewals_before} renewals since the cut)`);
  for (let i = 0; i < 3; i++) await append();
  t.same(a.exits, [], 'a never asked to exit');
  t.notOk(a.logs.some((line) => line.includes('the lease ran out before it was renewed')), 'a never lost its lease');
});
