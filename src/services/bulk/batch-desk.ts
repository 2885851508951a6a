// The batch desk keeps bulk orders (docs/api.md "Bulk orders"): it writes a batch with the command that
// places its items, follows its items to their final status, and completes the batch, with its
// batch.completed event, in the command that makes the last item final. So the event is emitted exactly
// once: it is durable with the last item's outcome, or lost with it (and then emitted again when the
// reloaded order is re-queried to its outcome once more).
//
// Crash semantics: every item of a batch is placed in one synchronous command, in one group commit with
// the batch record and the idempotency record of the request (the journal is asked for room first, so
// the commit is not split). After kill -9 the batch is either wholly there (every placed item's debit
// and order, the batch naming them) or not at all (no debit, no order, no key: a retry places it).
// There is no cursor to resume: an open batch only waits for its orders, which the order desk
// re-queries after a restart like any other.
import type { AccountActor } from '../../engine/account-actor.js';
import type { Engine, EngineExtension, EventSink } from '../../engine/engine.js';
import type { Environment } from '../../engine/records.js';
import type { OrderRecord, OrderStatus } from '../order.js';
import { random_base62 } from '../../lib/ids.js';
import { iso_us } from '../../lib/time-format.js';
import { fail } from '../../lib/assert.js';
import type { PlacedOrderCapture } from './item-purchaser.js';
import { assert_batch, batch_id_pattern, type BatchItemRecord, type BatchItemStatus, type BatchRecord } from './batch-records.js';

/** How an order's status shows in a batch: an order not yet handed over counts as processing. */
export function item_status(status: OrderStatus): BatchItemStatus {
  return status === 'pending' ? 'processing' : status;
}

interface OpenBatch {
  record: BatchRecord;
  /** References of the items not final yet. */
  open: Set<string>;
}

function batch_key(account_id: number, environment: Environment, id: string): string {
  return `${account_id}/${environment}/${id}`;
}

export class BatchDesk implements EngineExtension {
  /**
   * Open batches by batch_key. Bounded by the open orders (open_orders_max per account): a batch is
   * here only while one of its orders is open, and is removed in the command that closes its last one.
   */
  private readonly open_batches = new Map<string, OpenBatch>();
  /** The open batch of each open order that belongs to one. */
  private readonly batch_of_order = new Map<string, string>();

  constructor(private readonly engine: Engine, private readonly status_of: (reference: string) => OrderStatus | null) {}

  /** Set while an item is being placed: the order its command debits for. */
  private capturing: { reference: string | null } | null = null;

  /**
   * Runs one item's placing command and gives the reference of the order it placed: every placement
   * emits wallet.debited with its order in the command that debits (engine/account-orders.ts), so the
   * reference is known inside the batch's command, before the order's answer.
   */
  readonly capture_placed: PlacedOrderCapture = (place) => {
    if (this.capturing !== null) fail('an item placed while another one is being placed');
    const capturing: { reference: string | null } = { reference: null };
    this.capturing = capturing;
    try {
      const placed = place();
      return { placed, reference: capturing.reference };
    } finally {
      this.capturing = null;
    }
  };

  /** A new batch id: bat_ and 24 base62 characters, random (the batch's key also names its account). */
  new_id(): string {
    return 'bat_' + random_base62(this.engine.random, 24);
  }

  /**
   * Writes a batch whose items were just placed, in the same command. A batch whose items are all
   * final already (the sandbox answers in the placing command) completes at once.
   */
  create(actor: AccountActor, environment: Environment, id: string, items: BatchItemRecord[], now_us: number): BatchRecord {
    const record: BatchRecord = { id, account_id: actor.id, environment, created_us: now_us, completed_us: null, items };
    const open = new Set<string>();
    for (const item of items) if (item.reference !== null && item.status === 'processing') open.add(item.reference);
    if (open.size === 0) {
      this.complete(actor, record, now_us);
      return record;
    }
    assert_batch(record);
    this.engine.run(actor, {
      kind: 'stage_records',
      records: [{ db: this.engine.store.batches, key: [actor.id, environment, id], value: record }, { db: this.engine.store.open_batches, key: [actor.id, environment, id], value: true }],
    });
    this.track(record, open);
    return record;
  }

  private track(record: BatchRecord, open: Set<string>): void {
    const key = batch_key(record.account_id, record.environment, record.id);
    this.open_batches.set(key, { record, open });
    for (const reference of open) this.batch_of_order.set(reference, key);
  }

  private complete(actor: AccountActor, record: BatchRecord, now_us: number): void {
    record.completed_us = now_us;
    assert_batch(record);
    const store = this.engine.store;
    this.engine.run(actor, {
      kind: 'stage_records',
      records: [{ db: store.batches, key: [actor.id, record.environment, record.id], value: record }, { db: store.open_batches, key: [actor.id, record.environment, record.id], value: undefined }],
    });
    this.engine.emit(actor, record.environment, 'batch.completed', { batch: record });
  }

  /** An order became final (its event is being emitted in the command that made it so). */
  private order_final(actor: AccountActor, order: OrderRecord): void {
    const key = this.batch_of_order.get(order.reference);
    if (key === undefined) return;
    const batch = this.open_batches.get(key);
    if (batch === undefined) fail(`order ${order.reference} names batch ${key}, which is not open`);
    if (batch.record.account_id !== actor.id) fail(`order ${order.reference} of account ${actor.id} is in a batch of account ${batch.record.account_id}`);
    this.batch_of_order.delete(order.reference);
    batch.open.delete(order.reference);
    const item = batch.record.items.find((each) => each.reference === order.reference);
    if (item === undefined) fail(`batch ${batch.record.id} does not name order ${order.reference}`);
    item.status = item_status(order.status);
    if (batch.open.size > 0) return;
    this.open_batches.delete(key);
    this.complete(actor, batch.record, this.engine.clock.now_us());
  }

  /**
   * The event sink in front of the outbox: it passes every event on, then follows the final ones of
   * orders in a batch. The batch's event comes after its last item's own event, in the same commit.
   */
  sink(next: EventSink): EventSink {
    return {
      emit: (actor, environment, kind, subject, now_us, stage) => {
        next.emit(actor, environment, kind, subject, now_us, stage);
        if (kind === 'wallet.debited' && this.capturing !== null && subject.order !== undefined) {
          if (this.capturing.reference !== null) fail(`one item placed orders ${this.capturing.reference} and ${subject.order.reference}`);
          this.capturing.reference = subject.order.reference;
        }
        if ((kind === 'transaction.completed' || kind === 'transaction.failed') && subject.order !== undefined) this.order_final(actor, subject.order);
      },
    };
  }

  /** The batch as it stands, or null when this account and environment have none of this id. */
  find(account_id: number, environment: Environment, id: string): BatchRecord | null {
    if (!batch_id_pattern.test(id)) return null;
    const open = this.open_batches.get(batch_key(account_id, environment, id));
    if (open !== undefined) return open.record;
    const stored = this.engine.store.batches.get([account_id, environment, id]) as BatchRecord | undefined;
    if (stored === undefined) return null;
    assert_batch(stored);
    return stored;
  }

  // ---- Recovery ---------------------------------------------------------------------------------

  /** After a restart: every open batch is followed again; its items' statuses are read from their orders. */
  recover(engine: Engine): void {
    let count = 0;
    for (const { key } of engine.store.open_batches.getRange({})) {
      if (!Array.isArray(key)) continue;
      this.resume(key as [number, Environment, string]);
      count++;
    }
    if (count > 0) engine.log.info({ open_batches: count }, 'open bulk orders resumed');
  }

  /** After a failed commit reloaded an account: its open batches are what the store holds. */
  reloaded(actor: AccountActor): void {
    for (const [key, batch] of [...this.open_batches]) {
      if (batch.record.account_id !== actor.id) continue;
      this.open_batches.delete(key);
      for (const reference of batch.open) this.batch_of_order.delete(reference);
    }
    for (const key of this.engine.store.open_batches.getKeys({ start: [actor.id], end: [actor.id + 1] })) {
      this.resume(key as [number, Environment, string]);
    }
  }

  private resume([account_id, environment, id]: [number, Environment, string]): void {
    const record = this.engine.store.batches.get([account_id, environment, id]) as BatchRecord | undefined;
    if (record === undefined) fail(`open batch ${id} of account ${account_id} has no record`);
    assert_batch(record);
    if (record.completed_us !== null) fail(`batch ${id} is completed and still open`);
    const open = new Set<string>();
    for (const item of record.items) {
      if (item.reference === null) continue;
      const status = this.status_of(item.reference);
      if (status === null) fail(`batch ${id} names order ${item.reference}, which does not exist`);
      item.status = item_status(status);
      if (item.status === 'processing') open.add(item.reference);
    }
    // Every order's final answer is committed with its batch's completion, so an open batch holds an
    // open order; if not, the store is not what this code wrote.
    if (open.size === 0) fail(`open batch ${id} of account ${account_id} has no open order`);
    this.track(record, open);
  }
}

/** The view of GET /v1/services/bulk/{id}, the 202 answer and the batch.completed event. */
export function batch_view(record: BatchRecord) {
  const counts = { processing: 0, delivered: 0, failed: 0, refused: 0 };
  for (const item of record.items) counts[item.status]++;
  return {
    id: record.id,
    status: record.completed_us === null ? 'processing' as const : 'completed' as const,
    items_count: record.items.length,
    counts,
    items: record.items.map((item) => ({
      index: item.index,
      service_type: item.service_type,
      reference: item.reference,
      status: item.status,
      client_reference: item.client_reference,
      error: item.error,
    })),
    created_at: iso_us(record.created_us),
    completed_at: record.completed_us === null ? null : iso_us(record.completed_us),
  };
}
