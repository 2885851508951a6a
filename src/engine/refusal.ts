// What a command of the engine refuses, as data (docs/style.md "Business outcomes are data"): the kind of
// refusal and the plain facts that explain it, never an HTTP status, an error code or a header. The front
// end alone turns a refusal into the API's error (front/outcome-errors.ts, one case per kind), so the
// engine says what happened and the front end says how the spec answers it.
export { ok } from '../lib/outcome.js';

export type Refusal =
  /** A credit of zero or less. */
  | { refusal: 'amount_not_positive' }
  /** An environment-wide funding reference another account already holds. */
  | { refusal: 'funding_reference_foreign' }
  /** A funding reference this account used before, with another amount. */
  | { refusal: 'funding_reference_amount_differs' }
  /** active_keys_max keys neither revoked nor expired already. */
  | { refusal: 'keys_limit_reached' }
  /** No such key on this account, or revoked already. */
  | { refusal: 'key_not_found' }
  /** Too many wrong passwords: confirming with the password is locked this long. */
  | { refusal: 'password_locked'; remaining_ms: number }
  | { refusal: 'password_incorrect' }
  | { refusal: 'pin_not_set' }
  /** Too many wrong PINs: purchases are locked this long. */
  | { refusal: 'pin_locked'; remaining_ms: number }
  | { refusal: 'pin_incorrect'; attempts_left: number }
  /** The PIN cache's lane is full: no verdict was reached (engine/pin-cache.ts). */
  | { refusal: 'pin_check_busy' }
  | { refusal: 'email_taken' }
  /** The client reference already names an order of this account and environment: `reference`. */
  | { refusal: 'duplicate_client_reference'; client_reference: string; reference: string }
  /** The day's spend plus this order passes the daily limit (0: the KYC level allows no purchase). */
  | { refusal: 'daily_limit_exceeded'; limit_kobo: number; left_kobo: number }
  | { refusal: 'insufficient_funds'; balance_kobo: number; charged_kobo: number }
  /** open_orders_max orders of this account are still open. */
  | { refusal: 'open_orders_full' }
  /** No open order with this reference (an operator's resolution). */
  | { refusal: 'order_not_open' }
  /** The order was sent to an upstream already, or is settled, or is no bulk item waiting to be sent (a cancel). */
  | { refusal: 'order_not_cancellable'; status: string }
  /**
   * The request's authority ended while it was under way (engine/authority.ts), checked in the command
   * that debits: its key was revoked, expired, or no longer allows its address or scope; its dashboard
   * session was signed out, expired, or its password changed.
   */
  | { refusal: 'key_revoked' }
  | { refusal: 'key_expired' }
  | { refusal: 'key_ip_not_allowed'; remote_ip: string }
  | { refusal: 'key_scope_missing'; scope: string }
  | { refusal: 'session_ended' }
  /** The account, or an account above it in its tree, is suspended (engine/agent-tree.ts). */
  | { refusal: 'account_suspended' }
  /** The agent is closed: nothing changes it any more. */
  | { refusal: 'agent_closed' }
  /** The agent still has open agents of its own, or open orders: `count` of them. */
  | { refusal: 'agent_not_closable'; reason: 'agents' | 'orders'; count: number }
  /** The transfer's reference names another transfer of this parent and environment already. */
  | { refusal: 'transfer_reference_differs' };

export type RefusalKind = Refusal['refusal'];

/** Every kind, for the front end's table test: a new kind must be added here and to its mapping. */
export const refusal_kinds = [
  'amount_not_positive', 'funding_reference_foreign', 'funding_reference_amount_differs', 'keys_limit_reached', 'key_not_found',
  'password_locked', 'password_incorrect', 'pin_not_set', 'pin_locked', 'pin_incorrect', 'pin_check_busy', 'email_taken',
  'duplicate_client_reference', 'daily_limit_exceeded', 'insufficient_funds', 'open_orders_full', 'order_not_open', 'order_not_cancellable',
  'key_revoked', 'key_expired', 'key_ip_not_allowed', 'key_scope_missing', 'session_ended',
  'account_suspended', 'agent_closed', 'agent_not_closable', 'transfer_reference_differs',
] as const satisfies readonly RefusalKind[];

// Every kind is listed: this fails to compile when a kind is missing from refusal_kinds.
type Missing = Exclude<RefusalKind, (typeof refusal_kinds)[number]>;
const _all_listed: Missing extends never ? true : never = true;
void _all_listed;

/** A command's outcome: its value, or what it refused. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; refused: Refusal };

export function refused(refusal: Refusal): { ok: false; refused: Refusal } {
  return { ok: false, refused: refusal };
}
