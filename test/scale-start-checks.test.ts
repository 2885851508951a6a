// The scale finding's leftovers (docs/benchmarks.md "Scale"): checks that must cost one key read, or a
// bounded count, whatever the store holds.
//  - A cluster node decides whether its DATA_DIR holds accounts before it joins: lmdb-js's
//    getKeysCount counted every account for that (1.2 s at a million); the check now reads one key,
//    and must still tell a store of its own from an empty one.
//  - A filtered total without the actor's block counts (the dashboard's lists) was one getKeysCount
//    over the account's whole range, which ignores its limit option: now counted window by window
//    and capped at the documented 1,000,000 (docs/api.md "History filters").
//  - Priming the scale bench's 1,000 load accounts cost one full scrypt each (16 to 42 s a server): the
//    seeder now hashes their PIN at a lower cost the server verifies as any other (the purchases of
//    test/bench-scenarios.test.ts's tiny scale run are answered 201 with it).
import t, { type Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open_store } from '../src/journal/store.js';
import { count_index_range, count_window_seqs } from '../src/engine/order-history.js';
import { NatsCluster, start_node, test_master_key, wait_leading } from './helpers/nats-cluster.js';
import { TestServer, temp_dir } from './helpers/server.js';
import { bench_script } from '../bench/server-process.js';
import { load_pin_scrypt_n } from '../bench/seed-store.js';

/** A 3-server NATS cluster and the billvend servers a test starts on it, all stopped and removed at its end. */
async function nats_world(t: Test): Promise<{ nats: NatsCluster; servers: TestServer[] }> {
  const nats = await NatsCluster.start(3);
  const servers: TestServer[] = [];
  t.teardown(async () => {
    for (const server of servers) {
      await server.kill();
      rmSync(server.data_dir, { recursive: true, force: true });
    }
    await nats.stop();
  });
  return { nats, servers };
}

t.test('a cluster node reads one key to tell a store of its own accounts (refused) from an empty one (joins)', async (t) => {
  const { nats, servers } = await nats_world(t);
  const leader = await start_node(nats, 'a');
  servers.push(leader);
  await wait_leading(leader);
  await leader.create_account();

  // A single-node store with two accounts, then started as a node of the cluster above.
  const own = new TestServer(temp_dir('billvend-own-'), { MASTER_KEY: test_master_key });
  servers.push(own);
  await own.start();
  await own.create_account();
  await own.create_account();
  t.equal(await own.stop(), 0, 'the single node stops cleanly');
  const refused = await start_node(nats, 'b', { data_dir: own.data_dir }).then(
    (node) => { servers.push(node); return null; },
    (error: Error) => error.message,
  );
  t.match(refused ?? '', /holds a store that is not part of this cluster/, 'the node with accounts of its own is refused, naming why');

  const joining = await start_node(nats, 'c');
  servers.push(joining);
  const status = await joining.admin('GET', '/admin/cluster');
  t.equal(status.status, 200, 'the node on an empty DATA_DIR started and answers its operator port');
  t.not(status.body?.data?.role, 'leader', 'it joined as a standby of the cluster, not as a leader of its own');
});

t.test('the first node of a new cluster started on a single-node store of its own keeps its accounts and leads', async (t) => {
  const { nats, servers } = await nats_world(t);
  const own = new TestServer(temp_dir('billvend-first-'), { MASTER_KEY: test_master_key });
  servers.push(own);
  await own.start();
  const account = await own.create_account();
  t.equal(await own.stop(), 0, 'the single node stops cleanly');
  const first = await start_node(nats, 'a', { data_dir: own.data_dir });
  servers.push(first);
  await wait_leading(first);
  const found = await first.admin('GET', `/admin/accounts/${account.id}`);
  t.equal(found.status, 200, 'the account made on the single node is still there: the store was followed, not emptied');
  t.equal(found.body?.data?.email, account.email, 'with its email');
});

t.test('a filtered total counted without the actor\'s block counts stops at its bound instead of walking every matching key', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'billvend-count-'));
  const store = open_store(dir);
  t.teardown(async () => {
    await store.root.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const prefix = [7, 'test', 'status', 'delivered'];
  const matching = count_window_seqs * 2 + 500;
  await store.order_index.transaction(() => {
    for (let seq = 1; seq <= matching; seq++) store.order_index.put([...prefix, seq], true);
    // Another value and another account on either side of the range: never counted.
    store.order_index.put([7, 'test', 'status', 'failed', 3], true);
    store.order_index.put([8, 'test', 'status', 'delivered', 3], true);
  });
  // Why the bound is ours to keep: lmdb-js counts the whole range whatever the limit says.
  t.equal(store.order_index.getKeysCount({ start: [...prefix, 1], end: [...prefix, matching + 1], limit: 1000 }), matching, 'getKeysCount ignores its limit (the finding)');
  t.equal(count_index_range(store, prefix, 1, matching, 1_000_000), matching, 'below the bound the total is exact');
  t.equal(count_index_range(store, prefix, 1, matching, 1000), 1000, 'at the bound the count stops there (the answer says truncated)');
  t.equal(count_index_range(store, prefix, 100, 199, 1_000_000), 100, 'a seq range counts only its own keys');
  t.equal(count_index_range(store, prefix, count_window_seqs - 10, count_window_seqs + 10, 1_000_000), 21, 'a range across a window\'s edge counts each key once');
  t.equal(count_index_range(store, prefix, matching + 1, matching + 1000, 1_000_000), 0, 'a range past the newest order counts nothing');
});

t.test('the scale seeder hashes the load accounts\' PIN at the lower bench cost and the others\' at the full one, and prints keys spread over the store', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'billvend-seed-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const seeder = bench_script('seed-store');
  const run = spawnSync(process.execPath, [...seeder.node_flags, seeder.script, dir, '12', '24', '2'], { env: { ...process.env, ...seeder.env }, encoding: 'utf8' });
  t.equal(run.status, 0, `the seeder exits 0 (${run.stderr})`);
  const printed = JSON.parse(run.stdout.trim().split('\n').pop()!);
  t.same(printed.keys.map((k: { account_id: number }) => k.account_id), [1, 2], 'the load accounts\' keys are printed');
  t.ok(printed.history_keys.length === 10 && printed.history_keys.every((k: { account_id: number }) => k.account_id > 2), `the history reads get the other accounts' keys (${JSON.stringify(printed.history_keys.map((k: { account_id: number }) => k.account_id))})`);
  const store = open_store(dir);
  try {
    const cost = (id: number) => String((store.accounts.get(id) as { pin_hash: string }).pin_hash).split('$')[1];
    t.equal(cost(1), String(load_pin_scrypt_n), 'a load account\'s PIN hash has the bench cost');
    t.equal(cost(2), String(load_pin_scrypt_n), 'every load account\'s does');
    t.equal(cost(3), '16384', 'the other accounts keep the production cost');
  } finally {
    await store.root.close();
  }
});
