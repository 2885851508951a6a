// Finding (partition campaign of 2026-11-29, seed 9294, round 41): the journal stream's leader was cut off while the
// leader node appended; the cut-off NATS server kept the deposed leader's next batch, which the stream never
// committed, and after the heal a consumer it hosted delivered that "phantom" past the new stream leader's last
// sequence. Each standby applied it from its tail, found it at its take-over check, rebuilt its store from the latest
// snapshot, started its tail again, and was served the phantom again: 82 s with no node leading.
//
// The tail now applies no message past the end the stream's leader reports to the lease checks
// (StreamFollower.leader_copy_of). The test plays the diverged server at the edge of the standby
// (test/helpers/nats-replica-proxy.ts): its consumer delivers a phantom where the leader node appended a real batch,
// while the stream info answers say the leader has not reached that sequence yet. The standby must hold the phantom
// unapplied; once the leader reports the sequence, it must apply the leader's own copy (a message get) and follow on
// without a repair. On the code before, the standby applied the phantom at once (red: the first two assertions after
// the delivery), and its chain broke at the next batch. The second test: a tail's first message is checked against the
// leader's copy even when the leader's end is past it. The third: the leader's copy of a held message is asked for again
// while JetStream refuses message gets (as nats-server 2.9 does while it sees no meta-group leader), never the
// consumer's copy applied meanwhile.
import t, { type Test } from 'tap';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { NatsCluster, wait_until } from './helpers/nats-cluster.js';
import { NatsReplicaProxy } from './helpers/nats-replica-proxy.js';
import { in_process_nodes, type Member } from './helpers/in-process-nodes.js';
import { digest_of, encode_message, stream_name, stream_subject } from '../src/cluster/codec.js';
import { digest_header, follows_header, part_header } from '../src/cluster/stream-headers.js';
import { open_store, type Store } from '../src/journal/store.js';
import { write_changes, type StagedChange } from '../src/journal/journal.js';

/**
 * Three NATS servers, a leading in process on the first and b following through a proxy in front of the second, both
 * without snapshots; a has appended 5 batches and b applied them (`last`, the stream's end).
 */
async function two_nodes(t: Test) {
  const nats = await NatsCluster.start(3);
  const nodes = in_process_nodes(nats);
  const proxy = new NatsReplicaProxy(nats.nodes[1].client_port, stream_name);
  await proxy.start();
  const nc = await connect({ servers: nats.url.split(','), timeout: 5000 });
  t.teardown(async () => {
    await nodes.stop_all();
    await proxy.stop();
    await nc.close();
    await nats.stop();
  });
  const lead = (member: Member): Promise<void> => member.node.follow(() => open_store(member.dir)).then((store) => {
    member.store = store;
  });
  const a = await nodes.join('a', 0, { snapshots: false });
  await lead(a);
  // The standby reaches NATS only through the proxy.
  const b = await nodes.join('b', null, { snapshots: false, url: proxy.url });
  lead(b).catch(() => {});
  const append = async (key: string, value: string) => {
    const changes: StagedChange[] = [{ db: a.store!.meta, key, encoded: encode(a.store!, value) }];
    const appended = a.node.append(changes);
    await appended.appended;
    await write_changes([...changes, ...appended.changes]);
  };
  for (let i = 0; i < 5; i++) await append(`before-${i}`, `b${i}`);
  const jsm = await jetstreamManager(nc, { timeout: 5000 });
  const last = (await jsm.streams.info(stream_name)).state.last_seq;
  await wait_until('b to apply the stream to its end', async () => b.node.position().seq === last, 10_000);
  return { proxy, b, append, jsm, last };
}

const encode = (store: Store, value: string) => (store.meta as any).encoder.encode(value);

/**
 * The diverged server in front of b: its consumer delivers a phantom at `last + 1` (a batch chaining onto b's last,
 * which the stream never committed); with `hold`, the stream info answers also say the leader's journal ends at
 * `last` until `release()`.
 */
function serve_phantom(proxy: NatsReplicaProxy, b: Member, last: number, hold: boolean) {
  let holding = hold;
  if (hold) proxy.info_rewrite = (answer) => (holding ? { ...answer, state: { ...answer.state, last_seq: last } } : null);
  const b_inner = b.node as any;
  const b_store = b.node.current_store()!;
  const phantom = Buffer.from(encode_message(b_inner.names, 'batch', 'a', [{ db: b_store.meta, key: 'phantom', encoded: encode(b_store, 'never committed') }]));
  const phantom_headers = new Map([[digest_header, digest_of(phantom)], [part_header, '1/1'], [follows_header, b.node.position().digest]]);
  proxy.rewrite = (delivery) => (delivery.consumer !== '' && delivery.stream_seq === last + 1 ? { headers: phantom_headers, payload: phantom } : null);
  return { digest: digest_of(phantom), release: () => { holding = false; } };
}

t.test('a standby\'s tail holds a batch served past the stream leader\'s end, then applies the leader\'s own copy', async (t) => {
  const { proxy, b, append, jsm, last } = await two_nodes(t);

  // The diverged server: its consumer delivers a phantom at last + 1, and the stream info answers say the
  // leader's journal ends at `last` until the test lets them through.
  const phantom = serve_phantom(proxy, b, last, true);

  await append('real', 'committed');
  const real = await jsm.streams.getMessage(stream_name, { seq: last + 1 });
  const real_digest = real!.header.get(digest_header);
  t.not(real_digest, phantom.digest, 'the stream holds the real batch at the phantom\'s sequence');
  await wait_until('the proxy to deliver the phantom', async () => proxy.rewritten >= 1, 10_000);
  // Several lease checks (a tenth of a lease each) see the leader's end at `last`.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  t.equal(b.node.position().seq, last, `b holds the message at seq ${last + 1} unapplied while the leader reports ${last}`);
  t.equal(b.node.current_store()!.meta.get('phantom'), undefined, 'the phantom is not in b\'s store');
  const held = b.logs.filter((line) => /past the stream leader's end/.test(line));
  t.ok(held.length > 0, `b says why it holds the message: ${held.map((line) => JSON.parse(line).msg).join('; ')}`);

  phantom.release();
  await wait_until('b to apply seq last + 1', async () => b.node.position().seq === last + 1, 10_000).catch(() => {});
  t.equal(b.node.position().seq, last + 1, 'b applied the message once the leader reported its sequence');
  t.equal(b.node.position().digest, real_digest, 'b applied the leader\'s copy, not the one its consumer delivered');
  const store = b.node.current_store()!;
  t.equal(store.meta.get('real'), 'committed', 'the real batch\'s change is in b\'s store');
  t.equal(store.meta.get('phantom'), undefined, 'the phantom\'s change is not');

  for (let i = 0; i < 5; i++) await append(`after-${i}`, `a${i}`);
  const end = (await jsm.streams.info(stream_name)).state.last_seq;
  await wait_until('b to follow on to the stream\'s end', async () => b.node.position().seq === end, 10_000).catch(() => {});
  t.equal(b.node.position().seq, end, `b followed on to seq ${end}`);
  t.same([0, 1, 2, 3, 4].map((i) => store.meta.get(`after-${i}`)), ['a0', 'a1', 'a2', 'a3', 'a4'], 'with every later batch');
  t.same(b.logs.filter((line) => /repair|does not follow/.test(line)).map((line) => JSON.parse(line).msg), [], 'b repaired nothing: its chain never broke');
  t.same(b.exits, [], 'b did not exit');
});

t.test('a standby\'s tail checks the first message it applies against the stream leader\'s copy', async (t) => {
  // Found by the partition campaign of 2026-11-29 (seed 9296, rounds 85 and one before): a deposed leader restarted,
  // and the first message its tail was served was its own refused append, held by the server cut off with it, where
  // the new leader's epoch stood; the next message broke the chain and the store was rebuilt from the snapshot.
  const { proxy, b, append, jsm, last } = await two_nodes(t);

  // b's tail stops, as a restarted node's has not started yet; its consumer will deliver a phantom at last + 1.
  const b_inner = b.node as any;
  await b_inner.stop_tail();
  serve_phantom(proxy, b, last, false);
  await append('real', 'committed');
  for (let i = 0; i < 3; i++) await append(`after-${i}`, `a${i}`);
  const end = (await jsm.streams.info(stream_name)).state.last_seq;
  // The leader's end reaches b's lease checks (a tenth of a lease each) before its tail starts: nothing is held.
  await new Promise((resolve) => setTimeout(resolve, 500));
  b_inner.start_tail();
  await wait_until('b to follow on to the stream\'s end', async () => b.node.position().seq === end, 10_000).catch(() => {});
  t.ok(proxy.rewritten >= 1, `b's consumer delivered the phantom (${proxy.rewritten})`);
  t.equal(b.node.position().seq, end, `b followed on to seq ${end}`);
  const store = b.node.current_store()!;
  t.equal(store.meta.get('real'), 'committed', 'b applied the leader\'s batch at the phantom\'s sequence');
  t.equal(store.meta.get('phantom'), undefined, 'not the phantom');
  t.same([0, 1, 2].map((i) => store.meta.get(`after-${i}`)), ['a0', 'a1', 'a2'], 'and every later batch');
  const said = b.logs.filter((line) => /is not the stream leader's/.test(line));
  t.ok(said.length > 0, `b says it applied the leader's copy: ${said.map((line) => JSON.parse(line).msg).join('; ')}`);
  t.same(b.logs.filter((line) => /repair|does not follow/.test(line)).map((line) => JSON.parse(line).msg), [], 'b repaired nothing: its chain never broke');
  t.same(b.exits, [], 'b did not exit');
});


t.test('a standby asks again for the leader\'s copy of a held message while JetStream refuses message gets', async (t) => {
  const { proxy, b, append, jsm, last } = await two_nodes(t);
  const phantom = serve_phantom(proxy, b, last, true);
  await append('real', 'committed');
  const real_digest = (await jsm.streams.getMessage(stream_name, { seq: last + 1 }))!.header.get(digest_header);
  await wait_until('the proxy to deliver the phantom', async () => proxy.rewritten >= 1, 10_000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.equal(b.node.position().seq, last, 'b holds the phantom while the leader reports an end before it');

  // The leader now reports the sequence, but every message get of the journal is refused for 1.5 s.
  proxy.gets_unavailable = stream_subject;
  phantom.release();
  await wait_until('b to ask for the leader\'s copy', async () => proxy.gets_refused >= 3, 10_000).catch(() => {});
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  t.ok(proxy.gets_refused >= 3, `b asked again and again while refused (${proxy.gets_refused} refusals)`);
  t.equal(b.node.position().seq, last, 'and applied nothing meanwhile: neither the consumer\'s copy nor anything else');
  t.equal(b.node.current_store()!.meta.get('phantom'), undefined, 'the phantom is not in b\'s store');
  const retried = b.logs.filter((line) => /reading the stream leader's copy of a held message failed/.test(line));
  t.ok(retried.length >= 1 && retried.length <= 3, `b says it retries, about once a second (${retried.length} lines for ${proxy.gets_refused} refusals)`);

  proxy.gets_unavailable = null;
  await wait_until('b to apply seq last + 1', async () => b.node.position().seq === last + 1, 10_000).catch(() => {});
  t.equal(b.node.position().digest, real_digest, 'once answered, b applied the leader\'s copy');
  t.equal(b.node.current_store()!.meta.get('real'), 'committed', 'the real batch\'s change is in b\'s store');
  await append('after', 'a');
  const end = (await jsm.streams.info(stream_name)).state.last_seq;
  await wait_until('b to follow on', async () => b.node.position().seq === end, 10_000).catch(() => {});
  t.equal(b.node.position().seq, end, `b followed on to seq ${end}`);
  t.same(b.logs.filter((line) => /repair|does not follow/.test(line)).map((line) => JSON.parse(line).msg), [], 'b repaired nothing');
  t.same(b.exits, [], 'b did not exit');
});
