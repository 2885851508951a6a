// The bench scenario purchase-one-account-cluster at a tiny size, so that the suite keeps it working:
// it starts its own NATS servers and two nodes from dist/cli.js, runs its load on the leader, and
// measures a failover under load (kill -9 of the leader).
/// <reference path="../bench/autocannon.d.ts" />
import t from 'tap';
import { purchase_one_account_cluster, seeded_random, type ScenarioContext } from '../bench/scenarios.js';
import { run_load } from '../bench/load.js';
import { OperatorClient } from '../bench/fixtures.js';
import type { ServerProcess } from '../bench/server-process.js';

t.test('the bench scenario purchase-one-account-cluster runs at a tiny size and measures a failover', async (t) => {
  const scenario = purchase_one_account_cluster(() => ({ lease_ms: 1500, failover_workers: 4, failover_before_kill_ms: 500, failover_wait_ms_max: 30_000 }));
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
  const result = await run_load(server.base_url, requests, { connections: 4, pipelining: 1, duration_s: 2, warmup_s: 0, timeout_s: 10 }, () => null);
  t.ok((result.status_counts['201'] ?? 0) > 0, `the leader answered purchases 201 (${JSON.stringify(result.status_counts)})`);
  t.equal(result.non_2xx, 0, `no purchase was refused (${JSON.stringify(result.error_codes)})`);
  t.same(warnings, [], 'the set-up raised no warning');
  const notes = await scenario.finish!(context, 0);
  t.match(notes.join('\n'), /failover under load: writes answered again \d+ ms after kill -9 of the leader/, `the failover is measured: ${notes.join('; ')}`);
});
