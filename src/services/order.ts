// A service order (docs/decisions.md "Transactions"): how it is shown (lists, full and operator views,
// deliverables). Life cycle: pending (debited, not yet sent) → processing (sent to the provider) →
// delivered | failed; a failed order is refunded once (reversed = true) with a reversal wallet entry.
import { kobo_to_naira } from '../lib/money.js';
import { iso_us } from '../lib/time-format.js';
import { charged_kobo, commission_of, is_final, type DeliveredPin, type ForeignOrder, type OrderRecord, type OrderStatus, type UpstreamAttempt } from '../engine/order-record.js';
import { format_minor } from './foreign-quotes.js';

// The record, its assertion and its life-cycle facts live in engine/order-record.ts (the actor changes
// orders); the services' modules keep importing them from here.
export {
  assert_order, charged_kobo, commission_of, is_final, service_type_names, service_types_sentence, service_types_text,
  type DeliveredPin, type OrderRecord, type OrderStatus, type ServiceType, type UpstreamAttempt,
} from '../engine/order-record.js';

/** The deliverables of an order, opened; null when it has none (yet). */
export function pins_of(order: OrderRecord, secrets: { open(sealed: string): string }): DeliveredPin[] | null {
  if (order.pins_sealed === undefined || order.pins_sealed === null) return null;
  return JSON.parse(secrets.open(order.pins_sealed)) as DeliveredPin[];
}

export function client_reference_of(order: OrderRecord): string | null {
  return order.client_reference ?? null;
}

export function metadata_of(order: OrderRecord): Record<string, string> | null {
  return order.metadata ?? null;
}

/**
 * The last fields of a purchase's answer, the same in every family's but airtime's (no delivered_at) and
 * TV's (customer_name among them): the money, the times, the reseller's own reference and notes.
 */
export function purchase_tail_view(order: OrderRecord) {
  return {
    amount: kobo_to_naira(order.amount_kobo),
    amount_charged: kobo_to_naira(charged_kobo(order)),
    commission: kobo_to_naira(commission_of(order)),
    wallet_balance_after: kobo_to_naira(order.wallet_balance_after_kobo),
    delivered_at: order.delivered_us === null ? null : iso_us(order.delivered_us),
    client_reference: client_reference_of(order),
    metadata: metadata_of(order),
  };
}

/** subscription_type and quantity of a TV order, only where its request set them; {} otherwise. */
export function tv_terms_of(order: OrderRecord): { subscription_type?: 'change' | 'renew'; quantity?: number } {
  if (order.subscription_type === undefined && order.quantity === undefined) return {};
  return {
    ...(order.subscription_type !== undefined ? { subscription_type: order.subscription_type } : {}),
    ...(order.quantity !== undefined ? { quantity: order.quantity } : {}),
  };
}

/** subscription_type alone, where set: the full view and webhooks show quantity for every family already. */
export function subscription_type_of(order: OrderRecord): { subscription_type?: 'change' | 'renew' } {
  return order.subscription_type === undefined ? {} : { subscription_type: order.subscription_type };
}

export function provider_commission_of(order: OrderRecord): number | null {
  return order.provider_commission_kobo ?? null;
}

/** The status shown in lists: a delivered order is "successful" there (docs/spec.md section 3). */
export function list_status(status: OrderStatus): string {
  return status === 'delivered' ? 'successful' : status;
}

/** Items of data.transactions in GET /v1/transactions (docs/spec.md section 2 "Service order"). */
export function order_list_view(order: OrderRecord) {
  return {
    reference: order.reference,
    service_type: order.service_type,
    recipient: order.recipient,
    amount: kobo_to_naira(order.amount_kobo),
    amount_charged: kobo_to_naira(charged_kobo(order)),
    commission: kobo_to_naira(commission_of(order)),
    status: list_status(order.status),
    created_at: iso_us(order.created_us),
    client_reference: client_reference_of(order),
    metadata: metadata_of(order),
  };
}

const iso_or_null = (us: number | null) => (us === null ? null : iso_us(us));

/**
 * When an open order is expected to be final (docs/api.md "A promised time"): its promise, and never earlier
 * than its next re-query; null once it is settled (or for an order from before promises that has no
 * re-query planned).
 */
export function expected_final_at(order: OrderRecord): string | null {
  if (is_final(order.status)) return null;
  const next_us = order.next_requery_ms * 1000;
  const promised_us = order.expected_final_us ?? (next_us > 0 ? next_us : null);
  return promised_us === null ? null : iso_us(Math.max(promised_us, next_us));
}

/** GET /v1/transactions/{reference}: the full record of docs/decisions.md. */
export function order_full_view(order: OrderRecord, secrets?: { open(sealed: string): string }) {
  const pins = secrets === undefined ? null : pins_of(order, secrets);
  return {
    reference: order.reference,
    service_type: order.service_type,
    environment: order.environment,
    network: order.network,
    disco: order.disco,
    provider: order.provider,
    recipient: order.recipient,
    plan: order.plan,
    plan_code: order.plan_code,
    package_code: order.package_code,
    amount: kobo_to_naira(order.amount_kobo),
    amount_charged: kobo_to_naira(charged_kobo(order)),
    commission: kobo_to_naira(commission_of(order)),
    status: order.status,
    token: order.token,
    units: order.units,
    meter_type: order.meter_type,
    customer_name: order.customer_name,
    wallet_balance_before: kobo_to_naira(order.wallet_balance_before_kobo),
    wallet_balance_after: kobo_to_naira(order.wallet_balance_after_kobo),
    failure_reason: order.failure_reason,
    reversed: order.reversed,
    needs_review: order.needs_review,
    expected_final_at: expected_final_at(order),
    created_at: iso_us(order.created_us),
    updated_at: iso_us(order.updated_us),
    delivered_at: iso_or_null(order.delivered_us),
    failed_at: iso_or_null(order.failed_us),
    reversed_at: iso_or_null(order.reversed_us),
    status_history: order.status_history.map((h) => ({ status: h.status, at: iso_us(h.at_us) })),
    client_reference: client_reference_of(order),
    metadata: metadata_of(order),
    ...subscription_type_of(order),
    ...(order.attempts === undefined ? {} : { attempts: order.attempts.map(attempt_view) }),
    ...(order.quantity === undefined ? {} : { quantity: order.quantity }),
    ...(order.customer_id === undefined ? {} : { customer_id: order.customer_id }),
    ...(order.bonus_token ? { bonus_token: order.bonus_token } : {}),
    ...(order.key_change_tokens ? { key_change_tokens: order.key_change_tokens } : {}),
    ...(order.foreign === undefined ? {} : { international: foreign_view(order.foreign) }),
    // Only with the key's own fetch (secrets given): the operator's views and lists never carry them.
    ...(pins === null ? {} : { pins }),
  };
}

/**
 * The foreign side of an international order (docs/api.md "International airtime and data"): amounts as
 * decimal text in the operator's currency, the rate as VTpass gave it (NGN per unit).
 */
export function foreign_view(foreign: ForeignOrder) {
  return {
    quote_id: foreign.quote_id,
    country: foreign.country,
    currency: foreign.currency,
    operator_id: foreign.operator_id,
    operator: foreign.operator,
    product_type_id: foreign.product_type_id,
    fixed_price: foreign.fixed_price,
    foreign_amount: foreign.foreign_amount_minor === null ? null : format_minor(foreign.foreign_amount_minor),
    rate: foreign.rate,
  };
}

export function attempt_view(attempt: UpstreamAttempt) {
  return { upstream: attempt.upstream, request_id: attempt.request_id, outcome: attempt.outcome, at: iso_us(attempt.at_us) };
}

/** The operator's view of an order: the full record plus what only the operator sees. */
export function order_operator_view(order: OrderRecord) {
  const commission = provider_commission_of(order);
  return { account_id: order.account_id, ...order_full_view(order), provider_commission: commission === null ? null : kobo_to_naira(commission) };
}
