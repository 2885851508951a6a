// Found by the partition runs of 2026-11-28 (docs/cluster.md "Partitions, measured"): a standby's lease reads
// failed for the whole NATS election after a cut, and the first one that worked showed a revision it had not
// seen, a renewal the holder had sent just before the cut. Counting a whole lease from that moment, the
// standby waited 3.6 s more (a 3 s lease) for a holder whose lease had ended seconds before. Each renewal of a
// tenure is sent while the lease of the one before holds, and the key carries the tenure and its renewal
// count, so a standby that last saw the same tenure k renewals earlier knows the holder sent this one within
// k leases of the moment it counted for that one (src/cluster/lease.ts, renewals_sent_by).
//
// Here the holder is the test itself ("ghost", writing the key as a leader of this version does), and the
// standby is made blind by SIGSTOP: it saw the ghost's tenure, the ghost renews once more and stops, and the
// standby wakes three leases later. It must take over at once, and never sooner than a lease after the
// ghost's last renewal. (Before: a whole lease after it woke.)
import t from 'tap';
import { rmSync } from 'node:fs';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, StorageType } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { NatsCluster, cluster_status, start_node, test_lease_ms, wait_leading, wait_until } from './helpers/nats-cluster.js';
import type { TestServer } from './helpers/server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('a standby that missed a renewal of a tenure it saw counts the holder\'s lease from the renewal chain, not from when it saw it', async (t) => {
  const nats = await NatsCluster.start(3);
  const nc = await connect({ servers: nats.url.split(','), timeout: 5000 });
  const nodes: TestServer[] = [];
  t.teardown(async () => {
    for (const node of nodes) {
      node.signal('SIGCONT');
      await node.kill();
      rmSync(node.data_dir, { recursive: true, force: true });
    }
    await nc.close();
    await nats.stop();
  });
  const js = jetstream(nc, { timeout: 5000 });
  await wait_until('JetStream to answer', () => jetstreamManager(nc, { timeout: 2000 }));
  const kv = await wait_until('the lease bucket', () => new Kvm(js).create('billvend-lease', { history: 1, replicas: 3, storage: StorageType.File }));
  // The ghost's tenure, and its renewals every third of a lease, as a leader writes them.
  let count = 0;
  let revision = await kv.create('leader', `ghost 0123456789ab ${count}`);
  let renewing = true;
  let last_sent_ms = Date.now();
  const renew = async () => {
    last_sent_ms = Date.now();
    revision = await kv.update('leader', `ghost 0123456789ab ${count + 1}`, revision);
    count++;
  };
  const ghost = (async () => {
    while (renewing) {
      await sleep(Math.floor(test_lease_ms / 3));
      if (renewing) await renew();
    }
  })();

  const a = await start_node(nats, 'a');
  nodes.push(a);
  await wait_until('the node to follow as a standby', async () => (await cluster_status(a)).leader === 'ghost');
  await sleep(test_lease_ms); // three more renewals, each read by the standby (it reads every tenth of a lease)
  renewing = false;
  await ghost;
  t.equal((await cluster_status(a)).role, 'standby', `the node stays a standby while the ghost renews (${count} renewals)`);

  // The standby has seen the last renewal; it sleeps, the ghost renews once more and stops.
  await sleep(Math.floor(test_lease_ms / 5));
  a.signal('SIGSTOP');
  await renew();
  const paused_ms = Date.now();
  await sleep(3 * test_lease_ms);
  a.signal('SIGCONT');
  const woke_ms = Date.now();
  await wait_leading(a, 20_000);
  const took = a.logs.filter((line) => line.includes('"msg":"cluster: took the lease')).map((line) => JSON.parse(line) as { time?: string })[0];
  const took_ms = Date.parse(took?.time ?? '');
  t.ok(took_ms - last_sent_ms >= test_lease_ms, `the node took over ${took_ms - last_sent_ms} ms after the ghost's last renewal, not before a lease (${test_lease_ms} ms) ran out`);
  t.ok(took_ms - woke_ms < test_lease_ms, `and ${took_ms - woke_ms} ms after it woke, not a whole lease later (asleep ${woke_ms - paused_ms} ms)`);
  t.ok(a.logs.some((line) => line.includes('its lease is counted from that bound')), 'it counted the lease from the renewal chain');
  const taken = await kv.get('leader');
  t.equal(taken?.string().split(' ')[0], 'a', 'the key names the node');
});
