// Cluster mode through real sockets: a 3-node NATS cluster (Debian's nats-server) and billvend nodes
// started from dist/cli.js. A standby refuses requests; kill -9 of the leader under a full mix of
// writes (operator credits, sandbox top-ups, purchases of every sandbox outcome, keys, webhooks) hands
// the service to the standby with every acknowledged answer kept exactly once and every event of it
// delivered by webhook at least once.
import t from 'tap';
import { rmSync } from 'node:fs';
import { NatsCluster, cluster_status, start_node, test_lease_ms, wait_leading, wait_until } from './helpers/nats-cluster.js';
import { check_mixed, longest_gap_ms, mixed_account, run_mixed_load, wait_settled, type MixedAccount, type MixedResult } from './helpers/cluster-load.js';
import { webhook_env } from './helpers/webhook-receiver.js';
import type { TestServer } from './helpers/server.js';

// Delayed sandbox outcomes settle 1.5 s after the purchase and webhook retries start at 30 s: scaled
// down so that both happen within the test (the lease is not scaled).
const env = webhook_env({ TIME_SCALE: '0.001', LOG_LEVEL: 'warn' });

t.test('cluster mode: a standby refuses, and the leader\'s kill -9 under a full mix loses no acknowledged answer', async (t) => {
  const nats = await NatsCluster.start(3);
  const nodes: TestServer[] = [];
  const accounts: MixedAccount[] = [];
  t.teardown(async () => {
    for (const node of nodes) {
      await node.kill();
      rmSync(node.data_dir, { recursive: true, force: true });
    }
    for (const account of accounts) await account.receiver.stop();
    await nats.stop();
  });
  const a = await start_node(nats, 'a', { env });
  nodes.push(a);
  await wait_leading(a);
  const b = await start_node(nats, 'b', { env });
  nodes.push(b);
  accounts.push(...(await Promise.all([mixed_account(a, 50_000), mixed_account(a, 50_000), mixed_account(a, 50_000)])));
  const keys = accounts.map((account) => account.key);

  t.test('the standby answers public requests 503 service.unavailable with Retry-After, /readyz 503, /healthz 200', async (t) => {
    const wallet = await b.api('GET', '/v1/wallet', { key: keys[0] });
    t.equal(wallet.status, 503, 'a read on the standby: 503');
    t.equal(wallet.body?.error?.code, 'service.unavailable', 'with the spec\'s code');
    t.equal(wallet.headers.get('retry-after'), '1', 'and Retry-After: 1');
    const write = await b.api('POST', '/v1/sandbox/wallet/fund', { key: keys[0], body: { amount: 100 } });
    t.equal(write.status, 503, 'a write on the standby: 503');
    t.equal((await b.admin('GET', '/readyz')).status, 503, 'the standby is not ready');
    t.equal((await b.admin('GET', '/healthz')).status, 200, 'but alive');
    t.equal((await a.admin('GET', '/readyz')).status, 200, 'the leader is ready');
    const status = await wait_until('the standby to catch up', async () => {
      const s = await cluster_status(b);
      return s.applied_seq === (await cluster_status(a)).applied_seq ? s : null;
    });
    t.match(status, { node: 'b', role: 'standby', leader: 'a', lag: 0 }, '/admin/cluster on the standby names the leader and shows no lag');
    t.match(await cluster_status(a), { node: 'a', role: 'leader', leader: 'a' }, '/admin/cluster on the leader');
    t.equal((await b.admin('GET', '/admin/cluster', undefined, 'wrong')).status, 401, '/admin/cluster needs the operator token');
  });

  t.test('kill -9 of the leader under credits, top-ups, purchases of every sandbox outcome, keys and webhooks: the standby serves within the lease plus 5 s, nothing acknowledged is lost or doubled, webhooks go on', async (t) => {
    let target: TestServer = a;
    let stop = false;
    const live: MixedResult = { acknowledged: [], refused: 0, refused_by: {} };
    const load = run_mixed_load(accounts, 6, () => target, () => stop, live);
    // Each side of the kill lasts 2 s, and longer on a slow machine, until it has acknowledged enough
    // to judge (a count reached in a fixed time would measure the machine, not the failover).
    const acknowledged_min = 25;
    const phase_max_ms = 60_000;
    const wait_for = async (enough: () => boolean) => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const deadline = Date.now() + phase_max_ms;
      while (!enough() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    };
    await wait_for(() => live.acknowledged.length > acknowledged_min);
    await a.kill();
    const killed_ms = Date.now();
    const received_before = accounts.map((account) => account.receiver.received.length);
    target = b;
    await wait_leading(b, 30_000);
    const all_kinds = 9;
    await wait_for(() => live.acknowledged.filter((x) => x.at_ms > killed_ms).length > acknowledged_min
      && new Set(live.acknowledged.map((x) => x.kind)).size >= all_kinds);
    stop = true;
    const result = await load;
    const before = result.acknowledged.filter((x) => x.at_ms < killed_ms);
    const after = result.acknowledged.filter((x) => x.at_ms > killed_ms);
    t.ok(before.length > 20, `the old leader acknowledged answers before its death (${before.length})`);
    t.ok(after.length > 20, `the new leader acknowledged answers after it (${after.length})`);
    const kinds = new Set(result.acknowledged.map((x) => x.kind));
    t.same([...kinds].sort(), ['credit', 'delayed_delivered', 'delayed_failed', 'delivered', 'failed', 'key_created', 'key_revoked', 'provider_down', 'top_up'], 'every kind of change was acknowledged at least once');
    const pause_ms = longest_gap_ms(result.acknowledged, killed_ms);
    t.comment(`failover pause under the full mix: ${pause_ms} ms (lease ${test_lease_ms} ms); ${before.length} acknowledged before, ${after.length} after; refused ${JSON.stringify(result.refused_by)}`);
    t.ok(pause_ms < test_lease_ms + 5000 + 5000, `writes are answered again ${pause_ms} ms after the kill (target: lease + 5 s; slack for a shared machine)`);
    await wait_settled(b, accounts);
    await check_mixed(t, b, accounts, result);
    const from_new_leader = accounts.reduce((sum, account, i) => sum + account.receiver.received.filter((r, j) => j >= received_before[i] && r.at_ms > killed_ms).length, 0);
    t.ok(from_new_leader > 0, `webhooks keep arriving from the new leader (${from_new_leader} after the kill)`);
  });

  t.test('the killed leader restarts on its store as a standby and catches up with the new leader', async (t) => {
    await a.start();
    t.equal((await a.admin('GET', '/readyz')).status, 503, 'it comes back as a standby');
    const caught_up = await wait_until('the old leader to catch up', async () => {
      const [sa, sb] = [await cluster_status(a), await cluster_status(b)];
      return sa.applied_seq === sb.applied_seq && sa.role === 'standby' ? sa : null;
    });
    t.match(caught_up, { role: 'standby', leader: 'b', lag: 0 }, 'following the new leader');
  });
});
