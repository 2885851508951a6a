// Time is passed in (docs/style.md): the timer wheel, the engine and the tests read a Clock, so that
// schedules can be driven by a manual clock in unit tests.

export interface Clock {
  /** Wall-clock milliseconds since the Unix epoch. */
  now_ms(): number;
  /** Wall-clock microseconds since the Unix epoch (for ISO timestamps with microseconds, docs/spec.md section 2). */
  now_us(): number;
}

const origin_us = Math.round(performance.timeOrigin * 1000);

export const system_clock: Clock = {
  now_ms: () => Date.now(),
  now_us: () => origin_us + Math.floor(performance.now() * 1000),
};

/** A clock that only moves when told to; for deterministic tests of schedules. */
export class ManualClock implements Clock {
  constructor(private current_ms: number) {}
  now_ms(): number {
    return this.current_ms;
  }
  now_us(): number {
    return this.current_ms * 1000;
  }
  advance(delta_ms: number): void {
    this.current_ms += delta_ms;
  }
}
