// Webhook delivery (docs/spec.md section 6, docs/decisions.md "Webhooks"): never on the request path. Each pending
// delivery is an entry of the delivery queue in the store and a timer on the wheel. An attempt signs
// the stored body in the worker pool, POSTs it over keep-alive HTTPS (undici: half the CPU of
// node:https per request) with a 10 s timeout, and records the attempt. 2xx: delivered. 410: the
// endpoint is disabled. Anything else: retried 30 s, 5 min, 30 min, 2 h and 8 h after the previous
// failure (scaled by TIME_SCALE), then dead, until a replay starts a new series. Concurrency is
// bounded per endpoint and overall. Pending deliveries survive restarts: recovery re-schedules the
// queue, so every event is delivered at least once.
//
// Delivery state (the delivery records, the queue, the dead letters and the dead index) is kept apart
// from the account: the dispatcher stages it straight in the journal, not through the account's actor,
// so an attempt's bookkeeping never makes a read of the account wait for a commit (regression:
// test/webhook-reads-apart.test.ts). What the dispatcher has staged but is not durable yet is in
// staged-deliveries.ts; a failed commit drops it there and the dead index is read again from the store
// (lost()), as the engine reloads the accounts it touched. The endpoint records (disabled after a 410)
// are account state and go through the actor; what memory holds of them is the EndpointRegistry
// (endpoint-registry.ts) this dispatcher loads at recovery and reloads after a failed commit. Beside this file: delivery-bounds.ts (the bounds and
// the retry schedule), delivery-transport.ts (the POST), staged-deliveries.ts (changes not durable yet),
// dead-index.ts (each account's dead list) and webhook-observer.ts (what the dispatcher reports).
import type { AccountActor } from '../engine/account-actor.js';
import { ok } from '../lib/outcome.js';
import { failed, type ApiOutcome as Outcome } from '../errors.js';
import type { Engine, EngineExtension } from '../engine/engine.js';
import type { Environment } from '../engine/records.js';
import type { TimerHandle } from '../lib/timer-wheel.js';
import { assert_delivery, assert_event, type AttemptRecord, type DeliveryRecord, type EndpointRecord, type EventRecord } from './records.js';
import type { SignerPool } from './signer-pool.js';
import { disable_endpoint, previous_secret_of, type EndpointState } from './endpoints.js';
import type { EndpointRegistry } from './endpoint-registry.js';
import { api_error } from '../errors.js';
import { fail } from '../lib/assert.js';
import type { DispatcherContext } from './webhook-observer.js';
import {
  attempt_error_length_max, attempts_in_flight_max, endpoint_concurrency_max, endpoint_waiting_max, known_deliveries_max, refill_batch_max,
  retry_delays_ms, sweep_interval_ms,
} from './delivery-bounds.js';
import { DeadIndex, dead_listed_max } from './dead-index.js';
import { StagedDeliveries } from './staged-deliveries.js';
import { DeliveryTransport, type AttemptResult } from './delivery-transport.js';

// The dashboard reads the bound of its dead list from here.
export { dead_listed_max } from './dead-index.js';

interface QueueEntry {
  endpoint_id: number;
  account_id: number;
  due_ms: number;
}

export class Dispatcher implements EngineExtension {
  private readonly timers = new Map<number, TimerHandle>();
  private readonly in_flight = new Set<number>();
  /** Retries decided during an attempt, planned when it ends; at most one per attempt in flight. */
  private readonly retry_after_attempt = new Map<number, number>();
  private readonly endpoint_in_flight = new Map<number, number>();
  private readonly waiting = new Map<number, { delivery_id: number; account_id: number }[]>();
  private readonly waiting_ids = new Set<number>();
  private total_in_flight = 0;
  /** Deliveries changed in a batch not durable yet: read before the store, which lags until the commit. */
  private readonly staged = new StagedDeliveries((lost) => this.lost(lost));
  private readonly transport: DeliveryTransport;
  private stopped = false;
  /** The dead deliveries of each account and environment, for the dashboard (dead-index.ts). */
  private readonly dead_index = new DeadIndex();

  constructor(
    private readonly deps: DispatcherContext,
    /** Every account's endpoints: the routes, the dashboard and the outbox reach them through here. */
    readonly endpoints: EndpointRegistry,
    private readonly signer: SignerPool,
    options: { allow_private: boolean; timeout_ms: number },
  ) {
    this.transport = new DeliveryTransport(options);
  }

  private get engine(): Engine {
    return this.deps.engine;
  }

  /**
   * New deliveries as their durable commit wrote them, with their event, until their first attempt
   * ends: an attempt then reads neither from the store (three reads and decodes per delivery). Any
   * change to a delivery (stage) drops its entry, so an entry is always what the store holds.
   */
  private readonly known = new Map<number, { delivery: DeliveryRecord; event: EventRecord }>();

  private read(endpoint_id: number, delivery_id: number): DeliveryRecord | undefined {
    const remembered = this.staged.get(delivery_id) ?? this.known.get(delivery_id)?.delivery;
    if (remembered !== undefined) return remembered;
    const stored = this.engine.store.deliveries.get([endpoint_id, delivery_id]) as DeliveryRecord | undefined;
    if (stored !== undefined) assert_delivery(stored);
    return stored;
  }

  // ---- Scheduling -------------------------------------------------------------------------------

  /**
   * New deliveries whose commit is not durable yet. LMDB shows a committed transaction to readers
   * before it is flushed, so the sweep reads them from the queue; delivering one then could announce
   * an event that a crash before the flush takes back (regression: test/crash/ campaign, an event
   * received for a credit that the restart did not keep).
   */
  private readonly awaiting_commit = new Set<number>();

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

  // ---- Attempts ---------------------------------------------------------------------------------

  private async attempt(endpoint_id: number, delivery_id: number, account_id: number): Promise<void> {
    const store = this.engine.store;
    const actor = this.engine.accounts.get(account_id);
    // A fenced engine's store may hold deliveries of batches the cluster never took: nothing leaves.
    if (this.stopped) return;
    const delivery = this.read(endpoint_id, delivery_id);
    if (actor === undefined || delivery === undefined || delivery.status !== 'pending') return;
    const endpoint = this.endpoints.get(account_id, endpoint_id);
    if (endpoint === undefined || !endpoint.record.enabled) {
      this.settle({ ...delivery, status: 'cancelled', next_attempt_ms: 0, updated_us: this.deps.clock.now_us() });
      return;
    }
    const event = this.known.get(delivery_id)?.event ?? (store.events.get(delivery.event_key ?? delivery.event_id) as EventRecord | undefined);
    if (event === undefined) fail(`delivery ${delivery_id} has no event ${delivery.event_id}`);
    assert_event(event);
    const started = performance.now();
    const at_us = this.deps.clock.now_us();
    let result: AttemptResult;
    try {
      // During a rolled secret's grace period the delivery is signed with the old secret as well.
      const previous_secret = previous_secret_of(endpoint, at_us);
      const signatures = await this.signer.sign({
        secret: endpoint.secret,
        ...(previous_secret !== null ? { previous_secret } : {}),
        event_id: event.id,
        timestamp_s: Math.floor(at_us / 1_000_000),
        body: event.body,
      });
      // Signing took a turn of the event loop: the engine may have been fenced meanwhile.
      if (this.stopped) return;
      result = await this.transport.post(endpoint, event, signatures, Math.floor(at_us / 1_000_000));
    } catch (error) {
      result = { status_code: null, error: `signing: ${(error as Error).message}`.slice(0, attempt_error_length_max), duration_ms: performance.now() - started };
    }
    if (this.stopped) return;
    // A failed commit during the attempt may have replaced the account's actor (Engine.reload_actor):
    // the attempt is recorded through the current one.
    const current = actor.retired ? this.engine.accounts.get(account_id) : actor;
    if (current === undefined) return;
    if (current !== actor) this.deps.log.info({ delivery_id, account: account_id }, 'webhook attempt recorded through the reloaded account');
    this.record(current, this.endpoints.get(account_id, endpoint_id) ?? endpoint, delivery_id, result, at_us);
  }

  /** Records an attempt and decides what follows it. */
  private record(actor: AccountActor, endpoint: EndpointState, delivery_id: number, result: AttemptResult, at_us: number): void {
    const current = this.read(endpoint.record.id, delivery_id);
    if (current === undefined || current.status !== 'pending') return;
    const now_ms = this.deps.clock.now_ms();
    const now_us = this.deps.clock.now_us();
    const attempt: AttemptRecord = {
      series: current.series,
      number: current.attempts.filter((a) => a.series === current.series).length + 1,
      at_us,
      status_code: result.status_code,
      duration_ms: result.duration_ms,
      error: result.error,
    };
    const attempts = [...current.attempts, attempt];
    const code = result.status_code;
    if (code !== null && code >= 200 && code < 300) {
      this.deps.metrics.webhook_attempt('delivered', now_ms - current.created_us / 1000);
      this.settle({ ...current, attempts, status: 'delivered', next_attempt_ms: 0, updated_us: now_us });
      return;
    }
    if (code === 410) {
      this.deps.metrics.webhook_attempt('gone', null);
      disable_endpoint(this.endpoints, actor, endpoint.record.id, 'The receiver answered 410 Gone.', now_us);
      this.settle({ ...current, attempts, status: 'cancelled', next_attempt_ms: 0, updated_us: now_us });
      this.deps.log.warn({ endpoint_id: endpoint.record.id, account: actor.id }, 'webhook endpoint answered 410; disabled');
      return;
    }
    const failures = current.failures + 1;
    this.deps.metrics.webhook_attempt('failed', null);
    if (failures > retry_delays_ms.length) {
      this.deps.metrics.webhook_dead_delivery();
      this.settle({ ...current, attempts, failures, status: 'dead', next_attempt_ms: 0, updated_us: now_us });
      return;
    }
    const due_ms = now_ms + this.deps.wheel.scaled(retry_delays_ms[failures - 1]);
    const next: DeliveryRecord = { ...current, attempts, failures, next_attempt_ms: due_ms, updated_us: now_us };
    this.stage(next);
    // The attempt is still in flight here, and schedule() ignores a delivery in flight: the retry is
    // planned when the attempt ends (start()). Planned from here, it waited for the next sweep, 40-59 s
    // after the failure instead of 30 (test/webhook-retry-timing).
    this.retry_after_attempt.set(next.id, due_ms);
  }

  /**
   * Stages a delivery's new record, its queue entry and its dead letter straight in the journal, as
   * no account's change (account 0): a failed commit then reloads no account for it, and lost() puts
   * the dispatcher's own state back instead.
   */
  private stage(delivery: DeliveryRecord): void {
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

  private settle(delivery: DeliveryRecord): void {
    this.timers.get(delivery.id)?.cancel();
    this.timers.delete(delivery.id);
    this.stage(delivery);
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

  // ---- Replay, listing --------------------------------------------------------------------------

  /** A replay starts a new attempt series now, for a delivery that is not pending. */
  replay(actor: AccountActor, environment: Environment, endpoint_id: number, delivery_id: number): Outcome<DeliveryRecord> {
    const endpoint = this.endpoints.get(actor.id, endpoint_id);
    if (endpoint === undefined || endpoint.record.environment !== environment) return failed(api_error('webhooks.not_found'));
    const delivery = this.read(endpoint_id, delivery_id);
    if (delivery === undefined || delivery.account_id !== actor.id) return failed(api_error('webhooks.delivery_not_found'));
    if (delivery.status === 'pending' || this.in_flight.has(delivery_id)) return ok(delivery);
    const now_ms = this.deps.clock.now_ms();
    const next: DeliveryRecord = { ...delivery, status: 'pending', series: delivery.series + 1, failures: 0, next_attempt_ms: now_ms, updated_us: this.deps.clock.now_us() };
    this.engine.journal.remove(0, this.engine.store.dead_letters, delivery_id);
    this.stage(next);
    this.dead_index.remove(actor.id, delivery.environment, delivery_id);
    this.engine.journal.durable().then(() => this.schedule(endpoint_id, delivery_id, actor.id, now_ms), () => {});
    return ok(next);
  }

  /**
   * Retry now (docs/api.md "Testing, rolling and retrying"): a delivery waiting for its next retry is
   * attempted at once, in the same series (if it fails again, the schedule continues from there); a
   * dead one starts a new series, as a replay does. A delivery already due, in flight or delivered is
   * answered as it is, so repeating the request sends nothing more; a cancelled one (its endpoint was
   * disabled) is refused.
   */
  retry_now(actor: AccountActor, environment: Environment, endpoint_id: number, delivery_id: number): Outcome<DeliveryRecord> {
    const endpoint = this.endpoints.get(actor.id, endpoint_id);
    if (endpoint === undefined || endpoint.record.environment !== environment) return failed(api_error('webhooks.not_found'));
    const delivery = this.read(endpoint_id, delivery_id);
    if (delivery === undefined || delivery.account_id !== actor.id) return failed(api_error('webhooks.delivery_not_found'));
    if (delivery.status === 'dead') return this.replay(actor, environment, endpoint_id, delivery_id);
    if (delivery.status === 'delivered') return ok(delivery);
    if (delivery.status !== 'pending') return failed(api_error('webhooks.delivery_not_retryable'));
    const now_ms = this.deps.clock.now_ms();
    if (this.in_flight.has(delivery_id) || delivery.next_attempt_ms <= now_ms || this.awaiting_commit.has(delivery_id)) return ok(delivery);
    const next: DeliveryRecord = { ...delivery, next_attempt_ms: now_ms, updated_us: this.deps.clock.now_us() };
    this.stage(next);
    this.engine.journal.durable().then(() => this.schedule(endpoint_id, delivery_id, actor.id, now_ms), () => {});
    return ok(next);
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

  // ---- Recovery ---------------------------------------------------------------------------------

  recover(engine: Engine): void {
    const environments = new Map<number, Environment>();
    for (const { value } of engine.store.webhook_endpoints.getRange({})) {
      const record = value as EndpointRecord;
      // The account is built from the store, its records checked, so that an endpoint of a missing or
      // unsound account stops the start before traffic.
      const actor = engine.accounts.get(record.account_id);
      if (actor === undefined) fail(`webhook endpoint ${record.id} of missing account ${record.account_id}`);
      this.endpoints.load(record);
      environments.set(record.id, record.environment);
    }
    this.dead_index.clear();
    let dead = 0;
    for (const { key, value } of engine.store.dead_letters.getRange({})) {
      const entry = value as { endpoint_id: number; account_id: number };
      const environment = environments.get(entry.endpoint_id);
      if (environment === undefined) fail(`dead delivery ${String(key)} of missing endpoint ${entry.endpoint_id}`);
      this.dead_index.add(entry.account_id, environment, key as number, entry.endpoint_id);
      dead++;
    }
    if (dead > 0) engine.log.info({ dead }, 'dead webhook deliveries indexed');
    const pending = this.sweep();
    if (pending > 0) engine.log.info({ pending }, 'webhook deliveries resumed');
    this.deps.wheel.every(sweep_interval_ms, () => this.sweep());
  }

  /** Schedules every pending delivery of the store that is not already in memory. */
  private sweep(): number {
    return this.bring_back(-1, Number.POSITIVE_INFINITY).brought;
  }

  reloaded(actor: AccountActor): void {
    // The lost commit may have deleted or disabled endpoints, or added some: the account's endpoints
    // are read again from the store. Its deliveries' changes in that commit are put back by lost().
    this.endpoints.reload(actor.id);
  }

  /** The account was created in a lost commit: any endpoint it registered there is gone with it. */
  vanished(account_id: number): void {
    this.endpoints.reload(account_id);
  }

  /** The engine was fenced (Engine.fence): no delivery leaves from now on, not even one queued. */
  fenced(): void {
    this.stop();
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
    this.known.clear();
    this.transport.destroy();
  }
}
