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
//
// The dispatcher is one object (one set of timers, one book of deliveries, shared by every concept), built as
// a chain of classes, one concept per file, each using the ones listed before it (the scheduler names the
// attempt it starts, which the next layer defines):
//   delivery-book.ts       delivery records: read, staged apart from the account, waited for, listed dead
//   delivery-scheduler.ts  timers, bounds per endpoint and overall, waiting lists, refill and sweep
//   delivery-attempts.ts   one attempt: signed, POSTed, recorded; a retry, dead, or the endpoint disabled
//   dispatcher.ts          (this file) the reseller's replay and retry-now, recovery and the engine's hooks
import type { AccountActor } from '../engine/account-actor.js';
import { ok } from '../lib/outcome.js';
import { failed, type ApiOutcome as Outcome } from '../errors.js';
import type { Engine, EngineExtension } from '../engine/engine.js';
import type { Environment } from '../engine/records.js';
import type { DeliveryRecord, EndpointRecord } from './records.js';
import { api_error } from '../errors.js';
import { fail } from '../lib/assert.js';
import { sweep_interval_ms } from './delivery-bounds.js';
import { DeliveryAttempts } from './delivery-attempts.js';

// The dashboard reads the bound of its dead list from here.
export { dead_listed_max } from './dead-index.js';

export class Dispatcher extends DeliveryAttempts implements EngineExtension {
  // ---- Replay, retry now ------------------------------------------------------------------------

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
