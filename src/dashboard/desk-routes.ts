// The dashboard's buying desk (issue "The dashboard as a working desk"): the purchase, verification,
// catalog and sandbox top-up routes of the public API, served again under /dashboard/api with the
// session instead of an API key. They are the very same handlers, so a purchase from the browser runs
// the API's path (idempotency → PIN → catalog → verification → limits → debit → order desk) and lands
// in the same order store: it shows in GET /v1/transactions with its reference. The browser sends an
// X-Idempotency-Key made once per confirmation, so a double click buys once. CSRF and Origin are
// checked for every change by authorize_session, as for every other dashboard route.
import type { RouteDef } from '../front/route.js';
import { fail } from '../lib/assert.js';

/**
 * The public routes the dashboard offers, by their /v1 path; a path shared by routes of several
 * methods names its method first ("patch /v1/webhooks/:id").
 */
export const desk_public_paths: readonly string[] = [
  '/v1/services/airtime',
  '/v1/services/data/purchase',
  '/v1/services/data/plans',
  '/v1/services/electricity',
  '/v1/services/electricity/verify',
  '/v1/services/electricity/discos',
  '/v1/services/tv',
  '/v1/services/tv/verify',
  '/v1/services/tv/packages',
  '/v1/services/showmax',
  '/v1/services/showmax/plans',
  // International airtime and data: the lists, the quote (the price shown before the PIN), the purchase.
  '/v1/services/international',
  '/v1/services/international/quote',
  '/v1/services/international/countries',
  '/v1/services/international/operators',
  '/v1/services/international/products',
  // Exam PINs and internet bundles (docs/api.md "Education and internet"): the Buy page sells every family.
  '/v1/services/education',
  '/v1/services/education/products',
  '/v1/services/education/verify',
  '/v1/services/internet',
  '/v1/services/internet/plans',
  '/v1/services/internet/verify',
  // Bulk purchases from a CSV upload (docs/api.md "Bulk orders"): the same handler, the session's
  // authority checked at every item's debit, the PIN once for the batch.
  '/v1/services/bulk',
  '/v1/services/bulk/:id',
  // The Buy page fills the network in as the number is typed (docs/api.md "Phone lookup").
  '/v1/lookup/phone/:phone',
  '/v1/sandbox/wallet/fund',
  // The account's rates, so the confirmation shows what the wallet will be debited (docs/api.md "Pricing").
  '/v1/pricing',
  // Webhook endpoint care (docs/api.md "Testing, rolling and retrying"): the same handlers as the API.
  'patch /v1/webhooks/:id',
  '/v1/webhooks/:id/test',
  '/v1/webhooks/:id/roll-secret',
  '/v1/webhooks/:id/deliveries/:delivery_id/retry',
  // The account and its low-balance alert per environment (docs/api.md "Low-balance alert"): the Wallet
  // page reads and sets the threshold through the API's own handlers, so it is validated and stored
  // exactly as PATCH /v1/account does it.
  'get /v1/account',
  'patch /v1/account',
  // The Agents page (docs/api.md "Agents in the dashboard"): a parent opens, reads, suspends, closes its
  // agents, sets their PINs and moves money to and from them through the API's own handlers, so every rule
  // (its subtree only, depth, KYC and limits, the parent's PIN, a transfer's reference once for ever) holds.
  '/v1/agents',
  '/v1/agents/:id',
  '/v1/agents/:id/pin',
  '/v1/agents/:id/transfers',
  // The agent's price list, edited on its page: the API's handler, so a rule above the parent's own rate is
  // the same 400 naming rules.N.rate_bp (docs/api.md "Agent pricing").
  '/v1/agents/:id/pricing',
];

/** "/v1/services/airtime" → "/dashboard/api/services/airtime". */
export function desk_path(public_path: string): string {
  return `/dashboard/api${public_path.slice('/v1'.length)}`;
}

/** Session-authorised twins of the public routes named in desk_public_paths. */
export function desk_routes(public_routes: readonly RouteDef[]): RouteDef[] {
  const twins = public_routes
    .filter((route) => desk_public_paths.includes(route.path) || desk_public_paths.includes(`${route.method} ${route.path}`))
    .map((route): RouteDef => ({
      ...route,
      path: desk_path(route.path),
      auth: 'session',
      scope: undefined,
      doc: { ...route.doc, summary: `Dashboard: ${route.doc.summary}`, tags: ['Dashboard'], hidden: true },
    }));
  // A path named without a method offers each of its methods (GET and POST /v1/agents): each name must find one at least.
  const offered = (name: string) => public_routes.some((route) => route.path === name || `${route.method} ${route.path}` === name);
  if (!desk_public_paths.every(offered)) fail('a public route the dashboard offers is missing');
  return twins;
}
