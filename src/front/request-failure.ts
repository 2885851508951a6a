// What a request that threw is answered with, and the exit that follows a broken invariant
// (src/lib/assert.ts): the in-memory state cannot be trusted, so the process ends loudly and recovery
// from the journal restores what was durable (docs/style.md).
import type { Logger } from 'pino';
import { api_error } from '../errors.js';
import { error_reply, type Reply } from '../lib/reply.js';
import { JournalFailure } from '../journal/journal.js';
import { AssertionError } from '../lib/assert.js';

/** Whether the error is a refused commit, answered 503 and not logged as a failure. */
export const is_store_refusal = (error: unknown): boolean => error instanceof JournalFailure;

/** 503 for a refused commit (disk or map full: nothing of the request was kept), else 500. */
export function failure_reply(request_id: string, error: unknown): Reply {
  if (is_store_refusal(error)) {
    return error_reply(request_id, api_error('service.unavailable', 'The store could not save this request; nothing was changed. Retry shortly.', { headers: { 'Retry-After': '5' } }));
  }
  return error_reply(request_id, api_error('internal.error'));
}

/** Ends the process (exit 70) after the current answers leave, when the error is a broken invariant. */
export function exit_on_assertion(error: unknown, log: Logger): void {
  if (!(error instanceof AssertionError)) return;
  log.fatal({ err: error }, 'assertion failed; exiting');
  log.flush?.();
  setImmediate(() => process.exit(70));
}
