// When webhook attempts happen (docs/decisions.md "Webhooks"): each pending delivery a timer on the wheel,
// planned once the commit that holds it is durable; attempts bounded per endpoint and overall, a waiting
// list per endpoint, and the deliveries left in the store's queue brought back, oldest first, by the
// refill (as room frees up) and the sweep (recovery, and every sweep_interval_ms). Not here: the attempt
// it starts (delivery-attempts.ts), the records it reads (delivery-book.ts), the bounds themselves
// (delivery-bounds.ts).
import type { DeliveryRecord, EventRecord } from './records.js';
import type { TimerHandle } from '../lib/timer-wheel.js';
import { attempts_in_flight_max, endpoint_concurrency_max, endpoint_waiting_max, known_deliveries_max, refill_batch_max } from './delivery-bounds.js';
import { DeliveryBook, type QueueEntry } from './delivery-book.js';

export abstract class DeliveryScheduler extends DeliveryBook {
  protected readonly timers = new Map<number, TimerHandle>();
  protected readonly in_flight = new Set<number>();
  /** Retries decided during an attempt, planned when it ends; at most one per attempt in flight. */
  protected readonly retry_after_attempt = new Map<number, number>();
  private readonly endpoint_in_flight = new Map<number, number>();
  private readonly waiting = new Map<number, { delivery_id: number; account_id: number }[]>();
  private readonly waiting_ids = new Set<number>();
  private total_in_flight = 0;

  /** One attempt of a delivery (delivery-attempts.ts): started here, within the bounds, and planned again when it asks for a retry. */
  protected abstract attempt(endpoint_id: number, delivery_id: number, account_id: number): Promise<void>;

  /**
   * New deliveries whose commit is not durable yet. LMDB shows a committed transaction to readers
   * before it is flushed, so the sweep reads them from the queue; delivering one then could announce
   * an event that a crash before the flush takes back (regression: test/crash/ campaign, an event
   * received for a credit that the restart did not keep).
   */
  protected readonly awaiting_commit = new Set<number>();

  /** Schedules new deliveries once the commit that holds them is durable; never if it fails. */
  start_when_durable(deliveries: DeliveryRecord[], event: EventRecord, durable: Promise<void>, due_ms: number): void {
    for (const delivery of deliveries) this.awaiting_commit.add(delivery.id);
    durable.then(
      () => {
        for (const delivery of deliveries) {
          this.awaiting_commit.delete(delivery.id);
          if (this.known.size < known_deliveries_max && !this.stopped) this.known.set(delivery.id, { delivery, event });
          this.schedule(delivery.endpoint_id, delivery.id, delivery.account_id, due_ms);
        }
      },
      () => {
        for (const delivery of deliveries) this.awaiting_commit.delete(delivery.id);
      },
    );
  }

  /** Plans an attempt of a pending delivery at due_ms (wall clock, already scaled). */
  schedule(endpoint_id: number, delivery_id: number, account_id: number, due_ms: number): void {
    if (this.stopped || this.in_flight.has(delivery_id)) return;
    this.timers.get(delivery_id)?.cancel();
    const fire = () => {
      this.timers.delete(delivery_id);
      this.ready(endpoint_id, delivery_id, account_id);
    };
    const delay_ms = due_ms - this.deps.clock.now_ms();
    if (delay_ms <= 0) {
      fire();
      return;
    }
    this.timers.set(delivery_id, this.deps.wheel.schedule_at(due_ms, fire));
  }

  private ready(endpoint_id: number, delivery_id: number, account_id: number): void {
    if ((this.endpoint_in_flight.get(endpoint_id) ?? 0) >= endpoint_concurrency_max || this.total_in_flight >= attempts_in_flight_max) {
      const queue = this.waiting.get(endpoint_id) ?? [];
      if (queue.length < endpoint_waiting_max && !this.waiting_ids.has(delivery_id)) {
        queue.push({ delivery_id, account_id });
        this.waiting_ids.add(delivery_id);
      } else if (!this.waiting_ids.has(delivery_id)) {
        // Left in the store's queue; refill() brings it back once the waiting list has room.
        this.overflowed = true;
      }
      this.waiting.set(endpoint_id, queue);
      return;
    }
    this.start(endpoint_id, delivery_id, account_id);
  }

  private start(endpoint_id: number, delivery_id: number, account_id: number): void {
    if (this.in_flight.has(delivery_id)) return;
    this.in_flight.add(delivery_id);
    this.total_in_flight++;
    this.endpoint_in_flight.set(endpoint_id, (this.endpoint_in_flight.get(endpoint_id) ?? 0) + 1);
    this.attempt(endpoint_id, delivery_id, account_id)
      .catch((error) => this.deps.log.error({ err: error, delivery_id }, 'webhook attempt failed unexpectedly'))
      .finally(() => {
        this.known.delete(delivery_id);
        this.in_flight.delete(delivery_id);
        const retry_ms = this.retry_after_attempt.get(delivery_id);
        if (retry_ms !== undefined) {
          this.retry_after_attempt.delete(delivery_id);
          this.schedule(endpoint_id, delivery_id, account_id, retry_ms);
        }
        this.total_in_flight--;
        const left = (this.endpoint_in_flight.get(endpoint_id) ?? 1) - 1;
        if (left === 0) this.endpoint_in_flight.delete(endpoint_id);
        else this.endpoint_in_flight.set(endpoint_id, left);
        this.next_waiting(endpoint_id);
      });
  }

  private next_waiting(endpoint_id: number): void {
    const queue = this.waiting.get(endpoint_id);
    if (this.overflowed && (queue?.length ?? 0) < refill_batch_max) this.schedule_refill();
    if (queue === undefined) return;
    const next = queue.shift();
    if (queue.length === 0) this.waiting.delete(endpoint_id);
    if (next !== undefined) {
      this.waiting_ids.delete(next.delivery_id);
      this.ready(endpoint_id, next.delivery_id, next.account_id);
    }
  }

  /** Set when a due delivery found its endpoint's waiting list full and stayed in the store only. */
  private overflowed = false;
  /** Where the next refill resumes in the store's queue (delivery ids ascend: oldest first). */
  private refill_after = -1;
  private refill_scheduled = false;

  private schedule_refill(): void {
    if (this.refill_scheduled || this.stopped) return;
    this.refill_scheduled = true;
    setImmediate(() => {
      this.refill_scheduled = false;
      this.refill();
    });
  }

  /**
   * Brings deliveries left in the store back into memory, oldest first, a bounded number at a time,
   * as soon as the waiting lists have room: a backlog larger than the lists drains at the receivers'
   * pace instead of one list's worth per minute-long sweep.
   */
  private refill(): void {
    if (this.stopped) return;
    const { last, reached_end } = this.bring_back(this.refill_after, refill_batch_max);
    this.refill_after = reached_end ? -1 : last;
    // More may be left behind: the next slot that frees up asks again.
    this.overflowed = !reached_end;
  }

  /**
   * Schedules pending deliveries of the store's queue that are not in memory, in id order after
   * start_after, at most limit of them. The sweep (all of them) and refill (a batch) share it.
   */
  private bring_back(start_after: number, limit: number): { brought: number; last: number; reached_end: boolean } {
    let brought = 0;
    let last = start_after;
    for (const { key, value } of this.engine.store.delivery_queue.getRange({ start: start_after + 1 })) {
      if (brought >= limit) return { brought, last, reached_end: false };
      const delivery_id = key as number;
      last = delivery_id;
      if (this.timers.has(delivery_id) || this.in_flight.has(delivery_id) || this.waiting_ids.has(delivery_id) || this.staged.has(delivery_id) || this.awaiting_commit.has(delivery_id)) continue;
      const entry = value as QueueEntry;
      this.schedule(entry.endpoint_id, delivery_id, entry.account_id, entry.due_ms);
      brought++;
    }
    return { brought, last, reached_end: true };
  }

  /** Schedules every pending delivery of the store that is not already in memory. */
  protected sweep(): number {
    return this.bring_back(-1, Number.POSITIVE_INFINITY).brought;
  }
}
