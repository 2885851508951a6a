// A circuit breaker for the upstream: after `failures_max` consecutive infrastructure failures
// (timeouts, connection errors, 5xx, unreadable bodies) it opens for `open_ms` (scaled by TIME_SCALE),
// during which purchases are refused before any debit with 503 transaction.provider_unavailable.
// Then one call is let through (half-open): success closes it, failure opens it again.
import type { Clock } from '../lib/clock.js';

export type CircuitState = 'closed' | 'open' | 'half_open';

export class CircuitBreaker {
  private failures = 0;
  private open_until_ms = 0;
  private probing = false;
  state: CircuitState = 'closed';

  constructor(
    private readonly clock: Clock,
    private readonly open_ms: number,
    private readonly failures_max = 5,
    private readonly on_change: (state: CircuitState) => void = () => {},
  ) {}

  /** Seconds until the next attempt is allowed, or 0 when a call may go through now. */
  retry_after_s(): number {
    if (this.state !== 'open') return 0;
    const left_ms = this.open_until_ms - this.clock.now_ms();
    if (left_ms > 0) return Math.max(1, Math.ceil(left_ms / 1000));
    this.set('half_open');
    this.probing = false;
    return 0;
  }

  /** Whether a call may start now; in half-open state only one probe at a time. */
  allow(): boolean {
    if (this.retry_after_s() > 0) return false;
    if (this.state === 'half_open') {
      if (this.probing) return false;
      this.probing = true;
    }
    return true;
  }

  success(): void {
    this.failures = 0;
    this.probing = false;
    if (this.state !== 'closed') this.set('closed');
  }

  failure(): void {
    this.failures++;
    this.probing = false;
    if (this.state === 'half_open' || this.failures >= this.failures_max) {
      this.open_until_ms = this.clock.now_ms() + this.open_ms;
      this.set('open');
    }
  }

  private set(state: CircuitState): void {
    if (this.state === state) return;
    this.state = state;
    this.on_change(state);
  }
}
