// How the dashboard shows money and time (docs/api.md "Dashboard and documentation", point 2): naira with thousands
// separators and kobo, times in Africa/Lagos whatever the browser's own zone. The formatters are
// built once; Intl objects are costly to create and these run for every table row.

const naira_format = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN' });

const lagos_time_format = new Intl.DateTimeFormat('en-NG', {
  timeZone: 'Africa/Lagos',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

const lagos_seconds_format = new Intl.DateTimeFormat('en-NG', {
  timeZone: 'Africa/Lagos',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});

const lagos_attempt_format = new Intl.DateTimeFormat('en-NG', {
  timeZone: 'Africa/Lagos',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});

const lagos_day_format = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos', year: 'numeric', month: '2-digit', day: '2-digit' });

/** ₦1,234,567.50 — the API gives NGN numbers with at most 2 decimals. */
export function naira(amount: number): string {
  return naira_format.format(amount);
}

/** "21 Nov 2026, 14:05" in Africa/Lagos (WAT, UTC+1, no daylight saving). */
export function lagos_time(iso: string | null | undefined): string {
  if (!iso) return '—';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : lagos_time_format.format(ms);
}

/** As lagos_time, with seconds: for status histories and webhook attempts. */
export function lagos_time_seconds(iso: string | null | undefined): string {
  if (!iso) return '—';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : lagos_seconds_format.format(ms);
}

/** "22 Nov, 02:20:23": webhook attempts, whose year is in the delivery's own date. */
export function lagos_attempt_time(iso: string | null | undefined): string {
  if (!iso) return '—';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : lagos_attempt_format.format(ms);
}

/** Today's calendar date in Lagos as YYYY-MM-DD (the orders filter speaks Lagos dates). */
export function lagos_today(now_ms = Date.now()): string {
  return lagos_day_format.format(now_ms);
}

/** "3 minutes ago" style, for last-used columns; falls back to the date beyond a week. */
export function time_ago(iso: string | null | undefined, now_ms = Date.now()): string {
  if (!iso) return 'Never';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const seconds = Math.round((now_ms - ms) / 1000);
  if (seconds < 45) return 'Just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 7) return `${days} day${days === 1 ? '' : 's'} ago`;
  return lagos_time(iso);
}

// Names as people write them (issue "The first ten minutes", finding 6): the one table of display names
// for families, networks, discos, TV, exam and internet providers. The families on sale are not listed
// here: the server sends them with the session (service_types), from the one list the API validates
// against; a family this table does not know shows by its own name.

/** Each family's label. */
const service_names: Record<string, string> = {
  airtime: 'Airtime', data: 'Data', electricity: 'Electricity', tv: 'Cable TV', education: 'Education', internet: 'Internet', showmax: 'Showmax', international: 'International',
};

/** Networks, discos (by service ID), TV, exam and internet providers, as people write them. */
const narrow_names: Record<string, string> = {
  mtn: 'MTN', airtel: 'Airtel', glo: 'Glo', '9mobile': '9mobile',
  dstv: 'DStv', gotv: 'GOtv', startimes: 'StarTimes', showmax: 'Showmax', 'foreign-airtime': 'International',
  waec: 'WAEC', jamb: 'JAMB', smile: 'Smile', spectranet: 'Spectranet',
  'eko-electric': 'Eko Electric', 'ikeja-electric': 'Ikeja Electric', 'abuja-electric': 'Abuja Electric',
  'ibadan-electric': 'Ibadan Electric', 'portharcourt-electric': 'Port Harcourt Electric', 'kaduna-electric': 'Kaduna Electric',
  'jos-electric': 'Jos Electric', 'kano-electric': 'Kano Electric', 'benin-electric': 'Benin Electric',
};

export function service_name(service_type: string): string {
  return service_names[service_type] ?? service_type;
}

/** A network, disco, or provider code as people write it ("DStv", "Ikeja Electric", "WAEC"). */
export function narrow_name(code: string): string {
  return narrow_names[code] ?? code;
}

/** What the order was for: network, disco or provider, as people write it. */
export function provider_label(order: { network?: string | null; disco?: string | null; provider?: string | null }): string {
  const code = order.network ?? order.disco ?? order.provider ?? '';
  return code === '' ? '' : narrow_name(code);
}

/** The families on sale, in the API's order: set from the session's service_types at sign-in. */
let families: readonly string[] = [];

/** Rows one bulk upload may hold, from the session (the bulk API's limit). */
let bulk_rows_max = 0;

export function set_service_types(list: readonly string[] | undefined, rows_max?: number): void {
  if (list !== undefined) families = list;
  if (rows_max !== undefined) bulk_rows_max = rows_max;
}

export function bulk_items_max(): number {
  return bulk_rows_max;
}

export function service_types(): readonly string[] {
  return families;
}
