// Timestamps in the API are ISO 8601 UTC with microseconds (docs/spec.md section 2), e.g.
// 2026-11-21T10:15:30.123456Z. The KYC daily limit uses the Africa/Lagos calendar day (docs/decisions.md);
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

/** UTC calendar date as YYYYMMDD, for transaction references (docs/decisions.md "Names"); cached per day. */
export function utc_yyyymmdd(epoch_ms: number): string {
  const day = Math.floor(epoch_ms / day_ms);
  if (day !== cached_day) {
    cached_day = day;
    cached_yyyymmdd = new Date(day * day_ms).toISOString().slice(0, 10).replaceAll('-', '');
  }
  return cached_yyyymmdd;
}

// ---- Reading timestamps from input ---------------------------------------------------------------

/** The earliest and latest calendar years an input timestamp or date may name (UTC). */
export const timestamp_year_min = 1970;
export const timestamp_year_max = 2100;
/** Offsets beyond ±14:00 exist in no time zone (the farthest, Line Islands, is +14:00). */
export const timestamp_offset_minutes_max = 14 * 60;

const timestamp_pattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;
const date_pattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const days_before_min = Date.UTC(timestamp_year_min, 0, 1) / day_ms;
const days_after_max = Date.UTC(timestamp_year_max + 1, 0, 1) / day_ms;

function days_in_month(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days since the epoch of a calendar date that exists, else null. */
function calendar_day(year: number, month: number, day: number): number | null {
  if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month)) return null;
  return Date.UTC(year, month - 1, day) / day_ms;
}

/**
 * The one strict reader of timestamps in requests: RFC 3339 date-time with a capital T, 0 to 6
 * fraction digits and Z or a ±HH:MM offset of at most 14:00. A date that does not exist (Feb 30),
 * hour 24, second 60 and an instant outside the years 1970 to 2100 are refused rather than carried
 * over into the next day or year as Date.parse does. Returns microseconds since the epoch, or null.
 */
export function parse_timestamp_us(text: string): number | null {
  const match = timestamp_pattern.exec(text);
  if (match === null) return null;
  const day = calendar_day(Number(match[1]), Number(match[2]), Number(match[3]));
  const hour = Number(match[4]);
  const minute = Number(match[5]);
  const second = Number(match[6]);
  if (day === null || hour > 23 || minute > 59 || second > 59) return null;
  let offset_minutes = 0;
  if (match[8] === undefined) {
    const offset_hour = Number(match[10]);
    const offset_minute = Number(match[11]);
    if (offset_minute > 59) return null;
    offset_minutes = (offset_hour * 60 + offset_minute) * (match[9] === '-' ? -1 : 1);
    if (Math.abs(offset_minutes) > timestamp_offset_minutes_max) return null;
  }
  const fraction = match[7] === undefined ? 0 : Number(match[7].padEnd(6, '0'));
  const seconds = day * 86_400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
  if (seconds < days_before_min * 86_400 || seconds >= days_after_max * 86_400) return null;
  return seconds * 1_000_000 + fraction;
}

/** A calendar date YYYY-MM-DD that exists, within the same years: days since the epoch, or null. */
export function parse_date_days(text: string): number | null {
  const match = date_pattern.exec(text);
  if (match === null) return null;
  const day = calendar_day(Number(match[1]), Number(match[2]), Number(match[3]));
  if (day === null || day < days_before_min || day >= days_after_max) return null;
  return day;
}
