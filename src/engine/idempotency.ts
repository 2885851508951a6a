// Idempotency records (docs/decisions.md): scope (account, environment, X-Idempotency-Key), kept 24 hours.
// The record of an answer is staged in the same journal batch as the state change it answers for, so a
// key is never processed twice, even across a crash. Running a request under its key (a replay, a wait
// for the first, key_reused) is the front end's: front/idempotent-run.ts.
import type { CommandActor } from './command-actor.js';
import { assert_idempotency_record, type Environment, type IdempotencyRecord } from './records.js';
import type { Reply } from '../lib/reply.js';
import type { Journal } from '../journal/journal.js';
import type { Store } from '../journal/store.js';
import { fail } from '../lib/assert.js';

export const idempotency_ttl_ms = 24 * 60 * 60 * 1000;

export const idempotency_key_length_max = 255;

/** The answer a complete record remembers, its body opened when sealed. */
export function stored_reply(actor: CommandActor, record: IdempotencyRecord): Reply {
  assert_idempotency_record(record);
  const body = record.sealed ? actor.engine.secret_box.open(record.body) : record.body;
  return { status: record.status, body, headers: record.headers, secret: record.sealed };
}

export function read_record(actor: CommandActor, environment: Environment, key: string, now_ms: number): IdempotencyRecord | null {
  const record = actor.engine.store.idempotency.get([actor.id, environment, key]) as IdempotencyRecord | undefined;
  if (record === undefined || record.expires_ms <= now_ms) return null;
  return record;
}

/** Stages an idempotency record (expiry is checked on every read; the sweep only frees space). */
export function stage_record(actor: CommandActor, environment: Environment, key: string, record: IdempotencyRecord): void {
  actor.stage_put(actor.engine.store.idempotency, [actor.id, environment, key], record);
}

export function make_record(actor: CommandActor, fingerprint: string, reply: Reply, now_ms: number, reference: string | null, complete: boolean): IdempotencyRecord {
  const sealed = reply.secret === true;
  if (typeof reply.body !== 'string') fail('only JSON replies are remembered for idempotency');
  const record: IdempotencyRecord = {
    fingerprint,
    status: reply.status,
    body: sealed ? actor.engine.secret_box.seal(reply.body) : reply.body,
    sealed,
    headers: reply.headers.filter(([name]) => name !== 'Idempotent-Replayed'),
    created_ms: now_ms,
    expires_ms: now_ms + actor.engine.wheel.scaled(idempotency_ttl_ms),
    reference,
    complete,
  };
  assert_idempotency_record(record);
  return record;
}

/**
 * Frees the space of expired records: each call scans the next slice of the store from where the
 * last one stopped and wraps around at the end. Expiry itself is enforced on every read, so the sweep
 * may lag; an expiry index would cost one more write per POST, which this avoids. At 5,000 records a
 * minute it passes over 7 million records a day.
 */
export class IdempotencySweeper {
  private resume_after: (string | number)[] | null = null;

  constructor(private readonly engine: { readonly store: Store; readonly journal: Journal }, private readonly slice_max = 5000) {}

  sweep(now_ms: number): number {
    const store = this.engine.store.idempotency;
    let removed = 0;
    let seen = 0;
    let last: (string | number)[] | null = null;
    const range = this.resume_after === null ? { limit: this.slice_max } : { start: this.resume_after, exclusiveStart: true, limit: this.slice_max };
    for (const { key, value } of store.getRange(range)) {
      seen++;
      last = key as (string | number)[];
      if ((value as IdempotencyRecord).expires_ms > now_ms) continue;
      // The store holds what is durable; a request that found this record expired may have staged its
      // key's new record since, in a batch not yet durable. Removing by key would then erase the new
      // record (its retry would buy again), so the newest staged value decides, not the store's.
      const newest = this.engine.journal.read(store, key as (number | string)[]) as IdempotencyRecord | undefined;
      if (newest === undefined || newest.expires_ms > now_ms) continue;
      const [account_id] = key as [number];
      this.engine.journal.remove(account_id, store, key as (number | string)[]);
      removed++;
    }
    this.resume_after = seen >= this.slice_max ? last : null;
    return removed;
  }
}
