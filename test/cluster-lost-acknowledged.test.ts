// A stream that lost batches it had acknowledged (nats-server 2.9.10 did, in the partition campaign of
// 2026-11-28: it elected as the journal's leader a server restarted seconds before, which lacked 500 batches
// the two others had acknowledged; docs/cluster.md "What survives which failure"). A deposed leader's store
// holds them, and it used to rebuild over them in silence. Now the leader writes, with each batch, the last
// sequence the stream had acknowledged to it (src/cluster/codec.ts acked_key); at start-up a stream that ends
// before that mark makes the node keep its store beside the rebuilt one and say so, as an error, for the
// operator. The test plays NATS's part: with the leader killed, it rewrites the stream without its last batches.
import t from 'tap';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { cluster_status, lab_with_leader, start_node, wait_leading, wait_until } from './helpers/nats-cluster.js';
import { fast_reseller, idem } from './helpers/purchases.js';
import { stream_name } from '../src/cluster/codec.js';

t.test('a leader whose acknowledged batches the stream lost keeps its store for the operator, says so, and leads again on the stream', async (t) => {
  // A snapshot every 6 batches: one trims the stream before the lost batches, as in a store that has run a
  // while, so the rebuild below must keep the stream's numbering (CI once found it shifted).
  const { nats, nodes, nc, a } = await lab_with_leader(t, { env: { CLUSTER_SNAPSHOT_BATCHES_MAX: '6' } });
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
  await a.kill();

  // NATS's part: the stream again, without its last four batches (each top-up is one batch of one message),
  // each kept message at its own sequence. A snapshot trimmed what precedes its batch (first_seq): fillers
  // take those numbers and are purged again, as the snapshot had done.
  const jsm = await jetstreamManager(nc, { timeout: 5000 });
  const js = jetstream(nc, { timeout: 5000 });
  const { config, state } = await jsm.streams.info(stream_name);
  const kept = acked - 4;
  t.ok(state.first_seq <= kept, `the stream still holds the batches from ${state.first_seq} to ${kept}`);
  const messages = [];
  for (let seq = state.first_seq; seq <= kept; seq++) {
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
  for (const message of messages) await js.publish(message.subject, message.data, { headers: message.header });
  t.equal((await jsm.streams.info(stream_name)).state.first_seq, state.first_seq, `the stream starts at ${state.first_seq} again`);
  t.equal((await jsm.streams.info(stream_name)).state.last_seq, kept, `the stream ends at ${kept}, 4 batches before the ${acked} it acknowledged`);

  const again = await start_node(nats, 'a', { data_dir: a.data_dir });
  nodes.push(again);
  const said = again.logs.find((line) => line.includes('the stream lost batches it had acknowledged'));
  t.ok(said, 'the node says the stream lost batches it had acknowledged');
  t.match(JSON.parse(said ?? '{}'), { level: 'error', stream_last_seq: kept, lost_batches: Number }, 'as an error, with where the stream ends and how many batches it lacks');
  const files = readdirSync(again.data_dir).filter((name) => name.startsWith('data.lost-acknowledged-'));
  t.equal(files.length, 1, `the old store is kept beside the new one (${files.join(', ')})`);
  t.ok(files.length === 1 && statSync(join(again.data_dir, files[0])).size > 0, 'and is not empty');
  t.ok(JSON.parse(said ?? '{}').kept?.endsWith(files[0] ?? '-'), 'the error names the kept file');
  await wait_leading(again);
  const wallet = await again.api('GET', '/v1/wallet', { key: reseller.key });
  t.equal(wallet.status, 200, 'the node leads again, on the stream as it is');
});
