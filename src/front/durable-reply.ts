// "Reply once durable" (ARCHITECTURE.md "The shape in one paragraph"): a reply leaves only once the commit
// holding what it reports is flushed. The front end holds every reply a handler gives at one gate
// (HttpFront.send_durable): until the changes staged for the request's own account (ctx.actor) are durable,
// as of the moment the handler answered, and whatever else the request declared here. Routes do not wait
// for their own commits; a route that changes another account (an operator's, an agent's, a provider
// callback's) or a delivery's bookkeeping says so once, with `acts_on` or `reply_waits_for`.
import type { AccountActor } from '../engine/account-actor.js';
import type { RequestContext } from './route.js';
import type { Reply } from '../lib/reply.js';

/**
 * Replies already held until their account's changes were durable as of their answer (a keyed request's flight,
 * front/idempotent-run.ts until_durable). The gate does not hold them again for the account's commit: by then
 * the account's pending commit is of later changes, other requests' (on a busy account, always), and waiting for
 * it held every keyed reply for one more group commit (bench of 2026-11-29: purchase-with-webhooks 7,276 -> 6,709
 * purchases/s, p50 13 -> 14 ms). What the request declared besides (acts_on, reply_waits_for) is still waited for.
 */
const settled_replies = new WeakSet<Reply>();

/** `reply` reports only account state that is durable now. */
export function settled(reply: Reply): Reply {
  settled_replies.add(reply);
  return reply;
}

export function is_settled(reply: Reply): boolean {
  return settled_replies.has(reply);
}

/** The reply also waits until `pending()`, asked once the handler has answered, is durable (null: nothing pending). */
export function reply_waits_for(ctx: RequestContext, pending: () => Promise<void> | null): void {
  (ctx.durable_too ??= []).push(pending);
}

/** The request changed `actor`, not its own account: its reply waits for that account's commit too. */
export function acts_on(ctx: RequestContext, actor: AccountActor): void {
  if (actor !== ctx.actor) reply_waits_for(ctx, () => actor.settled());
}
