// The account engine in this process, with no HTTP in between (test/actor-table.test.ts): a real LMDB
// store in a temp folder (open_in_process) or a store in memory (open_in_memory, no LMDB at all), the
// engine built as src/server/serve-store.ts builds it (minus the order desk, the webhooks and the front
// end), a manual clock, and a sink that records the events each command emits. Commands
// are called on the actors directly; read_back() builds the account again from the store through a
// second engine, which is what a restart does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { open_store, type Store } from '../../src/journal/store.js';
import type { FreeSpace } from '../../src/journal/disk-guard.js';
import { Engine, type EventKind } from '../../src/engine/engine.js';
import { ensure_order_index } from '../../src/engine/order-index.js';
import { ManualClock } from '../../src/lib/clock.js';
import { TimerWheel } from '../../src/lib/timer-wheel.js';
import { SeededRandom } from '../../src/lib/random.js';
import { SecretBox } from '../../src/lib/secrets.js';
import { MemoryDisk, open_memory_store } from './memory-store.js';
import type { AccountActor } from '../../src/engine/account-actor.js';
import type { Environment, KeyRecord, WalletEntry } from '../../src/engine/records.js';
import type { OrderRecord } from '../../src/services/order.js';

/** One event a command emitted, as the webhook outbox would receive it. */
export interface RecordedEvent {
  account_id: number;
  environment: Environment;
  kind: EventKind;
}

export interface InProcessEngine {
  engine: Engine;
  store: Store;
  clock: ManualClock;
  /** Every event emitted since start, oldest first. */
  events: RecordedEvent[];
  /**
   * Commits what is staged, closes the store and opens its folder (or memory) again, as a restart does:
   * the store returned is read anew, not through the handle the engine wrote with. The engine is done with.
   */
  reopen(): Promise<Store>;
  /** Closes the store (the reopened one, if any) and removes its folder, if it has one. */
  close(): Promise<void>;
}

/**
 * The engine over a store, as src/server/serve-store.ts builds it: the one place that knows the constructor, so
 * that a change of its parameters (an injected random source, say) is made here only. The logger is
 * silent: the tables print nothing but tap's own lines.
 */
export function build_engine(store: Store, clock: ManualClock, master_key: Buffer, space?: FreeSpace): Engine {
  const wheel = new TimerWheel({ clock });
  // A seeded source: the same rows draw the same ids and keys on every run.
  const engine = new Engine(store, clock, new SeededRandom(20261124), wheel, new SecretBox(master_key), pino({ level: 'silent' }), { on_commit() {} }, space);
  engine.recover();
  return engine;
}

/** Where an in-process engine's store lives: a temp folder (LMDB) or memory. */
interface StoreHome {
  /** Opens the store over what is there (again, after a reopen). */
  open(): Store;
  /** Removes what the store left behind, once it is closed. */
  remove(): void;
}

/** A fresh store in a temp folder and the engine on it, the clock standing at start_ms. */
export function open_in_process(start_ms: number, space?: FreeSpace): InProcessEngine & { master_key: Buffer } {
  const data_dir = mkdtempSync(join(tmpdir(), 'billvend-actor-'));
  return start_in_process(start_ms, space, {
    open: () => open_store(data_dir),
    remove: () => rmSync(data_dir, { recursive: true, force: true }),
  });
}

/**
 * A fresh store in memory (test/helpers/memory-store.ts: no LMDB opened) and the engine on it, the clock
 * standing at start_ms. reopen() opens a new store over the same memory once the journal has drained,
 * as a restart reads the disk: new databases, new encoders, only what was written.
 */
export function open_in_memory(start_ms: number, space?: FreeSpace): InProcessEngine & { master_key: Buffer } {
  const disk = new MemoryDisk();
  return start_in_process(start_ms, space, { open: () => open_memory_store(disk), remove() {} });
}

function start_in_process(start_ms: number, space: FreeSpace | undefined, home: StoreHome): InProcessEngine & { master_key: Buffer } {
  const store = home.open();
  // As the server does before recovery (src/server/serve-store.ts): an empty store gets the current index version.
  ensure_order_index(store);
  const clock = new ManualClock(start_ms);
  const master_key = randomBytes(32);
  const engine = build_engine(store, clock, master_key, space);
  const events: RecordedEvent[] = [];
  engine.event_sink = {
    emit(actor, environment, kind) {
      events.push({ account_id: actor.id, environment, kind });
    },
  };
  let current = store;
  return {
    engine,
    store,
    clock,
    events,
    master_key,
    async reopen() {
      await engine.journal.drain();
      await current.root.close();
      current = home.open();
      return current;
    },
    async close() {
      await engine.journal.drain();
      await current.root.close();
      home.remove();
    },
  };
}

/** What an account is, as far as memory or the store can tell: compared as JSON (what msgpack keeps). */
export interface AccountState {
  account: unknown;
  wallets: unknown;
  keys: KeyRecord[];
  open_orders: OrderRecord[];
}

function as_data<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** The account as its actor holds it in memory. */
export function memory_state(actor: AccountActor): AccountState {
  return as_data({
    account: actor.account,
    wallets: actor.wallets,
    keys: [...actor.keys.values()].map((k) => k.record).sort((a, b) => a.id - b.id),
    open_orders: [...actor.open_orders.values()].sort((a, b) => a.reference.localeCompare(b.reference)),
  });
}

/**
 * The account built again from the store by a second engine over the same folder (what a restart
 * reads: its records checked by the engine's load as they are read), with its open orders from the
 * store's open_orders index, which the order desk reads at recovery.
 */
export function read_back(store: Store, master_key: Buffer, clock: ManualClock, account_id: number): AccountState {
  const fresh = build_engine(store, clock, master_key);
  const actor = fresh.accounts.get(account_id);
  if (actor === undefined) throw new Error(`account ${account_id} is not in the store`);
  const open_orders: OrderRecord[] = [];
  for (const { value } of store.open_orders.getRange({})) {
    const [owner, environment, seq] = value as [number, Environment, number];
    if (owner !== account_id) continue;
    const order = store.orders.get([owner, environment, seq]) as OrderRecord | undefined;
    if (order === undefined) throw new Error(`open order ${owner}/${environment}/${seq} is missing`);
    open_orders.push(order);
  }
  const state = memory_state(actor);
  state.open_orders = as_data(open_orders.sort((a, b) => a.reference.localeCompare(b.reference)));
  return state;
}

/** A wallet's entries as committed, oldest first. */
export function stored_entries(store: Store, account_id: number, environment: Environment): WalletEntry[] {
  const entries: WalletEntry[] = [];
  for (const { value } of store.wallet_entries.getRange({ start: [account_id, environment, 0], end: [account_id, environment, Number.MAX_SAFE_INTEGER] })) {
    entries.push(value as WalletEntry);
  }
  return entries;
}

/** The balance the entries add up to, and whether each entry starts where the one before ended. */
export function sum_of_entries(entries: readonly WalletEntry[]): { balance_kobo: number; chained: boolean } {
  let balance_kobo = 0;
  let chained = true;
  for (const entry of entries) {
    if (entry.balance_before_kobo !== balance_kobo) chained = false;
    balance_kobo += entry.type === 'debit' ? -entry.amount_kobo : entry.amount_kobo;
    if (entry.balance_after_kobo !== balance_kobo) chained = false;
  }
  return { balance_kobo, chained };
}
