// Each sellable item in each upstream's own terms (docs/upstreams.md "Catalog codes and sync"): VTpass sells
// by serviceID + variation_code (DStv Compact is `dstv79`, StarTimes Nova is `nova`), Flutterwave by biller_code
// + item_code (+ the biller_name sent as `type`). Our catalog ids (`dstv-compact`, `mtn-100mb-1d`) are ours
// alone and are never sent upstream. The table is filled from the shipped catalog files when this module
// loads and by the catalog when the sync learns a new variation (src/services/catalog-sync.ts); the upstream
// adapters read it through upstream_code(), since they hold an order, not the catalog.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export type UpstreamCodeKind = 'vtpass' | 'flutterwave';

export interface VtpassCode {
  service_id: string;
  variation_code: string;
}

export interface FlutterwaveCode {
  /** The biller_name of GET /v3/bill-categories, sent as `type` on POST /v3/bills. */
  type: string;
  biller_code: string;
  item_code: string;
}

export interface ItemCodes {
  vtpass?: VtpassCode;
  flutterwave?: FlutterwaveCode;
}

/** The catalog lists whose items carry upstream codes, by the data/catalog/<kind>.json file they ship in. */
export const sellable_kinds = ['data-plans', 'tv-packages', 'education-products', 'internet-plans', 'showmax-plans'] as const;
export type SellableKind = (typeof sellable_kinds)[number];

/** An item as an order names it: its family and its catalog id (plan_code, or package_code for TV). */
export interface SellableRef {
  service_type: string;
  plan_code?: string | null;
  package_code?: string | null;
}

/** Items with codes, across every list: the shipped ones and at most this many learned by the sync. */
export const upstream_codes_max = 20_000;

const by_item = new Map<string, ItemCodes>();
const by_vtpass = new Map<string, { kind: SellableKind; id: string }>();

function item_key(kind: SellableKind, id: string): string {
  return `${kind}:${id}`;
}

/** The list an order's item lives in, and its id there; null for families without a list (airtime, electricity). */
export function sellable_of(item: SellableRef): { kind: SellableKind; id: string } | null {
  switch (item.service_type) {
    case 'data': return item.plan_code ? { kind: 'data-plans', id: item.plan_code } : null;
    case 'tv': return item.package_code ? { kind: 'tv-packages', id: item.package_code } : null;
    case 'education': return item.plan_code ? { kind: 'education-products', id: item.plan_code } : null;
    case 'internet': return item.plan_code ? { kind: 'internet-plans', id: item.plan_code } : null;
    case 'showmax': return item.plan_code ? { kind: 'showmax-plans', id: item.plan_code } : null;
    default: return null;
  }
}

/** Records an item's codes (shipped, or learned by the sync); a later call for the same item replaces them. */
export function register_codes(kind: SellableKind, id: string, codes: ItemCodes): void {
  const key = item_key(kind, id);
  if (!by_item.has(key) && by_item.size >= upstream_codes_max) throw new Error(`more than ${upstream_codes_max} items with upstream codes`);
  const before = by_item.get(key)?.vtpass;
  if (before !== undefined) by_vtpass.delete(`${before.service_id}:${before.variation_code}`);
  by_item.set(key, codes);
  if (codes.vtpass !== undefined) by_vtpass.set(`${codes.vtpass.service_id}:${codes.vtpass.variation_code}`, { kind, id });
}

/** The codes of one item in one upstream's terms, or null when that upstream does not sell it (or it has no list). */
export function upstream_code(item: SellableRef, upstream_kind: 'vtpass'): VtpassCode | null;
export function upstream_code(item: SellableRef, upstream_kind: 'flutterwave'): FlutterwaveCode | null;
export function upstream_code(item: SellableRef, upstream_kind: UpstreamCodeKind): VtpassCode | FlutterwaveCode | null {
  const sellable = sellable_of(item);
  if (sellable === null) return null;
  return by_item.get(item_key(sellable.kind, sellable.id))?.[upstream_kind] ?? null;
}

/** The codes of an item by its list and id (the sync's view). */
export function codes_of(kind: SellableKind, id: string): ItemCodes | undefined {
  return by_item.get(item_key(kind, id));
}

/** Our item that VTpass sells under serviceID + variation_code, if any. */
export function item_of_vtpass(service_id: string, variation_code: string): { kind: SellableKind; id: string } | undefined {
  return by_vtpass.get(`${service_id}:${variation_code}`);
}

// The shipped codes, read once: the adapters need them whether or not a Catalog was built in this process.
const catalog_dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'data', 'catalog');
function shipped(name: string): any {
  return JSON.parse(readFileSync(join(catalog_dir, name), 'utf8'));
}
for (const plan of shipped('data-plans.json').plans as { plan_id: string; vtpass?: VtpassCode }[]) {
  if (plan.vtpass !== undefined) register_codes('data-plans', plan.plan_id, { vtpass: plan.vtpass });
}
for (const item of shipped('tv-packages.json').packages as { package_code: string; vtpass?: VtpassCode; flutterwave?: FlutterwaveCode }[]) {
  register_codes('tv-packages', item.package_code, { ...(item.vtpass ? { vtpass: item.vtpass } : {}), ...(item.flutterwave ? { flutterwave: item.flutterwave } : {}) });
}
for (const kind of ['education-products', 'internet-plans', 'showmax-plans'] as const) {
  for (const item of shipped(`${kind}.json`).items as { code: string; service_id?: string; variation_code?: string }[]) {
    if (item.service_id && item.variation_code) register_codes(kind, item.code, { vtpass: { service_id: item.service_id, variation_code: item.variation_code } });
  }
}
