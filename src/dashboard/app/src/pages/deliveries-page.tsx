// Deliveries of one webhook endpoint, newest first, with every attempt: when, the receiver's HTTP
// status code, how long it took, and the error when there was no answer. A replay starts a new
// series of attempts; "Retry now" attempts a delivery waiting for its next retry at once; the page
// refreshes itself while a delivery is still pending.
import { useState } from 'preact/hooks';
import { call, type Delivery, type Environment, type Pagination, type WebhookEndpoint } from '../api.js';
import { use_action } from '../use-action.js';
import { use_api } from '../use-api.js';
import { lagos_attempt_time, lagos_time, lagos_time_seconds } from '../format.js';
import { EmptyState, ErrorBanner, Loading, Notice } from '../components/feedback.js';
import { PageHeader } from '../components/layout.js';
import { HttpCode, StatusBadge } from '../components/status-badge.js';
import { Pager } from '../components/pager.js';
import { href_of, Link } from '../router.js';

const per_page = 20;

interface DeliveryList {
  deliveries: Delivery[];
  pagination: Pagination;
}

/** A delivery still pending will change soon: its next attempt is scheduled. */
function moving(list: DeliveryList): boolean {
  return list.deliveries.some((delivery) => delivery.status === 'pending');
}
const pending_refresh_ms = 3000;

/** Pending after a failed attempt of its current series: it waits for a retry, which can happen now. */
function waiting_for_retry(delivery: Delivery): boolean {
  return delivery.status === 'pending' && delivery.attempts.some((attempt) => attempt.series === delivery.series);
}

function DeliveryCard({ delivery, environment, on_replayed }: { delivery: Delivery; environment: Environment; on_replayed: (message: string) => void }) {
  const { busy, error, run } = use_action();
  const replay = () => run(async () => {
    const { message } = await call('POST', `/webhooks/${delivery.endpoint_id}/deliveries/${delivery.id}/replay`, { environment });
    on_replayed(message || 'Replay scheduled.');
  });
  const retry = () => run(async () => {
    const { message } = await call('POST', `/webhooks/${delivery.endpoint_id}/deliveries/${delivery.id}/retry`, { environment });
    on_replayed(message || 'Retry scheduled.');
  });
  return (
    <article class="card delivery" data-delivery-id={delivery.id} data-status={delivery.status}>
      <div class="card-header">
        <div>
          <code>{delivery.event}</code> <StatusBadge status={delivery.status} />
          <span class="muted small block mono">{delivery.event_id}</span>
        </div>
        {delivery.status !== 'pending' && (
          <button type="button" class="button button-small" disabled={busy} onClick={replay}>
            {busy ? 'Replaying…' : 'Replay'}
          </button>
        )}
        {waiting_for_retry(delivery) && (
          <button type="button" class="button button-small button-primary" disabled={busy} onClick={retry}>
            {busy ? 'Retrying…' : 'Retry now'}
          </button>
        )}
      </div>
      <ErrorBanner error={error} />
      <p class="muted small">
        Created {lagos_time(delivery.created_at)}
        {delivery.next_attempt_at && <> · next attempt {lagos_time_seconds(delivery.next_attempt_at)}</>}
      </p>
      {delivery.attempts.length === 0 ? (
        <p class="muted small">No attempt yet.</p>
      ) : (
        <div class="table-scroll">
          <table class="table table-compact" data-testid="attempts-table">
            <thead>
              <tr>
                <th scope="col">Series</th>
                <th scope="col">#</th>
                <th scope="col">At</th>
                <th scope="col">Answer</th>
                <th scope="col" class="num">Took</th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {delivery.attempts.map((attempt) => (
                <tr key={`${attempt.series}-${attempt.number}`}>
                  <td>{attempt.series}</td>
                  <td>{attempt.number}</td>
                  <td class="nowrap">{lagos_attempt_time(attempt.at)}</td>
                  <td>
                    <HttpCode code={attempt.status_code} />
                  </td>
                  <td class="num">{Math.round(attempt.duration_ms)} ms</td>
                  <td class="break">{attempt.error ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </article>
  );
}

export function DeliveriesPage({ endpoint_id, environment }: { endpoint_id: string; environment: Environment }) {
  const [page, set_page] = useState(1);
  const [notice, set_notice] = useState('');
  const endpoints = use_api<{ webhooks: WebhookEndpoint[] }>('/webhooks', { environment });
  const endpoint = endpoints.data?.webhooks.find((e) => String(e.id) === endpoint_id) ?? null;
  const first = use_api<DeliveryList>(`/webhooks/${encodeURIComponent(endpoint_id)}/deliveries`, { environment, query: { page, per_page } }, { every_ms: pending_refresh_ms, while_data: moving });
  const deliveries = first.data;
  const testing = use_action();
  const send_test = () => testing.run(async () => {
    const { message } = await call('POST', `/webhooks/${encodeURIComponent(endpoint_id)}/test`, { environment });
    set_notice(message || 'Test event on its way.');
    set_page(1);
    first.reload();
  });

  return (
    <>
      <p class="crumbs">
        <Link href={href_of('/webhooks', environment)}>← Webhooks</Link>
      </p>
      <PageHeader title="Deliveries">
        {endpoint && (
          <button type="button" class="button button-small" disabled={testing.busy} onClick={send_test}>
            {testing.busy ? 'Sending…' : 'Send test event'}
          </button>
        )}
        <button type="button" class="button button-small button-ghost" onClick={first.reload}>
          Refresh
        </button>
      </PageHeader>
      <ErrorBanner error={testing.error} />
      {endpoint && (
        <p class="break">
          Endpoint <code>{endpoint.url}</code> {!endpoint.enabled && <StatusBadge status="disabled" label={`disabled: ${endpoint.disabled_reason ?? ''}`} />}
        </p>
      )}
      {notice && <Notice>{notice}</Notice>}
      {first.error?.code === 'webhooks.not_found' ? (
        <EmptyState title="No such endpoint on this side.">
          <Link href={href_of('/webhooks', environment)}>Back to webhooks</Link>
        </EmptyState>
      ) : (
        <ErrorBanner error={first.error} on_retry={first.reload} />
      )}
      {first.loading && deliveries === null && <Loading label="Loading deliveries…" />}
      {deliveries &&
        (deliveries.deliveries.length === 0 ? (
          <EmptyState title="No deliveries yet.">
            <p>Events for this endpoint appear here as they are sent.</p>
          </EmptyState>
        ) : (
          <>
            {deliveries.deliveries.map((delivery) => (
              <DeliveryCard
                key={delivery.id}
                delivery={delivery}
                environment={environment}
                on_replayed={(message) => {
                  set_notice(message);
                  first.reload();
                }}
              />
            ))}
            <Pager pagination={deliveries.pagination} on_page={set_page} />
          </>
        ))}
    </>
  );
}
