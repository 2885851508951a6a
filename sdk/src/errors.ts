// The errors the client throws. billvend's error codes are permanent and its messages may change, so code on
// `code` (docs/api.md "Errors"); `family` is the part before the dot (auth, wallet, pin, service, ...).
import type { ErrorCode } from './types.js';

export interface ErrorDetail {
  field: string;
  message: string;
}

/** An answer of billvend in its error shape `{success:false, error:{code, message, ...}, request_id}`. */
export class BillvendError extends Error {
  override readonly name = 'BillvendError';
  /** The permanent error code, e.g. `pin.incorrect`; null when the answer was not in billvend's error shape. */
  readonly code: ErrorCode | null;
  /** The HTTP status. */
  readonly status: number;
  /** `validation.failed`: each field and what is wrong with it. */
  readonly details: ErrorDetail[];
  /** The order an error names (`transaction.failed`, `transaction.duplicate_reference`, `service.unavailable`). */
  readonly reference: string | null;
  readonly requestId: string | null;
  /** Seconds the answer's Retry-After asked to wait, when it had one. */
  readonly retryAfterS: number | null;
  /** The answer's body, parsed. */
  readonly body: unknown;

  constructor(status: number, body: unknown, retry_after_s: number | null) {
    const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown; reference?: unknown } } | null)?.error;
    const code = typeof error?.code === 'string' ? (error.code as ErrorCode) : null;
    super(typeof error?.message === 'string' ? error.message : `billvend answered ${status} without an error in its shape`);
    this.code = code;
    this.status = status;
    this.details = Array.isArray(error?.details) ? (error.details as ErrorDetail[]) : [];
    this.reference = typeof error?.reference === 'string' ? error.reference : null;
    const request_id = (body as { request_id?: unknown } | null)?.request_id;
    this.requestId = typeof request_id === 'string' ? request_id : null;
    this.retryAfterS = retry_after_s;
    this.body = body;
  }

  /** The code's family: `auth`, `wallet`, `transaction`, `service`, `pin`, `rate_limit`, `validation`, ... */
  get family(): string | null {
    return this.code === null ? null : this.code.slice(0, this.code.indexOf('.'));
  }

  /** Whether a retry with the same idempotency key may succeed (5xx and 429, as docs/api.md advises). */
  get retryable(): boolean {
    return this.status >= 500 || this.status === 429;
  }
}

/** The request never got an answer (connection refused or reset, DNS, aborted), after every attempt. */
export class BillvendConnectionError extends Error {
  override readonly name = 'BillvendConnectionError';
  constructor(message: string, cause: unknown) {
    super(message, { cause });
  }
}

/** A webhook delivery whose signature or timestamp does not verify. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}
