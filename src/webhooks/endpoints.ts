// Webhook endpoints of an account (docs/decisions.md "Webhooks"): registered per environment with the
// event kinds they want, each with its own secret shown once. These commands run in the account
// actor like its other commands: synchronous, staged in the journal.
import type { AccountActor, Outcome } from '../engine/account-actor.js';
import { failed, ok } from '../engine/account-actor.js';
import type { Environment } from '../engine/records.js';
import type { EventKind } from '../engine/engine.js';
import { assert_endpoint, type EndpointRecord } from './records.js';
import { api_error } from '../errors.js';
import { new_webhook_secret } from '../lib/ids.js';
import { iso_us } from '../lib/time-format.js';

/** Endpoints per account and environment. */
export const endpoints_max = 10;

/**
 * An endpoint as the dispatcher uses it: its record, its secret in the clear (memory only) and where
 * its attempts go (the URL parsed once; null if it is not HTTPS, which registration never lets in).
 */
export interface EndpointState {
  record: EndpointRecord;
  secret: string;
  target: { origin: string; path: string } | null;
}

function endpoint_state(record: EndpointRecord, secret: string): EndpointState {
  const url = new URL(record.url);
  return { record, secret, target: url.protocol === 'https:' ? { origin: url.origin, path: url.pathname + url.search } : null };
}

export function endpoint_view(record: EndpointRecord) {
  return {
    id: record.id,
    url: record.url,
    environment: record.environment,
    events: record.events,
    description: record.description,
    secret_hint: record.secret_hint,
    enabled: record.enabled,
    disabled_reason: record.disabled_reason,
    created_at: iso_us(record.created_us),
  };
}

export function load_endpoint(actor: AccountActor, record: EndpointRecord): void {
  assert_endpoint(record);
  if (record.deleted_us !== null) return;
  actor.webhooks.set(record.id, endpoint_state(record, actor.engine.secret_box.open(record.secret_sealed)));
}

export function endpoints_of(actor: AccountActor, environment: Environment): EndpointState[] {
  const out: EndpointState[] = [];
  for (const endpoint of actor.webhooks.values()) if (endpoint.record.environment === environment) out.push(endpoint);
  return out;
}

export function create_endpoint(actor: AccountActor, environment: Environment, url: string, events: EventKind[], description: string, now_us: number): Outcome<{ record: EndpointRecord; secret: string }> {
  if (endpoints_of(actor, environment).length >= endpoints_max) return failed(api_error('webhooks.limit_reached'));
  const secret = new_webhook_secret();
  const record: EndpointRecord = {
    id: actor.engine.next_id('webhook_endpoint_id'),
    account_id: actor.id,
    environment,
    url,
    events,
    description,
    secret_sealed: actor.engine.secret_box.seal(secret),
    secret_hint: `whsec_…${secret.slice(-4)}`,
    enabled: true,
    disabled_reason: null,
    created_us: now_us,
    updated_us: now_us,
    deleted_us: null,
  };
  actor.webhooks.set(record.id, endpoint_state(record, secret));
  stage_endpoint(actor, record);
  return ok({ record, secret });
}

export function delete_endpoint(actor: AccountActor, environment: Environment, id: number, now_us: number): Outcome<EndpointRecord> {
  const endpoint = actor.webhooks.get(id);
  if (endpoint === undefined || endpoint.record.environment !== environment) return failed(api_error('webhooks.not_found'));
  const record: EndpointRecord = { ...endpoint.record, deleted_us: now_us, updated_us: now_us, enabled: false };
  actor.webhooks.delete(id);
  stage_endpoint(actor, record);
  return ok(record);
}

/** A receiver answered 410 Gone: the endpoint stops receiving (docs/decisions.md). */
export function disable_endpoint(actor: AccountActor, id: number, reason: string, now_us: number): void {
  const endpoint = actor.webhooks.get(id);
  if (endpoint === undefined || !endpoint.record.enabled) return;
  endpoint.record = { ...endpoint.record, enabled: false, disabled_reason: reason, updated_us: now_us };
  stage_endpoint(actor, endpoint.record);
}

/** Every change to an endpoint is checked before it is staged (docs/style.md "Shape of the code"). */
function stage_endpoint(actor: AccountActor, record: EndpointRecord): void {
  assert_endpoint(record);
  actor.stage_put(actor.engine.store.webhook_endpoints, record.id, record);
}
