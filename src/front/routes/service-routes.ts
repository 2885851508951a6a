// The services' routes (docs/spec.md section 4, docs/decisions.md "Services" and "Product families"), made
// from the product families of src/services/products/registry.ts: each family's catalog lists and
// verification, then each family's purchase, answered by the shared runner (../purchase.ts).
import type { AccountActor } from '../../engine/account-actor.js';
import type { Deps } from '../deps.js';
import type { RequestContext, RouteDef } from '../route.js';
import { success_reply, type Reply } from '../../lib/reply.js';
import { query_params } from '../request-helpers.js';
import { kobo_to_naira } from '../../lib/money.js';
import type { Catalog } from '../../services/catalog.js';
import type { OrderDesk } from '../../services/order-desk.js';
import type { ServiceType } from '../../services/order.js';
import { commission_kobo, pricing_rounding_rule } from '../../services/pricing.js';
import { AccountPricingView } from '../../schemas/pricing-schemas.js';
import { product_families } from '../../services/products/registry.js';
import type { ProductFamily, ProductRequest, ProductRoute } from '../../services/products/family.js';
import { purchase } from '../purchase.js';


export function service_routes(deps: Deps, catalog: Catalog, desk: OrderDesk): RouteDef[] {
  const pricing = desk.pricing;

  /** A catalog or verification request as the family sees it (src/services/products/family.ts). */
  function product_request(ctx: RequestContext): ProductRequest {
    return {
      request_id: ctx.request_id,
      environment: ctx.environment,
      body: ctx.body ?? null,
      query: query_params(ctx),
      catalog,
      provider: desk.providers[ctx.environment],
      numbers: desk.numbers,
      account_id: ctx.actor!.id,
      quotes: desk.foreign_quotes,
      commission_kobo: (service_type: ServiceType, narrow: string | null, amount_kobo: number) =>
        commission_kobo(amount_kobo, account_rate_bp(ctx.actor!, service_type, narrow)),
      charged_naira: (service_type: ServiceType, narrow: string | null, amount_kobo: number) =>
        kobo_to_naira(amount_kobo - commission_kobo(amount_kobo, account_rate_bp(ctx.actor!, service_type, narrow))),
    };
  }

  function product_route(route: ProductRoute): RouteDef {
    return {
      method: route.method,
      path: route.path,
      auth: 'api_key',
      scope: route.scope,
      ...(route.body !== undefined ? { body: route.body } : {}),
      ...(route.idempotent !== undefined ? { idempotent: route.idempotent } : {}),
      // A catalog list reads nothing of the account: it does not wait for its commits.
      ...(route.method === 'get' ? { account_state: false as const } : {}),
      doc: route.doc,
      handler: (ctx) => route.handler(product_request(ctx)),
    };
  }

  function purchase_route(family: ProductFamily): RouteDef {
    const make_plan = family.purchase.plan;
    return {
      method: 'post',
      path: family.purchase.path,
      auth: 'api_key',
      scope: 'services:purchase',
      body: family.purchase.body,
      doc: family.purchase.doc,
      handler: (ctx) => purchase(deps, desk, ctx, make_plan(ctx.body, { catalog, provider: desk.providers[ctx.environment], environment: ctx.environment, numbers: desk.numbers, account_id: ctx.actor!.id, quotes: desk.foreign_quotes })),
    };
  }

  /** The account's rate for a product (a quote's, a price shown): its tier's, or an agent's own clamped rate (docs/api.md "Agent pricing"). */
  function account_rate_bp(actor: AccountActor, service_type: ServiceType, narrow: string | null): number {
    if (actor.account.parent_id === undefined) return pricing.rate_bp(actor.account.tier, service_type, narrow);
    return pricing.chain_rate_bp([actor.account, ...deps.engine.ancestors_of(actor).map((a) => a.account)], service_type, narrow)[0];
  }

  function show_pricing(ctx: RequestContext): Reply {
    const actor = ctx.actor!;
    const tier = actor.account.tier;
    // An agent's rates are its own price list's, clamped to its parent's (docs/api.md "Agent pricing").
    const rates = actor.account.parent_id === undefined ? pricing.effective_rates(tier) : pricing.chain_rates([actor.account, ...deps.engine.ancestors_of(actor).map((a) => a.account)]);
    return success_reply(ctx.request_id, 200, { tier, rounding: pricing_rounding_rule, rates });
  }

  // The families' catalog lists are read once here, at start, not on a first request.
  for (const family of product_families) for (const kind of family.catalog_kinds ?? []) catalog.item_list(kind);
  const lists = product_families.flatMap((family) => family.routes.filter((route) => route.method === 'get'));
  const verifications = product_families.flatMap((family) => family.routes.filter((route) => route.method !== 'get'));
  return [
    {
      method: 'get',
      path: '/v1/pricing',
      auth: 'api_key',
      scope: null,
      doc: {
        summary: 'The calling account\'s tier and its effective discount rate for every product',
        description: 'commission = floor(amount_kobo × rate_bp / 10000); the wallet is debited amount_charged = amount − commission (docs/api.md "Pricing").',
        tags: ['Pricing'],
        response: AccountPricingView,
      },
      handler: show_pricing,
    },
    ...lists.map(product_route),
    ...product_families.map(purchase_route),
    ...verifications.map(product_route),
  ];
}
