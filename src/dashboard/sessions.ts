// Dashboard sessions (docs/api.md "Dashboard and documentation"): sign-in with the email and password the operator set, a
// session cookie that is HttpOnly, SameSite=Strict and Secure when served over TLS, a CSRF token
// required on every state change, idle and absolute expiry, and sign-out. Sessions survive restarts.
// The cookie carries a random id; the store keeps only its SHA-256, so a stolen store opens no session.
//
// Sign-in is open to anyone, so its cost is bounded (SignInGuard): per client address and overall
// rates, a bounded scrypt lane, and 5 wrong passwords lock that email for that address only. A lock
// anyone could set on the account itself would let anyone keep its owner out.
import type { Engine } from '../engine/engine.js';
import type { AccountActor } from '../engine/account-actor.js';
import type { TimerWheel } from '../lib/timer-wheel.js';
import type { Clock } from '../lib/clock.js';
import { sha256_hex, constant_time_equal, dummy_secret_hash, HashLane, type HashBusy } from '../lib/secrets.js';
import { api_error, type ApiError } from '../errors.js';
import type { SignInConfig } from '../config.js';

export const session_cookie = 'bv_session';
/** A session ends 12 hours after sign-in, or after 2 hours without use (both scaled by TIME_SCALE). */
export const session_absolute_ms = 12 * 60 * 60 * 1000;
export const session_idle_ms = 2 * 60 * 60 * 1000;
/** Live sessions kept in memory; the oldest are forgotten beyond it (they stay valid in the store). */
export const sessions_in_memory_max = 100_000;
/** last_seen is persisted at most this often per session, not on every request. */
const touch_interval_ms = 60_000;

export interface SessionRecord {
  account_id: number;
  csrf_token: string;
  created_ms: number;
  expires_ms: number;
  last_seen_ms: number;
  /**
   * password_stamp of the password the session signed in with: a password changed since ends it
   * (docs/decisions.md "Authority at the debit"). Absent in sessions opened before the stamp existed,
   * which end only as they did then (sign-out, expiry).
   */
  password_stamp?: string;
}

/**
 * What a session keeps of the password it signed in with: a SHA-256 of the account's scrypt hash, so
 * that any change of the password (a new salt even for the same password) is told apart, and the
 * record holds nothing that helps to guess the password.
 */
export function password_stamp(password_hash: string): string {
  return sha256_hex(password_hash).slice(0, 32);
}

export class SessionStore {
  private readonly memory = new Map<string, SessionRecord>();

  constructor(private readonly engine: Engine, private readonly wheel: TimerWheel, private readonly clock: Clock) {}

  /** Opens a session for a signed-in account; returns the cookie value (shown only to the browser). */
  open(actor: AccountActor): { id: string; record: SessionRecord } {
    const id = this.engine.random.bytes(32).toString('base64url');
    const now_ms = this.clock.now_ms();
    const record: SessionRecord = {
      account_id: actor.id,
      csrf_token: this.engine.random.bytes(24).toString('base64url'),
      created_ms: now_ms,
      expires_ms: now_ms + this.wheel.scaled(session_absolute_ms),
      last_seen_ms: now_ms,
      password_stamp: password_stamp(actor.account.password_hash),
    };
    const key = sha256_hex(id);
    this.remember(key, record);
    this.engine.run(actor, { kind: 'stage_records', records: [{ db: this.engine.store.sessions, key, value: record }] });
    return { id, record };
  }

  private remember(key: string, record: SessionRecord): void {
    if (this.memory.size >= sessions_in_memory_max) {
      const oldest = this.memory.keys().next().value;
      if (oldest !== undefined) this.memory.delete(oldest);
    }
    this.memory.set(key, record);
  }

  /** The live session for a cookie value, refreshed; null when missing, expired or idle too long. */
  find(id: string): SessionRecord | null {
    if (id === '' || id.length > 100) return null;
    const key = sha256_hex(id);
    let record = this.memory.get(key) ?? null;
    if (record === null) {
      record = (this.engine.store.sessions.get(key) as SessionRecord | undefined) ?? null;
      if (record !== null) this.remember(key, record);
    }
    if (record === null) return null;
    const now_ms = this.clock.now_ms();
    if (!this.current(record, now_ms)) {
      this.close_key(key, record.account_id);
      return null;
    }
    if (now_ms - record.last_seen_ms >= Math.min(touch_interval_ms, this.wheel.scaled(session_idle_ms) / 4)) {
      record = { ...record, last_seen_ms: now_ms };
      this.memory.set(key, record);
      this.engine.journal.put(record.account_id, this.engine.store.sessions, key, record);
    }
    return record;
  }

  /** Whether a session record still holds: not expired, not idle too long, its password unchanged. */
  private current(record: SessionRecord, now_ms: number): boolean {
    if (now_ms >= record.expires_ms || now_ms - record.last_seen_ms >= this.wheel.scaled(session_idle_ms)) return false;
    if (record.password_stamp === undefined) return true;
    const actor = this.engine.accounts.get(record.account_id);
    return actor !== undefined && password_stamp(actor.account.password_hash) === record.password_stamp;
  }

  /**
   * The check a purchase made under this session carries into the command that debits
   * (engine/authority.ts): whether the session is still open when it debits. It reads, and never
   * refreshes or closes: a sign-out staged while the purchase waited counts (the journal answers
   * with what is staged), and so does a password changed meanwhile.
   */
  validity(id: string): () => boolean {
    const key = sha256_hex(id);
    return () => {
      const record = this.memory.get(key) ?? (this.engine.journal.read(this.engine.store.sessions, key) as SessionRecord | undefined);
      return record !== undefined && this.current(record, this.clock.now_ms());
    };
  }

  close(id: string): void {
    const key = sha256_hex(id);
    const record = this.memory.get(key) ?? (this.engine.store.sessions.get(key) as SessionRecord | undefined);
    if (record !== undefined) this.close_key(key, record.account_id);
  }

  private close_key(key: string, account_id: number): void {
    this.memory.delete(key);
    this.engine.journal.remove(account_id, this.engine.store.sessions, key);
  }

  csrf_ok(record: SessionRecord, token: string): boolean {
    return token !== '' && constant_time_equal(token, record.csrf_token);
  }

  /** Removes expired sessions from the store, a bounded batch at a time (timer wheel). */
  sweep(batch_max = 5000): number {
    const now_ms = this.clock.now_ms();
    let removed = 0;
    for (const { key, value } of this.engine.store.sessions.getRange({ limit: batch_max * 4 })) {
      const record = value as SessionRecord;
      if (now_ms >= record.expires_ms || now_ms - record.last_seen_ms >= this.wheel.scaled(session_idle_ms)) {
        this.close_key(key as string, record.account_id);
        if (++removed >= batch_max) break;
      }
    }
    return removed;
  }
}

// ---- Sign-in bounds -------------------------------------------------------------------------------

/** Wrong passwords for one email from one address before that pair is locked (docs/api.md "Dashboard and documentation"). */
export const sign_in_failures_max = 5;
/** How long such a lock lasts, and the window its failures are counted in (scaled by TIME_SCALE). */
export const sign_in_lock_ms = 15 * 60 * 1000;
/** Addresses whose sign-in rate is tracked; the oldest window is forgotten beyond it. */
export const sign_in_addresses_max = 100_000;
/** (address, email) pairs whose wrong passwords are tracked; the oldest is forgotten beyond it. */
export const sign_in_pairs_max = 100_000;
/** Rate windows are fixed and not scaled by TIME_SCALE, as the API keys' are (docs/decisions.md). */
const address_window_ms = 60_000;
const global_window_ms = 1_000;

interface RateWindow {
  start_ms: number;
  count: number;
}

interface PairFailures {
  /** When the first wrong password of the current count was given. */
  first_ms: number;
  failures: number;
  locked_until_ms: number;
}

/**
 * What an unauthenticated sign-in may cost. Checked in this order: the (address, email) lock, which
 * costs nothing to answer; the address's and the overall rate; then scrypt in a bounded lane. An
 * unknown email goes through exactly the same steps as a known one, scrypt included (against a dummy
 * hash), and gets the same answers, so neither status, body nor time tells whether it exists.
 */
export class SignInGuard {
  private readonly addresses = new Map<string, RateWindow>();
  private readonly global: RateWindow = { start_ms: 0, count: 0 };
  /** By SHA-256 of address and email: made-up emails are not kept in memory as they came. */
  private readonly pairs = new Map<string, PairFailures>();
  private readonly dummy_hash = dummy_secret_hash();

  /** lane: the password lane (HashLanes), shared with the dashboard's other password checks. */
  constructor(private readonly limits: SignInConfig, private readonly wheel: TimerWheel, readonly lane: HashLane) {}

  private pair_key(address: string, email: string): string {
    return sha256_hex(`${address}\n${email.trim().toLowerCase()}`);
  }

  /** session.locked while this address gave too many wrong passwords for this email. */
  locked(address: string, email: string, now_ms: number): ApiError | null {
    const pair = this.pairs.get(this.pair_key(address, email));
    if (pair === undefined || pair.locked_until_ms <= now_ms) return null;
    return sign_in_locked_error(pair.locked_until_ms - now_ms);
  }

  /** Takes one attempt from the address's and the overall window; rate_limit.exceeded when spent. */
  admit(address: string, now_ms: number): ApiError | null {
    let window = this.addresses.get(address);
    if (window === undefined || now_ms - window.start_ms >= address_window_ms) {
      // Re-inserted, so that the map's order is the windows' age and eviction takes the oldest.
      if (window !== undefined) this.addresses.delete(address);
      else if (this.addresses.size >= sign_in_addresses_max) this.addresses.delete(this.addresses.keys().next().value!);
      window = { start_ms: now_ms, count: 0 };
      this.addresses.set(address, window);
    }
    if (window.count >= this.limits.address_per_minute_max) {
      return sign_in_rate_error('Too many sign-ins from this address', window.start_ms + address_window_ms - now_ms);
    }
    if (now_ms - this.global.start_ms >= global_window_ms) {
      this.global.start_ms = now_ms;
      this.global.count = 0;
    }
    if (this.global.count >= this.limits.global_per_second_max) {
      return sign_in_rate_error('Too many sign-ins right now', this.global.start_ms + global_window_ms - now_ms);
    }
    window.count++;
    this.global.count++;
    return null;
  }

  /** Checks the password against the account's hash, or a dummy one for an unknown email. */
  check(password: string, stored_hash: string | null): Promise<boolean | HashBusy> {
    return this.lane.verify(password, stored_hash ?? this.dummy_hash);
  }

  /**
   * Counts a wrong password for this address and email: session.locked on the last allowed one,
   * otherwise session.invalid_credentials. Known and unknown emails alike.
   */
  wrong_password(address: string, email: string, now_ms: number): ApiError {
    const key = this.pair_key(address, email);
    const lock_ms = this.wheel.scaled(sign_in_lock_ms);
    let pair = this.pairs.get(key);
    if (pair === undefined || now_ms - pair.first_ms >= lock_ms) {
      if (pair !== undefined) this.pairs.delete(key);
      else if (this.pairs.size >= sign_in_pairs_max) this.pairs.delete(this.pairs.keys().next().value!);
      pair = { first_ms: now_ms, failures: 0, locked_until_ms: 0 };
      this.pairs.set(key, pair);
    }
    pair.failures++;
    if (pair.failures < sign_in_failures_max) return api_error('session.invalid_credentials');
    // Locked from now; the lock is the window, so its failures start afresh once it lifts.
    pair.first_ms = now_ms;
    pair.failures = 0;
    pair.locked_until_ms = now_ms + lock_ms;
    return sign_in_locked_error(lock_ms);
  }

  /** A right password clears this address's count for this email. */
  signed_in(address: string, email: string): void {
    this.pairs.delete(this.pair_key(address, email));
  }
}

function sign_in_locked_error(remaining_ms: number): ApiError {
  const seconds = Math.max(1, Math.ceil(remaining_ms / 1000));
  return api_error('session.locked', `Too many wrong passwords from this address; sign-in is locked for ${seconds} more second(s).`, {
    headers: { 'Retry-After': String(seconds) },
  });
}

function sign_in_rate_error(what: string, remaining_ms: number): ApiError {
  const seconds = Math.max(1, Math.ceil(remaining_ms / 1000));
  return api_error('rate_limit.exceeded', `${what}; retry in ${seconds} second(s).`, { headers: { 'Retry-After': String(seconds) } });
}

/** The answer when the password scrypt lane is full. */
export function sign_in_busy_error(): ApiError {
  return sign_in_rate_error('Too many sign-ins are being checked', 1000);
}

/** The answer when the password lane is full for a signed-in session's password check. */
export function password_check_busy_error(): ApiError {
  return sign_in_rate_error('Too many passwords are being checked', 1000);
}

/** Reads one cookie from a Cookie header. */
export function read_cookie(header: string, name: string): string {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return '';
}

export function session_cookie_header(id: string, max_age_s: number, secure: boolean): string {
  return `${session_cookie}=${id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${max_age_s}${secure ? '; Secure' : ''}`;
}

export function clear_cookie_header(secure: boolean): string {
  return `${session_cookie}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`;
}
