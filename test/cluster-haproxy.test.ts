// The shipped HAProxy example (docs/haproxy.cfg) in front of a cluster, through real sockets: Debian's
// haproxy (apt-get install haproxy) runs the file itself, with only the addresses and ports of its
// `bind` and `server` lines replaced, so the example cannot drift from what is tested. Three NATS
// servers, two billvend nodes, clients that talk only to HAProxy; kill -9 of the leader; HAProxy finds
// the new leader by its /readyz, and every acknowledged answer is there exactly once.
import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NatsCluster, free_port, start_node, test_lease_ms, wait_leading, wait_until } from './helpers/nats-cluster.js';
import { check_wallets, longest_gap_ms, type Acknowledged } from './helpers/cluster-load.js';
import { fast_reseller, idem, kobo, sandbox } from './helpers/purchases.js';
import { TestServer, repo_root, temp_dir } from './helpers/server.js';

/** Debian installs it here; PATH is the fallback elsewhere. */
const haproxy_path = existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy';
const shipped_config = join(repo_root, 'docs', 'haproxy.cfg');

interface NodeAddress {
  port: number;
  admin_port: number;
}

/**
 * The shipped config with the test's loopback addresses and ports: the `bind` line and the two
 * `server` lines, nothing else. Throws if one of them is not found exactly once (the example changed
 * shape and this test must follow it).
 */
function render_config(text: string, front_port: number, nodes: [NodeAddress, NodeAddress]): string {
  const replacements: [RegExp, string][] = [
    [/^(  bind )0\.0\.0\.0:80$/m, `$1127.0.0.1:${front_port}`],
    [/^(  server app1 )10\.0\.0\.11:8080( check port )8081$/m, `$1127.0.0.1:${nodes[0].port}$2${nodes[0].admin_port}`],
    [/^(  server app2 )10\.0\.0\.12:8080( check port )8081$/m, `$1127.0.0.1:${nodes[1].port}$2${nodes[1].admin_port}`],
  ];
  let rendered = text;
  for (const [pattern, replacement] of replacements) {
    const global = new RegExp(pattern.source, 'gm');
    const count = (text.match(global) ?? []).length;
    if (count !== 1) throw new Error(`docs/haproxy.cfg: expected exactly one line matching ${pattern}, found ${count}`);
    rendered = rendered.replace(pattern, replacement);
  }
  return rendered;
}

/** HAProxy in the foreground (-db: no daemon, no master process), so that kill -9 ends all of it. */
class HaproxyProcess {
  readonly output: string[] = [];
  private child: ChildProcess | null = null;
  private exited: Promise<number | null> = Promise.resolve(null);

  start(config_path: string): void {
    const child = spawn(haproxy_path, ['-db', '-f', config_path], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    const keep = (chunk: Buffer) => {
      this.output.push(String(chunk));
      if (this.output.length > 400) this.output.splice(0, 200);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  async kill(): Promise<void> {
    if (this.child === null) return;
    this.child.kill('SIGKILL');
    await this.exited;
    this.child = null;
  }
}

interface ClientOp {
  kind: 'top_up' | 'purchase';
  key: string;
  idempotency_key: string;
  /** The top-up's reference (the purchase's comes in its answer). */
  reference?: string;
  amount: number;
  answered_ms: number | null;
  acknowledged: Acknowledged | null;
  /** What the client saw until it was acknowledged (status and code, or 'connection'). */
  seen: string[];
}

/** One request of an op through `proxy`; records an acknowledgement, or what was seen instead. */
async function send(proxy: TestServer, op: ClientOp): Promise<void> {
  try {
    const response = op.kind === 'top_up'
      ? await proxy.api('POST', '/v1/sandbox/wallet/fund', { key: op.key, body: { amount: op.amount, reference: op.reference }, idempotency_key: op.idempotency_key })
      : await proxy.api('POST', '/v1/services/airtime', { key: op.key, body: { network: 'mtn', phone: sandbox.delivered, amount: op.amount, pin: '12345' }, idempotency_key: op.idempotency_key });
    const reference = op.kind === 'top_up' ? response.body?.data?.reference : response.body?.data?.reference;
    if (response.status === 201 && typeof reference === 'string') {
      op.answered_ms = Date.now();
      op.acknowledged = { kind: op.kind, key: op.key, reference, amount_kobo: kobo(op.amount), at_ms: op.answered_ms };
    } else {
      op.seen.push(`${response.status} ${response.body?.error?.code ?? ''}${response.body?.request_id?.startsWith('haproxy-') ? ' (from haproxy)' : ''}`);
    }
  } catch {
    op.seen.push('connection');
  }
}

t.test('through the shipped HAProxy config, kill -9 of the leader: requests are answered again by the new leader, and every acknowledged top-up and purchase is there exactly once', async (t) => {
  const nats = await NatsCluster.start(3);
  const nodes: TestServer[] = [];
  const haproxy = new HaproxyProcess();
  const config_dir = temp_dir('billvend-haproxy-');
  t.teardown(async () => {
    await haproxy.kill();
    for (const node of nodes) {
      await node.kill();
      rmSync(node.data_dir, { recursive: true, force: true });
    }
    await nats.stop();
    rmSync(config_dir, { recursive: true, force: true });
  });

  // Fixed ports: HAProxy names each node by address, and a node keeps its ports when it turns from
  // standby to leader (docs/cluster.md "Failover").
  const addresses: [NodeAddress, NodeAddress] = [
    { port: await free_port(), admin_port: await free_port() },
    { port: await free_port(), admin_port: await free_port() },
  ];
  const start = (name: string, address: NodeAddress) => start_node(nats, name, { env: { PORT: String(address.port), ADMIN_PORT: String(address.admin_port), LOG_LEVEL: 'warn' } });
  const a = await start('a', addresses[0]);
  nodes.push(a);
  await wait_leading(a);
  const b = await start('b', addresses[1]);
  nodes.push(b);
  t.same([a.port, a.admin_port, b.port, b.admin_port], [addresses[0].port, addresses[0].admin_port, addresses[1].port, addresses[1].admin_port], 'the nodes listen on the ports HAProxy is given');

  const shipped = readFileSync(shipped_config, 'utf8');
  const front_port = await free_port();
  const rendered = render_config(shipped, front_port, addresses);
  const changed = shipped.split('\n').filter((line, i) => line !== rendered.split('\n')[i]);
  t.equal(changed.length, 3, `the test runs the shipped docs/haproxy.cfg with only its bind and server lines changed (${changed.map((line) => line.trim()).join('; ')})`);
  const config_path = join(config_dir, 'haproxy.cfg');
  writeFileSync(config_path, rendered);
  haproxy.start(config_path);

  // HAProxy talks to clients as billvend does: the same client, pointed at HAProxy's port.
  const proxy = new TestServer(config_dir, {});
  proxy.port = front_port;
  const resellers = await Promise.all([fast_reseller(a, 50_000), fast_reseller(a, 50_000)]);
  const keys = resellers.map((r) => r.key);
  let last_seen = '';
  await wait_until('HAProxy to route to the leader', async () => {
    const response = await proxy.api('GET', '/v1/wallet', { key: keys[0] });
    last_seen = `${response.status} ${response.text.slice(0, 200)}`;
    return response.status === 200;
  }, 15_000).catch((error: Error) => {
    throw new Error(`${error.message}; last answer ${last_seen}; haproxy said:\n${haproxy.output.join('').slice(-3_000)}`);
  });
  t.ok(haproxy.running, 'haproxy runs in the foreground');

  // Clients that only know HAProxy. Every write carries X-Idempotency-Key (and a top-up its reference),
  // as docs/cluster.md asks; an answer that is not a 201 (a 503 while no node is ready, a 502 when the
  // node died mid-request) is sent again with the same key after a short wait. 100 ms instead of the
  // Retry-After second, so that the pause is measured finely.
  const ops: ClientOp[] = [];
  let stop = false;
  let n = 0;
  const worker = async (w: number) => {
    while (!stop) {
      const i = ++n;
      const op: ClientOp = {
        kind: i % 3 === 0 ? 'purchase' : 'top_up',
        key: keys[(w + i) % keys.length],
        idempotency_key: idem('haproxy'),
        amount: i % 3 === 0 ? 50 + (i % 5) : 100 + (i % 7),
        answered_ms: null,
        acknowledged: null,
        seen: [],
      };
      if (op.kind === 'top_up') op.reference = `HAPROXY-${process.pid}-${i}`;
      ops.push(op);
      while (op.acknowledged === null && !stop) {
        await send(proxy, op);
        if (op.acknowledged === null) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  const workers = Array.from({ length: 4 }, (_, w) => worker(w));
  await wait_until('writes through HAProxy', async () => ops.filter((op) => op.acknowledged !== null).length > 40, 20_000);
  await a.kill();
  const killed_ms = Date.now();
  await wait_leading(b, 30_000);
  await wait_until('writes through HAProxy after the kill', async () => ops.filter((op) => op.answered_ms !== null && op.answered_ms > killed_ms).length > 40, 30_000);
  stop = true;
  await Promise.all(workers);

  // What the clients left unanswered when they stopped, sent once more with its key: its fate is then known.
  for (const op of ops.filter((x) => x.acknowledged === null)) await send(proxy, op);
  const unresolved = ops.filter((op) => op.acknowledged === null);
  t.same(unresolved.map((op) => `${op.kind} ${op.idempotency_key}: ${op.seen.join(', ')}`), [], 'every write sent again with its key is answered 201 through HAProxy');

  const acknowledged = ops.flatMap((op) => (op.acknowledged === null ? [] : [op.acknowledged]));
  const before = acknowledged.filter((x) => x.at_ms < killed_ms);
  const after = acknowledged.filter((x) => x.at_ms > killed_ms);
  t.ok(before.length > 40, `the old leader acknowledged writes through HAProxy before its death (${before.length})`);
  t.ok(after.length > 40, `the new leader acknowledged writes through HAProxy after it (${after.length})`);
  const pause_ms = longest_gap_ms(acknowledged, killed_ms);
  const seen: Record<string, number> = {};
  for (const op of ops) for (const s of op.seen) seen[s] = (seen[s] ?? 0) + 1;
  const retried_to_success = ops.filter((op) => op.seen.length > 0 && op.acknowledged !== null).length;
  t.comment(`through HAProxy, kill -9 of the leader: writes answered again ${pause_ms} ms after the kill (lease ${test_lease_ms} ms, checks every 500 ms, fall 2, rise 1); ${before.length} acknowledged before, ${after.length} after; answers other than 201 on the way: ${JSON.stringify(seen)}; ${retried_to_success} writes acknowledged after such an answer`);
  t.ok(pause_ms < 60_000, `writes are answered through HAProxy again after ${pause_ms} ms (no tight bound on a shared machine; the figure is in the comment above)`);

  // Read through HAProxy too: the reads reach the new leader.
  await check_wallets(t, proxy, keys, acknowledged);
  t.ok(haproxy.running, 'haproxy ran through the failover');
});
