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
