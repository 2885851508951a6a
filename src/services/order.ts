// A service order (docs/decisions.md "Transactions"): its record, its life cycle and how it is shown.
// Life cycle: pending (debited, not yet sent) → processing (sent to the provider) → delivered | failed.
// A failed order is refunded once (reversed = true) with a reversal wallet entry.
import type { Environment } from '../engine/records.js';
import { kobo_to_naira } from '../lib/money.js';
import { iso_us } from '../lib/time-format.js';
import { fail } from '../lib/assert.js';

/** Every service type on sale, in the order lists and documents show them (src/services/products/registry.ts). */
export const service_type_names = ['airtime', 'data', 'electricity', 'tv', 'education', 'internet'] as const;
export type ServiceType = (typeof service_type_names)[number];
export type OrderStatus = 'pending' | 'processing' | 'delivered' | 'failed';

export interface OrderRecord {
  reference: string;
  account_id: number;
  environment: Environment;
  /** Sequence within the wallet's orders: the list's key and its order. */
  seq: number;
  service_type: ServiceType;
  /** mtn/airtel/glo/9mobile for airtime and data; the disco's service ID; the TV provider. */
  network: string | null;
  disco: string | null;
  provider: string | null;
  /** Phone number, meter number or smartcard number. */
  recipient: string;
  plan_code: string | null;
  /** Plan or package name as shown to people. */
  plan: string | null;
  package_code: string | null;
  meter_type: 'prepaid' | 'postpaid' | null;
  /** Face value: what the recipient gets. */
  amount_kobo: number;
  /**
   * What the wallet was debited: amount − commission (docs/api.md "Pricing"). Orders written before
   * pricing lack it and the two below: charged = amount, commission 0, provider commission unknown.
   */
  amount_charged_kobo?: number;
  /** The reseller's commission: the tier's rate applied to the face value, rounded down to the kobo. */
  commission_kobo?: number;
  /** The upstream provider's commission on this order, as it reported it (live), or null when unknown. */
  provider_commission_kobo?: number | null;
  status: OrderStatus;
  token: string | null;
  units: string | null;
  customer_name: string | null;
  wallet_balance_before_kobo: number;
  wallet_balance_after_kobo: number;
  failure_reason: string | null;
  reversed: boolean;
  created_us: number;
  updated_us: number;
  delivered_us: number | null;
  failed_us: number | null;
  reversed_us: number | null;
  status_history: { status: OrderStatus; at_us: number }[];
  idempotency_key: string | null;
  /** The request id sent upstream (VTpass style: Lagos YYYYMMDDHHmm + random). */
  provider_request_id: string;
  provider_reference: string | null;
  /** Lagos day the debit counted toward the daily limit; a refund gives it back that day. */
  spend_day: number;
  requery_count: number;
  /** Wall-clock ms of the next re-query (already scaled by TIME_SCALE), or 0. */
  next_requery_ms: number;
  /** Set after 24 hours without an answer: the operator decides (dashboard, operator API). */
  needs_review: boolean;
  /**
   * The reseller's own reference, unique per account and environment for ever, and its key-value notes
   * (docs/api.md "Client references"). Orders written before them lack both: shown as null.
   */
  client_reference?: string | null;
  metadata?: Record<string, string> | null;
  /**
   * TV orders whose request set it (docs/api.md "TV renewals and months"): change (a package bought
   * outright) or renew (the smartcard's current package). Absent on every other order, including TV
   * orders whose request left it out (today's behaviour: change).
   */
  subscription_type?: 'change' | 'renew';
  /**
   * Live orders of a routed provider: every upstream it was handed to, in turn; the last holds the order
   * (re-queries go there, with provider_request_id its request id). Absent on test orders and on
   * orders from before upstream routing.
   */
  attempts?: UpstreamAttempt[];
  /**
   * Education: how many PINs the order buys (amount = price × quantity); TV: the months paid for, where
   * the request set it (docs/api.md "TV renewals and months"). Absent on other orders: 1.
   */
  quantity?: number;
  /** The customer's ID with the biller where it is not the recipient: a JAMB profile ID, a Smile account. */
  customer_id?: string | null;
  /**
   * Deliverables the reseller fetches again from the order (exam PINs, Spectranet PINs), sealed with the
   * store's secret box as a JSON array of {serial, pin}: never in plain text at rest, in logs, webhooks or
   * exports (docs/decisions.md "Product families").
   */
  pins_sealed?: string | null;
}

/** One purchased PIN: its serial number (null when the provider gives none) and the PIN itself. */
export interface DeliveredPin {
  serial: string | null;
  pin: string;
}

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

/** One hand-over of an order to an upstream (docs/api.md "attempts"). */
export interface UpstreamAttempt {
  /** The upstream's name in the configuration and the routes. */
  upstream: string;
  /** The request id sent to it: a new one for each upstream, under the same reference. */
  request_id: string;
  /** sent (no answer yet), refused (never reached it), then its answer: failed, processing, unknown, delivered. */
  outcome: 'sent' | 'refused' | 'failed' | 'processing' | 'unknown' | 'delivered';
  at_us: number;
}

/** What the wallet was debited for the order (the face value for orders from before pricing). */
export function charged_kobo(order: OrderRecord): number {
  return order.amount_charged_kobo ?? order.amount_kobo;
}

export function commission_of(order: OrderRecord): number {
  return order.commission_kobo ?? 0;
}

export function provider_commission_of(order: OrderRecord): number | null {
  return order.provider_commission_kobo ?? null;
}

export function is_final(status: OrderStatus): boolean {
  return status === 'delivered' || status === 'failed';
}

export function assert_order(order: OrderRecord): void {
  const broken = (what: string): never => fail(`order ${order.reference} ${what}`);
  if (!Number.isSafeInteger(order.amount_kobo) || order.amount_kobo <= 0) broken('amount is not a positive integer kobo amount');
  if (order.reversed && order.status !== 'failed') broken('is reversed but not failed');
  if (order.status === 'delivered' && order.delivered_us === null) broken('is delivered without a delivery time');
  const charged = charged_kobo(order);
  if (!Number.isSafeInteger(charged) || charged <= 0 || charged > order.amount_kobo) broken('charged amount is not a positive integer kobo amount up to the face value');
  if (charged + commission_of(order) !== order.amount_kobo) broken('charged amount and commission do not add up to the face value');
  if (order.wallet_balance_after_kobo !== order.wallet_balance_before_kobo - charged) broken('balances do not add up');
  if (order.subscription_type !== undefined && order.service_type !== 'tv') broken('carries a subscription_type but is not a TV order');
  if (order.quantity !== undefined && !(Number.isSafeInteger(order.quantity) && order.quantity >= 1)) broken('quantity is not a positive integer');
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
    // Only with the key's own fetch (secrets given): the operator's views and lists never carry them.
    ...(pins === null ? {} : { pins }),
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
