// The promised time of an order (docs/api.md "A promised time", docs/upstreams.md "Resolution times"):
// when a processing order is expected to be final. An order's answer comes on a re-query (or sooner, by
// the upstream's own answer), so the promise is a re-query: the first round of the schedule after the
// upstream's resolution time for the order's family has passed. Past it without an answer, the order
// is escalated (services/order-desk.ts).
import type { Environment } from '../engine/records.js';
import type { ServiceType } from '../engine/order-record.js';
import { sandbox_delay_ms } from './sandbox-provider.js';

/**
 * How long an upstream takes to settle an order it has not settled at once, per family (live): neither
 * VTpass nor Flutterwave publishes a figure (docs/upstreams.md "Resolution times"), so these are ours,
 * from what each product's upstream path involves: a network's top-up settles in minutes; a
 * distribution company's token, a TV subscription, an exam PIN, a Smile or Spectranet bundle and a Showmax subscription go
 * through the biller's own system and take longer.
 */
export const resolution_ms: Readonly<Record<ServiceType, number>> = {
  airtime: 5 * 60_000,
  data: 5 * 60_000,
  electricity: 15 * 60_000,
  tv: 15 * 60_000,
  education: 15 * 60_000,
  internet: 15 * 60_000,
  // A streaming subscription activated through the biller, as a TV one.
  showmax: 15 * 60_000,
  // A foreign operator's top-up, like a Nigerian network's, settles in minutes.
  international: 5 * 60_000,
};

/** The sandbox settles a delayed number after sandbox_delay_ms (docs/api.md "Sandbox"). */
export const sandbox_resolution_ms = sandbox_delay_ms;

/**
 * The nominal rounds of the re-query schedule, as durations of the spec from the order's sending:
 * delays [30 s, 1 min, 2 min, then 5 min each] add up to 30 s, 90 s, 210 s, 510 s, 810 s, … The first one
 * after `after_ms`.
 */
export function first_round_after(after_ms: number, delays_ms: readonly number[]): number {
  let at_ms = 0;
  for (let round = 0; ; round++) {
    at_ms += delays_ms[Math.min(round, delays_ms.length - 1)];
    if (at_ms > after_ms) return at_ms;
  }
}

/**
 * The promise for an order placed now (epoch µs): the first re-query round after its resolution time,
 * scaled like every duration of the spec (Clock.scaled).
 */
export function expected_final_us(service_type: ServiceType, environment: Environment, created_us: number, delays_ms: readonly number[], scaled: (ms: number) => number): number {
  const resolution = environment === 'test' ? sandbox_resolution_ms : resolution_ms[service_type];
  return created_us + Math.round(scaled(first_round_after(resolution, delays_ms)) * 1000);
}
