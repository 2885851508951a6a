// Starts a real NATS cluster (Debian's nats-server, JetStream on file storage in temp dirs) on
// loopback ports for the cluster tests. Nothing of NATS is mocked.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect as tcp_connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian installs it here (apt-get install nats-server); PATH is the fallback elsewhere. */
export const nats_server_path = existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : 'nats-server';

export async function free_port(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function port_open(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcp_connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

interface NatsNode {
  name: string;
  client_port: number;
  cluster_port: number;
  store_dir: string;
  child: ChildProcess | null;
  exited: Promise<void>;
  output: string[];
}

export class NatsCluster {
  readonly nodes: NatsNode[] = [];
  private readonly root = mkdtempSync(join(tmpdir(), 'billvend-nats-'));

  /** Comma-separated client URLs: the value of CLUSTER_NATS_URL. */
  get url(): string {
    return this.nodes.map((node) => `nats://127.0.0.1:${node.client_port}`).join(',');
  }

  static async start(size = 3): Promise<NatsCluster> {
    const cluster = new NatsCluster();
    for (let i = 0; i < size; i++) {
      cluster.nodes.push({
        name: `n${i + 1}`,
        client_port: await free_port(),
        cluster_port: await free_port(),
        store_dir: join(cluster.root, `n${i + 1}`),
        child: null,
        exited: Promise.resolve(),
        output: [],
      });
    }
    for (let i = 0; i < size; i++) cluster.launch(i);
    for (let i = 0; i < size; i++) await cluster.wait_listening(i);
    return cluster;
  }

  /** Starts node i (again, on its ports and its store: a restart after kill). */
  launch(i: number): void {
    const node = this.nodes[i];
    const routes = this.nodes.filter((other) => other !== node).map((other) => `nats://127.0.0.1:${other.cluster_port}`).join(',');
    const child = spawn(nats_server_path, [
      '-a', '127.0.0.1', '-p', String(node.client_port), '-n', node.name, '-js', '-sd', node.store_dir,
      '--cluster_name', 'billvend-test', '--cluster', `nats://127.0.0.1:${node.cluster_port}`, '--routes', routes,
    ], { stdio: ['ignore', 'pipe', 'pipe'] });
    node.child = child;
    node.exited = new Promise((resolve) => child.on('exit', () => resolve()));
    const keep = (chunk: Buffer) => {
      node.output.push(String(chunk));
      if (node.output.length > 200) node.output.splice(0, 100);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
  }

  async wait_listening(i: number): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (!(await port_open(this.nodes[i].client_port))) {
      if (Date.now() > deadline) throw new Error(`nats node ${i} did not listen:\n${this.nodes[i].output.join('')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** kill -9 of one NATS node. */
  async kill(i: number): Promise<void> {
    const node = this.nodes[i];
    if (node.child === null) return;
    node.child.kill('SIGKILL');
    await node.exited;
    node.child = null;
  }

  async stop(): Promise<void> {
    for (let i = 0; i < this.nodes.length; i++) await this.kill(i);
    rmSync(this.root, { recursive: true, force: true });
  }
}

// ---- billvend nodes of a cluster ------------------------------------------------------------------

import { randomBytes } from 'node:crypto';
import { TestServer, temp_dir } from './server.js';

/** Short leases keep failover tests quick; the lease logic does not depend on the length. */
export const test_lease_ms = 1500;
/** Every node of a cluster opens the same sealed secrets. */
export const test_master_key = randomBytes(32).toString('hex');

export interface ClusterNodeOptions {
  data_dir?: string;
  env?: Record<string, string>;
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

/** Waits until this node leads and its public API takes requests (/readyz 200). */
export async function wait_leading(server: TestServer, timeout_ms = 30_000): Promise<void> {
  await wait_until(`${server.data_dir} to lead`, async () => {
    const ready = await server.admin('GET', '/readyz');
    return ready.status === 200 && (await cluster_status(server)).role === 'leader';
  }, timeout_ms);
}

/** The name of the NATS server that leads the journal stream's replicas (its Raft leader), or null. */
export async function stream_leader(nats: NatsCluster): Promise<string | null> {
  const { connect } = await import('@nats-io/transport-node');
  const { jetstreamManager } = await import('@nats-io/jetstream');
  const nc = await connect({ servers: nats.url.split(','), timeout: 2000 });
  try {
    const jsm = await jetstreamManager(nc, { timeout: 2000 });
    const info = await jsm.streams.info('BILLVEND_JOURNAL');
    return info.cluster?.leader ?? null;
  } finally {
    await nc.close();
  }
}

/**
 * What a supervisor (systemd Restart=always) does for the tests: a node that exits by itself (a deposed
 * leader exits 75) is started again on its store, and comes back as a standby.
 */
export class Supervisor {
  readonly exits: (number | null)[] = [];
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
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (this.stopped) return;
      await node.start().catch(() => {});
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
