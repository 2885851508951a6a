// Orders, searched by reference, client reference or recipient and filtered by service, status and
// Lagos calendar dates, with the same filter form as the wallet history (components/filter-form.tsx).
import { api_href } from '../api.js';
import { use_filters } from '../components/filter-form.js';
import { PageHeader } from '../components/layout.js';
import { OrderList, order_filter_fields } from './order-list.js';
import { href_of, type Place } from '../router.js';

export function OrdersPage({ place }: { place: Place }) {
  const environment = place.environment;
  const { applied } = use_filters(place, '/orders', order_filter_fields.map((field) => field.name));
  return (
    <>
      <PageHeader title="Orders">
        <a class="button button-small" href={api_href('/export/orders', environment, { ...applied })} download>
          Export CSV
        </a>
      </PageHeader>
      <OrderList
        place={place}
        path="/orders"
        order_href={(reference) => href_of(`/orders/${encodeURIComponent(reference)}`, environment)}
        none_yet={`Purchases made with your ${environment} API keys appear here.`}
      />
    </>
  );
}
