// GET /v1/transactions and GET /v1/transactions/{reference} (docs/spec.md section 4 "Transactions",
// docs/decisions.md for the full record and the idempotency_key lookup).
import Type from 'typebox';
import type { Deps } from '../deps.js';
import type { RouteDef } from '../route.js';
import { error_reply, success_reply } from '../../lib/reply.js';
import { pagination } from '../views.js';
import { parse_pagination, query_params } from '../request-helpers.js';
import { api_order_query, parse_order_query } from '../order-query.js';
import { page_query } from '../../schemas/common.js';
import { OrderFull, OrderPage } from '../../schemas/service-schemas.js';
import { api_error, invalid } from '../../errors.js';
import { find_orders, index_plan_of, matching_seqs, seq_range, type OrderFilter } from '../../engine/order-history.js';
import { csv_content_type, csv_download_headers, csv_line } from '../../lib/csv.js';
import { kobo_to_naira } from '../../lib/money.js';
import type { BodyStream } from '../../lib/reply.js';
import { read_record } from '../../engine/idempotency.js';
import { service_type_names, service_types_text, assert_order, charged_kobo, commission_of, order_full_view, order_list_view, type OrderRecord } from '../../services/order.js';
import type { OrderDesk } from '../../services/order-desk.js';
import type { AccountActor } from '../../engine/account-actor.js';
import type { Environment } from '../../engine/records.js';
import type { Store } from '../../journal/store.js';
import { reference_pattern } from '../../lib/ids.js';
import { client_reference_pattern } from '../../schemas/service-schemas.js';
import { fail } from '../../lib/assert.js';

/** A page of a wallet's orders, newest first, read from the store and checked on the way. */
export function read_orders(store: Store, actor: AccountActor, environment: Environment, total: number, page: number, per_page: number): OrderRecord[] {
  const newest = total - (page - 1) * per_page;
  if (newest < 1) return [];
  const oldest = Math.max(1, newest - per_page + 1);
  const out: OrderRecord[] = [];
  for (const { value } of store.orders.getRange({ start: [actor.id, environment, newest], end: [actor.id, environment, oldest - 1], reverse: true })) {
    const order = value as OrderRecord;
    assert_order(order);
    out.push(order);
  }
  if (out.length !== newest - oldest + 1) fail(`wallet ${actor.id}/${environment} is missing orders ${oldest}..${newest}`);
  return out;
}

// ---- History filters (docs/api.md "History filters") -----------------------------------------------

const day_us = 86_400_000_000;
/** The longest range one export covers (docs/api.md "Transactions export"). */
export const export_days_max = 31;
/** Orders read and written per chunk of an export. */
export const export_chunk_rows = 500;

function has_filter(filter: OrderFilter): boolean {
  return filter.service !== null || filter.status !== null || filter.recipient != null || filter.client_reference != null || filter.from_us != null || filter.to_us != null;
}

/** The columns of the export: the list item's fields, then the ones other features fill. */
export const export_columns = [
  'reference', 'service_type', 'recipient', 'amount', 'status', 'created_at',
  'amount_charged', 'commission', 'client_reference', 'metadata', 'subscription_type', 'quantity',
] as const;

/**
 * One export row. The single place later order fields join the export: client_reference and metadata
 * (as JSON text), subscription_type and quantity stay empty when the order has none.
 */
function export_row(order: OrderRecord): string {
  const item = order_list_view(order);
  return csv_line([
    item.reference, item.service_type, item.recipient, kobo_to_naira(order.amount_kobo).toFixed(2), item.status, item.created_at,
    kobo_to_naira(charged_kobo(order)).toFixed(2), kobo_to_naira(commission_of(order)).toFixed(2),
    order.client_reference ?? '', order.metadata == null ? '' : JSON.stringify(order.metadata),
    // TV orders whose request set them (docs/api.md "TV renewals and months"); empty otherwise.
    order.subscription_type ?? '', order.quantity === undefined ? '' : String(order.quantity),
  ]);
}

/**
 * The export's rows, newest first, a chunk of export_chunk_rows at a time: each chunk is one range read
 * below the previous chunk's last seq, so nothing but the current chunk is held, whatever the range.
 */
function export_stream(store: Store, actor: AccountActor, environment: Environment, low: number, high: number, filter: OrderFilter): BodyStream {
  if (filter.client_reference != null) {
    // A client reference names one order at most: one row or none.
    let done = false;
    return {
      next: () => {
        if (done) return null;
        done = true;
        const found = find_orders(store, actor.id, environment, high, { ...filter, from_us: null, to_us: null, from_day: null, to_day: null }, 1, 1).orders[0];
        if (found === undefined || found.seq < low || found.seq > high) return null;
        return export_row(actor.open_orders.get(found.reference) ?? found);
      },
    };
  }
  const plan = index_plan_of(filter);
  let below = high;
  return {
    next: () => {
      if (below < low) return null;
      const seqs = matching_seqs(store, actor.id, environment, plan, low, below, 0, export_chunk_rows);
      if (seqs.length === 0) {
        below = low - 1;
        return null;
      }
      below = seqs[seqs.length - 1] - 1;
      let text = '';
      for (const seq of seqs) {
        const stored = store.orders.get([actor.id, environment, seq]) as OrderRecord;
        assert_order(stored);
        // An open order may have moved on since its last commit became visible: shown as it stands.
        text += export_row(actor.open_orders.get(stored.reference) ?? stored);
      }
      return text;
    },
  };
}

/** The filters' query parameters, for the document. */
const history_query = {
  status: { schema: Type.Enum(['pending', 'processing', 'successful', 'delivered', 'failed']), description: 'the status as the list shows it, or as the record does: a delivered order is listed successful, and successful and delivered both find it' },
  service_type: { schema: Type.Enum([...service_type_names]), description: `the service: ${service_types_text}` },
  recipient: { schema: Type.String({ pattern: '^[0-9]{10,13}$' }), description: 'the exact phone, meter or smartcard number' },
  client_reference: { schema: Type.String({ pattern: client_reference_pattern.source }), description: 'the exact client_reference the purchase carried: it names one order at most' },
  from: { schema: Type.String({ maxLength: 40 }), description: 'a date YYYY-MM-DD (from the start of that Africa/Lagos day) or an ISO 8601 timestamp, inclusive' },
  to: { schema: Type.String({ maxLength: 40 }), description: 'a date YYYY-MM-DD (to the end of that Africa/Lagos day) or an ISO 8601 timestamp, inclusive' },
} as const;

export function transaction_routes(deps: Deps, desk: OrderDesk): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/v1/transactions',
      auth: 'api_key',
      scope: 'transactions:read',
      doc: {
        summary: `Service orders (${service_type_names.join(', ')}), newest first`,
        description: 'A delivered order shows status "successful". With idempotency_key, the order that key created (kept 24 hours), so a client that lost a response finds its order. status, service_type, recipient, client_reference, from and to filter the list (all combinable, read from an index); a bad value is 400 validation.failed.',
        tags: ['Transactions'],
        response: OrderPage,
        query: { ...page_query, idempotency_key: { schema: Type.String({ maxLength: 255 }), description: 'the X-Idempotency-Key of the purchase' }, ...history_query },
        errors: ['validation.failed'],
      },
      handler: async (ctx) => {
        const params = query_params(ctx);
        const paging = parse_pagination(params);
        if ('code' in paging) return error_reply(ctx.request_id, paging);
        const query = parse_order_query(params, api_order_query);
        if ('code' in query) return error_reply(ctx.request_id, query);
        const actor = ctx.actor!;
        const environment = ctx.environment;
        const by_key = params.get('idempotency_key');
        const total = actor.wallets[environment].orders_count;
        await actor.settled();
        if (by_key !== null) {
          const record = read_record(actor, environment, by_key, deps.clock.now_ms());
          const order = record?.reference ? desk.find(record.reference) : null;
          const found = order !== null && order.account_id === actor.id && order.environment === environment ? [order] : [];
          const shown = paging.page === 1 ? found : [];
          return success_reply(ctx.request_id, 200, { transactions: shown.map(order_list_view), pagination: pagination(found.length, paging.per_page, paging.page) });
        }
        if (has_filter(query.filter)) {
          const found = find_orders(deps.engine.store, actor.id, environment, total, query.filter, paging.page, paging.per_page, actor);
          const shown = found.orders.map((order) => actor.open_orders.get(order.reference) ?? desk.find(order.reference) ?? order);
          return success_reply(ctx.request_id, 200, { transactions: shown.map(order_list_view), pagination: pagination(found.total, paging.per_page, paging.page) });
        }
        const orders = read_orders(deps.engine.store, actor, environment, total, paging.page, paging.per_page)
          // Open orders may have moved on since their last commit became visible: show them as they stand.
          .map((order) => actor.open_orders.get(order.reference) ?? desk.find(order.reference) ?? order);
        return success_reply(ctx.request_id, 200, { transactions: orders.map(order_list_view), pagination: pagination(total, paging.per_page, paging.page) });
      },
    },
    {
      method: 'get',
      path: '/v1/transactions/export',
      auth: 'api_key',
      scope: 'transactions:read',
      doc: {
        summary: 'Service orders of a date range as CSV, newest first',
        description: `One header row, then one row per order: the list's fields, amount_charged, commission, client_reference and metadata (empty until the order carries them). from and to are required and cover at most ${export_days_max} days; the list's filters apply. Streamed in chunks.`,
        tags: ['Transactions'],
        content_type: 'text/csv',
        query: { ...history_query, from: { ...history_query.from, required: true }, to: { ...history_query.to, required: true } },
        errors: ['validation.failed'],
      },
      handler: async (ctx) => {
        const params = query_params(ctx);
        const query = parse_order_query(params, api_order_query);
        if ('code' in query) return error_reply(ctx.request_id, query);
        if (query.start_us === null) return error_reply(ctx.request_id, invalid('from', 'is required: a date or timestamp'));
        if (query.end_us === null) return error_reply(ctx.request_id, invalid('to', 'is required: a date or timestamp'));
        // From from to to at most 31 days: a date range of 31 Lagos days, or two timestamps 31 × 24 h apart.
        if (query.span_end_us! - query.start_us > export_days_max * day_us) {
          return error_reply(ctx.request_id, invalid('to', `must be at most ${export_days_max} days after from (an export covers at most ${export_days_max} days)`));
        }
        const actor = ctx.actor!;
        const environment = ctx.environment;
        const total = actor.wallets[environment].orders_count;
        await actor.settled();
        const [low, high] = seq_range(deps.engine.store, actor.id, environment, total, query.filter);
        const name = `billvend-${environment}-transactions-${params.get('from')!.slice(0, 10)}-${params.get('to')!.slice(0, 10)}.csv`;
        return {
          status: 200,
          body: csv_line(export_columns),
          content_type: csv_content_type,
          headers: csv_download_headers(name),
          stream: export_stream(deps.engine.store, actor, environment, low, high, query.filter),
        };
      },
    },
    {
      method: 'get',
      path: '/v1/transactions/:reference',
      auth: 'api_key',
      scope: 'transactions:read',
      doc: {
        summary: 'The full record of one order',
        description: 'An unknown reference, or another account\'s or environment\'s, is 404 transaction.not_found.',
        tags: ['Transactions'],
        response: OrderFull,
        errors: ['transaction.not_found'],
      },
      handler: (ctx) => {
        const reference = ctx.params.reference;
        const actor = ctx.actor!;
        const not_found = () => error_reply(ctx.request_id, api_error('transaction.not_found', `No transaction ${reference.slice(0, 40)} on this account.`));
        if (!reference_pattern.test(reference)) return not_found();
        const order = desk.find(reference);
        if (order === null || order.account_id !== actor.id || order.environment !== ctx.environment) return not_found();
        return success_reply(ctx.request_id, 200, order_full_view(order, deps.secret_box));
      },
    },
  ];
}
