// The one error catalogue (docs/style.md "Errors"): every code the service can answer with, its HTTP status
// and its default message. Codes are permanent (docs/spec.md section 9); messages may change.
// The codes of docs/spec.md section 7 come first, then the ones docs/decisions.md adds, then the ones we added
// where both were silent (recorded in the the error table of docs/api.md).

export const error_catalogue = {
  // Spec section 7.
  'auth.invalid_key': { status: 401, message: 'Authorization header missing or not in the form "Bearer <API_KEY>".' },
  'auth.key_not_found': { status: 401, message: 'API key unknown or revoked.' },
  'auth.key_expired': { status: 401, message: 'API key expired.' },
  'auth.ip_not_allowed': { status: 403, message: 'Request IP address is not in this key\'s allowlist.' },
  'wallet.insufficient_funds': { status: 422, message: 'Wallet balance is too low for this purchase.' },
  'wallet.not_found': { status: 404, message: 'No wallet for this account.' },
  'wallet.limit_exceeded': { status: 422, message: 'Daily wallet limit for the account\'s KYC level exceeded.' },
  'transaction.failed': { status: 422, message: 'Transaction failed; the wallet was refunded automatically.' },
  'transaction.not_found': { status: 404, message: 'Transaction reference unknown.' },
  'transaction.provider_unavailable': { status: 503, message: 'Provider temporarily unavailable; retry in 60 seconds.' },
  'service.plan_not_found': { status: 422, message: 'Data plan missing or disabled.' },
  'service.invalid_meter': { status: 422, message: 'Meter number unknown to the distribution company.' },
  'service.invalid_smartcard': { status: 422, message: 'Smartcard or IUC number unknown.' },
  'service.amount_mismatch': { status: 422, message: 'Amount differs from the price.' },
  'service.invalid_profile': { status: 422, message: 'JAMB profile ID unknown.' },
  'service.invalid_account': { status: 422, message: 'Internet account unknown to the provider.' },
  'pin.incorrect': { status: 403, message: 'Wrong transaction PIN.' },
  'pin.locked': { status: 429, message: 'Too many wrong PIN attempts; purchases are locked for a while.' },
  'pin.not_set': { status: 403, message: 'No transaction PIN set; set it in the profile.' },
  'keys.limit_reached': { status: 422, message: 'The account already has 5 active API keys.' },
  'keys.not_found': { status: 404, message: 'API key id unknown.' },
  'rate_limit.exceeded': { status: 429, message: 'Too many requests; retry after the time in the Retry-After header.' },

  // docs/decisions.md "Errors we add".
  'validation.failed': { status: 400, message: 'The request is not valid.' },
  'request.malformed_json': { status: 400, message: 'The request body is not valid JSON.' },
  'request.too_large': { status: 413, message: 'The request body is larger than 16 KiB.' },
  'request.unsupported_media_type': { status: 415, message: 'The request body must be sent as application/json.' },
  'route.not_found': { status: 404, message: 'No such route.' },
  'route.method_not_allowed': { status: 405, message: 'Method not allowed on this route.' },
  'auth.insufficient_scope': { status: 403, message: 'This API key lacks the scope this operation needs.' },
  'idempotency.key_reused': { status: 422, message: 'This X-Idempotency-Key was already used for a different request.' },
  'internal.error': { status: 500, message: 'Internal error; it has been logged.' },

  // Ours, where the spec and docs/decisions.md are silent (docs/api.md "Errors").
  'service.unavailable': { status: 503, message: 'The service cannot accept changes right now; retry shortly.' },
  // docs/api.md "Deeper verification": refusals decided from the verification a purchase does anyway.
  'service.amount_below_minimum': { status: 422, message: 'Amount is below the minimum the distribution company accepts for this meter.' },
  'service.meter_cannot_vend': { status: 422, message: 'The distribution company does not accept payments for this meter now.' },
  'service.renewal_unavailable': { status: 422, message: 'The provider gives no renewal amount for this smartcard; buy a package with subscription_type change.' },
  'account.not_found': { status: 404, message: 'Account unknown.' },
  'account.email_taken': { status: 409, message: 'An account with this email already exists.' },
  'operator.unauthorized': { status: 401, message: 'Operator token missing or wrong.' },
  'webhooks.not_found': { status: 404, message: 'Webhook endpoint unknown.' },
  'webhooks.delivery_not_found': { status: 404, message: 'Webhook delivery unknown.' },
  'webhooks.limit_reached': { status: 422, message: 'The environment already has 10 webhook endpoints.' },
  'webhooks.delivery_not_retryable': { status: 409, message: 'This delivery was cancelled (its endpoint was disabled); it cannot be retried.' },
  'funding.invalid_signature': { status: 401, message: 'Funding notification signature missing or wrong.' },
  'session.required': { status: 401, message: 'Sign in to the dashboard first; the session is missing or expired.' },
  'session.invalid_credentials': { status: 401, message: 'Email or password is wrong.' },
  'session.locked': { status: 429, message: 'Too many wrong passwords; sign-in is locked for a while.' },
  'transaction.duplicate_reference': { status: 409, message: 'This client_reference already names an order of this account and environment; nothing was debited.' },
  'session.csrf_failed': { status: 403, message: 'Missing or wrong CSRF token, or a cross-site request.' },
  'batch.not_found': { status: 404, message: 'Bulk order id unknown.' },
  // docs/api.md "Statements", "Receipts and re-delivery".
  'statement.too_large': { status: 422, message: 'This day has more wallet entries than one statement holds.' },
  'webhooks.no_endpoint': { status: 409, message: 'No enabled webhook endpoint of this environment subscribes to this order\'s final event.' },
  'transaction.not_final': { status: 409, message: 'The order is not final yet (pending or processing): it has no final event to re-send.' },
  // docs/api.md "Phone lookup": a network that contradicts the number's prefix (or where it was last delivered).
  'service.network_mismatch': { status: 422, message: 'The network differs from the one the phone number is on; send ported: true if the number was ported.' },
  // docs/api.md "Cancel before sending".
  'transaction.not_cancellable': { status: 409, message: 'Only an item of a bulk order still waiting to be sent can be cancelled.' },
  // docs/api.md "International airtime and data": a purchase names a quote of the same account and environment.
  'service.quote_not_found': { status: 404, message: 'Quote id unknown, or another account\'s or environment\'s.' },
  'service.quote_expired': { status: 422, message: 'The quote has expired; ask for a new one.' },
  'service.product_not_found': { status: 422, message: 'No such country, operator, product type or product for international airtime and data.' },
  // docs/funding.md: dedicated accounts, provider callbacks and their exceptions.
  'funding.not_configured': { status: 404, message: 'This funding route is not configured on this server.' },
  'funding.exception_not_found': { status: 404, message: 'Funding exception id unknown.' },
  'funding.exception_resolved': { status: 409, message: 'This funding exception is resolved already.' },
  // docs/api.md "Agents".
  'account.suspended': { status: 403, message: 'This account, or an account above it, is suspended; its keys are refused.' },
  'agents.depth_limit_reached': { status: 422, message: 'An agent at the third level of a tree cannot have agents of its own.' },
  'agents.closed': { status: 409, message: 'The agent is closed; nothing can change it.' },
  'agents.not_closable': { status: 409, message: 'The agent still has open agents or open orders.' },
  'agents.not_direct_agent': { status: 422, message: 'Money moves only between an agent and its own parent.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof error_catalogue;

export interface ErrorDetail {
  field: string;
  message: string;
}

/** A business or request error as data (docs/style.md: outcomes are data, not exceptions). */
export interface ApiError {
  code: ErrorCode;
  message?: string;
  details?: ErrorDetail[];
  /** Extra members of the error object, e.g. the reference of a failed transaction. */
  extra?: Record<string, unknown>;
  /** Extra response headers, e.g. Retry-After. */
  headers?: Record<string, string>;
}

/** The outcome of a command outside the engine that answers with the API's errors itself (webhook endpoints, deliveries). */
export type ApiOutcome<T> = { ok: true; value: T } | { ok: false; error: ApiError };

export function failed(error: ApiError): { ok: false; error: ApiError } {
  return { ok: false, error };
}

export function api_error(code: ErrorCode, message?: string, more?: Partial<ApiError>): ApiError {
  return { code, message, ...more };
}

/**
 * 400 validation.failed naming what is wrong: "The request is not valid: " then each detail's field and
 * message, joined by "; " (docs/api.md "Errors"). The one builder of that message, for every layer.
 */
export function invalid_fields(details: ErrorDetail[]): ApiError {
  return api_error('validation.failed', 'The request is not valid: ' + details.map((d) => `${d.field} ${d.message}`).join('; ') + '.', { details });
}

/** 400 validation.failed for one field: `invalid('to', 'must not be before from')`. */
export function invalid(field: string, message: string): ApiError {
  return invalid_fields([{ field, message }]);
}

/** 400 validation.failed listing every problem in details, the message naming the first (price lists, reports). */
export function invalid_first_named(details: ErrorDetail[]): ApiError {
  return { ...invalid(details[0].field, details[0].message), details };
}

export function error_status(code: ErrorCode): number {
  return error_catalogue[code].status;
}

export function is_error_code(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(error_catalogue, code);
}
