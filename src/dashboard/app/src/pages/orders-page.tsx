// Orders, searched by reference, client reference or recipient and filtered by service, status and
// Lagos calendar dates, with the same filter form as the wallet history (components/filter-form.tsx).
import { api_href, type OrderSummary, type Pagination } from '../api.js';
import { use_api } from '../use-api.js';
import { service_name, service_types } from '../format.js';
import { EmptyState, ErrorBanner, Loading } from '../components/feedback.js';
import { FilterForm, use_filters, type FilterField } from '../components/filter-form.js';
import { PageHeader } from '../components/layout.js';
import { Pager } from '../components/pager.js';
import { OrderTable } from './order-table.js';
import type { Place } from '../router.js';

type FilterName = 'q' | 'service' | 'status' | 'from' | 'to';

const filter_fields: readonly FilterField<FilterName>[] = [
  // The search takes our reference, the reseller's own client_reference, or a phone, meter or
  // smartcard number (src/dashboard/session-routes.ts, search_orders).
  { kind: 'search', name: 'q', label: 'Search', placeholder: 'Reference, your reference, phone, meter or smartcard number', length_max: 64 },
  // Every family the API sells, from the session (format.ts service_types): none listed here.
  { kind: 'select', name: 'service', label: 'Service', get choices() { return [['', 'All services'] as const, ...service_types().map((name) => [name, service_name(name)] as const)]; } },
  { kind: 'select', name: 'status', label: 'Status', choices: [['', 'All statuses'], ['delivered', 'Delivered'], ['processing', 'Processing'], ['pending', 'Pending'], ['failed', 'Failed']] },
  { kind: 'date', name: 'from', label: 'From' },
  { kind: 'date', name: 'to', label: 'To' },
];

const per_page = 20;

export function OrdersPage({ place }: { place: Place }) {
  const environment = place.environment;
  const filters = use_filters(place, '/orders', filter_fields.map((field) => field.name));
  const { applied, page, filtered, apply } = filters;

  const orders = use_api<{ orders: OrderSummary[]; pagination: Pagination; truncated: boolean }>('/orders', {
    environment,
    query: { ...applied, page, per_page },
  });

  return (
    <>
      <PageHeader title="Orders">
        <a class="button button-small" href={api_href('/export/orders', environment, { ...applied })} download>
          Export CSV
        </a>
      </PageHeader>
      <FilterForm label="Filter orders" fields={filter_fields} filters={filters} />
      <ErrorBanner error={orders.error} on_retry={orders.reload} />
      {orders.loading && orders.data === null && <Loading label="Loading orders…" />}
      {orders.data && (
        <section class="card">
          {orders.data.orders.length === 0 ? (
            <EmptyState title={filtered ? 'No orders match these filters.' : `No ${environment} orders yet.`}>
              {filtered ? <p>Try a wider date range, another status or another search.</p> : <p>Purchases made with your {environment} API keys appear here.</p>}
            </EmptyState>
          ) : (
            <>
              <OrderTable orders={orders.data.orders} environment={environment} />
              {orders.data.truncated && <p class="muted small">Only the most recent orders were searched; narrow the dates to look further back.</p>}
              <Pager pagination={orders.data.pagination} on_page={(to_page) => apply(applied, to_page)} />
            </>
          )}
        </section>
      )}
    </>
  );
}
