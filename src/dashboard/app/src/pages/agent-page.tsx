// One agent of the signed-in parent (docs/api.md "Agents in the dashboard"): its balances and details,
// suspending and reactivating it, closing it (after a confirmation: its balances swept back, its keys
// revoked, for good), its transaction PIN, transfers both ways with the parent's PIN, and the transfers
// made. A transfer's reference is made once per intent, as the Buy page's idempotency key: a double click
// or a retry after a lost answer sends the same reference, which the API moves money for once.
// The agent's orders are listed here, read with Billvend-Account as an API key acting for it (the server
// takes it on the order reads only, src/dashboard/session-acting.ts), and its price list is edited here
// (agent-price-editor.tsx).
import { useRef, useState } from 'preact/hooks';
import { ApiError, call, type Agent, type Environment, type Pagination, type Transfer, type TransferDirection } from '../api.js';
import { use_action } from '../use-action.js';
import { use_api } from '../use-api.js';
import { leaves_intent_open, new_intent_key, parse_amount } from '../intent.js';
import { lagos_time, naira } from '../format.js';
import { EmptyState, ErrorBanner, Loading, Notice } from '../components/feedback.js';
import { PageHeader } from '../components/layout.js';
import { Pager } from '../components/pager.js';
import { StatusBadge } from '../components/status-badge.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { href_of, Link, type Place } from '../router.js';
import { OrderList } from './order-list.js';
import { AgentPriceEditor } from './agent-price-editor.js';
import { FieldError, field_error } from './agents-page.js';

const per_page = 20;

/** A fresh transfer reference: 12 random bytes, short enough for the transfers table on a phone (intent.ts). */
function new_reference(): string {
  return new_intent_key('dash-', 12);
}

function TransferForm({ agent, environment, on_done }: { agent: Agent; environment: Environment; on_done: (transfer: Transfer) => void }) {
  const [direction, set_direction] = useState<TransferDirection>('to_agent');
  const [amount_text, set_amount_text] = useState('');
  const [pin, set_pin] = useState('');
  const [busy, set_busy] = useState(false);
  const [error, set_error] = useState<ApiError | null>(null);
  const reference = useRef('');
  const intent_of_reference = useRef('');
  const spent = useRef(false);
  const in_flight = useRef(false);
  const amount = parse_amount(amount_text);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (in_flight.current) return;
    if (amount === null || amount <= 0) return set_error(new ApiError(400, 'validation.failed', 'Enter an amount in naira, more than 0, with at most 2 decimals.', [{ field: 'amount', message: 'must be a positive NGN amount with at most 2 decimals' }]));
    if (!/^\d{5}$/.test(pin)) return set_error(new ApiError(400, 'validation.failed', 'Enter your 5-digit transaction PIN.', [{ field: 'pin', message: 'must be exactly 5 digits' }]));
    // A new reference only for a new intent: the same transfer sent again keeps its reference.
    const intent = JSON.stringify([environment, agent.id, direction, amount]);
    if (reference.current === '' || spent.current || intent !== intent_of_reference.current) {
      reference.current = new_reference();
      intent_of_reference.current = intent;
      spent.current = false;
    }
    in_flight.current = true;
    set_busy(true);
    set_error(null);
    try {
      const { data } = await call<Transfer>('POST', `/agents/${agent.id}/transfers`, {
        environment,
        body: { direction, amount, environment, pin, reference: reference.current },
        idempotency_key: reference.current,
      });
      spent.current = true;
      set_amount_text('');
      on_done(data);
    } catch (failure) {
      const refused = failure instanceof ApiError ? failure : new ApiError(0, 'internal.error', String(failure));
      if (!leaves_intent_open(refused)) spent.current = true;
      set_error(refused);
    } finally {
      // After any answer the PIN is typed again.
      set_pin('');
      in_flight.current = false;
      set_busy(false);
    }
  };

  const wallet = environment === 'live' ? 'live' : 'test';
  const label = amount === null || amount <= 0 ? (direction === 'to_agent' ? 'Send to agent' : 'Take from agent') : direction === 'to_agent' ? `Send ${naira(amount)} to ${agent.name}` : `Take ${naira(amount)} from ${agent.name}`;
  return (
    <form class="card form" onSubmit={submit} aria-labelledby="transfer-title">
      <h2 id="transfer-title">Move money</h2>
      <p class="muted small">Between your {wallet} wallet and the agent's, in one step. Your own transaction PIN authorises both directions.</p>
      <ErrorBanner error={error} />
      <fieldset class="field">
        <legend>Direction</legend>
        <div class="choice-row">
          <label class="choice">
            <input type="radio" name="direction" value="to_agent" checked={direction === 'to_agent'} onChange={() => set_direction('to_agent')} />
            <span>To the agent</span>
          </label>
          <label class="choice">
            <input type="radio" name="direction" value="from_agent" checked={direction === 'from_agent'} onChange={() => set_direction('from_agent')} />
            <span>Back from the agent</span>
          </label>
        </div>
      </fieldset>
      <label class="field">
        <span>Amount (₦)</span>
        <input name="amount" inputMode="decimal" required value={amount_text} aria-describedby={field_error(error, 'amount') === null ? undefined : 'transfer-amount-error'} onInput={(e) => set_amount_text(e.currentTarget.value)} />
        <FieldError id="transfer-amount-error" message={field_error(error, 'amount')} />
      </label>
      <label class="field">
        <span>Your transaction PIN</span>
        <input type="password" name="pin" inputMode="numeric" pattern="[0-9]{5}" maxLength={5} autocomplete="off" required value={pin} aria-describedby={field_error(error, 'pin') === null ? undefined : 'transfer-pin-error'} onInput={(e) => set_pin(e.currentTarget.value)} />
        <FieldError id="transfer-pin-error" message={field_error(error, 'pin')} />
      </label>
      <button type="submit" class="button button-primary" disabled={busy || agent.status === 'closed'}>
        {busy ? 'Moving…' : label}
      </button>
    </form>
  );
}

function AgentPinForm({ agent, environment, on_done }: { agent: Agent; environment: Environment; on_done: () => void }) {
  const [pin, set_pin] = useState('');
  const { busy, error, run } = use_action();
  const submit = (event: Event) => {
    event.preventDefault();
    return run(async () => {
      try {
        await call('PUT', `/agents/${agent.id}/pin`, { environment, body: { pin } });
      } finally {
        set_pin('');
      }
      on_done();
    });
  };
  return (
    <form class="card form" onSubmit={submit} aria-labelledby="agent-pin-title">
      <h2 id="agent-pin-title">The agent's transaction PIN</h2>
      <p class="muted small">{agent.pin_set ? 'A PIN is set. A new one replaces it at once.' : 'No PIN yet: the agent cannot buy until one is set.'}</p>
      <ErrorBanner error={error} />
      <label class="field">
        <span>New PIN for {agent.name} (5 digits)</span>
        <input type="password" name="agent_new_pin" inputMode="numeric" pattern="[0-9]{5}" maxLength={5} autocomplete="off" required value={pin} onInput={(e) => set_pin(e.currentTarget.value)} />
      </label>
      <button type="submit" class="button" disabled={busy || agent.status === 'closed'}>
        {busy ? 'Saving…' : 'Set agent PIN'}
      </button>
    </form>
  );
}

export function AgentPage({ agent_id, place }: { agent_id: string; place: Place }) {
  const environment = place.environment;
  const path = /^[1-9][0-9]{0,15}$/.test(agent_id) ? `/agents/${agent_id}` : null;
  const loaded = use_api<Agent>(path, { environment });
  const [page, set_page] = useState(1);
  const transfers = use_api<{ transfers: Transfer[]; pagination: Pagination }>(path === null ? null : `${path}/transfers`, { environment, query: { page, per_page } });
  const [notice, set_notice] = useState('');
  const [closing, set_closing] = useState(false);
  const status_action = use_action();
  const agent = loaded.data;

  const set_status = (status: 'active' | 'suspended') =>
    status_action.run(async () => {
      await call('PATCH', `/agents/${agent!.id}`, { environment, body: { status } });
      set_notice(status === 'suspended' ? `${agent!.name} is suspended: its sign-in and keys are refused until you reactivate it.` : `${agent!.name} is active again.`);
      loaded.reload();
    });

  return (
    <>
      <PageHeader title={agent ? agent.name : 'Agent'}>
        <Link href={href_of('/agents', environment)} class="button button-small">
          All agents
        </Link>
      </PageHeader>
      {path === null && <ErrorBanner error={new ApiError(404, 'account.not_found', 'No such agent.')} />}
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={loaded.error} on_retry={loaded.reload} />
      {loaded.loading && agent === null && <Loading label="Loading the agent…" />}
      {agent && (
        <>
          <section class="card" aria-labelledby="agent-facts-title">
            <div class="card-header">
              <h2 id="agent-facts-title">Details</h2>
              <StatusBadge status={agent.status} />
            </div>
            <dl class="facts">
              <dt>Live balance</dt>
              <dd class="num" data-testid="agent-live-balance">{naira(agent.balances.live.balance)}</dd>
              <dt>Test balance</dt>
              <dd class="num" data-testid="agent-test-balance">{naira(agent.balances.test.balance)}</dd>
              <dt>Email (sign-in)</dt>
              <dd>{agent.email}</dd>
              <dt>Phone</dt>
              <dd>{agent.phone}</dd>
              <dt>KYC level</dt>
              <dd>{agent.kyc_level}</dd>
              <dt>Daily limit</dt>
              <dd>{naira(agent.daily_limit)}</dd>
              <dt>Transaction PIN</dt>
              <dd>{agent.pin_set ? 'Set' : 'Not set'}</dd>
              <dt>Account ID</dt>
              <dd class="mono">{agent.id}</dd>
              <dt>Opened</dt>
              <dd>{lagos_time(agent.created_at)}</dd>
            </dl>
            <ErrorBanner error={status_action.error} />
            {agent.status !== 'closed' && (
              <div class="page-actions">
                {agent.status === 'active' ? (
                  <button type="button" class="button" disabled={status_action.busy} onClick={() => set_status('suspended')}>
                    Suspend agent
                  </button>
                ) : (
                  <button type="button" class="button button-primary" disabled={status_action.busy} onClick={() => set_status('active')}>
                    Reactivate agent
                  </button>
                )}
                <button type="button" class="button button-danger-outline" onClick={() => set_closing(true)}>
                  Close agent
                </button>
              </div>
            )}
          </section>
          <AgentPriceEditor agent={agent} environment={environment} on_saved={loaded.reload} />
          {agent.status !== 'closed' && (
            <>
              <TransferForm
                agent={agent}
                environment={environment}
                on_done={(transfer) => {
                  set_notice(`${transfer.direction === 'to_agent' ? 'Sent' : 'Took back'} ${naira(transfer.amount)}. Your balance: ${naira(transfer.balances_after.parent)}; ${agent.name}'s: ${naira(transfer.balances_after.agent)}.`);
                  loaded.reload();
                  transfers.reload();
                }}
              />
              <AgentPinForm
                agent={agent}
                environment={environment}
                on_done={() => {
                  set_notice(`${agent.name}'s transaction PIN is set.`);
                  loaded.reload();
                }}
              />
            </>
          )}
          <section class="agent-orders" aria-labelledby="agent-orders-title">
            <h2 id="agent-orders-title">Its orders ({environment})</h2>
            <OrderList
              place={place}
              path={`/agents/${agent.id}`}
              account={agent.id}
              order_href={(reference) => href_of(`/agents/${agent.id}/orders/${encodeURIComponent(reference)}`, environment)}
              none_yet={`What ${agent.name} buys on the ${environment} side, with its keys or its dashboard, appears here.`}
            />
          </section>
          <section class="card" aria-labelledby="transfers-title">
            <h2 id="transfers-title">Transfers ({environment})</h2>
            <ErrorBanner error={transfers.error} on_retry={transfers.reload} />
            {transfers.data && transfers.data.transfers.length === 0 && <EmptyState title="No transfers yet on this side." />}
            {transfers.data && transfers.data.transfers.length > 0 && (
              <table class="table table-cards" data-testid="transfers-table">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Direction</th>
                    <th scope="col">Amount</th>
                    <th scope="col">Your balance after</th>
                    <th scope="col">Agent's after</th>
                    <th scope="col">Reference</th>
                  </tr>
                </thead>
                <tbody>
                  {transfers.data.transfers.map((transfer) => (
                    <tr key={transfer.reference}>
                      <td data-label="When">{lagos_time(transfer.created_at)}</td>
                      <td data-label="Direction">{transfer.kind === 'sweep' ? 'Swept back at closing' : transfer.direction === 'to_agent' ? 'To the agent' : 'From the agent'}</td>
                      <td data-label="Amount" class="num">{naira(transfer.amount)}</td>
                      <td data-label="Your balance after" class="num">{naira(transfer.balances_after.parent)}</td>
                      <td data-label="Agent's after" class="num">{naira(transfer.balances_after.agent)}</td>
                      <td data-label="Reference" class="mono small break">{transfer.reference}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {transfers.data && <Pager pagination={transfers.data.pagination} on_page={set_page} />}
          </section>
        </>
      )}
      {closing && agent && (
        <ConfirmDialog
          title={`Close “${agent.name}”?`}
          confirm_label="Close agent"
          on_close={() => set_closing(false)}
          on_confirm={async () => {
            const { data } = await call<{ swept: Transfer[]; keys_revoked: number }>('DELETE', `/agents/${agent.id}`, { environment });
            const swept = data.swept.map((t) => `${naira(t.amount)} (${t.environment})`).join(' and ');
            set_notice(`${agent.name} is closed.${swept === '' ? '' : ` ${swept} swept back to your wallet.`} ${data.keys_revoked} key(s) revoked.`);
            loaded.reload();
            transfers.reload();
          }}
        >
          <p>
            Its live and test balances ({naira(agent.balances.live.balance)} and {naira(agent.balances.test.balance)}) move back to your wallets, its API keys are revoked and it can no longer sign in. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
