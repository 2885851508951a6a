// One webhook attempt and what follows it (docs/decisions.md "Webhooks"): the stored body signed in the
// worker pool (with the previous secret too during a roll's grace), POSTed (delivery-transport.ts), and
// the attempt recorded through the account's current actor: 2xx delivered, 410 the endpoint disabled,
// anything else a retry on the schedule (delivery-bounds.ts) or, past its end, dead. Not here: when
// attempts start (delivery-scheduler.ts), how a record is staged (delivery-book.ts).
import type { AccountActor } from '../engine/account-actor.js';
import { assert_event, type AttemptRecord, type DeliveryRecord, type EventRecord } from './records.js';
import type { SignerPool } from './signer-pool.js';
import { disable_endpoint, previous_secret_of, type EndpointState } from './endpoints.js';
import type { EndpointRegistry } from './endpoint-registry.js';
import { fail } from '../lib/assert.js';
import type { DispatcherContext } from './webhook-observer.js';
import { attempt_error_length_max, retry_delays_ms } from './delivery-bounds.js';
import { DeliveryTransport, type AttemptResult } from './delivery-transport.js';
import { DeliveryScheduler } from './delivery-scheduler.js';

export abstract class DeliveryAttempts extends DeliveryScheduler {
  protected readonly transport: DeliveryTransport;

  constructor(
    deps: DispatcherContext,
    endpoints: EndpointRegistry,
    private readonly signer: SignerPool,
    options: { allow_private: boolean; timeout_ms: number },
  ) {
    super(deps, endpoints);
    this.transport = new DeliveryTransport(options);
  }

  protected async attempt(endpoint_id: number, delivery_id: number, account_id: number): Promise<void> {
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

  private settle(delivery: DeliveryRecord): void {
    this.timers.get(delivery.id)?.cancel();
    this.timers.delete(delivery.id);
    this.stage(delivery);
  }
}
