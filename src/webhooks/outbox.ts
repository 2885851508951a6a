// The outbox: an event is written to the journal in the same commit as the state change that caused
// it, with one delivery per subscribed endpoint, so an acknowledged purchase can never lose its event,
// even on kill -9. Deliveries start only once that commit is durable. Every event also goes to the
// events feed (event-feed.ts), subscribed or not, with the same id and body.
import type { AccountActor } from '../engine/account-actor.js';
import type { Engine, EventKind, EventSink, StageEventRecords } from '../engine/engine.js';
import type { RecordChange } from '../engine/account-command.js';
import type { Environment } from '../engine/records.js';
import { assert_delivery, assert_event, type DeliveryRecord, type EventRecord } from './records.js';
import { endpoints_of, type EndpointState } from './endpoints.js';
import type { OrderRecord } from '../engine/order-record.js';
import { event_data } from './payloads.js';
import type { EventFeed } from './event-feed.js';
import { iso_us } from '../lib/time-format.js';
import { parent_of } from '../engine/agent-tree.js';
import type { Dispatcher } from './dispatcher.js';

export class Outbox implements EventSink {
  constructor(private readonly engine: Engine, private readonly dispatcher: Dispatcher, private readonly feed: EventFeed) {}

  /** now_us comes from the engine (Engine.emit), and the event id from the feed's random source: the outbox reads neither clock nor randomness itself. */
  emit(actor: AccountActor, environment: Environment, kind: EventKind, subject: Parameters<EventSink['emit']>[3], now_us: number, stage: StageEventRecords): void {
    let body = '';
    // An agent's events name it (docs/api.md "Agents' events"): an endpoint above it may receive them. The
    // envelope of an account at the top stays the spec's four fields.
    const agent = actor.account.parent_id !== undefined;
    const id = this.feed.append(actor, environment, kind, now_us, stage, (event_id) => {
      body = agent
        ? JSON.stringify({ event: kind, id: event_id, created_at: iso_us(now_us), account: actor.id, data: event_data(kind, subject, now_us) })
        : JSON.stringify({ event: kind, id: event_id, created_at: iso_us(now_us), data: event_data(kind, subject, now_us) });
      return body;
    });
    const registry = this.dispatcher.endpoints;
    // The hot path of an account at the top: one map read, no walk up a tree.
    if (!agent) {
      if (registry.of(actor.id).size === 0) return;
      this.deliver(actor, environment, kind, id, body, this.subscribed(actor, environment, kind), now_us, stage);
      return;
    }
    this.deliver(actor, environment, kind, id, body, this.subscribed(actor, environment, kind), now_us, stage);
  }

  /**
   * The enabled endpoints of the environment that subscribe to the kind: the account's own and, for an
   * agent, those of the accounts above it registered with include_agents (at most two, agent_depth_max).
   */
  subscribed(actor: AccountActor, environment: Environment, kind: EventKind): EndpointState[] {
    const registry = this.dispatcher.endpoints;
    const out = registry.of(actor.id).size === 0 ? [] : endpoints_of(registry, actor, environment).filter((e) => e.record.enabled && e.record.events.includes(kind));
    for (let above = parent_of(actor.engine, actor.account); above !== null; above = parent_of(actor.engine, above)) {
      for (const endpoint of registry.of(above.id).values()) {
        const record = endpoint.record;
        if (record.include_agents === true && record.enabled && record.environment === environment && record.events.includes(kind)) out.push(endpoint);
      }
    }
    return out;
  }

  /**
   * A settled order's final event sent again (docs/api.md "Receipts and re-delivery"): a new event with a new
   * id and `resent: true`, whose data is the payload the order's final event carried (built from the order as
   * it settled, at the time it settled), in the feed and to every subscribed endpoint, staged in one group.
   * Null, and nothing staged, when no endpoint subscribes to it.
   */
  resend(actor: AccountActor, order: OrderRecord, now_us: number): { id: string; kind: EventKind; endpoints: number } | null {
    const kind = final_event_kind(order);
    const settled_us = (order.status === 'delivered' ? order.delivered_us : order.failed_us) ?? order.updated_us;
    const endpoints = this.subscribed(actor, order.environment, kind);
    if (endpoints.length === 0) return null;
    const engine = this.engine;
    const stage: StageEventRecords = (records) => engine.stage_event_records(actor, records);
    let body = '';
    engine.journal.begin_group();
    try {
      const id = this.feed.append(actor, order.environment, kind, now_us, stage, (event_id) => {
        body = actor.account.parent_id !== undefined
        ? JSON.stringify({ event: kind, id: event_id, created_at: iso_us(now_us), account: actor.id, resent: true, data: event_data(kind, { order }, settled_us) })
          : JSON.stringify({ event: kind, id: event_id, created_at: iso_us(now_us), resent: true, data: event_data(kind, { order }, settled_us) });
        return body;
      });
      this.deliver(actor, order.environment, kind, id, body, endpoints, now_us, stage);
      return { id, kind, endpoints: endpoints.length };
    } finally {
      engine.journal.end_group();
    }
  }

  private deliver(actor: AccountActor, environment: Environment, kind: EventKind, id: string, body: string, endpoints: EndpointState[], now_us: number, stage: StageEventRecords): void {
    if (endpoints.length === 0) return;
    const engine = actor.engine;
    const event: EventRecord = { id, kind, account_id: actor.id, environment, created_us: now_us, body };
    const now_ms = Math.floor(now_us / 1000);
    const first_id = engine.next_ids('webhook_delivery_id', endpoints.length);
    assert_event(event);
    // Staged beside the account's change, in the group of the command that emitted the event: the event,
    // then each delivery and its queue entry.
    const records: RecordChange[] = [{ db: engine.store.events, key: first_id, value: event }];
    const created: DeliveryRecord[] = [];
    for (let i = 0; i < endpoints.length; i++) {
      const endpoint = endpoints[i];
      // The endpoint's account: an agent's event delivered to an endpoint above it is that account's delivery
      // (listed, retried and replayed by it); the event record names the agent.
      const owner_id = endpoint.record.account_id;
      const delivery: DeliveryRecord = {
        id: first_id + i,
        endpoint_id: endpoint.record.id,
        account_id: owner_id,
        environment,
        event_id: id,
        event_key: first_id,
        kind,
        status: 'pending',
        series: 1,
        failures: 0,
        next_attempt_ms: now_ms,
        attempts: [],
        created_us: now_us,
        updated_us: now_us,
      };
      assert_delivery(delivery);
      records.push(
        { db: engine.store.deliveries, key: [delivery.endpoint_id, delivery.id], value: delivery },
        { db: engine.store.delivery_queue, key: delivery.id, value: { endpoint_id: delivery.endpoint_id, account_id: owner_id, due_ms: now_ms } },
      );
      created.push(delivery);
    }
    stage(records);
    // Never deliver what could still be lost: the deliveries start once the commit holding the event
    // is durable, and until then the dispatcher's sweep must not pick them up from the store either.
    this.dispatcher.start_when_durable(created, event, engine.journal.durable(), now_ms);
  }
}

/** A settled order's final event: a delivered order its upstream reversed later ended with transaction.reversed. */
export function final_event_kind(order: OrderRecord): EventKind {
  if (order.status === 'delivered') return 'transaction.completed';
  return order.delivered_us !== null && order.delivered_us !== undefined ? 'transaction.reversed' : 'transaction.failed';
}
