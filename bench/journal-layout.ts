// The journal's layout, measured (issue "one purchase, one command, one record"; docs/design.md "The
// journal's layout, measured"). Today a group commit writes every change of every purchase as its own
// LMDB put, each value encoded when it is staged. The alternative on the table writes each batch as one
// packed value to an append-only log (the durable point a reply waits for) and keeps the per-key views
// (wallets, orders, indexes, …) from that log off the reply path. This bench runs both over the same
// stream of synthetic purchases, shaped as the engine's records (about a dozen changes each), in one
// process with a real LMDB store, and reports the process's CPU per purchase (every thread: lmdb-js
// commits on a thread of its own), split into the part a reply waits for and the rest. Beside them: the views
// written later in coalesced runs, and one record per purchase (with and without its lookup keys), which
// measure whether the cost is in when the views are written or in how many keys a purchase writes.
//
//   npx tsc -p bench/tsconfig.json && node dist/bench/journal-layout.js [purchases per commit] [commits] [accounts]
// test/journal-layout-bench.test.ts runs it at a tiny size.
import { open, asBinary, type Database, type RootDatabase } from 'lmdb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Packr } from 'msgpackr';

type Key = number | string | (number | string)[];

/** How many accounts the purchases spread over (argv[4]): one account writes its keys in order, many write all over each tree. */
const accounts = Number(process.argv[4] ?? 500) || 500;

interface Change {
  db: Database<any, any>;
  key: Key;
  encoded: Buffer;
}

const view_names = ['wallets', 'wallet_entries', 'orders', 'order_index', 'order_refs', 'open_orders', 'idempotency', 'event_feed', 'events', 'deliveries', 'delivery_queue'] as const;

interface Store {
  root: RootDatabase;
  views: Record<(typeof view_names)[number], Database<any, any>>;
  log: Database<any, number>;
  /** The one-record-per-purchase layout's records, packed bytes under the order's key. */
  orders_packed: Database<any, Key>;
  /** Lookup keys of the one-record layout with lookups: a key and nothing else. */
  lookups: Database<any, Key>;
}

function open_bench_store(dir: string): Store {
  const root = open({ path: dir, maxDbs: 64, overlappingSync: true, separateFlushed: true, mapSize: 1024 * 1024 * 1024, noSubdir: false });
  const views = {} as Store['views'];
  for (const name of view_names) views[name] = root.openDB({ name, sharedStructuresKey: Symbol.for('structures') });
  // The log's values are already packed bytes: written as they are.
  const log = root.openDB<any, number>({ name: 'log', encoding: 'binary' });
  const orders_packed = root.openDB<any, Key>({ name: 'orders_packed', encoding: 'binary' });
  const lookups = root.openDB<any, Key>({ name: 'lookups' });
  return { root, views, log, orders_packed, lookups };
}

function encoder_of(db: Database<any, any>): { encode(value: unknown): Buffer } {
  return (db as unknown as { encoder: { encode(value: unknown): Buffer } }).encoder;
}

/** One purchase's changes, shaped as the engine stages them (engine/account-orders.ts, order-index.ts, idempotency.ts, webhooks/). */
function purchase_values(seq: number, account: number, now_ms: number): { view: (typeof view_names)[number]; key: Key; value: unknown }[] {
  const reference = `BV-${now_ms.toString(36)}-${seq.toString(36).padStart(6, '0')}`;
  const order = {
    seq, reference, client_reference: `client-${seq}`, account_id: account, environment: 'live', service: 'airtime', product_id: 'mtn-airtime',
    provider: 'vtpass', status: 'delivered', amount_kobo: 50_000, amount_charged_kobo: 48_500, discount_kobo: 1_500, fee_kobo: 0,
    recipient: '08031234567', network: 'mtn', quantity: 1, created_us: now_ms * 1000, updated_us: now_ms * 1000 + 40, provider_reference: `1700${seq}`,
    entry_id: seq * 2, attempts: [{ upstream: 'vtpass', request_id: `202611281200${seq}`, started_us: now_ms * 1000, answered_us: now_ms * 1000 + 30, code: '000' }],
    token: null, delivered_us: now_ms * 1000 + 40, requery_count: 0, needs_review: false,
  };
  const event = { id: `evt_${seq.toString(36)}`, type: 'order.delivered', created_at: new Date(now_ms).toISOString(), data: { reference, status: 'delivered', amount: '500.00', amount_charged: '485.00' } };
  return [
    { view: 'wallets', key: [account, 'live'], value: { balance_kobo: 10_000_000_000 - seq * 48_500, entries: seq * 2, updated_us: now_ms * 1000, low_balance_threshold_kobo: 0 } },
    { view: 'wallet_entries', key: [account, 'live', seq * 2], value: { id: seq * 2, type: 'debit', amount_kobo: -48_500, balance_after_kobo: 10_000_000_000 - seq * 48_500, reference, description: 'MTN airtime for 08031234567', created_us: now_ms * 1000 } },
    { view: 'orders', key: [account, 'live', seq], value: order },
    { view: 'order_index', key: [account, 'live', 'status', 'delivered', seq], value: true },
    { view: 'order_index', key: [account, 'live', 'service', 'airtime', seq], value: true },
    { view: 'order_index', key: [account, 'live', 'client_reference', `client-${seq}`, seq], value: true },
    { view: 'order_refs', key: reference, value: [account, 'live', seq] },
    { view: 'idempotency', key: [account, 'live', `key-${seq}`], value: { status: 201, fingerprint: 'f'.repeat(43), body: JSON.stringify({ status: 'success', data: order }), created_ms: now_ms } },
    { view: 'event_feed', key: [account, 'live', seq], value: event },
    { view: 'events', key: [account, 'live', event.id], value: event },
    { view: 'deliveries', key: [account, 1, event.id], value: { event_id: event.id, endpoint_id: 1, attempts: 0, next_ms: now_ms, status: 'pending' } },
    { view: 'delivery_queue', key: [now_ms, account, event.id], value: true },
  ];
}

interface Figures {
  /** Main-thread CPU per purchase of the synchronous part a reply waits for (encoding, staging the puts). */
  reply_path_us: number;
  /** Main-thread CPU per purchase of the per-key views kept off the reply path (zero for today's layout). */
  off_path_us: number;
  bytes_per_purchase: number;
}

function cpu_us(): number {
  const used = process.cpuUsage();
  return used.user + used.system;
}

/** Every change of commit c's purchases, in order (purchase seqs from seq0, accounts in turn). */
function* commit_changes(seq0: number, c: number, purchases_per_commit: number): Generator<{ view: (typeof view_names)[number]; key: Key; value: unknown }> {
  const now_ms = Date.now();
  for (let p = 0; p < purchases_per_commit; p++) {
    const seq = seq0 + c * purchases_per_commit + p;
    yield* purchase_values(seq, 1 + (seq % accounts), now_ms);
  }
}

/** Today's layout: each change encoded when staged, then one put each, one transaction per commit. */
async function run_per_key(store: Store, purchases_per_commit: number, commits: number, seq0: number): Promise<Figures> {
  let bytes = 0;
  let reply_us = 0;
  for (let c = 0; c < commits; c++) {
    const began = cpu_us();
    const changes: Change[] = [];
    for (const { view, key, value } of commit_changes(seq0, c, purchases_per_commit)) {
      const db = store.views[view];
      const encoded = encoder_of(db).encode(value);
      bytes += encoded.length;
      changes.push({ db, key, encoded });
    }
    let last: Promise<boolean> & { flushed?: Promise<void> } = Promise.resolve(true);
    for (const change of changes) last = change.db.put(change.key, asBinary(change.encoded));
    // The CPU of this synchronous part is the main thread's; the commit and flush run on lmdb-js's thread.
    reply_us += cpu_us() - began;
    await last;
    await last.flushed;
  }
  const purchases = purchases_per_commit * commits;
  return { reply_path_us: reply_us / purchases, off_path_us: 0, bytes_per_purchase: bytes / purchases };
}

/**
 * One commit of a packed-log layout: each change encoded once (the views need those bytes, and the stream in
 * cluster mode would carry the same), the batch packed as [view index, key, bytes]… and put under its
 * sequence. Returns the changes, the packed bytes and the put, whose commit is what a reply waits for.
 */
function put_packed_commit(store: Store, packer: Packr, seq0: number, c: number, purchases_per_commit: number, log_seq: number): { changes: { view: string; change: Change }[]; packed: Buffer; written: Promise<boolean> & { flushed?: Promise<void> } } {
  const entries: unknown[] = [];
  const changes: { view: string; change: Change }[] = [];
  for (const { view, key, value } of commit_changes(seq0, c, purchases_per_commit)) {
    const db = store.views[view];
    const encoded = encoder_of(db).encode(value);
    entries.push(view_names.indexOf(view), key, encoded);
    changes.push({ view, change: { db, key, encoded } });
  }
  const packed = packer.pack(entries);
  return { changes, packed, written: store.log.put(log_seq, packed) as Promise<boolean> & { flushed?: Promise<void> } };
}

/**
 * The packed log: each change encoded once (the views need those bytes, and the stream in cluster mode
 * would carry the same), the batch packed as one value [view index, key, bytes]… and put under its
 * sequence; the reply waits for that commit only. The views are written from the packed batch after,
 * in a transaction of their own whose flush nothing waits for.
 */
async function run_packed_log(store: Store, purchases_per_commit: number, commits: number, seq0: number, log_seq0: number): Promise<Figures> {
  const packer = new Packr({ useRecords: false });
  let bytes = 0;
  let reply_us = 0;
  let off_us = 0;
  let pending_views: Promise<unknown> = Promise.resolve();
  for (let c = 0; c < commits; c++) {
    const began = cpu_us();
    const { packed, written } = put_packed_commit(store, packer, seq0, c, purchases_per_commit, log_seq0 + c);
    bytes += packed.length;
    // The CPU of this synchronous part is the reply path's; the commit and flush run on lmdb-js's thread.
    reply_us += cpu_us() - began;
    await written;
    await written.flushed;
    // The views from the log: decode the packed batch, one put per change with the bytes as they are.
    const views_began = cpu_us();
    const unpacked = packer.unpack(packed) as unknown[];
    let last: Promise<unknown> = Promise.resolve();
    for (let i = 0; i < unpacked.length; i += 3) {
      const db = store.views[view_names[unpacked[i] as number]];
      last = db.put(unpacked[i + 1] as Key, asBinary(unpacked[i + 2] as Buffer));
    }
    off_us += cpu_us() - views_began;
    pending_views = last;
    // A turn of its own, so the next batch's log put is a transaction apart from these views (lmdb-js
    // puts every write of one synchronous run in one transaction).
    await new Promise((resolve) => setImmediate(resolve));
  }
  await pending_views;
  const purchases = purchases_per_commit * commits;
  return { reply_path_us: reply_us / purchases, off_path_us: off_us / purchases, bytes_per_purchase: bytes / purchases };
}

/** A key as a map key: the views' tuple keys and strings apart (the journal's key_text, src/journal/journal.ts). */
function key_text(key: Key): string {
  return typeof key === 'string' ? `s${key}` : typeof key === 'number' ? `n${key}` : JSON.stringify(key);
}

/**
 * The packed log as the reply path's only write, and the views written from the batches in memory every
 * `every` commits, as one transaction of the runs' last value of each key (a wallet written by many
 * purchases is written once), the log values they covered removed in the same transaction (so the log
 * holds only what the views do not yet: what recovery would replay). Whether bigger, coalesced view
 * transactions cost the store's thread less per purchase than one per commit: each B-tree page a
 * transaction touches is copied once, however many of its keys change.
 */
async function run_packed_log_coalesced(store: Store, purchases_per_commit: number, commits: number, seq0: number, log_seq0: number, every: number): Promise<Figures> {
  const packer = new Packr({ useRecords: false });
  let bytes = 0;
  let reply_us = 0;
  let off_us = 0;
  let pending = new Map<string, Change>();
  let covered: number[] = [];
  const write_views = async (): Promise<void> => {
    const began = cpu_us();
    let last: Promise<unknown> = Promise.resolve();
    for (const change of pending.values()) last = change.db.put(change.key, asBinary(change.encoded));
    for (const seq of covered) last = store.log.remove(seq);
    off_us += cpu_us() - began;
    pending = new Map();
    covered = [];
    await last;
  };
  let views_written: Promise<void> = Promise.resolve();
  for (let c = 0; c < commits; c++) {
    const began = cpu_us();
    const { changes, packed, written } = put_packed_commit(store, packer, seq0, c, purchases_per_commit, log_seq0 + c);
    bytes += packed.length;
    reply_us += cpu_us() - began;
    await written;
    await written.flushed;
    // Off the reply path: the batch joins the views' next run (its last change of each key wins).
    const kept = cpu_us();
    for (const { view, change } of changes) pending.set(`${view} ${key_text(change.key)}`, change);
    covered.push(log_seq0 + c);
    off_us += cpu_us() - kept;
    if (covered.length >= every) {
      await views_written;
      views_written = write_views();
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  await views_written;
  if (covered.length > 0) await write_views();
  const purchases = purchases_per_commit * commits;
  return { reply_path_us: reply_us / purchases, off_path_us: off_us / purchases, bytes_per_purchase: bytes / purchases };
}

/**
 * One record per purchase: the purchase's changes other than its wallet packed into one value under the
 * order's key (the order, its entry, its index keys, its idempotency record, its event and delivery), and the
 * wallet put once per commit per account (its last value). How much of the store thread's cost is the number of
 * B-tree keys a purchase touches: the floor of a store that keeps every purchase on disk by key.
 */
async function run_record_per_purchase(store: Store, purchases_per_commit: number, commits: number, seq0: number, lookups = false): Promise<Figures> {
  const packer = new Packr({ useRecords: false });
  let bytes = 0;
  let reply_us = 0;
  for (let c = 0; c < commits; c++) {
    const began = cpu_us();
    const wallets = new Map<string, Change>();
    let last: Promise<boolean> & { flushed?: Promise<void> } = Promise.resolve(true);
    let record: unknown[] = [];
    let record_key: Key = 0;
    for (const { view, key, value } of commit_changes(seq0, c, purchases_per_commit)) {
      const db = store.views[view];
      const encoded = encoder_of(db).encode(value);
      if (view === 'wallets') {
        if (record.length > 0) {
          const packed = packer.pack(record);
          bytes += packed.length;
          last = store.orders_packed.put(record_key, packed);
        }
        record = [];
        wallets.set(key_text(key), { db, key, encoded });
        continue;
      }
      if (view === 'orders') record_key = key;
      record.push(view_names.indexOf(view), key, encoded);
      // The keys a reader finds a purchase by, each pointing at its record: the reference, the history filters, the idempotency key.
      if (lookups && (view === 'order_refs' || view === 'order_index' || view === 'idempotency')) last = store.lookups.put(key, true);
    }
    if (record.length > 0) {
      const packed = packer.pack(record);
      bytes += packed.length;
      last = store.orders_packed.put(record_key, packed);
    }
    for (const wallet of wallets.values()) {
      bytes += wallet.encoded.length;
      last = wallet.db.put(wallet.key, asBinary(wallet.encoded));
    }
    reply_us += cpu_us() - began;
    await last;
    await last.flushed;
  }
  const purchases = purchases_per_commit * commits;
  return { reply_path_us: reply_us / purchases, off_path_us: 0, bytes_per_purchase: bytes / purchases };
}

/**
 * The whole batch's plain values packed once, one put: what a log that is the only record would cost (the
 * views then exist only in memory and in snapshots). Main-thread CPU of the synchronous part.
 */
async function run_packed_only(store: Store, purchases_per_commit: number, commits: number, seq0: number, log_seq0: number): Promise<Figures> {
  const packer = new Packr({ structures: [], maxSharedStructures: 64 });
  let bytes = 0;
  let reply_us = 0;
  for (let c = 0; c < commits; c++) {
    const began = cpu_us();
    const entries: unknown[] = [];
    for (const { view, key, value } of commit_changes(seq0, c, purchases_per_commit)) entries.push(view_names.indexOf(view), key, value);
    const packed = packer.pack(entries);
    bytes += packed.length;
    const written = store.log.put(log_seq0 + c, packed) as Promise<boolean> & { flushed?: Promise<void> };
    reply_us += cpu_us() - began;
    await written;
    await written.flushed;
  }
  const purchases = purchases_per_commit * commits;
  return { reply_path_us: reply_us / purchases, off_path_us: 0, bytes_per_purchase: bytes / purchases };
}

/** Only the per-change encoding of today's layout, nothing written: how much of its main-thread part is msgpack. */
async function run_encode_only(store: Store, purchases_per_commit: number, commits: number, seq0: number): Promise<Figures> {
  let bytes = 0;
  let reply_us = 0;
  for (let c = 0; c < commits; c++) {
    const began = cpu_us();
    for (const { view, value } of commit_changes(seq0, c, purchases_per_commit)) bytes += encoder_of(store.views[view]).encode(value).length;
    reply_us += cpu_us() - began;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const purchases = purchases_per_commit * commits;
  return { reply_path_us: reply_us / purchases, off_path_us: 0, bytes_per_purchase: bytes / purchases };
}

export interface LayoutRow {
  layout: string;
  round: number;
  whole_us: number;
  figures: Figures;
}

export const layouts = ['per-key puts (today)', 'packed log + views after', 'packed log + views every 10 commits', 'packed log + views every 50 commits', 'one record per purchase, wallets once a commit', 'one record per purchase and its 5 lookup keys', 'packed log only', 'encoding only (no store)'] as const;

/**
 * Runs every layout in three alternated rounds on a fresh store and returns the rows, with what the store
 * holds at the end (keys per view and log values), read back: a layout that wrote nothing cannot pass for fast.
 */
export async function measure_layouts(purchases_per_commit: number, commits: number): Promise<{ rows: LayoutRow[]; view_keys: number; log_values: number; purchase_records: number; lookup_keys: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'billvend-journal-layout-'));
  const store = open_bench_store(dir);
  try {
    const rows: LayoutRow[] = [];
    const warmup = Math.min(50, commits);
    // Warm-up: structures learned, JIT warm, the map grown.
    await run_per_key(store, purchases_per_commit, warmup, 0);
    await run_packed_log(store, purchases_per_commit, warmup, 0, 0);
    await run_packed_log_coalesced(store, purchases_per_commit, warmup, 0, 2 * warmup, 10);
    await run_packed_only(store, purchases_per_commit, warmup, 0, warmup);
    await run_encode_only(store, purchases_per_commit, warmup, 0);
    let seq = 1_000_000;
    let log_seq = 1_000_000;
    for (let round = 1; round <= 3; round++) {
      for (const layout of layouts) {
        const began = cpu_us();
        const figures = layout === 'per-key puts (today)'
          ? await run_per_key(store, purchases_per_commit, commits, seq)
          : layout === 'packed log + views after'
            ? await run_packed_log(store, purchases_per_commit, commits, seq, log_seq)
            : layout === 'packed log + views every 10 commits'
              ? await run_packed_log_coalesced(store, purchases_per_commit, commits, seq, log_seq, 10)
            : layout === 'packed log + views every 50 commits'
              ? await run_packed_log_coalesced(store, purchases_per_commit, commits, seq, log_seq, 50)
            : layout === 'one record per purchase, wallets once a commit'
              ? await run_record_per_purchase(store, purchases_per_commit, commits, seq)
            : layout === 'one record per purchase and its 5 lookup keys'
              ? await run_record_per_purchase(store, purchases_per_commit, commits, seq, true)
            : layout === 'packed log only'
              ? await run_packed_only(store, purchases_per_commit, commits, seq, log_seq)
              : await run_encode_only(store, purchases_per_commit, commits, seq);
        const whole_us = (cpu_us() - began) / (purchases_per_commit * commits);
        rows.push({ layout, round, whole_us, figures });
        seq += purchases_per_commit * commits;
        log_seq += commits;
      }
    }
    let view_keys = 0;
    for (const name of view_names) view_keys += store.views[name].getKeysCount();
    return { rows, view_keys, log_values: store.log.getKeysCount(), purchase_records: store.orders_packed.getKeysCount(), lookup_keys: store.lookups.getKeysCount() };
  } finally {
    await store.root.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const purchases_per_commit = Number(process.argv[2] ?? 40);
  const commits = Number(process.argv[3] ?? 400);
  const { rows } = await measure_layouts(purchases_per_commit, commits);
  console.log(`journal layout, ${purchases_per_commit} purchases (12 changes each) per commit over ${accounts} accounts, ${commits} commits a round, ${new Date().toISOString()}`);
  console.log('| layout | round | CPU per purchase, whole process (µs) | main thread, reply path (µs) | main thread, views after (µs) | bytes encoded per purchase |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) {
    console.log(`| ${row.layout} | ${row.round} | ${row.whole_us.toFixed(1)} | ${row.figures.reply_path_us.toFixed(1)} | ${row.figures.off_path_us.toFixed(1)} | ${row.figures.bytes_per_purchase.toFixed(0)} |`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
