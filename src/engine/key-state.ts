// An API key as the front end and the account's actor use it (engine/account-actor.ts holds them by id): its
// record, its parsed allowlist and its rate window.
import type { KeyRecord, Scope } from './records.js';
import { parse_cidr, type CidrBlock } from '../lib/ip-address.js';
import { fail } from '../lib/assert.js';

/** A key as the front end uses it: its record, its parsed allowlist and its rate window. */
export class KeyState {
  readonly cidrs: CidrBlock[];
  window_start_ms = 0;
  window_count = 0;
  /** last_used_at is persisted at most once a minute per key; see touch(). */
  last_used_persisted_us = 0;

  constructor(public record: KeyRecord) {
    this.cidrs = record.ip_allowlist.map((text) => {
      const block = parse_cidr(text);
      if (block === null) fail(`stored allowlist entry "${text}" does not parse`);
      return block;
    });
    this.last_used_persisted_us = record.last_used_us ?? 0;
  }

  has_scope(scope: Scope | null): boolean {
    if (scope === null) return true;
    return this.record.scopes.includes('*') || this.record.scopes.includes(scope);
  }
}

/** Whether a key still works: not revoked, and not past its expiry (front/auth.ts refuses from expires_ms on). */
export function key_is_active(record: KeyRecord, now_ms: number): boolean {
  return record.revoked_us === null && (record.expires_ms === null || now_ms < record.expires_ms);
}
