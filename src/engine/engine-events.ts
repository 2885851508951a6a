// The events an account's commands emit (docs/api.md "Webhooks"): their kinds and what each is about. The
// engine hands them to its event sink (engine.ts); the commands (account-command.ts) and the actor name them.
import type { WalletEntry } from './records.js';
import type { OrderRecord } from './order-record.js';

export type EventKind =
  | 'transaction.completed'
  | 'transaction.failed'
  | 'transaction.processing'
  /** A processing order passed its promised time without an answer (docs/api.md "A promised time"). */
  | 'transaction.delayed'
  /** A delivered order its upstream reversed later, refunded (docs/upstreams.md "Callbacks and reversals"). */
  | 'transaction.reversed'
  | 'wallet.credited'
  | 'wallet.debited'
  | 'wallet.reversed'
  | 'wallet.low_balance'
  /** A product's availability changed (docs/api.md "Service status"); subscribed to explicitly. */
  | 'service.status_changed'
  /** Every item of a bulk order is final (docs/api.md "Bulk orders"). */
  | 'batch.completed';

/**
 * The subject of batch.completed: a bulk order's record (services/bulk/batch-records.ts), opaque here so that
 * the engine names no service type (test/layers.test.ts); the payload builder reads it as that record.
 */
export interface BatchSubject {
  readonly id: string;
  readonly account_id: number;
}

/** What a service.status_changed event is about: a product's availability (services/upstreams/router.ts). */
export interface ProductStatusSubject {
  product: string;
  service_type: string;
  status: 'available' | 'degraded' | 'unavailable';
  retry_after_s: number | null;
}

/** What an event is about: the entry, the order, the threshold, the product's status or the bulk order. */
export interface EventSubject {
  entry?: WalletEntry;
  order?: OrderRecord;
  threshold_kobo?: number;
  status?: ProductStatusSubject;
  batch?: BatchSubject;
}
