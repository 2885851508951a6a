// Orders, filtered by service, status and Lagos calendar dates. The filters live in the address, so
// that the back button, a reload or a shared link show the same list.
import { useEffect, useState } from 'preact/hooks';
import { api_href, type OrderSummary, type Pagination } from '../api.js';
import { use_api } from '../use-api.js';
import { lagos_today } from '../format.js';
import { EmptyState, ErrorBanner, Loading } from '../components/feedback.js';
import { PageHeader } from '../components/layout.js';
import { Pager } from '../components/pager.js';
import { OrderTable } from './order-table.js';
import { href_of, navigate, type Place } from '../router.js';

interface Filters {
  q: string;
  service: string;
  status: string;
  from: string;
  to: string;
}

const per_page = 20;

function filters_of(query: URLSearchParams): Filters {
  return { q: query.get('q') ?? '', service: query.get('service') ?? '', status: query.get('status') ?? '', from: query.get('from') ?? '', to: query.get('to') ?? '' };
}

export function OrdersPage({ place }: { place: Place }) {
  const environment = place.environment;
  const applied = filters_of(place.query);
  const page = Math.max(1, Number(place.query.get('page')) || 1);
  const [draft, set_draft] = useState<Filters>(applied);
  const applied_key = JSON.stringify(applied);
  useEffect(() => set_draft(applied), [applied_key]);

  const orders = use_api<{ orders: OrderSummary[]; pagination: Pagination; truncated: boolean }>('/orders', {
    environment,
    query: { ...applied, page, per_page },
  });
  const filtered = Object.values(applied).some((value) => value !== '');

  const apply = (filters: Filters, to_page = 1) => navigate(href_of('/orders', environment, { ...filters, page: to_page > 1 ? to_page : undefined }));
  const update = (name: keyof Filters) => (event: Event) => set_draft({ ...draft, [name]: (event.currentTarget as HTMLInputElement).value });

  return (
    <>
      <PageHeader title="Orders">
        <a class="button button-small" href={api_href('/export/orders', environment, { ...applied })} download>
          Export CSV
        </a>
      </PageHeader>
      <form
        class="card filters"
        aria-label="Filter orders"
        onSubmit={(event) => {
          event.preventDefault();
          apply(draft);
        }}
      >
        <label class="field field-search">
          <span>Search</span>
          <input type="search" name="q" maxLength={64} placeholder="Reference, phone, meter or smartcard number" value={draft.q} onInput={update('q')} />
        </label>
        <label class="field">
          <span>Service</span>
          <select name="service" value={draft.service} onChange={update('service')}>
            <option value="">All services</option>
            <option value="airtime">Airtime</option>
            <option value="data">Data</option>
            <option value="electricity">Electricity</option>
            <option value="tv">Cable TV</option>
          </select>
        </label>
        <label class="field">
          <span>Status</span>
          <select name="status" value={draft.status} onChange={update('status')}>
            <option value="">All statuses</option>
            <option value="delivered">Delivered</option>
            <option value="processing">Processing</option>
            <option value="pending">Pending</option>
            <option value="failed">Failed</option>
          </select>
        </label>
        <label class="field">
          <span>From</span>
          <input type="date" name="from" value={draft.from} max={lagos_today()} onInput={update('from')} />
        </label>
        <label class="field">
          <span>To</span>
          <input type="date" name="to" value={draft.to} max={lagos_today()} onInput={update('to')} />
        </label>
        <div class="filter-actions">
          <button type="submit" class="button button-primary">
            Apply filters
          </button>
          {filtered && (
            <button type="button" class="button button-ghost" onClick={() => apply({ q: '', service: '', status: '', from: '', to: '' })}>
              Clear
            </button>
          )}
        </div>
      </form>
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
