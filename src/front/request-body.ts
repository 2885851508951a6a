// Reading a request body from uWS, bounded: a declared or actual size over body_bytes_max is refused
// with 413 before the body is kept, and the bytes held across every request being read are bounded by
// the BodyBudget (503 past it). A body is read only once its request is authenticated
// (http-server.ts), so the memory it holds is a known tenant's.
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
 * The bytes of request bodies held at once, across every request of every front end of the process
 * (docs/operations.md REQUEST_BODIES_BYTES_MAX): a request's declared Content-Length is taken when its
 * body starts to be read (so a client that declares a body and sends it slowly holds its place from the
 * start), any bytes beyond it as they arrive, and all of it is given back when the request ends
 * (answered or aborted: HttpFront.finish). A request that does not fit is answered 503 at once.
 */
export class BodyBudget {
  /** Bytes taken by requests in flight (billvend_request_body_bytes_held). */
  held = 0;

  constructor(readonly bytes_max: number) {}

  take(bytes: number): boolean {
    if (this.held + bytes > this.bytes_max) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held -= bytes;
  }
}

/**
 * Collects the body into ctx.raw_body and calls on_body once it is complete, or on_too_large as soon as
 * it grows past the route's limit, or on_over_budget when the process holds too many body bytes already
 * (either answers, so later chunks find ctx.done and are dropped). What it takes from the budget is
 * counted in ctx.body_bytes_held, given back when the request ends.
 */
export function read_body(res: uWS.HttpResponse, ctx: FrontRequest, limit: number, budget: BodyBudget, on_body: () => void, on_too_large: () => void, on_over_budget: () => void): void {
  const declared = ctx.headers.content_length === '' ? 0 : Number(ctx.headers.content_length);
  if (declared > 0) {
    if (!budget.take(declared)) {
      on_over_budget();
      return;
    }
    ctx.body_bytes_held = declared;
  }
  let chunks: Buffer[] | null = null;
  let size = 0;
  res.onData((chunk, is_last) => {
    if (ctx.done) return;
    size += chunk.byteLength;
    if (size > limit) {
      on_too_large();
      return;
    }
    if (size > ctx.body_bytes_held) {
      if (!budget.take(size - ctx.body_bytes_held)) {
        on_over_budget();
        return;
      }
      ctx.body_bytes_held = size;
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
