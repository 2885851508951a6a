// The table `npm run bench` prints (style.md "Benchmarks"), the machine it ran on, the targets met or
// not, and the same as JSON under bench/results/. Absolute figures vary between machines; the ratios
// to the two yardsticks measured in the same round are what we track (docs/benchmarks.md
// "Yardsticks"): to the bare uWebSockets.js server writing one header (the machine's limit; the
// targets are against it) and to the same writing billvend's headers. Next to them, server CPU time
// per request: on a small or shared machine autocannon (one thread) often caps the bare server first,
// and other work shakes requests/s, while the CPU a request costs stays put.
import { cpus, totalmem } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadResult, LoadSettings } from './load.js';
import type { ProfileSummary } from './profile.js';
import type { Target } from './server-process.js';
import type { Targets } from './scenarios.js';
import type { RecoveryResult } from './recovery.js';

/** CPU used by processes other than the server and the bench before a row is flagged as skewed. */
const other_cpu_cores_max = 0.2;

export interface Row {
  scenario: string;
  /** 1, 2, …: the round of the run this row was measured in (BENCH_ROUNDS). */
  round: number;
  target: Target;
  /** The same-headers yardstick of the scenario's method (baseline-get or baseline-post). */
  compare_to: string;
  /** The minimal yardstick of the scenario's method (limit-get or limit-post). */
  compare_to_limit: string;
  targets: Targets | null;
  /** null when the scenario could not run (see failure). */
  result: LoadResult | null;
  /** requests/s over the same-headers yardstick's in the same round; null without both figures. */
  ratio_to_baseline: number | null;
  /** requests/s over the minimal yardstick's (the machine's limit) in the same round. */
  ratio_to_limit: number | null;
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
  settings: LoadSettings & { accounts: number; cpu_profile: boolean; rounds: number };
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

/** Both ratios of every row, each against the yardstick measured in the same round. */
export function set_ratios(rows: Row[]): void {
  const rps = (scenario: string, round: number) => {
    const row = rows.find((r) => r.scenario === scenario && r.round === round && r.target === 'baseline');
    return row?.result == null || row.result.requests_per_s <= 0 ? null : row.result.requests_per_s;
  };
  for (const row of rows) {
    if (row.result === null) continue;
    const baseline = rps(row.compare_to, row.round);
    const limit = rps(row.compare_to_limit, row.round);
    row.ratio_to_baseline = baseline === null ? null : row.result.requests_per_s / baseline;
    row.ratio_to_limit = limit === null ? null : row.result.requests_per_s / limit;
  }
}

/** The middle value (the mean of the middle two for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export interface Verdict {
  scenario: string;
  targets: Targets;
  /** Medians over the rounds that produced figures; null when none did. */
  ratio_to_limit: number | null;
  ratio_to_baseline: number | null;
  p99_ms: number | null;
  /**
   * The minimal yardstick's server CPU per request over this scenario's, same round, median: the share
   * of the bare server's efficiency billvend keeps, steadier than req/s on a shared machine. It is
   * below the req/s ratio wherever the client (autocannon, on the same cores) sets the bare server's
   * pace: shown beside the verdict, never judged.
   */
  cpu_ratio_to_limit: number | null;
  rounds: number;
  ratio_met: boolean;
  p99_met: boolean;
}

/** Each target scenario's median ratio and p99 over its rounds, against its targets. */
export function verdicts(rows: readonly Row[]): Verdict[] {
  const out: Verdict[] = [];
  for (const row of rows) {
    if (row.targets === null || out.some((v) => v.scenario === row.scenario)) continue;
    const measured = rows.filter((r) => r.scenario === row.scenario && r.result !== null);
    const ratio_to_limit = median(measured.flatMap((r) => (r.ratio_to_limit === null ? [] : [r.ratio_to_limit])));
    const ratio_to_baseline = median(measured.flatMap((r) => (r.ratio_to_baseline === null ? [] : [r.ratio_to_baseline])));
    const p99_ms = median(measured.map((r) => r.result!.latency_p99_ms));
    const cpu_ratio_to_limit = median(measured.flatMap((r) => {
      const limit = rows.find((l) => l.scenario === r.compare_to_limit && l.round === r.round)?.result?.server_cpu_us_per_request;
      const own = r.result!.server_cpu_us_per_request;
      return limit == null || own == null || own <= 0 ? [] : [limit / own];
    }));
    out.push({
      scenario: row.scenario,
      targets: row.targets,
      ratio_to_limit,
      ratio_to_baseline,
      p99_ms,
      cpu_ratio_to_limit,
      rounds: measured.length,
      ratio_met: ratio_to_limit !== null && ratio_to_limit >= row.targets.ratio_to_limit_min,
      p99_met: p99_ms !== null && p99_ms <= row.targets.p99_ms_max,
    });
  }
  return out;
}

function fixed(value: number, digits: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function render_grid(header: string[], lines: string[][], right_aligned: boolean[]): string {
  const widths = header.map((h, column) => Math.max(h.length, ...lines.map((line) => line[column].length)));
  const format = (cells: string[]) => cells.map((cell, column) => (right_aligned[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join('  ');
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].map((line) => line.trimEnd()).join('\n');
}

/** Where the figures, the yardsticks and the targets are explained; the report names it twice. */
export const benchmarks_doc = 'docs/benchmarks.md';

function times(ratio: number): string {
  return `${ratio.toFixed(2)}x`;
}

/**
 * The report's first lines, read before the wide table: per scenario with targets, its ratio to the machine's
 * limit and its p99 against their targets, met or not in words; then one sentence for the whole run, what may
 * have skewed it, and where to read more. A scenario that missed a target says by how much, not in capitals:
 * on a shared 2-core machine a miss is as often the machine as billvend (docs/benchmarks.md).
 */
export function render_summary(report: Report): string {
  const out: string[] = [];
  const judged = verdicts(report.rows);
  const rounds = report.settings.rounds ?? 1;
  out.push(`Summary (${report.machine.cores} cores, ${report.machine.date.slice(0, 16).replace('T', ' ')} UTC; ${rounds} round${rounds === 1 ? '' : 's'}, medians):`);
  if (judged.length === 0) out.push('  No scenario with targets ran: the table below has the yardsticks and the figures measured.');
  const width = Math.max(0, ...judged.map((v) => v.scenario.length));
  for (const v of judged) {
    const ratio = v.ratio_to_limit === null
      ? 'no ratio measured'
      : `${times(v.ratio_to_limit)} the bare server's requests/s, ${v.ratio_met ? 'meets' : 'below'} its target of ${times(v.targets.ratio_to_limit_min)}`;
    const p99 = v.p99_ms === null
      ? 'no p99 measured'
      : `p99 ${fixed(v.p99_ms, 1)} ms, ${v.p99_met ? 'within' : 'over'} its ${fixed(v.targets.p99_ms_max, 0)} ms`;
    out.push(`  ${v.scenario.padEnd(width)}  ${ratio}; ${p99}`);
  }
  if (judged.length > 0) {
    const met = judged.filter((v) => v.ratio_met && v.p99_met);
    const missed = judged.filter((v) => !(v.ratio_met && v.p99_met)).map((v) => v.scenario);
    out.push(met.length === judged.length
      ? `  All ${judged.length} scenario${judged.length === 1 ? ' meets' : 's meet'} both targets.`
      : `  ${met.length} of ${judged.length} meet both targets; short of a target: ${missed.join(', ')}.`);
  }
  if (report.recovery !== undefined) {
    const r = report.recovery;
    out.push('failure' in r
      ? `  Recovery failed: ${r.failure}`
      : `  Recovery: ready ${fixed(r.ready_ms / 1000, 2)} s after start on ${fixed(r.accounts, 0)} accounts and ${fixed(r.orders, 0)} orders.`);
  }
  const failed = report.rows.filter((r) => r.failure !== null).map((r) => r.scenario);
  if (failed.length > 0) out.push(`  Failed to run: ${[...new Set(failed)].join(', ')} (the notes at the end say why).`);
  const busy = report.rows.filter((r) => r.result?.other_cpu_cores != null && r.result.other_cpu_cores > other_cpu_cores_max);
  if (busy.length > 0) {
    const most = Math.max(...busy.map((r) => r.result!.other_cpu_cores!));
    out.push(`  Other work kept up to ${most.toFixed(2)} cores busy during ${busy.length} of ${report.rows.length} runs: those figures are skewed; compare CPU per request.`);
  }
  out.push(`  What each figure means and the targets' reasons: ${benchmarks_doc}. The full table follows.`);
  return out.join('\n');
}

export function render_report(report: Report): string {
  const { machine, settings } = report;
  const out: string[] = [render_summary(report), ''];
  out.push(`billvend bench — ${machine.date}`);
  out.push(`machine: ${machine.cpu_model}, ${machine.cores} cores, ${machine.ram_gib} GiB RAM; node ${machine.node}`);
  out.push(
    `load: ${settings.connections} connections, pipelining ${settings.pipelining}, ${settings.warmup_s} s warm-up + ${settings.duration_s} s measured; ` +
    `${settings.accounts} accounts in the many-account scenarios`,
  );
  out.push(`rounds: ${settings.rounds ?? 1}, alternating direction (odd rounds in the table's order, even rounds backwards); each ratio is to the yardstick of the same round`);
  if (settings.cpu_profile) out.push('note: billvend ran under --cpu-prof (first round); its figures include the profiler\'s overhead');
  out.push('');

  const yardsticks = report.rows.filter((r) => r.target === 'baseline' && r.result !== null);
  if (yardsticks.length > 0) {
    out.push('yardsticks (bare uWebSockets.js, fixed bodies, in this run):');
    for (const name of ['limit-get', 'limit-post', 'baseline-get', 'baseline-post']) {
      const measured = yardsticks.filter((r) => r.scenario === name);
      if (measured.length === 0) continue;
      const what = name.startsWith('limit') ? 'one Content-Type header: the machine\'s limit' : 'billvend\'s response headers';
      out.push(`  ${name.padEnd(13)} ${measured.map((r) => fixed(r.result!.requests_per_s, 0)).join(' / ')} req/s (${what})`);
    }
    out.push('');
  }

  const header = ['scenario', 'round', 'server', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors (timeouts)', 'vs limit', 'vs same headers', 'srv CPU µs/req', 'CPU srv/bench/other'];
  const lines = report.rows.map((row) => {
    const r = row.result;
    const server = row.target === 'baseline' ? (row.scenario.startsWith('limit') ? 'bare uWS, 1 header' : 'bare uWS, billvend headers') : 'billvend';
    if (r === null) return [row.scenario, String(row.round), server, 'failed', '', '', '', '', '', '', '', '', ''];
    const method = row.compare_to === 'baseline-get' ? 'GET' : 'POST';
    return [
      row.scenario,
      String(row.round),
      server,
      fixed(r.requests_per_s, 0),
      fixed(r.latency_p50_ms, 1),
      fixed(r.latency_p99_ms, 1),
      fixed(r.latency_max_ms, 1),
      fixed(r.non_2xx, 0),
      `${fixed(r.errors, 0)} (${fixed(r.timeouts, 0)})`,
      row.ratio_to_limit === null ? '' : `${row.ratio_to_limit.toFixed(2)}× ${method}`,
      row.ratio_to_baseline === null ? '' : `${row.ratio_to_baseline.toFixed(2)}× ${method}`,
      r.server_cpu_us_per_request === null ? '?' : fixed(r.server_cpu_us_per_request, 1),
      [r.server_cpu_cores, r.bench_cpu_cores, r.other_cpu_cores].map((cores) => (cores === null ? '?' : cores.toFixed(2))).join(' / '),
    ];
  });
  out.push(render_grid(header, lines, [false, true, false, true, true, true, true, true, true, false, false, true, true]));
  out.push(
    'vs limit: req/s over the bare server writing one Content-Type (limit-get or limit-post) of the same round;\n' +
    'vs same headers: over the bare server writing billvend\'s headers (baseline-get or baseline-post). The gap between\n' +
    'the two yardsticks is what the headers billvend must send cost the machine (server and client), whoever sends them.\n' +
    'srv CPU µs/req: server CPU time per answered request; it holds when other work on the machine shakes req/s.\n' +
    'CPU: cores busy in the measured window (1.00 = one core) by the server, the bench process (autocannon) and everything else.\n' +
    'A bench near 1.00 means autocannon set the pace, not the server; "other" above ~0.2 means other work skewed req/s and latency.',
  );

  const judged = verdicts(report.rows);
  if (judged.length > 0) {
    out.push('', `targets (against the machine's limit; medians over ${settings.rounds ?? 1} round(s), p99 at ${settings.connections} connections):`);
    const met = (ok: boolean, value: number | null) => (value === null ? 'no figure' : ok ? 'met' : 'missed');
    out.push(render_grid(
      ['scenario', 'vs limit', 'target', 'ratio', 'vs same headers', 'p99 ms', 'target', 'p99', 'CPU/req vs limit'],
      judged.map((v) => [
        v.scenario,
        v.ratio_to_limit === null ? '?' : `${v.ratio_to_limit.toFixed(2)}×`,
        `≥ ${v.targets.ratio_to_limit_min.toFixed(2)}×`,
        met(v.ratio_met, v.ratio_to_limit),
        v.ratio_to_baseline === null ? '?' : `${v.ratio_to_baseline.toFixed(2)}×`,
        v.p99_ms === null ? '?' : fixed(v.p99_ms, 1),
        `≤ ${fixed(v.targets.p99_ms_max, 0)}`,
        met(v.p99_met, v.p99_ms),
        v.cpu_ratio_to_limit === null ? '?' : `${v.cpu_ratio_to_limit.toFixed(2)}×`,
      ]),
      [false, true, true, false, true, true, true, false, true],
    ).replace(/^/gm, '  '));
    out.push('  CPU/req vs limit: the bare server\'s CPU µs per request over the scenario\'s (same round), the share of its efficiency billvend keeps.\n' +
      '  It holds when other work on the machine (see the notes) shakes req/s and p99; it is lower than the req/s ratio would be on a\n' +
      '  quiet machine, as there the client (autocannon, on the same cores) caps the bare server before the server\'s CPU does.');
  }

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
  // "purchase-one-account (round 2)" where there were rounds: each note names the run it is about.
  const name = (row: Row) => ((report.settings.rounds ?? 1) > 1 ? `${row.scenario} (round ${row.round})` : row.scenario);
  for (const row of report.rows) for (const note of row.notes ?? []) notes.push(`${name(row)}: ${note}`);
  for (const row of report.rows) {
    if (row.failure !== null) notes.push(`${name(row)}: FAILED: ${row.failure}`);
    if (row.result !== null && row.result.non_2xx > 0) {
      const statuses = Object.entries(row.result.status_counts).sort(([a], [b]) => Number(a) - Number(b)).map(([status, count]) => `${status}: ${fixed(count, 0)}`);
      notes.push(`${name(row)}: answers by status: ${statuses.join(', ')}`);
      const codes = Object.entries(row.result.error_codes).map(([kind, count]) => `${kind}: ${fixed(count, 0)}`);
      if (codes.length > 0) notes.push(`${name(row)}: failed answers by code: ${codes.join(', ')}`);
      if (row.result.status_counts['429'] !== undefined) {
        notes.push(`${name(row)}: 429s mean a key used up its 1,000,000 requests of a minute: shorten BENCH_DURATION or spread the load over more keys`);
      }
    }
    for (const warning of row.warnings) notes.push(`${name(row)}: ${warning}`);
    if (row.result !== null && row.result.other_cpu_cores !== null && row.result.other_cpu_cores > other_cpu_cores_max) {
      notes.push(`${name(row)}: other processes kept ${row.result.other_cpu_cores.toFixed(2)} cores busy during the run: its figures are skewed`);
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
