// The repair of a standby's store that diverged from the stream's leader (docs/cluster.md "Divergence, repaired in
// place"): the check of the last batch against the leader before a take-over, the agreed stream leader as the
// authority, the store kept or rebuilt from the latest snapshot, the catch-up from the leader message by
// message, where an epoch message lost to a deposed leader's unacknowledged batch is applied in its place
// (the lost epoch), and the bounded count of repairs before the node gives up (exit 76). Not here: the
// tail that finds a divergence (stream-follower.ts), the standby's loop that starts the repair
// (ClusterNode.follow).
import type { StreamInfo } from '@nats-io/jetstream';
import { decode_message, digest_of, encode_message, stream_name, type AppliedPosition } from './codec.js';
import { Behind, Deposed, Diverged, NoAgreedLeader, api_code, cluster_unavailable, no_message } from './cluster-errors.js';
import { digest_header, follows_header, part_header } from './stream-headers.js';
import { monotonic_ms } from './monotonic.js';
import { StreamFollower, catch_up_gets_in_flight_max, type StreamPart } from './stream-follower.js';

/**
 * Repairs of a diverged store (see repair) one process makes, each following the last within
 * divergence_window_leases, before it gives up: a stream leader whose own history does not chain
 * stays so, and the node says so once instead of repairing forever.
 */
const divergence_repairs_max = 5;
/** A divergence this many leases after the last one starts the count of repairs afresh. */
const divergence_window_leases = 20;

export abstract class DivergenceRepair extends StreamFollower {
  /** Repairs made, each within divergence_window_leases of the one before, and when the last one began. */
  private repairs = 0;
  private last_repair_ms = 0;

  protected repair_wait_ms(): number {
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
   * batch is not the stream leader's (docs/cluster.md "Divergence, repaired in place"): a replica that diverged served
   * it, or this store holds a deposed leader's tail. The stream's leader, once JetStream agrees on
   * one, is the authority: every acknowledged batch is there, since a reply waits for the stream's
   * acknowledgement, which a leader gives only once a majority holds the batch. With the tail stopped,
   * the store is kept when the leader holds its last batch, else replaced by the latest snapshot (or
   * emptied, while the stream still begins at 1); it then catches up message by message from the
   * leader (a message get, which only the stream's leader answers) and tails on from the leader's
   * end. The leader's own history not chaining from there is retried a few times (JetStream settling
   * after a heal), then this node gives up once, with a line that tells the operator what to look at.
   */
  protected async repair(): Promise<void> {
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
    const get = this.read_ahead(last);
    let next: Awaited<ReturnType<typeof get>> = null;
    await this.catching_up(async () => {
      while (this.applied.seq + this.parts.length < last) {
        // A run of consecutive messages, applied in one transaction (apply_parts), up to a stand-in.
        const from = this.applied.seq + this.parts.length + 1;
        const run: StreamPart[] = [];
        let in_batch = this.parts.length > 0;
        let stand_in: { seq: number; held: string; epoch: Uint8Array; digest: string } | null = null;
        for (let seq = from; seq <= Math.min(last, from + catch_up_gets_in_flight_max - 1); seq++) {
          const stored = next !== null && next.seq === seq ? next : await get(seq);
          if (stored === null) throw new Behind(`the stream lacks message ${seq} (trimmed below this standby)`);
          next = seq < last ? await get(seq + 1) : null;
          const follows = next?.header?.get(follows_header) ?? '';
          const digest = stored.header?.get(digest_header) ?? '';
          const [index, count] = (stored.header?.get(part_header) ?? '1/1').split('/').map(Number);
          if (next !== null && !in_batch && index === 1 && count === 1 && follows !== '' && follows !== digest) {
            const epoch = this.lost_epoch(next.data, follows);
            if (epoch !== null) {
              stand_in = { seq, held: digest, epoch, digest: follows };
              break;
            }
          }
          run.push({ seq, headers: stored.header, data: stored.data });
          in_batch = index < count;
        }
        await this.apply_parts(run);
        if (stand_in !== null) {
          this.log.warn({ seq: stand_in.seq, held: stand_in.held, epoch: stand_in.digest }, 'cluster: the stream\'s leader holds, where an epoch message was acknowledged, a batch a deposed leader never had acknowledged (NATS replicas diverged); applying the epoch in its place');
          await this.apply(stand_in.seq, stand_in.epoch, stand_in.digest);
          this.stand_in_seq = stand_in.seq;
        }
      }
    });
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

  /** Why a store whose last batch lies past the stream leader's last sequence diverged. */
  protected beyond_the_stream(stream_last_seq: number): string {
    return `this store applied batch ${this.applied.seq} (${this.applied.digest}), past the stream leader's last sequence ${stream_last_seq}: a replica served a batch the stream never committed`;
  }

  /**
   * Before it takes over, a standby checks its last batch against the stream's leader (a message get,
   * which the stream's leader answers; the tail's consumer may have been served by another replica):
   * a new leader builds every later batch on its store, and the stream's sequence alone would not
   * tell that the store holds another batch there. A mismatch does not take the lease: the standby
   * repairs its store first (see repair). While JetStream answers no message get (no meta-group leader), the
   * check is left to the epoch, which asks the stream's leader to confirm the same batch (unconfirmed_reads).
   */
  protected async check_last_applied(stream_last_seq: number): Promise<void> {
    if (this.applied.seq > stream_last_seq) {
      // A batch past the stream leader's end: served by a replica that stored a deposed leader's append the
      // stream never committed (a stream leader cut off by a partition). Found by the partition campaign of
      // 2026-11-28 (seed 3712101): it used to pass as "trimmed" here, and the take-over then took the lease.
      const error = new Diverged(this.beyond_the_stream(stream_last_seq));
      this.log.error({ reason: error.message }, 'cluster: this standby applied a batch the stream does not hold; it repairs its store before it takes over');
      throw error;
    }
    if (this.applied.seq === 0 || this.applied.seq === this.stand_in_seq) return;
    const stored = await this.jsm.streams.getMessage(stream_name, { seq: this.applied.seq }).catch((error) => {
      if (api_code(error) === no_message) return null; // trimmed, checked against the snapshot at start-up
      if (api_code(error) === cluster_unavailable) return 'unanswered' as const;
      throw error;
    });
    if (stored === 'unanswered') {
      if (!this.unconfirmed_reads) this.log.warn({ applied: this.applied }, 'cluster: JetStream answers no message get (no meta-group leader); the epoch will ask the stream\'s leader to confirm this store\'s last batch');
      this.unconfirmed_reads = true;
      return;
    }
    if (stored === null) return;
    const digest = stored.header?.get(digest_header) ?? '';
    if (digest !== '' && digest !== this.applied.digest) {
      const error = new Diverged(`the stream's leader holds batch ${digest} at seq ${this.applied.seq}, this store ${this.applied.digest}`);
      this.log.error({ reason: error.message }, 'cluster: this standby applied a batch the stream does not hold; it repairs its store before it takes over');
      throw error;
    }
    if (digest !== '') this.unconfirmed_reads = false;
  }
}
