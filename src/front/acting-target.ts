// The account a request names in Billvend-Account (docs/api.md "Acting for an agent", docs/decisions.md
// "Agents"): one rule for an API key acting for an agent (front/auth.ts) and for a parent's dashboard
// session reading its agent's orders (dashboard/session-acting.ts), so that both answer an id outside
// the caller's subtree alike.
import type { Engine } from '../engine/engine.js';
import type { AccountActor } from '../engine/account-actor.js';
import type { RequestContext } from './route.js';
import { api_error, invalid, type ApiError } from '../errors.js';
import { in_subtree, suspended_in_tree } from '../engine/agent-tree.js';
import { fail } from '../lib/assert.js';

/** A Billvend-Account value: an account id, as the API writes ids (1 to 2^53 - 1, no sign, no leading zero). */
const account_id_shape = /^[1-9][0-9]{0,15}$/;

/**
 * The agent Billvend-Account names, as Stripe's Stripe-Account: any account strictly below the caller's
 * account, a grandchild too. Anything else the header names (the caller's own account, its parent, a
 * sibling, a stranger, an id that does not exist) is the same 404, so that nothing is learnt of accounts
 * outside the caller's tree. The agent's suspension applies as to its own keys; a closed agent is read,
 * never changed. The walk up reads at most two records and builds no actor for a refused id.
 */
export function acting_target(engine: Engine, ctx: RequestContext, caller: AccountActor, who: string): AccountActor | ApiError {
  const text = ctx.headers.acting_account;
  const id = account_id_shape.test(text) ? Number(text) : 0;
  if (!Number.isSafeInteger(id) || id < 1) {
    const message = `must be the id of an agent of this ${who}'s account: a positive integer`;
    return invalid('Billvend-Account', message);
  }
  const record = engine.account_record(id);
  if (record === undefined || !in_subtree(engine, caller.id, record)) return api_error('account.not_found');
  if (suspended_in_tree(engine, record)) return api_error('account.suspended');
  if (record.status === 'closed' && ctx.method !== 'GET' && ctx.method !== 'HEAD') return api_error('agents.closed');
  const agent = engine.accounts.get(id);
  if (agent === undefined) fail(`account ${id} has a record and no actor`);
  return agent;
}
