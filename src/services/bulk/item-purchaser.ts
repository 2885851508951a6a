// The one place where bulk orders meet the purchase path (docs/api.md "Bulk orders"): how an item is
// validated and planned, and how it is placed inside the batch's command. Everything else of bulk
// orders (the batch records, the route, the events) speaks only through the ItemPurchaser interface.
//
// This implementation sits on the product registry (src/services/products/registry.ts): every family
// registered there can be an item, with its purchase body without pin (purchase_item_schema), its plan,
// catalog check and recipient verification exactly as its single purchase, and the order desk's place()
// for the debit, so an item is an ordinary order. It does not use the single purchase's runner
// (front/purchase.ts run_purchase): that places one purchase under its own run_idempotent and commit, while
// a batch places all its items in one command and one commit (see batch-desk.ts); what the runner does
// after the PIN (check, verification verdict, place) is repeated in place() below.
import Type, { type TSchema } from 'typebox';
import type { AccountActor } from '../../engine/account-actor.js';
import type { Environment } from '../../engine/records.js';
import type { OrderDesk, Placement } from '../order-desk.js';
import { provider_unavailable_error } from '../provider.js';
import type { OrderStatus } from '../order.js';
import type { OrderRequest } from '../../engine/account-orders.js';
import type { Authority } from '../../engine/authority.js';
import type { Refusal } from '../../engine/refusal.js';
import type { VerifyResult } from '../provider.js';
import type { Catalog } from '../catalog.js';
import type { PurchasePlan } from '../products/family.js';
import { family_of, is_service_type, product_families, purchase_item_schema } from '../products/registry.js';
import { compile_schema, type CompiledSchema } from '../../lib/validation.js';
import { api_error, invalid_fields, invalid, type ApiError } from '../../errors.js';
import { fail } from '../../lib/assert.js';

/** An item that passed its own validation: its plan, opaque to the batch. */
export interface PreparedItem {
  index: number;
  service_type: string;
  client_reference: string | null;
  /** Recipient verification with the provider, run after the PIN and before the batch's command; null: none. */
  verify: (() => VerifyResult | Promise<VerifyResult>) | null;
  plan: unknown;
}

/** What a placed item gives the batch: its order, or the error that refused it (nothing debited). */
export type PlacedItem = { reference: string; status: OrderStatus } | { error: ApiError };

export interface ItemPurchaser {
  /** The service types an item may name. */
  readonly service_types: readonly string[];
  /** The body of each service's item (its purchase body with service_type, without pin), for the document. */
  readonly item_schemas: TSchema[];
  /** Validates one item against its service's body and builds its plan, or the item's error (before the PIN). */
  prepare(account_id: number, environment: Environment, index: number, item: Record<string, unknown>): PreparedItem | ApiError;
  /**
   * Runs inside the batch's synchronous command, after the PIN: the catalog check, the verification's
   * verdict, then the debit and the order, exactly as a single purchase would.
   */
  place(actor: AccountActor, environment: Environment, item: PreparedItem, verification: VerifyResult | null, authority: Authority): PlacedItem;
  /** An order's status as it stands (memory for open orders, else the store), or null when unknown. */
  status_of(reference: string): OrderStatus | null;
}

/** Calls a placing command and returns the reference of the order it placed (from its wallet.debited event). */
export type PlacedOrderCapture = (place: () => Placement) => { placed: Placement; reference: string | null };

/** The API's error for a refusal of the engine: the front end's refusal_error (front/outcome-errors.ts), wired in server/serve-store.ts. */
export type RefusalError = (refusal: Refusal) => ApiError;


function field_error(index: number, field: string, message: string): ApiError {
  return invalid(`items.${index}.${field}`, message);
}

/** The item schema of a family: its purchase body without pin, with service_type naming it. */
function item_schema(service_type: string): TSchema {
  const properties = (purchase_item_schema(service_type as Parameters<typeof purchase_item_schema>[0]) as unknown as { properties: Record<string, TSchema> }).properties;
  return Type.Object({ service_type: Type.Literal(service_type), ...properties }, { title: `${service_type} item` });
}

export class RegistryItemPurchaser implements ItemPurchaser {
  readonly service_types: readonly string[];
  readonly item_schemas: TSchema[];
  /** Each family's item validator, compiled once at start-up. */
  private readonly validators = new Map<string, CompiledSchema>();

  constructor(private readonly catalog: Catalog, private readonly desk: OrderDesk, private readonly capture: PlacedOrderCapture, private readonly refusal_error: RefusalError) {
    this.service_types = product_families.map((family) => family.service_type);
    this.item_schemas = this.service_types.map((service_type) => item_schema(service_type));
    this.service_types.forEach((service_type, i) => this.validators.set(service_type, compile_schema(this.item_schemas[i])));
  }

  prepare(account_id: number, environment: Environment, index: number, item: Record<string, unknown>): PreparedItem | ApiError {
    const service_type = item.service_type as string;
    const validator = this.validators.get(service_type);
    if (validator === undefined || !is_service_type(service_type)) return field_error(index, 'service_type', `must be one of: ${this.service_types.join(', ')}`);
    // The batch's pin authorises every item; one in an item would be a second secret in the request.
    if ('pin' in item) return field_error(index, 'pin', 'must not be given in an item: the batch\'s pin authorises every item');
    const details = validator.check(item);
    if (details !== null) {
      const named = details.map((d) => ({ field: d.field === 'body' ? `items.${index}` : `items.${index}.${d.field}`, message: d.message }));
      return invalid_fields(named);
    }
    const plan = family_of(service_type).purchase.plan(item, { catalog: this.catalog, provider: this.desk.providers[environment], environment, numbers: this.desk.numbers, account_id, quotes: this.desk.foreign_quotes });
    if ('code' in plan) {
      // The builders name the body's fields; in a batch they are the item's.
      const named = plan.details?.map((d: { field: string; message: string }) => ({ field: `items.${index}.${d.field}`, message: d.message }));
      return named === undefined ? plan : { ...invalid_fields(named), code: plan.code };
    }
    return {
      index,
      service_type,
      client_reference: (item.client_reference as string | undefined) ?? null,
      verify: plan.verify ?? null,
      plan: { plan, metadata: (item.metadata as Record<string, string> | undefined) ?? null },
    };
  }

  place(actor: AccountActor, environment: Environment, item: PreparedItem, verification: VerifyResult | null, authority: Authority): PlacedItem {
    const { plan, metadata } = item.plan as { plan: PurchasePlan; metadata: Record<string, string> | null };
    const refused = plan.check ? plan.check() : null;
    if (refused !== null) return { error: refused };
    let customer_name: string | null = null;
    let decided: Partial<OrderRequest> | null = null;
    if (plan.verify !== undefined) {
      if (verification === null) fail(`item ${item.index} placed without its verification`);
      if (verification.outcome === 'invalid') return { error: api_error(plan.invalid_code!) };
      if (verification.outcome === 'unavailable') return { error: provider_unavailable_error(60) };
      customer_name = verification.customer_name;
      // What the provider said may refuse the item or complete its order (a meter's minimum or can_vend,
      // a TV renewal's amount: docs/api.md "Deeper verification"), as for a single purchase.
      const outcome = plan.on_verified ? plan.on_verified(verification) : null;
      if (outcome !== null && 'code' in outcome) return { error: outcome };
      decided = outcome;
    }
    // No idempotency key of its own: the batch's key covers it, and its record is in the same commit.
    // desk.place checks the provider's availability before place_order claims the client_reference.
    const { placed, reference } = this.capture(() => this.desk.place(actor, environment, null, '', {
      ...plan.order, ...decided, customer_name: customer_name ?? plan.order.customer_name, client_reference: item.client_reference, metadata,
    }, authority, true));
    if (placed.kind === 'unavailable' || placed.kind === 'refused') {
      if (reference !== null) fail(`item ${item.index} placed order ${reference} yet was refused`);
      return { error: placed.kind === 'refused' ? this.refusal_error(placed.refusal) : provider_unavailable_error(placed.retry_after_s) };
    }
    // The item's own answer (the order's first outcome) is not awaited: the batch answers 202 once its
    // commit is durable, and GET /v1/services/bulk/{id} shows the order as it goes on. A failed commit is
    // the batch's answer (503, nothing kept), through the batch's own settle.
    if (placed.kind === 'sent') placed.answered.catch(() => {});
    if (reference !== placed.order.reference) fail(`item ${item.index} placed order ${placed.order.reference}, its debit named ${reference}`);
    const status = this.status_of(reference);
    if (status === null) fail(`item ${item.index}'s order ${reference} cannot be found`);
    return { reference, status };
  }

  status_of(reference: string): OrderStatus | null {
    return this.desk.find(reference)?.status ?? null;
  }
}
