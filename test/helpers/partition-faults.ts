// The partition faults of the cluster tests (docs/cluster.md "Partitions, measured"), shared by
// test/cluster-partitions.test.ts and the crash campaign's partition rounds (test/crash/campaign-partitions.ts):
// which members each cut separates, how long it is held, and how the write pause of a cut is measured.
import type { NetnsLab } from './netns.js';
import { stream_leader, wait_until } from './nats-cluster.js';
import { stream_name } from '../../src/cluster/codec.js';
import { lease_bucket } from '../../src/cluster/lease.js';

/** A seeded source of numbers in [0, 1) (mulberry32): the flaky links of a run can be drawn again. */
export function seeded_random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One fault: what it separates (applied by `cut`), how long until the heal, and whether a majority of NATS servers stays whole. */
export interface PartitionFault {
  label: string;
  cut: () => void;
  hold_ms: number;
  /** A side keeps two NATS servers and a node that can lead: the pause target applies. */
  majority_left: boolean;
}

/** The name of the NATS server leading the journal stream's Raft group, waited for (30 s at most). */
export async function journal_leader(lab: NetnsLab): Promise<string> {
  return wait_until('the journal stream to have a leader', () => stream_leader({ url: lab.nats_url }), 30_000);
}

/** The NATS server a node is connected to (its /admin/cluster `nats_server`, "address:port"), by member name. */
export function server_of(lab: NetnsLab, nats_server: string | null | undefined): string {
  return lab.nats.find((node) => nats_server?.startsWith(`${node.address}:`) === true)?.name ?? lab.nats[0].name;
}

/** The journal stream's Raft leader cut off from the other two servers (the nodes still reach it). */
export async function stream_leader_cut(lab: NetnsLab, hold_ms: number): Promise<PartitionFault> {
  const cut_off = await journal_leader(lab);
  const others = lab.nats.map((node) => node.name).filter((name) => name !== cut_off);
  return { label: `stream leader ${cut_off} cut off`, cut: () => lab.partition([cut_off], others), hold_ms, majority_left: true };
}

/** The leader and the standby's own NATS server on one side; the standby and the two other servers on the other. */
export function standby_server_with_leader(lab: NetnsLab, leader: string, standby: string, standby_server: string, hold_ms: number): PartitionFault {
  const rest = lab.nats.map((node) => node.name).filter((name) => name !== standby_server);
  return {
    label: `leader ${leader} + ${standby_server} | standby ${standby} + ${rest.join(' + ')}`,
    cut: () => lab.partition([leader, standby_server], [standby, ...rest]),
    hold_ms,
    majority_left: true,
  };
}

/**
 * The leader node cut off from the NATS majority: it keeps one server (the one it uses, unless that is the
 * standby's, then another), the standby and the other two are on the other side; the standby must take over.
 */
export function leader_from_majority(lab: NetnsLab, leader: string, standby: string, leader_server: string, standby_server: string, hold_ms: number): PartitionFault {
  const names = lab.nats.map((node) => node.name);
  const kept = leader_server !== standby_server ? leader_server : names.find((name) => name !== standby_server)!;
  const rest = names.filter((name) => name !== kept);
  return {
    label: `leader ${leader} + ${kept} | standby ${standby} + ${rest.join(' + ')}`,
    cut: () => lab.partition([leader, kept], [standby, ...rest]),
    hold_ms,
    majority_left: true,
  };
}

/** Flaky links: for `duration_ms`, a random pair of members is cut for 200-700 ms at a time. */
export function flaky_links(lab: NetnsLab, random: () => number, duration_ms: number): PartitionFault {
  const members = [...lab.members.keys()];
  return {
    label: `flaky links for ${duration_ms / 1000} s`,
    cut: () => {
      const until = Date.now() + duration_ms;
      void (async () => {
        while (Date.now() < until) {
          const a = members[Math.floor(random() * members.length)];
          const b = members[Math.floor(random() * members.length)];
          if (a !== b) lab.cut(a, b);
          await sleep(200 + Math.floor(random() * 500));
          lab.heal_all();
        }
      })();
    },
    hold_ms: duration_ms + 500,
    majority_left: false,
  };
}

/**
 * The longest gap between acknowledgements (times in ms, ascending) that began during the cut: from `cut_ms`
 * or an acknowledgement before `healed_ms`, to the next one. A gap that began during the cut and ran past the
 * heal counts in full, to the first acknowledgement after it (or to `now_ms`, when none came yet).
 */
export function longest_pause(acknowledged_ms: readonly number[], cut_ms: number, healed_ms: number, now_ms = Date.now()): { pause_ms: number; past_heal: boolean; resumed: boolean; from_ms: number } {
  let last = cut_ms;
  let longest = { pause_ms: 0, past_heal: false, resumed: false, from_ms: cut_ms };
  for (const at_ms of acknowledged_ms) {
    if (at_ms < cut_ms) continue;
    if (at_ms - last > longest.pause_ms) longest = { pause_ms: at_ms - last, past_heal: at_ms >= healed_ms, resumed: true, from_ms: last };
    if (at_ms >= healed_ms) return longest;
    last = at_ms;
  }
  return now_ms - last > longest.pause_ms ? { pause_ms: now_ms - last, past_heal: true, resumed: false, from_ms: last } : longest;
}

/** The leader elections nats-server 2.9 logs at INF, by what they elect (its server/jetstream_cluster.go's lines). */
export type NatsElection = 'journal' | 'lease' | 'meta';

/** The lines an elected server logs for the journal's and the lease bucket's streams. */
const journal_election = `new stream leader for '$G > ${stream_name}'`;
const lease_election = `new stream leader for '$G > KV_${lease_bucket}'`;

/**
 * The leader elections a NATS server's log holds between two times (ms), as the elected server logs them:
 * `JetStream cluster new stream leader for '$G > BILLVEND_JOURNAL'` (or the lease bucket's `KV_billvend-lease`)
 * and `Self is new JetStream cluster metadata leader`. The log's times are the server's local clock
 * (`[pid] 2026/11/29 23:08:16.888923 [INF] …`), read as this process's local time: the servers run on this machine.
 */
export function nats_elections(log: string, from_ms: number, to_ms: number): { what: NatsElection; at_ms: number }[] {
  const out: { what: NatsElection; at_ms: number }[] = [];
  for (const line of log.split('\n')) {
    const what: NatsElection | null = line.includes(journal_election) ? 'journal'
      : line.includes(lease_election) ? 'lease'
      : line.includes('Self is new JetStream cluster metadata leader') ? 'meta' : null;
    if (what === null) continue;
    const time = /(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{3})/.exec(line);
    if (time === null) continue;
    const [, y, mo, d, h, mi, sec, ms] = time.map(Number);
    const at_ms = new Date(y, mo - 1, d, h, mi, sec, ms).getTime();
    if (at_ms >= from_ms && at_ms <= to_ms) out.push({ what, at_ms });
  }
  return out.sort((a, b) => a.at_ms - b.at_ms);
}
