// The dashboard's search of its orders list (docs/api.md "Dashboard and documentation"): by reference,
// by the reseller's own client reference, or by a part of a phone, meter or smartcard number, within
// the list's filters (front/order-query.ts); the filters alone are answered from the order index.
import type { RequestContext } from '../front/route.js';
import type { OrderQuery } from '../front/order-query.js';
import { lagos_day } from '../lib/time-format.js';
import type { OrderRecord } from '../services/order.js';
import { find_orders, index_plan_of, matching_seqs, seq_range, type OrderFilter, type OrderPage } from '../engine/order-history.js';
import { claim_of } from '../engine/client-reference-claims.js';
import type { Engine } from '../engine/engine.js';
import type { OrderDesk } from '../services/order-desk.js';
import { dashboard_slice_rows, next_turn } from './read-slices.js';

/** Most orders read to answer a search by phone, meter or smartcard number. */
export const orders_searched_max = 5000;
const order_reference_pattern = /^BV-\d{8}-[0-9A-Z]{12}$/i;

function matches(order: OrderRecord, filter: OrderFilter): boolean {
  if (filter.service !== null && order.service_type !== filter.service) return false;
  if (filter.status !== null && order.status !== filter.status) return false;
  const day = lagos_day(Math.floor(order.created_us / 1000));
  return (filter.from_day === null || day >= filter.from_day) && (filter.to_day === null || day <= filter.to_day);
}

/** The searches of one server: the order a name names, and a page of the orders list. */
export function order_search(engine: Engine, desk: OrderDesk) {
  /** The one order a reference or the reseller's own client reference names, filtered; null: q is no such name. */
  const named_order = (ctx: RequestContext, q: string, filter: OrderFilter): OrderRecord[] | null => {
    const actor = ctx.actor!;
    const environment = ctx.environment;
    if (order_reference_pattern.test(q)) {
      // A reference names one order: a direct read, then the other filters.
      const order = desk.find(q.toUpperCase());
      const mine = order !== null && order.account_id === actor.id && order.environment === environment && matches(order, filter);
      return mine ? [order] : [];
    }
    // The reseller's own client reference names one order (docs/api.md "Client references and metadata").
    const claimed = /^[A-Za-z0-9._:-]{1,64}$/.test(q) ? claim_of(engine.journal, engine.store, actor.id, environment, q) : null;
    if (claimed === null) return null;
    const order = desk.find(claimed);
    return order !== null && matches(order, filter) ? [order] : [];
  };

  /** total_orders: the count when the request arrived, before it waited for the account's commit. */
  const search_orders = async (ctx: RequestContext, query: OrderQuery, total_orders: number, page: number, per_page: number): Promise<OrderPage> => {
    const actor = ctx.actor!;
    const environment = ctx.environment;
    const filter = query.filter;
    const current = (o: OrderRecord) => desk.find(o.reference) ?? o;
    if (query.q === null) {
      // From the per-account order index (engine/order-index.ts): the page's orders are the only
      // ones read, whatever else the account holds (regression: up to 50,000 orders were scanned).
      const found = find_orders(engine.store, actor.id, environment, total_orders, filter, page, per_page);
      return { ...found, orders: found.orders.map(current) };
    }
    const named = named_order(ctx, query.q, filter);
    if (named !== null) return { orders: page === 1 ? named : [], total: named.length, truncated: false };
    // A phone, meter or smartcard number (or part of one): the newest orders_searched_max orders of
    // the filtered range are read, no more, dashboard_slice_rows per event-loop turn, and the answer
    // says when older ones were left out.
    const store = engine.store;
    const [low, high] = seq_range(store, actor.id, environment, total_orders, filter);
    const plan = index_plan_of(filter);
    const matched: OrderRecord[] = [];
    let scanned = 0;
    let truncated = false;
    for (let below = high; below >= low; ) {
      if (scanned >= orders_searched_max) {
        truncated = true;
        break;
      }
      if (scanned > 0) {
        await next_turn();
        if (ctx.aborted) break;
      }
      const seqs = matching_seqs(store, actor.id, environment, plan, low, below, 0, Math.min(dashboard_slice_rows, orders_searched_max - scanned));
      if (seqs.length === 0) break;
      below = seqs[seqs.length - 1] - 1;
      for (const seq of seqs) {
        const order = store.orders.get([actor.id, environment, seq]) as OrderRecord;
        if (order.recipient.includes(query.q)) matched.push(order);
      }
      scanned += seqs.length;
    }
    return { orders: matched.slice((page - 1) * per_page, page * per_page).map(current), total: matched.length, truncated };
  };
  return { named_order, search_orders };
}
