// The shape of a product family (docs/decisions.md "Product families"): everything that differs between
// airtime, data, electricity, TV and the families after them lives in one module of this folder: its
// catalog access, request and result schemas, routes (catalog lists, verification, the purchase body and
// the order it makes), sandbox outcomes and upstream codes. What every family shares stays in one place:
// the purchase runner (idempotency, PIN, catalog check, verification; src/front/purchase.ts), the order
// desk (debit, pricing, life cycle, refunds; ../order-desk.ts) and the webhooks. A family never sees the
// HTTP request: the front end turns its routes into route definitions (src/front/routes/service-routes.ts).
import { createHash } from 'node:crypto';
import type { TSchema } from 'typebox';
import type { Environment } from '../../engine/records.js';
import type { OrderRequest } from '../../engine/account-orders.js';
import type { Reply } from '../../lib/reply.js';
import { error_reply, success_reply } from '../../lib/reply.js';
import { api_error, invalid, type ApiError, type ErrorCode } from '../../errors.js';
import { kobo_to_naira, naira_to_kobo } from '../../lib/money.js';
import type { Catalog } from '../catalog.js';
import type { OrderRecord, ServiceType } from '../order.js';
import type { CustomerCheck, Provider, ProviderResult, VerifyResult } from '../provider.js';
import { provider_unavailable } from '../provider.js';
import type { PhoneNetworks } from '../phone-networks.js';
import type { ForeignQuotes } from '../foreign-quotes.js';

/** What a purchase of any family is, once its body is read: the shared runner consumes it. */
export interface PurchasePlan {
  order: OrderRequest;
  /** Catalog checks that run after the PIN (plan missing or disabled, price mismatch). */
  check?: () => ApiError | null;
  /** Recipient verification with the provider (meters, smartcards, profiles), after the PIN and the catalog. */
  verify?: () => VerifyResult | Promise<VerifyResult>;
  /** The code a failed verification answers with (422). */
  invalid_code?: ErrorCode;
  /**
   * Inside the command, after a valid verification: a refusal decided from what the provider said (a
   * meter's minimum, a meter that cannot vend, a renewal's price), or what it adds to the order (the
   * renewed package). docs/api.md "Deeper verification".
   */
  on_verified?: (verification: ValidVerification) => ApiError | Partial<OrderRequest> | null;
}

export type ValidVerification = Extract<VerifyResult, { outcome: 'valid' }>;

/** What a family needs to turn a validated purchase body into its plan: read once per request. */
export interface PlanContext {
  catalog: Catalog;
  /** The provider of the request's environment (sandbox for test keys). */
  provider: Provider;
  /** The request's environment: with a test key, the sandbox's magic phones take any network. */
  environment: Environment;
  /** The network of a phone number (docs/api.md "Phone lookup"): airtime and data check theirs against it. */
  numbers: PhoneNetworks;
  /** The account that buys: a quote is its own (international airtime and data). */
  account_id: number;
  /** The quotes held for international airtime and data (src/services/foreign-quotes.ts). */
  quotes: ForeignQuotes;
}

/** A catalog or verification request as a family sees it: no socket, no headers. */
export interface ProductRequest extends PlanContext {
  request_id: string;
  /** The validated body (routes with a body schema), else null. */
  body: unknown;
  query: URLSearchParams;
  /** What the calling account's wallet would pay for a product of this face value (docs/api.md "Pricing"). */
  charged_naira(service_type: ServiceType, narrow: string | null, amount_kobo: number): number;
  /** The commission the calling account's tier takes on a face value, in kobo (docs/api.md "Pricing"). */
  commission_kobo(service_type: ServiceType, narrow: string | null, amount_kobo: number): number;
}

/** The part of a route's OpenAPI entry a family states (src/front/route.ts RouteDoc, same field names). */
export interface ProductRouteDoc {
  summary: string;
  description?: string;
  tags: string[];
  response?: TSchema;
  success_status?: number;
  errors?: string[];
  query?: Record<string, { schema: TSchema; description: string; required?: boolean }>;
}

/** A catalog list or a verification: any valid API key for lists, services:purchase for verification. */
export interface ProductRoute {
  method: 'get' | 'post';
  path: string;
  scope: 'services:purchase' | null;
  body?: TSchema;
  /** Verification is not a change: it does not honour X-Idempotency-Key. */
  idempotent?: boolean;
  doc: ProductRouteDoc;
  handler: (request: ProductRequest) => Reply | Promise<Reply>;
}

/** A family's purchase route: the shared runner answers it, the family only makes the plan. */
export interface PurchaseRoute {
  path: string;
  /** The body schema, `pin` included: bulk orders take it without `pin` (see purchase_item_schema). */
  body: TSchema;
  doc: ProductRouteDoc;
  /**
   * A validated body (its `pin` is not read) → the plan, or the validation error. Pure apart from catalog
   * reads: called again for each item of a bulk order.
   */
  plan(body: unknown, context: PlanContext): PurchasePlan | ApiError;
}

/** A Flutterwave bill: the biller_name sent as `type`, and the codes its validation takes. */
export interface FlutterwaveBill {
  type: string;
  biller_code: string;
  item_code: string;
}

export type ProductKey = Pick<OrderRecord, 'service_type' | 'network' | 'disco' | 'provider'> & {
  meter_type?: OrderRecord['meter_type'];
  /** The item, when a purchase names one: its own upstream codes (src/services/upstream-codes.ts) come first. */
  plan_code?: string | null;
  package_code?: string | null;
};

/** What an upstream adapter needs from a family: its codes, in each upstream's terms. */
export interface UpstreamCodes {
  /** VTpass serviceID of an order (or of a product: network, disco or provider). */
  vtpass_service_id(order: Pick<OrderRecord, 'service_type' | 'network' | 'disco' | 'provider'> & Partial<Pick<OrderRecord, 'plan_code'>>): string;
  /**
   * The fields of VTpass's POST /api/pay beyond request_id, serviceID and amount; null when VTpass has no
   * code for the order's item (docs/upstreams.md "Catalog codes and sync"): nothing is sent, since our own
   * catalog id is never a VTpass variation_code.
   */
  vtpass_pay_fields(order: OrderRecord): Record<string, unknown> | null;
  /** The Flutterwave bill of a product, or null when Flutterwave does not sell it (the router skips it). */
  flutterwave_bill(product: ProductKey): FlutterwaveBill | null;
  /** The customer Flutterwave is sent on payment. */
  flutterwave_customer(order: OrderRecord): string;
}

/** Opens what the store keeps sealed (the engine's secret box): deliverables such as exam PINs. */
export interface Unsealer {
  open(sealed: string): string;
}

export interface ProductFamily {
  service_type: ServiceType;
  /** The `message` of a purchase's 201: delivered, or still processing. */
  messages: { delivered: string; processing: string };
  /** Catalog lists and verification, in the order the document shows them. */
  routes: ProductRoute[];
  purchase: PurchaseRoute;
  /** The 201 body of a purchase and of its replay (docs/spec.md section 2 "Purchase results"). */
  result_view(order: OrderRecord, secrets: Unsealer): Record<string, unknown>;
  /** The sandbox's delivery of an order of this family (what it fills in beyond the reference). */
  sandbox_delivered(order: OrderRecord): ProviderResult;
  /** The sandbox's answer to a customer check (Provider.verify_customer) of this family, if it has one. */
  sandbox_verify?(check: CustomerCheck): VerifyResult;
  /** The catalog lists (data/catalog/<kind>.json) the family sells from, managed by the operator. */
  catalog_kinds?: readonly string[];
  upstream: UpstreamCodes;
}

/**
 * The plan a data or internet purchase names: `plan_code` (the spec's field) or `plan_id`, the name the plan
 * lists also carry (docs/api.md "Plans: plan_id and plan_code"). One of the two is required; both must agree.
 * Checked with the body, before the PIN, like the body's schema.
 */
export function chosen_plan_code(body: { plan_code?: string | undefined; plan_id?: string | undefined }): string | ApiError {
  if (body.plan_code !== undefined && body.plan_id !== undefined && body.plan_code !== body.plan_id) {
    return invalid('plan_id', 'must equal plan_code when both are given: they are two names of one field');
  }
  const code = body.plan_code ?? body.plan_id;
  if (code === undefined) return invalid('plan_code', 'is required (or the same value as plan_id)');
  return code;
}

/** Amount in kobo within [min, max], or the validation error (limits of docs/spec.md section 8). */
export function amount_in(value: number, min_kobo: number, max_kobo: number | null, hint: string): number | ApiError {
  const parsed = naira_to_kobo(value);
  if (!parsed.ok) return invalid('amount', parsed.reason);
  if (parsed.kobo < min_kobo || (max_kobo !== null && parsed.kobo > max_kobo)) return invalid('amount', hint);
  return parsed.kobo;
}

/** The answer of a verification route: 200 with what the provider knows, 422 when it knows nothing. */
export function verify_reply(
  request_id: string, result: VerifyResult, invalid_code: ErrorCode, message: string, extra: Record<string, unknown>,
  /** What the family adds from a valid answer (a meter's arrears, a smartcard's renewal amount). */
  details?: (result: ValidVerification) => Record<string, unknown>,
): Reply {
  if (result.outcome === 'invalid') return error_reply(request_id, api_error(invalid_code));
  if (result.outcome === 'unavailable') return provider_unavailable(request_id, 60);
  return success_reply(request_id, 200, {
    ...extra,
    customer_name: result.customer_name,
    address: result.address,
    ...(result.current_package !== undefined ? { current_package: result.current_package } : {}),
    ...(result.due_date !== undefined ? { due_date: result.due_date } : {}),
    ...(details === undefined ? {} : details(result)),
  }, message);
}

/** NGN of a kobo amount the provider may not have given. */
export function naira_or_null(kobo: number | null | undefined): number | null {
  return kobo == null ? null : kobo_to_naira(kobo);
}

/** A 20-digit token in groups of 4, derived from the reference so every re-query repeats it. */
export function sandbox_token(reference: string): string {
  const digest = createHash('sha256').update(reference).digest();
  let digits = '';
  for (let i = 0; digits.length < 20; i++) digits += String(digest[i % digest.length] % 10);
  return digits.match(/.{4}/g)!.join('-');
}

/** The provider reference the sandbox gives every order. */
export function sandbox_reference(order: OrderRecord): string {
  return `SBX-${order.provider_request_id}`;
}

/** The sandbox's answer for a family that delivers nothing but the top-up itself (no name, token or PIN). */
export function sandbox_delivered(order: OrderRecord): ProviderResult {
  return { outcome: 'delivered', customer_name: null, provider_reference: sandbox_reference(order) };
}

/** VTpass names 9mobile "etisalat". */
export function vtpass_network(network: string): string {
  return network === '9mobile' ? 'etisalat' : network;
}

/** Flutterwave writes Nigerian numbers internationally (+234…), as its examples do. */
export function international_phone(phone: string): string {
  return /^0\d{10}$/.test(phone) ? `+234${phone.slice(1)}` : phone;
}
