// Order care (docs/api.md "Requery now", "Cancel before sending"): what a reseller may do about one of its
// orders while it is open. Apart from transaction-routes.ts, which reads orders; these ask the order desk
// to act on one.
import type { Deps } from '../deps.js';
import type { RequestContext, RouteDef } from '../route.js';
import { error_reply, success_reply, type Reply } from '../../lib/reply.js';
import { OrderFull } from '../../schemas/service-schemas.js';
import { api_error } from '../../errors.js';
import { order_full_view, type OrderRecord } from '../../services/order.js';
import type { OrderDesk } from '../../services/order-desk.js';
import { requery_now_interval_ms } from '../../services/requery-planning.js';
import { reference_pattern } from '../../lib/ids.js';
import { refusal_reply } from '../outcome-errors.js';

/** The caller's own order of this environment, or the 404 every transaction route answers. */
function own_order(ctx: RequestContext, desk: OrderDesk): OrderRecord | Reply {
  const reference = ctx.params.reference;
  const not_found = () => error_reply(ctx.request_id, api_error('transaction.not_found', `No transaction ${reference.slice(0, 40)} on this account.`));
  if (!reference_pattern.test(reference)) return not_found();
  const order = desk.find(reference);
  if (order === null || order.account_id !== ctx.actor!.id || order.environment !== ctx.environment) return not_found();
  return order;
}

export function order_care_routes(deps: Deps, desk: OrderDesk): RouteDef[] {
  const interval_s = requery_now_interval_ms / 1000;
  return [
    {
      method: 'post',
      path: '/v1/transactions/:reference/requery',
      auth: 'api_key',
      scope: 'services:purchase',
      // Asking again is harmless and its answer is the order as it stands then, not a replay.
      idempotent: false,
      doc: {
        summary: 'Ask a processing order\'s upstream for its status now',
        description: `The same re-query the schedule makes, at once; the answer is the full record as it stands after. At most once per order per ${interval_s} seconds (429 rate_limit.exceeded with Retry-After the seconds left). A settled order, or one not yet sent, is answered as it is, with no upstream call and no limit. An unknown reference, or another account's or environment's, is 404 transaction.not_found.`,
        tags: ['Transactions'],
        response: OrderFull,
        success_status: 200,
        errors: ['transaction.not_found', 'rate_limit.exceeded'],
      },
      handler: async (ctx) => {
        const found = own_order(ctx, desk);
        if (!('reference' in found)) return found;
        const actor = ctx.actor!;
        const asked = desk.requery_now(actor, found.reference);
        if ('retry_after_s' in asked) {
          return error_reply(ctx.request_id, api_error('rate_limit.exceeded', `This order was re-queried less than ${interval_s} seconds ago; retry in ${asked.retry_after_s} second(s).`, {
            headers: { 'Retry-After': String(asked.retry_after_s) },
          }));
        }
        const order = await asked.order;
        const now = desk.find(order.reference) ?? order;
        return success_reply(ctx.request_id, 200, order_full_view(now, deps.secret_box), now.status === 'processing' ? 'Re-queried; the order is still processing.' : `The order is ${now.status}.`);
      },
    },
    {
      method: 'post',
      path: '/v1/transactions/:reference/cancel',
      auth: 'api_key',
      scope: 'services:purchase',
      // A repeated cancel of a cancelled order answers it as it is: no key needed to retry safely.
      idempotent: false,
      doc: {
        summary: 'Cancel a bulk order\'s item not yet sent to an upstream',
        description: 'An item of a bulk order still waiting to be sent is failed and refunded at once, with failure_reason "cancelled" and the event transaction.failed; the answer is its full record. A cancelled order answers so again. An order already sent, settled, or not a bulk item is 409 transaction.not_cancellable. An unknown reference, or another account\'s or environment\'s, is 404 transaction.not_found.',
        tags: ['Transactions'],
        response: OrderFull,
        success_status: 200,
        errors: ['transaction.not_found', 'transaction.not_cancellable'],
      },
      handler: (ctx) => {
        const found = own_order(ctx, desk);
        if (!('reference' in found)) return found;
        const actor = ctx.actor!;
        const cancelled = desk.cancel(actor, found.reference);
        if (!cancelled.ok) return refusal_reply(ctx.request_id, cancelled.refused);
        return success_reply(ctx.request_id, 200, order_full_view(cancelled.value, deps.secret_box), 'Cancelled before it was sent; the wallet was refunded.');
      },
    },
  ];
}
