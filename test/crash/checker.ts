// The crash campaign's journal checker: it reads the LMDB store itself, while the server is dead, and
// proves the store's internal invariants and that every acknowledged operation is in it exactly once.
// It is independent of billvend's engine: it opens the store with lmdb directly, with the database
// names and key shapes of src/journal/store.ts written out again here, and it imports record types
// and the reference codec only (a reference names its order's place; test/references.test.ts proves
// the codec on its own). Nothing of the engine's own checks (assert_*) is reused.
//
// Which state it reads: the server restarts with LMDB_RESTORE=safe, which rolls the store back to its
// last *flushed* commit (as after a power cut), not the last commit the dead process made. To judge
// exactly the state the restarted server will recover, the checker copies data.mdb to a private
// folder and opens that copy with the same safe restore; the server's own store is only ever read.
import { open } from 'lmdb';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccountRecord, IdempotencyRecord, KeyRecord, WalletEntry, WalletRecord } from '../../src/engine/records.js';
import type { OrderRecord } from '../../src/services/order.js';
import type { BatchRecord } from '../../src/services/bulk/batch-records.js';
import type { DeliveryRecord, EndpointRecord, EventRecord } from '../../src/webhooks/records.js';
import type { FakeUpstream, UpstreamTransaction } from '../helpers/fake-upstream.js';
import type { ReferenceCodec } from '../../src/services/references.js';
import { store_reference_codec } from '../helpers/server.js';
import { acked_batch, acked_reference, cancel_answer, cancelled_reason, expected_charged_kobo, final_status_of, local_recipient, rememberable, type Environment, type Model, type Op } from './model.js';

/** The databases of src/journal/store.ts. */
const database_names = [
  'meta', 'accounts', 'wallets', 'wallet_entries', 'keys', 'idempotency',
  'funding_refs', 'orders', 'order_refs', 'open_orders', 'catalog', 'webhook_endpoints', 'events',
  'deliveries', 'delivery_queue', 'dead_letters', 'sessions',
  'account_emails', 'key_hashes', 'account_keys', 'batches', 'open_batches', 'provider_requests', 'reversal_checks',
] as const;

const reference_pattern = /^BV-\d{8}-[0-9ABCDEFGHJKMNPQRSTVWXYZ]{12}$/;
const event_id_pattern = /^evt_[0-9A-Za-z]{24}$/;
const event_kinds = ['transaction.completed', 'transaction.failed', 'transaction.processing', 'transaction.delayed', 'transaction.reversed', 'wallet.credited', 'wallet.debited', 'wallet.reversed', 'batch.completed'];
const active_keys_max = 5;

type Location = [number, Environment, number];

/** An event as the checker keeps it: what it is about, not its whole body. */
interface EventSummary {
  id: string;
  kind: string;
  account_id: number;
  environment: Environment;
  reference: string | null;
  wallet_transaction_id: number | null;
  amount_kobo: number | null;
}

interface Snapshot {
  meta: Map<string, unknown>;
  accounts: Map<number, AccountRecord>;
  wallets: Map<string, WalletRecord>;
  entries: Map<string, { key_id: number; entry: WalletEntry }[]>;
  entry_keys_bad: string[];
  keys: Map<number, KeyRecord>;
  idempotency: Map<string, IdempotencyRecord>;
  funding_refs: Map<string, { account_id: number; entry_id: number }>;
  orders: Map<string, { seq: number; order: OrderRecord }[]>;
  order_keys_bad: string[];
  order_refs: Map<string, Location>;
  /** Reads the place out of a reference (the store's master key, from DATA_DIR/master.key). */
  codec: ReferenceCodec;
  open_orders: Map<string, Location>;
  endpoints: Map<number, EndpointRecord>;
  /** Events by public id. */
  events: Map<string, EventSummary>;
  /** The numeric store key of each event stored under one. */
  event_keys: Map<string, number>;
  event_problems: string[];
  /** Disagreements between the lookup databases (account_emails, key_hashes, account_keys) and the records. */
  lookup_problems: string[];
  deliveries: { key: [number, number]; delivery: DeliveryRecord }[];
  delivery_queue: Map<number, { endpoint_id: number; account_id: number; due_ms: number }>;
  dead_letters: Map<number, { endpoint_id: number; account_id: number }>;
  /** Bulk orders by wallet and batch id ("7:test:bat_…"). */
  batches: Map<string, BatchRecord>;
  /** The open_batches markers, same keys. */
  open_batches: Set<string>;
  data_bytes: number;
  /** Commits the dead process made that were not flushed: the safe restart discards them. */
  commits_discarded: number;
}

const wallet_key = (account_id: number, environment: string) => `${account_id}:${environment}`;
/**
 * A funding reference's claim as the engine stores it: [environment, reference] for the whole
 * environment (operator credits, bank transfers, sandbox top-ups made before they were scoped), or
 * [environment, reference, account_id] for one account (sandbox top-ups).
 */
const funding_claim_key = (environment: string, reference: string, owner: number | null) => owner === null ? `${environment}:${reference}` : `${environment}:${reference}\u0000${owner}`;

/** Copies the store, opens the copy as a LMDB_RESTORE=safe restart would, and reads everything. */
export async function read_snapshot(data_dir: string): Promise<Snapshot> {
  const dir = mkdtempSync(join(tmpdir(), 'billvend-crash-snapshot-'));
  try {
    copyFileSync(join(data_dir, 'data.mdb'), join(dir, 'data.mdb'));
    const data_bytes = statSync(join(dir, 'data.mdb')).size;
    // The last commit the dead process made, flushed or not (a plain read-only open takes the newest).
    const plain = open({ path: dir, maxDbs: 32, readOnly: true });
    const last_txn = (plain.getStats() as { lastTxnId: number }).lastTxnId;
    await plain.close();
    // overlappingSync + safeRestore: the first opener of the copy rolls it back to the last flushed
    // commit, exactly as the server's LMDB_RESTORE=safe start does on the real store.
    // (safeRestore is what LMDB_RESTORE=safe sets; lmdb-js's typings do not list it.)
    const root = open({ path: dir, maxDbs: 32, overlappingSync: true, safeRestore: true } as Parameters<typeof open>[0] & { safeRestore: boolean });
    try {
      const db: Record<string, any> = {};
      for (const name of database_names) db[name] = root.openDB({ name, sharedStructuresKey: Symbol.for('structures') });
      const safe_txn = (root.getStats() as { lastTxnId: number }).lastTxnId;
      const snapshot: Snapshot = {
        meta: new Map(),
        accounts: new Map(),
        wallets: new Map(),
        entries: new Map(),
        entry_keys_bad: [],
        keys: new Map(),
        idempotency: new Map(),
        funding_refs: new Map(),
        orders: new Map(),
        order_keys_bad: [],
        order_refs: new Map(),
        codec: store_reference_codec(data_dir),
        open_orders: new Map(),
        endpoints: new Map(),
        events: new Map(),
        event_keys: new Map(),
        event_problems: [],
        lookup_problems: [],
        deliveries: [],
        delivery_queue: new Map(),
        dead_letters: new Map(),
        batches: new Map(),
        open_batches: new Set(),
        data_bytes,
        commits_discarded: last_txn - safe_txn,
      };
      for (const { key, value } of db.meta.getRange({})) snapshot.meta.set(String(key), value);
      for (const { key, value } of db.accounts.getRange({})) snapshot.accounts.set(key as number, value as AccountRecord);
      for (const { key, value } of db.wallets.getRange({})) {
        const [account_id, environment] = key as [number, Environment];
        snapshot.wallets.set(wallet_key(account_id, environment), value as WalletRecord);
      }
      for (const { key, value } of db.wallet_entries.getRange({})) {
        if (!Array.isArray(key) || key.length !== 3) {
          snapshot.entry_keys_bad.push(JSON.stringify(key));
          continue;
        }
        const [account_id, environment, id] = key as Location;
        const list = snapshot.entries.get(wallet_key(account_id, environment)) ?? [];
        list.push({ key_id: id, entry: value as WalletEntry });
        snapshot.entries.set(wallet_key(account_id, environment), list);
      }
      for (const { key, value } of db.keys.getRange({})) snapshot.keys.set(key as number, value as KeyRecord);
      for (const { key, value } of db.idempotency.getRange({})) {
        const [account_id, environment, idem] = key as [number, Environment, string];
        snapshot.idempotency.set(`${account_id}:${environment}:${idem}`, value as IdempotencyRecord);
      }
      for (const { key, value } of db.funding_refs.getRange({})) {
        const [environment, reference, owner] = key as [Environment, string, number | undefined];
        snapshot.funding_refs.set(funding_claim_key(environment, reference, owner ?? null), value as { account_id: number; entry_id: number });
      }
      for (const { key, value } of db.orders.getRange({})) {
        if (!Array.isArray(key) || key.length !== 3) {
          snapshot.order_keys_bad.push(JSON.stringify(key));
          continue;
        }
        const [account_id, environment, seq] = key as Location;
        const list = snapshot.orders.get(wallet_key(account_id, environment)) ?? [];
        list.push({ seq, order: value as OrderRecord });
        snapshot.orders.set(wallet_key(account_id, environment), list);
      }
      for (const { key, value } of db.order_refs.getRange({})) snapshot.order_refs.set(String(key), value as Location);
      for (const { key, value } of db.open_orders.getRange({})) snapshot.open_orders.set(String(key), value as Location);
      for (const { key, value } of db.webhook_endpoints.getRange({})) snapshot.endpoints.set(key as number, value as EndpointRecord);
      for (const { key, value } of db.events.getRange({})) {
        const event = value as EventRecord;
        let body: any = null;
        try {
          body = JSON.parse(event.body);
        } catch {
          snapshot.event_problems.push(`event ${String(key)}: its body is not JSON`);
        }
        // Stored under the id of its first delivery (a number); stores written before keyed it by its id.
        if (typeof key === 'number') snapshot.event_keys.set(event.id, key);
        else if (event.id !== key) snapshot.event_problems.push(`event stored under ${String(key)} says its id is ${event.id}`);
        if (!event_id_pattern.test(event.id)) snapshot.event_problems.push(`event id ${event.id} is not evt_ + 24 base62 characters`);
        if (snapshot.events.has(event.id)) snapshot.event_problems.push(`event ${event.id} is stored twice`);
        if (body !== null && (body.id !== event.id || body.event !== event.kind)) snapshot.event_problems.push(`event ${event.id}: its body names ${body.id} ${body.event}, the record ${event.id} ${event.kind}`);
        if (!event_kinds.includes(event.kind)) snapshot.event_problems.push(`event ${event.id}: unknown kind ${event.kind}`);
        const data = body?.data ?? {};
        snapshot.events.set(event.id, {
          id: event.id,
          kind: event.kind,
          account_id: event.account_id,
          environment: event.environment,
          // A batch.completed event is about its batch, named by data.id.
          reference: typeof data.reference === 'string' ? data.reference : event.kind === 'batch.completed' && typeof data.id === 'string' ? data.id : null,
          wallet_transaction_id: typeof data.wallet_transaction_id === 'number' ? data.wallet_transaction_id : null,
          amount_kobo: typeof data.amount === 'number' ? Math.round(data.amount * 100) : null,
        });
      }
      check_lookups(db, snapshot);
      for (const { key, value } of db.batches.getRange({})) {
        if (!Array.isArray(key)) continue; // msgpack's shared structures
        const [account_id, environment, id] = key as [number, Environment, string];
        snapshot.batches.set(`${wallet_key(account_id, environment)}:${id}`, value as BatchRecord);
      }
      for (const { key } of db.open_batches.getRange({})) {
        if (!Array.isArray(key)) continue;
        const [account_id, environment, id] = key as [number, Environment, string];
        snapshot.open_batches.add(`${wallet_key(account_id, environment)}:${id}`);
      }
      for (const { key, value } of db.deliveries.getRange({})) snapshot.deliveries.push({ key: key as [number, number], delivery: value as DeliveryRecord });
      for (const { key, value } of db.delivery_queue.getRange({})) snapshot.delivery_queue.set(key as number, value as { endpoint_id: number; account_id: number; due_ms: number });
      for (const { key, value } of db.dead_letters.getRange({})) snapshot.dead_letters.set(key as number, value as { endpoint_id: number; account_id: number });
      return snapshot;
    } finally {
      await root.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface StoreCheckOptions {
  /** When the server died: idempotency records younger than their TTL at this time must be there. */
  snapshot_ms: number;
  /** After the last restart, once everything settled: no open order, no pending delivery. */
  final: boolean;
  upstream: FakeUpstream;
  /**
   * The upstreams after the first in the default route (UPSTREAMS order): an order refused by the first
   * is sent there under a new request id. Their payments count as the first's do.
   */
  other_upstreams?: FakeUpstream[];
  /** Event ids the receiver acknowledged (final check: every stored event must be among them). */
  receiver_acknowledged?: Set<string>;
  /** Ops whose answer had arrived before the kill: only these count as acknowledged here. */
  acked_before_ms: number;
}

export interface StoreStats {
  orders: number;
  open_orders: number;
  entries: number;
  events: number;
  deliveries: number;
  pending_deliveries: number;
  keys: number;
  idempotency_records: number;
  incomplete_idempotency_records: number;
  data_bytes: number;
  commits_discarded: number;
}

export interface StoreReport {
  violations: string[];
  stats: StoreStats;
  /** Every stored live order's reference by the request id of each of its attempts. */
  reference_of_request: Map<string, string>;
}

function sha256_hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Checks a snapshot against its invariants and against what the driver had acknowledged. */
/**
 * The lookup databases are written in the same commit as the records they index (src/engine/engine.ts
 * ensure_lookup_indexes): after any crash they name exactly the stored accounts and keys, or accounts
 * would be lost to sign-in and keys to authentication once their actors are let go.
 */
function check_lookups(db: Record<string, any>, snapshot: Snapshot): void {
  const problems = snapshot.lookup_problems;
  if (snapshot.meta.get('lookup_index_version') === undefined) {
    if (snapshot.accounts.size > 0) problems.push('the store holds accounts but no lookup_index_version');
    return;
  }
  let emails = 0;
  for (const { key, value } of db.account_emails.getRange({})) {
    emails++;
    const account = snapshot.accounts.get(value as number);
    if (account === undefined || account.email.toLowerCase() !== key) problems.push(`account_emails maps ${String(key)} to ${String(value)}, which does not have that email`);
  }
  for (const account of snapshot.accounts.values()) {
    if (db.account_emails.get(account.email.toLowerCase()) !== account.id) problems.push(`account ${account.id}'s email is not in account_emails`);
  }
  if (emails !== snapshot.accounts.size) problems.push(`account_emails holds ${emails} emails for ${snapshot.accounts.size} accounts`);
  let listed = 0;
  for (const { key } of db.account_keys.getRange({})) {
    listed++;
    const [account_id, key_id] = key as [number, number];
    if (snapshot.keys.get(key_id)?.account_id !== account_id) problems.push(`account_keys lists key ${key_id} under account ${account_id}, which does not own it`);
  }
  if (listed !== snapshot.keys.size) problems.push(`account_keys lists ${listed} keys for ${snapshot.keys.size} stored`);
  let hashes = 0;
  let active = 0;
  for (const { key, value } of db.key_hashes.getRange({})) {
    hashes++;
    const [account_id, key_id] = value as [number, number];
    const record = snapshot.keys.get(key_id);
    if (record === undefined || record.account_id !== account_id || record.key_hash !== key || record.revoked_us !== null) {
      problems.push(`key_hashes maps a hash to key ${key_id} of account ${account_id}, which is not that unrevoked key`);
    }
  }
  for (const record of snapshot.keys.values()) if (record.revoked_us === null) active++;
  if (hashes !== active) problems.push(`key_hashes holds ${hashes} hashes for ${active} unrevoked keys`);
  if ((snapshot.meta.get('api_keys_active') ?? 0) !== active) problems.push(`meta api_keys_active says ${String(snapshot.meta.get('api_keys_active'))}, the store holds ${active} unrevoked keys`);
}

export function check_snapshot(snapshot: Snapshot, model: Model, options: StoreCheckOptions): StoreReport {
  const v: string[] = [];
  const known_accounts = new Set(model.accounts.map((a) => a.id));
  const stats: StoreStats = {
    orders: 0, open_orders: snapshot.open_orders.size, entries: 0, events: snapshot.events.size, deliveries: snapshot.deliveries.length,
    pending_deliveries: 0, keys: snapshot.keys.size, idempotency_records: snapshot.idempotency.size, incomplete_idempotency_records: 0,
    data_bytes: snapshot.data_bytes, commits_discarded: snapshot.commits_discarded,
  };
  v.push(...snapshot.entry_keys_bad.map((k) => `wallet_entries holds a key that is not [account, environment, id]: ${k}`));
  v.push(...snapshot.order_keys_bad.map((k) => `orders holds a key that is not [account, environment, seq]: ${k}`));
  v.push(...snapshot.event_problems);
  v.push(...snapshot.lookup_problems);

  // ---- Wallets and their entries ----------------------------------------------------------------
  const all_references = new Map<string, string>();
  const orders_by_reference = new Map<string, OrderRecord>();
  /** Entries by wallet and reference, for the order and event checks below. */
  const entries_by_ref = new Map<string, WalletEntry[]>();
  const entry_by_id = new Map<string, WalletEntry>();
  const credit_refs_by_env = new Map<string, string>();
  for (const account_id of known_accounts) {
    if (!snapshot.accounts.has(account_id)) v.push(`account ${account_id} has no account record`);
  }
  for (const wk of snapshot.entries.keys()) {
    if (!snapshot.wallets.has(wk)) v.push(`entries exist for wallet ${wk}, which has no wallet record`);
  }
  for (const wk of snapshot.orders.keys()) {
    if (!snapshot.wallets.has(wk)) v.push(`orders exist for wallet ${wk}, which has no wallet record`);
  }
  for (const [wk, wallet] of snapshot.wallets) {
    const what = `wallet ${wk}`;
    for (const field of ['balance_kobo', 'credits_kobo', 'debits_kobo', 'reversals_kobo', 'entries_count', 'orders_count'] as const) {
      if (!Number.isSafeInteger(wallet[field]) || wallet[field] < 0) v.push(`${what}: ${field} is ${wallet[field]}, not a non-negative integer`);
    }
    if (wallet.balance_kobo !== wallet.credits_kobo - wallet.debits_kobo + wallet.reversals_kobo) {
      v.push(`${what}: balance ${wallet.balance_kobo} ≠ credits ${wallet.credits_kobo} − debits ${wallet.debits_kobo} + reversals ${wallet.reversals_kobo}`);
    }
    if (wk !== wallet_key(wallet.account_id, wallet.environment)) v.push(`${what}: the record says it is ${wallet.account_id}:${wallet.environment}`);
    // Entries replayed in id order: ids 1..entries_count, each starting where the previous ended.
    const entries = (snapshot.entries.get(wk) ?? []).sort((a, b) => a.key_id - b.key_id);
    stats.entries += entries.length;
    if (entries.length !== wallet.entries_count) v.push(`${what}: entries_count is ${wallet.entries_count} but ${entries.length} entries are stored`);
    let balance = 0;
    const sums = { credit: 0, debit: 0, reversal: 0 };
    entries.forEach(({ key_id, entry }, index) => {
      const at = `${what} entry ${key_id}`;
      if (key_id !== index + 1) v.push(`${at}: entry ids do not run 1..n without gaps (position ${index + 1})`);
      if (entry.id !== key_id) v.push(`${at}: stored under id ${key_id} but says ${entry.id}`);
      if (!['credit', 'debit', 'reversal'].includes(entry.type)) v.push(`${at}: type ${entry.type}`);
      if (!Number.isSafeInteger(entry.amount_kobo) || entry.amount_kobo <= 0) v.push(`${at}: amount ${entry.amount_kobo} is not a positive integer kobo amount`);
      if (entry.balance_before_kobo !== balance) v.push(`${at}: balance_before ${entry.balance_before_kobo} but the entries before it leave ${balance}`);
      const delta = entry.type === 'debit' ? -entry.amount_kobo : entry.amount_kobo;
      if (entry.balance_after_kobo !== entry.balance_before_kobo + delta) v.push(`${at}: balance_after ${entry.balance_after_kobo} ≠ before ${entry.balance_before_kobo} ${entry.type === 'debit' ? '−' : '+'} ${entry.amount_kobo}`);
      if (entry.balance_after_kobo < 0) v.push(`${at}: leaves a negative balance ${entry.balance_after_kobo}`);
      balance = entry.balance_before_kobo + delta;
      if (entry.type in sums) sums[entry.type as keyof typeof sums] += entry.amount_kobo;
      const rk = `${wk}:${entry.reference}`;
      entries_by_ref.set(rk, [...(entries_by_ref.get(rk) ?? []), entry]);
      entry_by_id.set(`${wk}:${entry.id}`, entry);
      if (entry.type === 'credit') {
        // The claim a credit answers to: the environment-wide one if this account holds it, else its own.
        const shared = funding_claim_key(wallet.environment, entry.reference, null);
        const ek = snapshot.funding_refs.get(shared)?.account_id === wallet.account_id ? shared : funding_claim_key(wallet.environment, entry.reference, wallet.account_id);
        const other = credit_refs_by_env.get(ek);
        if (other !== undefined) v.push(`${at}: credit reference ${entry.reference} was already credited (${other}): a funding reference credited twice`);
        credit_refs_by_env.set(ek, at);
        const ref = snapshot.funding_refs.get(ek);
        if (ref === undefined) v.push(`${at}: credit ${entry.reference} has no funding reference record`);
        else if (ref.account_id !== wallet.account_id || ref.entry_id !== entry.id) v.push(`${at}: funding reference ${entry.reference} points at account ${ref.account_id} entry ${ref.entry_id}`);
      }
    });
    if (balance !== wallet.balance_kobo) v.push(`${what}: the entries add up to ${balance} but the balance is ${wallet.balance_kobo}`);
    if (sums.credit !== wallet.credits_kobo || sums.debit !== wallet.debits_kobo || sums.reversal !== wallet.reversals_kobo) {
      v.push(`${what}: entries sum to credits ${sums.credit} / debits ${sums.debit} / reversals ${sums.reversal}, the wallet says ${wallet.credits_kobo} / ${wallet.debits_kobo} / ${wallet.reversals_kobo}`);
    }

    // Orders: seq 1..orders_count, each debited once, each failed one refunded once, no other refund.
    const orders = (snapshot.orders.get(wk) ?? []).sort((a, b) => a.seq - b.seq);
    stats.orders += orders.length;
    if (orders.length !== wallet.orders_count) v.push(`${what}: orders_count is ${wallet.orders_count} but ${orders.length} orders are stored`);
    const order_refs_here = new Set<string>();
    const idem_keys = new Map<string, string>();
    /** Σ amount_charged of the orders not refunded (delivered or still open): what the wallet paid for orders. */
    let charged_not_refunded = 0;
    orders.forEach(({ seq, order }, index) => {
      const at = `${what} order ${seq} ${order.reference}`;
      if (seq !== index + 1) v.push(`${at}: order sequence numbers do not run 1..n without gaps (position ${index + 1})`);
      if (order.seq !== seq || order.account_id !== wallet.account_id || order.environment !== wallet.environment) v.push(`${at}: stored at ${wk}/${seq} but says ${order.account_id}:${order.environment}/${order.seq}`);
      if (!reference_pattern.test(order.reference)) v.push(`${at}: reference is not BV-YYYYMMDD-12 Crockford characters`);
      const seen = all_references.get(order.reference);
      if (seen !== undefined) v.push(`${at}: reference already used by ${seen}`);
      all_references.set(order.reference, at);
      orders_by_reference.set(order.reference, order);
      order_refs_here.add(order.reference);
      if (!['pending', 'processing', 'delivered', 'failed'].includes(order.status)) v.push(`${at}: status ${order.status}`);
      if (!Number.isSafeInteger(order.amount_kobo) || order.amount_kobo <= 0) v.push(`${at}: amount ${order.amount_kobo}`);
      if (order.status === 'delivered' && order.delivered_us === null) v.push(`${at}: delivered without delivered_at`);
      if (order.status === 'failed' && (order.failed_us === null || order.reversed_us === null)) v.push(`${at}: failed without failed_at / reversed_at`);
      // Found by its reference: either the reference names this place, or the index does.
      const indexed = snapshot.order_refs.get(order.reference);
      const named = snapshot.codec.place_of(order.reference);
      const location = indexed ?? (named === null ? undefined : [named.account_id, named.environment, named.seq]);
      if (location === undefined || location[0] !== wallet.account_id || location[1] !== wallet.environment || location[2] !== seq) {
        v.push(`${at}: ${indexed !== undefined ? 'order_refs says' : 'the reference names'} ${JSON.stringify(location)}`);
      }
      const open_location = snapshot.open_orders.get(order.reference);
      const open = order.status === 'pending' || order.status === 'processing';
      if (open !== (open_location !== undefined)) v.push(`${at}: status ${order.status} but ${open_location === undefined ? 'not in' : 'in'} open_orders`);
      if (open_location !== undefined && (open_location[0] !== wallet.account_id || open_location[1] !== wallet.environment || open_location[2] !== seq)) v.push(`${at}: open_orders says ${JSON.stringify(open_location)}`);
      const mine = entries_by_ref.get(`${wk}:${order.reference}`) ?? [];
      // The wallet pays amount_charged, worked out from the campaign's price list (docs/api.md "Pricing").
      const charged = expected_charged_kobo(model, wallet.account_id, order);
      if (order.amount_charged_kobo !== charged || order.commission_kobo !== order.amount_kobo - charged) {
        v.push(`${at}: amount_charged ${order.amount_charged_kobo} / commission ${order.commission_kobo} kobo, the tier's price list makes them ${charged} / ${order.amount_kobo - charged}`);
      }
      if (order.status !== 'failed') charged_not_refunded += charged;
      const debits = mine.filter((e) => e.type === 'debit');
      const reversals = mine.filter((e) => e.type === 'reversal');
      if (debits.length !== 1) v.push(`${at}: ${debits.length} debit entries (exactly 1 expected)`);
      else {
        const debit = debits[0];
        if (debit.amount_kobo !== charged) v.push(`${at}: debited ${debit.amount_kobo}, the order's amount_charged is ${charged} (face value ${order.amount_kobo})`);
        if (debit.balance_before_kobo !== order.wallet_balance_before_kobo || debit.balance_after_kobo !== order.wallet_balance_after_kobo) {
          v.push(`${at}: wallet_balance_before/after ${order.wallet_balance_before_kobo}/${order.wallet_balance_after_kobo}, its debit entry ${debit.id} says ${debit.balance_before_kobo}/${debit.balance_after_kobo}`);
        }
      }
      if (order.status === 'failed') {
        if (reversals.length !== 1) v.push(`${at}: failed with ${reversals.length} reversal entries (exactly 1 expected)`);
        else if (reversals[0].amount_kobo !== charged) v.push(`${at}: refunded ${reversals[0].amount_kobo} of the ${charged} debited`);
        if (order.reversed !== true) v.push(`${at}: failed but reversed is ${order.reversed}`);
      } else {
        if (reversals.length !== 0) v.push(`${at}: ${order.status} but has ${reversals.length} reversal entries`);
        if (order.reversed !== false) v.push(`${at}: ${order.status} but reversed is ${order.reversed}`);
      }
      const credits = mine.filter((e) => e.type === 'credit');
      if (credits.length > 0) v.push(`${at}: a credit entry carries the order's reference`);
      if (order.idempotency_key !== null) {
        const other = idem_keys.get(order.idempotency_key);
        if (other !== undefined) v.push(`${at}: idempotency key ${order.idempotency_key} already created ${other}: a key processed twice`);
        idem_keys.set(order.idempotency_key, order.reference);
      }
    });
    for (const { entry } of entries) {
      if ((entry.type === 'debit' || entry.type === 'reversal') && !order_refs_here.has(entry.reference)) {
        v.push(`${what} entry ${entry.id}: ${entry.type} of ${entry.reference}, which is no order of this wallet`);
      }
    }
    if (wallet.balance_kobo !== wallet.credits_kobo - charged_not_refunded) {
      v.push(`${what}: balance ${wallet.balance_kobo} ≠ credits ${wallet.credits_kobo} − Σ amount_charged of orders not refunded ${charged_not_refunded}`);
    }
  }
  for (const [reference, location] of snapshot.order_refs) {
    if (!orders_by_reference.has(reference)) v.push(`order_refs holds ${reference} → ${JSON.stringify(location)}, but no such order is stored`);
  }
  for (const [reference, location] of snapshot.open_orders) {
    if (!orders_by_reference.has(reference)) v.push(`open_orders holds ${reference} → ${JSON.stringify(location)}, but no such order is stored`);
  }
  for (const [ek, ref] of snapshot.funding_refs) {
    if (!credit_refs_by_env.has(ek)) v.push(`funding reference ${ek} → account ${ref.account_id} entry ${ref.entry_id}, but no such credit entry exists`);
  }

  // ---- Idempotency records ----------------------------------------------------------------------
  for (const [ik, record] of snapshot.idempotency) {
    const [account_id, environment, ...rest] = ik.split(':');
    const idem = rest.join(':');
    if (!record.complete) stats.incomplete_idempotency_records++;
    if (record.reference !== null) {
      const order = orders_by_reference.get(record.reference);
      if (order === undefined) v.push(`idempotency record ${ik} names order ${record.reference}, which is not stored`);
      else if (String(order.account_id) !== account_id || order.environment !== environment || order.idempotency_key !== idem) {
        v.push(`idempotency record ${ik} names order ${record.reference} of ${order.account_id}:${order.environment} with key ${order.idempotency_key}`);
      }
      if (record.complete && !record.sealed) {
        let named: string | null = null;
        try {
          const body = JSON.parse(record.body);
          named = body?.data?.reference ?? body?.error?.reference ?? null;
        } catch {
          v.push(`idempotency record ${ik}: its body is not JSON`);
        }
        if (named !== record.reference) v.push(`idempotency record ${ik}: its answer names ${named}, the record ${record.reference}`);
      }
    } else if (!record.complete) {
      v.push(`idempotency record ${ik} is incomplete but names no order`);
    }
  }
  // No client reference names two orders of one wallet (docs/api.md "Client references and metadata").
  for (const [wk, orders] of snapshot.orders) {
    const by_client_reference = new Map<string, string>();
    for (const { order } of orders) {
      if (order.client_reference == null) continue;
      const earlier = by_client_reference.get(order.client_reference);
      if (earlier !== undefined) v.push(`wallet ${wk}: client reference ${order.client_reference} names two orders, ${earlier} and ${order.reference}`);
      else by_client_reference.set(order.client_reference, order.reference);
    }
  }
  for (const orders of snapshot.orders.values()) {
    for (const { order } of orders) {
      if (order.idempotency_key === null) continue;
      const record = snapshot.idempotency.get(`${order.account_id}:${order.environment}:${order.idempotency_key}`);
      const young = order.created_us / 1000 + model.idempotency_ttl_ms > options.snapshot_ms + 5_000;
      if (record === undefined) {
        if (young) v.push(`order ${order.reference} was created with key ${order.idempotency_key}, which has no idempotency record: a retry would buy again`);
      } else if (record.reference !== order.reference) {
        v.push(`order ${order.reference} was created with key ${order.idempotency_key}, whose record names ${record.reference}`);
      }
    }
  }

  // ---- API keys ---------------------------------------------------------------------------------
  const next_key_id = snapshot.meta.get('next_key_id') as number | undefined;
  const active_by_account = new Map<number, number>();
  for (const [id, record] of snapshot.keys) {
    if (record.id !== id) v.push(`key stored under ${id} says its id is ${record.id}`);
    if (next_key_id === undefined || id >= next_key_id) v.push(`key ${id} is not below the counter next_key_id ${next_key_id}: an id could be handed out twice`);
    if (!/^[0-9a-f]{64}$/.test(record.key_hash)) v.push(`key ${id}: key_hash is not a SHA-256 hex digest`);
    if (!snapshot.accounts.has(record.account_id)) v.push(`key ${id} belongs to missing account ${record.account_id}`);
    // Expired keys take no place among the active ones (account-actor.ts key_is_active).
    if (record.revoked_us === null && (record.expires_ms === null || record.expires_ms > options.snapshot_ms)) active_by_account.set(record.account_id, (active_by_account.get(record.account_id) ?? 0) + 1);
  }
  for (const [account_id, count] of active_by_account) {
    if (count > active_keys_max) v.push(`account ${account_id} has ${count} active keys (at most ${active_keys_max})`);
  }

  // ---- Webhook endpoints, events, deliveries ----------------------------------------------------
  const next_delivery_id = snapshot.meta.get('next_webhook_delivery_id') as number | undefined;
  const next_endpoint_id = snapshot.meta.get('next_webhook_endpoint_id') as number | undefined;
  const endpoint_of_wallet = new Map<string, number>();
  for (const account of model.accounts) for (const wallet of Object.values(account.wallets)) endpoint_of_wallet.set(wallet_key(wallet.account_id, wallet.environment), wallet.endpoint_id);
  for (const [id, endpoint] of snapshot.endpoints) {
    if (next_endpoint_id === undefined || id >= next_endpoint_id) v.push(`webhook endpoint ${id} is not below next_webhook_endpoint_id ${next_endpoint_id}`);
    if (!endpoint.enabled || endpoint.deleted_us !== null) v.push(`webhook endpoint ${id} is ${endpoint.enabled ? 'deleted' : `disabled (${endpoint.disabled_reason})`}; the campaign never disables it`);
  }
  for (const [wk, endpoint_id] of endpoint_of_wallet) {
    if (!snapshot.endpoints.has(endpoint_id)) v.push(`wallet ${wk}: its webhook endpoint ${endpoint_id} is not stored`);
  }
  // One event per change: (wallet, kind, reference) names at most one event.
  const events_by_subject = new Map<string, EventSummary[]>();
  for (const event of snapshot.events.values()) {
    const wk = wallet_key(event.account_id, event.environment);
    if (!known_accounts.has(event.account_id)) v.push(`event ${event.id} of unknown account ${event.account_id}`);
    if (event.reference === null) {
      v.push(`event ${event.id} (${event.kind}) names no reference`);
      continue;
    }
    const subject = `${wk}|${event.kind}|${event.reference}`;
    events_by_subject.set(subject, [...(events_by_subject.get(subject) ?? []), event]);
    // Every event stands for a change that is in the store (it was written in the same commit).
    if (event.kind.startsWith('wallet.')) {
      const type = { 'wallet.credited': 'credit', 'wallet.debited': 'debit', 'wallet.reversed': 'reversal' }[event.kind];
      const entry = event.wallet_transaction_id === null ? undefined : entry_by_id.get(`${wk}:${event.wallet_transaction_id}`);
      if (entry === undefined || entry.type !== type || entry.reference !== event.reference || entry.amount_kobo !== event.amount_kobo) {
        v.push(`event ${event.id} ${event.kind} of ${event.reference} (entry ${event.wallet_transaction_id}, ${event.amount_kobo} kobo) matches no ${type} entry of wallet ${wk}`);
      }
    } else if (event.kind === 'batch.completed') {
      const batch = snapshot.batches.get(`${wk}:${event.reference}`);
      if (batch === undefined || batch.completed_us === null) v.push(`event ${event.id} batch.completed names ${event.reference}, ${batch === undefined ? 'no batch' : 'a batch still processing'} of wallet ${wk}`);
    } else {
      const order = orders_by_reference.get(event.reference);
      // A delivered order the upstream reversed afterwards (reverse_delivered_order) is failed, keeps its
      // delivered_at and its transaction.completed, and has transaction.reversed instead of transaction.failed.
      const reversed_after_delivery = order !== undefined && order.status === 'failed' && order.delivered_us !== null;
      const wanted = { 'transaction.completed': ['delivered', 'reversed after delivery'], 'transaction.failed': ['failed'], 'transaction.reversed': ['reversed after delivery'], 'transaction.processing': ['processing', 'delivered', 'failed', 'reversed after delivery'], 'transaction.delayed': ['processing', 'delivered', 'failed', 'reversed after delivery'] }[event.kind] ?? [];
      if (order === undefined || wallet_key(order.account_id, order.environment) !== wk) v.push(`event ${event.id} ${event.kind} names ${event.reference}, no order of wallet ${wk}`);
      else if (!wanted.includes(reversed_after_delivery ? 'reversed after delivery' : order.status)) v.push(`event ${event.id} ${event.kind} of ${event.reference}, but the order is ${order.status}${reversed_after_delivery ? ' (reversed after delivery)' : ''}`);
      else if (event.kind === 'transaction.processing' && !order.status_history.some((h) => h.status === 'processing')) v.push(`event ${event.id} transaction.processing of ${event.reference}, which never was processing`);
      // An escalation (docs/api.md "A promised time") is stored on the order in the commit of its event.
      else if (event.kind === 'transaction.delayed' && order.delayed_us === undefined) v.push(`event ${event.id} transaction.delayed of ${event.reference}, which was never escalated`);
    }
  }
  for (const [subject, list] of events_by_subject) {
    if (list.length > 1) v.push(`${list.length} events for one change ${subject}: ${list.map((e) => e.id).join(', ')}`);
  }
  // Completeness: the endpoints exist before any money moves, so every change has its event.
  const expect_event = (wk: string, kind: string, reference: string, what: string) => {
    if (!events_by_subject.has(`${wk}|${kind}|${reference}`)) v.push(`${what} has no ${kind} event: the change was committed without its event`);
  };
  for (const [wk, list] of snapshot.entries) {
    for (const { entry } of list) {
      const kind = { credit: 'wallet.credited', debit: 'wallet.debited', reversal: 'wallet.reversed', transfer_in: 'wallet.credited', transfer_out: 'wallet.debited' }[entry.type];
      expect_event(wk, kind, entry.reference, `wallet ${wk} ${entry.type} entry ${entry.id} (${entry.reference})`);
    }
  }
  for (const [bk, batch] of snapshot.batches) {
    if (batch.completed_us !== null) expect_event(wallet_key(batch.account_id, batch.environment), 'batch.completed', batch.id, `completed batch ${bk}`);
  }
  for (const order of orders_by_reference.values()) {
    const wk = wallet_key(order.account_id, order.environment);
    if (order.status === 'delivered') expect_event(wk, 'transaction.completed', order.reference, `delivered order ${order.reference}`);
    if (order.status === 'failed' && order.delivered_us === null) expect_event(wk, 'transaction.failed', order.reference, `failed order ${order.reference}`);
    if (order.status === 'failed' && order.delivered_us !== null) {
      expect_event(wk, 'transaction.completed', order.reference, `order ${order.reference} reversed after delivery`);
      expect_event(wk, 'transaction.reversed', order.reference, `order ${order.reference} reversed after delivery`);
    }
    if (order.delayed_us !== undefined) expect_event(wk, 'transaction.delayed', order.reference, `escalated order ${order.reference}`);
  }
  // Deliveries: one per event (one endpoint per wallet), pending exactly when queued, never dead.
  const deliveries_of_event = new Map<string, number>();
  for (const { key, delivery } of snapshot.deliveries) {
    const at = `delivery ${key[1]} (endpoint ${key[0]}, ${delivery.kind} ${delivery.event_id})`;
    if (delivery.endpoint_id !== key[0] || delivery.id !== key[1]) v.push(`${at}: the record says endpoint ${delivery.endpoint_id} id ${delivery.id}`);
    if (next_delivery_id === undefined || delivery.id >= next_delivery_id) v.push(`${at}: id not below next_webhook_delivery_id ${next_delivery_id}: an id could be handed out twice`);
    const event = snapshot.events.get(delivery.event_id);
    if (event === undefined) v.push(`${at}: its event is not stored`);
    else if (delivery.event_key !== snapshot.event_keys.get(delivery.event_id)) v.push(`${at}: its event_key ${delivery.event_key} is not the key its event is stored under (${snapshot.event_keys.get(delivery.event_id)})`);
    else {
      if (event.kind !== delivery.kind) v.push(`${at}: kind differs from its event's ${event.kind}`);
      const endpoint_id = endpoint_of_wallet.get(wallet_key(event.account_id, event.environment));
      if (endpoint_id !== delivery.endpoint_id) v.push(`${at}: event of wallet ${event.account_id}:${event.environment}, whose endpoint is ${endpoint_id}`);
    }
    deliveries_of_event.set(delivery.event_id, (deliveries_of_event.get(delivery.event_id) ?? 0) + 1);
    const queued = snapshot.delivery_queue.get(delivery.id);
    if (delivery.status === 'pending') {
      stats.pending_deliveries++;
      if (queued === undefined) v.push(`${at}: pending but not in delivery_queue: it would never be attempted again`);
      else if (queued.endpoint_id !== delivery.endpoint_id || queued.account_id !== delivery.account_id) v.push(`${at}: delivery_queue says endpoint ${queued.endpoint_id} account ${queued.account_id}`);
      if (options.final) v.push(`${at}: still pending after everything settled`);
    } else if (queued !== undefined) v.push(`${at}: ${delivery.status} but still in delivery_queue`);
    if (delivery.status === 'dead') v.push(`${at}: dead, although the receiver answers 200 to every retry (attempts: ${JSON.stringify(delivery.attempts.map((a) => a.status_code ?? a.error))})`);
    if (delivery.status === 'cancelled') v.push(`${at}: cancelled, although its endpoint is never disabled or deleted`);
    if ((delivery.status === 'dead') !== snapshot.dead_letters.has(delivery.id)) v.push(`${at}: ${delivery.status} but ${snapshot.dead_letters.has(delivery.id) ? 'in' : 'not in'} dead_letters`);
    if (delivery.status === 'delivered') {
      const last = delivery.attempts[delivery.attempts.length - 1];
      if (last === undefined || last.status_code === null || last.status_code < 200 || last.status_code > 299) v.push(`${at}: delivered but its last attempt is ${JSON.stringify(last)}`);
    }
    if (options.final && options.receiver_acknowledged !== undefined && !options.receiver_acknowledged.has(delivery.event_id)) {
      v.push(`${at}: status ${delivery.status}, but the receiver never acknowledged event ${delivery.event_id}`);
    }
  }
  for (const event of snapshot.events.values()) {
    const count = deliveries_of_event.get(event.id) ?? 0;
    if (count !== 1) v.push(`event ${event.id} ${event.kind} ${event.reference} has ${count} deliveries (one endpoint subscribes: exactly 1 expected)`);
  }
  const delivery_ids = new Set(snapshot.deliveries.map((d) => d.key[1]));
  for (const id of snapshot.delivery_queue.keys()) if (!delivery_ids.has(id)) v.push(`delivery_queue holds ${id}, which is no stored delivery`);
  for (const id of snapshot.dead_letters.keys()) if (!delivery_ids.has(id)) v.push(`dead_letters holds ${id}, which is no stored delivery`);

  // ---- Outcomes: the sandbox table and the upstream ----------------------------------------------
  const ops_by_idem = new Map<string, Op>();
  const unkeyed = new Map<string, Op[]>();
  const purchase_signature = (account_id: number, environment: string, service: string, recipient: string, amount_kobo: number) =>
    `${account_id}:${environment}:${service}:${local_recipient(recipient)}:${amount_kobo}`;
  /** Each bulk item the driver sent, by wallet and its own client_reference (unique unless it repeats a purchase's). */
  const bulk_items = new Map<string, { op: Op; index: number }>();
  for (const op of model.ops) {
    if (op.kind !== 'bulk' || op.bulk === undefined) continue;
    op.bulk.items.forEach((item, index) => {
      if (item.reused_of === undefined) bulk_items.set(`${wallet_key(op.account_id, op.environment)}:${item.client_reference}`, { op, index });
    });
  }
  for (const op of model.ops) {
    if (op.kind !== 'purchase' || op.purchase === undefined) continue;
    if (op.idem !== null) ops_by_idem.set(`${op.account_id}:${op.environment}:${op.idem}`, op);
    else {
      const signature = purchase_signature(op.account_id, op.environment, op.purchase.service, op.purchase.recipient, op.purchase.amount_kobo);
      unkeyed.set(signature, [...(unkeyed.get(signature) ?? []), op]);
    }
  }
  // What every upstream of the route holds, by request id: a request id is sent to one upstream only.
  const upstreams = [options.upstream, ...(options.other_upstreams ?? [])];
  const upstream_by_request = new Map<string, UpstreamTransaction>();
  for (const upstream of upstreams) {
    for (const [request_id, tx] of upstream.transactions) {
      if (upstream_by_request.has(request_id)) v.push(`request_id ${request_id} was paid at two upstreams`);
      upstream_by_request.set(request_id, tx);
    }
  }
  const duplicates = new Set(upstreams.flatMap((upstream) => [...(upstream.duplicates ?? [])]));
  const reference_of_request = new Map<string, string>();
  const live_request_ids = new Set<string>();
  for (const order of orders_by_reference.values()) {
    const at = `order ${order.reference} (${order.account_id}:${order.environment} ${order.service_type} ${order.recipient}, ${order.amount_kobo} kobo, ${order.status})`;
    // No phantom orders: each one answers a request the driver sent, with what that request asked.
    let op: Op | undefined;
    const bulk_item = order.idempotency_key === null && order.client_reference != null ? bulk_items.get(`${wallet_key(order.account_id, order.environment)}:${order.client_reference}`) : undefined;
    if (bulk_item !== undefined) {
      // An item of a bulk order: what that item asked for, and the sandbox's outcome of its number.
      const item = bulk_item.op.bulk!.items[bulk_item.index];
      if (item.service !== order.service_type || local_recipient(order.recipient) !== item.recipient || item.amount_kobo !== order.amount_kobo) {
        v.push(`${at}: item ${bulk_item.index} of bulk request ${bulk_item.op.n} asked for ${item.service} ${item.recipient} ${item.amount_kobo} kobo`);
      }
      if (item.expect === 'unavailable') v.push(`${at}: item ${bulk_item.index} of bulk request ${bulk_item.op.n} must be refused before any debit, yet an order exists`);
      const final = final_status_of(item.expect);
      if (final !== null && (order.status === 'delivered' || order.status === 'failed') && order.status !== final) v.push(`${at}: the sandbox says ${item.recipient} ends ${final}`);
    } else if (order.idempotency_key !== null) {
      op = ops_by_idem.get(`${order.account_id}:${order.environment}:${order.idempotency_key}`);
      if (op === undefined) v.push(`${at}: created with key ${order.idempotency_key}, which the driver never sent to this wallet`);
    } else {
      const candidates = unkeyed.get(purchase_signature(order.account_id, order.environment, order.service_type, order.recipient, order.amount_kobo)) ?? [];
      op = candidates.shift();
      if (op === undefined) v.push(`${at}: no request without a key asked for it (or more orders than such requests)`);
    }
    if (op?.purchase !== undefined) {
      const p = op.purchase;
      if (p.service !== order.service_type || local_recipient(order.recipient) !== p.recipient || p.amount_kobo !== order.amount_kobo) {
        v.push(`${at}: request ${op.n} asked for ${p.service} ${p.recipient} ${p.amount_kobo} kobo`);
      }
      if (p.expect === 'unavailable' || p.expect === 'invalid') v.push(`${at}: request ${op.n} (${p.expect}) must be refused before any debit, yet an order exists`);
      const final = final_status_of(p.expect);
      if (final !== null && (order.status === 'delivered' || order.status === 'failed') && order.status !== final) {
        v.push(`${at}: the sandbox says ${p.recipient} ends ${final}`);
      }
    }
    if (options.final && order.status !== 'delivered' && order.status !== 'failed') v.push(`${at}: still open after everything settled`);
    if (order.environment === 'live') {
      live_request_ids.add(order.provider_request_id);
      reference_of_request.set(order.provider_request_id, order.reference);
      const upstream = upstream_by_request.get(order.provider_request_id);
      // A reversal is heard by a re-query (a callback's, or the 24 h one): until the end the order may
      // still show delivered what the upstream has reversed since.
      const delivered_upstream = upstream?.status === 'delivered' || (!options.final && upstream?.status === 'reversed');
      if (order.status === 'delivered' && !delivered_upstream) v.push(`${at}: delivered, but the upstream has request ${order.provider_request_id} as ${upstream?.status ?? 'never paid'}`);
      if (order.status === 'failed' && upstream?.status === 'delivered') v.push(`${at}: failed and refunded, but the upstream delivered request ${order.provider_request_id}`);
      // Never refunded once delivered unless a reversal was read from the upstream.
      if (order.status === 'failed' && order.delivered_us !== null && upstream?.status !== 'reversed') v.push(`${at}: refunded after its delivery, but the upstream has request ${order.provider_request_id} as ${upstream?.status ?? 'never paid'}, not reversed`);
      if (options.final && (upstream?.status === 'failed' || upstream?.status === 'reversed') && order.status !== 'failed') v.push(`${at}: the upstream ${upstream.status} request ${order.provider_request_id}`);
      // Across the upstreams of its route: delivered (or delivered then reversed) under one request id at
      // most, and an order VTpass answered 019 never sent to another upstream.
      const attempts = order.attempts ?? [];
      for (const attempt of attempts) reference_of_request.set(attempt.request_id, order.reference);
      const delivered_at = attempts.filter((a) => ['delivered', 'reversed'].includes(upstream_by_request.get(a.request_id)?.status ?? ''));
      if (delivered_at.length > 1) v.push(`${at}: delivered by ${delivered_at.length} upstreams (${delivered_at.map((a) => `${a.upstream} ${a.request_id}`).join(', ')})`);
      const duplicate = attempts.find((a) => duplicates.has(a.request_id));
      if (duplicate !== undefined && (attempts.length !== 1 || order.provider_request_id !== duplicate.request_id)) {
        v.push(`${at}: answered 019 under ${duplicate.request_id}, yet sent on (attempts ${attempts.map((a) => `${a.upstream} ${a.request_id} ${a.outcome}`).join(', ')})`);
      }
    }
  }
  for (const request_id of upstream_by_request.keys()) {
    if (!live_request_ids.has(request_id)) v.push(`the upstream was paid under request_id ${request_id}, which no stored live order carries: paid before its order was durable`);
  }
  const paid_twice = upstreams.flatMap((upstream) => upstream.paid_twice());
  if (paid_twice.length > 0) v.push(`the upstream was paid twice under request_ids ${paid_twice.join(', ')}`);

  // ---- Races: nothing debited for a request after its key's revocation ------------------------------
  // A race (campaign.ts race_ops) sends a purchase or bulk order with a created key and revokes that key
  // while it runs. Whatever the order of the two, no order a first copy was answered with may have
  // been debited after the revocation (the debit's created_us against the key record's revoked_us,
  // both stamped by their commands), and one answered 401 placed nothing at all.
  for (const op of model.ops) {
    if (op.via_key === undefined || op.ack === null || op.ack.resent || op.ack.at_ms > options.acked_before_ms) continue;
    const revoked_us = snapshot.keys.get(op.via_key.id)?.revoked_us ?? null;
    const at = `race op ${op.n} (${op.kind} with key ${op.via_key.id}${op.idem ? `, key ${op.idem}` : ''}, answered ${op.ack.status})`;
    const references = op.kind === 'purchase' ? [acked_reference(op.ack)] : acked_batch(op.ack)?.references ?? [];
    for (const reference of references) {
      const order = reference === null ? undefined : orders_by_reference.get(reference);
      if (order !== undefined && revoked_us !== null && order.created_us > revoked_us) {
        v.push(`${at}: order ${order.reference} was debited at ${order.created_us} µs, after its key's revocation at ${revoked_us} µs`);
      }
    }
    if (op.ack.status !== 401) continue;
    const client_references = new Set((op.bulk?.items ?? []).map((item) => item.client_reference));
    for (const order of orders_by_reference.values()) {
      if (order.account_id !== op.account_id || order.environment !== op.environment) continue;
      const its_own = (op.kind === 'purchase' && op.idem !== null && order.idempotency_key === op.idem) || (order.client_reference != null && client_references.has(order.client_reference));
      if (its_own) v.push(`${at}: refused for its revoked key, yet its order ${order.reference} is in the store`);
    }
  }

  // ---- Cancels before sending (campaign.ts cancel_turn) ------------------------------------------------
  // An order failed with reason cancelled was a live bulk item the driver asked to cancel, was never handed
  // to any upstream (no pay request of its request id at either fake, no second attempt), went pending → failed,
  // and (above) has one debit and one reversal entry. A cancel answered 200 before the kill left the order
  // cancelled in the store; one answered 409 left it not cancelled; no reference got both answers.
  const cancel_ops_by_reference = new Map<string, Op[]>();
  for (const op of model.ops) if (op.kind === 'cancel' && op.cancel !== undefined) cancel_ops_by_reference.set(op.cancel.reference, [...(cancel_ops_by_reference.get(op.cancel.reference) ?? []), op]);
  for (const order of orders_by_reference.values()) {
    if (order.failure_reason !== cancelled_reason) continue;
    const at = `order ${order.reference} (${order.account_id}:${order.environment} ${order.service_type} ${order.recipient}, cancelled)`;
    const bulk_item = order.client_reference == null ? undefined : bulk_items.get(`${wallet_key(order.account_id, order.environment)}:${order.client_reference}`);
    if (order.environment !== 'live' || bulk_item === undefined) v.push(`${at}: cancelled, but it is no live bulk item the driver sent`);
    if (!cancel_ops_by_reference.has(order.reference)) v.push(`${at}: cancelled, but the driver never asked to cancel it`);
    if (order.status !== 'failed' || order.reversed !== true) v.push(`${at}: reason cancelled, yet status ${order.status}, reversed ${order.reversed}`);
    const history = order.status_history.map((h) => h.status).join(' → ');
    if (history !== 'pending → failed') v.push(`${at}: history ${history} (pending → failed expected: it never was sent)`);
    const request_ids = new Set([order.provider_request_id, ...(order.attempts ?? []).map((a) => a.request_id)].filter((id) => typeof id === 'string' && id !== ''));
    // Its one attempt is the upstream chosen at placement (outcome "sent" is written then); a second means it was sent on.
    if ((order.attempts ?? []).length > 1) v.push(`${at}: cancelled, yet it has ${(order.attempts ?? []).length} upstream attempts`);
    for (const upstream of upstreams) {
      for (const request_id of request_ids) {
        if (upstream.calls('/api/pay', request_id).length > 0) v.push(`${at}: cancelled and refunded, yet an upstream was asked to pay request ${request_id}`);
      }
    }
  }
  for (const [reference, ops] of cancel_ops_by_reference) {
    const order = orders_by_reference.get(reference);
    const answers = new Set<string>();
    for (const op of ops) {
      if (op.ack === null || op.ack.at_ms > options.acked_before_ms) continue;
      const answer = cancel_answer(op.cancel!, op.ack);
      const at = `cancel op ${op.n} of ${reference} (item ${op.cancel!.index} of bulk request ${op.cancel!.bulk_op}${op.ack.resent ? ', re-sent after a restart' : ''}) answered ${op.ack.status}`;
      if (answer !== null) answers.add(answer);
      if (answer === 'cancelled' && (order === undefined || order.status !== 'failed' || order.failure_reason !== cancelled_reason)) {
        v.push(`${at}: the store has the order ${order === undefined ? 'missing' : `${order.status}${order.failure_reason ? ` (${order.failure_reason})` : ''}`} — an acknowledged cancel was lost`);
      }
      if (answer === 'refused' && order?.failure_reason === cancelled_reason) v.push(`${at} transaction.not_cancellable, yet the store has the order cancelled`);
    }
    if (answers.size > 1) v.push(`cancels of ${reference} were answered both 200 (cancelled) and 409 (not cancellable)`);
  }

  // ---- Bulk orders: each batch names its items' orders, none twice; open exactly while one is open --
  const batch_of_order = new Map<string, string>();
  const batches_of_op = new Map<Op, string[]>();
  // Which request made a batch: the one whose 202 named it; else the one that sent an item of its own
  // client_reference at that index; else (every item repeats a purchase's client_reference, e.g. one
  // item) a request of that wallet that sent the same client_references in the same order.
  const bulk_op_of_batch = new Map<string, Op>();
  const bulk_ops_by_references = new Map<string, Op[]>();
  const references_signature = (wk: string, references: (string | null | undefined)[]) => `${wk}:${JSON.stringify(references.map((r) => r ?? null))}`;
  for (const op of model.ops) {
    if (op.kind !== 'bulk' || op.bulk === undefined) continue;
    const wk = wallet_key(op.account_id, op.environment);
    const acked = op.ack === null ? null : acked_batch(op.ack);
    if (acked !== null) bulk_op_of_batch.set(`${wk}:${acked.id}`, op);
    const signature = references_signature(wk, op.bulk.items.map((item) => item.client_reference));
    bulk_ops_by_references.set(signature, [...(bulk_ops_by_references.get(signature) ?? []), op]);
  }
  for (const [bk, batch] of snapshot.batches) {
    const wk = wallet_key(batch.account_id, batch.environment);
    const at = `batch ${bk}`;
    if (`${wk}:${batch.id}` !== bk) v.push(`${at}: the record says it is ${wk}:${batch.id}`);
    let open_items = 0;
    let matched: Op | undefined = bulk_op_of_batch.get(bk);
    batch.items.forEach((item, index) => {
      if (item.index !== index) v.push(`${at}: item ${index} says index ${item.index}`);
      const sent = item.client_reference === null ? undefined : bulk_items.get(`${wk}:${item.client_reference}`);
      if (sent !== undefined && sent.index === index) matched ??= sent.op;
      if (item.reference === null) {
        if (item.status !== 'refused' || item.error === null) v.push(`${at}: item ${index} placed nothing yet is ${item.status}`);
        return;
      }
      const order = orders_by_reference.get(item.reference);
      if (order === undefined || wallet_key(order.account_id, order.environment) !== wk) {
        v.push(`${at}: item ${index} names ${item.reference}, no order of wallet ${wk}: the batch was kept without its order`);
        return;
      }
      if ((order.client_reference ?? null) !== item.client_reference) v.push(`${at}: item ${index}'s order ${item.reference} carries client reference ${order.client_reference}, the item ${item.client_reference}`);
      const other = batch_of_order.get(item.reference);
      if (other !== undefined) v.push(`${at}: item ${index}'s order ${item.reference} is also an item of ${other}: an item placed twice`);
      batch_of_order.set(item.reference, `${at} item ${index}`);
      const final = order.status === 'delivered' || order.status === 'failed';
      if (!final) open_items++;
      if (batch.completed_us !== null && item.status !== order.status) v.push(`${at}: completed with item ${index} ${item.status}, its order is ${order.status}`);
    });
    if (matched === undefined) {
      // Only requests whose every item repeats a purchase's reference are left; one not matched yet first.
      const candidates = bulk_ops_by_references.get(references_signature(wk, batch.items.map((item) => item.client_reference))) ?? [];
      matched = candidates.find((op) => !batches_of_op.has(op) && (op.ack === null || acked_batch(op.ack) === null)) ?? candidates[0];
    }
    if (matched === undefined) v.push(`${at}: no bulk order the driver sent has these items`);
    else {
      batches_of_op.set(matched, [...(batches_of_op.get(matched) ?? []), batch.id]);
      // An item repeating a purchase's client_reference is refused with nothing debited: 409's
      // transaction.duplicate_reference naming that order, unless a check that comes before the claim
      // refuses it first, as for a single purchase (docs/api.md "Client references and metadata"):
      // the sandbox's provider-down number is transaction.provider_unavailable.
      const sent = matched.bulk!.items;
      batch.items.forEach((item, index) => {
        const spec = sent[index];
        if (spec?.reused_of === undefined) return;
        const expected = spec.expect === 'unavailable'
          ? item.error?.code === 'transaction.provider_unavailable'
          : item.error?.code === 'transaction.duplicate_reference' && item.error.reference === spec.reused_of;
        if (item.reference !== null || item.status !== 'refused' || !expected) {
          v.push(`${at}: item ${index} repeats the client_reference of ${spec.reused_of} (${spec.recipient}), yet is ${item.status} ${item.reference ?? ''} ${JSON.stringify(item.error)}`);
        }
      });
    }
    if (batch.completed_us === null && open_items === 0) v.push(`${at}: still processing, yet every item's order is final: batch.completed was lost`);
    if (batch.completed_us !== null && open_items > 0) v.push(`${at}: completed with ${open_items} orders still open`);
    if (snapshot.open_batches.has(bk) !== (batch.completed_us === null)) v.push(`${at}: ${batch.completed_us === null ? 'processing' : 'completed'} but ${snapshot.open_batches.has(bk) ? 'still in' : 'not in'} open_batches`);
  }
  for (const bk of snapshot.open_batches) if (!snapshot.batches.has(bk)) v.push(`open_batches holds ${bk}, which is no stored batch`);
  for (const [op, ids] of batches_of_op) if (ids.length > 1) v.push(`bulk request ${op.n} made ${ids.length} batches (${ids.join(', ')}): processed twice`);
  // Every order of a bulk item is in exactly one batch: no item placed outside its batch.
  for (const order of orders_by_reference.values()) {
    if (order.idempotency_key !== null || order.client_reference == null) continue;
    if (bulk_items.has(`${wallet_key(order.account_id, order.environment)}:${order.client_reference}`) && !batch_of_order.has(order.reference)) {
      v.push(`order ${order.reference} of a bulk item (${order.client_reference}) is in no stored batch`);
    }
  }

  // No phantom credits or keys: each answers a request the driver sent.
  const credit_ops = new Map<string, Op>();
  // By wallet: sandbox top-up references are unique per account only.
  for (const op of model.ops) if (op.credit !== undefined) credit_ops.set(`${wallet_key(op.account_id, op.environment)}:${op.credit.reference}`, op);
  for (const [wk, list] of snapshot.entries) {
    for (const { entry } of list) {
      if (entry.type !== 'credit') continue;
      const op = credit_ops.get(`${wk}:${entry.reference}`);
      if (op === undefined) v.push(`wallet ${wk} credit entry ${entry.id} (${entry.reference}) answers no credit the driver asked for`);
      else if (wallet_key(op.account_id, op.environment) !== wk || op.credit!.amount_kobo !== entry.amount_kobo) {
        v.push(`wallet ${wk} credit entry ${entry.id} (${entry.reference}, ${entry.amount_kobo} kobo): the driver credited ${op.credit!.amount_kobo} kobo to ${op.account_id}:${op.environment}`);
      }
    }
  }
  const key_ops = new Map<string, Op>();
  for (const op of model.ops) if (op.key_name !== undefined) key_ops.set(op.key_name, op);
  const driver_key_ids = new Set(model.accounts.flatMap((a) => Object.values(a.wallets).map((w) => w.key_id)));
  const keys_by_name = new Map<string, number>();
  for (const [id, record] of snapshot.keys) {
    if (driver_key_ids.has(id)) continue;
    const op = key_ops.get(record.name);
    if (op === undefined) v.push(`key ${id} "${record.name}" answers no key creation the driver asked for`);
    else if (op.account_id !== record.account_id || op.environment !== record.environment) v.push(`key ${id} "${record.name}" is of ${record.account_id}:${record.environment}, the request was for ${op.account_id}:${op.environment}`);
    keys_by_name.set(record.name, (keys_by_name.get(record.name) ?? 0) + 1);
    if ((keys_by_name.get(record.name) ?? 0) > 1) v.push(`key creation "${record.name}" created ${keys_by_name.get(record.name)} keys: processed twice`);
    if (record.revoked_us !== null && !model.created_keys.some((k) => k.id === id && k.revoke_op !== null)) {
      // A key revoked that no acknowledged creation named: only a revocation the driver sent may do it.
      const created = model.created_keys.find((k) => k.id === id);
      if (created === undefined) v.push(`key ${id} "${record.name}" is revoked, but the driver never learned its id, so never revoked it`);
      else v.push(`key ${id} "${record.name}" is revoked, but the driver never sent a revocation for it`);
    }
  }
  for (const wallet_id of driver_key_ids) {
    const record = snapshot.keys.get(wallet_id);
    if (record === undefined || record.revoked_us !== null) v.push(`the driver's own key ${wallet_id} is ${record === undefined ? 'missing' : 'revoked'}`);
  }

  // ---- Every acknowledged operation is in the store, exactly once --------------------------------
  const orders_by_idem = new Map<string, OrderRecord[]>();
  for (const order of orders_by_reference.values()) {
    if (order.idempotency_key === null) continue;
    const ik = `${order.account_id}:${order.environment}:${order.idempotency_key}`;
    orders_by_idem.set(ik, [...(orders_by_idem.get(ik) ?? []), order]);
  }
  const stored_keys_by_name = new Map<string, KeyRecord[]>();
  for (const record of snapshot.keys.values()) stored_keys_by_name.set(record.name, [...(stored_keys_by_name.get(record.name) ?? []), record]);
  for (const op of model.ops) {
    const ack = op.ack;
    if (ack === null || ack.at_ms > options.acked_before_ms) continue;
    const wk = wallet_key(op.account_id, op.environment);
    const at = `op ${op.n} (round ${op.round}${ack.resent ? `, re-sent and answered in round ${ack.round}` : ''}, ${op.kind} ${op.method} ${op.path}${op.idem ? ` key ${op.idem}` : ''}) answered ${ack.status}`;
    const young = op.sent_ms + model.idempotency_ttl_ms > options.snapshot_ms + 5_000;
    // DELETE /v1/keys/{id} keeps no idempotency record (a second revocation is simply 404).
    if (op.idem !== null && op.method === 'POST' && rememberable(ack.status) && young) {
      const record = snapshot.idempotency.get(`${op.account_id}:${op.environment}:${op.idem}`);
      if (record === undefined) v.push(`${at}: its idempotency record is missing: a retry would run it again`);
      else {
        if (!record.complete) v.push(`${at}: its idempotency record is still incomplete, though the answer was sent`);
        if (record.status !== ack.status) v.push(`${at}: its idempotency record remembers status ${record.status}`);
        if (!record.sealed && record.body !== ack.text) v.push(`${at}: its idempotency record remembers another body: ${record.body.slice(0, 300)} — sent: ${ack.text.slice(0, 300)}`);
      }
    }
    if (op.kind === 'purchase') {
      const reference = acked_reference(ack);
      const keyed_orders = op.idem === null ? [] : orders_by_idem.get(`${wk}:${op.idem}`) ?? [];
      if (reference === null) {
        if (keyed_orders.length > 0) v.push(`${at} (${ack.body?.error?.code}: nothing bought), yet key ${op.idem} created order ${keyed_orders.map((o) => o.reference).join(', ')}`);
        continue;
      }
      const order = orders_by_reference.get(reference);
      if (order === undefined) {
        v.push(`${at}: its order ${reference} is not in the store — an acknowledged purchase was lost`);
        continue;
      }
      if (wallet_key(order.account_id, order.environment) !== wk) v.push(`${at}: its order ${reference} is in wallet ${order.account_id}:${order.environment}`);
      if (order.amount_kobo !== op.purchase!.amount_kobo) v.push(`${at}: its order ${reference} is for ${order.amount_kobo} kobo, the request for ${op.purchase!.amount_kobo}`);
      if (order.idempotency_key !== op.idem) v.push(`${at}: its order ${reference} carries key ${order.idempotency_key}`);
      if ((order.client_reference ?? undefined) !== op.purchase!.client_reference) v.push(`${at}: its order ${reference} carries client reference ${order.client_reference}, the request ${op.purchase!.client_reference}`);
      if (op.idem !== null && keyed_orders.length !== 1) v.push(`${at}: key ${op.idem} created ${keyed_orders.length} orders (exactly 1 expected)`);
      const answered = ack.status === 201 ? ack.body.data.status : 'failed';
      // Answered delivered, then VTpass reversed it: failed (delivered_at kept), which only the upstream's reversal allows.
      const reversed_by_upstream = answered === 'delivered' && order.status === 'failed' && order.delivered_us !== null && upstream_by_request.get(order.provider_request_id)?.status === 'reversed';
      if ((answered === 'delivered' || answered === 'failed') && order.status !== answered && !reversed_by_upstream) v.push(`${at}: answered ${answered}, the stored order ${reference} is ${order.status}`);
    } else if (op.kind === 'bulk') {
      const acked = acked_batch(ack);
      if (acked === null) continue;
      const batch = snapshot.batches.get(`${wk}:${acked.id}`);
      if (batch === undefined) {
        v.push(`${at}: batch ${acked.id} is not in the store — an acknowledged bulk order was lost`);
        continue;
      }
      const stored = batch.items.map((item) => item.reference);
      if (JSON.stringify(stored) !== JSON.stringify(acked.references)) v.push(`${at}: batch ${acked.id} names orders ${JSON.stringify(stored)}, the answer ${JSON.stringify(acked.references)}`);
      for (const reference of acked.references) if (reference !== null && !orders_by_reference.has(reference)) v.push(`${at}: its item's order ${reference} is not in the store — an acknowledged placement was lost`);
    } else if (op.kind === 'credit' || op.kind === 'topup') {
      if (ack.status !== 201) continue;
      const entries = (entries_by_ref.get(`${wk}:${op.credit!.reference}`) ?? []).filter((e) => e.type === 'credit');
      if (entries.length !== 1) v.push(`${at}: ${entries.length} credit entries carry reference ${op.credit!.reference} (exactly 1 expected)`);
      const entry = entries[0];
      if (entry !== undefined && (entry.id !== ack.body?.data?.id || entry.amount_kobo !== op.credit!.amount_kobo || entry.balance_after_kobo !== Math.round(ack.body?.data?.balance_after * 100))) {
        v.push(`${at}: answered entry ${ack.body?.data?.id} balance_after ${ack.body?.data?.balance_after}, the store has entry ${entry.id} of ${entry.amount_kobo} kobo, balance_after ${entry.balance_after_kobo}`);
      }
    } else if (op.kind === 'key_create') {
      const stored = stored_keys_by_name.get(op.key_name!) ?? [];
      if (ack.status !== 201) {
        if (stored.length > 0) v.push(`${at} (${ack.body?.error?.code}), yet key "${op.key_name}" exists`);
        continue;
      }
      const record = snapshot.keys.get(ack.body?.data?.id);
      if (record === undefined) v.push(`${at}: key ${ack.body?.data?.id} is not in the store — an acknowledged key was lost`);
      else if (record.key_hash !== sha256_hex(ack.body.data.api_key) || record.name !== op.key_name || record.account_id !== op.account_id) {
        v.push(`${at}: key ${record.id} in the store is "${record.name}" of account ${record.account_id} with another hash`);
      }
      if (stored.length !== 1) v.push(`${at}: ${stored.length} keys are named "${op.key_name}" (exactly 1 expected)`);
    } else if (op.kind === 'key_revoke') {
      if (ack.status !== 200 && ack.status !== 404) continue;
      const record = snapshot.keys.get(op.revoke_target!.id);
      if (record === undefined || record.revoked_us === null) v.push(`${at}: key ${op.revoke_target!.id} is ${record === undefined ? 'missing' : 'not revoked'} in the store — an acknowledged revocation was lost`);
    }
  }
  return { violations: v, stats, reference_of_request };
}

/** Reads the store as a safe restart would see it and checks it. */
export async function check_store(data_dir: string, model: Model, options: StoreCheckOptions): Promise<StoreReport> {
  const snapshot = await read_snapshot(data_dir);
  return check_snapshot(snapshot, model, options);
}
