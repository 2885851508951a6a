// A cluster node's link to NATS (docs/cluster.md "Timeouts"): the connection and its JetStream handles,
// the server it is on and its reconnections, the ping probe of a server that leaves a request unanswered
// (watched), a request lost with a dropped connection failed at the reconnection, the choice of the next
// server to dial, and start-up's bounded retries of a step NATS does not answer yet. Not here: what is
// asked over the link (the lease, the stream's appends and reads: the layers above, see cluster-node.ts),
// nor the creation of the stream and the lease bucket (ClusterNode.connect).
import type { Logger } from 'pino';
import type { NatsConnection, Server, ServerInfo } from '@nats-io/transport-node';
import type { JetStreamClient, JetStreamManager, MsgRequest, StoredMsg, StreamInfo } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import type { ClusterConfig } from '../config.js';
import { nats_timings, type NatsTimings } from './nats-timings.js';
import { NoAgreedLeader, StartRefused, api_code, cluster_unavailable } from './cluster-errors.js';
import { stream_name } from './codec.js';
import { monotonic_ms, sleep } from './monotonic.js';
import { NodeState } from './node-state.js';

/** Start-up retries a step that NATS did not answer after 250 ms, doubling up to this, until config.start_wait_ms_max. */
export const start_retry_ms_max = 2000;

/** A promise of the next time something happens, and the function that says it did. */
function next_event(): { promise: Promise<void>; happened: () => void } {
  let happened = (): void => {};
  const promise = new Promise<void>((resolve) => (happened = resolve));
  return { promise, happened };
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

export abstract class NatsLink extends NodeState {
  /** The NATS timings derived from the lease (src/cluster/nats-timings.ts); set by connect. */
  protected timings: NatsTimings = nats_timings(5000);
  /** A JetStream manager whose requests give up after timings.check_timeout_ms: the standby's lease check. */
  protected jsm_check: JetStreamManager | null = null;

  protected constructor(
    config: ClusterConfig,
    data_dir: string,
    log: Logger,
    protected readonly nc: NatsConnection,
    protected readonly js: JetStreamClient,
    protected readonly jsm: JetStreamManager,
    protected readonly kv: KV,
    on_deposed: (reason: string, exit_code: number) => void,
  ) {
    super(config, data_dir, log, on_deposed);
  }

  /**
   * The journal's info as a stream leader gave it. While JetStream elects one, an answer names no leader and
   * carries one server's own replica, which may lag: the start-up check would take its end for lost batches
   * and a take-over for a journal short of the lease's mark. Throws NoAgreedLeader then: the callers retry.
   * (The short journals of the partition campaign of 2026-11-29 came from named leaders that lacked batches,
   * StorePreparation.stream_lacks_acknowledged.) A single server without a cluster names no leader and needs none.
   */
  protected async led_stream_info(jsm: JetStreamManager = this.jsm): Promise<StreamInfo> {
    const info = await jsm.streams.info(stream_name);
    if (info.cluster?.name !== undefined && !info.cluster.leader) throw new NoAgreedLeader('the journal stream has no leader now (JetStream is electing one)');
    return info;
  }

  /**
   * Set when a read of a standby's take-over was answered by a replica (stream_get with replica_ok), and cleared
   * once the stream's leader confirmed this store's last batch (DivergenceRepair.check_last_applied, or the
   * epoch's expected last message id: take-over.ts). A replica may lag or hold a batch the stream never committed.
   */
  protected unconfirmed_reads = false;

  /**
   * A message get, which the stream's leader answers. While nats-server 2.9 sees no meta-group leader it answers
   * every message get "JetStream system temporarily unavailable" (cluster_unavailable), for the whole of a cut in
   * the partition runs (14-43 s), though the streams have Raft leaders and take appends. With `replica_ok`, such a
   * refusal is followed by a direct get, which any current replica answers: only a standby's take-over asks so. A
   * read of the journal then sets unconfirmed_reads, and the epoch has the stream's leader confirm what was read
   * (docs/cluster.md "Reads while JetStream has no meta leader"). Null when the stream holds no such message.
   */
  protected async stream_get(jsm: JetStreamManager, stream: string, query: MsgRequest, replica_ok: boolean): Promise<StoredMsg | null> {
    try {
      return await jsm.streams.getMessage(stream, query);
    } catch (error) {
      if (!replica_ok || api_code(error) !== cluster_unavailable) throw error;
      if (stream !== stream_name) return jsm.direct.getMessage(stream, query);
      if (!this.unconfirmed_reads) this.log.warn({ query }, 'cluster: JetStream answers no message get (no meta-group leader); reading a replica\'s copy of the journal, which the stream\'s leader confirms before this node leads');
      this.unconfirmed_reads = true;
      const stored = await jsm.direct.getMessage(stream, query);
      // A replica behind the leader lacks what the leader holds: not a trimmed stream (Behind), a read to try again.
      if (stored === null) throw new Error(`the replica that answered holds no journal message ${JSON.stringify(query)} yet`);
      return stored;
    }
  }

  /** The NATS server the connection is on now (host:port), null while it reconnects; kept by watch_connection. */
  protected nats_server: string | null = null;

  /** Disconnections so far, and the next reconnection: see abandoned_on_reconnect. */
  protected disconnects = 0;
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
  protected watched<T>(request: Promise<T>): Promise<T> {
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
  protected watch_connection(timings: NatsTimings): void {
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
  protected start_deadline_ms = 0;

  /**
   * Runs a start-up step again while NATS does not answer (JetStream electing a leader, a server
   * restarting): after 250 ms, doubling up to start_retry_ms_max, until the deadline. A StartRefused
   * is final at once.
   */
  protected static async retrying<T>(config: ClusterConfig, log: Logger, deadline_ms: number, what: string, step: () => Promise<T>): Promise<T> {
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
  protected static async within<T>(config: ClusterConfig, deadline_ms: number, what: string, step: Promise<T>): Promise<T> {
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
}
