// The webhook endpoints of every account, held by the webhooks layer rather than by the account's actor,
// so that the engine names no webhook type (test/layers.test.ts) and an actor with endpoints may be let
// go like any other (engine/actor-cache.ts). The records are still the account's: they change through
// its commands (endpoints.ts stages them with stage_records), so reads wait for them and a failed
// commit reloads the account, after which the dispatcher has this registry read that account's
// endpoints again from the store (reload). Loaded at recovery (Dispatcher.recover).
import type { Engine } from '../engine/engine.js';
import { assert_endpoint, type EndpointRecord } from './records.js';

/**
 * An endpoint as the dispatcher uses it: its record, its secret in the clear (memory only) and where
 * its attempts go (the URL parsed once; null if it is not HTTPS, which registration never lets in).
 */
export interface EndpointState {
  record: EndpointRecord;
  secret: string;
  /** The secret a roll replaced, in the clear (memory only), while its grace period lasts; else null. */
  previous_secret: string | null;
  target: { origin: string; path: string } | null;
}

export function endpoint_state(record: EndpointRecord, secret: string, previous_secret: string | null): EndpointState {
  const url = new URL(record.url);
  return { record, secret, previous_secret, target: url.protocol === 'https:' ? { origin: url.origin, path: url.pathname + url.search } : null };
}

const none: ReadonlyMap<number, EndpointState> = new Map();

/**
 * Endpoints that are not deleted, by account and id. Bounded by the store: at most endpoints_max per
 * account and environment (endpoints.ts), and an account appears only while it has one.
 */
export class EndpointRegistry {
  private readonly accounts = new Map<number, Map<number, EndpointState>>();

  constructor(private readonly engine: Engine) {}

  /** The account's endpoints by id (empty when it has none). */
  of(account_id: number): ReadonlyMap<number, EndpointState> {
    return this.accounts.get(account_id) ?? none;
  }

  get(account_id: number, id: number): EndpointState | undefined {
    return this.accounts.get(account_id)?.get(id);
  }

  /** Accounts that have at least one endpoint (service.status_changed is told to them). */
  account_ids(): IterableIterator<number> {
    return this.accounts.keys();
  }

  set(endpoint: EndpointState): void {
    const account_id = endpoint.record.account_id;
    let endpoints = this.accounts.get(account_id);
    if (endpoints === undefined) this.accounts.set(account_id, (endpoints = new Map()));
    endpoints.set(endpoint.record.id, endpoint);
  }

  delete(account_id: number, id: number): void {
    const endpoints = this.accounts.get(account_id);
    if (endpoints === undefined) return;
    endpoints.delete(id);
    if (endpoints.size === 0) this.accounts.delete(account_id);
  }

  /** An endpoint record read from the store, checked; a deleted one is not held. */
  load(record: EndpointRecord): void {
    assert_endpoint(record);
    if (record.deleted_us !== null) return;
    const box = this.engine.secret_box;
    const previous = record.previous_secret_sealed ?? null;
    this.set(endpoint_state(record, box.open(record.secret_sealed), previous === null ? null : box.open(previous)));
  }

  /**
   * After a failed commit touched the account: its endpoints are read again from the store, which holds
   * exactly what was committed (the lost commit may have added, changed, disabled or deleted some).
   */
  reload(account_id: number): void {
    this.accounts.delete(account_id);
    for (const { value } of this.engine.store.webhook_endpoints.getRange({})) {
      const record = value as EndpointRecord;
      if (record.account_id === account_id) this.load(record);
    }
  }
}
