// "Reply once durable" (ARCHITECTURE.md "The shape in one paragraph"): a reply leaves only once the commit
// holding what it reports is flushed. The front end holds every reply a handler gives at one gate
// (HttpFront.send_durable): until the changes staged for the request's own account (ctx.actor) are durable,
// as of the moment the handler answered, and whatever else the request declared here. Routes do not wait
// for their own commits; a route that changes another account (an operator's, an agent's, a provider
// callback's) or a delivery's bookkeeping says so once, with `acts_on` or `reply_waits_for`.
import type { AccountActor } from '../engine/account-actor.js';
import type { RequestContext } from './route.js';

/** The reply also waits until `pending()`, asked once the handler has answered, is durable (null: nothing pending). */
export function reply_waits_for(ctx: RequestContext, pending: () => Promise<void> | null): void {
  (ctx.durable_too ??= []).push(pending);
}

/** The request changed `actor`, not its own account: its reply waits for that account's commit too. */
export function acts_on(ctx: RequestContext, actor: AccountActor): void {
  if (actor !== ctx.actor) reply_waits_for(ctx, () => actor.settled());
}
