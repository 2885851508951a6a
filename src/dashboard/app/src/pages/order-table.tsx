// The table of orders used by the overview and the orders page, each order with the reseller's own
// client reference when it has one; on a phone each row becomes a card (the data-label attributes name
// the cells there).
import type { Environment, OrderSummary } from '../api.js';
import { lagos_time, naira, provider_label, service_name } from '../format.js';
import { StatusBadge } from '../components/status-badge.js';
import { href_of, Link } from '../router.js';

/** order_href: where an order opens (an agent's order opens under its page); by default the session's own Orders page. */
export function OrderTable({ orders, environment, order_href }: { orders: OrderSummary[]; environment?: Environment; order_href?: (reference: string) => string }) {
  const href = order_href ?? ((reference: string) => href_of(`/orders/${encodeURIComponent(reference)}`, environment ?? 'live'));
  return (
    <table class="table table-cards" data-testid="orders-table">
      <thead>
        <tr>
          <th scope="col">Reference</th>
          <th scope="col">Service</th>
          <th scope="col">Recipient</th>
          <th scope="col" class="num">Amount</th>
          <th scope="col">Status</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <tr key={order.reference} data-reference={order.reference}>
            <td data-label="Reference">
              <div>
                <Link href={href(order.reference)} class="mono">
                  {order.reference}
                </Link>
                {/* The reseller reconciles by its own reference: shown with ours (docs/api.md "Client references and metadata"). */}
                {order.client_reference && (
                  <span class="muted small block mono break" data-testid="order-row-client-reference">
                    {order.client_reference}
                  </span>
                )}
              </div>
            </td>
            <td data-label="Service">
              {/* One unit: "Airtime · GLO" never splits across lines (a phone's card layout did). */}
              <span class="service-cell">
                {service_name(order.service_type)}
                {provider_label(order) && <span class="muted small"> · {provider_label(order)}</span>}
              </span>
            </td>
            <td data-label="Recipient" class="mono">{order.recipient}</td>
            <td data-label="Amount" class="num">
              {naira(order.amount)}
              {order.commission > 0 && <span class="muted small" data-testid="order-charged"> · paid {naira(order.amount_charged)}</span>}
            </td>
            <td data-label="Status">
              <StatusBadge status={order.status} />
            </td>
            <td data-label="Created">{lagos_time(order.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
