// Money is integer kobo inside (docs/decisions.md "Money"): 1 NGN = 100 kobo. The API shows and accepts NGN
// numbers with at most 2 decimals. Input numbers are converted through their shortest decimal text,
// so no floating-point arithmetic ever touches an amount.

export const kobo_per_naira = 100;
import { fail } from './assert.js';
/** Above this, an input amount is a validation error (docs/decisions.md). */
export const amount_naira_max = 100_000_000;
export const amount_kobo_max = amount_naira_max * kobo_per_naira;

export type KoboResult = { ok: true; kobo: number } | { ok: false; reason: string };

const decimal_text = /^(\d+)(?:\.(\d{1,2}))?$/;

/** Parses an NGN amount from JSON into integer kobo, refusing what docs/decisions.md refuses. */
export function naira_to_kobo(value: unknown): KoboResult {
  if (typeof value !== 'number') return { ok: false, reason: 'must be a number' };
  if (!Number.isFinite(value)) return { ok: false, reason: 'must be a finite number' };
  if (value < 0) return { ok: false, reason: 'must not be negative' };
  if (value > amount_naira_max) return { ok: false, reason: `must not exceed ${amount_naira_max} NGN` };
  // String(value) is the shortest text that round-trips, so 100.1 reads as "100.1", never 100.0999....
  const match = decimal_text.exec(String(value));
  if (match === null) return { ok: false, reason: 'must have at most 2 decimal places' };
  const whole = Number(match[1]);
  const fraction = match[2] === undefined ? 0 : Number(match[2].padEnd(2, '0'));
  return { ok: true, kobo: whole * kobo_per_naira + fraction };
}

/**
 * Integer kobo as the NGN number the API shows. k / 100 is a single correctly rounded IEEE division,
 * so for every integer below 2^53 it yields the double nearest to the exact decimal, whose shortest
 * text (what JSON.stringify prints) is that decimal: 12345 → 123.45, 10000 → 100.
 */
export function kobo_to_naira(kobo: number): number {
  return kobo / kobo_per_naira;
}

/** "₦1,234.50"-style text for messages. */
export function format_naira(kobo: number): string {
  const whole = Math.trunc(kobo / kobo_per_naira);
  const fraction = String(kobo % kobo_per_naira).padStart(2, '0');
  return `NGN ${whole.toLocaleString('en-NG')}.${fraction}`;
}

export function assert_kobo(kobo: number, what: string): void {
  if (!Number.isSafeInteger(kobo)) fail(`${what} is not an integer kobo amount: ${kobo}`);
}
