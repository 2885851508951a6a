// The leader's appender of the journal stream (docs/cluster.md "Replicated group commit"): each group commit encoded
// once, split into parts below the server's max_payload, and published after the sequence it expects to follow
// (an older leader's append then fails with "wrong last sequence"), one batch after another; a batch is
// acknowledged only once the stream took it while the lease holds. Not here: the journal that calls it
// (journal/journal.ts, through JournalAppender), the standby's side of the stream (stream-follower.ts).
import { headers as nats_headers } from '@nats-io/transport-node';
import type { StagedChange } from '../journal/journal.js';
import { acked_change, applied_change, digest_of, encode_message, stream_name, stream_subject } from './codec.js';
import { Deposed, api_code, wrong_last_msg_id, wrong_last_sequence } from './cluster-errors.js';
import { digest_header, follows_header, message_id, part_header } from './stream-headers.js';
import { AssertionError, fail } from '../lib/assert.js';
import { sleep } from './monotonic.js';
import { LeaseHolder } from './lease.js';

/** Bytes kept free under the server's max_payload for headers when a batch is split into parts. */
const part_headroom_bytes = 8 * 1024;

export abstract class StreamAppender extends LeaseHolder {
  /** Leader: the sequence the next append follows. */
  protected last_seq = 0;
  /** Leader: appends run one after another; a failed one fails every later one. */
  private chain: Promise<void> = Promise.resolve();

  append(changes: readonly StagedChange[]): { changes: StagedChange[]; appended: Promise<void> } {
    if (this.role !== 'leader' || this.store === null) {
      const refused = Promise.reject(new Deposed('this node does not lead the cluster'));
      refused.catch(() => {});
      // The journal writes nothing of a refused batch (it writes a batch once the stream took it).
      return { changes: [], appended: refused };
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
    const appended = this.chain.then(async () => {
      for (let i = 0; i < parts.length; i++) {
        const outcome = await this.publish_part(parts[i], first - 1 + i, digest, `${i + 1}/${parts.length}`, follows, true);
        if (outcome !== 'appended') throw new Deposed('another leader appended to the stream');
      }
      // Acknowledged only while the lease holds: a leader paused past it answers nothing any more.
      if (!this.lease_valid()) throw new Deposed('the lease ran out while the batch was appended');
      this.acked_seq = seq;
      if (seq > this.stream_seq) this.stream_seq = seq;
      if (this.log.isLevelEnabled('debug')) this.log.debug({ seq, digest }, 'cluster: batch acknowledged');
    });
    appended.catch((error) => this.depose((error as Error).message));
    this.chain = appended;
    // The journal writes these once the stream acknowledged the batch, so the batch's own sequence is what the
    // stream has acknowledged by then (codec.ts acked_key): the start-up check tells from it a stream that lost
    // acknowledged batches.
    return { changes: [applied_change(this.store, { seq, digest }), acked_change(this.store, seq)], appended };
  }

  /**
   * Appends one part after `after_seq`. Transient failures (a NATS node down, a timeout) are retried
   * until the lease would run out; a "wrong last sequence" answer is ours when the stream holds our
   * part there (an earlier attempt landed), else another writer's: 'fenced'. With `after_id`, the stream's
   * leader also checks that its last message is that one (Nats-Expected-Last-Msg-Id): 'unconfirmed' when it
   * is not, or when the leader cannot tell (see take-over.ts, the epoch after reads from a replica).
   */
  protected async publish_part(data: Uint8Array, after_seq: number, digest: string, part: string, follows: string, bounded_by_lease: boolean, after_id: string | null = null): Promise<'appended' | 'fenced' | 'unconfirmed'> {
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
        const expect = after_id === null ? { lastSequence: after_seq } : { lastSequence: after_seq, lastMsgID: after_id };
        const ack = await this.watched(this.js.publish(stream_subject, data, { msgID: message_id(after_seq + 1, digest), expect, headers, timeout }));
        if (ack.seq !== after_seq + 1) fail(`appended at ${ack.seq}, expected ${after_seq + 1}`);
        return 'appended';
      } catch (error) {
        if (error instanceof AssertionError) throw error;
        if (api_code(error) === wrong_last_msg_id) return 'unconfirmed';
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
}
