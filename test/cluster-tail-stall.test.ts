// A standby's tail that stops receiving is noticed and started again within a few leases while its leader
// lives (issue 37, "no stuck connection"). The test takes the tail's consumer away on the server, as a
// partition that leaves the consumer's host behind does, while the leader keeps writing: the standby
// must apply the new batches within a bound derived from the lease (src/cluster/nats-timings.ts: a pull
// lasts a lease and the client resets a consumer after two missed heartbeats; a tail that applied nothing
// for two leases while the stream held more is restarted). With the client's default 30 s pull, the same
// standby stayed behind for 30 s or more.
import t from 'tap';
import { jetstreamManager } from '@nats-io/jetstream';
import { cluster_status, lab_with_leader, start_node, test_lease_ms, wait_until } from './helpers/nats-cluster.js';
import { fast_reseller, idem } from './helpers/purchases.js';
import { stream_name } from '../src/cluster/codec.js';

t.test('a standby whose consumer is taken away on the server follows the leader again within a few leases', async (t) => {
  const { nats, nodes, nc, a } = await lab_with_leader(t);
  const b = await start_node(nats, 'b');
  nodes.push(b);
  const reseller = await fast_reseller(a, 1_000);
  const fund = async (label: string) => {
    const funded = await a.api('POST', '/v1/sandbox/wallet/fund', { key: reseller.key, body: { amount: 100, reference: label }, idempotency_key: idem('stall') });
    if (funded.status !== 201) throw new Error(`top-up ${label}: ${funded.status}`);
  };
  for (let i = 0; i < 3; i++) await fund(`STALL-BEFORE-${i}`);
  const caught_up = async () => {
    const [sa, sb] = [await cluster_status(a), await cluster_status(b)];
    return sb.role === 'standby' && sb.applied_seq === sa.applied_seq ? sb : null;
  };
  await wait_until('the standby to follow the leader', caught_up, 30_000);

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
