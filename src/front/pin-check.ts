// The transaction PIN of a purchase, of a bulk order (docs/api.md "Bulk orders": one PIN check for the
// batch) and of an agent transfer: one check for all, so that they refuse with the same errors and count
// toward the same lock-out.
// The verdict is computed outside the account's command (a PIN's scrypt may wait in its lane), with the
// work that only a correct PIN may start (recipient verification: a wrong PIN must not make us ask the
// provider); it is applied just before the command that places the order, where the pin_verdict command
// counts a wrong PIN toward the lock-out and a correct one resets the count (a correct PIN with no count to
// reset runs no command: AccountActor.judge_pin_verdict).
import type { Deps } from './deps.js';
import type { AccountActor } from '../engine/account-actor.js';
import { authority_refusal, type Authority } from '../engine/authority.js';
import { error_reply, type Reply } from '../lib/reply.js';
import { api_error } from '../errors.js';
import { refusal_reply } from './outcome-errors.js';
import { fail } from '../lib/assert.js';

/** Attempts to recompute a PIN verdict when the PIN changes while the first was being computed. */
export const pin_attempts_max = 3;

/** A PIN's verdict, computed before the command that applies it (apply_pin_verdict). */
export interface PinChecked<T> {
  correct: boolean;
  /** The PIN's generation the verdict is about: a PIN changed since makes the verdict stale. */
  generation: number;
  /**
   * Whether anything was awaited since the caller's idempotency peek (the scrypt, the work behind the PIN):
   * if not, the peek still holds and run_idempotent need not read the store again.
   */
  awaited: boolean;
  /** What the work behind a correct PIN gave (the recipients' verifications); computed for a wrong PIN too. */
  behind: T;
}

/**
 * Checks the PIN (none set, or locked: not correct, without hashing), then runs `behind_pin` with the
 * verdict; again, up to pin_attempts_max times, when the PIN changed meanwhile. A full PIN lane answers
 * pin_check_busy (no verdict, so not a wrong PIN either); a PIN that kept changing, 503. Synchronous when
 * nothing has to wait (the PIN cached, the verification instant: the common purchase), so that the caller's
 * idempotency peek still holds and no promise is made.
 */
export function check_pin<T>(deps: Deps, actor: AccountActor, request_id: string, pin: string, behind_pin: (correct: boolean) => T | Promise<T>): PinCheck<T> | Promise<PinCheck<T>> {
  return attempt_pin({ deps, actor, request_id, pin, behind_pin }, 0, false);
}

export type PinCheck<T> = PinChecked<T> | Reply;

interface PinRun<T> {
  deps: Deps;
  actor: AccountActor;
  request_id: string;
  pin: string;
  behind_pin: (correct: boolean) => T | Promise<T>;
}

function attempt_pin<T>(run: PinRun<T>, attempt: number, awaited: boolean): PinCheck<T> | Promise<PinCheck<T>> {
  if (attempt === pin_attempts_max) {
    return error_reply(run.request_id, api_error('service.unavailable', 'The transaction PIN kept changing during this request; retry.', { headers: { 'Retry-After': '1' } }));
  }
  const { deps, actor } = run;
  const account = actor.account;
  const generation = account.pin_generation;
  if (account.pin_hash === null || actor.pin_lock_remaining_ms(deps.clock.now_ms()) > 0) return behind(run, attempt, generation, false, awaited);
  const verdict = deps.engine.pin_cache.verify(actor.id, generation, run.pin, account.pin_hash);
  if (verdict instanceof Promise) return verdict.then((answer) => after_verdict(run, attempt, generation, answer, true));
  return after_verdict(run, attempt, generation, verdict, awaited);
}

function after_verdict<T>(run: PinRun<T>, attempt: number, generation: number, answer: boolean | 'busy', awaited: boolean): PinCheck<T> | Promise<PinCheck<T>> {
  // The PIN lane is full (a flood of first purchases): no verdict, so not a wrong PIN either.
  if (answer === 'busy') return refusal_reply(run.request_id, { refusal: 'pin_check_busy' });
  return behind(run, attempt, generation, answer, awaited);
}

function behind<T>(run: PinRun<T>, attempt: number, generation: number, correct: boolean, awaited: boolean): PinCheck<T> | Promise<PinCheck<T>> {
  const work = run.behind_pin(correct);
  if (work instanceof Promise) return work.then((value) => settle(run, attempt, generation, correct, value, true));
  return settle(run, attempt, generation, correct, work, awaited);
}

function settle<T>(run: PinRun<T>, attempt: number, generation: number, correct: boolean, value: T, awaited: boolean): PinCheck<T> | Promise<PinCheck<T>> {
  // The PIN changed while we waited: the verdict is about the old one, compute it again.
  if (run.actor.account.pin_generation !== generation) return attempt_pin(run, attempt + 1, awaited);
  return { correct, generation, awaited, behind: value };
}

/**
 * Inside the command that places the order: the key or session checked again (revoked or ended while the
 * PIN and the recipients were checked: answered before the verdict counts, so such a request changes
 * nothing), then the verdict applied. Null when the PIN was right; else the refusal to answer.
 */
export function apply_pin_verdict(deps: Deps, actor: AccountActor, authority: Authority, request_id: string, checked: PinChecked<unknown>): Reply | null {
  const denied = authority_refusal(actor, authority, deps.clock.now_ms());
  if (denied !== null) return refusal_reply(request_id, denied);
  const now_ms = deps.clock.now_ms();
  // A correct PIN with no failed attempt to reset changes nothing: judged without a command.
  const judged = actor.judge_pin_verdict(checked.correct, checked.generation, now_ms);
  const verdict = judged === 'changes' ? deps.engine.run(actor, { kind: 'pin_verdict', correct: checked.correct, generation: checked.generation, now_ms }) : judged;
  if (verdict === 'stale') fail('PIN verdict went stale inside one command');
  if (verdict !== 'ok') return refusal_reply(request_id, verdict);
  return null;
}
