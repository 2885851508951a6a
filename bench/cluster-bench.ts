// The cluster bench's set-up and its failover measurement: three NATS servers (Debian's nats-server,
// JetStream on file storage) and two billvend nodes on loopback, all on the same cores as the load
// generator. The load goes to the leader; the standby applies the stream beside it.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { NatsCluster } from './nats-process.js';
import { start_server, type ServerProcess, type StartOptions } from './server-process.js';

export interface ClusterBenchSettings {
  /** CLUSTER_LEASE_MS of both nodes: the floor under the failover pause. */
  lease_ms: number;
  /** Concurrent purchase loops during the failover measurement. */
  failover_workers: number;
  /** How long the failover load runs on the leader before its kill -9. */
  failover_before_kill_ms: number;
  /** Give up waiting for the standby to answer writes after this long. */
  failover_wait_ms_max: number;
}

/** BENCH_CLUSTER_LEASE_MS (default 5000, the production default) and the failover load's shape. */
export function cluster_bench_settings(env: Record<string, string | undefined> = process.env): ClusterBenchSettings {
  const text = env.BENCH_CLUSTER_LEASE_MS;
  const lease_ms = text === undefined || text === '' ? 5000 : Number(text);
  if (!Number.isInteger(lease_ms) || lease_ms < 300) throw new Error(`BENCH_CLUSTER_LEASE_MS must be an integer ≥ 300, got "${text}"`);
  return { lease_ms, failover_workers: 16, failover_before_kill_ms: 2000, failover_wait_ms_max: 60_000 };
}

export interface FailoverFigures {
  /** From the leader's kill -9 to the first write the new leader answered 2xx. */
  pause_ms: number;
  answered_before: number;
  answered_after: number;
  /** Answers other than 2xx, and connections refused or cut, while the load ran. */
  refused: number;
}

export class BenchCluster {
  private constructor(readonly nats: NatsCluster, readonly leader: ServerProcess, readonly standby: ServerProcess, readonly settings: ClusterBenchSettings) {}

  /** Starts NATS, then the node that will lead (ready once it leads), then the standby. */
  static async start(options: StartOptions, settings: ClusterBenchSettings): Promise<BenchCluster> {
    const nats = await NatsCluster.start(3);
    const env = {
      ...(options.env ?? {}),
      CLUSTER_NATS_URL: nats.url,
      CLUSTER_LEASE_MS: String(settings.lease_ms),
      MASTER_KEY: randomBytes(32).toString('hex'),
    };
    let leader: ServerProcess | null = null;
    try {
      leader = await start_server('billvend', { ...options, env: { ...env, NODE_NAME: 'bench-a' } });
      const standby = await start_server('billvend', { cpu_profile_path: null, env: { ...env, NODE_NAME: 'bench-b' }, ready_path: '/healthz' });
      return new BenchCluster(nats, leader, standby, settings);
    } catch (error) {
      await leader?.stop();
      await nats.stop();
      throw error;
    }
  }

  /** Stops the standby (the leader, the load's server, is stopped by its caller) and NATS. */
  async stop(): Promise<void> {
    await this.standby.stop();
    await this.nats.stop();
  }

  /**
   * Purchases from `failover_workers` loops against the leader; kill -9 of the leader after
   * `failover_before_kill_ms`; the loops then go to the standby's address (it serves on the same ports
   * once it leads). The pause is the time from the kill to the standby's first 2xx.
   */
  async failover_under_load(path: string, body: string, authorization: string): Promise<FailoverFigures> {
    const tag = randomBytes(4).toString('hex');
    let counter = 0;
    let target = this.leader.base_url;
    let stop = false;
    let killed_ms = Number.POSITIVE_INFINITY;
    const answered: number[] = [];
    let refused = 0;
    const worker = async () => {
      while (!stop) {
        try {
          const response = await fetch(target + path, {
            method: 'POST',
            headers: { authorization, 'content-type': 'application/json', 'x-idempotency-key': `failover-${tag}-${++counter}` },
            body,
            signal: AbortSignal.timeout(10_000),
          });
          await response.arrayBuffer();
          if (response.status >= 200 && response.status < 300) {
            answered.push(Date.now());
            continue;
          }
        } catch {
          // cut by the kill, or refused while nobody listens
        }
        refused++;
        await sleep(20);
      }
    };
    const workers = Array.from({ length: this.settings.failover_workers }, () => worker());
    await sleep(this.settings.failover_before_kill_ms);
    await this.leader.kill();
    killed_ms = Date.now();
    target = this.standby.base_url;
    const deadline_ms = killed_ms + this.settings.failover_wait_ms_max;
    while (!answered.some((at) => at > killed_ms) && Date.now() < deadline_ms) await sleep(20);
    await sleep(500); // a little load on the new leader, to see that it goes on
    stop = true;
    await Promise.all(workers);
    const after = answered.filter((at) => at > killed_ms);
    if (after.length === 0) throw new Error(`the standby answered no write within ${this.settings.failover_wait_ms_max} ms of the leader's kill -9:\n${this.standby.log_tail()}`);
    return {
      pause_ms: Math.min(...after) - killed_ms,
      answered_before: answered.length - after.length,
      answered_after: after.length,
      refused,
    };
  }
}
