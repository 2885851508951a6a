// A cluster node's start (docs/cluster.md): joins the cluster and serves as a standby, refusing every
// public request, until it takes the lease; then it serves the store as a single node does (serve-store.ts).
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { open_store } from '../journal/store.js';
import { Metrics } from '../operator/metrics.js';
import { HttpFront } from '../front/http-server.js';
import { BodyBudget } from '../front/request-body.js';
import { api_error } from '../errors.js';
import type { Deps } from '../front/deps.js';
import { ClusterNode } from '../cluster/cluster-node.js';
import { standby_routes } from '../operator/probe-routes.js';
import { fail } from '../lib/assert.js';
import type { Basis } from './server-basis.js';
import type { Server } from './running-server.js';
import { serve_store } from './serve-store.js';
import { operator_authorize } from './operator-authorize.js';
import { cluster_refused } from './cluster-refusal.js';

/**
 * Cluster mode (docs/cluster.md): joins the cluster, brings the store to where the stream stands,
 * and serves as a standby (/healthz 200, /readyz 503, every public request 503 with Retry-After)
 * while it applies the stream. When it takes the lease, the standby's listeners close and the store
 * is recovered and served exactly as a single node's, on the same ports.
 */
export async function start_cluster_node(config: Config, log: Logger, basis: Basis): Promise<Server> {
  let leading: Server | null = null;
  const cluster = await ClusterNode.connect(config.cluster!, config.data_dir, log, (reason, exit_code) => {
    // Nothing more is acknowledged (the journal refuses every batch from now on); the supervisor
    // restarts the process (exit 75), which comes back as a standby and drops any tail the stream
    // lacks; a node that gave up repairing its store exits 76, which the supervisor leaves stopped.
    // Until it exits nothing acts on the store, which may hold that tail (Engine.fence).
    leading?.deps.engine.fence(`deposed: ${reason}`);
    log.flush();
    setTimeout(() => process.exit(exit_code), 250);
  });
  await cluster.prepare_store(() => open_store(config.data_dir));
  const clock = basis.clock;
  const metrics = new Metrics();
  // A standby reads no body (it refuses every request from its headers), but its front ends keep the bound too.
  const body_budget = new BodyBudget(config.request_bodies_bytes_max);
  const standby_operator = new HttpFront({
    name: 'operator',
    routes: standby_routes(metrics, () => cluster.status()),
    log,
    clock,
    metrics,
    cors_origins: [],
    authorize: operator_authorize(basis.admin_token),
    client_ip: (peer) => peer,
    reads_forwarded_for: false,
    accepting: () => null,
    body_budget,
  });
  const admin_port = await standby_operator.listen(config.admin_host, config.admin_port);
  const refuse_all = (['get', 'post', 'put', 'patch', 'delete'] as const).map((method) => ({
    method,
    path: '/*',
    auth: 'none' as const,
    raw_body: true,
    doc: { summary: 'A standby refuses every request', tags: [], hidden: true },
    handler: () => { fail('a standby ran a request'); },
  }));
  const taking_over = api_error('service.unavailable', 'This node is taking over as the cluster\'s leader; retry shortly.', { headers: { 'Retry-After': '1' } });
  const standby_public = new HttpFront({
    name: 'public',
    routes: refuse_all,
    log,
    clock,
    metrics,
    cors_origins: config.cors_origins,
    // Also once this node took the lease: until the leader's listeners replace these, it is taking over.
    authorize: () => cluster_refused(cluster) ?? taking_over,
    client_ip: (peer) => peer,
    reads_forwarded_for: false,
    accepting: () => cluster_refused(cluster) ?? taking_over,
    body_budget,
  });
  const port = await standby_public.listen(config.host, config.port);
  log.child({}, { level: log.level === 'silent' ? 'silent' : 'info' }).info({ port, admin_port, data_dir: config.data_dir, role: 'standby', node: config.cluster!.node_name }, 'listening');
  log.flush();

  let stopping = false;
  // The standby may replace its store (a snapshot installed when the stream was trimmed past it):
  // the leader serves the one it holds when it takes over.
  const promoted = cluster.follow(() => open_store(config.data_dir)).then(async (store) => {
    await standby_public.drain();
    await standby_operator.drain();
    standby_public.close();
    standby_operator.close();
    if (stopping) return;
    // Recovery holds the event loop, where no lease renewal runs: it starts with a whole lease.
    await cluster.confirm_lease();
    leading = await serve_store({ ...config, port, admin_port }, log, basis, store, cluster);
  });
  promoted.catch((error) => {
    if (stopping || cluster.role === 'deposed') return;
    log.fatal({ err: error }, 'cluster: cannot take over; exiting');
    log.flush();
    setTimeout(() => process.exit(1), 50);
  });
  return {
    port,
    admin_port,
    get deps(): Deps {
      if (leading === null) throw new Error('a standby has no engine');
      return leading.deps;
    },
    async stop() {
      stopping = true;
      if (leading !== null) return leading.stop();
      await standby_public.drain();
      await standby_operator.drain();
      await cluster.stop();
      standby_public.close();
      standby_operator.close();
      await cluster.current_store()?.root.close();
      basis.store_lock.release();
    },
  };
}
