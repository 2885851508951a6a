// The dashboard's order care (docs/api.md "Dashboard and documentation"): the order page's Requery and Cancel
// buttons, the same order desk calls as POST /v1/transactions/{reference}/requery and /cancel, for the
// signed-in session's account and environment.
import type { Deps } from '../front/deps.js';
import type { RouteDef } from '../front/route.js';
import { error_reply, success_reply } from '../lib/reply.js';
import { api_error } from '../errors.js';
import { order_full_view } from '../services/order.js';
import type { OrderDesk } from '../services/order-desk.js';
import { requery_now_interval_ms } from '../services/requery-planning.js';
import { refusal_reply } from '../front/outcome-errors.js';
import { dashboard_doc as doc } from './route-doc.js';

export function order_care_session_routes(deps: Deps, desk: OrderDesk): RouteDef[] {
  const own = (reference: string, account_id: number, environment: string) => {
    const order = desk.find(reference);
    return order === null || order.account_id !== account_id || order.environment !== environment ? null : order;
  };
  return [
    {
      method: 'post',
      path: '/dashboard/api/orders/:reference/requery',
      auth: 'session',
      idempotent: false,
      doc: doc('Ask a processing order\'s upstream now, once per 30 s'),
      handler: async (ctx) => {
        const actor = ctx.actor!;
        const order = own(ctx.params.reference, actor.id, ctx.environment);
        if (order === null) return error_reply(ctx.request_id, api_error('transaction.not_found'));
        const asked = desk.requery_now(actor, order.reference);
        if ('retry_after_s' in asked) {
          return error_reply(ctx.request_id, api_error('rate_limit.exceeded', `This order was re-queried less than ${requery_now_interval_ms / 1000} seconds ago; retry in ${asked.retry_after_s} second(s).`, { headers: { 'Retry-After': String(asked.retry_after_s) } }));
        }
        const after = await asked.order;
        const now = desk.find(after.reference) ?? after;
        return success_reply(ctx.request_id, 200, order_full_view(now, deps.secret_box), now.status === 'processing' ? 'Asked the provider: still processing.' : `Asked the provider: the order is ${now.status}.`);
      },
    },
    {
      method: 'post',
      path: '/dashboard/api/orders/:reference/cancel',
      auth: 'session',
      idempotent: false,
      doc: doc('Cancel a bulk item not yet sent, refunding it'),
      handler: (ctx) => {
        const actor = ctx.actor!;
        const order = own(ctx.params.reference, actor.id, ctx.environment);
        if (order === null) return error_reply(ctx.request_id, api_error('transaction.not_found'));
        const cancelled = desk.cancel(actor, order.reference);
        if (!cancelled.ok) return refusal_reply(ctx.request_id, cancelled.refused);
        return success_reply(ctx.request_id, 200, order_full_view(cancelled.value, deps.secret_box), 'Cancelled before it was sent; the wallet was refunded.');
      },
    },
  ];
}
