// The billvend dashboard (docs/api.md "Dashboard and documentation"): resellers sign in with the email and password the
// operator set, then see both wallets, orders, wallet history, API keys, webhooks and their
// transaction PIN, on the live or the test side. Everything goes through /dashboard/api with the
// session cookie; the app never holds an API key.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import './styles.css';
import { call, on_session_expired, set_csrf_token, type Session } from './api.js';
import { base_path, href_of, navigate, use_place, type Place } from './router.js';
import { Layout } from './components/layout.js';
import { Loading } from './components/feedback.js';
import { SignInPage } from './pages/sign-in-page.js';
import { OverviewPage } from './pages/overview-page.js';
import { OrdersPage } from './pages/orders-page.js';
import { OrderDetailPage } from './pages/order-detail-page.js';
import { WalletPage } from './pages/wallet-page.js';
import { KeysPage } from './pages/keys-page.js';
import { WebhooksPage } from './pages/webhooks-page.js';
import { DeliveriesPage } from './pages/deliveries-page.js';
import { PinPage } from './pages/pin-page.js';
import { FundingPage } from './pages/funding-page.js';
import { BuyPage } from './pages/buy-page.js';
import { BulkPage } from './pages/bulk-page.js';
import { set_service_types } from './format.js';
import { NotFoundPage } from './pages/not-found-page.js';
import { AgentsPage } from './pages/agents-page.js';
import { AgentPage } from './pages/agent-page.js';

const titles: Record<string, string> = {
  '/': 'Overview',
  '/buy': 'Buy',
  '/orders': 'Orders',
  '/wallet': 'Wallet',
  '/funding': 'Funding',
  '/keys': 'API keys',
  '/webhooks': 'Webhooks',
  '/pin': 'Transaction PIN',
  '/agents': 'Agents',
  '/sign-in': 'Sign in',
};

/** The page for a path; detail pages take their id from the path. */
function page_for(place: Place, agents_allowed: boolean) {
  const parts = place.path.split('/').filter(Boolean).map(decodeURIComponent);
  const environment = place.environment;
  if (parts.length === 0) return <OverviewPage environment={environment} />;
  switch (parts[0]) {
    case 'buy':
      if (parts.length === 1) return <BuyPage environment={environment} />;
      if (parts.length === 2 && parts[1] === 'bulk') return <BulkPage environment={environment} />;
      break;
    case 'orders':
      if (parts.length === 1) return <OrdersPage place={place} />;
      if (parts.length === 2) return <OrderDetailPage reference={parts[1]} environment={environment} />;
      break;
    case 'wallet':
      if (parts.length === 1) return <WalletPage place={place} />;
      break;
    case 'funding':
      if (parts.length === 1) return <FundingPage environment={environment} />;
      break;
    case 'keys':
      if (parts.length === 1) return <KeysPage environment={environment} />;
      break;
    case 'webhooks':
      if (parts.length === 1) return <WebhooksPage environment={environment} />;
      if (parts.length === 2) return <DeliveriesPage endpoint_id={parts[1]} environment={environment} />;
      break;
    case 'pin':
      if (parts.length === 1) return <PinPage environment={environment} />;
      break;
    case 'agents':
      if (!agents_allowed) break;
      if (parts.length === 1) return <AgentsPage environment={environment} />;
      if (parts.length === 2) return <AgentPage agent_id={parts[1]} place={place} />;
      // An agent's order, read by its parent (docs/api.md "Agents in the dashboard").
      if (parts.length === 4 && parts[2] === 'orders' && /^[1-9][0-9]{0,15}$/.test(parts[1])) {
        return <OrderDetailPage reference={parts[3]} environment={environment} agent_id={Number(parts[1])} />;
      }
      break;
  }
  return <NotFoundPage environment={environment} />;
}

/**
 * Whether this page load opened on the bare dashboard address (no side chosen in it): only then may
 * the app pick Test for an account whose activity is all in the sandbox. Read once at start, so a
 * later click on Live stays on Live.
 */
const opened_without_side = !new URLSearchParams(location.search).has('env');

function App() {
  const place = use_place();
  // undefined: still asking the server whether a session exists; null: signed out.
  const [session, set_session] = useState<Session | null | undefined>(undefined);
  const [expired, set_expired] = useState(false);
  // Why the session opens no desk: the account suspended (the server's message), else null.
  const [refused, set_refused] = useState<string | null>(null);

  useEffect(() => {
    on_session_expired((why) => {
      set_session(null);
      set_refused(why);
      set_expired(why === null);
    });
    // The probe answers 200 signed in or not: the sign-in page logs no 401 in the console.
    call<{ session: Session | null; refused?: { code: string; message: string } | null }>('GET', '/session/probe').then(
      ({ data }) => {
        if (data.session === null) {
          set_refused(data.refused?.message ?? null);
          return set_session(null);
        }
        set_csrf_token(data.session.csrf_token);
        set_service_types(data.session.service_types, data.session.bulk_items_max, data.session.display_names);
        land(data.session);
        set_session(data.session);
      },
      () => set_session(null),
    );
  }, []);

  const section = '/' + (place.path.split('/')[1] ?? '');
  useEffect(() => {
    const title = titles[section === '/' ? '/' : section] ?? 'Not found';
    document.title = `${title} · billvend${place.environment === 'test' ? ' (test)' : ''}`;
  }, [section, place.environment]);

  // Signed out on a dashboard page: go to sign-in and come back afterwards. Signed in on the
  // sign-in page: go to the overview.
  useEffect(() => {
    if (session === null && place.path !== '/sign-in') {
      const next = location.pathname + location.search;
      navigate(`${base_path}/sign-in?next=${encodeURIComponent(next)}${expired ? '&expired=1' : ''}`, { replace: true });
    } else if (session && place.path === '/sign-in') {
      // Read from the address itself: land() may have just added the side to it.
      navigate(safe_next(new URLSearchParams(location.search).get('next')) ?? href_of('/', 'live'), { replace: true });
    }
  }, [session, place.path]);

  // Still asking the server, or on the wrong side of sign-in while the effect above moves us.
  if (session === undefined || (session === null) !== (place.path === '/sign-in')) return <Loading label="Opening your dashboard…" />;
  if (session === null) {
    return (
      <SignInPage
        expired={place.query.get('expired') === '1'}
        refused={refused}
        on_signed_in={(signed_in) => {
          set_refused(null);
          set_csrf_token(signed_in.csrf_token);
          set_service_types(signed_in.service_types, signed_in.bulk_items_max, signed_in.display_names);
          set_expired(false);
          land(signed_in);
          set_session(signed_in);
        }}
      />
    );
  }

  const sign_out = async () => {
    try {
      await call('DELETE', '/session');
    } catch {
      // Already gone on the server: signing out here is all that is left to do.
    }
    set_csrf_token('');
    set_expired(false);
    set_session(null);
  };

  return (
    <Layout place={place} account={session.account} agents_allowed={session.agents_allowed === true} on_sign_out={sign_out}>
      {/* A new key per side: switching live/test starts each page afresh (page numbers, forms). */}
      <div key={place.environment}>{page_for(place, session.agents_allowed === true)}</div>
    </Layout>
  );
}

/**
 * Opens on Test when the server says all the account's activity is there. Only the front page
 * without a side in its address lands (straight, or through sign-in): a deep link names its page,
 * and without ?env=test the address means Live.
 */
let landed = false;
function land(session: Session): void {
  if (landed) return;
  landed = true;
  if (session.landing_environment !== 'test') return;
  const next = new URLSearchParams(location.search).get('next');
  const front_page = `${base_path}/`;
  if (next !== null) {
    if (next === front_page || next === base_path) history.replaceState(null, '', `${location.pathname}?next=${encodeURIComponent(href_of('/', 'test'))}`);
  } else if (opened_without_side && (location.pathname === front_page || location.pathname === base_path)) {
    navigate(href_of('/', 'test'), { replace: true });
  }
}

/** Only our own dashboard paths are followed after sign-in (no open redirect). */
function safe_next(next: string | null): string | null {
  if (next === null || !next.startsWith(`${base_path}/`) || next.startsWith('//') || next.startsWith(`${base_path}/sign-in`)) return null;
  return next;
}

const root = document.getElementById('app')!;
// The page's "Loading billvend…" placeholder goes: Preact renders next to what it did not create.
root.textContent = '';
render(<App />, root);
