// One hierarchical timer wheel drives every delay in the process (refunds, provider re-queries,
// webhook retries, expiries, sandbox delays). Delays are durations of the spec, turned into wall time
// by the clock (Clock.scaled, docs/decisions.md "Time") so the whole schedule can run in seconds under
// test; on a ManualClock the wheel fires when the clock is advanced, not on OS timers.
//
// Four levels of 64 slots: level 0 holds timers due within 64 ticks, level 1 within 64^2 ticks, and
// so on; a timer moves down a level each time its slot comes round, so each timer is touched at most
// four times whatever its delay. With the default 4 ms tick that covers about 194 days.
import type { Clock } from './clock.js';
import { fail } from './assert.js';

export interface TimerHandle {
  cancel(): void;
}

interface Timer {
  due_tick: number;
  callback: () => void;
  cancelled: boolean;
  next: Timer | null;
}

const slot_bits = 6;
const slots_per_level = 1 << slot_bits;
const slot_mask = slots_per_level - 1;
const levels = 4;
const span_ticks_max = slots_per_level ** levels;

export interface TimerWheelOptions {
  clock: Clock;
  tick_ms?: number;
  /** Bound on live timers; scheduling past it is a bug (docs/style.md: every queue has a stated bound). */
  timers_max?: number;
  /** Called when a callback throws: it is a bug, and the process should crash loudly. */
  on_error?: (error: unknown) => void;
}

export class TimerWheel {
  readonly tick_ms: number;
  private readonly clock: Clock;
  private readonly timers_max: number;
  private readonly slots: (Timer | null)[][];
  private current_tick: number;
  private live = 0;
  private os_timer: NodeJS.Timeout | null = null;
  private armed_tick = Number.POSITIVE_INFINITY;
  private stopped = false;
  /** True on a clock that tells the wheel when it moves (a ManualClock): no OS timers then. */
  private readonly driven_by_clock: boolean;
  private readonly on_error: (error: unknown) => void;

  constructor(options: TimerWheelOptions) {
    this.clock = options.clock;
    this.tick_ms = options.tick_ms ?? 4;
    this.timers_max = options.timers_max ?? 1_000_000;
    this.on_error = options.on_error ?? ((error) => { throw error; });
    this.slots = Array.from({ length: levels }, () => new Array<Timer | null>(slots_per_level).fill(null));
    this.current_tick = Math.floor(this.clock.now_ms() / this.tick_ms);
    this.driven_by_clock = this.clock.on_advance !== undefined;
    this.clock.on_advance?.(() => {
      if (!this.stopped) this.advance();
    });
  }

  get size(): number {
    return this.live;
  }

  /** Schedules after a duration of the spec; the clock scales it (TIME_SCALE). */
  schedule(delay_ms: number, callback: () => void): TimerHandle {
    return this.schedule_raw(this.clock.scaled(delay_ms), callback);
  }

  /**
   * Schedules after a wall-clock delay, not scaled: for pauses that are no duration of the spec (a
   * probe of the disk once a second, the spread of re-queries at start).
   */
  schedule_wall(delay_ms: number, callback: () => void): TimerHandle {
    return this.schedule_raw(delay_ms, callback);
  }

  /** Runs a task every interval (a duration of the spec; the clock scales it), one timer at a time. */
  every(interval_ms: number, task: () => void): TimerHandle {
    let current: TimerHandle;
    let cancelled = false;
    const run = () => {
      task();
      if (!cancelled) current = this.schedule(interval_ms, run);
    };
    current = this.schedule(interval_ms, run);
    return {
      cancel: () => {
        cancelled = true;
        current.cancel();
      },
    };
  }

  /** Schedules at an absolute wall-clock instant (already-scaled deadlines stored in records). */
  schedule_at(due_ms: number, callback: () => void): TimerHandle {
    return this.schedule_raw(due_ms - this.clock.now_ms(), callback);
  }

  /** The wall time a schedule of delay_ms really waits, for recording due times (the clock's scaled()). */
  scaled(delay_ms: number): number {
    return this.clock.scaled(delay_ms);
  }

  private schedule_raw(delay_ms: number, callback: () => void): TimerHandle {
    if (this.live >= this.timers_max) fail(`timer wheel full (${this.timers_max})`);
    const now_tick = Math.floor(this.clock.now_ms() / this.tick_ms);
    // An empty wheel jumps to the present; a busy one may lag behind it, and placement is relative
    // to its cursor, so nothing fires from inside schedule().
    if (this.live === 0 && this.current_tick < now_tick) this.current_tick = now_tick;
    // Due at the first tick boundary at or after now + delay, never before the delay has passed.
    const now_ms = this.clock.now_ms();
    const due_tick = Math.max(now_tick + 1, Math.ceil((now_ms + Math.max(0, delay_ms)) / this.tick_ms));
    const timer: Timer = { due_tick, callback, cancelled: false, next: null };
    this.place(timer);
    this.live++;
    this.arm(timer.due_tick);
    return {
      cancel: () => {
        if (!timer.cancelled) {
          timer.cancelled = true;
          this.live--;
        }
      },
    };
  }

  private place(timer: Timer): void {
    let delta = timer.due_tick - this.current_tick;
    if (delta >= span_ticks_max) delta = span_ticks_max - 1;
    let level = 0;
    while (level < levels - 1 && delta >= slots_per_level ** (level + 1)) level++;
    // Place in the slot of the level where due_tick will be found when that level's cursor reaches it.
    const due = delta === span_ticks_max - 1 ? this.current_tick + delta : timer.due_tick;
    const index = Math.floor(due / slots_per_level ** level) & slot_mask;
    timer.next = this.slots[level][index];
    this.slots[level][index] = timer;
  }

  /**
   * The next tick at which something happens: a level-0 slot holding timers, or the cascade of a
   * non-empty slot of a higher level. Ticks before it are empty and can be skipped in one step.
   */
  private next_event_tick(): number {
    let next = Number.POSITIVE_INFINITY;
    for (let ahead = 1; ahead <= slots_per_level; ahead++) {
      if (this.slots[0][(this.current_tick + ahead) & slot_mask] !== null) {
        next = this.current_tick + ahead;
        break;
      }
    }
    for (let level = 1; level < levels; level++) {
      const unit = slots_per_level ** level;
      const cursor = Math.floor(this.current_tick / unit);
      for (let ahead = 1; ahead <= slots_per_level; ahead++) {
        if (this.slots[level][(cursor + ahead) & slot_mask] !== null) {
          next = Math.min(next, (cursor + ahead) * unit);
          break;
        }
      }
    }
    return next;
  }

  /** Advances the wheel to now_tick, firing what is due. */
  private catch_up(now_tick: number): void {
    while (this.current_tick < now_tick) {
      const next = this.next_event_tick();
      if (next > now_tick) {
        this.current_tick = now_tick;
        return;
      }
      this.current_tick = next - 1;
      this.current_tick++;
      const tick = this.current_tick;
      // Cascade the levels whose slot boundary this tick crosses, highest first, so that a timer can
      // fall through several levels in one tick and still fire on time.
      for (let level = levels - 1; level >= 1; level--) {
        const unit = slots_per_level ** level;
        if (tick % unit !== 0) continue;
        const index = Math.floor(tick / unit) & slot_mask;
        let timer = this.slots[level][index];
        this.slots[level][index] = null;
        while (timer !== null) {
          const next = timer.next;
          if (!timer.cancelled) this.place(timer);
          timer = next;
        }
      }
      const index = tick & slot_mask;
      let timer = this.slots[0][index];
      this.slots[0][index] = null;
      while (timer !== null) {
        const next = timer.next;
        if (!timer.cancelled) {
          if (timer.due_tick <= tick) {
            timer.cancelled = true;
            this.live--;
            try {
              timer.callback();
            } catch (error) {
              this.on_error(error);
            }
          } else {
            this.place(timer);
          }
        }
        timer = next;
      }
      if (this.live === 0) {
        // Nothing left: jump straight to now instead of walking empty ticks.
        this.current_tick = Math.max(this.current_tick, now_tick);
        return;
      }
    }
  }

  /** Advances to the clock's present; called by the OS timer and by tests with a manual clock. */
  advance(): void {
    this.catch_up(Math.floor(this.clock.now_ms() / this.tick_ms));
  }

  private arm(due_tick = Number.POSITIVE_INFINITY): void {
    if (this.stopped || this.live === 0 || this.driven_by_clock) return;
    if (this.os_timer !== null) {
      if (due_tick >= this.armed_tick) return;
      clearTimeout(this.os_timer);
    }
    // The cursor lags the clock between OS timer runs: the delay counts from now, not from the cursor,
    // or a timer set long after the last run would wait that long again.
    this.armed_tick = Math.min(this.next_event_tick(), due_tick);
    const delay_ms = Math.max(1, this.armed_tick * this.tick_ms - this.clock.now_ms());
    this.os_timer = setTimeout(() => this.on_os_timer(), delay_ms);
    this.os_timer.unref();
  }

  private on_os_timer(): void {
    this.os_timer = null;
    this.armed_tick = Number.POSITIVE_INFINITY;
    this.advance();
    this.arm();
  }

  /** Keeps the process alive while timers are pending (off by default: the server keeps it alive). */
  stop(): void {
    this.stopped = true;
    if (this.os_timer !== null) clearTimeout(this.os_timer);
    this.os_timer = null;
  }
}
