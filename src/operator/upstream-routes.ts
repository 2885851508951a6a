// Operator routes of upstream routing (docs/operations.md "Routes"): read the routes with each upstream's
// health, and replace them live. A change is journaled (src/services/upstreams/routes.ts) and applies to
// the next purchase; orders already sent stay with the upstream that holds them.
import type { Static } from 'typebox';
import Type from 'typebox';
import type { Deps } from '../front/deps.js';
import type { RouteDef } from '../front/route.js';
import { error_reply, success_reply } from '../lib/reply.js';
import { invalid } from '../errors.js';
import type { Catalog } from '../services/catalog.js';
import type { UpstreamRouter } from '../services/upstreams/router.js';
import type { EndpointRegistry } from '../webhooks/endpoint-registry.js';
import { check_routes, route_upstreams_max, routes_max, save_routes, type RouteTable } from '../services/upstreams/routes.js';
import { route_products } from '../services/upstreams/live-upstreams.js';

const UpstreamName = Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,31}$', errorMessage: 'must be an upstream name: 1-32 lower-case letters, digits, _ or -' });
const Route = Type.Array(UpstreamName, { minItems: 1, maxItems: route_upstreams_max, errorMessage: `must be a list of 1 to ${route_upstreams_max} upstream names` });

export const PutRoutesBody = Type.Object({
  default: Route,
  routes: Type.Optional(Type.Array(Type.Object({
    product: Type.String({ pattern: '^[a-z0-9-]{1,32}(/[a-z0-9-]{1,32})?$', errorMessage: 'must be a product such as airtime or airtime/mtn' }),
    upstreams: Route,
  }), { maxItems: routes_max, errorMessage: `must be a list of at most ${routes_max} routes` })),
});

export const RoutesView = Type.Object({
  default: Type.Array(Type.String()),
  routes: Type.Array(Type.Object({ product: Type.String(), upstreams: Type.Array(Type.String()) })),
  upstreams: Type.Array(Type.Object({
    name: Type.String(),
    kind: Type.String(),
    circuit: Type.Enum(['closed', 'half_open', 'open']),
    retry_after_s: Type.Integer(),
  })),
});

function routes_view(router: UpstreamRouter | null) {
  const table: RouteTable = router?.routes ?? { default: [], products: {} };
  return {
    default: table.default,
    routes: Object.entries(table.products).map(([product, upstreams]) => ({ product, upstreams })),
    upstreams: router === null ? [] : [...router.upstreams.values()].map((u) => {
      const retry_after_s = u.breaker.retry_after_s();
      return { name: u.name, kind: u.kind, circuit: u.breaker.state, retry_after_s };
    }),
  };
}

export function upstream_admin_routes(deps: Deps, router: UpstreamRouter | null, catalog: Catalog): RouteDef[] {
  const tags = ['Operator'];
  const products = route_products(catalog);
  return [
    {
      method: 'get',
      path: '/admin/routes',
      auth: 'operator',
      doc: { summary: 'The upstream routes, and each upstream\'s circuit', tags, response: RoutesView },
      handler: (ctx) => success_reply(ctx.request_id, 200, routes_view(router)),
    },
    {
      method: 'put',
      path: '/admin/routes',
      auth: 'operator',
      body: PutRoutesBody,
      doc: { summary: 'Replace the upstream routes (no restart; kept across restarts)', tags, response: RoutesView, errors: ['validation.failed'] },
      handler: (ctx) => {
        const body = ctx.body as Static<typeof PutRoutesBody>;
        const names = router === null ? [] : [...router.upstreams.keys()];
        const checked = check_routes(body, names, products);
        if (!checked.ok) {
          return error_reply(ctx.request_id, { ...invalid(checked.details[0].field, checked.details[0].message), details: checked.details });
        }
        save_routes(deps.engine.journal, deps.engine.store, checked.table);
        router!.set_routes(checked.table);
        deps.log.info({ routes: checked.table }, 'upstream routes changed');
        const reply = success_reply(ctx.request_id, 200, routes_view(router), 'Routes updated.');
        return deps.engine.journal.durable().then(() => reply);
      },
    },
  ];
}

/**
 * service.status_changed (docs/api.md "Service status"): told to every account with an enabled live
 * endpoint subscribed to it, staged like any event in the account's next commit.
 */
export function announce_status_changes(deps: Deps, router: UpstreamRouter, endpoints: EndpointRegistry): void {
  router.on_status_changed((changed) => {
    const engine = deps.engine;
    if (engine.degraded || !engine.ready) return;
    // The accounts with endpoints, resident or not: an actor with endpoints may have been let go, and
    // is built again from the store here.
    for (const account_id of [...endpoints.account_ids()]) {
      const actor = engine.accounts.get(account_id);
      if (actor === undefined || actor.retired) continue;
      for (const status of changed) engine.emit(actor, 'live', 'service.status_changed', { status });
    }
  });
}
