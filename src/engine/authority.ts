// Who a debit acts for (docs/decisions.md "Authority at the debit"). The front end authenticates a request
// from its headers when it arrives, but a purchase then awaits (a PIN's scrypt, a recipient's verification
// that may take seconds), and a key revoked or a session ended meanwhile must not pay for it: the command
// that debits (place_order) checks the request's authority again, synchronously, against the account's
// state as it is at that moment. The authority is data the front end builds once, when it authenticates;
// the check is a read and stages nothing.
import type { CommandActor } from './command-actor.js';
import type { Scope } from './records.js';
import type { Refusal } from './refusal.js';
import { any_contains, parse_ip } from '../lib/ip-address.js';
import { fail } from '../lib/assert.js';
import { suspended_in_tree } from './agent-tree.js';

export type Authority =
  /**
   * An API key of this account: checked again for revocation, expiry, its IP allowlist (against the
   * request's address, given only when the key has an allowlist) and the scope the route needs.
   */
  | { kind: 'api_key'; key_id: number; scope: Scope | null; remote_ip: string }
  /**
   * An API key of an account above this one, acting for it (Billvend-Account, docs/api.md "Acting for an
   * agent"): the key is checked again as above, in its own account, and must still hold agents:manage.
   */
  | { kind: 'acting'; account_id: number; key_id: number; scope: Scope | null; remote_ip: string }
  /**
   * A dashboard session: the session store lives above the engine, so it hands in its own synchronous
   * check (the session still open, not expired, and signed in under the account's current password).
   */
  | { kind: 'session'; still_valid: () => boolean }
  /** No caller's credential: the engine's in-process tests and the bench's store seeder; nothing in src/ places under it. */
  | { kind: 'internal' };

/** Why the authority no longer allows a debit of this account, or null when it still does. */
export function authority_refusal(actor: CommandActor, authority: Authority, now_ms: number): Refusal | null {
  // An account suspended (or under an account suspended) while its request awaited (docs/api.md "Agents").
  if (authority.kind !== 'internal' && suspended_in_tree(actor.engine, actor.account)) return { refusal: 'account_suspended' };
  switch (authority.kind) {
    case 'api_key':
      return key_refusal(actor, authority.key_id, authority.scope, authority.remote_ip, now_ms);
    case 'acting': {
      const holder = actor.engine.accounts.peek(authority.account_id) ?? actor.engine.accounts.get(authority.account_id);
      if (holder === undefined) fail(`account ${authority.account_id} acted for account ${actor.id} and vanished`);
      return key_refusal(holder, authority.key_id, authority.scope, authority.remote_ip, now_ms)
        ?? key_refusal(holder, authority.key_id, 'agents:manage', authority.remote_ip, now_ms);
    }
    case 'session':
      return authority.still_valid() ? null : { refusal: 'session_ended' };
    case 'internal':
      return null;
  }
}

/** Why the account's key no longer allows the request: the answers front/auth.ts gives a request that arrives with it now. */
function key_refusal(holder: CommandActor, key_id: number, scope: Scope | null, remote_ip: string, now_ms: number): Refusal | null {
  const key = holder.keys.get(key_id);
  if (key === undefined) fail(`key ${key_id} authorised a request of account ${holder.id}, which does not hold it`);
  const record = key.record;
  if (record.revoked_us !== null) return { refusal: 'key_revoked' };
  if (record.expires_ms !== null && now_ms >= record.expires_ms) return { refusal: 'key_expired' };
  if (key.cidrs.length > 0 && !any_contains(key.cidrs, parse_ip(remote_ip))) return { refusal: 'key_ip_not_allowed', remote_ip };
  if (!key.has_scope(scope)) return { refusal: 'key_scope_missing', scope: scope ?? '*' };
  return null;
}
