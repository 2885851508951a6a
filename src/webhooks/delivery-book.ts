// The dispatcher's book of delivery records (ARCHITECTURE.md "The event path"): a delivery read from what
// is staged but not durable yet (staged-deliveries.ts), from the deliveries known since their commit, or
// from the store; a delivery's change staged straight in the journal, apart from the account, with its
// queue entry and dead letter; what an answer about an account's webhooks waits for; the dead index read
// again after a failed commit; and the lists of dead deliveries. The base of the dispatcher's layers
// (dispatcher.ts lists them). Not here: when attempts happen (delivery-scheduler.ts), what an attempt
// does (delivery-attempts.ts), the endpoints (endpoint-registry.ts).
import type { AccountActor } from '../engine/account-actor.js';
import type { Engine } from '../engine/engine.js';
import type { Environment } from '../engine/records.js';
import { assert_delivery, type DeliveryRecord, type EventRecord } from './records.js';
import type { EndpointRegistry } from './endpoint-registry.js';
import type { DispatcherContext } from './webhook-observer.js';
import { DeadIndex, dead_listed_max } from './dead-index.js';
import { StagedDeliveries } from './staged-deliveries.js';

export interface QueueEntry {
  endpoint_id: number;
  account_id: number;
  due_ms: number;
}

export abstract class DeliveryBook {
  /** Deliveries changed in a batch not durable yet: read before the store, which lags until the commit. */
  protected readonly staged = new StagedDeliveries((lost) => this.lost(lost));
  protected stopped = false;
  /** The dead deliveries of each account and environment, for the dashboard (dead-index.ts). */
  protected readonly dead_index = new DeadIndex();

  protected constructor(
    protected readonly deps: DispatcherContext,
    /** Every account's endpoints: the routes, the dashboard and the outbox reach them through here. */
    readonly endpoints: EndpointRegistry,
  ) {}

  protected get engine(): Engine {
    return this.deps.engine;
  }

  /**
   * New deliveries as their durable commit wrote them, with their event, until their first attempt
   * ends: an attempt then reads neither from the store (three reads and decodes per delivery). Any
   * change to a delivery (stage) drops its entry, so an entry is always what the store holds.
   */
  protected readonly known = new Map<number, { delivery: DeliveryRecord; event: EventRecord }>();

  protected read(endpoint_id: number, delivery_id: number): DeliveryRecord | undefined {
    const remembered = this.staged.get(delivery_id) ?? this.known.get(delivery_id)?.delivery;
    if (remembered !== undefined) return remembered;
    const stored = this.engine.store.deliveries.get([endpoint_id, delivery_id]) as DeliveryRecord | undefined;
    if (stored !== undefined) assert_delivery(stored);
    return stored;
  }

  /**
   * Stages a delivery's new record, its queue entry and its dead letter straight in the journal, as
   * no account's change (account 0): a failed commit then reloads no account for it, and lost() puts
   * the dispatcher's own state back instead.
   */
  protected stage(delivery: DeliveryRecord): void {
    assert_delivery(delivery);
    const store = this.engine.store;
    const journal = this.engine.journal;
    this.known.delete(delivery.id);
    journal.put(0, store.deliveries, [delivery.endpoint_id, delivery.id], delivery);
    if (delivery.status === 'pending') {
      journal.put(0, store.delivery_queue, delivery.id, { endpoint_id: delivery.endpoint_id, account_id: delivery.account_id, due_ms: delivery.next_attempt_ms } satisfies QueueEntry);
    } else {
      journal.remove(0, store.delivery_queue, delivery.id);
    }
    if (delivery.status === 'dead') {
      journal.put(0, store.dead_letters, delivery.id, { endpoint_id: delivery.endpoint_id, account_id: delivery.account_id });
      this.dead_index.add(delivery.account_id, delivery.environment, delivery.id, delivery.endpoint_id);
    }
    // After the puts: the batch they are in is the one whose durability the record waits for.
    this.staged.remember(delivery, journal.durable());
  }

  /**
   * What an answer about an account's webhooks waits for before it leaves (a replay, a retry, a page of
   * deliveries): the account's own changes and its deliveries' changes durable. Null: nothing to wait for.
   */
  settled(actor: AccountActor): Promise<void> | null {
    const own = actor.settled();
    const deliveries = this.staged.settled(actor.id);
    if (deliveries === null) return own;
    if (own === null) return deliveries;
    return Promise.all([own, deliveries]).then(() => {});
  }

  /**
   * A commit holding these deliveries' changes failed (its batch refused before it reached the disk):
   * staged-deliveries.ts has dropped them, so reads go to the store again, which holds what was
   * committed. A delivery that died or was replayed in the lost batch left the dead index wrong: the
   * accounts' lists are read again. Timers stay: an attempt reads the delivery before it starts and
   * skips one that is no longer pending, and the sweep brings back a pending one that has none.
   */
  private lost(deliveries: readonly DeliveryRecord[]): void {
    if (this.stopped) return;
    const accounts = new Set(deliveries.map((delivery) => delivery.account_id));
    this.deps.log.warn({ deliveries: deliveries.length, accounts: accounts.size }, 'webhook delivery changes lost with a failed commit; reading them from the store again');
    this.reindex_dead(accounts);
  }

  /**
   * Reads the dead lists of these accounts again: the store's dead letters (a full read, on the rare
   * paths of a failed commit only), then deliveries staged dead since, in batches not durable yet.
   */
  private reindex_dead(accounts: ReadonlySet<number>): void {
    for (const account_id of accounts) this.dead_index.forget_account(account_id);
    for (const { key, value } of this.engine.store.dead_letters.getRange({})) {
      const entry = value as { endpoint_id: number; account_id: number };
      if (!accounts.has(entry.account_id)) continue;
      const delivery = this.engine.store.deliveries.get([entry.endpoint_id, key as number]) as DeliveryRecord | undefined;
      if (delivery !== undefined) assert_delivery(delivery);
      if (delivery !== undefined) this.dead_index.add(entry.account_id, delivery.environment, delivery.id, entry.endpoint_id);
    }
    for (const delivery of this.staged.values()) {
      if (accounts.has(delivery.account_id) && delivery.status === 'dead') this.dead_index.add(delivery.account_id, delivery.environment, delivery.id, delivery.endpoint_id);
    }
  }

  /** Dead deliveries across accounts, newest first (operator API). */
  dead(limit = 1000): DeliveryRecord[] {
    const out: DeliveryRecord[] = [];
    for (const { key, value } of this.engine.store.dead_letters.getRange({ reverse: true, limit })) {
      const entry = value as { endpoint_id: number };
      const delivery = this.engine.store.deliveries.get([entry.endpoint_id, key as number]) as DeliveryRecord | undefined;
      if (delivery !== undefined) assert_delivery(delivery);
      if (delivery !== undefined && delivery.status === 'dead') out.push(delivery);
    }
    return out;
  }

  /** The newest dead deliveries of one account and environment (the dashboard), from the index. */
  dead_of(account_id: number, environment: Environment, limit = dead_listed_max): DeliveryRecord[] {
    const out: DeliveryRecord[] = [];
    const list = this.dead_index.of(account_id, environment);
    for (let i = list.length - 1; i >= 0 && out.length < limit; i--) {
      const delivery = this.read(list[i].endpoint_id, list[i].id);
      if (delivery !== undefined && delivery.status === 'dead' && delivery.account_id === account_id) out.push(delivery);
    }
    return out;
  }
}
