// "Reply once durable" (ARCHITECTURE.md "The shape in one paragraph"): a reply leaves only once the commit
// holding what it reports is flushed. One gate for the routes: they hand over their reply and what it waits
// for (the account's staged changes, actor.settled(); those a read saw, actor.read_settled(); a delivery's,
// dispatcher.settled(actor)), and get the reply at once when nothing is pending.
import type { Reply } from '../lib/reply.js';

/**
 * The reply once `pending` (null: nothing pending) has settled; `reply` may be a function that builds it
 * then, for an answer that must show the state as it is once durable. The reply comes first: in
 * `once_durable(run_and_reply(), actor.settled())` the command runs before its commit is asked for.
 */
export function once_durable(reply: Reply | (() => Reply), pending: Promise<void> | null): Reply | Promise<Reply> {
  if (typeof reply === 'function') return pending === null ? reply() : pending.then(reply);
  return pending === null ? reply : pending.then(() => reply);
}
