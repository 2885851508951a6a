// Finding (partition campaign of 2026-11-28, seed 3712101, round 1): the journal stream's leader was cut off from
// the two other NATS servers while the leader node appended. The deposed leader's next batch stayed on the cut-off
// server, which never committed it, and that server's consumer delivered it to the standby: a "phantom" batch past
// the stream leader's last sequence, which chains onto the standby's store like any other. The standby then took
// the lease: its check of its last batch read "no message" at that sequence as "trimmed" and passed, and its epoch,
// appended after the phantom's sequence, was refused as fenced and tried again, for as long as the renewals kept the
// lease: 4 minutes with no node serving, until the run gave up ("no node led within 60 s of the kill").
//
// The test plays the cut-off replica at the edge of the node: the lease and take-over code of two nodes runs in this
// process on real NATS servers (test/helpers/in-process-nodes.ts, as in test/cluster-double-grant.test.ts), and the phantom is handed to the
// standby through the path its consumer's deliveries take (apply_part, with the headers the leader writes), either
// before the standby's take-over reads the lease key, or just after the server granted it the lease (the tail may
// still deliver until it is stopped). Then: the standby leads on the stream's history, without exiting, the phantom
// is not in its store, and the stream holds its epoch where the phantom claimed to be.
import t from 'tap';
import { headers as nats_headers } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { wait_until } from './helpers/nats-cluster.js';
import { in_process_cluster, type Member } from './helpers/in-process-nodes.js';
import { digest_of, encode_message, stream_name } from '../src/cluster/codec.js';
import { digest_header, follows_header, part_header } from '../src/cluster/stream-headers.js';
import { open_store, type Store } from '../src/journal/store.js';
import { write_changes, type StagedChange } from '../src/journal/journal.js';

for (const when of ['before its take-over reads the lease', 'after the server granted it the lease'] as const) {
  t.test(`a standby served a batch the stream never committed (${when}) gives it up and leads on the stream's history, without exiting`, async (t) => {
    const { nodes, nc } = await in_process_cluster(t, { client: true });
    // No snapshots: the repair then rebuilds from an empty store and the whole stream, which the test reads.
    const join = (name: string, server: number) => nodes.join(name, server, { snapshots: false });
    const lead = (member: Member): Promise<void> => member.node.follow(() => open_store(member.dir)).then((store) => {
      member.store = store;
    });

    const a = await join('a', 0);
    await lead(a);
    const b = await join('b', 1);
    let b_leads = false;
    const b_following = lead(b).then(() => {
      b_leads = true;
    });
    b_following.catch(() => {});

    // The leader appends as its journal does: the batch and its position written locally, acknowledged by the stream.
    const jsm = await jetstreamManager(nc!, { timeout: 5000 });
    const stream_last = async () => (await jsm.streams.info(stream_name)).state.last_seq;
    const encode = (store: Store, value: string) => (store.meta as any).encoder.encode(value);
    const acked: string[] = [];
    for (let i = 0; i < 10; i++) {
      const changes: StagedChange[] = [{ db: a.store!.meta, key: `acked-${i}`, encoded: encode(a.store!, `a${i}`) }];
      const appended = a.node.append(changes);
      await write_changes([...changes, ...appended.changes]);
      await appended.appended;
      acked.push(`acked-${i}`);
    }
    const last = await stream_last();
    await wait_until('b to apply the stream to its end', async () => b.node.position().seq === last, 10_000);

    // The phantom: the batch a would append next, as a cut-off replica's consumer delivers it to b.
    const b_inner = b.node as any;
    const b_store = b.node.current_store()!;
    const phantom_changes: StagedChange[] = [{ db: b_store.meta, key: 'phantom', encoded: encode(b_store, 'never committed') }];
    const phantom = encode_message(b_inner.names, 'batch', 'a', phantom_changes);
    const phantom_digest = digest_of(phantom);
    const deliver_phantom = async () => {
      const headers = nats_headers();
      headers.set(digest_header, phantom_digest);
      headers.set(part_header, '1/1');
      headers.set(follows_header, b.node.position().digest);
      await b_inner.apply_part(last + 1, headers, phantom);
    };
    let delivered = 0;
    if (when === 'before its take-over reads the lease') {
      await deliver_phantom();
      delivered++;
      t.equal(b.node.position().seq, last + 1, `b applied the phantom at seq ${last + 1} before it takes over`);
    } else {
      // Delivered once the server granted b the lease, before b stops its tail and appends its epoch.
      const kv = b_inner.kv;
      b_inner.kv = new Proxy(kv, {
        get: (target, prop) => prop === 'create' || prop === 'update' ? async (...args: unknown[]) => {
          const revision = await (target as any)[prop](...args);
          if (delivered++ === 0) await deliver_phantom();
          return revision;
        } : Reflect.get(target, prop).bind?.(target) ?? Reflect.get(target, prop),
      });
    }

    // The repair reads the stream ahead of what it applies (stream-follower.ts catch_up_gets_in_flight_max): counted.
    const streams = b_inner.jsm.streams;
    const get_message = streams.getMessage.bind(streams);
    let gets_in_flight = 0;
    let gets_in_flight_most = 0;
    streams.getMessage = async (...args: unknown[]) => {
      gets_in_flight_most = Math.max(gets_in_flight_most, ++gets_in_flight);
      try {
        return await get_message(...args);
      } finally {
        gets_in_flight--;
      }
    };

    // a stops on purpose and gives the lease back: b takes the free key at once.
    await a.node.stop();
    await wait_until('b to lead', async () => b_leads, 30_000).catch(() => {});
    t.ok(b_leads, 'b leads');
    t.equal(delivered > 0, true, 'the phantom was delivered to b');
    t.same(b.exits, [], `b was never deposed and did not exit (${JSON.stringify(b.exits)})`);
    const said = b.logs.filter((line) => /a batch the stream does not hold|holds a batch the stream does not/.test(line));
    t.ok(said.length > 0, `b says why it repaired its store: ${said.map((line) => JSON.parse(line).msg).join('; ')}`);
    if (!b_leads) return;

    const epoch = await jsm.streams.getMessage(stream_name, { seq: last + 1 });
    t.not(epoch?.header.get(digest_header), phantom_digest, 'the stream never took the phantom');
    t.equal(epoch?.header.get(digest_header), digest_of(encode_message(b_inner.names, 'epoch', 'b', [])), `the stream holds b's epoch at seq ${last + 1}`);
    t.equal(b.node.position().seq, last + 1, 'b stands on its epoch');
    t.equal(b.node.position().digest, epoch?.header.get(digest_header), 'b\'s store records the epoch as its last batch');
    const store = b.node.current_store()!;
    t.equal(store.meta.get('phantom'), undefined, 'the phantom\'s change is not in b\'s store');
    t.same(acked.filter((key, i) => store.meta.get(key) === `a${i}`), acked, 'every acknowledged batch is in b\'s store');
    t.ok(gets_in_flight_most >= last - 1, `the repair read the stream's ${last} messages ahead of what it applied (${gets_in_flight_most} message gets in flight at most)`);
  });
}
