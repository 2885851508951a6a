// Error answers to POSTs are remembered for idempotency like any other answer (docs/decisions.md), even
// when the request is refused before its command runs (schema validation, amounts, grants): a retry
// with the same key and body gets the same error, and the key cannot be reused for another body.
import type { Deps } from './deps.js';
import type { RequestContext } from './route.js';
import { error_reply, type Reply } from '../lib/reply.js';
import { fingerprint, idempotency_key } from './request-helpers.js';
import { run_idempotent } from './idempotent-run.js';
import type { ApiError } from '../errors.js';

export function remembered_error(deps: Deps, ctx: RequestContext, error: ApiError): Reply | Promise<Reply> {
  const key = idempotency_key(ctx);
  if (key !== null && typeof key === 'object') return error_reply(ctx.request_id, key);
  if (key === null || ctx.actor === null) return error_reply(ctx.request_id, error);
  return remembered_under(deps, ctx, key, fingerprint(ctx), error);
}

/**
 * The same, for a route that read the key already and fingerprints the request its own way (the agents'
 * routes leave the password out: front/routes/agent-routes.ts).
 */
export function remembered_under(deps: Deps, ctx: RequestContext, key: string | null, print: string, error: ApiError): Reply | Promise<Reply> {
  if (key === null) return error_reply(ctx.request_id, error);
  return run_idempotent(
    { actor: ctx.actor!, environment: ctx.environment, key, fingerprint: print, request_id: ctx.request_id, now_ms: deps.clock.now_ms() },
    () => error_reply(ctx.request_id, error),
  );
}
