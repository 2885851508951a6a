// Cluster mode (docs/cluster.md): one leader serves writes and appends every group commit of its
// journal to a replicated JetStream stream; standbys apply that stream to their own stores and take
// over when the leader's lease in a JetStream KV bucket runs out: when the key's revision has not
// moved for a whole lease as the standby watched it (see try_to_lead; the key has no server TTL).
//
// Fencing: every append names the stream sequence it expects to follow. A new leader's first append
// (an "epoch" message) therefore makes any append of an older leader fail with "wrong last
// sequence" (JetStream err_code 10071), and a leader acknowledges a batch only once the stream took
// it. A leader that cannot append, or whose lease runs out, is deposed: it refuses every later write
// and the process exits (deposed_exit_code) so that its supervisor restarts it as a standby. Its store
// holds only batches the stream took (the journal writes a batch once its append is acknowledged); a
// store that holds more (an older version's, or a stream that lost batches) is rebuilt (see prepare_store).
//
// The node is one object (one role, one store, one position in the stream, shared by every concept),
// built as a chain of classes, one concept per file, each layer using only the ones listed before it,
// never a later one (the standby's loop here ties them together):
//   node-state.ts         what the node knows of itself; deposition
//   nats-link.ts          the NATS connection, its probe and reconnections, start-up retries
//   store-preparation.ts  start-up: can the local store follow the stream?
//   lease.ts              the lease key: read, renewed, lost
//   stream-appender.ts    the leader's appends, fenced by the expected sequence
//   stream-follower.ts    the standby's consumer, the apply of each batch, catch-up, reinstall when trimmed
//   divergence-repair.ts  a store that diverged repaired from the stream leader's history; the lost epoch
//   take-over.ts          the lease taken, the epoch appended
//   cluster-node.ts       (this file) connecting, the standby's loop, status and stop
// beside cluster-errors.ts, stream-headers.ts and monotonic.ts, which the layers share.
import type { Logger } from 'pino';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { StorageType, jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { ClusterConfig } from '../config.js';
import type { Store } from '../journal/store.js';
import type { JournalAppender } from '../journal/journal.js';
import { stream_name, stream_subject, type AppliedPosition } from './codec.js';
import { Snapshots } from './snapshots.js';
import { nats_timings } from './nats-timings.js';
import { Behind, Deposed, Diverged, NoAgreedLeader, api_code } from './cluster-errors.js';
import { sleep } from './monotonic.js';
import { next_server } from './nats-link.js';
import { lease_bucket, lease_key } from './lease.js';
import type { ClusterRole } from './node-state.js';
import { TakeOver } from './take-over.js';

// The names the rest of the server and the tests know the cluster node's by.
export { deposed_exit_code, diverged_exit_code } from './cluster-errors.js';
export { lease_bucket } from './lease.js';
export { next_server } from './nats-link.js';
export type { ClusterRole } from './node-state.js';

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

export class ClusterNode extends TakeOver implements JournalAppender {
  readonly snapshots: Snapshots;

  private constructor(
    config: ClusterConfig,
    data_dir: string,
    log: Logger,
    nc: NatsConnection,
    js: JetStreamClient,
    jsm: JetStreamManager,
    kv: KV,
    on_deposed: (reason: string, exit_code: number) => void,
  ) {
    super(config, data_dir, log, nc, js, jsm, kv, on_deposed);
    this.snapshots = new Snapshots(this, nc, jsm, data_dir, log);
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
        const info = await jsm.streams.info(stream_name);
        // Direct gets, for a take-over while JetStream answers no message get (NatsLink.stream_get); a stream an
        // older billvend made has none.
        if (info.config.allow_direct !== true) await jsm.streams.update(stream_name, { ...info.config, allow_direct: true });
      } catch (error) {
        if (api_code(error) !== 10059) throw error; // stream not found
        await jsm.streams.add({
          name: stream_name,
          subjects: [stream_subject],
          storage: StorageType.File,
          num_replicas: config.replicas,
          allow_direct: true,
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

  // ---- Deposition, status, shutdown ---------------------------------------------------------------

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
