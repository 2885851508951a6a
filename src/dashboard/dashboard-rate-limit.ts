// What one signed-in tenant may ask of the dashboard per minute (docs/api.md "Dashboard and
// documentation", docs/operations.md "Limits"). An API key has its own per-minute limit; a session
// had none, so one reseller could send its PIN change (two scrypt runs) or an export of 10,000 rows
// as fast as its connections allowed. Every state change and every costly read (the exports and the
// trend) takes one request from the session's window and one from the account's, so that opening
// more sessions does not buy more. Windows are fixed minutes and not scaled by TIME_SCALE, as the API
// keys' are (docs/decisions.md); past either, 429 rate_limit.exceeded with Retry-After.
import { api_error, type ApiError } from '../errors.js';
import { sha256_hex } from '../lib/secrets.js';

/** Requests per minute one session may make to the limited routes. */
export const dashboard_session_per_minute_max = 60;
/** Requests per minute all sessions of one account together may make to the limited routes. */
export const dashboard_account_per_minute_max = 120;
/** Sessions whose window is tracked; the oldest window is forgotten beyond it. */
export const dashboard_rate_sessions_max = 100_000;
/** Accounts whose window is tracked; the oldest window is forgotten beyond it. */
export const dashboard_rate_accounts_max = 100_000;
const window_ms = 60_000;

/** The reads that cost more than a page: limited like the changes (GET /dashboard/api/...). */
export const dashboard_costly_reads: readonly string[] = ['/dashboard/api/export/orders', '/dashboard/api/export/wallet', '/dashboard/api/trend'];

interface RateWindow {
  start_ms: number;
  count: number;
}

/** A map of fixed windows, at most entries_max, the oldest forgotten first. */
class Windows<K> {
  private readonly windows = new Map<K, RateWindow>();

  constructor(private readonly entries_max: number) {}

  /** The key's current window, a new one when the last ended. */
  current(key: K, now_ms: number): RateWindow {
    let window = this.windows.get(key);
    if (window === undefined || now_ms - window.start_ms >= window_ms) {
      // Re-inserted, so that the map's order is the windows' age and eviction takes the oldest.
      if (window !== undefined) this.windows.delete(key);
      else if (this.windows.size >= this.entries_max) this.windows.delete(this.windows.keys().next().value!);
      window = { start_ms: now_ms, count: 0 };
      this.windows.set(key, window);
    }
    return window;
  }

  get size(): number {
    return this.windows.size;
  }
}

export class DashboardRateLimit {
  /** By SHA-256 of the session's cookie value, as the session store keys it: no cookie is kept. */
  private readonly sessions = new Windows<string>(dashboard_rate_sessions_max);
  private readonly accounts = new Windows<number>(dashboard_rate_accounts_max);
  /** Requests refused since start (operator figures, tests). */
  refused = 0;

  /** Whether a dashboard request of this method and path is counted. */
  static limits(method: string, path: string): boolean {
    return method !== 'GET' || dashboard_costly_reads.includes(path);
  }

  /**
   * Takes one request from the session's and the account's window, or none and rate_limit.exceeded
   * when either is spent (a refused request costs neither, so a retry after Retry-After succeeds).
   */
  take(session_id: string, account_id: number, now_ms: number): ApiError | null {
    const session = this.sessions.current(sha256_hex(session_id), now_ms);
    const account = this.accounts.current(account_id, now_ms);
    const session_spent = session.count >= dashboard_session_per_minute_max;
    const account_spent = account.count >= dashboard_account_per_minute_max;
    if (!session_spent && !account_spent) {
      session.count++;
      account.count++;
      return null;
    }
    this.refused++;
    const reset_ms = Math.max(session_spent ? session.start_ms + window_ms : 0, account_spent ? account.start_ms + window_ms : 0);
    const seconds = Math.max(1, Math.ceil((reset_ms - now_ms) / 1000));
    const what = session_spent
      ? `${dashboard_session_per_minute_max} dashboard changes and exports per minute for this session`
      : `${dashboard_account_per_minute_max} dashboard changes and exports per minute for this account`;
    return api_error('rate_limit.exceeded', `Rate limit of ${what} exceeded; retry in ${seconds} second(s).`, {
      headers: { 'Retry-After': String(seconds) },
    });
  }
}
