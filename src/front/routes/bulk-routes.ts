// Bulk orders (docs/api.md "Bulk orders"): POST /v1/services/bulk places up to 100 purchases under one
// PIN check and one idempotency key; GET /v1/services/bulk/{id} shows the batch and its items.
//
// A batch runs like a purchase: idempotency → items' own validation → PIN (once) → recipient
// verification of the items that need it → one synchronous command that applies the PIN verdict and
// places every valid item in index order (each its own debit and order, refused alone when the
// catalog, its verification, the daily limit, the balance or its client_reference says no), writes the
// batch and remembers the 202 under the key. That command is one commit: see
// src/services/bulk/batch-desk.ts for what a crash means.
import type { Static } from 'typebox';
import type { Deps } from '../deps.js';
import type { RequestContext, RouteDef } from '../route.js';
import { error_reply, success_reply, type Reply } from '../../lib/reply.js';
import { fingerprint, idempotency_key } from '../request-helpers.js';
import { api_error, error_catalogue, type ApiError } from '../../errors.js';
import { peek_idempotent, run_idempotent } from '../idempotent-run.js';
import { apply_pin_verdict, check_pin } from '../pin-check.js';
import { fail } from '../../lib/assert.js';
import { Journal } from '../../journal/journal.js';
import type { VerifyResult } from '../../services/provider.js';
import { BatchView, BulkBody, bulk_body_doc, bulk_items_max } from '../../schemas/bulk-schemas.js';
import { client_reference_pattern } from '../../schemas/service-schemas.js';
import { batch_view, item_status, type BatchDesk } from '../../services/bulk/batch-desk.js';
import type { BatchItemError, BatchItemRecord } from '../../services/bulk/batch-records.js';
import type { ItemPurchaser, PreparedItem } from '../../services/bulk/item-purchaser.js';

/**
 * The bulk route's body limit. 100 items of about 150 bytes (a purchase body with a client_reference)
 * are 15 KiB, at the front end's 16 KiB limit, and metadata adds up to 11 KiB an item; 256 KiB takes
 * 100 items with about 2.4 KiB of metadata each. A batch whose items carry more is split by the client.
 */
export const bulk_body_bytes_max = 256 * 1024;
/** Recipient verifications of one batch running at once (live meters and smartcards ask the upstream). */
export const bulk_verifications_running_max = 8;
/**
 * Journal changes one item may stage at most: its order and index keys, wallet entry and wallet, its
 * events (up to five) with their feed entries and a delivery per endpoint (10 per environment). The
 * batch's command asks the journal for room for all of them, so that its commit is never split.
 */
const item_changes_max = 150;

type BulkBodyValue = Static<typeof BulkBody>;

function item_error(error: ApiError): BatchItemError {
  const out: BatchItemError = { code: error.code, message: error.message ?? error_catalogue[error.code].message };
  if (error.details !== undefined) out.details = error.details;
  if (typeof error.extra?.reference === 'string') out.reference = error.extra.reference;
  return out;
}

/** The batch's fingerprint leaves out every pin, the batch's and any an item carried (refused, never kept). */
function bulk_fingerprint(ctx: RequestContext): string {
  const body = ctx.body as BulkBodyValue;
  const items = body.items.map((item) => {
    if (!('pin' in item)) return item;
    const { pin: _pin, ...rest } = item as Record<string, unknown>;
    return rest;
  });
  return fingerprint({ ...ctx, body: { items } } as RequestContext);
}

/** Runs the items' verifications, at most bulk_verifications_running_max at once. */
async function verify_all(prepared: (PreparedItem | ApiError)[]): Promise<(VerifyResult | null)[]> {
  const results: (VerifyResult | null)[] = prepared.map(() => null);
  const pending = prepared.flatMap((item, index) => ('code' in item || item.verify === null ? [] : [index]));
  let next = 0;
  const worker = async () => {
    while (next < pending.length) {
      const index = pending[next++];
      const item = prepared[index] as PreparedItem;
      try {
        results[index] = await item.verify!();
      } catch {
        results[index] = { outcome: 'unavailable' } as VerifyResult;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(bulk_verifications_running_max, pending.length) }, worker));
  return results;
}

export function bulk_routes(deps: Deps, batches: BatchDesk, purchaser: ItemPurchaser): RouteDef[] {
  async function place_batch(ctx: RequestContext): Promise<Reply> {
    const key = idempotency_key(ctx);
    if (key !== null && typeof key === 'object') return error_reply(ctx.request_id, key);
    const actor = ctx.actor!;
    const environment = ctx.environment;
    const authority = ctx.authority ?? fail('the bulk route ran without an authority');
    const body = ctx.body as BulkBodyValue;
    const request = { actor, environment, key, fingerprint: bulk_fingerprint(ctx), request_id: ctx.request_id, now_ms: deps.clock.now_ms() };
    // A replay, or a repeat of a batch in flight, costs neither a PIN check nor a verification.
    const earlier = peek_idempotent(request);
    if (earlier !== null) return earlier;
    const prepared = body.items.map((item, index) => purchaser.prepare(actor.id, environment, index, item as Record<string, unknown>));
    // Verification only behind a correct PIN: a wrong one must not make the batch ask the provider.
    const checking = check_pin(deps, actor, ctx.request_id, body.pin, (correct) => correct && prepared.some((item) => !('code' in item) && item.verify !== null)
      ? verify_all(prepared)
      : prepared.map(() => null));
    const checked = checking instanceof Promise ? await checking : checking;
    if ('status' in checked) return checked;
    const verifications = checked.behind;
    return run_idempotent({ ...request, now_ms: deps.clock.now_ms() }, () => {
      // The key revoked (or expired) while the PIN and the recipients were checked: the whole batch is
      // answered as a request arriving with it now, and nothing is placed or counted. Every item's
      // place_order checks it again; in this one synchronous command none can see another answer
      // (docs/api.md "Bulk orders"). A wrong PIN refuses the whole batch: nothing is placed.
      const refused = apply_pin_verdict(deps, actor, authority, ctx.request_id, checked);
      if (refused !== null) return refused;
      deps.engine.journal.ensure_room(Math.min(Journal.batch_changes_max, (prepared.length + 1) * item_changes_max));
      const items: BatchItemRecord[] = prepared.map((item, index) => {
        const given = body.items[index] as { service_type: string; client_reference?: unknown };
        const service_type = given.service_type;
        // Shown only when valid: an item refused for a bad one does not get it stored and echoed.
        const client_reference = typeof given.client_reference === 'string' && client_reference_pattern.test(given.client_reference) ? given.client_reference : null;
        if ('code' in item) return { index, service_type, reference: null, status: 'refused', client_reference, error: item_error(item) };
        const placed = purchaser.place(actor, environment, item, verifications[index], authority);
        if ('error' in placed) return { index, service_type, reference: null, status: 'refused', client_reference, error: item_error(placed.error) };
        return { index, service_type, reference: placed.reference, status: item_status(placed.status), client_reference, error: null };
      });
      const batch = batches.create(actor, environment, batches.new_id(), items, deps.clock.now_us());
      const view = batch_view(batch);
      return success_reply(ctx.request_id, 202, view, view.status === 'completed'
        ? 'Bulk order completed: every item is final.'
        : 'Bulk order accepted; items still processing follow on GET /v1/services/bulk/{id} and the batch.completed event.');
    }, undefined, !checked.awaited);
  }

  return [
    {
      method: 'post',
      path: '/v1/services/bulk',
      auth: 'api_key',
      scope: 'services:purchase',
      body: BulkBody,
      body_bytes_max: bulk_body_bytes_max,
      doc: {
        summary: `Place 1 to ${bulk_items_max} purchases under one PIN check: each item is an ordinary order`,
        description: 'Answers 202 with the batch: each item\'s order reference and status, or its own error (validation.failed, wallet.insufficient_funds, wallet.limit_exceeded, transaction.duplicate_reference, …) when it was refused alone. A wrong PIN refuses the whole batch. X-Idempotency-Key covers the whole batch. Body up to 256 KiB (docs/api.md "Bulk orders").',
        tags: ['Bulk orders'],
        response: BatchView,
        success_status: 202,
        request: bulk_body_doc(purchaser.item_schemas),
        errors: ['pin.incorrect', 'pin.locked', 'pin.not_set', 'idempotency.key_reused', 'rate_limit.exceeded'],
      },
      handler: place_batch,
    },
    {
      method: 'get',
      path: '/v1/services/bulk/:id',
      auth: 'api_key',
      scope: 'transactions:read',
      doc: { summary: 'A bulk order and its items with their current statuses', tags: ['Bulk orders'], response: BatchView, errors: ['batch.not_found'] },
      handler: (ctx) => {
        const actor = ctx.actor!;
        // Shown once what this account staged is durable (the front end's gate): a batch just answered 202 too.
        const batch = batches.find(actor.id, ctx.environment, ctx.params.id);
        if (batch === null) return error_reply(ctx.request_id, api_error('batch.not_found', `No bulk order ${ctx.params.id.slice(0, 64)} in this account and environment.`));
        return success_reply(ctx.request_id, 200, batch_view(batch));
      },
    },
  ];
}
