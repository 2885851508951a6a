// A take-over whose epoch message JetStream does not take (docs/cluster.md "An epoch JetStream does not take"): found by
// the partition campaign of 2026-11-29 (seed 9651, round 61), where nats-server 2.9.10's journal, its replicas
// disagreeing after a cut, answered no append for minutes. Each node took the lease, waited a lease for its epoch,
// exited and was restarted into the same wait: 16 exits in four minutes, a crash loop. Nothing of the tenure was
// appended or served, so the node gives the lease back and tries again as a standby, in the same process.
//
// Here the journal stream refuses appends for real (its limit of messages reached, discard new: every publish answered
// "maximum messages exceeded"), the lease bucket working: a leads, hands over, and b's take-over cannot append its
// epoch. b must stay up through three leases of that, then lead once the stream takes appends again, on a's history.
import t from 'tap';
import { jetstreamManager } from '@nats-io/jetstream';
import { in_process_cluster, batch_appender, type Member } from './helpers/in-process-nodes.js';
import { test_lease_ms, wait_until } from './helpers/nats-cluster.js';
import { open_store } from '../src/journal/store.js';
import { stream_name } from '../src/cluster/codec.js';

t.test('a take-over whose epoch JetStream refuses gives the lease back and tries again, without exiting, and leads once the stream takes appends', async (t) => {
  const { nodes, nc } = await in_process_cluster(t, { client: true });
  const lead = (member: Member) => member.node.follow(() => open_store(member.dir)).then((store) => {
    member.store = store;
    return store;
  });

  const a = await nodes.join('a', 0, { snapshots: false });
  const append = batch_appender(a, await lead(a));
  for (let i = 0; i < 5; i++) await append();
  const jsm = await jetstreamManager(nc!, { timeout: 5000 }); // JetStream answers once a leads
  const b = await nodes.join('b', 1, { snapshots: false });
  let b_failed: unknown = null;
  let b_leads = false;
  const b_following = lead(b).then(() => {
    b_leads = true;
  }, (error) => {
    b_failed = error;
  });
  await wait_until('b to follow a\'s batches', async () => b.node.status().applied_seq >= a.node.status().applied_seq, 10_000);

  // The journal takes no more appends: as many messages as it holds, and new ones discarded.
  const info = await jsm.streams.info(stream_name);
  const held = info.state.messages;
  await jsm.streams.update(stream_name, { ...info.config, max_msgs: held, discard: 'new' as never });
  await a.node.stop();
  await wait_until('b to take the lease and give it back', async () => b_failed !== null || b.logs.some((line) => line.includes('JetStream took no epoch message within a lease')), 10 * test_lease_ms);
  // Three leases more of refusals: b keeps trying, in its process.
  await new Promise((resolve) => setTimeout(resolve, 3 * test_lease_ms));
  t.equal(b_failed, null, 'b\'s standby loop did not end (in a process, that would be its exit)');
  t.same(b.exits, [], 'b asked for no exit');
  t.notOk(b_leads, 'b does not lead while its epoch is refused');
  const gave_back = b.logs.filter((line) => line.includes('JetStream took no epoch message within a lease')).length;
  t.ok(gave_back >= 1, `b gave the lease back ${gave_back} times`);

  // The journal takes appends again: b leads on a's history and appends.
  await jsm.streams.update(stream_name, { ...info.config, max_msgs: -1, discard: info.config.discard });
  await wait_until('b to lead', async () => b_leads || b_failed !== null, 15 * test_lease_ms);
  await b_following;
  t.equal(b_failed, null, 'b did not fail');
  t.ok(b_leads, 'b leads once the stream takes appends');
  t.equal(b.store!.meta.get('batch-4'), 'batch 4', 'on a\'s history: its last batch is in b\'s store');
  const last = (await jsm.streams.info(stream_name)).state.last_seq;
  await batch_appender(b, b.store!)();
  t.equal((await jsm.streams.info(stream_name)).state.last_seq, last + 1, 'and b appends after its epoch');
  t.same(b.exits, [], 'b asked for no exit at any point');
});
