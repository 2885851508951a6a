// Overview: both wallets side by side, today's spend against the daily limit of the KYC level (a
// Lagos calendar day, docs/decisions.md "Accounts, PIN, limits"), orders still open, and recent orders.
import type { Environment, Overview } from '../api.js';
import { use_api } from '../use-api.js';
import { naira } from '../format.js';
import { EmptyState, ErrorBanner, Loading, Notice } from '../components/feedback.js';
import { PageHeader } from '../components/layout.js';
import { OrderTable } from './order-table.js';
import { TrendChart, TrendLegend, type TrendDay } from '../components/trend-chart.js';

interface Trend {
  days: TrendDay[];
  delivered: number;
  failed: number;
  success_rate: number | null;
  truncated: boolean;
}

/** Spend and orders per day over 30 days by service, and how many of the finished orders succeeded. */
function TrendSection({ environment }: { environment: Environment }) {
  const trend = use_api<Trend>('/trend', { environment });
  const data = trend.data;
  return (
    <section class="card" aria-labelledby="trend-heading">
      <div class="card-header">
        <h2 id="trend-heading">Last 30 days</h2>
        {data && (
          <p class="trend-rate" data-testid="success-rate">
            {data.success_rate === null ? 'No finished orders yet' : `${data.success_rate}% successful`}
            <span class="muted small"> · {data.delivered} delivered, {data.failed} failed</span>
          </p>
        )}
      </div>
      <ErrorBanner error={trend.error} on_retry={trend.reload} />
      {trend.loading && data === null && <Loading label="Loading the trend…" />}
      {data && (
        <>
          <TrendLegend days={data.days} />
          <div class="trend-pair">
            <TrendChart days={data.days} metric="spend" title="Spend per day" />
            <TrendChart days={data.days} metric="orders" title="Orders per day" />
          </div>
          {data.truncated && <p class="muted small">Only the most recent 20,000 orders are counted.</p>}
        </>
      )}
    </section>
  );
}
import { href_of, Link } from '../router.js';

function SpendMeter({ spent, limit, remaining, kyc_level }: { spent: number; limit: number; remaining: number; kyc_level: number }) {
  if (limit <= 0) {
    return <p class="muted">KYC level {kyc_level} cannot buy. Ask your account manager to raise your KYC level.</p>;
  }
  const percent = Math.min(100, Math.round((spent / limit) * 100));
  return (
    <div class="meter-block">
      <div class="meter-figures">
        <span class="figure" data-testid="spent-today">{naira(spent)}</span>
        <span class="muted">of {naira(limit)}</span>
      </div>
      <div class="meter" role="progressbar" aria-label="Spent today against the daily limit" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <div class={`meter-fill ${percent >= 90 ? 'meter-high' : ''}`} style={{ width: `${percent}%` }} />
      </div>
      <p class="muted small">{naira(remaining)} left today · resets at midnight, Lagos time</p>
    </div>
  );
}

export function OverviewPage({ environment }: { environment: Environment }) {
  const overview = use_api<Overview>('/overview', { environment });
  const data = overview.data;

  return (
    <>
      <PageHeader title="Overview" />
      <ErrorBanner error={overview.error} on_retry={overview.reload} />
      {overview.loading && data === null && <Loading />}
      {data && (
        <>
          {!data.account.pin_set && (
            <Notice kind="warning">
              You have no transaction PIN yet: purchases through the API need one. <Link href={href_of('/pin', environment)}>Set your PIN</Link>
            </Notice>
          )}
          <div class="wallet-cards">
            {(['live', 'test'] as const).map((side) => (
              <Link key={side} href={href_of('/wallet', side)} class={`card wallet-card wallet-${side} ${side === environment ? 'wallet-current' : ''}`}>
                <span class="wallet-label">{side === 'live' ? 'Live wallet' : 'Test wallet (sandbox)'}</span>
                <span class="wallet-balance" data-testid={`balance-${side}`}>
                  {naira(data.wallets[side].balance)}
                </span>
                <span class="muted small">Bonus {naira(data.wallets[side].bonus_balance)}</span>
              </Link>
            ))}
          </div>
          <div class="grid-2">
            <section class="card">
              <h2>Spent today{environment === 'test' ? ' (test)' : ''}</h2>
              <SpendMeter {...data.today} kyc_level={data.account.kyc_level} />
            </section>
            <section class="card">
              <h2>Account</h2>
              <dl class="facts">
                <dt>Name</dt>
                <dd>{data.account.name}</dd>
                <dt>KYC level</dt>
                <dd>{data.account.kyc_level}</dd>
                <dt>Tier</dt>
                <dd>{data.account.tier}</dd>
                <dt>Open orders</dt>
                <dd>{data.open_orders}</dd>
              </dl>
            </section>
          </div>
          <TrendSection environment={environment} />
          <section class="card">
            <div class="card-header">
              <h2>Recent orders</h2>
              <Link href={href_of('/orders', environment)}>All orders →</Link>
            </div>
            {data.recent_orders.length === 0 ? (
              <EmptyState title={`No ${environment} orders yet.`}>
                {environment === 'test' ? (
                  <p>
                    Create a test key under <Link href={href_of('/keys', environment)}>API keys</Link> and try a sandbox purchase from the <a href="/docs/">getting-started guide</a>.
                  </p>
                ) : (
                  <p>Orders you place through the API appear here.</p>
                )}
              </EmptyState>
            ) : (
              <OrderTable orders={data.recent_orders} environment={environment} />
            )}
          </section>
        </>
      )}
    </>
  );
}
