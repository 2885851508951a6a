// GET /v1/services/status (docs/api.md "Service status"): whether each product can be bought now, from the
// routes and the upstreams' circuits. Test keys buy from the sandbox, which is always available.
import type { Deps } from '../deps.js';
import type { RouteDef } from '../route.js';
import { success_reply } from '../../lib/reply.js';
import { iso_us } from '../../lib/time-format.js';
import type { Catalog } from '../../services/catalog.js';
import type { UpstreamRouter, ProductState } from '../../services/upstreams/router.js';
import { catalog_products } from '../../services/upstreams/live-upstreams.js';
import { ServiceStatusPage } from '../../schemas/service-schemas.js';

export function service_status_routes(deps: Deps, router: UpstreamRouter | null, catalog: Catalog): RouteDef[] {
  const products = catalog_products(catalog);
  const sandbox: ProductState[] = products.map((p) => ({ product: p.product, service_type: p.service_type, status: 'available', retry_after_s: null }));
  // Without any live upstream configured, live purchases answer 503 (docs/operations.md "Upstreams and routes").
  const unconfigured: ProductState[] = products.map((p) => ({ product: p.product, service_type: p.service_type, status: 'unavailable', retry_after_s: 60 }));
  return [
    {
      method: 'get',
      path: '/v1/services/status',
      auth: 'api_key',
      account_state: false,
      scope: null,
      doc: { summary: 'Whether each product can be bought now: available, degraded or unavailable', tags: ['Services'], response: ServiceStatusPage },
      handler: (ctx) => {
        const services = ctx.environment === 'test' ? sandbox : router === null ? unconfigured : router.states();
        return success_reply(ctx.request_id, 200, { services, checked_at: iso_us(deps.clock.now_us()) });
      },
    },
  ];
}
