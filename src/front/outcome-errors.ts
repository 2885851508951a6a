// The one place where the engine's refusals become the API's errors (docs/api.md error table,
// src/errors.ts): the code, the message, its details and extra members, and the Retry-After header of a
// lock or a full queue. The engine refuses with plain data (engine/refusal.ts), and so does the order desk
// (a purchase's refusal is answered in front/purchase.ts); bulk orders, whose items are placed in
// services/, are handed refusal_error by server/serve-store.ts. test/outcome-errors.test.ts checks every kind.
import { api_error, type ApiError } from '../errors.js';
import { format_naira } from '../lib/money.js';
import { error_reply, type Reply } from '../lib/reply.js';
import type { Refusal } from '../engine/refusal.js';

/** A lock's remaining time as whole seconds, at least 1: the message's count and Retry-After. */
function locked_error(code: 'pin.locked' | 'session.locked', what: string, remaining_ms: number): ApiError {
  const seconds = Math.max(1, Math.ceil(remaining_ms / 1000));
  return api_error(code, `${what} for ${seconds} more second(s).`, { headers: { 'Retry-After': String(seconds) } });
}

export function refusal_error(refusal: Refusal): ApiError {
  switch (refusal.refusal) {
    case 'amount_not_positive':
      return api_error('validation.failed', 'amount must be greater than 0', { details: [{ field: 'amount', message: 'must be greater than 0' }] });
    case 'funding_reference_foreign':
      return api_error('idempotency.key_reused', 'This funding reference was already used for another account.');
    case 'funding_reference_amount_differs':
      return api_error('idempotency.key_reused', 'This funding reference was already used with a different amount.');
    case 'keys_limit_reached':
      return api_error('keys.limit_reached');
    case 'key_not_found':
      return api_error('keys.not_found');
    case 'password_locked':
      return locked_error('session.locked', 'Too many wrong passwords; sign-in is locked', refusal.remaining_ms);
    case 'password_incorrect':
      return api_error('session.invalid_credentials');
    case 'pin_not_set':
      return api_error('pin.not_set');
    case 'pin_locked':
      return locked_error('pin.locked', 'Too many wrong PIN attempts; purchases are locked', refusal.remaining_ms);
    case 'pin_incorrect':
      return api_error('pin.incorrect', `Wrong transaction PIN; ${refusal.attempts_left} attempt(s) left before purchases are locked.`);
    case 'pin_check_busy':
      return api_error('rate_limit.exceeded', 'Too many transaction PINs are being checked; retry in 1 second(s).', { headers: { 'Retry-After': '1' } });
    case 'email_taken':
      return api_error('account.email_taken');
    case 'duplicate_client_reference':
      return api_error('transaction.duplicate_reference', `client_reference "${refusal.client_reference}" already names order ${refusal.reference}; nothing was debited.`, { extra: { reference: refusal.reference } });
    case 'daily_limit_exceeded':
      return api_error('wallet.limit_exceeded', refusal.limit_kobo === 0
        ? 'This account\'s KYC level does not allow purchases; ask for a KYC upgrade.'
        : `Daily wallet limit of ${format_naira(refusal.limit_kobo)} exceeded; ${format_naira(refusal.left_kobo)} left today (Africa/Lagos day).`);
    case 'insufficient_funds':
      return api_error('wallet.insufficient_funds', `Wallet balance ${format_naira(refusal.balance_kobo)} is below ${format_naira(refusal.charged_kobo)}.`);
    case 'open_orders_full':
      return api_error('service.unavailable', 'Too many orders of this account are still open; retry shortly.', { headers: { 'Retry-After': '5' } });
    case 'order_not_open':
      return api_error('transaction.not_found', 'No open order with this reference.');
    case 'order_not_cancellable':
      return api_error('transaction.not_cancellable', refusal.status === 'pending'
        ? 'Only an item of a bulk order still waiting to be sent can be cancelled; this order is being sent.'
        : `Only an item of a bulk order still waiting to be sent can be cancelled; this order is ${refusal.status}.`);
    // The answers front/auth.ts and dashboard/session-auth.ts give a request that arrives so: the
    // authority ended while this one was under way (docs/decisions.md "Authority at the debit").
    case 'key_revoked':
      return api_error('auth.key_not_found');
    case 'key_expired':
      return api_error('auth.key_expired');
    case 'key_ip_not_allowed':
      return api_error('auth.ip_not_allowed', `Requests from ${refusal.remote_ip} are not allowed for this key.`);
    case 'key_scope_missing':
      return api_error('auth.insufficient_scope', `This API key lacks the "${refusal.scope}" scope.`);
    case 'session_ended':
      return api_error('session.required');
    // docs/api.md "Agents".
    case 'account_suspended':
      return api_error('account.suspended');
    case 'agent_closed':
      return api_error('agents.closed');
    case 'agent_not_closable':
      return api_error('agents.not_closable', refusal.reason === 'agents'
        ? `The agent still has ${refusal.count} open agent(s) of its own; close them first.`
        : `The agent still has ${refusal.count} open order(s); close it once they are final.`);
    case 'transfer_reference_differs':
      return api_error('idempotency.key_reused', 'This transfer reference was already used for a different transfer.');
  }
}

/**
 * Refusals of the credentials presented rather than of the request: a retry with the right PIN under the
 * same idempotency key must run, so these answers are never remembered (docs/decisions.md "Idempotency").
 */
const credential_refusals: ReadonlySet<Refusal['refusal']> = new Set(['pin_not_set', 'pin_locked', 'pin_incorrect', 'password_locked', 'password_incorrect']);

export function refusal_reply(request_id: string, refusal: Refusal): Reply {
  const reply = error_reply(request_id, refusal_error(refusal));
  if (credential_refusals.has(refusal.refusal)) reply.remember = false;
  return reply;
}
