// The standby's side of the journal stream: a consumer that tails the stream and applies each batch to
// the store once its last part arrived and its predecessor is the batch applied last (Billvend-Follows),
// a catch-up by message gets (taking over, or fenced), and the reinstall of the latest snapshot when the
// stream was trimmed past this store. Not here: the repair of a store that diverged (divergence-repair.ts),
// the lease and the take-over (lease.ts, take-over.ts), the standby's loop (ClusterNode.follow).
import type { MsgHdrs } from '@nats-io/transport-node';
import { DeliverPolicy, type ConsumerMessages, type JetStreamClient, type StoredMsg } from '@nats-io/jetstream';
import type { Store } from '../journal/store.js';
import { write_changes, type StagedChange } from '../journal/journal.js';
import { StoreNames, applied_change, applied_position, decode_message, digest_of, staged_changes, stream_name, type AppliedPosition } from './codec.js';
import { Behind, Diverged, api_code, no_message } from './cluster-errors.js';
import { digest_header, follows_header, part_header } from './stream-headers.js';
import { fail } from '../lib/assert.js';
import { sleep } from './monotonic.js';
import { start_retry_ms_max } from './nats-link.js';
import { StreamAppender } from './stream-appender.js';

/**
 * Message gets a catch-up keeps in flight ahead of the one it applies (read_ahead), and the longest run of messages
 * it applies in one LMDB transaction (apply_parts); so the most messages it holds unapplied (each at most the
 * server's max_payload, 1 MiB by default). One get, one commit and one flush to disk per batch, a store rebuilt from an
 * old snapshot caught up at 100-230 batches a second on the loaded test machine: 48-111 s for 7,000-11,500 batches in
 * the partition runs of 2026-11-28, during which that node could not take over (docs/cluster.md "Catch-up"). The
 * read-ahead alone left it at ~145-230 a second (the commit per batch was the cost); with runs, 600-1,850 a second.
 */
export const catch_up_gets_in_flight_max = 32;

/** How often a tail holding a message past the stream leader's end looks again (see leader_copy_of). */
const held_message_poll_ms = 20;
/** A failing read of a held message's leader copy is logged once in this many tries (about a second). */
const held_failures_per_log = 50;

/** One message of the stream as the tail or a catch-up hands it to apply_parts. */
export interface StreamPart {
  seq: number;
  headers: MsgHdrs | undefined;
  data: Uint8Array;
}

interface Tail {
  messages: ConsumerMessages | null;
  stopped: boolean;
  done: Promise<void>;
}

export abstract class StreamFollower extends StreamAppender {
  private tail: Tail | null = null;
  protected parts: Uint8Array[] = [];

  /** The store this node holds now (a standby replaces it when it reinstalls a snapshot); null after stop. */
  current_store(): Store | null {
    return this.store;
  }

  protected open_store: (() => Store) | null = null;
  /** Set when the stream no longer holds the batch this standby needs next (see rebuild_behind). */
  protected behind = false;

  protected use_store(store: Store): void {
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
  protected async rebuild_behind(): Promise<void> {
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

  protected start_tail(): void {
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
      const messages = await consumer.consume({ expires: this.timings.tail_pull_expires_ms });
      tail.messages = messages;
      if (tail.stopped) messages.stop();
      let first = true;
      for await (const message of messages) {
        if (tail.stopped) break;
        const leader_copy = await this.leader_copy_of(tail, message.seq, first ? message.headers?.get(digest_header) ?? '' : null);
        if (leader_copy === 'stopped') break;
        first = false;
        if (leader_copy === null) await this.apply_part(message.seq, message.headers, message.data);
        else await this.apply_part(leader_copy.seq, leader_copy.header, leader_copy.data);
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

  /** The last sequence the stream's leader reported to the standby's lease check (try_to_lead), and the reports so far. */
  private leader_seq = 0;
  private leader_reports = 0;

  /** Each lease check of a standby hands over the journal's end as a stream leader gave it (see leader_copy_of). */
  protected leader_reported(last_seq: number): void {
    this.leader_seq = last_seq;
    this.leader_reports++;
  }

  /**
   * The tail applies no message past the stream leader's end. A NATS server that stored a deposed leader's
   * append the stream never committed (it led the stream when a partition cut it off) serves that batch to a
   * consumer it hosts, past the leader's last sequence, and went on serving it after the heal. Applied, it made
   * the standby repair its store before a take-over (a rebuild from the latest snapshot), and the tail started
   * after the repair applied it again: in the partition campaign of 2026-11-29 (seed 9294, round 41) both nodes
   * went round that loop for 82 s with no node leading.
   *
   * So a message past the last sequence the leader reported waits for the next report (a lease check, every
   * tenth of a lease): usually the leader holds it by then, and the consumer's copy is applied (null). Else it
   * waits for the leader to reach that sequence and applies the leader's own copy (a message get, which only the
   * stream's leader answers): the batch a new leader appended there, never the phantom. 'stopped': the tail was.
   *
   * `first_digest` (the digest the consumer's copy carries) is given for the first message a tail applies, which is
   * checked against the leader's copy in any case. A node restarted after a deposition starts its tail right after
   * the last batch the stream acknowledged to it, where the server cut off with it may hold its own refused append:
   * the partition campaign of 2026-11-29 (seed 9296) saw the restarted node's consumer deliver exactly that batch,
   * twice, while the new leader's epoch stood at that sequence, and each time the next batch broke the chain and
   * the store was rebuilt from the latest snapshot (116,000 batches; round 85 then ended by availability).
   */
  private async leader_copy_of(tail: Tail, seq: number, first_digest: string | null): Promise<StoredMsg | null | 'stopped'> {
    let held = seq > this.leader_seq;
    if (held) {
      const reports = this.leader_reports;
      while (this.leader_reports === reports) {
        if (tail.stopped) return 'stopped';
        await sleep(held_message_poll_ms);
      }
      held = seq > this.leader_seq;
    }
    if (!held && first_digest === null) return null;
    if (held) this.log.warn({ seq, stream_leader_seq: this.leader_seq }, 'cluster: the standby\'s consumer delivered a message past the stream leader\'s end (a replica holds a batch the stream never committed); waiting for the leader\'s own copy');
    let failures = 0;
    for (;;) {
      if (tail.stopped) return 'stopped';
      if (seq <= this.leader_seq) {
        const stored = await this.jsm.streams.getMessage(stream_name, { seq }).catch((error) => {
          if (api_code(error) === no_message) return 'none' as const;
          // Said once a second at most: nats-server 2.9 refuses every message get while it sees no meta-group
          // leader, for up to 19 s after a partition (docs/cluster.md "Partitions, measured").
          if (failures++ % held_failures_per_log === 0) this.log.warn({ err: error, seq, failures }, 'cluster: reading the stream leader\'s copy of a held message failed; retrying');
          return null;
        });
        // The leader holds nothing there though its end lies past it: trimmed by a snapshot, which the consumer's
        // copy then shows (apply_parts: Behind). A held message waits on: the leader may not have stored it yet.
        if (stored === 'none' && !held) return null;
        if (stored !== null && stored !== 'none') {
          const digest = stored.header?.get(digest_header) ?? '';
          if (!held && digest === first_digest) return null;
          if (held) this.log.info({ seq, digest }, 'cluster: the stream\'s leader reached the held message\'s sequence; applying its copy');
          else this.log.warn({ seq, digest, delivered: first_digest }, 'cluster: the first message the standby\'s consumer delivered is not the stream leader\'s (a replica holds a batch the stream never committed); applying the leader\'s copy');
          return stored;
        }
      }
      await sleep(held_message_poll_ms);
    }
  }

  /** The tail's progress as the standby's lease checks last saw it (restart_stalled_tail). */
  private tail_seen = { seq: -1, since_ms: 0 };

  /**
   * Called by each lease check of a standby that follows a live leader, with the stream's last sequence: a
   * tail that applied nothing for timings.tail_stall_ms while the stream held more is stopped and started
   * again from the store's position. The client resets a consumer whose heartbeats stop, but a consumer
   * whose pulls the server keeps answering with nothing (its host lost the stream after a partition) never
   * misses one, and the standby then stayed behind for as long as its leader lived.
   */
  protected async restart_stalled_tail(stream_last_seq: number, now_ms: number): Promise<void> {
    if (this.tail === null || this.behind || this.diverged !== null) return;
    const reached = this.applied.seq + this.parts.length;
    if (reached >= stream_last_seq || reached !== this.tail_seen.seq) {
      this.tail_seen = { seq: reached, since_ms: now_ms };
      return;
    }
    const still_ms = now_ms - this.tail_seen.since_ms;
    if (still_ms < this.timings.tail_stall_ms) return;
    this.log.warn({ applied_seq: this.applied.seq, stream_seq: stream_last_seq, still_ms: Math.round(still_ms) }, 'cluster: the standby\'s tail applied nothing while the stream held more; restarting it');
    this.tail_seen = { seq: reached, since_ms: now_ms };
    await this.stop_tail();
    await this.applying;
    this.parts = [];
    this.start_tail();
  }

  protected async stop_tail(): Promise<void> {
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
  protected applying: Promise<void> = Promise.resolve();

  protected apply_part(seq: number, headers: MsgHdrs | undefined, data: Uint8Array): Promise<void> {
    return this.apply_parts([{ seq, headers, data }]);
  }

  /**
   * Applies consecutive messages (parts) in one LMDB transaction, each checked as it comes (its sequence, its part,
   * the batch it follows, its digest); a batch is applied once its last part arrived. All or nothing: a message that
   * fails its check fails the run before anything of it is written. The tail applies one message at a time, a
   * catch-up a run of up to catch_up_gets_in_flight_max (one commit for the run: see catch_up_gets_in_flight_max).
   */
  protected apply_parts(messages: readonly StreamPart[]): Promise<void> {
    const next = this.applying.then(() => this.apply_parts_now(messages));
    this.applying = next.catch(() => {});
    return next;
  }

  private async apply_parts_now(messages: readonly StreamPart[]): Promise<void> {
    let position = this.applied;
    let parts = this.parts;
    const changes: StagedChange[] = [];
    try {
      for (const { seq, headers, data } of messages) {
        const expected = position.seq + parts.length + 1;
        if (seq < expected) continue; // delivered again after a consumer reset
        if (seq > expected) {
          // The stream was trimmed past what this store holds: only a snapshot can bring it back.
          throw new Behind(`the stream jumped from ${expected - 1} to ${seq} (trimmed below this standby)`);
        }
        const digest = headers?.get(digest_header) ?? '';
        const [index, count] = (headers?.get(part_header) ?? '1/1').split('/').map(Number);
        if (index !== parts.length + 1) fail(`part ${index} of a batch at seq ${seq} after ${parts.length} parts`);
        const follows = headers?.get(follows_header) ?? '';
        if (index === 1 && follows !== '' && position.seq > 0 && follows !== position.digest) {
          throw new Diverged(`the batch at seq ${seq} follows ${follows}, but the batch this store applied at seq ${position.seq} is ${position.digest}`);
        }
        const with_part = [...parts, data];
        if (index < count) {
          parts = with_part;
          continue;
        }
        const bytes = with_part.length === 1 ? with_part[0] : Buffer.concat(with_part);
        if (digest_of(bytes) !== digest) fail(`the batch at seq ${seq} does not match its digest`);
        changes.push(...staged_changes(this.names!, decode_message(bytes)));
        parts = [];
        position = { seq, digest };
      }
    } catch (error) {
      // The batches of the run before the one that failed its check passed theirs: they are applied, as one
      // message at a time would have applied them, so that a repair starts from the last batch that
      // followed the chain (test/cluster-chain) rather than from the run's start.
      if (position !== this.applied) await this.write_batches(changes, position);
      this.parts = parts;
      throw error;
    }
    if (position !== this.applied) await this.write_batches(changes, position);
    this.parts = parts;
  }

  /**
   * A catch-up in progress (see catching_up): each run's commit is waited for, the flush to disk only once, at the
   * end, for the last one (a later commit's flush covers the earlier ones). A batch applied meanwhile but not yet
   * flushed is not lost by a crash in any way that matters: the store then restarts at an earlier position the
   * stream holds, and catches up again.
   */
  private catch_ups = 0;
  private unflushed: ReturnType<typeof write_changes> | null = null;

  /** Writes a replicated batch into the store: the leader's journal writes through the same function. */
  protected async apply(seq: number, bytes: Uint8Array, digest: string): Promise<void> {
    await this.write_batches(staged_changes(this.names!, decode_message(bytes)), { seq, digest });
  }

  /** Writes the changes of one or more batches and the position of the last, in one transaction. */
  private async write_batches(changes: StagedChange[], position: AppliedPosition): Promise<void> {
    changes.push(applied_change(this.store!, position));
    const written = write_changes(changes);
    await written;
    if (this.catch_ups > 0) this.unflushed = written;
    else await written.flushed;
    this.applied = position;
    if (position.seq > this.stream_seq) this.stream_seq = position.seq;
  }

  /** Runs a catch-up (see catch_ups): the batches it applies are flushed to disk once, when it ends. */
  protected async catching_up<T>(run: () => Promise<T>): Promise<T> {
    this.catch_ups++;
    try {
      return await run();
    } finally {
      if (--this.catch_ups === 0 && this.unflushed !== null) {
        const unflushed = this.unflushed;
        this.unflushed = null;
        await unflushed.flushed;
      }
    }
  }

  /**
   * The stream's messages up to `last`, by message get (which the stream's leader answers; with `replica_ok`, a
   * replica while none is answered, see stream_get), read up to catch_up_gets_in_flight_max ahead of the one asked
   * for: call it with ascending sequences. A get that fails fails the read of its own sequence only (a read ahead
   * that nobody reads is dropped unheard).
   */
  protected read_ahead(last: number, replica_ok = false): (seq: number) => Promise<StoredMsg | null> {
    const pending = new Map<number, Promise<StoredMsg | null>>();
    let next = 0;
    return (seq: number) => {
      for (const held of pending.keys()) if (held < seq) pending.delete(held);
      next = Math.max(next, seq);
      for (; next <= Math.min(last, seq + catch_up_gets_in_flight_max - 1); next++) {
        const get = this.stream_get(this.jsm, stream_name, { seq: next }, replica_ok);
        get.catch(() => {});
        pending.set(next, get);
      }
      const read = pending.get(seq) ?? this.stream_get(this.jsm, stream_name, { seq }, replica_ok);
      pending.delete(seq);
      return read;
    };
  }

  /**
   * Applies whatever the stream holds beyond this store (taking over, or fenced), reading ahead (read_ahead); from a
   * replica while JetStream answers no message get (the epoch has the stream's leader confirm it: take-over.ts).
   */
  protected async catch_up(): Promise<void> {
    const info = await this.jsm.streams.info(stream_name);
    this.stream_seq = info.state.last_seq;
    const get = this.read_ahead(info.state.last_seq, true);
    await this.catching_up(async () => {
      while (this.applied.seq + this.parts.length < info.state.last_seq) {
        const from = this.applied.seq + this.parts.length + 1;
        const run: StreamPart[] = [];
        for (let seq = from; seq <= Math.min(info.state.last_seq, from + catch_up_gets_in_flight_max - 1); seq++) {
          const stored = await get(seq);
          if (stored === null) throw new Behind(`the stream lacks message ${seq} (trimmed below this standby)`);
          run.push({ seq, headers: stored.header, data: stored.data });
        }
        await this.apply_parts(run);
      }
    });
  }
}
