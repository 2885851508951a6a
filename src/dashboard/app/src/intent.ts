// One intent, one key: what the Buy page, the bulk upload and an agent's transfers share to make a
// double click or a retry after a lost answer run once (docs/decisions.md "Idempotency"). A page makes a
// key once per intent, sends it again while the intent is open, and makes a new one once an answer ran
// (or refused for good).
import type { ApiError } from './api.js';

/**
 * A fresh key: `prefix` and `bytes` random bytes in hex (the API's pattern A-Za-z0-9._:-, at most 64).
 * The length is the caller's: a purchase's key is never shown, a transfer's reference is listed on the
 * agent's page and must fit a 375 px screen (12 bytes; 16 overflowed). crypto.getRandomValues works
 * outside secure contexts too.
 */
export function new_intent_key(prefix: string, bytes: number): string {
  const random = crypto.getRandomValues(new Uint8Array(bytes));
  return prefix + Array.from(random, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Whether an answer leaves the intent unrun, so that the same key may be tried again: the server
 * remembers neither a refusal of the PIN nor a 401, 429 or 5xx (docs/decisions.md "Idempotency"), and with
 * no answer (status 0) the first try's outcome comes back under the same key.
 */
export function leaves_intent_open(refused: ApiError): boolean {
  return refused.status === 0 || refused.status === 401 || refused.status === 429 || refused.status >= 500 || refused.code.startsWith('pin.');
}

/** Naira typed by a person ("1,500" or "1500.50") as a number, or null. */
export function parse_amount(text: string): number | null {
  const clean = text.replace(/,/g, '').trim();
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(clean)) return null;
  return Number(clean);
}
