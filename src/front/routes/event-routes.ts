// GET /v1/events (docs/api.md "Events feed"): every event of the key's environment for 30 days, oldest
// first, after a given event. Like webhooks it exposes every event, so it needs a full-access key.
import Type from 'typebox';
import type { Deps } from '../deps.js';
import type { RouteDef } from '../route.js';
import { error_reply, type Reply } from '../../lib/reply.js';
import { query_params } from '../request-helpers.js';
import { invalid } from '../../errors.js';
import { EventFeedPage, EventKindName } from '../../schemas/webhook-schemas.js';
import { event_kinds } from '../../webhooks/records.js';
import type { EventFeed } from '../../webhooks/event-feed.js';
import type { EventKind } from '../../engine/engine.js';

export const feed_limit_default = 20;
export const feed_limit_max = 100;

export function event_routes(deps: Deps, feed: EventFeed): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/v1/events',
      auth: 'api_key',
      scope: '*',
      doc: {
        summary: 'Every event of the key\'s environment for 30 days, in the order they happened',
        description: 'Each event is the webhook payload with the same id, whether or not an endpoint subscribed. Pass the last id seen as after to catch up; an after that names no event of this environment in the last 30 days is 400 validation.failed (start again without after). With type, next_after is where the next call starts even when this page holds no event.',
        tags: ['Webhooks'],
        response: EventFeedPage,
        query: {
          after: { schema: Type.String({ pattern: '^evt_[0-9A-Za-z]{24}$' }), description: 'an event id: the events after it (exclusive); absent: from the oldest kept' },
          limit: { schema: Type.Integer({ minimum: 1, maximum: feed_limit_max, default: feed_limit_default }), description: `events per page (default ${feed_limit_default}, max ${feed_limit_max})` },
          type: { schema: EventKindName, description: 'only events of this kind' },
        },
        errors: ['validation.failed'],
      },
      handler: async (ctx) => {
        const params = query_params(ctx);
        const limit_text = params.get('limit');
        let limit = feed_limit_default;
        if (limit_text !== null) {
          if (!/^\d{1,3}$/.test(limit_text) || Number(limit_text) < 1 || Number(limit_text) > feed_limit_max) {
            return error_reply(ctx.request_id, invalid('limit', `must be an integer from 1 to ${feed_limit_max}`));
          }
          limit = Number(limit_text);
        }
        const type = params.get('type');
        if (type !== null && !event_kinds.includes(type as EventKind)) {
          return error_reply(ctx.request_id, invalid('type', `must be one of ${event_kinds.join(', ')}`));
        }
        const after = params.get('after');
        const actor = ctx.actor!;
        await actor.settled();
        const page = feed.read(actor.id, ctx.environment, after === '' ? null : after, type as EventKind | null, limit, deps.clock.now_us());
        if (page === null) return error_reply(ctx.request_id, invalid('after', 'must be the id of an event of this environment from the last 30 days'));
        // The stored bodies are the exact JSON delivered: joined, not parsed and encoded again.
        let events = '';
        for (let i = 0; i < page.events.length; i++) events += (i === 0 ? '' : ',') + page.events[i].body;
        const body = `{"success":true,"data":{"events":[${events}],"has_more":${page.has_more},"next_after":${JSON.stringify(page.next_after)}},"request_id":${JSON.stringify(ctx.request_id)}}`;
        const reply: Reply = { status: 200, body, headers: [] };
        return reply;
      },
    },
  ];
}
