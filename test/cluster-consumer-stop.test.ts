// The standby's consumer stop is bounded (src/cluster/stream-follower.ts stop_tail). A take-over, a repair and a
// snapshot's install all stop the tail first; a consumer whose iteration does not end when asked (a NATS server that
// never answers while its meta group or the stream has no leader: partition campaign of 2026-11-28) once held a
// take-over for as long as its renewals kept the lease, with no node serving. stop_tail waits for the tail at most a
// lease, then goes on without it; a stopped tail applies nothing more.
//
// The test makes the consumer deaf at the client's edge, deterministically: the node's own code runs in this
// process on real NATS servers (as test/cluster-double-grant.test.ts does), and the consumer its tail opens is the
// real one, except that its stop() is not passed on, so the iteration goes on as if the server never heard it.
import t from 'tap';
import { rmSync } from 'node:fs';
import { pino } from 'pino';
import { NatsCluster, test_lease_ms, wait_until } from './helpers/nats-cluster.js';
import { temp_dir } from './helpers/server.js';
import { ClusterNode } from '../src/cluster/cluster-node.js';
import { open_store, type Store } from '../src/journal/store.js';
import { write_changes, type StagedChange } from '../src/journal/journal.js';
import type { ClusterConfig } from '../src/config.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('a standby whose consumer does not stop when asked stops its tail within a lease, and the tail applies nothing after it', async (t) => {
  const nats = await NatsCluster.start(3);
  const nodes: { node: ClusterNode; dir: string }[] = [];
  const real_stops: (() => void)[] = [];
  t.teardown(async () => {
    for (const stop of real_stops) stop();
    for (const { node, dir } of nodes) {
      await node.stop().catch(() => {});
      await node.current_store()?.root.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    }
    await nats.stop();
  });

  const join = async (name: string, logs: string[]): Promise<{ node: ClusterNode; dir: string }> => {
    const dir = temp_dir(`billvend-${name}-`);
    const config: ClusterConfig = {
      nats_urls: nats.url.split(','),
      node_name: name,
      lease_ms: test_lease_ms,
      replicas: 3,
      snapshot_batches_max: 100_000,
      snapshot_interval_ms: 15 * 60_000,
      start_wait_ms_max: 30_000,
    };
    const node = await ClusterNode.connect(config, dir, pino({ level: 'info' }, { write: (line: string) => void logs.push(line) }), () => {});
    await node.prepare_store(() => open_store(dir));
    nodes.push({ node, dir });
    return { node, dir };
  };

  const a = await join('a', []);
  const a_store: Store = await a.node.follow(() => open_store(a.dir));
  const b_logs: string[] = [];
  const b = await join('b', b_logs);
  const b_inner = b.node as any;
  // Every consumer b's tail opens is deaf to stop(): the iteration goes on.
  let stops_unheard = 0;
  const consumers = b_inner.js.consumers;
  const get = consumers.get.bind(consumers);
  consumers.get = async (...args: unknown[]) => {
    const consumer = await get(...args);
    const consume = consumer.consume.bind(consumer);
    consumer.consume = async (...options: unknown[]) => {
      const messages = await consume(...options);
      real_stops.push(messages.stop.bind(messages));
      messages.stop = () => {
        stops_unheard++;
      };
      return messages;
    };
    return consumer;
  };
  void b.node.follow(() => open_store(b.dir)).catch(() => {});

  let appended = 0;
  const append = async () => {
    const encoded = (a_store.meta as any).encoder.encode(`batch ${appended}`);
    const changes: StagedChange[] = [{ db: a_store.meta, key: `batch-${appended++}`, encoded }];
    const { changes: position, appended: acked } = a.node.append(changes);
    await write_changes([...changes, ...position]);
    await acked;
  };
  for (let i = 0; i < 5; i++) await append();
  await wait_until('b to apply every batch', async () => b.node.position().seq === a.node.position().seq, 10_000);

  // Stopped, as a take-over, a repair or a snapshot's install stops it: bounded, or the test gives up after ten leases.
  const stopped = b_inner.stop_tail().then(() => 'stopped' as const);
  const outcome = await Promise.race([stopped, sleep(10 * test_lease_ms).then(() => 'still waiting' as const)]);
  t.equal(outcome, 'stopped', 'stop_tail returned although the consumer did not stop');
  t.equal(stops_unheard, 1, 'the consumer was asked to stop once, and did not');
  t.ok(b_logs.some((line) => line.includes('did not stop within a lease')), 'b says it went on without its consumer');

  // The deaf consumer still delivers what the leader appends next: the stopped tail must not apply it.
  const position = b.node.position();
  for (let i = 0; i < 3; i++) await append();
  await sleep(2 * test_lease_ms);
  t.same(b.node.position(), position, `the stopped tail applied none of the 3 batches appended after it (b stands at seq ${position.seq})`);
  t.equal(b.node.current_store()?.meta.get('batch-5'), undefined, 'the first of them is not in b\'s store');
});
