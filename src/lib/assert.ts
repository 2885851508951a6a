// Invariants are asserted where they hold (docs/style.md "Shape of the code"). A failed assertion is a bug:
// the in-memory state cannot be trusted, so the front end logs it, answers 500 and ends the process
// (exit 70); recovery from the journal restores what was durable. Business outcomes are never thrown.

/** A broken invariant; recognised by its class, not by its message. */
export class AssertionError extends Error {
  override readonly name = 'AssertionError';
  constructor(what: string) {
    super(`assertion failed: ${what}`);
  }
}

/** Throws AssertionError unless condition holds. */
export function assert(condition: unknown, what: string): asserts condition {
  if (!condition) throw new AssertionError(what);
}

/** Throws AssertionError: for the branch that must never run. */
export function fail(what: string): never {
  throw new AssertionError(what);
}
