// Reading a request body from uWS, bounded: a declared or actual size over body_bytes_max is refused
// with 413 before the body is kept.
import type * as uWS from 'uWebSockets.js';
import type { FrontRequest } from './front-request.js';

/** Request bodies over 16 KiB are refused with 413 (docs/decisions.md); a route may allow more (RouteDef.body_bytes_max). */
export const body_bytes_max = 16 * 1024;

/** Whether a Content-Length header ("" when absent) declares more than the route's limit. */
export function declares_too_large(content_length: string, limit: number): boolean {
  const declared = content_length === '' ? 0 : Number(content_length);
  return declared > limit;
}

/**
 * Collects the body into ctx.raw_body and calls on_body once it is complete, or on_too_large as soon as
 * it grows past the route's limit (on_too_large answers, so later chunks find ctx.done and are dropped).
 */
export function read_body(res: uWS.HttpResponse, ctx: FrontRequest, limit: number, on_body: () => void, on_too_large: () => void): void {
  let chunks: Buffer[] | null = null;
  let size = 0;
  res.onData((chunk, is_last) => {
    if (ctx.done) return;
    size += chunk.byteLength;
    if (size > limit) {
      on_too_large();
      return;
    }
    // uWS reuses the chunk's memory after this callback returns: copy it.
    const copy = Buffer.from(new Uint8Array(chunk));
    if (is_last) {
      let body: Buffer;
      if (chunks === null) body = copy;
      else {
        chunks.push(copy);
        body = Buffer.concat(chunks, size);
      }
      chunks = null;
      ctx.raw_body = body;
      on_body();
    } else {
      (chunks ??= []).push(copy);
    }
  });
}
