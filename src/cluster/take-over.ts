// A standby's take-over (docs/cluster.md): the lease taken when it is free or its holder's revision stood
// still for a whole lease (and a margin), only by a standby that applied the stream to its end and whose
// last batch the stream's leader holds; then the epoch message that fences the previous leader off, and
// the check that the lease was not granted to another node at the same time. Not here: renewing the
// lease (lease.ts), the appends after it (stream-appender.ts), the loop that tries it (ClusterNode.follow).
import { randomBytes } from 'node:crypto';
import { digest_of, encode_message, stream_name } from './codec.js';
import { Behind, Deposed, Diverged, api_code, wrong_last_sequence } from './cluster-errors.js';
import { AssertionError } from '../lib/assert.js';
import { monotonic_ms, sleep } from './monotonic.js';
import { lease_key, lease_takeover_margin, lease_value } from './lease.js';
import { DivergenceRepair } from './divergence-repair.js';
import { message_id } from './stream-headers.js';

export abstract class TakeOver extends DivergenceRepair {
  /**
   * Takes the lease when it is free, or when its holder's lease has ended: its revision has not
   * moved for a whole lease (and lease_takeover_margin) since this node first saw it. The holder
   * counts its lease from when it sent the renewal that made that revision, which was before this
   * node could see it, so on clocks that run at the same rate the holder's lease is over by then. The
   * take-over itself is an update from that revision: if the holder renewed meanwhile, or another
   * standby was faster, it fails and nothing changed. The key is read from the lease bucket's stream
   * leader, never a replica (see lease_entry).
   */
  protected async try_to_lead(): Promise<boolean> {
    // Read with timings.check_timeout_ms: a request sent while the lease bucket or the journal has no Raft
    // leader is never answered, and the check after the election must not wait out a lease-long timeout (the
    // partition runs of 2026-11-28 saw a standby take over 2.8 s after the journal's election for that).
    const check = this.jsm_check ?? this.jsm;
    const entry = await this.lease_entry(check, true);
    const now_ms = monotonic_ms();
    const info = await this.led_stream_info(check);
    this.stream_seq = info.state.last_seq;
    this.leader_reported(info.state.last_seq);
    if (entry !== null && entry.node !== null) {
      this.leader = entry.node;
      if (this.lease_seen === null || this.lease_seen.revision !== entry.revision) {
        this.lease_seen = { revision: entry.revision, since_ms: this.renewals_sent_by(entry, now_ms), tenure: entry.tenure, renewals: entry.renewals };
      }
      if (now_ms - this.lease_seen.since_ms < this.config.lease_ms * (1 + lease_takeover_margin)) {
        await this.restart_stalled_tail(info.state.last_seq, now_ms);
        return false;
      }
      this.log.info({ holder: entry.node, revision: entry.revision, still_ms: Math.round(now_ms - this.lease_seen.since_ms) }, 'cluster: the lease was not renewed for a whole lease; taking it over');
    }
    this.leader = null;
    if (entry !== null && await this.stream_lacks_acknowledged(entry.acked_seq, info.state.last_seq, info.cluster?.leader ?? null, now_ms)) return false;
    // Only a standby that has applied the stream to its end takes over.
    if (this.applied.seq < info.state.last_seq || this.parts.length > 0) {
      // The lease is free but the tail is behind: fetch the rest directly rather than wait for it.
      await this.catch_up();
      return false;
    }
    await this.check_last_applied(info.state.last_seq);
    const sent_ms = monotonic_ms();
    // A tenure id only needs to differ from every other take-over's: 48 random bits.
    const tenure = randomBytes(6).toString('hex');
    try {
      // Free (never taken, or given back: a delete marker): create. Ended: update from the
      // revision that stood still. Either fails if the key moved since this node read it.
      this.lease_revision = entry === null
        ? await this.kv.create(lease_key, lease_value(this.node, tenure, 0, this.applied.seq))
        : await this.kv.update(lease_key, lease_value(this.node, tenure, 0, this.applied.seq), entry.revision);
      this.lease_tenure = tenure;
      this.lease_renewals = 0;
    } catch (error) {
      if (api_code(error) === wrong_last_sequence) return false; // renewed meanwhile, or another standby was faster
      throw error;
    }
    this.lease_seen = null;
    this.lease_valid_until_ms = sent_ms + this.config.lease_ms;
    // What the renewals write as acknowledged until this tenure's first append: the stream's end, which
    // this store reached (an earlier tenure's figure could lie past a stream that lost batches since).
    this.acked_seq = this.applied.seq;
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
      // The tail, until stop_tail, may have applied a batch the stream's leader does not hold after the check
      // above (see check_last_applied): the epoch would then name a sequence the stream never reaches, be refused
      // as fenced, and be tried again for as long as the renewals hold the lease, with no node serving (partition
      // campaign of 2026-11-28, seed 3712101: 4 minutes, until the run gave up). Nothing was appended or served
      // yet, so the lease is given back and the store repaired as a standby's.
      if (this.applied.seq > this.stream_seq) return this.give_back(this.beyond_the_stream(this.stream_seq), true);
      if (await this.granted_elsewhere()) return false;
      const bytes = encode_message(this.names!, 'epoch', this.node, []);
      const digest = digest_of(bytes);
      const seq = this.applied.seq + 1;
      // Read from a replica (no message get answered): the stream's leader confirms, with the epoch itself, that its
      // last message is this store's last batch, as check_last_applied would have (the id names sequence and digest).
      const after_id = this.unconfirmed_reads && this.applied.seq > 0 ? message_id(this.applied.seq, this.applied.digest) : null;
      let outcome: Awaited<ReturnType<typeof this.publish_part>>;
      try {
        outcome = await this.publish_part(bytes, seq - 1, digest, '1/1', this.applied.digest, false, after_id);
      } catch (error) {
        // JetStream took no append for a whole lease (nats-server 2.9.10 with its journal's replicas disagreeing
        // after a partition, its leader changing every few seconds: the partition campaign of 2026-11-29, seed 9651,
        // round 61). Nothing was appended by this tenure or served, so the lease is given back and the standby's loop
        // tries again, rather than exiting to be restarted into the same wait: both nodes exited 16 times in four
        // minutes so. An epoch that landed after all is this node's own batch at its sequence: the tail applies it.
        if (error instanceof Deposed && this.role === 'leader') return this.give_back(`the epoch message could not be appended: ${error.message}`, false, 'cluster: this node took the lease but JetStream took no epoch message within a lease; it gives the lease back and tries again');
        throw error;
      }
      if (outcome === 'fenced') continue;
      if (outcome === 'unconfirmed') return this.give_back('the stream\'s leader did not confirm this store\'s last batch as its last message', false);
      await this.apply(seq, bytes, digest);
      this.unconfirmed_reads = false;
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
   * A take-over that found, after it took the lease and before it appended anything, that its store holds a batch
   * the stream's leader does not (`diverged`), or that the stream's leader would not confirm its last batch (read
   * from a replica while no message get was answered; the leader may also just not know its last message's id, after
   * a restart): the lease is given back (deleted from the revision this node wrote, so a key another node wrote since
   * stays), renewals stop, and the standby's loop repairs the store (see repair) or tries again, checking its last
   * batch by a message get once JetStream answers them; the other node, or this one, takes the free lease at once.
   * Returns false (not leading).
   */
  private async give_back(reason: string, diverged: boolean, note = 'cluster: this node took the lease but could not confirm its store against the stream\'s leader; it gives the lease back and tries again'): Promise<false> {
    this.renewals_held = true;
    try {
      await this.renewing;
      if (diverged) this.log.error({ reason, applied: this.applied, stream_seq: this.stream_seq }, 'cluster: this node took the lease on a store that holds a batch the stream does not; it gives the lease back and repairs its store');
      else this.log.warn({ reason, applied: this.applied, stream_seq: this.stream_seq }, note);
      this.role = 'standby';
      this.leader = null;
      this.lease_valid_until_ms = 0;
      this.lease_seen = null;
      await this.kv.delete(lease_key, { previousSeq: this.lease_revision }).catch((error) => {
        this.log.warn({ err: error }, 'cluster: giving the lease back failed; it ends a lease after the last renewal');
      });
      if (diverged) this.diverged = reason;
      else this.start_tail(); // stopped by the take-over; the repair starts it again after a divergence
      return false;
    } finally {
      this.renewals_held = false;
    }
  }

  /**
   * Read before each attempt at the epoch message. nats-server 2.9 can grant the lease twice, to two
   * updates from the same revision (its expected-revision check is not serialized in a cluster,
   * nats-server issue #4320); the other node may then have appended its epoch already, and this node,
   * having caught up on it, would append its own after it and fence off a leader that holds the key.
   * The lease key, read from the bucket's stream leader (a replica while no message get is answered: then an
   * older revision can hide the other grant, and the epoch's expected sequence still fences), settles it: a key naming another node means
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
      const entry = await this.lease_entry(this.jsm, true).catch(() => null);
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
}
