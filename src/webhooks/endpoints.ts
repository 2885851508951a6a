// Webhook endpoints of an account (docs/decisions.md "Webhooks"): registered per environment with the
// event kinds they want, each with its own secret shown once. These commands run in the account
// actor like its other commands: synchronous, staged in the journal as the account's records. What
// memory holds of them is in the webhooks layer's EndpointRegistry (endpoint-registry.ts), changed
// only once the record is staged: a command through an actor a failed commit retired throws before
// staging and leaves the registry as the store has it.
import type { AccountActor } from '../engine/account-actor.js';
import { ok } from '../lib/outcome.js';
import { failed, type ApiOutcome as Outcome } from '../errors.js';
import type { Environment } from '../engine/records.js';
import type { EventKind } from '../engine/engine.js';
import { assert_endpoint, type EndpointRecord } from './records.js';
import { endpoint_state, type EndpointRegistry, type EndpointState } from './endpoint-registry.js';
import { api_error } from '../errors.js';
import { new_webhook_secret } from '../lib/ids.js';
import { iso_us } from '../lib/time-format.js';

/** Endpoints per account and environment. */
export const endpoints_max = 10;

/**
 * After a roll, deliveries are signed with the old secret too for this long (scaled by TIME_SCALE like
 * every delay), so that receivers can switch to the new one without a gap (docs/api.md "Rolling a
 * secret").
 */
export const secret_grace_ms = 24 * 60 * 60 * 1000;

export type { EndpointState } from './endpoint-registry.js';

/** The replaced secret while its grace period lasts at now_us, else null: deliveries are signed with it too. */
export function previous_secret_of(endpoint: EndpointState, now_us: number): string | null {
  const expires_us = endpoint.record.previous_secret_expires_us ?? null;
  return endpoint.previous_secret !== null && expires_us !== null && now_us < expires_us ? endpoint.previous_secret : null;
}

export function endpoint_view(record: EndpointRecord, now_us: number) {
  const expires_us = record.previous_secret_expires_us ?? null;
  return {
    id: record.id,
    url: record.url,
    environment: record.environment,
    events: record.events,
    description: record.description,
    secret_hint: record.secret_hint,
    previous_secret_expires_at: expires_us !== null && now_us < expires_us ? iso_us(expires_us) : null,
    enabled: record.enabled,
    disabled_reason: record.disabled_reason,
    include_agents: record.include_agents === true,
    created_at: iso_us(record.created_us),
  };
}

export function endpoints_of(endpoints: EndpointRegistry, actor: AccountActor, environment: Environment): EndpointState[] {
  const out: EndpointState[] = [];
  for (const endpoint of endpoints.of(actor.id).values()) if (endpoint.record.environment === environment) out.push(endpoint);
  return out;
}

export function create_endpoint(endpoints: EndpointRegistry, actor: AccountActor, environment: Environment, url: string, events: EventKind[], description: string, now_us: number, include_agents = false): Outcome<{ record: EndpointRecord; secret: string }> {
  if (endpoints_of(endpoints, actor, environment).length >= endpoints_max) return failed(api_error('webhooks.limit_reached'));
  const secret = new_webhook_secret(actor.engine.random);
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
    ...(include_agents ? { include_agents: true } : {}),
    created_us: now_us,
    updated_us: now_us,
    deleted_us: null,
  };
  stage_endpoint(actor, record);
  endpoints.set(endpoint_state(record, secret, null));
  return ok({ record, secret });
}

function endpoint_in(endpoints: EndpointRegistry, actor: AccountActor, environment: Environment, id: number): EndpointState | null {
  const endpoint = endpoints.get(actor.id, id);
  return endpoint === undefined || endpoint.record.environment !== environment ? null : endpoint;
}

/** Changes the event kinds an endpoint receives and/or its description; the rest stays. */
export function update_endpoint(endpoints: EndpointRegistry, actor: AccountActor, environment: Environment, id: number, change: { events?: EventKind[]; description?: string; include_agents?: boolean }, now_us: number): Outcome<EndpointRecord> {
  const endpoint = endpoint_in(endpoints, actor, environment, id);
  if (endpoint === null) return failed(api_error('webhooks.not_found'));
  // A previous secret whose grace period is over is dropped with the change, sealed copy included.
  const expired = endpoint.previous_secret !== null && previous_secret_of(endpoint, now_us) === null;
  const record: EndpointRecord = {
    ...endpoint.record,
    ...(change.events !== undefined ? { events: change.events } : {}),
    ...(change.description !== undefined ? { description: change.description } : {}),
    ...(change.include_agents !== undefined ? { include_agents: change.include_agents } : {}),
    ...(expired ? { previous_secret_sealed: null, previous_secret_expires_us: null } : {}),
    updated_us: now_us,
  };
  stage_endpoint(actor, record);
  endpoint.record = record;
  if (expired) endpoint.previous_secret = null;
  return ok(record);
}

/**
 * Gives an endpoint a new secret, shown once; the old one keeps signing deliveries (as well) until
 * grace_us from now. A roll during a grace period replaces the current secret only: the previous one,
 * which the receiver most likely still holds (the answer of the first roll may have been lost), stays
 * until its own grace ends (docs/api.md "Rolling a secret").
 */
export function roll_secret(endpoints: EndpointRegistry, actor: AccountActor, environment: Environment, id: number, now_us: number, grace_us: number): Outcome<{ record: EndpointRecord; secret: string }> {
  const endpoint = endpoint_in(endpoints, actor, environment, id);
  if (endpoint === null) return failed(api_error('webhooks.not_found'));
  const secret = new_webhook_secret(actor.engine.random);
  const kept = previous_secret_of(endpoint, now_us);
  const previous_secret = kept ?? endpoint.secret;
  const record: EndpointRecord = {
    ...endpoint.record,
    secret_sealed: actor.engine.secret_box.seal(secret),
    secret_hint: `whsec_…${secret.slice(-4)}`,
    previous_secret_sealed: kept !== null ? endpoint.record.previous_secret_sealed! : endpoint.record.secret_sealed,
    previous_secret_expires_us: kept !== null ? endpoint.record.previous_secret_expires_us! : now_us + grace_us,
    updated_us: now_us,
  };
  stage_endpoint(actor, record);
  endpoint.record = record;
  endpoint.secret = secret;
  endpoint.previous_secret = previous_secret;
  return ok({ record, secret });
}

export function delete_endpoint(endpoints: EndpointRegistry, actor: AccountActor, environment: Environment, id: number, now_us: number): Outcome<EndpointRecord> {
  const endpoint = endpoint_in(endpoints, actor, environment, id);
  if (endpoint === null) return failed(api_error('webhooks.not_found'));
  const record: EndpointRecord = { ...endpoint.record, deleted_us: now_us, updated_us: now_us, enabled: false };
  stage_endpoint(actor, record);
  endpoints.delete(actor.id, id);
  return ok(record);
}

/** A receiver answered 410 Gone: the endpoint stops receiving (docs/decisions.md). */
export function disable_endpoint(endpoints: EndpointRegistry, actor: AccountActor, id: number, reason: string, now_us: number): void {
  const endpoint = endpoints.get(actor.id, id);
  if (endpoint === undefined || !endpoint.record.enabled) return;
  const record: EndpointRecord = { ...endpoint.record, enabled: false, disabled_reason: reason, updated_us: now_us };
  stage_endpoint(actor, record);
  endpoint.record = record;
}

/** Every change to an endpoint is checked before it is staged (docs/style.md "Shape of the code"). */
function stage_endpoint(actor: AccountActor, record: EndpointRecord): void {
  assert_endpoint(record);
  actor.engine.run(actor, { kind: 'stage_records', records: [{ db: actor.engine.store.webhook_endpoints, key: record.id, value: record }] });
}
