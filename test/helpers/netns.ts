// Network partitions for the cluster tests: every NATS server and billvend node runs in its own Linux
// network namespace, with one veth to a bridge in a hub namespace; the test process reaches every member
// through one more veth from its own namespace to the bridge, which is never cut. A cut between two
// members is a pair of tc u32 filters on their bridge ports redirecting each one's packets for the other
// to a veth left down (this kernel has neither sch_netem nor the gact action, so nothing can simply drop
// them); a heal deletes the filters. TCP connections across a cut stall as across a real partition.
//
// Names are unique per run (a random prefix in every namespace and interface name), so parallel runs do
// not clash, and `destroy` always kills every process this harness started and deletes every namespace
// it made (deleting a namespace deletes its veths and bridge; the subnet's route goes with its veth).
// Needs root and `ip netns`; `netns_unavailable` says why not, for the test to skip.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nats_server_path, test_master_key, type NatsServers } from './nats-cluster.js';
import { TestServer, temp_dir } from './server.js';

function ip(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function tc(...args: string[]): void {
  execFileSync('tc', args, { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Why partitions cannot run here (not root, no `ip netns`, no tc), or null when they can. */
export function netns_unavailable(): string | null {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (process.getuid?.() !== 0) return 'network namespaces need root';
  const probe = `bvprobe${randomBytes(3).toString('hex')}`;
  try {
    ip('netns', 'add', probe);
    ip('netns', 'del', probe);
    execFileSync('tc', ['-V'], { stdio: 'ignore' });
    return null;
  } catch (error) {
    try { ip('netns', 'del', probe); } catch { /* was never made */ }
    return `ip netns or tc unavailable: ${(error as Error).message.split('\n')[0]}`;
  }
}

export interface Member {
  name: string;
  /** Its network namespace. */
  ns: string;
  address: string;
  /** Its port on the hub's bridge, where its cuts are filtered. */
  port: string;
}

interface NatsMember extends Member {
  store_dir: string;
  child: ChildProcess | null;
  exited: Promise<void>;
  output: string[];
}

/**
 * A TCP forwarder process: `node -e forwarder_script <listen address> <target address> <port>...` listens on each port
 * at the first address and pipes every connection to the same port at the second; prints "ready" once listening.
 */
const forwarder_script = `const net = require('node:net');
const [listen, target, ...ports] = process.argv.slice(1);
let listening = 0;
for (const port of ports.map(Number)) {
  net.createServer((inbound) => {
    const outbound = net.connect(port, target);
    inbound.pipe(outbound).pipe(inbound);
    inbound.on('error', () => outbound.destroy());
    outbound.on('error', () => inbound.destroy());
  }).listen(port, listen, () => { if (++listening === ports.length) console.log('ready'); });
}`;

export class NetnsLab {
  readonly prefix = `bv${randomBytes(3).toString('hex').slice(0, 5)}`;
  readonly hub: string;
  readonly subnet: string;
  readonly members = new Map<string, Member>();
  readonly nats: NatsMember[] = [];
  readonly nodes: TestServer[] = [];
  private readonly namespaces: string[] = [];
  private readonly root = mkdtempSync(join(tmpdir(), 'billvend-netns-'));
  private next_host = 1;
  /** Pairs cut now, as "a|b" with a < b. */
  readonly cuts = new Set<string>();
  /** Loopback ports of the test's own namespace that every node reaches on its own loopback (forward_loopback). */
  private loopback_ports: number[] = [];

  private constructor() {
    this.hub = `${this.prefix}-hub`;
    // A /24 of 10.213.0.0/16 no route of this machine uses yet.
    const used = ip('-4', 'route', 'show');
    let third = 0;
    for (let tries = 0; tries < 50; tries++) {
      third = 1 + Math.floor(Math.random() * 250);
      if (!used.includes(`10.213.${third}.`)) break;
    }
    this.subnet = `10.213.${third}`;
  }

  /** The hub, its bridge, the veth left down that cut packets go to, and the test process's own way in. */
  static create(): NetnsLab {
    const lab = new NetnsLab();
    try {
      lab.add_namespace(lab.hub);
      ip('-n', lab.hub, 'link', 'add', 'br0', 'type', 'bridge');
      ip('-n', lab.hub, 'link', 'set', 'br0', 'up');
      ip('-n', lab.hub, 'link', 'add', 'void0', 'type', 'veth', 'peer', 'name', 'void1'); // left down: a cut's packets end here
      const outside = `${lab.prefix}r`;
      ip('link', 'add', outside, 'type', 'veth', 'peer', 'name', `${lab.prefix}rh`);
      ip('link', 'set', `${lab.prefix}rh`, 'netns', lab.hub);
      ip('-n', lab.hub, 'link', 'set', `${lab.prefix}rh`, 'name', 'test0');
      ip('-n', lab.hub, 'link', 'set', 'test0', 'master', 'br0');
      ip('-n', lab.hub, 'link', 'set', 'test0', 'up');
      ip('addr', 'add', `${lab.subnet}.254/24`, 'dev', outside);
      ip('link', 'set', outside, 'up');
    } catch (error) {
      lab.destroy_namespaces();
      throw error;
    }
    return lab;
  }

  private add_namespace(ns: string): void {
    ip('netns', 'add', ns);
    this.namespaces.push(ns);
    ip('-n', ns, 'link', 'set', 'lo', 'up');
  }

  /** A namespace of its own for `name`, on the bridge, with the next address of the subnet. */
  add_member(name: string): Member {
    const index = this.next_host++;
    const ns = `${this.prefix}-${name}`;
    const address = `${this.subnet}.${index}`;
    this.add_namespace(ns);
    const inside = `${this.prefix}${index}`;
    const port = `${this.prefix}${index}h`;
    ip('link', 'add', inside, 'type', 'veth', 'peer', 'name', port);
    ip('link', 'set', inside, 'netns', ns);
    ip('-n', ns, 'link', 'set', inside, 'name', 'eth0');
    ip('-n', ns, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
    ip('-n', ns, 'link', 'set', 'eth0', 'up');
    ip('link', 'set', port, 'netns', this.hub);
    ip('-n', this.hub, 'link', 'set', port, 'name', `m${index}`);
    ip('-n', this.hub, 'link', 'set', `m${index}`, 'master', 'br0');
    ip('-n', this.hub, 'link', 'set', `m${index}`, 'up');
    tc('-n', this.hub, 'qdisc', 'add', 'dev', `m${index}`, 'ingress');
    const member = { name, ns, address, port: `m${index}` };
    this.members.set(name, member);
    return member;
  }

  // ---- Cuts ---------------------------------------------------------------------------------------

  private filter(from: Member, to: Member, action: 'add' | 'del'): void {
    // One filter priority per destination host, so each cut can be taken back alone.
    const prio = String(100 + Number(to.address.split('.')[3]));
    if (action === 'add') {
      tc('-n', this.hub, 'filter', 'add', 'dev', from.port, 'parent', 'ffff:', 'protocol', 'ip', 'prio', prio, 'u32',
        'match', 'ip', 'dst', `${to.address}/32`, 'action', 'mirred', 'egress', 'redirect', 'dev', 'void0');
    } else {
      tc('-n', this.hub, 'filter', 'del', 'dev', from.port, 'parent', 'ffff:', 'prio', prio);
    }
  }

  private key(a: string, b: string): string {
    return a < b ? `${a}|${b}` : `${b}|${a}`;
  }

  /** No packet between a and b, either way, until heal. */
  cut(a: string, b: string): void {
    const key = this.key(a, b);
    if (this.cuts.has(key)) return;
    this.filter(this.members.get(a)!, this.members.get(b)!, 'add');
    this.filter(this.members.get(b)!, this.members.get(a)!, 'add');
    this.cuts.add(key);
  }

  /** Every member of one side cut from every member of the other. */
  partition(side: string[], other: string[]): void {
    for (const a of side) for (const b of other) this.cut(a, b);
  }

  heal(a: string, b: string): void {
    const key = this.key(a, b);
    if (!this.cuts.has(key)) return;
    this.filter(this.members.get(a)!, this.members.get(b)!, 'del');
    this.filter(this.members.get(b)!, this.members.get(a)!, 'del');
    this.cuts.delete(key);
  }

  heal_all(): void {
    for (const key of [...this.cuts]) {
      const [a, b] = key.split('|');
      this.heal(a, b);
    }
  }

  // ---- NATS servers and billvend nodes ------------------------------------------------------------

  /** Three (or n) nats-server processes, each in its own namespace, routed to each other. */
  async start_nats(count = 3): Promise<void> {
    for (let i = 1; i <= count; i++) {
      const member = this.add_member(`nats${i}`);
      this.nats.push({ ...member, store_dir: join(this.root, member.name), child: null, exited: Promise.resolve(), output: [] });
    }
    for (let i = 0; i < count; i++) this.launch_nats(i);
    for (let i = 0; i < count; i++) await this.wait_port(this.nats[i].address, 4222, `${this.nats[i].name} to listen`);
  }

  /** Starts NATS server i (again, on its address and its store: a restart after kill_nats). */
  launch_nats(i: number): void {
    const node = this.nats[i];
    const routes = this.nats.filter((other) => other !== node).map((other) => `nats://${other.address}:6222`).join(',');
    const child = spawn('ip', ['netns', 'exec', node.ns, nats_server_path,
      '-a', node.address, '-p', '4222', '-n', node.name, '-js', '-sd', node.store_dir,
      '--cluster_name', `billvend-${this.prefix}`, '--cluster', `nats://${node.address}:6222`, '--routes', routes,
    ], { stdio: ['ignore', 'pipe', 'pipe'] });
    node.child = child;
    node.exited = new Promise((resolve) => child.on('exit', () => resolve()));
    const keep = (chunk: Buffer) => {
      node.output.push(String(chunk));
      if (node.output.length > 400) node.output.splice(0, 200);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
  }

  get nats_url(): string {
    return this.nats.map((node) => `nats://${node.address}:4222`).join(',');
  }

  /**
   * A billvend node in its own namespace on the NATS servers, on `data_dir`, not started: it listens on its
   * member address (the test process reaches it through its own veth to the bridge, which no cut touches), and
   * finds on its own loopback every port given to forward_loopback.
   */
  async node_server(name: string, data_dir: string, env: Record<string, string> = {}): Promise<TestServer> {
    const member = this.add_member(name);
    if (this.loopback_ports.length > 0) await this.start_forwarder(member);
    const server = new TestServer(data_dir, {
      CLUSTER_NATS_URL: this.nats_url,
      NODE_NAME: name,
      MASTER_KEY: test_master_key,
      HOST: member.address,
      ADMIN_HOST: member.address,
      ...env,
    });
    server.host = member.address;
    server.launcher = ['ip', 'netns', 'exec', member.ns];
    this.nodes.push(server);
    return server;
  }

  /** A billvend node in its own namespace on the NATS servers, started (not yet necessarily leading). */
  async start_node(name: string, env: Record<string, string> = {}): Promise<TestServer> {
    const server = await this.node_server(name, temp_dir(`billvend-${this.prefix}-${name}-`), env);
    await server.start();
    return server;
  }

  // ---- The test's own fakes, seen from the nodes ---------------------------------------------------

  /**
   * Makes services of the test process that listen on 127.0.0.1 (fake upstreams, a webhook receiver, fake
   * funding providers) reachable from every node started afterwards at the same URL: 127.0.0.1:port (or
   * localhost:port, so a TLS certificate for localhost still verifies) in a node's namespace is a forwarder
   * to the test namespace's address on the bridge, where this process forwards it on to its own loopback.
   * The bridge port of the test namespace is never cut, so the fakes stay reachable through any partition.
   *
   * Both ends forward in processes of their own: the test's event loop is held for seconds at a time by the crash
   * campaign's synchronous store checks, and a forwarder on it left the nodes' webhook deliveries to the receiver
   * (a worker thread) timing out meanwhile (partition campaign of 2026-11-29, seed 9300: two deliveries dead).
   */
  async forward_loopback(ports: number[]): Promise<void> {
    this.loopback_ports = [...new Set(ports)];
    const child = spawn(process.execPath, ['-e', forwarder_script, `${this.subnet}.254`, '127.0.0.1', ...this.loopback_ports.map(String)], { stdio: ['ignore', 'pipe', 'pipe'] });
    await this.forwarder_ready(child, 'the test namespace');
  }

  /** The forwarder of a member's loopback ports, a node process in its namespace (gone with the namespace). */
  private async start_forwarder(member: Member): Promise<void> {
    const child = spawn('ip', ['netns', 'exec', member.ns, process.execPath, '-e', forwarder_script, '127.0.0.1', `${this.subnet}.254`, ...this.loopback_ports.map(String)], { stdio: ['ignore', 'pipe', 'pipe'] });
    await this.forwarder_ready(child, member.name);
  }

  private forwarder_ready(child: ChildProcess, name: string): Promise<void> {
    this.forwarder_children.push(child);
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the loopback forwarder of ${name} did not start`)), 15_000);
      child.stdout!.on('data', (chunk) => {
        if (String(chunk).includes('ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the loopback forwarder of ${name} exited with ${code}`));
      });
    });
  }

  private readonly forwarder_children: ChildProcess[] = [];

  /**
   * The NATS servers as the cluster tests' NatsCluster presents them (url, nodes, kill, launch, wait_listening),
   * so that code written for loopback servers (the crash campaign's NATS kills) runs on these too. `stop` leaves
   * the namespaces: `destroy` takes everything down.
   */
  nats_servers(): NatsServers {
    const lab = this;
    return {
      get url() {
        return lab.nats_url;
      },
      nodes: this.nats,
      kill: (i: number) => this.kill_nats(i),
      launch: (i: number) => this.launch_nats(i),
      wait_listening: (i: number) => this.wait_port(this.nats[i].address, 4222, `${this.nats[i].name} to listen`),
      stop: async () => {
        for (let i = 0; i < this.nats.length; i++) await this.kill_nats(i);
      },
    };
  }

  /** kill -9 of one NATS server. */
  async kill_nats(i: number): Promise<void> {
    const node = this.nats[i];
    if (node.child === null) return;
    node.child.kill('SIGKILL');
    await node.exited;
    node.child = null;
  }

  private async wait_port(host: string, port: number, what: string): Promise<void> {
    const { connect } = await import('node:net');
    const deadline = Date.now() + 15_000;
    for (;;) {
      const open = await new Promise<boolean>((resolve) => {
        const socket = connect(port, host);
        socket.once('connect', () => { socket.destroy(); resolve(true); });
        socket.once('error', () => resolve(false));
      });
      if (open) return;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The member a NATS server name (as JetStream reports it) belongs to. */
  nats_member(server_name: string): NatsMember | undefined {
    return this.nats.find((node) => node.name === server_name);
  }

  // ---- Cleanup ------------------------------------------------------------------------------------

  /** Kills every process this lab started and deletes every namespace and folder it made. Safe to call twice. */
  async destroy(): Promise<void> {
    for (const node of this.nodes) {
      await node.kill().catch(() => {});
      rmSync(node.data_dir, { recursive: true, force: true });
    }
    for (let i = 0; i < this.nats.length; i++) await this.kill_nats(i);
    for (const child of this.forwarder_children.splice(0)) child.kill('SIGKILL');
    this.destroy_namespaces();
    rmSync(this.root, { recursive: true, force: true });
  }

  private destroy_namespaces(): void {
    for (const ns of this.namespaces.splice(0).reverse()) {
      // Any process still inside (one that escaped its parent's kill) goes first, by its pid in this namespace.
      try {
        const pids = ip('netns', 'pids', ns).split('\n').filter((pid) => pid !== '');
        for (const pid of pids) try { process.kill(Number(pid), 'SIGKILL'); } catch { /* gone */ }
      } catch { /* the namespace is gone */ }
      try { ip('netns', 'del', ns); } catch { /* the namespace is gone */ }
    }
    try { ip('link', 'del', `${this.prefix}r`); } catch { /* went with the hub */ }
  }
}
