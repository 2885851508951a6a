// Idempotency (docs/decisions.md): scope (account, environment, X-Idempotency-Key), kept 24 hours. A repeat
// of the same request returns the original status and body with Idempotent-Replayed: true; the same
// key with a different request is 422 idempotency.key_reused; a repeat that arrives while the first is
// still being processed waits for it. The record is staged in the same journal batch as the state
// change it answers for, so a key is never processed twice, even across a crash.
import type { AccountActor } from './account-actor.js';
import { assert_idempotency_record, type Environment, type IdempotencyRecord } from './records.js';
import { error_reply, is_rememberable, type Reply } from '../lib/reply.js';
import { api_error, type ApiError } from '../errors.js';
import { fail } from '../lib/assert.js';

export const idempotency_ttl_ms = 24 * 60 * 60 * 1000;
export const idempotency_key_length_max = 255;
/** Requests of one account that may hold an idempotency key in flight at once. */
export const idempotency_in_flight_max = 10_000;

interface InFlight {
  fingerprint: string;
  reply: Promise<Reply>;
}

const in_flight_by_actor = new WeakMap<AccountActor, Map<string, InFlight>>();

function in_flight_of(actor: AccountActor): Map<string, InFlight> {
  let map = in_flight_by_actor.get(actor);
  if (map === undefined) {
    map = new Map();
    in_flight_by_actor.set(actor, map);
  }
  return map;
}

export function replayed(reply: Reply): Reply {
  return { ...reply, headers: [...reply.headers, ['Idempotent-Replayed', 'true']] };
}

function stored_reply(actor: AccountActor, record: IdempotencyRecord): Reply {
  assert_idempotency_record(record);
  const body = record.sealed ? actor.engine.secret_box.open(record.body) : record.body;
  return { status: record.status, body, headers: record.headers, secret: record.sealed };
}

/**
 * Decides whether a replay may show a secret again (an API key, a webhook secret): given the `data.id`
 * of the original answer, null while what the secret belongs to exists, else the error the replay
 * answers instead. A revoked key or a deleted endpoint must not hand its secret to whoever holds the
 * idempotency key; the error is the one a request naming that id would get.
 */
export type SecretGuard = (id: number) => ApiError | null;

/** The reply a repeat gets: the original, unless it carries a secret whose owner is gone. */
function replay_of(request: IdempotentRequest, reply: Reply): Reply {
  if (reply.secret !== true || request.secret_guard === undefined || typeof reply.body !== 'string') return replayed(reply);
  const id = (JSON.parse(reply.body) as { data?: { id?: unknown } }).data?.id;
  if (typeof id !== 'number') fail('a remembered answer with a secret names no id');
  const refused = request.secret_guard(id);
  return refused === null ? replayed(reply) : replayed(error_reply(request.request_id, refused));
}

export function read_record(actor: AccountActor, environment: Environment, key: string, now_ms: number): IdempotencyRecord | null {
  const record = actor.engine.store.idempotency.get([actor.id, environment, key]) as IdempotencyRecord | undefined;
  if (record === undefined || record.expires_ms <= now_ms) return null;
  return record;
}

/** Stages an idempotency record (expiry is checked on every read; the sweep only frees space). */
export function stage_record(actor: AccountActor, environment: Environment, key: string, record: IdempotencyRecord): void {
  actor.stage_put(actor.engine.store.idempotency, [actor.id, environment, key], record);
}

export function make_record(actor: AccountActor, fingerprint: string, reply: Reply, now_ms: number, reference: string | null, complete: boolean): IdempotencyRecord {
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

export interface IdempotentRequest {
  actor: AccountActor;
  environment: Environment;
  /** The X-Idempotency-Key header, or null when the client sent none ("should", docs/spec.md section 4). */
  key: string | null;
  fingerprint: string;
  request_id: string;
  now_ms: number;
  /** For requests whose answer carries a secret: when a replay may show it (see SecretGuard). */
  secret_guard?: SecretGuard;
}

/**
 * Runs a state-changing command under its idempotency key. `execute` runs synchronously and stages its
 * changes; its reply is remembered in the same batch. The returned promise resolves once that batch is
 * durable. `resume` answers for a record that a crash left incomplete (a purchase's first answer).
 */
export function run_idempotent(
  request: IdempotentRequest,
  execute: () => Reply | Promise<Reply>,
  resume?: (record: IdempotencyRecord) => Promise<Reply>,
  /** The caller peeked in this same synchronous run, so nothing can have changed: skip the store read. */
  peeked = false,
): Promise<Reply> {
  const { actor, environment, key, fingerprint, request_id, now_ms } = request;
  if (key === null) return settle(actor, execute());
  const earlier = peeked ? null : peek_idempotent(request, resume);
  if (earlier !== null) return earlier;
  const flights = in_flight_of(actor);
  if (flights.size >= idempotency_in_flight_max) {
    return Promise.resolve(error_reply(request_id, api_error('service.unavailable', 'Too many requests in flight for this account; retry shortly.', { headers: { 'Retry-After': '1' } })));
  }
  const flight_key = `${environment}\u0000${key}`;
  const outcome = execute();
  if (outcome instanceof Promise) {
    // The command remembers its own reply (purchases store a first, incomplete record with the debit).
    return track(flights, flight_key, fingerprint, outcome);
  }
  if (is_rememberable(outcome.status)) {
    stage_record(actor, environment, key, make_record(actor, fingerprint, outcome, now_ms, null, true));
  }
  return track(flights, flight_key, fingerprint, settle(actor, outcome));
}

/**
 * The answer an earlier request with this key already gives (a replay, a wait for one in flight, or
 * key_reused), or null when the key is new. Cheap: handlers call it before any expensive step.
 */
export function peek_idempotent(request: IdempotentRequest, resume?: (record: IdempotencyRecord) => Promise<Reply>): Promise<Reply> | null {
  const { actor, environment, key, fingerprint, request_id, now_ms } = request;
  if (key === null) return null;
  const flights = in_flight_of(actor);
  const flight_key = `${environment}\u0000${key}`;
  const flight = flights.get(flight_key);
  if (flight !== undefined) {
    if (flight.fingerprint !== fingerprint) return Promise.resolve(key_reused(request_id));
    return flight.reply.then((reply) => replay_of(request, reply));
  }
  const record = read_record(actor, environment, key, now_ms);
  if (record === null) return null;
  if (record.fingerprint !== fingerprint) return Promise.resolve(key_reused(request_id));
  if (record.complete) {
    const pending = actor.settled();
    const reply = stored_reply(actor, record);
    // The guard reads the actor after its pending changes are durable (a revocation just staged counts).
    return pending === null ? Promise.resolve(replay_of(request, reply)) : pending.then(() => replay_of(request, reply));
  }
  if (resume === undefined) fail('incomplete idempotency record without a resume path');
  return track(flights, flight_key, fingerprint, resume(record).then(replayed));
}

function track(flights: Map<string, InFlight>, flight_key: string, fingerprint: string, reply: Promise<Reply>): Promise<Reply> {
  flights.set(flight_key, { fingerprint, reply });
  const clear = () => {
    if (flights.get(flight_key)?.reply === reply) flights.delete(flight_key);
  };
  reply.then(clear, clear);
  return reply;
}

/** Resolves with the reply once everything the actor staged is durable. */
export function settle(actor: AccountActor, reply: Reply | Promise<Reply>): Promise<Reply> {
  if (reply instanceof Promise) return reply;
  const pending = actor.settled();
  return pending === null ? Promise.resolve(reply) : pending.then(() => reply);
}

function key_reused(request_id: string): Reply {
  return error_reply(request_id, api_error('idempotency.key_reused'));
}

/**
 * Frees the space of expired records: each call scans the next slice of the store from where the
 * last one stopped and wraps around at the end. Expiry itself is enforced on every read, so the sweep
 * may lag; an expiry index would cost one more write per POST, which this avoids. At 5,000 records a
 * minute it passes over 7 million records a day.
 */
export class IdempotencySweeper {
  private resume_after: (string | number)[] | null = null;

  constructor(private readonly engine: AccountActor['engine'], private readonly slice_max = 5000) {}

  sweep(now_ms: number): number {
    const store = this.engine.store.idempotency;
    let removed = 0;
    let seen = 0;
    let last: (string | number)[] | null = null;
    const range = this.resume_after === null ? { limit: this.slice_max } : { start: this.resume_after, exclusiveStart: true, limit: this.slice_max };
    for (const { key, value } of store.getRange(range)) {
      seen++;
      last = key as (string | number)[];
      const record = value as IdempotencyRecord;
      if (record.expires_ms <= now_ms) {
        const [account_id] = key as [number];
        this.engine.journal.remove(account_id, store, key as (number | string)[]);
        removed++;
      }
    }
    this.resume_after = seen >= this.slice_max ? last : null;
    return removed;
  }
}
