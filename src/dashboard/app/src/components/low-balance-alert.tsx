// The low-balance alert of one side (docs/api.md "Low-balance alert"): a threshold in naira, or none.
// Each time a debit takes the balance from at or above it to below it, the event wallet.low_balance is
// sent once to the endpoints that subscribe to it and lands in the events feed. The dashboard reads
// and sets it through the API's own GET and PATCH /v1/account handlers (src/dashboard/desk-routes.ts),
// so the server alone decides what a valid threshold is; its refusal is shown as it is.
import { useState } from 'preact/hooks';
import { call, type AccountSettings, type Environment } from '../api.js';
import { use_action } from '../use-action.js';
import { use_api } from '../use-api.js';
import { naira } from '../format.js';
import { ErrorBanner, Notice } from './feedback.js';

/**
 * What the threshold field sends: a number when the text reads as one (thousands commas allowed), else
 * the text itself, which the server refuses with its own message rather than the app guessing a rule.
 */
function threshold_of(text: string): number | string {
  const plain = text.trim().replace(/,/g, '');
  return /^-?\d+(\.\d+)?$/.test(plain) ? Number(plain) : text.trim();
}

export function LowBalanceAlert({ environment }: { environment: Environment }) {
  const account = use_api<AccountSettings>('/account', { environment });
  const [text, set_text] = useState('');
  const [done, set_done] = useState('');
  const { busy, error, run } = use_action();
  const threshold = account.data?.low_balance_threshold ?? null;

  const save = (value: number | string | null) => {
    set_done('');
    return run(async () => {
      const { data } = await call<AccountSettings>('PATCH', '/account', { environment, body: { low_balance_threshold: value } });
      set_text('');
      set_done(data.low_balance_threshold === null ? 'Low-balance alert turned off.' : `Low-balance alert saved: below ${naira(data.low_balance_threshold)}.`);
      account.reload();
    });
  };

  return (
    <section class="card" aria-labelledby="low-balance-title" data-testid="low-balance-alert">
      <h2 id="low-balance-title">Low-balance alert</h2>
      <p class="muted small">
        When a purchase takes the {environment} balance below this amount, the event <code>wallet.low_balance</code> is sent once to your webhook endpoints that subscribe to it, and again only after the balance has gone back up and falls below once more.
      </p>
      <ErrorBanner error={error ?? account.error} />
      {done && <Notice>{done}</Notice>}
      <p data-testid="low-balance-current">
        {account.data === null ? '…' : threshold === null ? 'Off: no alert is sent.' : `Alert below ${naira(threshold)}.`}
      </p>
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          return save(threshold_of(text));
        }}
      >
        <label class="field field-narrow">
          <span>Alert below (₦)</span>
          <input name="low_balance_threshold" inputMode="decimal" required autoComplete="off" placeholder={threshold === null ? '5,000' : String(threshold)} value={text} onInput={(e) => set_text(e.currentTarget.value)} />
        </label>
        <button type="submit" class="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save alert'}
        </button>
        {threshold !== null && (
          <button type="button" class="button button-ghost" disabled={busy} onClick={() => save(null)}>
            Turn off
          </button>
        )}
      </form>
    </section>
  );
}
