// The hierarchical timer wheel (src/lib/timer-wheel.ts; docs/decisions.md "Time"), driven by a manual clock:
// timers fire at their time (never before it, at most one tick after it), in order, exactly once.
import t from 'tap';
import { TimerWheel } from '../src/lib/timer-wheel.js';
import { ManualClock } from '../src/lib/clock.js';

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;
/** A start instant on a 4 ms tick boundary. */
const aligned_start_ms = 1_700_000_000_000;

interface Harness {
  clock: ManualClock;
  wheel: TimerWheel;
  /** Moves the clock to an absolute instant and lets the wheel catch up. */
  advance_to(ms: number): void;
}

function harness(t: { teardown(fn: () => void): void }, start_ms = aligned_start_ms, options: { tick_ms?: number; time_scale?: number } = {}): Harness {
  const clock = new ManualClock(start_ms, options.time_scale);
  const wheel = new TimerWheel({ clock, tick_ms: options.tick_ms });
  t.teardown(() => wheel.stop());
  return {
    clock,
    wheel,
    advance_to(ms: number) {
      if (ms > clock.now_ms()) clock.advance(ms - clock.now_ms());
      wheel.advance();
    },
  };
}

/**
 * Schedules one timer per delay, then walks the clock: to 1 ms before each due time (the timer must
 * not have fired), then 1 ms at a time until it fires (at most one tick late).
 */
function check_delays(t: any, h: Harness, delays: number[], what: string): void {
  const start = h.clock.now_ms();
  const fired_at = new Map<number, number>();
  const order: number[] = [];
  for (const delay of delays) {
    h.wheel.schedule(delay, () => {
      t.notOk(fired_at.has(delay), `${what}: the ${delay} ms timer fires only once`);
      fired_at.set(delay, h.clock.now_ms() - start);
      order.push(delay);
    });
  }
  t.equal(h.wheel.size, delays.length, `${what}: the wheel holds ${delays.length} timers`);
  for (const delay of [...delays].sort((a, b) => a - b)) {
    h.advance_to(start + delay - 1);
    if (fired_at.has(delay)) {
      t.ok(fired_at.get(delay)! >= delay, `${what}: the ${delay} ms timer does not fire early (fired at ${fired_at.get(delay)} ms)`);
    } else {
      t.pass(`${what}: the ${delay} ms timer has not fired 1 ms before it is due`);
    }
    for (let step = 0; step <= h.wheel.tick_ms && !fired_at.has(delay); step++) h.advance_to(h.clock.now_ms() + 1);
    const at = fired_at.get(delay);
    t.ok(at !== undefined, `${what}: the ${delay} ms timer fires`);
    if (at === undefined) continue;
    t.ok(at >= delay, `${what}: the ${delay} ms timer fires no earlier than due (${at} ms)`);
    t.ok(at <= delay + h.wheel.tick_ms, `${what}: the ${delay} ms timer fires at most one tick late (${at} ms)`);
  }
  // Timers due within the same tick fire in the same pass, in no particular order among themselves.
  const due_tick = (delay: number) => Math.ceil(delay / h.wheel.tick_ms);
  t.same(order.map(due_tick), [...delays].sort((a, b) => a - b).map(due_tick), `${what}: the timers fire in the order of their due ticks`);
  t.equal(h.wheel.size, 0, `${what}: the wheel is empty afterwards`);
}

t.test('timers from 1 ms to 24 h fire at their time and in order with the default 4 ms tick', async (t) => {
  const h = harness(t);
  t.equal(h.wheel.tick_ms, 4, 'the default tick is 4 ms');
  // 255/256 ms and 16/17 s straddle the first two level boundaries (64 and 4096 ticks); 24 h is past
  // the wheel's span of 64^4 ticks (about 18.6 h at 4 ms), so that timer is re-placed on the way.
  const delays = [1, 4, 250, 255, 256, 16 * second, 17 * second, 5 * minute, 2 * hour, 8 * hour, 24 * hour];
  check_delays(t, h, [...delays].reverse(), 'default tick');
});

t.test('a timer 10 days ahead, beyond the wheel\'s span, fires at its time', async (t) => {
  // Walking 10 days tick by tick at 4 ms takes the wheel half a minute; a 50 ms tick keeps the same
  // shape (10 days is still beyond 64^4 ticks) at a twelfth of the cost.
  const h = harness(t, aligned_start_ms, { tick_ms: 50 });
  check_delays(t, h, [10 * day, 1 * hour, 9 * day + 23 * hour], '50 ms tick');
});

t.test('a timer scheduled in the middle of a tick does not fire before its delay has passed', async (t) => {
  const rows = [1, 2, 4, 8, 256, 1000];
  for (const offset of [1, 2, 3]) {
    for (const delay of rows) {
      const h = harness(t, aligned_start_ms + offset);
      let fired_after: number | null = null;
      h.wheel.schedule(delay, () => (fired_after = h.clock.now_ms() - aligned_start_ms - offset));
      for (let ms = 1; ms <= delay + 8 && fired_after === null; ms++) h.advance_to(aligned_start_ms + offset + ms);
      t.ok(fired_after !== null && fired_after >= delay && fired_after <= delay + 4,
        `scheduled ${offset} ms into a tick, a ${delay} ms timer fires after ${delay}..${delay + 4} ms (fired after ${fired_after} ms)`);
    }
  }
});

t.test('a cancelled timer never fires and leaves the wheel', async (t) => {
  const h = harness(t);
  const fired: string[] = [];
  const a = h.wheel.schedule(100, () => fired.push('a'));
  h.wheel.schedule(100, () => fired.push('b'));
  const c = h.wheel.schedule(10 * minute, () => fired.push('c'));
  h.wheel.schedule(10 * minute, () => fired.push('d'));
  t.equal(h.wheel.size, 4, 'four timers are live');
  a.cancel();
  c.cancel();
  t.equal(h.wheel.size, 2, 'cancelling two leaves two live timers');
  a.cancel();
  t.equal(h.wheel.size, 2, 'cancelling twice counts once');
  h.advance_to(aligned_start_ms + 11 * minute);
  t.same(fired.sort(), ['b', 'd'], 'only the timers that were not cancelled fire');
  t.equal(h.wheel.size, 0, 'the wheel is empty');
  const late = h.wheel.schedule(5, () => fired.push('late'));
  h.advance_to(h.clock.now_ms() + 10);
  late.cancel();
  t.equal(h.wheel.size, 0, 'cancelling a timer that already fired changes nothing');
  t.same(fired.sort(), ['b', 'd', 'late'], 'the late timer fired once');
});

t.test('TIME_SCALE 0.001 turns 30 s into 30 ms and 5 min into 300 ms', async (t) => {
  const h = harness(t, aligned_start_ms, { time_scale: 0.001 });
  t.equal(h.wheel.scaled(30 * second), 30, 'scaled(30 s) is 30 ms');
  const fired: Record<string, number> = {};
  h.wheel.schedule(30 * second, () => (fired.retry = h.clock.now_ms() - aligned_start_ms));
  h.wheel.schedule(5 * minute, () => (fired.refund = h.clock.now_ms() - aligned_start_ms));
  for (let ms = 1; ms <= 400; ms++) h.advance_to(aligned_start_ms + ms);
  t.ok(fired.retry >= 30 && fired.retry <= 34, `the 30 s timer fires after 30 ms (${fired.retry})`);
  t.ok(fired.refund >= 300 && fired.refund <= 304, `the 5 min timer fires after 300 ms (${fired.refund})`);
  const at = h.clock.now_ms();
  let absolute: number | null = null;
  h.wheel.schedule_at(at + 50, () => (absolute = h.clock.now_ms() - at));
  for (let ms = 1; ms <= 60; ms++) h.advance_to(at + ms);
  t.ok(absolute !== null && absolute >= 50 && absolute <= 54, `schedule_at is not scaled again (${absolute})`);
});

t.test('10,000 timers with random delays each fire exactly once, in due order, on time', async (t) => {
  const h = harness(t);
  // A seeded generator (xorshift32) keeps the run reproducible.
  let seed = 0x9e3779b9;
  const random = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  const horizon_ms = 2 * hour;
  const count = 10_000;
  const due: number[] = [];
  const fired_at: number[] = new Array(count).fill(-1);
  const fire_order: number[] = [];
  let double_fires = 0;
  for (let i = 0; i < count; i++) {
    // Log-uniform from 1 ms to 2 h so that every level of the wheel holds timers.
    const delay = Math.max(1, Math.floor(Math.exp(random() * Math.log(horizon_ms))));
    due.push(delay);
    h.wheel.schedule(delay, () => {
      if (fired_at[i] !== -1) double_fires++;
      fired_at[i] = h.clock.now_ms() - aligned_start_ms;
      fire_order.push(i);
    });
  }
  t.equal(h.wheel.size, count, 'the wheel counts 10,000 live timers');
  let size_checked = false;
  for (let ms = 0; ms <= horizon_ms + 8; ms += h.wheel.tick_ms) {
    h.advance_to(aligned_start_ms + ms);
    if (!size_checked && ms >= 1000) {
      const pending = due.filter((d, i) => fired_at[i] === -1).length;
      t.equal(h.wheel.size, pending, `after 1 s the wheel counts the ${pending} timers still pending`);
      size_checked = true;
    }
  }
  t.equal(double_fires, 0, 'no timer fired twice');
  t.equal(fire_order.length, count, 'every timer fired');
  t.equal(fired_at.filter((at, i) => at < due[i]).length, 0, 'no timer fired before it was due');
  t.equal(fired_at.filter((at, i) => at > due[i] + h.wheel.tick_ms).length, 0, 'no timer fired more than one tick late');
  let out_of_order = 0;
  for (let k = 1; k < fire_order.length; k++) {
    if (Math.ceil(due[fire_order[k]] / 4) < Math.ceil(due[fire_order[k - 1]] / 4)) out_of_order++;
  }
  t.equal(out_of_order, 0, 'timers fired in the order of their due ticks');
  t.equal(h.wheel.size, 0, 'the wheel is empty at the end');
});

t.test('a timer scheduled from inside a callback fires on a later tick, not in the same pass', async (t) => {
  const h = harness(t);
  const fired: [string, number][] = [];
  h.wheel.schedule(8, () => {
    fired.push(['outer', h.clock.now_ms() - aligned_start_ms]);
    h.wheel.schedule(8, () => fired.push(['inner', h.clock.now_ms() - aligned_start_ms]));
  });
  for (let ms = 1; ms <= 40; ms++) h.advance_to(aligned_start_ms + ms);
  t.same(fired, [['outer', 8], ['inner', 16]], 'the inner timer fires 8 ms after the outer one');
});

// The wheel's cursor moves only when the wheel runs; a timer set while it lags behind the clock must
// still be placed where the cursor will find it in time.
t.test('timers set while the cursor lags the clock fire at their time, whatever the distance', async (t) => {
  // The cursor 37 ticks into a level-1 slot, so that some distances under a full turn of a level reach
  // the slot the cursor has just passed.
  const start_ms = aligned_start_ms + 4 * 37;
  for (const lag_ms of [0, 100, 4 * 64 * 63, 60 * second, 17 * minute]) {
    const h = harness(t, start_ms);
    // A far timer keeps the wheel from jumping to the present when the next ones are set.
    h.wheel.schedule(30 * day, () => {});
    h.clock.skew(lag_ms);
    // Every tick around a full turn of level 1 (64² ticks) and of level 2 (64³ ticks) from the cursor.
    const delays: number[] = [1, 200];
    for (const turn_ms of [4 * 64 ** 2, 4 * 64 ** 3]) {
      for (let d = turn_ms - 4 * 80 - lag_ms; d <= turn_ms + 4 * 8 - lag_ms; d += 4) if (d > 0) delays.push(d);
    }
    const start = h.clock.now_ms();
    const late: string[] = [];
    let fired = 0;
    for (const delay of delays) {
      h.wheel.schedule(delay, () => {
        fired++;
        const at = h.clock.now_ms() - start;
        if (at < delay || at > delay + 4) late.push(`${delay} ms fired at ${at} ms`);
      });
    }
    const end = start + Math.max(...delays) + 8;
    for (let ms = start + 1; ms <= end; ms++) h.advance_to(ms);
    t.equal(fired, delays.length, `cursor ${lag_ms} ms behind: all ${delays.length} timers fired`);
    t.same(late.slice(0, 5), [], `cursor ${lag_ms} ms behind: each fired within a tick of its delay (${late.length} did not)`);
  }
});

t.test('a timer set long after the wheel last ran fires after its own delay, not after the lag again', async (t) => {
  const { system_clock } = await import('../src/lib/clock.js');
  const wheel = new TimerWheel({ clock: system_clock });
  t.teardown(() => wheel.stop());
  wheel.schedule(hour, () => {});
  // The wheel sleeps towards its hour-long timer while the clock moves on.
  await new Promise((resolve) => setTimeout(resolve, 400));
  const set_at = Date.now();
  // The wheel's OS timer does not keep a process alive (the server does); this test's own timer does.
  const keep_alive = setTimeout(() => {}, 5000);
  const waited = await new Promise<number>((resolve) => wheel.schedule(50, () => resolve(Date.now() - set_at)));
  clearTimeout(keep_alive);
  t.ok(waited >= 50, `not before its delay (${waited} ms)`);
  t.ok(waited < 300, `about its 50 ms, not the 400 ms the wheel lagged more (${waited} ms)`);
});

t.test('a wheel on a manual clock fires what is due when the clock is advanced, with no OS timer and no call of its own', async (t) => {
  const clock = new ManualClock(aligned_start_ms);
  const wheel = new TimerWheel({ clock });
  t.teardown(() => wheel.stop());
  const fired: string[] = [];
  wheel.schedule(30 * second, () => fired.push('30 s'));
  wheel.schedule(5 * minute, () => fired.push('5 min'));
  clock.advance(30 * second - 1);
  t.same(fired, [], 'nothing has fired 1 ms before the first timer is due');
  clock.advance(1 + wheel.tick_ms);
  t.same(fired, ['30 s'], 'the 30 s timer fired when the clock passed it');
  clock.advance(5 * minute);
  t.same(fired, ['30 s', '5 min'], 'and the 5 min timer when the clock passed that');
  t.equal(wheel.size, 0, 'nothing is left on the wheel');
});
