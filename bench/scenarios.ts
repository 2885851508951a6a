// The scenarios: what each one sets up and the request generator autocannon runs. The yardsticks
// (limit-* and baseline-*, docs/benchmarks.md "Yardsticks") use the same generators as the scenarios
// they are compared with, so that both sides send the same bytes over the same connections.
import { randomBytes } from 'node:crypto';
import type autocannon from 'autocannon';
import type { ServerProcess, StartOptions, Target } from './server-process.js';
import { BenchCluster, cluster_bench_settings, type ClusterBenchSettings } from './cluster-bench.js';
import { api, bench_password, bench_pin, map_bounded, setup_in_flight_max, type ApiAnswer, type OperatorClient, type Reseller } from './fixtures.js';
import { NoisyFlood, noisy_ratio_target, percentile, victim_purchases, type NoisySettings, type VictimFigures } from './noisy-neighbour.js';
import { WebhookSink, tls_dir } from './webhook-sink.js';
import { SignInFlood, type FloodSettings } from './sign-in-flood.js';
import { history_filtered } from './history-bench.js';
import { join } from 'node:path';

type Request = autocannon.Request;

/** The same-headers yardsticks: bare uWS writing the headers billvend must send. */
export type BaselineName = 'baseline-get' | 'baseline-post';
/** The minimal yardsticks: bare uWS writing one Content-Type, the machine's limit. */
export type LimitName = 'limit-get' | 'limit-post';

/** The minimal yardstick of the same method as a same-headers one. */
export function limit_of(baseline: BaselineName): LimitName {
  return baseline === 'baseline-get' ? 'limit-get' : 'limit-post';
}

/** What a scenario must reach (docs/benchmarks.md "Targets"): checked by the report, not by a test. */
export interface Targets {
  /** Requests/s over the minimal yardstick's of the same method, at least. */
  ratio_to_limit_min: number;
  /** p99 latency at 100 connections, at most. */
  p99_ms_max: number;
}

/** Every target scenario's p99 bound at 100 connections (issue 19). */
export const p99_ms_max = 20;

export interface ScenarioContext {
  server: ServerProcess;
  /** null for the baselines, which have no operator API. */
  operator: OperatorClient | null;
  /** Accounts of the many-account scenarios (BENCH_ACCOUNTS, default 1,000). */
  accounts_count: number;
  /** Seeded, so that a mix draws the same sequence of operations on every run. */
  random: () => number;
  /** Progress on stderr. */
  log(line: string): void;
  /** Something that makes the figures mean less than they seem; shown under the table. */
  warn(line: string): void;
}

export interface Scenario {
  name: string;
  summary: string;
  target: Target;
  /**
   * The same-headers yardstick dividing this scenario's requests/s (GETs by the bare GET, POSTs and
   * mixes by the bare POST); limit_of() gives the minimal one of the same method.
   */
  compare_to: BaselineName;
  /** The report shows met / not met against these; none: a scenario measured for its own figures. */
  targets?: Targets;
  /** More environment for the server under test. */
  env?: Record<string, string>;
  /** Sets the server up and returns the requests autocannon loops over. */
  prepare(context: ScenarioContext): Promise<Request[]>;
  /** After the load: checks and figures beyond requests/s, shown under the table. */
  finish?(context: ScenarioContext, answered_2xx: number): Promise<string[]>;
  /** Starts the servers itself (a cluster) and returns the one the load goes to; default: one server of `target`. */
  start?(options: StartOptions): Promise<ServerProcess>;
  /** Stops whatever `start` started besides the server it returned. */
  stop?(): Promise<void>;
  /** `finish` kills the load's server on purpose (kill -9): its exit is no finding. */
  kills_its_server?: boolean;
  /** A scenario of the same load on a single node: the report shows this one's requests/s as a ratio of it. */
  compare_to_scenario?: string;
}

// ---- Request bodies, built once ------------------------------------------------------------------

/** Sandbox phone 08011111111 is always delivered (test environment). */
const airtime_fields = { network: 'mtn', phone: '08011111111', amount: 100, pin: bench_pin };
export const airtime_order = { path: '/v1/services/airtime', body: JSON.stringify(airtime_fields) };
const electricity_order = {
  path: '/v1/services/electricity',
  body: JSON.stringify({ disco: 'ikeja-electric', meter_number: '1111111111111', meter_type: 'prepaid', amount: 1000, pin: bench_pin }),
};

/** Sandbox phone 08022222222 always fails, and is refunded in the step that learns it (refund-time). */
const failing_airtime_order: Order = { service: 'airtime', path: '/v1/services/airtime', body: JSON.stringify({ ...airtime_fields, phone: '08022222222' }) };

/** docs/operations.md billvend_refund_duration_seconds: the issue's target for a refund, at p99. */
export const refund_p99_s_max = 30;

/**
 * The refunds counted by billvend_refund_duration_seconds (every environment) and the upper bound of the
 * bucket holding their 99th percentile (null: no refund, or beyond the last finite bucket).
 */
export function refund_p99(metrics_text: string): { count: number; p99_s: number | null } {
  const buckets = new Map<number, number>();
  for (const match of metrics_text.matchAll(/^billvend_refund_duration_seconds_bucket\{le="([^"]+)",[^}]*\} (\S+)$/gm)) {
    const le = match[1] === '+Inf' ? Number.POSITIVE_INFINITY : Number(match[1]);
    buckets.set(le, (buckets.get(le) ?? 0) + Number(match[2]));
  }
  const count = buckets.get(Number.POSITIVE_INFINITY) ?? 0;
  if (count === 0) return { count, p99_s: null };
  for (const le of [...buckets.keys()].sort((a, b) => a - b)) {
    if (buckets.get(le)! >= 0.99 * count) return { count, p99_s: Number.isFinite(le) ? le : null };
  }
  return { count, p99_s: null };
}

export interface Order {
  service: string;
  path: string;
  body: string;
}

/** An Authorization header as long as a real key's, for the baseline (which checks nothing). */
const baseline_reseller: Reseller = { account_id: 0, authorization: `Bearer bv_test_${'x'.repeat(40)}` };

// ---- Generators ------------------------------------------------------------------------------------

/** Next item in turn; the index wraps so that it never grows past the list. */
function round_robin<T>(items: readonly T[]): () => T {
  let index = 0;
  return () => {
    const item = items[index];
    index = index + 1 === items.length ? 0 : index + 1;
    return item;
  };
}

/** A unique X-Idempotency-Key per request for the whole run (each bench process draws a new tag). */
const idempotency_tag = randomBytes(4).toString('hex');
let idempotency_counter = 0;
function next_idempotency_key(): string {
  return `bench-${idempotency_tag}-${++idempotency_counter}`;
}

function wallet_reads(resellers: readonly Reseller[]): Request[] {
  // With one key the request never changes, and autocannon then builds its bytes once.
  if (resellers.length === 1) return [{ method: 'GET', path: '/v1/wallet', headers: { authorization: resellers[0].authorization } }];
  const next = round_robin(resellers);
  return [{
    method: 'GET',
    path: '/v1/wallet',
    setupRequest: (request) => {
      request.headers = { authorization: next().authorization };
      return request;
    },
  }];
}

/**
 * Phone lookups (docs/api.md "Phone lookup"): one number of each network in turn, fixed requests as
 * wallet_reads' (autocannon builds their bytes once), so that the two differ only in what the server does.
 */
function phone_lookups(reseller: Reseller): Request[] {
  return ['08031234567', '08021234567', '08051234567', '08091234567'].map((phone) => ({
    method: 'GET',
    path: `/v1/lookup/phone/${phone}`,
    headers: { authorization: reseller.authorization },
  }));
}

export function purchases(resellers: readonly Reseller[], order: Order): Request[] {
  const next = round_robin(resellers);
  return [{
    method: 'POST',
    path: order.path,
    body: order.body,
    setupRequest: (request) => {
      request.headers = { authorization: next().authorization, 'content-type': 'application/json', 'x-idempotency-key': next_idempotency_key() };
      return request;
    },
  }];
}

/** Shares of the reseller mix: purchases, look-ups of earlier purchases, balance checks. */
const mix_purchase_share = 0.6;
const mix_lookup_share = 0.25;
/** References kept for look-ups: the newest ones, as a reseller checks recent orders. */
const references_max = 10_000;

/** Recent purchase references with the reseller whose key may read them. */
export class ReferenceRing {
  private readonly owners: number[] = [];
  private readonly references: string[] = [];
  private next = 0;

  get size(): number {
    return this.references.length;
  }

  add(owner: number, reference: string): void {
    if (this.references.length < references_max) {
      this.owners.push(owner);
      this.references.push(reference);
    } else {
      this.owners[this.next] = owner;
      this.references[this.next] = reference;
      this.next = (this.next + 1) % references_max;
    }
  }

  pick(random: () => number): { owner: number; reference: string } {
    const index = Math.floor(random() * this.references.length);
    return { owner: this.owners[index], reference: this.references[index] };
  }
}

/** The "reference" of a purchase answer, without parsing the whole body on the load generator. */
const reference_in_body = /"reference":"([^"]+)"/;

/**
 * 60% purchases spread evenly over the services in `orders`, 25% GET /v1/transactions/{reference} of
 * a reference an earlier purchase returned (read with the key of the account that bought it; a wallet
 * read until one exists), 15% GET /v1/wallet. Accounts are taken in turn.
 */
function reseller_mix(resellers: readonly Reseller[], orders: readonly Order[], seed_references: ReferenceRing, random: () => number): Request[] {
  let next_reseller = 0;
  const references = seed_references;
  return [{
    setupRequest: (request, context) => {
      const draw = random();
      const buyer = next_reseller;
      next_reseller = next_reseller + 1 === resellers.length ? 0 : next_reseller + 1;
      // The context lives from this request's setup to its response (pipelining 1): it tells
      // onResponse whose purchase the answer is.
      context.buyer = -1;
      if (draw < mix_purchase_share) {
        const order = orders[Math.floor((draw / mix_purchase_share) * orders.length)];
        request.method = 'POST';
        request.path = order.path;
        request.body = order.body;
        request.headers = { authorization: resellers[buyer].authorization, 'content-type': 'application/json', 'x-idempotency-key': next_idempotency_key() };
        context.buyer = buyer;
      } else if (draw < mix_purchase_share + mix_lookup_share && references.size > 0) {
        const { owner, reference } = references.pick(random);
        request.method = 'GET';
        request.path = `/v1/transactions/${encodeURIComponent(reference)}`;
        request.headers = { authorization: resellers[owner].authorization };
      } else {
        request.method = 'GET';
        request.path = '/v1/wallet';
        request.headers = { authorization: resellers[buyer].authorization };
      }
      return request;
    },
    onResponse: (status, body, context) => {
      const buyer = context.buyer as number;
      if (buyer < 0 || status < 200 || status > 299) return;
      const found = reference_in_body.exec(body);
      if (found !== null) references.add(buyer, found[1]);
    },
  }];
}

// ---- Set-up steps -----------------------------------------------------------------------------------

function operator_of(context: ScenarioContext): OperatorClient {
  if (context.operator === null) throw new Error(`assertion failed: a billvend scenario ran without an operator client`);
  return context.operator;
}

/**
 * One airtime purchase per account before the clock starts. An account's first purchase verifies its
 * PIN with scrypt (~50 ms of CPU); later ones hit the in-memory PIN cache (src/engine/pin-cache.ts).
 * Without this, the first seconds of a 1,000-account run would measure 1,000 scrypts, not purchases.
 * Returns the references bought, for the mix's look-ups.
 */
export async function prime_purchases(context: ScenarioContext, resellers: readonly Reseller[]): Promise<ReferenceRing> {
  const references = new ReferenceRing();
  const buy = (reseller: Reseller) => api(context.server.base_url, reseller, 'POST', airtime_order.path, airtime_fields, { 'x-idempotency-key': next_idempotency_key() });
  const first = await buy(resellers[0]);
  if (first.status === 404) {
    context.warn(`POST ${airtime_order.path} answers 404 (${first.body?.error?.code ?? 'no code'}): purchases do not exist yet, priming skipped`);
    return references;
  }
  context.log(`  priming: one purchase per account (${resellers.length})`);
  const answers = [first, ...await map_bounded(resellers.slice(1), setup_in_flight_max, buy)];
  const failures: ApiAnswer[] = [];
  answers.forEach((answer, owner) => {
    const reference = answer.body?.data?.reference;
    if (answer.status >= 200 && answer.status < 300 && typeof reference === 'string') references.add(owner, reference);
    else failures.push(answer);
  });
  if (failures.length > 0) {
    context.warn(`priming: ${failures.length} of ${answers.length} purchases failed, the first with ${failures[0].status} ${JSON.stringify(failures[0].body)}`);
  }
  return references;
}

/** The first item of a catalog list, from whichever list the answer carries. */
function first_catalog_item(body: any, lists: string[]): Record<string, unknown> | null {
  const data = body?.data;
  for (const name of lists) {
    const list = Array.isArray(data) ? data : data?.[name];
    if (Array.isArray(list) && list.length > 0 && typeof list[0] === 'object') return list[0] as Record<string, unknown>;
  }
  return null;
}

/**
 * Airtime and electricity need no catalog. Data and TV orders need a plan or package and its price
 * from the catalog; a service whose catalog cannot be read is left out of the mix with a warning.
 */
async function discover_orders(context: ScenarioContext, reseller: Reseller): Promise<Order[]> {
  const orders: Order[] = [{ service: 'airtime', ...airtime_order }];
  const plans = await api(context.server.base_url, reseller, 'GET', '/v1/services/data/plans?network=mtn');
  const plan = plans.status === 200 ? first_catalog_item(plans.body, ['plans']) : null;
  if (plan !== null && typeof plan.plan_id === 'string' && typeof plan.amount === 'number') {
    orders.push({
      service: 'data',
      path: '/v1/services/data/purchase',
      body: JSON.stringify({ network: 'mtn', plan_code: plan.plan_id, phone: '08011111111', amount: plan.amount, pin: bench_pin }),
    });
  } else {
    context.warn(`GET /v1/services/data/plans?network=mtn answered ${plans.status} without a usable plan: data purchases left out of the mix`);
  }
  orders.push({ service: 'electricity', ...electricity_order });
  const packages = await api(context.server.base_url, reseller, 'GET', '/v1/services/tv/packages?provider=dstv');
  const tv_package = packages.status === 200 ? first_catalog_item(packages.body, ['packages', 'plans']) : null;
  if (tv_package !== null && typeof tv_package.package_code === 'string' && typeof tv_package.amount === 'number') {
    orders.push({
      service: 'tv',
      path: '/v1/services/tv',
      body: JSON.stringify({ provider: 'dstv', smartcard_number: '1212121212', package_code: tv_package.package_code, amount: tv_package.amount, pin: bench_pin }),
    });
  } else {
    context.warn(`GET /v1/services/tv/packages?provider=dstv answered ${packages.status} without a usable package: TV purchases left out of the mix`);
  }
  context.log(`  mix services: ${orders.map((o) => o.service).join(', ')}`);
  return orders;
}

// ---- The scenarios ------------------------------------------------------------------------------------

/**
 * Test-wallet funding (NGN). One account: the daily limit caps spending at 100,000,000 NGN a day, so
 * more would never be spent. Many accounts: thousands of purchases each, far more than a run makes.
 */
const one_account_funding_naira = 100_000_000;
const many_accounts_funding_naira = 1_000_000;
const mix_funding_naira = 10_000_000;

/** The bare server's mode for each yardstick (bench/baseline-server.ts). */
const minimal_headers = { BASELINE_HEADERS: 'minimal' };
const billvend_headers = { BASELINE_HEADERS: 'billvend' };

/** The four yardsticks, named as the table shows them; `npm run bench -- baseline` runs them all. */
export const yardstick_names: readonly string[] = ['limit-get', 'limit-post', 'baseline-get', 'baseline-post'];

export const scenarios: readonly Scenario[] = [
  {
    name: 'limit-get',
    summary: 'bare uWebSockets.js, one Content-Type header: GET /v1/wallet with the wallet-read generator',
    target: 'baseline',
    compare_to: 'baseline-get',
    env: minimal_headers,
    prepare: async () => wallet_reads([baseline_reseller]),
  },
  {
    name: 'limit-post',
    summary: 'bare uWebSockets.js, one Content-Type header: POST /v1/services/airtime with the purchase generator',
    target: 'baseline',
    compare_to: 'baseline-post',
    env: minimal_headers,
    prepare: async () => purchases([baseline_reseller], { service: 'airtime', ...airtime_order }),
  },
  {
    name: 'baseline-get',
    summary: 'bare uWebSockets.js with billvend\'s headers: GET /v1/wallet with the wallet-read generator',
    target: 'baseline',
    compare_to: 'baseline-get',
    env: billvend_headers,
    prepare: async () => wallet_reads([baseline_reseller]),
  },
  {
    name: 'baseline-post',
    summary: 'bare uWebSockets.js with billvend\'s headers: POST /v1/services/airtime with the purchase generator',
    target: 'baseline',
    compare_to: 'baseline-post',
    env: billvend_headers,
    prepare: async () => purchases([baseline_reseller], { service: 'airtime', ...airtime_order }),
  },
  {
    name: 'wallet-read',
    summary: 'GET /v1/wallet, one account, one key',
    target: 'billvend',
    compare_to: 'baseline-get',
    targets: { ratio_to_limit_min: 0.85, p99_ms_max },
    prepare: async (context) => wallet_reads(await operator_of(context).create_resellers(1, 1_000, context.log)),
  },
  {
    name: 'phone-lookup',
    summary: 'GET /v1/lookup/phone/{phone}, one account, one key, a number of each network in turn; shown against wallet-read (target: at least 0.9x its requests/s)',
    target: 'billvend',
    compare_to: 'baseline-get',
    compare_to_scenario: 'wallet-read',
    // 0.9 x wallet-read's own target against the machine's limit.
    targets: { ratio_to_limit_min: 0.765, p99_ms_max },
    prepare: async (context) => {
      const [reseller] = await operator_of(context).create_resellers(1, 1_000, context.log);
      return phone_lookups(reseller!);
    },
  },
  {
    name: 'purchase-one-account',
    summary: 'POST /v1/services/airtime, one account, unique X-Idempotency-Key each',
    target: 'billvend',
    compare_to: 'baseline-post',
    targets: { ratio_to_limit_min: 0.5, p99_ms_max },
    prepare: async (context) => {
      const resellers = await operator_of(context).create_resellers(1, one_account_funding_naira, context.log);
      await prime_purchases(context, resellers);
      return purchases(resellers, { service: 'airtime', ...airtime_order });
    },
  },
  {
    name: 'purchase-many-accounts',
    summary: 'POST /v1/services/airtime, accounts in turn, one key each',
    target: 'billvend',
    compare_to: 'baseline-post',
    targets: { ratio_to_limit_min: 0.45, p99_ms_max },
    prepare: async (context) => {
      context.log(`  creating ${context.accounts_count} accounts (two scrypt hashes each)`);
      const resellers = await operator_of(context).create_resellers(context.accounts_count, many_accounts_funding_naira, context.log);
      await prime_purchases(context, resellers);
      return purchases(resellers, { service: 'airtime', ...airtime_order });
    },
  },
  purchase_with_webhooks(),
  {
    name: 'reseller-mix',
    summary: '60% purchases over four services, 25% transaction look-ups, 15% wallet reads, many accounts',
    target: 'billvend',
    compare_to: 'baseline-post',
    targets: { ratio_to_limit_min: 0.45, p99_ms_max },
    prepare: async (context) => {
      context.log(`  creating ${context.accounts_count} accounts (two scrypt hashes each)`);
      const resellers = await operator_of(context).create_resellers(context.accounts_count, mix_funding_naira, context.log);
      const orders = await discover_orders(context, resellers[0]);
      const references = await prime_purchases(context, resellers);
      return reseller_mix(resellers, orders, references, context.random);
    },
  },
  {
    name: 'refund-time',
    summary: 'reseller-mix with one purchase in five to the sandbox\'s failing number: each refund\'s time, failure to durable refund entry',
    target: 'billvend',
    compare_to: 'baseline-post',
    prepare: async (context) => {
      context.log(`  creating ${context.accounts_count} accounts (two scrypt hashes each)`);
      const resellers = await operator_of(context).create_resellers(context.accounts_count, mix_funding_naira, context.log);
      const orders = await discover_orders(context, resellers[0]);
      const references = await prime_purchases(context, resellers);
      // The four services' purchases and, as often as all of them together, one the sandbox fails and refunds.
      return reseller_mix(resellers, [...orders, ...orders.map(() => failing_airtime_order)], references, context.random);
    },
    finish: async (context) => {
      const { count, p99_s } = refund_p99(await operator_of(context).metrics_text());
      return [`refunds: ${count} measured, p99 ${p99_s === null ? 'n/a' : `≤ ${p99_s} s`} from failure to durable refund entry (target ≤ ${refund_p99_s_max} s): ${p99_s !== null && p99_s <= refund_p99_s_max ? 'met' : 'not met'}`];
    },
  },
  purchase_under_sign_in_flood(),
  noisy_neighbour(),
  purchase_one_account_cluster(),
  history_filtered(),
];

/**
 * purchase-one-account with an HTTPS webhook endpoint registered and receiving every event. A new
 * receiver for each run (the bench runs a scenario once per round); `drain_wait_ms` bounds the wait
 * for the events still queued when the load ends.
 */
export function purchase_with_webhooks(drain_wait_ms = 120_000): Scenario {
  // Every purchase emits wallet.debited and transaction.completed.
  let sink: WebhookSink | null = null;
  let receiving: { reseller: Reseller; endpoint_id: number } | null = null;
  return {
    name: 'purchase-with-webhooks',
    summary: 'purchase-one-account with an HTTPS webhook endpoint registered and receiving every event',
    target: 'billvend',
    compare_to: 'baseline-post',
    targets: { ratio_to_limit_min: 0.35, p99_ms_max },
    env: { NODE_EXTRA_CA_CERTS: join(tls_dir, 'ca.pem'), WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' },
    prepare: async (context: ScenarioContext) => {
      const resellers = await operator_of(context).create_resellers(1, one_account_funding_naira, context.log);
      sink = new WebhookSink();
      await sink.start();
      const registered = await api(context.server.base_url, resellers[0], 'POST', '/v1/webhooks', { url: sink.url });
      if (registered.status !== 201) throw new Error(`webhook registration answered ${registered.status} ${JSON.stringify(registered.body)}`);
      receiving = { reseller: resellers[0], endpoint_id: registered.body.data.id as number };
      await prime_purchases(context, resellers);
      return purchases(resellers, { service: 'airtime', ...airtime_order });
    },
    finish: async (context: ScenarioContext) => {
      if (sink === null || receiving === null) return [];
      // Every event the server recorded for the endpoint (warm-up and priming included): the
      // deliveries list's total, checked against two events per purchase answered.
      const listed = await api(context.server.base_url, receiving.reseller, 'GET', `/v1/webhooks/${receiving.endpoint_id}/deliveries?per_page=1`);
      if (listed.status !== 200) throw new Error(`the deliveries list answered ${listed.status} ${JSON.stringify(listed.body)}`);
      const expected = listed.body.data.pagination.total as number;
      const started = Date.now();
      // Deliveries go at most 8 at a time per endpoint (src/webhooks/dispatcher.ts): under a load that
      // emits events faster than one receiver takes them, they queue and drain after the load.
      const during_load = sink.received;
      const received = await sink.wait_for(expected, drain_wait_ms);
      const seconds = (Date.now() - started) / 1000;
      const kinds = [...sink.by_kind].map(([kind, count]) => `${kind} ${count}`).join(', ');
      const drain = seconds > 0 ? `, ${Math.round((received - during_load) / seconds)}/s` : '';
      return [`webhooks: ${received} of ${expected} events delivered (${kinds}; ${sink.duplicates} repeats), ${during_load} of them by the end of the load, the last ${seconds.toFixed(1)} s after it${drain}`];
    },
    stop: async () => {
      await sink?.stop();
      sink = null;
      receiving = null;
    },
  };
}

/**
 * purchase-one-account on a cluster: three NATS servers and two billvend nodes on this machine, the
 * load on the leader, every group commit appended to the replicated stream before its answers leave.
 * After the load, kill -9 of the leader under a purchase load measures the failover pause.
 */
export function purchase_one_account_cluster(settings: () => ClusterBenchSettings = cluster_bench_settings): Scenario {
  let cluster: BenchCluster | null = null;
  let buyer: Reseller | null = null;
  let profiled = false;
  return {
    name: 'purchase-one-account-cluster',
    summary: 'purchase-one-account against the leader of a 2-node cluster on a 3-server NATS JetStream (all on loopback)',
    target: 'billvend',
    compare_to: 'baseline-post',
    compare_to_scenario: 'purchase-one-account',
    kills_its_server: true,
    start: async (options) => {
      profiled = options.cpu_profile_path !== null && options.cpu_profile_path !== undefined;
      cluster = await BenchCluster.start(options, settings());
      return cluster.leader;
    },
    stop: async () => {
      await cluster?.stop();
      cluster = null;
    },
    prepare: async (context) => {
      const resellers = await operator_of(context).create_resellers(1, one_account_funding_naira, context.log);
      buyer = resellers[0];
      await prime_purchases(context, resellers);
      return purchases(resellers, { service: 'airtime', ...airtime_order });
    },
    finish: async (context) => {
      if (cluster === null || buyer === null) return [];
      // The failover kills the leader with SIGKILL, and a process killed so writes no CPU profile.
      if (profiled) return ['failover not measured: this round profiles the leader (--cpu-prof), which a kill -9 would lose'];
      context.log(`  failover: kill -9 of the leader under ${cluster.settings.failover_workers} purchase loops`);
      const figures = await cluster.failover_under_load(airtime_order.path, airtime_order.body, buyer.authorization);
      return [
        `failover under load: writes answered again ${figures.pause_ms} ms after kill -9 of the leader (lease ${cluster.settings.lease_ms} ms); ${figures.answered_before} purchases answered before, ${figures.answered_after} after, ${figures.refused} refused or cut meanwhile`,
        'CPU "other" includes the three NATS servers and the standby node, which share the machine with the leader',
      ];
    },
  };
}

/**
 * The sign-in flood beside purchase-under-sign-in-flood's purchases: BENCH_SIGN_IN_RATE sign-ins per
 * second (50, the hostile review's rate; 0: unpaced), on BENCH_SIGN_IN_CONNECTIONS connections (16),
 * from BENCH_SIGN_IN_ADDRESSES made-up client addresses (65,536, so that the per-address limit does not
 * stop it). It stops when the scenario finishes, or by itself after 100,000 sign-ins or 5 minutes.
 */
export function sign_in_flood_settings(env: Record<string, string | undefined> = process.env): FloodSettings {
  const read = (name: string, fallback: number, minimum: number) => {
    const text = env[name];
    if (text === undefined || text === '') return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < minimum) throw new Error(`${name} must be an integer ≥ ${minimum}, got "${text}"`);
    return value;
  };
  return {
    rate_per_s: read('BENCH_SIGN_IN_RATE', 50, 0),
    connections: read('BENCH_SIGN_IN_CONNECTIONS', 16, 1),
    addresses: read('BENCH_SIGN_IN_ADDRESSES', 65_536, 1),
    requests_max: 100_000,
    duration_max_ms: 300_000,
  };
}

/**
 * purchase-one-account while made-up sign-ins flood the dashboard: what the sign-in bounds
 * (README "Dashboard") leave of purchase latency. Compare its p50/p99 with purchase-one-account's.
 */
export function purchase_under_sign_in_flood(settings: () => FloodSettings = sign_in_flood_settings): Scenario {
  let flood: SignInFlood | null = null;
  return {
    name: 'purchase-under-sign-in-flood',
    summary: 'purchase-one-account while made-up dashboard sign-ins arrive from many addresses',
    target: 'billvend',
    compare_to: 'baseline-post',
    // The flood claims its client addresses through X-Forwarded-For from the loopback "proxy".
    env: { TRUSTED_PROXIES: '127.0.0.1' },
    prepare: async (context: ScenarioContext) => {
      const resellers = await operator_of(context).create_resellers(1, one_account_funding_naira, context.log);
      await prime_purchases(context, resellers);
      flood = new SignInFlood(context.server.base_url, settings());
      flood.start();
      return purchases(resellers, { service: 'airtime', ...airtime_order });
    },
    finish: async () => {
      if (flood === null) return [];
      await flood.stop();
      const refused = flood.count(429);
      const wrong = flood.count(401);
      const other = flood.sent - flood.failed - refused - wrong;
      return [
        flood.summary(),
        `sign-ins during the run: ${refused} answered 429, ${wrong} answered 401 (checked with scrypt)${other > 0 ? `, ${other} other` : ''}`,
      ];
    },
  };
}

/**
 * The noisy neighbour's bounds: each victim phase BENCH_NOISY_VICTIM_S seconds (10) on 4 connections,
 * the flood on BENCH_NOISY_CONNECTIONS connections per kind (8), stopping by itself after 5 minutes;
 * BENCH_NOISY_BULK=0 leaves the bulk orders out of it.
 */
export function noisy_settings(env: Record<string, string | undefined> = process.env): NoisySettings {
  const read = (name: string, fallback: number) => {
    const text = env[name];
    if (text === undefined || text === '') return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be an integer ≥ 1, got "${text}"`);
    return value;
  };
  return {
    victim_ms: read('BENCH_NOISY_VICTIM_S', 10) * 1000,
    victim_connections: 4,
    flood_connections: read('BENCH_NOISY_CONNECTIONS', 8),
    flood_duration_max_ms: 300_000,
    bulk: env.BENCH_NOISY_BULK !== '0',
  };
}

/**
 * One tenant floods every costly route it can reach (bench/noisy-neighbour.ts) while another buys: the
 * victim's purchase p99 under the flood against its quiet p99 in the same run, measured the same way
 * (target ≤ 3×), the server's longest event-loop stall under the flood and the most scrypt runs at
 * once. autocannon's table row is the victim's purchases under the flood.
 */
export function noisy_neighbour(settings: () => NoisySettings = noisy_settings): Scenario {
  let flood: NoisyFlood | null = null;
  let victim: Reseller | null = null;
  let quiet: VictimFigures | null = null;
  let chosen: NoisySettings | null = null;
  return {
    name: 'noisy-neighbour',
    summary: 'purchase-one-account while another tenant floods PIN changes, sign-ins, wrong PINs, exports, the trend and bulk orders',
    target: 'billvend',
    compare_to: 'baseline-post',
    prepare: async (context: ScenarioContext) => {
      chosen = settings();
      const [buyer, noisy] = await operator_of(context).create_resellers(2, one_account_funding_naira, context.log);
      victim = buyer;
      await prime_purchases(context, [buyer, noisy]);
      context.log(`  quiet: the victim buys for ${chosen.victim_ms / 1000} s on ${chosen.victim_connections} connections`);
      quiet = await victim_purchases(context.server.base_url, buyer, chosen.victim_ms, chosen.victim_connections);
      if (noisy.email === undefined) throw new Error('assertion failed: a bench reseller without its email');
      flood = new NoisyFlood(context.server.base_url, { ...noisy, email: noisy.email, password: bench_password }, chosen);
      await flood.start();
      context.log('  flood started');
      return purchases([buyer], { service: 'airtime', ...airtime_order });
    },
    finish: async (context: ScenarioContext) => {
      if (flood === null || victim === null || quiet === null || chosen === null) return [];
      const operator = operator_of(context);
      // A scrape resets the server's event-loop delay histogram: what the next one reads is this phase's.
      await operator.metrics();
      const loud = await victim_purchases(context.server.base_url, victim, chosen.victim_ms, chosen.victim_connections);
      const metrics = await operator.metrics();
      await flood.stop();
      const quiet_p99 = percentile(quiet.latencies, 99);
      const loud_p99 = percentile(loud.latencies, 99);
      const ratio = loud_p99 / quiet_p99;
      const stall_ms = (metrics.get('nodejs_eventloop_lag_max_seconds') ?? Number.NaN) * 1000;
      const answers = (figures: VictimFigures) => Object.entries(figures.statuses).map(([status, n]) => `${n} × ${status}`).join(', ');
      return [
        `noisy neighbour: victim purchase p99 quiet ${quiet_p99.toFixed(1)} ms (p50 ${percentile(quiet.latencies, 50).toFixed(1)}, ${answers(quiet)}), under the flood ${loud_p99.toFixed(1)} ms (p50 ${percentile(loud.latencies, 50).toFixed(1)}, ${answers(loud)}): ${ratio.toFixed(2)}× (target ≤ ${noisy_ratio_target}×: ${ratio <= noisy_ratio_target ? 'met' : 'not met'})`,
        `event loop under the flood: longest stall ${stall_ms.toFixed(1)} ms (nodejs_eventloop_lag_max_seconds); scrypt runs at once at most ${metrics.get('billvend_scrypt_running_peak')} since start, ${metrics.get('billvend_scrypt_runs_total')} runs in all; dashboard calls rate-limited ${metrics.get('billvend_dashboard_rate_limited_total')}`,
        flood.summary(),
      ];
    },
    stop: async () => {
      await flood?.stop();
      flood = null;
    },
  };
}

/** mulberry32: a small seeded generator, so that the mix is the same sequence on every run. */
export function seeded_random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
