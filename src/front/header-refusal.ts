// Request headers refused before anything else runs: a Content-Length given twice with different values
// and a Transfer-Encoding that does not end with chunked (request smuggling), and bytes outside printable
// ASCII in a header billvend acts on.
import type * as uWS from 'uWebSockets.js';
import { api_error, type ApiError } from '../errors.js';
import { has_bad_header_byte, invalid_header_bytes } from './request-helpers.js';
import type { RequestContext } from './route.js';
import type { FrontRoute } from './front-route.js';

/** Two Content-Length headers with different values (identical repeats are harmless, RFC 9112 6.3). */
export function duplicated_content_length(req: uWS.HttpRequest): boolean {
  let first: string | null = null;
  let conflict = false;
  req.forEach((name, value) => {
    if (name !== 'content-length') return;
    if (first === null) first = value.trim();
    else if (value.trim() !== first) conflict = true;
  });
  return conflict;
}

/**
 * Whether a request's Transfer-Encoding, all its header lines read as one list, has a last coding other
 * than `chunked` (`chunked, identity`, `gzip`), or names chunked twice. RFC 9112 section 6.3: its body's
 * length then cannot be known, and a server must answer 400 and close. uWebSockets.js reads any
 * Transfer-Encoding as chunked, while a proxy in front may read such a body to the end of the
 * connection: what uWS took for a second request would be the proxy's body (smuggling). Costs one
 * header lookup when the request has no Transfer-Encoding.
 */
export function unframed_transfer_encoding(req: uWS.HttpRequest): boolean {
  // The common case, no Transfer-Encoding, costs one lookup. An empty value is left to uWS, which
  // frames such a request by its Content-Length (test/transfer-encoding.test.ts).
  if (req.getHeader('transfer-encoding') === '') return false;
  const codings: string[] = [];
  req.forEach((name, value) => {
    if (name !== 'transfer-encoding') return;
    for (const coding of value.split(',')) {
      const trimmed = coding.trim().toLowerCase();
      if (trimmed !== '') codings.push(trimmed);
    }
  });
  const chunked = codings.filter((coding) => coding === 'chunked').length;
  return codings.length === 0 || codings[codings.length - 1] !== 'chunked' || chunked !== 1;
}

/** The answer to a request whose Transfer-Encoding does not end with chunked (sent with a close). */
export function transfer_encoding_refusal(): ApiError {
  return api_error('validation.failed', 'The request is not valid: Transfer-Encoding must end with chunked (RFC 9112 section 6.3).', {
    details: [{ field: 'Transfer-Encoding', message: 'must end with chunked' }],
  });
}

/**
 * Refuses a request when a header billvend acts on holds bytes other than printable ASCII (docs/api.md
 * "Request headers"), before it is authenticated or its body read, so nothing is debited under a key the
 * client did not send. uWS v20 hands header values over as Latin-1 but trims them as signed chars:
 * a byte 0x80-0xFF at either end of a value is dropped like a space ("é-order-42" arrives as
 * "-order-42", a lone "é" as nothing), while one inside the value arrives intact. So the check is
 * twofold: any byte outside printable ASCII that did arrive refuses the request (a few comparisons per
 * byte), and a header that matters when present, X-Idempotency-Key on an idempotent POST and Origin
 * on a dashboard change, is refused when it is present but arrived empty (one pass over the header
 * names, only when that header read as empty). What uWS trimmed off the ends of a value that kept
 * some ASCII cannot be seen through its API (docs/design.md "Known limitations").
 */
export function header_refusal(req: uWS.HttpRequest, headers: RequestContext['headers'], route: FrontRoute): ApiError | null {
  if (has_bad_header_byte(headers.idempotency_key)) return invalid_header_bytes('X-Idempotency-Key');
  if (has_bad_header_byte(headers.authorization)) return invalid_header_bytes('Authorization');
  if (has_bad_header_byte(headers.content_type)) return invalid_header_bytes('Content-Type');
  if (has_bad_header_byte(headers.origin)) return invalid_header_bytes('Origin');
  if (route.needs.session && has_bad_header_byte(headers.csrf_token)) return invalid_header_bytes('X-CSRF-Token');
  const key_matters = headers.idempotency_key === '' && route.method === 'post' && route.idempotent !== false;
  const origin_matters = headers.origin === '' && route.needs.session && route.method !== 'get';
  if (!key_matters && !origin_matters) return null;
  let key_present = false;
  let origin_present = false;
  req.forEach((name) => {
    if (name === 'x-idempotency-key') key_present = true;
    else if (name === 'origin') origin_present = true;
  });
  if (key_matters && key_present) return invalid_header_bytes('X-Idempotency-Key');
  if (origin_matters && origin_present) return invalid_header_bytes('Origin');
  return null;
}
