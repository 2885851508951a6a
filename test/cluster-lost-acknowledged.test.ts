// A stream that lost batches it had acknowledged (nats-server 2.9.10 did, in the partition campaign of
// 2026-11-28: it elected as the journal's leader a server restarted seconds before, which lacked 500 batches
// the two others had acknowledged; docs/cluster.md "What survives which failure"). A deposed leader's store
// holds them, and it used to rebuild over them in silence. Now the leader writes, with each batch, the last
// sequence the stream had acknowledged to it (src/cluster/codec.ts acked_key); at start-up a stream that ends
// before that mark makes the node keep its store beside the rebuilt one and say so, as an error, for the
// operator. The lease key carries the same mark (src/cluster/lease.ts lease_value), so a standby that finds the
// stream's leader short of it does not lead on it: it asks that leader to step down, for a replica holding the
// batches to be elected, and leads once the stream holds them again, or after a bounded wait, on the stream
// as it is (src/cluster/take-over.ts stream_lacks_acknowledged). The tests play NATS's part: with the leader
// killed, they rewrite the stream without its last batches (and, in the second, give them back).
import t, { type Test } from 'tap';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { jetstream, jetstreamManager, type StoredMsg } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { cluster_status, lab_with_leader, start_node, test_lease_ms, wait_leading, wait_until } from './helpers/nats-cluster.js';
import { fast_reseller, idem } from './helpers/purchases.js';
import { stream_name } from '../src/cluster/codec.js';
import { lease_bucket, lease_key, parse_lease_value } from '../src/cluster/lease.js';
import { nats_timings } from '../src/cluster/nats-timings.js';
import type { TestServer } from './helpers/server.js';
import { NatsReplicaProxy } from './helpers/nats-replica-proxy.js';

/**
 * A leader acknowledged 11 top-ups after a snapshot that trimmed the stream, and wrote the stream's last
 * acknowledged sequence into the lease key; then it was killed. Returns the leader's figures.
 */
async function acknowledged_then_killed(t: Test, a: TestServer, nc: NatsConnection) {
  const reseller = await fast_reseller(a, 1_000);
  const top_up = async (i: number) => {
    const funded = await a.api('POST', '/v1/sandbox/wallet/fund', { key: reseller.key, body: { amount: 100, reference: `LOST-${i}` }, idempotency_key: idem('lost') });
    t.equal(funded.status, 201, `top-up ${i} is acknowledged`);
  };
  // Top-ups one at a time until a snapshot is taken at the last of them, trimming the stream before it;
  // then 5 more, fewer than the next snapshot's 6, so none trims the batches the stream is to lose.
  const snapshot_at = (seq: number) => a.logs.some((line) => line.includes('snapshot taken') && !line.includes('"purged":0') && line.includes(`"seq":${seq},`));
  let i = 0;
  for (;;) {
    await top_up(i++);
    const seq = (await cluster_status(a)).applied_seq as number;
    const deadline = Date.now() + 1500; // the leader checks for a due snapshot every second
    while (!snapshot_at(seq) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (snapshot_at(seq)) break;
    if (i > 30) throw new Error('no snapshot was taken in 30 top-ups');
  }
  for (let last = i + 5; i < last; i++) await top_up(i);
  const acked = (await cluster_status(a)).applied_seq as number;
  const balance = (await a.api('GET', '/v1/wallet', { key: reseller.key })).body.data.balance;
  const kv = await new Kvm(nc).open(lease_bucket);
  const mark = await wait_until('a lease renewal carrying the last acknowledged sequence', async () => {
    const value = (await kv.get(lease_key))?.string() ?? '';
    return parse_lease_value(value).acked_seq === acked ? value : null;
  }, 5000);
  t.pass(`the lease key carries the last sequence the stream acknowledged: "${mark}"`);
  await a.kill();
  return { reseller, acked, balance };
}

/** NATS's part: the stream again without its last `lose` batches, each kept message at its own sequence. Returns the lost ones. */
async function stream_without_last(t: Test, nc: NatsConnection, acked: number, lose: number): Promise<StoredMsg[]> {
  // A snapshot trimmed what precedes its batch (first_seq): fillers take those numbers and are purged again,
  // as the snapshot had done.
  const jsm = await jetstreamManager(nc, { timeout: 5000 });
  const js = jetstream(nc, { timeout: 5000 });
  const { config, state } = await jsm.streams.info(stream_name);
  t.equal(state.last_seq, acked, `the stream ends at ${acked}, the last sequence acknowledged`);
  const kept = acked - lose;
  t.ok(state.first_seq <= kept, `the stream still holds the batches from ${state.first_seq} to ${kept}`);
  const messages: StoredMsg[] = [];
  for (let seq = state.first_seq; seq <= acked; seq++) {
    const message = await jsm.streams.getMessage(stream_name, { seq });
    if (message === null) throw new Error(`the stream lacks message ${seq} (first ${state.first_seq}, last ${state.last_seq})`);
    messages.push(message);
  }
  await jsm.streams.delete(stream_name);
  await jsm.streams.add(config);
  if (state.first_seq > 1) {
    for (let seq = 1; seq < state.first_seq; seq++) await js.publish(messages[0]!.subject, new Uint8Array(0));
    await jsm.streams.purge(stream_name, { seq: state.first_seq });
  }
  for (const message of messages.slice(0, messages.length - lose)) await js.publish(message.subject, message.data, { headers: message.header });
  const info = await jsm.streams.info(stream_name);
  t.equal(info.state.first_seq, state.first_seq, `the stream starts at ${state.first_seq} again`);
  t.equal(info.state.last_seq, kept, `the stream ends at ${kept}, ${lose} batches before the ${acked} it acknowledged`);
  return messages.slice(messages.length - lose);
}

/**
 * NATS's part when a replica holding the lost batches is elected: here they are appended again, each at its own
 * sequence. Tried again while the stream elects the leader a step-down asked for (no JetStream answer meanwhile).
 */
async function give_back(nc: NatsConnection, lost: StoredMsg[]): Promise<void> {
  const js = jetstream(nc, { timeout: 2000 });
  const jsm = await jetstreamManager(nc, { timeout: 2000 });
  for (const message of lost) {
    await wait_until('the stream to take a lost batch back', () => js.publish(message.subject, message.data, { headers: message.header, expect: { lastSequence: message.seq - 1 } }).then(
      () => true,
      // A publish whose answer was lost may have landed.
      () => jsm.streams.info(stream_name).then((info) => info.state.last_seq >= message.seq, () => false),
    ), 20_000);
  }
}

const timings = nats_timings(test_lease_ms);

t.test('a leader whose acknowledged batches the stream lost keeps its store for the operator, says so, and leads again on the stream after asking for a replica that holds them', async (t) => {
  // A snapshot every 6 batches: one trims the stream before the lost batches, as in a store that has run a
  // while, so the rebuild must keep the stream's numbering (CI once found it shifted).
  const { nats, nodes, nc, a } = await lab_with_leader(t, { env: { CLUSTER_SNAPSHOT_BATCHES_MAX: '6' } });
  const { reseller, acked } = await acknowledged_then_killed(t, a, nc);
  const kept = acked - 4;
  await stream_without_last(t, nc, acked, 4);

  const started = Date.now();
  const again = await start_node(nats, 'a', { data_dir: a.data_dir });
  nodes.push(again);
  const said = again.logs.find((line) => line.includes('the stream lost batches it had acknowledged'));
  t.ok(said, 'the node says the stream lost batches it had acknowledged');
  t.match(JSON.parse(said ?? '{}'), { level: 'error', stream_last_seq: kept, lost_batches: Number }, 'as an error, with where the stream ends and how many batches it lacks');
  const files = readdirSync(again.data_dir).filter((name) => name.startsWith('data.lost-acknowledged-'));
  t.equal(files.length, 1, `the old store is kept beside the new one (${files.join(', ')})`);
  t.ok(files.length === 1 && statSync(join(again.data_dir, files[0])).size > 0, 'and is not empty');
  t.ok(JSON.parse(said ?? '{}').kept?.endsWith(files[0] ?? '-'), 'the error names the kept file');
  await wait_leading(again, timings.lost_acknowledged_wait_ms + 30_000);
  const led_after_ms = Date.now() - started;
  const waiting = again.logs.find((line) => line.includes('lacks batches the stream acknowledged'));
  // At start-up, by the mark the node wrote with its last batch (the sequence acknowledged before it).
  t.match(JSON.parse(waiting ?? '{}'), { level: 'error', stream_last_seq: kept, acked_seq: Number }, 'before going on, the node says the journal\'s leader lacks acknowledged batches');
  t.ok(JSON.parse(waiting ?? '{}').acked_seq > kept, 'past where the journal ends');
  const gave_up = again.logs.find((line) => line.includes('no replica of the journal holds the acknowledged batches'));
  const gave_up_fields = JSON.parse(gave_up ?? '{}');
  t.match(gave_up_fields, { level: 'error', stream_last_seq: kept }, 'and, no replica holding them, that it goes on with the journal as it is');
  t.equal(again.logs.filter((line) => line.includes('no replica of the journal holds the acknowledged batches')).length, 1, 'once: its take-over does not wait again for the same loss');
  t.ok(gave_up_fields.stepdowns >= 2, `having asked the journal's leader to step down ${gave_up_fields.stepdowns} times`);
  t.ok(gave_up_fields.waited_ms >= timings.lost_acknowledged_wait_ms && led_after_ms >= timings.lost_acknowledged_wait_ms, `after waiting ${gave_up_fields.waited_ms} ms (${timings.lost_acknowledged_wait_ms} ms the bound); it led ${led_after_ms} ms after its start`);
  const wallet = await again.api('GET', '/v1/wallet', { key: reseller.key });
  t.equal(wallet.status, 200, 'the node leads again, on the stream as it is');
});

t.test('a standby that finds the journal short of the lease\'s acknowledged mark waits for the batches, and leads with every one once a replica has them', async (t) => {
  const { nats, nodes, nc, a } = await lab_with_leader(t, { env: { CLUSTER_SNAPSHOT_BATCHES_MAX: '6' } });
  const { reseller, acked, balance } = await acknowledged_then_killed(t, a, nc);
  const lost = await stream_without_last(t, nc, acked, 3);

  const b = await start_node(nats, 'b');
  nodes.push(b);
  await wait_until('the standby to say the journal lacks acknowledged batches', async () => b.logs.some((line) => line.includes('lacks batches the stream acknowledged')), 20_000);
  await new Promise((resolve) => setTimeout(resolve, 2 * test_lease_ms));
  t.not((await cluster_status(b)).role, 'leader', 'the standby does not lead on the short stream');
  await give_back(nc, lost);
  await wait_leading(b, 30_000);
  t.ok(b.logs.some((line) => line.includes('holds every acknowledged batch again')), 'the standby says the journal holds every acknowledged batch again');
  t.notOk(b.logs.some((line) => line.includes('no replica of the journal holds')), 'and never led without them');
  t.equal((await cluster_status(b)).applied_seq > acked, true, 'it leads past every acknowledged batch (its epoch follows them)');
  const wallet = await b.api('GET', '/v1/wallet', { key: reseller.key });
  t.equal(wallet.body.data.balance, balance, `the wallet holds every acknowledged top-up (${balance})`);
});

t.test('a start-up that reads the journal while it has no leader waits for one, rather than take a lagging replica\'s end for lost batches', async (t) => {
  const { nats, nodes, nc, a } = await lab_with_leader(t, { env: { CLUSTER_SNAPSHOT_BATCHES_MAX: '6' } });
  const { reseller, acked, balance } = await acknowledged_then_killed(t, a, nc);
  // The node's only NATS server is the proxy, which answers its first three stream infos of the journal as a
  // server does while JetStream elects the stream's leader: no leader named, and its own replica's state,
  // lagging (seen in the partition campaign of 2026-11-29; src/cluster/nats-link.ts led_stream_info).
  const proxy = new NatsReplicaProxy(nats.nodes[0].client_port, stream_name);
  await proxy.start();
  t.teardown(() => proxy.stop());
  proxy.info_rewrite = (answer) => {
    if (proxy.infos_rewritten >= 3) return null;
    return { ...answer, state: { ...answer.state, last_seq: acked - 4 }, cluster: { ...answer.cluster, leader: undefined } };
  };
  const again = await start_node(nats, 'a', { data_dir: a.data_dir, env: { CLUSTER_NATS_URL: proxy.url } });
  nodes.push(again);
  await wait_leading(again, 30_000);
  t.equal(proxy.infos_rewritten, 3, 'the node was answered three times without a leader');
  t.ok(again.logs.some((line) => line.includes('start-up is waiting for') && line.includes('no leader now')), 'and its start-up waited for JetStream to name the journal\'s leader');
  t.notOk(again.logs.some((line) => line.includes('the stream lost batches')), 'it did not take the lagging answer for lost batches');
  t.same(readdirSync(again.data_dir).filter((name) => name.startsWith('data.lost-acknowledged-')), [], 'and kept no store aside');
  t.equal((await cluster_status(again)).applied_seq > acked, true, 'it leads on its own store, past every acknowledged batch');
  const wallet = await again.api('GET', '/v1/wallet', { key: reseller.key });
  t.equal(wallet.body.data.balance, balance, `with every acknowledged top-up (${balance})`);
});

t.test('a leader restarting on a journal whose leader lacks what it acknowledged waits, and follows with every batch once a replica has them, keeping nothing aside', async (t) => {
  const { nats, nodes, nc, a } = await lab_with_leader(t, { env: { CLUSTER_SNAPSHOT_BATCHES_MAX: '6' } });
  const { reseller, acked, balance } = await acknowledged_then_killed(t, a, nc);
  const lost = await stream_without_last(t, nc, acked, 3);
  // The node's NATS server is a proxy that only watches: the third stream info of the short journal it answers
  // (after the node's check that the stream exists and its start-up check's first read, a retry) is the cue for
  // NATS's part (a replica holding the batches elected: here, they are appended again).
  const proxy = new NatsReplicaProxy(nats.nodes[0].client_port, stream_name);
  await proxy.start();
  t.teardown(() => proxy.stop());
  let short_answers = 0;
  proxy.info_rewrite = (answer) => {
    if (answer.state.last_seq < acked) short_answers++;
    return null;
  };
  const restoring = (async () => {
    await wait_until('the restarting node to read the short journal', async () => short_answers >= 3, 30_000);
    await give_back(nc, lost);
  })();
  const again = await start_node(nats, 'a', { data_dir: a.data_dir, env: { CLUSTER_NATS_URL: proxy.url } });
  nodes.push(again);
  await restoring;
  await wait_leading(again, 30_000);
  t.ok(again.logs.some((line) => line.includes('the journal ends before a sequence the stream acknowledged')), 'the node found the journal short of what it acknowledged, and waited');
  t.ok(again.logs.some((line) => line.includes('holds every acknowledged batch again')), 'and says when the journal held them again');
  t.notOk(again.logs.some((line) => line.includes('the stream lost batches')), 'it did not call them lost');
  t.same(readdirSync(again.data_dir).filter((name) => name.startsWith('data.lost-acknowledged-')), [], 'and kept no store aside');
  const wallet = await again.api('GET', '/v1/wallet', { key: reseller.key });
  t.equal(wallet.body.data.balance, balance, `it leads with every acknowledged top-up (${balance})`);
});

t.test('a standby whose step-down requests are refused keeps waiting and asking, and leads with every batch once a replica has them', async (t) => {
  const { nats, nodes, nc, a } = await lab_with_leader(t, { env: { CLUSTER_SNAPSHOT_BATCHES_MAX: '6' } });
  const { reseller, acked, balance } = await acknowledged_then_killed(t, a, nc);
  const lost = await stream_without_last(t, nc, acked, 3);

  // The standby's only NATS server is a proxy that answers every step-down with the refusal of a server that sees
  // no meta-group leader.
  const proxy = new NatsReplicaProxy(nats.nodes[1].client_port, stream_name);
  await proxy.start();
  t.teardown(() => proxy.stop());
  proxy.refuse_stepdowns = true;
  const b = await start_node(nats, 'b', { env: { CLUSTER_NATS_URL: proxy.url } });
  nodes.push(b);
  await wait_until('two step-downs refused', async () => proxy.stepdowns_refused >= 2, 30_000);
  // The proxy counts a refusal as it passes; the node's line for it comes a moment later, on its output.
  const failures = () => b.logs.filter((line) => line.includes('asking the journal\'s leader to step down failed'));
  await wait_until('the standby to log the refusals', async () => failures().length >= 2, 10_000).catch(() => {});
  const failed = failures();
  t.ok(failed.length >= 2, `the standby says each step-down failed (${failed.length})`);
  t.match(JSON.parse(failed[0] ?? '{}'), { level: 'warn', err: { err_code: 10008 } }, 'with JetStream\'s refusal');
  t.not((await cluster_status(b)).role, 'leader', 'and does not lead on the short stream meanwhile');
  t.notOk(b.logs.some((line) => line.includes('no replica of the journal holds')), 'nor gives up before its bound');
  await give_back(nc, lost);
  await wait_leading(b, 30_000);
  t.ok(b.logs.some((line) => line.includes('holds every acknowledged batch again')), 'once a replica has them, the standby says the journal holds every acknowledged batch again');
  const wallet = await b.api('GET', '/v1/wallet', { key: reseller.key });
  t.equal(wallet.body.data.balance, balance, `and leads with every acknowledged top-up (${balance})`);
});
