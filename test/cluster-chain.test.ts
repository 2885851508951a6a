// The stream's batches form a chain: each message names the digest of the batch it follows
// (Billvend-Follows, src/cluster/stream-headers.ts). A standby that is served a batch that does not follow
// the last one it applied does not build on it: it repairs its store from the stream leader's history
// (test/cluster-divergence-repair.test.ts). When the stream's leader itself holds the batch that does not
// follow, no repair can help: after a bounded number of attempts the node exits once, with exit 76 (which
// a supervisor does not restart: no crash loop) and a line for the operator, and its store keeps the
// position it had. Why: after a NATS server's death the cluster crash campaign once found, in a store a node rebuilt
// from the stream, records of a deposed leader's batch that the new leader's store never held
// (docs/cluster.md "Not done yet"); the stream's sequence alone cannot tell such a batch from the right one.
//
// The test plays the part of what would serve such a batch: it appends a message of billvend's format
// after the stream's last one, whose Billvend-Follows names no batch the standby applied.
import t from 'tap';
import { rmSync } from 'node:fs';
import { connect } from '@nats-io/transport-node';
import { headers as nats_headers } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { NatsCluster, cluster_status, start_node, wait_leading, wait_until } from './helpers/nats-cluster.js';
import { fast_reseller, idem } from './helpers/purchases.js';
import { digest_of, encode_message, stream_name, stream_subject, applied_position, type StoreNames } from '../src/cluster/codec.js';
import { open_store } from '../src/journal/store.js';
import type { TestServer } from './helpers/server.js';

t.test('a standby whose stream leader holds a batch that does not follow its last one never applies it, and gives up once after bounded repairs', async (t) => {
  const nats = await NatsCluster.start(3);
  const nodes: TestServer[] = [];
  const nc = await connect({ servers: nats.url.split(','), timeout: 5000 });
  t.teardown(async () => {
    await nc.close();
    for (const node of nodes) {
      await node.kill();
      rmSync(node.data_dir, { recursive: true, force: true });
    }
    await nats.stop();
  });
  const a = await start_node(nats, 'a');
  nodes.push(a);
  await wait_leading(a);
  const b = await start_node(nats, 'b');
  nodes.push(b);
  const reseller = await fast_reseller(a, 1_000);
  for (let i = 0; i < 3; i++) {
    const funded = await a.api('POST', '/v1/sandbox/wallet/fund', { key: reseller.key, body: { amount: 100, reference: `CHAIN-${i}` }, idempotency_key: idem('chain') });
    t.equal(funded.status, 201, `top-up ${i} is acknowledged`);
  }
  const caught_up = await wait_until('the standby to apply the stream to its end', async () => {
    const [sa, sb] = [await cluster_status(a), await cluster_status(b)];
    return sb.applied_seq === sa.applied_seq && sa.applied_seq > 0 ? sb : null;
  });

  const jsm = await jetstreamManager(nc, { timeout: 5000 });
  const last = (await jsm.streams.info(stream_name)).state.last_seq;
  t.equal(last, caught_up.applied_seq, 'the standby stands at the stream\'s last message');
  // A message of billvend's format (an epoch: no changes, so no store is needed to encode it), appended
  // after the last one, that names a batch nobody applied as the one it follows.
  const bytes = encode_message(null as unknown as StoreNames, 'epoch', 'elsewhere', []);
  const headers = nats_headers();
  headers.set('Billvend-Digest', digest_of(bytes));
  headers.set('Billvend-Part', '1/1');
  headers.set('Billvend-Follows', 'a-batch-this-standby-never-applied');
  const ack = await jetstream(nc, { timeout: 5000 }).publish(stream_subject, bytes, { expect: { lastSequence: last }, headers });
  t.equal(ack.seq, last + 1, 'the message is appended after the last one');

  t.equal(await b.exit_code(), 76, 'the standby gives up (exit 76, which its supervisor does not restart)');
  t.ok(b.logs.some((line) => line.includes('does not follow the last one applied')), 'and says why');
  const repairs = b.logs.filter((line) => line.includes('repairing this store from the stream leader')).length;
  t.equal(repairs, 5, `after five repairs (divergence_repairs_max): ${repairs}`);
  const gave_up = b.logs.filter((line) => line.includes('gave up repairing this node\'s store'));
  t.equal(gave_up.length, 1, `one line for the operator: ${gave_up[0]?.slice(0, 400)}`);
  const store = open_store(b.data_dir, { read_only: true });
  const position = applied_position(store);
  await store.root.close();
  t.equal(position?.seq, last, 'its store still stands at the last batch that followed the chain; the foreign one was not applied');
});
