// The error codes every purchase route can answer with, whatever its family (for the OpenAPI document).
export const purchase_errors = ['pin.incorrect', 'pin.locked', 'pin.not_set', 'wallet.insufficient_funds', 'wallet.limit_exceeded', 'transaction.failed', 'transaction.provider_unavailable', 'idempotency.key_reused', 'transaction.duplicate_reference'];
