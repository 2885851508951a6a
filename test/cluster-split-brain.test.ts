// Split brain: the leader is paused (SIGSTOP) past its lease, the standby takes over and serves, and
// the old leader is resumed. Fencing by the stream's expected sequence and the lease's local expiry
// mean the old leader acknowledges no write from then on, and the two never disagree on a balance.
import t from 'tap';
import { readdirSync, rmSync } from 'node:fs';
import { NatsCluster, cluster_status, start_node, test_lease_ms, wait_leading, wait_until } from './helpers/nats-cluster.js';
import { check_wallets, run_load } from './helpers/cluster-load.js';
import { fast_reseller, idem } from './helpers/purchases.js';
import type { ApiResponse, TestServer } from './helpers/server.js';

t.test('a leader paused past its lease and resumed acknowledges no write, and no balance disagrees', async (t) => {
  const nats = await NatsCluster.start(3);
  const nodes: TestServer[] = [];
  t.teardown(async () => {
    for (const node of nodes) {
      node.signal('SIGCONT');
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
  const resellers = await Promise.all([fast_reseller(a, 50_000), fast_reseller(a, 50_000)]);
  const keys = resellers.map((r) => r.key);

  let target: TestServer = a;
  let stop = false;
  const load = run_load(keys, 4, () => target, () => stop);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  a.signal('SIGSTOP');
  const paused_ms = Date.now();
  target = b;
  // Requests that reach the paused leader wait in its socket buffers; it reads them once resumed.
  const to_paused: Promise<ApiResponse | Error>[] = [];
  for (let i = 0; i < 10; i++) {
    to_paused.push(a.api('POST', '/v1/sandbox/wallet/fund', { key: keys[i % 2], body: { amount: 100, reference: `PAUSED-${i}` }, idempotency_key: idem('paused') }).catch((error: Error) => error));
  }
  await wait_leading(b, 30_000);
  // The lease runs from the leader's last renewal, which came at most a third of a lease before the pause
  // (renewals go out every lease/3): the standby can take over no earlier than that.
  const taken_after_ms = Date.now() - paused_ms;
  t.ok(taken_after_ms >= test_lease_ms - Math.ceil(test_lease_ms / 3), `the standby took over only after the paused leader's lease ran out (${taken_after_ms} ms after the pause, lease ${test_lease_ms} ms)`);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  a.signal('SIGCONT');
  const after_resume: Promise<ApiResponse | Error>[] = [];
  for (let i = 0; i < 10; i++) {
    after_resume.push(a.api('POST', '/v1/sandbox/wallet/fund', { key: keys[i % 2], body: { amount: 100, reference: `RESUMED-${i}` }, idempotency_key: idem('resumed') }).catch((error: Error) => error));
  }
  const answers = [...(await Promise.all(to_paused)), ...(await Promise.all(after_resume))];
  const acknowledged = answers.filter((r) => !(r instanceof Error) && r.status >= 200 && r.status < 300);
  t.equal(acknowledged.length, 0, `the resumed old leader acknowledged none of the ${answers.length} writes sent to it`);
  const refused = answers.filter((r) => !(r instanceof Error)) as ApiResponse[];
  t.ok(refused.every((r) => r.status === 503 && r.body?.error?.code === 'service.unavailable'), 'those it answered, it answered 503 service.unavailable');
  t.equal(await a.exit_code(), 75, 'the deposed leader exits 75, for its supervisor to restart it as a standby');
  await new Promise((resolve) => setTimeout(resolve, 500));
  stop = true;
  const result = await load;
  const balances = await check_wallets(t, b, keys, result.acknowledged);
  for (const key of keys) {
    const entries = await b.api('GET', '/v1/wallet/transactions?per_page=100', { key });
    t.notOk(entries.text.includes('PAUSED-') || entries.text.includes('RESUMED-'), 'no write sent to the old leader after its pause is on the new leader');
  }

  // The old leader restarts on its store, drops whatever tail the stream lacks, and follows.
  await a.start();
  await wait_until('the old leader to catch up as a standby', async () => {
    const [sa, sb] = [await cluster_status(a), await cluster_status(b)];
    return sa.role === 'standby' && sa.applied_seq === sb.applied_seq;
  });
  // A leader writes a batch to its store only once the stream took it: the old leader's store holds no batch the
  // stream lacks, so it follows on from where it stood, with no rebuild (the code before wrote each batch before its
  // append was acknowledged, and a restart after a deposition rebuilt the store from the latest snapshot).
  const rebuilt = a.logs.filter((line) => /cannot follow the stream|rebuilding it/.test(line)).map((line) => JSON.parse(line).msg);
  t.same(rebuilt, [], 'the old leader followed on from its own store, with nothing to rebuild');
  // Nothing it acknowledged was lost, so nothing of it is kept as lost (test/cluster-lost-acknowledged has the other side).
  t.same(readdirSync(a.data_dir).filter((name) => name.startsWith('data.lost-acknowledged-')), [], 'the old leader kept no store as lost: the stream holds everything it acknowledged');
  // Hand over back to it (SIGTERM gives the lease back): it serves the same balances.
  await b.stop();
  await wait_leading(a, 30_000);
  for (const [i, key] of keys.entries()) {
    const wallet = await a.api('GET', '/v1/wallet', { key });
    t.equal(Math.round(wallet.body.data.balance * 100), balances.get(key), `wallet ${i}: the old leader, leading again, shows the balance the new one showed`);
  }
});
