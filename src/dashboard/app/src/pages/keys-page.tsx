// API keys of both environments (at most 5 active per account, both together). A new key's secret
// is shown once, with a copy button, and is gone when the panel closes; revoking asks first, because
// every application using the key stops working at once (401 auth.key_not_found).
import { useState } from 'preact/hooks';
import { call, type ApiKey, type CreatedKey, type Environment, type Scope } from '../api.js';
import { use_action } from '../use-action.js';
import { use_api } from '../use-api.js';
import { lagos_time, time_ago } from '../format.js';
import { EmptyState, ErrorBanner, Loading, Notice } from '../components/feedback.js';
import { PageHeader } from '../components/layout.js';
import { StatusBadge } from '../components/status-badge.js';
import { SecretReveal } from '../components/secret-reveal.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';

const keys_max = 5;

const scope_choices: { scope: Exclude<Scope, '*'>; label: string }[] = [
  { scope: 'services:purchase', label: 'Buy airtime, data, electricity, TV, exam PINs and internet' },
  { scope: 'transactions:read', label: 'Read orders' },
  { scope: 'wallet:read', label: 'Read wallet balance and history' },
  { scope: 'keys:manage', label: 'Create and revoke keys' },
  { scope: 'agents:manage', label: 'Open and run agents, move money to and from them, act for them' },
];

function scope_text(scopes: Scope[]): string {
  return scopes.includes('*') ? 'Full access' : scopes.join(', ');
}

/** The end of a Lagos calendar day as an ISO timestamp (Lagos is UTC+1 all year). */
function end_of_lagos_day(date: string): string {
  return `${date}T23:59:59+01:00`;
}

function CreateKeyForm({ environment, on_created }: { environment: Environment; on_created: (key: CreatedKey) => void }) {
  const [name, set_name] = useState('');
  const [side, set_side] = useState<Environment>(environment);
  const [full_access, set_full_access] = useState(true);
  const [scopes, set_scopes] = useState<Scope[]>(['services:purchase', 'transactions:read', 'wallet:read']);
  const [allowlist, set_allowlist] = useState('');
  const [expires, set_expires] = useState('');
  const { busy, error, run } = use_action();

  const submit = (event: Event) => {
    event.preventDefault();
    const ip_allowlist = allowlist.split(/[\s,]+/).map((entry) => entry.trim()).filter(Boolean);
    return run(async () => {
      const { data } = await call<CreatedKey>('POST', '/keys', {
        environment: side,
        body: {
          name: name.trim(),
          environment: side,
          scopes: full_access ? ['*'] : scopes,
          ...(ip_allowlist.length > 0 ? { ip_allowlist } : {}),
          ...(expires ? { expires_at: end_of_lagos_day(expires) } : {}),
        },
      });
      set_name('');
      set_allowlist('');
      set_expires('');
      on_created(data);
    });
  };

  const toggle = (scope: Scope) => set_scopes(scopes.includes(scope) ? scopes.filter((s) => s !== scope) : [...scopes, scope]);

  return (
    <form class="card form" onSubmit={submit} aria-labelledby="create-key-title">
      <h2 id="create-key-title">Create a key</h2>
      <ErrorBanner error={error} />
      <label class="field">
        <span>Name</span>
        <input name="name" required maxLength={100} placeholder="e.g. POS fleet, Lagos" value={name} onInput={(e) => set_name(e.currentTarget.value)} />
      </label>
      <fieldset class="field">
        <legend>Environment</legend>
        <div class="choice-row">
          {(['live', 'test'] as const).map((option) => (
            <label key={option} class="choice">
              <input type="radio" name="environment" value={option} checked={side === option} onChange={() => set_side(option)} />
              <span>{option === 'live' ? 'Live (real money)' : 'Test (sandbox)'}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset class="field">
        <legend>Access</legend>
        <label class="choice">
          <input type="checkbox" name="full_access" checked={full_access} onChange={(e) => set_full_access(e.currentTarget.checked)} />
          <span>Full access (every endpoint)</span>
        </label>
        {!full_access && (
          <div class="choice-list">
            {scope_choices.map((choice) => (
              <label key={choice.scope} class="choice">
                <input type="checkbox" name="scopes" value={choice.scope} checked={scopes.includes(choice.scope)} onChange={() => toggle(choice.scope)} />
                <span>
                  <code>{choice.scope}</code> {choice.label}
                </span>
              </label>
            ))}
          </div>
        )}
      </fieldset>
      <label class="field">
        <span>IP allowlist (optional)</span>
        <textarea name="ip_allowlist" rows={2} placeholder="One address or CIDR block per line, e.g. 102.89.0.0/16" value={allowlist} onInput={(e) => set_allowlist(e.currentTarget.value)} />
        <small class="muted">Requests from any other address get 403 auth.ip_not_allowed. Up to 20 entries; empty allows every address.</small>
      </label>
      <label class="field">
        <span>Expires (optional)</span>
        <input type="date" name="expires" value={expires} onInput={(e) => set_expires(e.currentTarget.value)} />
      </label>
      <button type="submit" class="button button-primary" disabled={busy || (!full_access && scopes.length === 0)}>
        {busy ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}

export function KeysPage({ environment }: { environment: Environment }) {
  const keys = use_api<{ keys: ApiKey[] }>('/keys', { environment });
  const [created, set_created] = useState<CreatedKey | null>(null);
  const [revoking, set_revoking] = useState<ApiKey | null>(null);
  const [notice, set_notice] = useState('');
  const list = keys.data?.keys ?? [];
  // The current side's keys first, then the other side's, newest first within each.
  const sorted = [...list].sort((a, b) => (a.environment === b.environment ? b.id - a.id : a.environment === environment ? -1 : 1));

  return (
    <>
      <PageHeader title="API keys" />
      {created && (
        <SecretReveal
          title={`Your new ${created.environment} key “${created.name}”`}
          secret={created.api_key}
          on_done={() => set_created(null)}
        />
      )}
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={keys.error} on_retry={keys.reload} />
      {keys.loading && keys.data === null && <Loading label="Loading keys…" />}
      {keys.data && (
        <section class="card">
          <div class="card-header">
            <h2>Active keys</h2>
            <span class="muted small" data-testid="keys-count">
              {list.length} of {keys_max} used (live and test together)
            </span>
          </div>
          {list.length === 0 ? (
            <EmptyState title="No API keys yet.">
              <p>Create a test key to try the sandbox, then a live key when you are ready.</p>
            </EmptyState>
          ) : (
            <table class="table table-cards" data-testid="keys-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Side</th>
                  <th scope="col">Key</th>
                  <th scope="col">Access</th>
                  <th scope="col">IP allowlist</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {sorted.map((key) => (
                  <tr key={key.id} data-key-id={key.id}>
                    <td data-label="Name">
                      <div>
                        {key.name}
                        {key.expires_at && <span class="muted small block">Expires {lagos_time(key.expires_at)}</span>}
                      </div>
                    </td>
                    <td data-label="Side">
                      <StatusBadge status={key.environment} />
                    </td>
                    <td data-label="Key" class="mono nowrap">{key.key_hint}</td>
                    <td data-label="Access">{scope_text(key.scopes)}</td>
                    <td data-label="IP allowlist">{key.ip_allowlist.length === 0 ? 'Any address' : key.ip_allowlist.join(', ')}</td>
                    <td data-label="Last used" title={key.last_used_at ?? undefined}>{time_ago(key.last_used_at)}</td>
                    <td data-label="Created">{lagos_time(key.created_at)}</td>
                    <td data-label="">
                      <button type="button" class="button button-small button-danger-outline" onClick={() => set_revoking(key)}>
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
      {keys.data && list.length < keys_max ? (
        <CreateKeyForm
          key={environment}
          environment={environment}
          on_created={(key) => {
            set_notice('');
            set_created(key);
            keys.reload();
          }}
        />
      ) : (
        keys.data && <Notice kind="info">You have {keys_max} active keys, the most an account may hold. Revoke one to create another.</Notice>
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke “${revoking.name}”?`}
          confirm_label="Revoke key"
          on_close={() => set_revoking(null)}
          on_confirm={async () => {
            await call('DELETE', `/keys/${revoking.id}`, { environment: revoking.environment });
            set_notice(`Key “${revoking.name}” revoked.`);
            keys.reload();
          }}
        >
          <p>
            Every application using <code>{revoking.key_hint}</code> ({revoking.environment}) stops working at once: the API answers 401 <code>auth.key_not_found</code>. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
