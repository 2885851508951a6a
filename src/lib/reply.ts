// Replies are data until the front end writes them: status, JSON body text and extra headers. The
// body text is built once, so an idempotent replay sends exactly the bytes of the original.
import { error_catalogue, type ApiError } from '../errors.js';

export interface Reply {
  status: number;
  /** JSON text, unless content_type says otherwise (pages, assets, metrics). */
  body: string | Buffer;
  headers: [string, string][];
  /** Set for anything but the JSON envelope; such replies bring their own security headers. */
  content_type?: string;
  /** The body carries a secret (a new API key or webhook secret): stored sealed for replays. */
  secret?: boolean;
  /** A body too large to build at once (CSV exports): written chunk by chunk after `body`. */
  stream?: BodyStream;
  /**
   * False for a refusal of the credentials presented (a wrong, locked or missing PIN): nothing was
   * executed, so it is not remembered under the idempotency key (docs/decisions.md "Idempotency").
   */
  remember?: false;
}

/**
 * A body produced in chunks: next() returns the next chunk, or null at the end; '' when a bounded
 * slice of work found nothing to send (a filtered export), and the front end asks again next turn. The
 * front end asks for one chunk per event-loop turn and none while the client's socket is full, so
 * memory stays flat and no chunk holds the event loop for long.
 */
export interface BodyStream {
  next(): string | null;
}

export function success_reply(request_id: string, status: number, data: unknown, message?: string, headers: [string, string][] = []): Reply {
  const body = message === undefined
    ? JSON.stringify({ success: true, data, request_id })
    : JSON.stringify({ success: true, message, data, request_id });
  return { status, body, headers };
}

export function error_reply(request_id: string, error: ApiError): Reply {
  const entry = error_catalogue[error.code];
  const payload: Record<string, unknown> = { code: error.code, message: error.message ?? entry.message };
  if (error.details !== undefined) payload.details = error.details;
  if (error.extra !== undefined) Object.assign(payload, error.extra);
  const body = JSON.stringify({ success: false, error: payload, request_id });
  const headers: [string, string][] = [];
  if (error.headers !== undefined) for (const name in error.headers) headers.push([name, error.headers[name]]);
  return { status: entry.status, body, headers };
}

/**
 * Idempotency remembers executions, not credentials (docs/decisions.md "Idempotency"): error answers to
 * POSTs are remembered too, except 5xx, 429, 401 and the refusals of a PIN (`remember: false`), after
 * which a retry under the same key may succeed.
 */
export function is_rememberable(reply: Reply): boolean {
  const status = reply.status;
  return reply.remember !== false && status < 500 && status !== 429 && status !== 401;
}
