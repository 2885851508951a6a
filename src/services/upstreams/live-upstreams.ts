// Builds the live provider from the configuration (docs/operations.md "Upstreams and routes"): one adapter per
// configured upstream, by kind, and the router above them with the routes as stored.
import type { Logger } from 'pino';
import type { Clock } from '../../lib/clock.js';
import type { TimerWheel } from '../../lib/timer-wheel.js';
import type { UpstreamConfig } from '../../config.js';
import type { Store } from '../../journal/store.js';
import type { Catalog } from '../catalog.js';
import { networks, tv_providers } from '../catalog.js';
import { exams } from '../products/education.js';
import { internet_providers } from '../products/internet.js';
import { showmax_provider } from '../products/showmax.js';
import { international_provider } from '../products/international.js';
import type { ServiceType } from '../order.js';
import { LiveProvider } from '../live-provider.js';
import { FlutterwaveProvider } from './flutterwave.js';
import { UpstreamRouter, type RouterObserver, type UpstreamAdapter } from './router.js';
import { load_routes, service_types } from './routes.js';
import { circuit_open_ms, type ProviderObserver } from './upstream-client.js';

/** Every product a route can name: each service type, and each narrowed by network, disco or TV provider. */
export function catalog_products(catalog: Catalog): { product: string; service_type: ServiceType; narrow: string }[] {
  const out: { product: string; service_type: ServiceType; narrow: string }[] = [];
  for (const network of networks) out.push({ product: `airtime/${network}`, service_type: 'airtime', narrow: network });
  for (const network of networks) out.push({ product: `data/${network}`, service_type: 'data', narrow: network });
  for (const disco of catalog.discos) out.push({ product: `electricity/${disco.service_id}`, service_type: 'electricity', narrow: disco.service_id });
  for (const provider of tv_providers) out.push({ product: `tv/${provider}`, service_type: 'tv', narrow: provider });
  for (const exam of exams) out.push({ product: `education/${exam}`, service_type: 'education', narrow: exam });
  for (const provider of internet_providers) out.push({ product: `internet/${provider}`, service_type: 'internet', narrow: provider });
  out.push({ product: `showmax/${showmax_provider}`, service_type: 'showmax', narrow: showmax_provider });
  out.push({ product: `international/${international_provider}`, service_type: 'international', narrow: international_provider });
  return out;
}

export function route_products(catalog: Catalog): Set<string> {
  return new Set([...service_types, ...catalog_products(catalog).map((p) => p.product)]);
}

/**
 * `phone_of`: the account's phone, sent to VTpass as the customer's for purchases whose request has none
 * (electricity, TV: docs/upstreams.md "The customer's phone").
 */
export function build_router(configs: readonly UpstreamConfig[], store: Store, catalog: Catalog, clock: Clock, wheel: TimerWheel, log: Logger, observer: ProviderObserver & RouterObserver, phone_of: (account_id: number) => string | null = () => null, email_of: (account_id: number) => string | null = () => null): UpstreamRouter {
  let router: UpstreamRouter | null = null;
  let check_queued = false;
  // A circuit changes inside a call or a status read: the products' statuses are recomputed after it, once.
  const circuit_changed = (state: string) => {
    if (!check_queued) {
      check_queued = true;
      queueMicrotask(() => {
        check_queued = false;
        router?.check_status();
      });
    }
    // An open period ends without a call; look again once it has, so "available" is told without traffic.
    if (state === 'open') wheel.schedule(circuit_open_ms + 100, () => router?.check_status());
  };
  const adapters = new Map<string, UpstreamAdapter>();
  for (const config of configs) {
    const adapter: UpstreamAdapter = config.kind === 'flutterwave'
      ? new FlutterwaveProvider(config, clock, wheel, log, observer, circuit_changed)
      : new LiveProvider(config, clock, wheel, log, observer, config.name, circuit_changed);
    if (adapter instanceof LiveProvider) {
      adapter.phone_of = phone_of;
      adapter.email_of = email_of;
    }
    adapters.set(config.name, adapter);
  }
  const names = configs.map((c) => c.name);
  router = new UpstreamRouter(adapters, load_routes(store, names), catalog_products(catalog), log, observer);
  return router;
}
