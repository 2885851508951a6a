// Running a state-changing request under its idempotency key (docs/decisions.md): a repeat of the same
// request returns the original status and body with Idempotent-Replayed: true; the same key with a
// different request is 422 idempotency.key_reused; a repeat that arrives while the first is still being
// processed waits for it. Executions are remembered, credentials are not: a PIN refusal leaves the key
// unused, so the retry with the right PIN buys. The records themselves, staged with the change they answer for, are the
// engine's (engine/idempotency.ts).
import type { AccountActor } from '../engine/account-actor.js';
import type { Environment, IdempotencyRecord } from '../engine/records.js';
import { make_record, read_record, stored_reply } from '../engine/idempotency.js';
import { error_reply, is_rememberable, type Reply } from '../lib/reply.js';
import { api_error, type ApiError } from '../errors.js';
import { fail } from '../lib/assert.js';

/** Requests of one account that may hold an idempotency key in flight at once. */
export const idempotency_in_flight_max = 10_000;

interface InFlight {
  fingerprint: string;
  /** The first request's answer once the record remembering it is durable: what a repeat replays. */
  durable: Promise<Reply>;
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

export interface IdempotentRequest {
  /**
   * The request's own account (ctx.actor), whose changes the front end's gate waits for before the answer
   * leaves (HttpFront.send_durable): the record remembering the answer is one of them.
   */
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
 * changes; its reply is remembered in the same batch. The returned promise resolves with the answer; like
 * every answer it leaves at the front end's gate once the account's changes as of it are durable, and the
 * flight stands for the key until then (track). `resume` answers for a record that a crash left incomplete
 * (a purchase's first answer).
 */
export function run_idempotent(
  request: IdempotentRequest,
  execute: () => Reply | Promise<Reply>,
  resume?: (record: IdempotencyRecord) => Promise<Reply>,
  /** The caller peeked in this same synchronous run, so nothing can have changed: skip the store read. */
  peeked = false,
): Promise<Reply> {
  const { actor, environment, key, fingerprint, request_id, now_ms } = request;
  if (key === null) return as_promise(execute());
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
    return track(flights, flight_key, fingerprint, actor, outcome);
  }
  // An answer that is not remembered (a wrong PIN, a 5xx, a 429) executed nothing under the key, so it
  // is not in flight either: a repeat arriving while it becomes durable runs on its own rather than being
  // handed a refusal of someone else's credentials (docs/decisions.md "Idempotency").
  if (!is_rememberable(outcome)) return Promise.resolve(outcome);
  actor.engine.run(actor, { kind: 'remember_answer', environment, key, record: make_record(actor, fingerprint, outcome, now_ms, null, true) });
  return track(flights, flight_key, fingerprint, actor, Promise.resolve(outcome));
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
    return flight.durable.then((reply) => replay_of(request, reply));
  }
  const record = read_record(actor, environment, key, now_ms);
  if (record === null) return null;
  if (record.fingerprint !== fingerprint) return Promise.resolve(key_reused(request_id));
  if (record.complete) return Promise.resolve(replay_of(request, stored_reply(actor, record)));
  if (resume === undefined) fail('incomplete idempotency record without a resume path');
  return track(flights, flight_key, fingerprint, actor, resume(record).then(replayed));
}

/**
 * Stands the flight for its key until the record remembering the answer is durable: `read_record` reads the store,
 * so a repeat arriving between the answer and its commit must find the flight, or it would run again (the crash
 * campaign's twin copies did, when flights ended with the answer). A repeat waits for that and replays the answer.
 * Returns the answer itself, at once: the front end's gate holds it until the same commit, the only wait of the
 * request (a flight that handed back its durable promise made the gate wait one group commit more, for the
 * account's next batch: bench of 2026-11-29, purchase-with-webhooks 7,276 -> 6,709 purchases/s).
 */
function track(flights: Map<string, InFlight>, flight_key: string, fingerprint: string, actor: AccountActor, answer: Promise<Reply>): Promise<Reply> {
  const durable = answer.then((reply) => {
    const pending = actor.settled();
    return pending === null ? reply : pending.then(() => reply);
  });
  const flight = { fingerprint, durable };
  flights.set(flight_key, flight);
  const clear = () => {
    if (flights.get(flight_key) === flight) flights.delete(flight_key);
  };
  durable.then(clear, clear);
  return answer;
}

function as_promise(reply: Reply | Promise<Reply>): Promise<Reply> {
  return reply instanceof Promise ? reply : Promise.resolve(reply);
}

function key_reused(request_id: string): Reply {
  return error_reply(request_id, api_error('idempotency.key_reused'));
}
