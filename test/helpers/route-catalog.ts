// Every route a client can reach, with a builder of a valid request for it, shared by the hostile-input
// fuzzers (test/fuzz-*.test.ts) and the security tests (test/security-*.test.ts). The public /v1 routes
// and their scopes come from GET /v1/openapi.json; the routes the document hides (the dashboard API
// under /dashboard/api) and the operator API are listed here. A route in the document without a builder
// here makes load_catalog say so, so that a new route cannot escape the fuzzer and the scope tests.
//
// Also here: a raw HTTP/1.1 client (duplicated headers, any bytes, any path), the checks every answer
// must pass, and the state snapshot that a rejected request must leave unchanged.
import { connect } from 'node:net';
import fc from 'fast-check';
import { createHmac, randomBytes } from 'node:crypto';
import { error_catalogue } from '../../src/errors.js';
import { stack_trace_in } from './fixtures-http.js';
import type { TestServer } from './server.js';
import type { WebhookReceiver } from './webhook-receiver.js';

// ---- Requests -------------------------------------------------------------------------------------

export type Auth = 'api_key' | 'session' | 'operator' | 'signature' | 'none';
export type Port = 'public' | 'operator';

/** A request before it becomes bytes: everything in it can be replaced by a fuzzer. */
export interface RequestSpec {
  method: string;
  /** The path template, e.g. /v1/keys/{id}. */
  template: string;
  params: Record<string, string>;
  /** The query string without "?", exactly as sent. */
  query: string;
  headers: [string, string][];
  /** A JSON value sent as the body (undefined: no body). */
  body?: unknown;
  /** Exact body bytes; wins over body. */
  raw_body?: Buffer;
  port: Port;
  /** Routes signed over their raw body (bank transfers): called on the final bytes. */
  sign?: (raw: Buffer) => string;
  /** Send the body with Transfer-Encoding: chunked instead of Content-Length. */
  chunked?: boolean;
}

export interface World {
  server: TestServer;
  account_id: number;
  email: string;
  password: string;
  pin: string;
  /** Full-access test key with a high rate limit: the key requests are made with. */
  key: string;
  key_id: number;
  /** Full-access live key of the same account. */
  live_key: string;
  live_key_id: number;
  /** A test key that exists to be revoked (DELETE routes aim at it). */
  victim_key_id: number;
  /** A test webhook endpoint, with at least one delivery. */
  endpoint_id: number;
  delivery_id: number;
  /** A second test endpoint that exists to be deleted. */
  victim_endpoint_id: number;
  /** A third test endpoint whose secret the roll-secret routes roll (the receiver keeps the first one's). */
  roll_endpoint_id: number;
  /** A delivered test order of the account. */
  reference: string;
  /** The X-Idempotency-Key that created that order. */
  order_idempotency_key: string;
  /** A bulk order of this account (GET /v1/services/bulk/{id} reads it). */
  batch_id: string;
  /**
   * A quote of international airtime with the test key (POST /v1/services/international names it); it may
   * have expired by the time a route is fuzzed (10 minutes, scaled by TIME_SCALE): a 422 is an answer too.
   */
  intl_quote_id: string;
  plan: { plan_id: string; amount: number };
  tv_package: { package_code: string; amount: number };
  session: { cookie: string; csrf: string };
  funding_secret: string | null;
  admin_token: string;
  /** An agent of the account (docs/api.md "Agents"), and one that exists to be closed. */
  agent_id: number;
  victim_agent_id: number;
}

export interface RouteEntry {
  /** "POST /v1/keys", templates in OpenAPI form. */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  template: string;
  auth: Auth;
  /** x-required-scope of the OpenAPI document for API-key routes ('any', a scope, or '*'); else null. */
  scope: string | null;
  port: Port;
  /** Whether the OpenAPI document lists it (the rest are the hidden and operator routes). */
  documented: boolean;
  /** The route may change state when it succeeds. */
  changes_state: boolean;
  /** Names of the fields of a valid body (none: the route takes no body). */
  body_fields: string[];
  params: string[];
  /** The status of the valid request when it is not a 2xx (a request that is right but names nothing open). */
  valid_status?: number;
  build(world: World): RequestSpec;
}

type Builder = Omit<RouteEntry, 'name' | 'scope' | 'documented' | 'params' | 'body_fields'> & { body_fields?: string[] };

const bearer = (token: string): [string, string] => ['Authorization', `Bearer ${token}`];
const json_type: [string, string] = ['Content-Type', 'application/json'];
let idempotency_counter = 0;
/** A fresh X-Idempotency-Key. */
export function fresh_idempotency_key(prefix = 'cat'): string {
  return `${prefix}-${process.pid}-${Date.now()}-${++idempotency_counter}-${randomBytes(3).toString('hex')}`;
}

function api(world: World, method: string, template: string, params: Record<string, string>, body?: unknown, query = ''): RequestSpec {
  const headers: [string, string][] = [bearer(world.key)];
  if (body !== undefined) headers.push(json_type);
  if (method === 'POST') headers.push(['X-Idempotency-Key', fresh_idempotency_key()]);
  return { method, template, params, query, headers, body, port: 'public' };
}

function dashboard(world: World, method: string, template: string, params: Record<string, string>, body?: unknown, query = 'environment=test'): RequestSpec {
  const headers: [string, string][] = [['Cookie', `bv_session=${world.session.cookie}`]];
  if (method !== 'GET') headers.push(['X-CSRF-Token', world.session.csrf]);
  if (body !== undefined) headers.push(json_type);
  return { method, template, params, query, headers, body, port: 'public' };
}

function operator(world: World, method: string, template: string, params: Record<string, string>, body?: unknown, query = ''): RequestSpec {
  const headers: [string, string][] = [bearer(world.admin_token)];
  if (body !== undefined) headers.push(json_type);
  return { method, template, params, query, headers, body, port: 'operator' };
}

const id = (n: number) => String(n);

/** The documented public routes: a builder for each OpenAPI operation. */
const documented_builders: Record<string, Builder> = {
  'GET /v1/account': { method: 'GET', template: '/v1/account', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/account', {}) },
  'GET /v1/wallet': { method: 'GET', template: '/v1/wallet', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/wallet', {}) },
  'GET /v1/wallet/transactions': { method: 'GET', template: '/v1/wallet/transactions', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/wallet/transactions', {}, undefined, 'per_page=5&page=1') },
  'GET /v1/keys': { method: 'GET', template: '/v1/keys', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/keys', {}) },
  'POST /v1/keys': {
    method: 'POST', template: '/v1/keys', auth: 'api_key', port: 'public', changes_state: true,
    body_fields: ['name', 'environment', 'scopes', 'ip_allowlist', 'expires_at'],
    build: (w) => api(w, 'POST', '/v1/keys', {}, { name: 'catalogue key', environment: 'test', scopes: ['wallet:read'], ip_allowlist: ['127.0.0.1'], expires_at: new Date(Date.now() + 86_400_000).toISOString() }),
  },
  'DELETE /v1/keys/{id}': { method: 'DELETE', template: '/v1/keys/{id}', auth: 'api_key', port: 'public', changes_state: true, build: (w) => api(w, 'DELETE', '/v1/keys/{id}', { id: id(w.victim_key_id) }) },
  'POST /v1/agents': {
    method: 'POST', template: '/v1/agents', auth: 'api_key', port: 'public', changes_state: true,
    body_fields: ['name', 'email', 'phone', 'password', 'kyc_level'],
    build: (w) => api(w, 'POST', '/v1/agents', {}, { name: 'catalogue agent', email: `agent-${randomBytes(6).toString('hex')}@example.ng`, phone: '08031234567', password: 'catalogue agent pw', kyc_level: 1 }),
  },
  'GET /v1/agents': { method: 'GET', template: '/v1/agents', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/agents', {}, undefined, 'per_page=5&page=1') },
  'GET /v1/agents/{id}': { method: 'GET', template: '/v1/agents/{id}', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/agents/{id}', { id: id(w.agent_id) }) },
  'PATCH /v1/agents/{id}': {
    method: 'PATCH', template: '/v1/agents/{id}', auth: 'api_key', port: 'public', changes_state: true,
    body_fields: ['status', 'daily_limit'],
    build: (w) => api(w, 'PATCH', '/v1/agents/{id}', { id: id(w.agent_id) }, { status: 'active', daily_limit: 1000 }),
  },
  'DELETE /v1/agents/{id}': { method: 'DELETE', template: '/v1/agents/{id}', auth: 'api_key', port: 'public', changes_state: true, build: (w) => api(w, 'DELETE', '/v1/agents/{id}', { id: id(w.victim_agent_id) }) },
  'PUT /v1/agents/{id}/pin': {
    method: 'PUT', template: '/v1/agents/{id}/pin', auth: 'api_key', port: 'public', changes_state: true,
    body_fields: ['pin'],
    build: (w) => api(w, 'PUT', '/v1/agents/{id}/pin', { id: id(w.agent_id) }, { pin: '13579' }),
  },
  'GET /v1/agents/commissions': { method: 'GET', template: '/v1/agents/commissions', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/agents/commissions', {}, undefined, 'environment=test') },
  'PUT /v1/agents/{id}/pricing': {
    method: 'PUT', template: '/v1/agents/{id}/pricing', auth: 'api_key', port: 'public', changes_state: true,
    body_fields: ['rules'],
    build: (w) => api(w, 'PUT', '/v1/agents/{id}/pricing', { id: id(w.agent_id) }, { rules: [{ service_type: 'airtime', rate_bp: 0 }] }),
  },
  'GET /v1/agents/{id}/transfers': { method: 'GET', template: '/v1/agents/{id}/transfers', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/agents/{id}/transfers', { id: id(w.agent_id) }, undefined, 'per_page=5&page=1') },
  'POST /v1/agents/{id}/transfers': {
    method: 'POST', template: '/v1/agents/{id}/transfers', auth: 'api_key', port: 'public', changes_state: true,
    body_fields: ['direction', 'amount', 'environment', 'pin', 'reference'],
    build: (w) => api(w, 'POST', '/v1/agents/{id}/transfers', { id: id(w.agent_id) }, { direction: 'to_agent', amount: 1, environment: 'test', pin: w.pin, reference: `cat-${randomBytes(6).toString('hex')}` }),
  },
  'GET /v1/pricing': { method: 'GET', template: '/v1/pricing', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/pricing', {}) },
  'GET /v1/services/data/plans': { method: 'GET', template: '/v1/services/data/plans', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/services/data/plans', {}, undefined, 'network=mtn') },
  'GET /v1/lookup/phone/{phone}': { method: 'GET', template: '/v1/lookup/phone/{phone}', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/lookup/phone/{phone}', { phone: '08031234567' }) },
  'GET /v1/services/tv/packages': { method: 'GET', template: '/v1/services/tv/packages', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/services/tv/packages', {}, undefined, 'provider=gotv') },
  'GET /v1/services/electricity/discos': { method: 'GET', template: '/v1/services/electricity/discos', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/services/electricity/discos', {}) },
  'POST /v1/services/airtime': {
    method: 'POST', template: '/v1/services/airtime', auth: 'api_key', port: 'public', changes_state: true,
    body_fields: ['network', 'phone', 'amount', 'pin'],
    build: (w) => api(w, 'POST', '/v1/services/airtime', {}, { network: 'mtn', phone: '08011111111', amount: 100, pin: w.pin }),
  },
  'POST /v1/services/data/purchase': {
    method: 'POST', template: '/v1/services/data/purchase', auth: 'api_key', port: 'public', changes_state: true,
    body_fields: ['network', 'plan_code', 'phone', 'amount', 'pin'],
    build: (w) => api(w, 'POST', '/v1/services/data/purchase', {}, { network: 'mtn', plan_code: w.plan.plan_id, phone: '08011111111', amount: w.plan.amount, pin: w.pin }),
  },
  'POST /v1/services/electricity': {
    method: 'POST', template: '/v1/services/electricity', auth: 'api_key', port: 'public', changes_state: true,
    body_fields: ['disco', 'meter_number', 'meter_type', 'amount', 'pin'],
    build: (w) => api(w, 'POST', '/v1/services/electricity', {}, { disco: 'ikeja-electric', meter_number: '1111111111111', meter_type: 'prepaid', amount: 1000, pin: w.pin }),
  },
  'POST /v1/services/tv': {
    method: 'POST', template: '/v1/services/tv', auth: 'api_key', port: 'public', changes_state: true,
    body_fields: ['provider', 'smartcard_number', 'package_code', 'amount', 'pin'],
    build: (w) => api(w, 'POST', '/v1/services/tv', {}, { provider: 'gotv', smartcard_number: '1212121212', package_code: w.tv_package.package_code, amount: w.tv_package.amount, pin: w.pin }),
  },
  'POST /v1/services/electricity/verify': {
    method: 'POST', template: '/v1/services/electricity/verify', auth: 'api_key', port: 'public', changes_state: false,
    body_fields: ['disco', 'meter_number', 'meter_type'],
    build: (w) => api(w, 'POST', '/v1/services/electricity/verify', {}, { disco: 'ikeja-electric', meter_number: '1111111111111', meter_type: 'prepaid' }),
  },
  'POST /v1/services/tv/verify': {
    method: 'POST', template: '/v1/services/tv/verify', auth: 'api_key', port: 'public', changes_state: false,
    body_fields: ['provider', 'smartcard_number'],
    build: (w) => api(w, 'POST', '/v1/services/tv/verify', {}, { provider: 'gotv', smartcard_number: '1212121212' }),
  },
  'POST /v1/services/bulk': {
    method: 'POST', template: '/v1/services/bulk', auth: 'api_key', port: 'public', changes_state: true,
    body_fields: ['pin', 'items'],
    build: (w) => api(w, 'POST', '/v1/services/bulk', {}, { pin: w.pin, items: [{ service_type: 'airtime', network: 'mtn', phone: '08011111111', amount: 100 }, { service_type: 'data', network: 'mtn', plan_code: w.plan.plan_id, phone: '08011111111', amount: w.plan.amount }] }),
  },
  'GET /v1/services/bulk/{id}': { method: 'GET', template: '/v1/services/bulk/{id}', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/services/bulk/{id}', { id: w.batch_id }) },
  'GET /v1/services/education/products': { method: 'GET', template: '/v1/services/education/products', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/services/education/products', {}, undefined, 'exam=waec') },
  'POST /v1/services/education': {
    method: 'POST', template: '/v1/services/education', auth: 'api_key', port: 'public', changes_state: true,
    body_fields: ['product', 'quantity', 'phone', 'amount', 'pin'],
    build: (w) => api(w, 'POST', '/v1/services/education', {}, { product: 'waec-result-checker', quantity: 1, phone: '08011111111', amount: 3900, pin: w.pin }),
  },
  'POST /v1/services/education/verify': {
    method: 'POST', template: '/v1/services/education/verify', auth: 'api_key', port: 'public', changes_state: false,
    body_fields: ['product', 'profile_id'],
    build: (w) => api(w, 'POST', '/v1/services/education/verify', {}, { product: 'jamb-utme', profile_id: '1234567890' }),
  },
  'GET /v1/services/internet/plans': { method: 'GET', template: '/v1/services/internet/plans', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/services/internet/plans', {}, undefined, 'provider=smile') },
  'POST /v1/services/internet': {
    method: 'POST', template: '/v1/services/internet', auth: 'api_key', port: 'public', changes_state: true,
    body_fields: ['provider', 'plan_code', 'account', 'phone', 'amount', 'pin'],
    build: (w) => api(w, 'POST', '/v1/services/internet', {}, { provider: 'smile', plan_code: 'smile-1-5gb-7d', account: '1234567890', phone: '08011111111', amount: 1000, pin: w.pin }),
  },
  'GET /v1/services/showmax/plans': { method: 'GET', template: '/v1/services/showmax/plans', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/services/showmax/plans', {}) },
  'GET /v1/services/international/countries': { method: 'GET', template: '/v1/services/international/countries', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/services/international/countries', {}) },
  'GET /v1/services/international/operators': { method: 'GET', template: '/v1/services/international/operators', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/services/international/operators', {}, undefined, 'country=GH') },
  'GET /v1/services/international/products': { method: 'GET', template: '/v1/services/international/products', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/services/international/products', {}, undefined, 'country=GH&operator=5&product_type=1') },
  'POST /v1/services/international/quote': {
    method: 'POST', template: '/v1/services/international/quote', auth: 'api_key', port: 'public', changes_state: false,
    body_fields: ['country', 'operator', 'product_type', 'product_code', 'foreign_amount'],
    build: (w) => api(w, 'POST', '/v1/services/international/quote', {}, { country: 'GH', operator: '5', product_type: '1', product_code: 'gh-mtn-topup', foreign_amount: '10.50' }),
  },
  'POST /v1/services/international': {
    method: 'POST', template: '/v1/services/international', auth: 'api_key', port: 'public', changes_state: true,
    body_fields: ['quote_id', 'phone', 'pin'],
    build: (w) => api(w, 'POST', '/v1/services/international', {}, { quote_id: w.intl_quote_id, phone: '233241234567', pin: w.pin }),
  },
  'POST /v1/services/showmax': {
    method: 'POST', template: '/v1/services/showmax', auth: 'api_key', port: 'public', changes_state: true,
    body_fields: ['phone', 'plan_code', 'amount', 'pin'],
    build: (w) => api(w, 'POST', '/v1/services/showmax', {}, { phone: '08011111111', plan_code: 'showmax-mobile-3m', amount: 3800, pin: w.pin }),
  },
  'POST /v1/services/internet/verify': {
    method: 'POST', template: '/v1/services/internet/verify', auth: 'api_key', port: 'public', changes_state: false,
    body_fields: ['provider', 'account'],
    build: (w) => api(w, 'POST', '/v1/services/internet/verify', {}, { provider: 'smile', account: '1234567890' }),
  },
  'GET /v1/services/status': { method: 'GET', template: '/v1/services/status', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/services/status', {}) },
  'GET /v1/transactions': { method: 'GET', template: '/v1/transactions', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/transactions', {}, undefined, 'per_page=5&page=1') },
  'GET /v1/transactions/export': {
    method: 'GET', template: '/v1/transactions/export', auth: 'api_key', port: 'public', changes_state: false,
    build: (w) => api(w, 'GET', '/v1/transactions/export', {}, undefined, `from=${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}&to=${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}&service_type=airtime`),
  },
  'GET /v1/events': { method: 'GET', template: '/v1/events', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/events', {}, undefined, 'limit=5&type=wallet.credited') },
  'PATCH /v1/account': {
    method: 'PATCH', template: '/v1/account', auth: 'api_key', port: 'public', changes_state: true,
    body_fields: ['low_balance_threshold'],
    build: (w) => api(w, 'PATCH', '/v1/account', {}, { low_balance_threshold: 1500.5 }),
  },
  'GET /v1/transactions/{reference}': { method: 'GET', template: '/v1/transactions/{reference}', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/transactions/{reference}', { reference: w.reference }) },
  // The world's order is a delivered sandbox order: a requery answers it as it is, with no upstream call.
  // A delivered sandbox order is no bulk item waiting to be sent: its cancel is refused.
  'POST /v1/transactions/{reference}/cancel': { method: 'POST', template: '/v1/transactions/{reference}/cancel', auth: 'api_key', port: 'public', changes_state: false, valid_status: 409, build: (w) => api(w, 'POST', '/v1/transactions/{reference}/cancel', { reference: w.reference }) },
  'POST /v1/transactions/{reference}/requery': { method: 'POST', template: '/v1/transactions/{reference}/requery', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'POST', '/v1/transactions/{reference}/requery', { reference: w.reference }) },
  'GET /v1/webhooks': { method: 'GET', template: '/v1/webhooks', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/webhooks', {}) },
  'POST /v1/webhooks': {
    method: 'POST', template: '/v1/webhooks', auth: 'api_key', port: 'public', changes_state: true,
    body_fields: ['url', 'events', 'description'],
    build: (w) => api(w, 'POST', '/v1/webhooks', {}, { url: 'https://localhost:9/catalogue', events: ['wallet.credited'], description: 'catalogue endpoint' }),
  },
  'DELETE /v1/webhooks/{id}': { method: 'DELETE', template: '/v1/webhooks/{id}', auth: 'api_key', port: 'public', changes_state: true, build: (w) => api(w, 'DELETE', '/v1/webhooks/{id}', { id: id(w.victim_endpoint_id) }) },
  'GET /v1/webhooks/{id}/deliveries': { method: 'GET', template: '/v1/webhooks/{id}/deliveries', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/webhooks/{id}/deliveries', { id: id(w.endpoint_id) }, undefined, 'per_page=5&page=1') },
  'PATCH /v1/webhooks/{id}': {
    method: 'PATCH', template: '/v1/webhooks/{id}', auth: 'api_key', port: 'public', changes_state: true, body_fields: ['events', 'description'],
    // The world endpoint keeps every kind: the edit changes nothing other routes rely on.
    build: (w) => api(w, 'PATCH', '/v1/webhooks/{id}', { id: id(w.endpoint_id) }, { events: ['transaction.completed', 'transaction.failed', 'transaction.processing', 'wallet.credited', 'wallet.debited', 'wallet.reversed'], description: 'world endpoint' }),
  },
  'POST /v1/webhooks/{id}/test': { method: 'POST', template: '/v1/webhooks/{id}/test', auth: 'api_key', port: 'public', changes_state: true, build: (w) => api(w, 'POST', '/v1/webhooks/{id}/test', { id: id(w.endpoint_id) }) },
  'POST /v1/webhooks/{id}/roll-secret': { method: 'POST', template: '/v1/webhooks/{id}/roll-secret', auth: 'api_key', port: 'public', changes_state: true, build: (w) => api(w, 'POST', '/v1/webhooks/{id}/roll-secret', { id: id(w.roll_endpoint_id) }) },
  'POST /v1/webhooks/{id}/deliveries/{delivery_id}/retry': {
    method: 'POST', template: '/v1/webhooks/{id}/deliveries/{delivery_id}/retry', auth: 'api_key', port: 'public', changes_state: true,
    build: (w) => api(w, 'POST', '/v1/webhooks/{id}/deliveries/{delivery_id}/retry', { id: id(w.endpoint_id), delivery_id: id(w.delivery_id) }),
  },
  'POST /v1/webhooks/{id}/deliveries/{delivery_id}/replay': {
    method: 'POST', template: '/v1/webhooks/{id}/deliveries/{delivery_id}/replay', auth: 'api_key', port: 'public', changes_state: true,
    build: (w) => api(w, 'POST', '/v1/webhooks/{id}/deliveries/{delivery_id}/replay', { id: id(w.endpoint_id), delivery_id: id(w.delivery_id) }),
  },
  'POST /v1/sandbox/wallet/fund': {
    method: 'POST', template: '/v1/sandbox/wallet/fund', auth: 'api_key', port: 'public', changes_state: true,
    body_fields: ['amount', 'reference'],
    build: (w) => api(w, 'POST', '/v1/sandbox/wallet/fund', {}, { amount: 10.5, reference: `SBX-${randomBytes(6).toString('hex')}` }),
  },
  // Without FUNDING_PROVIDERS (the fuzzers' server) the dedicated-account routes answer 404 funding.not_configured.
  'POST /v1/funding/accounts': {
    method: 'POST', template: '/v1/funding/accounts', auth: 'api_key', port: 'public', changes_state: false, valid_status: 404, body_fields: ['bvn', 'nin'],
    build: (w) => api(w, 'POST', '/v1/funding/accounts', {}, { bvn: '22212345678' }),
  },
  'GET /v1/funding/accounts': { method: 'GET', template: '/v1/funding/accounts', auth: 'api_key', port: 'public', changes_state: false, valid_status: 404, build: (w) => api(w, 'GET', '/v1/funding/accounts', {}) },
  'POST /v1/sandbox/funding/transfer': {
    method: 'POST', template: '/v1/sandbox/funding/transfer', auth: 'api_key', port: 'public', changes_state: true, body_fields: ['amount'],
    build: (w) => api(w, 'POST', '/v1/sandbox/funding/transfer', {}, { amount: 10.5 }),
  },
  'GET /v1/transactions/{reference}/receipt': { method: 'GET', template: '/v1/transactions/{reference}/receipt', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/transactions/{reference}/receipt', { reference: w.reference }) },
  'POST /v1/transactions/{reference}/resend': { method: 'POST', template: '/v1/transactions/{reference}/resend', auth: 'api_key', port: 'public', changes_state: true, build: (w) => api(w, 'POST', '/v1/transactions/{reference}/resend', { reference: w.reference }) },
  'GET /v1/statements': { method: 'GET', template: '/v1/statements', auth: 'api_key', port: 'public', changes_state: false, build: (w) => api(w, 'GET', '/v1/statements', {}, undefined, `date=${new Date(Date.now() + 3_600_000).toISOString().slice(0, 10)}`) },
  'GET /v1/statements/public-key': { method: 'GET', template: '/v1/statements/public-key', auth: 'none', port: 'public', changes_state: false, build: () => ({ method: 'GET', template: '/v1/statements/public-key', params: {}, query: '', headers: [], port: 'public' }) },
  'GET /v1/openapi.json': { method: 'GET', template: '/v1/openapi.json', auth: 'none', port: 'public', changes_state: false, build: () => ({ method: 'GET', template: '/v1/openapi.json', params: {}, query: '', headers: [], port: 'public' }) },
  'POST /v1/funding/bank-transfer': {
    method: 'POST', template: '/v1/funding/bank-transfer', auth: 'signature', port: 'public', changes_state: true,
    body_fields: ['reference', 'account_id', 'amount', 'sender_name', 'narration'],
    build: (w) => ({
      method: 'POST',
      template: '/v1/funding/bank-transfer',
      params: {},
      query: '',
      headers: [json_type],
      body: { reference: `BANK-${randomBytes(6).toString('hex')}`, account_id: w.account_id, amount: 250.75, sender_name: 'Ada Obi', narration: 'top-up' },
      port: 'public',
      sign: (raw) => 'sha256=' + createHmac('sha256', w.funding_secret ?? '').update(raw).digest('hex'),
    }),
  },
};

/** Routes the OpenAPI document hides: the dashboard's API and the bank partner's notifications. */
const hidden_builders: Record<string, Builder> = {
  'POST /dashboard/api/session': {
    method: 'POST', template: '/dashboard/api/session', auth: 'none', port: 'public', changes_state: true, body_fields: ['email', 'password'],
    build: (w) => ({ method: 'POST', template: '/dashboard/api/session', params: {}, query: '', headers: [json_type], body: { email: w.email, password: w.password }, port: 'public' }),
  },
  'GET /dashboard/api/session': { method: 'GET', template: '/dashboard/api/session', auth: 'session', port: 'public', changes_state: false, build: (w) => dashboard(w, 'GET', '/dashboard/api/session', {}, undefined, '') },
  'DELETE /dashboard/api/session': { method: 'DELETE', template: '/dashboard/api/session', auth: 'session', port: 'public', changes_state: true, build: (w) => dashboard(w, 'DELETE', '/dashboard/api/session', {}, undefined, '') },
  'GET /dashboard/api/overview': { method: 'GET', template: '/dashboard/api/overview', auth: 'session', port: 'public', changes_state: false, build: (w) => dashboard(w, 'GET', '/dashboard/api/overview', {}) },
  'GET /dashboard/api/orders': { method: 'GET', template: '/dashboard/api/orders', auth: 'session', port: 'public', changes_state: false, build: (w) => dashboard(w, 'GET', '/dashboard/api/orders', {}, undefined, 'environment=test&service=airtime&status=delivered&from=2020-01-01&to=2099-12-31&per_page=5&page=1') },
  'GET /dashboard/api/orders/{reference}': { method: 'GET', template: '/dashboard/api/orders/{reference}', auth: 'session', port: 'public', changes_state: false, build: (w) => dashboard(w, 'GET', '/dashboard/api/orders/{reference}', { reference: w.reference }) },
  'GET /dashboard/api/orders/{reference}/receipt': { method: 'GET', template: '/dashboard/api/orders/{reference}/receipt', auth: 'session', port: 'public', changes_state: false, build: (w) => dashboard(w, 'GET', '/dashboard/api/orders/{reference}/receipt', { reference: w.reference }) },
  'POST /dashboard/api/orders/{reference}/requery': { method: 'POST', template: '/dashboard/api/orders/{reference}/requery', auth: 'session', port: 'public', changes_state: false, build: (w) => dashboard(w, 'POST', '/dashboard/api/orders/{reference}/requery', { reference: w.reference }) },
  'POST /dashboard/api/orders/{reference}/cancel': { method: 'POST', template: '/dashboard/api/orders/{reference}/cancel', auth: 'session', port: 'public', changes_state: false, valid_status: 409, build: (w) => dashboard(w, 'POST', '/dashboard/api/orders/{reference}/cancel', { reference: w.reference }) },
  'GET /dashboard/api/wallet/transactions': { method: 'GET', template: '/dashboard/api/wallet/transactions', auth: 'session', port: 'public', changes_state: false, build: (w) => dashboard(w, 'GET', '/dashboard/api/wallet/transactions', {}, undefined, 'environment=test&per_page=5&page=1&type=credit&from=2026-01-01&to=2099-12-31') },
  // The Agents page: the API's agent handlers under the session (docs/api.md "Agents in the dashboard").
  'GET /dashboard/api/agents': { method: 'GET', template: '/dashboard/api/agents', auth: 'session', port: 'public', changes_state: false, build: (w) => dashboard(w, 'GET', '/dashboard/api/agents', {}, undefined, 'environment=test&per_page=5&page=1') },
  'POST /dashboard/api/agents': {
    method: 'POST', template: '/dashboard/api/agents', auth: 'session', port: 'public', changes_state: true, body_fields: ['name', 'email', 'phone', 'password', 'kyc_level'],
    build: (w) => dashboard(w, 'POST', '/dashboard/api/agents', {}, { name: 'dashboard agent', email: `dash-agent-${randomBytes(6).toString('hex')}@example.ng`, phone: '08031234567', password: 'dashboard agent pw', kyc_level: 1 }),
  },
  'GET /dashboard/api/agents/{id}': { method: 'GET', template: '/dashboard/api/agents/{id}', auth: 'session', port: 'public', changes_state: false, build: (w) => dashboard(w, 'GET', '/dashboard/api/agents/{id}', { id: id(w.agent_id) }) },
  'PATCH /dashboard/api/agents/{id}': {
    method: 'PATCH', template: '/dashboard/api/agents/{id}', auth: 'session', port: 'public', changes_state: true, body_fields: ['status', 'daily_limit'],
    build: (w) => dashboard(w, 'PATCH', '/dashboard/api/agents/{id}', { id: id(w.agent_id) }, { status: 'active', daily_limit: 1000 }),
  },
  'PUT /dashboard/api/agents/{id}/pin': {
    method: 'PUT', template: '/dashboard/api/agents/{id}/pin', auth: 'session', port: 'public', changes_state: true, body_fields: ['pin'],
    build: (w) => dashboard(w, 'PUT', '/dashboard/api/agents/{id}/pin', { id: id(w.agent_id) }, { pin: '13579' }),
  },
  'PUT /dashboard/api/agents/{id}/pricing': {
    method: 'PUT', template: '/dashboard/api/agents/{id}/pricing', auth: 'session', port: 'public', changes_state: true, body_fields: ['rules'],
    build: (w) => dashboard(w, 'PUT', '/dashboard/api/agents/{id}/pricing', { id: id(w.agent_id) }, { rules: [{ service_type: 'airtime', rate_bp: 0 }] }),
  },
  'GET /dashboard/api/agents/{id}/transfers': { method: 'GET', template: '/dashboard/api/agents/{id}/transfers', auth: 'session', port: 'public', changes_state: false, build: (w) => dashboard(w, 'GET', '/dashboard/api/agents/{id}/transfers', { id: id(w.agent_id) }, undefined, 'environment=test&per_page=5&page=1') },
  'POST /dashboard/api/agents/{id}/transfers': {
    method: 'POST', template: '/dashboard/api/agents/{id}/transfers', auth: 'session', port: 'public', changes_state: true, body_fields: ['direction', 'amount', 'environment', 'pin', 'reference'],
    build: (w) => dashboard(w, 'POST', '/dashboard/api/agents/{id}/transfers', { id: id(w.agent_id) }, { direction: 'to_agent', amount: 1, environment: 'test', pin: w.pin, reference: `dash-cat-${randomBytes(6).toString('hex')}` }),
  },
  'GET /dashboard/api/keys': { method: 'GET', template: '/dashboard/api/keys', auth: 'session', port: 'public', changes_state: false, build: (w) => dashboard(w, 'GET', '/dashboard/api/keys', {}) },
  'POST /dashboard/api/keys': {
    method: 'POST', template: '/dashboard/api/keys', auth: 'session', port: 'public', changes_state: true, body_fields: ['name', 'environment', 'scopes', 'ip_allowlist', 'expires_at'],
    build: (w) => dashboard(w, 'POST', '/dashboard/api/keys', {}, { name: 'dashboard key', environment: 'test', scopes: ['wallet:read'], ip_allowlist: ['127.0.0.1'], expires_at: new Date(Date.now() + 86_400_000).toISOString() }),
  },
  'DELETE /dashboard/api/keys/{id}': { method: 'DELETE', template: '/dashboard/api/keys/{id}', auth: 'session', port: 'public', changes_state: true, build: (w) => dashboard(w, 'DELETE', '/dashboard/api/keys/{id}', { id: id(w.victim_key_id) }) },
  'GET /dashboard/api/webhooks': { method: 'GET', template: '/dashboard/api/webhooks', auth: 'session', port: 'public', changes_state: false, build: (w) => dashboard(w, 'GET', '/dashboard/api/webhooks', {}) },
  'POST /dashboard/api/webhooks': {
    method: 'POST', template: '/dashboard/api/webhooks', auth: 'session', port: 'public', changes_state: true, body_fields: ['url', 'events', 'description'],
    build: (w) => dashboard(w, 'POST', '/dashboard/api/webhooks', {}, { url: 'https://localhost:9/dashboard', events: ['wallet.debited'], description: 'dashboard endpoint' }),
  },
  'DELETE /dashboard/api/webhooks/{id}': { method: 'DELETE', template: '/dashboard/api/webhooks/{id}', auth: 'session', port: 'public', changes_state: true, build: (w) => dashboard(w, 'DELETE', '/dashboard/api/webhooks/{id}', { id: id(w.victim_endpoint_id) }) },
  'GET /dashboard/api/webhooks/{id}/deliveries': { method: 'GET', template: '/dashboard/api/webhooks/{id}/deliveries', auth: 'session', port: 'public', changes_state: false, build: (w) => dashboard(w, 'GET', '/dashboard/api/webhooks/{id}/deliveries', { id: id(w.endpoint_id) }, undefined, 'environment=test&per_page=5&page=1') },
  'GET /dashboard/api/webhooks-dead': { method: 'GET', template: '/dashboard/api/webhooks-dead', auth: 'session', port: 'public', changes_state: false, build: (w) => dashboard(w, 'GET', '/dashboard/api/webhooks-dead', {}) },
  'PATCH /dashboard/api/webhooks/{id}': {
    method: 'PATCH', template: '/dashboard/api/webhooks/{id}', auth: 'session', port: 'public', changes_state: true, body_fields: ['events', 'description'],
    build: (w) => dashboard(w, 'PATCH', '/dashboard/api/webhooks/{id}', { id: id(w.endpoint_id) }, { events: ['transaction.completed', 'transaction.failed', 'transaction.processing', 'wallet.credited', 'wallet.debited', 'wallet.reversed'], description: 'world endpoint' }),
  },
  'POST /dashboard/api/webhooks/{id}/test': { method: 'POST', template: '/dashboard/api/webhooks/{id}/test', auth: 'session', port: 'public', changes_state: true, build: (w) => dashboard(w, 'POST', '/dashboard/api/webhooks/{id}/test', { id: id(w.endpoint_id) }) },
  'POST /dashboard/api/webhooks/{id}/roll-secret': { method: 'POST', template: '/dashboard/api/webhooks/{id}/roll-secret', auth: 'session', port: 'public', changes_state: true, build: (w) => dashboard(w, 'POST', '/dashboard/api/webhooks/{id}/roll-secret', { id: id(w.roll_endpoint_id) }) },
  'POST /dashboard/api/webhooks/{id}/deliveries/{delivery_id}/retry': {
    method: 'POST', template: '/dashboard/api/webhooks/{id}/deliveries/{delivery_id}/retry', auth: 'session', port: 'public', changes_state: true,
    build: (w) => dashboard(w, 'POST', '/dashboard/api/webhooks/{id}/deliveries/{delivery_id}/retry', { id: id(w.endpoint_id), delivery_id: id(w.delivery_id) }),
  },
  'GET /dashboard/api/funding': { method: 'GET', template: '/dashboard/api/funding', auth: 'session', port: 'public', changes_state: false, build: (w) => dashboard(w, 'GET', '/dashboard/api/funding', {}) },
  'POST /dashboard/api/webhooks/{id}/deliveries/{delivery_id}/replay': {
    method: 'POST', template: '/dashboard/api/webhooks/{id}/deliveries/{delivery_id}/replay', auth: 'session', port: 'public', changes_state: true,
    build: (w) => dashboard(w, 'POST', '/dashboard/api/webhooks/{id}/deliveries/{delivery_id}/replay', { id: id(w.endpoint_id), delivery_id: id(w.delivery_id) }),
  },
  'POST /dashboard/api/pin': {
    method: 'POST', template: '/dashboard/api/pin', auth: 'session', port: 'public', changes_state: true, body_fields: ['new_pin', 'current_pin'],
    // Sets the PIN it already is: a valid change that leaves the account able to buy with world.pin.
    build: (w) => dashboard(w, 'POST', '/dashboard/api/pin', {}, { new_pin: w.pin, current_pin: w.pin }, ''),
  },
};

/** The operator API (ADMIN_HOST:ADMIN_PORT, ADMIN_TOKEN). */
const operator_builders: Record<string, Builder> = {
  'POST /admin/accounts': {
    method: 'POST', template: '/admin/accounts', auth: 'operator', port: 'operator', changes_state: true, body_fields: ['name', 'email', 'phone', 'password', 'kyc_level', 'tier', 'pin'],
    build: (w) => operator(w, 'POST', '/admin/accounts', {}, { name: 'Fuzz Stores', email: `fuzz-${randomBytes(5).toString('hex')}@example.ng`, phone: '08031234567', password: 'a long password', kyc_level: 1, tier: 'standard', pin: '73529' }),
  },
  'PATCH /admin/accounts/{id}': {
    method: 'PATCH', template: '/admin/accounts/{id}', auth: 'operator', port: 'operator', changes_state: true, body_fields: ['kyc_level', 'tier', 'daily_limit'],
    build: (w) => operator(w, 'PATCH', '/admin/accounts/{id}', { id: id(w.account_id) }, { kyc_level: 3, tier: 'standard', daily_limit: null }),
  },
  'POST /admin/accounts/{id}/pin': {
    method: 'POST', template: '/admin/accounts/{id}/pin', auth: 'operator', port: 'operator', changes_state: true, body_fields: ['pin'],
    build: (w) => operator(w, 'POST', '/admin/accounts/{id}/pin', { id: id(w.account_id) }, { pin: w.pin }),
  },
  'POST /admin/accounts/{id}/keys': {
    method: 'POST', template: '/admin/accounts/{id}/keys', auth: 'operator', port: 'operator', changes_state: true, body_fields: ['name', 'environment', 'scopes', 'ip_allowlist', 'rate_limit_per_minute', 'expires_at'],
    build: (w) => operator(w, 'POST', '/admin/accounts/{id}/keys', { id: id(w.account_id) }, { name: 'operator key', environment: 'test', scopes: ['wallet:read'], ip_allowlist: ['127.0.0.1'], rate_limit_per_minute: 120, expires_at: new Date(Date.now() + 86_400_000).toISOString() }),
  },
  'POST /admin/accounts/{id}/wallet/credit': {
    method: 'POST', template: '/admin/accounts/{id}/wallet/credit', auth: 'operator', port: 'operator', changes_state: true, body_fields: ['environment', 'amount', 'reference', 'description'],
    build: (w) => operator(w, 'POST', '/admin/accounts/{id}/wallet/credit', { id: id(w.account_id) }, { environment: 'test', amount: 12.34, reference: `OPS-${randomBytes(6).toString('hex')}`, description: 'operator credit' }),
  },
  'PATCH /admin/catalog/data-plans/{plan_id}': {
    method: 'PATCH', template: '/admin/catalog/data-plans/{plan_id}', auth: 'operator', port: 'operator', changes_state: true, body_fields: ['enabled', 'amount'],
    build: (w) => operator(w, 'PATCH', '/admin/catalog/data-plans/{plan_id}', { plan_id: w.plan.plan_id }, { enabled: true, amount: w.plan.amount }),
  },
  'PATCH /admin/catalog/education-products/{code}': {
    method: 'PATCH', template: '/admin/catalog/education-products/{code}', auth: 'operator', port: 'operator', changes_state: true, body_fields: ['enabled', 'amount'],
    build: (w) => operator(w, 'PATCH', '/admin/catalog/education-products/{code}', { code: 'waec-result-checker' }, { enabled: true, amount: 3900 }),
  },
  'PATCH /admin/catalog/internet-plans/{code}': {
    method: 'PATCH', template: '/admin/catalog/internet-plans/{code}', auth: 'operator', port: 'operator', changes_state: true, body_fields: ['enabled', 'amount'],
    build: (w) => operator(w, 'PATCH', '/admin/catalog/internet-plans/{code}', { code: 'smile-1-5gb-7d' }, { enabled: true, amount: 1000 }),
  },
  'GET /admin/accounts': { method: 'GET', template: '/admin/accounts', auth: 'operator', port: 'operator', changes_state: false, build: (w) => operator(w, 'GET', '/admin/accounts', {}) },
  'GET /admin/accounts/{id}': { method: 'GET', template: '/admin/accounts/{id}', auth: 'operator', port: 'operator', changes_state: false, build: (w) => operator(w, 'GET', '/admin/accounts/{id}', { id: id(w.account_id) }) },
  'DELETE /admin/accounts/{id}/keys/{key_id}': {
    method: 'DELETE', template: '/admin/accounts/{id}/keys/{key_id}', auth: 'operator', port: 'operator', changes_state: true, valid_status: 404,
    // A key id that does not exist: a valid request that revokes nothing, so the world's keys stay for other routes.
    build: (w) => operator(w, 'DELETE', '/admin/accounts/{id}/keys/{key_id}', { id: id(w.account_id), key_id: '999999' }),
  },
  'GET /admin/statements': { method: 'GET', template: '/admin/statements', auth: 'operator', port: 'operator', changes_state: false, build: (w) => operator(w, 'GET', '/admin/statements', {}, undefined, `date=${new Date(Date.now() + 3_600_000).toISOString().slice(0, 10)}&environment=test`) },
  'GET /admin/orders/review': { method: 'GET', template: '/admin/orders/review', auth: 'operator', port: 'operator', changes_state: false, build: (w) => operator(w, 'GET', '/admin/orders/review', {}) },
  // Without FUNDING_PROVIDERS (the fuzzers' server) the funding routes answer 404 funding.not_configured.
  'POST /admin/accounts/{id}/funding/accounts': {
    method: 'POST', template: '/admin/accounts/{id}/funding/accounts', auth: 'operator', port: 'operator', changes_state: false, body_fields: ['bvn', 'nin'], valid_status: 404,
    build: (w) => operator(w, 'POST', '/admin/accounts/{id}/funding/accounts', { id: id(w.account_id) }, { nin: '12034875601' }),
  },
  'GET /admin/funding/exceptions': { method: 'GET', template: '/admin/funding/exceptions', auth: 'operator', port: 'operator', changes_state: false, valid_status: 404, build: (w) => operator(w, 'GET', '/admin/funding/exceptions', {}, undefined, 'status=all') },
  'POST /admin/funding/exceptions/{id}/resolve': {
    method: 'POST', template: '/admin/funding/exceptions/{id}/resolve', auth: 'operator', port: 'operator', changes_state: false, body_fields: ['action', 'account_id'], valid_status: 404,
    build: (w) => operator(w, 'POST', '/admin/funding/exceptions/{id}/resolve', { id: '1' }, { action: 'reject' }),
  },
  'GET /admin/funding/report': { method: 'GET', template: '/admin/funding/report', auth: 'operator', port: 'operator', changes_state: false, valid_status: 404, build: (w) => operator(w, 'GET', '/admin/funding/report', {}, undefined, 'date=2026-11-28') },
  'POST /admin/funding/reconcile': {
    method: 'POST', template: '/admin/funding/reconcile', auth: 'operator', port: 'operator', changes_state: false, body_fields: ['provider'], valid_status: 404,
    build: (w) => operator(w, 'POST', '/admin/funding/reconcile', {}, {}),
  },
  'POST /admin/orders/{reference}/resolve': {
    method: 'POST', template: '/admin/orders/{reference}/resolve', auth: 'operator', port: 'operator', changes_state: true, body_fields: ['outcome'], valid_status: 404,
    // The order is delivered already: a valid request that the desk refuses without changing anything.
    build: (w) => operator(w, 'POST', '/admin/orders/{reference}/resolve', { reference: w.reference }, { outcome: 'delivered' }),
  },
  'GET /admin/pricing': { method: 'GET', template: '/admin/pricing', auth: 'operator', port: 'operator', changes_state: false, build: (w) => operator(w, 'GET', '/admin/pricing', {}) },
  'PUT /admin/pricing/{tier}': {
    method: 'PUT', template: '/admin/pricing/{tier}', auth: 'operator', port: 'operator', changes_state: true, body_fields: ['rules'],
    // A tier no account of the world is in: its rules change nobody's prices.
    build: (w) => operator(w, 'PUT', '/admin/pricing/{tier}', { tier: 'fuzz_tier' }, { rules: [{ service_type: 'airtime', network: 'glo', rate_bp: 400 }] }),
  },
  'DELETE /admin/pricing/{tier}': {
    method: 'DELETE', template: '/admin/pricing/{tier}', auth: 'operator', port: 'operator', changes_state: true,
    build: (w) => operator(w, 'DELETE', '/admin/pricing/{tier}', { tier: 'fuzz_tier' }),
  },
  'GET /admin/reports/margin': {
    method: 'GET', template: '/admin/reports/margin', auth: 'operator', port: 'operator', changes_state: false,
    build: (w) => operator(w, 'GET', '/admin/reports/margin', {}, undefined, 'from=2026-01-01&to=2026-01-31'),
  },
  'GET /admin/routes': { method: 'GET', template: '/admin/routes', auth: 'operator', port: 'operator', changes_state: false, build: (w) => operator(w, 'GET', '/admin/routes', {}) },
  'PUT /admin/routes': {
    method: 'PUT', template: '/admin/routes', auth: 'operator', port: 'operator', changes_state: true, body_fields: ['default', 'routes'], valid_status: 400,
    // The fuzzers' servers have no live upstream, so no route can name one: the well-formed request is
    // refused whole (400 validation.failed) and changes nothing, like every mutation of it.
    build: (w) => operator(w, 'PUT', '/admin/routes', {}, { default: ['default'], routes: [{ product: 'airtime/mtn', upstreams: ['default'] }] }),
  },
  'GET /admin/webhooks/dead': { method: 'GET', template: '/admin/webhooks/dead', auth: 'operator', port: 'operator', changes_state: false, build: (w) => operator(w, 'GET', '/admin/webhooks/dead', {}) },
  'GET /metrics': { method: 'GET', template: '/metrics', auth: 'operator', port: 'operator', changes_state: false, build: (w) => operator(w, 'GET', '/metrics', {}) },
  'GET /healthz': { method: 'GET', template: '/healthz', auth: 'none', port: 'operator', changes_state: false, build: () => ({ method: 'GET', template: '/healthz', params: {}, query: '', headers: [], port: 'operator' }) },
  'GET /readyz': { method: 'GET', template: '/readyz', auth: 'none', port: 'operator', changes_state: false, build: () => ({ method: 'GET', template: '/readyz', params: {}, query: '', headers: [], port: 'operator' }) },
};

function entry(name: string, builder: Builder, scope: string | null, documented: boolean): RouteEntry {
  const params = [...builder.template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  return { ...builder, name, scope, documented, params, body_fields: builder.body_fields ?? [] };
}

export interface Catalog {
  routes: RouteEntry[];
  /** Operations of the OpenAPI document that have no builder here (must stay empty). */
  missing_builders: string[];
  /** The OpenAPI document as served. */
  openapi: any;
}

/** The catalogue: the documented routes as GET /v1/openapi.json lists them, then the hidden and operator ones. */
export async function load_catalog(server: TestServer): Promise<Catalog> {
  const response = await fetch(`${server.base}/v1/openapi.json`);
  if (response.status !== 200) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
  const openapi = await response.json() as { paths: Record<string, Record<string, { 'x-required-scope'?: string; security?: unknown[] }>> };
  const routes: RouteEntry[] = [];
  const missing_builders: string[] = [];
  for (const [path, operations] of Object.entries(openapi.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const name = `${method.toUpperCase()} ${path}`;
      const builder = documented_builders[name];
      if (builder === undefined) {
        missing_builders.push(name);
        continue;
      }
      const needs_key = Array.isArray(operation.security) ? operation.security.length > 0 : true;
      routes.push(entry(name, builder, needs_key ? operation['x-required-scope'] ?? null : null, true));
    }
  }
  for (const [name, builder] of Object.entries(hidden_builders)) routes.push(entry(name, builder, null, false));
  for (const [name, builder] of Object.entries(operator_builders)) routes.push(entry(name, builder, null, false));
  return { routes, missing_builders, openapi };
}

// ---- Bytes on the wire ----------------------------------------------------------------------------

/** The path with its parameters filled in as given (no encoding: fuzzers send raw text) and the query. */
export function target_of(spec: RequestSpec): string {
  let path = spec.template;
  for (const [name, value] of Object.entries(spec.params)) path = path.replace(`{${name}}`, value);
  return spec.query === '' ? path : `${path}?${spec.query}`;
}

/** The body bytes of a request: raw_body, else the JSON text of body, else none. */
export function body_bytes(spec: RequestSpec): Buffer | null {
  if (spec.raw_body !== undefined) return spec.raw_body;
  if (spec.body !== undefined) return Buffer.from(JSON.stringify(spec.body), 'utf8');
  return null;
}

export interface WireOptions {
  /** Leave Content-Length out (e.g. when the headers carry their own framing). */
  no_content_length?: boolean;
}

/** A Content-Length header value that to_wire replaces by the body's length (for duplicated headers). */
export const body_length_placeholder = '@body-length';

/** HTTP/1.1 request bytes. Header values are written as latin1 bytes, exactly as given. */
export function to_wire(spec: RequestSpec, options: WireOptions = {}): Buffer {
  let body = body_bytes(spec);
  const headers: [string, string][] = [['Host', '127.0.0.1'], ...spec.headers.map(([n, v]): [string, string] => [n, v === body_length_placeholder ? String(body?.length ?? 0) : v])];
  if (spec.sign !== undefined && !spec.headers.some(([n]) => n.toLowerCase() === 'x-signature')) headers.push(['X-Signature', spec.sign(body ?? Buffer.alloc(0))]);
  if (spec.chunked) {
    headers.push(['Transfer-Encoding', 'chunked']);
    const whole = body ?? Buffer.alloc(0);
    const chunks: Buffer[] = [];
    for (let at = 0; at < whole.length; at += 1000) {
      const piece = whole.subarray(at, at + 1000);
      chunks.push(Buffer.from(`${piece.length.toString(16)}\r\n`, 'latin1'), piece, Buffer.from('\r\n', 'latin1'));
    }
    chunks.push(Buffer.from('0\r\n\r\n', 'latin1'));
    body = Buffer.concat(chunks);
  } else {
    const has_length = spec.headers.some(([n]) => n.toLowerCase() === 'content-length' || n.toLowerCase() === 'transfer-encoding');
    if (!options.no_content_length && !has_length && (body !== null || spec.method === 'POST' || spec.method === 'PATCH')) headers.push(['Content-Length', String(body?.length ?? 0)]);
  }
  const head = `${spec.method} ${target_of(spec)} HTTP/1.1\r\n` + headers.map(([n, v]) => `${n}: ${v}\r\n`).join('') + '\r\n';
  return body === null ? Buffer.from(head, 'latin1') : Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

export interface WireResponse {
  status: number;
  /** Header names in lower case; a repeated header keeps every value. */
  headers: Record<string, string[]>;
  body: string;
  /** Milliseconds from the first byte written to the whole answer. */
  duration_ms: number;
  /** The server closed the connection after this answer. */
  closed: boolean;
}

export function header(response: WireResponse, name: string): string | undefined {
  return response.headers[name.toLowerCase()]?.[0];
}

function parse_head(head: string): { status: number; headers: Record<string, string[]> } {
  const [status_line, ...lines] = head.split('\r\n');
  const headers: Record<string, string[]> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    (headers[line.slice(0, colon).trim().toLowerCase()] ??= []).push(line.slice(colon + 1).trim());
  }
  return { status: Number(status_line.split(' ')[1]), headers };
}

/**
 * Sends bytes to 127.0.0.1:port on a new connection and reads one answer (by Content-Length, or until
 * the server closes). `write` may send the bytes its own way (slowly, in pieces) and must resolve when
 * done. Rejects when no whole answer arrives in time.
 */
/** The body of a chunked answer, or null while its last chunk has not arrived. */
export function decode_chunked(raw: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const line_end = raw.indexOf('\r\n', at);
    if (line_end === -1) return null;
    const size = parseInt(raw.subarray(at, line_end).toString('latin1'), 16);
    if (!Number.isFinite(size)) return null;
    if (size === 0) return raw.length >= line_end + 4 ? Buffer.concat(parts) : null;
    if (raw.length < line_end + 2 + size + 2) return null;
    parts.push(raw.subarray(line_end + 2, line_end + 2 + size));
    at = line_end + 2 + size + 2;
  }
}

export function exchange(port: number, bytes: Buffer | null, options: { timeout_ms?: number; head_request?: boolean; write?: (socket: import('node:net').Socket) => Promise<void>; host?: string } = {}): Promise<WireResponse> {
  const timeout_ms = options.timeout_ms ?? 20_000;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, options.host ?? '127.0.0.1');
    let data = Buffer.alloc(0);
    let settled = false;
    const finish = (error: Error | null, closed: boolean) => {
      if (settled) return;
      const head_end = data.indexOf('\r\n\r\n');
      if (head_end === -1) {
        if (error === null) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        reject(error);
        return;
      }
      const { status, headers } = parse_head(data.subarray(0, head_end).toString('latin1'));
      if (status >= 100 && status < 200 && status !== 101) {
        // An interim answer (100 Continue): the real one follows.
        data = data.subarray(head_end + 4);
        finish(error, closed);
        return;
      }
      let body = data.subarray(head_end + 4);
      const length_text = headers['content-length']?.[0];
      const bodiless = options.head_request || status === 204 || status === 304;
      const chunked = !bodiless && (headers['transfer-encoding'] ?? []).some((v) => v.toLowerCase() === 'chunked');
      if (chunked) {
        // A streamed answer (the CSV export) is whole at its last, empty chunk.
        const decoded = decode_chunked(body);
        if (decoded === null && error === null) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        if (decoded === null) reject(new Error(`incomplete chunked answer: ${error!.message}`));
        else resolve({ status, headers, body: decoded.toString('utf8'), duration_ms: performance.now() - started, closed });
        return;
      }
      if (!bodiless && error === null) {
        if (length_text === undefined && !closed) return;
        if (length_text !== undefined && body.length < Number(length_text)) return;
      }
      if (!bodiless && error !== null && length_text !== undefined && body.length < Number(length_text)) {
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        reject(new Error(`incomplete answer (${body.length} of ${length_text} body bytes): ${error.message}`));
        return;
      }
      settled = true;
      clearTimeout(timer);
      const keep = bodiless ? 0 : length_text === undefined ? body.length : Number(length_text);
      const close_header = (headers['connection'] ?? []).some((v) => v.toLowerCase() === 'close');
      socket.destroy();
      resolve({ status, headers, body: body.subarray(0, keep).toString('utf8'), duration_ms: performance.now() - started, closed: closed || close_header });
    };
    const timer = setTimeout(() => finish(new Error(`no whole answer within ${timeout_ms} ms`), false), timeout_ms);
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      finish(null, false);
    });
    socket.on('end', () => finish(new Error('connection closed'), true));
    socket.on('close', () => finish(new Error('connection closed'), true));
    // The server may answer (413) and close before the whole body is written: that is not our error.
    socket.on('error', (error) => finish(error, true));
    socket.on('connect', () => {
      if (options.write !== undefined) options.write(socket).catch(() => {});
      else if (bytes !== null) socket.write(bytes);
    });
  });
}

export function port_of(server: TestServer, port: Port): number {
  return port === 'public' ? server.port : server.admin_port;
}

/** Sends a request spec and reads its answer. */
export function send(server: TestServer, spec: RequestSpec, options: WireOptions & { timeout_ms?: number } = {}): Promise<WireResponse> {
  return exchange(port_of(server, spec.port), to_wire(spec, options), { timeout_ms: options.timeout_ms, head_request: spec.method === 'HEAD' });
}

// ---- What every answer must be --------------------------------------------------------------------

/** Answers uWS itself gives before any of our code runs (unparseable request line or headers). */
export const transport_statuses = new Set([400, 405, 411, 413, 414, 431, 501, 505]);

export interface Verdict {
  /** Empty when the answer passes every check. */
  problems: string[];
  /** The error code, when the answer is an error envelope. */
  code: string | null;
  /** The answer came from uWS's HTTP parser, not from billvend (no X-Request-Id, HTML body). */
  transport: boolean;
}

function strip_echoes(text: string, echoes: string[]): string {
  // Error messages quote bits of the request (the URL up to 100 characters, a reference up to 40, a
  // Content-Type up to 100, a plan id up to 64). A fuzzed path may itself look like "x.js:1"; only
  // what the server adds on its own counts as a leak.
  let out = text;
  for (const echo of echoes) {
    if (echo === '') continue;
    for (const length of [echo.length, 100, 64, 40]) {
      const part = echo.slice(0, length);
      if (part.length >= 3) out = out.split(part).join('');
    }
  }
  return out;
}

/**
 * The checks every answer passes: never 500, never internal.error; an error is the spec's envelope
 * {success:false, error:{code,message}, request_id} with a catalogued code whose status is the answer's
 * status, and the request_id is the X-Request-Id header (a replay's body keeps the original request's
 * request_id: docs/api.md "Idempotency"); no stack trace or file path in any body.
 */
export function judge(response: WireResponse, echoes: string[] = [], head_request = false): Verdict {
  const problems: string[] = [];
  const request_id = header(response, 'x-request-id');
  const replayed = header(response, 'idempotent-replayed') === 'true';
  // Two fuzz requests that happen to carry the same idempotency key and body: the second is answered
  // with the first's remembered answer, whose request_id names the first request.
  const request_id_ok = (body_id: unknown) => (replayed ? typeof body_id === 'string' && /^req_[0-9A-Za-z]+$/.test(body_id) : body_id === request_id);
  if (head_request) {
    // An answer to HEAD has no body to judge: only its status and its request id.
    if (response.status >= 500 && response.status !== 503) problems.push(`status ${response.status}`);
    return { problems, code: null, transport: request_id === undefined };
  }
  if (request_id === undefined) {
    // Not ours: uWS refused the bytes before any handler ran (it answers 505 for most requests it
    // cannot parse). It must still be one of its refusals, never a server error of ours.
    if (!transport_statuses.has(response.status)) problems.push(`an answer without X-Request-Id has status ${response.status}`);
    const leak = stack_trace_in(response.body);
    if (leak !== null) problems.push(`transport answer body matches ${leak}`);
    return { problems, code: null, transport: true };
  }
  if (response.status >= 500 && response.status !== 503) problems.push(`status ${response.status}`);
  let parsed: any = undefined;
  const content_type = header(response, 'content-type') ?? '';
  if (content_type.startsWith('application/json')) {
    try {
      parsed = JSON.parse(response.body);
    } catch {
      problems.push('a JSON content type with a body that is not JSON');
    }
  }
  let code: string | null = null;
  if (response.status >= 400) {
    if (parsed === undefined || parsed === null || typeof parsed !== 'object') {
      problems.push(`error ${response.status} is not a JSON envelope: ${response.body.slice(0, 120)}`);
    } else {
      const keys = Object.keys(parsed).sort().join(',');
      if (keys !== 'error,request_id,success') problems.push(`error envelope has keys ${keys}`);
      if (parsed.success !== false) problems.push('error envelope without success:false');
      code = typeof parsed.error?.code === 'string' ? parsed.error.code : null;
      if (code === null) problems.push('error without error.code');
      else if (!Object.prototype.hasOwnProperty.call(error_catalogue, code)) problems.push(`error code ${code} is not in the catalogue`);
      else if (error_catalogue[code as keyof typeof error_catalogue].status !== response.status) problems.push(`error code ${code} answered with status ${response.status}, catalogue says ${error_catalogue[code as keyof typeof error_catalogue].status}`);
      if (code === 'internal.error') problems.push('internal.error');
      if (typeof parsed.error?.message !== 'string' || parsed.error.message === '') problems.push('error without a message');
      if (parsed.error?.details !== undefined) {
        const details = parsed.error.details;
        if (!Array.isArray(details) || !details.every((d: any) => typeof d?.field === 'string' && typeof d?.message === 'string')) problems.push('error.details is not a list of {field, message}');
      }
      if (!request_id_ok(parsed.request_id)) problems.push('request_id differs from X-Request-Id');
    }
    if (response.status === 503 && code !== 'service.unavailable' && code !== 'transaction.provider_unavailable') problems.push(`503 with code ${code}`);
  } else if (parsed !== undefined && content_type.startsWith('application/json') && parsed?.success !== undefined) {
    if (parsed.success !== true) problems.push('a 2xx envelope without success:true');
    if (!request_id_ok(parsed.request_id)) problems.push('request_id differs from X-Request-Id');
  }
  if (content_type.startsWith('application/json') || response.status >= 400) {
    let text = response.body;
    if (parsed?.error?.message !== undefined) {
      const { message, ...rest } = parsed.error;
      text = JSON.stringify({ ...parsed, error: rest }) + '\n' + strip_echoes(String(message), echoes);
    }
    const leak = stack_trace_in(text);
    if (leak !== null) problems.push(`body matches ${leak}: ${response.body.slice(0, 200)}`);
  }
  return { problems, code, transport: false };
}

// ---- State that a rejected request must leave alone -------------------------------------------------

export interface Observer {
  server: TestServer;
  /** A test key and a live key of the observed account, with high rate limits, used only to look. */
  test_key: string;
  live_key: string;
}

async function get_json(server: TestServer, path: string, key: string): Promise<any> {
  const response = await server.api('GET', path, { key });
  if (response.status !== 200) throw new Error(`snapshot: GET ${path} answered ${response.status} ${response.text.slice(0, 200)}`);
  return response.body.data;
}

/**
 * What a client can see of an account: profile, both wallets (balance, entry count, newest entry),
 * both order histories (count, newest order), the keys (without last_used_at, which every request
 * moves) and both environments' webhook endpoints. As canonical JSON text, to compare.
 */
export async function snapshot(observer: Observer): Promise<string> {
  const { server, test_key, live_key } = observer;
  const [account, test_wallet, live_wallet, test_entries, live_entries, test_orders, live_orders, keys, test_hooks, live_hooks] = await Promise.all([
    get_json(server, '/v1/account', test_key),
    get_json(server, '/v1/wallet', test_key),
    get_json(server, '/v1/wallet', live_key),
    get_json(server, '/v1/wallet/transactions?per_page=1', test_key),
    get_json(server, '/v1/wallet/transactions?per_page=1', live_key),
    get_json(server, '/v1/transactions?per_page=1', test_key),
    get_json(server, '/v1/transactions?per_page=1', live_key),
    get_json(server, '/v1/keys', test_key),
    get_json(server, '/v1/webhooks', test_key),
    get_json(server, '/v1/webhooks', live_key),
  ]);
  return JSON.stringify({
    account,
    wallets: { test: test_wallet, live: live_wallet },
    entries: { test: [test_entries.pagination.total, test_entries.transactions[0] ?? null], live: [live_entries.pagination.total, live_entries.transactions[0] ?? null] },
    orders: { test: [test_orders.pagination.total, test_orders.transactions[0] ?? null], live: [live_orders.pagination.total, live_orders.transactions[0] ?? null] },
    keys: keys.keys.map(({ last_used_at: _ignored, ...rest }: any) => rest),
    webhooks: { test: test_hooks.webhooks, live: live_hooks.webhooks },
  });
}

/** A short description of how two snapshots differ, for assertion messages. */
export function snapshot_difference(before: string, after: string): string {
  const a = JSON.parse(before) as Record<string, unknown>;
  const b = JSON.parse(after) as Record<string, unknown>;
  const parts: string[] = [];
  for (const name of Object.keys(a)) {
    const x = JSON.stringify(a[name]);
    const y = JSON.stringify(b[name]);
    if (x !== y) parts.push(`${name}: ${x.slice(0, 300)} → ${y.slice(0, 300)}`);
  }
  return parts.join('; ');
}

// ---- A world to aim requests at ---------------------------------------------------------------------

export interface WorldOptions {
  receiver: WebhookReceiver;
  pin?: string;
  password?: string;
  funding_ngn?: number;
  funding_secret?: string | null;
}

async function ok<T = any>(what: string, promise: Promise<{ status: number; text: string; body: any }>, status = 201): Promise<T> {
  const response = await promise;
  if (response.status !== status) throw new Error(`${what}: ${response.status} ${response.text.slice(0, 300)}`);
  return response.body?.data as T;
}

/** Signs in to the dashboard: the session cookie value and its CSRF token. */
export async function sign_in(server: TestServer, email: string, password: string): Promise<{ cookie: string; csrf: string }> {
  const response = await fetch(`${server.base}/dashboard/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`sign in: ${response.status} ${text}`);
  const cookie = /bv_session=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  if (cookie === undefined) throw new Error('sign in: no session cookie');
  return { cookie, csrf: JSON.parse(text).data.csrf_token };
}

/**
 * An account with everything a route can name: keys of both environments (and one to revoke), a funded
 * test wallet, a delivered order, webhook endpoints (and one to delete) with a delivery, a dashboard
 * session. The server must run with webhook_env() so that the receiver's localhost URL is accepted.
 */
export async function make_world(server: TestServer, options: WorldOptions): Promise<World> {
  const pin = options.pin ?? '90817';
  const password = options.password ?? `pw-${randomBytes(9).toString('base64url')}`;
  const account = await server.create_account({ pin, password, kyc_level: 3 });
  const key = await server.create_key(account.id, { name: 'world test key', environment: 'test', rate_limit_per_minute: 1_000_000 });
  const live = await server.create_key(account.id, { name: 'world live key', environment: 'live', rate_limit_per_minute: 1_000_000 });
  // Only keys:manage, so that every key allowed to revoke keys holds its scopes (docs/api.md "Key inheritance").
  const victim = await server.create_key(account.id, { name: 'world victim key', environment: 'test', scopes: ['keys:manage'] });
  const endpoint = await ok<{ id: number; secret: string }>('webhook', server.api('POST', '/v1/webhooks', { key: key.api_key, body: { url: options.receiver.url, description: 'world endpoint' } }));
  options.receiver.secret = endpoint.secret;
  const victim_endpoint = await ok<{ id: number }>('victim webhook', server.api('POST', '/v1/webhooks', { key: key.api_key, body: { url: `${options.receiver.url}?victim`, events: ['transaction.failed'] } }));
  const roll_endpoint = await ok<{ id: number }>('roll webhook', server.api('POST', '/v1/webhooks', { key: key.api_key, body: { url: `${options.receiver.url}?roll`, events: ['transaction.failed'] } }));
  await server.credit(account.id, 'test', options.funding_ngn ?? 1_000_000);
  const plans = await ok<{ plans: { plan_id: string; amount: number }[] }>('plans', server.api('GET', '/v1/services/data/plans?network=mtn', { key: key.api_key }), 200);
  const packages = await ok<{ packages: { package_code: string; amount: number }[] }>('packages', server.api('GET', '/v1/services/tv/packages?provider=gotv', { key: key.api_key }), 200);
  const order_idempotency_key = fresh_idempotency_key('world-order');
  const order = await ok<{ reference: string }>('order', server.api('POST', '/v1/services/airtime', { key: key.api_key, idempotency_key: order_idempotency_key, body: { network: 'mtn', phone: '08011111111', amount: 100, pin } }));
  const batch = await ok<{ id: string }>('bulk order', server.api('POST', '/v1/services/bulk', { key: key.api_key, body: { pin, items: [{ service_type: 'airtime', network: 'mtn', phone: '08011111111', amount: 100 }] } }), 202);
  const quote = await ok<{ quote_id: string }>('international quote', server.api('POST', '/v1/services/international/quote', { key: key.api_key, body: { country: 'GH', operator: '5', product_type: '1', product_code: 'gh-mtn-topup', foreign_amount: '10.50' } }), 201);
  // The credit produced a wallet.credited delivery to the endpoint; wait until it is listed.
  let delivery_id = 0;
  for (let attempt = 0; attempt < 200 && delivery_id === 0; attempt++) {
    const deliveries = await server.api('GET', `/v1/webhooks/${endpoint.id}/deliveries`, { key: key.api_key });
    delivery_id = deliveries.body?.data?.deliveries?.[0]?.id ?? 0;
    if (delivery_id === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (delivery_id === 0) throw new Error('make_world: no webhook delivery appeared');
  const session = await sign_in(server, account.email, password);
  const agent_body = (name: string) => ({ name, email: `${name}-${randomBytes(6).toString('hex')}@example.ng`, phone: '08031234567', password: 'world agent pw', kyc_level: 1 });
  const agent = await ok<{ id: number }>('agent', server.api('POST', '/v1/agents', { key: key.api_key, body: agent_body('world-agent') }));
  const victim_agent = await ok<{ id: number }>('victim agent', server.api('POST', '/v1/agents', { key: key.api_key, body: agent_body('world-victim-agent') }));
  return {
    server,
    account_id: account.id,
    email: account.email,
    password,
    pin,
    key: key.api_key,
    key_id: key.id,
    live_key: live.api_key,
    live_key_id: live.id,
    victim_key_id: victim.id,
    endpoint_id: endpoint.id,
    delivery_id,
    victim_endpoint_id: victim_endpoint.id,
    roll_endpoint_id: roll_endpoint.id,
    reference: order.reference,
    order_idempotency_key,
    batch_id: batch.id,
    intl_quote_id: quote.quote_id,
    plan: plans.plans[0],
    tv_package: packages.packages[0],
    session,
    funding_secret: options.funding_secret ?? null,
    admin_token: server.admin_token,
    agent_id: agent.id,
    victim_agent_id: victim_agent.id,
  };
}

/** The process still serves: /readyz on the operator port is 200 and GET /v1/account answers 200. */
export async function still_serving(world: World): Promise<string | null> {
  try {
    const ready = await fetch(`${world.server.admin_base}/readyz`);
    await ready.text();
    if (ready.status !== 200) return `/readyz answered ${ready.status}`;
    const account = await world.server.api('GET', '/v1/account', { key: world.key });
    if (account.status !== 200) return `GET /v1/account answered ${account.status}`;
    return null;
  } catch (error) {
    return `the server did not answer: ${(error as Error).message}`;
  }
}

/** Log lines at level error or fatal (a 500 logs one; so does a crash). */
export function error_log_lines(server: TestServer): string[] {
  return server.logs.filter((line) => /"level":"(error|fatal)"/.test(line));
}

// ---- Hostile inputs ---------------------------------------------------------------------------------

/** JSON text inserted as it is (numbers JSON.stringify cannot write, escapes, invalid tokens). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** An object as ordered key/value pairs, so that a key may appear twice. */
export class Pairs {
  constructor(readonly pairs: [string, unknown][]) {}
}

export function json_text(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof Pairs) return '{' + value.pairs.map(([k, v]) => JSON.stringify(k) + ':' + json_text(v)).join(',') + '}';
  if (Array.isArray(value)) return '[' + value.map(json_text).join(',') + ']';
  if (value !== null && typeof value === 'object') return '{' + Object.keys(value).map((k) => JSON.stringify(k) + ':' + json_text((value as Record<string, unknown>)[k])).join(',') + '}';
  return JSON.stringify(value) ?? 'null';
}

/** Number tokens that matter for amounts and ids: limits, precision, and texts JSON does not allow. */
export const raw_number_tokens = [
  '1e308', '-1e308', '5e-324', '-5e-324', '-0', '-0.0', '0', '9007199254740992', '9007199254740993', '18446744073709551616',
  '123456789012345678901234567890', '1e400', '-1e400', '1e-400', '123.456', '100.005', '0.001', '0.1e1', '1E2', '1e+2', '-1', '-0.01',
  '-50', '49.99', '50.001', '50000.01', '100000000', '100000000.01', '1.0000000000000001', '99.999999999999999999', '10.10', '4.35',
  '00012', '1.', '.5', '+1', '0x10', 'NaN', 'Infinity', '-Infinity',
];

/** String literals written as raw JSON: lone surrogates and broken escapes. */
export const raw_string_tokens = ['"\\ud800"', '"\\udc00x"', '"a\\ud83d"', '"\\ud83d\\ude00"', '"\\u0000"', '"\\uDEAD\\uBEEF"', '"\\x41"', '"\\u12"', '"\\/\\b\\f"', '"tab\there"'];

export const special_strings = [
  '', ' ', '\u0000', '\u202e08011111111', '\u200b', '\ufeff', '08011111111\u200b', '٠٨٠١١١١١١١١', '０８０１１１１１１１１', '𝟎𝟖𝟎𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏',
  'مرحبا بالعالم', 'שלום', '👍🏾', '🧑‍🤝‍🧑', 'e\u0301', 'MTN', 'mtn ', ' mtn', 'Mtn', 'ｍｔｎ', 'ikeja-electric\u0000', 'IKEDC',
  'https://localhost:9/x', 'http://localhost:9/x', 'https://127.0.0.1/', 'https://user:pw@localhost/', 'javascript:alert(1)', 'file:///etc/passwd',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '../../etc/passwd', '%00', '${7*7}', '{{7*7}}', '<script>alert(1)</script>',
  "' OR '1'='1", 'null', 'true', '1e308', 'NaN', '*', 'wallet:read', 'live', 'test', 'LIVE', 'prepaid', 'PREPAID', 'dstv', 'gotv',
  '2099-01-01T00:00:00Z', '2000-01-01T00:00:00Z', '9999-12-31T23:59:59.999999+14:00', '2026-02-30T00:00:00Z', 'not a date',
  '10.0.0.0/8', '::1', '0.0.0.0/0', '999.1.1.1', '1.2.3.4/33', 'a'.repeat(101), 'a'.repeat(2049), 'x'.repeat(8000),
];

const hostile_string: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.string({ unit: 'grapheme', maxLength: 16 }),
  fc.string({ unit: 'binary-ascii', maxLength: 32 }),
  fc.constantFrom(...special_strings),
  fc.constantFrom(...raw_string_tokens).map((text) => new RawJson(text)),
);

const hostile_number: fc.Arbitrary<unknown> = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.double({ min: -1e6, max: 1e6 }),
  fc.constantFrom(50, 100, 500, 1000, 0.01, 10_000_000, 10_000_000.01, 2 ** 53, -(2 ** 53)),
  fc.constantFrom(...raw_number_tokens).map((text) => new RawJson(text)),
);

/** Any value a field may receive: every JSON type, hostile strings and numbers. */
export const hostile_value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostile_string },
  { weight: 3, arbitrary: hostile_number },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], { '': '' }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

export function deep_arrays(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

export function deep_objects(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

const unreserved = /[A-Za-z0-9\-._~]/;
/** Percent-encodes every byte that is not unreserved. */
export function percent_encode(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    out += byte < 0x80 && unreserved.test(char) ? char : '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

const path_value: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).map((s) => percent_encode(Buffer.from(s, 'utf8'))),
  fc.uint8Array({ minLength: 1, maxLength: 20 }).map((b) => [...b].map((x) => '%' + x.toString(16).padStart(2, '0')).join('')),
  // Raw UTF-8 bytes in the request line, as a careless client would send them.
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).map((s) => Buffer.from(s.replace(/[\s?#]/g, 'x'), 'utf8').toString('latin1')),
  fc.constantFrom(
    '..', '.', '%2e%2e', '%2E', '%2F', 'a%2Fb', '..%2F..%2Fadmin', '%2e%2e%2f%2e%2e%2fadmin%2faccounts', '%00', '0', '-1', '1e3', '01', '00',
    '9007199254740993', '99999999999999999999', '999999999999999', '1.5', '+1', '0x10', '%201', 'A'.repeat(1500), 'A'.repeat(5000), '%', '%zz',
    '%u0041', '__proto__', 'constructor', 'BV-20261122-0000000000000', 'bv-20261122-7k3m9q2xh4tc', 'BV-00000000-7K3M9Q2XH4TC', ';', ',', '*', '~',
    '%E2%80%AE', '%F0%9F%98%80', '%ED%A0%80', '%C0%AF', '%EF%BB%BF1',
  ),
  fc.integer({ min: 1, max: 40 }).map(String),
);

const query_key = fc.oneof(
  fc.constantFrom('per_page', 'page', 'network', 'provider', 'environment', 'idempotency_key', 'service', 'status', 'from', 'to', '__proto__', 'per_page[]', 'constructor'),
  fc.string({ unit: 'binary-ascii', maxLength: 8 }).map((s) => percent_encode(Buffer.from(s, 'latin1'))),
);
const query_value = fc.oneof(
  fc.integer().map(String),
  fc.constantFrom(...raw_number_tokens).map((s) => percent_encode(Buffer.from(s))),
  fc.string({ unit: 'binary', maxLength: 30 }).map((s) => percent_encode(Buffer.from(s, 'utf8'))),
  fc.constantFrom('', '%', '%zz', '%ED%A0%80', '%FF', 'A'.repeat(3000), 'live', 'test', 'LIVE', 'mtn', 'gotv', 'airtime', 'delivered', '2026-02-30', '0000-00-00', '1', '100', '101', '1000000', '1000001', '0', '-1'),
);
export const query_string: fc.Arbitrary<string> = fc.oneof(
  fc.array(fc.tuple(query_key, query_value), { maxLength: 5 }).map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&')),
  fc.constantFrom('&', '&&', '=', '==', '?', '??', 'a', 'a&a&a', '%', 'per_page=1&per_page=abc', 'page=1&page=2', 'per_page=%31%30', 'per_page=+1', 'per_page=1%00', 'environment=live&environment=test', 'environment=test&environment=live'),
);

const latin1_text = (max: number) => fc.string({ unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constant(0x09)).map((c) => String.fromCharCode(c)), maxLength: max });

const content_types = [
  '', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'application/json-patch+json',
  'application/vnd.api+json', 'APPLICATION/JSON', 'application/json; charset=utf-16', 'application/json;;;', ' application/json ', 'application/json\u00ff',
  'text/json', '*/*', 'application/json, text/plain',
];

export type HeaderMode = 'replace' | 'add_first' | 'add_last' | 'drop';

export type Mutation =
  | { kind: 'field'; field: string; value: unknown }
  | { kind: 'drop_field'; field: string }
  | { kind: 'duplicate_key'; field: string; value: unknown; first: boolean }
  | { kind: 'extra_field'; name: string; value: unknown }
  | { kind: 'body'; value: unknown }
  | { kind: 'raw_body'; label: string; text: Buffer }
  | { kind: 'truncate'; fraction: number }
  | { kind: 'pad'; bytes: number }
  | { kind: 'bom' }
  | { kind: 'invalid_utf8'; field: string | null; bytes: number[] }
  | { kind: 'param'; name: string; value: string }
  | { kind: 'query'; value: string }
  | { kind: 'header'; name: string; value: string; mode: HeaderMode }
  | { kind: 'duplicate_content_length' }
  | { kind: 'chunked' }
  | { kind: 'method'; value: string };

const invalid_utf8_sequences = [[0xff], [0xfe, 0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]];

function header_mutation(world: World): fc.Arbitrary<Mutation> {
  const mode = fc.constantFrom<HeaderMode>('replace', 'add_first', 'add_last', 'drop');
  const header = (name: string, value: fc.Arbitrary<string>, modes = mode) => fc.record({ kind: fc.constant('header' as const), name: fc.constant(name), value, mode: modes });
  return fc.oneof(
    header('Authorization', fc.oneof(
      latin1_text(60),
      latin1_text(60).map((v) => `Bearer ${v}`),
      fc.constantFrom('Bearer', 'Bearer ', 'bearer', 'Basic Zm9vOmJhcg==', 'Bearer bv_test_', `Bearer bv_live_${'A'.repeat(40)}`, `Bearer bv_test_${'A'.repeat(2000)}`,
        `Bearer\tbv_test_${'B'.repeat(40)}`, `Bearer ${world.key} extra`, `Bearer  ${world.key}  `, `bearer ${world.key}`, `Bearer ${world.key.slice(0, -1)}`,
        `Bearer ${world.key.toUpperCase()}`, `Bearer ${world.live_key}`, `Bearer ${world.admin_token}`, `Bearer ${world.admin_token}x`, `Bearer ${world.admin_token.slice(0, -1)}`),
    )),
    header('X-Idempotency-Key', fc.oneof(latin1_text(300), fc.constantFrom('a'.repeat(255), 'a'.repeat(256), ' ', 'key with spaces', world.order_idempotency_key, 'é'))),
    header('Content-Type', fc.constantFrom(...content_types)),
    header('Cookie', fc.oneof(latin1_text(80), fc.constantFrom('bv_session=', 'bv_session=x', `bv_session=${'A'.repeat(101)}`, `bv_session=${world.session.cookie}x`, `bv_session=${world.session.cookie}; bv_session=x`, `x=1; bv_session=${world.session.cookie}`, ';;;;', '=')) ),
    header('X-CSRF-Token', fc.oneof(latin1_text(60), fc.constantFrom('', `${world.session.csrf}x`, world.session.csrf.slice(1), world.session.csrf.toUpperCase()))),
    header('Origin', fc.oneof(latin1_text(40), fc.constantFrom('https://evil.example', 'null', 'https://app.billvend.ng', 'http://127.0.0.1', 'http://127.0.0.1:1', '://', 'https://127.0.0.1'))),
    header('X-Forwarded-For', fc.oneof(latin1_text(40), fc.constantFrom('10.0.0.1', '127.0.0.1, 10.0.0.1', 'garbage', '::1', '', ',,,'))),
    header('X-Signature', fc.oneof(latin1_text(80), fc.constantFrom('sha256=', 'sha256=00', `sha256=${'0'.repeat(64)}`, `SHA256=${'a'.repeat(64)}`, 'md5=abc'))),
    header('Host', fc.oneof(latin1_text(40), fc.constantFrom('', 'evil.example', '127.0.0.1:1', '[::1]'))),
    header('Expect', fc.constantFrom('100-continue', 'nonsense'), fc.constant<HeaderMode>('add_last')),
    header('If-None-Match', fc.oneof(latin1_text(40), fc.constant('*'))),
    fc.record({ kind: fc.constant('header' as const), name: fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,19}$/), value: latin1_text(60), mode: fc.constant<HeaderMode>('add_last') }),
    fc.constant({ kind: 'duplicate_content_length' as const }),
    fc.constant({ kind: 'chunked' as const }),
  );
}

export interface MutationOptions {
  /** Path parameter values never to send (ids of the keys and endpoints the fuzzer itself needs). */
  protected_params?: Set<string>;
  /**
   * Whether to send deeply nested JSON (default true). A fuzzing run turns it off once such bodies
   * have killed the server a few times, to spend its remaining time on other inputs.
   */
  deep?: boolean;
}

/** One hostile change to a valid request of the route. */
export function mutation_arb(route: RouteEntry, world: World, options: MutationOptions = {}): fc.Arbitrary<Mutation> {
  const choices: fc.WeightedArbitrary<Mutation>[] = [];
  const fields = route.body_fields;
  if (fields.length > 0) {
    const field = fc.constantFrom(...fields);
    choices.push(
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('field' as const), field, value: hostile_value }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('drop_field' as const), field }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('duplicate_key' as const), field, value: hostile_value, first: fc.boolean() }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('invalid_utf8' as const), field: fc.option(field, { nil: null }), bytes: fc.constantFrom(...invalid_utf8_sequences) }) },
    );
  }
  const body_carrier = route.method === 'POST' || route.method === 'PATCH';
  const deep = options.deep ?? true;
  // Deep nesting is rare (about 1 request in 30) but always there, unless turned off.
  const extra_value = deep
    ? fc.oneof(
      { weight: 12, arbitrary: hostile_value },
      { weight: 1, arbitrary: fc.constantFrom(64, 1000, 2500, 5000, 8000).map((d) => new RawJson(deep_arrays(d))) },
      { weight: 1, arbitrary: fc.constantFrom(64, 1000, 3000).map((d) => new RawJson(deep_objects(d))) },
    )
    : hostile_value;
  const deep_bodies: fc.Arbitrary<Mutation>[] = deep
    ? [fc.oneof(
      fc.constantFrom(64, 512, 2000, 5000, 8000).map((d) => ({ kind: 'raw_body' as const, label: `arrays nested ${d} deep`, text: Buffer.from(deep_arrays(d)) })),
      fc.constantFrom(64, 512, 3000).map((d) => ({ kind: 'raw_body' as const, label: `objects nested ${d} deep`, text: Buffer.from(deep_objects(d)) })),
    )]
    : [];
  choices.push(
    { weight: body_carrier ? 2 : 1, arbitrary: fc.record({ kind: fc.constant('extra_field' as const), name: fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'pin', 'amount', 'account_id', 'environment', '$where', '')), value: extra_value }) },
    { weight: body_carrier ? 3 : 1, arbitrary: fc.record({ kind: fc.constant('body' as const), value: fc.oneof(fc.jsonValue({ maxDepth: 3 }), hostile_value) }) },
    {
      weight: body_carrier ? 3 : 1,
      arbitrary: fc.oneof(
        ...deep_bodies,
        fc.constantFrom('', '   \n\t ', 'null', 'true', '0', '"x"', '[]', '{}', '{}{}', '{/*c*/}', '\u0000\u0000', '{"a":1,}', "{'a':1}", '{"a":undefined}', '{"__proto__":{"amount":100,"admin":true},"constructor":{"prototype":{"polluted":1}}}')
          .map((text) => ({ kind: 'raw_body' as const, label: `text ${JSON.stringify(text).slice(0, 40)}`, text: Buffer.from(text, 'utf8') })),
        fc.uint8Array({ maxLength: 64 }).map((b) => ({ kind: 'raw_body' as const, label: 'random bytes', text: Buffer.from(b) })),
        fc.double({ min: 0, max: 1, noNaN: true }).map((fraction) => ({ kind: 'truncate' as const, fraction })),
        fc.constantFrom(16_383, 16_384, 16_385, 20_000, 70_000).map((bytes) => ({ kind: 'pad' as const, bytes })),
        fc.constant({ kind: 'bom' as const }),
      ),
    },
    { weight: 3, arbitrary: header_mutation(world) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('query' as const), value: query_string }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('method' as const), value: fc.constantFrom('GET', 'POST', 'DELETE', 'PATCH', 'PUT', 'OPTIONS', 'HEAD', 'TRACE', 'FOO', 'get') }) },
  );
  if (route.params.length > 0) {
    const guarded = options.protected_params === undefined ? path_value : path_value.filter((v) => !options.protected_params!.has(v));
    choices.push({ weight: 5, arbitrary: fc.record({ kind: fc.constant('param' as const), name: fc.constantFrom(...route.params), value: guarded }) });
  }
  return fc.oneof(...choices);
}

/** One to three hostile changes to one request. */
export function request_arb(route: RouteEntry, world: World, options: MutationOptions = {}): fc.Arbitrary<Mutation[]> {
  return fc.array(mutation_arb(route, world, options), { minLength: 1, maxLength: 3 });
}

function as_pairs(body: unknown): Pairs {
  if (body instanceof Pairs) return body;
  if (body !== null && typeof body === 'object' && !Array.isArray(body) && !(body instanceof RawJson)) return new Pairs(Object.entries(body));
  return new Pairs([]);
}

const hole_marker = (i: number) => `~~HOLE${i}~~`;

/** Applies mutations to a fresh valid request of the route. */
export function mutate(route: RouteEntry, world: World, mutations: Mutation[]): { spec: RequestSpec; label: string; base: RequestSpec; body: unknown } {
  const spec = route.build(world);
  const base: RequestSpec = { ...spec, headers: [...spec.headers], params: { ...spec.params } };
  let body: unknown = spec.body === undefined ? undefined : as_pairs(spec.body);
  let raw: Buffer | null = null;
  const holes: Buffer[] = [];
  const post: ((text: Buffer) => Buffer)[] = [];
  const labels: string[] = [];
  const set_header = (name: string, value: string, mode: HeaderMode) => {
    const lower = name.toLowerCase();
    const others = spec.headers.filter(([n]) => n.toLowerCase() !== lower);
    if (mode === 'drop') spec.headers = others;
    else if (mode === 'replace') spec.headers = [...others, [name, value]];
    else if (mode === 'add_first') spec.headers = [[name, value], ...spec.headers];
    else spec.headers = [...spec.headers, [name, value]];
  };
  for (const m of mutations) {
    switch (m.kind) {
      case 'field': {
        const pairs = as_pairs(body);
        const at = pairs.pairs.findIndex(([k]) => k === m.field);
        if (at === -1) pairs.pairs.push([m.field, m.value]);
        else pairs.pairs[at] = [m.field, m.value];
        body = pairs;
        labels.push(`${m.field}=${json_text(m.value).slice(0, 60)}`);
        break;
      }
      case 'drop_field':
        body = new Pairs(as_pairs(body).pairs.filter(([k]) => k !== m.field));
        labels.push(`without ${m.field}`);
        break;
      case 'duplicate_key': {
        const pairs = as_pairs(body).pairs;
        body = new Pairs(m.first ? [[m.field, m.value], ...pairs] : [...pairs, [m.field, m.value]]);
        labels.push(`${m.field} twice (${m.first ? 'hostile first' : 'hostile last'})`);
        break;
      }
      case 'extra_field':
        body = new Pairs([...as_pairs(body).pairs, [m.name, m.value]]);
        labels.push(`extra ${JSON.stringify(m.name).slice(0, 20)}=${json_text(m.value).slice(0, 40)}`);
        break;
      case 'body':
        body = m.value;
        labels.push(`body ${json_text(m.value).slice(0, 60)}`);
        break;
      case 'raw_body':
        raw = m.text;
        labels.push(`raw body: ${m.label}`);
        break;
      case 'truncate':
        post.push((text) => text.subarray(0, Math.floor(text.length * m.fraction)));
        labels.push(`truncated at ${Math.round(m.fraction * 100)}%`);
        break;
      case 'pad':
        // Pads an object body with an unknown field to exactly m.bytes bytes (limit 16384).
        post.push((text) => {
          const trimmed = text.toString('latin1').trim();
          if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return text;
          const head = trimmed === '{}' ? '{"pad":"' : trimmed.slice(0, -1) + ',"pad":"';
          const room = m.bytes - Buffer.byteLength(head, 'latin1') - 2;
          return room < 0 ? text : Buffer.concat([Buffer.from(head, 'latin1'), Buffer.alloc(room, 'p'), Buffer.from('"}')]);
        });
        labels.push(`padded to ${m.bytes} bytes`);
        break;
      case 'bom':
        post.push((text) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text]));
        labels.push('byte order mark');
        break;
      case 'invalid_utf8': {
        const marker = hole_marker(holes.length);
        holes.push(Buffer.from(m.bytes));
        if (m.field === null) post.push((text) => Buffer.concat([text, Buffer.from(m.bytes)]));
        else {
          const pairs = as_pairs(body);
          const at = pairs.pairs.findIndex(([k]) => k === m.field);
          const value = `ab${marker}cd`;
          if (at === -1) pairs.pairs.push([m.field, value]);
          else pairs.pairs[at] = [m.field, value];
          body = pairs;
        }
        labels.push(`invalid UTF-8 ${m.bytes.map((b) => b.toString(16)).join(' ')} in ${m.field ?? 'trailing bytes'}`);
        break;
      }
      case 'param':
        spec.params[m.name] = m.value;
        labels.push(`${m.name}=${m.value.slice(0, 60)}`);
        break;
      case 'query':
        spec.query = m.value;
        labels.push(`?${m.value.slice(0, 60)}`);
        break;
      case 'header':
        set_header(m.name, m.value, m.mode);
        labels.push(`${m.mode} ${m.name}: ${JSON.stringify(m.value.slice(0, 60))}`);
        break;
      case 'duplicate_content_length':
        spec.headers.push(['Content-Length', body_length_placeholder], ['Content-Length', body_length_placeholder]);
        labels.push('Content-Length twice (same value)');
        break;
      case 'chunked':
        spec.chunked = true;
        spec.headers = spec.headers.filter(([n]) => n.toLowerCase() !== 'content-length');
        labels.push('chunked body');
        break;
      case 'method':
        spec.method = m.value;
        labels.push(`method ${m.value}`);
        break;
    }
  }
  if (spec.chunked && spec.headers.some(([n]) => n.toLowerCase() === 'content-length')) {
    // Content-Length with chunked framing is request smuggling's shape: test/fuzz-transport covers it.
    spec.headers = spec.headers.filter(([n]) => n.toLowerCase() !== 'content-length');
  }
  let bytes: Buffer | null = raw;
  if (bytes === null && body !== undefined) {
    let text = Buffer.from(json_text(body), 'utf8');
    holes.forEach((hole, i) => {
      const marker = Buffer.from(hole_marker(i));
      const at = text.indexOf(marker);
      if (at !== -1) text = Buffer.concat([text.subarray(0, at), hole, text.subarray(at + marker.length)]);
    });
    bytes = text;
  }
  // Byte-level changes to a route without a body start from an empty object.
  if (bytes === null && post.length > 0) bytes = Buffer.from('{}');
  if (bytes !== null) for (const step of post) bytes = step(bytes);
  spec.body = undefined;
  spec.raw_body = bytes ?? undefined;
  // What the server will parse, when the bytes are the JSON text of `body` (else unknown).
  const exact = raw === null && holes.length === 0 && !mutations.some((m) => m.kind === 'truncate' || (m.kind === 'pad' && m.bytes > 16_384));
  return { spec, label: labels.join('; '), base, body: exact ? body : undefined };
}

/** A request in one line for assertion messages: what was sent, shortened. */
export function describe_request(spec: RequestSpec): string {
  const body = body_bytes(spec);
  const shown = body === null ? '' : ` body(${body.length} B)=${JSON.stringify(body.subarray(0, 200).toString('latin1'))}`;
  const headers = spec.headers.map(([n, v]) => `${n}: ${v.length > 60 ? v.slice(0, 60) + '…' : v}`).join(' | ');
  return `${spec.port} ${spec.method} ${target_of(spec).slice(0, 160)} [${headers}]${shown}`;
}

// ---- What must never be accepted ----------------------------------------------------------------------

function first_header(spec: RequestSpec, name: string): string | undefined {
  return spec.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
}

function bearer_token(value: string | undefined): string | null {
  return /^Bearer +(\S+) *$/i.exec(value ?? '')?.[1] ?? null;
}

function cookie_value(header_value: string | undefined, name: string): string {
  for (const part of (header_value ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return '';
}

const unknown = Symbol('unknown');

/** The value a body field ends up with as the server parses it (JSON.parse keeps the last of duplicated keys). */
function effective_field(body: unknown, field: string): unknown {
  let value: unknown = unknown;
  if (body instanceof Pairs) {
    value = undefined;
    for (const [k, v] of body.pairs) if (k === field) value = v;
  } else if (body !== null && typeof body === 'object' && !Array.isArray(body) && !(body instanceof RawJson)) {
    value = (body as Record<string, unknown>)[field];
  }
  if (value instanceof RawJson) {
    try {
      return JSON.parse(value.text);
    } catch {
      return unknown;
    }
  }
  return value;
}

/** An NGN amount every route refuses: not a positive finite number with at most 2 decimals up to 100,000,000. */
export function refused_amount(value: unknown): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 100_000_000) return true;
  return Number(value.toFixed(2)) !== value;
}

/**
 * Why a request must be refused whatever else is in it, or null: no valid credential for the route
 * (uWS reads the first of duplicated headers), a wrong transaction PIN, an amount no route accepts.
 */
export function must_refuse(route: RouteEntry, world: World, base: RequestSpec, spec: RequestSpec, body: unknown): string | null {
  if (spec.method !== route.method) return null;
  if (route.auth === 'api_key') {
    const token = bearer_token(first_header(spec, 'Authorization'));
    if (token !== world.key && token !== world.live_key) return 'it carries no valid API key';
  } else if (route.auth === 'operator') {
    if (bearer_token(first_header(spec, 'Authorization')) !== world.admin_token) return 'it carries no valid operator token';
  } else if (route.auth === 'session') {
    const session = cookie_value(first_header(base, 'Cookie'), 'bv_session');
    if (cookie_value(first_header(spec, 'Cookie'), 'bv_session') !== session) return 'it carries no valid session cookie';
    if (route.method !== 'GET' && first_header(spec, 'X-CSRF-Token') !== first_header(base, 'X-CSRF-Token')) return 'it carries no valid CSRF token';
  } else if (route.auth === 'signature' && spec.sign !== undefined) {
    const given = first_header(spec, 'X-Signature');
    if (given !== undefined && given.trim().toLowerCase() !== spec.sign(body_bytes(spec) ?? Buffer.alloc(0))) return 'its X-Signature is wrong';
  }
  // An agent's new PIN (PUT /v1/agents/{id}/pin) is what the request sets, not a credential it presents.
  if (route.body_fields.includes('pin') && route.auth === 'api_key' && route.name !== 'PUT /v1/agents/{id}/pin') {
    const pin = effective_field(body, 'pin');
    if (pin !== unknown && pin !== world.pin) return `its PIN ${JSON.stringify(pin)?.slice(0, 20)} is wrong`;
  }
  if (route.body_fields.includes('amount')) {
    const amount = effective_field(body, 'amount');
    if (amount !== unknown && amount !== undefined && refused_amount(amount)) return `its amount ${JSON.stringify(amount)?.slice(0, 30)} is not a valid NGN amount`;
  }
  return null;
}

// ---- The fuzzing loop ---------------------------------------------------------------------------------

export interface RouteTally {
  requests: number;
  statuses: Map<number, number>;
  codes: Map<string, number>;
  state_checks: number;
}

export class FuzzLedger {
  requests = 0;
  /** Times the server process died under the fuzzer. */
  crashes = 0;
  transport_answers = 0;
  state_checks = 0;
  readonly routes = new Map<string, RouteTally>();
  /** Problems by route and kind, each with a count and the first request that showed it. */
  readonly problems = new Map<string, { count: number; example: string }>();

  tally(route: string): RouteTally {
    let tally = this.routes.get(route);
    if (tally === undefined) this.routes.set(route, (tally = { requests: 0, statuses: new Map(), codes: new Map() , state_checks: 0 }));
    return tally;
  }

  problem(route: string, kind: string, example: string): void {
    const key = `${route} → ${kind}`;
    const seen = this.problems.get(key);
    if (seen === undefined) this.problems.set(key, { count: 1, example });
    else seen.count++;
  }

  report(): string[] {
    return [...this.problems].map(([key, { count, example }]) => `${key} (${count}×), e.g. ${example.length > 1500 ? example.slice(0, 1500) + '…' : example}`);
  }

  summary(): string {
    const lines = [`${this.requests} hostile requests over ${this.routes.size} routes; ${this.transport_answers} refused by the HTTP parser before billvend saw them; ${this.state_checks} state comparisons; ${this.crashes} server crashes`];
    for (const [route, tally] of this.routes) {
      const statuses = [...tally.statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}×${n}`).join(' ');
      lines.push(`  ${route}: ${tally.requests} requests (${statuses})${tally.state_checks > 0 ? `, ${tally.state_checks} state checks` : ''}`);
    }
    return lines.join('\n');
  }
}

/** Problem kinds without the parts that vary from request to request. */
function problem_kind(problem: string): string {
  return problem.replace(/: .*$/s, '').replace(/\d+/g, 'N').slice(0, 100);
}

export interface FuzzRouteOptions {
  runs: number;
  batch: number;
  seed: number;
  ledger: FuzzLedger;
  observer: Observer;
  mutation?: MutationOptions;
  /** Called after each batch (e.g. to sign in again after a sign-out). */
  after_batch?: (responses: WireResponse[]) => Promise<void>;
  /**
   * Restarts the server after its process died (on the same store), so that one crash is reported
   * and the remaining routes are still fuzzed. Without it a crash ends the route's run.
   */
  revive?: () => Promise<void>;
}

const safe_methods = new Set(['GET', 'HEAD', 'OPTIONS', 'get']);

/**
 * Runs fast-check over one route: each run sends a batch of mutated requests at once, judges every
 * answer, and compares the account's state before and after when every request of the batch was
 * refused (4xx/503). A route that cannot change state must leave it as it was after all its runs.
 * Problems are counted in the ledger rather than stopping the run, so that one bug does not hide others.
 */
export async function fuzz_route(world: World, route: RouteEntry, options: FuzzRouteOptions): Promise<void> {
  const { ledger, observer } = options;
  const tally = ledger.tally(route.name);
  const route_before = route.changes_state ? null : await snapshot(observer);
  let unsafe_success = false;
  const property = fc.asyncProperty(fc.array(request_arb(route, world, options.mutation), { minLength: options.batch, maxLength: options.batch }), async (batch) => {
    const built = batch.map((mutations) => mutate(route, world, mutations));
    const before = route.changes_state ? await snapshot(observer) : null;
    const answers = await Promise.all(built.map(({ spec }) => send(world.server, spec).then((r) => r, (e: Error) => e)));
    if (answers.some((a) => a instanceof Error) && (await still_serving(world)) !== null) {
      // The process died. Every request in flight lost its answer; send the suspects again one by
      // one on a fresh server to name the one that kills it.
      ledger.crashes++;
      ledger.requests += built.length;
      tally.requests += built.length;
      if (options.revive === undefined) throw new Error(`the server died while fuzzing ${route.name}`);
      const stderr = world.server.stderr.join('').slice(-1500);
      await options.revive();
      let culprit = 'not reproduced alone';
      // Send the suspects again one by one to name the killer, the first time a route kills the server.
      const known = [...ledger.problems.keys()].some((k) => k === `${route.name} → the server process died`);
      if (known) culprit = 'as before on this route';
      else for (const [i, { spec, label }] of built.entries()) {
        if (!(answers[i] instanceof Error)) continue;
        const again = await send(world.server, spec).then((r) => r, (e: Error) => e);
        if (again instanceof Error && (await still_serving(world)) !== null) {
          culprit = `${label} — ${describe_request(spec)}`;
          await options.revive();
          break;
        }
      }
      ledger.problem(route.name, 'the server process died', `${culprit}; stderr: ${stderr}`);
      return true;
    }
    const responses: WireResponse[] = [];
    answers.forEach((answer, i) => {
      const { spec, label } = built[i];
      ledger.requests++;
      tally.requests++;
      const example = `${label} — ${describe_request(spec)}`;
      if (answer instanceof Error) {
        ledger.problem(route.name, `no answer (${answer.message.slice(0, 60)})`, example);
        return;
      }
      responses.push(answer);
      tally.statuses.set(answer.status, (tally.statuses.get(answer.status) ?? 0) + 1);
      const echoes = [target_of(spec), ...Object.values(spec.params), ...spec.headers.map(([, v]) => v)];
      const verdict = judge(answer, echoes, spec.method === 'HEAD');
      if (verdict.transport) ledger.transport_answers++;
      if (verdict.code !== null) tally.codes.set(verdict.code, (tally.codes.get(verdict.code) ?? 0) + 1);
      for (const problem of verdict.problems) ledger.problem(route.name, problem_kind(problem), `${problem} — ${example} → ${answer.status} ${answer.body.slice(0, 200)}`);
      if (answer.status < 400 && !safe_methods.has(spec.method) && spec.method !== route.method) unsafe_success = true;
      if (answer.status < 400 && header(answer, 'idempotent-replayed') === undefined) {
        const reason = must_refuse(route, world, built[i].base, spec, built[i].body);
        if (reason !== null) ledger.problem(route.name, `accepted although ${reason.replace(/ \S+ is (wrong|not)/, ' is $1')}`, `${example} → ${answer.status} ${answer.body.slice(0, 200)}`);
      }
    });
    if (before !== null) {
      const refused = answers.every((a) => !(a instanceof Error) && a.status >= 400);
      if (refused) {
        const after = await snapshot(observer);
        ledger.state_checks++;
        tally.state_checks++;
        if (after !== before) ledger.problem(route.name, 'state changed although every request was refused', `${snapshot_difference(before, after)} — batch: ${built.map(({ label, spec }) => `${label} — ${describe_request(spec)}`).join(' || ')} → ${answers.map((a) => (a instanceof Error ? 'error' : `${a.status} ${a.body.slice(0, 120)}`)).join(' || ')}`);
      }
    }
    if (options.after_batch !== undefined) await options.after_batch(responses);
    return true;
  });
  const details = await fc.check(property, { numRuns: options.runs, seed: options.seed, endOnFailure: true });
  if (details.failed) ledger.problem(route.name, 'the fuzzing run itself failed', String(details.errorInstance ?? fc.defaultReportMessage(details)).slice(0, 500));
  if (route_before !== null && (await still_serving(world)) === null) {
    const after = await snapshot(observer);
    ledger.state_checks++;
    tally.state_checks++;
    if (!unsafe_success && after !== route_before) ledger.problem(route.name, 'a read-only route changed state', snapshot_difference(route_before, after));
  }
  const serving = await still_serving(world);
  if (serving !== null) {
    const last_words = [...world.server.stderr.slice(-5), ...world.server.logs.slice(-8)].join('\n').slice(-3000);
    ledger.problem(route.name, 'the server stopped serving', `${serving}; last output:\n${last_words}`);
  }
}

/** FUZZ_RUNS multiplies every run count (default 1), for a long run: FUZZ_RUNS=20 npx tap test/fuzz-routes.test.ts. */
export function fuzz_scale(): number {
  const scale = Number(process.env.FUZZ_RUNS ?? '1');
  return Number.isFinite(scale) && scale > 0 ? scale : 1;
}

/** FUZZ_SEED replays a run; otherwise a fresh seed, printed by the tests. */
export function fuzz_seed(): number {
  const given = Number(process.env.FUZZ_SEED);
  return Number.isInteger(given) ? given : Math.floor(Math.random() * 2 ** 31);
}
