// The dashboard's wallet history (docs/api.md "Dashboard and documentation"): its filters (entry type,
// Africa/Lagos dates) and a page of the entries that match them, read by the entries' numbers.
import type { Deps } from '../front/deps.js';
import { invalid, type ApiError } from '../errors.js';
import { day_param } from '../front/order-query.js';
import { lagos_day } from '../lib/time-format.js';
import type { AccountActor } from '../engine/account-actor.js';
import type { Environment, WalletEntry, WalletEntryType } from '../engine/records.js';
import { fail } from '../lib/assert.js';
import { dashboard_slice_rows, next_turn } from './read-slices.js';

/** Most wallet entries read to answer one filtered page of the wallet history (or its export). */
export const wallet_entries_scanned_max = 20_000;

export interface WalletQuery {
  type: WalletEntryType | null;
  from_day: number | null;
  to_day: number | null;
}

/** The wallet history's filters (entry type, Africa/Lagos dates), from the query string. */
export function parse_wallet_query(params: URLSearchParams): WalletQuery | ApiError {
  const type = params.get('type');
  if (type !== null && type !== '' && !['credit', 'debit', 'reversal'].includes(type)) return invalid('type', 'must be credit, debit or reversal');
  const from = day_param(params.get('from'), 'from');
  const to = day_param(params.get('to'), 'to');
  if (from !== null && typeof from === 'object') return from;
  if (to !== null && typeof to === 'object') return to;
  return { type: type ? type as WalletEntryType : null, from_day: from, to_day: to };
}

/**
 * The seqs [oldest, newest] of the entries within the query's dates, among the first `total`: the
 * count read when the request arrived, before it waited for the account's commit, so that every entry
 * it names is in the store (one staged meanwhile is not, and the binary search would find it missing).
 */
export function wallet_seq_range(store: Deps['engine']['store'], actor: AccountActor, environment: Environment, query: WalletQuery, total: number): [number, number] {
  const day_of = (seq: number) => {
    const entry = store.wallet_entries.get([actor.id, environment, seq]) as WalletEntry | undefined;
    if (entry === undefined) fail(`wallet ${actor.id}/${environment} is missing entry ${seq}`);
    return lagos_day(Math.floor(entry.created_us / 1000));
  };
  // The first entry whose day is at least `day` (total + 1 when none is).
  const first_from = (day: number) => {
    let low = 1;
    let high = total + 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (day_of(middle) >= day) high = middle;
      else low = middle + 1;
    }
    return low;
  };
  const oldest = query.from_day === null ? 1 : first_from(query.from_day);
  const newest = query.to_day === null ? total : first_from(query.to_day + 1) - 1;
  return [oldest, newest];
}

/**
 * A page of the wallet history matching the filters, newest first. Entries are numbered 1..total in
 * time order, so the date range becomes a range of numbers by two binary searches (about 2 × 20
 * reads); only the type is matched entry by entry, over at most wallet_entries_scanned_max of them
 * (truncated says when older ones were left out).
 */
export async function find_wallet_entries(store: Deps['engine']['store'], actor: AccountActor, environment: Environment, query: WalletQuery, entries_count: number, page: number, per_page: number, gone: () => boolean): Promise<{ entries: WalletEntry[]; total: number; truncated: boolean }> {
  const [oldest, newest] = wallet_seq_range(store, actor, environment, query, entries_count);
  if (query.type === null) {
    const count = Math.max(0, newest - oldest + 1);
    const top = newest - (page - 1) * per_page;
    const entries: WalletEntry[] = [];
    if (top >= oldest) {
      const bottom = Math.max(oldest, top - per_page + 1);
      for (const { value } of store.wallet_entries.getRange({ start: [actor.id, environment, top], end: [actor.id, environment, bottom - 1], reverse: true })) entries.push(value as WalletEntry);
    }
    return { entries, total: count, truncated: false };
  }
  const skip = (page - 1) * per_page;
  const entries: WalletEntry[] = [];
  let matched = 0;
  let scanned = 0;
  let truncated = false;
  // dashboard_slice_rows entries per event-loop turn, as the exports (up to 20,000 entries in one step).
  for (let top = newest; top >= oldest; ) {
    if (scanned >= wallet_entries_scanned_max) {
      truncated = true;
      break;
    }
    if (scanned > 0) {
      await next_turn();
      if (gone()) break;
    }
    const bottom = Math.max(oldest, top - dashboard_slice_rows + 1, top - (wallet_entries_scanned_max - scanned) + 1);
    for (const { value } of store.wallet_entries.getRange({ start: [actor.id, environment, top], end: [actor.id, environment, bottom - 1], reverse: true })) {
      scanned++;
      const entry = value as WalletEntry;
      if (entry.type !== query.type) continue;
      if (matched >= skip && entries.length < per_page) entries.push(entry);
      matched++;
    }
    top = bottom - 1;
  }
  return { entries, total: matched, truncated };
}

