// The dashboard's CSV downloads (docs/api.md "Dashboard and documentation"): the filtered orders and the
// filtered wallet history, streamed a slice at a time as the API's export is (front/streamed-reply.ts).
import type { Deps } from '../front/deps.js';
import type { RouteDef } from '../front/route.js';
import { error_reply, type BodyStream, type Reply } from '../lib/reply.js';
import { wallet_entry_view } from '../front/views.js';
import { query_params } from '../front/request-helpers.js';
import { dashboard_order_query, parse_order_query } from '../front/order-query.js';
import { kobo_to_naira } from '../lib/money.js';
import { csv_content_type, csv_download_headers, csv_line } from '../lib/csv.js';
import { iso_us } from '../lib/time-format.js';
import { charged_kobo, commission_of, type OrderRecord } from '../services/order.js';
import { index_plan_of, matching_seqs, seq_range, type OrderFilter } from '../engine/order-history.js';
import type { OrderDesk } from '../services/order-desk.js';
import type { AccountActor } from '../engine/account-actor.js';
import type { Environment, WalletEntry } from '../engine/records.js';
import { dashboard_doc as doc } from './route-doc.js';
import { dashboard_slice_rows } from './read-slices.js';
import { orders_searched_max, order_search } from './order-search.js';
import { parse_wallet_query, wallet_entries_scanned_max, wallet_seq_range, type WalletQuery } from './wallet-history.js';

/** Most rows in one CSV export. */
export const export_rows_max = 10_000;

const order_export_header = ['reference', 'service', 'provider', 'plan', 'recipient', 'customer_name', 'amount', 'status', 'token', 'units', 'created_at', 'amount_charged', 'commission', 'client_reference', 'metadata'];
const wallet_export_header = ['id', 'type', 'amount', 'balance_before', 'balance_after', 'reference', 'description', 'created_at'];

function order_export_line(o: OrderRecord): string {
  return csv_line([
    o.reference, o.service_type, o.network ?? o.disco ?? o.provider ?? '', o.plan ?? '', o.recipient, o.customer_name ?? '',
    kobo_to_naira(o.amount_kobo).toFixed(2), o.status, o.token ?? '', o.units ?? '', iso_us(o.created_us),
    kobo_to_naira(charged_kobo(o)).toFixed(2), kobo_to_naira(commission_of(o)).toFixed(2),
    // The reseller's own reference and notes, as the API's export writes them (docs/api.md "Transactions export").
    o.client_reference ?? '', o.metadata == null ? '' : JSON.stringify(o.metadata),
  ]);
}

/**
 * The orders export's rows, newest first: the filtered orders from the index, dashboard_slice_rows
 * read per chunk, each chunk read below the last one's lowest seq (nothing else held). With a number
 * to search, the newest orders_searched_max of the filtered range are read, as the list does; at most
 * export_rows_max rows. orders_count is the count when the request arrived (see wallet_seq_range).
 */
function orders_export_stream(store: Deps['engine']['store'], actor: AccountActor, environment: Environment, orders_count: number, filter: OrderFilter, search: string | null): BodyStream {
  const [low, high] = seq_range(store, actor.id, environment, orders_count, filter);
  const plan = index_plan_of(filter);
  let below = high;
  let rows = 0;
  let scanned = 0;
  return {
    next: () => {
      if (below < low || rows >= export_rows_max || (search !== null && scanned >= orders_searched_max)) return null;
      const limit = Math.min(dashboard_slice_rows, search === null ? export_rows_max - rows : orders_searched_max - scanned);
      const seqs = matching_seqs(store, actor.id, environment, plan, low, below, 0, limit);
      if (seqs.length === 0) {
        below = low - 1;
        return null;
      }
      below = seqs[seqs.length - 1] - 1;
      let text = '';
      for (const seq of seqs) {
        scanned++;
        const stored = store.orders.get([actor.id, environment, seq]) as OrderRecord;
        // An open order may have moved on since its last commit became visible: shown as it stands.
        const order = actor.open_orders.get(stored.reference) ?? stored;
        if (search !== null && !order.recipient.includes(search)) continue;
        text += order_export_line(order);
        rows++;
      }
      return text;
    },
  };
}

/**
 * The wallet export's rows, newest first, dashboard_slice_rows entries read per chunk (the front end
 * asks for one chunk per event-loop turn, and none while the client's socket is full); at most
 * export_rows_max rows, and with a type filter at most wallet_entries_scanned_max entries read, as the
 * history's pages.
 */
function wallet_export_stream(store: Deps['engine']['store'], actor: AccountActor, environment: Environment, query: WalletQuery, entries_count: number): BodyStream {
  const [oldest, newest] = wallet_seq_range(store, actor, environment, query, entries_count);
  let top = newest;
  let rows = 0;
  let scanned = 0;
  return {
    next: () => {
      if (top < oldest || rows >= export_rows_max || (query.type !== null && scanned >= wallet_entries_scanned_max)) return null;
      // Filtered by type, no more than wallet_entries_scanned_max entries are read in all.
      const bottom = Math.max(oldest, top - dashboard_slice_rows + 1, query.type === null ? oldest : top - (wallet_entries_scanned_max - scanned) + 1);
      let text = '';
      for (const { value } of store.wallet_entries.getRange({ start: [actor.id, environment, top], end: [actor.id, environment, bottom - 1], reverse: true })) {
        scanned++;
        const entry = value as WalletEntry;
        if (query.type !== null && entry.type !== query.type) continue;
        if (rows >= export_rows_max) break;
        const e = wallet_entry_view(entry);
        text += csv_line([String(e.id), e.type, e.amount.toFixed(2), e.balance_before.toFixed(2), e.balance_after.toFixed(2), e.reference, e.description, e.created_at]);
        rows++;
      }
      top = bottom - 1;
      return text;
    },
  };
}

function csv_reply(filename: string, body: string): Reply {
  return { status: 200, body, content_type: csv_content_type, headers: csv_download_headers(filename) };
}

export function export_session_routes(deps: Deps, desk: OrderDesk): RouteDef[] {
  const { engine } = deps;
  const { named_order } = order_search(engine, desk);
  return [
    {
      method: 'get',
      path: '/dashboard/api/export/orders',
      auth: 'session',
      doc: { ...doc('The filtered orders as CSV (a download)'), content_type: 'text/csv' },
      handler: async (ctx) => {
        const query = parse_order_query(query_params(ctx), dashboard_order_query);
        if ('code' in query) return error_reply(ctx.request_id, query);
        const actor = ctx.actor!;
        const orders_count = actor.wallets[ctx.environment].orders_count;
        await actor.settled();
        const filter = query.filter;
        const filename = `billvend-${ctx.environment}-orders.csv`;
        const named = query.q === null ? null : named_order(ctx, query.q, filter);
        if (named !== null) return csv_reply(filename, [csv_line(order_export_header), ...named.map(order_export_line)].join(''));
        // Streamed as the API's export is (front/streamed-reply.ts): backpressure, one slice per turn.
        return { ...csv_reply(filename, csv_line(order_export_header)), stream: orders_export_stream(engine.store, actor, ctx.environment, orders_count, filter, query.q) };
      },
    },
    {
      method: 'get',
      path: '/dashboard/api/export/wallet',
      auth: 'session',
      doc: { ...doc('The filtered wallet history as CSV (a download)'), content_type: 'text/csv' },
      handler: async (ctx) => {
        const query = parse_wallet_query(query_params(ctx));
        if ('code' in query) return error_reply(ctx.request_id, query);
        const actor = ctx.actor!;
        const entries_count = actor.wallets[ctx.environment].entries_count;
        await actor.settled();
        // Streamed as the API's export is (front/streamed-reply.ts): backpressure, one slice per turn.
        return { ...csv_reply(`billvend-${ctx.environment}-wallet.csv`, csv_line(wallet_export_header)), stream: wallet_export_stream(engine.store, actor, ctx.environment, query, entries_count) };
      },
    },
  ];
}
