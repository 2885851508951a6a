// The crash campaign's driver: a mixed load against a real server (node dist/cli.js serve on a real
// LMDB store), killed with SIGKILL at a random moment of each round and restarted on the same store
// with LMDB_RESTORE=safe (only flushed commits survive, as after a power cut), many rounds.
//
// Each round: 1. 32 concurrent writers send purchases (every sandbox number, all four services, and
// live purchases through a fake upstream), operator credits, sandbox top-ups, key creations and
// revocations, most with X-Idempotency-Key, some as two simultaneous copies, recording every answer;
// webhooks flow to a real HTTPS receiver meanwhile. 2. kill -9 at a uniformly random moment of the
// load (or at the next answer, or in the next commit's flush window: see run_round). 3. While the server is
// dead, the journal checker (checker.ts) reads the store and proves its invariants and every answer
// acknowledged so far. 4. Restart. 5. The API checker (api-checker.ts) proves every answer acknowledged
// since the last restart is reflected exactly once and replays byte for byte. 6. Each request the kill
// left unanswered is sent again with its idempotency key or reference, so its fate becomes known (and
// the "a key is never processed twice, even across a crash" path runs every round). Funding turns
// (campaign-funding.ts) add provider callbacks, reconciles and forged callbacks to the load.
import { randomBytes } from 'node:crypto';
import { appendFileSync, cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestServer, temp_dir, type ApiResponse } from '../helpers/server.js';
import { FakeUpstream, type UpstreamMode } from '../helpers/fake-upstream.js';
import { webhook_env } from '../helpers/webhook-receiver.js';
import { warm_up_live } from '../helpers/purchases.js';
import { CrashReceiver } from './receiver.js';
import { check_store, type StoreStats } from './checker.js';
import { ApiChecker } from './api-checker.js';
import { kill_in_flush_window } from './flush-window.js';
import { FundingDriver, funding_on } from './campaign-funding.js';
import { AgentRefused, AgentsDriver, agents_on } from './campaign-agents.js';
import { NatsCluster, replicas_current, stream_leader, test_lease_ms, test_master_key, wait_leading, wait_until, type NatsServers } from '../helpers/nats-cluster.js';
import { NetnsLab } from '../helpers/netns.js';
import { PartitionDriver, type PartitionHost, type PartitionRecord } from './campaign-partitions.js';
import {
  acked_batch,
  cancel_answer,
  acked_reference,
  capped,
  environments,
  naira_of,
  rememberable,
  sandbox_phones,
  type Account,
  price_rules_body,
  type Ack,
  type BulkSpec,
  type CreatedKey,
  type Environment,
  type Expectation,
  type Model,
  type Op,
  type OpKind,
  type PriceRuleSpec,
  type PurchaseSpec,
  type Wallet,
} from './model.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The sandbox numbers and what each must end in (docs/api.md "Sandbox"). */
const sandbox_outcomes: readonly [string, Expectation][] = [
  [sandbox_phones.delivered, 'delivered'],
  [sandbox_phones.failed, 'failed'],
  [sandbox_phones.delayed_delivered, 'delayed_delivered'],
  [sandbox_phones.delayed_failed, 'delayed_failed'],
  [sandbox_phones.unavailable, 'unavailable'],
];

export interface CampaignOptions {
  rounds: number;
  time_scale: number;
  /** Requests in flight during the load. */
  writers: number;
  /** The kill comes uniformly within this window after the load starts. */
  kill_after_ms: [number, number];
  accounts: number;
  seed: number;
  /**
   * Cluster mode (CRASH_CLUSTER=1): two nodes on a 3-server NATS cluster; each round kills the
   * leader, the standby takes over, and the killed node restarts on its store as the new standby.
   * Before that kill, some rounds also kill the standby or a NATS server (see `ExtraKill`).
   */
  cluster?: boolean;
  /**
   * Partitions (CRASH_PARTITIONS=1, with cluster): the NATS servers and both nodes each in a network namespace of
   * its own (test/helpers/netns.ts; needs root), and every other round cuts the cluster during its load
   * (campaign-partitions.ts) before the leader's kill. The seed of the flaky links' draws.
   */
  partitions?: { seed: number };
}

/**
 * Cluster mode: what else dies in a round, before the leader's kill -9 (in turns of three rounds, so
 * each comes with each of the three ways of killing the leader). `standby`: kill -9 of the standby
 * (at a random moment, or in one of its commits' flush windows), restarted at once on its store with
 * LMDB_RESTORE=safe while the load goes on, so that the node that takes over is one that just lost
 * its unflushed tail and had to find it again in the stream. `nats`: kill -9 of one NATS server (in
 * turn the journal stream's Raft leader, or another one), left dead through the leader's kill and the
 * failover, then restarted.
 */
export type ExtraKill = 'none' | 'standby' | 'nats' | 'partition';
const extra_kills: readonly ExtraKill[] = ['standby', 'nats', 'none'];
/**
 * With partitions, every other round is a partition round, and the three kills of the others take their turns
 * between them: a cycle of six rounds, so that each of the three ways of killing the leader comes with each.
 */
const extra_kills_with_partitions: readonly ExtraKill[] = ['partition', 'standby', 'partition', 'nats', 'partition', 'none'];
/** The nodes' lease with partitions: test/cluster-partitions.test.ts's, so that the figures compare with its own. */
const partition_lease_ms = 3000;
/** Writers that go on during a partition's fault (campaign-partitions.ts); the others wait for the kill. */
const partition_writers = 4;
/** Of the writers' turns, the share that sends a race (a request with a key, and that key's revocation: race_ops). */
const race_share = 0.1;
/** How long the fake upstream takes to verify a meter: the window a race's revocation may fall into. */
const race_verify_delay_ms = 60;
/**
 * Share of the writers' turns that place a live bulk order large enough to fill its account's send lane and
 * cancel some of its items (cancel_turn): the order desk sends at most bulk_sends_in_flight_max (8) items at
 * once, and the fake VTpass answers the lane's numbers after slow_ms (700 ms), so items past the eighth wait.
 */
const cancel_share = 0.03;
/**
 * Cancel turns are part of every campaign; CRASH_CANCELS=0 leaves them out (to compare with a run without them).
 * They ran behind CRASH_CANCELS=1 until the 30-round run's finding was fixed: open orders escalated at a restart
 * and killed again before their first re-query was answered were never re-queried (test/crash/README.md "Cancel runs").
 */
const cancels_on = process.env.CRASH_CANCELS !== '0';
/**
 * Share of the writers' turns that are funding turns (campaign-funding.ts: a transfer into a dedicated account
 * and its callbacks, a reconcile, or a forged callback); none with CRASH_FUNDING=0.
 */
const funding_share = 0.06;
const lane_max = 8;
/** The fake VTpass's callback token (UPSTREAMS callback_token): its callbacks reach /callbacks/vtpass/vtpass/{token}. */
const crash_callback_token = 'crash-callback-7c1d8e3f5a6b0c9d2e7f1a4b4f0e9a2b';

/** An answer that says the cluster did not take the request (503 service.unavailable): not acknowledged. */
class Refused extends Error {}

export interface RoundReport {
  round: number;
  kill_after_ms: number;
  kill_mode: 'at a random moment' | 'as an answer arrives' | 'in a flush window';
  kill_detail: string;
  /** Cluster mode: what else was killed this round, and how. */
  extra_kill: ExtraKill;
  extra_detail: string;
  /** Cluster mode: answers 503 service.unavailable (a node that was not, or no longer, leading). */
  refused: number;
  /** Partition rounds: the fault and what it did (campaign-partitions.ts); null in other rounds. */
  partition: PartitionRecord | null;
  /** Partition rounds: requests whose connection failed during the fault (left unanswered, re-sent after the failover). */
  cut_errors: number;
  sent: number;
  acknowledged: number;
  unanswered: number;
  resent: number;
  /** Unanswered requests without a key: whether they took effect stays unknown (0 or 1 time). */
  unknown: number;
  load_violations: string[];
  store_violations: string[];
  api_violations: string[];
  store_stats: StoreStats | null;
  /** The campaign cannot go on (the server did not come back). */
  fatal: string | null;
  duration_ms: number;
  phases_ms: { load: number; journal_check: number; restart: number; api_check: number; resend: number };
}

export interface FinalReport {
  violations: string[];
  store_stats: StoreStats | null;
  implied_events: number;
}

/**
 * Whether every replica of billvend's streams (the journal, the lease bucket, the snapshot store)
 * is current: a restarted NATS server has caught up on all three. Checking the journal alone let a
 * round begin while the restarted server still caught up on the lease bucket, and that round's NATS
 * kill then left the bucket without a quorum: two faults at once, which no cluster of three survives.
 */
function all_replicas_current(nats: NatsServers): Promise<boolean> {
  return replicas_current(nats, ['BILLVEND_JOURNAL', 'KV_billvend-lease', 'OBJ_billvend-snapshots'], nats.nodes.length - 1);
}

/** A small seeded generator (mulberry32): the same seed gives the same mix of operations. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The answer each purchase may get, by what the sandbox table or the upstream says of it. */
/**
 * A bulk order's answer: 202, every item listed in order, each placed or refused as its number says
 * (docs/api.md "Bulk orders"); completed exactly when no item is still processing.
 */
/**
 * A purchase or bulk order sent again once its key's record expired, whose every placement its first send made:
 * 409 transaction.duplicate_reference (a purchase), or every item refused so (a bulk order).
 */
function repeats_a_placement(op: Op, ack: Ack): boolean {
  const duplicate = (error: any) => error?.code === 'transaction.duplicate_reference' && typeof error?.reference === 'string';
  if (op.kind === 'purchase') return ack.status === 409 && op.purchase?.client_reference !== undefined && duplicate(ack.body?.error);
  if (op.kind === 'bulk') {
    const items = ack.body?.data?.items;
    return ack.status === 202 && Array.isArray(items) && items.length === op.bulk!.items.length && items.every((item: any) => item?.status === 'refused' && item.reference === null && duplicate(item.error));
  }
  return false;
}

function judge_bulk(spec: BulkSpec, ack: Ack): boolean {
  const data = ack.body?.data;
  if (ack.status !== 202 || !Array.isArray(data?.items) || data.items.length !== spec.items.length) return false;
  let processing = 0;
  const fits = spec.items.every((item, index) => {
    const shown = data.items[index];
    if (shown?.index !== index || shown.client_reference !== item.client_reference) return false;
    if (shown.status === 'processing') processing++;
    if (item.reused_of !== undefined && item.expect !== 'unavailable') {
      return shown.status === 'refused' && shown.error?.code === 'transaction.duplicate_reference' && shown.error?.reference === item.reused_of;
    }
    const placed = typeof shown.reference === 'string' && shown.error === null;
    switch (item.expect) {
      case 'delivered':
        return placed && shown.status === 'delivered';
      case 'failed':
        return placed && shown.status === 'failed';
      case 'delayed_delivered':
        return placed && (shown.status === 'processing' || shown.status === 'delivered');
      case 'delayed_failed':
        return placed && (shown.status === 'processing' || shown.status === 'failed');
      case 'unavailable':
        return shown.reference === null && shown.status === 'refused' && shown.error?.code === 'transaction.provider_unavailable';
      // A live item (a race's, see race_ops): whatever the upstream did, or refused while it is down.
      case 'upstream':
        return (placed && ['processing', 'delivered', 'failed'].includes(shown.status))
          || (shown.reference === null && shown.status === 'refused' && shown.error?.code === 'transaction.provider_unavailable');
      default:
        return false;
    }
  });
  return fits && data.status === (processing === 0 ? 'completed' : 'processing');
}

function judge_purchase(expect: Expectation, ack: Ack, reused_of?: string): boolean {
  const code = ack.body?.error?.code;
  // A repeated client reference is refused in the command that debits; a provider that is down or a meter or
  // smartcard it does not know is refused before that command, with nothing debited either way.
  if (reused_of !== undefined && expect !== 'unavailable' && expect !== 'invalid') {
    return ack.status === 409 && code === 'transaction.duplicate_reference' && ack.body?.error?.reference === reused_of;
  }
  const status = ack.body?.data?.status;
  switch (expect) {
    case 'delivered':
      return ack.status === 201 && status === 'delivered';
    case 'failed':
      return ack.status === 422 && code === 'transaction.failed';
    // Processing, or already the final answer: a re-send may find the order settled, and under
    // TIME_SCALE 0.001 a server descheduled for 25 ms inside the purchase command (a loaded machine)
    // gets the sandbox's "30 s later" answer before its 5 s wait starts (at TIME_SCALE 1 that would be
    // a 25-second freeze). Either answer is true; the outcome itself is checked strictly elsewhere.
    case 'delayed_delivered':
      return ack.status === 201 && (status === 'processing' || status === 'delivered');
    case 'delayed_failed':
      return (ack.status === 201 && status === 'processing') || (ack.status === 422 && code === 'transaction.failed');
    case 'unavailable':
      return ack.status === 503 && code === 'transaction.provider_unavailable' && ack.body?.error !== undefined;
    case 'invalid':
      return ack.status === 422 && (code === 'service.invalid_meter' || code === 'service.invalid_smartcard');
    case 'upstream':
      return (ack.status === 201 && (status === 'delivered' || status === 'processing'))
        || (ack.status === 422 && code === 'transaction.failed')
        || (ack.status === 503 && code === 'transaction.provider_unavailable');
  }
}

/** What watch_meta_leader saw: how long NATS had no JetStream meta leader, and when it last had none (epoch ms; 0: never). */
interface MetaLeaderWatch {
  missing_ms: number;
  last_missing_ms: number;
  stop(): void;
}

/**
 * Asks NATS every 500 ms whether its JetStream meta group has a leader (`$JS.API.INFO`, which only the meta leader
 * answers with the account's info; without one the servers answer "JetStream system temporarily unavailable", or
 * nothing), until stopped. A connection that cannot be made counts as no leader.
 */
function watch_meta_leader(url: string): MetaLeaderWatch {
  const watch = { missing_ms: 0, last_missing_ms: 0, stop: () => { stopped = true; } };
  let stopped = false;
  void (async () => {
    const { connect } = await import('@nats-io/transport-node');
    let nc: Awaited<ReturnType<typeof connect>> | null = null;
    while (!stopped) {
      const asked_ms = Date.now();
      let answered = false;
      try {
        nc ??= await connect({ servers: url.split(','), timeout: 1_000, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
        const reply = JSON.parse((await nc.request('$JS.API.INFO', '', { timeout: 1_000 })).string()) as { error?: unknown };
        answered = reply.error === undefined;
      } catch {
        answered = false;
      }
      if (!answered) {
        watch.missing_ms += Math.max(500, Date.now() - asked_ms);
        watch.last_missing_ms = Date.now();
      }
      await sleep(Math.max(0, 500 - (Date.now() - asked_ms)));
    }
    await nc?.close().catch(() => {});
  })();
  return watch;
}

export class Campaign {
  readonly model: Model;
  readonly receiver = new CrashReceiver();
  readonly upstream = new FakeUpstream();
  /**
   * The second upstream of the default route (UPSTREAMS order): an order the first refuses before
   * processing (091) is sent here under a new request id; one it answered 019 never is.
   */
  readonly upstream_b = new FakeUpstream();
  /** Live orders' references by the request id of each attempt, as the journal checks read them. */
  private readonly reference_of_request = new Map<string, string>();
  /** Live phones bought this round, the purchases that may meet VTpass's duplicate guard (019). */
  private recent_live: string[] = [];
  /** Request ids the upstream reversed this round: their callbacks are sent again after the restart. */
  private reversed_this_round: string[] = [];
  /** Reversed orders that our side had delivered first (the rest were still processing when reversed). */
  private reversed_after_delivery = 0;
  readonly live = { duplicates_sent: 0, reversals: 0, reversals_around_kill: 0, callbacks: 0, callbacks_cut: 0, callbacks_refused: 0 };
  /** The store of the node that takes the load (in cluster mode, the leader's: it changes every round). */
  data_dir = temp_dir('billvend-crash-');
  server!: TestServer;
  /** Cluster mode: the NATS servers and the standby. */
  private nats: NatsServers | null = null;
  private standby: TestServer | null = null;
  /** Partitions: the namespaces the cluster runs in, and the partition rounds' driver. */
  private lab: NetnsLab | null = null;
  partitions: PartitionDriver | null = null;
  private readonly partition_host: PartitionHost;
  /** The nodes' lease (CLUSTER_LEASE_MS). */
  private readonly lease_ms: number;
  readonly api: ApiChecker;
  /** Funding turns (campaign-funding.ts), or null with CRASH_FUNDING=0. */
  readonly funding: FundingDriver | null;
  /** Agent turns (campaign-agents.ts), or null with CRASH_AGENTS=0. */
  readonly agents: AgentsDriver | null;
  readonly totals = { rounds: 0, kills: 0, sent: 0, acknowledged: 0, resent: 0, unknown: 0, violations: 0, standby_kills: 0, nats_kills: 0, refused: 0, cut_errors: 0, deposed: 0, supervisor_restarts: 0, meta_missing_ms_max: 0, races: 0, race_refusals: 0, cancel_orders: 0, cancels: 0, cancels_200: 0, cancels_409: 0 };
  private readonly random: () => number;
  private sequence = 0;
  private alive = false;
  /** Set at the kill moment of an "at an answer" round: the next answer to arrive fires SIGKILL. */
  private kill_at_next_answer: (() => void) | null = null;
  /** The kill of this round has begun (it may come from a worker thread at any moment). */
  private kill_armed = false;
  private plans: { plan_id: string; amount: number }[] = [];
  private packages: { package_code: string; amount: number }[] = [];
  private keep_data = false;
  /**
   * Cluster mode: the logs of the run as they come, whole, so that a run that hangs can be read while it hangs and
   * one that fails keeps them (copied beside the store by teardown): each NATS server's output in `<name>.log` (the
   * servers' own `output` keeps only the last few hundred chunks), with a line at each start, and each node's log
   * lines in `node-<name>.log`, written every second. The meta-group and stream leader changes in the first are what
   * a node's availability failure is read against.
   */
  readonly log_dir = temp_dir('billvend-crash-logs-');
  private readonly node_names = new Map<TestServer, string>();
  private readonly node_lines_written = new Map<TestServer, number>();
  private log_timer: NodeJS.Timeout | null = null;
  /** Acknowledged keys no revocation was sent for yet. */
  private readonly revocable: CreatedKey[] = [];
  /** Times of the answers acknowledged in this round's load (not re-sends), ascending: a partition's write pause. */
  private round_acks_ms: number[] = [];
  /** The process and store the last round's kill meant (reported when its restart fails). */
  private killed_pid: number | undefined = undefined;
  private killed_dir = '';

  constructor(readonly options: CampaignOptions) {
    this.random = seeded(options.seed);
    this.lease_ms = options.partitions === undefined ? test_lease_ms : partition_lease_ms;
    this.partition_host = {
      leader: () => this.server,
      standby: () => this.standby!,
      lead: (node) => {
        if (node === this.server) return;
        this.standby = this.server;
        this.server = node;
        this.data_dir = node.data_dir;
      },
      acknowledged_ms: () => this.round_acks_ms,
    };
    this.model = {
      run_id: randomBytes(3).toString('hex'),
      time_scale: options.time_scale,
      idempotency_ttl_ms: 24 * 60 * 60 * 1000 * options.time_scale,
      accounts: [],
      pricing: {},
      ops: [],
      created_keys: [],
      funding: { providers: [], transfers: [], reseller_fee_tiers: [] },
    };
    this.funding = funding_on ? new FundingDriver(this.model, {
      random: () => this.random(),
      op: (round, kind, account, environment) => this.base_op(round, kind, account, environment),
      send: (op, round, violations) => {
        this.model.ops.push(op);
        return this.send(op, round, false, violations);
      },
    }) : null;
    this.agents = agents_on ? new AgentsDriver(this.model, { random: () => this.random(), server: () => this.server, alive: () => this.alive && this.partitions?.on !== true, cluster: options.cluster === true, refused: () => this.totals.refused++ }) : null;
    this.api = new ApiChecker(() => this.server, this.model, () => this.reversed_references());
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }

  /** An integer number of kobo in [min, max] NGN, with kobo most of the time. */
  private amount_kobo(min_ngn: number, max_ngn: number): number {
    return min_ngn * 100 + Math.floor(this.random() * (max_ngn - min_ngn) * 100);
  }

  // ---- Set-up -------------------------------------------------------------------------------------

  async setup(): Promise<void> {
    await this.receiver.start();
    await this.upstream.start();
    await this.upstream_b.start();
    this.upstream.processing_requeries = 1;
    // Live verifications take a while, as a real distribution company's do: the window in which a
    // purchase racing its key's revocation has been authenticated but has not debited yet.
    this.upstream.verify_delay_ms = race_verify_delay_ms;
    // A generous upstream timeout: the machine is shared, and an answer that misses it only makes
    // the order processing (then re-queried), which the campaign covers anyway.
    // Three funding providers, each a fake speaking its documented API (campaign-funding.ts).
    const funding_providers = this.funding === null ? null : await this.funding.start();
    const env = webhook_env({
      TIME_SCALE: String(this.options.time_scale), LOG_LEVEL: process.env.CRASH_CLUSTER_LOG ? 'debug' : 'warn', UPSTREAMS: JSON.stringify(this.upstreams_setting()),
      ...(funding_providers === null ? {} : { FUNDING_PROVIDERS: JSON.stringify(funding_providers) }),
    });
    if (this.options.cluster) {
      const cluster_env = (name: string) => ({ ...env, CLUSTER_NATS_URL: this.nats!.url, NODE_NAME: name, CLUSTER_LEASE_MS: String(this.lease_ms), MASTER_KEY: test_master_key });
      // The checker opens sealed values with DATA_DIR/master.key; cluster nodes take MASTER_KEY instead.
      const b_dir = temp_dir('billvend-crash-b-');
      for (const dir of [this.data_dir, b_dir]) writeFileSync(join(dir, 'master.key'), Buffer.from(test_master_key, 'hex').toString('base64') + '\n', { mode: 0o600 });
      if (this.options.partitions !== undefined) {
        // Each NATS server and node in a namespace of its own. The nodes reach the fakes (upstreams, funding
        // providers, the webhook receiver: all on this process's 127.0.0.1) at their usual URLs through the lab's
        // forwarders, and this process reaches the nodes at their addresses on the lab's bridge, which no cut touches.
        this.lab = NetnsLab.create();
        const urls = `${JSON.stringify(env)} ${this.receiver.url('x')}`;
        await this.lab.forward_loopback([...urls.matchAll(/(?:127\.0\.0\.1|localhost):(\d+)/g)].map((match) => Number(match[1])));
        await this.lab.start_nats(3);
        this.nats = this.lab.nats_servers();
        this.tee_nats_logs();
        this.server = await this.lab.node_server('a', this.data_dir, cluster_env('a'));
        this.standby = await this.lab.node_server('b', b_dir, cluster_env('b'));
        this.partitions = new PartitionDriver(this.lab, this.options.partitions.seed, this.lease_ms, new Map([[this.server, 'a'], [this.standby, 'b']]),
          () => this.nats!.nodes.map((node) => join(this.log_dir, `${node.name}.log`)));
      } else {
        this.nats = await NatsCluster.start(3);
        this.tee_nats_logs();
        this.server = new TestServer(this.data_dir, cluster_env('a'));
        this.standby = new TestServer(b_dir, cluster_env('b'));
      }
      this.node_names.set(this.server, 'a').set(this.standby, 'b');
      this.log_timer = setInterval(() => this.write_node_logs(), 1_000);
      await this.server.start();
      await wait_leading(this.server, this.lab === null ? 30_000 : 60_000);
      await this.standby.start();
    } else {
      this.server = new TestServer(this.data_dir, env);
      await this.server.start();
    }
    // Half the accounts buy at a discount, so that the checker's balance = credits − Σ amount_charged means
    // something: rules at both levels of specificity, rates that leave a remainder to round down.
    const crash_rules: PriceRuleSpec[] = [
      { service_type: 'airtime', narrow: null, rate_bp: 250 },
      { service_type: 'airtime', narrow: 'mtn', rate_bp: 375 },
      { service_type: 'data', narrow: null, rate_bp: 133 },
      { service_type: 'electricity', narrow: null, rate_bp: 77 },
      { service_type: 'tv', narrow: 'gotv', rate_bp: 91 },
    ];
    const priced = await this.server.admin('PUT', '/admin/pricing/crash_gold', {
      // Its accounts bear the funding provider's fee (docs/funding.md "Fees"): the wallet gets the amount less it.
      ...(this.funding === null ? {} : { funding_fee: 'reseller' }),
      rules: price_rules_body(crash_rules),
    });
    if (priced.status !== 200) throw new Error(`price list: ${priced.status} ${priced.text}`);
    this.model.pricing.crash_gold = crash_rules;
    if (this.funding !== null) this.model.funding.reseller_fee_tiers = ['crash_gold'];
    for (let i = 0; i < this.options.accounts; i++) {
      const tier = i % 2 === 0 ? 'crash_gold' : 'standard';
      const created = await this.server.create_account({ kyc_level: 3, tier });
      const patched = await this.server.admin('PATCH', `/admin/accounts/${created.id}`, { daily_limit: 100_000_000 });
      if (patched.status !== 200) throw new Error(`daily limit: ${patched.status} ${patched.text}`);
      const wallets = {} as Record<Environment, Wallet>;
      for (const environment of environments) {
        const key = await this.server.create_key(created.id, { environment, name: `driver ${environment}`, rate_limit_per_minute: 1_000_000 });
        const tag = `a${created.id}-${environment}`;
        const endpoint = await this.server.api('POST', '/v1/webhooks', { key: key.api_key, body: { url: this.receiver.url(tag), description: 'crash campaign' } });
        if (endpoint.status !== 201) throw new Error(`webhook endpoint: ${endpoint.status} ${endpoint.text}`);
        await this.receiver.set_secret(tag, endpoint.body.data.secret);
        wallets[environment] = { account_id: created.id, environment, key: key.api_key, key_id: key.id, endpoint_id: endpoint.body.data.id, tag };
      }
      this.model.accounts.push({ id: created.id, tier, wallets, funding_numbers: {} });
    }
    // Initial funding goes through the same bookkeeping as every later credit.
    for (const account of this.model.accounts) {
      for (const environment of environments) {
        const op = this.credit_op(0, account, environment, 20_000_000_00, `INIT-${this.model.run_id}-${account.id}-${environment}`);
        this.model.ops.push(op);
        await this.send(op, 0, false, []);
        if (op.ack?.status !== 201) throw new Error(`initial credit: ${op.ack?.status} ${op.ack?.text}`);
      }
    }
    await this.funding?.open_accounts(this.server);
    await this.agents?.setup();
    const test_key = this.model.accounts[0].wallets.test.key;
    const plans = await this.server.api('GET', '/v1/services/data/plans?network=mtn', { key: test_key });
    this.plans = (plans.body.data.plans as { plan_id: string; amount: number }[]).sort((a, b) => a.amount - b.amount).slice(0, 4);
    const packages = await this.server.api('GET', '/v1/services/tv/packages?provider=gotv', { key: test_key });
    this.packages = (packages.body.data.packages as { package_code: string; amount: number }[]).sort((a, b) => a.amount - b.amount).slice(0, 3);
    if (this.plans.length === 0 || this.packages.length === 0) throw new Error('the catalog has no mtn data plans or gotv packages');
    await warm_up_live(this.server, this.model.accounts[0].wallets.live.key);
  }

  // ---- Operations ---------------------------------------------------------------------------------

  base_op(round: number, kind: OpKind, account: Account, environment: Environment): Op {
    return {
      n: ++this.sequence,
      kind,
      round,
      account_id: account.id,
      environment,
      method: 'POST',
      path: '',
      operator: false,
      body: undefined,
      idem: null,
      sent_ms: 0,
      sends: 0,
      twin: false,
      ack: null,
      api_checked: false,
    };
  }

  private idem_key(op: Op): string {
    return `crash-${this.model.run_id}-${op.n}`;
  }

  private credit_op(round: number, account: Account, environment: Environment, amount_kobo: number, reference?: string): Op {
    const op = this.base_op(round, 'credit', account, environment);
    op.operator = true;
    op.path = `/admin/accounts/${account.id}/wallet/credit`;
    op.credit = { reference: reference ?? `CR-${this.model.run_id}-${op.n}`, amount_kobo };
    op.body = { environment, amount: naira_of(amount_kobo), reference: op.credit.reference, description: 'crash campaign credit' };
    return op;
  }

  /** Purchases with a client_reference, by wallet: later purchases repeat those answered with an order. */
  private readonly client_reference_ops = new Map<string, Op[]>();

  /**
   * A purchase, a fifth of them with a client_reference, and one in ten of those a repeat of one whose
   * purchase was already answered with an order. Only those: ops are sent by concurrent writers, so
   * one merely generated earlier may not have reached the server yet.
   */
  private purchase_op(round: number, account: Account): Op {
    const op = this.plain_purchase_op(round, account);
    if (this.random() >= 0.2) return op;
    const wk = `${account.id}:${op.environment}`;
    const ops = this.client_reference_ops.get(wk) ?? [];
    const answered = ops.filter((o) => o.ack !== null && acked_reference(o.ack) !== null);
    const original = answered.length > 0 && this.random() < 0.1 ? this.pick(answered) : null;
    const client_reference = original === null ? `crash-${op.n}` : original.purchase!.client_reference!;
    if (original === null) this.client_reference_ops.set(wk, [...ops, op]);
    op.body = { ...op.body, client_reference, metadata: { op: String(op.n) } };
    op.purchase = { ...op.purchase!, client_reference, ...(original === null ? {} : { reused_of: acked_reference(original.ack!)! }) };
    return op;
  }

  private plain_purchase_op(round: number, account: Account): Op {
    const live = this.random() < 0.25;
    const environment: Environment = live ? 'live' : 'test';
    const op = this.base_op(round, 'purchase', account, environment);
    if (this.random() < 0.85) op.idem = this.idem_key(op);
    op.twin = op.idem !== null && this.random() < 0.1;
    const pin = '12345';
    if (live) {
      // Live airtime through the fake upstream; each number has its own behaviour there.
      // refuse: 091 before processing, so the order moves to the second upstream, which delivers.
      const modes: [UpstreamMode, number][] = [['deliver', 0.4], ['fail', 0.15], ['processing', 0.25], ['processing_fail', 0.12], ['refuse', 0.08]];
      let roll = this.random();
      let mode: UpstreamMode = 'deliver';
      for (const [m, share] of modes) {
        if (roll < share) {
          mode = m;
          break;
        }
        roll -= share;
      }
      const digit = { deliver: 1, fail: 2, processing: 3, processing_fail: 4, refuse: 5 }[mode as 'deliver'];
      // An MTN prefix, as the network bought (docs/api.md "Phone lookup").
      let phone = `0803${digit}${String(op.n % 1_000_000).padStart(6, '0')}`;
      if (this.recent_live.length > 0 && this.random() < 0.12) {
        // The same service for a number bought moments ago: VTpass's duplicate guard answers 019 to
        // whichever of the two comes second. That order is re-queried under its own request id, never
        // sent to the second upstream, and refunded only on a definite answer (015 after the grace).
        phone = this.pick(this.recent_live);
        mode = this.upstream.mode_of(phone);
        this.live.duplicates_sent++;
      } else {
        this.upstream.set_mode(phone, mode);
        this.recent_live.push(phone);
      }
      const amount_kobo = this.amount_kobo(50, 2_000);
      op.path = '/v1/services/airtime';
      op.body = { network: 'mtn', phone, amount: naira_of(amount_kobo), pin };
      op.purchase = { service: 'airtime', recipient: phone, amount_kobo, expect: 'upstream', upstream_mode: mode };
      return op;
    }
    const service = this.pick(['airtime', 'airtime', 'data', 'data', 'electricity', 'tv', 'education', 'internet'] as const);
    const phone_outcomes = sandbox_outcomes;
    if (service === 'education' || service === 'internet') {
      // PIN products (WAEC result checkers by the 1 to 3, Spectranet PINs): the phone decides the outcome,
      // and a delivered order's PINs are sealed in the same commit as its debit.
      const [phone, expect] = this.pick(phone_outcomes);
      if (service === 'education') {
        const quantity = 1 + Math.floor(this.random() * 3);
        const amount_kobo = 3_900_00 * quantity;
        op.path = '/v1/services/education';
        op.body = { product: 'waec-result-checker', quantity, phone, amount: naira_of(amount_kobo), pin };
        op.purchase = { service, recipient: phone, amount_kobo, expect };
      } else {
        op.path = '/v1/services/internet';
        op.body = { provider: 'spectranet', plan_code: 'spectranet-7000', phone, amount: 7_000, pin };
        op.purchase = { service, recipient: phone, amount_kobo: 7_000_00, expect };
      }
    } else if (service === 'airtime' || service === 'data') {
      const [phone, expect] = this.pick(phone_outcomes);
      if (service === 'airtime') {
        const amount_kobo = this.amount_kobo(50, 1_000);
        op.path = '/v1/services/airtime';
        op.body = { network: 'mtn', phone, amount: naira_of(amount_kobo), pin };
        op.purchase = { service, recipient: phone, amount_kobo, expect };
      } else {
        const plan = this.pick(this.plans);
        op.path = '/v1/services/data/purchase';
        op.body = { network: 'mtn', plan_code: plan.plan_id, phone, amount: plan.amount, pin };
        op.purchase = { service, recipient: phone, amount_kobo: Math.round(plan.amount * 100), expect };
      }
    } else if (service === 'electricity') {
      const roll = this.random();
      const [meter, meter_type, expect]: [string, string, Expectation] = roll < 0.45 ? ['1111111111111', 'prepaid', 'delivered'] : roll < 0.9 ? ['1010101010101', 'postpaid', 'delivered'] : ['0000000000000', 'prepaid', 'invalid'];
      const amount_kobo = this.amount_kobo(500, 3_000);
      op.path = '/v1/services/electricity';
      op.body = { disco: this.pick(['ikeja-electric', 'eko-electric', 'abuja-electric']), meter_number: meter, meter_type, amount: naira_of(amount_kobo), pin };
      op.purchase = { service, recipient: meter, amount_kobo, expect };
    } else {
      const item = this.pick(this.packages);
      const [card, expect]: [string, Expectation] = this.random() < 0.9 ? [this.pick(['1212121212', '7034567890']), 'delivered'] : ['0000000000', 'invalid'];
      op.path = '/v1/services/tv';
      op.body = { provider: 'gotv', smartcard_number: card, package_code: item.package_code, amount: item.amount, pin };
      op.purchase = { service, recipient: card, amount_kobo: Math.round(item.amount * 100), expect };
    }
    return op;
  }

  /**
   * A bulk order of 1 to 6 sandbox airtime items, each with its own client_reference (so the checkers
   * can tell which order an item placed); one item in twenty repeats the client_reference of a test
   * purchase already answered with an order, and must be refused alone.
   */
  private bulk_op(round: number, account: Account): Op {
    const op = this.base_op(round, 'bulk', account, 'test');
    if (this.random() < 0.85) op.idem = this.idem_key(op);
    op.twin = op.idem !== null && this.random() < 0.1;
    op.path = '/v1/services/bulk';
    const count = 1 + Math.floor(this.random() * 6);
    const answered = (this.client_reference_ops.get(`${account.id}:test`) ?? []).filter((o) => o.ack !== null && acked_reference(o.ack) !== null);
    const items: Record<string, unknown>[] = [];
    const specs: PurchaseSpec[] = [];
    for (let i = 0; i < count; i++) {
      const [phone, expect] = this.pick(sandbox_outcomes);
      const amount_kobo = this.amount_kobo(50, 1_000);
      const original = answered.length > 0 && this.random() < 0.05 ? this.pick(answered) : null;
      const client_reference = original === null ? `crash-${op.n}-${i}` : original.purchase!.client_reference!;
      items.push({ service_type: 'airtime', network: 'mtn', phone, amount: naira_of(amount_kobo), client_reference });
      specs.push({ service: 'airtime', recipient: phone, amount_kobo, expect, client_reference, ...(original === null ? {} : { reused_of: acked_reference(original.ack!)! }) });
    }
    op.body = { pin: '12345', items };
    op.bulk = { items: specs };
    return op;
  }

  private next_op(round: number): Op {
    const account = this.pick(this.model.accounts);
    const roll = this.random();
    if (roll < 0.57) return this.purchase_op(round, account);
    if (roll < 0.62) return this.bulk_op(round, account);
    if (roll < 0.74) {
      const op = this.credit_op(round, account, this.pick(environments), this.amount_kobo(1_000, 50_000));
      op.twin = this.random() < 0.1;
      return op;
    }
    if (roll < 0.84) {
      const op = this.base_op(round, 'topup', account, 'test');
      if (this.random() < 0.8) op.idem = this.idem_key(op);
      op.twin = op.idem !== null && this.random() < 0.1;
      const amount_kobo = this.amount_kobo(100, 20_000);
      op.path = '/v1/sandbox/wallet/fund';
      op.credit = { reference: `TOP-${this.model.run_id}-${op.n}`, amount_kobo };
      op.body = { amount: naira_of(amount_kobo), reference: op.credit.reference };
      return op;
    }
    const environment = this.pick(environments);
    const revocable = this.revocable.filter((k) => k.account_id === account.id && k.environment === environment);
    if (revocable.length > 0 && (roll >= 0.92 || revocable.length >= 2)) {
      const target = this.pick(revocable);
      const op = this.base_op(round, 'key_revoke', account, environment);
      op.method = 'DELETE';
      op.path = `/v1/keys/${target.id}`;
      op.idem = this.idem_key(op);
      op.revoke_target = target;
      target.revoke_op = op;
      this.revocable.splice(this.revocable.indexOf(target), 1);
      return op;
    }
    const op = this.key_create_op(round, account, environment);
    op.twin = this.random() < 0.1;
    return op;
  }

  private key_create_op(round: number, account: Account, environment: Environment): Op {
    const op = this.base_op(round, 'key_create', account, environment);
    op.idem = this.idem_key(op);
    op.path = '/v1/keys';
    op.key_name = `crash-key-${this.model.run_id}-${op.n}`;
    op.body = { name: op.key_name, environment };
    return op;
  }

  /** One copy of an op's request on the wire. */
  private async request(op: Op): Promise<ApiResponse> {
    const wallet = this.model.accounts.find((a) => a.id === op.account_id)!.wallets[op.environment];
    this.totals.sent++;
    const response: ApiResponse = op.funding_callback !== undefined
      // A provider's callback: its exact bytes and signature headers, no key (the public port).
      ? await this.server.request('POST', op.path, { raw_body: op.funding_callback.raw, headers: op.funding_callback.headers })
      : op.operator
      ? await this.server.request(op.method, op.path, { body: op.body, key: null, headers: { authorization: `Bearer ${this.server.admin_token}` } }, this.server.admin_base)
      : await this.server.request(op.method, op.path, { key: op.via_key !== undefined && op.sends === 1 ? op.via_key.api_key : wallet.key, body: op.body, ...(op.idem === null ? {} : { idempotency_key: op.idem }) });
    // The most demanding moment for durability: the instant an answer arrives, its commit must
    // already be on disk. Fired synchronously, before anything else of the test process runs.
    const kill = this.kill_at_next_answer;
    if (kill !== null) {
      this.kill_at_next_answer = null;
      kill();
    }
    // In cluster mode a leader that lost its lease (a NATS server died with the lease bucket's Raft
    // leader on it) refuses with 503 service.unavailable and acknowledges nothing (docs/cluster.md,
    // "Deposition"): the request is left unanswered, and re-sent after the failover like a cut one.
    if (this.options.cluster && response.status === 503 && response.body?.error?.code === 'service.unavailable') {
      this.totals.refused++;
      throw new Refused(`refused: ${response.text.slice(0, 200)}`);
    }
    // During a partition's fault the load may reach a node started again as a standby (a deposed leader's restart,
    // on new ports) before it follows the leader: a standby's operator port serves no write route (404
    // route.not_found). Not taken, so refused like a 503.
    if (this.partitions?.on && op.operator && response.status === 404 && response.body?.error?.code === 'route.not_found') {
      this.totals.refused++;
      throw new Refused(`refused by a standby: ${response.text.slice(0, 200)}`);
    }
    this.totals.acknowledged++;
    return response;
  }

  /**
   * Sends an op and records its answer; throws when the connection died (the kill). Some ops go as
   * two identical copies at once (same key, or same funding reference): neither is ever processed
   * twice, so both must get the same answer, one of them marked as a replay.
   */
  private async send(op: Op, round: number, resent: boolean, violations: string[]): Promise<void> {
    if (op.sends === 0) op.sent_ms = Date.now();
    op.sends++;
    if (op.reconcile !== undefined) op.reconcile.last_sent_ms = Date.now();
    let response: ApiResponse;
    if (op.twin) {
      const copies = await Promise.allSettled([this.request(op), this.request(op)]);
      const answers = copies.flatMap((c) => (c.status === 'fulfilled' ? [c.value] : []));
      if (answers.length === 0) throw (copies[0] as PromiseRejectedResult).reason;
      response = answers[0];
      if (answers.length === 2) {
        const [a, b] = answers;
        // A 5xx is not remembered, so the second copy may run anew: same answer, another request_id.
        // A credit is idempotent by its reference, not by a key: the copy names the same entry.
        const same = op.idem === null
          ? JSON.stringify(a.body?.data) === JSON.stringify(b.body?.data)
          : rememberable(a.status) ? a.text === b.text : a.body?.error?.code === b.body?.error?.code;
        if (a.status !== b.status || !same) {
          violations.push(`op ${op.n} (${op.path} key ${op.idem}): two copies sent together answered differently: ${a.status} ${a.text.slice(0, 300)} — and — ${b.status} ${b.text.slice(0, 300)}`);
        }
        const fresh = answers.filter((x) => x.headers.get('idempotent-replayed') !== 'true').length;
        if (!resent && rememberable(a.status) && fresh !== 1) violations.push(`op ${op.n} (${op.path} key ${op.idem}): of two copies sent together, ${fresh} were processed (exactly 1 expected, the other a replay)`);
      }
    } else {
      response = await this.request(op);
    }
    const ack: Ack = { status: response.status, text: response.text, body: response.body, replayed: response.headers.get('idempotent-replayed') === 'true', at_ms: Date.now(), round, resent };
    op.ack = ack;
    if (!resent) this.round_acks_ms.push(ack.at_ms);
    const at = `op ${op.n} (${op.kind} ${op.method} ${op.path}${op.idem ? ` key ${op.idem}` : ''}${resent ? `, re-sent after the restart, answered ${ack.at_ms - op.sent_ms} ms after its first send` : ''})`;
    // Answered once the key's record may have expired (sent_ms + the scaled TTL): the re-send ran afresh, so its
    // client_reference names the order its first send placed (409 transaction.duplicate_reference), as documented.
    const afresh = resent && op.idem !== null && ack.at_ms >= op.sent_ms + this.model.idempotency_ttl_ms;
    let expected: boolean;
    switch (op.kind) {
      case 'purchase':
        expected = judge_purchase(op.purchase!.expect, ack, op.purchase!.reused_of);
        break;
      case 'bulk':
        expected = judge_bulk(op.bulk!, ack);
        break;
      case 'credit':
      case 'topup':
        expected = ack.status === 201 && ack.body?.data?.reference === op.credit!.reference;
        break;
      case 'key_create':
        expected = (ack.status === 201 && typeof ack.body?.data?.api_key === 'string') || (ack.status === 422 && ack.body?.error?.code === 'keys.limit_reached');
        if (ack.status === 201) {
          const created: CreatedKey = { create_op: op, id: ack.body.data.id, api_key: ack.body.data.api_key, environment: op.environment, account_id: op.account_id, revoke_op: null, revoked: false };
          this.model.created_keys.push(created);
          this.revocable.push(created);
        }
        break;
      case 'cancel': {
        // 200 (cancelled, refunded) or 409 transaction.not_cancellable; which one the checkers hold to.
        const answer = cancel_answer(op.cancel!, ack);
        expected = answer !== null;
        if (answer === 'cancelled') this.totals.cancels_200++;
        if (answer === 'refused') this.totals.cancels_409++;
        break;
      }
      case 'funding_callback':
      case 'funding_reconcile':
        expected = this.funding!.judge(op, ack);
        break;
      case 'key_revoke':
        // 404 only for a re-send: the lost first copy may have revoked the key already.
        expected = ack.status === 200 || (resent && ack.status === 404 && ack.body?.error?.code === 'keys.not_found');
        if (ack.status === 200 || ack.status === 404) op.revoke_target!.revoked = true;
        break;
    }
    // A race's first copy (race_ops) may also find its key revoked: 401 auth.key_not_found, nothing
    // debited (the journal checker looks for any order of it). Only with a revocation sent.
    if (op.via_key !== undefined && !resent && ack.status === 401) {
      expected = ack.body?.error?.code === 'auth.key_not_found' && op.via_key.revoke_op !== null;
      if (expected) this.totals.race_refusals++;
    }
    if (!expected && afresh) expected = repeats_a_placement(op, ack);
    if (!expected) violations.push(`${at}: answered ${ack.status} ${ack.text.slice(0, 300)}, which ${op.purchase ? `the ${op.purchase.expect} outcome of ${op.purchase.recipient}` : 'the operation'} does not allow`);
  }

  /**
   * A live bulk order of 10 to 13 airtime items (numbers of their own, 0806…, that the fake VTpass answers
   * after slow_ms, one in five failed), so that items past the lane's eighth wait in it, pending; then cancels
   * of 2 to 5 of its items, mostly waiting ones, some of the first eight (sent: 409), each 0-150 ms (70%) or
   * 150-600 ms after the 202 (the failed among the first eight free their slots at once, so some race a send); one in four is sent again after its answer and one in
   * eight twice at once (two ops of the same reference). A kill may cut any of them: the re-send after the
   * restart finds the order cancelled (200) or, not cancelled before the crash, re-queried and never
   * cancellable (409; the lane lives in memory).
   */
  private async cancel_turn(round: number, violations: string[]): Promise<void> {
    const account = this.pick(this.model.accounts);
    const op = this.base_op(round, 'bulk', account, 'live');
    if (this.random() < 0.85) op.idem = this.idem_key(op);
    op.path = '/v1/services/bulk';
    const count = lane_max + 2 + Math.floor(this.random() * 4);
    const items: Record<string, unknown>[] = [];
    const specs: PurchaseSpec[] = [];
    for (let i = 0; i < count; i++) {
      const mode: UpstreamMode = this.random() < 0.2 ? 'fail' : 'slow';
      const phone = `0806${mode === 'slow' ? 1 : 2}${String((op.n * 16 + i) % 1_000_000).padStart(6, '0')}`;
      this.upstream.set_mode(phone, mode);
      const amount_kobo = this.amount_kobo(50, 1_000);
      const client_reference = `crash-${op.n}-${i}`;
      items.push({ service_type: 'airtime', network: 'mtn', phone, amount: naira_of(amount_kobo), client_reference });
      specs.push({ service: 'airtime', recipient: phone, amount_kobo, expect: 'upstream', upstream_mode: mode, client_reference });
    }
    op.body = { pin: '12345', items };
    op.bulk = { items: specs };
    this.model.ops.push(op);
    this.totals.cancel_orders++;
    await this.send(op, round, false, violations);
    const placed = acked_batch(op.ack!)?.references ?? [];
    const targets = new Set<number>();
    const wanted = 2 + Math.floor(this.random() * 4);
    for (let tries = 0; targets.size < wanted && tries < 20; tries++) {
      const index = this.random() < 0.75 ? lane_max + Math.floor(this.random() * (count - lane_max)) : Math.floor(this.random() * lane_max);
      if (placed[index] != null) targets.add(index);
    }
    const cancel_op = (index: number): Op => {
      const cancel = this.base_op(round, 'cancel', account, 'live');
      cancel.cancel = { reference: placed[index]!, bulk_op: op.n, index };
      cancel.path = `/v1/transactions/${placed[index]}/cancel`;
      this.model.ops.push(cancel);
      this.totals.cancels++;
      return cancel;
    };
    const sent = await Promise.allSettled([...targets].map(async (index) => {
      // Cut short by the kill (the load phase waits for every writer): the cancel then goes to the dead
      // server, unanswered, and is re-sent after the restart.
      // Mostly at once (the load phase lasts 100-700 ms): the first eight's failures free slots at once, so the
      // ninth and tenth are sent within milliseconds of the 202 and a cancel races that send.
      const until = Date.now() + Math.floor(this.random() < 0.7 ? this.random() * 150 : 150 + this.random() * 450);
      while (this.alive && Date.now() < until) await sleep(Math.min(50, until - Date.now()));
      const roll = this.random();
      const first = cancel_op(index);
      if (roll < 0.125) {
        const twin = cancel_op(index);
        const both = await Promise.allSettled([this.send(first, round, false, violations), this.send(twin, round, false, violations)]);
        for (const result of both) if (result.status === 'rejected') throw result.reason;
        return;
      }
      await this.send(first, round, false, violations);
      if (roll < 0.375) await this.send(cancel_op(index), round, false, violations);
    }));
    for (const result of sent) if (result.status === 'rejected') throw result.reason;
  }

  /**
   * A purchase or bulk order of live electricity sent with one of the account's created live keys, and
   * that key's revocation sent while it runs (by the reseller with DELETE /v1/keys/{id}, or by the
   * operator, in turn), 0 to twice the verification's delay after it: the revocation lands before the
   * request is authenticated, while its meters are verified (the window that the debit's own check of
   * the key closes: docs/decisions.md "Authority at the debit"), or after its debit. Null when the
   * account has no created live key to spare.
   */
  private race_ops(round: number, account: Account, key: CreatedKey): [Op, Op] {
    this.revocable.splice(this.revocable.indexOf(key), 1);
    const bulk = this.random() < 0.4;
    const op = this.base_op(round, bulk ? 'bulk' : 'purchase', account, 'live');
    if (this.random() < 0.85) op.idem = this.idem_key(op);
    op.via_key = key;
    const item = (n: number): { body: Record<string, unknown>; spec: PurchaseSpec } => {
      const modes: UpstreamMode[] = ['deliver', 'deliver', 'fail', 'processing', 'processing_fail'];
      const mode = this.pick(modes);
      const meter = `4509${modes.indexOf(mode)}${String((op.n * 10 + n) % 100_000_000).padStart(8, '0')}`;
      this.upstream.set_mode(meter, mode);
      const amount_kobo = this.amount_kobo(500, 3_000);
      return {
        body: { disco: this.pick(['ikeja-electric', 'eko-electric', 'abuja-electric']), meter_number: meter, meter_type: 'prepaid', amount: naira_of(amount_kobo) },
        spec: { service: 'electricity', recipient: meter, amount_kobo, expect: 'upstream', upstream_mode: mode },
      };
    };
    if (bulk) {
      op.path = '/v1/services/bulk';
      const items = Array.from({ length: 1 + Math.floor(this.random() * 4) }, (_, i) => {
        const made = item(i);
        const client_reference = `crash-${op.n}-${i}`;
        return { body: { service_type: 'electricity', ...made.body, client_reference }, spec: { ...made.spec, client_reference } };
      });
      op.body = { pin: '12345', items: items.map((i) => i.body) };
      op.bulk = { items: items.map((i) => i.spec) };
    } else {
      const made = item(0);
      op.path = '/v1/services/electricity';
      op.body = { ...made.body, pin: '12345' };
      op.purchase = made.spec;
    }
    const revoke = this.base_op(round, 'key_revoke', account, 'live');
    revoke.method = 'DELETE';
    if (this.totals.races % 2 === 0) {
      revoke.path = `/v1/keys/${key.id}`;
      revoke.idem = this.idem_key(revoke);
    } else {
      revoke.operator = true;
      revoke.path = `/admin/accounts/${account.id}/keys/${key.id}`;
    }
    revoke.revoke_target = key;
    key.revoke_op = revoke;
    this.totals.races++;
    return [op, revoke];
  }

  /**
   * A race (race_ops) on an account's created live key, created first (and awaited) when it has none
   * to spare; returns the racing request, or null when no key could be created (keys.limit_reached).
   */
  private async race(round: number, violations: string[]): Promise<Op | null> {
    const account = this.pick(this.model.accounts);
    let key = this.revocable.find((k) => k.account_id === account.id && k.environment === 'live');
    if (key === undefined) {
      const create = this.key_create_op(round, account, 'live');
      this.model.ops.push(create);
      await this.send(create, round, false, violations);
      key = this.revocable.find((k) => k.create_op === create);
      if (key === undefined) return null;
    }
    const [op, revoke] = this.race_ops(round, account, key);
    this.model.ops.push(op, revoke);
    await this.send_race([op, revoke], round, violations);
    return op;
  }

  /** Sends a race (race_ops): the request with the key, and the key's revocation a moment after it. */
  private async send_race([op, revoke]: [Op, Op], round: number, violations: string[]): Promise<void> {
    const delay_ms = Math.floor(this.random() * 2 * race_verify_delay_ms);
    const sent = await Promise.allSettled([this.send(op, round, false, violations), sleep(delay_ms).then(() => this.send(revoke, round, false, violations))]);
    for (const result of sent) if (result.status === 'rejected') throw result.reason;
  }

  private server_exited_by_itself(): boolean {
    const child = (this.server as unknown as { child: { exitCode: number | null; signalCode: string | null } | null }).child;
    return child !== null && (child.exitCode !== null || child.signalCode !== null);
  }

  /**
   * Step 4 in cluster mode, done as a supervisor would do it (docs/cluster.md: Restart=always): a
   * node that exits by itself, or fails to start, is started again. Usually the standby takes over
   * and the killed node restarts on its store as the new standby. But a node started while JetStream
   * elects a stream leader (a NATS server just died) can exit 1 on its start-up check, and a new
   * leader whose recovery kept its event loop busy past the lease (a loaded machine, a 1.5 s lease)
   * is deposed (exit 75) just after taking over; then whichever node takes the lease next leads. A
   * leader counts once seen leading twice, a lease apart.
   */
  private async fail_over(standby: TestServer, killed: TestServer, report: RoundReport): Promise<TestServer> {
    const running = (node: TestServer) => {
      const child = (node as unknown as { child: { exitCode: number | null; signalCode: string | null } | null }).child;
      return child !== null && child.exitCode === null && child.signalCode === null;
    };
    const exit_code = (node: TestServer) => (node as unknown as { child: { exitCode: number | null } | null }).child?.exitCode ?? null;
    const name = (node: TestServer) => (node === standby ? 'the standby' : 'the killed leader');
    const start = async (node: TestServer) => {
      for (let attempt = 1; ; attempt++) {
        try {
          await node.start({ LMDB_RESTORE: 'safe' });
          return;
        } catch (error) {
          if (attempt >= 5) throw error;
          this.totals.supervisor_restarts++;
          report.extra_detail += `; ${name(node)} failed to start (${(error as Error).message.split('\n').slice(0, 2).join(' ').slice(0, 160)}) and was started again`;
          await sleep(1_000);
        }
      }
    };
    const leading = async (node: TestServer) => {
      if (!running(node)) return false;
      const probe = (async () => {
        const ready = await node.admin('GET', '/readyz');
        return ready.status === 200 && (await node.admin('GET', '/admin/cluster')).body?.data?.role === 'leader';
      })().catch(() => false);
      return Promise.race([probe, sleep(2_000).then(() => false)]);
    };
    // The bound: 60 s from the kill, or from the last moment NATS had no JetStream meta leader, whichever is later.
    // While the meta group has no leader (nats-server 2.9 after a partition's heal took 13.5 s to elect one in the
    // run of 2026-11-28 with seed 3712101), every JetStream API call is answered "temporarily unavailable" and no
    // node can read the lease or take it: that wait is NATS's, measured and reported here, not billvend's
    // (test/crash/README.md "Partitions"). Never more than 5 minutes from the kill.
    const killed_ms = Date.now();
    const meta = this.nats === null ? null : watch_meta_leader(this.nats.url);
    try {
      return await this.fail_over_within(standby, killed, report, start, leading, running, exit_code, name, killed_ms, meta);
    } finally {
      meta?.stop();
      if (meta !== null && meta.missing_ms > 0) {
        report.extra_detail += `; NATS had no JetStream meta leader for ${meta.missing_ms} ms of the failover`;
        this.totals.meta_missing_ms_max = Math.max(this.totals.meta_missing_ms_max, meta.missing_ms);
      }
    }
  }

  private async fail_over_within(
    standby: TestServer, killed: TestServer, report: RoundReport, start: (node: TestServer) => Promise<void>, leading: (node: TestServer) => Promise<boolean>,
    running: (node: TestServer) => boolean, exit_code: (node: TestServer) => number | null, name: (node: TestServer) => string, killed_ms: number, meta: MetaLeaderWatch | null,
  ): Promise<TestServer> {
    let killed_started = false;
    for (;;) {
      const from_ms = Math.max(killed_ms, meta?.last_missing_ms ?? 0);
      if (Date.now() > from_ms + 60_000 || Date.now() > killed_ms + 300_000) {
        throw new Error(`no node led within 60 s of the kill${meta !== null && meta.missing_ms > 0 ? ` or of NATS having a JetStream meta leader again (none for ${meta.missing_ms} ms, the last time ${Math.round((Date.now() - meta.last_missing_ms) / 1000)} s ago)` : ''}`);
      }
      for (const node of killed_started ? [standby, killed] : [standby]) {
        if (running(node)) continue;
        const code = exit_code(node);
        if (code !== null) {
          this.totals.supervisor_restarts++;
          report.extra_detail += `; ${name(node)} exited ${code} by itself${code === 75 ? ' (deposed)' : ''} and was started again`;
        }
        await start(node);
        if (!killed_started) {
          await start(killed);
          killed_started = true;
        }
      }
      for (const node of killed_started ? [standby, killed] : [standby]) {
        if (!(await leading(node))) continue;
        await sleep(this.lease_ms);
        if (await leading(node)) {
          if (!killed_started) await start(killed);
          return node;
        }
      }
      await sleep(100);
    }
  }

  /**
   * Whether the leader exited 75 (deposed) in a round that killed a NATS server: by design when the
   * dead server led the lease bucket and JetStream's re-election outlasted the lease (docs/cluster.md).
   */
  /**
   * Whether a request failing now is expected: the kill has begun, the leader was deposed by a NATS server's death
   * (by design), or a partition round's fault is on (nodes deposed and started again, campaign-partitions.ts).
   */
  private errors_expected(extra: ExtraKill): boolean {
    return this.kill_armed || this.deposed_by_design(extra) || (extra === 'partition' && this.partitions?.on === true);
  }

  private deposed_by_design(extra: ExtraKill, child = (this.server as unknown as { child: { exitCode: number | null; signalCode: string | null } | null }).child): boolean {
    return extra === 'nats' && child !== null && child.exitCode === 75;
  }

  private server_tail(): string {
    const lines = this.server.logs.filter((line) => /"level":(50|60)|"level":"(error|fatal)"/.test(line)).slice(-10);
    return `${lines.join('\n')}\n${this.server.stderr.join('').slice(-2_000)}`;
  }

  // ---- Live upstreams: the route, 019 and reversals -----------------------------------------------

  /** UPSTREAMS: the fake VTpass (with its callback token) first, then the second fake, where refusals go. */
  private upstreams_setting(): Record<string, unknown>[] {
    const common = { kind: 'vtpass', api_key: 'fake-api-key', secret_key: 'fake-secret-key', timeout_ms: 2_000 };
    return [
      { name: 'vtpass', base_url: this.upstream.base_url, callback_token: crash_callback_token, ...common },
      { name: 'vtpass-b', base_url: this.upstream_b.base_url, ...common },
    ];
  }

  private callback_url(): string {
    return `${this.server.base}/callbacks/vtpass/vtpass/${crash_callback_token}`;
  }

  /** The references of the orders whose request the fake VTpass reversed (as the journal checks mapped them). */
  reversed_references(): Set<string> {
    const out = new Set<string>();
    for (const request_id of this.upstream.reversed) {
      const reference = this.reference_of_request.get(request_id);
      if (reference !== undefined) out.add(reference);
    }
    return out;
  }

  /** VTpass reverses one delivered live airtime purchase (never a race's meter); its request id, or null. */
  private reverse_one(): string | null {
    const delivered = [...this.upstream.transactions.values()].filter((tx) => tx.status === 'delivered' && tx.billers_code.startsWith('0803'));
    if (delivered.length === 0) return null;
    const tx = this.pick(delivered);
    this.upstream.reverse(tx.request_id);
    this.reversed_this_round.push(tx.request_id);
    this.live.reversals++;
    return tx.request_id;
  }

  /** VTpass's reversal callback, once or (as VTpass retries) twice at once; a non-200 answer is a violation. */
  private async callback(request_id: string, violations: string[], round: number): Promise<void> {
    const copies = this.random() < 0.3 ? 2 : 1;
    await Promise.all(Array.from({ length: copies }, async () => {
      this.live.callbacks++;
      try {
        const answer = await this.upstream.send_callback(this.callback_url(), request_id, 'callback-transaction-reversal');
        // Cluster mode: a leader deposed in a NATS round answers every request 503 service.unavailable, a
        // callback too (docs/cluster.md "Deposition"); VTpass sends it again (docs/upstreams.md "Callbacks and
        // reversals"), as the round's callbacks after the failover do: refused like a request, not a violation.
        if (this.options.cluster && answer.status === 503 && JSON.parse(answer.text)?.error?.code === 'service.unavailable') {
          this.totals.refused++;
          this.live.callbacks_refused++;
          return;
        }
        if (answer.status !== 200 || JSON.parse(answer.text)?.response !== 'success') violations.push(`round ${round}: the callback for ${request_id} was answered ${answer.status} ${answer.text.slice(0, 200)}`);
      } catch (error) {
        // Cut by the kill: VTpass would send it again; the round's re-send after the restart does.
        this.live.callbacks_cut++;
        if (!this.kill_armed && !this.partitions?.on) violations.push(`round ${round}: the callback for ${request_id} failed while the server was up: ${(error as Error).message}`);
      }
    }));
  }

  /** During the load: now and then VTpass reverses a delivered purchase and calls back at once. */
  private async reverser(round: number, violations: string[]): Promise<void> {
    while (this.alive) {
      await sleep(30 + Math.floor(this.random() * 120));
      if (!this.alive || this.random() >= 0.35) continue;
      const request_id = this.reverse_one();
      if (request_id !== null) await this.callback(request_id, violations, round);
    }
  }

  /**
   * At the end: VTpass calls back once more for every reversal (one sent while the server was dead was
   * lost), and every reversed order is failed before the final checks.
   */
  private async settle_reversals(timeout_ms: number): Promise<string[]> {
    const v: string[] = [];
    for (const request_id of this.upstream.reversed) await this.callback(request_id, v, this.totals.rounds);
    const live_keys = this.model.accounts.map((a) => a.wallets.live.key);
    for (const reference of this.reversed_references()) {
      const deadline = Date.now() + timeout_ms;
      let status = '?';
      let delivered_at: string | null = null;
      while (Date.now() < deadline) {
        for (const key of live_keys) {
          const found = await this.server.api('GET', `/v1/transactions/${reference}`, { key });
          if (found.status === 200) ({ status, delivered_at } = found.body.data);
        }
        if (status === 'failed') {
          if (delivered_at !== null) this.reversed_after_delivery++;
          break;
        }
        await sleep(100);
      }
      if (status !== 'failed') v.push(`order ${reference}, whose request VTpass reversed, is still ${status} after the callbacks`);
    }
    return v;
  }

  // ---- A round ------------------------------------------------------------------------------------

  async run_round(round: number): Promise<RoundReport> {
    const started = Date.now();
    const report: RoundReport = {
      round, kill_after_ms: 0, kill_mode: 'at a random moment', kill_detail: '', extra_kill: 'none', extra_detail: '', refused: 0, partition: null, cut_errors: 0, sent: 0, acknowledged: 0, unanswered: 0, resent: 0, unknown: 0,
      load_violations: [], store_violations: [], api_violations: [], store_stats: null, fatal: null, duration_ms: 0,
      phases_ms: { load: 0, journal_check: 0, restart: 0, api_check: 0, resend: 0 },
    };
    const sent_before = this.totals.sent;
    const acked_before = this.totals.acknowledged;
    const first_op = this.sequence + 1;
    this.recent_live = [];
    this.reversed_this_round = [];
    const logged = [this.server.logs.length, this.standby?.logs.length ?? 0];
    // CRASH_EXTRA=nats|standby|none: every round the same extra kill (to dwell on one failure).
    const forced = process.env.CRASH_EXTRA as ExtraKill | undefined;
    const turns = this.partitions === null ? extra_kills : extra_kills_with_partitions;
    const extra: ExtraKill = !this.options.cluster ? 'none'
      : forced !== undefined && turns.includes(forced) ? forced
      : this.partitions === null ? turns[Math.floor((round - 1) / 3) % turns.length] : turns[(round - 1) % turns.length];
    report.extra_kill = extra;
    // Partitions: no round begins while a replica of the journal or the lease bucket still catches up after the
    // last heal or restart (a fault then would leave no current majority on either side; PartitionDriver.settle).
    const replicas_current_ms = this.partitions === null ? null : await this.partitions.settle();
    this.round_acks_ms = [];
    // The NATS server to kill: in turn the one that leads the journal stream's Raft group (the worst
    // case: writes wait for a re-election) and another one.
    let nats_victim = -1;
    let victim_led = false;
    if (extra === 'nats') {
      const leader_name = await stream_leader(this.nats!).catch(() => null);
      const leader_index = this.nats!.nodes.findIndex((node) => node.name === leader_name);
      nats_victim = this.totals.nats_kills % 2 === 0 && leader_index >= 0 ? leader_index : (Math.max(leader_index, 0) + 1 + (this.totals.nats_kills % 2)) % this.nats!.nodes.length;
      victim_led = nats_victim === leader_index;
    }

    // 1. The load, until the kill.
    this.alive = true;
    this.kill_armed = false;
    const writer = async (_: unknown, index: number) => {
      while (this.alive) {
        // During a partition's fault only a few writers go on (partition_writers): enough to measure the write pause
        // and to have acknowledgements cut by the fault, without a 12 s cut piling up a backlog ten times a round's.
        if (this.partitions?.on && index >= partition_writers) {
          await sleep(100);
          continue;
        }
        const racing = this.random() < race_share;
        const cancelling = cancels_on && !racing && this.random() < cancel_share;
        const funding = this.funding !== null && !racing && !cancelling && this.random() < funding_share;
        const op = racing || cancelling || funding ? null : this.next_op(round);
        if (op !== null) this.model.ops.push(op);
        try {
          if (funding) await this.funding!.turn(round, report.load_violations);
          else if (cancelling) await this.cancel_turn(round, report.load_violations);
          else if (op === null) await this.race(round, report.load_violations);
          else await this.send(op, round, false, report.load_violations);
        } catch (error) {
          if (error instanceof Refused) {
            report.refused++;
            // During a partition (campaign-partitions.ts), to whichever node leads, as HAProxy's /readyz check would.
            if (this.partitions?.on && !this.kill_armed) {
              await sleep(200);
              await this.partitions.find_leader(this.partition_host);
            } else {
              await sleep(20);
            }
            continue;
          }
          // A connection that failed during a partition (a deposed leader's exit, a node restarting): the request is
          // left unanswered, re-sent after the failover like one cut by the kill, and the load waits for a leader.
          if (this.partitions?.on && !this.kill_armed) {
            report.cut_errors++;
            this.totals.cut_errors++;
            await sleep(200);
            await this.partitions.find_leader(this.partition_host);
            continue;
          }
          // The connection died before the kill began: did the server crash by itself? A leader
          // deposed in a round that killed a NATS server exits 75 by design (docs/cluster.md).
          if (!this.errors_expected(extra)) {
            const what = funding ? 'a funding turn' : cancelling ? 'a bulk order and its cancels' : op === null ? 'a race of a revocation' : `op ${op.n} ${op.path}`;
            if (this.server_exited_by_itself()) report.load_violations.push(`round ${round}: the server died by itself during the load (${what}): ${this.server_tail()}`);
            else report.load_violations.push(`round ${round}: ${what} failed while the server was up: ${(error as Error).message}`);
            this.alive = false;
          }
          return;
        }
      }
    };
    // One cancel turn at the start of every round as well: a lane-filling bulk order's 202 takes a while on a
    // busy server, and turns drawn later in a 100-700 ms load phase had nearly all their cancels cut by the kill.
    const opening_cancels = (async () => {
      if (!cancels_on) return;
      try {
        await this.cancel_turn(round, report.load_violations);
      } catch (error) {
        if (!this.errors_expected(extra)) report.load_violations.push(`round ${round}: a bulk order and its cancels failed while the server was up: ${(error as Error).message}`);
      }
    })();
    // Two funding turns open every round as well (the load phase is short: drawn turns alone gave about one a round).
    const opening_funding = Array.from({ length: this.funding === null ? 0 : 2 }, async () => {
      try {
        await this.funding!.turn(round, report.load_violations);
      } catch (error) {
        if (error instanceof Refused) report.refused++;
        else if (!this.errors_expected(extra)) report.load_violations.push(`round ${round}: a funding turn failed while the server was up: ${(error as Error).message}`);
      }
    });
    // The agent tree's turns run beside the writers for the whole load (campaign-agents.ts).
    const agent_turns = (async () => {
      if (this.agents === null) return;
      try {
        await this.agents.turn(round, report.load_violations);
      } catch (error) {
        if (!(error instanceof AgentRefused) && !this.errors_expected(extra)) report.load_violations.push(`round ${round}: an agent turn failed while the server was up: ${(error as Error).message}`);
      }
    })();
    const writers = [...Array.from({ length: this.options.writers }, writer), opening_cancels, ...opening_funding, agent_turns];
    const reversals = this.reverser(round, report.load_violations);
    const [low, high] = this.options.kill_after_ms;
    report.kill_after_ms = Math.round(low + this.random() * (high - low));
    // Rounds take turns: kill at that moment; at the first answer that arrives after it; or, from
    // that moment, at the first commit that is not flushed yet (see flush-window.ts).
    report.kill_mode = (['in a flush window', 'at a random moment', 'as an answer arrives'] as const)[round % 3];
    // Cluster mode: the standby or a NATS server dies first, at 20-60% of the time before the leader's kill.
    let standby_restart: Promise<void> | null = null;
    if (extra !== 'none') {
      const extra_at_ms = Math.round(report.kill_after_ms * (0.2 + 0.4 * this.random()));
      await sleep(extra_at_ms);
      if (extra === 'standby') {
        const standby = this.standby!;
        const in_window = this.totals.standby_kills % 2 === 1;
        let how = 'at a random moment';
        if (in_window && standby.pid !== undefined) {
          const result = await kill_in_flush_window(join(standby.data_dir, 'data.mdb'), standby.pid, Math.max(200, report.kill_after_ms - extra_at_ms));
          how = `in a flush window (${result.detail})`;
        }
        await standby.kill();
        this.totals.standby_kills++;
        report.extra_detail = `standby killed ${extra_at_ms} ms into the load, ${how}; restarted at once with LMDB_RESTORE=safe`;
        // Back on its store while the load goes on; the leader's kill may come before it is up.
        standby_restart = standby.start({ LMDB_RESTORE: 'safe' });
        standby_restart.catch(() => {});
      } else if (extra === 'partition') {
        const record = await this.partitions!.run(this.partition_host, replicas_current_ms);
        report.partition = record;
        const elected = record.elections.map((e) => `${e.what} ${e.into_pause_ms} ms`).join(', ');
        report.extra_detail = `${record.label} ${extra_at_ms} ms into the load for ${record.hold_ms} ms: longest write pause ${record.pause_ms} ms${record.past_heal ? ' (past the heal)' : ''}`
          + ` (NATS's leader elections in it: ${elected === '' ? 'none' : `${elected} into it; ${PartitionDriver.after_elections_ms(record)} ms after the last`}), `
          + `one leader ${record.one_leader_ms === null ? 'not within 40 s' : `${record.one_leader_ms} ms`} after the heal, exits ${JSON.stringify(record.exits)}`
          + `${record.failed_starts > 0 ? `, ${record.failed_starts} failed starts` : ''}${record.both_back ? '' : ', the nodes not back as leader and caught-up standby within 60 s'}`
          + `, replicas current ${record.replicas_current_ms === null ? 'not within 120 s' : `${record.replicas_current_ms} ms`} before the round`;
        // The rest of the round's load before the leader's kill, as long as the load had before the cut.
        await sleep(Math.max(100, report.kill_after_ms - extra_at_ms));
      } else {
        await this.nats!.kill(nats_victim);
        this.totals.nats_kills++;
        report.extra_detail = `NATS server ${this.nats!.nodes[nats_victim].name} killed ${extra_at_ms} ms into the load (${victim_led ? 'it led the journal stream' : 'a follower of the journal stream'}); dead through the failover`;
      }
      if (extra !== 'partition') await sleep(Math.max(0, report.kill_after_ms - (Date.now() - started)));
    } else {
      await sleep(report.kill_after_ms);
    }
    // 2. kill -9 with requests in flight. From here on, connections dying is expected.
    this.kill_armed = true;
    if (this.partitions !== null) this.partitions.on = false;
    const child = (this.server as unknown as { child: { signalCode: string | null; exitCode: number | null } }).child;
    const pid = this.server.pid!;
    this.killed_pid = pid;
    this.killed_dir = this.server.data_dir;
    // A leader deposed in a NATS round has exited already: no signal to a pid that may be reused.
    const already_exited = child === null || child.exitCode !== null || child.signalCode !== null;
    if (already_exited) {
      report.kill_detail = 'the leader had already exited by itself';
    } else if (report.kill_mode === 'as an answer arrives') {
      await new Promise<void>((resolve) => {
        const fire = () => {
          if (child.exitCode === null && child.signalCode === null) process.kill(pid, 'SIGKILL');
          resolve();
        };
        this.kill_at_next_answer = fire;
        // Should no answer come (every writer waiting on a slow one), fall back to killing now.
        setTimeout(() => {
          if (this.kill_at_next_answer === fire) {
            this.kill_at_next_answer = null;
            fire();
          }
        }, 1_000);
      });
    } else if (report.kill_mode === 'in a flush window') {
      const result = await kill_in_flush_window(join(this.data_dir, 'data.mdb'), pid, 1_500);
      report.kill_detail = result.detail;
    }
    this.alive = false;
    await this.server.kill();
    if (this.deposed_by_design(extra, child)) {
      this.totals.deposed++;
      report.kill_detail += `; the leader was deposed (exit 75) when the NATS server died, before the kill`;
    } else if (extra === 'partition' && child.exitCode === 75 && this.partitions !== null) {
      // After the heal, JetStream may elect its streams' leaders again (a node back from the minority side asks for a
      // vote with a higher term: nats-server 2.9 has no pre-vote), and a leader whose lease runs out meanwhile steps
      // down (exit 75), as it must. It counts as one of the fault's exits: a second exit of the same node is the
      // availability figure "a node exiting twice" (the summary), not an error of safety.
      const twice = this.partitions.exit_after_fault(this.server, child.exitCode);
      this.totals.deposed++;
      report.kill_detail += `; the leader was deposed (exit 75) after the heal, before the kill${twice ? ', its second exit for this fault' : ''}: ${this.server_tail().split('\n').filter((line) => line.includes('deposed;')).at(-1)?.slice(0, 300) ?? ''}`;
    } else if (child.signalCode !== 'SIGKILL') {
      report.load_violations.push(`round ${round}: the server exited by itself (code ${child.exitCode}, signal ${child.signalCode}) before the kill: ${this.server_tail()}`);
    }
    this.totals.kills++;
    await Promise.all(writers);
    await reversals;
    // Around the kill: VTpass reverses a purchase while the server is dead (its callback comes after the restart).
    if (this.random() < 0.3 && this.reverse_one() !== null) this.live.reversals_around_kill++;
    const killed_ms = Date.now();
    report.phases_ms.load = killed_ms - started;

    // 3. The journal, read as the restart will find it.
    let tree_balances: Map<number, number> | null = null;
    try {
      const store = await check_store(this.data_dir, this.model, { snapshot_ms: killed_ms, final: false, upstream: this.upstream, other_upstreams: [this.upstream_b], acked_before_ms: killed_ms });
      for (const [request_id, reference] of store.reference_of_request) this.reference_of_request.set(request_id, reference);
      report.store_violations.push(...store.violations);
      report.store_stats = store.stats;
      tree_balances = store.tree_balances;
    } catch (error) {
      report.store_violations.push(`the journal checker could not read the store: ${(error as Error).stack}`);
    }

    report.phases_ms.journal_check = Date.now() - killed_ms;
    // 4. Restart on the same store, keeping only flushed commits. In cluster mode the standby takes
    // over first, and the killed node comes back on its store as the new standby.
    const restart_started = Date.now();
    try {
      if (this.standby !== null) {
        const killed = this.server;
        const standby = this.standby;
        if (standby_restart !== null) await standby_restart.catch(() => {});
        const leader = await this.fail_over(standby, killed, report);
        // CRASH_CLUSTER_LOG=file: both nodes' cluster lines of every failover (positions at deposal and take-over).
        if (process.env.CRASH_CLUSTER_LOG) {
          const lines = (node: TestServer, from: number) => node.logs.slice(Math.min(from, node.logs.length)).filter((line) => line.includes('cluster'));
          appendFileSync(process.env.CRASH_CLUSTER_LOG, `--- round ${round} (${report.extra_detail}; ${report.kill_detail})\n[killed]\n${lines(killed, logged[0]).join('\n')}\n[standby]\n${lines(standby, logged[1]).join('\n')}\n`);
        }
        this.server = leader;
        this.standby = leader === standby ? killed : standby;
        this.data_dir = this.server.data_dir;
        if (nats_victim >= 0) {
          // The NATS server comes back on its store; the next round starts once every replica of
          // billvend's streams is current again, so that no round begins without a quorum to spare.
          this.nats!.launch(nats_victim);
          this.tee_nats_logs(nats_victim);
          await this.nats!.wait_listening(nats_victim);
          await wait_until('the replicas of the journal, the lease bucket and the snapshot store to be current', () => all_replicas_current(this.nats!), 30_000);
        }
      } else {
        await this.server.start({ LMDB_RESTORE: 'safe' });
      }
    } catch (error) {
      // Which process the kill meant (the partition campaign of 2026-11-29, seed 9601, round 23: the restart found the
      // store still held by a live process; not diagnosed then).
      let still_alive = false;
      try {
        if (this.killed_pid !== undefined) still_alive = process.kill(this.killed_pid, 0);
      } catch {
        still_alive = false;
      }
      const meant = `the kill (${report.kill_mode}${report.kill_detail === '' ? '' : `: ${report.kill_detail}`}) meant pid ${this.killed_pid} on ${this.killed_dir}, ${still_alive ? 'still alive' : 'gone'}`;
      report.fatal = `round ${round}: the server did not restart on the store (${meant}): ${(error as Error).message.slice(0, 4_000)}`;
      if (this.nats !== null) {
        // What the NATS servers said last: why no node could take over (a stream without a leader?).
        const said = this.nats.nodes.map((node) => `--- NATS ${node.name}${node.child === null ? ' (dead)' : ''}:\n${node.output.join('').split('\n').slice(-25).join('\n')}`).join('\n');
        const standby_said = this.standby === null ? '' : `--- standby ${this.standby.data_dir}:\n${this.standby.logs.slice(-15).join('\n').slice(-4_000)}`;
        report.fatal += `\n${said}\n${standby_said}`;
      }
      this.keep_data = true;
    }

    report.phases_ms.restart = Date.now() - restart_started;
    if (report.fatal === null) {
      // VTpass calls again for this round's reversals (a callback cut by the kill, or one VTpass repeats),
      // while the API checks read the orders.
      const callbacks = Promise.all(this.reversed_this_round.map((request_id) => this.callback(request_id, report.load_violations, round)));
      // 5. Every answer acknowledged since the last restart, through the API.
      const api_started = Date.now();
      try {
        report.api_violations.push(...await this.api.check_acks(this.model.ops.filter((op) => op.ack !== null && !op.api_checked && op.round > 0)));
      } catch (error) {
        report.api_violations.push(`the API checks failed: ${(error as Error).stack}`);
      }
      // The tree through the API (balances as the journal read them, every acknowledged transfer replayed alike),
      // and every tree request the kill cut sent again.
      try {
        // Cluster mode: the killed leader's store is not the authority (the stream is), so the balances are
        // compared with the last leader's store at the end instead (finish).
        if (this.agents !== null) report.api_violations.push(...await this.agents.after_restart(round, this.options.cluster ? null : tree_balances));
      } catch (error) {
        report.api_violations.push(`the agent checks after the restart failed: ${(error as Error).stack}`);
      }
      await callbacks;
      report.phases_ms.api_check = Date.now() - api_started;
      // 6. Learn the fate of every request the kill left unanswered, by sending it again.
      const resend_started = Date.now();
      const unanswered = this.model.ops.filter((op) => op.n >= first_op && op.ack === null);
      report.unanswered = unanswered.length;
      // An unkeyed purchase or bulk order is not sent again: a second copy would be a second purchase.
      const resendable = unanswered.filter((op) => (op.kind !== 'purchase' && op.kind !== 'bulk') || op.idem !== null);
      report.unknown = unanswered.length - resendable.length;
      this.totals.unknown += report.unknown;
      let next = 0;
      await Promise.all(Array.from({ length: 16 }, async () => {
        while (next < resendable.length) {
          const op = resendable[next++];
          try {
            await this.send(op, round, true, report.load_violations);
            report.resent++;
            this.totals.resent++;
          } catch (error) {
            report.load_violations.push(`round ${round}: re-sending op ${op.n} ${op.path} failed while the server was up: ${(error as Error).message}${this.server_exited_by_itself() ? ` — the server died: ${this.server_tail()}` : ''}`);
          }
        }
      }));
      report.phases_ms.resend = Date.now() - resend_started;
    }
    report.sent = this.totals.sent - sent_before;
    report.acknowledged = this.totals.acknowledged - acked_before;
    report.duration_ms = Date.now() - started;
    this.totals.rounds++;
    const found = report.load_violations.length + report.store_violations.length + report.api_violations.length + (report.fatal === null ? 0 : 1);
    this.totals.violations += found;
    if (found > 0) this.keep_data = true;
    report.load_violations = capped(report.load_violations);
    report.store_violations = capped(report.store_violations);
    report.api_violations = capped(report.api_violations);
    return report;
  }

  // ---- The end ------------------------------------------------------------------------------------

  async finish(settle_timeout_ms = 60_000): Promise<FinalReport> {
    const v: string[] = [];
    // Answers to the last round's re-sends have not been through the API checks yet.
    v.push(...await this.api.check_acks(this.model.ops.filter((op) => op.ack !== null && !op.api_checked && op.round > 0)));
    v.push(...await this.settle_reversals(30_000));
    if (this.funding !== null) {
      // No transfer lost: a last reconcile credits every transfer whose callback never came (or was cut).
      const op = this.funding.final_reconcile_op(this.totals.rounds);
      this.model.ops.push(op);
      await this.send(op, this.totals.rounds, false, v);
      v.push(...await this.api.check_acks([op]));
    }
    v.push(...await this.api.wait_until_settled(this.receiver, settle_timeout_ms));
    const final = await this.api.check_final(this.receiver);
    v.push(...final.violations);
    // The tree's balances through the API, for the last journal check to compare (in cluster mode the only such check).
    const tree_api = this.agents === null ? null : await this.agents.api_balances(v);
    // Cluster mode: the standby goes first, so that the leader's SIGTERM hands the lease to nobody.
    await this.standby?.stop();
    const code = await this.server.stop();
    if (code !== 0) v.push(`the server exited with ${code} on SIGTERM: ${this.server_tail()}`);
    let store_stats: StoreStats | null = null;
    try {
      const store = await check_store(this.data_dir, this.model, {
        snapshot_ms: Date.now(), final: true, upstream: this.upstream, other_upstreams: [this.upstream_b], receiver_acknowledged: this.receiver.acknowledged_ids(), acked_before_ms: Date.now(),
      });
      v.push(...store.violations);
      store_stats = store.stats;
      for (const [id, kobo] of tree_api ?? []) if (store.tree_balances?.get(id) !== kobo) v.push(`at the end: tree account ${id}'s test balance through the API was ${kobo} kobo, the journal's is ${store.tree_balances?.get(id)}`);
    } catch (error) {
      v.push(`the journal checker could not read the store: ${(error as Error).stack}`);
    }
    this.totals.violations += v.length;
    if (v.length > 0) this.keep_data = true;
    return { violations: capped(v), store_stats, implied_events: final.implied_events };
  }

  /** Appends NATS server i's output (every server's, without i) to its file in log_dir from now on. */
  private tee_nats_logs(only?: number): void {
    this.nats!.nodes.forEach((node, i) => {
      if (only !== undefined && i !== only) return;
      const file = join(this.log_dir, `${node.name}.log`);
      appendFileSync(file, `--- ${node.name} started at ${new Date().toISOString()}\n`);
      const keep = (chunk: Buffer) => appendFileSync(file, chunk);
      node.child?.stdout?.on('data', keep);
      node.child?.stderr?.on('data', keep);
    });
  }

  /** Appends each node's log lines since the last call to `node-<name>.log` in log_dir. */
  private write_node_logs(): void {
    for (const [node, name] of this.node_names) {
      const from = this.node_lines_written.get(node) ?? 0;
      if (node.logs.length <= from) continue;
      appendFileSync(join(this.log_dir, `node-${name}.log`), node.logs.slice(from).join('\n') + '\n');
      this.node_lines_written.set(node, node.logs.length);
    }
  }

  /** Stops everything; keeps the store, both nodes' logs and the NATS servers' logs when something was found. */
  async teardown(): Promise<string | null> {
    if (this.log_timer !== null) clearInterval(this.log_timer);
    this.write_node_logs();
    await this.server?.kill();
    await this.standby?.kill();
    await this.nats?.stop();
    await this.receiver.stop();
    await this.upstream.stop();
    await this.upstream_b.stop();
    await this.funding?.stop();
    let kept: string | null = null;
    if (this.keep_data) {
      kept = temp_dir('billvend-crash-kept-');
      cpSync(this.data_dir, join(kept, 'store'), { recursive: true });
      const ops = this.model.ops.map((op) => ({ ...op, revoke_target: op.revoke_target?.id, via_key: op.via_key?.id, ack: op.ack && { ...op.ack, body: undefined } }));
      writeFileSync(join(kept, 'ops.json'), JSON.stringify({ options: this.options, run_id: this.model.run_id, accounts: this.model.accounts, funding_transfers: this.model.funding.transfers, ops }, null, 1));
      writeFileSync(join(kept, 'server-log.txt'), this.server.logs.join('\n') + '\n--- stderr ---\n' + this.server.stderr.join(''));
      if (this.standby !== null) writeFileSync(join(kept, 'standby-log.txt'), this.standby.logs.join('\n') + '\n--- stderr ---\n' + this.standby.stderr.join(''));
      cpSync(this.log_dir, join(kept, 'logs'), { recursive: true });
      if (this.partitions !== null) writeFileSync(join(kept, 'partitions.json'), JSON.stringify(this.partitions.records, null, 1));
    }
    rmSync(this.log_dir, { recursive: true, force: true });
    rmSync(this.data_dir, { recursive: true, force: true });
    if (this.standby !== null) rmSync(this.standby.data_dir, { recursive: true, force: true });
    await this.lab?.destroy();
    return kept;
  }

  /** Bulk orders answered 202, and the items they placed. */
  bulk_acknowledged(): { batches: number; items: number } {
    let batches = 0;
    let items = 0;
    for (const op of this.model.ops) {
      const batch = op.kind === 'bulk' && op.ack !== null ? acked_batch(op.ack) : null;
      if (batch === null) continue;
      batches++;
      items += batch.references.filter((reference) => reference !== null).length;
    }
    return { batches, items };
  }

  /** One line for the README and the tap output. */
  summary(duration_ms: number, stats: StoreStats | null): string {
    const t = this.totals;
    return `crash campaign: rounds ${t.rounds}, kills ${t.kills}, requests sent ${t.sent}, acknowledged ${t.acknowledged} `
      + `(re-sent after a restart ${t.resent}, unanswered without a key ${t.unknown}), API checks ${this.api.requests} (replays ${this.api.replays}), `
      + `bulk orders acknowledged ${this.bulk_acknowledged().batches} (items placed ${this.bulk_acknowledged().items}), `
      + `orders ${stats?.orders ?? '?'}, wallet entries ${stats?.entries ?? '?'}, events ${stats?.events ?? '?'}, webhook requests ${this.receiver.received.length}, `
      + `races of a key's revocation ${t.races} (refused 401 ${t.race_refusals}), `
      + `lane-filling live bulk orders ${t.cancel_orders}, cancels ${t.cancels} (answered 200 ${t.cancels_200}, 409 ${t.cancels_409}), `
      + `live: 019 answers ${this.upstream.duplicates.size} (of ${this.live.duplicates_sent} purchases repeating a number), refused to the second upstream ${this.upstream_b.calls('/api/pay').length}, `
      + `reversals ${this.live.reversals} (${this.live.reversals_around_kill} while the server was dead), reversed after delivery ${this.reversed_after_delivery}, callbacks ${this.live.callbacks} (${this.live.callbacks_cut} cut by a kill, ${this.live.callbacks_refused} refused 503 by a deposed leader), `
      + (this.funding === null ? '' : `${this.funding.summary()}; provider transfers credited in the store ${stats?.funding_credits ?? '?'}, in exceptions ${stats?.funding_exceptions ?? '?'}, `)
      + (this.agents === null ? '' : `${this.agents.summary()}, `)
      + `violations ${t.violations}, ${Math.round(duration_ms / 1000)} s, seed ${this.options.seed}, TIME_SCALE ${this.options.time_scale}`
      + (this.options.cluster
        ? `, cluster mode (a leader failover every round; before it, ${t.standby_kills} standby kills and ${t.nats_kills} NATS server kills; ${t.deposed} leaders deposed by a NATS kill; ${t.supervisor_restarts} nodes started again after exiting by themselves during a failover; longest time without a JetStream meta leader during a failover ${t.meta_missing_ms_max} ms; ${t.refused} answers 503 service.unavailable, re-sent after the failover)`
        : '')
      + (this.partitions === null ? '' : `; ${this.partitions.summary()}; ${t.cut_errors} requests whose connection failed during a fault`);
  }
}
