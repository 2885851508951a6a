// Authentication and authorisation of API keys (docs/spec.md section 5, docs/decisions.md "Scopes, allowlists,
// keys" and "Accounts, PIN, limits"): Bearer parsing, lookup by SHA-256 hash, expiry, IP allowlist, per-key rate
// limit with X-RateLimit-* headers, and scopes. Checked in that order, so a request from a blocked
// address does not use the key's quota.
import type { Engine } from '../engine/engine.js';
import type { Clock } from '../lib/clock.js';
import { rate_window_ms } from '../engine/account-actor.js';
import type { KeyState } from '../engine/key-state.js';
import type { RequestContext } from './route.js';
import { api_error, type ApiError } from '../errors.js';
import { sha256_hex } from '../lib/secrets.js';
import { any_contains, parse_ip, type CidrBlock } from '../lib/ip-address.js';
import { fail } from '../lib/assert.js';
import { suspended_in_tree } from '../engine/agent-tree.js';
import { acting_target } from './acting-target.js';
import type { AccountActor } from '../engine/account-actor.js';

const bearer = /^Bearer +(\S+) *$/i;
const key_shape = /^bv_(live|test)_[0-9A-Za-z]{32,64}$/;
export { rate_window_ms };

/** Fixed one-minute windows per key. Rate-limit windows do not scale with TIME_SCALE (docs/decisions.md). */
export function take_rate_token(key: KeyState, now_ms: number, headers: [string, string][]): ApiError | null {
  if (now_ms - key.window_start_ms >= rate_window_ms) {
    key.window_start_ms = now_ms;
    key.window_count = 0;
  }
  const limit = key.record.rate_limit_per_minute;
  const reset_ms = key.window_start_ms + rate_window_ms;
  const allowed = key.window_count < limit;
  if (allowed) key.window_count++;
  headers.push(
    ['X-RateLimit-Limit', String(limit)],
    ['X-RateLimit-Remaining', String(limit - key.window_count)],
    ['X-RateLimit-Reset', String(Math.ceil(reset_ms / 1000))],
  );
  if (allowed) return null;
  const retry_after_s = Math.max(1, Math.ceil((reset_ms - now_ms) / 1000));
  return api_error('rate_limit.exceeded', `Rate limit of ${limit} requests per minute exceeded; retry in ${retry_after_s} second(s).`, {
    headers: { 'Retry-After': String(retry_after_s) },
  });
}

export function authenticate_api_key(engine: Engine, clock: Clock, ctx: RequestContext): ApiError | null {
  const match = bearer.exec(ctx.headers.authorization);
  if (match === null) return api_error('auth.invalid_key');
  const token = match[1];
  if (!key_shape.test(token)) return api_error('auth.key_not_found');
  // Builds the key's account from the store when it is not in memory (engine/actor-cache.ts).
  const key = engine.key_by_hash(sha256_hex(token));
  if (key === undefined) return api_error('auth.key_not_found');
  const now_ms = clock.now_ms();
  if (key.record.expires_ms !== null && now_ms >= key.record.expires_ms) return api_error('auth.key_expired');
  const actor = engine.accounts.get(key.record.account_id);
  if (actor === undefined) fail(`key ${key.record.id} indexed without its account`);
  // Known from here on, so that even a refused request's log line names its account and key.
  ctx.key = key;
  ctx.actor = actor;
  ctx.environment = key.record.environment;
  // An account suspended (by the operator, or an agent by an account above it), or under a suspended one (docs/api.md "Agents").
  if (suspended_in_tree(engine, actor.account)) return api_error('account.suspended');
  if (key.cidrs.length > 0 && !any_contains(key.cidrs, parse_ip(ctx.remote_ip))) {
    return api_error('auth.ip_not_allowed', `Requests from ${ctx.remote_ip} are not allowed for this key.`);
  }
  const limited = take_rate_token(key, now_ms, ctx.extra_headers);
  if (limited !== null) return limited;
  const scope = ctx.route?.scope ?? null;
  // Acting for an agent is decided before the route's scope: without agents:manage the header alone is refused.
  const acting = ctx.headers.acting_account === '' ? null : acted_for(engine, ctx, key, actor);
  if (acting !== null && 'code' in acting) return acting;
  if (!key.has_scope(scope)) {
    return api_error('auth.insufficient_scope', `This API key lacks the "${scope}" scope.`);
  }
  actor.touch_key(key, clock.now_us());
  const changes = ctx.method !== 'GET' && ctx.method !== 'HEAD';
  if (acting !== null) {
    ctx.key_account_id = actor.id;
    ctx.actor = acting;
    if (changes) ctx.authority = { kind: 'acting', account_id: actor.id, key_id: key.record.id, scope, remote_ip: key.cidrs.length > 0 ? ctx.remote_ip : '' };
    return null;
  }
  // Only a change can debit: a read (the wallet-read path) allocates nothing more. The address is kept only
  // for a key with an allowlist, which has read it above.
  if (changes) ctx.authority = { kind: 'api_key', key_id: key.record.id, scope, remote_ip: key.cidrs.length > 0 ? ctx.remote_ip : '' };
  return null;
}

/**
 * The agent a key acts for with Billvend-Account (docs/api.md "Acting for an agent", docs/decisions.md
 * "Agents"): the key needs agents:manage; the id is then judged by acting_target (front/acting-target.ts).
 */
function acted_for(engine: Engine, ctx: RequestContext, key: KeyState, caller: AccountActor): AccountActor | ApiError {
  if (!key.has_scope('agents:manage')) {
    return api_error('auth.insufficient_scope', 'This API key lacks the "agents:manage" scope, which acting for an agent (Billvend-Account) needs.');
  }
  return acting_target(engine, ctx, caller, 'key');
}

/**
 * The client's address: the socket peer, or the right-most X-Forwarded-For address that is not a
 * trusted proxy, when the peer itself is one (docs/operations.md TRUSTED_PROXIES).
 */
export function client_ip(trusted: readonly CidrBlock[], peer: string, forwarded_for: string): string {
  if (trusted.length === 0 || forwarded_for === '' || !any_contains(trusted, parse_ip(peer))) return peer;
  const hops = forwarded_for.split(',').map((h) => h.trim()).filter((h) => h !== '');
  for (let i = hops.length - 1; i >= 0; i--) {
    const address = parse_ip(hops[i]);
    if (address === null) return peer;
    if (!any_contains(trusted, address)) return hops[i];
  }
  return hops[0] ?? peer;
}

/**
 * Whether a request arrived over HTTPS at the proxy in front: only a trusted proxy's
 * X-Forwarded-Proto is believed (docs/operations.md TRUSTED_PROXIES), and only its last entry, the one
 * that proxy wrote itself. The peer is asked for only when the header says https.
 */
export function forwarded_https(trusted: readonly CidrBlock[], forwarded_proto: string, peer: () => string): boolean {
  if (trusted.length === 0 || forwarded_proto === '') return false;
  const last = forwarded_proto.slice(forwarded_proto.lastIndexOf(',') + 1).trim().toLowerCase();
  return last === 'https' && any_contains(trusted, parse_ip(peer()));
}
