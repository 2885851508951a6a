// The LMDB store: one environment under DATA_DIR with a named database per record kind.
// Values are MessagePack with shared structures (compact, fast to decode); keys are ordered-binary
// tuples, so a range read of [account, environment, *] lists an account's records in order.
import { open, type Database, type RootDatabase } from 'lmdb';
import { mkdirSync } from 'node:fs';

export type Key = number | string | (number | string)[];

export interface Store {
  root: RootDatabase;
  meta: Database<unknown, string>;
  accounts: Database<any, number>;
  wallets: Database<any, Key>;
  wallet_entries: Database<any, Key>;
  keys: Database<any, number>;
  idempotency: Database<any, Key>;
  funding_refs: Database<any, Key>;
  orders: Database<any, Key>;
  /** [account, environment, field, value, seq] → true: orders by status and service (engine/account-orders.ts). */
  order_index: Database<any, Key>;
  order_refs: Database<any, string>;
  open_orders: Database<any, string>;
  catalog: Database<any, string>;
  webhook_endpoints: Database<any, number>;
  events: Database<any, Key>;
  deliveries: Database<any, Key>;
  delivery_queue: Database<any, Key>;
  dead_letters: Database<any, Key>;
  sessions: Database<any, string>;
}

const database_names = [
  'meta', 'accounts', 'wallets', 'wallet_entries', 'keys', 'idempotency',
  'funding_refs', 'orders', 'order_index', 'order_refs', 'open_orders', 'catalog', 'webhook_endpoints', 'events',
  'deliveries', 'delivery_queue', 'dead_letters', 'sessions',
] as const;

export function open_store(data_dir: string, options: { read_only?: boolean } = {}): Store {
  mkdirSync(data_dir, { recursive: true });
  // overlappingSync (lmdb-js's default on Linux) lets the next transaction commit while the previous
  // one is being flushed; the journal therefore waits for each commit's `flushed` promise, not for
  // the commit, before any reply leaves (test/crash-durability.test.ts proves it with LMDB_RESTORE=safe).
  const root = open({
    path: data_dir,
    maxDbs: 32,
    overlappingSync: !options.read_only,
    separateFlushed: true,
    readOnly: options.read_only ?? false,
    // Start with a 256 MiB map; lmdb-js grows it as the store grows.
    mapSize: 256 * 1024 * 1024,
  });
  const store: Record<string, unknown> = { root };
  for (const name of database_names) {
    store[name] = root.openDB({ name, sharedStructuresKey: Symbol.for('structures') });
  }
  return store as unknown as Store;
}
