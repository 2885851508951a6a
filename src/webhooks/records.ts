// What the store holds for webhooks (docs/spec.md section 6, docs/decisions.md "Webhooks").
import type { Environment } from '../engine/records.js';
import type { EventKind } from '../engine/engine.js';
import { fail } from '../lib/assert.js';

export const event_kinds: readonly EventKind[] = [
  'transaction.completed',
  'transaction.failed',
  'transaction.processing',
  'transaction.delayed',
  'transaction.reversed',
  'wallet.credited',
  'wallet.debited',
  'wallet.reversed',
  'wallet.low_balance',
  'service.status_changed',
  'batch.completed',
];

/**
 * What an endpoint registered without `events` receives: every kind but service.status_changed, which is
 * about the platform rather than the account's own money and is asked for explicitly.
 */
export const default_event_kinds: readonly EventKind[] = event_kinds.filter((kind) => kind !== 'service.status_changed');

/**
 * What a delivery carries: an event kind endpoints subscribe to, or the test event the reseller sends
 * to one endpoint on demand (docs/api.md "Testing, rolling and retrying"); nobody subscribes to it.
 */
export type DeliveryKind = EventKind | 'webhook.test';

export interface EndpointRecord {
  id: number;
  account_id: number;
  environment: Environment;
  url: string;
  events: EventKind[];
  description: string;
  /** The signing secret, sealed under the master key; only memory holds it in the clear. */
  secret_sealed: string;
  secret_hint: string;
  /**
   * After a roll, the secret it replaced, sealed like the current one, and until when deliveries are
   * still signed with it too (docs/api.md "Rolling a secret"). Absent in endpoints never rolled.
   */
  previous_secret_sealed?: string | null;
  previous_secret_expires_us?: number | null;
  enabled: boolean;
  disabled_reason: string | null;
  /**
   * Whether the endpoint also receives the events of every agent below its account (docs/api.md "Agents'
   * events"). Absent in endpoints registered before it existed: false.
   */
  include_agents?: boolean;
  created_us: number;
  updated_us: number;
  deleted_us: number | null;
}

export interface EventRecord {
  id: string;
  kind: DeliveryKind;
  account_id: number;
  environment: Environment;
  created_us: number;
  /** The JSON body sent to receivers, built once when the event happens. */
  body: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'dead' | 'cancelled';

export interface AttemptRecord {
  series: number;
  number: number;
  at_us: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

export interface DeliveryRecord {
  id: number;
  endpoint_id: number;
  account_id: number;
  environment: Environment;
  event_id: string;
  /**
   * The event's key in the events store: the id of its first delivery. Delivery ids ascend, so events
   * are appended to the store's B-tree instead of landing on a random page as their random public ids
   * would (one dirty page per event per commit). Absent in deliveries written before: their event is
   * stored under its public id.
   */
  event_key?: number;
  kind: DeliveryKind;
  status: DeliveryStatus;
  /** A replay starts a new series of attempts. */
  series: number;
  /** Failed attempts in the current series; after the 6th (first try + 5 retries) the delivery is dead. */
  failures: number;
  /** Wall-clock ms of the next attempt (already scaled), or 0. */
  next_attempt_ms: number;
  attempts: AttemptRecord[];
  created_us: number;
  updated_us: number;
}

/** Endpoint invariants: an https URL, a sealed secret (never the secret itself), at least one event kind. */
export function assert_endpoint(endpoint: EndpointRecord): void {
  if (!Number.isSafeInteger(endpoint.id) || endpoint.id < 1) fail('endpoint id');
  if (!Number.isSafeInteger(endpoint.account_id) || endpoint.account_id < 1) fail(`endpoint ${endpoint.id} account id`);
  if (endpoint.secret_sealed.startsWith('whsec_')) fail(`endpoint ${endpoint.id} secret is stored in the clear`);
  const previous = endpoint.previous_secret_sealed ?? null;
  if (previous !== null && previous.startsWith('whsec_')) fail(`endpoint ${endpoint.id} previous secret is stored in the clear`);
  if ((previous === null) !== ((endpoint.previous_secret_expires_us ?? null) === null)) fail(`endpoint ${endpoint.id} previous secret without its expiry`);
  if (!Array.isArray(endpoint.events) || endpoint.events.length === 0) fail(`endpoint ${endpoint.id} events`);
  if (endpoint.deleted_us !== null && endpoint.enabled) fail(`endpoint ${endpoint.id} is deleted and enabled`);
  if (endpoint.include_agents !== undefined && typeof endpoint.include_agents !== 'boolean') fail(`endpoint ${endpoint.id} include_agents`);
}

/** Delivery invariants: its endpoint and account, a known status, failures within the retry schedule. */
export function assert_delivery(delivery: DeliveryRecord): void {
  if (!Number.isSafeInteger(delivery.id) || delivery.id < 1) fail('delivery id');
  if (!Number.isSafeInteger(delivery.endpoint_id) || delivery.endpoint_id < 1) fail(`delivery ${delivery.id} endpoint id`);
  if (!Number.isSafeInteger(delivery.account_id) || delivery.account_id < 1) fail(`delivery ${delivery.id} account id`);
  if (!['pending', 'delivered', 'dead', 'cancelled'].includes(delivery.status)) fail(`delivery ${delivery.id} status ${delivery.status}`);
  if (!Number.isInteger(delivery.failures) || delivery.failures < 0) fail(`delivery ${delivery.id} failures`);
  if (delivery.status === 'pending' && delivery.next_attempt_ms < 0) fail(`delivery ${delivery.id} has no next attempt`);
}

/** Whether a stored body is a JSON object as billvend writes it: built once, never trimmed or wrapped. */
function is_json_object_text(body: unknown): boolean {
  return typeof body === 'string' && body.startsWith('{') && body.endsWith('}');
}

/**
 * Event invariants: a public id, a kind endpoints can receive, its account and environment, and the JSON
 * body every delivery of it sends. Checked before it is staged and when a delivery reads it back.
 */
export function assert_event(event: EventRecord): void {
  if (typeof event.id !== 'string' || !event.id.startsWith('evt_')) fail(`event id ${String(event.id)}`);
  if (event.kind !== 'webhook.test' && !event_kinds.includes(event.kind)) fail(`event ${event.id} kind ${event.kind}`);
  if (!Number.isSafeInteger(event.account_id) || event.account_id < 1) fail(`event ${event.id} account id`);
  if (event.environment !== 'live' && event.environment !== 'test') fail(`event ${event.id} environment ${event.environment}`);
  if (!Number.isSafeInteger(event.created_us) || event.created_us < 0) fail(`event ${event.id} created_us`);
  if (!is_json_object_text(event.body)) fail(`event ${event.id} body is not a JSON object`);
}

/** An event of an account's feed (webhooks/event-feed.ts): the store's event_feed holds it under [account, environment, seq]. */
export interface FeedEvent {
  id: string;
  kind: EventKind;
  created_us: number;
  /** The JSON payload exactly as delivered to webhook endpoints. */
  body: string;
}

/** Feed event invariants: a public id, a kind of event, and the JSON body delivered to endpoints. */
export function assert_feed_event(event: FeedEvent): void {
  if (typeof event.id !== 'string' || !event.id.startsWith('evt_')) fail(`feed event id ${String(event.id)}`);
  if (!event_kinds.includes(event.kind)) fail(`feed event ${event.id} kind ${event.kind}`);
  if (!Number.isSafeInteger(event.created_us) || event.created_us < 0) fail(`feed event ${event.id} created_us`);
  if (!is_json_object_text(event.body)) fail(`feed event ${event.id} body is not a JSON object`);
}

