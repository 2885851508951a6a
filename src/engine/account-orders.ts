// The account actor's order commands (docs/style.md: one place mutates account state; these functions are
// that place for orders, kept in their own file). Each runs synchronously inside AccountActor.execute (the
// place_order, provider_result, mark_processing, move_order_upstream, schedule_requery and resolve_order
// commands), stages its changes through the actor and returns its outcome as data.
import { purchase_description, refund_description } from './entry-descriptions.js';
import type { AccountActor } from './account-actor.js';
import { ok, refused, type Outcome } from './refusal.js';
import type { Environment } from './records.js';
import { lagos_day, lagos_day_end_ms } from '../lib/time-format.js';
import { assert_order, charged_kobo, is_final, type OrderRecord, type OrderStatus, type ProviderResult, type ServiceType, type UpstreamAttempt } from './order-record.js';
import type { Key, Store } from '../journal/store.js';
import { fail } from '../lib/assert.js';
import { check_low_balance } from './low-balance.js';
import { authority_refusal, type Authority } from './authority.js';

/** Open orders one account may hold at once (pending or processing): the in-memory bound. */
export const open_orders_max = 100_000;

/**
 * What the reseller asked for, validated and priced: the order record's fields of the same name and
 * meaning (src/engine/order-record.ts documents each).
 */
export type OrderRequest = Pick<
  OrderRecord,
  | 'service_type' | 'network' | 'disco' | 'provider' | 'recipient' | 'plan_code' | 'plan' | 'package_code'
  | 'meter_type' | 'amount_kobo' | 'customer_name' | 'client_reference' | 'metadata' | 'quantity' | 'customer_id'
  | 'subscription_type' | 'foreign'
> & {
  /**
   * The commission a quote fixed (international airtime and data): the debit is then exactly the quoted
   * charge, whatever the tier's rate is now (docs/api.md "International airtime and data"). Absent: the
   * tier's rate at the debit decides.
   */
  quoted_commission_kobo?: number;
};

/** What the order desk assigns to a request when it places it. */
export interface OrderPlacement {
  environment: Environment;
  reference: string;
  idempotency_key: string | null;
  provider_request_id: string;
  /** Whether the reference needs the order_refs index (a random one: see services/references.ts). */
  indexed: boolean;
  /** The reseller's commission from the account's tier, read in this command (services/pricing.ts). */
  commission_kobo: number;
  /** The upstream a routed live order goes to first: its first attempt (docs/api.md "Upstream attempts"). */
  upstream?: string;
  /** Who the order is placed for: checked again here, in the command that debits (engine/authority.ts). */
  authority: Authority;
  /** When the order is expected to be final (services/promised-time.ts); absent: no promise (engine tests). */
  expected_final_us?: number;
}

// ---- The order index ------------------------------------------------------------------------------
//
// A filtered list of one account's orders (the dashboard's and the public history's, docs/api.md
// "History filters") must not read other orders: the store's order_index holds keys per order,
//   [account, environment, field, value, seq]
// so the orders of one account, environment and value are one contiguous range, newest last. A page
// is a reverse range read of keys (no order is decoded but those shown) and the total a key count.
// Fields service, status and service_status have no value (true). The recipient field's value is the
// order's "service/status": a recipient combined with a service or status reads that recipient's range
// with its values and still decodes no order. Four keys per order rather than one per combination of
// the three filters (seven): the purchase bench measured the three extra keys at about 15% more server
// CPU per purchase, and a recipient's range is as long as that recipient's orders, not the account's.
// Dates need no keys: seq grows with created_us within an account and environment, so a date range is
// a seq range, found by binary search. A field is added by listing it here and bumping
// order_index_version, which rebuilds the index at the next start (ensure_order_index).

export const order_index_version = 2;

/** Orders counted at most for one filtered page's total; beyond it the answer says truncated. */
export const order_filter_count_max = 1_000_000;

export type OrderIndexField = 'service' | 'status' | 'service_status' | 'recipient' | 'client_reference';

function index_entries(order: OrderRecord): [OrderIndexField, string, true | string][] {
  const { service_type: service, status } = order;
  const entries: [OrderIndexField, string, true | string][] = [['service', service, true], ['status', status, true], ['service_status', `${service}/${status}`, true], ['recipient', order.recipient, `${service}/${status}`]];
  // The client reference's key is its claim (see claim_of): written with the order, never moved or removed.
  if (order.client_reference != null) entries.push(['client_reference', order.client_reference, true]);
  return entries;
}

/** Index fields written once, when the order is first staged: their value never changes. */
function written_once(field: OrderIndexField): boolean {
  return field === 'service' || field === 'client_reference';
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
// 2 × count_block_seqs keys). Recipients are not counted so: a recipient's range is as long as that
// recipient's orders. Bound: 2 environments × 24 values × orders / count_block_seqs numbers per
// account. A reloaded account is a new actor object, so its counts (a WeakMap entry) start again.

export const count_block_seqs = 1024;
const range_counts = new WeakMap<AccountActor, Map<string, number[]>>();

function count_name(environment: Environment, field: OrderIndexField, value: string): string {
  return `${environment}/${field}/${value}`;
}

function adjust_count(actor: AccountActor, order: OrderRecord, field: OrderIndexField, value: string, delta: number): void {
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
function stage_order_index(actor: AccountActor, order: OrderRecord, previous: OrderRecord | undefined): void {
  const db = actor.engine.store.order_index;
  if (previous !== undefined) {
    if (previous.status === order.status) return;
    for (const [field, value] of index_entries(previous)) {
      if (field === 'status' || field === 'service_status') {
        actor.stage_remove(db, index_key(previous, field, value));
        adjust_count(actor, previous, field, value, -1);
      }
    }
  }
  for (const [field, value, stored] of index_entries(order)) {
    if (previous === undefined || !written_once(field)) {
      actor.stage_put(db, index_key(order, field, value), stored);
      if (field !== 'recipient' && field !== 'client_reference') adjust_count(actor, order, field, value, 1);
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

// ---- Client references -----------------------------------------------------------------------------
//
// A client reference is claimed by the command that debits (place_order), so two purchases with the
// same one, even at once, make exactly one order. The claim is the order's index key
// [account, environment, 'client_reference', value, seq], staged in the same commit as the order: it
// survives a restart and is rebuilt with the index. A claim staged but not yet durable is found through
// the journal (first_key_under answers with what is staged); a failed commit drops what it staged and
// replaces the actor (Engine.reload_actor), so a claim the store never got is free again.

/** The reference of the order that claimed this client reference in this environment, or null. */
export function claim_of(actor: AccountActor, environment: Environment, client_reference: string): string | null {
  const { journal, store } = actor.engine;
  const key = journal.first_key_under(store.order_index, [actor.id, environment, 'client_reference', client_reference]);
  if (key === undefined) return null;
  const seq = (key as (string | number)[])[4] as number;
  const order = journal.read(store.orders, [actor.id, environment, seq]) as OrderRecord | undefined;
  if (order === undefined) fail(`client reference ${client_reference} names missing order ${actor.id}/${environment}/${seq}`);
  return order.reference;
}

/** The seq of the committed order holding this client reference, or null. */
export function claimed_seq(store: Store, account_id: number, environment: Environment, client_reference: string): number | null {
  const prefix = [account_id, environment, 'client_reference', client_reference];
  for (const key of store.order_index.getKeys({ start: prefix, end: [...prefix, Number.MAX_SAFE_INTEGER], limit: 1 })) return (key as (string | number)[])[4] as number;
  return null;
}

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

/**
 * How the index answers a filter's service, status and recipient: a range of keys of one field and
 * value, and for a recipient combined with a service or status, the "service/status" its values must
 * match (null: every key of the range matches). Null when none of the three filters is set.
 */
export interface IndexPlan {
  field: OrderIndexField;
  value: string;
  match: ((stored: string) => boolean) | null;
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
    return { field: 'recipient', value: filter.recipient, match };
  }
  if (service !== null && status !== null) return { field: 'service_status', value: `${service}/${status}`, match: null };
  if (service !== null) return { field: 'service', value: service, match: null };
  if (status !== null) return { field: 'status', value: status, match: null };
  return null;
}

/**
 * The seqs of the orders matching the plan within [low, high], newest first, from offset on, at most
 * limit of them: one reverse range read of index keys (or arithmetic when nothing but dates filters).
 */
export function matching_seqs(store: Store, account_id: number, environment: Environment, plan: IndexPlan | null, low: number, high: number, offset: number, limit: number): number[] {
  const seqs: number[] = [];
  if (plan === null) {
    for (let seq = high - offset; seq >= low && seqs.length < limit; seq--) seqs.push(seq);
    return seqs;
  }
  const prefix = [account_id, environment, plan.field, plan.value];
  const range = { start: [...prefix, high], end: [...prefix, low - 1], reverse: true };
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
 * The per-block counts of a plan's range, built from the store the first time (null while the actor
 * has a commit in flight: staged keys would be missed by the build, and counted twice after).
 */
function block_counts(actor: AccountActor, environment: Environment, plan: IndexPlan): number[] | null {
  let counts = range_counts.get(actor);
  const name = count_name(environment, plan.field, plan.value);
  const known = counts?.get(name);
  if (known !== undefined) return known;
  if (actor.settled() !== null) return null;
  const blocks: number[] = [];
  const prefix = [actor.id, environment, plan.field, plan.value];
  for (const key of actor.engine.store.order_index.getKeys({ start: [...prefix, 0], end: [...prefix, Number.MAX_SAFE_INTEGER] })) {
    const block = Math.floor(((key as (string | number)[])[4] as number) / count_block_seqs);
    while (blocks.length <= block) blocks.push(0);
    blocks[block] += 1;
  }
  if (counts === undefined) range_counts.set(actor, counts = new Map());
  counts.set(name, blocks);
  return blocks;
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
  const blocks = actor === undefined || plan.field === 'recipient' ? null : block_counts(actor, environment, plan);
  const first = Math.floor(low / count_block_seqs);
  const last = Math.floor(high / count_block_seqs);
  if (blocks !== null && last - first >= 2) {
    let total = count_matching(store, account_id, environment, plan, low, (first + 1) * count_block_seqs - 1)
      + count_matching(store, account_id, environment, plan, last * count_block_seqs, high);
    for (let block = first + 1; block < last && block < blocks.length; block++) total += blocks[block];
    return Math.min(total, order_filter_count_max);
  }
  const prefix = [account_id, environment, plan.field, plan.value];
  const range = { start: [...prefix, low], end: [...prefix, high + 1] };
  if (plan.match === null) return count_index_range(store, prefix, low, high, order_filter_count_max);
  let count = 0;
  for (const { value } of store.order_index.getRange(range)) {
    if (plan.match(value as string) && ++count >= order_filter_count_max) break;
  }
  return count;
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
  const orders = offset < total ? matching_seqs(store, account_id, environment, plan, low, high, offset, per_page).map(read) : [];
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

export function stage_order(actor: AccountActor, order: OrderRecord): void {
  assert_order(order);
  const store = actor.engine.store;
  actor.stage_put(store.orders, [actor.id, order.environment, order.seq], order);
  stage_order_index(actor, order, actor.open_orders.get(order.reference));
  if (is_final(order.status)) {
    if (actor.open_orders.delete(order.reference)) actor.stage_remove(store.open_orders, order.reference);
  } else {
    if (!actor.open_orders.has(order.reference)) actor.stage_put(store.open_orders, order.reference, [actor.id, order.environment, order.seq]);
    actor.open_orders.set(order.reference, order);
  }
}

/**
 * Checks the KYC daily limit and the balance, then debits the wallet and creates the order as
 * pending, all in one command: 200 concurrent purchases against a wallet that affords 100 deliver
 * exactly 100, because each check and its debit run without interruption.
 */
export function place_order(actor: AccountActor, input: OrderRequest, placement: OrderPlacement, now_us: number, stage_pending = true): Outcome<OrderRecord> {
  const { environment, reference } = placement;
  const now_ms = Math.floor(now_us / 1000);
  const wallet = actor.wallets[environment];
  // First of all: a key revoked or a session ended while the request awaited pays for nothing, and is
  // answered as a request arriving with it now (docs/decisions.md "Authority at the debit").
  const denied = authority_refusal(actor, placement.authority, now_ms);
  if (denied !== null) return refused(denied);
  // Checked and claimed in this command, before the debit (docs/api.md "Client references").
  const client_reference = input.client_reference ?? null;
  if (client_reference !== null) {
    const existing = claim_of(actor, environment, client_reference);
    if (existing !== null) {
      return refused({ refusal: 'duplicate_client_reference', client_reference, reference: existing });
    }
  }
  // The wallet pays the discounted price: the daily limit and the balance are judged on it (docs/api.md "Pricing").
  const charged = input.amount_kobo - placement.commission_kobo;
  if (!(placement.commission_kobo >= 0 && charged > 0)) fail(`order ${reference} commission ${placement.commission_kobo} of ${input.amount_kobo}`);
  const { spent_kobo, limit_kobo } = actor.daily_spend(environment, now_ms);
  if (spent_kobo + charged > limit_kobo) {
    return refused({ refusal: 'daily_limit_exceeded', limit_kobo, left_kobo: Math.max(0, limit_kobo - spent_kobo) });
  }
  if (charged > wallet.balance_kobo) {
    return refused({ refusal: 'insufficient_funds', balance_kobo: wallet.balance_kobo, charged_kobo: charged });
  }
  if (actor.open_orders.size >= open_orders_max) {
    return refused({ refusal: 'open_orders_full' });
  }
  const today = lagos_day(now_ms);
  // Spend and order count first, so that the debit's single wallet write carries them too.
  if (wallet.spend_day !== today) {
    wallet.spend_day = today;
    wallet.spend_day_kobo = 0;
  }
  wallet.spend_day_kobo += charged;
  wallet.orders_count += 1;
  const entry = actor.append_entry(environment, 'debit', charged, reference, purchase_description(input), now_us);
  const order: OrderRecord = {
    reference,
    account_id: actor.id,
    environment,
    seq: wallet.orders_count,
    service_type: input.service_type,
    network: input.network,
    disco: input.disco,
    provider: input.provider,
    recipient: input.recipient,
    plan_code: input.plan_code,
    plan: input.plan,
    package_code: input.package_code,
    meter_type: input.meter_type,
    amount_kobo: input.amount_kobo,
    amount_charged_kobo: charged,
    commission_kobo: placement.commission_kobo,
    provider_commission_kobo: null,
    status: 'pending',
    token: null,
    units: null,
    customer_name: input.customer_name,
    wallet_balance_before_kobo: entry.balance_before_kobo,
    wallet_balance_after_kobo: entry.balance_after_kobo,
    failure_reason: null,
    reversed: false,
    created_us: now_us,
    updated_us: now_us,
    delivered_us: null,
    failed_us: null,
    reversed_us: null,
    status_history: [{ status: 'pending', at_us: now_us }],
    idempotency_key: placement.idempotency_key,
    provider_request_id: placement.provider_request_id,
    provider_reference: null,
    spend_day: today,
    requery_count: 0,
    next_requery_ms: 0,
    needs_review: false,
    client_reference,
    metadata: input.metadata ?? null,
  };
  if (placement.expected_final_us !== undefined) order.expected_final_us = placement.expected_final_us;
  if (input.quantity !== undefined) order.quantity = input.quantity;
  if (input.customer_id !== undefined) order.customer_id = input.customer_id;
  if (input.subscription_type !== undefined) order.subscription_type = input.subscription_type;
  if (input.foreign !== undefined) order.foreign = { ...input.foreign };
  if (placement.upstream !== undefined) {
    order.attempts = [{ upstream: placement.upstream, request_id: placement.provider_request_id, outcome: 'sent', at_us: now_us }];
    stage_provider_request(actor, order, placement.provider_request_id);
  }
  if (placement.indexed) actor.stage_put(actor.engine.store.order_refs, order.reference, [actor.id, order.environment, order.seq]);
  // An order paid in the same command (the sandbox) is written once, as it ends up; the caller stages it.
  if (stage_pending) stage_order(actor, order);
  actor.engine.emit(actor, order.environment, 'wallet.debited', { entry, order });
  check_low_balance(actor, order.environment, entry);
  return ok(order);
}

/** Purchased PINs are sealed before they reach the order record, so the store never holds them in plain text. */
function seal_pins(actor: AccountActor, pins: readonly { serial: string | null; pin: string }[]): string {
  return actor.engine.secret_box.seal(JSON.stringify(pins.map((p) => ({ serial: p.serial, pin: p.pin }))));
}

function with_status(order: OrderRecord, status: OrderStatus, now_us: number, changes: Partial<OrderRecord> = {}): OrderRecord {
  const base = changes.status_history ?? order.status_history;
  const history = order.status === status ? base : [...base, { status, at_us: now_us }];
  return { ...order, ...changes, status, status_history: history, updated_us: now_us };
}

/**
 * Applies a provider's answer to an open order. A final order ignores later answers (a late
 * callback after a re-query settled it), so each order is delivered or refunded exactly once.
 * Returns the order as it now stands.
 */
export function apply_provider_result(actor: AccountActor, reference: string, result: ProviderResult, now_us: number, not_found_is_final: boolean, unstaged?: OrderRecord): OrderRecord | null {
  const order = unstaged ?? actor.open_orders.get(reference);
  if (order === undefined) return null;
  if (unstaged !== undefined && result.outcome === 'delivered') {
    // Paid in the command that placed it (the sandbox): the order object is not staged nor shared
    // yet, so it becomes delivered in place rather than through a copy of its 35 fields.
    order.status = 'delivered';
    order.token = result.token ?? null;
    order.units = result.units ?? null;
    order.customer_name = result.customer_name ?? order.customer_name;
    order.provider_reference = result.provider_reference ?? null;
    order.provider_commission_kobo = result.provider_commission_kobo ?? order.provider_commission_kobo ?? null;
    if (result.pins) order.pins_sealed = seal_pins(actor, result.pins);
    order.delivered_us = now_us;
    order.updated_us = now_us;
    order.status_history.push({ status: 'processing', at_us: now_us }, { status: 'delivered', at_us: now_us });
    stage_order(actor, order);
    actor.engine.emit(actor, order.environment, 'transaction.completed', { order });
    return order;
  }
  switch (result.outcome) {
    case 'delivered': {
      const delivered = with_status(order, 'delivered', now_us, {
        token: result.token ?? order.token,
        units: result.units ?? order.units,
        customer_name: result.customer_name ?? order.customer_name,
        provider_reference: result.provider_reference ?? order.provider_reference,
        provider_commission_kobo: result.provider_commission_kobo ?? order.provider_commission_kobo ?? null,
        ...(result.pins ? { pins_sealed: seal_pins(actor, result.pins) } : {}),
        ...(result.bonus_token ? { bonus_token: result.bonus_token } : {}),
        ...(result.key_change_tokens && result.key_change_tokens.length > 0 ? { key_change_tokens: result.key_change_tokens } : {}),
        delivered_us: now_us,
        next_requery_ms: 0,
        status_history: ensure_processing(order, now_us),
        ...answered(order, 'delivered', now_us),
      });
      stage_order(actor, delivered);
      // A delivered live order is asked once more after 24 h, for a reversal whose callback never came.
      if (delivered.attempts !== undefined && delivered.attempts.length > 0) {
        actor.stage_put(actor.engine.store.reversal_checks, reversal_check_key(delivered), [actor.id, delivered.environment, delivered.seq]);
      }
      actor.engine.emit(actor, order.environment, 'transaction.completed', { order: delivered });
      return delivered;
    }
    case 'failed':
      return fail_and_refund(actor, { ...order, ...answered(order, 'failed', now_us) }, result.reason, now_us);
    case 'not_found':
      if (not_found_is_final) return fail_and_refund(actor, { ...order, ...answered(order, 'failed', now_us) }, 'The provider has no record of this order; it was not processed.', now_us);
      return mark_processing(actor, order, now_us, null);
    case 'processing':
      return mark_processing(actor, order, now_us, result.provider_reference ?? null, first_answer(order, 'processing', now_us));
    case 'unknown':
      return mark_processing(actor, order, now_us, null, first_answer(order, result.not_sent === true ? 'refused' : 'unknown', now_us));
  }
}

/** The attempts with the holder's (the last one's) outcome set, for a routed order; {} otherwise. */
function answered(order: OrderRecord, outcome: UpstreamAttempt['outcome'], _now_us: number): { attempts?: UpstreamAttempt[] } {
  const attempts = order.attempts;
  if (attempts === undefined || attempts.length === 0) return {};
  const last = attempts[attempts.length - 1];
  if (last.outcome === outcome) return {};
  return { attempts: [...attempts.slice(0, -1), { ...last, outcome }] };
}

/** Like answered(), but only the first answer to an attempt is kept while the order stays open. */
function first_answer(order: OrderRecord, outcome: UpstreamAttempt['outcome'], now_us: number): { attempts?: UpstreamAttempt[] } {
  const attempts = order.attempts;
  if (attempts === undefined || attempts.length === 0 || attempts[attempts.length - 1].outcome !== 'sent') return {};
  return answered(order, outcome, now_us);
}

/**
 * Failover (docs/decisions.md "Upstream routing and failover"): the holder refused the order before
 * processing it (a definite "not processed", a refused connection, an open circuit), so it moves to
 * the next upstream under the same reference and a new request id. Staged, and durable before the next
 * upstream is called: a restart then re-queries the new holder, never the one that refused.
 */
export function move_order_upstream(actor: AccountActor, order: OrderRecord, refusal: 'failed' | 'refused', upstream: string, request_id: string, now_us: number): OrderRecord {
  if (is_final(order.status)) fail(`order ${order.reference} moved upstream after it ended ${order.status}`);
  const attempts = order.attempts ?? [];
  const closed = attempts.length === 0 ? [] : [...attempts.slice(0, -1), { ...attempts[attempts.length - 1], outcome: refusal }];
  const next = with_status(order, 'processing', now_us, {
    provider_request_id: request_id,
    provider_reference: null,
    attempts: [...closed, { upstream, request_id, outcome: 'sent', at_us: now_us }],
  });
  stage_order(actor, next);
  stage_provider_request(actor, next, request_id);
  if (order.status === 'pending') actor.engine.emit(actor, order.environment, 'transaction.processing', { order: next });
  return next;
}

function ensure_processing(order: OrderRecord, now_us: number): OrderRecord['status_history'] {
  return order.status_history.some((h) => h.status === 'processing')
    ? order.status_history
    : [...order.status_history, { status: 'processing' as const, at_us: now_us }];
}

/** The order has been handed to the provider (or its answer is not known yet). */
export function mark_processing(actor: AccountActor, order: OrderRecord, now_us: number, provider_reference: string | null, changes: { attempts?: UpstreamAttempt[] } = {}): OrderRecord {
  if (order.status === 'processing' && provider_reference === null && changes.attempts === undefined && actor.open_orders.has(order.reference)) return order;
  const next = with_status(order, 'processing', now_us, { provider_reference: provider_reference ?? order.provider_reference, ...changes });
  stage_order(actor, next);
  if (order.status === 'pending') actor.engine.emit(actor, order.environment, 'transaction.processing', { order: next });
  return next;
}

/** Records the re-query schedule of an order that is still open. */
export function schedule_order_requery(actor: AccountActor, order: OrderRecord, next_requery_ms: number, needs_review: boolean): OrderRecord {
  // An escalated order stays in review while its re-queries go on (docs/api.md "A promised time").
  const next: OrderRecord = { ...order, requery_count: order.requery_count + (needs_review ? 0 : 1), next_requery_ms, needs_review: needs_review || order.needs_review };
  stage_order(actor, next);
  return next;
}

/**
 * Escalates an open order that passed its promised time without an answer (docs/api.md "A promised time"):
 * it goes to the operator's review, its promise becomes the operator's decision (review_by_us, 24 hours
 * after its creation), and the reseller hears of it (transaction.delayed). Once per order.
 */
export function escalate_order(actor: AccountActor, order: OrderRecord, review_by_us: number, now_us: number): OrderRecord {
  if (is_final(order.status)) fail(`order ${order.reference} escalated after it ended ${order.status}`);
  if (order.delayed_us !== undefined) return order;
  const next: OrderRecord = { ...order, needs_review: true, delayed_us: now_us, expected_final_us: Math.max(review_by_us, order.expected_final_us ?? 0) };
  stage_order(actor, next);
  actor.engine.emit(actor, order.environment, 'transaction.delayed', { order: next });
  return next;
}

/**
 * Fails an order and refunds it in the same command: a reversal entry of exactly what was debited, the day's
 * spend given back when the debit counted today. `reversed` makes a second refund impossible.
 */
export function fail_and_refund(actor: AccountActor, order: OrderRecord, reason: string, now_us: number, sent = true): OrderRecord {
  if (order.reversed) fail(`order ${order.reference} refunded twice`);
  const refund_kobo = charged_kobo(order);
  const entry = actor.append_entry(order.environment, 'reversal', refund_kobo, order.reference, refund_description(order, 'failed'), now_us);
  const wallet = actor.wallets[order.environment];
  if (wallet.spend_day === order.spend_day) {
    wallet.spend_day_kobo = Math.max(0, wallet.spend_day_kobo - refund_kobo);
    actor.stage_wallet(order.environment);
  }
  const failed_order = with_status(order, 'failed', now_us, {
    failure_reason: reason,
    failed_us: now_us,
    reversed: true,
    reversed_us: now_us,
    next_requery_ms: 0,
    // An order cancelled before it was sent never was processing: its history says pending, then failed.
    status_history: sent ? ensure_processing(order, now_us) : order.status_history,
  });
  stage_order(actor, failed_order);
  actor.engine.emit(actor, order.environment, 'transaction.failed', { order: failed_order });
  actor.engine.emit(actor, order.environment, 'wallet.reversed', { entry, order: failed_order });
  return failed_order;
}

/**
 * The reseller cancels a bulk item not yet sent (docs/api.md "Cancel before sending"): refunded in this command,
 * one record with its reversal entry, as every refund. The order desk checks that the item waits in its send
 * lane; here only its status is checked: a pending order has not been handed to an upstream.
 */
export const cancelled_reason = 'cancelled';

export function cancel_order(actor: AccountActor, reference: string, now_us: number): Outcome<OrderRecord> {
  const order = actor.open_orders.get(reference);
  if (order === undefined) return refused({ refusal: 'order_not_open' });
  if (order.status !== 'pending') return refused({ refusal: 'order_not_cancellable', status: order.status });
  return ok(fail_and_refund(actor, order, cancelled_reason, now_us, false));
}

/** Operator decision on an order that had no answer for 24 hours. */
export function resolve_order(actor: AccountActor, reference: string, outcome: 'delivered' | 'failed', now_us: number): Outcome<OrderRecord> {
  const order = actor.open_orders.get(reference);
  if (order === undefined) return refused({ refusal: 'order_not_open' });
  const result: ProviderResult = outcome === 'delivered'
    ? { outcome: 'delivered' }
    : { outcome: 'failed', reason: 'Failed by the operator after the provider gave no answer.' };
  return ok(apply_provider_result(actor, reference, result, now_us, true)!);
}


// ---- Reversals after delivery ----------------------------------------------------------------------
//
// An upstream may reverse a purchase it delivered (VTpass: status "reversed", code 040, pushed by its
// transaction-update callback or read by a re-query; docs/upstreams.md "Callbacks and reversals"). The
// services read it from the upstream itself, never from a callback's body, and hand it here.

/** The request id an upstream knows the order by, so that its callback finds the order (store.provider_requests). */
function stage_provider_request(actor: AccountActor, order: OrderRecord, request_id: string): void {
  actor.stage_put(actor.engine.store.provider_requests, request_id, [actor.id, order.environment, order.seq]);
}

/**
 * Refunds a delivered order its upstream reversed: one reversal wallet entry of what was debited, the
 * order failed with `reversed` set, transaction.reversed and wallet.reversed. Null when the order is not
 * delivered (still open, already failed, or already reversed): a reversal is refunded exactly once.
 */
export function reverse_delivered_order(actor: AccountActor, environment: Environment, seq: number, reason: string, now_us: number): OrderRecord | null {
  const store = actor.engine.store;
  const order = actor.engine.journal.read(store.orders, [actor.id, environment, seq]) as OrderRecord | undefined;
  if (order === undefined || order.status !== 'delivered' || order.reversed) return null;
  const refund_kobo = charged_kobo(order);
  const entry = actor.append_entry(environment, 'reversal', refund_kobo, order.reference, refund_description(order, 'reversed'), now_us);
  const wallet = actor.wallets[environment];
  if (wallet.spend_day === order.spend_day) {
    wallet.spend_day_kobo = Math.max(0, wallet.spend_day_kobo - refund_kobo);
    actor.stage_wallet(environment);
  }
  const reversed = with_status(order, 'failed', now_us, { failure_reason: reason, failed_us: now_us, reversed: true, reversed_us: now_us, next_requery_ms: 0 });
  assert_order(reversed);
  actor.stage_put(store.orders, [actor.id, environment, seq], reversed);
  stage_order_index(actor, reversed, order);
  if (order.delivered_us !== null) actor.stage_remove(store.reversal_checks, reversal_check_key(order));
  actor.engine.emit(actor, environment, 'transaction.reversed', { order: reversed });
  actor.engine.emit(actor, environment, 'wallet.reversed', { entry, order: reversed });
  return reversed;
}

/**
 * The key of a delivered order's 24 h re-query in store.reversal_checks: [delivered ms, reference], so that
 * the checks due by an instant are one range read from the start (services/upstreams/upstream-callbacks.ts).
 */
export function reversal_check_key(order: Pick<OrderRecord, 'delivered_us' | 'reference'>): [number, string] {
  return [Math.floor((order.delivered_us ?? 0) / 1000), order.reference];
}

/** The 24 h re-query of a delivered order is done: it is not asked again. */
export function close_reversal_check(actor: AccountActor, key: [number, string]): void {
  if (actor.engine.journal.read(actor.engine.store.reversal_checks, key) !== undefined) actor.stage_remove(actor.engine.store.reversal_checks, key);
}
