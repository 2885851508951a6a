// Event payloads (docs/spec.md section 6, docs/decisions.md "Webhooks"): transaction.completed as the spec;
// transaction.processing and transaction.failed with failure_reason and `at`; wallet events with the
// wallet transaction. Built once, when the event happens, and stored as the exact body sent.
import type { BatchSubject, EventKind, ProductStatusSubject } from '../engine/engine.js';
import type { WalletEntry } from '../engine/records.js';
import { charged_kobo, client_reference_of, commission_of, expected_final_at, foreign_view, metadata_of, type OrderRecord } from '../services/order.js';
import { kobo_to_naira } from '../lib/money.js';
import { iso_us } from '../lib/time-format.js';
import type { BatchRecord } from '../services/bulk/batch-records.js';
import { batch_view } from '../services/bulk/batch-desk.js';

/**
 * The order fields every transaction event carries, in their order. Built by assignment rather than by
 * spreading conditional objects: the same keys in the same order (so the same JSON), without the
 * temporary objects and the generic spread, which made event_data and its JSON.stringify about 7% of a
 * purchase's main-thread samples (docs/benchmarks.md "Where a purchase's CPU goes").
 */
function service_fields(order: OrderRecord): Record<string, unknown> {
  const fields: Record<string, unknown> = { reference: order.reference, service_type: order.service_type, network: order.network };
  if (order.disco !== null) fields.disco = order.disco;
  if (order.provider !== null) fields.provider = order.provider;
  fields.recipient = order.recipient;
  fields.amount = kobo_to_naira(order.amount_kobo);
  fields.amount_charged = kobo_to_naira(charged_kobo(order));
  fields.commission = kobo_to_naira(commission_of(order));
  fields.status = order.status;
  fields.client_reference = client_reference_of(order);
  fields.metadata = metadata_of(order);
  // Education and internet orders: how many PINs and whose profile or account. The PINs themselves are
  // never in a webhook (docs/decisions.md "Product families"): the reseller fetches the order with its key.
  if (order.quantity !== undefined) fields.quantity = order.quantity;
  if (order.customer_id !== undefined && order.customer_id !== null) fields.customer_id = order.customer_id;
  // TV orders whose request set it (docs/api.md "TV renewals and months"); quantity is above.
  if (order.subscription_type !== undefined) fields.subscription_type = order.subscription_type;
  // International orders: the foreign side their quote fixed (docs/api.md "International airtime and data").
  if (order.foreign !== undefined) fields.international = foreign_view(order.foreign);
  return fields;
}

export function event_data(kind: EventKind, subject: { entry?: WalletEntry; order?: OrderRecord; threshold_kobo?: number; status?: ProductStatusSubject; batch?: BatchSubject }, now_us: number): Record<string, unknown> {
  switch (kind) {
    // The batch as GET /v1/services/bulk/{id} shows it once every item is final.
    case 'batch.completed':
      return batch_view(subject.batch as BatchRecord);
    case 'service.status_changed': {
      const state = subject.status!;
      return { product: state.product, service_type: state.service_type, status: state.status, retry_after_s: state.retry_after_s, at: iso_us(now_us) };
    }
    case 'transaction.completed': {
      const order = subject.order!;
      const data = service_fields(order);
      if (order.service_type === 'electricity') {
        data.token = order.token;
        data.units = order.units;
        data.meter_type = order.meter_type;
      }
      if (order.plan !== null) data.plan = order.plan;
      data.delivered_at = iso_us(order.delivered_us ?? now_us);
      return data;
    }
    case 'transaction.processing': {
      const data = service_fields(subject.order!);
      data.expected_final_at = expected_final_at(subject.order!);
      data.at = iso_us(now_us);
      return data;
    }
    // The promise passed without an answer: the order is in the operator's review, decided within 24 hours
    // of its creation (its new expected_final_at).
    case 'transaction.delayed': {
      const data = service_fields(subject.order!);
      data.expected_final_at = expected_final_at(subject.order!);
      data.at = iso_us(now_us);
      return data;
    }
    case 'transaction.failed': {
      const data = service_fields(subject.order!);
      data.failure_reason = subject.order!.failure_reason;
      data.at = iso_us(now_us);
      return data;
    }
    // A delivered order the upstream reversed later: failed and refunded, with when it had been delivered.
    case 'transaction.reversed': {
      const order = subject.order!;
      const data = service_fields(order);
      data.failure_reason = order.failure_reason;
      data.delivered_at = order.delivered_us === null ? null : iso_us(order.delivered_us);
      data.at = iso_us(now_us);
      return data;
    }
    case 'wallet.credited':
    case 'wallet.debited':
    case 'wallet.reversed': {
      const entry = subject.entry!;
      return {
        wallet_transaction_id: entry.id,
        type: entry.type,
        amount: kobo_to_naira(entry.amount_kobo),
        balance_after: kobo_to_naira(entry.balance_after_kobo),
        reference: entry.reference,
        created_at: iso_us(entry.created_us),
        // A transfer between a parent and its agent names the other account (docs/api.md "Agents").
        ...(entry.counterparty_id === undefined ? {} : { counterparty_id: entry.counterparty_id }),
        // A dedicated-account transfer's credit says where it came from (docs/funding.md); absent otherwise.
        ...(entry.funding === undefined ? {} : {
          funding: {
            provider: entry.funding.provider,
            provider_reference: entry.funding.provider_reference,
            amount_paid: kobo_to_naira(entry.funding.amount_paid_kobo),
            fee: kobo_to_naira(entry.funding.fee_kobo),
            settlement_amount: kobo_to_naira(entry.funding.settlement_kobo),
          },
        }),
      };
    }
    case 'wallet.low_balance': {
      const entry = subject.entry!;
      return {
        balance: kobo_to_naira(entry.balance_after_kobo),
        threshold: kobo_to_naira(subject.threshold_kobo!),
        wallet_transaction_id: entry.id,
        reference: entry.reference,
        created_at: iso_us(entry.created_us),
      };
    }
  }
}
