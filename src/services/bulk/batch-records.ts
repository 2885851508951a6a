// What the store holds for bulk orders (docs/api.md "Bulk orders"). A batch record lists its items in
// the order they were given: each one names the order it placed, or the error that refused it. The
// record is written in the command that places the items (one commit with every debit), and again in
// the command that makes its last item final (completed_us set, with the batch.completed event).
import type { Environment } from '../../engine/records.js';
import { fail } from '../../lib/assert.js';

/** An item as the batch shows it: its order's status, or refused when nothing was placed. */
export type BatchItemStatus = 'processing' | 'delivered' | 'failed' | 'refused';

export interface BatchItemError {
  code: string;
  message: string;
  details?: { field: string; message: string }[];
  reference?: string;
}

export interface BatchItemRecord {
  index: number;
  service_type: string;
  /** The order this item placed; null when it was refused. */
  reference: string | null;
  /** As of the last write of the record; the batch desk keeps it current in memory while the batch is open. */
  status: BatchItemStatus;
  client_reference: string | null;
  error: BatchItemError | null;
}

export interface BatchRecord {
  id: string;
  account_id: number;
  environment: Environment;
  created_us: number;
  /** When the last item became final; null while the batch is processing. */
  completed_us: number | null;
  items: BatchItemRecord[];
}

export const batch_id_pattern = /^bat_[0-9A-Za-z]{24}$/;

/** Checked before every write and after every read (docs/style.md). */
export function assert_batch(batch: BatchRecord): void {
  if (!batch_id_pattern.test(batch.id)) fail(`batch id ${batch.id}`);
  if (!Number.isSafeInteger(batch.account_id) || batch.account_id < 1) fail(`batch ${batch.id} account`);
  if (batch.environment !== 'live' && batch.environment !== 'test') fail(`batch ${batch.id} environment`);
  if (!Array.isArray(batch.items) || batch.items.length === 0) fail(`batch ${batch.id} has no items`);
  const references = new Set<string>();
  batch.items.forEach((item, index) => {
    if (item.index !== index) fail(`batch ${batch.id} item ${index} holds index ${item.index}`);
    if ((item.reference === null) !== (item.status === 'refused')) fail(`batch ${batch.id} item ${index}: reference ${item.reference} with status ${item.status}`);
    if ((item.error === null) === (item.status === 'refused')) fail(`batch ${batch.id} item ${index}: error and status ${item.status} disagree`);
    if (item.reference !== null) {
      // An item is one order and an order belongs to one item: nothing is placed twice.
      if (references.has(item.reference)) fail(`batch ${batch.id} names order ${item.reference} twice`);
      references.add(item.reference);
    }
  });
  if (batch.completed_us !== null) {
    if (batch.completed_us < batch.created_us) fail(`batch ${batch.id} completed before it was created`);
    if (batch.items.some((item) => item.status === 'processing')) fail(`batch ${batch.id} completed with an item processing`);
  }
}
