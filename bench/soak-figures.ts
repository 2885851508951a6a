// What the soak measures each minute and how it judges memory: latency percentiles of one minute's
// answers, the server's memory and CPU from /proc and /metrics, and the "levelled off" verdict.
import { readFileSync, readdirSync } from 'node:fs';

/** One minute of the soak, as printed and written to bench/results/. */
export interface MinuteFigures {
  minute: number;
  requests: number;
  requests_per_s: number;
  /** Purchases of the delayed sandbox numbers, which wait 5 s by design: not in the latency figures. */
  waited_by_design: number;
  /** 422 transaction.failed: the sandbox's failing number, part of the mix. */
  expected_non_2xx: number;
  /** Any other non-2xx answer: a finding. */
  unexpected_non_2xx: number;
  /** Connection errors and timeouts (no answer). */
  errors: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** VmRSS: everything resident, including pages of the LMDB map that reads touched. */
  rss_mib: number;
  /** RssAnon: the process's own memory (heaps, buffers); what a leak grows. null without /proc. */
  rss_anon_mib: number | null;
  /** RssFile: resident pages of mapped files, mostly the store's data.mdb. */
  rss_file_mib: number | null;
  heap_used_mib: number;
  timers_pending: number;
  open_orders: number;
  webhooks_received: number;
  server_cpu_cores: number | null;
}

/** Latencies of one minute, in ms; sorted once when the minute closes. */
export class MinuteWindow {
  latencies: number[] = [];
  requests = 0;
  waited_by_design = 0;
  expected_non_2xx = 0;
  unexpected_non_2xx = 0;
  errors = 0;

  percentile(p: number): number {
    if (this.latencies.length === 0) return 0;
    return this.latencies[Math.min(this.latencies.length - 1, Math.floor((p / 100) * this.latencies.length))];
  }

  close(): void {
    this.latencies.sort((a, b) => a - b);
  }
}

/**
 * The pid of the server under test: the process whose environment holds its (random) operator token.
 * The bench's ServerProcess keeps its child to itself; this finds it without touching it.
 */
export function find_server_pid(admin_token: string): number | null {
  const needle = `ADMIN_TOKEN=${admin_token}\u0000`;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').includes(needle)) return Number(name);
    } catch {
      // Gone, or not ours.
    }
  }
  return null;
}

/** VmRSS, RssAnon and RssFile of a process in MiB, from /proc/<pid>/status; null where unreadable. */
export function read_memory(pid: number | null): { rss: number; anon: number; file: number } | null {
  if (pid === null) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    const out = { rss: kib('VmRSS') / 1024, anon: kib('RssAnon') / 1024, file: kib('RssFile') / 1024 };
    return Number.isFinite(out.rss) ? out : null;
  } catch {
    return null;
  }
}

/** CPU time (user + system) of a process so far in ms, from /proc/<pid>/stat (100 ticks a second). */
export function read_cpu_ms(pid: number | null): number | null {
  if (pid === null) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** The gauges of a Prometheus text page, by name (unlabelled lines only). */
export function parse_gauges(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+) (-?[0-9.e+]+)$/.exec(line);
    if (match !== null) out.set(match[1], Number(match[2]));
  }
  return out;
}

export interface LevelVerdict {
  series: string;
  levelled: boolean;
  /** Growth from the middle of the run to its end, in percent. */
  second_half_growth_percent: number;
  /** Every minute of the second half higher than the one before, by more than the noise. */
  monotonic_climb: boolean;
  reason: string;
}

/** Second-half growth above this is not levelled. */
export const growth_percent_max = 10;
/** A second half that rose every minute and by at least this much in all is a climb. */
export const climb_percent_min = 3;

/**
 * Memory has levelled off when, over the second half of the run, it grew by less than
 * growth_percent_max and did not rise minute after minute (a leak's signature: small, steady steps).
 * The first minutes are warm-up (JIT, caches, pools filling) and are not judged.
 */
export function judge_levelling(series: string, values: number[]): LevelVerdict {
  if (values.length < 4) {
    return { series, levelled: true, second_half_growth_percent: 0, monotonic_climb: false, reason: `only ${values.length} minutes: too short to judge` };
  }
  const middle = Math.floor(values.length / 2) - 1;
  const half = values.slice(middle);
  const growth = ((half[half.length - 1] - half[0]) / half[0]) * 100;
  const rising_every_minute = half.slice(1).every((value, i) => value > half[i]);
  const climb = rising_every_minute && growth >= climb_percent_min;
  const levelled = growth < growth_percent_max && !climb;
  const reason = levelled
    ? `${growth.toFixed(1)}% over the second half, no steady climb`
    : climb ? `rose every minute of the second half (${growth.toFixed(1)}% in all)` : `${growth.toFixed(1)}% over the second half (limit ${growth_percent_max}%)`;
  return { series, levelled, second_half_growth_percent: Math.round(growth * 10) / 10, monotonic_climb: climb, reason };
}

const mib = (value: number | null) => (value === null ? '?' : value.toFixed(0));

export function render_minutes(minutes: MinuteFigures[]): string {
  const header = ['min', 'requests', 'req/s', '5 s waits', 'non-2xx exp/unexp', 'errors', 'p50 ms', 'p99 ms', 'RSS MiB', 'anon MiB', 'file MiB', 'heap MiB', 'timers', 'open orders', 'webhooks', 'srv CPU'];
  const lines = minutes.map((m) => [
    String(m.minute),
    String(m.requests),
    m.requests_per_s.toFixed(0),
    String(m.waited_by_design),
    `${m.expected_non_2xx}/${m.unexpected_non_2xx}`,
    String(m.errors),
    m.p50_ms.toFixed(1),
    m.p99_ms.toFixed(1),
    mib(m.rss_mib),
    mib(m.rss_anon_mib),
    mib(m.rss_file_mib),
    mib(m.heap_used_mib),
    String(m.timers_pending),
    String(m.open_orders),
    String(m.webhooks_received),
    m.server_cpu_cores === null ? '?' : m.server_cpu_cores.toFixed(2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells: string[]) => cells.map((cell, i) => cell.padStart(widths[i])).join('  ');
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n');
}

export function render_minute(m: MinuteFigures): string {
  return `minute ${m.minute}: ${m.requests} requests (${m.requests_per_s.toFixed(0)}/s; ${m.waited_by_design} delayed purchases waited 5 s by design), non-2xx ${m.expected_non_2xx} expected / ${m.unexpected_non_2xx} unexpected, ` +
    `${m.errors} errors, latency of the others p50 ${m.p50_ms.toFixed(1)} ms, p99 ${m.p99_ms.toFixed(1)} ms, RSS ${mib(m.rss_mib)} MiB (anon ${mib(m.rss_anon_mib)}, file ${mib(m.rss_file_mib)}), ` +
    `heap ${mib(m.heap_used_mib)} MiB, timers ${m.timers_pending}, open orders ${m.open_orders}, webhooks ${m.webhooks_received}, server CPU ${m.server_cpu_cores === null ? '?' : m.server_cpu_cores.toFixed(2)}`;
}
