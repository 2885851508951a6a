// The frame of every signed-in page: header with the live/test switch and sign-out, the navigation,
// and a banner that makes test mode impossible to miss. On a phone the navigation becomes a
// scrollable strip under the header.
import type { ComponentChildren } from 'preact';
import type { Account, Environment } from '../api.js';
import { href_of, Link, navigate, type Place } from '../router.js';

const sections: { path: string; label: string }[] = [
  { path: '/', label: 'Overview' },
  { path: '/buy', label: 'Buy' },
  { path: '/orders', label: 'Orders' },
  { path: '/wallet', label: 'Wallet' },
  { path: '/funding', label: 'Funding' },
  { path: '/keys', label: 'API keys' },
  { path: '/webhooks', label: 'Webhooks' },
  { path: '/pin', label: 'Transaction PIN' },
  // Only for an account that may have agents: not one at the tree's last level (docs/api.md "Agents").
  { path: '/agents', label: 'Agents' },
];

function section_of(path: string): string {
  if (path === '/') return '/';
  return '/' + path.split('/')[1];
}

/** The same page on the other side; a detail page goes back to its list, its record is one side's. */
function switched_href(place: Place, environment: Environment): string {
  const section = section_of(place.path);
  const keep: Record<string, string> = {};
  if (place.path === '/orders') for (const name of ['q', 'service', 'status', 'from', 'to']) keep[name] = place.query.get(name) ?? '';
  if (place.path === '/wallet') for (const name of ['type', 'from', 'to']) keep[name] = place.query.get(name) ?? '';
  return href_of(section, environment, keep);
}

export function EnvironmentSwitch({ place }: { place: Place }) {
  return (
    <div class="env-switch" role="group" aria-label="Environment">
      {(['live', 'test'] as const).map((environment) => (
        <button
          type="button"
          key={environment}
          class={`env-option env-${environment}`}
          aria-pressed={place.environment === environment}
          onClick={() => navigate(switched_href(place, environment))}
        >
          {environment === 'live' ? 'Live' : 'Test'}
        </button>
      ))}
    </div>
  );
}

export function Layout({ place, account, agents_allowed, on_sign_out, children }: { place: Place; account: Account; agents_allowed: boolean; on_sign_out: () => void; children: ComponentChildren }) {
  const current = section_of(place.path);
  return (
    <div class={`shell shell-${place.environment}`}>
      <header class="topbar">
        <Link href={href_of('/', place.environment)} class="brand">
          <img src="/dashboard/favicon.svg" alt="" width="28" height="28" />
          <span>billvend</span>
        </Link>
        <EnvironmentSwitch place={place} />
        <div class="account-box">
          <span class="account-name" title={account.email}>
            {account.name}
          </span>
          <button type="button" class="button button-small button-ghost" onClick={on_sign_out}>
            Sign out
          </button>
        </div>
      </header>
      {place.environment === 'test' && (
        <div class="test-banner" role="note">
          Test mode: sandbox wallet, test keys and sandbox orders. No real money moves.
        </div>
      )}
      <div class="frame">
        <nav class="sidenav" aria-label="Sections">
          {sections.filter((section) => agents_allowed || section.path !== '/agents').map((section) => (
            <Link key={section.path} href={href_of(section.path, place.environment)} class="nav-link" aria-current={current === section.path ? 'page' : undefined}>
              {section.label}
            </Link>
          ))}
          <a class="nav-link nav-external" href="/docs/" target="_blank" rel="noopener">
            API docs ↗
          </a>
        </nav>
        <main class="content" id="main">
          {children}
        </main>
      </div>
      <footer class="footer">
        Times are West Africa Time (Africa/Lagos). Amounts in naira. <a href="/docs/">Documentation</a>
      </footer>
    </div>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="page-header">
      <h1>{title}</h1>
      {children && <div class="page-actions">{children}</div>}
    </div>
  );
}
