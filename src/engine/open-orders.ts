// An account's open orders in memory (engine/account-actor.ts holds one per actor), counted across accounts.
import type { OrderRecord } from './order-record.js';

/**
 * An account's open orders, counted across accounts as they come and go, so that the
 * billvend_open_orders gauge reads a number rather than walking every account (docs/benchmarks.md
 * "Scale": walking a million accounts took 37-70 ms per scrape). A replaced actor's map stops counting.
 */
export class OpenOrders extends Map<string, OrderRecord> {
  counting = true;

  constructor(private readonly counter: { open_orders: number }) {
    super();
  }

  override set(reference: string, order: OrderRecord): this {
    if (this.counting && !this.has(reference)) this.counter.open_orders++;
    return super.set(reference, order);
  }

  override delete(reference: string): boolean {
    const deleted = super.delete(reference);
    if (deleted && this.counting) this.counter.open_orders--;
    return deleted;
  }

  override clear(): void {
    if (this.counting) this.counter.open_orders -= this.size;
    super.clear();
  }

  /** Stops counting: the actor was replaced, and its successor counts the orders it reloads. */
  detach(): void {
    if (this.counting) this.counter.open_orders -= this.size;
    this.counting = false;
  }
}
