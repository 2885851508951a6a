// `npm run bench` reads as a report (docs/benchmarks.md): a short summary first, each scenario with its ratio to
// the machine's limit and its p99 against their targets, met or not in words, one sentence for the run and the page
// that explains it; the wide table after.
import t from 'tap';
import { render_report, set_ratios, type Report, type Row } from '../bench/report.js';
import type { LoadResult } from '../bench/load.js';

function result(requests_per_s: number, p99_ms: number, other_cpu_cores = 0.05): LoadResult {
  return {
    requests_per_s, requests_total: requests_per_s * 10, latency_p50_ms: p99_ms / 3, latency_p99_ms: p99_ms, latency_max_ms: p99_ms * 2,
    non_2xx: 0, errors: 0, timeouts: 0, status_counts: { 200: requests_per_s * 10 }, error_codes: {},
    server_cpu_cores: 0.9, server_cpu_us_per_request: 1_000_000 / requests_per_s, server_main_thread_us_per_request: null, bench_cpu_cores: 0.8, other_cpu_cores, window_us: { start: 0, end: 10_000_000 },
  };
}

function row(scenario: string, target: Row['target'], load: LoadResult | null, targets: Row['targets'] = null): Row {
  const method = scenario.includes('purchase') || scenario.endsWith('post') ? 'post' : 'get';
  return {
    scenario, round: 1, target, compare_to: `baseline-${method}`, compare_to_limit: `limit-${method}`, targets, result: load,
    ratio_to_baseline: null, ratio_to_limit: null, failure: load === null ? 'the server did not start' : null, warnings: [], notes: [], profile: null,
  };
}

function report(rows: Row[]): Report {
  set_ratios(rows);
  return {
    machine: { cpu_model: 'Test CPU', cores: 2, ram_gib: 4, node: 'v20.0.0', date: '2026-11-27T22:30:00.000Z' },
    settings: { connections: 100, pipelining: 1, duration_s: 10, warmup_s: 2, timeout_s: 10, accounts: 1000, cpu_profile: false, rounds: 1 },
    rows,
  };
}

const yardsticks = () => [
  row('limit-get', 'baseline', result(40_000, 5)),
  row('limit-post', 'baseline', result(30_000, 6)),
  row('baseline-get', 'baseline', result(35_000, 5)),
  row('baseline-post', 'baseline', result(25_000, 6)),
];

t.test('the summary comes first: each scenario, its ratio and p99 against their targets in words, then the table', async (t) => {
  const text = render_report(report([
    ...yardsticks(),
    row('wallet-read', 'billvend', result(20_000, 12), { ratio_to_limit_min: 0.4, p99_ms_max: 20 }),
    row('purchase-one-account', 'billvend', result(6_000, 35, 0.9), { ratio_to_limit_min: 0.3, p99_ms_max: 20 }),
  ]));
  const lines = text.split('\n');
  t.match(lines[0], /^Summary \(2 cores, 2026-11-27 22:30 UTC; 1 round, medians\):$/, 'the first line announces the summary');
  t.match(lines[1], /^  wallet-read +0\.50x the bare server's requests\/s, meets its target of 0\.40x; p99 12\.0 ms, within its 20 ms$/, 'a scenario that meets both says so in words');
  t.match(lines[2], /^  purchase-one-account +0\.20x the bare server's requests\/s, below its target of 0\.30x; p99 35\.0 ms, over its 20 ms$/, 'a scenario short of both says by how much, in words');
  t.match(lines[3], /^  1 of 2 meet both targets; short of a target: purchase-one-account\.$/, 'one sentence for the run');
  t.match(text.slice(0, text.indexOf('billvend bench —')), /Other work kept up to 0\.90 cores busy during 1 of 6 runs/, 'the summary says what skewed the figures');
  t.match(text.slice(0, text.indexOf('billvend bench —')), /docs\/benchmarks\.md/, 'and names docs/benchmarks.md');
  t.ok(text.indexOf('Summary') < text.indexOf('vs same headers'), 'the wide table comes after the summary');
  t.ok(lines.slice(0, 8).every((line) => line.length <= 120), 'the summary fits a terminal');
  t.notMatch(text, /NOT MET/, 'no verdict in capitals');
  t.match(text, /purchase-one-account +0\.20× +≥ 0\.30× +missed/, 'the targets table says missed');
});

t.test('a run where every scenario meets both targets, and one with no targets, read as such', async (t) => {
  const all_met = render_report(report([...yardsticks(), row('wallet-read', 'billvend', result(20_000, 12), { ratio_to_limit_min: 0.4, p99_ms_max: 20 })]));
  t.match(all_met, /^ {2}All 1 scenario meets both targets\.$/m, 'all met, in words');
  t.notMatch(all_met.slice(0, all_met.indexOf('billvend bench —')), /Other work/, 'a quiet run says nothing of skew');
  const baseline_only = render_report(report(yardsticks()));
  t.match(baseline_only, /^ {2}No scenario with targets ran/m, 'a yardsticks-only run says there was nothing to judge');
  const failed = render_report(report([...yardsticks(), row('wallet-read', 'billvend', null, { ratio_to_limit_min: 0.4, p99_ms_max: 20 })]));
  t.match(failed, /Failed to run: wallet-read/, 'a scenario that failed is named in the summary');
});
