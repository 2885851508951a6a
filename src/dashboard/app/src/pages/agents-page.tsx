// A parent's agents (docs/api.md "Agents in the dashboard"): the list with each agent's status and both
// balances, and the form that opens one. Every call is the API's own handler under /dashboard/api with
// the session (src/dashboard/desk-routes.ts), so the API's rules hold: KYC level and daily limit not above
// the parent's, three levels at most. The password typed for the agent is sent once and never shown again:
// the form forgets it as soon as the agent is opened.
import { useState } from 'preact/hooks';
import { ApiError, call, type Agent, type Environment, type Pagination } from '../api.js';
import { use_action } from '../use-action.js';
import { use_api } from '../use-api.js';
import { lagos_time, naira } from '../format.js';
import { EmptyState, ErrorBanner, Loading, Notice } from '../components/feedback.js';
import { PageHeader } from '../components/layout.js';
import { Pager } from '../components/pager.js';
import { StatusBadge } from '../components/status-badge.js';
import { href_of, Link } from '../router.js';

const per_page = 25;

/** The message the API gave for one field of a refused form (validation.failed details, or the code's field). */
export function field_error(error: ApiError | null, field: string): string | null {
  if (error === null) return null;
  const detail = error.details.find((d) => d.field === field);
  if (detail !== undefined) return detail.message;
  if (error.code === 'account.email_taken' && field === 'email') return error.message;
  return null;
}

/** A field's message under it, tied to the input by aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | null }) {
  if (message === null) return null;
  return (
    <small class="form-error" id={id}>
      {message}
    </small>
  );
}

function CreateAgentForm({ environment, on_created }: { environment: Environment; on_created: (agent: Agent) => void }) {
  const [name, set_name] = useState('');
  const [email, set_email] = useState('');
  const [phone, set_phone] = useState('');
  const [password, set_password] = useState('');
  const [kyc_level, set_kyc_level] = useState('1');
  const [daily_limit, set_daily_limit] = useState('');
  const [pin, set_pin] = useState('');
  const { busy, error, run } = use_action();

  const submit = (event: Event) => {
    event.preventDefault();
    return run(async () => {
      const limit = daily_limit.replace(/,/g, '').trim();
      const { data } = await call<Agent>('POST', '/agents', {
        environment,
        body: {
          name: name.trim(),
          email: email.trim(),
          phone: phone.trim(),
          password,
          kyc_level: Number(kyc_level),
          ...(limit === '' ? {} : { daily_limit: Number(limit) }),
          ...(pin === '' ? {} : { pin }),
        },
      });
      // The password and PIN are the agent's now: gone from this page, never shown again.
      set_name('');
      set_email('');
      set_phone('');
      set_password('');
      set_pin('');
      set_daily_limit('');
      on_created(data);
    });
  };

  const described = (field: string) => (field_error(error, field) === null ? undefined : `agent-${field}-error`);
  return (
    <form class="card form" onSubmit={submit} aria-labelledby="create-agent-title" autocomplete="off">
      <h2 id="create-agent-title">Open an agent</h2>
      <p class="muted small">An agent is an account of its own under yours, with its own wallets, keys and PIN. It signs in to this dashboard with the email and password you set here.</p>
      <ErrorBanner error={error} />
      <label class="field">
        <span>Name</span>
        <input name="name" required maxLength={100} value={name} aria-describedby={described('name')} onInput={(e) => set_name(e.currentTarget.value)} />
        <FieldError id="agent-name-error" message={field_error(error, 'name')} />
      </label>
      <label class="field">
        <span>Email (its sign-in)</span>
        <input type="email" name="email" required autocomplete="off" value={email} aria-describedby={described('email')} onInput={(e) => set_email(e.currentTarget.value)} />
        <FieldError id="agent-email-error" message={field_error(error, 'email')} />
      </label>
      <label class="field">
        <span>Phone</span>
        <input type="tel" name="phone" required placeholder="08031234567" value={phone} aria-describedby={described('phone')} onInput={(e) => set_phone(e.currentTarget.value)} />
        <FieldError id="agent-phone-error" message={field_error(error, 'phone')} />
      </label>
      <label class="field">
        <span>Password (8 characters or more)</span>
        <input type="password" name="agent_password" required minLength={8} maxLength={200} autocomplete="new-password" value={password} aria-describedby={described('password')} onInput={(e) => set_password(e.currentTarget.value)} />
        <FieldError id="agent-password-error" message={field_error(error, 'password')} />
        <small class="muted">Give it to the agent yourself: it is not shown again, here or anywhere.</small>
      </label>
      <label class="field">
        <span>KYC level</span>
        <select name="kyc_level" value={kyc_level} aria-describedby={described('kyc_level')} onChange={(e) => set_kyc_level(e.currentTarget.value)}>
          {[0, 1, 2, 3].map((level) => (
            <option key={level} value={String(level)}>
              Level {level}
            </option>
          ))}
        </select>
        <FieldError id="agent-kyc_level-error" message={field_error(error, 'kyc_level')} />
      </label>
      <label class="field">
        <span>Daily limit (₦, optional)</span>
        <input name="daily_limit" inputMode="decimal" placeholder="Its KYC level's, at most yours" value={daily_limit} aria-describedby={described('daily_limit')} onInput={(e) => set_daily_limit(e.currentTarget.value)} />
        <FieldError id="agent-daily_limit-error" message={field_error(error, 'daily_limit')} />
      </label>
      <label class="field">
        <span>Transaction PIN (5 digits, optional)</span>
        <input type="password" name="agent_pin" inputMode="numeric" pattern="[0-9]{5}" maxLength={5} autocomplete="off" value={pin} aria-describedby={described('pin')} onInput={(e) => set_pin(e.currentTarget.value)} />
        <FieldError id="agent-pin-error" message={field_error(error, 'pin')} />
      </label>
      <button type="submit" class="button button-primary" disabled={busy}>
        {busy ? 'Opening…' : 'Open agent'}
      </button>
    </form>
  );
}

export function AgentsPage({ environment }: { environment: Environment }) {
  const [page, set_page] = useState(1);
  const agents = use_api<{ agents: Agent[]; pagination: Pagination }>('/agents', { environment, query: { page, per_page } });
  const [notice, set_notice] = useState('');
  const list = agents.data?.agents ?? [];

  return (
    <>
      <PageHeader title="Agents" />
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={agents.error} on_retry={agents.reload} />
      {agents.loading && agents.data === null && <Loading label="Loading agents…" />}
      {agents.data && (
        <section class="card">
          <div class="card-header">
            <h2>Your agents</h2>
            <span class="muted small">{agents.data.pagination.total} in all</span>
          </div>
          {list.length === 0 ? (
            <EmptyState title="No agents yet.">
              <p>Open one below: a till, a POS agent or a branch, with its own wallet that you fund.</p>
            </EmptyState>
          ) : (
            <table class="table table-cards" data-testid="agents-table">
              <thead>
                <tr>
                  <th scope="col">Agent</th>
                  <th scope="col">Status</th>
                  <th scope="col">Live balance</th>
                  <th scope="col">Test balance</th>
                  <th scope="col">Opened</th>
                </tr>
              </thead>
              <tbody>
                {list.map((agent) => (
                  <tr key={agent.id} data-agent-id={agent.id}>
                    <td data-label="Agent">
                      <Link href={href_of(`/agents/${agent.id}`, environment)}>{agent.name}</Link>
                      <span class="muted small block">{agent.email}</span>
                    </td>
                    <td data-label="Status">
                      <StatusBadge status={agent.status} />
                    </td>
                    <td data-label="Live balance" class="num">{naira(agent.balances.live.balance)}</td>
                    <td data-label="Test balance" class="num">{naira(agent.balances.test.balance)}</td>
                    <td data-label="Opened">{lagos_time(agent.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Pager pagination={agents.data.pagination} on_page={set_page} />
        </section>
      )}
      <CreateAgentForm
        environment={environment}
        on_created={(agent) => {
          set_notice(`Agent “${agent.name}” opened. It signs in with ${agent.email} and the password you set.`);
          agents.reload();
        }}
      />
    </>
  );
}
