// Upstream routing and failover (docs/decisions.md "Upstream routing and failover"): one Provider for live
// keys above the adapters of every configured upstream (vtpass: src/services/live-provider.ts,
// flutterwave: ./flutterwave.ts). A new order goes to the first healthy upstream of its product's route;
// the order desk moves it to the next one only after a definite refusal before processing, and every
// re-query goes to the upstream that holds it (the last of the order's `attempts`). A product can be
// bought while one upstream of its route is healthy; 503 transaction.provider_unavailable only when none is.
import type { Logger } from 'pino';
import type { OrderRecord, ServiceType } from '../order.js';
import type { CatalogAnswer, CustomerCheck, Provider, ProviderResult, PurchaseIntent, UpdateListener, VerifyResult } from '../provider.js';
import type { CircuitBreaker } from '../circuit-breaker.js';
import { route_for, type RouteTable } from './routes.js';

/** An upstream adapter: a Provider with a name in routes and a circuit. */
export interface UpstreamAdapter extends Provider {
  readonly kind: string;
  readonly breaker: CircuitBreaker;
  /** Whether it sells this product at all (it has codes for it); absent: every product. */
  offers?(intent: ProductIntent): boolean;
}

export type ProductIntent = Pick<PurchaseIntent, 'service_type' | 'network' | 'disco' | 'provider'>;

export type ProductStatus = 'available' | 'degraded' | 'unavailable';

export interface ProductState {
  product: string;
  service_type: ServiceType;
  status: ProductStatus;
  retry_after_s: number | null;
}

/** What the router tells the operator's metrics beyond the calls each adapter counts. */
export interface RouterObserver {
  upstream_outcome(upstream: string, operation: 'pay' | 'requery', outcome: string): void;
  upstream_failover(from: string, to: string): void;
}

/** The shortest Retry-After a refused purchase is given, as before there were several upstreams. */
const retry_after_min_s = 60;

export class UpstreamRouter implements Provider {
  readonly name = 'live';
  readonly instant = false;
  private table: RouteTable;
  private readonly status_listeners: ((changed: ProductState[]) => void)[] = [];
  private last_states = new Map<string, ProductStatus>();

  constructor(
    readonly upstreams: ReadonlyMap<string, UpstreamAdapter>,
    table: RouteTable,
    /** Every product the catalog sells, narrowed ("airtime/mtn", …), in the order the status lists them. */
    readonly products: readonly { product: string; service_type: ServiceType; narrow: string }[],
    private readonly log: Logger,
    private readonly observer: RouterObserver,
  ) {
    this.table = table;
    for (const state of this.states()) this.last_states.set(state.product, state.status);
  }

  get routes(): RouteTable {
    return this.table;
  }

  /** The operator changed the routes: effective for the next purchase; status changes are told. */
  set_routes(table: RouteTable): void {
    this.table = table;
    this.check_status();
  }

  on_update(listener: UpdateListener): void {
    for (const upstream of this.upstreams.values()) upstream.on_update(listener);
  }

  /** Called with the products whose status changed (a circuit opened or closed, a route changed). */
  on_status_changed(listener: (changed: ProductState[]) => void): void {
    this.status_listeners.push(listener);
  }

  /** Circuits change on their own (an open period ends); a change of one recomputes every product. */
  check_status(): void {
    const changed: ProductState[] = [];
    for (const state of this.states()) {
      if (this.last_states.get(state.product) !== state.status) changed.push(state);
      this.last_states.set(state.product, state.status);
    }
    if (changed.length === 0) return;
    this.log.info({ changed: changed.map((s) => `${s.product}:${s.status}`).slice(0, 20), count: changed.length }, 'service status changed');
    for (const listener of this.status_listeners) listener(changed);
  }

  /**
   * International airtime's catalog, from the first upstream of its route that has one (a VTpass upstream):
   * the listing follows the route a purchase would take (docs/upstreams.md "International airtime and data").
   */
  vtpass_get(path: string, operation: string): Promise<CatalogAnswer> {
    for (const upstream of this.route({ service_type: 'international', network: null, disco: null, provider: 'foreign-airtime' })) {
      if (upstream.vtpass_get !== undefined) return upstream.vtpass_get(path, operation);
    }
    return Promise.resolve({ error: 'no upstream of the international route lists international airtime' });
  }

  private route(intent: ProductIntent): UpstreamAdapter[] {
    const out: UpstreamAdapter[] = [];
    // A stored route may name an upstream the configuration no longer has: it is skipped.
    for (const name of route_for(this.table, intent)) {
      const upstream = this.upstreams.get(name);
      if (upstream !== undefined && (upstream.offers?.(intent) ?? true)) out.push(upstream);
    }
    return out;
  }

  private static healthy(upstream: UpstreamAdapter): boolean {
    return upstream.breaker.retry_after_s() === 0;
  }

  /** The status of every product, from its route and the upstreams' circuits. */
  states(): ProductState[] {
    return this.products.map(({ product, service_type, narrow }) => {
      const intent = { service_type, network: narrow, disco: narrow, provider: narrow };
      const route = this.route(intent);
      const healthy = route.filter(UpstreamRouter.healthy).length;
      const status: ProductStatus = healthy === 0 ? 'unavailable' : healthy < route.length ? 'degraded' : 'available';
      return { product, service_type, status, retry_after_s: status === 'unavailable' ? this.retry_after_s(route) : null };
    });
  }

  private retry_after_s(route: UpstreamAdapter[]): number {
    if (route.length === 0) return retry_after_min_s;
    return Math.max(retry_after_min_s, Math.min(...route.map((u) => u.breaker.retry_after_s())));
  }

  unavailable(intent: PurchaseIntent): { retry_after_s: number } | null {
    const route = this.route(intent);
    if (route.some(UpstreamRouter.healthy)) return null;
    return { retry_after_s: this.retry_after_s(route) };
  }

  first_upstream(intent: PurchaseIntent): string | null {
    return this.route(intent).find(UpstreamRouter.healthy)?.name ?? null;
  }

  next_upstream(order: OrderRecord): string | null {
    const tried = new Set((order.attempts ?? []).map((a) => a.upstream));
    const next = this.route(order).find((u) => !tried.has(u.name) && UpstreamRouter.healthy(u));
    if (next === undefined) return null;
    const from = order.attempts?.[order.attempts.length - 1]?.upstream ?? '';
    this.observer.upstream_failover(from, next.name);
    return next.name;
  }

  /** The upstream that holds an order: its last attempt's; orders from before routing: the first configured. */
  private holder(order: OrderRecord): UpstreamAdapter | undefined {
    const attempts = order.attempts;
    if (attempts === undefined || attempts.length === 0) return this.upstreams.values().next().value;
    return this.upstreams.get(attempts[attempts.length - 1].upstream);
  }

  async pay(order: OrderRecord): Promise<ProviderResult> {
    const upstream = this.holder(order);
    if (upstream === undefined) return { outcome: 'unknown', reason: 'the upstream holding this order is not configured', not_sent: true };
    const result = await upstream.pay(order);
    this.observer.upstream_outcome(upstream.name, 'pay', outcome_label(result));
    return result;
  }

  async requery(order: OrderRecord): Promise<ProviderResult> {
    const upstream = this.holder(order);
    // Never asked elsewhere: only the holder knows whether it delivered. The order waits for the operator.
    if (upstream === undefined) return { outcome: 'unknown', reason: 'the upstream holding this order is not configured' };
    const result = await upstream.requery(order);
    this.observer.upstream_outcome(upstream.name, 'requery', outcome_label(result));
    return result;
  }

  /** Verification changes nothing upstream: an unavailable answer may be asked of the next upstream. */
  private async verify(intent: Pick<PurchaseIntent, 'service_type' | 'disco' | 'provider'>, ask: (upstream: UpstreamAdapter) => VerifyResult | Promise<VerifyResult>): Promise<VerifyResult> {
    let last: VerifyResult = { outcome: 'unavailable', reason: 'every upstream of the route is down' };
    for (const upstream of this.route(intent)) {
      if (!UpstreamRouter.healthy(upstream)) continue;
      last = await ask(upstream);
      if (last.outcome !== 'unavailable') return last;
    }
    return last;
  }

  verify_meter(disco_service_id: string, meter_number: string, meter_type: 'prepaid' | 'postpaid'): Promise<VerifyResult> {
    return this.verify({ service_type: 'electricity', disco: disco_service_id }, (u) => u.verify_meter(disco_service_id, meter_number, meter_type));
  }

  verify_smartcard(provider: string, smartcard_number: string): Promise<VerifyResult> {
    return this.verify({ service_type: 'tv', provider }, (u) => u.verify_smartcard(provider, smartcard_number));
  }

  verify_customer(check: CustomerCheck): Promise<VerifyResult> {
    return this.verify({ service_type: check.service_type, provider: check.provider }, (u) => u.verify_customer(check));
  }
}

/**
 * An answer's outcome as the metrics count it: the outcome, with the unclear answers told apart (not_sent,
 * no_status: a status answer without a status, duplicate: VTpass 019) and a refusal before processing
 * (refused) apart from a failure (docs/upstreams.md "Metrics").
 */
export function outcome_label(result: ProviderResult): string {
  if (result.outcome === 'unknown') return result.not_sent === true ? 'not_sent' : result.unclear ?? 'unknown';
  if (result.outcome === 'failed' && result.refused === true) return 'refused';
  return result.outcome;
}
