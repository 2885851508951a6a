// The standby's consumer stop is bounded (src/cluster/stream-follower.ts stop_tail). A take-over, a repair and a
// snapshot's install all stop the tail first; a consumer whose iteration does not end when asked (a NATS server that
// never answers while its meta group or the stream has no leader: partition campaign of 2026-11-28) once held a
// take-over for as long as its renewals kept the lease, with no node serving. stop_tail waits for the tail at most a
// lease, then goes on without it; a stopped tail applies nothing more.
//
// The test makes the consumer deaf at the client's edge, deterministically: the node's own code runs in this
// process on real NATS servers (test/helpers/in-process-nodes.ts, as in test/cluster-double-grant.test.ts), and the consumer its tail opens is the
// real one, except that its stop() is not passed on, so the iteration goes on as if the server never heard it.
import t from 'tap';
import { NatsCluster, test_lease_ms, wait_until } from './helpers/nats-cluster.js';
import { batch_appender, in_process_nodes } from './helpers/in-process-nodes.js';
import { open_store, type Store } from '../src/journal/store.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('a standby whose consumer does not stop when asked stops its tail within a lease, and the tail applies nothing after it', async (t) => {
  const nats = await NatsCluster.start(3);
  const nodes = in_process_nodes(nats);
  const real_stops: (() => void)[] = [];
  t.teardown(async () => {
    for (const stop of real_stops) stop();
    await nodes.stop_all();
    await nats.stop();
  });

  const a = await nodes.join('a', null);
  const a_store: Store = await a.node.follow(() => open_store(a.dir));
  const b = await nodes.join('b', null);
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

  const append = batch_appender(a, a_store);
  for (let i = 0; i < 5; i++) await append();
  await wait_until('b to apply every batch', async () => b.node.position().seq === a.node.position().seq, 10_000);

  // Stopped, as a take-over, a repair or a snapshot's install stops it: bounded, or the test gives up after ten leases.
  const stopped = b_inner.stop_tail().then(() => 'stopped' as const);
  const outcome = await Promise.race([stopped, sleep(10 * test_lease_ms).then(() => 'still waiting' as const)]);
  t.equal(outcome, 'stopped', 'stop_tail returned although the consumer did not stop');
  t.equal(stops_unheard, 1, 'the consumer was asked to stop once, and did not');
  t.ok(b.logs.some((line) => line.includes('did not stop within a lease')), 'b says it went on without its consumer');

  // The deaf consumer still delivers what the leader appends next: the stopped tail must not apply it.
  const position = b.node.position();
  for (let i = 0; i < 3; i++) await append();
  await sleep(2 * test_lease_ms);
  t.same(b.node.position(), position, `the stopped tail applied none of the 3 batches appended after it (b stands at seq ${position.seq})`);
  t.equal(b.node.current_store()?.meta.get('batch-5'), undefined, 'the first of them is not in b\'s store');
});
