// What one signed-in tenant may ask of the dashboard (docs/api.md "Dashboard and documentation",
// docs/operations.md "Dashboard rate limit"). An API key has its own per-minute limit; a session had
// none, so one reseller could send its PIN change (two scrypt runs) or an export of 10,000 rows as fast
// as its connections allowed (second hostile review, row 1). Every state change and every costly read
// (the exports and the trend) takes one token from the session's bucket and one from the account's, so
// that opening more sessions does not buy more. A bucket rather than a fixed window: a window of 60 a
// minute let 60 PIN changes (120 scrypt runs) arrive in the same instant and fill the hash lanes for
// seconds; a bucket lets a short burst through, then the steady rate. Buckets refill in real time, not
// scaled by TIME_SCALE, as the API keys' windows (docs/decisions.md). Past either, 429
// rate_limit.exceeded with Retry-After.
import { api_error, type ApiError } from '../errors.js';
import { sha256_hex } from '../lib/secrets.js';
import type { DashboardRateConfig } from '../config.js';

/** The defaults of the limits (DASHBOARD_* settings, docs/operations.md "Dashboard rate limit"). */
export const dashboard_rate_defaults: DashboardRateConfig = { session_per_minute_max: 60, session_burst_max: 10, account_per_minute_max: 120, account_burst_max: 20 };
/** Sessions whose bucket is tracked; the least recently used is forgotten beyond it. */
export const dashboard_rate_sessions_max = 100_000;
/** Accounts whose bucket is tracked; the least recently used is forgotten beyond it. */
export const dashboard_rate_accounts_max = 100_000;

/** The reads that cost more than a page: limited like the changes (GET /dashboard/api/...). */
export const dashboard_costly_reads: readonly string[] = ['/dashboard/api/export/orders', '/dashboard/api/export/wallet', '/dashboard/api/trend'];

interface Bucket {
  tokens: number;
  updated_ms: number;
}

/** Token buckets by key, at most entries_max, the least recently used forgotten first (a full bucket). */
class Buckets<K> {
  private readonly buckets = new Map<K, Bucket>();

  constructor(private readonly entries_max: number, private readonly per_minute: number, private readonly burst: number) {}

  /** The key's bucket, refilled to now. */
  current(key: K, now_ms: number): Bucket {
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      if (this.buckets.size >= this.entries_max) this.buckets.delete(this.buckets.keys().next().value!);
      bucket = { tokens: this.burst, updated_ms: now_ms };
    } else {
      // Re-inserted, so that the map's order is the last use and eviction takes the least recent.
      this.buckets.delete(key);
      const elapsed_ms = Math.max(0, now_ms - bucket.updated_ms);
      bucket.tokens = Math.min(this.burst, bucket.tokens + (elapsed_ms * this.per_minute) / 60_000);
      bucket.updated_ms = now_ms;
    }
    this.buckets.set(key, bucket);
    return bucket;
  }

  /** Milliseconds until the bucket holds one whole token. */
  wait_ms(bucket: Bucket): number {
    return Math.max(0, ((1 - bucket.tokens) * 60_000) / this.per_minute);
  }
}

export class DashboardRateLimit {
  /** By SHA-256 of the session's cookie value, as the session store keys it: no cookie is kept. */
  private readonly sessions: Buckets<string>;
  private readonly accounts: Buckets<number>;
  /** Requests refused since start (operator figures, tests). */
  refused = 0;

  constructor(private readonly limits_of: DashboardRateConfig = dashboard_rate_defaults) {
    this.sessions = new Buckets(dashboard_rate_sessions_max, limits_of.session_per_minute_max, limits_of.session_burst_max);
    this.accounts = new Buckets(dashboard_rate_accounts_max, limits_of.account_per_minute_max, limits_of.account_burst_max);
  }

  /** Whether a dashboard request of this method and path is counted: signing out never is. */
  static limits(method: string, path: string): boolean {
    if (method === 'DELETE' && path === '/dashboard/api/session') return false;
    return method !== 'GET' || dashboard_costly_reads.includes(path);
  }

  /**
   * Takes one token from the session's and the account's bucket, or none and rate_limit.exceeded
   * when either is empty (a refused request costs neither, so a retry after Retry-After succeeds).
   */
  take(session_id: string, account_id: number, now_ms: number): ApiError | null {
    const session = this.sessions.current(sha256_hex(session_id), now_ms);
    const account = this.accounts.current(account_id, now_ms);
    const session_empty = session.tokens < 1;
    const account_empty = account.tokens < 1;
    if (!session_empty && !account_empty) {
      session.tokens -= 1;
      account.tokens -= 1;
      return null;
    }
    this.refused++;
    const wait_ms = Math.max(session_empty ? this.sessions.wait_ms(session) : 0, account_empty ? this.accounts.wait_ms(account) : 0);
    const seconds = Math.max(1, Math.ceil(wait_ms / 1000));
    // The account's limit is named when it is reached: another session would not help.
    const l = this.limits_of;
    const what = account_empty
      ? `${l.account_per_minute_max} dashboard changes and exports per minute (${l.account_burst_max} at once) for this account`
      : `${l.session_per_minute_max} dashboard changes and exports per minute (${l.session_burst_max} at once) for this session`;
    return api_error('rate_limit.exceeded', `Rate limit of ${what} exceeded; retry in ${seconds} second(s).`, {
      headers: { 'Retry-After': String(seconds) },
    });
  }
}
