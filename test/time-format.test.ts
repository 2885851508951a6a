// ISO timestamps with microseconds (src/lib/time-format.ts; docs/spec.md section 2): the per-second cache gives
// exactly what Date.toISOString gives, in any order of calls, across second, day and year boundaries.
import t from 'tap';
import { iso_ms, iso_us } from '../src/lib/time-format.js';

/** The plain formula the cache must match. */
function expected(epoch_us: number): string {
  const ms = Math.floor(epoch_us / 1000);
  return new Date(ms).toISOString().slice(0, 23) + String(epoch_us - ms * 1000).padStart(3, '0') + 'Z';
}

t.test('iso_us matches toISOString with microseconds at the edges and in any order', async (t) => {
  const edges = [
    0, 1, 999_999, 1_000_000, 1_000_001,
    Date.UTC(2026, 10, 21, 10, 15, 30, 123) * 1000 + 456,
    Date.UTC(2026, 11, 31, 23, 59, 59, 999) * 1000 + 999, // the last microsecond of a year
    Date.UTC(2027, 0, 1) * 1000, // and the first of the next
    Date.UTC(2026, 10, 21, 10, 15, 30) * 1000, // twice the same second, then back and forth
    Date.UTC(2026, 10, 21, 10, 15, 30) * 1000 + 999_999,
    Date.UTC(2026, 10, 21, 10, 15, 29) * 1000 + 999_999,
    Date.UTC(2026, 10, 21, 10, 15, 30) * 1000 + 1,
  ];
  for (const us of edges) t.equal(iso_us(us), expected(us), `${us}`);
  t.equal(iso_us(Date.UTC(2026, 10, 21, 10, 15, 30, 123) * 1000 + 456), '2026-11-21T10:15:30.123456Z', 'the spec example shape');
  t.equal(iso_ms(Date.UTC(2026, 10, 21, 10, 15, 30, 123)), '2026-11-21T10:15:30.123000Z', 'milliseconds get three zeros');
  let mismatches = 0;
  let seed = 12345;
  const base = Date.UTC(2026, 0, 1) * 1000;
  for (let i = 0; i < 100_000; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    // Mostly near each other (same or neighbouring seconds), sometimes far away.
    const us = i % 10 === 0 ? base + seed * 7_919 : base + (seed % 3_000_000);
    if (iso_us(us) !== expected(us)) mismatches++;
  }
  t.equal(mismatches, 0, '100,000 pseudo-random instants: all equal');
});
