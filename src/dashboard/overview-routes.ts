// The dashboard's first page (docs/api.md "Dashboard and documentation"): the balances, today's spend
// against the daily limit and the recent orders; the 30 days' trend of spend and orders by service.
import type { Deps } from '../front/deps.js';
import type { RequestContext, RouteDef } from '../front/route.js';
import { success_reply } from '../lib/reply.js';
import { account_view, wallet_view } from '../front/views.js';
import { kobo_to_naira } from '../lib/money.js';
import { lagos_day } from '../lib/time-format.js';
import { read_orders } from '../front/routes/transaction-routes.js';
import { service_type_names, charged_kobo, type OrderRecord, type ServiceType } from '../services/order.js';
import { seq_range } from '../engine/order-history.js';
import type { OrderDesk } from '../services/order-desk.js';
import { dashboard_doc as doc } from './route-doc.js';
import { dashboard_slice_rows, next_turn } from './read-slices.js';
import { dashboard_order_view } from './order-routes.js';

/** The trend covers this many Lagos days, today included. */
export const trend_days = 30;
/** Most orders read to draw the trend; beyond, the answer says it is truncated. */
export const trend_orders_max = 20_000;

export function overview_session_routes(deps: Deps, desk: OrderDesk): RouteDef[] {
  const { engine, clock } = deps;
  const overview = (ctx: RequestContext) => {
    const actor = ctx.actor!;
    const environment = ctx.environment;
    const now_ms = clock.now_ms();
    const { spent_kobo, limit_kobo } = actor.daily_spend(environment, now_ms);
    const wallet = actor.wallets[environment];
    const recent = read_orders(engine.store, actor, environment, wallet.orders_count, 1, 5).map((o) => desk.find(o.reference) ?? o);
    return success_reply(ctx.request_id, 200, {
      account: { ...account_view(actor.account), pin_set: actor.account.pin_hash !== null },
      environment,
      wallets: { live: wallet_view(actor.wallets.live), test: wallet_view(actor.wallets.test) },
      today: { spent: kobo_to_naira(spent_kobo), limit: kobo_to_naira(limit_kobo), remaining: kobo_to_naira(Math.max(0, limit_kobo - spent_kobo)) },
      open_orders: [...actor.open_orders.values()].filter((o) => o.environment === environment).length,
      recent_orders: recent.map(dashboard_order_view),
    });
  };

  return [
    { method: 'get', path: '/dashboard/api/overview', auth: 'session', doc: doc('Balances, today\'s spend against the daily limit, recent orders'), handler: overview },
    {
      method: 'get',
      path: '/dashboard/api/trend',
      auth: 'session',
      doc: doc('Spend and order count per Africa/Lagos day for the last 30 days, by service, and the success rate'),
      handler: async (ctx) => {
        const actor = ctx.actor!;
        const environment = ctx.environment;
        // Read before the wait, as every count a range read relies on (see the orders list).
        const orders_count = actor.wallets[environment].orders_count;
        await actor.settled();
        const today = lagos_day(clock.now_ms());
        const first_day = today - trend_days + 1;
        const services: readonly ServiceType[] = service_type_names;
        const days = Array.from({ length: trend_days }, (_, i) => ({
          date: new Date((first_day + i) * 86_400_000).toISOString().slice(0, 10),
          spend_kobo: Object.fromEntries(services.map((name) => [name, 0])) as Record<ServiceType, number>,
          orders: Object.fromEntries(services.map((name) => [name, 0])) as Record<ServiceType, number>,
        }));
        let delivered = 0;
        let failed = 0;
        let read = 0;
        let truncated = false;
        const filter = { service: null, status: null, from_day: first_day, to_day: today };
        const [low, high] = seq_range(engine.store, actor.id, environment, orders_count, filter);
        // Newest first, dashboard_slice_rows orders per event-loop turn (regression: 20,000 in one step).
        for (let below = high; below >= low; ) {
          if (read >= trend_orders_max) {
            truncated = true;
            break;
          }
          if (read > 0) {
            await next_turn();
            if (ctx.aborted) break;
          }
          const bottom = Math.max(low, below - dashboard_slice_rows + 1, below - (trend_orders_max - read) + 1);
          for (const { value } of engine.store.orders.getRange({ start: [actor.id, environment, below], end: [actor.id, environment, bottom - 1], reverse: true })) {
            const stored = value as OrderRecord;
            const order = actor.open_orders.get(stored.reference) ?? stored;
            read++;
            const day = days[lagos_day(Math.floor(order.created_us / 1000)) - first_day];
            if (day === undefined) continue;
            day.orders[order.service_type] += 1;
            // Spend is what stayed debited: failed orders were refunded.
            if (order.status !== 'failed') day.spend_kobo[order.service_type] += charged_kobo(order);
            if (order.status === 'delivered') delivered += 1;
            else if (order.status === 'failed') failed += 1;
          }
          below = bottom - 1;
        }
        return success_reply(ctx.request_id, 200, {
          days: days.map((d) => ({
            date: d.date,
            spend: Object.fromEntries(services.map((name) => [name, kobo_to_naira(d.spend_kobo[name])])),
            orders: d.orders,
          })),
          delivered,
          failed,
          // Of the orders that finished: null while none has.
          success_rate: delivered + failed === 0 ? null : Math.round((delivered * 1000) / (delivered + failed)) / 10,
          truncated,
        });
      },
    },
  ];
}
