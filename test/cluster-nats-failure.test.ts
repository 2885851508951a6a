// kill -9 of one NATS server under load. JetStream keeps the journal stream, the lease bucket and the
// snapshot store on three replicas: the two survivors form a quorum, elect a new stream leader if the
// dead server led it, and the billvend leader's client reconnects to a survivor and retries its
// append. Nothing acknowledged is lost, and writes go on after a pause that the test measures.
import t from 'tap';
import { rmSync } from 'node:fs';
import { LeaderWatch, NatsCluster, Supervisor, cluster_status, start_node, stream_leader, test_lease_ms, wait_leading, wait_until } from './helpers/nats-cluster.js';
import { check_wallets, longest_gap_ms, run_load, type LoadResult } from './helpers/cluster-load.js';
import { fast_reseller } from './helpers/purchases.js';
import type { TestServer } from './helpers/server.js';

t.test('kill -9 of the NATS server that leads the journal stream, under load: no acknowledged answer is lost, writes go on after a short pause', async (t) => {
  const nats = await NatsCluster.start(3);
  const nodes: TestServer[] = [];
  let supervisor: Supervisor | null = null;
  t.teardown(async () => {
    supervisor?.stop();
    for (const node of nodes) {
      await node.kill();
      rmSync(node.data_dir, { recursive: true, force: true });
    }
    await nats.stop();
  });
  // The default lease (5 s): longer than JetStream's re-election after a server's death, so the
  // billvend leader keeps its lease through it (a shorter lease also loses nothing: the leader is
  // deposed and the standby takes over, as the failover test shows).
  const lease_ms = 5000;
  const start = (name: string) => start_node(nats, name, { env: { CLUSTER_LEASE_MS: String(lease_ms) } });
  const a = await start('a');
  nodes.push(a);
  await wait_leading(a);
  const b = await start('b');
  nodes.push(b);
  supervisor = new Supervisor(nodes);
  const resellers = await Promise.all([fast_reseller(a, 50_000), fast_reseller(a, 50_000), fast_reseller(a, 50_000)]);
  const keys = resellers.map((r) => r.key);

  // The worst case: the server that leads the stream's Raft group dies, so the stream must elect anew.
  const victim_name = await wait_until('the journal stream to have a leader', () => stream_leader(nats));
  const victim = nats.nodes.findIndex((node) => node.name === victim_name);
  t.ok(victim >= 0, `the journal stream is led by NATS server ${victim_name}`);

  const watch = new LeaderWatch(nodes);
  let stop = false;
  const live: LoadResult = { acknowledged: [], refused: 0 };
  const load = run_load(keys, 6, () => watch.current(), () => stop, live);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await nats.kill(victim);
  const killed_ms = Date.now();
  // Writes must go on on the two surviving NATS servers; give them time to show it.
  await wait_until('writes to be acknowledged again after the kill', async () => live.acknowledged.filter((x) => x.at_ms > killed_ms).length > 20, 60_000);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  stop = true;
  const result = await load;
  await watch.stop();

  const before = result.acknowledged.filter((x) => x.at_ms < killed_ms);
  const after = result.acknowledged.filter((x) => x.at_ms > killed_ms);
  t.ok(before.length > 20, `acknowledged answers before the kill (${before.length})`);
  t.ok(after.length > 20, `acknowledged answers after the kill (${after.length})`);
  const pause_ms = longest_gap_ms(result.acknowledged, killed_ms);
  const usual_ms = longest_gap_ms(before, Math.min(...before.map((x) => x.at_ms)));
  t.comment(`NATS server kill -9 under load: longest wait between acknowledged writes after the kill ${pause_ms} ms (before it ${usual_ms} ms; lease ${lease_ms} ms); ${result.refused} requests refused ${JSON.stringify(result.refused_by ?? {})}; billvend node exits: ${JSON.stringify(supervisor.exits)}`);
  t.ok(pause_ms < 30_000, `writes are answered again after a pause of ${pause_ms} ms (bound loose for a shared machine; the figure is in the comment above)`);

  // Whichever node leads now: on a loaded machine the NATS election can outlast even a 5 s lease, and the
  // node last seen leading may have been deposed since (a full run of the suite beside a crash campaign found the last one seen restarting).
  const leader = await wait_until('a billvend node to lead', async () => {
    for (const node of nodes) {
      try {
        if ((await node.admin('GET', '/readyz')).status === 200 && (await cluster_status(node)).role === 'leader') return node;
      } catch {
        // a node restarting
      }
    }
    return null;
  }, 60_000);
  await check_wallets(t, leader, keys, result.acknowledged);

  // The killed NATS server comes back on its store and the cluster goes on with three.
  nats.launch(victim);
  await nats.wait_listening(victim);
  const status = await cluster_status(leader);
  t.equal(status.role, 'leader', 'the billvend leader still leads after the NATS server returned');
});

// Finding: one lease renewal that timed out deposed a healthy leader. A renewal times out after a third
// of the lease and was tried again only a third of a lease later, which is when the lease ran out; and
// a renewal that landed after its timeout moved the revision on, so the next one failed with "wrong
// last sequence" and the leader took that for another node's lease. Seen in the cluster crash campaign
// on a loaded machine; here the NATS server that leads the lease bucket is frozen for a moment.
t.test('a lease renewal that times out (the lease bucket\'s NATS server frozen for less than a lease) does not depose the leader', async (t) => {
  const nats = await NatsCluster.start(3);
  const nodes: TestServer[] = [];
  t.teardown(async () => {
    for (let i = 0; i < nats.nodes.length; i++) nats.signal(i, 'SIGCONT');
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
  const lease_leader = await wait_until('the lease bucket to have a leader', () => stream_leader(nats, 'KV_billvend-lease'));
  const frozen = nats.nodes.findIndex((node) => node.name === lease_leader);
  let exited: number | null | 'running' = 'running';
  void a.exit_code().then((code) => {
    exited = code;
  });
  // Frozen for 60% of the lease, three times: each catches a renewal in flight (renewals go every third).
  for (let i = 0; i < 3; i++) {
    nats.signal(frozen, 'SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, Math.round(test_lease_ms * 0.6)));
    nats.signal(frozen, 'SIGCONT');
    await new Promise((resolve) => setTimeout(resolve, test_lease_ms));
  }
  // The freezes (0.6 of a lease) are shorter than the silence after which the client drops a server (2/3 of a lease,
  // src/cluster/nats-timings.ts): with pings every quarter of a lease it was dropped in 1 run of 4 and the leader deposed.
  t.comment(`the leader dropped its NATS server for missed pings ${a.logs.filter((line) => line.includes('stopped answering pings')).length} times`);
  if (exited !== 'running') t.comment(a.logs.filter((line) => /cluster|NATS/.test(line)).slice(-12).map((line) => line.slice(0, 300)).join('\n'));
  t.equal(exited, 'running', 'the leader did not exit');
  const status = await cluster_status(a);
  t.equal(status.role, 'leader', 'it still leads');
  const write = await a.api('POST', '/v1/sandbox/wallet/fund', { key: reseller.key, body: { amount: 100 } });
  t.equal(write.status, 201, `and answers writes (${write.text.slice(0, 200)})`);
});
