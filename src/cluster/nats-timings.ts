// How quickly a node gives up on a NATS server that stopped answering, derived from the lease.
//
// The NATS client pings its server every two minutes by default and gives up after two pings without
// an answer, and connect() keeps those defaults. A node whose server sat on the far side of a partition
// (or froze) therefore stayed attached to it for minutes: a standby could not take over until the
// partition healed, and a leader could not renew through a reachable server. Every timing here is a
// fraction of CLUSTER_LEASE_MS, so a dead server is noticed, and another one dialled, within a lease
// (docs/cluster.md "Timeouts").

export interface NatsTimings {
  /** How often the client pings its server. */
  ping_interval_ms: number;
  /** Pings without an answer before the client drops the server: it notices within (max_pings_out + 1) pings. */
  max_pings_out: number;
  /** How long one dial (TCP, then the server's INFO) may take: a frozen server can accept TCP and never speak. */
  connect_timeout_ms: number;
  /** The wait before the client dials the same server again. */
  reconnect_wait_ms: number;
  /** JetStream and KV requests (appends have their own, shorter, timeout). */
  request_timeout_ms: number;
  /**
   * A lease renewal or an append still unanswered after this long makes the node ping its server; a server that
   * does not answer the ping within as long again is dropped and another one dialled (see probe_ms_for).
   */
  probe_after_ms: number;
  /**
   * A standby's lease check (the key, the journal's end) gives up after this long: a request sent while a
   * stream has no Raft leader is never answered, and the check after the election must not wait it out.
   */
  check_timeout_ms: number;
  /** An append tried again (the first attempt timed out: NATS electing, or the server gone) waits this long for its answer. */
  append_retry_timeout_ms: number;
  /**
   * How long each pull of the standby's tail stays open. The client expects the server's heartbeats at half
   * this and resets its consumer after two missed (nats.js ConsumeOptions: `expires`, `idle_heartbeat`
   * defaulting to expires / 2): the default pull of 30 s left a tail whose pull the server dropped (a cut
   * link) idle for 30 s before it asked again.
   */
  tail_pull_expires_ms: number;
  /** A standby whose tail applied nothing for this long while the stream held more restarts it (StreamFollower.restart_stalled_tail). */
  tail_stall_ms: number;
  /**
   * A node finding the journal shorter than a sequence it knows was acknowledged (the lease's mark at a take-over,
   * its own at start-up; StorePreparation.stream_lacks_acknowledged) asks the stream's Raft leader to step down at
   * most this often, so that a replica holding the batches can be elected, and after lost_acknowledged_wait_ms
   * goes on with the journal as it is.
   */
  stepdown_interval_ms: number;
  lost_acknowledged_wait_ms: number;
}

/**
 * A server that does not answer is dropped within a lease (at the third ping of a third of a lease each), and
 * the next one is dialled. Not sooner: a server silent for less than two thirds of a lease (a pause, a busy
 * machine) is never dropped, since dropping it loses the requests in flight, a lease renewal among them.
 */
export function nats_timings(lease_ms: number): NatsTimings {
  const max_pings_out = 2;
  const ping_interval_ms = Math.max(100, Math.floor(lease_ms / 3));
  return {
    ping_interval_ms,
    max_pings_out,
    connect_timeout_ms: Math.max(200, Math.floor(lease_ms / 2)),
    reconnect_wait_ms: Math.max(50, Math.min(250, Math.floor(lease_ms / 10))),
    request_timeout_ms: Math.max(2000, lease_ms),
    probe_after_ms: Math.max(100, Math.floor(lease_ms / 6)),
    check_timeout_ms: Math.max(300, Math.floor(lease_ms / 3)),
    append_retry_timeout_ms: Math.max(250, Math.floor(lease_ms / 6)),
    // nats.js refuses a pull shorter than 1 s.
    tail_pull_expires_ms: Math.max(1000, lease_ms),
    tail_stall_ms: Math.max(2000, 2 * lease_ms),
    // A JetStream election takes a few seconds on nats-server 2.9 (its Raft's election timeout is 2-5 s).
    stepdown_interval_ms: Math.max(3000, lease_ms),
    lost_acknowledged_wait_ms: Math.max(15_000, 5 * lease_ms),
  };
}
