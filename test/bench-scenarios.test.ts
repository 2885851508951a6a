// Every bench scenario (bench/scenarios.ts) and both yardstick servers, run through the bench's own
// code (bench/run-scenario.ts, the function `npm run bench` calls) at a tiny size: a few hundred
// requests on four connections, three accounts. It checks answers, never speed, so that a scenario
// that stops working fails here rather than on the day someone runs the bench. The cluster scenario
// has its own test (test/cluster-bench.test.ts) and is left out here.
/// <reference path="../bench/autocannon.d.ts" />
import t from 'tap';
import {
  purchase_under_sign_in_flood,
  purchase_with_webhooks,
  scenarios,
  yardstick_names,
  type Scenario,
} from '../bench/scenarios.js';
import { run_scenario } from '../bench/run-scenario.js';
import { set_ratios, verdicts, type Row } from '../bench/report.js';
import type { LoadSettings } from '../bench/load.js';

/** Tiny: enough requests to cross every code path of a generator, few enough for a busy 2-core machine. */
const tiny: LoadSettings = { connections: 4, pipelining: 1, duration_s: 1, warmup_s: 0, timeout_s: 10, requests_max: 200 };
/** Accounts of the many-account scenarios: more than one, so that the round robin turns. */
const tiny_accounts = 3;

/** Covered by test/cluster-bench.test.ts. */
const tested_elsewhere = new Set(['purchase-one-account-cluster']);

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
  'purchase-one-account': ['201'],
  'purchase-many-accounts': ['201'],
  'purchase-with-webhooks': ['201'],
  'reseller-mix': ['200', '201'],
  'purchase-under-sign-in-flood': ['201'],
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

for (const listed of scenarios) {
  if (tested_elsewhere.has(listed.name)) continue;
  t.test(`the bench scenario ${listed.name} runs at a tiny size and gets the answers it expects`, async (t) => {
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
    if (listed.name === 'purchase-with-webhooks') {
      const note = row.notes.find((n) => n.startsWith('webhooks:')) ?? '';
      const delivered = /^webhooks: (\d+) of (\d+) events delivered .*; 0 repeats\)/.exec(note);
      t.ok(delivered !== null && delivered[1] === delivered[2] && Number(delivered[2]) > 0, `every event reached the receiver, none twice: ${note}`);
    }
    if (listed.name === 'purchase-under-sign-in-flood') {
      t.match(row.notes.join('\n'), /sign-ins during the run: \d+ answered 429, \d+ answered 401/, `the flood's sign-ins were counted: ${row.notes.join('; ')}`);
    }
    if (listed.target === 'billvend') {
      t.match(row.notes.join('\n'), /journal: \d+ commits/, `the group commits under the load were read from /metrics: ${row.notes.join('; ')}`);
    }
  });
}

t.test('the report gives every target scenario a ratio to both yardsticks and a verdict', async (t) => {
  set_ratios(rows);
  const judged = verdicts(rows);
  t.same(judged.map((v) => v.scenario).sort(), scenarios.filter((s) => s.targets !== undefined).map((s) => s.name).sort(), 'each scenario with targets has a verdict');
  for (const verdict of judged) {
    t.ok(verdict.ratio_to_limit !== null && verdict.ratio_to_limit > 0, `${verdict.scenario} has a ratio to the machine's limit (${verdict.ratio_to_limit})`);
    t.ok(verdict.ratio_to_baseline !== null && verdict.ratio_to_baseline > 0, `${verdict.scenario} has a ratio to the same-headers server (${verdict.ratio_to_baseline})`);
  }
});
