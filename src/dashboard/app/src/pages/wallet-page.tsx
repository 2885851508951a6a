// Wallet history of one side: credits (bank transfers, operator top-ups), debits for purchases and
// reversals of failed purchases, newest first, with the balance after each. The filters (entry type,
// Lagos dates) live in the address, in the orders page's filter form, and the CSV export follows them.
// The side's low-balance alert is set here too, next to the balance it watches.
import { useState } from 'preact/hooks';
import { api_href, call, type Environment, type Overview, type Pagination, type WalletEntry } from '../api.js';
import { use_action } from '../use-action.js';
import { use_api } from '../use-api.js';
import { lagos_time, naira } from '../format.js';
import { EmptyState, ErrorBanner, Loading, Notice } from '../components/feedback.js';
import { FilterForm, use_filters, type FilterField } from '../components/filter-form.js';
import { PageHeader } from '../components/layout.js';
import { Pager } from '../components/pager.js';
import { StatusBadge } from '../components/status-badge.js';
import { LowBalanceAlert } from '../components/low-balance-alert.js';
import { href_of, Link, type Place } from '../router.js';

const per_page = 25;
const order_reference = /^BV-\d{8}-[0-9A-Z]{12}$/;

type FilterName = 'type' | 'from' | 'to';

const filter_fields: readonly FilterField<FilterName>[] = [
  { kind: 'select', name: 'type', label: 'Entry type', choices: [['', 'All entries'], ['credit', 'Credits'], ['debit', 'Debits'], ['reversal', 'Reversals']] },
  { kind: 'date', name: 'from', label: 'From' },
  { kind: 'date', name: 'to', label: 'To' },
];

export function WalletPage({ place }: { place: Place }) {
  const environment = place.environment;
  const filters = use_filters(place, '/wallet', filter_fields.map((field) => field.name));
  const { applied, page, filtered, apply } = filters;

  const overview = use_api<Overview>('/overview', { environment });
  const entries = use_api<{ transactions: WalletEntry[]; pagination: Pagination; truncated: boolean }>('/wallet/transactions', { environment, query: { ...applied, page, per_page } });
  const wallet = overview.data?.wallets[environment];

  return (
    <>
      <PageHeader title={environment === 'live' ? 'Live wallet' : 'Test wallet'}>
        {environment === 'live' && (
          <Link href={href_of('/funding', environment)} class="button button-small">
            How to fund
          </Link>
        )}
        <a class="button button-small" href={api_href('/export/wallet', environment, { ...applied })} download>
          Export CSV
        </a>
      </PageHeader>
      <section class="card wallet-summary">
        <span class="wallet-label">Balance</span>
        <span class="wallet-balance" data-testid="wallet-balance">{wallet ? naira(wallet.balance) : '…'}</span>
        {wallet && <span class="muted small">Bonus {naira(wallet.bonus_balance)}</span>}
      </section>
      <LowBalanceAlert environment={environment} />
      {environment === 'test' && (
        <SandboxTopUp
          on_done={() => {
            overview.reload();
            entries.reload();
          }}
        />
      )}
      <FilterForm label="Filter wallet history" fields={filter_fields} filters={filters} />
      <ErrorBanner error={entries.error} on_retry={entries.reload} />
      {entries.loading && entries.data === null && <Loading label="Loading wallet history…" />}
      {entries.data && (
        <section class="card">
          <h2>History</h2>
          {entries.data.truncated && <Notice kind="info">Only the newest 20,000 entries of this date range were looked through; narrow the dates to look further back.</Notice>}
          {entries.data.transactions.length === 0 ? (
            filtered ? (
              <EmptyState title="No wallet entries match these filters." />
            ) : (
              <EmptyState title="No wallet movements yet.">
                <p>{environment === 'live' ? 'Fund your wallet by bank transfer; credits appear here.' : 'Add test money above; sandbox purchases and refunds appear here.'}</p>
              </EmptyState>
            )
          ) : (
            <>
              <table class="table table-cards" data-testid="wallet-table">
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">Type</th>
                    <th scope="col">Description</th>
                    <th scope="col">Reference</th>
                    <th scope="col" class="num">Amount</th>
                    <th scope="col" class="num">Balance after</th>
                  </tr>
                </thead>
                <tbody>
                  {entries.data.transactions.map((entry) => (
                    <tr key={entry.id}>
                      <td data-label="Date">{lagos_time(entry.created_at)}</td>
                      <td data-label="Type">
                        <StatusBadge status={entry.type} />
                      </td>
                      <td data-label="Description">{entry.description || '—'}</td>
                      <td data-label="Reference" class="mono">
                        {order_reference.test(entry.reference) ? <Link href={href_of(`/orders/${entry.reference}`, environment)}>{entry.reference}</Link> : entry.reference}
                      </td>
                      <td data-label="Amount" class={`num ${entry.type === 'debit' ? 'amount-out' : 'amount-in'}`}>
                        {entry.type === 'debit' ? '−' : '+'}
                        {naira(entry.amount)}
                      </td>
                      <td data-label="Balance after" class="num">{naira(entry.balance_after)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager pagination={entries.data.pagination} on_page={(to_page) => apply(applied, to_page)} />
            </>
          )}
        </section>
      )}
    </>
  );
}

/** Test money for the sandbox wallet, up to ₦10,000,000 a time (the API's POST /v1/sandbox/wallet/fund). */
function SandboxTopUp({ on_done }: { on_done: () => void }) {
  const [amount, set_amount] = useState('100000');
  const [done, set_done] = useState('');
  const { busy, error, run } = use_action();
  const submit = (event: Event) => {
    event.preventDefault();
    // One key per submission: a double submit or a retry after a lost answer funds once.
    const key = 'dash-fund-' + Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
    set_done('');
    return run(async () => {
      const { message } = await call('POST', '/sandbox/wallet/fund', { environment: 'test', body: { amount: Number(amount.replace(/,/g, '')) }, idempotency_key: key });
      set_done(message);
      on_done();
    });
  };
  return (
    <section class="card" aria-labelledby="topup-title">
      <h2 id="topup-title">Sandbox top-up</h2>
      <ErrorBanner error={error} />
      {done && <Notice>{done}</Notice>}
      <form class="topup-form" onSubmit={submit}>
        <label class="field field-narrow">
          <span>Amount (₦)</span>
          <input name="topup_amount" inputMode="decimal" required value={amount} onInput={(e) => set_amount(e.currentTarget.value)} />
        </label>
        <button type="submit" class="button button-primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add test money'}
        </button>
      </form>
    </section>
  );
}
