// The dashboard's orders (docs/api.md "Dashboard and documentation"): the list, searched and filtered,
// and one order with its status history.
import type { Deps } from '../front/deps.js';
import type { RouteDef } from '../front/route.js';
import { error_reply, success_reply } from '../lib/reply.js';
import { pagination } from '../front/views.js';
import { parse_pagination, query_params } from '../front/request-helpers.js';
import { dashboard_order_query, parse_order_query } from '../front/order-query.js';
import { api_error } from '../errors.js';
import { order_full_view, order_list_view, type OrderRecord } from '../services/order.js';
import type { OrderDesk } from '../services/order-desk.js';
import { dashboard_doc as doc } from './route-doc.js';
import { order_search } from './order-search.js';

/** A row of the dashboard's order tables: what it was for (network, disco, provider, plan) included. */
export function dashboard_order_view(o: OrderRecord) {
  return { ...order_list_view(o), status: o.status, network: o.network, disco: o.disco, provider: o.provider, plan: o.plan };
}

export function order_session_routes(deps: Deps, desk: OrderDesk): RouteDef[] {
  const { search_orders } = order_search(deps.engine, desk);
  return [
    {
      method: 'get',
      path: '/dashboard/api/orders',
      auth: 'session',
      doc: doc('Orders, searched by reference or recipient, filtered by service, status and Africa/Lagos dates'),
      handler: async (ctx) => {
        const params = query_params(ctx);
        const paging = parse_pagination(params);
        if ('code' in paging) return error_reply(ctx.request_id, paging);
        const query = parse_order_query(params, dashboard_order_query);
        if ('code' in query) return error_reply(ctx.request_id, query);
        // Read before the wait: an order staged meanwhile is not in the store yet (regression: the trend
        // read it after, and its binary search found an order missing below the count: exit 70).
        const orders_count = ctx.actor!.wallets[ctx.environment].orders_count;
        await ctx.actor!.settled();
        const found = await search_orders(ctx, query, orders_count, paging.page, paging.per_page);
        return success_reply(ctx.request_id, 200, {
          orders: found.orders.map(dashboard_order_view),
          pagination: pagination(found.total, paging.per_page, paging.page),
          truncated: found.truncated,
        });
      },
    },
    {
      method: 'get',
      path: '/dashboard/api/orders/:reference',
      auth: 'session',
      doc: doc('One order with its status history'),
      handler: (ctx) => {
        const order = desk.find(ctx.params.reference);
        const actor = ctx.actor!;
        if (order === null || order.account_id !== actor.id || order.environment !== ctx.environment) return error_reply(ctx.request_id, api_error('transaction.not_found'));
        return success_reply(ctx.request_id, 200, order_full_view(order, deps.secret_box));
      },
    },
  ];
}
