// The leader's lease (docs/cluster.md): a key in a JetStream KV bucket, renewed every third of a lease
// from the revision it last wrote, counted on the monotonic clock from when each renewal was sent; how
// the key is read (from the bucket's stream leader, never a replica) and written (node, tenure, renewals);
// a renewal that timed out but landed, a lease lost to another node; and how a standby bounds when the
// holder sent the renewals it missed. Not here: taking the lease over (take-over.ts) and what a lost
// lease does to the node (node-state.ts depose).
import type { JetStreamManager } from '@nats-io/jetstream';
import { Deposed, api_code, no_message, wrong_last_sequence } from './cluster-errors.js';
import { monotonic_ms } from './monotonic.js';
import { StorePreparation } from './store-preparation.js';

export const lease_bucket = 'billvend-lease';
export const lease_key = 'leader';
/**
 * A standby takes the lease over once its revision stood still for the lease plus this share of it:
 * room for two machines' clocks running at different rates (NTP bounds that to 500 ppm; 5 % is far
 * above it) on top of the time the standby's read took to see the revision, which is already in its favour.
 */
export const lease_takeover_margin = 0.05;
/**
 * The lease key as read: the node named (null once deleted), the revision, and, in keys written since
 * 2026-11-28, the holder's tenure (a random id its take-over wrote) and how many renewals that tenure made
 * (see lease_value). Keys written before name the node alone: tenure and renewals null.
 */
export interface LeaseEntry {
  node: string | null;
  revision: number;
  tenure: string | null;
  renewals: number | null;
  /** The last journal sequence the stream had acknowledged to the holder when it wrote the key; null in older keys. */
  acked_seq: number | null;
}

/**
 * The lease key's value: `<node> <tenure> <renewals> <acked_seq>`. A take-over writes a new tenure and 0; each
 * renewal of that tenure writes the next count. Node names hold no space (config.ts), so the node stays the first
 * word. The count lets a standby that missed renewals (its reads failed during a partition) bound when the holder
 * sent the last one (see renewals_sent_by). `acked_seq` is the last journal sequence the stream had acknowledged
 * to the holder when it wrote the key: a standby finding the stream shorter than that knows the stream's leader
 * lacks acknowledged batches (StorePreparation.stream_lacks_acknowledged). Keys of three words (written before
 * 2026-11-29) carry no mark; an older node reads a key of four words as a node's name, which only costs it
 * the renewal count's bound.
 */
export function lease_value(node: string, tenure: string, renewals: number, acked_seq: number): string {
  return `${node} ${tenure} ${renewals} ${acked_seq}`;
}

export function parse_lease_value(value: string): Omit<LeaseEntry, 'revision'> {
  const [node, tenure, renewals, acked_seq, ...rest] = value.split(' ');
  const count = /^\d{1,15}$/;
  if (tenure === undefined || renewals === undefined || rest.length > 0 || !count.test(renewals) || (acked_seq !== undefined && !count.test(acked_seq))) {
    return { node: value, tenure: null, renewals: null, acked_seq: null };
  }
  return { node, tenure, renewals: Number(renewals), acked_seq: acked_seq === undefined ? null : Number(acked_seq) };
}

/** How soon a failed lease renewal is tried again (the lease keeps running meanwhile). */
const renewal_retry_ms = 50;

export abstract class LeaseHolder extends StorePreparation {
  protected lease_revision = 0;
  /** Leader: the lease holds until here (monotonic clock, counted from when the renewal was sent). */
  protected lease_valid_until_ms = 0;
  /**
   * Standby: the lease key's revision as this node last saw it move, and when (monotonic clock).
   * The leader's renewals move it every third of a lease; once it has stood still for a whole lease
   * (and the margin) from the moment this node first saw it, the holder's lease has ended.
   */
  protected lease_seen: { revision: number; since_ms: number; tenure: string | null; renewals: number | null } | null = null;
  /** Leader: this take-over's tenure and the renewals it made (see lease_value). */
  protected lease_tenure = '';
  protected lease_renewals = 0;
  protected readonly timers = new Set<NodeJS.Timeout>();

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
   * A standby's take-over may read a replica while no message get is answered (`replica_ok`, see
   * stream_get): an older revision only delays it, and its update from a revision the bucket's leader
   * no longer holds is refused there.
   */
  protected async lease_entry(jsm: JetStreamManager = this.jsm, replica_ok = false): Promise<LeaseEntry | null> {
    const stored = await this.stream_get(jsm, `KV_${lease_bucket}`, { last_by_subj: `$KV.${lease_bucket}.${lease_key}` }, replica_ok).catch((error) => {
      if (api_code(error) === no_message) return null; // never written
      throw error;
    });
    if (stored === null) return null;
    const operation = stored.header?.get('KV-Operation') ?? '';
    if (operation === 'DEL' || operation === 'PURGE') return { node: null, revision: stored.seq, tenure: null, renewals: null, acked_seq: null };
    return { ...parse_lease_value(stored.string()), revision: stored.seq };
  }

  /** Why the last renewal found the lease lost (see renew_once). */
  private lease_lost_reason = 'another node holds the lease';

  /** Renewals run one at a time: two with the same revision would make one fail and depose the node. */
  protected renewing: Promise<unknown> = Promise.resolve();
  /** Set while a fenced epoch reads the lease key (granted_elsewhere): no renewal is sent meanwhile. */
  protected renewals_held = false;

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
        this.lease_revision = await this.watched(this.kv.update(lease_key, lease_value(this.node, this.lease_tenure, renewals, this.acked_seq), this.lease_revision, timeout_ms));
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

  protected renew_lease(): void {
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
      // Stood down while this renewal waited its turn (take-over.ts: granted_elsewhere, give_back): a
      // standby has no lease to lose, and deposing it would end a process that serves nothing.
      if (this.role !== 'leader') return;
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
  protected renewals_sent_by(entry: LeaseEntry, now_ms: number): number {
    const seen = this.lease_seen;
    if (seen === null || entry.tenure === null || entry.renewals === null || seen.tenure !== entry.tenure || seen.renewals === null) return now_ms;
    const renewals = entry.renewals - seen.renewals;
    if (renewals < 1 || entry.revision - seen.revision !== renewals) return now_ms;
    const bound_ms = seen.since_ms + renewals * this.config.lease_ms * (1 + lease_takeover_margin);
    if (bound_ms < now_ms) this.log.info({ holder: entry.node, revision: entry.revision, renewals, seen_revision: seen.revision, earlier_by_ms: Math.round(now_ms - bound_ms) }, 'cluster: the lease holder\'s renewals since this node last read the key were sent within a lease of each other; its lease is counted from that bound');
    return Math.min(now_ms, bound_ms);
  }
}
