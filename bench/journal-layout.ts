// The journal's layout, measured (issue "one purchase, one command, one record"; docs/design.md "The
// journal's layout, measured"). Today a group commit writes every change of every purchase as its own
// LMDB put, each value encoded when it is staged. The alternative on the table writes each batch as one
// packed value to an append-only log (the durable point a reply waits for) and keeps the per-key views
// (wallets, orders, indexes, …) from that log off the reply path. This bench runs both over the same
// stream of synthetic purchases, shaped as the engine's records (about a dozen changes each), in one
// process with a real LMDB store, and reports the process's CPU per purchase (every thread: lmdb-js
// commits on a thread of its own), split into the part a reply waits for and the rest.
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
}

function open_bench_store(dir: string): Store {
  const root = open({ path: dir, maxDbs: 64, overlappingSync: true, separateFlushed: true, mapSize: 1024 * 1024 * 1024, noSubdir: false });
  const views = {} as Store['views'];
  for (const name of view_names) views[name] = root.openDB({ name, sharedStructuresKey: Symbol.for('structures') });
  // The log's values are already packed bytes: written as they are.
  const log = root.openDB<any, number>({ name: 'log', encoding: 'binary' });
  return { root, views, log };
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
    const entries: unknown[] = [];
    for (const { view, key, value } of commit_changes(seq0, c, purchases_per_commit)) {
      const encoded = encoder_of(store.views[view]).encode(value);
      entries.push(view_names.indexOf(view), key, encoded);
    }
    const packed = packer.pack(entries);
    bytes += packed.length;
    const written = store.log.put(log_seq0 + c, packed) as Promise<boolean> & { flushed?: Promise<void> };
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

export const layouts = ['per-key puts (today)', 'packed log + views after', 'packed log only', 'encoding only (no store)'] as const;

/**
 * Runs every layout in three alternated rounds on a fresh store and returns the rows, with what the store
 * holds at the end (keys per view and log values), read back: a layout that wrote nothing cannot pass for fast.
 */
export async function measure_layouts(purchases_per_commit: number, commits: number): Promise<{ rows: LayoutRow[]; view_keys: number; log_values: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'billvend-journal-layout-'));
  const store = open_bench_store(dir);
  try {
    const rows: LayoutRow[] = [];
    const warmup = Math.min(50, commits);
    // Warm-up: structures learned, JIT warm, the map grown.
    await run_per_key(store, purchases_per_commit, warmup, 0);
    await run_packed_log(store, purchases_per_commit, warmup, 0, 0);
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
    return { rows, view_keys, log_values: store.log.getKeysCount() };
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
