// Cross-origin requests (docs/api.md "Response headers"; CORS_ORIGINS in docs/operations.md): the headers
// an allowed origin's answers carry, and the answer to a preflight.

const cors_allow_headers = 'Authorization, Content-Type, X-Idempotency-Key, X-CSRF-Token, Billvend-Account';
const cors_expose_headers = 'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Idempotent-Replayed';

/** The request's Origin when it is one of the configured origins, else null. */
export function allowed_origin(origins: ReadonlySet<string>, origin: string): string | null {
  return origin !== '' && origins.has(origin) ? origin : null;
}

/** The headers every answer to an allowed origin carries. */
export function cors_headers(origin: string): [string, string][] {
  return [['Access-Control-Allow-Origin', origin], ['Vary', 'Origin'], ['Access-Control-Expose-Headers', cors_expose_headers]];
}

/** The headers of a preflight's 204, beyond those cors_headers gave an allowed origin. */
export function preflight_headers(origin: string | null, allowed: string): [string, string][] {
  const headers: [string, string][] = [];
  // The answer depends on the Origin (allowed ones get the CORS headers): caches must key on it.
  // An allowed origin's answer already carries Vary: Origin with its other CORS headers.
  if (origin === null) headers.push(['Vary', 'Origin']);
  if (origin !== null) {
    headers.push(
      ['Access-Control-Allow-Methods', allowed.includes('OPTIONS') ? allowed : `${allowed}, OPTIONS`],
      ['Access-Control-Allow-Headers', cors_allow_headers],
      ['Access-Control-Max-Age', '600'],
    );
  }
  return headers;
}
