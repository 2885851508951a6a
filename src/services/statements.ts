// Daily statements (docs/api.md "Statements", docs/decisions.md "Statements"): one wallet's Africa/Lagos
// day, read from its wallet entries. Entries are numbered 1..entries_count in time order, so a day is a
// range of numbers found by two binary searches; the range is then read dashboard_slice_rows-style, a
// slice per event-loop turn, so that one tenant's busy day does not hold the loop for others
// (docs/operations.md "Nothing long on the event loop"). Amounts stay integer kobo until the view.
import { readable_description } from '../engine/entry-descriptions.js';
import { assert_entry, type Environment, type WalletEntry, type WalletEntryType } from '../engine/records.js';
import type { Key, Store } from '../journal/store.js';
import { charged_kobo, commission_of, service_type_names, type OrderRecord, type ServiceType } from './order.js';
import { lagos_day, lagos_day_end_ms } from '../lib/time-format.js';
import { fail } from '../lib/assert.js';

/** Entries read per event-loop turn (as the dashboard's exports: a few milliseconds each). */
export const statement_slice_rows = 250;
/**
 * The defaults of the statement bounds (src/config.ts: STATEMENT_ENTRIES_MAX, STATEMENT_PDF_ENTRIES_MAX,
 * STATEMENT_BUILDS_MAX); the server reads its bounds from the configuration.
 */
export { statement_builds_max, statement_entries_max, statement_pdf_entries_max } from '../config.js';

export interface StatementLine {
  id: number;
  type: WalletEntryType;
  amount_kobo: number;
  reference: string;
  balance_before_kobo: number;
  balance_after_kobo: number;
  created_us: number;
  description: string;
  /** The order's service for a debit or a reversal; null for a credit. */
  service_type: ServiceType | null;
  /** The order's face value (what the recipient got) for a debit or a reversal; null for a credit. */
  face_value_kobo: number | null;
  /** The commission the debit netted (a reversal gives it up); null for a credit. */
  commission_kobo: number | null;
}

export interface Sum {
  count: number;
  amount_kobo: number;
}

export interface ServiceSums {
  service_type: ServiceType;
  debits: Sum;
  reversals: Sum;
  /** Face value of the debits. */
  face_value_kobo: number;
  /** Commission of the debits less the commission of the reversals: what the day earned. */
  commission_kobo: number;
}

export interface StatementData {
  scope: { kind: 'account'; account_id: number; account_name: string } | { kind: 'platform'; accounts: number };
  environment: Environment;
  /** Days since the epoch of the Lagos day. */
  day: number;
  date: string;
  /** The day is over (an earlier day); today's statement is provisional. */
  final: boolean;
  from_us: number;
  to_us: number;
  generated_us: number;
  opening_kobo: number;
  closing_kobo: number;
  lines: StatementLine[];
  /** transfer_in and transfer_out: money moved between a parent and its agent (docs/api.md "Agents"). */
  by_type: { credit: Sum; debit: Sum; reversal: Sum; commission: Sum; transfer_in: Sum; transfer_out: Sum; agent_commission: Sum; commission_reversal: Sum };
  by_service: ServiceSums[];
}

export function lagos_day_start_us(day: number): number {
  return lagos_day_end_ms(day - 1) * 1000;
}

/** YYYY-MM-DD of a Lagos day. */
export function day_text(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

function read_entry(store: Store, account_id: number, environment: Environment, seq: number): WalletEntry {
  const entry = store.wallet_entries.get([account_id, environment, seq]) as WalletEntry | undefined;
  if (entry === undefined) fail(`wallet ${account_id}/${environment} is missing entry ${seq}`);
  assert_entry(entry);
  return entry;
}

/**
 * The entries of the day among the first `total`: [low, high] (high < low when none), and the opening
 * balance (the balance after the last entry before the day, 0 when there is none).
 */
export function day_range(store: Store, account_id: number, environment: Environment, total: number, day: number): { low: number; high: number; opening_kobo: number; closing_kobo: number } {
  const first_from = (from_day: number) => {
    let low = 1;
    let high = total + 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (lagos_day(Math.floor(read_entry(store, account_id, environment, middle).created_us / 1000)) >= from_day) high = middle;
      else low = middle + 1;
    }
    return low;
  };
  const low = first_from(day);
  const high = first_from(day + 1) - 1;
  const opening_kobo = low > 1 ? read_entry(store, account_id, environment, low - 1).balance_after_kobo : 0;
  const closing_kobo = high >= low ? read_entry(store, account_id, environment, high).balance_after_kobo : opening_kobo;
  return { low, high, opening_kobo, closing_kobo };
}

export function empty_sums(): StatementData['by_type'] {
  return {
    credit: { count: 0, amount_kobo: 0 }, debit: { count: 0, amount_kobo: 0 }, reversal: { count: 0, amount_kobo: 0 }, commission: { count: 0, amount_kobo: 0 },
    transfer_in: { count: 0, amount_kobo: 0 }, transfer_out: { count: 0, amount_kobo: 0 },
    agent_commission: { count: 0, amount_kobo: 0 }, commission_reversal: { count: 0, amount_kobo: 0 },
  };
}

/** Adds one line to the day's sums: by entry type, and by service for an order's debit or reversal. */
export function add_line(by_type: StatementData['by_type'], by_service: Map<ServiceType, ServiceSums>, line: StatementLine): void {
  // commission entries (an ancestor's earning on its agent's order) sum apart from `commission`, the day's own discount.
  const sum = by_type[line.type === 'commission' ? 'agent_commission' : line.type];
  sum.count++;
  sum.amount_kobo += line.amount_kobo;
  if (line.service_type === null) return;
  let service = by_service.get(line.service_type);
  if (service === undefined) {
    service = { service_type: line.service_type, debits: { count: 0, amount_kobo: 0 }, reversals: { count: 0, amount_kobo: 0 }, face_value_kobo: 0, commission_kobo: 0 };
    by_service.set(line.service_type, service);
  }
  const commission = line.commission_kobo ?? 0;
  if (line.type === 'debit') {
    service.debits.count++;
    service.debits.amount_kobo += line.amount_kobo;
    service.face_value_kobo += line.face_value_kobo ?? 0;
    service.commission_kobo += commission;
    by_type.commission.amount_kobo += commission;
    if (commission > 0) by_type.commission.count++;
  } else if (line.type === 'reversal') {
    service.reversals.count++;
    service.reversals.amount_kobo += line.amount_kobo;
    // A refunded order earns no commission: the reversal gives back what was debited, net of it.
    service.commission_kobo -= commission;
    by_type.commission.amount_kobo -= commission;
  }
}

/** The services in the catalogue's order. */
export function services_in_order(by_service: Map<ServiceType, ServiceSums>): ServiceSums[] {
  return service_type_names.filter((name) => by_service.has(name)).map((name) => by_service.get(name)!);
}

/** The line of one wallet entry: a debit or a reversal names its order (found by reference). */
export function line_of(entry: WalletEntry, find_order: (reference: string) => OrderRecord | null): StatementLine {
  // Only a purchase's debit and its refund name an order; a credit's or a transfer's reference is its own.
  const order = entry.type === 'debit' || entry.type === 'reversal' ? find_order(entry.reference) : null;
  if (order !== null && charged_kobo(order) !== entry.amount_kobo) fail(`entry ${entry.id} amount differs from order ${order.reference}'s charge`);
  return {
    id: entry.id,
    type: entry.type,
    amount_kobo: entry.amount_kobo,
    reference: entry.reference,
    balance_before_kobo: entry.balance_before_kobo,
    balance_after_kobo: entry.balance_after_kobo,
    created_us: entry.created_us,
    description: readable_description(entry, order),
    service_type: order === null ? null : order.service_type,
    face_value_kobo: order === null ? null : order.amount_kobo,
    commission_kobo: order === null ? null : commission_of(order),
  };
}

/** Whether the sums explain the balances: opening + credits − debits + reversals = closing. */
export function check_balances(data: StatementData): void {
  const { credit, debit, reversal, transfer_in, transfer_out, agent_commission, commission_reversal } = data.by_type;
  if (data.opening_kobo + credit.amount_kobo - debit.amount_kobo + reversal.amount_kobo + transfer_in.amount_kobo - transfer_out.amount_kobo + agent_commission.amount_kobo - commission_reversal.amount_kobo !== data.closing_kobo) {
    fail(`statement ${data.date}: opening ${data.opening_kobo} + entries != closing ${data.closing_kobo}`);
  }
}

export interface AccountDayInput {
  store: Store;
  account_id: number;
  account_name: string;
  environment: Environment;
  /** The wallet's entries_count when the request arrived: entries staged later are not in the store yet. */
  total: number;
  day: number;
  now_us: number;
  find_order: (reference: string) => OrderRecord | null;
  /** Waits for the next event-loop turn. */
  next_turn: () => Promise<void>;
  /** The client went away: stop reading. */
  gone: () => boolean;
}

/** The day's statement of one wallet, or the number of entries when it holds more than entries_max. */
export async function account_statement(input: AccountDayInput, entries_max: number): Promise<StatementData | { too_many: number } | null> {
  const { store, account_id, environment, day } = input;
  const range = day_range(store, account_id, environment, input.total, day);
  const count = Math.max(0, range.high - range.low + 1);
  if (count > entries_max) return { too_many: count };
  const lines: StatementLine[] = [];
  const by_type = empty_sums();
  const by_service = new Map<ServiceType, ServiceSums>();
  for (let from = range.low; from <= range.high; from += statement_slice_rows) {
    if (from > range.low) {
      await input.next_turn();
      if (input.gone()) return null;
    }
    const to = Math.min(range.high, from + statement_slice_rows - 1);
    for (const { value } of store.wallet_entries.getRange({ start: [account_id, environment, from], end: [account_id, environment, to + 1] })) {
      const entry = value as WalletEntry;
      assert_entry(entry);
      const line = line_of(entry, input.find_order);
      lines.push(line);
      add_line(by_type, by_service, line);
    }
  }
  if (lines.length !== count) fail(`wallet ${account_id}/${environment} is missing entries ${range.low}..${range.high}`);
  const today = lagos_day(Math.floor(input.now_us / 1000));
  const data: StatementData = {
    scope: { kind: 'account', account_id, account_name: input.account_name },
    environment,
    day,
    date: day_text(day),
    final: day < today,
    from_us: lagos_day_start_us(day),
    to_us: lagos_day_start_us(day + 1),
    generated_us: input.now_us,
    opening_kobo: range.opening_kobo,
    closing_kobo: range.closing_kobo,
    lines,
    by_type,
    by_service: services_in_order(by_service),
  };
  check_balances(data);
  return data;
}

/** One account's day in the operator's platform statement. */
export interface AccountDayRow {
  account_id: number;
  opening_kobo: number;
  closing_kobo: number;
  by_type: StatementData['by_type'];
}

/** Accounts listed at most in a platform statement (those with entries on the day); totals count every account. */
export const platform_accounts_listed_max = 10_000;
/** Wallets examined per event-loop turn by the platform statement (two binary searches each). */
export const platform_slice_wallets = 100;

export interface PlatformStatement extends StatementData {
  accounts: AccountDayRow[];
  accounts_truncated: boolean;
}

/**
 * The operator's statement of a day over every wallet of an environment: opening and closing balances
 * summed, the day's sums by entry type and service, and one row per account with entries that day.
 * Read from the store after the journal is durable (the caller waits), a slice of wallets per turn.
 */
export async function platform_statement(
  store: Store, environment: Environment, day: number, now_us: number,
  find_order: (reference: string) => OrderRecord | null, next_turn: () => Promise<void>, gone: () => boolean,
): Promise<PlatformStatement | null> {
  const by_type = empty_sums();
  const by_service = new Map<ServiceType, ServiceSums>();
  const accounts: AccountDayRow[] = [];
  let truncated = false;
  let wallets = 0;
  let opening_kobo = 0;
  let closing_kobo = 0;
  let examined = 0;
  const end_us = lagos_day_start_us(day + 1);
  // A slice of wallets per turn, each slice a range read of its own that starts after the last key seen:
  // no cursor is held across a turn of the event loop (lmdb-js renews its read transaction between turns).
  let after: Key | null = null;
  for (;;) {
    const slice: { account_id: number; environment: Environment; entries_count: number }[] = [];
    for (const { key, value } of store.wallets.getRange(after === null ? { limit: platform_slice_wallets } : { start: after, limit: platform_slice_wallets + 1 })) {
      if (after !== null && JSON.stringify(key) === JSON.stringify(after)) continue;
      after = key as Key;
      slice.push(value);
    }
    if (slice.length === 0) break;
    if (examined > 0) {
      await next_turn();
      if (gone()) return null;
    }
    examined += slice.length;
    for (const wallet of slice) {
      if (wallet.environment !== environment) continue;
      wallets++;
      if (wallet.entries_count === 0) continue;
      const range = day_range(store, wallet.account_id, environment, wallet.entries_count, day);
      opening_kobo += range.opening_kobo;
      closing_kobo += range.closing_kobo;
      if (range.high < range.low) continue;
      const row: AccountDayRow = { account_id: wallet.account_id, opening_kobo: range.opening_kobo, closing_kobo: range.closing_kobo, by_type: empty_sums() };
      // The row keeps its sums by type only: its services go to the platform's totals.
      const row_services = new Map<ServiceType, ServiceSums>();
      for (let from = range.low; from <= range.high; from += statement_slice_rows) {
        if (from > range.low) await next_turn();
        const to = Math.min(range.high, from + statement_slice_rows - 1);
        for (const { value: stored } of store.wallet_entries.getRange({ start: [wallet.account_id, environment, from], end: [wallet.account_id, environment, to + 1] })) {
          const entry = stored as WalletEntry;
          assert_entry(entry);
          if (entry.created_us >= end_us) fail(`entry ${entry.id} of wallet ${wallet.account_id} is past the day`);
          const line = line_of(entry, find_order);
          add_line(by_type, by_service, line);
          add_line(row.by_type, row_services, line);
        }
      }
      if (accounts.length < platform_accounts_listed_max) accounts.push(row);
      else truncated = true;
    }
  }
  const today = lagos_day(Math.floor(now_us / 1000));
  const data: PlatformStatement = {
    scope: { kind: 'platform', accounts: wallets },
    environment,
    day,
    date: day_text(day),
    final: day < today,
    from_us: lagos_day_start_us(day),
    to_us: end_us,
    generated_us: now_us,
    opening_kobo,
    closing_kobo,
    lines: [],
    by_type,
    by_service: services_in_order(by_service),
    accounts,
    accounts_truncated: truncated,
  };
  check_balances(data);
  return data;
}
