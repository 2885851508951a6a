// Drives autocannon through its JavaScript API (its command line mangles `[<id>]` and cannot run our
// request generators) and reduces its result to the figures the report shows.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadSettings {
  connections: number;
  /** 1: a reseller's client waits for each answer before sending the next request on a connection. */
  pipelining: number;
  duration_s: number;
  /** Run first with the same generator, results discarded: lets V8 optimise and caches fill. */
  warmup_s: number;
  /** An answer slower than this counts as a timeout (purchases may wait 5 s for the provider). */
  timeout_s: number;
  /**
   * Stop each run (warm-up and measured) after this many requests instead of after its seconds: the
   * test suite's tiny runs (test/bench-scenarios.test.ts), which check answers, not speed.
   */
  requests_max?: number;
}

export interface LoadResult {
  requests_per_s: number;
  requests_total: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  latency_max_ms: number;
  non_2xx: number;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  /** Answers by HTTP status, e.g. { "200": 51234, "404": 12 }. */
  status_counts: Record<string, number>;
  /** Answers other than 2xx by status and error code, e.g. { "503 service.unavailable": 12 }. */
  error_codes: Record<string, number>;
  /**
   * CPU time over wall time of the measured window, 1 = one core busy. On a small machine the load
   * generator can saturate first: a bench process near 1 while the server has room means the figure
   * measures autocannon, not the server.
   */
  server_cpu_cores: number | null;
  /**
   * Server CPU time per answered request: what a request costs, whoever set the pace. It holds
   * steady when other work on the machine shakes requests/s, which makes it the figure to compare
   * across runs on a shared machine.
   */
  server_cpu_us_per_request: number | null;
  /** The part of server_cpu_us_per_request spent on the server's main thread (the event loop); null when not read. */
  server_main_thread_us_per_request: number | null;
  bench_cpu_cores: number;
  /** Everything else: other processes (builds, tests) and time the hypervisor stole from this VM. */
  other_cpu_cores: number | null;
  /** The measured window on CLOCK_MONOTONIC in µs: the clock V8's CPU profiles are stamped with. */
  window_us: { start: number; end: number };
}

/**
 * CPU time all cores have spent busy so far (first line of /proc/stat, in USER_HZ ticks of 10 ms:
 * everything but idle and iowait); null where there is no /proc.
 */
function machine_busy_ms(): number | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = fields;
    return (user + nice + system + irq + softirq + steal) * 10;
  } catch {
    return null;
  }
}

/** process.hrtime reads CLOCK_MONOTONIC, as V8's profiler does in every process of this machine. */
function monotonic_us(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** Distinct "status code" pairs counted; more would only mean the answers carry no stable code. */
const error_kinds_max = 50;
/** The envelope's error code, without parsing the whole body on the load generator. */
const error_code_in_body = /"code":"([^"]{1,100})"/;

/**
 * Wraps each request's onResponse to count failed answers by status and error code (only those
 * answers are read, so the generator's cost is unchanged on the success path).
 */
function count_error_codes(requests: autocannon.Request[], counts: Map<string, number>): autocannon.Request[] {
  return requests.map((request) => {
    const inner = request.onResponse;
    return {
      ...request,
      onResponse: (status, body, context, headers) => {
        if (status < 200 || status > 299) {
          const kind = `${status} ${error_code_in_body.exec(body)?.[1] ?? '(no code)'}`;
          if (counts.has(kind) || counts.size < error_kinds_max) counts.set(kind, (counts.get(kind) ?? 0) + 1);
        }
        inner?.(status, body, context, headers);
      },
    };
  });
}

/** One autocannon run. */
function drive(base_url: string, requests: autocannon.Request[], settings: LoadSettings, duration_s: number): PromiseLike<autocannon.Result> {
  return autocannon({
    url: base_url,
    connections: settings.connections,
    pipelining: settings.pipelining,
    ...(settings.requests_max === undefined ? { duration: duration_s } : { amount: settings.requests_max }),
    timeout: settings.timeout_s,
    requests,
  });
}

/**
 * Warm-up, then the measured run with the same generator. The warm-up is a run of its own (rather
 * than autocannon's warmup option) so that CPU time can be sampled over the measured window only.
 * server_cpu_ms reads the server's CPU time so far (null where it cannot be read).
 */
export async function run_load(base_url: string, generator: autocannon.Request[], settings: LoadSettings, server_cpu_ms: () => number | null, server_main_thread_cpu_ms: () => number | null = () => null): Promise<LoadResult> {
  const error_counts = new Map<string, number>();
  const requests = count_error_codes(generator, error_counts);
  if (settings.warmup_s > 0) await drive(base_url, requests, settings, settings.warmup_s);
  error_counts.clear();
  const machine_before_ms = machine_busy_ms();
  const server_before_ms = server_cpu_ms();
  const main_before_ms = server_main_thread_cpu_ms();
  const bench_before = process.cpuUsage();
  const window_start_us = monotonic_us();
  const result = await drive(base_url, requests, settings, settings.duration_s);
  const window_end_us = monotonic_us();
  const elapsed_ms = (window_end_us - window_start_us) / 1000;
  const bench_used = process.cpuUsage(bench_before);
  const server_after_ms = server_cpu_ms();
  const main_after_ms = server_main_thread_cpu_ms();
  const machine_after_ms = machine_busy_ms();

  const server_cores = server_before_ms === null || server_after_ms === null ? null : (server_after_ms - server_before_ms) / elapsed_ms;
  const bench_cores = (bench_used.user + bench_used.system) / 1000 / elapsed_ms;
  const status_counts: Record<string, number> = {};
  for (const [status, stats] of Object.entries(result.statusCodeStats)) status_counts[status] = stats.count;
  return {
    requests_per_s: result.requests.average,
    requests_total: result.requests.total,
    latency_p50_ms: result.latency.p50,
    latency_p99_ms: result.latency.p99,
    latency_max_ms: result.latency.max,
    non_2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    status_counts,
    error_codes: Object.fromEntries([...error_counts].sort((a, b) => b[1] - a[1])),
    server_cpu_cores: server_cores,
    server_cpu_us_per_request: server_cores === null || result.requests.total === 0 ? null : (server_cores * elapsed_ms * 1000) / result.requests.total,
    server_main_thread_us_per_request: main_before_ms === null || main_after_ms === null || result.requests.total === 0 ? null : ((main_after_ms - main_before_ms) * 1000) / result.requests.total,
    bench_cpu_cores: bench_cores,
    other_cpu_cores: server_cores === null || machine_before_ms === null || machine_after_ms === null
      ? null
      : Math.max(0, (machine_after_ms - machine_before_ms) / elapsed_ms - server_cores - bench_cores),
    window_us: { start: window_start_us, end: window_end_us },
  };
}
