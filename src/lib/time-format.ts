// Timestamps in the API are ISO 8601 UTC with microseconds (spec section 2), e.g.
// 2026-11-21T10:15:30.123456Z. The KYC daily limit uses the Africa/Lagos calendar day (decisions.md);
// Lagos is UTC+1 all year with no daylight saving, so the day is computed with integer arithmetic.

let cached_second = Number.NaN;
/** "2026-11-21T10:15:30." of cached_second. */
let cached_second_text = '';

/**
 * The date and time up to the second come from Date.toISOString once per second (a purchase and its
 * webhooks format several timestamps, mostly within the same second); the fraction is digits.
 */
export function iso_us(epoch_us: number): string {
  const second = Math.floor(epoch_us / 1_000_000);
  if (second !== cached_second) {
    cached_second = second;
    cached_second_text = new Date(second * 1000).toISOString().slice(0, 20); // 2026-11-21T10:15:30.
  }
  return cached_second_text + String(epoch_us - second * 1_000_000).padStart(6, '0') + 'Z';
}

export function iso_ms(epoch_ms: number): string {
  return iso_us(epoch_ms * 1000);
}

const lagos_offset_ms = 60 * 60 * 1000;
const day_ms = 24 * 60 * 60 * 1000;

/** Days since the epoch of the Africa/Lagos calendar day containing the instant. */
export function lagos_day(epoch_ms: number): number {
  return Math.floor((epoch_ms + lagos_offset_ms) / day_ms);
}

/** The instant (epoch ms) when the Africa/Lagos day after the given one begins. */
export function lagos_day_end_ms(day: number): number {
  return (day + 1) * day_ms - lagos_offset_ms;
}

let cached_day = -1;
let cached_yyyymmdd = '';

/** UTC calendar date as YYYYMMDD, for transaction references (decisions.md "Names"); cached per day. */
export function utc_yyyymmdd(epoch_ms: number): string {
  const day = Math.floor(epoch_ms / day_ms);
  if (day !== cached_day) {
    cached_day = day;
    cached_yyyymmdd = new Date(day * day_ms).toISOString().slice(0, 10).replaceAll('-', '');
  }
  return cached_yyyymmdd;
}
