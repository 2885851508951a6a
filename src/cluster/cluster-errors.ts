// How a cluster node's steps fail and how the node ends: the errors that steer the standby's loop and
// the take-over (a deposition, a start-up verdict, a standby behind the stream or diverged from it, no
// agreed stream leader), the exit codes a deposed or diverged node ends with (docs/cluster.md), and the
// JetStream error codes the node reads. Not here: what the node does about each (cluster-node.ts and
// the files it is built from).
import { JetStreamApiError } from '@nats-io/jetstream';

/** Exit code of a deposed leader (EX_TEMPFAIL): its supervisor restarts it, and it comes back as a standby. */
export const deposed_exit_code = 75;
/**
 * Exit code of a node that could not bring its store onto the stream leader's history after
 * divergence_repairs_max repairs (EX_PROTOCOL): restarting it would only repeat them, so the systemd
 * unit of docs/cluster.md names it in RestartPreventExitStatus and an operator looks at the NATS cluster.
 */
export const diverged_exit_code = 76;
/** JetStream's "wrong last sequence": another writer appended first. */
export const wrong_last_sequence = 10071;
/** JetStream's "no message found" (a message get at a sequence or subject that holds none). */
export const no_message = 10037;
/**
 * JetStream's "JetStream system temporarily unavailable" (503): nats-server 2.9 answers every message get so while
 * the server sees no meta-group leader (`jsMsgGetRequest`, `isLeaderless`), though the stream's own Raft leader is
 * there and takes appends (docs/cluster.md "Reads while JetStream has no meta leader").
 */
export const cluster_unavailable = 10008;
/** JetStream's "wrong last msg ID": the stream's last message is not the one a publish named (Nats-Expected-Last-Msg-Id). */
export const wrong_last_msg_id = 10070;

export function api_code(error: unknown): number | null {
  return error instanceof JetStreamApiError ? error.code : null;
}

export class Deposed extends Error {}

/** A start-up verdict that waiting cannot change (a foreign store, no snapshot to rebuild from): not retried. */
export class StartRefused extends Error {}

/** The stream no longer holds the batch this standby needs next: it reinstalls the latest snapshot. */
export class Behind extends Error {}

/**
 * The stream served a batch that does not follow the last one this store applied: the store holds
 * a batch the cluster does not (or the stream's copy served here does). The standby repairs its
 * store from the stream leader's history, in the same process (see repair).
 */
export class Diverged extends Error {}

/** JetStream does not agree on one leader of the journal stream now (electing, or a minority): ask again later. */
export class NoAgreedLeader extends Error {}
