// Finding (partition runs of 2026-11-28 and the partition campaigns since, docs/cluster.md "Partitions, measured"):
// when a cut took the NATS server that led JetStream's meta group, nats-server 2.9 answered every message get
// "JetStream system temporarily unavailable" (err_code 10008) for the whole cut and past the heal, 14-43 s, though
// the journal and the lease bucket had Raft leaders again after 6-9 s and took appends. A standby's take-over reads
// the lease key and checks its last batch by message gets, so no node could take over until the meta group had a
// leader. A take-over now reads a replica then (a direct get), and its epoch message asks the stream's leader to
// confirm, as it appends it, that its last message is the batch this store applied last (Nats-Expected-Last-Msg-Id;
// src/cluster/take-over.ts, nats-link.ts stream_get).
//
// Both cases run the nodes' own code in the test's process on three real NATS servers; the standby reaches NATS
// through a proxy (test/helpers/nats-replica-proxy.ts) that answers every message get as such a server does.
import t, { type Test } from 'tap';
import { Packr } from 'msgpackr';
import { StorageType, jetstreamManager } from '@nats-io/jetstream';
import { test_lease_ms, wait_until } from './helpers/nats-cluster.js';
import { batch_appender, in_process_cluster, type Member } from './helpers/in-process-nodes.js';
import { digest_of, stream_name, stream_subject } from '../src/cluster/codec.js';
import { open_store, type Store } from '../src/journal/store.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function cluster_with_standby_behind_proxy(t: Test) {
  const { nodes, proxy } = await in_process_cluster(t, { proxy: true });
  const a = await nodes.join('a', 1, { snapshots: false });
  const a_store: Store = await a.node.follow(() => open_store(a.dir));
  const append = batch_appender(a, a_store);
  for (let i = 0; i < 3; i++) await append();
  const b = await nodes.join('b', null, { url: proxy.url, snapshots: false });
  let b_store: Store | null = null;
  const b_leads = b.node.follow(() => open_store(b.dir)).then((store) => (b_store = store));
  b_leads.catch(() => {});
  await wait_until('b to apply the stream to its end', async () => b.node.position().seq === a.node.position().seq, 10_000);
  return { proxy, a, b, append, b_leads, led: () => b_store !== null };
}

function role(member: Member): string {
  return (member.node as any).role;
}

t.test('a standby takes over while JetStream answers no message get, from what a replica holds, confirmed by the stream\'s leader', async (t) => {
  const { proxy, a, b, append, b_leads } = await cluster_with_standby_behind_proxy(t);
  // Two more batches that b's consumer never delivers: its take-over must read them (from a replica) to catch up.
  const seen = b.node.position().seq;
  proxy.rewrite = (delivery) => (delivery.stream_seq > seen ? 'drop' : null);
  await append();
  await append();
  const last = a.node.position().seq;
  t.equal(b.node.position().seq, seen, `b's consumer delivered nothing past seq ${seen}`);

  proxy.all_gets_unavailable = true;
  // And the first replica to answer is behind: it lacks the batches b needs, twice (a read to try again, not a trimmed stream).
  proxy.direct_misses = 2;
  const stopped_ms = Date.now();
  await a.node.stop(); // gives the lease back
  const led = await Promise.race([b_leads.then(() => true), sleep(10 * test_lease_ms).then(() => false)]);
  t.ok(led, `b leads ${Date.now() - stopped_ms} ms after a stopped, while every message get was refused (${proxy.gets_refused} refused)`);
  if (!led) return;
  t.ok(proxy.gets_refused >= 2, `the lease key and the journal were asked for by message get and refused (${proxy.gets_refused})`);
  t.ok(b.logs.some((line) => line.includes('reading a replica\'s copy of the journal')), 'b read the batches it lacked from a replica');
  t.equal(proxy.direct_missed, 2, 'a replica answered twice that it held no such message yet');
  t.ok(b.logs.some((line) => line.includes('holds no journal message')), 'b read again, rather than take the stream for trimmed');
  t.notOk(b.logs.some((line) => line.includes('installing the latest snapshot')), 'and installed no snapshot');
  t.equal(b.node.position().seq, last + 1, `b's epoch message follows a's last batch (seq ${last + 1})`);
  t.equal(role(b), 'leader', 'b leads');
  const b_store = b.node.current_store()!;
  for (let i = 0; i < 5; i++) t.equal(b_store.meta.get(`batch-${i}`), `batch ${i}`, `a's batch ${i} is in b's store`);
  t.same(b.exits, [], 'b never asked to exit');
});

/** A batch a replica holds that the stream never committed (a deposed leader's append), in the journal's format v2. */
function stand_in_batch(node: string): Buffer {
  const packer = new Packr({ useRecords: true, mapsAsObjects: true });
  return Buffer.from(packer.pack({ v: 2, kind: 'batch', node, changes: [['meta', 'stand_in', 'a batch no client was told about']] }));
}

t.test('a standby whose last batch, read from a replica, is not the stream leader\'s does not lead on it', async (t) => {
  const { proxy, a, b, append, b_leads, led: b_led } = await cluster_with_standby_behind_proxy(t);
  // b's consumer serves, at the next sequence, a batch that chains onto b's last one but that the stream's leader
  // does not hold there: a replica that stored a deposed leader's append.
  const seen = b.node.position();
  const stand_in = stand_in_batch('a');
  proxy.rewrite = (delivery) => delivery.stream_seq !== seen.seq + 1 ? null : {
    headers: new Map([['Billvend-Digest', digest_of(stand_in)], ['Billvend-Part', '1/1'], ['Billvend-Follows', seen.digest]]),
    payload: stand_in,
  };
  await append();
  await wait_until('b to apply the stand-in', async () => b.node.position().seq === seen.seq + 1, 10_000);
  t.equal(b.node.position().digest, digest_of(stand_in), 'b applied the replica\'s batch');

  proxy.all_gets_unavailable = true;
  await a.node.stop();
  await wait_until('b to be refused by the stream\'s leader', async () => b.logs.some((line) => line.includes('could not confirm its store against the stream\'s leader')), 10 * test_lease_ms).catch(() => {});
  t.ok(b.logs.some((line) => line.includes('could not confirm its store against the stream\'s leader')), 'the stream\'s leader refused b\'s epoch: its last message is another batch');
  await sleep(2 * test_lease_ms);
  // Each attempt takes the lease (role "leader" until the epoch is refused) and gives it back; none serves.
  t.notOk(b_led(), 'b does not lead while it cannot check its store: every attempt gave the lease back before serving');
  t.equal(b.node.current_store()!.meta.get('stand_in'), 'a batch no client was told about', 'and holds the replica\'s batch still');

  // JetStream answers message gets again: b's check finds the stand-in, repairs its store, and leads on a's history.
  proxy.all_gets_unavailable = false;
  const led = await Promise.race([b_leads.then(() => true), sleep(20 * test_lease_ms).then(() => false)]);
  t.ok(led, 'b leads once it could check its store');
  if (!led) return;
  const b_store = b.node.current_store()!;
  t.equal(b_store.meta.get('stand_in'), undefined, 'nothing of the replica\'s batch is in b\'s store');
  for (let i = 0; i < 4; i++) t.equal(b_store.meta.get(`batch-${i}`), `batch ${i}`, `a's batch ${i} is in b's store`);
  t.same(b.exits, [], 'b never asked to exit');
});

t.test('a journal stream an older billvend made, without direct gets, has them once a node connects', async (t) => {
  const { nodes, nc } = await in_process_cluster(t, { client: true });
  const jsm = await wait_until('JetStream to answer', async () => jetstreamManager(nc!, { timeout: 2000 }).catch(() => null), 30_000);
  await wait_until('JetStream to create the old stream', async () => jsm.streams.add({ name: stream_name, subjects: [stream_subject], storage: StorageType.File, num_replicas: 3 }).then(() => true, () => null), 20_000);
  t.equal((await jsm.streams.info(stream_name)).config.allow_direct, false, 'the stream as an older billvend made it has no direct gets');
  await nodes.join('a', null, { snapshots: false });
  t.equal((await jsm.streams.info(stream_name)).config.allow_direct, true, 'a node that connects turns them on');
});
