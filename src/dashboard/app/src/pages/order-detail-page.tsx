// One order: what was bought, for whom, the money before and after, the electricity token and units,
// and the status history. An order still moving refreshes itself every few seconds.
// An agent's order (agent_id: read by its parent with Billvend-Account, docs/api.md "Agents in the
// dashboard") is shown read-only: no order care, no receipt link (a plain link cannot carry the header).
import { useState } from 'preact/hooks';
import { api_href, type Environment, type Order } from '../api.js';
import { use_api } from '../use-api.js';
import { lagos_time, lagos_time_seconds, naira, provider_label, service_name } from '../format.js';
import { EmptyState, ErrorBanner, Loading, Notice } from '../components/feedback.js';
import { PageHeader } from '../components/layout.js';
import { StatusBadge } from '../components/status-badge.js';
import { CopyButton } from '../components/copy-button.js';
import { href_of, Link } from '../router.js';
import { OrderCare } from '../components/order-care.js';

/** How often an order in pending or processing is asked for again. */
const open_order_refresh_ms = 3000;

function open(order: Order): boolean {
  return order.status === 'pending' || order.status === 'processing';
}

export function OrderDetailPage({ reference, environment, agent_id }: { reference: string; environment: Environment; agent_id?: number }) {
  // The care card's last answer (a cancel's "refunded"), kept here: a cancel makes the order final, and the
  // card, shown for open orders only, goes with the reload that follows, taking its own notice with it.
  const [care_answer, set_care_answer] = useState<string | null>(null);
  const order = use_api<Order>(`/orders/${encodeURIComponent(reference)}`, { environment, account: agent_id }, { every_ms: open_order_refresh_ms, while_data: open });
  const data = order.data;
  const mine = agent_id === undefined;

  return (
    <>
      <p class="crumbs">
        {mine ? <Link href={href_of('/orders', environment)}>← Orders</Link> : <Link href={href_of(`/agents/${agent_id}`, environment)}>← The agent</Link>}
      </p>
      <PageHeader title="Order">
        {data && <StatusBadge status={data.status} />}
        {data && mine && (
          <a class="button" data-testid="order-receipt" href={api_href(`/orders/${encodeURIComponent(data.reference)}/receipt`, environment)} target="_blank" rel="noopener">
            Receipt
          </a>
        )}
      </PageHeader>
      {order.error?.code === 'transaction.not_found' ? (
        <EmptyState title="No such order on this side.">
          <p>
            There is no {environment} order <code>{reference}</code> on {mine ? 'your' : 'this agent\'s'} account. {environment === 'live' ? 'It may be a test order: switch to Test.' : 'It may be a live order: switch to Live.'}
          </p>
        </EmptyState>
      ) : (
        <ErrorBanner error={order.error} on_retry={order.reload} />
      )}
      {order.loading && data === null && <Loading label="Loading the order…" />}
      {data && (
        <>
          {open(data) && <Notice kind="info">The provider is still working on this order; this page updates by itself.</Notice>}
          {data.needs_review && <Notice kind="warning">The provider has not answered by the expected time; our operators are looking into this order.</Notice>}
          {open(data) && mine && <OrderCare order={data} environment={environment} reload={order.reload} on_answer={set_care_answer} />}
          {!open(data) && care_answer && <Notice kind="info">{care_answer}</Notice>}
          {data.token && (
            <section class="card token-card" aria-label="Electricity token">
              <span class="wallet-label">Token</span>
              <div class="secret-row">
                <code class="token" data-testid="order-token">{data.token}</code>
                <CopyButton text={data.token} label="Copy token" />
              </div>
              {data.units && <p class="figure-small" data-testid="order-units">{data.units}</p>}
            </section>
          )}
          {data.pins && data.pins.length > 0 && (
            <section class="card token-card" aria-label="Purchased PINs">
              <span class="wallet-label">{data.pins.length === 1 ? 'PIN' : `${data.pins.length} PINs`}</span>
              {data.pins.map((item, index) => (
                <div class="secret-row" key={`${index}`} data-testid="order-pin">
                  {item.serial && <span class="figure-small">Serial {item.serial}</span>}
                  <code class="token">{item.pin}</code>
                  <CopyButton text={item.serial ? `${item.serial} ${item.pin}` : item.pin} label={`Copy PIN ${index + 1}`} />
                </div>
              ))}
            </section>
          )}
          <div class="grid-2">
            <section class="card">
              <h2>Details</h2>
              <dl class="facts" data-testid="order-facts">
                <dt>Reference</dt>
                <dd class="mono">{data.reference}</dd>
                {data.client_reference && (
                  <>
                    <dt>Your reference</dt>
                    <dd class="mono" data-testid="order-client-reference">{data.client_reference}</dd>
                  </>
                )}
                <dt>Service</dt>
                <dd>
                  {service_name(data.service_type)} {provider_label(data) && <span class="muted">· {provider_label(data)}</span>}
                </dd>
                {data.plan && (
                  <>
                    <dt>{data.service_type === 'tv' ? 'Package' : 'Plan'}</dt>
                    <dd>{data.plan}</dd>
                  </>
                )}
                <dt>{data.service_type === 'electricity' ? 'Meter' : data.service_type === 'tv' ? 'Smartcard' : 'Phone'}</dt>
                <dd class="mono">{data.recipient}</dd>
                {data.meter_type && (
                  <>
                    <dt>Meter type</dt>
                    <dd>{data.meter_type}</dd>
                  </>
                )}
                {data.customer_name && (
                  <>
                    <dt>Customer</dt>
                    <dd>{data.customer_name}</dd>
                  </>
                )}
                <dt>Amount</dt>
                <dd class="figure-small">{naira(data.amount)}</dd>
                <dt>Charged to wallet</dt>
                <dd data-testid="order-amount-charged">{naira(data.amount_charged)}</dd>
                <dt>Commission</dt>
                <dd data-testid="order-commission">{naira(data.commission)}</dd>
                <dt>Wallet before</dt>
                <dd>{naira(data.wallet_balance_before)}</dd>
                <dt>Wallet after</dt>
                <dd>{naira(data.wallet_balance_after)}</dd>
                <dt>Created</dt>
                <dd>{lagos_time(data.created_at)}</dd>
                {data.delivered_at && (
                  <>
                    <dt>Delivered</dt>
                    <dd>{lagos_time(data.delivered_at)}</dd>
                  </>
                )}
                {data.failed_at && (
                  <>
                    <dt>Failed</dt>
                    <dd>{lagos_time(data.failed_at)}</dd>
                  </>
                )}
                {data.failure_reason && (
                  <>
                    <dt>Reason</dt>
                    <dd>{data.failure_reason}</dd>
                  </>
                )}
                <dt>Refunded</dt>
                <dd>{data.reversed ? `Yes, ${lagos_time(data.reversed_at)}` : data.status === 'failed' ? 'Pending refund' : 'No'}</dd>
              </dl>
            </section>
            {data.metadata && Object.keys(data.metadata).length > 0 && (
              <section class="card">
                <h2>Metadata</h2>
                <dl class="facts" data-testid="order-metadata">
                  {Object.entries(data.metadata).flatMap(([key, value]) => [<dt key={`k-${key}`}>{key}</dt>, <dd key={`v-${key}`}>{value}</dd>])}
                </dl>
              </section>
            )}
            <section class="card">
              <h2>Status history</h2>
              <ol class="timeline" data-testid="status-history">
                {data.status_history.map((step, index) => (
                  <li key={index} class={`timeline-step step-${step.status}`}>
                    <StatusBadge status={step.status} />
                    <time dateTime={step.at}>{lagos_time_seconds(step.at)}</time>
                  </li>
                ))}
              </ol>
            </section>
            {data.attempts !== undefined && data.attempts.length > 0 && (
              <section class="card">
                <h2>Upstream attempts</h2>
                <table class="table table-cards" data-testid="upstream-attempts">
                  <thead>
                    <tr><th>Upstream</th><th>Request id</th><th>Outcome</th><th>At</th></tr>
                  </thead>
                  <tbody>
                    {data.attempts.map((attempt, index) => (
                      <tr key={index}>
                        <td data-label="Upstream">{attempt.upstream}</td>
                        <td data-label="Request id"><code>{attempt.request_id}</code></td>
                        <td data-label="Outcome">{attempt.outcome}</td>
                        <td data-label="At"><time dateTime={attempt.at}>{lagos_time_seconds(attempt.at)}</time></td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
            )}
          </div>
        </>
      )}
    </>
  );
}
