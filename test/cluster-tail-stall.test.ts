// A standby's tail that stops receiving is noticed and started again within a few leases while its leader
// lives (issue 37, "no stuck connection"). The test takes the tail's consumer away on the server, as a
// partition that leaves the consumer's host behind does, while the leader keeps writing: the standby
// must apply the new batches within a bound derived from the lease (src/cluster/nats-timings.ts: a pull
// lasts a lease and the client resets a consumer after two missed heartbeats; a tail that applied nothing
// for two leases while the stream held more is restarted). With the client's default 30 s pull, the same
// standby stayed behind for 30 s or more. The second test keeps the consumer and its heartbeats but drops
// every message it delivers (test/helpers/nats-replica-proxy.ts), as a consumer whose host lost the stream
// after a partition serves: the client never resets such a consumer, and only the standby's own check
// (StreamFollower.restart_stalled_tail) gets it going again.
import t from 'tap';
import { jetstreamManager } from '@nats-io/jetstream';
import { NatsReplicaProxy } from './helpers/nats-replica-proxy.js';
import { nats_timings } from '../src/cluster/nats-timings.js';
import { cluster_status, lab_with_leader, start_node, test_lease_ms, wait_until } from './helpers/nats-cluster.js';
import { fast_reseller, idem } from './helpers/purchases.js';
import { stream_name } from '../src/cluster/codec.js';
import type { TestServer } from './helpers/server.js';

/**
 * Three top-ups on the leader `a`, then waits for the standby `b` to have applied them. Returns a top-up of the
 * test's own and the probe that says whether `b` stands where `a` does (its status then).
 */
async function standby_following(a: TestServer, b: TestServer, prefix: string) {
  const reseller = await fast_reseller(a, 1_000);
  const fund = async (label: string) => {
    const funded = await a.api('POST', '/v1/sandbox/wallet/fund', { key: reseller.key, body: { amount: 100, reference: label }, idempotency_key: idem(prefix.toLowerCase()) });
    if (funded.status !== 201) throw new Error(`top-up ${label}: ${funded.status}`);
  };
  for (let i = 0; i < 3; i++) await fund(`${prefix}-BEFORE-${i}`);
  const caught_up = async () => {
    const [sa, sb] = [await cluster_status(a), await cluster_status(b)];
    return sb.role === 'standby' && sb.applied_seq === sa.applied_seq ? sb : null;
  };
  await wait_until('the standby to follow the leader', caught_up, 30_000);
  return { fund, caught_up };
}

t.test('a standby whose consumer is taken away on the server follows the leader again within a few leases', async (t) => {
  const { nats, nodes, nc, a } = await lab_with_leader(t);
  const b = await start_node(nats, 'b');
  nodes.push(b);
  const { fund, caught_up } = await standby_following(a, b, 'STALL');

  const jsm = await jetstreamManager(nc, { timeout: 5000 });
  const consumers: string[] = [];
  for await (const consumer of jsm.consumers.list(stream_name)) consumers.push(consumer.name);
  // The standby's tail, and the leader's from when it was a standby, until the server drops it as inactive.
  t.ok(consumers.length >= 1, `the stream has the standby's consumer (${consumers.length} consumer(s), all taken away)`);
  for (const name of consumers) await jsm.consumers.delete(stream_name, name);
  const taken_ms = Date.now();
  for (let i = 0; i < 5; i++) await fund(`STALL-AFTER-${i}`);
  const leader = await cluster_status(a);
  const status = await wait_until('the standby to apply what the leader wrote after its consumer was taken away', caught_up, 60_000);
  const took_ms = Date.now() - taken_ms;
  // Two leases of stall before a restart, a lease for the old tail to stop, and a lease of slack for a busy
  // machine; the 30 s default pull alone would take longer than this.
  const bound_ms = 5 * test_lease_ms + 2_000;
  t.ok(took_ms <= bound_ms, `it applied them ${took_ms} ms after its consumer went (at most ${bound_ms} ms)`);
  t.ok(status.applied_seq >= leader.applied_seq, 'up to the leader\'s last batch');
  t.equal(status.lag, 0, 'with no lag');
  t.ok(b.logs.every((line) => !line.includes('"level":"error"') && !line.includes('deposed')), 'the standby logged no error and was not deposed');
});

t.test('a standby whose consumer keeps its heartbeats but delivers nothing restarts its tail and follows the leader again', async (t) => {
  const { nats, nodes, a } = await lab_with_leader(t);
  const proxy = new NatsReplicaProxy(nats.nodes[0].client_port, stream_name);
  await proxy.start();
  t.teardown(() => proxy.stop());
  // The standby's only NATS server is the proxy.
  const b = await start_node(nats, 'b', { env: { CLUSTER_NATS_URL: proxy.url } });
  nodes.push(b);
  const { fund, caught_up } = await standby_following(a, b, 'SILENT');

  // From now on the consumer that delivers next (the standby's tail) delivers into the void; a consumer made
  // after it (a restarted tail) is served as before.
  let silenced: string | null = null;
  proxy.rewrite = (delivery) => {
    silenced ??= delivery.consumer;
    return delivery.consumer === silenced ? 'drop' : null;
  };
  const silenced_ms = Date.now();
  const writes = (async () => {
    for (let i = 0; i < 8; i++) {
      await fund(`SILENT-AFTER-${i}`);
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
  })();
  await writes;
  const leader = await cluster_status(a);
  const status = await wait_until('the standby to apply what the leader wrote while its consumer delivered nothing', caught_up, 60_000);
  const took_ms = Date.now() - silenced_ms;
  t.ok(proxy.dropped >= 1, `the consumer's deliveries were dropped (${proxy.dropped}), its heartbeats kept`);
  const restarted = b.logs.find((line) => line.includes('applied nothing while the stream held more; restarting it'));
  t.ok(restarted, 'the standby says its tail applied nothing while the stream held more, and restarts it');
  const timings = nats_timings(test_lease_ms);
  // Two leases without progress, then the next lease check, a lease for the old tail to stop, and slack.
  const bound_ms = 8 * 400 + timings.tail_stall_ms + 2 * test_lease_ms + 2_000;
  t.ok(took_ms <= bound_ms, `it applied them ${took_ms} ms after its consumer went silent (at most ${bound_ms} ms, the writes taking 3.2 s)`);
  t.ok(status.applied_seq >= leader.applied_seq, 'up to the leader\'s last batch');
  t.ok(b.logs.every((line) => !line.includes('"level":"error"') && !line.includes('deposed')), 'the standby logged no error and was not deposed');
});
