// The LMDB store: one environment under DATA_DIR with a named database per record kind.
// Values are MessagePack with shared structures (compact, fast to decode); keys are ordered-binary
// tuples, so a range read of [account, environment, *] lists an account's records in order.
import { open, type Database, type RootDatabase } from 'lmdb';
import { mkdirSync, chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';

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
  /** [account, environment, field, value, seq] → true: orders by status and service (engine/order-index.ts). */
  order_index: Database<any, Key>;
  order_refs: Database<any, string>;
  open_orders: Database<any, string>;
  catalog: Database<any, string>;
  webhook_endpoints: Database<any, number>;
  events: Database<any, Key>;
  /** [account, environment, seq] → every event of the feed, kept 30 days (webhooks/event-feed.ts). */
  event_feed: Database<any, Key>;
  deliveries: Database<any, Key>;
  delivery_queue: Database<any, Key>;
  dead_letters: Database<any, Key>;
  sessions: Database<any, string>;
  /** Lower-case email → account id (engine/engine.ts ensure_lookup_indexes): accounts are found without being in memory. */
  account_emails: Database<any, string>;
  /** SHA-256 of an unrevoked API key → [account id, key id]: authentication without every key in memory. */
  key_hashes: Database<any, string>;
  /** [account id, key id] → true: an account's keys, read when its actor is built. */
  account_keys: Database<any, Key>;
  /** [account, environment, batch id] → a bulk order (services/bulk/batch-records.ts). */
  batches: Database<any, Key>;
  /** [account, environment, batch id] → true while a bulk order has an item not final. */
  open_batches: Database<any, Key>;
  /**
   * A request id sent to an upstream → [account, environment, seq] of its order: how an upstream's callback,
   * which names only the request id, finds the order (services/upstreams/vtpass-callbacks.ts). Every attempt's.
   */
  provider_requests: Database<any, string>;
  /** [delivered ms, reference] → [account, environment, seq] of a delivered live order whose re-query 24 h later is still due. */
  reversal_checks: Database<any, Key>;
  /** [environment, provider, provider reference] → {account_id, entry_id}: each provider transfer credited once, for ever (docs/funding.md). */
  funding_credits: Database<any, Key>;
  /** [account, provider] → the account's dedicated accounts at that provider (services/funding/funding-records.ts). */
  funding_accounts: Database<any, Key>;
  /** [provider, account number] → account id: whose wallet a transfer into a dedicated account funds. */
  funding_numbers: Database<any, Key>;
  /** [provider, provider reference] → a transfer not credited automatically, for the operator to resolve. */
  funding_exceptions: Database<any, Key>;
  /** account → the BVN/NIN given for dedicated accounts, sealed (lib/secrets.ts SecretBox), never shown again. */
  funding_kyc: Database<any, number>;
  /** [parent id, agent id] → true: an account's agents, in the order they were created (docs/decisions.md "Agents"). */
  account_children: Database<any, Key>;
  /** [environment, parent id, reference] → a transfer between a parent and its agent, its reference claimed for ever (engine/agent-commands.ts). */
  agent_transfers: Database<any, Key>;
  /** [agent id, environment, agent's entry id] → [parent id, reference]: an agent's transfers in order (GET /v1/agents/{id}/transfers). */
  agent_transfer_index: Database<any, Key>;
}

/** Every database of the store, by name: open_store opens each (and test/helpers/memory-store.ts builds each in memory). */
export const database_names = [
  'meta', 'accounts', 'wallets', 'wallet_entries', 'keys', 'idempotency',
  'funding_refs', 'orders', 'order_index', 'order_refs', 'open_orders', 'catalog', 'webhook_endpoints', 'events',
  'deliveries', 'delivery_queue', 'dead_letters', 'sessions', 'event_feed',
  'account_emails', 'key_hashes', 'account_keys', 'batches', 'open_batches', 'provider_requests', 'reversal_checks',
  'funding_credits', 'funding_accounts', 'funding_numbers', 'funding_exceptions', 'funding_kyc',
  'account_children', 'agent_transfers', 'agent_transfer_index',
] as const;

/** Owner-only (docs/operations.md "Files"): the store holds PIN and password hashes and sealed secrets. */
export const store_dir_mode = 0o700;
export const store_file_mode = 0o600;

export function open_store(data_dir: string, options: { read_only?: boolean } = {}): Store {
  if (!options.read_only) make_store_dir(data_dir);
  // overlappingSync (lmdb-js's default on Linux) lets the next transaction commit while the previous
  // one is being flushed; the journal therefore waits for each commit's `flushed` promise, not for
  // the commit, before any reply leaves (test/crash-durability.test.ts proves it with LMDB_RESTORE=safe).
  const root = open({
    path: data_dir,
    // Named databases are opened by name; 64 leaves room to grow (34 in use). maxDbs is a setting of the open, not of the file.
    maxDbs: 64,
    overlappingSync: !options.read_only,
    separateFlushed: true,
    readOnly: options.read_only ?? false,
    // Start with a 256 MiB map; lmdb-js grows it as the store grows.
    mapSize: 256 * 1024 * 1024,
    // lmdb-js takes a path with an extension (`/srv/billvend.data`, mktemp's `/tmp/tmp.XXXX`) for a file;
    // DATA_DIR is always a directory, whatever its name.
    noSubdir: false,
  });
  if (!options.read_only) {
    // LMDB creates its files with the process umask (0644 by default); tighten them after the fact.
    for (const file of ['data.mdb', 'lock.mdb']) {
      const path = join(data_dir, file);
      if (existsSync(path)) chmodSync(path, store_file_mode);
    }
  }
  const store: Record<string, unknown> = { root };
  for (const name of database_names) {
    store[name] = root.openDB({ name, sharedStructuresKey: Symbol.for('structures') });
  }
  return store as unknown as Store;
}

/** Creates DATA_DIR owner-only, and makes an existing one owner-only (stores made before were 0755). */
export function make_store_dir(data_dir: string): void {
  mkdirSync(data_dir, { recursive: true, mode: store_dir_mode });
  chmodSync(data_dir, store_dir_mode);
}
