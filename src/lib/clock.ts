// Where time comes from (ARCHITECTURE.md "Time and randomness"). start() makes one Clock and passes it
// down: every part that reads the time or turns a duration of the spec into wall time asks it, so
// that a test can hand in a ManualClock and drive the whole schedule without sleeping.

export interface Clock {
  /** Wall-clock milliseconds since the Unix epoch. */
  now_ms(): number;
  /** Wall-clock microseconds since the Unix epoch (for ISO timestamps with microseconds, docs/spec.md section 2). */
  now_us(): number;
  /**
   * The wall time a duration of the spec (a retry delay, a lock, a retention) lasts here: TIME_SCALE
   * times it (docs/decisions.md "Time"). The one place that factor applies.
   */
  scaled(duration_ms: number): number;
  /** The factor scaled() applies, for the startup log line. */
  readonly time_scale: number;
  /**
   * A manual clock calls the listener after each move, so that a timer wheel on it fires what is due;
   * absent on the system clock, whose wheels run on OS timers.
   */
  on_advance?(listener: () => void): void;
}

const origin_us = Math.round(performance.timeOrigin * 1000);

function checked_scale(time_scale: number): number {
  if (!Number.isFinite(time_scale) || time_scale <= 0) throw new RangeError(`time scale must be a positive number, got ${time_scale}`);
  return time_scale;
}

/** The operating system's clock, with the spec's durations multiplied by TIME_SCALE. */
export class SystemClock implements Clock {
  readonly time_scale: number;
  constructor(time_scale = 1) {
    this.time_scale = checked_scale(time_scale);
  }
  now_ms(): number {
    return Date.now();
  }
  now_us(): number {
    return origin_us + Math.floor(performance.now() * 1000);
  }
  scaled(duration_ms: number): number {
    return duration_ms * this.time_scale;
  }
}

/** The system clock unscaled: for tools and benches that run outside start(). */
export const system_clock: Clock = new SystemClock(1);

/**
 * A clock that only moves when told to: advance() fires the timers of every wheel built on it that are
 * due by then, so a test drives re-queries, locks and retries in a loop without sleeping.
 */
export class ManualClock implements Clock {
  readonly time_scale: number;
  private readonly listeners: (() => void)[] = [];
  constructor(private current_ms: number, time_scale = 1) {
    this.time_scale = checked_scale(time_scale);
  }
  now_ms(): number {
    return this.current_ms;
  }
  now_us(): number {
    return this.current_ms * 1000;
  }
  scaled(duration_ms: number): number {
    return duration_ms * this.time_scale;
  }
  on_advance(listener: () => void): void {
    this.listeners.push(listener);
  }
  /** Moves the clock on and fires what is due by then. */
  advance(delta_ms: number): void {
    if (!(delta_ms >= 0)) throw new RangeError(`a clock does not go back (advance by ${delta_ms} ms)`);
    this.current_ms += delta_ms;
    for (const listener of this.listeners) listener();
  }
  /**
   * Moves the clock on without telling the wheels, as time passes while the event loop is busy
   * elsewhere: for tests of a wheel whose cursor lags its clock.
   */
  skew(delta_ms: number): void {
    this.current_ms += delta_ms;
  }
}
