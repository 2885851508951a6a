// The dashboard's client of /dashboard/api (src/dashboard/session-routes.ts and the files it lists). Every call rides on the
// session cookie (HttpOnly, so this code never sees it) and names the environment; every change
// carries the session's CSRF token in X-CSRF-Token. Answers use the API's envelope: data on success,
// error.code and error.message on failure, which the pages show as they are.

export type Environment = 'live' | 'test';

export interface Account {
  id: number;
  name: string;
  email: string;
  phone: string;
  tier: string;
  kyc_level: number;
  created_at: string;
}

/** GET and PATCH /account: the account and this side's low-balance alert (NGN, null when off). */
export interface AccountSettings extends Account {
  low_balance_threshold: number | null;
}

export interface Session {
  account: Account;
  csrf_token: string;
  expires_at: string;
  /** Where the dashboard opens: test while the account has test activity and none live. */
  landing_environment?: Environment;
  /** Every family on sale, from the one list the API validates against. */
  service_types: string[];
  /** Rows one bulk upload may hold: the bulk API's limit. */
  bulk_items_max: number;
  /** The server's one table of names as people write them (src/engine/display-names.ts). */
  display_names?: DisplayNames;
  /** Whether the account may open agents (the Agents page): not at the tree's last level. */
  agents_allowed?: boolean;
}

export type AgentStatus = 'active' | 'suspended' | 'closed';

/** An agent as GET /agents/{id} answers it (docs/api.md "Agents"). */
export interface Agent {
  id: number;
  parent_id: number;
  name: string;
  email: string;
  phone: string;
  tier: string;
  kyc_level: number;
  status: AgentStatus;
  daily_limit: number;
  pin_set: boolean;
  agents_open: number;
  balances: Record<Environment, Wallet>;
  created_at: string;
  /** The agent's price list, when the server gives it (PUT /v1/agents/{id}/pricing sets it): shown read-only. */
  pricing?: { rules: AgentPriceRule[] };
}

/** A rule of an agent's price list: a product (family, and network, disco or provider) and its rate off face value. */
export interface AgentPriceRule {
  service_type: string;
  network?: string | null;
  disco?: string | null;
  provider?: string | null;
  rate_bp: number;
}

export type TransferDirection = 'to_agent' | 'from_agent';

export interface Transfer {
  reference: string;
  kind: 'transfer' | 'sweep';
  direction: TransferDirection;
  environment: Environment;
  amount: number;
  parent_id: number;
  agent_id: number;
  balances_after: { parent: number; agent: number };
  created_at: string;
}

export interface DisplayNames {
  /** Each family's label, by service_type. */
  services: Record<string, string>;
  /** Networks, discos, TV, exam and internet providers, by code. */
  billers: Record<string, string>;
}

export interface Pagination {
  total: number;
  per_page: number;
  current_page: number;
  last_page: number;
}

export interface Wallet {
  balance: number;
  bonus_balance: number;
  currency: string;
}

export type OrderStatus = 'pending' | 'processing' | 'delivered' | 'failed';

export interface OrderSummary {
  reference: string;
  service_type: string;
  recipient: string;
  /** Face value; amount_charged is what the wallet paid, commission the reseller's discount. */
  amount: number;
  amount_charged: number;
  commission: number;
  status: OrderStatus;
  created_at: string;
  network?: string | null;
  disco?: string | null;
  provider?: string | null;
  plan?: string | null;
  /** The reseller's own reference given at purchase; null when none (docs/api.md "Client references and metadata"). */
  client_reference?: string | null;
}

export interface Order extends OrderSummary {
  environment: Environment;
  plan_code: string | null;
  package_code: string | null;
  token: string | null;
  units: string | null;
  meter_type: string | null;
  customer_name: string | null;
  wallet_balance_before: number;
  wallet_balance_after: number;
  failure_reason: string | null;
  reversed: boolean;
  needs_review: boolean;
  /** When the order is expected to be final; null once settled (docs/api.md "A promised time"). */
  expected_final_at: string | null;
  updated_at: string;
  delivered_at: string | null;
  failed_at: string | null;
  reversed_at: string | null;
  status_history: { status: OrderStatus; at: string }[];
  /** Live orders: each upstream the order was handed to, in turn (docs/api.md "Upstream attempts"). */
  attempts?: { upstream: string; request_id: string; outcome: string; at: string }[];
  /** Education and internet: PINs bought, and the JAMB profile or Smile account (docs/api.md "Education and internet"). */
  quantity?: number;
  customer_id?: string | null;
  /** Purchased PINs, shown only here and on the key's own order fetch: never in lists or exports. */
  pins?: { serial: string | null; pin: string }[];
  /** The reseller's own notes given at purchase; null when none (docs/api.md "Client references and metadata"). */
  metadata?: Record<string, string> | null;
}

export interface Overview {
  account: Account & { pin_set: boolean };
  environment: Environment;
  wallets: Record<Environment, Wallet>;
  today: { spent: number; limit: number; remaining: number };
  open_orders: number;
  recent_orders: OrderSummary[];
}

export interface WalletEntry {
  id: number;
  type: 'credit' | 'debit' | 'reversal';
  amount: number;
  balance_before: number;
  balance_after: number;
  reference: string;
  description: string;
  created_at: string;
}

export type Scope = '*' | 'wallet:read' | 'services:purchase' | 'transactions:read' | 'keys:manage' | 'account:manage' | 'agents:manage';

export interface ApiKey {
  id: number;
  name: string;
  environment: Environment;
  key_hint: string;
  scopes: Scope[];
  ip_allowlist: string[];
  rate_limit_per_minute: number;
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

export interface CreatedKey extends Omit<ApiKey, 'key_hint' | 'last_used_at'> {
  api_key: string;
}

/**
 * An event kind, such as transaction.completed. The kinds on offer are not listed here: the server
 * sends them with the endpoints (WebhookList), from the one list the API validates against, so a kind
 * added to the API appears in the webhook forms without a change to this app.
 */
export type EventKind = string;

/** GET /webhooks: the side's endpoints, every kind the API accepts, and those an endpoint gets unless it chooses. */
export interface WebhookList {
  webhooks: WebhookEndpoint[];
  event_kinds: EventKind[];
  default_event_kinds: EventKind[];
}

export interface WebhookEndpoint {
  id: number;
  url: string;
  environment: Environment;
  events: EventKind[];
  description: string;
  secret_hint: string;
  /** After a roll: until when deliveries are also signed with the previous secret. */
  previous_secret_expires_at: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
}

export interface CreatedWebhook extends WebhookEndpoint {
  secret: string;
}

/** The live wallet's funding: the operator's bank account (null until configured) and the reference to quote. */
export interface DedicatedAccount {
  provider: string;
  kind: string;
  bank_name: string | null;
  account_number: string | null;
  account_name: string | null;
  status: 'active' | 'pending' | 'failed';
  error?: string;
}

export interface Funding {
  bank: { bank_name: string; account_number: string; account_name: string } | null;
  funding_reference: string;
  live_balance: number;
  /** The reseller's own bank accounts at the funding providers (docs/funding.md); empty when none is configured. */
  dedicated_accounts: DedicatedAccount[];
}

/** What a delivery carries: an event kind, or the test event sent on request. */
export type DeliveryKind = EventKind | 'webhook.test';

export interface DeliveryAttempt {
  series: number;
  number: number;
  at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

export interface Delivery {
  id: number;
  endpoint_id: number;
  event_id: string;
  event: DeliveryKind;
  status: 'pending' | 'delivered' | 'dead' | 'cancelled';
  series: number;
  next_attempt_at: string | null;
  attempts: DeliveryAttempt[];
  created_at: string;
  updated_at: string;
}

/** An error answer of the API, or a network failure (code network.failed, status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: { field: string; message: string }[] = [],
    /** error.reference: the order a refusal names (transaction.failed: the refunded order). */
    readonly reference: string | null = null,
  ) {
    super(message);
  }
}

interface Envelope<T> {
  success: boolean;
  message?: string;
  data: T;
  error?: { code: string; message: string; details?: { field: string; message: string }[]; reference?: unknown };
}

/** The CSRF token of the current session: from sign-in or GET /session, kept in memory only. */
let csrf_token = '';
/**
 * Called when the server says the session is gone (expired, signed out elsewhere), or refused: the
 * account, an agent, suspended by the account above it (with the server's message).
 */
let on_session_lost: ((refused: string | null) => void) | null = null;

export function set_csrf_token(token: string): void {
  csrf_token = token;
}

export function on_session_expired(handler: (refused: string | null) => void): void {
  on_session_lost = handler;
}

export interface CallOptions {
  environment?: Environment;
  body?: unknown;
  query?: Record<string, string | number | undefined | null>;
  signal?: AbortSignal;
  /** Sent as X-Idempotency-Key: made once per confirmed purchase, so a repeat buys once. */
  idempotency_key?: string;
  /**
   * Sent as Billvend-Account: the parent reads one of its agents' orders (docs/api.md "Agents in the
   * dashboard"); the server takes it on the order reads only.
   */
  account?: number;
}

/** One call to /dashboard/api; resolves with data and the envelope's message, throws ApiError. */
export async function call<T>(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, options: CallOptions = {}): Promise<{ data: T; message: string }> {
  const params = new URLSearchParams();
  if (options.environment !== undefined) params.set('environment', options.environment);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const search = params.toString();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrf_token;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.idempotency_key !== undefined) headers['x-idempotency-key'] = options.idempotency_key;
  if (options.account !== undefined) headers['billvend-account'] = String(options.account);
  let response: Response;
  try {
    response = await fetch(`/dashboard/api${path}${search === '' ? '' : `?${search}`}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'network.failed', 'Cannot reach the billvend server. Check your connection and try again.');
  }
  let envelope: Envelope<T> | null = null;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    envelope = null;
  }
  if (envelope === null || typeof envelope !== 'object') {
    throw new ApiError(response.status, 'response.unreadable', `The server answered ${response.status} with something other than JSON.`);
  }
  if (!response.ok || envelope.success !== true) {
    const error = envelope.error ?? { code: 'internal.error', message: `The server answered ${response.status}.` };
    if (error.code === 'session.required' && path !== '/session') on_session_lost?.(null);
    // Read for an agent, account.suspended is the agent's (or an account above it), not this session's.
    if (error.code === 'account.suspended' && path !== '/session' && options.account === undefined) on_session_lost?.(error.message);
    throw new ApiError(response.status, error.code, error.message, error.details ?? [], 'reference' in error && typeof error.reference === 'string' ? error.reference : null);
  }
  return { data: envelope.data, message: envelope.message ?? '' };
}

/** An address of /dashboard/api for a plain link (a CSV download), with the environment and query. */
export function api_href(path: string, environment: Environment, query: Record<string, string | number | undefined | null> = {}): string {
  const params = new URLSearchParams({ environment });
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  return `/dashboard/api${path}?${params.toString()}`;
}

/** GET returning only data. */
export async function get<T>(path: string, options: CallOptions = {}): Promise<T> {
  return (await call<T>('GET', path, options)).data;
}
