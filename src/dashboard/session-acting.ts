// A parent's dashboard session reading one of its agents' orders (docs/api.md "Agents in the dashboard",
// docs/decisions.md "The agent's orders and prices in the dashboard"). The app sends Billvend-Account on the order
// reads, as an API key with agents:manage acts for an agent, and the same rule judges the id
// (front/acting-target.ts): an account strictly below the session's, anything else the same 404
// account.not_found. The session's stand-in for agents:manage is that its account may have agents (the
// Agents page's agents_allowed): an account at the tree's last level is refused as a key without the
// scope is, 403 auth.insufficient_scope, before the id is looked at.
//
// Read only: only the two order reads take the header, and a read carries no authority to a command
// (docs/decisions.md "Authority at the debit"), so nothing here can move an agent's money. Any other
// dashboard route is refused with it (400), rather than ignoring it and answering for the parent's own
// account.
import type { Engine } from '../engine/engine.js';
import type { AccountActor } from '../engine/account-actor.js';
import type { RequestContext } from '../front/route.js';
import { api_error, invalid, type ApiError } from '../errors.js';
import { agent_depth_max, depth_of } from '../engine/agent-tree.js';
import { acting_target } from '../front/acting-target.js';

/** The dashboard routes a session may call for one of its agents, as "method path". */
export const session_acting_routes: ReadonlySet<string> = new Set(['get /dashboard/api/orders', 'get /dashboard/api/orders/:reference']);

/** The agent a session reads for, null when the request names none, or why it may not. */
export function session_acting(engine: Engine, ctx: RequestContext, caller: AccountActor): AccountActor | ApiError | null {
  if (ctx.headers.acting_account === '') return null;
  const route = ctx.route;
  if (route === null || !session_acting_routes.has(`${route.method} ${route.path}`)) {
    const message = 'is taken by the dashboard only on GET /dashboard/api/orders and GET /dashboard/api/orders/{reference}';
    return invalid('Billvend-Account', message);
  }
  if (depth_of(engine, caller.account) >= agent_depth_max) {
    return api_error('auth.insufficient_scope', `This account is at level ${agent_depth_max} of its tree and cannot have agents, so it cannot read for one (Billvend-Account).`);
  }
  return acting_target(engine, ctx, caller, 'session');
}
