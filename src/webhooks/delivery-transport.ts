// One POST of a signed delivery to its endpoint (docs/decisions.md "Webhooks"): keep-alive HTTPS through
// undici (half the CPU of node:https per request), one deadline for the whole attempt, and no request to
// an internal address unless the operator allows it (target-check.ts).
import { Agent as HttpAgent, type Dispatcher as HttpDispatcher } from 'undici';
import { lookup as dns_lookup, type LookupAddress } from 'node:dns';
import type { EventRecord } from './records.js';
import type { Signatures } from './webhook-signer.worker.js';
import { delivery_headers } from './delivery-headers.js';
import type { EndpointState } from './endpoints.js';
import { is_internal_address, is_internal_literal } from './target-check.js';
import { attempt_error_length_max, endpoint_concurrency_max } from './delivery-bounds.js';

export interface AttemptResult {
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export class DeliveryTransport {
  private readonly agent: HttpAgent;

  constructor(private readonly options: { allow_private: boolean; timeout_ms: number }) {
    this.agent = new HttpAgent({
      // Per origin, as many keep-alive connections as attempts an endpoint may have in flight.
      connections: endpoint_concurrency_max,
      pipelining: 1,
      connect: { lookup: this.guarded_lookup, noDelay: true, timeout: options.timeout_ms },
      headersTimeout: options.timeout_ms,
      bodyTimeout: options.timeout_ms,
    });
  }


  /** Resolves the host for the request and refuses internal addresses unless allowed. */
  private readonly guarded_lookup = (hostname: string, options: any, callback: any): void => {
    dns_lookup(hostname, options, (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => {
      if (error !== null || this.options.allow_private) return callback(error, address, family);
      const all = Array.isArray(address) ? address.map((a) => a.address) : [address];
      if (all.some(is_internal_address)) return callback(new Error('refused: the host resolves to an internal address'));
      callback(null, address, family);
    });
  };

  post(endpoint: EndpointState, event: EventRecord, signatures: Signatures, timestamp_s: number): Promise<AttemptResult> {
    const started = performance.now();
    const target = endpoint.target;
    if (target === null) return Promise.resolve({ status_code: null, error: 'refused: not an HTTPS URL', duration_ms: 0 });
    // An IP literal host is connected to without a lookup, so guarded_lookup never sees it.
    if (!this.options.allow_private && is_internal_literal(new URL(target.origin))) {
      return Promise.resolve({ status_code: null, error: 'refused: the host is an internal address', duration_ms: 0 });
    }
    return new Promise((resolve) => {
      let settled = false;
      let status_code: number | null = null;
      let controller: HttpDispatcher.DispatchController | null = null;
      let timed_out: Error | null = null;
      const finish = (code: number | null, error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve({ status_code: code, error: error?.slice(0, attempt_error_length_max) ?? null, duration_ms: Math.round((performance.now() - started) * 1000) / 1000 });
      };
      // One deadline for the whole attempt (waiting for a connection, connect, send, answer), 10 s by
      // default (docs/decisions.md). A request still waiting for its connection is aborted when it starts.
      const deadline = setTimeout(() => {
        timed_out = new Error(`timed out after ${this.options.timeout_ms} ms`);
        controller?.abort(timed_out);
        finish(null, timed_out.message);
      }, this.options.timeout_ms);
      const body = Buffer.from(event.body);
      const headers = delivery_headers(event, body.length, signatures, timestamp_s);
      this.agent.dispatch({
        origin: target.origin,
        path: target.path,
        method: 'POST',
        headers,
        body,
      }, {
        onRequestStart: (started_controller) => {
          controller = started_controller;
          if (timed_out !== null) started_controller.abort(timed_out);
        },
        onResponseStart: (_controller, code) => {
          status_code = code;
        },
        // The body is not needed; it is read and dropped so the connection stays in the pool.
        onResponseData: () => {},
        onResponseEnd: () => finish(status_code, null),
        onResponseError: (_controller, error) => finish(status_code, error.message),
      });
    });
  }

  destroy(): void {
    void this.agent.destroy().catch(() => {});
  }
}
