// An account's open orders in memory (engine/account-actor.ts holds one per actor), counted across accounts.
import type { OrderRecord } from './order-record.js';

/** Where a change of the count goes while the account is in a command: applied once its changes are staged. */
export interface CountAfterwards {
  afterwards(change: () => void): void;
}

/**
 * An account's open orders, counted across accounts as they come and go, so that the
 * billvend_open_orders gauge reads a number rather than walking every account (docs/benchmarks.md
 * "Scale": walking a million accounts took 37-70 ms per scrape). The map changes inside a command; the
 * process-wide count changes after the command's changes are staged (CommandEffects.afterwards), as every
 * process-wide state does, and a command that throws half way leaves the count as it was. Outside a
 * command (the actor loading its orders) the count changes at once. A replaced actor's map stops counting:
 * it takes back what it added.
 */
export class OpenOrders extends Map<string, OrderRecord> {
  private counting = true;
  /** What this map has added to the count so far. */
  private counted = 0;

  constructor(private readonly counter: { open_orders: number }, private readonly command: () => CountAfterwards | null) {
    super();
  }

  override set(reference: string, order: OrderRecord): this {
    if (!this.has(reference)) this.count(1);
    return super.set(reference, order);
  }

  override delete(reference: string): boolean {
    const deleted = super.delete(reference);
    if (deleted) this.count(-1);
    return deleted;
  }

  override clear(): void {
    this.count(-this.size);
    super.clear();
  }

  /** Stops counting: the actor was replaced, and its successor counts the orders it reloads. */
  detach(): void {
    if (!this.counting) return;
    this.counter.open_orders -= this.counted;
    this.counted = 0;
    this.counting = false;
  }

  private count(delta: number): void {
    if (!this.counting || delta === 0) return;
    const command = this.command();
    if (command === null) this.add(delta);
    else command.afterwards(() => this.add(delta));
  }

  private add(delta: number): void {
    if (!this.counting) return;
    this.counter.open_orders += delta;
    this.counted += delta;
  }
}
