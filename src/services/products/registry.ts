// The product families on sale (docs/decisions.md "Product families"). Adding a family is adding its
// module beside this file and one line below; everything that walks the families (routes, the OpenAPI
// document, the sandbox, the upstream adapters, bulk orders) reads this list.
import type { TSchema } from 'typebox';
import Type from 'typebox';
import { expected_final_at, type OrderRecord, type ServiceType } from '../order.js';
import type { ProductFamily, Unsealer } from './family.js';
import { airtime_family } from './airtime.js';
import { data_family } from './data.js';
import { electricity_family } from './electricity.js';
import { tv_family } from './tv.js';
import { education_family } from './education.js';
import { internet_family } from './internet.js';
import { showmax_family } from './showmax.js';
import { international_family } from './international.js';

export const product_families: readonly ProductFamily[] = [airtime_family, data_family, electricity_family, tv_family, education_family, internet_family, showmax_family, international_family];

const by_service_type = new Map<ServiceType, ProductFamily>(product_families.map((family) => [family.service_type, family]));

/** The family of a service type; every ServiceType has one (a missing one is a bug). */
export function family_of(service_type: ServiceType): ProductFamily {
  const family = by_service_type.get(service_type);
  if (family === undefined) throw new Error(`no product family for service type ${service_type}`);
  return family;
}

/** Whether a text names a service type on sale. */
export function is_service_type(text: string): text is ServiceType {
  return by_service_type.has(text as ServiceType);
}

/** A family's purchase body without `pin`: the shape of one item of a bulk order (built once per family). */
const item_schemas = new Map<ServiceType, TSchema>(product_families.map((family) => {
  const { pin: _pin, ...properties } = (family.purchase.body as unknown as { properties: Record<string, TSchema> }).properties;
  return [family.service_type, Type.Object(properties)];
}));

export function purchase_item_schema(service_type: ServiceType): TSchema {
  return item_schemas.get(service_type)!;
}

/** The 201 body of a purchase (docs/spec.md section 2 "Purchase results"), by the order's family. */
export function purchase_result_view(order: OrderRecord, secrets: Unsealer): Record<string, unknown> {
  return { ...family_of(order.service_type).result_view(order, secrets), expected_final_at: expected_final_at(order) };
}
