// One run of one scenario, the bench's and the test suite's (test/bench-scenarios.test.ts runs every
// scenario through here at a tiny size): starts its server, sets it up, drives the load, reads the
// journal's commits and the scenario's own figures, stops everything it started.
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { run_load, type LoadSettings } from './load.js';
import { OperatorClient } from './fixtures.js';
import { limit_of, seeded_random, type Scenario, type ScenarioContext } from './scenarios.js';
import { repo_root, start_server, type ServerProcess } from './server-process.js';
import type { Row } from './report.js';
import { summarize_profile } from './profile.js';

/** Functions and packages listed per profile. */
const profile_top_max = 15;
/** The mix draws the same sequence of operations on every run. */
const mix_seed = 0x5eed;

function log_stderr(line: string): void {
  process.stderr.write(line + '\n');
}

/** Never throws: a scenario that could not run is a row with its failure. */
export async function run_scenario(scenario: Scenario, settings: LoadSettings, accounts_count: number, profile_path: string | null, round = 1, log: (line: string) => void = log_stderr): Promise<Row> {
  const row: Row = {
    scenario: scenario.name,
    round,
    target: scenario.target,
    compare_to: scenario.compare_to,
    compare_to_limit: limit_of(scenario.compare_to),
    targets: scenario.targets ?? null,
    result: null,
    ratio_to_baseline: null,
    ratio_to_limit: null,
    failure: null,
    warnings: [],
    notes: [],
    profile: null,
  };
  log(`${scenario.name}${round > 1 ? ` (round ${round})` : ''}: ${scenario.summary}`);
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
    row.result = await run_load(running.base_url, requests, settings, () => running.cpu_ms(), () => running.main_thread_cpu_ms());
    const { server_cpu_us_per_request: whole_us, server_main_thread_us_per_request: main_us } = row.result;
    if (whole_us !== null && main_us !== null) {
      // A V8 profile shows the main thread only; LMDB's commits run on threads of their own.
      const note = `server CPU per request: ${whole_us.toFixed(1)} µs, ${main_us.toFixed(1)} on the main thread, ${(whole_us - main_us).toFixed(1)} on other threads (LMDB's commits, GC helpers, signers)`;
      row.notes.push(note);
      log(`  ${note}`);
    }
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
