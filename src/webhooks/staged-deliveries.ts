// Deliveries changed in a batch that is not durable yet, each as its latest record.
import type { DeliveryRecord } from './records.js';

/**
 * The latest record of each delivery changed in a batch that is not durable yet. Attempts, replays
 * and the sweep read it before the store, which lags until the commit: reading the store alone let
 * a quick retry start from an older record and a sweep resend a delivery already settled
 * (regression: test/webhook-retries.test.ts, test/webhook-events.test.ts). Bounded by the deliveries
 * of the batches not yet durable: each entry goes when its batch is durable or fails.
 */
export class StagedDeliveries {
  private readonly staged = new Map<number, DeliveryRecord>();
  private readonly staged_by_batch = new Map<Promise<void>, DeliveryRecord[]>();

  get(delivery_id: number): DeliveryRecord | undefined {
    return this.staged.get(delivery_id);
  }

  has(delivery_id: number): boolean {
    return this.staged.has(delivery_id);
  }

  /** Remembers a delivery staged in the batch that durable settles, until it settles. */
  remember(delivery: DeliveryRecord, durable: Promise<void>): void {
    this.staged.set(delivery.id, delivery);
    let list = this.staged_by_batch.get(durable);
    if (list === undefined) {
      list = [];
      this.staged_by_batch.set(durable, list);
      const forget = () => {
        for (const each of list!) if (this.staged.get(each.id) === each) this.staged.delete(each.id);
        this.staged_by_batch.delete(durable);
      };
      durable.then(forget, forget);
    }
    list.push(delivery);
  }
}
