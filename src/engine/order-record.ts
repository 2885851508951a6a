// A service order's record (docs/decisions.md "Transactions"): what the account actor stores and changes,
// its assertion and the few facts the actor's order commands read from it. How an order is shown (the
// list, full and operator views) is the services' (services/order.ts); the record lives here so that the
// engine names no service module (test/layers.test.ts).
// Life cycle: pending (debited, not yet sent) → processing (sent to the provider) → delivered | failed.
// A failed order is refunded once (reversed = true) with a reversal wallet entry.
import type { Environment } from './records.js';
import { fail } from '../lib/assert.js';

/** Every service type on sale, in the order lists and documents show them (src/services/products/registry.ts). */
export const service_type_names = ['airtime', 'data', 'electricity', 'tv', 'education', 'internet', 'showmax', 'international'] as const;
export type ServiceType = (typeof service_type_names)[number];
/** The service types as a message lists them: "airtime, data, electricity, tv, education, internet, showmax or international". */
export const service_types_text = `${service_type_names.slice(0, -1).join(', ')} or ${service_type_names.at(-1)}`;
/** What each service type sells, in words, for descriptions (the OpenAPI document's, docs/api.md's). */
export const service_type_words: Readonly<Record<ServiceType, string>> = {
  airtime: 'airtime',
  data: 'data bundles',
  electricity: 'electricity tokens',
  tv: 'cable TV',
  education: 'exam PINs (WAEC, JAMB)',
  internet: 'internet bundles (Smile, Spectranet)',
  showmax: 'Showmax subscriptions',
  international: 'international airtime and data',
};
/** "airtime, data bundles, …, and internet bundles (Smile, Spectranet)": every family, in words. */
export const service_types_sentence = `${service_type_names.slice(0, -1).map((name) => service_type_words[name]).join(', ')} and ${service_type_words[service_type_names.at(-1)!]}`;
export const order_status_names = ['pending', 'processing', 'delivered', 'failed'] as const;
export type OrderStatus = (typeof order_status_names)[number];

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
  /**
   * An agent's order: what each account above it earned (its commission entry, credited in the record of
   * the debit), nearest first; a refund reverses each once (docs/decisions.md "Commissions down the tree").
   * Absent: an order of an account at the top, or one no ancestor earned on.
   */
  commissions?: OrderCommission[];
  /**
   * A refund that found an ancestor's balance below its commission reversed only what the balance held:
   * the rest, summed over the ancestors, is the operator's loss, recorded here. Absent: none.
   */
  commission_shortfall_kobo?: number;
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
  /**
   * Set when the order passed its promised time without an answer (escalated, delayed_us set) or after 24
   * hours without one: the operator decides (dashboard, operator API).
   */
  needs_review: boolean;
  /**
   * When the order is expected to be final (epoch µs, docs/api.md "A promised time"): set when it is placed,
   * moved to 24 hours after its creation (the operator's decision) once it was escalated. Orders from before
   * promises lack it.
   */
  expected_final_us?: number;
  /** When the order passed its promised time without an answer and was escalated (transaction.delayed). */
  delayed_us?: number;
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
  /**
   * Electricity only, where the distribution company gave them (docs/upstreams.md "Tokens"): a bonus token
   * (free units, VTpass `bonusToken` or "Bonus Token : …" in `purchased_code`) and key-change tokens (KCT1,
   * KCT2, to load before the main token). `token` holds the main electricity token only. Absent otherwise.
   */
  bonus_token?: string | null;
  key_change_tokens?: string[] | null;
  /**
   * International airtime and data only (docs/api.md "International airtime and data"): what the quote the
   * purchase named fixed. The NGN side is the order's own amounts (amount_kobo, amount_charged_kobo); this
   * is the foreign side and VTpass's codes. Absent on every other order.
   */
  foreign?: ForeignOrder;
}

/** The foreign side of an international order, as its quote fixed it. Money is text or integers, never floats. */
export interface ForeignOrder {
  quote_id: string;
  /** ISO 3166 alpha-2 country code (VTpass `code`, sent as `country_code`). */
  country: string;
  /** The operator's currency (VTpass's country `currency`, ISO 4217). */
  currency: string;
  /** VTpass operator_id and product_type_id, sent as they were listed. */
  operator_id: string;
  operator: string | null;
  product_type_id: string;
  /**
   * What the recipient gets, in the currency's hundredths (2 decimals: "10.50" GHS is 1050); null for a
   * fixed product whose foreign value VTpass gives only in its name.
   */
  foreign_amount_minor: number | null;
  /** NGN per one unit of the currency, as a decimal text (VTpass variation_rate); null when VTpass gave none. */
  rate: string | null;
  /** Whether the product has a fixed price (VTpass fixedPrice "Yes") or takes an amount. */
  fixed_price: boolean;
}

/** One purchased PIN: its serial number (null when the provider gives none) and the PIN itself. */
export interface DeliveredPin {
  serial: string | null;
  pin: string;
}

/** One hand-over of an order to an upstream (docs/api.md "Upstream attempts"). */
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

/** One ancestor's earning on an agent's order. */
export interface OrderCommission {
  account_id: number;
  amount_kobo: number;
}

export function commission_of(order: OrderRecord): number {
  return order.commission_kobo ?? 0;
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
  if (order.commissions !== undefined) {
    let earned = 0;
    for (const c of order.commissions) {
      if (!(Number.isSafeInteger(c.amount_kobo) && c.amount_kobo > 0 && Number.isSafeInteger(c.account_id) && c.account_id >= 1 && c.account_id < order.account_id)) broken('names a commission that is not a positive amount of an earlier account');
      earned += c.amount_kobo;
    }
    if (earned >= charged) broken('earns its ancestors its whole charge or more');
  }
  if (order.commission_shortfall_kobo !== undefined && !(Number.isSafeInteger(order.commission_shortfall_kobo) && order.commission_shortfall_kobo > 0 && order.reversed)) broken('records a commission shortfall without a refund');
  if (order.subscription_type !== undefined && order.service_type !== 'tv') broken('carries a subscription_type but is not a TV order');
  if (order.quantity !== undefined && !(Number.isSafeInteger(order.quantity) && order.quantity >= 1)) broken('quantity is not a positive integer');
  if ((order.foreign !== undefined) !== (order.service_type === 'international')) broken('carries a foreign side unless it is an international order, or lacks one');
  if (order.foreign !== undefined && order.foreign.foreign_amount_minor !== null && !(Number.isSafeInteger(order.foreign.foreign_amount_minor) && order.foreign.foreign_amount_minor > 0)) broken('foreign amount is not a positive integer of hundredths');
}

/** A provider's answer to a payment or a re-query, as the actor applies it to an order (services/provider.ts calls the providers). */
export type ProviderResult =
  | {
    outcome: 'delivered'; token?: string | null; units?: string | null; customer_name?: string | null; provider_reference?: string | null;
    /** The provider's own commission on the order (VTpass `commission`), in kobo, when it says. */
    provider_commission_kobo?: number | null;
    /** Purchased PINs (exam PINs, Spectranet PINs): sealed on the order as soon as they arrive. */
    pins?: DeliveredPin[] | null;
    /** Electricity's bonus token and key-change tokens, apart from the main token. */
    bonus_token?: string | null;
    key_change_tokens?: string[] | null;
  }
  /**
   * A definite "failed / not processed" from the provider: the only answer that fails an order. `refused`:
   * the upstream says it did not process it at all (VTpass 091 and the other refusals of
   * src/services/upstreams/vtpass-codes.ts, a Flutterwave 4xx on payment): the one failure after which the
   * order may move to the next upstream of its route; any other failure is refunded where it stands.
   */
  | {
    outcome: 'failed'; reason: string; provider_reference?: string | null; refused?: boolean;
    /**
     * The upstream says it reversed the transaction (VTpass status `reversed` or code 040, Flutterwave
     * `reversed`): the one failure that refunds an order already delivered (engine/account-orders.ts
     * reverse_delivered_order). An open order is refunded on any failure, reversed or not.
     */
    reversed?: boolean;
  }
  /** Accepted, not finished: re-query later. */
  | { outcome: 'processing'; provider_reference?: string | null }
  /** Timeout, 5xx, unreadable body: never a guessed failure; re-query (docs/decisions.md). */
  | {
    outcome: 'unknown';
    reason: string;
    /**
     * The request provably never reached the upstream (its circuit was open, or the connection was refused
     * before anything was written): the one unclear answer after which an order may move to the next
     * upstream of its route (docs/decisions.md "Upstream routing and failover").
     */
    not_sent?: boolean;
    /** Why it is unclear, for the operator's metrics: a status answer without a status, or VTpass's duplicate guard (019). */
    unclear?: 'no_status' | 'duplicate';
  }
  /** The provider has no such request (re-query only): it was never received. */
  | { outcome: 'not_found' };
