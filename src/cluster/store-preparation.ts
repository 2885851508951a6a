// Start-up: where does the local store stand against the stream? Before the store is opened for good, a
// node decides whether it can follow the stream from there, or is replaced by the latest snapshot (or
// emptied); a store that held a batch the stream's leader lacks is marked diverged, so the standby
// repairs it before it tails (divergence-repair.ts). Not here: following the stream (stream-follower.ts)
// nor the snapshots themselves (snapshots.ts).
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../journal/store.js';
import type { Snapshots } from './snapshots.js';
import { acked_seq_of, applied_position, stream_name } from './codec.js';
import { NoAgreedLeader, StartRefused } from './cluster-errors.js';
import { monotonic_ms } from './monotonic.js';
import { digest_header } from './stream-headers.js';
import { NatsLink } from './nats-link.js';

export abstract class StorePreparation extends NatsLink {
  /** The cluster's snapshot store (snapshots.ts), made with the node (ClusterNode). */
  abstract readonly snapshots: Snapshots;

  /**
   * Decides, before the store is opened for good, whether the local store can follow the stream from
   * where it stands. It cannot when it holds a batch the stream does not (the batch at its position is
   * missing or has another digest: a store an older version's deposed leader wrote ahead of the stream,
   * or a stream that lost acknowledged batches), or when the
   * stream no longer holds the batches after it. Then it is replaced by the latest snapshot (or
   * emptied, while the stream still starts at 1), and follows from there.
   */
  async prepare_store(open: () => Store): Promise<void> {
    await NatsLink.retrying(this.config, this.log, this.start_deadline_ms, 'the stream and the snapshot store to answer the start-up check', () => this.prepare_store_once(open));
  }

  /** Since when this node has found the journal shorter than a mark it knows was acknowledged (stream_lacks_acknowledged). */
  private lacking: { mark: number; since_ms: number; stepdown_ms: number; stepdowns: number } | null = null;
  /**
   * The journal's end when a wait ran out: the loss was reported then, and the journal ending there is not waited
   * for again (a start-up's wait, then its take-over's, whose lease mark may lie a batch further).
   */
  private loss_accepted_at: number | null = null;

  /**
   * True while this node must wait: the stream acknowledged batches up to `mark` (to the lease's holder,
   * lease_value, for a take-over; to this node as leader, for its start-up check) and the stream's leader ends
   * before it. JetStream acknowledges a batch once a majority of its replicas hold it, so a leader without it
   * lost it, and another replica may hold it: nats-server 2.9.10 elects as the journal's leader a server
   * restarted seconds before whose store lost its last messages to a kill -9 (partition campaigns of 2026-11-28
   * and 2026-11-29; docs/cluster.md "What survives which failure"). Going on would lead on, or rebuild this
   * store from, a history without answers already given. So the node waits, and asks the stream's leader to
   * step down every timings.stepdown_interval_ms (the first after one interval: a leader just elected may not
   * have applied all its log commits yet), for a replica that holds the batches to be elected. Once the journal
   * reaches the mark it goes on. After timings.lost_acknowledged_wait_ms it goes on with the journal as it is,
   * with an error for the operator (a cluster stopped for good would need a person anyway), and the store
   * holding the batches is kept as lost when its node starts (keep_lost_store).
   */
  protected async stream_lacks_acknowledged(mark: number | null, stream_last_seq: number, stream_leader: string | null, now_ms: number): Promise<boolean> {
    if (mark === null || stream_last_seq >= mark || stream_last_seq === this.loss_accepted_at) {
      if (this.lacking !== null) {
        this.log.warn({ stream_last_seq, acked_seq: this.lacking.mark, stepdowns: this.lacking.stepdowns, waited_ms: Math.round(now_ms - this.lacking.since_ms) }, 'cluster: the journal\'s leader holds every acknowledged batch again');
        this.lacking = null;
      }
      return false;
    }
    if (this.lacking === null || this.lacking.mark !== mark) {
      // A leader just elected may not have applied what its log commits yet: a step-down waits one interval.
      this.lacking = { mark, since_ms: now_ms, stepdown_ms: now_ms, stepdowns: 0 };
      this.log.warn({ stream_last_seq, stream_leader, acked_seq: mark }, 'cluster: the journal ends before a sequence the stream acknowledged; waiting for it');
    }
    const waited_ms = now_ms - this.lacking.since_ms;
    if (waited_ms >= this.timings.lost_acknowledged_wait_ms) {
      this.log.error({ stream_last_seq, acked_seq: mark, lost_batches: mark - stream_last_seq, stepdowns: this.lacking.stepdowns, waited_ms: Math.round(waited_ms) },
        'cluster: no replica of the journal holds the acknowledged batches; going on with the journal as it is (the store holding them is kept as lost when its node starts)');
      this.lacking = null;
      this.loss_accepted_at = stream_last_seq;
      return false;
    }
    if (now_ms - this.lacking.stepdown_ms >= this.timings.stepdown_interval_ms) {
      this.lacking.stepdown_ms = now_ms;
      this.lacking.stepdowns++;
      this.log.error({ stream_last_seq, stream_leader, acked_seq: mark, lost_batches: mark - stream_last_seq, stepdowns: this.lacking.stepdowns, waited_ms: Math.round(waited_ms) },
        'cluster: the journal\'s leader lacks batches the stream acknowledged; asking it to step down rather than go on without them');
      // JetStream's API (no nats.js helper): the stream's Raft leader steps down and its replicas elect another.
      // An answer may refuse it as JSON ({ error: { code, err_code, description } }: no meta-group leader, no stream
      // leader); the request itself may time out. Either way the next interval asks again.
      const refusal = await this.nc.request(`$JS.API.STREAM.LEADER.STEPDOWN.${stream_name}`, undefined, { timeout: this.timings.check_timeout_ms })
        .then((answer) => answer.json<{ error?: unknown }>().error ?? null)
        .catch((error: unknown) => error);
      if (refusal !== null) this.log.warn({ err: refusal }, 'cluster: asking the journal\'s leader to step down failed; trying again');
    }
    return true;
  }

  /**
   * The stream ends before a batch it acknowledged to this node as leader: NATS lost acknowledged batches (the
   * partition campaign of 2026-11-28 saw nats-server 2.9.10 elect as the journal's leader a server restarted a few
   * seconds before, which lacked 500 batches the other two had acknowledged; docs/cluster.md "What survives which
   * failure"). The node cannot put them back (the other node may already lead on the shorter history), so it does
   * not destroy them either: the store is kept beside the new one, under a name that says what it holds, and an
   * error names it for the operator. The node then rebuilds and goes on, as for any store that cannot follow.
   */
  private keep_lost_store(acked: number, last: number, stream_leader: string | null): void {
    const kept = `data.lost-acknowledged-${last + 1}-${acked}-${Date.now()}.mdb`;
    if (existsSync(join(this.data_dir, 'data.mdb'))) renameSync(join(this.data_dir, 'data.mdb'), join(this.data_dir, kept));
    this.log.error({ acked_seq: acked, stream_last_seq: last, stream_leader, lost_batches: acked - last, kept: join(this.data_dir, kept) },
      'cluster: the stream lost batches it had acknowledged to this node (NATS lost acknowledged messages); this node\'s store, which holds them, is kept for the operator and the node rebuilds from the stream');
  }

  private async prepare_store_once(open: () => Store): Promise<void> {
    const store = open();
    const local = applied_position(store);
    const acked = acked_seq_of(store);
    // One key read: getKeysCount counts every account (1.2 s at a million, docs/benchmarks.md "Scale").
    let empty = local === null;
    if (empty) for (const _ of store.accounts.getKeys({ limit: 1 })) empty = false;
    await store.root.close();
    const info = await this.led_stream_info();
    const first = info.state.first_seq;
    const last = info.state.last_seq;
    this.stream_seq = last;
    // The journal's leader may lack batches another replica holds (nats-server 2.9.10 elects a server restarted
    // seconds before, whose store lost its last messages): wait, asking it to step down, before calling them lost.
    if (acked !== null && await this.stream_lacks_acknowledged(acked, last, info.cluster?.leader ?? null, monotonic_ms())) {
      throw new NoAgreedLeader(`the journal's leader ${info.cluster?.leader ?? '(none)'} ends at ${last}, before the ${acked} it acknowledged to this node`);
    }
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
    // diverged (docs/cluster.md "Divergence, repaired in place"), and the standby's consumer may be served by that very
    // replica: the rebuilt store catches up from the leader before it tails (see follow).
    if (local !== null && local.seq >= first) this.diverged = `at start-up this store stood at seq ${local.seq} (${local.digest}), which the stream's leader does not hold`;
    this.log.warn({ local, stream_first_seq: first, stream_last_seq: last, snapshot }, 'cluster: the local store cannot follow the stream (behind its start, or holding batches it lacks); rebuilding it');
    // Only a store that is rebuilt is kept: one that follows (standing exactly at the latest snapshot) keeps its file.
    if (acked !== null && acked > last) this.keep_lost_store(acked, last, info.cluster?.leader ?? null);
    if (snapshot !== null) {
      if (snapshot.seq < first - 1) throw new StartRefused(`cluster: the latest snapshot (seq ${snapshot.seq}) is older than the stream's first message (${first}); cannot rebuild`);
      await this.snapshots.install();
    } else if (first <= 1) {
      this.snapshots.wipe_store();
    } else {
      throw new StartRefused(`cluster: the stream starts at ${first} and no snapshot exists; cannot rebuild this store`);
    }
  }
}
