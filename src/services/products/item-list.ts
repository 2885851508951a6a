// A catalog list of a product family after the first four (education products, internet plans): shipped in
// data/catalog/<kind>.json, loaded at start, and managed by the operator like data plans (enable, disable,
// re-price: PATCH /admin/catalog/:kind/:code). The store keeps only the operator's changes (price and
// enabled) under `item:<kind>:<code>`, so a shipped name or upstream code can be corrected by a release.
import type { Journal } from '../../journal/journal.js';
import type { Store } from '../../journal/store.js';
import { naira_to_kobo } from '../../lib/money.js';
import { fail } from '../../lib/assert.js';

/** Items in one list: a bound on what a shipped file may hold. */
export const catalog_items_max = 1_000;

export interface CatalogItem {
  code: string;
  name: string;
  /** What narrows it (the exam body, the internet provider): the pricing and routing narrow value. */
  group: string;
  amount_kobo: number;
  enabled: boolean;
  /** The family's own attributes, as shipped: upstream codes, validity, quantity bounds. */
  attributes: Record<string, string | number | boolean>;
}

interface ShippedItem {
  code: string;
  name: string;
  group: string;
  amount: number;
  enabled: boolean;
  [attribute: string]: string | number | boolean;
}

export class ItemList {
  private readonly items = new Map<string, CatalogItem>();

  constructor(private readonly store: Store, readonly kind: string, shipped: { items: ShippedItem[] }) {
    if (shipped.items.length > catalog_items_max) fail(`catalog ${kind} holds more than ${catalog_items_max} items`);
    for (const raw of shipped.items) {
      const { code, name, group, amount, enabled, ...attributes } = raw;
      const parsed = naira_to_kobo(amount);
      if (!parsed.ok || parsed.kobo <= 0) fail(`catalog amount of ${kind} ${code} is not a positive NGN amount`);
      const stored = store.catalog.get(`item:${kind}:${code}`) as { amount_kobo: number; enabled: boolean } | undefined;
      this.items.set(code, { code, name, group, amount_kobo: stored?.amount_kobo ?? parsed.kobo, enabled: stored?.enabled ?? enabled, attributes });
    }
    // Items the catalog sync learned (src/services/catalog-sync.ts), with the operator's changes to them.
    for (const { value } of store.catalog.getRange({ start: `synced:${kind}:`, end: `synced:${kind};` })) {
      const synced = value as { id: string; name: string; narrow: string; amount_kobo: number; attributes?: Record<string, string | number | boolean> };
      const stored = store.catalog.get(`item:${kind}:${synced.id}`) as { amount_kobo: number; enabled: boolean } | undefined;
      this.items.set(synced.id, {
        code: synced.id, name: synced.name, group: synced.narrow, amount_kobo: stored?.amount_kobo ?? synced.amount_kobo, enabled: stored?.enabled ?? false, attributes: synced.attributes ?? {},
      });
    }
  }

  /** An item the sync learned: the catalog journals it (Catalog.add_synced); here it joins the list. */
  add(item: CatalogItem): void {
    if (!this.items.has(item.code)) this.items.set(item.code, item);
  }

  /** Every item in catalog order, or those of one group; enabled ones only unless `all`. */
  list(group: string | null, all = false): CatalogItem[] {
    const out: CatalogItem[] = [];
    for (const item of this.items.values()) if ((all || item.enabled) && (group === null || item.group === group)) out.push(item);
    return out;
  }

  get(code: string): CatalogItem | undefined {
    return this.items.get(code);
  }

  /** Operator change: journaled, effective for the next request. */
  update(journal: Journal, code: string, patch: { enabled?: boolean; amount_kobo?: number }): CatalogItem | undefined {
    const item = this.items.get(code);
    if (item === undefined) return undefined;
    const next: CatalogItem = { ...item, enabled: patch.enabled ?? item.enabled, amount_kobo: patch.amount_kobo ?? item.amount_kobo };
    this.items.set(code, next);
    journal.put(0, this.store.catalog, `item:${this.kind}:${code}`, { amount_kobo: next.amount_kobo, enabled: next.enabled });
    return next;
  }
}
