// Prometheus metrics (docs/operations.md "Metrics"), through prom-client, the ecosystem's client: every
// metric has HELP and TYPE, times are in seconds and sizes in bytes, counters end in _total, and the
// process metrics (CPU, memory, event-loop lag, GC, file descriptors) are prom-client's defaults.
//
// Hot path: a request's counter and histogram series are plain numbers kept per route and status
// (RouteStats), handed to prom-client only when /metrics is read. prom-client checks and hashes the
// label set on every inc() and observe(), even through a labels() child: in the 2026-11-24 profile
// that was 1.5 of a wallet read's 6.5 µs of JavaScript, and the purchase counters of counting_sink
// paid it twice per purchase (docs/benchmarks.md "Where a purchase's CPU goes").
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type LabelValues } from 'prom-client';
import type { JournalObserver } from '../journal/journal.js';
import type { EventSink } from '../engine/engine.js';
import type { WebhookAttemptResult, WebhookObserver } from '../webhooks/webhook-observer.js';
import { commission_of, type OrderRecord } from '../engine/order-record.js';

const latency_buckets_s = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const commit_size_buckets = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 20000];
const delivery_lag_buckets_s = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200, 28800, 86400];

/** How long /metrics reads event-loop lag over (prom-client's monitorEventLoopDelay resolution). */
const event_loop_resolution_ms = 10;

export type PurchaseOutcome = 'placed' | 'delivered' | 'failed';
export type ProviderCallResult = 'answered' | 'error' | 'timeout' | 'circuit_open';

const circuit_values = { closed: 0, half_open: 1, open: 2 } as const;

/** One series of a labelled counter: increments counted here until a scrape hands them to prom-client. */
interface CounterSlot {
  labels: LabelValues<string>;
  pending: number;
}

/**
 * The series of one labelled counter, kept as plain numbers between scrapes. A series is created on
 * its first increment and flushed in creation order, so /metrics lists the series as prom-client did
 * when it was incremented directly (a series appears once it has counted something).
 */
class PendingCounter {
  private readonly slots: CounterSlot[] = [];

  constructor(readonly counter: Counter<string>) {}

  slot(labels: LabelValues<string>): CounterSlot {
    const slot = { labels, pending: 0 };
    this.slots.push(slot);
    return slot;
  }

  /** Called by prom-client (the counter's collect) before it reads the counter for /metrics. */
  flush(): void {
    for (const slot of this.slots) {
      if (slot.pending === 0) continue;
      this.counter.inc(slot.labels, slot.pending);
      slot.pending = 0;
    }
  }
}

/** One series of LatencyHistogram: observations per bucket (not cumulative), their sum and count. */
interface LatencySeries {
  labels: LabelValues<string>;
  per_bucket: Float64Array;
  sum: number;
  count: number;
}

/**
 * A labelled histogram that prom-client's registry renders like its own Histogram (the same lines in
 * the same order: each series' buckets, +Inf, _sum and _count, series in the order of their first
 * observation), observed without prom-client's per-call label check and hash.
 */
class LatencyHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  /** Series that have observed something, in the order of their first observation. */
  private observed: LatencySeries[] = [];

  constructor(readonly name: string, readonly help: string, private readonly upper_bounds: readonly number[], registry: Registry) {
    // Registered at construction, like prom-client's metrics: /metrics lists metrics in that order.
    registry.registerMetric(this as unknown as Histogram);
  }

  series(labels: LabelValues<string>): LatencySeries {
    return { labels, per_bucket: new Float64Array(this.upper_bounds.length), sum: 0, count: 0 };
  }

  observe(series: LatencySeries, value: number): void {
    if (series.count === 0) this.observed.push(series);
    // Above the last bound only +Inf (the count) holds it, as in prom-client.
    for (let i = 0; i < this.upper_bounds.length; i++) {
      if (value <= this.upper_bounds[i]) {
        series.per_bucket[i] += 1;
        break;
      }
    }
    series.sum += value;
    series.count += 1;
  }

  /** What the registry renders: prom-client's Histogram.getForPromString shape. */
  getForPromString() {
    const values: { labels: Record<string, string | number>; sharedLabels: LabelValues<string>; value: number; metricName: string; exemplar?: null }[] = [];
    const bucket_name = `${this.name}_bucket`;
    for (const series of this.observed) {
      let cumulative = 0;
      for (let i = 0; i < this.upper_bounds.length; i++) {
        cumulative += series.per_bucket[i];
        values.push({ labels: { le: this.upper_bounds[i] }, sharedLabels: series.labels, value: cumulative, metricName: bucket_name, exemplar: null });
      }
      values.push({ labels: { le: '+Inf' }, sharedLabels: series.labels, value: series.count, metricName: bucket_name, exemplar: null });
      values.push({ labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: series.labels, value: series.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The same with the labels merged, as prom-client's get() (getMetricsAsJSON). */
  get() {
    const data = this.getForPromString();
    return { ...data, values: data.values.map(({ sharedLabels, labels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } })) };
  }

  reset(): void {
    for (const series of this.observed) {
      series.per_bucket.fill(0);
      series.sum = 0;
      series.count = 0;
    }
    this.observed = [];
  }
}

/** The naira metrics of delivered orders of one service type, environment, biller and upstream, summed in kobo. */
interface SalesSeries {
  labels: { service_type: string; environment: string; biller: string; upstream: string };
  sold_kobo: number;
  commission_kobo: number;
  provider_commission_kobo: number;
}

/**
 * Series of the sales metrics: one per service type, environment, biller and upstream, so bounded by the
 * catalogue and the configured upstreams. The bound is stated anyway: past it, new combinations are summed
 * under biller "other", so a catalogue sync that adds items cannot grow the scrape without end.
 */
export const sales_series_max = 4096;

/** Kobo, held as an integer, shown in naira: the metrics are named _naira as operators read them. */
function naira(kobo: number): number {
  return kobo / 100;
}

/** Counters of one route of one server: requests by status and a latency histogram. */
export class RouteStats {
  private readonly by_status = new Map<number, CounterSlot>();
  private readonly latency: LatencySeries;

  constructor(private readonly metrics: Metrics, readonly server: string, readonly route: string) {
    this.latency = metrics.http_duration.series({ server, route });
  }

  observe(status: number, duration_ms: number): void {
    let slot = this.by_status.get(status);
    if (slot === undefined) {
      slot = this.metrics.http_requests.slot({ server: this.server, route: this.route, status: String(status) });
      this.by_status.set(status, slot);
    }
    slot.pending += 1;
    this.metrics.http_duration.observe(this.latency, duration_ms / 1000);
  }
}

export class Metrics implements JournalObserver, WebhookObserver {
  readonly registry = new Registry();
  /** One slot per server and route: bounded by the route table (plus "unmatched"). */
  private readonly routes = new Map<string, RouteStats>();

  readonly http_requests: PendingCounter = new PendingCounter(new Counter({
    name: 'billvend_http_requests_total',
    help: 'HTTP requests answered, by server (public or operator), route and status.',
    labelNames: ['server', 'route', 'status'],
    registers: [this.registry],
    collect: () => this.http_requests.flush(),
  }));
  readonly http_duration = new LatencyHistogram(
    'billvend_http_request_duration_seconds',
    'Time from a request\'s arrival to its reply, which waits for the durable commit of its changes.',
    latency_buckets_s,
    this.registry,
  );
  private readonly commit_changes = new Histogram({
    name: 'billvend_journal_commit_changes',
    help: 'Changes per journal commit (the size of a group commit).',
    buckets: commit_size_buckets,
    registers: [this.registry],
  });
  private readonly commit_duration = new Histogram({
    name: 'billvend_journal_commit_duration_seconds',
    help: 'Time from handing a batch to LMDB until it is flushed to disk.',
    buckets: latency_buckets_s,
    registers: [this.registry],
  });
  private readonly purchases: PendingCounter = new PendingCounter(new Counter({
    name: 'billvend_purchases_total',
    help: 'Purchases by service type, environment and outcome: placed (debited), delivered, failed (refunded).',
    labelNames: ['service_type', 'environment', 'outcome'],
    registers: [this.registry],
    collect: () => this.purchases.flush(),
  }));
  /** The purchases series by "service_type/environment/outcome": bounded by the product catalogue. */
  private readonly purchase_slots = new Map<string, CounterSlot>();
  private readonly refunds = new Counter({
    name: 'billvend_refunds_total',
    help: 'Failed purchases refunded to the wallet, by service type and environment.',
    labelNames: ['service_type', 'environment'],
    registers: [this.registry],
  });
  private readonly refunded_kobo = new Counter({
    name: 'billvend_refunded_kobo_total',
    help: 'Money refunded to wallets after failed purchases, in kobo.',
    labelNames: ['environment'],
    registers: [this.registry],
  });
  /**
   * docs/operations.md "Metrics": from an upstream's definite failure reaching us (or our decision that nothing
   * was sent) to the refund entry's commit on disk, per refunded order. The target is 30 s at p99.
   */
  private readonly refund_duration = new Histogram({
    name: 'billvend_refund_duration_seconds',
    help: 'Time from a definite failure (or the decision that nothing was sent) to its durable refund entry, per order.',
    labelNames: ['environment'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });
  private readonly provider_calls = new Counter({
    name: 'billvend_provider_calls_total',
    help: 'Calls to the live upstream aggregator, by operation and result.',
    labelNames: ['operation', 'result'],
    registers: [this.registry],
  });
  private readonly provider_duration = new Histogram({
    name: 'billvend_provider_call_duration_seconds',
    help: 'Time of one call to the live upstream aggregator, by operation.',
    labelNames: ['operation'],
    buckets: latency_buckets_s,
    registers: [this.registry],
  });
  private readonly provider_circuit = new Gauge({
    name: 'billvend_provider_circuit_state',
    help: 'The live upstream\'s circuit breaker: 0 closed, 1 half-open (one probe allowed), 2 open (calls refused).',
    registers: [this.registry],
  });
  // Per upstream (docs/operations.md "Upstreams and routes"): the series above sum over every upstream.
  private readonly upstream_calls = new Counter({
    name: 'billvend_upstream_calls_total',
    help: 'Calls to each live upstream, by operation and result (answered, error, timeout, circuit_open).',
    labelNames: ['upstream', 'operation', 'result'],
    registers: [this.registry],
  });
  private readonly upstream_duration = new Histogram({
    name: 'billvend_upstream_call_duration_seconds',
    help: 'Time of one call to each live upstream, by operation.',
    labelNames: ['upstream', 'operation'],
    buckets: latency_buckets_s,
    registers: [this.registry],
  });
  private readonly upstream_outcomes = new Counter({
    name: 'billvend_upstream_outcomes_total',
    help: 'What each live upstream answered, by operation (pay, requery) and outcome (delivered, failed, refused, processing, unknown, no_status, duplicate, not_sent, not_found; docs/upstreams.md).',
    labelNames: ['upstream', 'operation', 'outcome'],
    registers: [this.registry],
  });
  private readonly upstream_circuit = new Gauge({
    name: 'billvend_upstream_circuit_state',
    help: 'Each live upstream\'s circuit breaker: 0 closed, 1 half-open, 2 open.',
    labelNames: ['upstream'],
    registers: [this.registry],
  });
  private readonly upstream_callbacks = new Counter({
    name: 'billvend_upstream_callbacks_total',
    help: 'Callbacks received from each upstream, by outcome: accepted (a re-query started or joined), refused (unknown upstream or wrong token: 404), unreadable, ignored (another type), unknown_request, stale (an attempt that no longer holds its order), busy (503, too many re-queries in flight).',
    labelNames: ['upstream', 'outcome'],
    registers: [this.registry],
  });
  private readonly upstream_reversals = new Counter({
    name: 'billvend_upstream_reversals_total',
    help: 'Delivered orders an upstream reversed, refunded, by how the reversal was read: after a callback, or by the re-query 24 h after delivery.',
    labelNames: ['upstream', 'via'],
    registers: [this.registry],
  });
  private readonly upstream_failovers = new Counter({
    name: 'billvend_upstream_failovers_total',
    help: 'Orders moved to the next upstream of their route after a refusal before processing, by upstream left and taken.',
    labelNames: ['from', 'to'],
    registers: [this.registry],
  });
  private readonly webhook_attempts = new Counter({
    name: 'billvend_webhook_attempts_total',
    help: 'Webhook delivery attempts, by result: delivered (2xx), failed (retried or dead), gone (410, endpoint disabled).',
    labelNames: ['result'],
    registers: [this.registry],
  });
  private readonly webhook_lag = new Histogram({
    name: 'billvend_webhook_delivery_lag_seconds',
    help: 'Time from an event\'s creation to its delivery (2xx), retries included.',
    buckets: delivery_lag_buckets_s,
    registers: [this.registry],
  });
  private readonly webhook_dead = new Counter({
    name: 'billvend_webhook_dead_deliveries_total',
    help: 'Webhook deliveries that failed every retry and are dead until replayed.',
    registers: [this.registry],
  });
  /** Delivered orders' money by service type, environment, biller and upstream (docs/operations.md "Metrics"). */
  private readonly sales = new Map<string, SalesSeries>();
  private readonly sold_naira = this.sales_counter('billvend_sold_naira_total', 'Face value of delivered orders, in naira, by service type, environment, biller (network, disco or provider) and upstream.', (series) => series.sold_kobo);
  private readonly commission_naira = this.sales_counter('billvend_commission_naira_total', 'Commission given to resellers on delivered orders (their tier\'s rate), in naira.', (series) => series.commission_kobo);
  private readonly provider_commission_naira = this.sales_counter('billvend_provider_commission_naira_total', 'Commission the upstream gave on delivered orders (as it reported it; 0 when it did not), in naira.', (series) => series.provider_commission_kobo);
  private readonly margin_naira = (() => {
    const read = (series: SalesSeries) => series.provider_commission_kobo - series.commission_kobo;
    const sales = this.sales;
    return new Gauge({
      name: 'billvend_margin_naira',
      help: 'The operator\'s margin on delivered orders since start, in naira: the upstream\'s commission minus the resellers\' (negative when sold below cost).',
      labelNames: ['service_type', 'environment', 'biller', 'upstream'],
      registers: [this.registry],
      collect() {
        for (const series of sales.values()) this.set(series.labels, naira(read(series)));
      },
    });
  })();
  /** Wallet money moved, by environment and entry type, summed in kobo. */
  private readonly wallet_kobo = new Map<string, { labels: { environment: string; type: string }; kobo: number }>();
  private readonly wallet_naira = (() => {
    const flows = this.wallet_kobo;
    return new Counter({
      name: 'billvend_wallet_entries_naira_total',
      help: 'Money moved in wallets, in naira, by environment and entry type: credit (funding), debit (purchases), reversal (refunds).',
      labelNames: ['environment', 'type'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const flow of flows.values()) this.inc(flow.labels, naira(flow.kobo));
      },
    });
  })();

  constructor() {
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: event_loop_resolution_ms });
    // prom-client names three gauges with _total, which promtool refuses ("non-counter metrics should not
    // have _total suffix"); the same figures remain, by type, in nodejs_active_handles, _requests, _resources.
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) {
      this.registry.removeSingleMetric(name);
    }
    this.provider_circuit.set(circuit_values.closed);
  }

  /** The counters of a route; the front end looks each up once and keeps it. */
  route_stats(server: string, route: string): RouteStats {
    const key = `${server}\u0000${route}`;
    let stats = this.routes.get(key);
    if (stats === undefined) {
      stats = new RouteStats(this, server, route);
      this.routes.set(key, stats);
    }
    return stats;
  }

  observe_request(server: string, route: string, status: number, duration_ms: number): void {
    this.route_stats(server, route).observe(status, duration_ms);
  }

  on_commit(changes: number, duration_ms: number): void {
    this.commit_changes.observe(changes);
    this.commit_duration.observe(duration_ms / 1000);
  }

  /** A gauge read at scrape time, e.g. actors in memory. */
  gauge(name: string, help: string, read: () => number): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  /** A counter kept elsewhere as a plain number that only grows, read at scrape time. */
  counter(name: string, help: string, read: () => number): void {
    new Counter({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  }

  purchase(service_type: string, environment: string, outcome: PurchaseOutcome): void {
    const key = `${service_type}/${environment}/${outcome}`;
    let slot = this.purchase_slots.get(key);
    if (slot === undefined) {
      slot = this.purchases.slot({ service_type, environment, outcome });
      this.purchase_slots.set(key, slot);
    }
    slot.pending += 1;
  }

  refund(service_type: string, environment: string, amount_kobo: number): void {
    this.refunds.labels(service_type, environment).inc();
    this.refunded_kobo.labels(environment).inc(amount_kobo);
  }

  refund_took(environment: string, duration_ms: number): void {
    this.refund_duration.labels(environment).observe(Math.max(0, duration_ms) / 1000);
  }

  provider_call(operation: string, result: ProviderCallResult, duration_ms: number, upstream?: string): void {
    this.provider_calls.labels(operation, result).inc();
    if (result !== 'circuit_open') this.provider_duration.labels(operation).observe(duration_ms / 1000);
    if (upstream === undefined) return;
    this.upstream_calls.labels(upstream, operation, result).inc();
    if (result !== 'circuit_open') this.upstream_duration.labels(upstream, operation).observe(duration_ms / 1000);
  }

  /** The unlabelled gauge follows the first upstream (the one of before); each upstream has its own series. */
  provider_circuit_changed(state: keyof typeof circuit_values, upstream?: string): void {
    if (upstream === undefined || upstream === this.first_upstream) this.provider_circuit.set(circuit_values[state]);
    if (upstream !== undefined) this.upstream_circuit.labels(upstream).set(circuit_values[state]);
  }

  private first_upstream: string | null = null;

  /** The configured upstreams: each circuit series starts closed. */
  upstreams_configured(names: readonly string[]): void {
    this.first_upstream = names[0] ?? null;
    for (const name of names) this.upstream_circuit.labels(name).set(circuit_values.closed);
  }

  upstream_outcome(upstream: string, operation: 'pay' | 'requery', outcome: string): void {
    this.upstream_outcomes.labels(upstream, operation, outcome).inc();
  }

  upstream_failover(from: string, to: string): void {
    this.upstream_failovers.labels(from, to).inc();
  }

  upstream_callback(upstream: string, outcome: string): void {
    this.upstream_callbacks.labels(upstream, outcome).inc();
  }

  upstream_reversal(upstream: string, via: string): void {
    this.upstream_reversals.labels(upstream, via).inc();
  }

  webhook_attempt(result: WebhookAttemptResult, lag_ms: number | null): void {
    this.webhook_attempts.labels(result).inc();
    if (lag_ms !== null) this.webhook_lag.observe(Math.max(0, lag_ms) / 1000);
  }

  webhook_dead_delivery(): void {
    this.webhook_dead.inc();
  }

  /** A counter of the sales series, read from their kobo sums at scrape time. */
  private sales_counter(name: string, help: string, read: (series: SalesSeries) => number): Counter<string> {
    const sales = this.sales;
    return new Counter({
      name,
      help,
      labelNames: ['service_type', 'environment', 'biller', 'upstream'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const series of sales.values()) this.inc(series.labels, naira(read(series)));
      },
    });
  }

  /** A delivered order: its face value, the reseller's commission and the upstream's, under its labels. */
  sale(order: OrderRecord, environment: string): void {
    const service_type = order.service_type;
    let biller = order.network ?? order.disco ?? order.provider ?? 'none';
    // A test order never leaves the sandbox; a live order's upstream is the last it was handed to.
    const upstream = environment === 'test' ? 'sandbox' : (order.attempts?.at(-1)?.upstream ?? 'default');
    let key = `${service_type}/${environment}/${biller}/${upstream}`;
    let series = this.sales.get(key);
    if (series === undefined && this.sales.size >= sales_series_max) {
      biller = 'other';
      key = `${service_type}/${environment}/${biller}/${upstream}`;
      series = this.sales.get(key);
    }
    if (series === undefined) {
      series = { labels: { service_type, environment, biller, upstream }, sold_kobo: 0, commission_kobo: 0, provider_commission_kobo: 0 };
      this.sales.set(key, series);
    }
    series.sold_kobo += order.amount_kobo;
    series.commission_kobo += commission_of(order);
    series.provider_commission_kobo += order.provider_commission_kobo ?? 0;
  }

  /** A wallet entry: credit, debit or reversal, in kobo. */
  wallet_entry(environment: string, type: string, amount_kobo: number): void {
    const key = `${environment}/${type}`;
    let flow = this.wallet_kobo.get(key);
    if (flow === undefined) {
      flow = { labels: { environment, type }, kobo: 0 };
      this.wallet_kobo.set(key, flow);
    }
    flow.kobo += amount_kobo;
  }

  /**
   * The sum of every wallet's balance per environment (engine/wallet-totals.ts), and whether the scan
   * behind it is complete. Until it is, the balance has no series at all rather than a partial sum
   * that would read as money gone (docs/decisions.md "The first ten minutes").
   */
  wallet_balances(totals: { readonly complete: boolean; total_kobo(environment: 'live' | 'test'): number | null }): void {
    new Gauge({
      name: 'billvend_wallet_balance_naira',
      help: 'Every wallet\'s balance summed, in naira, by environment; absent until the start-up scan of the wallets is complete (billvend_wallet_balance_scan_complete).',
      labelNames: ['environment'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const environment of ['live', 'test'] as const) {
          const kobo = totals.total_kobo(environment);
          if (kobo !== null) this.set({ environment }, naira(kobo));
        }
      },
    });
    this.gauge('billvend_wallet_balance_scan_complete', 'Whether the start-up scan behind billvend_wallet_balance_naira has read every wallet: 0 while it runs, 1 once the balance is reported.', () => (totals.complete ? 1 : 0));
  }

  /** The Prometheus text exposition (format 0.0.4). */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get content_type(): string {
    return this.registry.contentType;
  }
}

/**
 * An event sink that counts purchases and refunds from the events every change emits (whether or not an
 * endpoint subscribes), then hands each event on. Events are emitted when their change is staged, so a
 * commit refused by a full disk leaves its events counted: the counters are for trends, the store is the
 * record.
 */
export function counting_sink(metrics: Metrics, next: EventSink): EventSink {
  return {
    emit(actor, environment, kind, subject, now_us, stage) {
      const order = subject.order;
      if (kind === 'wallet.credited' || kind === 'wallet.debited' || kind === 'wallet.reversed') {
        if (subject.entry !== undefined) metrics.wallet_entry(environment, subject.entry.type, subject.entry.amount_kobo);
      }
      if (kind === 'transaction.completed' && order !== undefined) metrics.sale(order, environment);
      if (order !== undefined) {
        if (kind === 'wallet.debited') metrics.purchase(order.service_type, environment, 'placed');
        else if (kind === 'transaction.completed') metrics.purchase(order.service_type, environment, 'delivered');
        else if (kind === 'transaction.failed') metrics.purchase(order.service_type, environment, 'failed');
        else if (kind === 'wallet.reversed') metrics.refund(order.service_type, environment, subject.entry?.amount_kobo ?? order.amount_kobo);
      }
      next.emit(actor, environment, kind, subject, now_us, stage);
    },
  };
}
