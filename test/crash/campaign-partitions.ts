// Partition rounds of the cluster crash campaign (CRASH_CLUSTER=1 CRASH_PARTITIONS=1; test/crash/README.md
// "Partitions"): the campaign's NATS servers and both nodes run each in a network namespace of its own
// (test/helpers/netns.ts), and a partition round cuts the cluster during its load with one of the faults of
// test/helpers/partition-faults.ts, holds the cut, heals it, and waits for one leader; the leader's kill -9 of
// the round comes after, as in every round. The campaign's checkers then judge everything the cluster
// acknowledged through the cut, as they judge the rest.
//
// Recorded per fault: what was cut, the write pause (the longest gap between acknowledgements that began during
// the cut, test/helpers/partition-faults.ts `longest_pause`), the time from the heal to one leader, and every
// node exit (a deposed leader exits 75 and is started again, as systemd's Restart=always would: at most one
// exit per node and fault is the bar of test/cluster-partitions.test.ts).
import type { TestServer } from '../helpers/server.js';
import type { NetnsLab } from '../helpers/netns.js';
import { cluster_status, replicas_current, wait_until } from '../helpers/nats-cluster.js';
import {
  flaky_links,
  leader_from_majority,
  seeded_random,
  server_of,
  standby_server_with_leader,
  stream_leader_cut,
  longest_pause,
  nats_elections,
  type NatsElection,
  type PartitionFault,
} from '../helpers/partition-faults.js';
import { readFileSync } from 'node:fs';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The faults, in turn: the stream leader's server cut off twice in a row, then the others once each. */
export const partition_kinds = ['stream_leader', 'stream_leader', 'standby_server_with_leader', 'leader_from_majority', 'flaky_links'] as const;
export type PartitionKind = typeof partition_kinds[number];

export interface PartitionRecord {
  kind: PartitionKind;
  label: string;
  /** ms from the round's start (before its load) until every replica of the journal and lease bucket was current; null when they were not within the wait. */
  replicas_current_ms: number | null;
  hold_ms: number;
  pause_ms: number;
  /** The longest pause ran past the heal (it counts in full). */
  past_heal: boolean;
  /**
   * The leader elections NATS logged during the longest pause, in ms from its start: the journal stream's, the lease
   * bucket's and JetStream's meta group's (nats_elections). What of the pause came after the last of them was
   * billvend's (its lease, its take-over) or NATS's catching up; what came before, NATS electing.
   */
  elections: { what: NatsElection; into_pause_ms: number }[];
  /** From the heal until exactly one node led with /readyz 200; null when that took longer than the wait. */
  one_leader_ms: number | null;
  /**
   * Node exits during the fault (cut to both nodes back), by node name, with their exit codes; and a leader's exit
   * in the rest of the round's load, before its kill (`after: true`: NATS re-electing after the heal; see
   * exit_after_fault).
   */
  exits: { node: string; code: number | null; after?: true }[];
  /** No node exited more than once during the fault. */
  exits_ok: boolean;
  /** Starts again after an exit that failed (and were tried again). */
  failed_starts: number;
  /** Nodes that came back as leader and caught-up standby (within standby_lag_max batches) within 60 s of the one leader. */
  both_back: boolean;
}

/** What the campaign lets the partition rounds see and change. */
export interface PartitionHost {
  /** The campaign's leader (the load's target) and standby now. */
  leader(): TestServer;
  standby(): TestServer;
  /** The load goes to this node from now on (it was seen leading). */
  lead(node: TestServer): void;
  /** Times (ms) of the answers acknowledged in this round's load, ascending. */
  acknowledged_ms(): number[];
}

const replicas_wait_ms = 120_000;
const one_leader_wait_ms = 40_000;
/** Batches a standby may be behind to count as caught up while the load goes on. */
const standby_lag_max = 10;

export class PartitionDriver {
  readonly records: PartitionRecord[] = [];
  private readonly random: () => number;
  private faults = 0;
  /** The fault window: from the cut until both nodes are back. Errors of the load are expected meanwhile. */
  on = false;
  private finding: Promise<TestServer | null> | null = null;

  constructor(
    readonly lab: NetnsLab,
    readonly seed: number,
    readonly lease_ms: number,
    private readonly names: Map<TestServer, string>,
    /** The NATS servers' log files (each server's output as it comes), read for the elections during a pause. */
    private readonly nats_logs: () => string[] = () => [],
  ) {
    this.random = seeded_random(seed);
  }

  /**
   * Waits until every replica of the journal and the lease bucket is current (up to 120 s after a heal: nats-server
   * 2.9's replicas took 60-100 s to catch up after repeated heals, docs/cluster.md "Partitions, measured"), so that a
   * cut never comes while a replica still catches up, which would leave no current majority on either side.
   */
  async settle(): Promise<number | null> {
    const started = Date.now();
    const current = await wait_until('every replica of the journal and the lease bucket to be current', () => replicas_current({ url: this.lab.nats_url }, ['BILLVEND_JOURNAL', 'KV_billvend-lease'], this.lab.nats.length - 1), replicas_wait_ms)
      .then(() => true, () => false);
    return current ? Date.now() - started : null;
  }

  private static running(node: TestServer): boolean {
    const child = (node as unknown as { child: { exitCode: number | null; signalCode: string | null } | null }).child;
    return child !== null && child.exitCode === null && child.signalCode === null;
  }

  private static exit_code(node: TestServer): number | null {
    return (node as unknown as { child: { exitCode: number | null } | null }).child?.exitCode ?? null;
  }

  /** Whether a node leads and takes requests (role leader, /readyz 200), within 1.5 s. */
  private static async leads(node: TestServer): Promise<boolean> {
    if (!PartitionDriver.running(node)) return false;
    const probe = (async () => {
      const ready = await node.admin('GET', '/readyz');
      return ready.status === 200 && (await cluster_status(node)).role === 'leader';
    })().catch(() => false);
    return Promise.race([probe, sleep(1_500).then(() => false)]);
  }

  /**
   * For the load during a fault (as HAProxy polls /readyz): waits until a node leads, and makes it the load's
   * target. One search at a time, shared by every writer that met an error; gives up after `wait_ms`.
   */
  find_leader(host: PartitionHost, wait_ms = 60_000): Promise<TestServer | null> {
    this.finding ??= (async () => {
      try {
        const deadline = Date.now() + wait_ms;
        while (Date.now() < deadline) {
          for (const node of [host.leader(), host.standby()]) {
            if (await PartitionDriver.leads(node)) {
              if (node !== host.leader()) host.lead(node);
              return node;
            }
          }
          await sleep(100);
        }
        return null;
      } finally {
        this.finding = null;
      }
    })();
    return this.finding;
  }

  private async fault_for(kind: PartitionKind, host: PartitionHost): Promise<PartitionFault> {
    const hold_ms = 4 * this.lease_ms;
    if (kind === 'stream_leader') return stream_leader_cut(this.lab, hold_ms);
    if (kind === 'flaky_links') return flaky_links(this.lab, this.random, hold_ms);
    const leader = host.leader();
    const standby = host.standby();
    const status_of = async (node: TestServer) => (await cluster_status(node).catch(() => null))?.nats_server as string | null | undefined;
    const standby_server = server_of(this.lab, await status_of(standby));
    if (kind === 'standby_server_with_leader') return standby_server_with_leader(this.lab, this.names.get(leader)!, this.names.get(standby)!, standby_server, hold_ms);
    return leader_from_majority(this.lab, this.names.get(leader)!, this.names.get(standby)!, server_of(this.lab, await status_of(leader)), standby_server, hold_ms);
  }

  /**
   * One fault during the load: cut, hold, heal, one leader, the load's writes resumed, both nodes back. Nodes that
   * exit meanwhile are started again on their stores (LMDB_RESTORE=safe). Returns with the campaign's leader
   * leading and its standby running, ready for the round's kill.
   */
  async run(host: PartitionHost, replicas_current_ms: number | null): Promise<PartitionRecord> {
    const kind = partition_kinds[this.faults++ % partition_kinds.length];
    const fault = await this.fault_for(kind, host);
    fault.label = `${kind}: ${fault.label}`;
    const nodes = [host.leader(), host.standby()];
    const exits: { node: string; code: number | null }[] = [];
    let failed_starts = 0;
    let supervising = true;
    const restarts = new Map<TestServer, Promise<void>>();
    const supervisor = (async () => {
      while (supervising) {
        for (const node of nodes) {
          if (PartitionDriver.running(node) || restarts.has(node)) continue;
          const code = PartitionDriver.exit_code(node);
          exits.push({ node: this.names.get(node)!, code });
          // Exit 76: the node gave up repairing its store; docs/cluster.md's unit does not restart it (RestartPreventExitStatus).
          if (code === 76) continue;
          restarts.set(node, (async () => {
            for (let attempt = 1; attempt <= 20; attempt++) {
              try {
                await node.start({ LMDB_RESTORE: 'safe' });
                return;
              } catch {
                // A node started behind a cut waits for JetStream and may give up (exit 1): started again, as systemd
                // does. Counted apart from exits, as test/cluster-partitions.test.ts's Supervisor does.
                failed_starts++;
                await sleep(500);
              }
            }
          })().finally(() => restarts.delete(node)));
        }
        await sleep(100);
      }
    })();

    this.on = true;
    const cut_ms = Date.now();
    fault.cut();
    await sleep(fault.hold_ms);
    this.lab.heal_all();
    const healed_ms = Date.now();
    let one_leader_ms: number | null = null;
    await wait_until('one leader after the heal', async () => {
      const roles = await Promise.all(nodes.map((node) => (PartitionDriver.running(node) ? cluster_status(node).then((status) => status.role as string, () => null) : null)));
      if (roles.filter((role) => role === 'leader').length !== 1) return false;
      const leader = nodes[roles.indexOf('leader')];
      if (!(await PartitionDriver.leads(leader))) return false;
      one_leader_ms = Date.now() - healed_ms;
      if (leader !== host.leader()) host.lead(leader);
      return true;
    }, one_leader_wait_ms).catch(() => {});
    // Writes acknowledged again after the heal, so that a pause that outlasted the cut has its end.
    await wait_until('a write acknowledged after the heal', async () => host.acknowledged_ms().some((at_ms) => at_ms >= healed_ms), 30_000).catch(() => {});
    const pause = longest_pause(host.acknowledged_ms(), cut_ms, healed_ms);
    const elections = this.elections_in(pause.from_ms, pause.from_ms + pause.pause_ms);
    // Both nodes back (a node started again after an exit is a standby) before the round's kill.
    const both_back = await wait_until('the leader and a caught-up standby', async () => {
      const leader = await this.find_leader(host, 2_000);
      if (leader === null) return false;
      const other = leader === nodes[0] ? nodes[1] : nodes[0];
      if (!PartitionDriver.running(other)) return false;
      const status = await cluster_status(other);
      // Caught up: within a few batches of the leader (the load goes on, so an exact 0 may never be polled).
      return status.role === 'standby' && status.lag <= standby_lag_max;
    }, 60_000).then(() => true, () => false);
    supervising = false;
    await supervisor;
    await Promise.all([...restarts.values()]);
    const per_node = new Map<string, number>();
    for (const exit of exits) per_node.set(exit.node, (per_node.get(exit.node) ?? 0) + 1);
    const record: PartitionRecord = {
      kind,
      label: fault.label,
      replicas_current_ms,
      hold_ms: fault.hold_ms,
      pause_ms: pause.pause_ms,
      past_heal: pause.past_heal,
      elections,
      one_leader_ms,
      exits,
      exits_ok: [...per_node.values()].every((count) => count <= 1),
      failed_starts,
      both_back,
    };
    this.records.push(record);
    return record;
  }

  /**
   * The leader exited by itself after the fault's record was taken (both nodes back) and before the round's kill:
   * deposed because its lease ran out while the stream took no append, as JetStream elected its streams' leaders
   * again after the heal (exit 75). It counts with the fault's exits; returns whether this node had exited for the
   * same fault already.
   */
  exit_after_fault(node: TestServer, code: number | null): boolean {
    const record = this.records.at(-1);
    if (record === undefined) return false;
    const name = this.names.get(node) ?? '?';
    const before = record.exits.filter((exit) => exit.node === name).length;
    record.exits.push({ node: name, code, after: true });
    if (before > 0) record.exits_ok = false;
    return before > 0;
  }

  /** The elections NATS logged between two times, in ms from the first (none when its logs cannot be read). */
  private elections_in(from_ms: number, to_ms: number): { what: NatsElection; into_pause_ms: number }[] {
    const found: { what: NatsElection; at_ms: number }[] = [];
    for (const file of this.nats_logs()) {
      try {
        found.push(...nats_elections(readFileSync(file, 'utf8'), from_ms, to_ms));
      } catch {
        // A server's log not written yet: nothing of it.
      }
    }
    return found.sort((a, b) => a.at_ms - b.at_ms).map((e) => ({ what: e.what, into_pause_ms: e.at_ms - from_ms }));
  }

  /** The part of a fault's pause after NATS's last election in it (the whole pause when NATS elected nothing then). */
  static after_elections_ms(record: PartitionRecord): number {
    const last = record.elections.at(-1);
    return last === undefined ? record.pause_ms : Math.max(0, record.pause_ms - last.into_pause_ms);
  }

  /** One line for the summary: faults by kind, pauses, times to one leader, exits. */
  summary(): string {
    const by_kind = partition_kinds.filter((kind, i) => partition_kinds.indexOf(kind) === i).map((kind) => {
      const records = this.records.filter((record) => record.kind === kind);
      if (records.length === 0) return `${kind} 0`;
      const pauses = records.map((record) => record.pause_ms).sort((a, b) => a - b);
      const leaders = records.map((record) => record.one_leader_ms);
      return `${kind} ${records.length} (write pause median ${pauses[Math.floor(pauses.length / 2)]} ms, longest ${pauses[pauses.length - 1]} ms; `
        + `one leader after the heal longest ${Math.max(...leaders.map((ms) => ms ?? Infinity))} ms; exits ${records.reduce((sum, record) => sum + record.exits.length, 0)})`;
    });
    const cuts = this.records.filter((record) => record.kind !== 'flaky_links');
    const over = cuts.filter((record) => record.pause_ms > this.lease_ms + 5_000);
    const after = over.map((record) => PartitionDriver.after_elections_ms(record)).sort((a, b) => a - b);
    const split = over.length === 0 ? '' : ` (of their pauses, after NATS's last election in them: median ${after[Math.floor(after.length / 2)]} ms, longest ${after[after.length - 1]} ms; `
      + `${over.filter((record) => PartitionDriver.after_elections_ms(record) > this.lease_ms + 5_000).length} over the lease plus 5 s counted from there)`;
    return `partitions (seed ${this.seed}, lease ${this.lease_ms} ms): ${this.records.length} faults: ${by_kind.join(', ')}; `
      + `${over.length} of ${cuts.length} cuts leaving a majority paused writes longer than the lease plus 5 s${split}; `
      + `${this.records.filter((record) => !record.exits_ok).length} faults with a node exiting twice; ${this.records.filter((record) => record.one_leader_ms === null).length} without one leader within ${one_leader_wait_ms / 1000} s of the heal`;
  }
}
