// When an open order is asked again (docs/decisions.md "Transactions"): re-queries on the timer wheel
// (30 s, 1 min, 2 min, then every 5 min), escalated once past its promised time (docs/api.md "A promised
// time"), handed to the operator's review after 24 h without an answer, and the reseller's requery-now,
// limited per order (docs/api.md "Requery now"). A layer of the order desk (order-desk.ts): it names the
// answer's application, which the next layer (order-answers.ts) defines.
import type { AccountActor } from '../engine/account-actor.js';
import { is_final, type OrderRecord } from './order.js';
import type { ProviderResult } from './provider.js';
import type { TimerHandle } from '../lib/timer-wheel.js';
import { OrderReferences } from './order-references.js';

/** Re-query delays after the order is sent: 30 s, 1 min, 2 min, then every 5 min. */
export const requery_delays_ms = [30_000, 60_000, 120_000, 300_000];
/** After this long without an answer an order needs an operator decision. */
export const review_after_ms = 24 * 60 * 60 * 1000;
/**
 * Requery now (docs/api.md "Requery now"): one per order per this many real milliseconds, read on the
 * clock unscaled (Clock.now_ms, not scaled by TIME_SCALE): the limit protects the upstream, whose
 * seconds are real ones.
 */
export const requery_now_interval_ms = 30_000;
/** Orders whose last requery-now is remembered at once: the limit map's bound. */
export const requery_now_orders_max = 100_000;

/** What a requery-now asks of the desk: the order as it stands after, or how long to wait first. */
export type RequeryNow = { order: Promise<OrderRecord> } | { retry_after_s: number };

export abstract class RequeryPlanning extends OrderReferences {
  protected readonly requery_timers = new Map<string, TimerHandle>();
  /**
   * When each order was last re-queried on request (clock ms), oldest first: an entry older than
   * requery_now_interval_ms is dead and dropped when the map is full (requery_now_orders_max).
   */
  protected readonly requery_now_at = new Map<string, number>();

  /** Applies an answer to an open order, wakes its waiters and plans its next re-query (order-answers.ts). */
  protected abstract apply(held: AccountActor, reference: string, result: ProviderResult): OrderRecord | null;

  /**
   * Schedules the next re-query, or hands the order to the operator after 24 h. An override is a
   * duration of the spec, or wall time when it is no such duration (the spread at start).
   */
  protected plan_requery(actor: AccountActor, held: OrderRecord, delay_override?: { spec_ms: number } | { wall_ms: number }): void {
    const now_ms = this.deps.clock.now_ms();
    const wheel = this.deps.wheel;
    let order = held;
    if (now_ms - order.created_us / 1000 >= wheel.scaled(review_after_ms)) {
      // An escalated order is in review already, and still re-queried until now: the re-queries stop.
      if (!order.needs_review || order.next_requery_ms !== 0) {
        this.engine.run(actor, { kind: 'schedule_requery', order, next_requery_ms: 0, needs_review: true });
        if (order.delayed_us === undefined) this.deps.log.warn({ reference: order.reference, account: actor.id }, 'order has had no answer for 24 hours; it needs an operator decision');
      }
      return;
    }
    // Past its promised time without an answer: escalated once (docs/api.md "A promised time"), and still
    // re-queried on the schedule until an answer or the 24 hours.
    if (order.delayed_us === undefined && order.expected_final_us !== undefined && now_ms * 1000 >= order.expected_final_us) {
      order = this.engine.run(actor, { kind: 'escalate_order', order, review_by_us: order.created_us + Math.round(wheel.scaled(review_after_ms) * 1000) }, this.deps.clock.now_us());
      this.deps.log.warn({ reference: order.reference, account: actor.id }, 'order passed its promised time without an answer; it needs an operator decision');
    }
    const delay_ms = delay_override === undefined ? requery_delays_ms[Math.min(order.requery_count, requery_delays_ms.length - 1)] : 0;
    const updated = delay_override === undefined ? this.engine.run(actor, { kind: 'schedule_requery', order, next_requery_ms: now_ms + wheel.scaled(delay_ms), needs_review: false }) : order;
    const reference = updated.reference;
    const run = () => {
      this.requery_timers.delete(reference);
      this.requery(reference, updated.account_id);
    };
    const timer = delay_override === undefined ? wheel.schedule(delay_ms, run)
      : 'wall_ms' in delay_override ? wheel.schedule_wall(delay_override.wall_ms, run)
      : wheel.schedule(delay_override.spec_ms, run);
    this.requery_timers.set(reference, timer);
  }

  protected requery(reference: string, account_id: number): void {
    const actor = this.engine.accounts.get(account_id);
    const order = actor?.open_orders.get(reference);
    if (actor === undefined || order === undefined) return;
    if (this.engine.degraded) {
      // The store refuses writes: try again later rather than lose the answer.
      this.plan_requery(actor, order, { spec_ms: requery_delays_ms[0] });
      return;
    }
    const provider = this.providers[order.environment];
    Promise.resolve(provider.requery(order)).then(
      (result) => this.after_requery(reference, account_id, result),
      (error) => this.after_requery(reference, account_id, { outcome: 'unknown', reason: (error as Error).message }),
    );
  }

  /**
   * Applies a re-query's answer to an open order and plans the next re-query while it stays open. Also the
   * way an upstream's callback settles an open order, after its own re-query (services/upstreams/upstream-callbacks.ts).
   */
  after_requery(reference: string, account_id: number, result: ProviderResult): void {
    const actor = this.engine.accounts.get(account_id);
    if (actor === undefined) return;
    const order = this.apply(actor, reference, result);
    if (order !== null && !is_final(order.status) && !this.requery_timers.has(reference)) this.plan_requery(actor, order);
  }

  /**
   * Requery now (docs/api.md "Requery now"): asks a processing order's holder at once, through the
   * same provider call and command as a scheduled re-query, and gives the order as it stands after.
   * A settled order is answered as it is: no upstream call and no limit; so is an order not yet sent
   * (pending: there is nothing to ask the upstream about yet). Otherwise once per order per
   * requery_now_interval_ms of real time.
   */
  requery_now(actor: AccountActor, reference: string): RequeryNow {
    const order = actor.open_orders.get(reference);
    if (order === undefined || order.status === 'pending') return { order: Promise.resolve(order ?? this.find(reference)!) };
    const now_ms = this.deps.clock.now_ms();
    const last_ms = this.requery_now_at.get(reference);
    if (last_ms !== undefined && now_ms - last_ms < requery_now_interval_ms) {
      return { retry_after_s: Math.max(1, Math.ceil((last_ms + requery_now_interval_ms - now_ms) / 1000)) };
    }
    this.requery_now_at.delete(reference);
    if (this.requery_now_at.size >= requery_now_orders_max) {
      // Oldest first: drop the entries whose 30 s have passed; if none has, every entry still limits its order.
      for (const [each, at_ms] of this.requery_now_at) {
        if (now_ms - at_ms < requery_now_interval_ms) break;
        this.requery_now_at.delete(each);
      }
      if (this.requery_now_at.size >= requery_now_orders_max) {
        const oldest_ms = this.requery_now_at.values().next().value as number;
        return { retry_after_s: Math.max(1, Math.ceil((oldest_ms + requery_now_interval_ms - now_ms) / 1000)) };
      }
    }
    this.requery_now_at.set(reference, now_ms);
    // The store refuses writes: an answer could not be kept; the order is shown as it stands.
    if (this.engine.degraded) return { order: Promise.resolve(order) };
    const provider = this.providers[order.environment];
    const account_id = actor.id;
    const asked = Promise.resolve()
      .then(() => provider.requery(order))
      .then(
        (result) => this.after_requery(reference, account_id, result),
        (error: unknown) => this.after_requery(reference, account_id, { outcome: 'unknown', reason: (error as Error).message }),
      )
      .then(() => this.engine.accounts.get(account_id)?.open_orders.get(reference) ?? this.find(reference) ?? order);
    return { order: asked };
  }

  /** Orders without an answer for 24 hours, across accounts (operator API). */
  needing_review(): OrderRecord[] {
    const out: OrderRecord[] = [];
    for (const actor of this.engine.accounts.values()) for (const order of actor.open_orders.values()) if (order.needs_review) out.push(order);
    return out;
  }
}
