// The upstreams' callbacks on the public port (docs/upstreams.md "Callbacks and reversals"): VTpass's
// transaction-update callbacks at POST /callbacks/vtpass/{upstream}/{callback_token}. Not in the OpenAPI
// document, which is the resellers' API: the operator gives this URL to VTpass (docs/operations.md
// "Upstream callbacks"). The receiver itself is services/upstreams/upstream-callbacks.ts.
import type { Deps } from '../deps.js';
import type { RouteDef } from '../route.js';
import { error_reply } from '../../lib/reply.js';
import { api_error } from '../../errors.js';
import { callback_body_bytes_max, type UpstreamCallbacks } from '../../services/upstreams/upstream-callbacks.js';

export function callback_routes(_deps: Deps, callbacks: UpstreamCallbacks | null): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/callbacks/vtpass/:upstream/:token',
      auth: 'none',
      // Read whole and checked by the receiver: the token first, then the JSON (a callback is a hint).
      raw_body: true,
      idempotent: false,
      body_bytes_max: callback_body_bytes_max,
      doc: {
        summary: 'VTpass transaction-update callback (the upstream calls it; not for resellers)',
        tags: ['Upstream'],
        hidden: true,
        errors: ['route.not_found', 'request.malformed_json', 'validation.failed', 'service.unavailable'],
      },
      handler: (ctx) => {
        if (callbacks === null) return error_reply(ctx.request_id, api_error('route.not_found', `No route ${ctx.method} ${ctx.url}.`));
        return callbacks.receive(ctx.params.upstream ?? '', ctx.params.token ?? '', ctx.raw_body ?? Buffer.alloc(0), ctx.request_id, ctx.url);
      },
    },
  ];
}
