// Starts a real NATS cluster (Debian's nats-server, JetStream on file storage in temp dirs) on
// loopback ports, for the cluster tests and the cluster bench. Nothing of NATS is mocked.
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
    // free_port releases each port it finds, so two calls can return the same one (a clean-clone CI run
    // gave a node the same client and router port): every port of the cluster is distinct.
    const taken = new Set<number>();
    const distinct_port = async (): Promise<number> => {
      for (;;) {
        const port = await free_port();
        if (!taken.has(port)) {
          taken.add(port);
          return port;
        }
      }
    };
    for (let i = 0; i < size; i++) {
      cluster.nodes.push({
        name: `n${i + 1}`,
        client_port: await distinct_port(),
        cluster_port: await distinct_port(),
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

  /** Sends a signal to node i: SIGSTOP and SIGCONT freeze and resume it. */
  signal(i: number, signal: NodeJS.Signals): void {
    this.nodes[i].child?.kill(signal);
  }

  async stop(): Promise<void> {
    for (let i = 0; i < this.nodes.length; i++) await this.kill(i);
    rmSync(this.root, { recursive: true, force: true });
  }
}

