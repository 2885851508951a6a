// The catalog: data plans, TV packages and distribution companies. It ships in data/catalog/ and is
// loaded into the store at start; plans already in the store keep their operator changes (price,
// enabled), so re-pricing or disabling a plan survives restarts and needs none (docs/decisions.md).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';
import type { Journal } from '../journal/journal.js';
import type { Store } from '../journal/store.js';
import { naira_to_kobo } from '../lib/money.js';
import { fail } from '../lib/assert.js';
import { ItemList, type CatalogItem } from './products/item-list.js';
import { register_codes, type SellableKind, type VtpassCode } from './upstream-codes.js';

export { upstream_code, sellable_of, item_of_vtpass, codes_of, type SellableKind, type SellableRef, type VtpassCode, type FlutterwaveCode } from './upstream-codes.js';

export const networks = ['mtn', 'airtel', 'glo', '9mobile'] as const;
export type Network = (typeof networks)[number];
/**
 * How the network provisions a data bundle (docs/api.md "Data plan types"): SME data share, gifting from a
 * reseller SIM, corporate gifting, or the network's own retail bundle. Resellers price and route them apart.
 */
export const plan_types = ['sme', 'gifting', 'corporate', 'direct'] as const;
export type PlanType = (typeof plan_types)[number];
export const tv_providers = ['dstv', 'gotv', 'startimes'] as const;
export type TvProvider = (typeof tv_providers)[number];

export interface DataPlan {
  plan_id: string;
  name: string;
  network: Network;
  plan_type: PlanType;
  amount_kobo: number;
  validity: string;
  enabled: boolean;
}

export interface TvPackage {
  package_code: string;
  name: string;
  provider: TvProvider;
  amount_kobo: number;
  /** Off: not listed, not sold (the operator, or the sync on drift; docs/operations.md "Catalog sync"). */
  enabled: boolean;
}

/** Any sellable item as the sync and the drift report see it, whatever its list. */
export interface SellableView {
  id: string;
  name: string;
  amount_kobo: number;
  enabled: boolean;
}

/**
 * An item the sync learned from an upstream's variation list (src/services/catalog-sync.ts): kept in the
 * store under `synced:<kind>:<id>` so a restart knows it; what the operator changes later (price, enabled)
 * is kept apart, as for shipped items.
 */
export interface SyncedItem {
  kind: SellableKind;
  id: string;
  name: string;
  /** The network (data), provider (TV) or group (education, internet) it belongs to. */
  narrow: string;
  amount_kobo: number;
  vtpass: VtpassCode;
  validity: string;
  /** Items of education and internet lists: their family's attributes. */
  attributes?: Record<string, string | number | boolean>;
}

/** Items the sync may add across every list, a bound on what a runaway upstream list can grow. */
export const synced_items_max = 5_000;

export interface Disco {
  code: string;
  service_id: string;
  name: string;
}

function synced_plan(item: SyncedItem): DataPlan {
  return { plan_id: item.id, name: item.name, network: item.narrow as Network, plan_type: 'direct', amount_kobo: item.amount_kobo, validity: item.validity, enabled: false };
}

export const catalog_dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'data', 'catalog');

function read_json<T>(name: string): T {
  return JSON.parse(readFileSync(join(catalog_dir, name), 'utf8')) as T;
}

function kobo(amount: number, what: string): number {
  const parsed = naira_to_kobo(amount);
  if (!parsed.ok) fail(`catalog amount of ${what} ${parsed.reason}`);
  return parsed.kobo;
}

export class Catalog {
  private readonly plans = new Map<string, DataPlan>();
  /** Items the sync added (all lists), against synced_items_max. */
  private synced_count = 0;
  private readonly synced_keys = new Set<string>();
  /** Per network, in catalog order; rebuilt when the operator changes a plan. */
  private readonly plans_by_network = new Map<Network, DataPlan[]>();
  private readonly packages = new Map<string, TvPackage>();
  readonly discos: Disco[];
  private readonly discos_by_key = new Map<string, Disco>();
  /** The lists of the later product families (src/services/products/item-list.ts), by kind. */
  private readonly item_lists = new Map<string, ItemList>();

  constructor(private readonly store: Store) {
    const shipped = read_json<{ plans: { plan_id: string; name: string; network: Network; plan_type: PlanType; amount: number; validity: string; enabled: boolean }[] }>('data-plans.json');
    for (const plan of shipped.plans) {
      if (!(networks as readonly string[]).includes(plan.network)) fail(`plan ${plan.plan_id} has unknown network ${plan.network}`);
      if (!(plan_types as readonly string[]).includes(plan.plan_type)) fail(`plan ${plan.plan_id} has unknown plan_type ${plan.plan_type}`);
      const stored = store.catalog.get(`plan:${plan.plan_id}`) as (Omit<DataPlan, 'plan_type'> & { plan_type?: PlanType }) | undefined;
      // A plan the operator changed before plan types existed is stored without one: it takes the shipped type.
      this.plans.set(plan.plan_id, stored !== undefined ? { ...stored, plan_type: stored.plan_type ?? plan.plan_type } : {
        plan_id: plan.plan_id,
        name: plan.name,
        network: plan.network,
        plan_type: plan.plan_type,
        amount_kobo: kobo(plan.amount, plan.plan_id),
        validity: plan.validity,
        enabled: plan.enabled,
      });
    }
    for (const item of read_json<{ packages: { package_code: string; name: string; provider: TvProvider; amount: number }[] }>('tv-packages.json').packages) {
      const stored = store.catalog.get(`package:${item.package_code}`) as { amount_kobo: number; enabled: boolean } | undefined;
      this.packages.set(item.package_code, {
        package_code: item.package_code, name: item.name, provider: item.provider,
        amount_kobo: stored?.amount_kobo ?? kobo(item.amount, item.package_code), enabled: stored?.enabled ?? true,
      });
    }
    // What the sync learned before a restart: disabled until the operator prices and enables them.
    for (const { value } of store.catalog.getRange({ start: 'synced:', end: 'synced;' })) {
      const item = value as SyncedItem;
      this.synced_count++;
      this.synced_keys.add(`${item.kind}:${item.id}`);
      register_codes(item.kind, item.id, { vtpass: item.vtpass });
      if (item.kind === 'data-plans') {
        const stored = store.catalog.get(`plan:${item.id}`) as DataPlan | undefined;
        this.plans.set(item.id, stored ?? synced_plan(item));
      } else if (item.kind === 'tv-packages') {
        const stored = store.catalog.get(`package:${item.id}`) as { amount_kobo: number; enabled: boolean } | undefined;
        this.packages.set(item.id, { package_code: item.id, name: item.name, provider: item.narrow as TvProvider, amount_kobo: stored?.amount_kobo ?? item.amount_kobo, enabled: stored?.enabled ?? false });
      }
      // Items of the later lists are loaded by their ItemList (products/item-list.ts).
    }
    this.index_plans();
    this.discos = read_json<{ discos: Disco[] }>('discos.json').discos;
    for (const disco of this.discos) {
      this.discos_by_key.set(disco.service_id, disco);
      this.discos_by_key.set(disco.code.toLowerCase(), disco);
    }
  }

  private index_plans(): void {
    this.plans_by_network.clear();
    for (const network of networks) this.plans_by_network.set(network, []);
    for (const plan of this.plans.values()) this.plans_by_network.get(plan.network)!.push(plan);
  }

  /** Enabled plans, in catalog order, of one network and one plan type when given (null: all). */
  enabled_plans(network: Network | null, plan_type: PlanType | null = null): DataPlan[] {
    const out: DataPlan[] = [];
    for (const n of network === null ? networks : [network]) {
      for (const plan of this.plans_by_network.get(n)!) if (plan.enabled && (plan_type === null || plan.plan_type === plan_type)) out.push(plan);
    }
    return out;
  }

  plan(plan_id: string): DataPlan | undefined {
    return this.plans.get(plan_id);
  }

  /** Operator change: journaled, effective for the next request. */
  update_plan(journal: Journal, plan_id: string, patch: { enabled?: boolean; amount_kobo?: number; plan_type?: PlanType }): DataPlan | undefined {
    const plan = this.plans.get(plan_id);
    if (plan === undefined) return undefined;
    const next: DataPlan = {
      ...plan,
      enabled: patch.enabled ?? plan.enabled,
      amount_kobo: patch.amount_kobo ?? plan.amount_kobo,
      plan_type: patch.plan_type ?? plan.plan_type,
    };
    this.plans.set(plan_id, next);
    this.index_plans();
    journal.put(0, this.store.catalog, `plan:${plan_id}`, next);
    return next;
  }

  /** Enabled packages, of one provider when given; every package with `all` (the operator's view). */
  packages_of(provider: TvProvider | null, all = false): TvPackage[] {
    const out: TvPackage[] = [];
    for (const item of this.packages.values()) if ((all || item.enabled) && (provider === null || item.provider === provider)) out.push(item);
    return out;
  }

  /** Operator change of a TV package (or the sync disabling one): journaled, effective for the next request. */
  update_package(journal: Journal, code: string, patch: { enabled?: boolean; amount_kobo?: number }): TvPackage | undefined {
    const item = this.packages.get(code);
    if (item === undefined) return undefined;
    const next: TvPackage = { ...item, enabled: patch.enabled ?? item.enabled, amount_kobo: patch.amount_kobo ?? item.amount_kobo };
    this.packages.set(code, next);
    journal.put(0, this.store.catalog, `package:${code}`, { amount_kobo: next.amount_kobo, enabled: next.enabled });
    return next;
  }

  /** An item of any sellable list, as the sync sees it. */
  sellable(kind: SellableKind, id: string): SellableView | undefined {
    switch (kind) {
      case 'data-plans': {
        const plan = this.plans.get(id);
        return plan && { id, name: plan.name, amount_kobo: plan.amount_kobo, enabled: plan.enabled };
      }
      case 'tv-packages': {
        const item = this.packages.get(id);
        return item && { id, name: item.name, amount_kobo: item.amount_kobo, enabled: item.enabled };
      }
      default: {
        const item: CatalogItem | undefined = this.item_list(kind).get(id);
        return item && { id, name: item.name, amount_kobo: item.amount_kobo, enabled: item.enabled };
      }
    }
  }

  /** Every id of a sellable list, in catalog order. */
  sellable_ids(kind: SellableKind): string[] {
    switch (kind) {
      case 'data-plans': return [...this.plans.keys()];
      case 'tv-packages': return [...this.packages.keys()];
      default: return this.item_list(kind).list(null, true).map((item) => item.code);
    }
  }

  /** Whether the sync added the item (it ships in no file). */
  is_synced(kind: SellableKind, id: string): boolean {
    return this.synced_keys.has(`${kind}:${id}`);
  }

  /** Disables an item of any list (the sync, on drift): journaled like an operator change. */
  disable(journal: Journal, kind: SellableKind, id: string): void {
    if (kind === 'data-plans') this.update_plan(journal, id, { enabled: false });
    else if (kind === 'tv-packages') this.update_package(journal, id, { enabled: false });
    else this.item_list(kind).update(journal, id, { enabled: false });
  }

  /**
   * A variation the sync found that no item carries: added disabled, at the upstream's price, until the
   * operator prices and enables it. False when the id is taken or synced_items_max is reached.
   */
  add_synced(journal: Journal, item: SyncedItem): boolean {
    if (this.synced_count >= synced_items_max || this.sellable(item.kind, item.id) !== undefined) return false;
    this.synced_count++;
    this.synced_keys.add(`${item.kind}:${item.id}`);
    register_codes(item.kind, item.id, { vtpass: item.vtpass });
    journal.put(0, this.store.catalog, `synced:${item.kind}:${item.id}`, item);
    if (item.kind === 'data-plans') {
      this.plans.set(item.id, synced_plan(item));
      this.index_plans();
    } else if (item.kind === 'tv-packages') {
      this.packages.set(item.id, { package_code: item.id, name: item.name, provider: item.narrow as TvProvider, amount_kobo: item.amount_kobo, enabled: false });
    } else {
      this.item_list(item.kind).add({ code: item.id, name: item.name, group: item.narrow, amount_kobo: item.amount_kobo, enabled: false, attributes: item.attributes ?? {} });
    }
    return true;
  }

  package(code: string): TvPackage | undefined {
    return this.packages.get(code);
  }

  /** The `disco` field takes the service ID; the code, in any case, is accepted too (docs/decisions.md). */
  disco(text: string): Disco | undefined {
    return this.discos_by_key.get(text) ?? this.discos_by_key.get(text.toLowerCase());
  }

  /** A family's list (data/catalog/<kind>.json), loaded on first use: the routes ask for theirs at start. */
  item_list(kind: string): ItemList {
    let list = this.item_lists.get(kind);
    if (list === undefined) {
      if (!/^[a-z-]{1,40}$/.test(kind)) fail(`catalog kind ${kind} is not a file name`);
      list = new ItemList(this.store, kind, read_json(`${kind}.json`));
      this.item_lists.set(kind, list);
    }
    return list;
  }

  /** Whether a kind is a list of a family on sale (loaded at start by the routes). */
  has_item_list(kind: string): boolean {
    return this.item_lists.has(kind);
  }
}
