// The headers of every answer (docs/api.md "Response headers"), chosen per route when the routes are compiled
// (front-route.ts) and written as pre-encoded blocks: the JSON API's answers get what an API client needs,
// the dashboard's JSON answers and the pages what a browser needs (docs/decisions.md "Response headers");
// replies that bring their own content type get a short tail; any other header line is checked for line
// breaks before it is appended.
import { fail } from '../lib/assert.js';

/**
 * The JSON API's answers (`/v1`, the callbacks, the operator API): a program reads them, never renders
 * them. Content-Type (in the block below), no caching of an answer that may hold balances or keys, and no
 * sniffing of it as something a browser would run. X-Request-Id, the X-RateLimit-* trio, Retry-After,
 * Idempotent-Replayed and the CORS headers are written beside these, per answer.
 */
export const api_json_headers: [string, string][] = [
  ['X-Content-Type-Options', 'nosniff'],
  ['Cache-Control', 'no-store'],
];

/**
 * The dashboard's JSON answers (`/dashboard/...`, session routes): read by the dashboard's pages in a
 * browser, so they keep the browser's headers too: never framed, never scripted, HSTS.
 */
export const browser_json_headers: [string, string][] = [
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'no-referrer'],
  ['Cache-Control', 'no-store'],
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['Cross-Origin-Resource-Policy', 'same-site'],
];

/**
 * The Content-Type of a JSON answer and the headers above, as one pre-encoded block written with a single
 * writeHeader call: uWS writes "name: value\r\n", so a value may carry further complete header lines.
 * Eight separate calls (each converting two JS strings) cost about 8% of a purchase's CPU in the
 * purchase-one-account profile; a constant block costs one copy. `own_cache_control` leaves out
 * Cache-Control, for the rare answer that sets its own (the statements' public key): one header, not two.
 */
export interface JsonHeaderBlock {
  standard: Buffer;
  own_cache_control: Buffer;
}

function json_header_block(headers: [string, string][]): JsonHeaderBlock {
  const encode = (list: [string, string][]) => Buffer.from(['application/json; charset=utf-8', ...list.map(([name, value]) => `${name}: ${value}`)].join('\r\n'));
  return { standard: encode(headers), own_cache_control: encode(headers.filter(([name]) => name !== 'Cache-Control')) };
}

export const api_header_block = json_header_block(api_json_headers);
export const browser_header_block = json_header_block(browser_json_headers);

/**
 * Whether a path's answers are read by a browser: the dashboard's pages and its JSON (`/dashboard/...`).
 * Everything else that answers JSON is the API. Decided once per route (front-route.ts), and for a request
 * that matched no route, by its path.
 */
export function answers_browser(path: string): boolean {
  return path === '/dashboard' || path.startsWith('/dashboard/');
}

export function json_header_block_for(path: string): JsonHeaderBlock {
  return answers_browser(path) ? browser_header_block : api_header_block;
}

/** Whether a reply sets its own Cache-Control (then the block without one is written). */
export function sets_cache_control(headers: [string, string][]): boolean {
  for (let i = 0; i < headers.length; i++) if (headers[i][0] === 'Cache-Control') return true;
  return false;
}

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

/** HSTS for replies to requests that arrived over HTTPS (the dashboard's JSON answers carry it always, in their block). */
export const hsts_tail = `\r\nStrict-Transport-Security: max-age=31536000; includeSubDomains`;

/**
 * One more header line to append to a combined header value. Values are built by billvend (numbers,
 * configured origins, cookies it made), never copied from a request; a CR or LF would still be a
 * header injection, so it is an assertion.
 */
export function header_line([name, value]: [string, string]): string {
  if (value.includes('\n') || value.includes('\r')) fail(`header ${name} carries a line break`);
  return `\r\n${name}: ${value}`;
}
