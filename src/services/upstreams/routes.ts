// Routes (docs/operations.md "Routes"): for each product an ordered list of upstreams, with a default route
// for everything else. A product is a service type ("airtime"), or a service type narrowed by network,
// disco or TV provider ("airtime/mtn", "electricity/ikeja-electric", "tv/dstv"); the most specific route
// that exists wins. The operator changes them live; they are journaled in the catalog database like the
// operator's plan changes (src/services/catalog.ts), so they survive restarts and replicate in cluster mode.
import type { Journal } from '../../journal/journal.js';
import type { Store } from '../../journal/store.js';
import type { PurchaseIntent } from '../provider.js';
import { service_type_names, service_types_text, type ServiceType } from '../order.js';

export interface RouteTable {
  /** The route of every product without one of its own. */
  default: string[];
  /** Product → its route, most specific first when looked up. */
  products: Record<string, string[]>;
}

/** Products with their own route, and upstreams in one route: bounds on what the operator may store. */
export const routes_max = 512;
export const route_upstreams_max = 16;

export const routes_store_key = 'upstream-routes';

export const service_types: readonly ServiceType[] = service_type_names;

/** "airtime", or "airtime/mtn": the narrowing value of a purchase for its service type. */
export function product_of(intent: Pick<PurchaseIntent, 'service_type' | 'network' | 'disco' | 'provider'>): string | null {
  switch (intent.service_type) {
    case 'airtime':
    case 'data':
      return intent.network ?? null;
    case 'electricity':
      return intent.disco ?? null;
    case 'tv':
    case 'education':
    case 'internet':
    case 'showmax':
    case 'international':
      return intent.provider ?? null;
  }
}

/** The most specific route of a purchase: its product's, its service type's, else the default. */
export function route_for(table: RouteTable, intent: Pick<PurchaseIntent, 'service_type' | 'network' | 'disco' | 'provider'>): string[] {
  const narrow = product_of(intent);
  if (narrow !== null) {
    const route = table.products[`${intent.service_type}/${narrow}`];
    if (route !== undefined) return route;
  }
  return table.products[intent.service_type] ?? table.default;
}

export type RouteCheck = { ok: true; table: RouteTable } | { ok: false; details: { field: string; message: string }[] };

/**
 * Checks the routes the operator sends: every upstream configured, no upstream twice in a route, every
 * product known and routed once (`products` holds the service types and the narrowed products, such as
 * "airtime/mtn"). Details name fields as the request does (default.1, routes.0.upstreams.2). Nothing is
 * changed on an error.
 */
export function check_routes(input: { default: string[]; routes?: { product: string; upstreams: string[] }[] }, upstream_names: readonly string[], products: ReadonlySet<string>): RouteCheck {
  const details: { field: string; message: string }[] = [];
  const check_route = (field: string, route: string[]) => {
    if (route.length === 0) details.push({ field, message: 'must list at least one upstream' });
    const seen = new Set<string>();
    for (const [i, name] of route.entries()) {
      if (!upstream_names.includes(name)) details.push({ field: `${field}.${i}`, message: `names no configured upstream (configured: ${upstream_names.join(', ') || 'none'})` });
      else if (seen.has(name)) details.push({ field: `${field}.${i}`, message: `lists "${name}" twice` });
      seen.add(name);
    }
  };
  check_route('default', input.default);
  const table: RouteTable = { default: [...input.default], products: {} };
  for (const [j, route] of (input.routes ?? []).entries()) {
    if (!products.has(route.product)) details.push({ field: `routes.${j}.product`, message: `is not a product: a service type (${service_types_text}) or one narrowed by network, disco or provider, such as airtime/mtn` });
    else if (table.products[route.product] !== undefined) details.push({ field: `routes.${j}.product`, message: 'is routed twice' });
    check_route(`routes.${j}.upstreams`, route.upstreams);
    table.products[route.product] = [...route.upstreams];
  }
  if (details.length > 0) return { ok: false, details: details.slice(0, 20) };
  return { ok: true, table };
}

/** The routes as stored, or the default: every configured upstream, in configuration order. */
export function load_routes(store: Store, upstream_names: readonly string[]): RouteTable {
  const stored = store.catalog.get(routes_store_key) as RouteTable | undefined;
  if (stored === undefined || !Array.isArray(stored.default)) return { default: [...upstream_names], products: {} };
  return stored;
}

export function save_routes(journal: Journal, store: Store, table: RouteTable): void {
  journal.put(0, store.catalog, routes_store_key, table);
}
