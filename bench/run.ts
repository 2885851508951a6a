// `npm run bench [-- <scenario>...] [--cpu-prof]`: runs the named scenarios (all by default), each
// against a freshly started production build on its own temp store, with both yardsticks it is
// compared with (docs/benchmarks.md "Yardsticks": the bare uWebSockets.js server at the machine's
// limit, and the same writing billvend's headers) measured in the same run, in rounds that alternate
// direction so that drift on a shared machine falls on both sides; prints the table and the targets
// met or not, and writes them as JSON.
//
// Environment: BENCH_DURATION (measured seconds, default 10), BENCH_WARMUP (seconds, default 2),
// BENCH_ACCOUNTS (accounts of the many-account scenarios, default 1,000), BENCH_ROUNDS (default 2).
import { join, relative } from 'node:path';
import type { LoadSettings } from './load.js';
import { limit_of, scenarios, yardstick_names, type Scenario } from './scenarios.js';
import { kill_started_servers, repo_root } from './server-process.js';
import { benchmarks_doc, describe_machine, render_profile, render_report, set_ratios, write_report, type Report, type Row } from './report.js';
import { run_recovery } from './recovery.js';
import { run_scenario } from './run-scenario.js';

const results_dir = join(repo_root, 'bench', 'results');
const profiles_dir = join(results_dir, 'profiles');

const usage = `usage: npm run bench [-- <scenario>...] [--cpu-prof]
scenarios: baseline (= the four yardsticks: ${yardstick_names.join(', ')}), ${scenarios.map((s) => s.name).join(', ')}, recovery
environment: BENCH_DURATION=<s> (10), BENCH_WARMUP=<s> (2), BENCH_ACCOUNTS=<n> (1000), BENCH_ROUNDS=<n> (2),
             RECOVERY_ACCOUNTS=<n> (100000), RECOVERY_ORDERS_PER_ACCOUNT=<n> (10)`;

function log(line: string): void {
  process.stderr.write(line + '\n');
}

function usage_error(message: string): never {
  process.stderr.write(`bench: ${message}\n${usage}\n`);
  process.exit(2);
}

function number_from_env(name: string, fallback: number, minimum: number, integer: boolean): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < minimum || (integer && !Number.isInteger(value))) {
    usage_error(`${name} must be ${integer ? 'an integer' : 'a number'} ≥ ${minimum}, got "${text}"`);
  }
  return value;
}

/** The scenarios to run, in the table's order, each with the baseline its ratio needs. */
function select(argv: readonly string[]): { selected: Scenario[]; cpu_profile: boolean; recovery: boolean } {
  let cpu_profile = false;
  let recovery = argv.filter((a) => !a.startsWith('-')).length === 0;
  const wanted = new Set<string>();
  for (const arg of argv) {
    if (arg === '--cpu-prof') cpu_profile = true;
    else if (arg === 'recovery') recovery = true;
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(usage + '\n');
      process.exit(0);
    } else if (arg.startsWith('-')) usage_error(`unknown option ${arg}`);
    else if (arg === 'baseline') {
      for (const name of yardstick_names) wanted.add(name);
    } else if (scenarios.some((s) => s.name === arg)) wanted.add(arg);
    else usage_error(`unknown scenario "${arg}"`);
  }
  // No scenario named: run them all, recovery included.
  if (wanted.size === 0 && argv.every((a) => a.startsWith('-'))) for (const s of scenarios) wanted.add(s.name);
  for (const s of scenarios) {
    if (!wanted.has(s.name)) continue;
    // Both yardsticks of the scenario's method: the machine's limit and the same headers.
    wanted.add(s.compare_to);
    wanted.add(limit_of(s.compare_to));
    if (s.compare_to_scenario !== undefined) wanted.add(s.compare_to_scenario);
  }
  return { selected: scenarios.filter((s) => wanted.has(s.name)), cpu_profile, recovery };
}

async function main(): Promise<void> {
  const { selected, cpu_profile, recovery } = select(process.argv.slice(2));
  const settings: LoadSettings = {
    connections: 100,
    pipelining: 1,
    duration_s: number_from_env('BENCH_DURATION', 10, 1, false),
    warmup_s: number_from_env('BENCH_WARMUP', 2, 0, false),
    timeout_s: 10,
  };
  const accounts_count = number_from_env('BENCH_ACCOUNTS', 1000, 1, true);
  const rounds = number_from_env('BENCH_ROUNDS', 2, 1, true);
  const started = new Date();
  const stamp = started.toISOString().replace(/:/g, '-');

  process.on('SIGINT', () => {
    log('bench: interrupted; stopping the servers it started');
    kill_started_servers();
    process.exit(130);
  });

  const rows: Row[] = [];
  for (let round = 1; round <= rounds; round++) {
    // Odd rounds in the table's order, even rounds backwards: the yardsticks run before the
    // scenarios in one round and after them in the next, so a machine that gets busier or quieter
    // during the run shifts both sides of the ratios rather than one.
    const order = round % 2 === 1 ? selected : [...selected].reverse();
    for (const scenario of order) {
      // Profiles are of billvend only (the first round's): the yardsticks are not the subject.
      const profile_path = cpu_profile && round === 1 && scenario.target === 'billvend' ? join(profiles_dir, `${scenario.name}-${stamp}.cpuprofile`) : null;
      rows.push(await run_scenario(scenario, settings, accounts_count, profile_path, round));
    }
  }
  // The table lists each scenario's rounds together, in the scenarios' order.
  rows.sort((a, b) => selected.findIndex((s) => s.name === a.scenario) - selected.findIndex((s) => s.name === b.scenario) || a.round - b.round);
  set_ratios(rows);

  // A scenario of the same load on other machinery (a cluster) against its single-node twin.
  for (const scenario of selected) {
    if (scenario.compare_to_scenario === undefined) continue;
    for (const row of rows.filter((r) => r.scenario === scenario.name)) {
      const single = rows.find((r) => r.scenario === scenario.compare_to_scenario && r.round === row.round);
      if (row.result === null || single?.result == null || single.result.requests_per_s <= 0) continue;
      row.notes.push(`${(row.result.requests_per_s / single.result.requests_per_s).toFixed(2)}x the requests/s of ${single.scenario} in this round (p99 ${row.result.latency_p99_ms} ms against ${single.result.latency_p99_ms} ms)`);
    }
  }

  const report: Report = { machine: describe_machine(started), settings: { ...settings, accounts: accounts_count, cpu_profile, rounds }, rows };
  if (recovery) {
    log('recovery: restart on a store of many accounts and orders; time to ready and memory');
    try {
      report.recovery = await run_recovery(
        number_from_env('RECOVERY_ACCOUNTS', 100_000, 1, true),
        number_from_env('RECOVERY_ORDERS_PER_ACCOUNT', 10, 0, true),
        log,
      );
    } catch (error) {
      report.recovery = { failure: (error as Error).message };
    }
  }
  const out = [render_report(report)];
  for (const row of rows) if (row.profile !== null) out.push(render_profile(row.scenario, row.profile));
  const json_path = write_report(results_dir, report);
  out.push('', `results: ${relative(repo_root, json_path)}; how to read them: ${benchmarks_doc}`);
  process.stdout.write(out.join('\n') + '\n');
  process.exitCode = rows.some((r) => r.failure !== null) || (report.recovery !== undefined && 'failure' in report.recovery) ? 1 : 0;
}

main().catch((error) => {
  kill_started_servers();
  process.stderr.write(`bench: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
