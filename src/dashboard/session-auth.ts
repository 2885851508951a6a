// Authorisation of dashboard calls: the session cookie names the account (never an API key), and a
// state change needs the session's CSRF token in X-CSRF-Token and, when the browser sends an Origin,
// an Origin of this very server. A session sees only its own account.
import type { RequestContext } from '../front/route.js';
import type { Engine } from '../engine/engine.js';
import { api_error, invalid, type ApiError } from '../errors.js';
import { suspended_in_tree } from '../engine/agent-tree.js';
import { read_cookie, session_cookie, type SessionStore, type SessionRecord } from './sessions.js';
import type { AccountRecord, Environment } from '../engine/records.js';
import { fail } from '../lib/assert.js';
import { DashboardRateLimit } from './dashboard-rate-limit.js';
import { session_acting } from './session-acting.js';

const session_by_ctx = new WeakMap<RequestContext, SessionRecord>();

export function session_of(ctx: RequestContext): SessionRecord {
  const record = session_by_ctx.get(ctx);
  if (record === undefined) fail('session route without a session');
  return record;
}

/** Same-origin check for browser requests that change state (and for sign-in itself). */
export function origin_ok(ctx: RequestContext): boolean {
  const origin = ctx.headers.origin;
  if (origin === '') return true; // not a browser cross-origin request: the CSRF token decides
  try {
    return new URL(origin).host === ctx.headers.host;
  } catch {
    return false;
  }
}

/**
 * Why an account may not use the dashboard, or null (docs/api.md "Agents"): as its keys are refused, so
 * are its sign-in and its open sessions. A closed agent is gone for good: its open session is as if
 * signed out (session.required), and its sign-in is answered as a wrong password. A suspended one, or
 * one under a suspended account, is 403 account.suspended, saying so; reactivated, its session works again.
 */
export function session_refusal(engine: Engine, account: AccountRecord): ApiError | null {
  if (account.status === 'closed') return api_error('session.required');
  // Any account, the top of a tree too: the operator suspends resellers as well (PATCH /admin/accounts/{id}).
  if (suspended_in_tree(engine, account)) return api_error('account.suspended', suspended_message);
  return null;
}

/** The refusal a suspended account's sign-in and session show in the dashboard. */
export const suspended_message = 'This account, or an account above it, is suspended: it cannot use the dashboard until it is reactivated.';

export function environment_param(ctx: RequestContext): Environment | null {
  const value = new URLSearchParams(ctx.query).get('environment');
  if (value === null) return 'live';
  return value === 'live' || value === 'test' ? value : null;
}

/**
 * The session, its CSRF token for a change, the environment; then, for a change or a costly read,
 * one request from the session's and the account's rate windows (dashboard-rate-limit.ts).
 */
export function authorize_session(engine: Engine, sessions: SessionStore, limits: DashboardRateLimit, ctx: RequestContext, now_ms: number): ApiError | null {
  const id = read_cookie(ctx.headers.cookie, session_cookie);
  const record = sessions.find(id);
  if (record === null) return api_error('session.required');
  const actor = engine.accounts.get(record.account_id);
  if (actor === undefined) return api_error('session.required');
  const refused = session_refusal(engine, actor.account);
  if (refused !== null) return refused;
  if (ctx.method !== 'GET' && (!origin_ok(ctx) || !sessions.csrf_ok(record, ctx.headers.csrf_token))) {
    return api_error('session.csrf_failed');
  }
  const environment = environment_param(ctx);
  if (environment === null) {
    return invalid('environment', 'must be live or test');
  }
  if (ctx.route !== null && DashboardRateLimit.limits(ctx.method, ctx.route.path)) {
    const refused = limits.take(id, actor.id, now_ms);
    if (refused !== null) return refused;
  }
  // A parent reading its agent's orders (session-acting.ts); the rate windows above stay the session's.
  const agent = session_acting(engine, ctx, actor);
  if (agent !== null && 'code' in agent) return agent;
  if (agent !== null) ctx.key_account_id = actor.id;
  ctx.actor = agent ?? actor;
  ctx.environment = environment;
  ctx.session_id = id;
  // Only a change can debit: a read needs no check carried to a command (docs/decisions.md "Authority at the debit").
  if (ctx.method !== 'GET') ctx.authority = { kind: 'session', still_valid: sessions.validity(id) };
  session_by_ctx.set(ctx, record);
  return null;
}
