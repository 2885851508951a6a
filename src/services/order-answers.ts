// An order's answers (docs/decisions.md "Transactions"): a provider's answer applied to the open order in
// one command (a failure refunded in it, its refund timed), and the requests waiting on it woken (a
// purchase waits up to 5 s). A layer of the order desk (order-desk.ts); the purchase's reply is built from
// the order by the front end (front/purchase.ts).
import type { AccountActor } from '../engine/account-actor.js';
import type { Environment } from '../engine/records.js';
import { is_final, type OrderRecord } from './order.js';
import type { ProviderResult } from './provider.js';
import { fail } from '../lib/assert.js';
import { RequeryPlanning } from './requery-planning.js';

/** How long a purchase request waits for the provider before answering 201 processing. */
export const purchase_wait_ms = 5_000;
/** A "no such request" from the provider is believed only this long after the order was created. */
export const not_found_grace_ms = 120_000;

/** Told, per refunded order, how long its refund took to be durable (operator/metrics.ts implements it, server/serve-store.ts wires it). */
export type RefundObserver = (environment: Environment, duration_ms: number) => void;

export abstract class OrderAnswers extends RequeryPlanning {
  /** docs/operations.md billvend_refund_duration_seconds; none by default (tools and engine tests). */
  refund_observer: RefundObserver | null = null;
  protected readonly waiters = new Map<string, Set<(order: OrderRecord) => void>>();

  /** Resolves with the order once it is final, or as it stands after 5 s (scaled). */
  protected wait_for_answer(actor: AccountActor, reference: string): Promise<OrderRecord> {
    const current = actor.open_orders.get(reference);
    if (current === undefined) {
      const stored = this.find(reference);
      if (stored === null) fail(`order ${reference} not found`);
      return Promise.resolve(stored);
    }
    return new Promise((resolve) => {
      let done = false;
      const finish = (order: OrderRecord) => {
        if (done) return;
        done = true;
        timer.cancel();
        this.waiters.get(reference)?.delete(finish);
        if (this.waiters.get(reference)?.size === 0) this.waiters.delete(reference);
        resolve(order);
      };
      const timer = this.deps.wheel.schedule(purchase_wait_ms, () => finish(actor.open_orders.get(reference) ?? this.find(reference)!));
      let set = this.waiters.get(reference);
      if (set === undefined) this.waiters.set(reference, (set = new Set()));
      set.add(finish);
    });
  }

  /** Applies an answer to an open order, wakes its waiters and plans its next re-query. */
  protected apply(held: AccountActor, reference: string, result: ProviderResult): OrderRecord | null {
    // A provider's answer can arrive after a failed commit replaced the account's actor: it goes to the
    // reloaded one, which holds the order only if its debit was saved (AccountActor.retired_by).
    const actor = held.retired ? this.engine.accounts.get(held.id) : held;
    if (actor === undefined || actor.retired) return null;
    const before = actor.open_orders.get(reference);
    if (before === undefined) return null;
    const now_ms = this.deps.clock.now_ms();
    const not_found_is_final = now_ms - before.created_us / 1000 >= this.deps.wheel.scaled(not_found_grace_ms);
    if (result.outcome === 'unknown') this.deps.log.warn({ reference, reason: result.reason }, 'provider answer unclear; the order stays processing');
    const order = this.engine.run(actor, { kind: 'provider_result', reference, result, not_found_is_final }, this.deps.clock.now_us());
    if (order === null) return null;
    this.answered(actor, before, order, now_ms);
    return order;
  }

  /**
   * What follows an answer applied to an order (apply, or a purchase answered in its own command: the
   * sandbox's): its refund timed from known_ms, the ported-number record, the waiters woken, the next
   * re-query planned.
   */
  protected answered(actor: AccountActor, before: OrderRecord, order: OrderRecord, known_ms: number): void {
    const reference = order.reference;
    if (order.reversed && !before.reversed) this.time_refund(actor, order, known_ms);
    if (is_final(order.status)) {
      // Outside the command: a platform-wide record, not the account's (docs/decisions.md "Ported numbers").
      this.numbers.delivered(order);
      this.requery_timers.get(reference)?.cancel();
      this.requery_timers.delete(reference);
      this.notify(order);
    } else if (!this.requery_timers.has(reference)) {
      this.plan_requery(actor, order);
    }
  }

  /**
   * Measures one refund: from when the failure was known here (the answer's arrival, or our decision) to the
   * commit holding the refund entry on disk. A commit that fails measures nothing: the refund was not made.
   */
  protected time_refund(actor: AccountActor, order: OrderRecord, known_ms: number): void {
    const observer = this.refund_observer;
    if (observer === null) return;
    const durable = actor.settled();
    const observe = () => observer(order.environment, this.deps.clock.now_ms() - known_ms);
    if (durable === null) observe();
    else durable.then(observe, () => {});
  }

  protected notify(order: OrderRecord): void {
    const set = this.waiters.get(order.reference);
    if (set === undefined) return;
    for (const wake of [...set]) wake(order);
  }

  protected on_provider_update(order: OrderRecord, result: ProviderResult): void {
    const actor = this.engine.accounts.get(order.account_id);
    if (actor === undefined || this.engine.degraded) return;
    this.apply(actor, order.reference, result);
  }
}
