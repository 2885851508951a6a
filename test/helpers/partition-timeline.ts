// What happens during one cut of test/cluster-partitions.test.ts, step by step, with times from the cut:
// how each NATS server sees the leaders of the journal stream and of the lease bucket (polled from the test's
// own namespace, which no cut reaches), what each billvend node logged about the cluster, and what the writer
// was answered. Printed with PARTITION_TIMELINE=1, to tell nats-server's own election time from billvend's
// share of a write pause (docs/cluster.md "Partitions, measured").
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';

/** One view of one server at one time: who leads each stream, or why it could not say. */
interface View {
  at_ms: number;
  server: string;
  journal: string;
  lease: string;
}

/** Polls every NATS server's view of the journal's and the lease bucket's Raft leaders, keeping only the changes. */
export class RaftLeaderWatch {
  readonly changes: View[] = [];
  /** Changes kept at most (a flapping view over a long run). */
  static readonly changes_max = 10_000;
  private stopped = false;
  private polling: Promise<void> = Promise.resolve();
  private readonly managers: { server: string; nc: NatsConnection; jsm: JetStreamManager }[] = [];

  private constructor(private readonly poll_ms: number) {}

  /** One connection per server (`name → nats://…`), each pinned to that server alone. */
  static async start(servers: Map<string, string>, poll_ms = 100): Promise<RaftLeaderWatch> {
    const watch = new RaftLeaderWatch(poll_ms);
    for (const [server, url] of servers) {
      const nc = await connect({ servers: [url], timeout: 1000, pingInterval: 1000, maxPingOut: 2, reconnectTimeWait: 250, maxReconnectAttempts: -1 });
      watch.managers.push({ server, nc, jsm: await jetstreamManager(nc, { timeout: 500 }) });
    }
    watch.polling = watch.poll();
    return watch;
  }

  private async poll(): Promise<void> {
    const last = new Map<string, string>();
    while (!this.stopped) {
      await Promise.all(this.managers.map(async ({ server, jsm }) => {
        const leader_of = async (stream: string): Promise<string> => {
          try {
            const info = await jsm.streams.info(stream);
            const cluster = info.cluster;
            const current = 1 + (cluster?.replicas ?? []).filter((replica) => replica.current && !replica.offline).length;
            return `${cluster?.leader ?? 'none'}(${current} current)`;
          } catch (error) {
            return `error: ${(error as Error).message.slice(0, 60)}`;
          }
        };
        const [journal, lease] = await Promise.all([leader_of('BILLVEND_JOURNAL'), leader_of('KV_billvend-lease')]);
        const key = `${journal} ${lease}`;
        if (last.get(server) === key) return;
        last.set(server, key);
        this.changes.push({ at_ms: Date.now(), server, journal, lease });
        if (this.changes.length > RaftLeaderWatch.changes_max) this.changes.splice(0, RaftLeaderWatch.changes_max / 2);
      }));
      await new Promise((resolve) => setTimeout(resolve, this.poll_ms));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.polling;
    for (const { nc } of this.managers) await nc.close().catch(() => {});
  }
}

const offset = (at_ms: number, from_ms: number): string => `${at_ms - from_ms >= 0 ? '+' : ''}${((at_ms - from_ms) / 1000).toFixed(2)} s`;

/**
 * The lines of one cut's timeline, in time order, from `from_ms` (the cut) to `to_ms`: the leader views that
 * changed, the billvend nodes' cluster log lines, and the writer's answers collapsed into runs.
 */
export function timeline(options: {
  cut_ms: number;
  healed_ms: number;
  to_ms: number;
  views: readonly View[];
  logs: { name: string; lines: readonly string[] }[];
  acknowledged: readonly { at_ms: number }[];
  refusals: readonly { at_ms: number; node: number; status: number }[];
  node_names: readonly string[];
}): string[] {
  const { cut_ms, healed_ms, to_ms } = options;
  const from_ms = cut_ms - 1000;
  const events: { at_ms: number; text: string }[] = [{ at_ms: cut_ms, text: '--- cut' }, { at_ms: healed_ms, text: '--- healed' }];
  for (const view of options.views) {
    if (view.at_ms >= from_ms && view.at_ms <= to_ms) events.push({ at_ms: view.at_ms, text: `${view.server} sees journal leader ${view.journal}, lease bucket leader ${view.lease}` });
  }
  for (const { name, lines } of options.logs) {
    for (const line of lines) {
      if (!line.includes('"msg":"cluster:') && !line.includes('"msg":"listening"')) continue;
      let parsed: { time?: string; msg?: string; reason?: string; err?: { message?: string }; server?: string; holder?: string; seq?: number };
      try {
        parsed = JSON.parse(line);
      } catch {
        continue;
      }
      const at_ms = Date.parse(parsed.time ?? '');
      if (!(at_ms >= from_ms && at_ms <= to_ms)) continue;
      const detail = parsed.reason ?? parsed.err?.message ?? parsed.server ?? parsed.holder ?? (parsed.seq !== undefined ? `seq ${parsed.seq}` : '');
      events.push({ at_ms, text: `${name}: ${parsed.msg}${detail ? ` [${String(detail).slice(0, 120)}]` : ''}` });
    }
  }
  // The writer: runs of acknowledgements, and the refusals between two of them on one line, counted by answer.
  const answers = [
    ...options.acknowledged.map((ack) => ({ at_ms: ack.at_ms, what: null as string | null })),
    ...options.refusals.map((refusal) => ({ at_ms: refusal.at_ms, what: `${options.node_names[refusal.node]} ${refusal.status === 0 ? 'no answer' : refusal.status}` })),
  ].filter((answer) => answer.at_ms >= from_ms && answer.at_ms <= to_ms).sort((a, b) => a.at_ms - b.at_ms);
  for (let i = 0; i < answers.length;) {
    const acknowledged = answers[i].what === null;
    let j = i;
    while (j + 1 < answers.length && (answers[j + 1].what === null) === acknowledged) j++;
    const until = j > i ? ` until ${offset(answers[j].at_ms, cut_ms)}` : '';
    if (acknowledged) {
      events.push({ at_ms: answers[i].at_ms, text: `writer: ${j - i + 1} acknowledged (201)${until}` });
    } else {
      const counts = new Map<string, number>();
      for (const answer of answers.slice(i, j + 1)) counts.set(answer.what!, (counts.get(answer.what!) ?? 0) + 1);
      events.push({ at_ms: answers[i].at_ms, text: `writer: refused ${[...counts].map(([what, n]) => `${what} ×${n}`).join(', ')}${until}` });
    }
    i = j + 1;
  }
  return events.sort((a, b) => a.at_ms - b.at_ms).map((event) => `${offset(event.at_ms, cut_ms)} ${event.text}`);
}
