// One page of an account's order history (docs/api.md "History filters"): a filter's dates turned into a
// seq range, its service, status and recipient into a plan over the order index, the page's seqs and the
// filtered total read from the index, and the orders of the page read from the store. Reads only: it
// stages nothing. Not here: how the index is written and its counts kept (order-index.ts), the parsing of
// a request's filter (the routes that build an OrderFilter), the order commands (account-orders.ts).
import type { AccountActor } from './account-actor.js';
import type { Environment } from './records.js';
import { lagos_day_end_ms } from '../lib/time-format.js';
import { order_status_names, service_type_names, type OrderRecord, type OrderStatus, type ServiceType } from './order-record.js';
import type { Store } from '../journal/store.js';
import { fail } from '../lib/assert.js';
import { block_counts, count_block_seqs, type IndexPlan } from './order-index.js';
import { claimed_seq } from './client-reference-claims.js';

/** Orders counted at most for one filtered page's total; beyond it the answer says truncated. */
export const order_filter_count_max = 1_000_000;
export interface OrderFilter {
  service: ServiceType | null;
  status: OrderStatus | null;
  /** Africa/Lagos days since the epoch, inclusive; null: unbounded. */
  from_day: number | null;
  to_day: number | null;
  /** The exact recipient (phone, meter or smartcard number); absent or null: any. */
  recipient?: string | null;
  /** The exact client reference; absent or null: any. */
  client_reference?: string | null;
  /** Creation instants in epoch microseconds, inclusive; absent or null: unbounded. */
  from_us?: number | null;
  to_us?: number | null;
}

export interface OrderPage {
  orders: OrderRecord[];
  total: number;
  truncated: boolean;
}

/** The first seq in [low, high + 1] whose order was created at or after the instant (binary search). */
export function first_seq_at_or_after(store: Store, account_id: number, environment: Environment, low: number, high: number, start_us: number): number {
  let end = high + 1;
  while (low < end) {
    const middle = Math.floor((low + end) / 2);
    const order = store.orders.get([account_id, environment, middle]) as OrderRecord | undefined;
    if (order === undefined) fail(`order ${account_id}/${environment}/${middle} missing below the count`);
    if (order.created_us >= start_us) end = middle;
    else low = middle + 1;
  }
  return low;
}

/** The instant (epoch µs) when an Africa/Lagos day begins. */
export function lagos_day_start_us(day: number): number {
  return lagos_day_end_ms(day - 1) * 1000;
}

/** The seqs [low, high] of the orders created within the filter's dates and instants (low > high: none). */
export function seq_range(store: Store, account_id: number, environment: Environment, orders_count: number, filter: OrderFilter): [number, number] {
  let low = 1;
  let high = orders_count;
  const starts = [filter.from_day === null ? null : lagos_day_start_us(filter.from_day), filter.from_us ?? null];
  const ends = [filter.to_day === null ? null : lagos_day_start_us(filter.to_day + 1), filter.to_us == null ? null : filter.to_us + 1];
  for (const start_us of starts) if (start_us !== null && low <= high) low = first_seq_at_or_after(store, account_id, environment, low, high, start_us);
  for (const end_us of ends) if (end_us !== null && low <= high) high = first_seq_at_or_after(store, account_id, environment, low, high, end_us) - 1;
  return [low, high];
}
export function index_plan_of(filter: OrderFilter): IndexPlan | null {
  const { service, status } = filter;
  if (filter.recipient != null) {
    const match = service === null && status === null
      ? null
      : (stored: string) => {
        const slash = stored.indexOf('/');
        return (service === null || stored.slice(0, slash) === service) && (status === null || stored.slice(slash + 1) === status);
      };
    return { field: 'recipient', values: [filter.recipient], match };
  }
  if (service !== null && status !== null) return { field: 'service_status', values: [`${service}/${status}`], match: null };
  if (service !== null) return { field: 'service_status', values: order_status_names.map((each) => `${service}/${each}`), match: null };
  if (status !== null) return { field: 'service_status', values: service_type_names.map((each) => `${each}/${status}`), match: null };
  return null;
}

/** The seq of an order index key ([account, environment, field, value, seq]), or -1 at the end of its range. */
function next_seq(keys: Iterator<unknown>): number {
  const next = keys.next();
  return next.done === true ? -1 : (next.value as (string | number)[])[4] as number;
}

/**
 * The seqs of the orders matching the plan within [low, high], newest first, from offset on, at most
 * limit of them: one reverse range read of index keys per value of the plan, merged (or arithmetic when
 * nothing but dates filters). An order has one key per field, so the ranges never share a seq.
 */
export function matching_seqs(store: Store, account_id: number, environment: Environment, plan: IndexPlan | null, low: number, high: number, offset: number, limit: number): number[] {
  const seqs: number[] = [];
  if (plan === null) {
    for (let seq = high - offset; seq >= low && seqs.length < limit; seq--) seqs.push(seq);
    return seqs;
  }
  const range_of = (value: string) => {
    const prefix = [account_id, environment, plan.field, value];
    return { start: [...prefix, high], end: [...prefix, low - 1], reverse: true };
  };
  if (plan.values.length > 1) {
    // The union of the ranges, newest first: a cursor per range, the highest seq of their heads taken each time.
    const cursors = plan.values.map((value) => store.order_index.getKeys(range_of(value))[Symbol.iterator]());
    try {
      const heads = cursors.map(next_seq);
      let skipped = 0;
      while (seqs.length < limit) {
        let top = 0;
        for (let i = 1; i < heads.length; i++) if (heads[i] > heads[top]) top = i;
        if (heads[top] < 0) break;
        if (skipped < offset) skipped++;
        else seqs.push(heads[top]);
        heads[top] = next_seq(cursors[top]);
      }
    } finally {
      for (const cursor of cursors) cursor.return?.();
    }
    return seqs;
  }
  const range = range_of(plan.values[0]);
  if (plan.match === null) {
    for (const key of store.order_index.getKeys({ ...range, offset, limit })) seqs.push((key as (string | number)[])[4] as number);
    return seqs;
  }
  let skipped = 0;
  for (const { key, value } of store.order_index.getRange(range)) {
    if (!plan.match(value as string)) continue;
    if (skipped < offset) {
      skipped++;
      continue;
    }
    seqs.push((key as (string | number)[])[4] as number);
    if (seqs.length === limit) break;
  }
  return seqs;
}
/**
 * Seqs one native count covers at most. lmdb-js's getKeysCount ignores its limit option and counts the
 * whole range (200,000 keys counted with limit 1,000), so a total asked without the actor's block
 * counts (the dashboard's lists) walked every matching key of the account, however many. Counting
 * window by window, newest first, and stopping at count_max walks at most count_max + this many keys.
 */
export const count_window_seqs = 65_536;

/** Keys of one index value within seqs [low, high], counted to count_max at most. */
export function count_index_range(store: Store, prefix: readonly (string | number)[], low: number, high: number, count_max: number): number {
  let count = 0;
  for (let top = high; top >= low && count < count_max; top -= count_window_seqs) {
    const bottom = Math.max(low, top - count_window_seqs + 1);
    count += store.order_index.getKeysCount({ start: [...prefix, bottom], end: [...prefix, top + 1] });
  }
  return Math.min(count, count_max);
}

/** How many orders within [low, high] match the plan, counted to order_filter_count_max at most. */
function count_matching(store: Store, account_id: number, environment: Environment, plan: IndexPlan, low: number, high: number, actor?: AccountActor): number {
  let total = 0;
  for (const value of plan.values) {
    if (total >= order_filter_count_max) break;
    total += count_range(store, account_id, environment, plan, value, low, high, actor);
  }
  return Math.min(total, order_filter_count_max);
}

/** How many keys of one range of the plan within [low, high] match it, counted to order_filter_count_max at most. */
function count_range(store: Store, account_id: number, environment: Environment, plan: IndexPlan, value: string, low: number, high: number, actor?: AccountActor): number {
  const blocks = actor === undefined || plan.field === 'recipient' ? null : block_counts(actor, environment, plan.field, value);
  const first = Math.floor(low / count_block_seqs);
  const last = Math.floor(high / count_block_seqs);
  if (blocks !== null && last - first >= 2) {
    let total = count_range(store, account_id, environment, plan, value, low, (first + 1) * count_block_seqs - 1)
      + count_range(store, account_id, environment, plan, value, last * count_block_seqs, high);
    for (let block = first + 1; block < last && block < blocks.length; block++) total += blocks[block];
    return Math.min(total, order_filter_count_max);
  }
  const prefix = [account_id, environment, plan.field, value];
  const range = { start: [...prefix, low], end: [...prefix, high + 1] };
  if (plan.match === null) return count_index_range(store, prefix, low, high, order_filter_count_max);
  let count = 0;
  for (const { value: stored } of store.order_index.getRange(range)) {
    if (plan.match(stored as string) && ++count >= order_filter_count_max) break;
  }
  return count;
}

/**
 * A deep page of a plan of several ranges, moved closer: the whole blocks of count_block_seqs seqs above the
 * page, counted from the actor's block counts, are skipped, so that the merge walks at most one block and the
 * page. Returns the range's new top and the offset left; the same when the counts are not at hand.
 */
function skip_whole_blocks(store: Store, account_id: number, environment: Environment, plan: IndexPlan, low: number, high: number, offset: number, actor?: AccountActor): [number, number] {
  if (actor === undefined || plan.values.length === 1 || offset < count_block_seqs) return [high, offset];
  const per_value: number[][] = [];
  for (const value of plan.values) {
    const blocks = block_counts(actor, environment, plan.field, value);
    if (blocks === null) return [high, offset];
    per_value.push(blocks);
  }
  let top = high;
  let left = offset;
  // The partial block at the top, counted in the store; then whole blocks from the counts, while above low.
  const top_block_low = Math.max(low, Math.floor(top / count_block_seqs) * count_block_seqs);
  const in_top = count_matching(store, account_id, environment, plan, top_block_low, top);
  if (in_top > left) return [top, left];
  left -= in_top;
  top = top_block_low - 1;
  for (let block = Math.floor(top / count_block_seqs); top >= low && block * count_block_seqs >= low; block--) {
    let in_block = 0;
    for (const blocks of per_value) in_block += blocks[block] ?? 0;
    if (in_block > left) break;
    left -= in_block;
    top = block * count_block_seqs - 1;
  }
  return [top, left];
}

/**
 * One page of an account's orders (newest first) matching the filter, read from the index: the work is
 * one count (from the actor's block counts when it is given; a recipient's range read, when a recipient
 * is combined with another filter) and the page's keys and orders, whatever else the account holds.
 * orders_count is the environment's count when the request arrived (later orders are not shown).
 */
export function find_orders(store: Store, account_id: number, environment: Environment, orders_count: number, filter: OrderFilter, page: number, per_page: number, actor?: AccountActor): OrderPage {
  const [low, high] = seq_range(store, account_id, environment, orders_count, filter);
  if (low > high) return { orders: [], total: 0, truncated: false };
  if (filter.client_reference != null) return find_by_client_reference(store, account_id, environment, filter, low, high, page);
  const offset = (page - 1) * per_page;
  const read = (seq: number) => store.orders.get([account_id, environment, seq]) as OrderRecord;
  const plan = index_plan_of(filter);
  const total = plan === null ? high - low + 1 : count_matching(store, account_id, environment, plan, low, high, actor);
  let orders: OrderRecord[] = [];
  if (offset < total) {
    const [top, left] = plan === null ? [high, offset] : skip_whole_blocks(store, account_id, environment, plan, low, high, offset, actor);
    orders = matching_seqs(store, account_id, environment, plan, low, top, left, per_page).map(read);
  }
  return { orders, total, truncated: plan !== null && total >= order_filter_count_max };
}

/** A client reference names one order at most: its claim is read and the order checked against the other filters. */
function find_by_client_reference(store: Store, account_id: number, environment: Environment, filter: OrderFilter, low: number, high: number, page: number): OrderPage {
  const seq = claimed_seq(store, account_id, environment, filter.client_reference!);
  if (seq === null || seq < low || seq > high) return { orders: [], total: 0, truncated: false };
  const order = store.orders.get([account_id, environment, seq]) as OrderRecord;
  const matches = (filter.service === null || order.service_type === filter.service)
    && (filter.status === null || order.status === filter.status)
    && (filter.recipient == null || order.recipient === filter.recipient);
  if (!matches) return { orders: [], total: 0, truncated: false };
  return { orders: page === 1 ? [order] : [], total: 1, truncated: false };
}
