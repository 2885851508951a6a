// A snapshot is due CLUSTER_SNAPSHOT_BATCHES_MAX batches after the latest one, whoever took it (src/cluster/snapshots.ts,
// start_leading). Found by the partition campaign of 2026-11-29 (seed 9296): the leader counted batches from its own
// take-over, and with a failover every round none after the first cluster's snapshot was ever due; 116,000 batches
// later, every rebuild replayed them all from that first one. Here a leads, appends 15 batches past the first
// snapshot and hands over (SIGTERM's path: the lease given back); b, which appends 10 more, must take the next
// snapshot, 25 batches past the first with a maximum of 20. On the code before, b counted 10 and took none.
import t from 'tap';
import { NatsCluster, wait_until } from './helpers/nats-cluster.js';
import { in_process_nodes, type Member } from './helpers/in-process-nodes.js';
import { open_store, type Store } from '../src/journal/store.js';
import { write_changes, type StagedChange } from '../src/journal/journal.js';

t.test('the leader after a failover takes the snapshot due since the latest one, not since its own take-over', async (t) => {
  const nats = await NatsCluster.start(3);
  const nodes = in_process_nodes(nats);
  t.teardown(async () => {
    await nodes.stop_all();
    await nats.stop();
  });
  const lead = (member: Member): Promise<void> => member.node.follow(() => open_store(member.dir)).then((store) => {
    member.store = store;
  });
  const encode = (store: Store, value: string) => (store.meta as any).encoder.encode(value);
  const append = async (member: Member, key: string) => {
    const changes: StagedChange[] = [{ db: member.store!.meta, key, encoded: encode(member.store!, key) }];
    const appended = member.node.append(changes);
    await appended.appended;
    await write_changes([...changes, ...appended.changes]);
  };

  const a = await nodes.join('a', 0, { snapshot_batches_max: 20 });
  await lead(a);
  await wait_until('the first leader\'s snapshot', async () => (await a.node.snapshots.latest()) !== null, 10_000);
  const first = (await a.node.snapshots.latest())!;
  for (let i = 0; i < 15; i++) await append(a, `a-${i}`);
  t.equal((await a.node.snapshots.latest())?.seq, first.seq, `15 batches past the first snapshot (seq ${first.seq}), a took no other`);

  const b = await nodes.join('b', 1, { snapshot_batches_max: 20 });
  const b_leads = lead(b);
  await a.node.stop();
  await b_leads;
  for (let i = 0; i < 10; i++) await append(b, `b-${i}`);
  const taken = await wait_until('b to take a snapshot', async () => ((await b.node.snapshots.latest())?.seq ?? 0) > first.seq, 10_000).then(() => true, () => false);
  const latest = await b.node.snapshots.latest();
  t.ok(taken, `b took a snapshot at seq ${latest?.seq}, ${(latest?.seq ?? 0) - first.seq} batches past the first (maximum 20), having appended 10 itself`);
  t.same(b.exits, [], 'b did not exit');
});
