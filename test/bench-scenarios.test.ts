// Every bench scenario (bench/scenarios.ts) and both yardstick servers, run through the bench's own
// code (bench/run-scenario.ts, the function `npm run bench` calls) at a tiny size: a few hundred
// requests on four connections, three accounts. It checks answers, never speed, so that a scenario
// that stops working fails here rather than on the day someone runs the bench. The cluster scenario
// has its own test (test/cluster-bench.test.ts) and is left out here. `npm run bench:scale` runs here
// too, on a store of a few hundred accounts seeded by bench/seed-store.ts.
/// <reference path="../bench/autocannon.d.ts" />
import t, { type Test } from 'tap';
import {
  noisy_neighbour,
  purchase_under_sign_in_flood,
  purchase_with_webhooks,
  scenarios,
  yardstick_names,
  type Scenario,
} from '../bench/scenarios.js';
import { run_scenario } from '../bench/run-scenario.js';
import { set_ratios, verdicts, type Row } from '../bench/report.js';
import type { LoadSettings } from '../bench/load.js';
import { measure_size, parse_sizes, default_sizes, type ScaleReport } from '../bench/scale.js';
import { render_scale_markdown, render_scale_svg } from '../bench/scale-report.js';
import { describe_machine } from '../bench/report.js';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Tiny: enough requests to cross every code path of a generator, few enough for a busy 2-core machine. */
const tiny: LoadSettings = { connections: 4, pipelining: 1, duration_s: 1, warmup_s: 0, timeout_s: 10, requests_max: 200 };
/** Accounts of the many-account scenarios: more than one, so that the round robin turns. */
const tiny_accounts = 3;

/** Covered by test/cluster-bench.test.ts and test/history-bench.test.ts (their own stores and servers). */
const tested_elsewhere = new Set(['purchase-one-account-cluster', 'history-filtered']);

/**
 * The statuses each scenario's load may answer with: GETs 200, purchases 201, the mix both. A
 * scenario missing here fails the test, so a new one cannot go unchecked.
 */
const expected_statuses: Record<string, string[]> = {
  'limit-get': ['200'],
  'limit-post': ['201'],
  'baseline-get': ['200'],
  'baseline-post': ['201'],
  'wallet-read': ['200'],
  'phone-lookup': ['200'],
  'purchase-one-account': ['201'],
  'purchase-many-accounts': ['201'],
  'purchase-with-webhooks': ['201'],
  'reseller-mix': ['200', '201'],
  // The failing number's purchases answer 422 transaction.failed, refunded.
  'refund-time': ['200', '201', '422'],
  'purchase-under-sign-in-flood': ['201'],
  'noisy-neighbour': ['201'],
};

/**
 * The scenarios as the bench runs them, but the two with settings built at a tiny size too: the
 * sign-in flood at 20 sign-ins a second from 100 addresses, the webhook drain waited for 30 s at most.
 */
function tiny_version(scenario: Scenario): Scenario {
  if (scenario.name === 'purchase-under-sign-in-flood') {
    return purchase_under_sign_in_flood(() => ({ rate_per_s: 20, connections: 2, addresses: 100, requests_max: 1000, duration_max_ms: 60_000 }));
  }
  if (scenario.name === 'purchase-with-webhooks') return purchase_with_webhooks(30_000);
  if (scenario.name === 'noisy-neighbour') return noisy_neighbour(() => ({ victim_ms: 500, victim_connections: 2, flood_connections: 1, flood_duration_max_ms: 60_000, bulk: true }));
  return scenario;
}

function describe(row: Row): string {
  return JSON.stringify({ statuses: row.result?.status_counts, codes: row.result?.error_codes, failure: row.failure, warnings: row.warnings });
}

t.test('every bench scenario has its expected statuses listed here, or is tested elsewhere', async (t) => {
  const names = scenarios.map((s) => s.name).filter((name) => !tested_elsewhere.has(name));
  t.same(names.slice().sort(), Object.keys(expected_statuses).sort(), 'the scenarios run here are exactly those of bench/scenarios.ts but the cluster one');
  for (const name of yardstick_names) t.ok(names.includes(name), `the yardstick ${name} is a scenario the bench runs`);
});

const rows: Row[] = [];

t.test('every bench scenario runs at a tiny size, and the report judges them all', async (t) => {
  // Two at a time: each mostly waits (a server starting, scrypt on the thread pool, a commit's fsync),
  // and answers, unlike timings, do not depend on what else runs.
  t.jobs = 2;
  const runs: Promise<unknown>[] = [];
  runs.push(t.test('the scale bench seeds a tiny store the server recovers, buys on it, and removes it', scale_at_tiny_size));
  for (const listed of scenarios) {
    if (tested_elsewhere.has(listed.name)) continue;
    runs.push(t.test(`the bench scenario ${listed.name} runs at a tiny size and gets the answers it expects`, async (t) => {
      const scenario = tiny_version(listed);
      const row = await run_scenario(scenario, tiny, tiny_accounts, null, 1, () => {});
      rows.push(row);
      t.equal(row.failure, null, `the scenario ran to its end (${describe(row)})`);
      t.same(row.warnings, [], `it raised no warning (${describe(row)})`);
      const result = row.result;
      if (result === null) return;
      const expected = expected_statuses[listed.name] ?? [];
      const answered = Object.values(result.status_counts).reduce((sum, count) => sum + count, 0);
      t.ok(answered >= tiny.requests_max!, `it answered every request of the load, ${answered} of ${tiny.requests_max} (${describe(row)})`);
      t.same(Object.keys(result.status_counts).filter((status) => !expected.includes(status)), [], `every answer had an expected status, ${expected.join(' or ')} (${describe(row)})`);
      t.equal(result.errors, 0, `no connection failed or timed out (${describe(row)})`);
      if (listed.name === 'reseller-mix') {
        t.ok((result.status_counts['201'] ?? 0) > 0 && (result.status_counts['200'] ?? 0) > 0, `the mix both bought and read (${describe(row)})`);
      }
      if (listed.name === 'refund-time') {
        t.ok((result.status_counts['422'] ?? 0) > 0, `some purchases failed and were refunded (${describe(row)})`);
        t.match(row.notes.join('\n'), /refunds: [1-9]\d* measured, p99 ≤ [\d.]+ s .*: met/, `the refunds were measured, p99 within 30 s: ${row.notes.join('; ')}`);
      }
      if (listed.name === 'purchase-with-webhooks') {
        const note = row.notes.find((n) => n.startsWith('webhooks:')) ?? '';
        const delivered = /^webhooks: (\d+) of (\d+) events delivered .*; 0 repeats\)/.exec(note);
        t.ok(delivered !== null && delivered[1] === delivered[2] && Number(delivered[2]) > 0, `every event reached the receiver, none twice: ${note}`);
      }
      if (listed.name === 'purchase-under-sign-in-flood') {
        t.match(row.notes.join('\n'), /sign-ins during the run: \d+ answered 429, \d+ answered 401/, `the flood's sign-ins were counted: ${row.notes.join('; ')}`);
      }
      if (listed.name === 'noisy-neighbour') {
        const notes = row.notes.join('\n');
        t.match(notes, /noisy neighbour: victim purchase p99 quiet [\d.]+ ms .*under the flood [\d.]+ ms .*: [\d.]+× \(target ≤ 3×/, `the victim's p99 quiet and under the flood were measured: ${row.notes.join('; ')}`);
        const stall = /longest stall ([\d.]+) ms/.exec(notes);
        t.ok(stall !== null && Number.isFinite(Number(stall[1])), `the server's longest event-loop stall was read: ${stall?.[1]}`);
        const peak = /scrypt runs at once at most (\d+)/.exec(notes);
        t.ok(peak !== null && Number(peak[1]) <= 3, `never more scrypt at once than the lanes allow: ${peak?.[1]}`);
        t.match(notes, /pin-by-password \d{3}/, 'the flood changed PINs');
      }
      if (listed.target === 'billvend') {
        t.match(row.notes.join('\n'), /journal: \d+ commits/, `the group commits under the load were read from /metrics: ${row.notes.join('; ')}`);
        t.match(row.notes.join('\n'), /server CPU per request: [\d.]+ µs, [\d.]+ on the main thread, -?[\d.]+ on other threads/, `the server's CPU was split between its main thread and the others: ${row.notes.join('; ')}`);
      }
    }));
  }
  await Promise.all(runs);
  t.test('the report gives every target scenario a ratio to both yardsticks and a verdict', async (t) => {
    set_ratios(rows);
    const judged = verdicts(rows);
    t.same(judged.map((v) => v.scenario).sort(), scenarios.filter((s) => s.targets !== undefined).map((s) => s.name).sort(), 'each scenario with targets has a verdict');
    for (const verdict of judged) {
      t.ok(verdict.ratio_to_limit !== null && verdict.ratio_to_limit > 0, `${verdict.scenario} has a ratio to the machine's limit (${verdict.ratio_to_limit})`);
      t.ok(verdict.ratio_to_baseline !== null && verdict.ratio_to_baseline > 0, `${verdict.scenario} has a ratio to the same-headers server (${verdict.ratio_to_baseline})`);
    }
  });
});

t.test('the scale bench reads its sizes: k and m suffixes, orders one per account unless given', async (t) => {
  t.same(parse_sizes('10k,1m:10m'), { sizes: [{ label: '10k', accounts: 10_000, orders: 10_000 }, { label: '1m:10m', accounts: 1_000_000, orders: 10_000_000 }] }, 'the sizes parse');
  const defaults = parse_sizes(default_sizes);
  t.ok('sizes' in defaults && defaults.sizes.some((s) => s.accounts === 1_000_000 && s.orders === 10_000_000), 'the default sizes reach a million accounts and ten million orders');
  t.same(parse_sizes('10q'), { bad: '10q' }, 'a size that does not parse is named');
  t.same(parse_sizes('0'), { bad: '0' }, 'an empty store is no size');
});

/** bench:scale at a tiny size: seeding, recovery, the load, the removal and both files it writes. */
async function scale_at_tiny_size(t: Test): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'billvend-scale-test-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const size = { label: '300:900', accounts: 300, orders: 900 };
  const row = await measure_size(root, size, tiny, 3, () => {});
  t.equal(row.failure, null, `the size was measured to its end (${row.failure})`);
  t.ok(row.seed_ms !== null && row.store_bytes !== null && row.store_bytes > 0, `the seeding time and disk use are known (${row.seed_ms} ms, ${row.store_bytes} bytes)`);
  t.ok(row.ready_ms !== null && row.rss_ready_bytes !== null && row.rss_ready_bytes > 0, `the time to ready and resident memory are known (${row.ready_ms} ms, ${row.rss_ready_bytes} bytes)`);
  const load = row.load;
  t.ok(load !== null, 'the purchase load ran');
  if (load !== null) {
    t.same(Object.keys(load.status_counts), ['201'], `every purchase on the seeded store was answered 201 (${JSON.stringify(load.status_counts)} ${JSON.stringify(load.error_codes)})`);
    t.equal(load.errors, 0, 'no connection failed or timed out');
  }
  const history = row.history;
  t.ok(history !== null && history.cold.requests > 0 && history.warm.requests > 0, `filtered history pages were read cold and warm (${JSON.stringify(history)})`);
  t.equal(history?.not_ok, 0, 'every filtered history page was answered 200');
  t.same(readdirSync(root), [], 'the seeded store was removed after its size');
  const report: ScaleReport = { machine: describe_machine(new Date()), load_average: [0, 0, 0], settings: { ...tiny, load_accounts: 3 }, rows: [row] };
  const markdown = render_scale_markdown(report);
  t.match(markdown, /\| 300:900 \(300 accounts, 900 orders\) \|/, `the Markdown table has the size's row:\n${markdown}`);
  t.match(markdown, report.machine.date, 'the table carries its date');
  t.match(markdown, /history page p50 \/ p99 ms/, 'the table has the filtered history page column');
  const svg = render_scale_svg(report);
  t.match(svg, /^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/, 'the chart is an SVG document');
  t.match(svg, /300 accounts/, 'the chart labels the size');
  t.notOk(existsSync(join(root, 'store-300x900')), 'nothing of the store is left');
}
