// `npm run bench [-- <scenario>...] [--cpu-prof]`: runs the named scenarios (all by default), each
// against a freshly started production build on its own temp store, with the bare uWebSockets.js
// baseline it is compared with measured in the same run; prints one table and writes it as JSON.
//
// Environment: BENCH_DURATION (measured seconds, default 10), BENCH_WARMUP (seconds, default 2),
// BENCH_ACCOUNTS (accounts of the many-account scenarios, default 1,000).
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { run_load, type LoadSettings } from './load.js';
import { OperatorClient } from './fixtures.js';
import { scenarios, seeded_random, type Scenario, type ScenarioContext } from './scenarios.js';
import { kill_started_servers, repo_root, start_server, type ServerProcess } from './server-process.js';
import { describe_machine, render_profile, render_report, write_report, type Report, type Row } from './report.js';
import { summarize_profile } from './profile.js';
import { run_recovery } from './recovery.js';

const results_dir = join(repo_root, 'bench', 'results');
const profiles_dir = join(results_dir, 'profiles');
/** Functions and packages listed per profile. */
const profile_top_max = 15;
/** The mix draws the same sequence of operations on every run. */
const mix_seed = 0x5eed;

const usage = `usage: npm run bench [-- <scenario>...] [--cpu-prof]
scenarios: baseline (= baseline-get and baseline-post), ${scenarios.map((s) => s.name).join(', ')}, recovery
environment: BENCH_DURATION=<s> (10), BENCH_WARMUP=<s> (2), BENCH_ACCOUNTS=<n> (1000),
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
      wanted.add('baseline-get');
      wanted.add('baseline-post');
    } else if (scenarios.some((s) => s.name === arg)) wanted.add(arg);
    else usage_error(`unknown scenario "${arg}"`);
  }
  // No scenario named: run them all, recovery included.
  if (wanted.size === 0 && argv.every((a) => a.startsWith('-'))) for (const s of scenarios) wanted.add(s.name);
  for (const s of scenarios) {
    if (!wanted.has(s.name)) continue;
    wanted.add(s.compare_to);
    if (s.compare_to_scenario !== undefined) wanted.add(s.compare_to_scenario);
  }
  return { selected: scenarios.filter((s) => wanted.has(s.name)), cpu_profile, recovery };
}

async function run_scenario(scenario: Scenario, settings: LoadSettings, accounts_count: number, profile_path: string | null): Promise<Row> {
  const row: Row = {
    scenario: scenario.name,
    target: scenario.target,
    compare_to: scenario.compare_to,
    result: null,
    ratio_to_baseline: null,
    failure: null,
    warnings: [],
    notes: [],
    profile: null,
  };
  log(`${scenario.name}: ${scenario.summary}`);
  let server: ServerProcess | null = null;
  try {
    const options = { cpu_profile_path: profile_path, env: scenario.env };
    server = scenario.start !== undefined ? await scenario.start(options) : await start_server(scenario.target, options);
    const operator = server.admin_url === null ? null : new OperatorClient(server.admin_url, server.admin_token);
    const context: ScenarioContext = {
      server,
      operator,
      accounts_count,
      random: seeded_random(mix_seed),
      log,
      warn: (line) => {
        row.warnings.push(line);
        log(`  warning: ${line}`);
      },
    };
    const requests = await scenario.prepare(context);
    log(`  load: ${settings.warmup_s} s warm-up, ${settings.duration_s} s measured`);
    const running = server; // a const, so that the closure keeps the narrowed type
    const journal_before = operator === null ? null : await operator.journal_totals();
    row.result = await run_load(running.base_url, requests, settings, () => running.cpu_ms());
    if (operator !== null && journal_before !== null) {
      // What the group commit did under this load (warm-up included): how many requests share a commit
      // and how long a commit takes to reach the disk, the floor under every purchase's latency.
      const after = await operator.journal_totals();
      const commits = after.commits - journal_before.commits;
      if (commits > 0) {
        const note = `journal: ${commits} commits, ${Math.round((after.changes - journal_before.changes) / commits)} changes each, ${((after.duration_ms - journal_before.duration_ms) / commits).toFixed(1)} ms from LMDB to disk on average`;
        row.notes.push(note);
        log(`  ${note}`);
      }
    }
    if (server.has_exited) throw new Error(`the server died during the run:\n${server.log_tail()}`);
    if (scenario.finish !== undefined) {
      const answered_2xx = Object.entries(row.result.status_counts).reduce((sum, [status, count]) => (status.startsWith('2') ? sum + count : sum), 0);
      for (const note of await scenario.finish(context, answered_2xx)) {
        row.notes.push(note);
        log(`  ${note}`);
      }
    }
  } catch (error) {
    row.failure = (error as Error).message;
    log(`  failed: ${row.failure}`);
    if (server !== null) log(`  server output:\n${server.log_tail()}`);
  } finally {
    if (server !== null) {
      const exit = await server.stop();
      if (exit !== 'code 0' && !scenario.kills_its_server) row.warnings.push(`the server exited with ${exit} on SIGTERM`);
    }
    await scenario.stop?.().catch((error: Error) => row.warnings.push(`stopping the scenario's other servers: ${error.message}`));
  }
  if (profile_path !== null) {
    if (existsSync(profile_path)) {
      row.profile = summarize_profile(profile_path, repo_root, profile_top_max, row.result?.window_us ?? null);
      log(`  CPU profile written to ${relative(repo_root, profile_path)}`);
    } else {
      row.warnings.push(`no CPU profile at ${relative(repo_root, profile_path)} (did the server exit cleanly?)`);
    }
  }
  return row;
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
  const started = new Date();
  const stamp = started.toISOString().replace(/:/g, '-');

  process.on('SIGINT', () => {
    log('bench: interrupted; stopping the servers it started');
    kill_started_servers();
    process.exit(130);
  });

  const rows: Row[] = [];
  for (const scenario of selected) {
    // Profiles are of billvend only: the baseline is the yardstick, not the subject.
    const profile_path = cpu_profile && scenario.target === 'billvend' ? join(profiles_dir, `${scenario.name}-${stamp}.cpuprofile`) : null;
    rows.push(await run_scenario(scenario, settings, accounts_count, profile_path));
  }

  const baselines = new Map(rows.filter((r) => r.target === 'baseline' && r.result !== null).map((r) => [r.scenario, r.result!.requests_per_s]));
  for (const row of rows) {
    const baseline_rps = baselines.get(row.compare_to);
    if (row.result !== null && baseline_rps !== undefined && baseline_rps > 0) row.ratio_to_baseline = row.result.requests_per_s / baseline_rps;
  }

  // A scenario of the same load on other machinery (a cluster) against its single-node twin.
  for (const scenario of selected) {
    if (scenario.compare_to_scenario === undefined) continue;
    const row = rows.find((r) => r.scenario === scenario.name);
    const single = rows.find((r) => r.scenario === scenario.compare_to_scenario);
    if (row?.result == null || single?.result == null || single.result.requests_per_s <= 0) continue;
    row.notes.push(`${(row.result.requests_per_s / single.result.requests_per_s).toFixed(2)}x the requests/s of ${single.scenario} in this run (p99 ${row.result.latency_p99_ms} ms against ${single.result.latency_p99_ms} ms)`);
  }

  const report: Report = { machine: describe_machine(started), settings: { ...settings, accounts: accounts_count, cpu_profile }, rows };
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
  out.push('', `results: ${relative(repo_root, json_path)}`);
  process.stdout.write(out.join('\n') + '\n');
  process.exitCode = rows.some((r) => r.failure !== null) || (report.recovery !== undefined && 'failure' in report.recovery) ? 1 : 0;
}

main().catch((error) => {
  kill_started_servers();
  process.stderr.write(`bench: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
