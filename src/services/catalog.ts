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
import { ItemList } from './products/item-list.js';

export const networks = ['mtn', 'airtel', 'glo', '9mobile'] as const;
export type Network = (typeof networks)[number];
export const tv_providers = ['dstv', 'gotv', 'startimes'] as const;
export type TvProvider = (typeof tv_providers)[number];

export interface DataPlan {
  plan_id: string;
  name: string;
  network: Network;
  amount_kobo: number;
  validity: string;
  enabled: boolean;
}

export interface TvPackage {
  package_code: string;
  name: string;
  provider: TvProvider;
  amount_kobo: number;
}

export interface Disco {
  code: string;
  service_id: string;
  name: string;
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
  /** Per network, in catalog order; rebuilt when the operator changes a plan. */
  private readonly plans_by_network = new Map<Network, DataPlan[]>();
  private readonly packages = new Map<string, TvPackage>();
  readonly discos: Disco[];
  private readonly discos_by_key = new Map<string, Disco>();
  /** The lists of the later product families (src/services/products/item-list.ts), by kind. */
  private readonly item_lists = new Map<string, ItemList>();

  constructor(private readonly store: Store) {
    const shipped = read_json<{ plans: { plan_id: string; name: string; network: Network; amount: number; validity: string; enabled: boolean }[] }>('data-plans.json');
    for (const plan of shipped.plans) {
      if (!(networks as readonly string[]).includes(plan.network)) fail(`plan ${plan.plan_id} has unknown network ${plan.network}`);
      const stored = store.catalog.get(`plan:${plan.plan_id}`) as DataPlan | undefined;
      this.plans.set(plan.plan_id, stored ?? {
        plan_id: plan.plan_id,
        name: plan.name,
        network: plan.network,
        amount_kobo: kobo(plan.amount, plan.plan_id),
        validity: plan.validity,
        enabled: plan.enabled,
      });
    }
    this.index_plans();
    for (const item of read_json<{ packages: { package_code: string; name: string; provider: TvProvider; amount: number }[] }>('tv-packages.json').packages) {
      this.packages.set(item.package_code, { package_code: item.package_code, name: item.name, provider: item.provider, amount_kobo: kobo(item.amount, item.package_code) });
    }
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

  enabled_plans(network: Network | null): DataPlan[] {
    const out: DataPlan[] = [];
    for (const n of network === null ? networks : [network]) {
      for (const plan of this.plans_by_network.get(n)!) if (plan.enabled) out.push(plan);
    }
    return out;
  }

  plan(plan_id: string): DataPlan | undefined {
    return this.plans.get(plan_id);
  }

  /** Operator change: journaled, effective for the next request. */
  update_plan(journal: Journal, plan_id: string, patch: { enabled?: boolean; amount_kobo?: number }): DataPlan | undefined {
    const plan = this.plans.get(plan_id);
    if (plan === undefined) return undefined;
    const next: DataPlan = {
      ...plan,
      enabled: patch.enabled ?? plan.enabled,
      amount_kobo: patch.amount_kobo ?? plan.amount_kobo,
    };
    this.plans.set(plan_id, next);
    this.index_plans();
    journal.put(0, this.store.catalog, `plan:${plan_id}`, next);
    return next;
  }

  packages_of(provider: TvProvider | null): TvPackage[] {
    const out: TvPackage[] = [];
    for (const item of this.packages.values()) if (provider === null || item.provider === provider) out.push(item);
    return out;
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
