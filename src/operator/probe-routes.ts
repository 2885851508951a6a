// The operator API's probes and status (docs/operations.md "Operator API"): liveness, readiness, the
// Prometheus metrics and, in cluster mode, where this node stands; a leader's and a standby's.
import Type from 'typebox';
import type { RouteDef } from '../front/route.js';
import { error_reply, success_reply } from '../lib/reply.js';
import { api_error } from '../errors.js';
import type { Engine } from '../engine/engine.js';
import type { ClusterStatus } from '../cluster/cluster-node.js';
import type { Metrics } from './metrics.js';

/** GET /readyz on the node that serves writes: 200 once recovered, while the store takes writes. */
export function readyz_route(engine: Engine): RouteDef {
  return {
    method: 'get',
    path: '/readyz',
    auth: 'none',
    doc: { summary: 'Readiness: 200 once recovered and serving', tags: ['Operator'], response: Type.Object({ status: Type.String() }) },
    handler: (ctx) => engine.ready && !engine.degraded
      ? success_reply(ctx.request_id, 200, { status: 'ready' })
      : error_reply(ctx.request_id, api_error('service.unavailable', engine.ready ? 'The store refuses writes; see the log.' : 'Recovering from the store.')),
  };
}

/** GET /admin/cluster (cluster mode, every node): where this node stands in the replicated journal. */
export function cluster_routes(status: () => ClusterStatus): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/admin/cluster',
      auth: 'operator',
      doc: {
        summary: 'Cluster mode: this node, its role, the leader, and how far it has applied the replicated journal',
        tags: ['Operator'],
        response: Type.Object({
          node: Type.String(),
          role: Type.Union([Type.Literal('leader'), Type.Literal('standby'), Type.Literal('deposed')]),
          leader: Type.Union([Type.String(), Type.Null()]),
          applied_seq: Type.Integer(),
          stream_seq: Type.Integer(),
          lag: Type.Integer(),
          nats_server: Type.Union([Type.String(), Type.Null()], { description: 'The NATS server (host:port) this node is connected to now; null while it reconnects' }),
        }),
      },
      handler: (ctx) => success_reply(ctx.request_id, 200, status()),
    },
  ];
}

/** A standby's operator API: liveness, readiness (503: it serves no writes), metrics and the cluster. */
export function standby_routes(metrics: Metrics, status: () => ClusterStatus): RouteDef[] {
  const tags = ['Operator'];
  return [
    ...cluster_routes(status),
    metrics_route(metrics),
    healthz_route(),
    {
      method: 'get',
      path: '/readyz',
      auth: 'none',
      doc: { summary: 'Readiness: 200 only on the node that serves writes', tags, response: Type.Object({ status: Type.String() }) },
      handler: (ctx) => error_reply(ctx.request_id, api_error('service.unavailable', `This node is a ${status().role}; the cluster's leader serves writes.`)),
    },
  ];
}

/** GET /metrics: the Prometheus text exposition (docs/operations.md "Metrics"), on a leader and a standby alike. */
export function metrics_route(metrics: Metrics): RouteDef {
  return {
    method: 'get',
    path: '/metrics',
    auth: 'operator',
    doc: { summary: 'Prometheus metrics', tags: ['Operator'], content_type: 'text/plain; version=0.0.4' },
    handler: async () => ({ status: 200, body: await metrics.render(), headers: [['Cache-Control', 'no-store']], content_type: metrics.content_type }),
  };
}

/** GET /healthz: 200 while the process runs, whatever its role (probes call it without a token). */
export function healthz_route(): RouteDef {
  return {
    method: 'get',
    path: '/healthz',
    auth: 'none',
    doc: { summary: 'Liveness: 200 while the process runs', tags: ['Operator'], response: Type.Object({ status: Type.String() }) },
    handler: (ctx) => success_reply(ctx.request_id, 200, { status: 'live' }),
  };
}
