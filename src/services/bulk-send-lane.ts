// The bulk send lane (docs/api.md "Cancel before sending"), a layer of the order desk (order-desk.ts).
// A bulk order's live items are placed in one command, then sent through their account's lane, at most
// bulk_sends_in_flight_max awaiting their upstream's first answer at once: an upstream is not handed a
// hundred requests in one burst, and an item still waiting in the lane (pending: debited, not sent) can
// be cancelled and refunded at once. The lane lives in memory: after a restart a pending item may have
// been sent just before the crash, so it is re-queried like any order (OrderDesk.recover), never cancelled.
import type { AccountActor } from '../engine/account-actor.js';
import { ok, refused, type Outcome } from '../engine/refusal.js';
import { cancelled_reason } from '../engine/account-orders.js';
import type { OrderRecord } from './order.js';
import { fail } from '../lib/assert.js';
import { OrderSending } from './order-sending.js';

/** A bulk order's live items awaiting their upstream's first answer at once, per account (the send lane). */
export const bulk_sends_in_flight_max = 8;

export abstract class BulkSendLane extends OrderSending {
  /** Queued or in flight, per account: entries are open orders, so bounded by open_orders_max per account. */
  protected readonly send_lanes = new Map<number, { running: number; queue: { reference: string; resolve: (order: Promise<OrderRecord>) => void }[] }>();
  /** References waiting in a lane, not yet sent: the orders a cancel may take. */
  protected readonly queued = new Set<string>();

  protected send_queued(actor: AccountActor, reference: string): Promise<OrderRecord> {
    let lane = this.send_lanes.get(actor.id);
    if (lane === undefined) this.send_lanes.set(actor.id, (lane = { running: 0, queue: [] }));
    const queued_lane = lane;
    this.queued.add(reference);
    return new Promise<Promise<OrderRecord>>((resolve) => {
      queued_lane.queue.push({ reference, resolve });
      this.pump(actor.id);
    }).then((sent) => sent);
  }

  protected pump(account_id: number): void {
    const lane = this.send_lanes.get(account_id);
    if (lane === undefined) return;
    while (lane.running < bulk_sends_in_flight_max && lane.queue.length > 0) {
      const next = lane.queue.shift()!;
      this.queued.delete(next.reference);
      const actor = this.engine.accounts.get(account_id);
      const order = actor?.open_orders.get(next.reference);
      if (actor === undefined || actor.retired || order === undefined || order.status !== 'pending') {
        // Cancelled (or settled, or its account reloaded after a failed commit): nothing to send.
        next.resolve(Promise.resolve(order ?? this.find(next.reference) ?? fail(`queued order ${next.reference} vanished`)));
        continue;
      }
      lane.running++;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        lane.running--;
        this.pump(account_id);
      };
      next.resolve(this.send(actor, next.reference, release));
    }
    if (lane.running === 0 && lane.queue.length === 0) this.send_lanes.delete(account_id);
  }

  /**
   * Cancel before sending (docs/api.md "Cancel before sending"): a bulk item still waiting in its send lane
   * is failed and refunded at once (reason cancelled). An order already cancelled answers as it is; any
   * other (sent, settled, not a bulk item) is refused.
   */
  cancel(actor: AccountActor, reference: string): Outcome<OrderRecord> {
    const open = actor.open_orders.get(reference);
    if (open === undefined) {
      const settled = this.find(reference);
      if (settled === null) return refused({ refusal: 'order_not_open' });
      if (settled.status === 'failed' && settled.failure_reason === cancelled_reason) return ok(settled);
      return refused({ refusal: 'order_not_cancellable', status: settled.status });
    }
    if (!this.queued.has(reference)) return refused({ refusal: 'order_not_cancellable', status: open.status === 'pending' ? 'pending' : open.status });
    const now_ms = this.deps.clock.now_ms();
    const cancelled = this.engine.run(actor, { kind: 'cancel_order', reference }, this.deps.clock.now_us());
    if (!cancelled.ok) return cancelled;
    // It stays in its lane's queue until its turn, which then finds it failed and sends nothing.
    this.queued.delete(reference);
    this.time_refund(actor, cancelled.value, now_ms);
    return cancelled;
  }
}
