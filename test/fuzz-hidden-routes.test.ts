// Hostile input on the routes the OpenAPI document does not list (issue "Reliability and security
// campaign", item 3): the dashboard's API under /dashboard/api (session cookie and X-CSRF-Token), the
// bank partner's POST /v1/funding/bank-transfer (every fuzzed body correctly signed with
// FUNDING_WEBHOOK_SECRET, so that the fuzzer reaches the parser and the credit behind the signature,
// and also garbled signatures), and the operator API with its token. The same mutations, checks and
// state comparisons as test/fuzz-routes.test.ts.
//
// FUZZ_RUNS=<n> multiplies the run counts for a long run; FUZZ_SEED=<n> replays a run.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import {
  FuzzLedger, error_log_lines, fuzz_route, fuzz_scale, fuzz_seed, judge, load_catalog, make_world, send, sign_in, still_serving,
  type RouteEntry, type WireResponse,
} from './helpers/route-catalog.js';

const funding_secret = 'fuzz-funding-secret-4b1d9c';
const receiver = new WebhookReceiver();
await receiver.start();
t.teardown(() => receiver.stop());
const server = await start_server(t, { env: webhook_env({ FUNDING_WEBHOOK_SECRET: funding_secret }) });
const catalog = await load_catalog(server);
const world = await make_world(server, { receiver, funding_secret });
const seed = fuzz_seed();
const scale = fuzz_scale();

// Sign-out first among the session routes that end sessions, then the PIN (wrong passwords there
// count towards the sign-in lock), then sign-in itself, whose wrong passwords lock sign-in: what
// comes after a lock could not sign in again.
const last = ['DELETE /dashboard/api/session', 'POST /dashboard/api/pin', 'POST /dashboard/api/session'];
const hidden_routes = catalog.routes
  .filter((r) => !r.documented)
  .sort((a, b) => last.indexOf(a.name) - last.indexOf(b.name));

async function revive(): Promise<void> {
  await server.kill();
  await server.start();
}

/** A fuzzed sign-out may end the session the other requests use: sign in again when it did. */
async function keep_session(): Promise<void> {
  const check = await fetch(`${server.base}/dashboard/api/session`, { headers: { cookie: `bv_session=${world.session.cookie}` } });
  await check.text();
  if (check.status === 401) world.session = await sign_in(server, world.email, world.password);
}

t.test('the catalogue has a valid request for every dashboard, funding and operator route', async (t) => {
  t.ok(hidden_routes.some((r) => r.auth === 'session'), 'the dashboard API is in the catalogue');
  t.ok(hidden_routes.some((r) => r.port === 'operator'), 'the operator API is in the catalogue');
  const probe = await make_world(server, { receiver, funding_secret });
  for (const route of hidden_routes) {
    const response = await send(server, route.build(probe));
    if (route.name === 'DELETE /dashboard/api/session') probe.session = await sign_in(server, probe.email, probe.password);
    const expected = route.valid_status === undefined ? 'a 2xx' : String(route.valid_status);
    t.ok(route.valid_status === undefined ? response.status >= 200 && response.status < 300 : response.status === route.valid_status, `the valid request of ${route.name} gets ${expected} (${response.status} ${response.body.slice(0, 160)})`);
    t.same(judge(response).problems, [], `the answer to the valid request of ${route.name} passes every check`);
  }
});

t.test('hostile requests to the dashboard, funding and operator routes never get a 500, always get the error envelope, and a refused one changes nothing', async (t) => {
  const ledger = new FuzzLedger();
  const started = Date.now();
  const protected_params = new Set([world.key_id, world.live_key_id, world.endpoint_id].map(String));
  const observer = { server, test_key: world.key, live_key: world.live_key };
  const run_plan = (route: RouteEntry) => {
    // Sign-in costs an scrypt per request: fewer runs.
    if (route.name === 'POST /dashboard/api/session') return { runs: Math.ceil(8 * scale), batch: 4 };
    // Half of the sign-outs succeed (and are followed by a new sign-in): one request per run, so that
    // many runs are wholly refused and compared.
    if (route.name === 'DELETE /dashboard/api/session') return { runs: Math.ceil(30 * scale), batch: 1 };
    return route.changes_state ? { runs: Math.ceil(20 * scale), batch: 3 } : { runs: Math.ceil(10 * scale), batch: 8 };
  };
  for (const [index, route] of hidden_routes.entries()) {
    const after_batch = route.auth === 'session' ? async (_responses: WireResponse[]) => keep_session() : undefined;
    await fuzz_route(world, route, { ...run_plan(route), seed: seed + index, ledger, observer, mutation: { protected_params, deep: ledger.crashes < 3 }, revive, after_batch });
  }
  t.comment(`seed ${seed} (FUZZ_SEED=${seed} replays), scale ${scale}, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  t.comment(ledger.summary());
  t.ok(ledger.requests >= 1000 * Math.min(scale, 1), `the fuzzer sent at least 1000 hostile requests (${ledger.requests})`);
  t.same([...ledger.routes.keys()].sort(), hidden_routes.map((r) => r.name).sort(), 'every dashboard, funding and operator route was fuzzed');
  t.equal(ledger.crashes, 0, 'the server process never died under the fuzzer (each death is restarted and listed below)');
  for (const route of hidden_routes) {
    const tally = ledger.routes.get(route.name);
    t.equal(tally?.statuses.get(500) ?? 0, 0, `${route.name}: no 500 in ${tally?.requests ?? 0} hostile requests`);
    if (route.changes_state) t.ok((tally?.state_checks ?? 0) > 0, `${route.name}: at least one batch was wholly refused and its state compared (${tally?.state_checks ?? 0})`);
    const problems = ledger.report().filter((line) => line.startsWith(`${route.name} → `));
    t.same(problems, [], `${route.name}: every answer passed every check`);
  }
});

t.test('the server logged no error or fatal line while it was fuzzed and still answers normal requests', async (t) => {
  t.equal(await still_serving(world), null, '/readyz is 200 and GET /v1/account is 200 after the fuzzing');
  const metrics = await server.admin('GET', '/metrics');
  t.equal(metrics.status, 200, 'the operator API still serves /metrics with the token');
  const lines = error_log_lines(server).map((line) => line.slice(0, 400));
  t.same(lines, [], 'no log line at level error or fatal');
  t.same(server.stderr.filter((chunk) => chunk.trim() !== ''), [], 'nothing on stderr');
});
