// The dashboard's session (docs/api.md "Dashboard and documentation"): sign-in with email and password,
// the session the app reads on every load (and the probe that answers a signed-out browser), sign-out.
import type { Static } from 'typebox';
import Type from 'typebox';
import type { Deps } from '../front/deps.js';
import type { RouteDef } from '../front/route.js';
import { error_reply, success_reply } from '../lib/reply.js';
import { account_view } from '../front/views.js';
import { api_error } from '../errors.js';
import { service_type_names } from '../services/order.js';
import type { AccountActor } from '../engine/account-actor.js';
import type { Environment } from '../engine/records.js';
import { clear_cookie_header, read_cookie, session_cookie, session_cookie_header, session_absolute_ms, sign_in_busy_error, SignInGuard, type SessionStore } from './sessions.js';
import { origin_ok, session_of, session_refusal, suspended_message } from './session-auth.js';
import { bulk_items_max } from '../schemas/bulk-schemas.js';
import { agent_depth_max, depth_of } from '../engine/agent-tree.js';
import { biller_display_names, service_display_names } from '../engine/display-names.js';
import { dashboard_doc as doc } from './route-doc.js';

const SignInBody = Type.Object({
  email: Type.String({ minLength: 3, maxLength: 254, errorMessage: 'must be an email address' }),
  password: Type.String({ minLength: 1, maxLength: 200, errorMessage: 'is required' }),
});

/** Where the dashboard opens: Test while the account has test activity and none live yet. */
function landing_environment(actor: AccountActor): Environment {
  const { live, test } = actor.wallets;
  const live_quiet = live.orders_count === 0 && live.entries_count === 0;
  return live_quiet && (test.orders_count > 0 || test.entries_count > 0) ? 'test' : 'live';
}

export function sign_in_session_routes(deps: Deps, sessions: SessionStore): RouteDef[] {
  const { engine, clock } = deps;
  const secure = (deps.config.public_base_url ?? '').startsWith('https:');
  const sign_in_guard = new SignInGuard(deps.config.sign_in, deps.wheel, deps.hash_lanes.password);
  const display_names = { services: service_display_names, billers: biller_display_names };
  /** Whether the account may have agents (the Agents page): above the tree's last level (docs/api.md "Agents"). */
  const agents_allowed = (actor: AccountActor) => depth_of(engine, actor.account) < agent_depth_max;

  /** The session as the app reads it; service_types: every family on sale, so the app lists none of its own. */
  const session_view = (record: { csrf_token: string; expires_ms: number }, actor: AccountActor) => ({
    account: { ...account_view(actor.account), pin_set: actor.account.pin_hash !== null },
    csrf_token: record.csrf_token,
    expires_at: new Date(record.expires_ms).toISOString(),
    landing_environment: landing_environment(actor),
    service_types: service_type_names,
    /** The bulk upload's row limit: the bulk API's own (docs/api.md "Bulk orders"). */
    bulk_items_max,
    /** The one table of names as people write them (engine/display-names.ts): the app keeps none of its own. */
    display_names,
    agents_allowed: agents_allowed(actor),
  });

  return [
    {
      method: 'post',
      path: '/dashboard/api/session',
      auth: 'none',
      body: SignInBody,
      idempotent: false,
      doc: doc('Sign in with email and password'),
      handler: async (ctx) => {
        if (!origin_ok(ctx)) return error_reply(ctx.request_id, api_error('session.csrf_failed'));
        const body = ctx.body as Static<typeof SignInBody>;
        // Read before any await, while the response is open; behind TRUSTED_PROXIES, the client's.
        const address = ctx.remote_ip;
        const refused = sign_in_guard.locked(address, body.email, clock.now_ms()) ?? sign_in_guard.admit(address, clock.now_ms());
        if (refused !== null) return error_reply(ctx.request_id, refused);
        const actor = engine.account_by_email(body.email);
        const correct = await sign_in_guard.check(body.password, actor?.account.password_hash ?? null);
        if (correct === 'busy') return error_reply(ctx.request_id, sign_in_busy_error());
        // A known and an unknown email part only here, after the same work: same answers from now on.
        if (!correct || actor === undefined) return error_reply(ctx.request_id, sign_in_guard.wrong_password(address, body.email, clock.now_ms()));
        // An agent closed for good signs in no more: answered as a wrong password, the email told apart
        // by nothing. A suspended one is told so, the password being right (docs/api.md "Agents").
        if (actor.account.status === 'closed') return error_reply(ctx.request_id, sign_in_guard.wrong_password(address, body.email, clock.now_ms()));
        const barred = session_refusal(engine, actor.account);
        if (barred !== null) return error_reply(ctx.request_id, barred);
        ctx.actor = actor;
        sign_in_guard.signed_in(address, body.email);
        const { id, record } = sessions.open(actor);
        ctx.extra_headers.push(['Set-Cookie', session_cookie_header(id, Math.floor(deps.wheel.scaled(session_absolute_ms) / 1000), secure)]);
        // The session as GET /dashboard/api/session answers it, without pin_set (as the sign-in has always answered).
        return success_reply(ctx.request_id, 201, { ...session_view(record, actor), account: account_view(actor.account) }, 'Signed in.');
      },
    },
    {
      method: 'get',
      path: '/dashboard/api/session',
      auth: 'session',
      doc: doc('The current session'),
      handler: (ctx) => success_reply(ctx.request_id, 200, session_view(session_of(ctx), ctx.actor!)),
    },
    {
      // The app's first question on every load: 200 either way, so that a signed-out browser (the
      // sign-in page) logs no 401 in its console; GET /dashboard/api/session still answers 401 without one.
      method: 'get',
      path: '/dashboard/api/session/probe',
      auth: 'none',
      doc: doc('Whether this browser is signed in: the session, or null'),
      handler: (ctx) => {
        const record = sessions.find(read_cookie(ctx.headers.cookie, session_cookie));
        const actor = record === null ? undefined : engine.accounts.get(record.account_id);
        // A session of an agent since suspended or closed opens no desk: the app shows why on its sign-in page.
        const refused = actor === undefined ? null : session_refusal(engine, actor.account);
        if (record === null || actor === undefined || refused !== null) {
          return success_reply(ctx.request_id, 200, { session: null, refused: refused === null || refused.code === 'session.required' ? null : { code: refused.code, message: refused.message ?? suspended_message } });
        }
        return success_reply(ctx.request_id, 200, { session: session_view(record, actor) });
      },
    },
    {
      method: 'delete',
      path: '/dashboard/api/session',
      auth: 'session',
      doc: doc('Sign out'),
      handler: (ctx) => {
        sessions.close(ctx.session_id!);
        ctx.extra_headers.push(['Set-Cookie', clear_cookie_header(secure)]);
        const reply = success_reply(ctx.request_id, 200, null, 'Signed out.');
        return engine.journal.durable().then(() => reply);
      },
    },
  ];
}
