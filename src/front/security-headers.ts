// The security headers of every answer (docs/api.md "Response headers"): JSON answers get one pre-encoded
// block; replies that bring their own content type get a short tail; any other header line is checked
// for line breaks before it is appended.
import { fail } from '../lib/assert.js';

/** Headers on every JSON response: an API answer is never cached, framed, sniffed or scripted. */
export const json_security_headers: [string, string][] = [
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'no-referrer'],
  ['Cache-Control', 'no-store'],
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['Cross-Origin-Resource-Policy', 'same-site'],
];

/**
 * Replies that bring their own content type (the OpenAPI document, the redirect at /, preflights,
 * metrics) and set no Content-Security-Policy of their own get these, as one pre-built header tail:
 * none of them is a page, so nothing in them may run or be sniffed as one. Pages set their own policy.
 */
export const raw_reply_security_tail = `\r\nX-Content-Type-Options: nosniff\r\nContent-Security-Policy: default-src 'none'; frame-ancestors 'none'`;

export function sets_policy(headers: [string, string][]): boolean {
  for (let i = 0; i < headers.length; i++) if (headers[i][0] === 'Content-Security-Policy') return true;
  return false;
}

/** HSTS for replies to requests that arrived over HTTPS (JSON answers carry it always, in the block). */
export const hsts_tail = `\r\nStrict-Transport-Security: max-age=31536000; includeSubDomains`;

/**
 * The Content-Type of JSON answers and the security headers, as one pre-encoded block written with a
 * single writeHeader call: uWS writes "name: value\r\n", so a value may carry further complete header
 * lines. Eight separate calls (each converting two JS strings) cost about 8% of a purchase's CPU in
 * the purchase-one-account profile; this constant block costs one copy.
 */
export const json_header_block = Buffer.from(
  ['application/json; charset=utf-8', ...json_security_headers.map(([name, value]) => `${name}: ${value}`)].join('\r\n'),
);

/**
 * One more header line to append to a combined header value. Values are built by billvend (numbers,
 * configured origins, cookies it made), never copied from a request; a CR or LF would still be a
 * header injection, so it is an assertion.
 */
export function header_line([name, value]: [string, string]): string {
  if (value.includes('\n') || value.includes('\r')) fail(`header ${name} carries a line break`);
  return `\r\n${name}: ${value}`;
}
