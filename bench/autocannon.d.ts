// The part of autocannon 9's JavaScript API the benches use (the package ships no types). Only what
// bench/load.ts touches is declared, so that a misuse of anything else is a type error.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    /** One raw request as the request builder sees it; setupRequest may change any field. */
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** Called before each request is written; returns the request to send. */
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
      /** Called with each response to this request (after the body is complete). */
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string | string[]>) => void;
    }

    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** Stop after this many requests; duration is then ignored. */
      amount?: number;
      pipelining?: number;
      /** Seconds a request may wait for its response before it counts as a timeout. */
      timeout?: number;
      requests?: Request[];
    }

    /** hdr-histogram-percentiles-obj: latencies in milliseconds, requests in requests per second. */
    interface Histogram {
      average: number;
      max: number;
      /** For requests: how many were answered in the whole run. */
      total: number;
      p50: number;
      p99: number;
    }

    interface Result {
      latency: Histogram;
      requests: Histogram;
      /** Connection errors, timeouts included. */
      errors: number;
      timeouts: number;
      non2xx: number;
      statusCodeStats: Record<string, { count: number }>;
    }

    /** An event emitter that is also the promise of the result (when no callback is given). */
    interface Instance extends EventEmitter, PromiseLike<Result> {}
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
