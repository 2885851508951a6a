// A node that starts while JetStream cannot answer (a NATS server restarting, its cluster electing a
// leader) waits for it with a bounded backoff, up to CLUSTER_START_WAIT_MS_MAX, instead of exiting
// at the first timeout; past that bound it exits 1 and says what it waited for.
import t from 'tap';
import { cluster_lab, start_node, wait_leading } from './helpers/nats-cluster.js';
import type { TestServer } from './helpers/server.js';

t.test('a node started while JetStream has no quorum waits for the NATS servers to come back and then leads', async (t) => {
  const { nats, nodes } = await cluster_lab(t);
  // Two of three servers down: the one left accepts connections but JetStream has no leader.
  await nats.kill(1);
  await nats.kill(2);
  const back = (async () => {
    await new Promise((resolve) => setTimeout(resolve, 4000));
    nats.launch(1);
    nats.launch(2);
    await nats.wait_listening(1);
    await nats.wait_listening(2);
  })();
  let a: TestServer | null = null;
  const starting = start_node(nats, 'a').then((node) => { a = node; nodes.push(node); });
  await back;
  await t.resolves(starting, 'the node comes up (it did not exit while JetStream was electing)');
  if (a === null) return;
  const node: TestServer = a;
  // Which step waits (a request that blocks until JetStream answers, or one that fails and is tried
  // again, logging `start-up is waiting for`) depends on timing; either way the node must not exit.
  await wait_leading(node, 60_000);
  const answer = await node.admin('GET', '/admin/cluster');
  t.match(answer.body.data, { role: 'leader', node: 'a' }, 'it leads the cluster');
});

t.test('a node that cannot reach JetStream within CLUSTER_START_WAIT_MS_MAX exits 1 and says what it waited for', async (t) => {
  const { nats, nodes } = await cluster_lab(t);
  await nats.kill(1);
  await nats.kill(2);
  const started_ms = Date.now();
  const failure = await start_node(nats, 'a', { env: { CLUSTER_START_WAIT_MS_MAX: '5000' } }).then(
    (node) => { nodes.push(node); return null; },
    (error: Error) => error.message,
  );
  t.not(failure, null, 'the node does not start');
  t.match(failure ?? '', /exited with 1 while starting/, 'it exits 1');
  t.match(failure ?? '', /gave up waiting for .* after CLUSTER_START_WAIT_MS_MAX \(5000 ms\)/, 'the message names what it waited for and the bound');
  t.match(failure ?? '', /majority of the NATS servers/, 'the message says what to check');
  t.ok(Date.now() - started_ms >= 4000, `it waited about the bound before giving up (${Date.now() - started_ms} ms)`);
});
