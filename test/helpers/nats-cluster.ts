// The cluster tests' NATS cluster (shared with the bench: bench/nats-process.ts) and billvend nodes
// on it, started from dist/cli.js.
export { NatsCluster, free_port, nats_server_path } from '../../bench/nats-process.js';
import { NatsCluster } from '../../bench/nats-process.js';
import type { ChildProcess } from 'node:child_process';
import { connect, type NatsConnection } from '@nats-io/transport-node';

/**
 * NATS servers as a test drives them: NatsCluster's on loopback, or NetnsLab.nats_servers()'s, each in a
 * network namespace of its own (test/helpers/netns.ts).
 */
export interface NatsServers {
  /** Comma-separated client URLs: the value of CLUSTER_NATS_URL. */
  readonly url: string;
  readonly nodes: readonly { name: string; child: ChildProcess | null; output: string[] }[];
  kill(i: number): Promise<void>;
  launch(i: number): void;
  wait_listening(i: number): Promise<void>;
  stop(): Promise<void>;
}

// ---- billvend nodes of a cluster ------------------------------------------------------------------

import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { TestServer, temp_dir } from './server.js';

/** Short leases keep failover tests quick; the lease logic does not depend on the length. */
export const test_lease_ms = 1500;
/** Every node of a cluster opens the same sealed secrets. */
export const test_master_key = randomBytes(32).toString('hex');

export interface ClusterNodeOptions {
  data_dir?: string;
  env?: Record<string, string>;
}

/**
 * Three NATS servers for one test, and the list its billvend nodes go in: at the test's end every node
 * is killed and its store removed, then the NATS servers stop.
 */
export async function cluster_lab(t: { teardown(fn: () => Promise<void>): void }): Promise<{ nats: NatsCluster; nodes: TestServer[] }> {
  const nats = await NatsCluster.start(3);
  const nodes: TestServer[] = [];
  t.teardown(async () => {
    for (const node of nodes) {
      await node.kill();
      rmSync(node.data_dir, { recursive: true, force: true });
    }
    await nats.stop();
  });
  return { nats, nodes };
}

/** A billvend node of the cluster on its own temp store; started, not yet necessarily leading. */
export async function start_node(nats: NatsCluster, name: string, options: ClusterNodeOptions = {}): Promise<TestServer> {
  const server = new TestServer(options.data_dir ?? temp_dir(`billvend-${name}-`), {
    CLUSTER_NATS_URL: nats.url,
    NODE_NAME: name,
    CLUSTER_LEASE_MS: String(test_lease_ms),
    MASTER_KEY: test_master_key,
    ...options.env,
  });
  await server.start();
  return server;
}

export async function cluster_status(server: TestServer): Promise<any> {
  const response = await server.admin('GET', '/admin/cluster');
  if (response.status !== 200) throw new Error(`/admin/cluster: ${response.status} ${response.text}`);
  return response.body.data;
}

export async function wait_until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeout_ms = 30_000): Promise<T> {
  const deadline = Date.now() + timeout_ms;
  for (;;) {
    try {
      // A probe that hangs (a connection caught while a node swaps its standby listeners for the
      // leader's) must not stall the wait: each try gets 2 s.
      const value = await Promise.race([probe(), new Promise<null>((resolve) => setTimeout(() => resolve(null), 2000))]);
      if (value !== null && value !== undefined && value !== false) return value;
    } catch {
      // not there yet (a node restarting, a port not open)
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A cluster lab (cluster_lab) with a NATS client of the test's own (to play NATS's part: delete a consumer,
 * rewrite the stream) and its first node, `a`, leading.
 */
export async function lab_with_leader(t: { teardown(fn: () => Promise<void>): void }, options: ClusterNodeOptions = {}): Promise<{ nats: NatsCluster; nodes: TestServer[]; nc: NatsConnection; a: TestServer }> {
  const { nats, nodes } = await cluster_lab(t);
  const nc = await connect({ servers: nats.url.split(','), timeout: 5000 });
  t.teardown(() => nc.close());
  const a = await start_node(nats, 'a', options);
  nodes.push(a);
  await wait_leading(a);
  return { nats, nodes, nc, a };
}

/** Waits until this node leads and its public API takes requests (/readyz 200). */
export async function wait_leading(server: TestServer, timeout_ms = 30_000): Promise<void> {
  await wait_until(`${server.data_dir} to lead`, async () => {
    const ready = await server.admin('GET', '/readyz');
    return ready.status === 200 && (await cluster_status(server)).role === 'leader';
  }, timeout_ms);
}

/** The name of the NATS server that leads a stream's replicas (its Raft leader; the journal's by default), or null. */
export async function stream_leader(nats: { url: string }, stream = 'BILLVEND_JOURNAL'): Promise<string | null> {
  const { connect } = await import('@nats-io/transport-node');
  const { jetstreamManager } = await import('@nats-io/jetstream');
  const nc = await connect({ servers: nats.url.split(','), timeout: 2000 });
  try {
    const jsm = await jetstreamManager(nc, { timeout: 2000 });
    const info = await jsm.streams.info(stream);
    return info.cluster?.leader ?? null;
  } finally {
    await nc.close();
  }
}

/**
 * Whether each of these streams has a Raft leader and `replicas` followers, every one current and online: a
 * NATS server restarted, or healed from a partition, has caught up. A fault made before that may leave no
 * current majority on either side (test/crash/README.md "Cluster mode", docs/cluster.md "Partitions, measured").
 */
export async function replicas_current(nats: { url: string }, streams: readonly string[], replicas: number): Promise<boolean> {
  const { connect } = await import('@nats-io/transport-node');
  const { jetstreamManager } = await import('@nats-io/jetstream');
  const nc = await connect({ servers: nats.url.split(','), timeout: 2000 });
  try {
    const jsm = await jetstreamManager(nc, { timeout: 2000 });
    for (const stream of streams) {
      const cluster = (await jsm.streams.info(stream)).cluster;
      const followers = cluster?.replicas ?? [];
      if (!cluster?.leader || followers.length !== replicas || !followers.every((r) => r.current && !r.offline)) return false;
    }
    return true;
  } finally {
    await nc.close();
  }
}

/**
 * What a supervisor (systemd Restart=always) does for the tests: a node that exits by itself (a deposed
 * leader exits 75) is started again on its store, and comes back as a standby. A node that gave up
 * repairing its store (exit 76) is left stopped, as RestartPreventExitStatus=76 in docs/cluster.md's unit.
 */
export class Supervisor {
  readonly exits: (number | null)[] = [];
  /** Which node exited, in the same order as exits. */
  readonly exited_nodes: TestServer[] = [];
  private stopped = false;
  private readonly watching: Promise<void>[] = [];

  constructor(readonly nodes: TestServer[]) {
    for (const node of nodes) this.watching.push(this.watch(node));
  }

  private async watch(node: TestServer): Promise<void> {
    while (!this.stopped) {
      const code = await node.exit_code();
      if (this.stopped || code === null) return;
      this.exits.push(code);
      this.exited_nodes.push(node);
      if (code === 76) return;
      // Started again until it comes up, as systemd does: a start can fail (TestServer.start gives up
      // after 20 s without a "listening" line, while a node behind a partition waits for JetStream).
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        if (this.stopped) return;
        try {
          await node.start();
          break;
        } catch {
          // tried again
        }
      }
    }
  }

  stop(): void {
    this.stopped = true;
  }
}

/**
 * Which node leads, polled every 100 ms from /admin/cluster (as HAProxy polls /readyz): the load
 * follows it. `current()` is the last node seen leading (or the first node, before any is seen).
 */
export class LeaderWatch {
  private last: TestServer;
  private stopped = false;
  private readonly polling: Promise<void>;

  constructor(readonly nodes: TestServer[]) {
    this.last = nodes[0];
    this.polling = this.poll();
  }

  current(): TestServer {
    return this.last;
  }

  private async poll(): Promise<void> {
    while (!this.stopped) {
      for (const node of this.nodes) {
        try {
          const ready = await Promise.race([node.admin('GET', '/readyz'), new Promise<null>((resolve) => setTimeout(() => resolve(null), 500))]);
          if (ready !== null && ready.status === 200) {
            this.last = node;
            break;
          }
        } catch {
          // a node restarting
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.polling;
  }
}
