// The dashboard's JSON API under /dashboard/api (docs/api.md "Dashboard and documentation"): sign-in and out, overview,
// orders, wallet history, keys, webhooks and the transaction PIN. Every call uses the session, never
// an API key; every change goes through the same actor commands as the public API.
import type { FundingService } from '../services/funding/funding-service.js';
import { funding_rows_view } from '../front/routes/dedicated-account-routes.js';
import type { Static } from 'typebox';
import Type from 'typebox';
import type { Deps } from '../front/deps.js';
import type { RequestContext, RouteDef } from '../front/route.js';
import { error_reply, success_reply, type BodyStream, type Reply } from '../lib/reply.js';
import { once_durable } from '../front/durable-reply.js';
import { account_view, key_view, pagination, wallet_entry_view, wallet_view } from '../front/views.js';
import { parse_id, parse_pagination, query_params } from '../front/request-helpers.js';
import { dashboard_order_query, day_param, parse_order_query, type OrderQuery } from '../front/order-query.js';
import { api_error, invalid, type ApiError } from '../errors.js';
import { kobo_to_naira } from '../lib/money.js';
import { csv_content_type, csv_download_headers, csv_line } from '../lib/csv.js';
import { iso_us, lagos_day } from '../lib/time-format.js';
import { read_orders } from '../front/routes/transaction-routes.js';
import { check_key_request, create_key_reply } from '../front/routes/key-routes.js';
import { delivery_view, read_deliveries, register_endpoint } from '../front/routes/webhook-routes.js';
import { CreateWebhookBody, EventKindName } from '../schemas/webhook-schemas.js';
import { Scope } from '../schemas/account-schemas.js';
import { EnvironmentName, FreeText } from '../schemas/common.js';
import { create_endpoint, delete_endpoint, endpoint_view, endpoints_of } from '../webhooks/endpoints.js';
import { service_type_names, charged_kobo, commission_of, order_full_view, order_list_view, type OrderRecord, type ServiceType } from '../services/order.js';
import { find_orders, index_plan_of, matching_seqs, seq_range, type OrderFilter, type OrderPage } from '../engine/order-history.js';
import { claim_of } from '../engine/client-reference-claims.js';
import type { OrderDesk } from '../services/order-desk.js';
import { dead_listed_max, type Dispatcher } from '../webhooks/dispatcher.js';
import { default_event_kinds, type DeliveryRecord } from '../webhooks/records.js';
import type { EventKind } from '../engine/engine.js';
import type { AccountActor } from '../engine/account-actor.js';
import { refusal_reply } from '../front/outcome-errors.js';
import type { Environment, Scope as ScopeName, WalletEntry, WalletEntryType } from '../engine/records.js';
import { fail } from '../lib/assert.js';
import { clear_cookie_header, password_check_busy_error, read_cookie, session_cookie, session_cookie_header, session_absolute_ms, sign_in_busy_error, SignInGuard, type SessionStore } from './sessions.js';
import { origin_ok, session_of, session_refusal, suspended_message } from './session-auth.js';
import { bulk_items_max } from '../schemas/bulk-schemas.js';
import { agent_depth_max, depth_of } from '../engine/agent-tree.js';
import { biller_display_names, service_display_names } from '../engine/display-names.js';

const SignInBody = Type.Object({
  email: Type.String({ minLength: 3, maxLength: 254, errorMessage: 'must be an email address' }),
  password: Type.String({ minLength: 1, maxLength: 200, errorMessage: 'is required' }),
});

const PinBody = Type.Object({
  new_pin: Type.String({ pattern: '^[0-9]{5}$', errorMessage: 'must be exactly 5 digits' }),
  current_pin: Type.Optional(Type.String({ pattern: '^[0-9]{5}$', errorMessage: 'must be exactly 5 digits' })),
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

const DashboardKeyBody = Type.Object({
  name: FreeText({ minLength: 1, maxLength: 100, errorMessage: 'must be a string of 1 to 100 characters' }),
  environment: EnvironmentName,
  scopes: Type.Optional(Type.Array(Scope, { minItems: 1, maxItems: 5, uniqueItems: true })),
  ip_allowlist: Type.Optional(Type.Array(FreeText({ maxLength: 64 }), { maxItems: 20 })),
  expires_at: Type.Optional(FreeText({ maxLength: 40, errorMessage: 'must be an ISO 8601 timestamp in the future' })),
});

/**
 * The event kinds the webhook forms offer: the one list the API validates endpoints against (its
 * schema), so that a kind added there appears in the dashboard with no second list to update; and
 * those an endpoint registered without `events` receives (service.status_changed is asked for).
 */
export const offered_event_kinds: readonly string[] = (EventKindName as unknown as { enum: string[] }).enum;
export const offered_default_event_kinds: readonly string[] = offered_event_kinds.filter((kind) => default_event_kinds.includes(kind as EventKind));

/** Most orders read to answer a search by phone, meter or smartcard number. */
export const orders_searched_max = 5000;
/** Most rows in one CSV export. */
export const export_rows_max = 10_000;
/** The trend covers this many Lagos days, today included. */
export const trend_days = 30;
/** Most orders read to draw the trend; beyond, the answer says it is truncated. */
export const trend_orders_max = 20_000;
/**
 * Orders or entries read in one step of an export, the trend or a number search, before the event loop
 * serves others: a few milliseconds each. Regression: 10,000 rows or 20,000 orders in one step held it
 * for 0.4-0.5 s, and three exports at once took another tenant's wallet read p99 from 3 ms to 1.3 s.
 */
export const dashboard_slice_rows = 250;
const order_reference_pattern = /^BV-\d{8}-[0-9A-Z]{12}$/i;

/** Most wallet entries read to answer one filtered page of the wallet history (or its export). */
export const wallet_entries_scanned_max = 20_000;

interface WalletQuery {
  type: WalletEntryType | null;
  from_day: number | null;
  to_day: number | null;
}

/** The wallet history's filters (entry type, Africa/Lagos dates), from the query string. */
function parse_wallet_query(params: URLSearchParams): WalletQuery | ApiError {
  const type = params.get('type');
  if (type !== null && type !== '' && !['credit', 'debit', 'reversal'].includes(type)) return invalid('type', 'must be credit, debit or reversal');
  const from = day_param(params.get('from'), 'from');
  const to = day_param(params.get('to'), 'to');
  if (from !== null && typeof from === 'object') return from;
  if (to !== null && typeof to === 'object') return to;
  return { type: type ? type as WalletEntryType : null, from_day: from, to_day: to };
}

/**
 * A page of the wallet history matching the filters, newest first. Entries are numbered 1..total in
 * time order, so the date range becomes a range of numbers by two binary searches (about 2 × 20
 * reads); only the type is matched entry by entry, over at most wallet_entries_scanned_max of them
 * (truncated says when older ones were left out).
 */
/**
 * The seqs [oldest, newest] of the entries within the query's dates, among the first `total`: the
 * count read when the request arrived, before it waited for the account's commit, so that every entry
 * it names is in the store (one staged meanwhile is not, and the binary search would find it missing).
 */
function wallet_seq_range(store: Deps['engine']['store'], actor: AccountActor, environment: Environment, query: WalletQuery, total: number): [number, number] {
  const day_of = (seq: number) => {
    const entry = store.wallet_entries.get([actor.id, environment, seq]) as WalletEntry | undefined;
    if (entry === undefined) fail(`wallet ${actor.id}/${environment} is missing entry ${seq}`);
    return lagos_day(Math.floor(entry.created_us / 1000));
  };
  // The first entry whose day is at least `day` (total + 1 when none is).
  const first_from = (day: number) => {
    let low = 1;
    let high = total + 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (day_of(middle) >= day) high = middle;
      else low = middle + 1;
    }
    return low;
  };
  const oldest = query.from_day === null ? 1 : first_from(query.from_day);
  const newest = query.to_day === null ? total : first_from(query.to_day + 1) - 1;
  return [oldest, newest];
}

async function find_wallet_entries(store: Deps['engine']['store'], actor: AccountActor, environment: Environment, query: WalletQuery, entries_count: number, page: number, per_page: number, gone: () => boolean): Promise<{ entries: WalletEntry[]; total: number; truncated: boolean }> {
  const [oldest, newest] = wallet_seq_range(store, actor, environment, query, entries_count);
  if (query.type === null) {
    const count = Math.max(0, newest - oldest + 1);
    const top = newest - (page - 1) * per_page;
    const entries: WalletEntry[] = [];
    if (top >= oldest) {
      const bottom = Math.max(oldest, top - per_page + 1);
      for (const { value } of store.wallet_entries.getRange({ start: [actor.id, environment, top], end: [actor.id, environment, bottom - 1], reverse: true })) entries.push(value as WalletEntry);
    }
    return { entries, total: count, truncated: false };
  }
  const skip = (page - 1) * per_page;
  const entries: WalletEntry[] = [];
  let matched = 0;
  let scanned = 0;
  let truncated = false;
  // dashboard_slice_rows entries per event-loop turn, as the exports (up to 20,000 entries in one step).
  for (let top = newest; top >= oldest; ) {
    if (scanned >= wallet_entries_scanned_max) {
      truncated = true;
      break;
    }
    if (scanned > 0) {
      await next_turn();
      if (gone()) break;
    }
    const bottom = Math.max(oldest, top - dashboard_slice_rows + 1, top - (wallet_entries_scanned_max - scanned) + 1);
    for (const { value } of store.wallet_entries.getRange({ start: [actor.id, environment, top], end: [actor.id, environment, bottom - 1], reverse: true })) {
      scanned++;
      const entry = value as WalletEntry;
      if (entry.type !== query.type) continue;
      if (matched >= skip && entries.length < per_page) entries.push(entry);
      matched++;
    }
    top = bottom - 1;
  }
  return { entries, total: matched, truncated };
}

/**
 * The wallet export's rows, newest first, dashboard_slice_rows entries read per chunk (the front end
 * asks for one chunk per event-loop turn, and none while the client's socket is full); at most
 * export_rows_max rows, and with a type filter at most wallet_entries_scanned_max entries read, as the
 * history's pages.
 */
function wallet_export_stream(store: Deps['engine']['store'], actor: AccountActor, environment: Environment, query: WalletQuery, entries_count: number): BodyStream {
  const [oldest, newest] = wallet_seq_range(store, actor, environment, query, entries_count);
  let top = newest;
  let rows = 0;
  let scanned = 0;
  return {
    next: () => {
      if (top < oldest || rows >= export_rows_max || (query.type !== null && scanned >= wallet_entries_scanned_max)) return null;
      // Filtered by type, no more than wallet_entries_scanned_max entries are read in all.
      const bottom = Math.max(oldest, top - dashboard_slice_rows + 1, query.type === null ? oldest : top - (wallet_entries_scanned_max - scanned) + 1);
      let text = '';
      for (const { value } of store.wallet_entries.getRange({ start: [actor.id, environment, top], end: [actor.id, environment, bottom - 1], reverse: true })) {
        scanned++;
        const entry = value as WalletEntry;
        if (query.type !== null && entry.type !== query.type) continue;
        if (rows >= export_rows_max) break;
        const e = wallet_entry_view(entry);
        text += csv_line([String(e.id), e.type, e.amount.toFixed(2), e.balance_before.toFixed(2), e.balance_after.toFixed(2), e.reference, e.description, e.created_at]);
        rows++;
      }
      top = bottom - 1;
      return text;
    },
  };
}

const order_export_header = ['reference', 'service', 'provider', 'plan', 'recipient', 'customer_name', 'amount', 'status', 'token', 'units', 'created_at', 'amount_charged', 'commission', 'client_reference', 'metadata'];
const wallet_export_header = ['id', 'type', 'amount', 'balance_before', 'balance_after', 'reference', 'description', 'created_at'];

function order_export_line(o: OrderRecord): string {
  return csv_line([
    o.reference, o.service_type, o.network ?? o.disco ?? o.provider ?? '', o.plan ?? '', o.recipient, o.customer_name ?? '',
    kobo_to_naira(o.amount_kobo).toFixed(2), o.status, o.token ?? '', o.units ?? '', iso_us(o.created_us),
    kobo_to_naira(charged_kobo(o)).toFixed(2), kobo_to_naira(commission_of(o)).toFixed(2),
    // The reseller's own reference and notes, as the API's export writes them (docs/api.md "Transactions export").
    o.client_reference ?? '', o.metadata == null ? '' : JSON.stringify(o.metadata),
  ]);
}

/**
 * The orders export's rows, newest first: the filtered orders from the index, dashboard_slice_rows
 * read per chunk, each chunk read below the last one's lowest seq (nothing else held). With a number
 * to search, the newest orders_searched_max of the filtered range are read, as the list does; at most
 * export_rows_max rows. orders_count is the count when the request arrived (see wallet_seq_range).
 */
function orders_export_stream(store: Deps['engine']['store'], actor: AccountActor, environment: Environment, orders_count: number, filter: OrderFilter, search: string | null): BodyStream {
  const [low, high] = seq_range(store, actor.id, environment, orders_count, filter);
  const plan = index_plan_of(filter);
  let below = high;
  let rows = 0;
  let scanned = 0;
  return {
    next: () => {
      if (below < low || rows >= export_rows_max || (search !== null && scanned >= orders_searched_max)) return null;
      const limit = Math.min(dashboard_slice_rows, search === null ? export_rows_max - rows : orders_searched_max - scanned);
      const seqs = matching_seqs(store, actor.id, environment, plan, low, below, 0, limit);
      if (seqs.length === 0) {
        below = low - 1;
        return null;
      }
      below = seqs[seqs.length - 1] - 1;
      let text = '';
      for (const seq of seqs) {
        scanned++;
        const stored = store.orders.get([actor.id, environment, seq]) as OrderRecord;
        // An open order may have moved on since its last commit became visible: shown as it stands.
        const order = actor.open_orders.get(stored.reference) ?? stored;
        if (search !== null && !order.recipient.includes(search)) continue;
        text += order_export_line(order);
        rows++;
      }
      return text;
    },
  };
}

/** Lets the event loop serve what waits (timers, sockets) before the next slice. */
function next_turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A row of the dashboard's order tables: what it was for (network, disco, provider, plan) included. */
function dashboard_order_view(o: OrderRecord) {
  return { ...order_list_view(o), status: o.status, network: o.network, disco: o.disco, provider: o.provider, plan: o.plan };
}

/** Where the dashboard opens: Test while the account has test activity and none live yet. */
function landing_environment(actor: AccountActor): Environment {
  const { live, test } = actor.wallets;
  const live_quiet = live.orders_count === 0 && live.entries_count === 0;
  return live_quiet && (test.orders_count > 0 || test.entries_count > 0) ? 'test' : 'live';
}

function matches(order: OrderRecord, filter: OrderFilter): boolean {
  if (filter.service !== null && order.service_type !== filter.service) return false;
  if (filter.status !== null && order.status !== filter.status) return false;
  const day = lagos_day(Math.floor(order.created_us / 1000));
  return (filter.from_day === null || day >= filter.from_day) && (filter.to_day === null || day <= filter.to_day);
}

function csv_reply(filename: string, body: string): Reply {
  return { status: 200, body, content_type: csv_content_type, headers: csv_download_headers(filename) };
}

export function session_routes(deps: Deps, sessions: SessionStore, desk: OrderDesk, dispatcher: Dispatcher, funding: FundingService | null = null): RouteDef[] {
  const { engine, clock } = deps;
  const secure = (deps.config.public_base_url ?? '').startsWith('https:');
  const doc = (summary: string) => ({ summary, tags: ['Dashboard'], hidden: true });
  const sign_in_guard = new SignInGuard(deps.config.sign_in, deps.wheel, deps.hash_lanes.password);
  const display_names = { services: service_display_names, billers: biller_display_names };
  /** Whether the account may have agents (the Agents page): above the tree's last level (docs/api.md "Agents"). */
  const agents_allowed = (actor: AccountActor) => depth_of(engine, actor.account) < agent_depth_max;

  /** The session as the app reads it; service_types: every family on sale, so the app lists none of its own. */
  const session_view = (record: { csrf_token: string; expires_ms: number }, actor: AccountActor) => ({
    account: { ...account_view(actor.account), pin_set: actor.account.pin_hash !== null },
    csrf_token: record.csrf_token,
    expires_at: new Date(record.expires_ms).toISOString(),
    landing_environment: landing_environment(actor),
    service_types: service_type_names,
    /** The bulk upload's row limit: the bulk API's own (docs/api.md "Bulk orders"). */
    bulk_items_max,
    /** The one table of names as people write them (engine/display-names.ts): the app keeps none of its own. */
    display_names,
    agents_allowed: agents_allowed(actor),
  });

  const overview = (ctx: RequestContext) => {
    const actor = ctx.actor!;
    const environment = ctx.environment;
    const now_ms = clock.now_ms();
    const { spent_kobo, limit_kobo } = actor.daily_spend(environment, now_ms);
    const wallet = actor.wallets[environment];
    const recent = read_orders(engine.store, actor, environment, wallet.orders_count, 1, 5).map((o) => desk.find(o.reference) ?? o);
    return success_reply(ctx.request_id, 200, {
      account: { ...account_view(actor.account), pin_set: actor.account.pin_hash !== null },
      environment,
      wallets: { live: wallet_view(actor.wallets.live), test: wallet_view(actor.wallets.test) },
      today: { spent: kobo_to_naira(spent_kobo), limit: kobo_to_naira(limit_kobo), remaining: kobo_to_naira(Math.max(0, limit_kobo - spent_kobo)) },
      open_orders: [...actor.open_orders.values()].filter((o) => o.environment === environment).length,
      recent_orders: recent.map(dashboard_order_view),
    });
  };

  /** The one order a reference or the reseller's own client reference names, filtered; null: q is no such name. */
  const named_order = (ctx: RequestContext, q: string, filter: OrderFilter): OrderRecord[] | null => {
    const actor = ctx.actor!;
    const environment = ctx.environment;
    if (order_reference_pattern.test(q)) {
      // A reference names one order: a direct read, then the other filters.
      const order = desk.find(q.toUpperCase());
      const mine = order !== null && order.account_id === actor.id && order.environment === environment && matches(order, filter);
      return mine ? [order] : [];
    }
    // The reseller's own client reference names one order (docs/api.md "Client references and metadata").
    const claimed = /^[A-Za-z0-9._:-]{1,64}$/.test(q) ? claim_of(engine.journal, engine.store, actor.id, environment, q) : null;
    if (claimed === null) return null;
    const order = desk.find(claimed);
    return order !== null && matches(order, filter) ? [order] : [];
  };

  /** total_orders: the count when the request arrived, before it waited for the account's commit. */
  const search_orders = async (ctx: RequestContext, query: OrderQuery, total_orders: number, page: number, per_page: number): Promise<OrderPage> => {
    const actor = ctx.actor!;
    const environment = ctx.environment;
    const filter = query.filter;
    const current = (o: OrderRecord) => desk.find(o.reference) ?? o;
    if (query.q === null) {
      // From the per-account order index (engine/order-index.ts): the page's orders are the only
      // ones read, whatever else the account holds (regression: up to 50,000 orders were scanned).
      const found = find_orders(engine.store, actor.id, environment, total_orders, filter, page, per_page);
      return { ...found, orders: found.orders.map(current) };
    }
    const named = named_order(ctx, query.q, filter);
    if (named !== null) return { orders: page === 1 ? named : [], total: named.length, truncated: false };
    // A phone, meter or smartcard number (or part of one): the newest orders_searched_max orders of
    // the filtered range are read, no more, dashboard_slice_rows per event-loop turn, and the answer
    // says when older ones were left out.
    const store = engine.store;
    const [low, high] = seq_range(store, actor.id, environment, total_orders, filter);
    const plan = index_plan_of(filter);
    const matched: OrderRecord[] = [];
    let scanned = 0;
    let truncated = false;
    for (let below = high; below >= low; ) {
      if (scanned >= orders_searched_max) {
        truncated = true;
        break;
      }
      if (scanned > 0) {
        await next_turn();
        if (ctx.aborted) break;
      }
      const seqs = matching_seqs(store, actor.id, environment, plan, low, below, 0, Math.min(dashboard_slice_rows, orders_searched_max - scanned));
      if (seqs.length === 0) break;
      below = seqs[seqs.length - 1] - 1;
      for (const seq of seqs) {
        const order = store.orders.get([actor.id, environment, seq]) as OrderRecord;
        if (order.recipient.includes(query.q)) matched.push(order);
      }
      scanned += seqs.length;
    }
    return { orders: matched.slice((page - 1) * per_page, page * per_page).map(current), total: matched.length, truncated };
  };

  return [
    {
      method: 'post',
      path: '/dashboard/api/session',
      auth: 'none',
      body: SignInBody,
      idempotent: false,
      doc: doc('Sign in with email and password'),
      handler: async (ctx) => {
        if (!origin_ok(ctx)) return error_reply(ctx.request_id, api_error('session.csrf_failed'));
        const body = ctx.body as Static<typeof SignInBody>;
        // Read before any await, while the response is open; behind TRUSTED_PROXIES, the client's.
        const address = ctx.remote_ip;
        const refused = sign_in_guard.locked(address, body.email, clock.now_ms()) ?? sign_in_guard.admit(address, clock.now_ms());
        if (refused !== null) return error_reply(ctx.request_id, refused);
        const actor = engine.account_by_email(body.email);
        const correct = await sign_in_guard.check(body.password, actor?.account.password_hash ?? null);
        if (correct === 'busy') return error_reply(ctx.request_id, sign_in_busy_error());
        // A known and an unknown email part only here, after the same work: same answers from now on.
        if (!correct || actor === undefined) return error_reply(ctx.request_id, sign_in_guard.wrong_password(address, body.email, clock.now_ms()));
        // An agent closed for good signs in no more: answered as a wrong password, the email told apart
        // by nothing. A suspended one is told so, the password being right (docs/api.md "Agents").
        if (actor.account.status === 'closed') return error_reply(ctx.request_id, sign_in_guard.wrong_password(address, body.email, clock.now_ms()));
        const barred = session_refusal(engine, actor.account);
        if (barred !== null) return error_reply(ctx.request_id, barred);
        ctx.actor = actor;
        sign_in_guard.signed_in(address, body.email);
        const { id, record } = sessions.open(actor);
        ctx.extra_headers.push(['Set-Cookie', session_cookie_header(id, Math.floor(deps.wheel.scaled(session_absolute_ms) / 1000), secure)]);
        return once_durable(success_reply(ctx.request_id, 201, {
          account: account_view(actor.account),
          csrf_token: record.csrf_token,
          expires_at: new Date(record.expires_ms).toISOString(),
          landing_environment: landing_environment(actor),
          service_types: service_type_names,
          bulk_items_max,
          display_names,
          agents_allowed: agents_allowed(actor),
        }, 'Signed in.'), actor.settled());
      },
    },
    {
      method: 'get',
      path: '/dashboard/api/session',
      auth: 'session',
      doc: doc('The current session'),
      handler: (ctx) => success_reply(ctx.request_id, 200, session_view(session_of(ctx), ctx.actor!)),
    },
    {
      // The app's first question on every load: 200 either way, so that a signed-out browser (the
      // sign-in page) logs no 401 in its console; GET /dashboard/api/session still answers 401 without one.
      method: 'get',
      path: '/dashboard/api/session/probe',
      auth: 'none',
      doc: doc('Whether this browser is signed in: the session, or null'),
      handler: (ctx) => {
        const record = sessions.find(read_cookie(ctx.headers.cookie, session_cookie));
        const actor = record === null ? undefined : engine.accounts.get(record.account_id);
        // A session of an agent since suspended or closed opens no desk: the app shows why on its sign-in page.
        const refused = actor === undefined ? null : session_refusal(engine, actor.account);
        if (record === null || actor === undefined || refused !== null) {
          return success_reply(ctx.request_id, 200, { session: null, refused: refused === null || refused.code === 'session.required' ? null : { code: refused.code, message: refused.message ?? suspended_message } });
        }
        return success_reply(ctx.request_id, 200, { session: session_view(record, actor) });
      },
    },
    {
      method: 'delete',
      path: '/dashboard/api/session',
      auth: 'session',
      doc: doc('Sign out'),
      handler: (ctx) => {
        sessions.close(ctx.session_id!);
        ctx.extra_headers.push(['Set-Cookie', clear_cookie_header(secure)]);
        const reply = success_reply(ctx.request_id, 200, null, 'Signed out.');
        return engine.journal.durable().then(() => reply);
      },
    },
    { method: 'get', path: '/dashboard/api/overview', auth: 'session', doc: doc('Balances, today\'s spend against the daily limit, recent orders'), handler: overview },
    {
      method: 'get',
      path: '/dashboard/api/orders',
      auth: 'session',
      doc: doc('Orders, searched by reference or recipient, filtered by service, status and Africa/Lagos dates'),
      handler: async (ctx) => {
        const params = query_params(ctx);
        const paging = parse_pagination(params);
        if ('code' in paging) return error_reply(ctx.request_id, paging);
        const query = parse_order_query(params, dashboard_order_query);
        if ('code' in query) return error_reply(ctx.request_id, query);
        // Read before the wait: an order staged meanwhile is not in the store yet (regression: the trend
        // read it after, and its binary search found an order missing below the count: exit 70).
        const orders_count = ctx.actor!.wallets[ctx.environment].orders_count;
        await ctx.actor!.settled();
        const found = await search_orders(ctx, query, orders_count, paging.page, paging.per_page);
        return success_reply(ctx.request_id, 200, {
          orders: found.orders.map(dashboard_order_view),
          pagination: pagination(found.total, paging.per_page, paging.page),
          truncated: found.truncated,
        });
      },
    },
    {
      method: 'get',
      path: '/dashboard/api/trend',
      auth: 'session',
      doc: doc('Spend and order count per Africa/Lagos day for the last 30 days, by service, and the success rate'),
      handler: async (ctx) => {
        const actor = ctx.actor!;
        const environment = ctx.environment;
        // Read before the wait, as every count a range read relies on (see the orders list).
        const orders_count = actor.wallets[environment].orders_count;
        await actor.settled();
        const today = lagos_day(clock.now_ms());
        const first_day = today - trend_days + 1;
        const services: readonly ServiceType[] = service_type_names;
        const days = Array.from({ length: trend_days }, (_, i) => ({
          date: new Date((first_day + i) * 86_400_000).toISOString().slice(0, 10),
          spend_kobo: Object.fromEntries(services.map((name) => [name, 0])) as Record<ServiceType, number>,
          orders: Object.fromEntries(services.map((name) => [name, 0])) as Record<ServiceType, number>,
        }));
        let delivered = 0;
        let failed = 0;
        let read = 0;
        let truncated = false;
        const filter = { service: null, status: null, from_day: first_day, to_day: today };
        const [low, high] = seq_range(engine.store, actor.id, environment, orders_count, filter);
        // Newest first, dashboard_slice_rows orders per event-loop turn (regression: 20,000 in one step).
        for (let below = high; below >= low; ) {
          if (read >= trend_orders_max) {
            truncated = true;
            break;
          }
          if (read > 0) {
            await next_turn();
            if (ctx.aborted) break;
          }
          const bottom = Math.max(low, below - dashboard_slice_rows + 1, below - (trend_orders_max - read) + 1);
          for (const { value } of engine.store.orders.getRange({ start: [actor.id, environment, below], end: [actor.id, environment, bottom - 1], reverse: true })) {
            const stored = value as OrderRecord;
            const order = actor.open_orders.get(stored.reference) ?? stored;
            read++;
            const day = days[lagos_day(Math.floor(order.created_us / 1000)) - first_day];
            if (day === undefined) continue;
            day.orders[order.service_type] += 1;
            // Spend is what stayed debited: failed orders were refunded.
            if (order.status !== 'failed') day.spend_kobo[order.service_type] += charged_kobo(order);
            if (order.status === 'delivered') delivered += 1;
            else if (order.status === 'failed') failed += 1;
          }
          below = bottom - 1;
        }
        return success_reply(ctx.request_id, 200, {
          days: days.map((d) => ({
            date: d.date,
            spend: Object.fromEntries(services.map((name) => [name, kobo_to_naira(d.spend_kobo[name])])),
            orders: d.orders,
          })),
          delivered,
          failed,
          // Of the orders that finished: null while none has.
          success_rate: delivered + failed === 0 ? null : Math.round((delivered * 1000) / (delivered + failed)) / 10,
          truncated,
        });
      },
    },
    {
      method: 'get',
      path: '/dashboard/api/export/orders',
      auth: 'session',
      doc: { ...doc('The filtered orders as CSV (a download)'), content_type: 'text/csv' },
      handler: async (ctx) => {
        const query = parse_order_query(query_params(ctx), dashboard_order_query);
        if ('code' in query) return error_reply(ctx.request_id, query);
        const actor = ctx.actor!;
        const orders_count = actor.wallets[ctx.environment].orders_count;
        await actor.settled();
        const filter = query.filter;
        const filename = `billvend-${ctx.environment}-orders.csv`;
        const named = query.q === null ? null : named_order(ctx, query.q, filter);
        if (named !== null) return csv_reply(filename, [csv_line(order_export_header), ...named.map(order_export_line)].join(''));
        // Streamed as the API's export is (front/streamed-reply.ts): backpressure, one slice per turn.
        return { ...csv_reply(filename, csv_line(order_export_header)), stream: orders_export_stream(engine.store, actor, ctx.environment, orders_count, filter, query.q) };
      },
    },
    {
      method: 'get',
      path: '/dashboard/api/export/wallet',
      auth: 'session',
      doc: { ...doc('The filtered wallet history as CSV (a download)'), content_type: 'text/csv' },
      handler: async (ctx) => {
        const query = parse_wallet_query(query_params(ctx));
        if ('code' in query) return error_reply(ctx.request_id, query);
        const actor = ctx.actor!;
        const entries_count = actor.wallets[ctx.environment].entries_count;
        await actor.settled();
        // Streamed as the API's export is (front/streamed-reply.ts): backpressure, one slice per turn.
        return { ...csv_reply(`billvend-${ctx.environment}-wallet.csv`, csv_line(wallet_export_header)), stream: wallet_export_stream(engine.store, actor, ctx.environment, query, entries_count) };
      },
    },
    {
      method: 'get',
      path: '/dashboard/api/orders/:reference',
      auth: 'session',
      doc: doc('One order with its status history'),
      handler: async (ctx) => {
        const order = desk.find(ctx.params.reference);
        const actor = ctx.actor!;
        if (order === null || order.account_id !== actor.id || order.environment !== ctx.environment) return error_reply(ctx.request_id, api_error('transaction.not_found'));
        await actor.settled();
        return success_reply(ctx.request_id, 200, order_full_view(desk.find(order.reference) ?? order, deps.secret_box));
      },
    },
    {
      method: 'get',
      path: '/dashboard/api/wallet/transactions',
      auth: 'session',
      doc: doc('Wallet history of the environment, filtered by entry type and Africa/Lagos dates'),
      handler: async (ctx) => {
        const params = query_params(ctx);
        const paging = parse_pagination(params);
        if ('code' in paging) return error_reply(ctx.request_id, paging);
        const query = parse_wallet_query(params);
        if ('code' in query) return error_reply(ctx.request_id, query);
        const actor = ctx.actor!;
        const entries_count = actor.wallets[ctx.environment].entries_count;
        await actor.settled();
        const found = await find_wallet_entries(engine.store, actor, ctx.environment, query, entries_count, paging.page, paging.per_page, () => ctx.aborted);
        return success_reply(ctx.request_id, 200, {
          transactions: found.entries.map(wallet_entry_view),
          pagination: pagination(found.total, paging.per_page, paging.page),
          truncated: found.truncated,
        });
      },
    },
    {
      method: 'get',
      path: '/dashboard/api/funding',
      auth: 'session',
      doc: doc('How to fund the live wallet: the operator\'s bank account and the account ID to quote'),
      handler: (ctx) => {
        const actor = ctx.actor!;
        const bank = deps.config.funding_bank;
        return success_reply(ctx.request_id, 200, {
          bank: bank === null ? null : { bank_name: bank.bank_name, account_number: bank.account_number, account_name: bank.account_name },
          // The bank partner's notification names the account by its id (docs/api.md "Funding"): it is
          // the reference a transfer must quote.
          funding_reference: String(actor.id),
          live_balance: kobo_to_naira(actor.wallets.live.balance_kobo),
          // The reseller's own dedicated bank accounts (docs/funding.md), as GET /v1/funding/accounts shows them.
          dedicated_accounts: funding === null || !funding.configured ? [] : funding_rows_view(funding.rows(actor.id)).accounts,
        });
      },
    },
    {
      method: 'get',
      path: '/dashboard/api/keys',
      auth: 'session',
      doc: doc('Active API keys of both environments'),
      handler: (ctx) => success_reply(ctx.request_id, 200, { keys: ctx.actor!.active_keys().map((k) => key_view(k.record)) }),
    },
    {
      method: 'post',
      path: '/dashboard/api/keys',
      auth: 'session',
      body: DashboardKeyBody,
      idempotent: false,
      doc: doc('Create an API key; the secret is shown once'),
      handler: (ctx) => {
        const body = ctx.body as Static<typeof DashboardKeyBody>;
        const checked = check_key_request(body, clock.now_ms());
        if ('code' in checked) return error_reply(ctx.request_id, checked);
        const actor = ctx.actor!;
        return once_durable(create_key_reply(deps, actor, ctx.request_id, {
          name: body.name,
          environment: body.environment,
          scopes: (body.scopes ?? ['*']) as ScopeName[],
          ip_allowlist: checked.ip_allowlist,
          rate_limit_per_minute: 60,
          expires_ms: checked.expires_ms,
        }), actor.settled());
      },
    },
    {
      method: 'delete',
      path: '/dashboard/api/keys/:id',
      auth: 'session',
      doc: doc('Revoke an API key'),
      handler: (ctx) => {
        const id = parse_id(ctx.params.id);
        const actor = ctx.actor!;
        const outcome = id === null ? null : engine.run(actor, { kind: 'revoke_key', key_id: id }, clock.now_us());
        if (outcome === null || !outcome.ok) return refusal_reply(ctx.request_id, outcome?.ok === false ? outcome.refused : { refusal: 'key_not_found' });
        return once_durable(success_reply(ctx.request_id, 200, null, 'API key revoked.'), actor.settled());
      },
    },
    {
      method: 'get',
      path: '/dashboard/api/webhooks',
      auth: 'session',
      doc: doc('Webhook endpoints of the environment, with the event kinds an endpoint can receive'),
      handler: (ctx) => success_reply(ctx.request_id, 200, {
        webhooks: endpoints_of(dispatcher.endpoints, ctx.actor!, ctx.environment).map((e) => endpoint_view(e.record, clock.now_us())),
        event_kinds: offered_event_kinds,
        default_event_kinds: offered_default_event_kinds,
      }),
    },
    {
      method: 'post',
      path: '/dashboard/api/webhooks',
      auth: 'session',
      body: CreateWebhookBody,
      idempotent: false,
      doc: doc('Register a webhook endpoint; the secret is shown once'),
      handler: async (ctx) => {
        const actor = ctx.actor!;
        const environment = ctx.environment;
        const checked = await register_endpoint(deps, actor, environment, ctx.body as Static<typeof CreateWebhookBody>);
        if ('error' in checked) return error_reply(ctx.request_id, checked.error);
        const outcome = create_endpoint(dispatcher.endpoints, actor, environment, checked.url, checked.events, checked.description, clock.now_us());
        if (!outcome.ok) return error_reply(ctx.request_id, outcome.error);
        return once_durable(success_reply(ctx.request_id, 201, { ...endpoint_view(outcome.value.record, clock.now_us()), secret: outcome.value.secret }, 'Save this webhook secret now: it is shown only once.'), actor.settled());
      },
    },
    {
      method: 'delete',
      path: '/dashboard/api/webhooks/:id',
      auth: 'session',
      doc: doc('Delete a webhook endpoint'),
      handler: (ctx) => {
        const id = parse_id(ctx.params.id);
        const actor = ctx.actor!;
        const outcome = id === null ? null : delete_endpoint(dispatcher.endpoints, actor, ctx.environment, id, clock.now_us());
        if (outcome === null || !outcome.ok) return error_reply(ctx.request_id, outcome?.ok === false ? outcome.error : api_error('webhooks.not_found'));
        return once_durable(success_reply(ctx.request_id, 200, null, 'Webhook endpoint deleted.'), actor.settled());
      },
    },
    {
      method: 'get',
      path: '/dashboard/api/webhooks/:id/deliveries',
      auth: 'session',
      doc: doc('Deliveries of an endpoint with their attempts'),
      handler: async (ctx) => {
        const paging = parse_pagination(query_params(ctx));
        if ('code' in paging) return error_reply(ctx.request_id, paging);
        const actor = ctx.actor!;
        const id = parse_id(ctx.params.id);
        const endpoint = id === null ? undefined : dispatcher.endpoints.get(actor.id, id);
        if (endpoint === undefined || endpoint.record.environment !== ctx.environment) return error_reply(ctx.request_id, api_error('webhooks.not_found'));
        await dispatcher.settled(actor);
        const { deliveries, total } = read_deliveries(deps, endpoint.record.id, paging.page, paging.per_page);
        return success_reply(ctx.request_id, 200, { deliveries: deliveries.map(delivery_view), pagination: pagination(total, paging.per_page, paging.page) });
      },
    },
    {
      method: 'get',
      path: '/dashboard/api/webhooks-dead',
      auth: 'session',
      doc: doc('Dead deliveries of this account in the environment'),
      handler: (ctx) => {
        const actor = ctx.actor!;
        // From the dispatcher's per-account index: other tenants' dead deliveries are never read.
        const mine: DeliveryRecord[] = dispatcher.dead_of(actor.id, ctx.environment, dead_listed_max);
        return success_reply(ctx.request_id, 200, { deliveries: mine.map(delivery_view) });
      },
    },
    {
      method: 'post',
      path: '/dashboard/api/webhooks/:id/deliveries/:delivery_id/replay',
      auth: 'session',
      idempotent: false,
      doc: doc('Replay a delivery'),
      handler: (ctx) => {
        const actor = ctx.actor!;
        const id = parse_id(ctx.params.id);
        const delivery_id = parse_id(ctx.params.delivery_id);
        if (id === null) return error_reply(ctx.request_id, api_error('webhooks.not_found'));
        if (delivery_id === null) return error_reply(ctx.request_id, api_error('webhooks.delivery_not_found'));
        const outcome = dispatcher.replay(actor, ctx.environment, id, delivery_id);
        if (!outcome.ok) return error_reply(ctx.request_id, outcome.error);
        const reply = success_reply(ctx.request_id, 202, delivery_view(outcome.value), 'Replay scheduled.');
        return once_durable(reply, dispatcher.settled(actor));
      },
    },
    {
      method: 'post',
      path: '/dashboard/api/pin',
      auth: 'session',
      body: PinBody,
      idempotent: false,
      doc: doc('Set or change the transaction PIN, with the current PIN or the password'),
      handler: async (ctx) => {
        const actor = ctx.actor!;
        const body = ctx.body as Static<typeof PinBody>;
        const now_ms = clock.now_ms();
        if (body.current_pin !== undefined && actor.account.pin_hash !== null) {
          const generation = actor.account.pin_generation;
          const correct = actor.pin_lock_remaining_ms(now_ms) > 0 ? false : await engine.pin_cache.verify(actor.id, generation, body.current_pin, actor.account.pin_hash);
          if (correct === 'busy') return refusal_reply(ctx.request_id, { refusal: 'pin_check_busy' });
          const verdict = engine.run(actor, { kind: 'pin_verdict', correct, generation, now_ms: clock.now_ms() });
          if (verdict === 'stale') return error_reply(ctx.request_id, api_error('pin.incorrect', 'The PIN changed meanwhile; try again.'));
          if (verdict !== 'ok') return once_durable(refusal_reply(ctx.request_id, verdict), actor.settled());
        } else if (body.password !== undefined) {
          // In the password lane, as a sign-in's (regression: it ran beside the lanes, unbounded).
          const correct = actor.password_lock_remaining_ms(now_ms) > 0 ? false : await deps.hash_lanes.password.verify(body.password, actor.account.password_hash);
          if (correct === 'busy') return error_reply(ctx.request_id, password_check_busy_error());
          const verdict = engine.run(actor, { kind: 'password_verdict', correct, now_ms: clock.now_ms() });
          if (verdict !== 'ok') return once_durable(refusal_reply(ctx.request_id, verdict), actor.settled());
        } else {
          const field = actor.account.pin_hash === null ? 'password' : 'current_pin';
          return error_reply(ctx.request_id, invalid(field, 'is required'));
        }
        // The new PIN's hash in the PIN lane, as every PIN's scrypt (regression: it ran beside the lanes,
        // and 300 changes at once with the cached current PIN took another tenant's p99 to 2.3 s).
        const pin_hash = await deps.hash_lanes.pin.hash(body.new_pin);
        if (pin_hash === 'busy') return refusal_reply(ctx.request_id, { refusal: 'pin_check_busy' });
        engine.run(actor, { kind: 'set_pin', pin_hash });
        return once_durable(success_reply(ctx.request_id, 200, { pin_set: true }, 'Transaction PIN saved.'), actor.settled());
      },
    },
  ];
}

export type { Environment };
