// A list of orders with its filter form, empty state and pager: the Orders page's (the session's own
// account) and an agent's page's (the agent's orders, read with Billvend-Account, docs/api.md "Agents in
// the dashboard"). The filters live in the address of the page that shows the list.
import { type OrderSummary, type Pagination } from '../api.js';
import { use_api } from '../use-api.js';
import { service_name, service_types } from '../format.js';
import { EmptyState, ErrorBanner, Loading } from '../components/feedback.js';
import { FilterForm, use_filters, type FilterField } from '../components/filter-form.js';
import { Pager } from '../components/pager.js';
import { OrderTable } from './order-table.js';
import type { Place } from '../router.js';

export type OrderFilterName = 'q' | 'service' | 'status' | 'from' | 'to';

export const order_filter_fields: readonly FilterField<OrderFilterName>[] = [
  // The search takes our reference, the reseller's own client_reference, or a phone, meter or
  // smartcard number (src/dashboard/order-search.ts, search_orders).
  { kind: 'search', name: 'q', label: 'Search', placeholder: 'Reference, your reference, phone, meter or smartcard number', length_max: 64 },
  // Every family the API sells, from the session (format.ts service_types): none listed here.
  { kind: 'select', name: 'service', label: 'Service', get choices() { return [['', 'All services'] as const, ...service_types().map((name) => [name, service_name(name)] as const)]; } },
  { kind: 'select', name: 'status', label: 'Status', choices: [['', 'All statuses'], ['delivered', 'Delivered'], ['processing', 'Processing'], ['pending', 'Pending'], ['failed', 'Failed']] },
  { kind: 'date', name: 'from', label: 'From' },
  { kind: 'date', name: 'to', label: 'To' },
];

const per_page = 20;

interface OrderListProps {
  place: Place;
  /** The dashboard path whose address holds the filters: "/orders", "/agents/42". */
  path: string;
  /** The agent whose orders these are; absent: the session's own account. */
  account?: number;
  /** Where an order opens. */
  order_href: (reference: string) => string;
  /** What the empty list says when nothing is filtered. */
  none_yet: string;
}

export function OrderList({ place, path, account, order_href, none_yet }: OrderListProps) {
  const environment = place.environment;
  const filters = use_filters(place, path, order_filter_fields.map((field) => field.name));
  const { applied, page, filtered, apply } = filters;
  const orders = use_api<{ orders: OrderSummary[]; pagination: Pagination; truncated: boolean }>('/orders', {
    environment,
    query: { ...applied, page, per_page },
    account,
  });

  return (
    <>
      <FilterForm label="Filter orders" fields={order_filter_fields} filters={filters} />
      <ErrorBanner error={orders.error} on_retry={orders.reload} />
      {orders.loading && orders.data === null && <Loading label="Loading orders…" />}
      {orders.data && (
        <section class="card" aria-label="Orders">
          {orders.data.orders.length === 0 ? (
            <EmptyState title={filtered ? 'No orders match these filters.' : `No ${environment} orders yet.`}>
              {filtered ? <p>Try a wider date range, another status or another search.</p> : <p>{none_yet}</p>}
            </EmptyState>
          ) : (
            <>
              <OrderTable orders={orders.data.orders} order_href={order_href} />
              {orders.data.truncated && <p class="muted small">Only the most recent orders were searched; narrow the dates to look further back.</p>}
              <Pager pagination={orders.data.pagination} on_page={(to_page) => apply(applied, to_page)} />
            </>
          )}
        </section>
      )}
    </>
  );
}
