// Webhook endpoints of one side (at most 10), each with its own secret shown once; dead deliveries
// of the side with a replay button (docs/spec.md section 6: "can be replayed manually from the dashboard").
// Each endpoint can be sent a webhook.test event, have its events edited and its secret rolled (the
// new secret shown once; the old one still signs for 24 hours: docs/api.md "Rolling a secret").
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, type CreatedWebhook, type Delivery, type Environment, type EventKind, type WebhookEndpoint, type WebhookList } from '../api.js';
import { use_action } from '../use-action.js';
import { use_api } from '../use-api.js';
import { lagos_attempt_time, lagos_time } from '../format.js';
import { EmptyState, ErrorBanner, Loading, Notice } from '../components/feedback.js';
import { PageHeader } from '../components/layout.js';
import { HttpCode, StatusBadge } from '../components/status-badge.js';
import { SecretReveal } from '../components/secret-reveal.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { href_of, Link } from '../router.js';

const endpoints_max = 10;

/**
 * The event kinds an endpoint can receive, one checkbox each, as the server listed them. A kind an
 * endpoint gets only when chosen (service.status_changed: about the platform, not the account's money)
 * says so.
 */
function EventKindChoices({ kinds, name, chosen, on_toggle }: { kinds: WebhookList; name: string; chosen: EventKind[]; on_toggle: (kind: EventKind) => void }) {
  return (
    <fieldset class="field">
      <legend>Events</legend>
      <div class="choice-list choice-grid">
        {kinds.event_kinds.map((kind) => (
          <label key={kind} class="choice">
            <input type="checkbox" name={name} value={kind} checked={chosen.includes(kind)} onChange={() => on_toggle(kind)} />
            {/* One text box beside the box: a long kind's note wraps under its name, not into a column of its own. */}
            <span class="choice-text">
              <code>{kind}</code>
              {!kinds.default_event_kinds.includes(kind) && <span class="muted small"> (only when chosen)</span>}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Adds or removes a kind, keeping the server's order. */
function toggled(kinds: WebhookList, events: EventKind[], kind: EventKind): EventKind[] {
  const next = events.includes(kind) ? events.filter((k) => k !== kind) : [...events, kind];
  return kinds.event_kinds.filter((k) => next.includes(k));
}

function RegisterForm({ environment, kinds, on_created }: { environment: Environment; kinds: WebhookList; on_created: (created: CreatedWebhook) => void }) {
  const [url, set_url] = useState('');
  const [events, set_events] = useState<EventKind[]>([...kinds.default_event_kinds]);
  const [description, set_description] = useState('');
  const { busy, error, run } = use_action();

  const submit = (event: Event) => {
    event.preventDefault();
    return run(async () => {
      const { data } = await call<CreatedWebhook>('POST', '/webhooks', {
        environment,
        body: { url: url.trim(), events, ...(description.trim() ? { description: description.trim() } : {}) },
      });
      set_url('');
      set_description('');
      set_events([...kinds.default_event_kinds]);
      on_created(data);
    });
  };

  return (
    <form class="card form" onSubmit={submit} aria-labelledby="register-title">
      <h2 id="register-title">Register an endpoint ({environment})</h2>
      <ErrorBanner error={error} />
      <label class="field">
        <span>HTTPS URL</span>
        <input type="url" name="url" required placeholder="https://example.ng/billvend/webhooks" value={url} onInput={(e) => set_url(e.currentTarget.value)} />
        <small class="muted">Only https:// URLs on the public internet are accepted.</small>
      </label>
      <EventKindChoices kinds={kinds} name="events" chosen={events} on_toggle={(kind) => set_events(toggled(kinds, events, kind))} />
      <label class="field">
        <span>Description (optional)</span>
        <input name="description" maxLength={200} value={description} onInput={(e) => set_description(e.currentTarget.value)} />
      </label>
      <button type="submit" class="button button-primary" disabled={busy || events.length === 0}>
        {busy ? 'Registering…' : 'Register endpoint'}
      </button>
    </form>
  );
}

/** Edits which event kinds an endpoint receives, in a modal dialog. */
function EditEventsDialog({ endpoint, environment, kinds, on_saved, on_close }: { endpoint: WebhookEndpoint; environment: Environment; kinds: WebhookList; on_saved: (message: string) => void; on_close: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [events, set_events] = useState<EventKind[]>([...endpoint.events]);
  const { busy, error, run } = use_action();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog !== null && !dialog.open) dialog.showModal();
  }, []);
  const save = (event: Event) => {
    event.preventDefault();
    return run(async () => {
      const { message } = await call('PATCH', `/webhooks/${endpoint.id}`, { environment, body: { events } });
      on_saved(`${message || 'Webhook endpoint updated.'} ${endpoint.url} now receives ${events.length === kinds.event_kinds.length ? 'all events' : events.join(', ')}.`);
      ref.current?.close();
    });
  };
  return (
    <dialog ref={ref} class="dialog" aria-labelledby="edit-events-title" onClose={on_close} onCancel={(event) => busy && event.preventDefault()}>
      <form onSubmit={save}>
        <h2 id="edit-events-title">Events for this endpoint</h2>
        <p class="break small">
          <code>{endpoint.url}</code>
        </p>
        <ErrorBanner error={error} />
        <EventKindChoices kinds={kinds} name="edit_events" chosen={events} on_toggle={(kind) => set_events(toggled(kinds, events, kind))} />
        <div class="dialog-actions">
          <button type="button" class="button" onClick={() => ref.current?.close()} disabled={busy}>
            Cancel
          </button>
          <button type="submit" class="button button-primary" disabled={busy || events.length === 0}>
            {busy ? 'Saving…' : 'Save events'}
          </button>
        </div>
      </form>
    </dialog>
  );
}

function DeadDeliveries({ environment, endpoints }: { environment: Environment; endpoints: WebhookEndpoint[] }) {
  const dead = use_api<{ deliveries: Delivery[] }>('/webhooks-dead', { environment });
  /** Which delivery's replay is running: its button says so. */
  const [replaying, set_replaying] = useState<number | null>(null);
  const { error, run } = use_action();
  const [notice, set_notice] = useState('');
  const url_of = (id: number) => endpoints.find((e) => e.id === id)?.url ?? `endpoint ${id}`;

  const replay = async (delivery: Delivery) => {
    set_replaying(delivery.id);
    set_notice('');
    await run(async () => {
      const { message } = await call('POST', `/webhooks/${delivery.endpoint_id}/deliveries/${delivery.id}/replay`, { environment });
      set_notice(`${message || 'Replay scheduled.'} ${delivery.event} (${delivery.event_id}) is on its way again.`);
      dead.reload();
    });
    set_replaying(null);
  };

  return (
    <section class="card" aria-labelledby="dead-title" data-testid="dead-deliveries">
      <div class="card-header">
        <h2 id="dead-title">Dead deliveries</h2>
        <button type="button" class="button button-small button-ghost" onClick={dead.reload}>
          Refresh
        </button>
      </div>
      <p class="muted small">An event whose 5 retries all failed (30 s, 5 min, 30 min, 2 h and 8 h apart) is dead. Fix the receiver, then replay it.</p>
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={error ?? dead.error} />
      {dead.loading && dead.data === null && <Loading />}
      {dead.data &&
        (dead.data.deliveries.length === 0 ? (
          <EmptyState title="No dead deliveries." />
        ) : (
          <table class="table table-cards">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Endpoint</th>
                <th scope="col">Attempts</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {dead.data.deliveries.map((delivery) => {
                const last = delivery.attempts[delivery.attempts.length - 1];
                return (
                  <tr key={delivery.id} data-delivery-id={delivery.id}>
                    <td data-label="Event">
                      <div>
                        <code>{delivery.event}</code>
                        <span class="muted small block mono break">{delivery.event_id}</span>
                      </div>
                    </td>
                    <td data-label="Endpoint" class="break">
                      <Link href={href_of(`/webhooks/${delivery.endpoint_id}`, environment)}>{url_of(delivery.endpoint_id)}</Link>
                    </td>
                    <td data-label="Attempts">
                      <details class="attempts">
                        <summary>
                          <span data-testid="attempt-count">{delivery.attempts.length}</span>, last {last ? <HttpCode code={last.status_code} /> : '—'}
                        </summary>
                        <ol class="attempt-list" data-testid="attempt-list">
                          {delivery.attempts.map((attempt) => (
                            <li key={`${attempt.series}-${attempt.number}`}>
                              <HttpCode code={attempt.status_code} /> {lagos_attempt_time(attempt.at)}
                              {attempt.error && <span class="muted small"> · {attempt.error}</span>}
                            </li>
                          ))}
                        </ol>
                      </details>
                    </td>
                    <td data-label="Created">{lagos_time(delivery.created_at)}</td>
                    <td data-label="">
                      <button type="button" class="button button-small button-primary" disabled={replaying !== null} onClick={() => replay(delivery)}>
                        {replaying === delivery.id ? 'Replaying…' : 'Replay'}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        ))}
    </section>
  );
}

export function WebhooksPage({ environment }: { environment: Environment }) {
  const endpoints = use_api<WebhookList>('/webhooks', { environment });
  const [created, set_created] = useState<CreatedWebhook | null>(null);
  const [deleting, set_deleting] = useState<WebhookEndpoint | null>(null);
  const [rolling, set_rolling] = useState<WebhookEndpoint | null>(null);
  const [editing, set_editing] = useState<WebhookEndpoint | null>(null);
  const [rolled, set_rolled] = useState<CreatedWebhook | null>(null);
  const [notice, set_notice] = useState('');
  /** The endpoint whose test event is being sent, and where that test event went. */
  const [testing, set_testing] = useState<number | null>(null);
  const [tested, set_tested] = useState<WebhookEndpoint | null>(null);
  const test_action = use_action();
  const list = endpoints.data?.webhooks ?? [];
  const kinds_count = endpoints.data?.event_kinds.length ?? 0;

  const send_test = async (endpoint: WebhookEndpoint) => {
    set_testing(endpoint.id);
    set_notice('');
    set_tested(null);
    await test_action.run(async () => {
      await call('POST', `/webhooks/${endpoint.id}/test`, { environment });
      set_tested(endpoint);
    });
    set_testing(null);
  };

  return (
    <>
      <PageHeader title="Webhooks" />
      {created && <SecretReveal title={`Signing secret for ${created.url}`} secret={created.secret} on_done={() => set_created(null)} />}
      {rolled && (
        <>
          <SecretReveal title={`New signing secret for ${rolled.url}`} secret={rolled.secret} on_done={() => set_rolled(null)} />
          {rolled.previous_secret_expires_at && (
            <Notice kind="info">
              Deliveries carry a signature with the old secret as well until {lagos_time(rolled.previous_secret_expires_at)} (X-Service-Signature-Previous, and a second value in webhook-signature). Update your receiver before then.
            </Notice>
          )}
        </>
      )}
      {notice && <Notice>{notice}</Notice>}
      {tested && (
        <Notice>
          Test event (webhook.test) sent to <span class="break">{tested.url}</span>.{' '}
          <Link href={href_of(`/webhooks/${tested.id}`, environment)}>See its delivery</Link>
        </Notice>
      )}
      <ErrorBanner error={test_action.error} />
      <ErrorBanner error={endpoints.error} on_retry={endpoints.reload} />
      {endpoints.loading && endpoints.data === null && <Loading label="Loading endpoints…" />}
      {endpoints.data && (
        <section class="card" aria-labelledby="endpoints-title">
          <div class="card-header">
            <h2 id="endpoints-title">Endpoints</h2>
            <span class="muted small">
              {list.length} of {endpoints_max}
            </span>
          </div>
          {list.length === 0 ? (
            <EmptyState title={`No ${environment} webhook endpoints yet.`}>
              <p>Register an HTTPS URL to hear about deliveries, failures and wallet movements as they happen.</p>
            </EmptyState>
          ) : (
            <table class="table table-cards" data-testid="endpoints-table">
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">Secret</th>
                  <th scope="col">State</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((endpoint) => (
                  <tr key={endpoint.id} data-endpoint-id={endpoint.id}>
                    <td data-label="URL" class="break">
                      <div>
                        <Link href={href_of(`/webhooks/${endpoint.id}`, environment)}>{endpoint.url}</Link>
                        {endpoint.description && <span class="muted small block">{endpoint.description}</span>}
                      </div>
                    </td>
                    <td data-label="Events">{endpoint.events.length === kinds_count ? 'All events' : endpoint.events.join(', ')}</td>
                    <td data-label="Secret">
                      <div>
                        <span class="mono nowrap">{endpoint.secret_hint}</span>
                        {endpoint.previous_secret_expires_at && <span class="muted small block">old secret also signs until {lagos_time(endpoint.previous_secret_expires_at)}</span>}
                      </div>
                    </td>
                    <td data-label="State">
                      {endpoint.enabled ? <StatusBadge status="enabled" /> : <StatusBadge status="disabled" label={`disabled: ${endpoint.disabled_reason ?? ''}`} />}
                    </td>
                    <td data-label="Created">{lagos_time(endpoint.created_at)}</td>
                    <td data-label="" class="actions-wrap">
                      <div class="button-row">
                        <Link href={href_of(`/webhooks/${endpoint.id}`, environment)} class="button button-small">
                          Deliveries
                        </Link>
                        <button type="button" class="button button-small" disabled={testing !== null} onClick={() => send_test(endpoint)}>
                          {testing === endpoint.id ? 'Sending…' : 'Send test event'}
                        </button>
                        <button type="button" class="button button-small" onClick={() => set_editing(endpoint)}>
                          Edit events
                        </button>
                        <button type="button" class="button button-small" onClick={() => set_rolling(endpoint)}>
                          Roll secret
                        </button>
                        <button type="button" class="button button-small button-danger-outline" onClick={() => set_deleting(endpoint)}>
                          Delete
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
      {endpoints.data && list.length < endpoints_max && (
        <RegisterForm
          key={environment}
          environment={environment}
          kinds={endpoints.data}
          on_created={(endpoint) => {
            set_notice('');
            set_created(endpoint);
            endpoints.reload();
          }}
        />
      )}
      {endpoints.data && <DeadDeliveries environment={environment} endpoints={list} />}
      {editing && endpoints.data && (
        <EditEventsDialog
          endpoint={editing}
          environment={environment}
          kinds={endpoints.data}
          on_close={() => set_editing(null)}
          on_saved={(message) => {
            set_notice(message);
            endpoints.reload();
          }}
        />
      )}
      {rolling && (
        <ConfirmDialog
          title="Roll this endpoint's secret?"
          confirm_label="Roll secret"
          on_close={() => set_rolling(null)}
          on_confirm={async () => {
            const { data } = await call<CreatedWebhook>('POST', `/webhooks/${rolling.id}/roll-secret`, { environment });
            set_notice('');
            set_tested(null);
            set_rolled(data);
            endpoints.reload();
          }}
        >
          <p>
            <code class="break">{rolling.url}</code> gets a new signing secret, shown once. For 24 hours every delivery is signed with the old secret as well, so your receiver keeps working while you switch it to the new one.
          </p>
        </ConfirmDialog>
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete this endpoint?"
          confirm_label="Delete endpoint"
          on_close={() => set_deleting(null)}
          on_confirm={async () => {
            await call('DELETE', `/webhooks/${deleting.id}`, { environment });
            set_notice(`Endpoint ${deleting.url} deleted.`);
            endpoints.reload();
          }}
        >
          <p>
            <code class="break">{deleting.url}</code> stops receiving events, and its pending deliveries are cancelled.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
