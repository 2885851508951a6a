// Dashboard sessions (issue "Dashboard"): sign-in with the email and password the operator set, a
// session cookie that is HttpOnly, SameSite=Strict and Secure when served over TLS, a CSRF token
// required on every state change, idle and absolute expiry, sign-out, and a lock after 5 wrong
// passwords. The cookie carries a random id; the store keeps only its SHA-256, so a stolen store
// opens no session. Sessions survive restarts.
import { randomBytes } from 'node:crypto';
import type { Engine } from '../engine/engine.js';
import type { AccountActor } from '../engine/account-actor.js';
import type { TimerWheel } from '../lib/timer-wheel.js';
import type { Clock } from '../lib/clock.js';
import { sha256_hex, constant_time_equal } from '../lib/secrets.js';

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
}

export class SessionStore {
  private readonly memory = new Map<string, SessionRecord>();

  constructor(private readonly engine: Engine, private readonly wheel: TimerWheel, private readonly clock: Clock) {}

  /** Opens a session for a signed-in account; returns the cookie value (shown only to the browser). */
  open(actor: AccountActor): { id: string; record: SessionRecord } {
    const id = randomBytes(32).toString('base64url');
    const now_ms = this.clock.now_ms();
    const record: SessionRecord = {
      account_id: actor.id,
      csrf_token: randomBytes(24).toString('base64url'),
      created_ms: now_ms,
      expires_ms: now_ms + this.wheel.scaled(session_absolute_ms),
      last_seen_ms: now_ms,
    };
    const key = sha256_hex(id);
    this.remember(key, record);
    actor.stage_put(this.engine.store.sessions, key, record);
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
    if (now_ms >= record.expires_ms || now_ms - record.last_seen_ms >= this.wheel.scaled(session_idle_ms)) {
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
