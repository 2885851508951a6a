// How to fund the live wallet (docs/api.md "Funding"): live money arrives only by bank transfer to
// the operator's account (FUNDING_BANK_NAME, FUNDING_ACCOUNT_NUMBER, FUNDING_ACCOUNT_NAME), quoting the
// account's funding reference so that the bank partner's notification credits this account. The
// test side is funded from its Wallet page instead.
import type { Environment, Funding } from '../api.js';
import { use_api } from '../use-api.js';
import { naira } from '../format.js';
import { EmptyState, ErrorBanner, Loading } from '../components/feedback.js';
import { PageHeader } from '../components/layout.js';
import { CopyButton } from '../components/copy-button.js';
import { href_of, Link } from '../router.js';

export function FundingPage({ environment }: { environment: Environment }) {
  // With dedicated accounts a transfer lands by itself: the balance refreshes every 5 s to show it arrive.
  const funding = use_api<Funding>('/funding', { environment }, { every_ms: 5_000, while_data: (d) => d.dedicated_accounts.length > 0 });
  const data = funding.data;
  return (
    <>
      <PageHeader title="Fund your live wallet" />
      {environment === 'test' && (
        <p class="card">
          The test wallet holds sandbox money only: add it from the <Link href={href_of('/wallet', 'test')}>test wallet page</Link>. This page is about real money for the live wallet.
        </p>
      )}
      <ErrorBanner error={funding.error} on_retry={funding.reload} />
      {funding.loading && data === null && <Loading label="Loading funding details…" />}
      {data && (
        <>
          <section class="card wallet-summary" aria-labelledby="live-balance-label">
            <span class="wallet-label" id="live-balance-label">Live balance</span>
            <span class="wallet-balance" data-testid="live-balance">{naira(data.live_balance)}</span>
          </section>
          {data.dedicated_accounts.length > 0 && (
            <section class="card" aria-labelledby="dedicated-title" data-testid="dedicated-accounts">
              <h2 id="dedicated-title">Your own bank accounts</h2>
              <p>Transfer any amount to any of these accounts: they are yours alone, so no narration is needed. Your live wallet is credited once the provider confirms the transfer, usually within a minute.</p>
              <ul class="plain-list">
                {data.dedicated_accounts.map((account) => (
                  <li key={`${account.provider}-${account.account_number ?? 'failed'}`} data-testid="dedicated-account">
                    {account.account_number === null ? (
                      <span class="muted">{account.provider}: not ready yet{account.error ? ` (${account.error})` : ''}; we keep trying.</span>
                    ) : (
                      <dl class="facts facts-buy">
                        <dt>Bank</dt>
                        <dd data-testid="dedicated-bank-name">{account.bank_name}</dd>
                        <dt>Account number</dt>
                        <dd>
                          <span class="mono" data-testid="dedicated-account-number">{account.account_number}</span> <CopyButton text={account.account_number} label={`Copy ${account.bank_name ?? ''} account number`} />
                        </dd>
                        <dt>Account name</dt>
                        <dd>{account.account_name}</dd>
                      </dl>
                    )}
                  </li>
                ))}
              </ul>
            </section>
          )}
          <section class="card" aria-labelledby="bank-title" data-testid="funding-bank">
            <h2 id="bank-title">Pay by bank transfer</h2>
            {data.bank === null ? (
              <EmptyState title="Bank details are not set up yet.">
                <p>Ask billvend for the account to pay into; your live wallet is credited when the transfer arrives.</p>
              </EmptyState>
            ) : (
              <>
                <p>Transfer any amount to this account. Your live wallet is credited as soon as the bank tells us the money arrived, and the credit shows in your wallet history.</p>
                <dl class="facts facts-buy" data-testid="funding-details">
                    <dt>Bank</dt>
                    <dd data-testid="funding-bank-name">{data.bank.bank_name}</dd>
                    <dt>Account number</dt>
                    <dd>
                      <span class="mono" data-testid="funding-account-number">{data.bank.account_number}</span> <CopyButton text={data.bank.account_number} label="Copy account number" />
                    </dd>
                    <dt>Account name</dt>
                    <dd data-testid="funding-account-name">{data.bank.account_name}</dd>
                    <dt>Narration (funding reference)</dt>
                    <dd>
                      <span class="mono" data-testid="funding-reference">{data.funding_reference}</span> <CopyButton text={data.funding_reference} label="Copy funding reference" />
                      <span class="muted small block">Put it in the transfer's narration: it tells us which account to credit.</span>
                    </dd>
                </dl>
              </>
            )}
          </section>
          <p>
            <Link href={href_of('/wallet', 'live', { type: 'credit' })}>See the credits to your live wallet</Link>
          </p>
        </>
      )}
    </>
  );
}
