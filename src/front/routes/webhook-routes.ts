// /v1/webhooks: endpoints per account and environment, their deliveries and replays (docs/spec.md section 6,
// docs/decisions.md "Webhooks"). Managing webhooks needs a full-access key (scope *).
import type { Static } from 'typebox';
import Type from 'typebox';
import type { Deps } from '../deps.js';
import type { RouteDef } from '../route.js';
import { error_reply, success_reply } from '../../lib/reply.js';
import { reply_waits_for } from '../durable-reply.js';
import { pagination } from '../views.js';
import { fingerprint, idempotency_key, parse_id, parse_pagination, query_params } from '../request-helpers.js';
import { remembered_error } from '../remembered.js';
import { run_idempotent } from '../idempotent-run.js';
import { api_error, invalid, type ApiError } from '../../errors.js';
import { iso_ms, iso_us } from '../../lib/time-format.js';
import { page_query } from '../../schemas/common.js';
import { CreateWebhookBody, CreatedWebhook, DeliveryPage, DeliveryView, RolledSecret, UpdateWebhookBody, WebhookView } from '../../schemas/webhook-schemas.js';
import { create_endpoint, delete_endpoint, endpoint_view, endpoints_of, roll_secret, secret_grace_ms, update_endpoint } from '../../webhooks/endpoints.js';
import { send_test_event } from '../../webhooks/test-event.js';
import { check_target, check_url_shape } from '../../webhooks/target-check.js';
import { default_event_kinds, type DeliveryRecord } from '../../webhooks/records.js';
import type { Dispatcher } from '../../webhooks/dispatcher.js';
import type { EventKind } from '../../engine/engine.js';
import type { AccountActor } from '../../engine/account-actor.js';
import type { Environment } from '../../engine/records.js';

export function delivery_view(delivery: DeliveryRecord) {
  return {
    id: delivery.id,
    endpoint_id: delivery.endpoint_id,
    event_id: delivery.event_id,
    event: delivery.kind,
    status: delivery.status,
    series: delivery.series,
    next_attempt_at: delivery.status === 'pending' && delivery.next_attempt_ms > 0 ? iso_ms(delivery.next_attempt_ms) : null,
    attempts: delivery.attempts.map((a) => ({ series: a.series, number: a.number, at: iso_us(a.at_us), status_code: a.status_code, duration_ms: a.duration_ms, error: a.error })),
    created_at: iso_us(delivery.created_us),
    updated_at: iso_us(delivery.updated_us),
  };
}

/** A page of an endpoint's deliveries, newest first. */
export function read_deliveries(deps: Deps, endpoint_id: number, page: number, per_page: number): { deliveries: DeliveryRecord[]; total: number } {
  const range = { start: [endpoint_id, Number.MAX_SAFE_INTEGER], end: [endpoint_id, 0], reverse: true };
  // lmdb-js's getKeysCount marks the options object it is given as count-only: pass it a copy.
  const total = deps.engine.store.deliveries.getKeysCount({ ...range });
  const deliveries: DeliveryRecord[] = [];
  for (const { value } of deps.engine.store.deliveries.getRange({ ...range, offset: (page - 1) * per_page, limit: per_page })) deliveries.push(value as DeliveryRecord);
  return { deliveries, total };
}

/** Registers an endpoint after checking its URL (HTTPS, not internal); shared with the dashboard. */
export async function register_endpoint(deps: Deps, actor: AccountActor, environment: Environment, body: Static<typeof CreateWebhookBody>): Promise<{ error: ApiError } | { url: string; events: EventKind[]; description: string }> {
  const shape = check_url_shape(body.url);
  if (!shape.ok) return { error: invalid('url', shape.reason) };
  const target = await check_target(shape.url, deps.config.webhook_allow_private_targets);
  if (!target.ok) return { error: invalid('url', target.reason) };
  return { url: shape.url.href, events: (body.events ?? [...default_event_kinds]) as EventKind[], description: body.description ?? '' };
}

export function webhook_routes(deps: Deps, dispatcher: Dispatcher): RouteDef[] {
  const tags = ['Webhooks'];
  const endpoint_of = (actor: AccountActor, environment: Environment, text: string) => {
    const id = parse_id(text);
    const endpoint = id === null ? undefined : dispatcher.endpoints.get(actor.id, id);
    return endpoint !== undefined && endpoint.record.environment === environment ? endpoint : null;
  };
  return [
    {
      method: 'get',
      path: '/v1/webhooks',
      auth: 'api_key',
      scope: '*',
      doc: { summary: 'Webhook endpoints of the key\'s environment (never their secrets)', tags, response: Type.Object({ webhooks: Type.Array(WebhookView) }) },
      handler: (ctx) => success_reply(ctx.request_id, 200, { webhooks: endpoints_of(dispatcher.endpoints, ctx.actor!, ctx.environment).map((e) => endpoint_view(e.record, deps.clock.now_us())) }),
    },
    {
      method: 'post',
      path: '/v1/webhooks',
      auth: 'api_key',
      scope: '*',
      body: CreateWebhookBody,
      doc: {
        summary: 'Register an HTTPS endpoint for some or all event kinds; its secret is in this response only',
        description: 'http:// URLs are refused, as are hosts resolving to loopback, private or link-local addresses (unless the operator allows them). At most 10 endpoints per environment. With include_agents: true the endpoint also receives the events of every agent below the account, each carrying account (docs/api.md "Agents\' events"). A replay of a registration whose endpoint has since been deleted answers 404 webhooks.not_found instead of the secret.',
        tags,
        response: CreatedWebhook,
        success_status: 201,
        errors: ['validation.failed', 'webhooks.limit_reached', 'idempotency.key_reused', 'webhooks.not_found'],
      },
      handler: async (ctx) => {
        const key = idempotency_key(ctx);
        if (key !== null && typeof key === 'object') return error_reply(ctx.request_id, key);
        const actor = ctx.actor!;
        const checked = await register_endpoint(deps, actor, ctx.environment, ctx.body as Static<typeof CreateWebhookBody>);
        if ('error' in checked) return remembered_error(deps, ctx, checked.error);
        return run_idempotent(
          {
            actor,
            environment: ctx.environment,
            key,
            fingerprint: fingerprint(ctx),
            request_id: ctx.request_id,
            now_ms: deps.clock.now_ms(),
            // A replay shows the endpoint's secret only while the endpoint exists.
            secret_guard: (id) => dispatcher.endpoints.get(actor.id, id) !== undefined
              ? null
              : api_error('webhooks.not_found', 'The endpoint this request registered has since been deleted; its secret is not shown again.'),
          },
          () => {
            const include_agents = (ctx.body as Static<typeof CreateWebhookBody>).include_agents === true;
            const outcome = create_endpoint(dispatcher.endpoints, actor, ctx.environment, checked.url, checked.events, checked.description, deps.clock.now_us(), include_agents);
            if (!outcome.ok) return error_reply(ctx.request_id, outcome.error);
            const reply = success_reply(ctx.request_id, 201, { ...endpoint_view(outcome.value.record, deps.clock.now_us()), secret: outcome.value.secret }, 'Save this webhook secret now: it is shown only once.');
            reply.secret = true;
            return reply;
          },
        );
      },
    },
    {
      method: 'delete',
      path: '/v1/webhooks/:id',
      auth: 'api_key',
      scope: '*',
      doc: { summary: 'Delete an endpoint; its pending deliveries are cancelled', tags, response: Type.Null(), errors: ['webhooks.not_found'] },
      handler: (ctx) => {
        const actor = ctx.actor!;
        const id = parse_id(ctx.params.id);
        if (id === null) return error_reply(ctx.request_id, api_error('webhooks.not_found'));
        const outcome = delete_endpoint(dispatcher.endpoints, actor, ctx.environment, id, deps.clock.now_us());
        if (!outcome.ok) return error_reply(ctx.request_id, outcome.error);
        const reply = success_reply(ctx.request_id, 200, null, 'Webhook endpoint deleted.');
        return reply;
      },
    },
    {
      method: 'get',
      path: '/v1/webhooks/:id/deliveries',
      auth: 'api_key',
      scope: '*',
      doc: { summary: 'Deliveries of an endpoint with every attempt, newest first', tags, response: DeliveryPage, query: page_query, errors: ['webhooks.not_found', 'validation.failed'] },
      handler: async (ctx) => {
        const paging = parse_pagination(query_params(ctx));
        if ('code' in paging) return error_reply(ctx.request_id, paging);
        const actor = ctx.actor!;
        const endpoint = endpoint_of(actor, ctx.environment, ctx.params.id);
        if (endpoint === null) return error_reply(ctx.request_id, api_error('webhooks.not_found'));
        // Delivery bookkeeping is staged apart from the account (webhooks/dispatcher.ts): wait for both.
        await dispatcher.settled(actor);
        const { deliveries, total } = read_deliveries(deps, endpoint.record.id, paging.page, paging.per_page);
        return success_reply(ctx.request_id, 200, { deliveries: deliveries.map(delivery_view), pagination: pagination(total, paging.per_page, paging.page) });
      },
    },
    {
      method: 'post',
      path: '/v1/webhooks/:id/deliveries/:delivery_id/replay',
      auth: 'api_key',
      scope: '*',
      idempotent: false,
      doc: {
        summary: 'Replay a delivery: a new series of attempts starts now',
        description: 'Replaying a delivery that is still pending changes nothing. Replays are safe to repeat, so X-Idempotency-Key is not needed.',
        tags,
        response: DeliveryView,
        success_status: 202,
        errors: ['webhooks.not_found', 'webhooks.delivery_not_found'],
      },
      handler: (ctx) => {
        const actor = ctx.actor!;
        const endpoint = endpoint_of(actor, ctx.environment, ctx.params.id);
        const delivery_id = parse_id(ctx.params.delivery_id);
        if (endpoint === null) return error_reply(ctx.request_id, api_error('webhooks.not_found'));
        if (delivery_id === null) return error_reply(ctx.request_id, api_error('webhooks.delivery_not_found'));
        const outcome = dispatcher.replay(actor, ctx.environment, endpoint.record.id, delivery_id);
        if (!outcome.ok) return error_reply(ctx.request_id, outcome.error);
        const reply = success_reply(ctx.request_id, 202, delivery_view(outcome.value), 'Replay scheduled.');
        reply_waits_for(ctx, () => dispatcher.settled(actor));
        return reply;
      },
    },
    {
      method: 'patch',
      path: '/v1/webhooks/:id',
      auth: 'api_key',
      scope: '*',
      body: UpdateWebhookBody,
      doc: {
        summary: 'Change the event kinds an endpoint receives, its description and/or include_agents',
        description: 'Fields left out stay as they are; at least one is needed. Events already stored keep their deliveries.',
        tags,
        response: WebhookView,
        errors: ['webhooks.not_found', 'validation.failed'],
      },
      handler: (ctx) => {
        const actor = ctx.actor!;
        const body = ctx.body as Static<typeof UpdateWebhookBody>;
        const endpoint = endpoint_of(actor, ctx.environment, ctx.params.id);
        if (endpoint === null) return error_reply(ctx.request_id, api_error('webhooks.not_found'));
        if (body.events === undefined && body.description === undefined && body.include_agents === undefined) return error_reply(ctx.request_id, invalid('events', 'or description or include_agents is required'));
        const outcome = update_endpoint(dispatcher.endpoints, actor, ctx.environment, endpoint.record.id, {
          ...(body.events !== undefined ? { events: body.events as EventKind[] } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.include_agents !== undefined ? { include_agents: body.include_agents } : {}),
        }, deps.clock.now_us());
        if (!outcome.ok) return error_reply(ctx.request_id, outcome.error);
        return success_reply(ctx.request_id, 200, endpoint_view(outcome.value, deps.clock.now_us()), 'Webhook endpoint updated.');
      },
    },
    {
      method: 'post',
      path: '/v1/webhooks/:id/test',
      auth: 'api_key',
      scope: '*',
      idempotent: false,
      doc: {
        summary: 'Send a webhook.test event to this endpoint now',
        description: 'Whatever kinds the endpoint subscribes to. Signed, retried and listed among the deliveries like any event; its data names the endpoint and environment. Each call sends a new event, so X-Idempotency-Key is not used.',
        tags,
        response: DeliveryView,
        success_status: 202,
        errors: ['webhooks.not_found'],
      },
      handler: (ctx) => {
        const actor = ctx.actor!;
        const endpoint = endpoint_of(actor, ctx.environment, ctx.params.id);
        if (endpoint === null) return error_reply(ctx.request_id, api_error('webhooks.not_found'));
        const outcome = send_test_event(actor, dispatcher, ctx.environment, endpoint.record.id);
        if (!outcome.ok) return error_reply(ctx.request_id, outcome.error);
        return success_reply(ctx.request_id, 202, delivery_view(outcome.value), 'Test event on its way.');
      },
    },
    {
      method: 'post',
      path: '/v1/webhooks/:id/roll-secret',
      auth: 'api_key',
      scope: '*',
      idempotent: false,
      doc: {
        summary: 'Give an endpoint a new signing secret, shown in this response only; the old one still signs for 24 hours',
        description: 'For 24 hours (previous_secret_expires_at) every delivery carries both signatures: X-Service-Signature with the new secret and X-Service-Signature-Previous with the old one; webhook-signature lists both, separated by a space. A roll during that period replaces the new secret only: the old one stays until its own 24 hours end.',
        tags,
        response: RolledSecret,
        success_status: 200,
        errors: ['webhooks.not_found'],
      },
      handler: (ctx) => {
        const actor = ctx.actor!;
        const endpoint = endpoint_of(actor, ctx.environment, ctx.params.id);
        if (endpoint === null) return error_reply(ctx.request_id, api_error('webhooks.not_found'));
        const now_us = deps.clock.now_us();
        const outcome = roll_secret(dispatcher.endpoints, actor, ctx.environment, endpoint.record.id, now_us, deps.wheel.scaled(secret_grace_ms) * 1000);
        if (!outcome.ok) return error_reply(ctx.request_id, outcome.error);
        const reply = success_reply(ctx.request_id, 200, { ...endpoint_view(outcome.value.record, now_us), secret: outcome.value.secret }, 'Save this webhook secret now: it is shown only once.');
        reply.secret = true;
        return reply;
      },
    },
    {
      method: 'post',
      path: '/v1/webhooks/:id/deliveries/:delivery_id/retry',
      auth: 'api_key',
      scope: '*',
      idempotent: false,
      doc: {
        summary: 'Retry a failing delivery now instead of at its next scheduled retry',
        description: 'For a delivery waiting for a retry (pending after a failed attempt) the next attempt happens now, in the same series; a dead delivery starts a new series, as a replay. A delivery already due, being attempted or delivered is answered as it is, so a repeated request sends nothing more. A cancelled delivery (its endpoint was disabled) is 409 webhooks.delivery_not_retryable.',
        tags,
        response: DeliveryView,
        success_status: 202,
        errors: ['webhooks.not_found', 'webhooks.delivery_not_found', 'webhooks.delivery_not_retryable'],
      },
      handler: (ctx) => {
        const actor = ctx.actor!;
        const endpoint = endpoint_of(actor, ctx.environment, ctx.params.id);
        const delivery_id = parse_id(ctx.params.delivery_id);
        if (endpoint === null) return error_reply(ctx.request_id, api_error('webhooks.not_found'));
        if (delivery_id === null) return error_reply(ctx.request_id, api_error('webhooks.delivery_not_found'));
        const outcome = dispatcher.retry_now(actor, ctx.environment, endpoint.record.id, delivery_id);
        if (!outcome.ok) return error_reply(ctx.request_id, outcome.error);
        const message = outcome.value.status === 'delivered' ? 'Already delivered; nothing to retry.' : 'Retry scheduled.';
        const reply = success_reply(ctx.request_id, 202, delivery_view(outcome.value), message);
        reply_waits_for(ctx, () => dispatcher.settled(actor));
        return reply;
      },
    },
  ];
}
