// Time as the cluster code reads it: the monotonic clock its lease arithmetic runs on, and a plain pause.
// Left unscaled on purpose: lease and retry timing is agreed with other processes over NATS, never
// scaled by TIME_SCALE (ARCHITECTURE.md "Time and randomness").

/**
 * Lease arithmetic runs on the monotonic clock: a wall clock stepped back (NTP, an operator) would
 * stretch a leader's lease past the moment a standby counts it as ended.
 */
export const monotonic_ms = (): number => performance.now();

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
