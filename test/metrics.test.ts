// /metrics (docs/operations.md "Metrics") after a mixed load: Prometheus's own checker, promtool from
// Debian's prometheus package (.ci/run installs it), accepts the exposition with no problem, and the
// business metrics count what happened: purchases by outcome, refunds, upstream calls, webhook attempts.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { start_server } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { buy_airtime, sandbox, warm_up_live, wait_for_async } from './helpers/purchases.js';

const promtool = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';

const upstream = await start_upstream(t);
const server = await start_server(t, { env: webhook_env({ TIME_SCALE: '0.5', ...upstream.env(1_000) }) });
const receiver = new WebhookReceiver();
await receiver.start();
t.teardown(() => receiver.stop());

function series(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const present = match[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => present.includes(`${k}="${v}"`))) total += Number(match[3]);
  }
  return total;
}

t.test('after a mixed load, promtool check metrics passes and the business metrics count it', async (t) => {
  const account = await server.reseller(10_000, {}, { rate_limit_per_minute: 1_000_000 });
  const live = await server.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  await server.credit(account.id, 'live', 10_000);
  await warm_up_live(server, live.api_key);

  // One endpoint answers 500 once, then 200: one failed attempt, then deliveries.
  receiver.script = [500];
  const endpoint = await server.api('POST', '/v1/webhooks', { key: account.key, body: { url: receiver.url, events: ['transaction.completed'] } });
  t.equal(endpoint.status, 201, 'a webhook endpoint is registered');
  receiver.secret = endpoint.body.data.secret;

  t.equal((await buy_airtime(server, account.key, sandbox.delivered, 100)).status, 201, 'a sandbox airtime purchase is delivered');
  t.equal((await buy_airtime(server, account.key, sandbox.delivered, 200)).status, 201, 'a second one is delivered');
  t.equal((await buy_airtime(server, account.key, sandbox.failed, 300)).status, 422, 'a sandbox airtime purchase fails and is refunded');
  t.equal((await buy_airtime(server, live.api_key, '08061230001', 150)).status, 201, 'a live purchase goes through the upstream');
  t.equal((await server.api('GET', '/v1/wallet', { key: account.key })).status, 200, 'a read');
  t.equal((await server.api('GET', '/v1/nowhere', { key: account.key })).status, 404, 'an unknown route');
  await wait_for_async(async () => (receiver.received.filter((r) => r.answered === 200).length >= 2 ? true : null), 60_000, 'both completed events delivered');

  const response = await server.admin('GET', '/metrics');
  t.equal(response.status, 200, '/metrics answers 200');
  t.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/, 'in the Prometheus text format');
  const text = response.text;

  t.ok(existsSync(promtool), `promtool is installed at ${promtool} (Debian's prometheus package; .ci/run installs it)`);
  const checked = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  t.equal(checked.status, 0, `promtool check metrics exits 0: ${checked.stdout}${checked.stderr}`);
  t.equal(`${checked.stdout}${checked.stderr}`.trim(), '', 'and reports no problem');

  for (const line of text.split('\n').filter((l) => l.startsWith('# TYPE '))) {
    const name = line.split(' ')[2];
    t.ok(text.includes(`# HELP ${name} `), `${name} has HELP`);
    t.notMatch(name, /_ms$|_ms_/, `${name} is not in milliseconds`);
  }

  t.equal(series(text, 'billvend_purchases_total', { service_type: 'airtime', environment: 'test', outcome: 'placed' }), 3, 'three test airtime purchases placed');
  t.equal(series(text, 'billvend_purchases_total', { service_type: 'airtime', environment: 'test', outcome: 'delivered' }), 2, 'two delivered');
  t.equal(series(text, 'billvend_purchases_total', { service_type: 'airtime', environment: 'test', outcome: 'failed' }), 1, 'one failed');
  t.equal(series(text, 'billvend_refunds_total', { service_type: 'airtime', environment: 'test' }), 1, 'one refund');
  t.equal(series(text, 'billvend_refunded_kobo_total', { environment: 'test' }), 300_00, 'of NGN 300');
  t.equal(series(text, 'billvend_purchases_total', { environment: 'live', outcome: 'delivered' }), 1, 'one live purchase delivered (besides the warm-up)');
  t.ok(series(text, 'billvend_provider_calls_total', { operation: 'pay', result: 'answered' }) >= 1, 'the upstream pay call is counted');
  t.ok(series(text, 'billvend_provider_call_duration_seconds_count', { operation: 'pay' }) >= 1, 'and timed');
  t.equal(series(text, 'billvend_provider_circuit_state'), 0, 'the upstream circuit is closed');
  t.equal(series(text, 'billvend_webhook_attempts_total', { result: 'failed' }), 1, 'one webhook attempt failed');
  t.ok(series(text, 'billvend_webhook_attempts_total', { result: 'delivered' }) >= 2, 'two were delivered');
  t.ok(series(text, 'billvend_webhook_delivery_lag_seconds_count') >= 2, 'their delivery lag is observed');
  t.ok(series(text, 'billvend_http_requests_total', { route: 'GET /v1/wallet', status: '200' }) >= 1, 'requests by route and status');
  t.ok(series(text, 'billvend_http_request_duration_seconds_count') > 0, 'request latency in seconds');
  t.ok(series(text, 'billvend_journal_commit_duration_seconds_count') > 0, 'commit latency in seconds');
  // Declared, not necessarily sampled: GC durations appear only after a collection.
  for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'process_open_fds', 'nodejs_eventloop_lag_seconds', 'nodejs_gc_duration_seconds']) {
    t.ok(text.includes(`# TYPE ${name} `), `the process metric ${name} is there`);
  }
});
