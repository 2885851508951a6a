// Operator routes of the purchases: re-price or disable a data plan without a restart, and decide
// orders that had no answer from the provider for 24 hours (docs/decisions.md "Transactions").
import type { Static } from 'typebox';
import Type from 'typebox';
import type { Deps } from '../front/deps.js';
import type { RouteDef } from '../front/route.js';
import { error_reply, success_reply } from '../lib/reply.js';
import { acts_on } from '../front/durable-reply.js';
import { refusal_reply } from '../front/outcome-errors.js';
import { api_error, invalid } from '../errors.js';
import { kobo_to_naira, naira_to_kobo } from '../lib/money.js';
import type { Catalog } from '../services/catalog.js';
import { plan_types } from '../services/catalog.js';
import type { OrderDesk } from '../services/order-desk.js';
import { order_full_view, order_operator_view } from '../services/order.js';
import { product_families } from '../services/products/registry.js';
import type { CatalogItem } from '../services/products/item-list.js';
import { sync_report_view, type CatalogSync } from '../services/catalog-sync.js';

export const UpdatePlanBody = Type.Object({
  enabled: Type.Optional(Type.Boolean({ errorMessage: 'must be true or false' })),
  amount: Type.Optional(Type.Number({ errorMessage: 'must be a positive NGN amount with at most 2 decimals' })),
  plan_type: Type.Optional(Type.Enum([...plan_types], { errorMessage: `must be one of: ${plan_types.join(', ')}` })),
});

export const ResolveOrderBody = Type.Object({
  outcome: Type.Enum(['delivered', 'failed']),
});

/** The operator's view of a catalog item of a later family: what the API shows, plus `enabled`. */
function item_view(item: CatalogItem) {
  return { code: item.code, name: item.name, group: item.group, amount: kobo_to_naira(item.amount_kobo), enabled: item.enabled, ...item.attributes };
}

/** The amount of an operator's PATCH in kobo, or the validation error's reply. */
function patched_amount(request_id: string, amount: number | undefined): number | undefined | ReturnType<typeof error_reply> {
  if (amount === undefined) return undefined;
  const parsed = naira_to_kobo(amount);
  if (parsed.ok && parsed.kobo > 0) return parsed.kobo;
  const message = parsed.ok ? 'must be greater than 0' : parsed.reason;
  return error_reply(request_id, invalid('amount', message));
}

export function catalog_admin_routes(deps: Deps, catalog: Catalog, desk: OrderDesk, sync: CatalogSync): RouteDef[] {
  const tags = ['Operator'];
  // The later families' lists are managed like data plans: one PATCH route per list (docs/operations.md).
  const item_routes: RouteDef[] = product_families.flatMap((family) => (family.catalog_kinds ?? []).map((kind): RouteDef => ({
    method: 'patch',
    path: `/admin/catalog/${kind}/:code`,
    auth: 'operator',
    body: UpdatePlanBody,
    doc: { summary: `Re-price, enable or disable an item of ${kind} (no restart)`, tags, errors: ['service.plan_not_found'] },
    handler: (ctx) => {
      const body = ctx.body as Static<typeof UpdatePlanBody>;
      const amount_kobo = patched_amount(ctx.request_id, body.amount);
      if (typeof amount_kobo === 'object') return amount_kobo;
      const item = catalog.item_list(kind).update(deps.engine.journal, ctx.params.code, { enabled: body.enabled, amount_kobo });
      if (item === undefined) return error_reply(ctx.request_id, api_error('service.plan_not_found', `No item "${ctx.params.code.slice(0, 64)}" in ${kind}.`));
      const reply = success_reply(ctx.request_id, 200, item_view(item), 'Item updated.');
      return deps.engine.journal.durable().then(() => reply);
    },
  })));
  return [
    ...item_routes,
    {
      method: 'patch',
      path: '/admin/catalog/tv-packages/:code',
      auth: 'operator',
      body: UpdatePlanBody,
      doc: { summary: 'Re-price, enable or disable a cable TV package (no restart)', tags, errors: ['service.plan_not_found'] },
      handler: (ctx) => {
        const body = ctx.body as Static<typeof UpdatePlanBody>;
        const amount_kobo = patched_amount(ctx.request_id, body.amount);
        if (typeof amount_kobo === 'object') return amount_kobo;
        const item = catalog.update_package(deps.engine.journal, ctx.params.code, { enabled: body.enabled, amount_kobo });
        if (item === undefined) return error_reply(ctx.request_id, api_error('service.plan_not_found', `No TV package "${ctx.params.code.slice(0, 64)}".`));
        const reply = success_reply(ctx.request_id, 200, {
          package_code: item.package_code, name: item.name, provider: item.provider, amount: kobo_to_naira(item.amount_kobo), enabled: item.enabled,
        }, 'Package updated.');
        return deps.engine.journal.durable().then(() => reply);
      },
    },
    {
      method: 'post',
      path: '/admin/catalog/sync',
      auth: 'operator',
      doc: { summary: 'Sync the catalog from VTpass\'s service variations now: new variations added disabled, vanished or dearer ones disabled', tags },
      handler: async (ctx) => {
        const report = await sync.run('operator');
        const message = report.upstream === null ? 'No VTpass upstream with a public_key is configured; nothing was synced.' : `Catalog synced: ${report.changes.length} change(s).`;
        return success_reply(ctx.request_id, 200, sync_report_view(report, catalog), message);
      },
    },
    {
      method: 'get',
      path: '/admin/catalog/drift',
      auth: 'operator',
      doc: { summary: 'Items out of step with VTpass after the last sync: new (disabled until priced), vanished, or dearer upstream than ours', tags },
      handler: (ctx) => success_reply(ctx.request_id, 200, sync.drift_report()),
    },
    {
      method: 'patch',
      path: '/admin/catalog/data-plans/:plan_id',
      auth: 'operator',
      body: UpdatePlanBody,
      doc: { summary: 'Re-price, enable, disable or re-type (plan_type) a data plan (no restart)', tags, errors: ['service.plan_not_found'] },
      handler: (ctx) => {
        const body = ctx.body as Static<typeof UpdatePlanBody>;
        const amount_kobo = patched_amount(ctx.request_id, body.amount);
        if (typeof amount_kobo === 'object') return amount_kobo;
        const plan = catalog.update_plan(deps.engine.journal, ctx.params.plan_id, { enabled: body.enabled, amount_kobo, plan_type: body.plan_type });
        if (plan === undefined) return error_reply(ctx.request_id, api_error('service.plan_not_found', `No data plan "${ctx.params.plan_id.slice(0, 64)}".`));
        const reply = success_reply(ctx.request_id, 200, {
          plan_id: plan.plan_id, name: plan.name, network: plan.network, plan_type: plan.plan_type, amount: kobo_to_naira(plan.amount_kobo), validity: plan.validity, enabled: plan.enabled,
        }, 'Plan updated.');
        return deps.engine.journal.durable().then(() => reply);
      },
    },
    {
      method: 'get',
      path: '/admin/orders/review',
      auth: 'operator',
      doc: { summary: 'Orders without a provider answer for 24 hours', tags },
      handler: (ctx) => success_reply(ctx.request_id, 200, { orders: desk.needing_review().map(order_operator_view) }),
    },
    {
      method: 'post',
      path: '/admin/orders/:reference/resolve',
      auth: 'operator',
      body: ResolveOrderBody,
      doc: { summary: 'Decide an open order: delivered, or failed and refunded', tags, errors: ['transaction.not_found'] },
      handler: (ctx) => {
        const order = desk.find(ctx.params.reference);
        const actor = order === null ? undefined : deps.engine.accounts.get(order.account_id);
        if (order === null || actor === undefined) return error_reply(ctx.request_id, api_error('transaction.not_found'));
        const outcome = deps.engine.run(actor, { kind: 'resolve_order', reference: order.reference, outcome: (ctx.body as Static<typeof ResolveOrderBody>).outcome }, deps.clock.now_us());
        if (!outcome.ok) return refusal_reply(ctx.request_id, outcome.refused);
        desk.resolved(outcome.value);
        const reply = success_reply(ctx.request_id, 200, order_full_view(outcome.value), 'Order resolved.');
        acts_on(ctx, actor);
        return reply;
      },
    },
  ];
}
