// A reply whose body is streamed (chunked transfer encoding), such as a CSV export.
import type { Logger } from 'pino';
import type { BodyStream } from '../lib/reply.js';
import type { FrontRequest } from './front-request.js';
import { exit_on_assertion } from './request-failure.js';

/**
 * Writes a streamed body (chunked transfer encoding): one chunk per event-loop turn, corked, so other
 * requests run between chunks; when uWS reports backpressure (write returns false) nothing more is
 * asked of the stream until onWritable says the socket drained. After an abort res is never touched.
 * finish is called once, with the status, when the body has ended or failed.
 */
export function stream_body(ctx: FrontRequest, body: BodyStream, status: number, log: Logger, finish: (status: number) => void): void {
  const res = ctx.res;
  let waiting_writable = false;
  const step = (): void => {
    if (ctx.aborted) return;
    let more = true;
    let chunk: string | null;
    try {
      chunk = body.next();
    } catch (error) {
      // The status line has left: the client can only learn of the failure by the connection closing
      // before the final chunk.
      log.error({ err: error, request_id: ctx.request_id, route: ctx.route?.name }, 'streamed reply failed');
      res.close();
      finish(500);
      exit_on_assertion(error, log);
      return;
    }
    // An empty chunk is a slice that found nothing to send: written, it would read as the body's end.
    if (chunk === '') {
      setImmediate(step);
      return;
    }
    res.cork(() => {
      if (chunk === null) {
        res.end();
        more = false;
        return;
      }
      if (!res.write(chunk)) waiting_writable = true;
    });
    if (!more) finish(status);
    else if (!waiting_writable) setImmediate(step);
  };
  res.onWritable(() => {
    if (waiting_writable && !ctx.aborted) {
      waiting_writable = false;
      setImmediate(step);
    }
    return true;
  });
  setImmediate(step);
}
