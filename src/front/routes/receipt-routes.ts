// GET /v1/transactions/{reference}/receipt and POST /v1/transactions/{reference}/resend (docs/api.md
// "Receipts and re-delivery"): the customer's printable copy of an order, and its final event sent again.
import Type from 'typebox';
import type { Deps } from '../deps.js';
import type { RequestContext, RouteDef } from '../route.js';
import { error_reply, success_reply, type Reply } from '../../lib/reply.js';
import { fingerprint, idempotency_key, query_params } from '../request-helpers.js';
import { run_idempotent } from '../idempotent-run.js';
import { api_error, invalid, type ApiError } from '../../errors.js';
import { reference_pattern } from '../../lib/ids.js';
import { pins_of, type OrderRecord } from '../../services/order.js';
import type { OrderDesk } from '../../services/order-desk.js';
import { receipt_csp, receipt_html, receipt_pdf } from '../../services/receipt.js';
import { final_event_kind, type Outbox } from '../../webhooks/outbox.js';
import { ResendReceipt } from '../../schemas/statement-schemas.js';

/** Re-sends of one order's final event: at most one per this many real seconds (not scaled by TIME_SCALE). */
export const resend_interval_s = 60;
/** Orders whose last re-send time is remembered for the limit; the oldest is forgotten past it. */
export const resend_orders_max = 10_000;

/** When each order's final event was last re-sent, oldest first (a Map keeps insertion order). */
export class ResendLimit {
  private readonly last_ms = new Map<string, number>();
  constructor(readonly orders_max = resend_orders_max) {}

  /** The seconds to wait before the order may be re-sent again, or 0 (and the re-send is counted). */
  take(reference: string, now_ms: number): number {
    const last = this.last_ms.get(reference);
    if (last !== undefined && now_ms - last < resend_interval_s * 1000) return Math.ceil((last + resend_interval_s * 1000 - now_ms) / 1000);
    this.last_ms.delete(reference);
    if (this.last_ms.size >= this.orders_max) this.last_ms.delete(this.last_ms.keys().next().value!);
    this.last_ms.set(reference, now_ms);
    return 0;
  }

  /** The re-send did not happen (no endpoint): it does not count. */
  give_back(reference: string): void {
    this.last_ms.delete(reference);
  }
}

function not_found(reference: string): ApiError {
  return api_error('transaction.not_found', `No transaction ${reference.slice(0, 40)} on this account.`);
}

/** The caller's own order (account and environment), or null. */
function own_order(desk: OrderDesk, ctx: RequestContext): OrderRecord | null {
  const reference = ctx.params.reference;
  if (!reference_pattern.test(reference)) return null;
  const order = desk.find(reference);
  const actor = ctx.actor!;
  return order !== null && order.account_id === actor.id && order.environment === ctx.environment ? order : null;
}

/** PDF when `format=pdf`, or when Accept names application/pdf and no format is given; HTML otherwise. */
export function wants_pdf(ctx: RequestContext): boolean | ApiError {
  const format = query_params(ctx).get('format');
  if (format === 'pdf') return true;
  if (format === 'html') return false;
  if (format !== null) return invalid('format', 'must be html or pdf');
  return /(^|[\s,])application\/pdf(\s*(;|,|$))/i.test(ctx.headers.accept);
}

/** The receipt of an order the caller may see, PINs included (the order's own key, or its dashboard session). */
export async function receipt_reply(deps: Deps, desk: OrderDesk, ctx: RequestContext): Promise<Reply> {
  const pdf = wants_pdf(ctx);
  if (typeof pdf !== 'boolean') return error_reply(ctx.request_id, pdf);
  const found = own_order(desk, ctx);
  if (found === null) return error_reply(ctx.request_id, not_found(ctx.params.reference));
  const actor = ctx.actor!;
  const order = found;
  const input = { order, reseller_name: actor.account.name, pins: pins_of(order, deps.secret_box), generated_ms: deps.clock.now_ms() };
  const name = `receipt-${order.reference}`;
  if (pdf) {
    const body = await receipt_pdf(input);
    return { status: 200, body, content_type: 'application/pdf', headers: [['Content-Disposition', `inline; filename="${name}.pdf"`], ['Cache-Control', 'no-store']] };
  }
  // The receipt brings its own policy (its one style, by hash), so it sets nosniff itself too.
  return {
    status: 200,
    body: receipt_html(input),
    content_type: 'text/html; charset=utf-8',
    headers: [['Cache-Control', 'no-store'], ['Content-Security-Policy', receipt_csp], ['X-Content-Type-Options', 'nosniff']],
  };
}

export function receipt_routes(deps: Deps, desk: OrderDesk, outbox: Outbox, limit: ResendLimit): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/v1/transactions/:reference/receipt',
      auth: 'api_key',
      scope: 'transactions:read',
      reads_accept: true,
      doc: {
        summary: 'A printable receipt of one order: the customer\'s copy (HTML, or PDF)',
        description: 'text/html by default; application/pdf with Accept: application/pdf or format=pdf. The reseller\'s (account\'s) name, the reference, date, service, recipient, customer, face value and, once delivered, the token, units and PINs (this key may see them, as on the full record). Never what the reseller paid. An unknown reference, or another account\'s or environment\'s, is 404 transaction.not_found.',
        tags: ['Transactions'],
        content_type: 'text/html',
        alternatives: ['application/pdf'],
        query: { format: { schema: Type.Enum(['html', 'pdf']), description: 'html (default) or pdf; wins over Accept' } },
        errors: ['transaction.not_found', 'validation.failed'],
      },
      handler: (ctx) => receipt_reply(deps, desk, ctx),
    },
    {
      // The dashboard's order page links here (a plain link: a GET needs no CSRF token).
      method: 'get',
      path: '/dashboard/api/orders/:reference/receipt',
      auth: 'session',
      reads_accept: true,
      doc: { summary: 'The receipt of one order, as GET /v1/transactions/{reference}/receipt', tags: ['Dashboard'], hidden: true, content_type: 'text/html' },
      handler: (ctx) => receipt_reply(deps, desk, ctx),
    },
    {
      method: 'post',
      path: '/v1/transactions/:reference/resend',
      auth: 'api_key',
      scope: 'services:purchase',
      doc: {
        summary: 'Send a settled order\'s final event again to the endpoints',
        description: `202: transaction.completed, transaction.failed or (a delivered order its upstream reversed) transaction.reversed again, with a new event id and resent: true, the data as the first time, to every enabled endpoint of the environment that subscribes to it, and in GET /v1/events. 409 webhooks.no_endpoint when none subscribes; 409 transaction.not_final for a pending or processing order (its event comes when it settles); once per order every ${resend_interval_s} s, else 429 rate_limit.exceeded with Retry-After.`,
        tags: ['Transactions'],
        response: ResendReceipt,
        success_status: 202,
        errors: ['transaction.not_found', 'transaction.not_final', 'webhooks.no_endpoint'],
      },
      handler: async (ctx) => {
        const key = idempotency_key(ctx);
        if (key !== null && typeof key === 'object') return error_reply(ctx.request_id, key);
        const actor = ctx.actor!;
        await actor.settled();
        // Under X-Idempotency-Key a retry answers the first answer again and sends nothing more; a 429 is
        // not remembered (lib/reply.ts is_rememberable), so a retry after the minute goes through.
        return run_idempotent(
          { actor, environment: ctx.environment, key, fingerprint: fingerprint(ctx), request_id: ctx.request_id, now_ms: deps.clock.now_ms() },
          () => resend_now(ctx),
        );
      },
    },
  ];

  function resend_now(ctx: RequestContext): Reply {
    const found = own_order(desk, ctx);
    if (found === null) return error_reply(ctx.request_id, not_found(ctx.params.reference));
    const order = desk.find(found.reference) ?? found;
    if (order.status !== 'delivered' && order.status !== 'failed') {
      return error_reply(ctx.request_id, api_error('transaction.not_final', `The order is ${order.status}: its final event is sent when it settles.`, { extra: { status: order.status } }));
    }
    const wait_s = limit.take(order.reference, deps.clock.now_ms());
    if (wait_s > 0) {
      return error_reply(ctx.request_id, api_error('rate_limit.exceeded', `This order's event was re-sent less than ${resend_interval_s} s ago; retry in ${wait_s} s.`, { headers: { 'Retry-After': String(wait_s) } }));
    }
    const sent = outbox.resend(ctx.actor!, order, deps.clock.now_us());
    if (sent === null) {
      limit.give_back(order.reference);
      const kind = final_event_kind(order);
      return error_reply(ctx.request_id, api_error('webhooks.no_endpoint', `No enabled webhook endpoint of the ${ctx.environment} environment subscribes to ${kind}.`, { extra: { event: kind } }));
    }
    return success_reply(ctx.request_id, 202, { reference: order.reference, event: sent.kind, event_id: sent.id, resent: true, endpoints: sent.endpoints }, 'The order\'s final event is being sent again.');
  }
}
