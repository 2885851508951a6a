// The test event (docs/api.md "Testing, rolling and retrying"): `webhook.test`, sent on demand to one
// endpoint whatever kinds it subscribes to, so that a reseller can check a receiver before real
// events flow. It takes the path of every event: stored with its delivery in the journal, delivered
// once that commit is durable, signed in the worker pool like any delivery, retried on failure, and
// listed among the endpoint's deliveries.
import type { AccountActor } from '../engine/account-actor.js';
import { ok } from '../lib/outcome.js';
import { failed, type ApiOutcome as Outcome } from '../errors.js';
import type { Environment } from '../engine/records.js';
import { assert_delivery, assert_event, type DeliveryRecord, type EventRecord } from './records.js';
import type { Dispatcher } from './dispatcher.js';
import { api_error } from '../errors.js';
import { new_event_id } from '../lib/ids.js';
import { iso_us } from '../lib/time-format.js';

export const test_event_kind = 'webhook.test';

export function send_test_event(actor: AccountActor, dispatcher: Dispatcher, environment: Environment, endpoint_id: number): Outcome<DeliveryRecord> {
  const endpoint = dispatcher.endpoints.get(actor.id, endpoint_id);
  if (endpoint === undefined || endpoint.record.environment !== environment) return failed(api_error('webhooks.not_found'));
  const engine = actor.engine;
  const now_us = engine.clock.now_us();
  const now_ms = Math.floor(now_us / 1000);
  const id = new_event_id(engine.random);
  const data = { endpoint_id, environment, message: 'A test event sent from billvend on request. It changes nothing.' };
  const delivery_id = engine.next_id('webhook_delivery_id');
  const event: EventRecord = {
    id,
    kind: test_event_kind,
    account_id: actor.id,
    environment,
    created_us: now_us,
    body: JSON.stringify({ event: test_event_kind, id, created_at: iso_us(now_us), data }),
  };
  const delivery: DeliveryRecord = {
    id: delivery_id,
    endpoint_id,
    account_id: actor.id,
    environment,
    event_id: id,
    event_key: delivery_id,
    kind: test_event_kind,
    status: 'pending',
    series: 1,
    failures: 0,
    next_attempt_ms: now_ms,
    attempts: [],
    created_us: now_us,
    updated_us: now_us,
  };
  assert_event(event);
  assert_delivery(delivery);
  engine.run(actor, {
    kind: 'stage_records',
    records: [
      { db: engine.store.events, key: delivery_id, value: event },
      { db: engine.store.deliveries, key: [endpoint_id, delivery_id], value: delivery },
      { db: engine.store.delivery_queue, key: delivery_id, value: { endpoint_id, account_id: actor.id, due_ms: now_ms } },
    ],
  });
  dispatcher.start_when_durable([delivery], event, engine.journal.durable(), now_ms);
  return ok(delivery);
}
