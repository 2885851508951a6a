// What the order desk needs from an upstream: pay, re-query and verify. The sandbox serves test keys,
// the live adapter serves live keys (docs/decisions.md "Sandbox", "Transactions").
import type { OrderRecord } from './order.js';
import type { ProviderResult } from '../engine/order-record.js';
import { error_reply, type Reply } from '../lib/reply.js';
import { api_error, type ApiError } from '../errors.js';

// The result type lives with the order record in engine/, which applies it; providers produce it.
export type { ProviderResult } from '../engine/order-record.js';

/**
 * What the upstream knows beyond the name (docs/api.md "Deeper verification"). Each is absent or null when
 * the upstream does not say: then nothing is decided on it.
 */
export interface MeterDetails {
  /** What the customer owes the distribution company, in kobo (VTpass Customer_Arrears). */
  arrears_kobo?: number | null;
  /** The least a purchase for this meter may be, in kobo (VTpass Minimum_Amount / Min_Purchase_Amount). */
  minimum_amount_kobo?: number | null;
  /** Whether the distribution company accepts a payment for this meter now (VTpass Can_Vend). */
  can_vend?: boolean | null;
}

export interface SmartcardDetails {
  /** The catalog code of the smartcard's current package, when the upstream names it (VTpass Current_Bouquet_Code). */
  current_package_code?: string | null;
  /** What one month's renewal of the current package costs, in kobo (VTpass Renewal_Amount). */
  renewal_amount_kobo?: number | null;
}

export type VerifyResult =
  | ({ outcome: 'valid'; customer_name: string; address: string | null; current_package?: string | null; due_date?: string | null } & MeterDetails & SmartcardDetails)
  | { outcome: 'invalid' }
  | { outcome: 'unavailable'; reason: string };

/** A customer check of a family after the first four: a JAMB profile, a Smile account. */
export interface CustomerCheck {
  service_type: OrderRecord['service_type'];
  /** What narrows the route (exam, internet provider). */
  provider: string;
  /** The upstream's service ID (VTpass serviceID: jamb, smile-direct). */
  service_id: string;
  /** What is checked: the profile ID, the account, e-mail or phone. */
  billers_code: string;
  /** VTpass's `type` of merchant-verify, where the service has one. */
  type?: string;
}

export interface PurchaseIntent {
  service_type: OrderRecord['service_type'];
  recipient: string;
  /** What narrows the product's route (docs/operations.md "Routes"); absent: the service's route. */
  network?: string | null;
  disco?: string | null;
  provider?: string | null;
}

/** A result the provider pushes later (sandbox delays, upstream callbacks). */
export type UpdateListener = (order: OrderRecord, result: ProviderResult) => void;

export interface Provider {
  readonly name: string;
  /**
   * True when paying has no effect outside this process (the sandbox): the order can then be paid in
   * the same turn as its debit, in one commit. A real upstream is only called once the debit is durable.
   */
  readonly instant: boolean;
  /** Refuses a purchase before any debit when the provider is known to be down (503). */
  unavailable(intent: PurchaseIntent): { retry_after_s: number } | null;
  pay(order: OrderRecord): ProviderResult | Promise<ProviderResult>;
  requery(order: OrderRecord): ProviderResult | Promise<ProviderResult>;
  verify_meter(disco_service_id: string, meter_number: string, meter_type: 'prepaid' | 'postpaid'): VerifyResult | Promise<VerifyResult>;
  verify_smartcard(provider: string, smartcard_number: string): VerifyResult | Promise<VerifyResult>;
  verify_customer(check: CustomerCheck): VerifyResult | Promise<VerifyResult>;
  on_update(listener: UpdateListener): void;
  /**
   * A provider that routes over several upstreams (src/services/upstreams/router.ts): the upstream a new
   * order is sent to first, or null when every upstream of its route is down. Absent: one upstream.
   */
  first_upstream?(intent: PurchaseIntent): string | null;
  /** After a definite refusal: the next healthy upstream of the order's route it was not tried on, or null. */
  next_upstream?(order: OrderRecord): string | null;
  /**
   * A GET of VTpass's international airtime catalog (countries, product types, operators, variations:
   * docs/upstreams.md "International airtime and data"), counted under `operation`. Absent: the provider
   * has no such catalog (the sandbox keeps its own, src/services/products/international.ts).
   */
  vtpass_get?(path: string, operation: string): Promise<CatalogAnswer>;
}

/** The answer of a catalog GET: the body with its HTTP status, or why there is none. */
export type CatalogAnswer = { body: unknown; status: number } | { error: string };

/** The error of a purchase or verification refused because the provider is down: nothing was debited (503). */
export function provider_unavailable_error(retry_after_s: number): ApiError {
  return api_error('transaction.provider_unavailable', `Provider temporarily unavailable; nothing was debited. Retry in ${retry_after_s} seconds.`, {
    headers: { 'Retry-After': String(retry_after_s) },
  });
}

/** A purchase or verification refused because the provider is down, as the reply. */
export function provider_unavailable(request_id: string, retry_after_s: number): Reply {
  return error_reply(request_id, provider_unavailable_error(retry_after_s));
}
