// `npm run soak`: a bounded load for SOAK_MINUTES (default 10) against a production build, to show
// that memory levels off and latency holds. A reseller-like mix (bench/soak-mix.ts: purchases over the
// four services with the sandbox numbers, delayed ones included, look-ups, reads, top-ups,
// verifications) over many accounts at a fixed rate (autocannon's overallRate, SOAK_RATE, default
// 1,000 requests/s), with a webhook endpoint on every account pointing at one HTTPS receiver in this
// process, so that every event of the run is delivered.
//
// Every minute it prints: requests, non-2xx (expected: the sandbox's failing number; unexpected:
// anything else), errors, p50/p99 latency of that minute, the server's resident memory (VmRSS, and its
// anonymous and file-backed parts from /proc), V8 heap used, timers pending and open orders (/metrics),
// webhooks received and server CPU. At the end it waits for delayed orders and webhooks to settle,
// checks every account through the API (bench/soak-check.ts), judges whether memory levelled off
// (bench/soak-figures.ts) and writes everything to bench/results/soak-<date>.json. The exit status is
// non-zero if memory did not level off, anything was lost or doubled, any answer was unexpected or
// missing, or the server died.
//
// Environment: SOAK_MINUTES (10), SOAK_RATE (1000 requests/s), SOAK_ACCOUNTS (100),
// SOAK_CONNECTIONS (a quarter of the rate, at least 50).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { OperatorClient, api, map_bounded, setup_in_flight_max, type Reseller } from './fixtures.js';
import { kill_started_servers, repo_root, start_server, type ServerProcess } from './server-process.js';
import { WebhookSink, tls_dir } from './webhook-sink.js';
import { describe_machine } from './report.js';
import { seeded_random } from './scenarios.js';
import { SoakMix, discover_orders, mix_shares } from './soak-mix.js';
import { check_accounts, type SoakCheck } from './soak-check.js';
import {
  MinuteWindow,
  find_server_pid,
  judge_levelling,
  parse_gauges,
  read_cpu_ms,
  read_memory,
  render_minute,
  render_minutes,
  type LevelVerdict,
  type MinuteFigures,
} from './soak-figures.js';

/** bench/autocannon.d.ts leaves out the fixed-rate option: requests per second across all connections. */
type RateOptions = autocannon.Options & { overallRate: number };

const results_dir = join(repo_root, 'bench', 'results');
const funding_naira = 10_000_000;
const mix_seed = 0x50a4;
/** A request unanswered this long counts as a timeout (a purchase may wait 5 s for the provider). */
const request_timeout_s = 10;
/** After the load: delayed orders answer after 30 s; webhooks drain. */
const settle_orders_limit_ms = 120_000;
const settle_webhooks_limit_ms = 180_000;

function log(line: string): void {
  process.stderr.write(line + '\n');
}

function number_from_env(name: string, fallback: number, minimum: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < minimum) {
    process.stderr.write(`soak: ${name} must be an integer ≥ ${minimum}, got "${text}"\n`);
    process.exit(2);
  }
  return value;
}

async function scrape(server: ServerProcess): Promise<Map<string, number>> {
  const response = await fetch(`${server.admin_url}/metrics`, { headers: { authorization: `Bearer ${server.admin_token}` } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  return parse_gauges(text);
}

interface SoakReport {
  machine: ReturnType<typeof describe_machine>;
  settings: { minutes: number; rate_per_s: number; accounts: number; connections: number; mix: Record<string, number> };
  minutes: MinuteFigures[];
  totals: { requests: number; errors: number; timeouts: number; non_2xx: number; unexpected_answers: Record<string, number>; unanswered: Record<string, number> };
  memory: LevelVerdict[];
  levelled: boolean;
  webhooks: { expected: number; received: number; repeats: number; dead: number; drained_after_s: number };
  check: SoakCheck | null;
  server_exit: string;
  failures: string[];
}

async function main(): Promise<void> {
  const minutes = number_from_env('SOAK_MINUTES', 10, 1);
  const rate = number_from_env('SOAK_RATE', 1000, 1);
  const accounts = number_from_env('SOAK_ACCOUNTS', 100, 1);
  // A connection waits for each answer (pipelining 1), and a delayed sandbox number holds it for 5 s:
  // a connection per 4 requests/s keeps the rate with room to spare.
  const connections = Math.min(number_from_env('SOAK_CONNECTIONS', Math.max(50, Math.round(rate / 4)), 1), rate);
  const started = new Date();
  const failures: string[] = [];

  process.on('SIGINT', () => {
    log('soak: interrupted; stopping the server it started');
    kill_started_servers();
    process.exit(130);
  });

  log(`soak: ${minutes} min at ${rate} requests/s over ${connections} connections, ${accounts} accounts`);
  const server = await start_server('billvend', {
    cpu_profile_path: null,
    // SOAK_LOG_LEVEL=info keeps the server's line per request (in the server log) to study a finding.
    env: { NODE_EXTRA_CA_CERTS: join(tls_dir, 'ca.pem'), WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', ...(process.env.SOAK_LOG_LEVEL ? { LOG_LEVEL: process.env.SOAK_LOG_LEVEL } : {}) },
  });
  const pid = find_server_pid(server.admin_token);
  if (pid === null) log('  warning: cannot find the server\'s pid; memory comes from /metrics only');
  const operator = new OperatorClient(server.admin_url!, server.admin_token);
  log(`  creating ${accounts} accounts`);
  const resellers = await operator.create_resellers(accounts, funding_naira, log);

  const sink = new WebhookSink();
  await sink.start();
  const endpoint_ids = await map_bounded(resellers, setup_in_flight_max, async (reseller) => {
    const registered = await api(server.base_url, reseller, 'POST', '/v1/webhooks', { url: sink.url });
    if (registered.status !== 201) throw new Error(`webhook registration answered ${registered.status} ${JSON.stringify(registered.body)}`);
    return registered.body.data.id as number;
  });
  log(`  a webhook endpoint on every account, all to ${sink.url}`);

  const orders = await discover_orders(server.base_url, resellers[0]);
  const mix = new SoakMix(resellers, orders, seeded_random(mix_seed));
  // One purchase per account before the clock starts: the first verifies the PIN with scrypt.
  await map_bounded(resellers, setup_in_flight_max, async (reseller: Reseller, index) => {
    const answer = await api(server.base_url, reseller, 'POST', '/v1/services/airtime', { network: 'mtn', phone: '08011111111', amount: 100, pin: '12345' });
    if (answer.status !== 201) throw new Error(`priming purchase answered ${answer.status} ${JSON.stringify(answer.body)}`);
    mix.tallies[index].purchases_acknowledged++;
    mix.remember(index, answer.body.data.reference);
  });

  // ---- The load, one window per minute ------------------------------------------------------------
  const windows = Array.from({ length: minutes }, () => new MinuteWindow());
  const start_ms = Date.now();
  const window_now = () => windows[Math.min(minutes - 1, Math.floor((Date.now() - start_ms) / 60_000))];
  mix.on_answer = (expected, unexpected) => {
    const window = window_now();
    if (expected) window.expected_non_2xx++;
    if (unexpected) window.unexpected_non_2xx++;
  };
  const options: RateOptions = {
    url: server.base_url,
    connections,
    pipelining: 1,
    duration: minutes * 60,
    timeout: request_timeout_s,
    overallRate: rate,
    requests: mix.requests(),
  };
  const instance = autocannon(options);
  instance.on('response', (_client: unknown, _status: number, _bytes: number, response_time_ms: number) => {
    const window = window_now();
    window.requests++;
    // Purchases of the delayed sandbox numbers wait 5 s for the provider by design: counted, but left
    // out of the latency figures, which would otherwise show that wait as the p99.
    if (mix.last_waited_by_design) window.waited_by_design++;
    else window.latencies.push(response_time_ms);
  });
  instance.on('reqError', () => {
    window_now().errors++;
  });

  const figures: MinuteFigures[] = [];
  let last_cpu_ms = read_cpu_ms(pid);
  let last_tick_ms = start_ms;
  let last_received = sink.received;
  const close_minute = async (minute: number) => {
    const window = windows[minute - 1];
    window.close();
    mix.collect_unanswered(request_timeout_s * 1000 + 1000);
    const now_ms = Date.now();
    const gauges = await scrape(server);
    const memory = read_memory(pid);
    const cpu_ms = read_cpu_ms(pid);
    const received = sink.received;
    const row: MinuteFigures = {
      minute,
      requests: window.requests,
      requests_per_s: window.requests / ((now_ms - last_tick_ms) / 1000),
      waited_by_design: window.waited_by_design,
      expected_non_2xx: window.expected_non_2xx,
      unexpected_non_2xx: window.unexpected_non_2xx,
      errors: window.errors,
      p50_ms: window.percentile(50),
      p99_ms: window.percentile(99),
      max_ms: window.latencies.length === 0 ? 0 : window.latencies[window.latencies.length - 1],
      rss_mib: memory?.rss ?? (gauges.get('process_resident_memory_bytes') ?? NaN) / 1024 / 1024,
      rss_anon_mib: memory?.anon ?? null,
      rss_file_mib: memory?.file ?? null,
      heap_used_mib: (gauges.get('nodejs_heap_size_used_bytes') ?? NaN) / 1024 / 1024,
      timers_pending: gauges.get('billvend_timers_pending') ?? -1,
      open_orders: gauges.get('billvend_open_orders') ?? -1,
      webhooks_received: received - last_received,
      server_cpu_cores: cpu_ms === null || last_cpu_ms === null ? null : (cpu_ms - last_cpu_ms) / (now_ms - last_tick_ms),
    };
    window.latencies = []; // the minute's figures are taken: let the soak itself stay bounded
    last_cpu_ms = cpu_ms;
    last_tick_ms = now_ms;
    last_received = received;
    figures.push(row);
    log(render_minute(row));
  };
  const ticking = (async () => {
    for (let minute = 1; minute < minutes; minute++) {
      await sleep(start_ms + minute * 60_000 - Date.now());
      await close_minute(minute);
    }
  })();
  const result = await instance;
  // Requests drawn within the last timeout may just not have been sent when the run stopped.
  mix.collect_unanswered(request_timeout_s * 1000 + 1000);
  await ticking;
  await close_minute(minutes);
  if (server.has_exited) failures.push(`the server died during the run:\n${server.log_tail()}`);

  // ---- Settle: delayed orders, webhooks ---------------------------------------------------------------
  let check: SoakCheck | null = null;
  let webhooks = { expected: 0, received: sink.received, repeats: sink.duplicates, dead: -1, drained_after_s: -1 };
  if (!server.has_exited) {
    const load_end_ms = Date.now();
    log('settling: waiting for delayed orders to finish');
    while ((await scrape(server)).get('billvend_open_orders') !== 0 && Date.now() - load_end_ms < settle_orders_limit_ms) await sleep(1000);
    const open_left = (await scrape(server)).get('billvend_open_orders');
    if (open_left !== 0) failures.push(`${open_left} orders were still open ${settle_orders_limit_ms / 1000} s after the load`);

    // One delivery per event per endpoint: the endpoints' delivery counts say how many events there are.
    const totals = await map_bounded(resellers, setup_in_flight_max, async (reseller, index) => {
      const answer = await api(server.base_url, reseller, 'GET', `/v1/webhooks/${endpoint_ids[index]}/deliveries?per_page=1`);
      return answer.status === 200 ? (answer.body.data.pagination.total as number) : NaN;
    });
    const expected = totals.reduce((a, b) => a + b, 0);
    log(`settling: waiting for ${expected} webhook events (${sink.received} received so far)`);
    const webhooks_wait_ms = Date.now();
    await sink.wait_for(expected, settle_webhooks_limit_ms);
    const dead = await fetch(`${server.admin_url}/admin/webhooks/dead`, { headers: { authorization: `Bearer ${server.admin_token}` } }).then((r) => r.json() as Promise<any>);
    webhooks = { expected, received: sink.received, repeats: sink.duplicates, dead: dead?.data?.deliveries?.length ?? -1, drained_after_s: Math.round((Date.now() - webhooks_wait_ms) / 1000) };
    if (webhooks.received !== expected) failures.push(`webhooks: ${webhooks.received} of ${expected} events arrived`);
    if (webhooks.dead !== 0) failures.push(`webhooks: ${webhooks.dead} deliveries are dead`);

    log('checking every account through the API');
    check = await check_accounts(server.base_url, resellers, mix.tallies, funding_naira * 100, result.errors);
    if (check.problems_total > 0) failures.push(`the end check found ${check.problems_total} problems: ${check.problems.join('; ')}`);
  }
  await sink.stop();
  const server_exit = await server.stop();
  if (server_exit !== 'code 0') failures.push(`the server exited with ${server_exit} on SIGTERM`);

  // ---- Verdict ---------------------------------------------------------------------------------------
  const anon = figures.map((m) => m.rss_anon_mib);
  const memory: LevelVerdict[] = [];
  if (anon.every((v): v is number => v !== null)) memory.push(judge_levelling('RSS anon (heap and native memory)', anon));
  memory.push(judge_levelling('RSS (VmRSS)', figures.map((m) => m.rss_mib)));
  memory.push(judge_levelling('V8 heap used', figures.map((m) => m.heap_used_mib)));
  // The process's own memory decides: VmRSS also counts store pages that reads mapped in, which grow
  // with the store and which the kernel reclaims at will; without /proc, VmRSS decides.
  const levelled = memory[0].levelled;
  if (!levelled) failures.push(`memory did not level off: ${memory[0].series} ${memory[0].reason}`);
  const unexpected_total = figures.reduce((sum, m) => sum + m.unexpected_non_2xx, 0);
  if (unexpected_total > 0) failures.push(`${unexpected_total} unexpected answers: ${JSON.stringify(Object.fromEntries(mix.unexpected))}`);
  if (result.errors > 0) failures.push(`${result.errors} requests got no answer (${result.timeouts} timeouts): ${JSON.stringify(Object.fromEntries(mix.unanswered))}`);

  const report: SoakReport = {
    machine: describe_machine(started),
    settings: { minutes, rate_per_s: rate, accounts, connections, mix: { ...mix_shares } },
    minutes: figures,
    totals: { requests: result.requests.total, errors: result.errors, timeouts: result.timeouts, non_2xx: result.non2xx, unexpected_answers: Object.fromEntries(mix.unexpected), unanswered: Object.fromEntries(mix.unanswered) },
    memory,
    levelled,
    webhooks,
    check,
    server_exit,
    failures,
  };
  mkdirSync(results_dir, { recursive: true });
  const json_path = join(results_dir, `soak-${started.toISOString().replace(/:/g, '-')}.json`);
  writeFileSync(json_path, JSON.stringify(report, null, 2) + '\n');

  const out: string[] = [];
  out.push(`billvend soak — ${report.machine.date}`);
  out.push(`machine: ${report.machine.cpu_model}, ${report.machine.cores} cores, ${report.machine.ram_gib} GiB RAM; node ${report.machine.node}`);
  out.push(`load: ${rate} requests/s for ${minutes} min over ${connections} connections, ${accounts} accounts, a webhook endpoint on each`);
  out.push('');
  out.push(render_minutes(figures));
  out.push('');
  for (const verdict of memory) out.push(`memory: ${verdict.series}: ${verdict.levelled ? 'levelled off' : 'NOT levelled off'} (${verdict.reason})`);
  out.push(`webhooks: ${webhooks.received} of ${webhooks.expected} events delivered, ${webhooks.repeats} repeats, ${webhooks.dead} dead; the last arrived ${webhooks.drained_after_s} s after the delayed orders had settled`);
  if (check !== null) {
    out.push(`data: ${check.accounts} accounts, ${check.orders} orders (${check.delivered} delivered, ${check.failed_refunded} failed and refunded once), ` +
      `${check.wallet_entries} wallet entries; ${check.problems_total === 0 ? 'no problem: every order final, debited once, refunded once if failed, every wallet equal to its credits minus its delivered purchases' : `${check.problems_total} problems`}`);
  }
  out.push(failures.length === 0 ? 'result: PASS' : `result: FAIL\n  ${failures.join('\n  ')}`);
  out.push(`results: ${relative(repo_root, json_path)}`);
  process.stdout.write(out.join('\n') + '\n');
  process.exitCode = failures.length === 0 ? 0 : 1;
}

main().catch((error) => {
  kill_started_servers();
  process.stderr.write(`soak: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
