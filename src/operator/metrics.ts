// Prometheus metrics (operations.md /metrics): requests by route and status, a latency histogram,
// journal commit size and latency, actors in memory. Rendered as text on demand.
import type { JournalObserver } from '../journal/journal.js';

const latency_buckets_ms = [0.5, 1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000];
const commit_size_buckets = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 20000];

class Histogram {
  readonly counts: number[];
  sum = 0;
  count = 0;
  constructor(readonly buckets: number[]) {
    this.counts = new Array(buckets.length).fill(0);
  }
  observe(value: number): void {
    this.sum += value;
    this.count++;
    for (let i = 0; i < this.buckets.length; i++) {
      if (value <= this.buckets[i]) {
        this.counts[i]++;
        return;
      }
    }
  }
  render(name: string, labels: string, out: string[]): void {
    let cumulative = 0;
    const sep = labels === '' ? '' : ',';
    for (let i = 0; i < this.buckets.length; i++) {
      cumulative += this.counts[i];
      out.push(`${name}_bucket{${labels}${sep}le="${this.buckets[i]}"} ${cumulative}`);
    }
    out.push(`${name}_bucket{${labels}${sep}le="+Inf"} ${this.count}`);
    const braces = labels === '' ? '' : `{${labels}}`;
    out.push(`${name}_sum${braces} ${this.sum}`);
    out.push(`${name}_count${braces} ${this.count}`);
  }
}

function label(value: string): string {
  return value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
}

/** Counters of one route of one server: requests by status and a latency histogram. */
export class RouteStats {
  readonly by_status = new Map<number, number>();
  readonly latency = new Histogram(latency_buckets_ms);
  constructor(readonly server: string, readonly route: string) {}

  observe(status: number, duration_ms: number): void {
    this.by_status.set(status, (this.by_status.get(status) ?? 0) + 1);
    this.latency.observe(duration_ms);
  }
}

export class Metrics implements JournalObserver {
  /** One slot per server and route: bounded by the route table (plus "unmatched"). */
  private readonly routes = new Map<string, RouteStats>();
  private readonly commit_size = new Histogram(commit_size_buckets);
  private readonly commit_latency = new Histogram(latency_buckets_ms);
  private readonly gauges = new Map<string, () => number>();
  private readonly counters = new Map<string, number>();

  /** The counters of a route; the front end looks each up once and keeps it. */
  route_stats(server: string, route: string): RouteStats {
    const key = `${server}\u0000${route}`;
    let stats = this.routes.get(key);
    if (stats === undefined) {
      stats = new RouteStats(server, route);
      this.routes.set(key, stats);
    }
    return stats;
  }

  observe_request(server: string, route: string, status: number, duration_ms: number): void {
    this.route_stats(server, route).observe(status, duration_ms);
  }

  on_commit(changes: number, duration_ms: number): void {
    this.commit_size.observe(changes);
    this.commit_latency.observe(duration_ms);
  }

  /** A gauge read at scrape time, e.g. actors in memory. */
  gauge(name: string, read: () => number): void {
    this.gauges.set(name, read);
  }

  increment(name: string, by = 1): void {
    this.counters.set(name, (this.counters.get(name) ?? 0) + by);
  }

  render(): string {
    const out: string[] = [];
    out.push('# HELP billvend_http_requests_total HTTP requests answered, by server, route and status.');
    out.push('# TYPE billvend_http_requests_total counter');
    for (const stats of this.routes.values()) {
      for (const [status, count] of stats.by_status) {
        out.push(`billvend_http_requests_total{server="${label(stats.server)}",route="${label(stats.route)}",status="${status}"} ${count}`);
      }
    }
    out.push('# HELP billvend_http_request_duration_ms Time from request to reply, in milliseconds.');
    out.push('# TYPE billvend_http_request_duration_ms histogram');
    for (const stats of this.routes.values()) {
      if (stats.latency.count > 0) stats.latency.render('billvend_http_request_duration_ms', `server="${label(stats.server)}",route="${label(stats.route)}"`, out);
    }
    out.push('# HELP billvend_journal_commit_changes Changes per journal commit (group commit size).');
    out.push('# TYPE billvend_journal_commit_changes histogram');
    this.commit_size.render('billvend_journal_commit_changes', '', out);
    out.push('# HELP billvend_journal_commit_duration_ms Time from handing a batch to LMDB until it is flushed to disk.');
    out.push('# TYPE billvend_journal_commit_duration_ms histogram');
    this.commit_latency.render('billvend_journal_commit_duration_ms', '', out);
    for (const [name, value] of this.counters) {
      out.push(`# TYPE ${name} counter`);
      out.push(`${name} ${value}`);
    }
    for (const [name, read] of this.gauges) {
      out.push(`# TYPE ${name} gauge`);
      out.push(`${name} ${read()}`);
    }
    const memory = process.memoryUsage();
    out.push('# TYPE billvend_process_resident_memory_bytes gauge');
    out.push(`billvend_process_resident_memory_bytes ${memory.rss}`);
    out.push('# TYPE billvend_process_heap_used_bytes gauge');
    out.push(`billvend_process_heap_used_bytes ${memory.heapUsed}`);
    return out.join('\n') + '\n';
  }
}
