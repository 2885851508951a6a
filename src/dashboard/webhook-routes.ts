// The dashboard's webhooks (docs/api.md "Dashboard and documentation"): the environment's endpoints,
// one registered (its secret shown once) or deleted, an endpoint's deliveries, the dead ones, a replay;
// by the same calls as /v1/webhooks.
import type { Static } from 'typebox';
import type { Deps } from '../front/deps.js';
import type { RouteDef } from '../front/route.js';
import { error_reply, success_reply } from '../lib/reply.js';
import { reply_waits_for } from '../front/durable-reply.js';
import { pagination } from '../front/views.js';
import { parse_id, parse_pagination, query_params } from '../front/request-helpers.js';
import { api_error } from '../errors.js';
import { delivery_view, read_deliveries, register_endpoint } from '../front/routes/webhook-routes.js';
import { CreateWebhookBody, EventKindName } from '../schemas/webhook-schemas.js';
import { create_endpoint, delete_endpoint, endpoint_view, endpoints_of } from '../webhooks/endpoints.js';
import { dead_listed_max, type Dispatcher } from '../webhooks/dispatcher.js';
import { default_event_kinds, type DeliveryRecord } from '../webhooks/records.js';
import type { EventKind } from '../engine/engine.js';
import { dashboard_doc as doc } from './route-doc.js';

/**
 * The event kinds the webhook forms offer: the one list the API validates endpoints against (its
 * schema), so that a kind added there appears in the dashboard with no second list to update; and
 * those an endpoint registered without `events` receives (service.status_changed is asked for).
 */
export const offered_event_kinds: readonly string[] = (EventKindName as unknown as { enum: string[] }).enum;
export const offered_default_event_kinds: readonly string[] = offered_event_kinds.filter((kind) => default_event_kinds.includes(kind as EventKind));

export function webhook_session_routes(deps: Deps, dispatcher: Dispatcher): RouteDef[] {
  const { clock } = deps;
  return [
    {
      method: 'get',
      path: '/dashboard/api/webhooks',
      auth: 'session',
      doc: doc('Webhook endpoints of the environment, with the event kinds an endpoint can receive'),
      handler: (ctx) => success_reply(ctx.request_id, 200, {
        webhooks: endpoints_of(dispatcher.endpoints, ctx.actor!, ctx.environment).map((e) => endpoint_view(e.record, clock.now_us())),
        event_kinds: offered_event_kinds,
        default_event_kinds: offered_default_event_kinds,
      }),
    },
    {
      method: 'post',
      path: '/dashboard/api/webhooks',
      auth: 'session',
      body: CreateWebhookBody,
      idempotent: false,
      doc: doc('Register a webhook endpoint; the secret is shown once'),
      handler: async (ctx) => {
        const actor = ctx.actor!;
        const environment = ctx.environment;
        const checked = await register_endpoint(deps, actor, environment, ctx.body as Static<typeof CreateWebhookBody>);
        if ('error' in checked) return error_reply(ctx.request_id, checked.error);
        const outcome = create_endpoint(dispatcher.endpoints, actor, environment, checked.url, checked.events, checked.description, clock.now_us());
        if (!outcome.ok) return error_reply(ctx.request_id, outcome.error);
        return success_reply(ctx.request_id, 201, { ...endpoint_view(outcome.value.record, clock.now_us()), secret: outcome.value.secret }, 'Save this webhook secret now: it is shown only once.');
      },
    },
    {
      method: 'delete',
      path: '/dashboard/api/webhooks/:id',
      auth: 'session',
      doc: doc('Delete a webhook endpoint'),
      handler: (ctx) => {
        const id = parse_id(ctx.params.id);
        const actor = ctx.actor!;
        const outcome = id === null ? null : delete_endpoint(dispatcher.endpoints, actor, ctx.environment, id, clock.now_us());
        if (outcome === null || !outcome.ok) return error_reply(ctx.request_id, outcome?.ok === false ? outcome.error : api_error('webhooks.not_found'));
        return success_reply(ctx.request_id, 200, null, 'Webhook endpoint deleted.');
      },
    },
    {
      method: 'get',
      path: '/dashboard/api/webhooks/:id/deliveries',
      auth: 'session',
      doc: doc('Deliveries of an endpoint with their attempts'),
      handler: async (ctx) => {
        const paging = parse_pagination(query_params(ctx));
        if ('code' in paging) return error_reply(ctx.request_id, paging);
        const actor = ctx.actor!;
        const id = parse_id(ctx.params.id);
        const endpoint = id === null ? undefined : dispatcher.endpoints.get(actor.id, id);
        if (endpoint === undefined || endpoint.record.environment !== ctx.environment) return error_reply(ctx.request_id, api_error('webhooks.not_found'));
        await dispatcher.settled(actor);
        const { deliveries, total } = read_deliveries(deps, endpoint.record.id, paging.page, paging.per_page);
        return success_reply(ctx.request_id, 200, { deliveries: deliveries.map(delivery_view), pagination: pagination(total, paging.per_page, paging.page) });
      },
    },
    {
      method: 'get',
      path: '/dashboard/api/webhooks-dead',
      auth: 'session',
      doc: doc('Dead deliveries of this account in the environment'),
      handler: (ctx) => {
        const actor = ctx.actor!;
        // From the dispatcher's per-account index: other tenants' dead deliveries are never read.
        const mine: DeliveryRecord[] = dispatcher.dead_of(actor.id, ctx.environment, dead_listed_max);
        return success_reply(ctx.request_id, 200, { deliveries: mine.map(delivery_view) });
      },
    },
    {
      method: 'post',
      path: '/dashboard/api/webhooks/:id/deliveries/:delivery_id/replay',
      auth: 'session',
      idempotent: false,
      doc: doc('Replay a delivery'),
      handler: (ctx) => {
        const actor = ctx.actor!;
        const id = parse_id(ctx.params.id);
        const delivery_id = parse_id(ctx.params.delivery_id);
        if (id === null) return error_reply(ctx.request_id, api_error('webhooks.not_found'));
        if (delivery_id === null) return error_reply(ctx.request_id, api_error('webhooks.delivery_not_found'));
        const outcome = dispatcher.replay(actor, ctx.environment, id, delivery_id);
        if (!outcome.ok) return error_reply(ctx.request_id, outcome.error);
        const reply = success_reply(ctx.request_id, 202, delivery_view(outcome.value), 'Replay scheduled.');
        reply_waits_for(ctx, () => dispatcher.settled(actor));
        return reply;
      },
    },
  ];
}
