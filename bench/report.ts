// The one table `npm run bench` prints (style.md "Benchmarks"), the machine it ran on, and the same
// as JSON under bench/results/. Absolute figures vary between machines; the ratio to the bare
// uWebSockets.js server measured in the same run is what we track. Next to it, server CPU time per
// request: on a small or shared machine autocannon (one thread) often caps the bare server first,
// and other work shakes requests/s, while the CPU a request costs stays put.
import { cpus, totalmem } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadResult, LoadSettings } from './load.js';
import type { ProfileSummary } from './profile.js';
import type { Target } from './server-process.js';
import type { RecoveryResult } from './recovery.js';

/** CPU used by processes other than the server and the bench before a row is flagged as skewed. */
const other_cpu_cores_max = 0.2;

export interface Row {
  scenario: string;
  target: Target;
  compare_to: string;
  /** null when the scenario could not run (see failure). */
  result: LoadResult | null;
  /** requests/s over the matching baseline's; null without both figures. */
  ratio_to_baseline: number | null;
  failure: string | null;
  warnings: string[];
  /** Figures beyond requests/s (e.g. webhook events delivered). */
  notes: string[];
  profile: ProfileSummary | null;
}

export interface Machine {
  cpu_model: string;
  cores: number;
  ram_gib: number;
  node: string;
  date: string;
}

export interface Report {
  machine: Machine;
  settings: LoadSettings & { accounts: number; cpu_profile: boolean };
  rows: Row[];
  /** The `recovery` scenario, when it ran. */
  recovery?: RecoveryResult | { failure: string };
}

export function describe_machine(now: Date): Machine {
  const cores = cpus();
  return {
    cpu_model: cores[0]?.model.trim() ?? 'unknown',
    cores: cores.length,
    ram_gib: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    date: now.toISOString(),
  };
}

function fixed(value: number, digits: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function render_grid(header: string[], lines: string[][], right_aligned: boolean[]): string {
  const widths = header.map((h, column) => Math.max(h.length, ...lines.map((line) => line[column].length)));
  const format = (cells: string[]) => cells.map((cell, column) => (right_aligned[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join('  ');
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].map((line) => line.trimEnd()).join('\n');
}

export function render_report(report: Report): string {
  const { machine, settings } = report;
  const out: string[] = [];
  out.push(`billvend bench — ${machine.date}`);
  out.push(`machine: ${machine.cpu_model}, ${machine.cores} cores, ${machine.ram_gib} GiB RAM; node ${machine.node}`);
  out.push(
    `load: ${settings.connections} connections, pipelining ${settings.pipelining}, ${settings.warmup_s} s warm-up + ${settings.duration_s} s measured; ` +
    `${settings.accounts} accounts in the many-account scenarios`,
  );
  if (settings.cpu_profile) out.push('note: billvend ran under --cpu-prof; its figures include the profiler\'s overhead');
  out.push('');

  const header = ['scenario', 'server', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors (timeouts)', 'vs bare', 'srv CPU µs/req', 'CPU srv/bench/other'];
  const lines = report.rows.map((row) => {
    const r = row.result;
    const server = row.target === 'baseline' ? 'bare uWS' : 'billvend';
    if (r === null) return [row.scenario, server, 'failed', '', '', '', '', '', '', '', ''];
    return [
      row.scenario,
      server,
      fixed(r.requests_per_s, 0),
      fixed(r.latency_p50_ms, 1),
      fixed(r.latency_p99_ms, 1),
      fixed(r.latency_max_ms, 1),
      fixed(r.non_2xx, 0),
      `${fixed(r.errors, 0)} (${fixed(r.timeouts, 0)})`,
      row.ratio_to_baseline === null ? '' : `${row.ratio_to_baseline.toFixed(2)}× ${row.compare_to === 'baseline-get' ? 'bare GET' : 'bare POST'}`,
      r.server_cpu_us_per_request === null ? '?' : fixed(r.server_cpu_us_per_request, 1),
      [r.server_cpu_cores, r.bench_cpu_cores, r.other_cpu_cores].map((cores) => (cores === null ? '?' : cores.toFixed(2))).join(' / '),
    ];
  });
  out.push(render_grid(header, lines, [false, false, true, true, true, true, true, true, false, true, true]));
  out.push(
    'srv CPU µs/req: server CPU time per answered request; it holds when other work on the machine shakes req/s.\n' +
    'CPU: cores busy in the measured window (1.00 = one core) by the server, the bench process (autocannon) and everything else.\n' +
    'A bench near 1.00 means autocannon set the pace, not the server; "other" above ~0.2 means other work skewed req/s and latency.',
  );

  if (report.recovery !== undefined) {
    const r = report.recovery;
    out.push('');
    if ('failure' in r) out.push(`recovery: FAILED: ${r.failure}`);
    else {
      const mib = (bytes: number) => `${fixed(bytes / 1024 ** 2, 0)} MiB`;
      out.push(
        `recovery: ${fixed(r.accounts, 0)} accounts, ${fixed(r.orders, 0)} orders, store ${mib(r.store_bytes)}: ` +
        `ready in ${fixed(r.ready_ms / 1000, 2)} s from process start (loading and checking accounts: ${r.recovered_ms === null ? '?' : fixed(r.recovered_ms / 1000, 2)} s), ` +
        `resident memory ${mib(r.rss_bytes)}, heap ${mib(r.heap_used_bytes)}` + (r.seed_ms === null ? '' : `; seeding took ${fixed(r.seed_ms / 1000, 0)} s`),
      );
    }
  }

  const notes: string[] = [];
  for (const row of report.rows) for (const note of row.notes ?? []) notes.push(`${row.scenario}: ${note}`);
  for (const row of report.rows) {
    if (row.failure !== null) notes.push(`${row.scenario}: FAILED: ${row.failure}`);
    if (row.result !== null && row.result.non_2xx > 0) {
      const statuses = Object.entries(row.result.status_counts).sort(([a], [b]) => Number(a) - Number(b)).map(([status, count]) => `${status}: ${fixed(count, 0)}`);
      notes.push(`${row.scenario}: answers by status: ${statuses.join(', ')}`);
      const codes = Object.entries(row.result.error_codes).map(([kind, count]) => `${kind}: ${fixed(count, 0)}`);
      if (codes.length > 0) notes.push(`${row.scenario}: failed answers by code: ${codes.join(', ')}`);
      if (row.result.status_counts['429'] !== undefined) {
        notes.push(`${row.scenario}: 429s mean a key used up its 1,000,000 requests of a minute: shorten BENCH_DURATION or spread the load over more keys`);
      }
    }
    for (const warning of row.warnings) notes.push(`${row.scenario}: ${warning}`);
    if (row.result !== null && row.result.other_cpu_cores !== null && row.result.other_cpu_cores > other_cpu_cores_max) {
      notes.push(`${row.scenario}: other processes kept ${row.result.other_cpu_cores.toFixed(2)} cores busy during the run: its figures are skewed`);
    }
  }
  if (notes.length > 0) out.push('', ...notes);
  return out.join('\n');
}

export function render_profile(scenario: string, summary: ProfileSummary): string {
  const share = (value: number) => `${(value * 100).toFixed(1)}%`;
  const out = [
    '',
    `${scenario}: CPU profile ${summary.path}`,
    `  ${fixed(summary.profile_ms, 0)} ms ${summary.measured_window_only ? 'of the measured window' : 'of the whole process (start-up, set-up and warm-up included)'}: ` +
      `busy ${fixed(summary.busy_ms, 0)} ms, idle ${fixed(summary.idle_ms, 0)} ms; shares are of busy time`,
    '',
  ];
  out.push(render_grid(
    ['self ms', 'of busy', 'function', 'where'],
    summary.functions.map((f) => [fixed(f.self_ms, 0), share(f.busy_share), f.name, f.location]),
    [true, true, false, false],
  ).replace(/^/gm, '  '));
  out.push('');
  out.push(render_grid(
    ['self ms', 'of busy', 'package or folder'],
    summary.packages.map((p) => [fixed(p.self_ms, 0), share(p.busy_share), p.name]),
    [true, true, false],
  ).replace(/^/gm, '  '));
  if (summary.hot_lines.length > 0) {
    out.push('', '  hottest lines of billvend code, whole process (native calls such as uWS getHeader/writeHeader count on their calling line):');
    out.push(render_grid(
      ['samples', 'of busy', 'where', 'code'],
      summary.hot_lines.map((l) => [fixed(l.samples, 0), share(l.busy_share), l.location, l.code]),
      [true, true, false, false],
    ).replace(/^/gm, '  '));
  }
  return out.join('\n');
}

/** bench/results/<ISO date>.json, with ':' made '-' so that the name is valid on every file system. */
export function write_report(results_dir: string, report: Report): string {
  mkdirSync(results_dir, { recursive: true });
  const path = join(results_dir, `${report.machine.date.replace(/:/g, '-')}.json`);
  writeFileSync(path, JSON.stringify(report, null, 2) + '\n');
  return path;
}
