// One live upstream's HTTP calls: JSON in and out, a deadline, the circuit breaker fed, every call counted
// for the operator's metrics. Shared by the adapters of every kind (vtpass, flutterwave), which only say
// what to send and how to read the answer (docs/decisions.md "Upstream routing and failover").
import type { Logger } from 'pino';
import type { Clock } from '../../lib/clock.js';
import type { TimerWheel } from '../../lib/timer-wheel.js';
import { CircuitBreaker, type CircuitState } from '../circuit-breaker.js';

/** What the operator's metrics learn of upstream calls; structural, so services import nothing above them. */
export interface ProviderObserver {
  provider_call(operation: string, result: 'answered' | 'error' | 'timeout' | 'circuit_open', duration_ms: number, upstream?: string): void;
  provider_circuit_changed(state: CircuitState, upstream?: string): void;
}

export const no_observer: ProviderObserver = { provider_call() {}, provider_circuit_changed() {} };

/**
 * An upstream's answer: a body (with its HTTP status), or an error. `not_sent` says the request provably
 * never reached the upstream (the circuit was open, or the connection was refused before anything was
 * written): only then may an order move to another upstream without an answer (docs/decisions.md).
 */
export type UpstreamAnswer = { body: unknown; status: number } | { error: string; not_sent: boolean };

/** Consecutive infrastructure failures that open an upstream's circuit, and how long it stays open. */
export const circuit_failures_max = 5;
export const circuit_open_ms = 60_000;

/** Whether a fetch error means the TCP connection was refused: no byte of the request was written. */
function connection_refused(error: unknown): boolean {
  let current: any = error;
  for (let depth = 0; current != null && depth < 4; depth++) {
    if (current.code === 'ECONNREFUSED') return true;
    current = current.cause;
  }
  return false;
}

export class UpstreamClient {
  readonly breaker: CircuitBreaker;

  constructor(
    readonly name: string,
    private readonly base_url: string,
    private readonly timeout_ms: number,
    clock: Clock,
    wheel: TimerWheel,
    log: Logger,
    private readonly observer: ProviderObserver,
    on_circuit: (state: CircuitState) => void = () => {},
  ) {
    this.breaker = new CircuitBreaker(clock, wheel.scaled(circuit_open_ms), circuit_failures_max, (state: CircuitState) => {
      log.warn({ circuit: state, upstream: name }, 'provider circuit changed');
      observer.provider_circuit_changed(state, name);
      on_circuit(state);
    });
    // Node loads its fetch implementation on first use, which can take longer than a short upstream
    // timeout on a busy machine: load it now, not inside the first purchase's deadline.
    void globalThis.fetch;
  }

  /** One call, counted and timed for the operator's metrics under `operation`. */
  async call(operation: string, method: 'GET' | 'POST', path: string, headers: Record<string, string>, payload?: unknown): Promise<UpstreamAnswer> {
    const started = performance.now();
    const answer = await this.send(method, path, headers, payload);
    const result = 'body' in answer ? 'answered' : answer.error === 'circuit open' ? 'circuit_open' : answer.error === 'timeout' ? 'timeout' : 'error';
    this.observer.provider_call(operation, result, performance.now() - started, this.name);
    return answer;
  }

  /** JSON in, JSON (or an error for an unclear answer) out; feeds the breaker. */
  private async send(method: 'GET' | 'POST', path: string, headers: Record<string, string>, payload: unknown): Promise<UpstreamAnswer> {
    if (!this.breaker.allow()) return { error: 'circuit open', not_sent: true };
    let response: Response;
    try {
      response = await fetch(this.base_url + path, {
        method,
        headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: payload === undefined ? undefined : JSON.stringify(payload),
        signal: AbortSignal.timeout(this.timeout_ms),
      });
    } catch (error) {
      this.breaker.failure();
      if ((error as Error).name === 'TimeoutError') return { error: 'timeout', not_sent: false };
      return { error: `connection: ${(error as Error).message}`, not_sent: connection_refused(error) };
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      this.breaker.failure();
      return { error: `body: ${(error as Error).message}`, not_sent: false };
    }
    if (response.status >= 500) {
      this.breaker.failure();
      return { error: `HTTP ${response.status}`, not_sent: false };
    }
    try {
      const body = JSON.parse(text);
      this.breaker.success();
      return { body, status: response.status };
    } catch {
      this.breaker.failure();
      return { error: `unreadable body (HTTP ${response.status})`, not_sent: false };
    }
  }
}
