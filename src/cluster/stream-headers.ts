// The NATS headers every message of the journal stream carries beside its bytes (cluster/codec.ts
// encodes the bytes): the batch's digest, which part of the batch a message is, and the digest of the
// batch it follows. Written by the appender (stream-appender.ts), read by the standby (stream-follower.ts),
// the repair (divergence-repair.ts) and the start-up check (store-preparation.ts).

export const digest_header = 'Billvend-Digest';
export const part_header = 'Billvend-Part';
/**
 * The digest of the batch a message follows (the one at the sequence before it): the stream's
 * batches form a chain, so a standby that was served a batch the stream's leader does not hold at
 * that sequence (a replica that diverged, or another leader's late append) stops at the next batch
 * instead of building on it (see Diverged). Absent on messages of older versions: not checked then.
 */
export const follows_header = 'Billvend-Follows';

/**
 * Every message's Nats-Msg-Id: its sequence and its batch's digest, so that the stream's leader itself can say
 * whether its last message is a given batch (a publish with Nats-Expected-Last-Msg-Id, which the stream's Raft
 * leader checks while no message get is answered: take-over.ts). Unique per position, so the server's
 * duplicate window only ever recognises a retry of the same part at the same sequence (answered as appended
 * there). Absent on messages of older versions.
 */
export function message_id(seq: number, digest: string): string {
  return `${seq}.${digest}`;
}
