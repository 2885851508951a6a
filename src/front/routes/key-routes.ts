// GET/POST/DELETE /v1/keys (spec section 4 "API keys", section 5; decisions.md "Scopes, allowlists, keys").
import { parse_timestamp_us, timestamp_year_max } from '../../lib/time-format.js';
import type { Static } from 'typebox';
import Type from 'typebox';
import type { Deps } from '../deps.js';
import type { RequestContext, RouteDef } from '../route.js';
import { error_reply, success_reply, type Reply } from '../reply.js';
import { created_key_view, key_view } from '../views.js';
import { fingerprint, idempotency_key, parse_id } from '../request-helpers.js';
import { CreateKeyBody, CreatedKey, KeyListItem } from '../../schemas/account-schemas.js';
import { run_idempotent } from '../../engine/idempotency.js';
import { remembered_error } from '../remembered.js';
import { api_error, type ApiError } from '../../errors.js';
import { new_api_key } from '../../lib/ids.js';
import { sha256_hex } from '../../lib/secrets.js';
import { parse_cidr } from '../../lib/ip-address.js';
import type { AccountActor, KeyState } from '../../engine/account-actor.js';
import type { Environment, KeyRecord, Scope } from '../../engine/records.js';

export const default_rate_limit_per_minute = 60;
export const rate_limit_per_minute_max = 1_000_000;

function invalid(field: string, message: string): ApiError {
  return api_error('validation.failed', `The request is not valid: ${field} ${message}.`, { details: [{ field, message }] });
}

export function key_hint(api_key: string): string {
  return `${api_key.slice(0, 8)}…${api_key.slice(-4)}`;
}

export interface KeyRequest {
  name: string;
  environment: Environment;
  scopes: Scope[];
  ip_allowlist: string[];
  rate_limit_per_minute: number;
  expires_ms: number | null;
}

/** Checks the parts of a key request that a schema cannot: addresses and the expiry instant. */
export function check_key_request(body: { ip_allowlist?: string[]; expires_at?: string }, now_ms: number): { ip_allowlist: string[]; expires_ms: number | null } | ApiError {
  const ip_allowlist = body.ip_allowlist ?? [];
  for (let i = 0; i < ip_allowlist.length; i++) {
    if (parse_cidr(ip_allowlist[i]) === null) return invalid(`ip_allowlist.${i}`, 'must be an IPv4/IPv6 address or CIDR block');
  }
  let expires_ms: number | null = null;
  if (body.expires_at !== undefined) {
    const expires_us = parse_timestamp_us(body.expires_at);
    expires_ms = expires_us === null ? NaN : Math.floor(expires_us / 1000);
    if (!Number.isFinite(expires_ms) || expires_ms <= now_ms) return invalid('expires_at', `must be an ISO 8601 timestamp in the future, a date that exists, no later than the year ${timestamp_year_max}`);
  }
  return { ip_allowlist, expires_ms };
}

/** Creates a key for an actor: the secret exists only in this reply (and sealed in its idempotency record). */
export function create_key_reply(deps: Deps, actor: AccountActor, request_id: string, input: KeyRequest): Reply {
  const api_key = new_api_key(input.environment);
  const outcome = actor.create_key({ ...input, key_hash: sha256_hex(api_key), key_hint: key_hint(api_key) }, deps.clock.now_us());
  if (!outcome.ok) return error_reply(request_id, outcome.error);
  const reply = success_reply(request_id, 201, created_key_view(outcome.value, api_key), 'Save this API key now: it is shown only once. A lost key must be revoked and replaced.');
  reply.secret = true;
  return reply;
}

/** A key may only grant scopes it has itself, and a test key may only create test keys. */
function check_grant(caller: KeyState, environment: Environment, scopes: Scope[]): ApiError | null {
  if (caller.record.environment === 'test' && environment === 'live') {
    return api_error('auth.insufficient_scope', 'A test key cannot create live keys.');
  }
  if (caller.record.scopes.includes('*')) return null;
  for (const scope of scopes) {
    if (scope === '*' || !caller.record.scopes.includes(scope)) {
      return api_error('auth.insufficient_scope', `This API key cannot grant the "${scope}" scope it does not have.`);
    }
  }
  return null;
}

export function key_routes(deps: Deps): RouteDef[] {
  const list_handler = (ctx: RequestContext): Reply | Promise<Reply> => {
    const actor = ctx.actor!;
    const build = () => success_reply(ctx.request_id, 200, { keys: actor.active_keys().map((k) => key_view(k.record)) });
    const pending = actor.settled();
    return pending === null ? build() : pending.then(build);
  };
  return [
    {
      method: 'get',
      path: '/v1/keys',
      auth: 'api_key',
      scope: 'keys:manage',
      doc: { summary: 'Active API keys of the account (never their secrets)', tags: ['API keys'], response: Type.Object({ keys: Type.Array(KeyListItem) }) },
      handler: list_handler,
    },
    {
      method: 'post',
      path: '/v1/keys',
      auth: 'api_key',
      scope: 'keys:manage',
      body: CreateKeyBody,
      doc: {
        summary: 'Create an API key; its secret is in this response only',
        description: 'At most 5 active keys per account. A key may only grant scopes it has itself; a test key may only create test keys.',
        tags: ['API keys'],
        response: CreatedKey,
        success_status: 201,
        errors: ['validation.failed', 'keys.limit_reached', 'auth.insufficient_scope', 'idempotency.key_reused'],
      },
      handler: (ctx) => {
        const key = idempotency_key(ctx);
        if (key !== null && typeof key === 'object') return error_reply(ctx.request_id, key);
        const body = ctx.body as Static<typeof CreateKeyBody>;
        const environment = body.environment ?? 'live';
        const scopes = (body.scopes ?? ['*']) as Scope[];
        const checked = check_key_request(body, deps.clock.now_ms());
        if ('code' in checked) return remembered_error(deps, ctx, checked);
        const refused = check_grant(ctx.key!, environment, scopes);
        if (refused !== null) return remembered_error(deps, ctx, refused);
        const actor = ctx.actor!;
        return run_idempotent(
          { actor, environment: ctx.environment, key, fingerprint: fingerprint(ctx), request_id: ctx.request_id, now_ms: deps.clock.now_ms() },
          () => create_key_reply(deps, actor, ctx.request_id, {
            name: body.name,
            environment,
            scopes,
            ip_allowlist: checked.ip_allowlist,
            rate_limit_per_minute: default_rate_limit_per_minute,
            expires_ms: checked.expires_ms,
          }),
        );
      },
    },
    {
      method: 'delete',
      path: '/v1/keys/:id',
      auth: 'api_key',
      scope: 'keys:manage',
      doc: {
        summary: 'Revoke an API key, at once and irreversibly',
        description: 'Later use of the key answers 401 auth.key_not_found. A key id of another account is 404 keys.not_found.',
        tags: ['API keys'],
        response: Type.Null(),
        errors: ['keys.not_found'],
      },
      handler: (ctx) => {
        const id = parse_id(ctx.params.id);
        if (id === null) return error_reply(ctx.request_id, api_error('keys.not_found'));
        const actor = ctx.actor!;
        // As a test key may not create live keys, it may not revoke them: sandbox code must never be
        // able to cut production off.
        const target = actor.keys.get(id);
        if (ctx.environment === 'test' && target !== undefined && target.record.revoked_us === null && target.record.environment === 'live') {
          return error_reply(ctx.request_id, api_error('auth.insufficient_scope', 'A test key cannot revoke live keys.'));
        }
        const outcome = actor.revoke_key(id, deps.clock.now_us());
        if (!outcome.ok) return error_reply(ctx.request_id, outcome.error);
        const reply = success_reply(ctx.request_id, 200, null, 'API key revoked.');
        const pending = actor.settled();
        return pending === null ? reply : pending.then(() => reply);
      },
    },
  ];
}

export type { KeyRecord };
