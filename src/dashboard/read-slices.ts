// The dashboard's long reads (a number search, the trend, a filtered wallet page, the CSV exports) go
// in slices, with a turn of the event loop between them (docs/design.md), so that one tenant's read
// never holds the others' requests.

/**
 * Orders or entries read in one step of an export, the trend or a number search, before the event loop
 * serves others: a few milliseconds each. Regression: 10,000 rows or 20,000 orders in one step held it
 * for 0.4-0.5 s, and three exports at once took another tenant's wallet read p99 from 3 ms to 1.3 s.
 */
export const dashboard_slice_rows = 250;

/** Lets the event loop serve what waits (timers, sockets) before the next slice. */
export function next_turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
