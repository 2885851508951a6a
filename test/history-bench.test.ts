// The bench scenario history-filtered at a tiny size, so that the suite keeps it working: it seeds a
// store of one account through the engine (bench/seed-store.ts, history mode), starts dist/cli.js on it,
// runs its filtered requests and streams its export.
/// <reference path="../bench/autocannon.d.ts" />
import t from 'tap';
import { seeded_random, type ScenarioContext } from '../bench/scenarios.js';
import { history_filtered } from '../bench/history-bench.js';
import { run_load } from '../bench/load.js';
import { OperatorClient } from '../bench/fixtures.js';
import type { ServerProcess } from '../bench/server-process.js';

t.test('the bench scenario history-filtered runs at a tiny size and measures its export', async (t) => {
  const scenario = history_filtered(() => ({ orders: 3_000, store_dir: null, export_rows_target: 100_000 }));
  let server: ServerProcess | null = null;
  t.teardown(async () => {
    await server?.stop();
    await scenario.stop?.();
  });
  server = await scenario.start!({ cpu_profile_path: null, env: scenario.env });
  const warnings: string[] = [];
  const context: ScenarioContext = {
    server,
    operator: new OperatorClient(server.admin_url!, server.admin_token),
    accounts_count: 1,
    random: seeded_random(1),
    log: () => {},
    warn: (line) => warnings.push(line),
  };
  const requests = await scenario.prepare(context);
  const result = await run_load(server.base_url, requests, { connections: 2, pipelining: 1, duration_s: 2, warmup_s: 0, timeout_s: 10 }, () => null);
  t.ok((result.status_counts['200'] ?? 0) > 0, `the filtered lists answered 200 (${JSON.stringify(result.status_counts)})`);
  t.equal(result.non_2xx, 0, `no filtered list was refused (${JSON.stringify(result.error_codes)})`);
  t.same(warnings, [], 'the set-up raised no warning');
  // 3,000 orders span three blocks of the in-memory counts (engine/order-index.ts): the totals
  // come from them, and must be what the seeder made (one in twenty failed, one in ten electricity).
  const setup = requests[0].setupRequest as unknown as (request: Record<string, unknown>) => { headers: Record<string, string> };
  const seeded_key = setup({ method: 'GET', path: '/' }).headers.authorization;
  for (const [query, expected] of [['status=failed', 150], ['service_type=electricity', 300], ['service_type=airtime&status=successful', 1_800 - 150]] as const) {
    for (let round = 0; round < 2; round++) {
      const answer = await fetch(`${server.base_url}/v1/transactions?${query}`, { headers: { authorization: seeded_key } });
      const body = await answer.json() as { data: { pagination: { total: number } } };
      t.equal(body.data.pagination.total, expected, `${query}: the total is ${expected} (${round === 0 ? 'counts built' : 'counts kept'})`);
    }
  }
  const notes = await scenario.finish!(context, 0);
  t.match(notes.join('\n'), /export: \d+ rows of \d+ days/, `the export is measured: ${notes.join('; ')}`);
  const rows = Number(/export: (\d+) rows/.exec(notes.join('\n'))?.[1]);
  t.ok(rows > 0 && rows <= 3_000, `the export streamed the seeded orders of its days (${rows})`);
});
