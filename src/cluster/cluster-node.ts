// Cluster mode (docs/cluster.md): one leader serves writes and appends every group commit of its
// journal to a replicated JetStream stream; standbys apply that stream to their own stores and take
// over when the leader's lease in a JetStream KV bucket runs out: when the key's revision has not
// moved for a whole lease as the standby watched it (see try_to_lead; the key has no server TTL).
//
// Fencing: every append names the stream sequence it expects to follow. A new leader's first append
// (an "epoch" message) therefore makes any append of an older leader fail with "wrong last
// sequence" (JetStream err_code 10071), and a leader acknowledges a batch only once the stream took
// it. A leader that cannot append, or whose lease runs out, is deposed: it refuses every later write
// and the process exits (deposed_exit_code) so that its supervisor restarts it as a standby, which
// discards whatever local tail the stream lacks (see prepare_store).
import type { Logger } from 'pino';
import { randomBytes } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { headers as nats_headers, type MsgHdrs, type NatsConnection, type Server, type ServerInfo } from '@nats-io/transport-node';
import {
  DeliverPolicy,
  JetStreamApiError,
  StorageType,
  jetstream,
  jetstreamManager,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type StreamInfo,
} from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { ClusterConfig } from '../config.js';
import type { Store } from '../journal/store.js';
import { write_changes, type JournalAppender, type StagedChange } from '../journal/journal.js';
import {
  StoreNames,
  applied_change,
  applied_position,
  decode_message,
  digest_of,
  encode_message,
  staged_changes,
  stream_name,
  stream_subject,
  type AppliedPosition,
} from './codec.js';
import { Snapshots } from './snapshots.js';
import { nats_timings, type NatsTimings } from './nats-timings.js';
import { AssertionError, fail } from '../lib/assert.js';

export const lease_bucket = 'billvend-lease';
const lease_key = 'leader';
const digest_header = 'Billvend-Digest';
const part_header = 'Billvend-Part';
/**
 * The digest of the batch a message follows (the one at the sequence before it): the stream's
 * batches form a chain, so a standby that was served a batch the stream's leader does not hold at
 * that sequence (a replica that diverged, or another leader's late append) stops at the next batch
 * instead of building on it (see Diverged). Absent on messages of older versions: not checked then.
 */
const follows_header = 'Billvend-Follows';
/** Exit code of a deposed leader (EX_TEMPFAIL): its supervisor restarts it, and it comes back as a standby. */
export const deposed_exit_code = 75;
/**
 * Exit code of a node that could not bring its store onto the stream leader's history after
 * divergence_repairs_max repairs (EX_PROTOCOL): restarting it would only repeat them, so the systemd
 * unit of docs/cluster.md names it in RestartPreventExitStatus and an operator looks at the NATS cluster.
 */
export const diverged_exit_code = 76;
/**
 * Repairs of a diverged store (see repair) one process makes, each following the last within
 * divergence_window_leases, before it gives up: a stream leader whose own history does not chain
 * stays so, and the node says so once instead of repairing forever.
 */
const divergence_repairs_max = 5;
/** A divergence this many leases after the last one starts the count of repairs afresh. */
const divergence_window_leases = 20;
/** JetStream's "wrong last sequence": another writer appended first. */
const wrong_last_sequence = 10071;
/** JetStream's "no message found" (a message get at a sequence or subject that holds none). */
const no_message = 10037;
/** Bytes kept free under the server's max_payload for headers when a batch is split into parts. */
const part_headroom_bytes = 8 * 1024;
/**
 * Lease arithmetic runs on the monotonic clock: a wall clock stepped back (NTP, an operator) would
 * stretch a leader's lease past the moment a standby counts it as ended.
 */
const monotonic_ms = (): number => performance.now();
/**
 * A standby takes the lease over once its revision stood still for the lease plus this share of it:
 * room for two machines' clocks running at different rates (NTP bounds that to 500 ppm; 5 % is far
 * above it) on top of the time the standby's read took to see the revision, which is already in its favour.
 */
const lease_takeover_margin = 0.05;
/**
 * The lease key as read: the node named (null once deleted), the revision, and, in keys written since
 * 2026-11-28, the holder's tenure (a random id its take-over wrote) and how many renewals that tenure made
 * (see lease_value). Keys written before name the node alone: tenure and renewals null.
 */
interface LeaseEntry {
  node: string | null;
  revision: number;
  tenure: string | null;
  renewals: number | null;
}

/**
 * The lease key's value: `<node> <tenure> <renewals>`. A take-over writes a new tenure and 0; each renewal of
 * that tenure writes the next count. Node names hold no space (config.ts), so the node stays the first word.
 * The count lets a standby that missed renewals (its reads failed during a partition) bound when the holder
 * sent the last one (see renewals_sent_by).
 */
function lease_value(node: string, tenure: string, renewals: number): string {
  return `${node} ${tenure} ${renewals}`;
}

function parse_lease_value(value: string): Omit<LeaseEntry, 'revision'> {
  const [node, tenure, renewals, ...rest] = value.split(' ');
  if (tenure === undefined || renewals === undefined || rest.length > 0 || !/^\d{1,15}$/.test(renewals)) return { node: value, tenure: null, renewals: null };
  return { node, tenure, renewals: Number(renewals) };
}

/** How soon a failed lease renewal is tried again (the lease keeps running meanwhile). */
const renewal_retry_ms = 50;
/** Start-up retries a step that NATS did not answer after 250 ms, doubling up to this, until config.start_wait_ms_max. */
const start_retry_ms_max = 2000;

export type ClusterRole = 'standby' | 'leader' | 'deposed';

export interface ClusterStatus {
  node: string;
  role: ClusterRole;
  leader: string | null;
  applied_seq: number;
  stream_seq: number;
  lag: number;
  /** The NATS server this node's connection is on now (host:port), or null while it reconnects. */
  nats_server: string | null;
}

/** A promise of the next time something happens, and the function that says it did. */
function next_event(): { promise: Promise<void>; happened: () => void } {
  let happened = (): void => {};
  const promise = new Promise<void>((resolve) => (happened = resolve));
  return { promise, happened };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function api_code(error: unknown): number | null {
  return error instanceof JetStreamApiError ? error.code : null;
}

/**
 * Which NATS server to dial next, when the connection dropped: never the one dialled last (the server just
 * left, or one that just failed to answer), and among the others the one dialled longest ago. The client's
 * own order dials the server it just left first after a connection's first drop: a server cut off by a
 * partition then costs a whole dial timeout (half a lease) before the next one is tried, which a leader
 * keeping its lease through another server cannot spare. The first connection keeps the client's order.
 */
export function next_server(pool: ReadonlyArray<Server>, info: ServerInfo | null): Server | null {
  if (info === null || pool.length < 2) return null;
  let last = pool[0];
  for (const server of pool) if (server.lastConnect > last.lastConnect) last = server;
  let next: Server | null = null;
  for (const server of pool) if (server !== last && (next === null || server.lastConnect < next.lastConnect)) next = server;
  return next;
}

class Deposed extends Error {}

/** A start-up verdict that waiting cannot change (a foreign store, no snapshot to rebuild from): not retried. */
class StartRefused extends Error {}

/** The stream no longer holds the batch this standby needs next: it reinstalls the latest snapshot. */
class Behind extends Error {}

/**
 * The stream served a batch that does not follow the last one this store applied: the store holds
 * a batch the cluster does not (or the stream's copy served here does). The standby repairs its
 * store from the stream leader's history, in the same process (see repair).
 */
class Diverged extends Error {}

/** JetStream does not agree on one leader of the journal stream now (electing, or a minority): ask again later. */
class NoAgreedLeader extends Error {}

interface Tail {
  messages: ConsumerMessages | null;
  stopped: boolean;
  done: Promise<void>;
}

export class ClusterNode implements JournalAppender {
  role: ClusterRole = 'standby';
  private leader: string | null = null;
  private store: Store | null = null;
  private names: StoreNames | null = null;
  /** The last batch this store holds (standby: applied; leader: appended locally, maybe not yet acked). */
  private applied: AppliedPosition = { seq: 0, digest: '' };
  /** Leader: the last sequence the stream acknowledged. */
  acked_seq = 0;
  /** Leader: the sequence the next append follows. */
  private last_seq = 0;
  private stream_seq = 0;
  private lease_revision = 0;
  /** Leader: the lease holds until here (monotonic clock, counted from when the renewal was sent). */
  private lease_valid_until_ms = 0;
  /**
   * Standby: the lease key's revision as this node last saw it move, and when (monotonic clock).
   * The leader's renewals move it every third of a lease; once it has stood still for a whole lease
   * (and the margin) from the moment this node first saw it, the holder's lease has ended.
   */
  private lease_seen: { revision: number; since_ms: number; tenure: string | null; renewals: number | null } | null = null;
  /** Leader: this take-over's tenure and the renewals it made (see lease_value). */
  private lease_tenure = '';
  private lease_renewals = 0;
  /** Leader: appends run one after another; a failed one fails every later one. */
  private chain: Promise<void> = Promise.resolve();
  private tail: Tail | null = null;
  private parts: Uint8Array[] = [];
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** The NATS timings derived from the lease (src/cluster/nats-timings.ts); set by connect. */
  private timings: NatsTimings = nats_timings(5000);
  /** A JetStream manager whose requests give up after timings.check_timeout_ms: the standby's lease check. */
  private jsm_check: JetStreamManager | null = null;
  readonly snapshots: Snapshots;
  batches_since_snapshot = 0;

  private constructor(
    readonly config: ClusterConfig,
    private readonly data_dir: string,
    private readonly log: Logger,
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly kv: KV,
    /**
     * Called once when this node is deposed (exit_code deposed_exit_code) or gives up repairing its
     * store (diverged_exit_code); the caller ends the process with that code.
     */
    private readonly on_deposed: (reason: string, exit_code: number) => void,
  ) {
    this.snapshots = new Snapshots(this, nc, jsm, data_dir, log);
  }

  get node(): string {
    return this.config.node_name;
  }

  /**
   * Connects to NATS and makes sure the stream, the lease bucket and the snapshot store exist. A NATS
   * server that just restarted leaves JetStream without a leader for several seconds (an election):
   * every step is retried with a bounded backoff until config.start_wait_ms_max, and only then does
   * start-up fail, saying what it waited for.
   */
  static async connect(config: ClusterConfig, data_dir: string, log: Logger, on_deposed: (reason: string, exit_code: number) => void): Promise<ClusterNode> {
    const deadline_ms = Date.now() + config.start_wait_ms_max;
    const timings = nats_timings(config.lease_ms);
    const nc = await ClusterNode.within(config, deadline_ms, 'a NATS server to accept the connection', connect({
      servers: config.nats_urls,
      name: `billvend-${config.node_name}`,
      waitOnFirstConnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: timings.reconnect_wait_ms,
      pingInterval: timings.ping_interval_ms,
      maxPingOut: timings.max_pings_out,
      timeout: timings.connect_timeout_ms,
      reconnectToServer: next_server,
    }));
    nc.closed().then((error) => {
      if (error) log.error({ err: error }, 'NATS connection closed');
    });
    const js = jetstream(nc, { timeout: timings.request_timeout_ms });
    const jsm = await ClusterNode.retrying(config, log, deadline_ms, 'JetStream to answer', () => jetstreamManager(nc, { timeout: timings.request_timeout_ms }));
    const kv = await ClusterNode.retrying(config, log, deadline_ms, 'the journal stream and the lease bucket', async () => {
      try {
        await jsm.streams.info(stream_name);
      } catch (error) {
        if (api_code(error) !== 10059) throw error; // stream not found
        await jsm.streams.add({
          name: stream_name,
          subjects: [stream_subject],
          storage: StorageType.File,
          num_replicas: config.replicas,
          // A batch is split below the server's max_payload, so any message size it allows will do.
        });
      }
      // No TTL on the key: nats-server 2.9 expires a stream's messages on each replica by its own
      // timer, and a replica that has not expired the key yet (a restarted server; nats-server
      // issues #3653 and #4162) answers with a lease that ended, or takes a create the others
      // refuse. The lease ends when its revision stops moving (see try_to_lead).
      const bucket = await new Kvm(js).create(lease_bucket, { history: 1, replicas: config.replicas, storage: StorageType.File });
      const info = await jsm.streams.info(`KV_${lease_bucket}`);
      if (info.config.max_age !== 0) await jsm.streams.update(`KV_${lease_bucket}`, { ...info.config, max_age: 0 }); // a bucket an older billvend made
      return bucket;
    });
    const node = new ClusterNode(config, data_dir, log, nc, js, jsm, kv, on_deposed);
    node.timings = timings;
    // The standby's lease check reads through a manager of its own, with a shorter timeout (see try_to_lead).
    node.jsm_check = await jetstreamManager(nc, { timeout: timings.check_timeout_ms, checkAPI: false });
    node.watch_connection(timings);
    node.start_deadline_ms = deadline_ms;
    await ClusterNode.retrying(config, log, deadline_ms, 'the snapshot store', () => node.snapshots.open(config.replicas));
    log.info({ node: config.node_name, servers: config.nats_urls.length }, 'cluster: connected to NATS');
    return node;
  }

  /** The NATS server the connection is on now (host:port), null while it reconnects; kept by watch_connection. */
  private nats_server: string | null = null;

  /** Disconnections so far, and the next reconnection: see abandoned_on_reconnect. */
  private disconnects = 0;
  private reconnection = next_event();

  /**
   * A request sent before the connection dropped is lost with the socket: its answer never comes, and
   * waiting for its timeout after the reconnection can cost a leader its lease (a renewal in flight when
   * a frozen server was dropped). Such a request fails at the reconnection instead, and its caller tries
   * again at once; an attempt that did land is recognised as today (the lease key naming this node, the
   * stream holding our part). A request sent while disconnected goes out on the new connection and is
   * waited for as usual.
   */
  private abandoned_on_reconnect<T>(request: Promise<T>): Promise<T> {
    const sent_in = this.disconnects;
    const lost = this.reconnection.promise.then((): Promise<T> => {
      if (this.disconnects !== sent_in) throw new Error('the NATS connection dropped while the request was in flight');
      return request;
    });
    return Promise.race([request, lost]);
  }

  /**
   * A lease renewal or an append that goes unanswered may sit on a connection to a server a partition cut
   * off: the client's own pings drop such a server only after two thirds of a lease, when a leader's lease
   * has nearly run out (2026-11-27: a leader whose server was cut off was deposed 2.3 s into a 3 s lease,
   * although the lease bucket's Raft leader was reachable through the two other servers). So a request still
   * unanswered after timings.probe_after_ms makes the node ping its server; a server that does not answer
   * within as long again is dropped and another one dialled (next_server), and the request fails at the
   * reconnection and is sent again at once (abandoned_on_reconnect). A server that answers the ping is kept:
   * the request waits on something another server would not answer sooner (a stream electing its leader).
   */
  private watched<T>(request: Promise<T>): Promise<T> {
    const timer = setTimeout(() => void this.probe_server(), this.timings.probe_after_ms);
    const answer = this.abandoned_on_reconnect(request);
    answer.then(() => clearTimeout(timer), () => clearTimeout(timer));
    return answer;
  }

  private probing: Promise<void> | null = null;
  /** When the server last answered a probe (monotonic clock): not probed again within probe_after_ms. */
  private probe_answered_ms = -Infinity;

  private probe_server(): Promise<void> {
    if (this.stopped || this.nc.isClosed() || this.nats_server === null) return Promise.resolve();
    if (this.probing !== null) return this.probing;
    if (monotonic_ms() - this.probe_answered_ms < this.timings.probe_after_ms) return Promise.resolve();
    const disconnects = this.disconnects;
    const server = this.nats_server;
    const started_ms = monotonic_ms();
    this.probing = (async () => {
      let timer: NodeJS.Timeout | undefined;
      const silent = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), this.timings.probe_after_ms)));
      const answered = await Promise.race([this.nc.rtt().then(() => true, () => false), silent]);
      clearTimeout(timer);
      if (answered) {
        this.probe_answered_ms = monotonic_ms();
        return;
      }
      if (this.disconnects !== disconnects || this.stopped || this.nc.isClosed()) return; // reconnecting already
      this.log.warn({ server, waited_ms: Math.round(monotonic_ms() - started_ms) }, 'cluster: the NATS server did not answer a ping while a request waited; dialling another');
      await this.nc.reconnect().catch(() => {});
    })().finally(() => {
      this.probing = null;
    });
    return this.probing;
  }

  /** Logs the connection's changes (a server dropped for missed pings, a reconnect) and keeps nats_server. */
  private watch_connection(timings: NatsTimings): void {
    this.nats_server = this.nc.getServer();
    void (async () => {
      for await (const status of this.nc.status()) {
        if (status.type === 'staleConnection') {
          this.log.warn({ server: this.nats_server, ping_interval_ms: timings.ping_interval_ms, max_pings_out: timings.max_pings_out }, 'cluster: the NATS server stopped answering pings; dialling another');
        } else if (status.type === 'disconnect') {
          this.nats_server = null;
          this.disconnects++;
          this.log.warn({ server: status.server }, 'cluster: disconnected from a NATS server');
        } else if (status.type === 'reconnect') {
          this.nats_server = status.server;
          this.log.info({ server: status.server }, 'cluster: reconnected to a NATS server');
          const reconnection = this.reconnection;
          this.reconnection = next_event();
          reconnection.happened();
        }
      }
    })();
  }

  /** Start-up's deadline (config.start_wait_ms_max from the start), shared by connect and prepare_store. */
  private start_deadline_ms = 0;

  /**
   * Runs a start-up step again while NATS does not answer (JetStream electing a leader, a server
   * restarting): after 250 ms, doubling up to start_retry_ms_max, until the deadline. A StartRefused
   * is final at once.
   */
  private static async retrying<T>(config: ClusterConfig, log: Logger, deadline_ms: number, what: string, step: () => Promise<T>): Promise<T> {
    let wait_ms = 250;
    for (let attempt = 1; ; attempt++) {
      try {
        return await step();
      } catch (error) {
        if (error instanceof StartRefused) throw error;
        if (Date.now() + wait_ms > deadline_ms) {
          throw new Error(`cluster: gave up waiting for ${what} after CLUSTER_START_WAIT_MS_MAX (${config.start_wait_ms_max} ms): ${(error as Error).message}; are a majority of the NATS servers in CLUSTER_NATS_URL up and routed to each other?`);
        }
        log.warn({ err: error, attempt, retry_in_ms: wait_ms }, `cluster: start-up is waiting for ${what} (JetStream may be electing a leader); retrying`);
        await sleep(wait_ms);
        wait_ms = Math.min(start_retry_ms_max, wait_ms * 2);
      }
    }
  }

  /** A step that retries by itself (the NATS connection), bounded by the start-up deadline. */
  private static async within<T>(config: ClusterConfig, deadline_ms: number, what: string, step: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const out_of_time = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`cluster: gave up waiting for ${what} after CLUSTER_START_WAIT_MS_MAX (${config.start_wait_ms_max} ms); are the NATS servers in CLUSTER_NATS_URL up?`)), Math.max(0, deadline_ms - Date.now()));
    });
    try {
      return await Promise.race([step, out_of_time]);
    } finally {
      clearTimeout(timer);
    }
  }

  // ---- Start-up: where does the local store stand? -----------------------------------------------

  /**
   * Decides, before the store is opened for good, whether the local store can follow the stream from
   * where it stands. It cannot when it holds a batch the stream does not (a deposed leader's
   * unreplicated tail: the batch at its position is missing or has another digest), or when the
   * stream no longer holds the batches after it. Then it is replaced by the latest snapshot (or
   * emptied, while the stream still starts at 1), and follows from there.
   */
  async prepare_store(open: () => Store): Promise<void> {
    await ClusterNode.retrying(this.config, this.log, this.start_deadline_ms, 'the stream and the snapshot store to answer the start-up check', () => this.prepare_store_once(open));
  }

  private async prepare_store_once(open: () => Store): Promise<void> {
    const store = open();
    const local = applied_position(store);
    // One key read: getKeysCount counts every account (1.2 s at a million, docs/benchmarks.md "Scale").
    let empty = local === null;
    if (empty) for (const _ of store.accounts.getKeys({ limit: 1 })) empty = false;
    await store.root.close();
    const info = await this.jsm.streams.info(stream_name);
    const first = info.state.first_seq;
    const last = info.state.last_seq;
    this.stream_seq = last;
    const snapshot = await this.snapshots.latest();
    let verdict: 'follow' | 'rebuild';
    if (local === null) {
      if (!empty) {
        if (last === 0 && snapshot === null) verdict = 'follow'; // the first node of a new cluster, on its single-node store
        else throw new StartRefused(`DATA_DIR ${this.data_dir} holds a store that is not part of this cluster: move it away (the node then starts from the cluster's snapshot), or start it alone as the first node of a new cluster`);
      } else {
        verdict = snapshot !== null || first > 1 ? 'rebuild' : 'follow';
      }
    } else if (snapshot !== null && local.seq === snapshot.seq && local.digest === snapshot.digest) {
      verdict = 'follow'; // exactly where the latest snapshot stands (its message may be trimmed)
    } else if (local.seq > last || local.seq < first) {
      verdict = 'rebuild';
    } else {
      const stored = await this.jsm.streams.getMessage(stream_name, { seq: local.seq });
      verdict = stored !== null && stored.header.get(digest_header) === local.digest ? 'follow' : 'rebuild';
    }
    if (verdict === 'follow') {
      this.log.info({ applied_seq: local?.seq ?? 0, stream_first_seq: first, stream_last_seq: last }, 'cluster: the local store follows the stream');
      return;
    }
    // A store that held a batch the stream's leader does not may have got it from a replica that
    // diverged (docs/cluster.md "Divergence"), and the standby's consumer may be served by that very
    // replica: the rebuilt store catches up from the leader before it tails (see follow).
    if (local !== null && local.seq >= first) this.diverged = `at start-up this store stood at seq ${local.seq} (${local.digest}), which the stream's leader does not hold`;
    this.log.warn({ local, stream_first_seq: first, stream_last_seq: last, snapshot }, 'cluster: the local store cannot follow the stream (behind its start, or holding batches it lacks); rebuilding it');
    if (snapshot !== null) {
      if (snapshot.seq < first - 1) throw new StartRefused(`cluster: the latest snapshot (seq ${snapshot.seq}) is older than the stream's first message (${first}); cannot rebuild`);
      await this.snapshots.install();
    } else if (first <= 1) {
      this.snapshots.wipe_store();
    } else {
      throw new StartRefused(`cluster: the stream starts at ${first} and no snapshot exists; cannot rebuild this store`);
    }
  }

  // ---- Standby ------------------------------------------------------------------------------------

  /**
   * Applies the stream to the store until this node takes the lease. Resolves, with the store it
   * then serves, once this node leads: it holds the lease, has applied the whole stream and appended
   * its epoch message. When the stream was trimmed past this store (a snapshot taken while the node
   * installed the previous one, or while it lagged), the node closes its store, installs the latest
   * snapshot and follows on from there, without a restart: `open` opens the store again.
   */
  async follow(open: () => Store): Promise<Store> {
    this.open_store = open;
    this.use_store(open());
    this.log.info({ applied_seq: this.applied.seq }, 'cluster: standby, following the stream');
    if (this.diverged === null) this.start_tail(); // else the repair catches up from the stream's leader first

    // The lease key is read often (a tenth of a lease): a take-over counts the lease from when this
    // node first saw the holder's last revision, so the time between reads is added to every failover.
    const period_ms = Math.max(50, Math.floor(this.config.lease_ms / 10));
    const retry_ms = Math.max(100, Math.floor(this.config.lease_ms / 3));
    for (;;) {
      if (this.stopped) throw new Deposed('stopped');
      let wait_ms = period_ms;
      try {
        if (this.diverged !== null) await this.repair();
        else if (this.behind) await this.rebuild_behind();
        if (this.diverged === null && !this.behind && (await this.try_to_lead())) return this.store!;
      } catch (error) {
        if (error instanceof Deposed || this.role === 'deposed') throw error;
        if (this.role === 'leader') {
          this.depose(`the take-over failed: ${(error as Error).message}`);
          throw error;
        }
        if (error instanceof Diverged) {
          // Seen by a catch-up or the check before a take-over, or the leader's own history did not
          // chain during a repair: repaired again after a pause that grows with each attempt.
          this.diverged = error.message;
          wait_ms = this.repair_wait_ms();
        } else if (error instanceof Behind) {
          this.behind = true;
          continue;
        } else {
          this.log.warn({ err: error }, error instanceof NoAgreedLeader ? 'cluster: waiting for JetStream to agree on the journal stream\'s leader' : 'cluster: lease check failed; retrying');
          // A check that timed out has waited already: the next one goes at the usual period, so a take-over
          // follows a Raft election within a check's timeout and a period.
          wait_ms = (error as Error)?.name === 'TimeoutError' ? period_ms : retry_ms;
        }
      }
      await sleep(wait_ms);
    }
  }

  /** The store this node holds now (a standby replaces it when it reinstalls a snapshot); null after stop. */
  current_store(): Store | null {
    return this.store;
  }

  private open_store: (() => Store) | null = null;
  /** Set when the stream no longer holds the batch this standby needs next (see rebuild_behind). */
  private behind = false;
  /** Why this standby's store must be repaired from the stream leader's history (see repair); null when it need not. */
  private diverged: string | null = null;
  /** Repairs made, each within divergence_window_leases of the one before, and when the last one began. */
  private repairs = 0;
  private last_repair_ms = 0;

  private repair_wait_ms(): number {
    // 1, 2, 4, 8, 8 leases: long enough for JetStream to settle after a heal (an election takes 5-10 s).
    return this.config.lease_ms * Math.min(8, 2 ** Math.max(0, this.repairs - 1));
  }

  /**
   * The journal stream's info, once JetStream agrees on its leader: a leader is named and it hears
   * from a majority of the replicas (itself included) now. A server cut off from the others may still
   * call itself leader for a while (until it notices the lost quorum), but not with a majority current.
   */
  private async agreed_stream_info(): Promise<StreamInfo> {
    const info = await this.jsm.streams.info(stream_name);
    const cluster = info.cluster;
    if (cluster === undefined || cluster.name === undefined) return info; // a single server without a cluster: nothing to agree on
    if (!cluster.leader) throw new NoAgreedLeader('the journal stream has no leader now (JetStream is electing one)');
    const replicas = cluster.replicas ?? [];
    const current = 1 + replicas.filter((replica) => replica.current && !replica.offline).length;
    const quorum = Math.floor((replicas.length + 1) / 2) + 1;
    if (current < quorum) throw new NoAgreedLeader(`the journal stream's leader ${cluster.leader} hears from ${current} of ${replicas.length + 1} replicas (a majority is ${quorum})`);
    return info;
  }

  /** Whether the stream's leader holds this batch at its sequence (a batch trimmed away is vouched for only by the latest snapshot). */
  private async leader_holds(position: AppliedPosition, snapshot: AppliedPosition | null): Promise<boolean> {
    if (position.seq === 0) return true;
    if (snapshot !== null && snapshot.seq === position.seq && snapshot.digest === position.digest) return true;
    const stored = await this.jsm.streams.getMessage(stream_name, { seq: position.seq }).catch((error) => {
      if (api_code(error) === no_message) return null;
      throw error;
    });
    return stored !== null && stored.header?.get(digest_header) === position.digest;
  }

  /**
   * The stream served this standby a batch that does not follow the last one it applied, or its last
   * batch is not the stream leader's (docs/cluster.md "Divergence"): a replica that diverged served
   * it, or this store holds a deposed leader's tail. The stream's leader, once JetStream agrees on
   * one, is the authority: every acknowledged batch is there, since a reply waits for the stream's
   * acknowledgement, which a leader gives only once a majority holds the batch. With the tail stopped,
   * the store is kept when the leader holds its last batch, else replaced by the latest snapshot (or
   * emptied, while the stream still begins at 1); it then catches up message by message from the
   * leader (a message get, which only the stream's leader answers) and tails on from the leader's
   * end. The leader's own history not chaining from there is retried a few times (JetStream settling
   * after a heal), then this node gives up once, with a line that tells the operator what to look at.
   */
  private async repair(): Promise<void> {
    const reason = this.diverged!;
    await this.stop_tail();
    await this.applying;
    this.parts = [];
    // Waiting for JetStream to agree (NoAgreedLeader, retried by follow) is not an attempt.
    const info = await this.agreed_stream_info();
    const now_ms = monotonic_ms();
    if (now_ms - this.last_repair_ms > divergence_window_leases * this.config.lease_ms) this.repairs = 0;
    this.last_repair_ms = now_ms;
    if (++this.repairs > divergence_repairs_max) {
      const message = `cluster: gave up repairing this node's store after ${divergence_repairs_max} attempts: ${reason}; the journal stream's leader does not hold one chain of batches (its replicas disagree): check the NATS servers (nats stream info ${stream_name}) before starting this node again`;
      this.log.fatal({ reason, repairs: divergence_repairs_max }, message);
      this.give_up(message);
      throw new Deposed(message);
    }
    try {
      await this.repair_from(info, reason);
    } catch (error) {
      // Only a verdict counts as an attempt: a repair that NATS did not answer (a timeout, an
      // election; flaky links gave five in a row) is tried again without bringing the end nearer.
      if (!(error instanceof Diverged)) this.repairs--;
      throw error;
    }
  }

  private async repair_from(info: StreamInfo, reason: string): Promise<void> {
    const leader = info.cluster?.leader ?? null;
    const first = info.state.first_seq;
    this.stream_seq = info.state.last_seq;
    const snapshot = await this.snapshots.latest();
    this.log.warn({ reason, attempt: this.repairs, repairs_max: divergence_repairs_max, applied: this.applied, stream_leader: leader }, 'cluster: the stream served a batch that does not follow the last one applied; repairing this store from the stream leader\'s history');
    let keep = await this.leader_holds(this.applied, snapshot);
    if (keep && this.applied.seq > 0 && this.applied.seq < info.state.last_seq) {
      // The leader holds this store's last batch, but its next one names another predecessor: the
      // leader's copy of that batch may be a lost epoch's stand-in (see catch_up_verified), which
      // only a rebuild can take back out of this store.
      const after = await this.jsm.streams.getMessage(stream_name, { seq: this.applied.seq + 1 });
      const follows = after?.header?.get(follows_header) ?? '';
      if (follows !== '' && follows !== this.applied.digest) keep = false;
    }
    if (!keep) {
      // Never acknowledged (see above): discarding it loses nothing a client was told.
      this.log.warn({ applied: this.applied, snapshot, stream_first_seq: first }, 'cluster: this store holds a batch the stream\'s leader does not; rebuilding it from the latest snapshot');
      if (snapshot !== null && !(await this.leader_holds(snapshot, null)) && snapshot.seq >= first) {
        throw new Diverged(`the latest snapshot (seq ${snapshot.seq}) is not on the stream leader's history`);
      }
      if (snapshot === null && first > 1) {
        const message = `cluster: cannot repair this node's store: the stream starts at ${first} and no snapshot exists`;
        this.log.fatal(message);
        this.give_up(message);
        throw new Deposed(message);
      }
      await this.store!.root.close();
      this.store = null;
      try {
        if (snapshot !== null && snapshot.seq >= first - 1) await this.snapshots.install();
        else this.snapshots.wipe_store();
      } finally {
        this.use_store(this.open_store!());
      }
    }
    await this.catch_up_verified();
    const again = await this.agreed_stream_info();
    if ((again.cluster?.leader ?? null) !== leader) throw new NoAgreedLeader(`the journal stream's leader changed during the repair (${leader} → ${again.cluster?.leader})`);
    this.diverged = null;
    this.log.info({ applied_seq: this.applied.seq, stream_leader: leader }, 'cluster: repaired; this store holds the stream leader\'s history, tailing on from it');
    this.start_tail();
  }

  /**
   * The repair's catch-up from the stream's leader, reading one message ahead. Seen in the partition
   * runs of 2026-11-27 with nats-server 2.9.10: after the stream's leader was cut off and healed
   * twice, the new stream leader held, at the sequence where a node had appended (and been
   * acknowledged) its epoch message, the one batch a deposed leader had in flight there, never
   * acknowledged; the next message, by the epoch's node, names the epoch as its predecessor. An
   * epoch has no changes and its bytes follow from its node's name alone, so when the next message
   * names, as its predecessor, the digest of an epoch of the node that appended it, that epoch is
   * what was acknowledged at this sequence: it is applied in place of the copy held there. A deposed
   * leader has at most one message in flight (appends run one after another, each waiting for its
   * acknowledgement), so such a stand-in can only sit where the next leader's epoch went. Any other
   * break in the chain stays a divergence (counted; see repair).
   */
  private async catch_up_verified(): Promise<void> {
    const info = await this.jsm.streams.info(stream_name);
    const last = info.state.last_seq;
    this.stream_seq = last;
    const get = (seq: number) => this.jsm.streams.getMessage(stream_name, { seq });
    let next: Awaited<ReturnType<typeof get>> = null;
    while (this.applied.seq + this.parts.length < last) {
      const seq = this.applied.seq + this.parts.length + 1;
      const stored = next !== null && next.seq === seq ? next : await get(seq);
      if (stored === null) throw new Behind(`the stream lacks message ${seq} (trimmed below this standby)`);
      next = seq < last ? await get(seq + 1) : null;
      const follows = next?.header?.get(follows_header) ?? '';
      const digest = stored.header?.get(digest_header) ?? '';
      if (next !== null && this.parts.length === 0 && (stored.header?.get(part_header) ?? '1/1') === '1/1' && follows !== '' && follows !== digest) {
        const epoch = this.lost_epoch(next.data, follows);
        if (epoch !== null) {
          this.log.warn({ seq, held: digest, epoch: follows }, 'cluster: the stream\'s leader holds, where an epoch message was acknowledged, a batch a deposed leader never had acknowledged (NATS replicas diverged); applying the epoch in its place');
          await this.apply(seq, epoch, follows);
          this.stand_in_seq = seq;
          continue;
        }
      }
      await this.apply_part(seq, stored.header, stored.data);
    }
  }

  /** The sequence where catch_up_verified applied a lost epoch instead of the leader's copy (check_last_applied skips it). */
  private stand_in_seq = 0;

  /** The epoch message whose digest is `follows`, by the node that appended `data` (a message, or its first part), or null. */
  private lost_epoch(data: Uint8Array, follows: string): Uint8Array | null {
    let node: string;
    try {
      node = decode_message(data).node;
    } catch {
      return null; // a first part of a larger batch: not decodable alone
    }
    const bytes = encode_message(this.names!, 'epoch', node, []);
    return digest_of(bytes) === follows ? bytes : null;
  }

  private use_store(store: Store): void {
    this.store = store;
    this.names = new StoreNames(store);
    this.applied = applied_position(store) ?? { seq: 0, digest: '' };
    this.parts = [];
  }

  /**
   * The tail or a catch-up found the stream trimmed past this store. With the tail stopped, the
   * store is closed, replaced by the latest snapshot (which the leader uploads before it trims, so it
   * covers the gap) and opened again; the tail then starts after the snapshot's batch. A failure
   * leaves `behind` set and is tried again a lease period later; an install that failed half way
   * leaves an empty store, which is behind too.
   */
  private async rebuild_behind(): Promise<void> {
    await this.stop_tail();
    await this.applying;
    const info = await this.jsm.streams.info(stream_name);
    const first = info.state.first_seq;
    this.stream_seq = info.state.last_seq;
    if (this.applied.seq + 1 >= first) {
      // Not trimmed past this store after all (a consumer that restarted oddly): follow on.
      this.parts = [];
      this.behind = false;
      this.start_tail();
      return;
    }
    const snapshot = await this.snapshots.latest();
    if (snapshot === null || snapshot.seq < first - 1) throw new Error(`the stream starts at ${first} but the latest snapshot stands at ${snapshot?.seq ?? 'none'}; waiting for a newer one`);
    this.log.warn({ applied_seq: this.applied.seq, stream_first_seq: first, snapshot }, 'cluster: the stream was trimmed past this standby; installing the latest snapshot');
    await this.store!.root.close();
    this.store = null;
    try {
      await this.snapshots.install();
    } finally {
      this.use_store(this.open_store!());
    }
    this.behind = false;
    this.log.info({ applied_seq: this.applied.seq }, 'cluster: standby, following the stream from the snapshot');
    this.start_tail();
  }

  private start_tail(): void {
    const from = this.applied.seq + 1;
    const tail: Tail = { messages: null, stopped: false, done: Promise.resolve() };
    tail.done = (async () => {
      // Creating the consumer fails while JetStream elects a leader (a NATS server restarted):
      // tried again, not fatal.
      let consumer: Awaited<ReturnType<JetStreamClient['consumers']['get']>> | null = null;
      for (let wait_ms = 250; ; wait_ms = Math.min(start_retry_ms_max, wait_ms * 2)) {
        if (tail.stopped) return;
        try {
          consumer = await this.js.consumers.get(stream_name, { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: from });
          break;
        } catch (error) {
          this.log.warn({ err: error, retry_in_ms: wait_ms }, 'cluster: the standby cannot open its consumer on the stream yet; retrying');
          await sleep(wait_ms);
        }
      }
      if (consumer === null) return;
      const messages = await consumer.consume();
      tail.messages = messages;
      if (tail.stopped) messages.stop();
      for await (const message of messages) {
        if (tail.stopped) break;
        await this.apply_part(message.seq, message.headers, message.data);
      }
    })();
    this.tail = tail;
    tail.done.catch((error) => {
      if (tail.stopped || this.stopped) return;
      if (error instanceof Behind) {
        this.log.warn({ reason: error.message }, 'cluster: the standby fell behind the stream\'s start; it will install the latest snapshot');
        this.behind = true;
        return;
      }
      if (error instanceof Diverged) {
        // Repaired by the standby's loop (follow), from the stream leader's history, without a restart.
        this.diverged = error.message;
        return;
      }
      this.depose(`the standby could not apply the stream: ${(error as Error).message}`);
    });
  }

  private async stop_tail(): Promise<void> {
    const tail = this.tail;
    if (tail === null) return;
    this.tail = null;
    tail.stopped = true;
    tail.messages?.stop();
    // Waited for at most a lease: a consumer that JetStream cannot serve (its meta group or the stream
    // without a leader) may never end its iteration, and a take-over that waited for it forever held the
    // lease, renewing it, with no node serving (partition campaign of 2026-11-28). A stopped tail applies
    // nothing more (it checks `stopped` before each message), so going on without it is safe.
    let timer: NodeJS.Timeout | undefined;
    const bounded = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), this.config.lease_ms)));
    const ended = await Promise.race([tail.done.then(() => 'ended' as const, () => 'ended' as const), bounded]);
    clearTimeout(timer);
    if (ended === 'late') this.log.warn({ waited_ms: this.config.lease_ms }, 'cluster: the standby\'s consumer did not stop within a lease; going on without it');
  }

  /** The tail and a take-over's catch-up may both hold the next message: one applies at a time. */
  private applying: Promise<void> = Promise.resolve();

  private apply_part(seq: number, headers: MsgHdrs | undefined, data: Uint8Array): Promise<void> {
    const next = this.applying.then(() => this.apply_part_now(seq, headers, data));
    this.applying = next.catch(() => {});
    return next;
  }

  /** Applies one message (part) at `seq`: a batch is applied once its last part arrived. */
  private async apply_part_now(seq: number, headers: MsgHdrs | undefined, data: Uint8Array): Promise<void> {
    const expected = this.applied.seq + this.parts.length + 1;
    if (seq < expected) return; // delivered again after a consumer reset
    if (seq > expected) {
      // The stream was trimmed past what this store holds: only a snapshot can bring it back.
      throw new Behind(`the stream jumped from ${expected - 1} to ${seq} (trimmed below this standby)`);
    }
    const digest = headers?.get(digest_header) ?? '';
    const [index, count] = (headers?.get(part_header) ?? '1/1').split('/').map(Number);
    if (index !== this.parts.length + 1) fail(`part ${index} of a batch at seq ${seq} after ${this.parts.length} parts`);
    const follows = headers?.get(follows_header) ?? '';
    if (index === 1 && follows !== '' && this.applied.seq > 0 && follows !== this.applied.digest) {
      throw new Diverged(`the batch at seq ${seq} follows ${follows}, but the batch this store applied at seq ${this.applied.seq} is ${this.applied.digest}`);
    }
    this.parts.push(data);
    if (index < count) return;
    const bytes = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
    this.parts = [];
    if (digest_of(bytes) !== digest) fail(`the batch at seq ${seq} does not match its digest`);
    await this.apply(seq, bytes, digest);
  }

  /** Writes a replicated batch into the store: the leader's journal writes through the same function. */
  private async apply(seq: number, bytes: Uint8Array, digest: string): Promise<void> {
    const store = this.store!;
    const message = decode_message(bytes);
    const changes: StagedChange[] = staged_changes(this.names!, message);
    changes.push(applied_change(store, { seq, digest }));
    const written = write_changes(changes);
    await written;
    await written.flushed;
    this.applied = { seq, digest };
    if (seq > this.stream_seq) this.stream_seq = seq;
  }

  /** Applies, one by one, whatever the stream holds beyond this store (taking over, or fenced). */
  private async catch_up(): Promise<void> {
    const info = await this.jsm.streams.info(stream_name);
    this.stream_seq = info.state.last_seq;
    while (this.applied.seq + this.parts.length < info.state.last_seq) {
      const seq = this.applied.seq + this.parts.length + 1;
      const stored = await this.jsm.streams.getMessage(stream_name, { seq });
      if (stored === null) throw new Behind(`the stream lacks message ${seq} (trimmed below this standby)`);
      await this.apply_part(seq, stored.header, stored.data);
    }
  }

  /**
   * Before it takes over, a standby checks its last batch against the stream's leader (a message get,
   * which the stream's leader answers; the tail's consumer may have been served by another replica):
   * a new leader builds every later batch on its store, and the stream's sequence alone would not
   * tell that the store holds another batch there. A mismatch does not take the lease: the standby
   * repairs its store first (see repair).
   */
  private async check_last_applied(): Promise<void> {
    if (this.applied.seq === 0 || this.applied.seq === this.stand_in_seq) return;
    const stored = await this.jsm.streams.getMessage(stream_name, { seq: this.applied.seq }).catch((error) => {
      if (api_code(error) === no_message) return null; // trimmed, checked against the snapshot at start-up
      throw error;
    });
    if (stored === null) return;
    const digest = stored.header?.get(digest_header) ?? '';
    if (digest !== '' && digest !== this.applied.digest) {
      const error = new Diverged(`the stream's leader holds batch ${digest} at seq ${this.applied.seq}, this store ${this.applied.digest}`);
      this.log.error({ reason: error.message }, 'cluster: this standby applied a batch the stream does not hold; it repairs its store before it takes over');
      throw error;
    }
  }

  /**
   * When, at the latest, the holder sent the renewal that wrote `entry` (this node's monotonic clock): now,
   * when this node first sees it, unless it last saw the same tenure `k` renewals before (revision and count
   * both `k` further: nothing else wrote between). Each renewal of a tenure is sent while the lease of the one
   * before holds, within a lease of it (renew_once), and that one was sent before this node could see it; so
   * the holder sent this one within `k` leases of the moment counted for the last one seen. Found by the
   * partition runs of 2026-11-28: a renewal acknowledged just before a cut, which the standby's read every
   * tenth of a lease had missed, was first seen after the NATS election, and the standby waited a whole lease
   * more (3.6 s with a 3 s lease) for a holder whose lease had ended seconds before. The margin covers two
   * clocks' rates over the k leases as lease_takeover_margin does over one.
   */
  private renewals_sent_by(entry: LeaseEntry, now_ms: number): number {
    const seen = this.lease_seen;
    if (seen === null || entry.tenure === null || entry.renewals === null || seen.tenure !== entry.tenure || seen.renewals === null) return now_ms;
    const renewals = entry.renewals - seen.renewals;
    if (renewals < 1 || entry.revision - seen.revision !== renewals) return now_ms;
    const bound_ms = seen.since_ms + renewals * this.config.lease_ms * (1 + lease_takeover_margin);
    if (bound_ms < now_ms) this.log.info({ holder: entry.node, revision: entry.revision, renewals, seen_revision: seen.revision, earlier_by_ms: Math.round(now_ms - bound_ms) }, 'cluster: the lease holder\'s renewals since this node last read the key were sent within a lease of each other; its lease is counted from that bound');
    return Math.min(now_ms, bound_ms);
  }

  /**
   * Takes the lease when it is free, or when its holder's lease has ended: its revision has not
   * moved for a whole lease (and lease_takeover_margin) since this node first saw it. The holder
   * counts its lease from when it sent the renewal that made that revision, which was before this
   * node could see it, so on clocks that run at the same rate the holder's lease is over by then. The
   * take-over itself is an update from that revision: if the holder renewed meanwhile, or another
   * standby was faster, it fails and nothing changed. The key is read from the lease bucket's stream
   * leader, never a replica (see lease_entry).
   */
  private async try_to_lead(): Promise<boolean> {
    // Read with timings.check_timeout_ms: a request sent while the lease bucket or the journal has no Raft
    // leader is never answered, and the check after the election must not wait out a lease-long timeout (the
    // partition runs of 2026-11-28 saw a standby take over 2.8 s after the journal's election for that).
    const check = this.jsm_check ?? this.jsm;
    const entry = await this.lease_entry(check);
    const now_ms = monotonic_ms();
    const info = await check.streams.info(stream_name);
    this.stream_seq = info.state.last_seq;
    if (entry !== null && entry.node !== null) {
      this.leader = entry.node;
      if (this.lease_seen === null || this.lease_seen.revision !== entry.revision) {
        this.lease_seen = { revision: entry.revision, since_ms: this.renewals_sent_by(entry, now_ms), tenure: entry.tenure, renewals: entry.renewals };
      }
      if (now_ms - this.lease_seen.since_ms < this.config.lease_ms * (1 + lease_takeover_margin)) return false;
      this.log.info({ holder: entry.node, revision: entry.revision, still_ms: Math.round(now_ms - this.lease_seen.since_ms) }, 'cluster: the lease was not renewed for a whole lease; taking it over');
    }
    this.leader = null;
    // Only a standby that has applied the stream to its end takes over.
    if (this.applied.seq < info.state.last_seq || this.parts.length > 0) {
      // The lease is free but the tail is behind: fetch the rest directly rather than wait for it.
      await this.catch_up();
      return false;
    }
    await this.check_last_applied();
    const sent_ms = monotonic_ms();
    // A tenure id only needs to differ from every other take-over's: 48 random bits.
    const tenure = randomBytes(6).toString('hex');
    try {
      // Free (never taken, or given back: a delete marker): create. Ended: update from the
      // revision that stood still. Either fails if the key moved since this node read it.
      this.lease_revision = entry === null
        ? await this.kv.create(lease_key, lease_value(this.node, tenure, 0))
        : await this.kv.update(lease_key, lease_value(this.node, tenure, 0), entry.revision);
      this.lease_tenure = tenure;
      this.lease_renewals = 0;
    } catch (error) {
      if (api_code(error) === wrong_last_sequence) return false; // renewed meanwhile, or another standby was faster
      throw error;
    }
    this.lease_seen = null;
    this.lease_valid_until_ms = sent_ms + this.config.lease_ms;
    this.leader = this.node;
    this.role = 'leader';
    this.log.info({ applied_seq: this.applied.seq }, 'cluster: took the lease; fencing off the previous leader');
    this.renew_lease();
    await this.stop_tail();
    // The epoch message: appended after the last sequence this store holds, so an older leader's
    // next append fails. If something arrived meanwhile (an older leader's last batch), apply it, retry.
    for (;;) {
      try {
        await this.catch_up();
      } catch (error) {
        // JetStream electing a leader (a NATS server died with the old leader): tried again while
        // the lease holds, rather than deposing a node that is about to serve.
        if (error instanceof Behind || error instanceof Diverged || error instanceof AssertionError || !this.lease_valid()) throw error;
        this.log.warn({ err: error }, 'cluster: catching up before the epoch message failed; retrying');
        await sleep(100);
        continue;
      }
      if (await this.granted_elsewhere()) return false;
      const bytes = encode_message(this.names!, 'epoch', this.node, []);
      const digest = digest_of(bytes);
      const seq = this.applied.seq + 1;
      const outcome = await this.publish_part(bytes, seq - 1, digest, '1/1', this.applied.digest, false);
      if (outcome === 'fenced') continue;
      await this.apply(seq, bytes, digest);
      break;
    }
    this.last_seq = this.applied.seq;
    this.acked_seq = this.applied.seq;
    this.stream_seq = this.applied.seq;
    this.log.info({ seq: this.applied.seq }, 'cluster: leading');
    this.snapshots.start_leading(this.store!);
    return true;
  }

  /**
   * Read before each attempt at the epoch message. nats-server 2.9 can grant the lease twice, to two
   * updates from the same revision (its expected-revision check is not serialized in a cluster,
   * nats-server issue #4320); the other node may then have appended its epoch already, and this node,
   * having caught up on it, would append its own after it and fence off a leader that holds the key.
   * The lease key, read from the bucket's stream leader, settles it: a key naming another node means
   * this node stands down before it appended or served anything, and goes back to following the
   * stream; the other node's appends go on. A key naming this node lets the epoch go on: if the other
   * node believes it leads too, this epoch fences its next append and it is deposed (its renewals
   * fail as well), and every batch it had appended is in this node's store, caught up before the epoch.
   * Renewals are held while the key is read, so no renewal of this node lands after the verdict.
   */
  private async granted_elsewhere(): Promise<boolean> {
    this.renewals_held = true;
    try {
      await this.renewing;
      const entry = await this.lease_entry().catch(() => null);
      // Ours when it holds this take-over's tenure (a key of an older version: when it names this node).
      if (entry === null || entry.node === null || (entry.tenure !== null ? entry.tenure === this.lease_tenure : entry.node === this.node)) return false;
      this.log.warn({ holder: entry.node, revision: entry.revision, ours: this.lease_revision }, 'cluster: another node was granted the lease at the same time; it leads, this node stands down and follows the stream');
      this.role = 'standby';
      this.leader = entry.node;
      this.lease_valid_until_ms = 0;
      this.lease_seen = { revision: entry.revision, since_ms: monotonic_ms(), tenure: entry.tenure, renewals: entry.renewals };
      this.start_tail();
      return true;
    } finally {
      this.renewals_held = false;
    }
  }

  // ---- Leader: lease ------------------------------------------------------------------------------

  lease_valid(): boolean {
    return this.role === 'leader' && monotonic_ms() < this.lease_valid_until_ms;
  }

  /**
   * The lease key as the lease bucket's stream leader holds it: the node named and the revision;
   * node null when the key was deleted (a leader that stopped on purpose gave it back), and null when
   * it was never written. Not kv.get: the bucket allows direct gets, which any replica answers, and
   * a replica behind the leader (a loaded machine, a restarted NATS server) returns an older
   * revision; after a renewal that timed out but landed, that stale answer made a leader that still
   * held the lease depose itself ("another node holds the lease"; seen in the cluster crash campaign).
   */
  private async lease_entry(jsm: JetStreamManager = this.jsm): Promise<LeaseEntry | null> {
    const stored = await jsm.streams.getMessage(`KV_${lease_bucket}`, { last_by_subj: `$KV.${lease_bucket}.${lease_key}` }).catch((error) => {
      if (api_code(error) === no_message) return null; // never written
      throw error;
    });
    if (stored === null) return null;
    const operation = stored.header?.get('KV-Operation') ?? '';
    if (operation === 'DEL' || operation === 'PURGE') return { node: null, revision: stored.seq, tenure: null, renewals: null };
    return { ...parse_lease_value(stored.string()), revision: stored.seq };
  }

  /** Why the last renewal found the lease lost (see renew_once). */
  private lease_lost_reason = 'another node holds the lease';

  /** Renewals run one at a time: two with the same revision would make one fail and depose the node. */
  private renewing: Promise<unknown> = Promise.resolve();
  /** Set while a fenced epoch reads the lease key (granted_elsewhere): no renewal is sent meanwhile. */
  private renewals_held = false;

  /**
   * One renewal from the current revision: 'renewed', 'lost' (the key holds another node's revision)
   * or 'failed' (no answer; the lease keeps counting from the last renewal). The lease is counted
   * from when the renewal was sent, so it ends no later than the key's TTL on the server.
   */
  private renew_once(timeout_ms: number): Promise<'renewed' | 'lost' | 'failed'> {
    const run = this.renewing.then(async (): Promise<'renewed' | 'lost' | 'failed'> => {
      if (this.role !== 'leader' || this.stopped) {
        this.lease_lost_reason = 'this node no longer leads';
        return 'lost';
      }
      if (this.renewals_held) return 'failed'; // tried again 50 ms later, once the verdict is in
      const sent_ms = monotonic_ms();
      // Never sent once the lease ran out, whoever asks (the timer checks too; confirm_lease does not): a
      // standby bounds when a renewal was sent by this rule (renewals_sent_by).
      if (sent_ms >= this.lease_valid_until_ms) {
        this.lease_lost_reason = 'the lease ran out before it was renewed';
        return 'lost';
      }
      const renewals = this.lease_renewals + 1;
      const disconnects = this.disconnects;
      try {
        this.lease_revision = await this.watched(this.kv.update(lease_key, lease_value(this.node, this.lease_tenure, renewals), this.lease_revision, timeout_ms));
        this.lease_renewals = renewals;
        if (this.role === 'leader') this.lease_valid_until_ms = sent_ms + this.config.lease_ms;
        return 'renewed';
      } catch (error) {
        if (api_code(error) !== wrong_last_sequence) {
          this.log.warn({ err: error }, 'cluster: lease renewal failed; retrying');
          // Timed out on a server that still answers pings (the probe kept it): it may be cut off from the
          // other NATS servers but not from this node, and a NATS server notices a lost route only by its
          // own pings, minutes later. The retry goes through another server (next_server), which reaches
          // the lease bucket's Raft leader if anything does (partition runs of 2026-11-28: a leader whose
          // server was cut off from the two others was deposed at 2.7 s of a 3 s lease, though the lease
          // bucket's leader was on the other side; the take-over then waited 20 s for JetStream).
          if ((error as Error)?.name === 'TimeoutError' && this.disconnects === disconnects && !this.nc.isClosed()) {
            this.log.warn({ server: this.nats_server }, 'cluster: a lease renewal timed out on a NATS server that answers pings; dialling another');
            void this.nc.reconnect().catch(() => {});
          }
          return 'failed';
        }
        // A renewal that timed out may still have landed, moving the revision on: the lease is
        // then still ours. Only another node's take-over (after ours ended) puts another name there.
        const entry = await this.lease_entry().catch(() => null);
        if (entry !== null && entry.node === this.node && (entry.tenure === null || entry.tenure === this.lease_tenure) && entry.revision > this.lease_revision) {
          this.lease_revision = entry.revision;
          if (entry.renewals !== null) this.lease_renewals = entry.renewals;
          this.log.warn({ revision: entry.revision }, 'cluster: an earlier lease renewal landed after its timeout; renewing from its revision');
          return 'failed'; // renewed from the new revision at once
        }
        // What the key holds, for the deposition's log line.
        this.lease_lost_reason = entry === null || entry.node === null
          ? `the lease key is gone (${entry === null ? 'never written' : `deleted at revision ${entry.revision}`}; our revision ${this.lease_revision})`
          : `${entry.node === this.node ? 'this node' : `node ${entry.node}`} holds the lease at revision ${entry.revision} (ours ${this.lease_revision})`;
        return 'lost';
      }
    });
    this.renewing = run.catch(() => {});
    return run;
  }

  /**
   * Renews the lease now and waits for the answer. A new leader calls it just before it recovers its
   * accounts, timers and queues: that recovery runs on the event loop, where no lease renewal can
   * run, so it must start with a whole lease rather than what the take-over (epoch append, catch-up,
   * the standby listeners' drain) left of it. Another node holding the lease deposes this one; a
   * renewal that only failed leaves the lease counting from the last one that worked.
   */
  async confirm_lease(): Promise<void> {
    if (this.role !== 'leader') throw new Deposed('this node does not lead the cluster');
    const outcome = await this.renew_once(Math.max(100, Math.floor(this.config.lease_ms / 3)));
    if (outcome === 'lost') {
      this.depose(this.lease_lost_reason);
      throw new Deposed(this.lease_lost_reason);
    }
  }

  private renew_lease(): void {
    const period_ms = Math.max(100, Math.floor(this.config.lease_ms / 3));
    const tick = async (): Promise<void> => {
      if (this.role !== 'leader' || this.stopped) return;
      // Checked before renewing: a process paused past its lease (SIGSTOP, a long GC, a recovery that
      // held the event loop) wakes deposed. (A renewal with the last revision would still prove that
      // nobody took the lease; it was tried when the key had a TTL and taken out, see docs/cluster.md
      // "Why a new leader could be deposed just after taking over".)
      if (!this.lease_valid()) {
        this.depose('the lease ran out before it was renewed');
        return;
      }
      const outcome = await this.renew_once(period_ms);
      if (outcome === 'lost') {
        this.depose(this.lease_lost_reason);
        return;
      }
      if (outcome === 'renewed') {
        this.later(period_ms, tick);
        return;
      }
      // Retried soon, not a whole period later: after one timed-out renewal (period_ms) a whole
      // period more would reach the end of the lease, and one slow answer would depose the leader.
      this.later(renewal_retry_ms, tick);
    };
    this.later(period_ms, tick);
  }

  private later(ms: number, task: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      task().catch((error) => this.log.error({ err: error }, 'cluster: a background task failed'));
    }, ms);
    this.timers.add(timer);
  }

  // ---- Leader: the journal's appender -------------------------------------------------------------

  append(changes: readonly StagedChange[]): { changes: StagedChange[]; appended: Promise<void> } {
    if (this.role !== 'leader' || this.store === null) {
      const refused = Promise.reject(new Deposed('this node does not lead the cluster'));
      refused.catch(() => {});
      // The journal still writes the refused batch to the local store (it learns of the refusal
      // only from `appended`), so the batch records a position the stream cannot hold: the
      // start-up check then finds the store diverged and rebuilds it. Recording none would leave
      // the last replicated position in place, and the restarted node would follow the stream
      // on a store holding writes that were never replicated.
      const changes = this.store === null ? [] : [applied_change(this.store, { seq: this.last_seq + 1, digest: 'unreplicated' })];
      return { changes, appended: refused };
    }
    const bytes = encode_message(this.names!, 'batch', this.node, changes);
    const digest = digest_of(bytes);
    const part_max = Math.max(64 * 1024, (this.nc.info?.max_payload ?? 1024 * 1024) - part_headroom_bytes);
    const parts: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; at += part_max) parts.push(bytes.subarray(at, at + part_max));
    const first = this.last_seq + 1;
    const seq = this.last_seq + parts.length;
    const follows = this.applied.digest;
    this.last_seq = seq;
    this.applied = { seq, digest };
    this.batches_since_snapshot++;
    const appended = this.chain.then(async () => {
      for (let i = 0; i < parts.length; i++) {
        const outcome = await this.publish_part(parts[i], first - 1 + i, digest, `${i + 1}/${parts.length}`, follows, true);
        if (outcome === 'fenced') throw new Deposed('another leader appended to the stream');
      }
      // Acknowledged only while the lease holds: a leader paused past it answers nothing any more.
      if (!this.lease_valid()) throw new Deposed('the lease ran out while the batch was appended');
      this.acked_seq = seq;
      if (seq > this.stream_seq) this.stream_seq = seq;
      if (this.log.isLevelEnabled('debug')) this.log.debug({ seq, digest }, 'cluster: batch acknowledged');
    });
    appended.catch((error) => this.depose((error as Error).message));
    this.chain = appended;
    return { changes: [applied_change(this.store, { seq, digest })], appended };
  }

  /**
   * Appends one part after `after_seq`. Transient failures (a NATS node down, a timeout) are retried
   * until the lease would run out; a "wrong last sequence" answer is ours when the stream holds our
   * part there (an earlier attempt landed), else another writer's: 'fenced'.
   */
  private async publish_part(data: Uint8Array, after_seq: number, digest: string, part: string, follows: string, bounded_by_lease: boolean): Promise<'appended' | 'fenced'> {
    const headers = nats_headers();
    headers.set(digest_header, digest);
    headers.set(part_header, part);
    if (follows !== '') headers.set(follows_header, follows);
    const deadline_ms = Date.now() + this.config.lease_ms;
    for (let attempt = 1; ; attempt++) {
      try {
        // A retry waits less than the first attempt: the first one timed out because the server was gone or
        // the stream had no Raft leader, and a publish sent before the election is never answered; the retry
        // after the election must not wait out a whole first-attempt timeout (partition runs of 2026-11-28).
        // A retry that lands twice is recognised below (our part at its sequence).
        const timeout = attempt === 1 ? Math.max(1000, Math.floor(this.config.lease_ms / 2)) : this.timings.append_retry_timeout_ms;
        const ack = await this.watched(this.js.publish(stream_subject, data, { expect: { lastSequence: after_seq }, headers, timeout }));
        if (ack.seq !== after_seq + 1) fail(`appended at ${ack.seq}, expected ${after_seq + 1}`);
        return 'appended';
      } catch (error) {
        if (error instanceof AssertionError) throw error;
        if (api_code(error) === wrong_last_sequence) {
          const stored = await this.jsm.streams.getMessage(stream_name, { seq: after_seq + 1 }).catch(() => null);
          if (stored !== null && stored.header.get(digest_header) === digest && stored.header.get(part_header) === part) return 'appended';
          return 'fenced';
        }
        const out_of_time = bounded_by_lease ? !this.lease_valid() : Date.now() > deadline_ms;
        if (out_of_time || this.role === 'deposed') throw new Deposed(`cannot append to the stream: ${(error as Error).message}`);
        if (attempt % 5 === 1) this.log.warn({ err: error, attempt }, 'cluster: append failed; retrying');
        await sleep(100);
      }
    }
  }

  // ---- Deposition, status, shutdown ---------------------------------------------------------------

  depose(reason: string): void {
    if (this.role === 'deposed' || this.stopped) return;
    const was = this.role;
    this.role = 'deposed';
    this.leader = null;
    this.log.error({ reason, was, acked_seq: this.acked_seq, applied_seq: this.applied.seq }, 'cluster: deposed; refusing every write and restarting as a standby');
    this.on_deposed(reason, deposed_exit_code);
  }

  /** The last resort of a repair (see repair): the process ends with diverged_exit_code, which a supervisor does not restart. */
  private give_up(message: string): void {
    if (this.role === 'deposed' || this.stopped) return;
    this.role = 'deposed';
    this.leader = null;
    this.on_deposed(message, diverged_exit_code);
  }

  position(): AppliedPosition {
    return this.applied;
  }

  status(): ClusterStatus {
    const applied_seq = this.role === 'leader' ? this.acked_seq : this.applied.seq;
    const stream_seq = Math.max(this.stream_seq, applied_seq);
    return { node: this.node, role: this.role, leader: this.leader, applied_seq, stream_seq, lag: stream_seq - applied_seq, nats_server: this.nats_server };
  }

  /** Why this node takes no requests now; null on a leader whose lease holds. */
  refusal_reason(): string | null {
    if (this.role === 'leader') {
      if (this.lease_valid()) return null;
      this.depose('the lease ran out');
    }
    return this.role === 'standby' ? 'This node is a standby; the cluster\'s leader serves requests.' : 'This node lost the cluster\'s lease; retry shortly.';
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.snapshots.stop();
    await this.stop_tail();
    // A leader that stops on purpose gives the lease back, so a standby takes over at once.
    if (this.role === 'leader') await this.kv.delete(lease_key, { previousSeq: this.lease_revision }).catch(() => {});
    await this.nc.drain().catch(() => {});
  }
}
