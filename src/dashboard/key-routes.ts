// The dashboard's API keys (docs/api.md "Dashboard and documentation"): the active keys of both
// environments, a key created (its secret shown once) and one revoked, by the same commands as /v1/keys.
import type { Static } from 'typebox';
import Type from 'typebox';
import type { Deps } from '../front/deps.js';
import type { RouteDef } from '../front/route.js';
import { error_reply, success_reply } from '../lib/reply.js';
import { key_view } from '../front/views.js';
import { parse_id } from '../front/request-helpers.js';
import { check_key_request, create_key_reply } from '../front/routes/key-routes.js';
import { Scope } from '../schemas/account-schemas.js';
import { EnvironmentName, FreeText } from '../schemas/common.js';
import { refusal_reply } from '../front/outcome-errors.js';
import type { Scope as ScopeName } from '../engine/records.js';
import { dashboard_doc as doc } from './route-doc.js';

const DashboardKeyBody = Type.Object({
  name: FreeText({ minLength: 1, maxLength: 100, errorMessage: 'must be a string of 1 to 100 characters' }),
  environment: EnvironmentName,
  scopes: Type.Optional(Type.Array(Scope, { minItems: 1, maxItems: 5, uniqueItems: true })),
  ip_allowlist: Type.Optional(Type.Array(FreeText({ maxLength: 64 }), { maxItems: 20 })),
  expires_at: Type.Optional(FreeText({ maxLength: 40, errorMessage: 'must be an ISO 8601 timestamp in the future' })),
});

export function key_session_routes(deps: Deps): RouteDef[] {
  const { engine, clock } = deps;
  return [
    {
      method: 'get',
      path: '/dashboard/api/keys',
      auth: 'session',
      doc: doc('Active API keys of both environments'),
      handler: (ctx) => success_reply(ctx.request_id, 200, { keys: ctx.actor!.active_keys().map((k) => key_view(k.record)) }),
    },
    {
      method: 'post',
      path: '/dashboard/api/keys',
      auth: 'session',
      body: DashboardKeyBody,
      idempotent: false,
      doc: doc('Create an API key; the secret is shown once'),
      handler: (ctx) => {
        const body = ctx.body as Static<typeof DashboardKeyBody>;
        const checked = check_key_request(body, clock.now_ms());
        if ('code' in checked) return error_reply(ctx.request_id, checked);
        const actor = ctx.actor!;
        return create_key_reply(deps, actor, ctx.request_id, {
          name: body.name,
          environment: body.environment,
          scopes: (body.scopes ?? ['*']) as ScopeName[],
          ip_allowlist: checked.ip_allowlist,
          rate_limit_per_minute: 60,
          expires_ms: checked.expires_ms,
        });
      },
    },
    {
      method: 'delete',
      path: '/dashboard/api/keys/:id',
      auth: 'session',
      doc: doc('Revoke an API key'),
      handler: (ctx) => {
        const id = parse_id(ctx.params.id);
        const actor = ctx.actor!;
        const outcome = id === null ? null : engine.run(actor, { kind: 'revoke_key', key_id: id }, clock.now_us());
        if (outcome === null || !outcome.ok) return refusal_reply(ctx.request_id, outcome?.ok === false ? outcome.refused : { refusal: 'key_not_found' });
        return success_reply(ctx.request_id, 200, null, 'API key revoked.');
      },
    },
  ];
}
