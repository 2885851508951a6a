// The per-account order index (docs/api.md "History filters"): the layout of its keys, how an order
// command stages them (stage_order_index, called from account-orders.ts), its rebuild when the store was
// written by an older version (ensure_order_index), and the in-memory counts of its ranges that keep a
// filtered total cheap. Not here: the order commands (account-orders.ts), the queries that read the
// index for a page of history (order-history.ts), the client-reference claims (client-reference-claims.ts).
import type { CommandActor } from './command-actor.js';
import type { Environment } from './records.js';
import type { OrderRecord } from './order-record.js';
import type { Key, Store } from '../journal/store.js';

// ---- The order index ------------------------------------------------------------------------------
//
// A filtered list of one account's orders (the dashboard's and the public history's, docs/api.md
// "History filters") must not read other orders: the store's order_index holds keys per order,
//   [account, environment, field, value, seq]
// so the orders of one account, environment and value are one contiguous range, newest last. A page
// is a reverse range read of keys (no order is decoded but those shown) and the total a key count.
// Two keys per order: service_status ("airtime/delivered", no value) and recipient, whose value is the
// order's "service/status" (a recipient combined with a service or status reads that recipient's range
// with its values and still decodes no order); a client reference adds its claim. A service alone is
// the union of its four service/status ranges, a status alone of its eight: a page merges them newest
// first (at most eight cursors), a total adds their counts. Version 2 wrote a service key and a status
// key beside them (four keys per order): every key a purchase writes costs the store's thread about
// 8-10 µs when purchases spread over many accounts (docs/design.md "Coalesced views and one record per
// purchase"), and one key per combination of the filters (seven) had measured about 15% more server
// CPU per purchase than four.
// Dates need no keys: seq grows with created_us within an account and environment, so a date range is
// a seq range, found by binary search. A field is added by listing it here and bumping
// order_index_version, which rebuilds the index at the next start (ensure_order_index).

export const order_index_version = 3;

export type OrderIndexField = 'service_status' | 'recipient' | 'client_reference';

function index_entries(order: OrderRecord): [OrderIndexField, string, true | string][] {
  const { service_type: service, status } = order;
  const entries: [OrderIndexField, string, true | string][] = [['service_status', `${service}/${status}`, true], ['recipient', order.recipient, `${service}/${status}`]];
  // The client reference's key is its claim (see claim_of): written with the order, never moved or removed.
  if (order.client_reference != null) entries.push(['client_reference', order.client_reference, true]);
  return entries;
}

/** Index fields written once, when the order is first staged: their value never changes. */
function written_once(field: OrderIndexField): boolean {
  return field === 'client_reference';
}

function index_key(order: OrderRecord, field: OrderIndexField, value: string): Key {
  return [order.account_id, order.environment, field, value, order.seq];
}

// ---- Counts of the index's ranges ------------------------------------------------------------------
//
// LMDB counts a key range by walking it: a filtered total over 100,000 matching orders took 37 ms
// (bench history-filtered), on every page. So each account keeps, in memory, the number of keys of
// each service, status and service/status value per block of count_block_seqs seqs, built on the
// first filtered page that needs it and kept current by stage_order_index. A total is then the sum
// of the whole blocks in the seq range plus two partial blocks counted in the store (at most
// 2 × count_block_seqs keys per range). Recipients are not counted so: a recipient's range is as long
// as that recipient's orders. Bound: 2 environments × 32 values × orders / count_block_seqs numbers per
// account. A reloaded account is a new actor object, so its counts (a WeakMap entry) start again.

export const count_block_seqs = 1024;
const range_counts = new WeakMap<CommandActor, Map<string, number[]>>();

function count_name(environment: Environment, field: OrderIndexField, value: string): string {
  return `${environment}/${field}/${value}`;
}

function adjust_count(actor: CommandActor, order: OrderRecord, field: OrderIndexField, value: string, delta: number): void {
  const blocks = range_counts.get(actor)?.get(count_name(order.environment, field, value));
  if (blocks === undefined) return;
  const block = Math.floor(order.seq / count_block_seqs);
  while (blocks.length <= block) blocks.push(0);
  blocks[block] += delta;
}

/**
 * Stages the index keys of an order that was not indexed (previous undefined) or whose status moved
 * on from previous's. Only the status changes over an order's life: the status keys of the old one
 * go, and the recipient key is written again with the new status.
 */
export function stage_order_index(actor: CommandActor, order: OrderRecord, previous: OrderRecord | undefined): void {
  const db = actor.engine.store.order_index;
  if (previous !== undefined) {
    if (previous.status === order.status) return;
    for (const [field, value] of index_entries(previous)) {
      if (field === 'service_status') {
        actor.stage_remove(db, index_key(previous, field, value));
        adjust_count(actor, previous, field, value, -1);
      }
    }
  }
  for (const [field, value, stored] of index_entries(order)) {
    if (previous === undefined || !written_once(field)) {
      actor.stage_put(db, index_key(order, field, value), stored);
      if (field === 'service_status') adjust_count(actor, order, field, value, 1);
    }
  }
}

/**
 * Builds the order index from the orders when the store's was written by an older version (or before
 * the index existed), before recovery: one transaction, so a crash midway leaves the old version
 * number and the next start builds it again.
 */
export function ensure_order_index(store: Store): number {
  if (store.meta.get('order_index_version') === order_index_version) return 0;
  let count = 0;
  store.root.transactionSync(() => {
    store.order_index.clearSync();
    for (const { value } of store.orders.getRange({})) {
      const order = value as OrderRecord;
      for (const [field, text, stored] of index_entries(order)) store.order_index.putSync(index_key(order, field, text), stored);
      count++;
    }
    store.meta.putSync('order_index_version', order_index_version);
  });
  return count;
}
/**
 * How the index answers a filter's service, status and recipient: the ranges of keys of one field, one
 * per value (a recipient's: one; a service and a status: one service/status; a service alone: one per
 * status; a status alone: one per service), whose union is the filter's orders; and for a recipient
 * combined with a service or status, the "service/status" its values must match (null: every key of the
 * ranges matches). Null when none of the three filters is set.
 */
export interface IndexPlan {
  field: OrderIndexField;
  values: string[];
  match: ((stored: string) => boolean) | null;
}
/**
 * The per-block counts of one range of the index (a field and value), built from the store the first time
 * (null while the actor has a commit in flight: staged keys would be missed by the build, and counted twice
 * after).
 */
export function block_counts(actor: CommandActor, environment: Environment, field: OrderIndexField, value: string): number[] | null {
  let counts = range_counts.get(actor);
  const name = count_name(environment, field, value);
  const known = counts?.get(name);
  if (known !== undefined) return known;
  if (actor.settled() !== null) return null;
  const blocks: number[] = [];
  const prefix = [actor.id, environment, field, value];
  for (const key of actor.engine.store.order_index.getKeys({ start: [...prefix, 0], end: [...prefix, Number.MAX_SAFE_INTEGER] })) {
    const block = Math.floor(((key as (string | number)[])[4] as number) / count_block_seqs);
    while (blocks.length <= block) blocks.push(0);
    blocks[block] += 1;
  }
  if (counts === undefined) range_counts.set(actor, counts = new Map());
  counts.set(name, blocks);
  return blocks;
}
