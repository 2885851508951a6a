// GET /v1/transactions and GET /v1/transactions/{reference} (docs/spec.md section 4 "Transactions",
// docs/decisions.md for the full record and the idempotency_key lookup).
import Type from 'typebox';
import type { Deps } from '../deps.js';
import type { RouteDef } from '../route.js';
import { error_reply, success_reply } from '../../lib/reply.js';
import { pagination } from '../views.js';
import { parse_pagination, query_params } from '../request-helpers.js';
import { page_query } from '../../schemas/common.js';
import { OrderFull, OrderPage } from '../../schemas/service-schemas.js';
import { api_error } from '../../errors.js';
import { read_record } from '../../engine/idempotency.js';
import { assert_order, order_full_view, order_list_view, type OrderRecord } from '../../services/order.js';
import type { OrderDesk } from '../../services/order-desk.js';
import type { AccountActor } from '../../engine/account-actor.js';
import type { Environment } from '../../engine/records.js';
import type { Store } from '../../journal/store.js';
import { reference_pattern } from '../../lib/ids.js';
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

export function transaction_routes(deps: Deps, desk: OrderDesk): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/v1/transactions',
      auth: 'api_key',
      scope: 'transactions:read',
      doc: {
        summary: 'Service orders (airtime, data, electricity, TV), newest first',
        description: 'A delivered order shows status "successful". With idempotency_key, the order that key created (kept 24 hours), so a client that lost a response finds its order.',
        tags: ['Transactions'],
        response: OrderPage,
        query: { ...page_query, idempotency_key: { schema: Type.String({ maxLength: 255 }), description: 'the X-Idempotency-Key of the purchase' } },
        errors: ['validation.failed'],
      },
      handler: async (ctx) => {
        const params = query_params(ctx);
        const paging = parse_pagination(params);
        if ('code' in paging) return error_reply(ctx.request_id, paging);
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
        const orders = read_orders(deps.engine.store, actor, environment, total, paging.page, paging.per_page)
          // Open orders may have moved on since their last commit became visible: show them as they stand.
          .map((order) => actor.open_orders.get(order.reference) ?? desk.find(order.reference) ?? order);
        return success_reply(ctx.request_id, 200, { transactions: orders.map(order_list_view), pagination: pagination(total, paging.per_page, paging.page) });
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
      handler: async (ctx) => {
        const reference = ctx.params.reference;
        const actor = ctx.actor!;
        const not_found = () => error_reply(ctx.request_id, api_error('transaction.not_found', `No transaction ${reference.slice(0, 40)} on this account.`));
        if (!reference_pattern.test(reference)) return not_found();
        const order = desk.find(reference);
        if (order === null || order.account_id !== actor.id || order.environment !== ctx.environment) return not_found();
        await actor.settled();
        return success_reply(ctx.request_id, 200, order_full_view(desk.find(reference) ?? order));
      },
    },
  ];
}
