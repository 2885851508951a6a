// GET/POST/DELETE /v1/keys (docs/spec.md section 4 "API keys", section 5; docs/decisions.md "Scopes, allowlists, keys").
import { parse_timestamp_us, timestamp_year_max } from '../../lib/time-format.js';
import type { Static } from 'typebox';
import Type from 'typebox';
import type { Deps } from '../deps.js';
import type { RequestContext, RouteDef } from '../route.js';
import { error_reply, success_reply, type Reply } from '../../lib/reply.js';
import { refusal_reply } from '../outcome-errors.js';
import { created_key_view, key_view } from '../views.js';
import { fingerprint, idempotency_key, parse_id } from '../request-helpers.js';
import { CreateKeyBody, CreatedKey, KeyListItem } from '../../schemas/account-schemas.js';
import { run_idempotent } from '../idempotent-run.js';
import { remembered_error } from '../remembered.js';
import { api_error, invalid_fields, invalid, type ApiError } from '../../errors.js';
import { new_api_key } from '../../lib/ids.js';
import { sha256_hex } from '../../lib/secrets.js';
import { cidr_contains, parse_cidr, type CidrBlock } from '../../lib/ip-address.js';
import { iso_ms } from '../../lib/time-format.js';
import type { AccountActor } from '../../engine/account-actor.js';
import type { KeyState } from '../../engine/key-state.js';
import type { NewKeyInput } from '../../engine/account-command.js';
import type { Environment, KeyRecord, Scope } from '../../engine/records.js';
import { fail } from '../../lib/assert.js';

export const default_rate_limit_per_minute = 60;
export const rate_limit_per_minute_max = 1_000_000;

export function key_hint(api_key: string): string {
  return `${api_key.slice(0, 8)}…${api_key.slice(-4)}`;
}

/** A key as asked for: the engine's new key without what is derived from the secret (engine/account-command.ts). */
export type KeyRequest = Omit<NewKeyInput, 'key_hash' | 'key_hint'>;

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
  const api_key = new_api_key(deps.random, input.environment);
  const outcome = deps.engine.run(actor, { kind: 'create_key', input: { ...input, key_hash: sha256_hex(api_key), key_hint: key_hint(api_key) } }, deps.clock.now_us());
  if (!outcome.ok) return refusal_reply(request_id, outcome.refused);
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

/** Whether every address a block covers lies in `outer` too. */
function block_within(inner: CidrBlock, outer: CidrBlock): boolean {
  return inner.prefix_bits >= outer.prefix_bits && cidr_contains(outer, inner.bytes);
}

/**
 * A key creates only keys that can do no more than itself (docs/api.md "Key inheritance"): no later expiry, no
 * address its own allowlist refuses (an empty list allows any), and, in check_grant, no scope it lacks.
 * A child asking for no expiry, or for any address, under a parent that has a limit is refused rather
 * than silently narrowed, so that the answer shows exactly what the new key may do.
 */
export function check_inheritance(parent: KeyState, child: { ip_allowlist: string[]; expires_ms: number | null }): ApiError | null {
  const details: { field: string; message: string }[] = [];
  const parent_expires_ms = parent.record.expires_ms;
  if (parent_expires_ms !== null && (child.expires_ms === null || child.expires_ms > parent_expires_ms)) {
    details.push({ field: 'expires_at', message: `must be given and no later than the expiry of the key creating it (${iso_ms(parent_expires_ms)})` });
  }
  if (parent.cidrs.length > 0) {
    if (child.ip_allowlist.length === 0) details.push({ field: 'ip_allowlist', message: 'must not be empty: the key creating it is limited to its own ip_allowlist' });
    for (let i = 0; i < child.ip_allowlist.length; i++) {
      const block = parse_cidr(child.ip_allowlist[i]);
      if (block === null) fail('the allowlist was checked by check_key_request');
      if (!parent.cidrs.some((outer) => block_within(block, outer))) {
        details.push({ field: `ip_allowlist.${i}`, message: 'must lie within the ip_allowlist of the key creating it' });
      }
    }
  }
  if (details.length === 0) return null;
  return invalid_fields(details);
}

/** Whether a key holds every scope of a list itself (a * key holds them all). */
function holds_scopes(holder: KeyState, scopes: readonly Scope[]): boolean {
  if (holder.record.scopes.includes('*')) return true;
  return scopes.every((scope) => scope !== '*' && holder.record.scopes.includes(scope));
}

export function key_routes(deps: Deps): RouteDef[] {
  const list_handler = (ctx: RequestContext): Reply | Promise<Reply> => {
    const actor = ctx.actor!;
    return success_reply(ctx.request_id, 200, { keys: actor.active_keys(deps.clock.now_ms()).map((k) => key_view(k.record)) });
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
        description: 'At most 5 active (neither revoked nor expired) keys per account. A key may only grant scopes it has itself; a test key may only create test keys. A key with an expiry creates keys expiring no later; a key with an ip_allowlist creates keys whose allowlist lies within it; the new key\'s rate limit is the default, or the creating key\'s if lower. A replay of a creation whose key has since been revoked answers 404 keys.not_found instead of the secret.',
        tags: ['API keys'],
        response: CreatedKey,
        success_status: 201,
        errors: ['validation.failed', 'keys.limit_reached', 'auth.insufficient_scope', 'idempotency.key_reused', 'keys.not_found'],
      },
      handler: (ctx) => {
        const key = idempotency_key(ctx);
        if (key !== null && typeof key === 'object') return error_reply(ctx.request_id, key);
        const body = ctx.body as Static<typeof CreateKeyBody>;
        const environment = body.environment ?? 'live';
        const scopes = (body.scopes ?? ['*']) as Scope[];
        const checked = check_key_request(body, deps.clock.now_ms());
        if ('code' in checked) return remembered_error(deps, ctx, checked);
        const parent = ctx.key!;
        const narrower = check_inheritance(parent, checked);
        if (narrower !== null) return remembered_error(deps, ctx, narrower);
        const refused = check_grant(parent, environment, scopes);
        if (refused !== null) return remembered_error(deps, ctx, refused);
        const actor = ctx.actor!;
        return run_idempotent(
          {
            actor,
            environment: ctx.environment,
            key,
            fingerprint: fingerprint(ctx),
            request_id: ctx.request_id,
            now_ms: deps.clock.now_ms(),
            // A replay shows the new key's secret only while that key is not revoked.
            secret_guard: (id) => actor.keys.get(id)?.record.revoked_us === null
              ? null
              : api_error('keys.not_found', 'The key this request created has since been revoked; its secret is not shown again.'),
          },
          () => create_key_reply(deps, actor, ctx.request_id, {
            name: body.name,
            environment,
            scopes,
            ip_allowlist: checked.ip_allowlist,
            // The operator may have set the parent's limit below the default: a child never exceeds it.
            rate_limit_per_minute: Math.min(default_rate_limit_per_minute, parent.record.rate_limit_per_minute),
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
        description: 'Later use of the key answers 401 auth.key_not_found. A key id of another account is 404 keys.not_found. A key may revoke only keys whose scopes it holds itself (a * key holds every scope); a test key may not revoke live keys.',
        tags: ['API keys'],
        response: Type.Null(),
        errors: ['keys.not_found', 'auth.insufficient_scope'],
      },
      handler: (ctx) => {
        const id = parse_id(ctx.params.id);
        if (id === null) return error_reply(ctx.request_id, api_error('keys.not_found'));
        const actor = ctx.actor!;
        // As a test key may not create live keys, it may not revoke them: sandbox code must never be
        // able to cut production off. Likewise a key revokes only keys whose scopes it holds itself, so
        // that a key with only keys:manage cannot cut off a full-access key.
        const target = actor.keys.get(id);
        if (target !== undefined && target.record.revoked_us === null) {
          if (ctx.environment === 'test' && target.record.environment === 'live') {
            return error_reply(ctx.request_id, api_error('auth.insufficient_scope', 'A test key cannot revoke live keys.'));
          }
          if (!holds_scopes(ctx.key!, target.record.scopes)) {
            return error_reply(ctx.request_id, api_error('auth.insufficient_scope', 'This API key cannot revoke a key with scopes it does not hold itself.'));
          }
        }
        const outcome = deps.engine.run(actor, { kind: 'revoke_key', key_id: id }, deps.clock.now_us());
        if (!outcome.ok) return refusal_reply(ctx.request_id, outcome.refused);
        const reply = success_reply(ctx.request_id, 200, null, 'API key revoked.');
        return reply;
      },
    },
  ];
}

export type { KeyRecord };
