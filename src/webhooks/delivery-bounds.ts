// The bounds and the retry schedule of webhook delivery (docs/decisions.md "Webhooks"): every queue and
// list the dispatcher keeps is bounded by one of these.

export const retry_delays_ms = [30_000, 300_000, 1_800_000, 7_200_000, 28_800_000];
export const endpoint_concurrency_max = 8;
export const attempts_in_flight_max = 256;
/** Deliveries waiting for a free slot of their endpoint; beyond it they wait in the store for the sweep. */
export const endpoint_waiting_max = 10_000;
/** Response bodies are discarded; receivers should answer quickly (docs/spec.md section 6). */
export const attempt_error_length_max = 200;
/** Deliveries a refill brings back from the store at a time (half a waiting list). */
export const refill_batch_max = endpoint_waiting_max / 2;
/** New deliveries kept in memory with their event until their first attempt (else read from the store). */
export const known_deliveries_max = 20_000;
/** How often the store's queue is swept for deliveries that are due but not in memory. */
export const sweep_interval_ms = 60_000;
