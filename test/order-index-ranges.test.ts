// The order index's ranges against the orders themselves, in process on a real LMDB store: a service alone
// is the union of its service/status ranges and a status alone of its services', merged newest first; every
// filter's total and pages (the first, the last, deep ones whose whole blocks of count_block_seqs seqs are
// skipped from the actor's block counts, and past the end) must be the orders a scan of every order finds,
// with and without the counts at hand. And a store whose index version 2 wrote a service key and a status
// key per order is rebuilt to version 3 at the next start, without them.
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open_store } from '../src/journal/store.js';
import { count_block_seqs, ensure_order_index, order_index_version } from '../src/engine/order-index.js';
import { find_orders, type OrderFilter } from '../src/engine/order-history.js';
import { order_status_names, service_type_names, type OrderRecord } from '../src/engine/order-record.js';
import type { AccountActor } from '../src/engine/account-actor.js';
import { SeededRandom } from '../src/lib/random.js';

const orders_count = 5 * count_block_seqs + 317;
const account_id = 4;

t.test('every filter of service and status, on every page that matters, is what a scan of the orders finds', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'billvend-order-index-'));
  const store = open_store(dir);
  t.teardown(async () => {
    await store.root.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const random = new SeededRandom(7);
  const orders: { seq: number; service_type: string; status: string; recipient: string }[] = [];
  // Skewed: airtime and delivered most often, as in a reseller's history, and some pairs rare or absent.
  const pick = <T>(list: readonly T[]) => list[Math.min(list.length - 1, Math.floor(random.fraction() ** 2 * list.length))];
  await store.root.transaction(() => {
    for (let seq = 1; seq <= orders_count; seq++) {
      const order = { seq, account_id, environment: 'live', service_type: pick(service_type_names), status: pick(order_status_names), recipient: `0803${String(seq % 37).padStart(7, '0')}`, client_reference: null, created_us: seq };
      orders.push(order);
      store.orders.put([account_id, 'live', seq], order);
    }
  });
  store.meta.putSync('order_index_version', 2);
  t.equal(ensure_order_index(store), orders_count, 'the index is built from the orders');
  // What a command sees of its account: no commit in flight, so its block counts are built from the store.
  const actor = { id: account_id, settled: () => null, engine: { store } } as unknown as AccountActor;
  const filters: OrderFilter[] = [{ service: null, status: null, from_day: null, to_day: null }];
  for (const service of service_type_names) filters.push({ service, status: null, from_day: null, to_day: null });
  for (const status of order_status_names) filters.push({ service: null, status, from_day: null, to_day: null });
  filters.push({ service: 'airtime', status: 'delivered', from_day: null, to_day: null }, { service: 'tv', status: 'pending', from_day: null, to_day: null });
  filters.push({ service: 'airtime', status: null, from_day: null, to_day: null, recipient: '08030000005' });
  let checked = 0;
  for (const filter of filters) {
    const expected = orders.filter((order) => (filter.service === null || order.service_type === filter.service) && (filter.status === null || order.status === filter.status)
      && (filter.recipient == null || order.recipient === filter.recipient)).map((order) => order.seq).reverse();
    for (const per_page of [50, 100]) {
      const last_page = Math.max(1, Math.ceil(expected.length / per_page));
      const pages = new Set([1, 2, Math.floor(last_page / 3), Math.floor(last_page / 2), last_page - 1, last_page, last_page + 1].filter((page) => page >= 1));
      for (const page of pages) {
        const want = expected.slice((page - 1) * per_page, page * per_page);
        for (const counts of [actor, undefined]) {
          const found = find_orders(store, account_id, 'live', orders_count, filter, page, per_page, counts);
          const got = found.orders.map((order) => order.seq);
          if (found.total !== expected.length || JSON.stringify(got) !== JSON.stringify(want)) {
            t.fail(`${JSON.stringify(filter)} page ${page} of ${per_page}${counts === undefined ? '' : ', block counts'}: total ${found.total} (want ${expected.length}), seqs ${got.slice(0, 5)}… (want ${want.slice(0, 5)}…)`);
          }
          checked++;
        }
      }
    }
  }
  t.pass(`${checked} pages of ${filters.length} filters checked against a scan of ${orders_count} orders`);
  t.ok(checked > 150, 'deep pages among them (a status alone holds thousands of orders)');
  const fields = new Set<string>();
  for (const key of store.order_index.getKeys({ start: [account_id], end: [account_id + 1] })) fields.add((key as string[])[2]);
  t.strictSame([...fields].sort(), ['recipient', 'service_status'], 'two keys per order, no service or status key of version 2');
  t.equal(store.order_index.getKeysCount({ start: [account_id], end: [account_id + 1] }), 2 * orders_count, 'exactly two keys per order');
  t.equal(store.meta.get('order_index_version'), order_index_version, 'the store records the index version it holds');
});

t.test('a store indexed by version 2 (a service and a status key per order) is rebuilt without them at the next start', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'billvend-order-index-v2-'));
  const store = open_store(dir);
  t.teardown(async () => {
    await store.root.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const order = { seq: 1, account_id, environment: 'live', service_type: 'data', status: 'failed', recipient: '08031112222', client_reference: 'cr-1', created_us: 1 };
  store.orders.putSync([account_id, 'live', 1], order);
  // Version 2's keys, as today's main wrote them.
  for (const [field, value, stored] of [['service', 'data', true], ['status', 'failed', true], ['service_status', 'data/failed', true], ['recipient', '08031112222', 'data/failed'], ['client_reference', 'cr-1', true]] as const) {
    store.order_index.putSync([account_id, 'live', field, value, 1], stored);
  }
  store.meta.putSync('order_index_version', 2);
  t.equal(ensure_order_index(store), 1, 'one order indexed again');
  const keys = [...store.order_index.getKeys({ start: [account_id], end: [account_id + 1] })];
  t.strictSame(keys, [[account_id, 'live', 'client_reference', 'cr-1', 1], [account_id, 'live', 'recipient', '08031112222', 1], [account_id, 'live', 'service_status', 'data/failed', 1]], 'the claim, the recipient and the service/status keys, nothing else');
  t.equal(ensure_order_index(store), 0, 'a second start finds the index current');
  const found = find_orders(store, account_id, 'live', 1, { service: 'data', status: null, from_day: null, to_day: null }, 1, 50);
  t.strictSame(found.orders.map((each) => (each as OrderRecord).seq), [1], 'a service filter finds the order through its service/status range');
});
