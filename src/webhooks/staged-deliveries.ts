// Deliveries changed in a batch that is not durable yet, each as its latest record.
import type { DeliveryRecord } from './records.js';

/**
 * The latest record of each delivery changed in a batch that is not durable yet. Attempts, replays
 * and the sweep read it before the store, which lags until the commit: reading the store alone let
 * a quick retry start from an older record and a sweep resend a delivery already settled
 * (regression: test/webhook-retries.test.ts, test/webhook-events.test.ts). Bounded by the deliveries
 * of the batches not yet durable: each entry goes when its batch is durable or fails.
 *
 * The dispatcher stages deliveries apart from their account (not through its actor), so a failed
 * commit does not reload them with the account: `on_lost` hears which deliveries a failed batch took
 * back, once their entries are gone, so that what the dispatcher derived from them is read again from
 * the store.
 */
export class StagedDeliveries {
  private readonly staged = new Map<number, DeliveryRecord>();
  private readonly staged_by_batch = new Map<Promise<void>, DeliveryRecord[]>();
  /** Per account, the batch holding its latest staged delivery change, until that batch settles. */
  private readonly latest_by_account = new Map<number, Promise<void>>();

  constructor(private readonly on_lost: (deliveries: readonly DeliveryRecord[]) => void) {}

  get(delivery_id: number): DeliveryRecord | undefined {
    return this.staged.get(delivery_id);
  }

  has(delivery_id: number): boolean {
    return this.staged.has(delivery_id);
  }

  values(): IterableIterator<DeliveryRecord> {
    return this.staged.values();
  }

  /**
   * Null when every delivery change of the account is durable; else the promise of the batch holding
   * the latest, which batches commit in order make cover the earlier ones too.
   */
  settled(account_id: number): Promise<void> | null {
    return this.latest_by_account.get(account_id) ?? null;
  }

  /** Remembers a delivery staged in the batch that durable settles, until it settles. */
  remember(delivery: DeliveryRecord, durable: Promise<void>): void {
    this.staged.set(delivery.id, delivery);
    this.latest_by_account.set(delivery.account_id, durable);
    let list = this.staged_by_batch.get(durable);
    if (list === undefined) {
      list = [];
      this.staged_by_batch.set(durable, list);
      const forget = () => {
        for (const each of list!) {
          if (this.staged.get(each.id) === each) this.staged.delete(each.id);
          if (this.latest_by_account.get(each.account_id) === durable) this.latest_by_account.delete(each.account_id);
        }
        this.staged_by_batch.delete(durable);
      };
      durable.then(forget, () => {
        forget();
        this.on_lost(list!);
      });
    }
    list.push(delivery);
  }
}
