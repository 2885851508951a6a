// The composition root of a serving node: recovers the store, builds the engine, the services, the
// webhooks and the dashboard over it, wires the metrics, opens the operator front end then the public one,
// and starts the background sweeps and syncs (docs/operations.md). A single node serves at once; a
// cluster node once it leads (cluster-standby.ts). Its stop() is the shutdown order: drain, then close.
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { ensure_order_index } from '../engine/order-index.js';
import { TimerWheel } from '../lib/timer-wheel.js';
import { HashLane, scrypt_now, type HashLanes } from '../lib/secrets.js';
import { Engine } from '../engine/engine.js';
import { DiskGuard } from '../journal/disk-guard.js';
import { IdempotencySweeper } from '../engine/idempotency.js';
import { Metrics, counting_sink } from '../operator/metrics.js';
import { HttpFront } from '../front/http-server.js';
import { BodyBudget } from '../front/request-body.js';
import { authenticate_api_key, client_ip, forwarded_https } from '../front/auth.js';
import { api_error, type ApiError } from '../errors.js';
import { success_reply } from '../lib/reply.js';
import type { Deps } from '../front/deps.js';
import type { RequestContext, RouteDef } from '../front/route.js';
import { account_routes } from '../front/routes/account-routes.js';
import { key_routes } from '../front/routes/key-routes.js';
import { agent_routes } from '../front/routes/agent-routes.js';
import { admin_routes } from '../operator/admin-routes.js';
import { build_openapi } from '../front/openapi.js';
import { seed_demo } from '../operator/demo.js';
import { Catalog } from '../services/catalog.js';
import { CatalogSync, sync_upstream_of } from '../services/catalog-sync.js';
import { SandboxProvider } from '../services/sandbox-provider.js';
import { UnconfiguredProvider } from '../services/live-provider.js';
import { build_router } from '../services/upstreams/live-upstreams.js';
import { reseal_pin_tokens } from '../engine/pin-token-migration.js';
import type { UpstreamRouter } from '../services/upstreams/router.js';
import { upstream_admin_routes, announce_status_changes } from '../operator/upstream-routes.js';
import { OrderDesk } from '../services/order-desk.js';
import { PhoneNetworks } from '../services/phone-networks.js';
import { lookup_routes } from '../front/routes/lookup-routes.js';
import { PriceLists } from '../services/pricing.js';
import { pricing_admin_routes } from '../operator/pricing-routes.js';
import { service_routes } from '../front/routes/service-routes.js';
import { bulk_routes } from '../front/routes/bulk-routes.js';
import { BatchDesk } from '../services/bulk/batch-desk.js';
import { RegistryItemPurchaser } from '../services/bulk/item-purchaser.js';
import { service_status_routes } from '../front/routes/service-status-routes.js';
import { transaction_routes } from '../front/routes/transaction-routes.js';
import { order_care_routes } from '../front/routes/order-care-routes.js';
import { order_care_session_routes } from '../dashboard/order-care-routes.js';
import { event_routes } from '../front/routes/event-routes.js';
import { catalog_admin_routes } from '../operator/catalog-routes.js';
import { remembered_error } from '../front/remembered.js';
import { SignerPool } from '../webhooks/signer-pool.js';
import { Dispatcher } from '../webhooks/dispatcher.js';
import { EndpointRegistry } from '../webhooks/endpoint-registry.js';
import { Outbox } from '../webhooks/outbox.js';
import { EventFeed } from '../webhooks/event-feed.js';
import { webhook_routes } from '../front/routes/webhook-routes.js';
import { funding_routes } from '../front/routes/funding-routes.js';
import { dedicated_account_routes } from '../front/routes/dedicated-account-routes.js';
import { funding_admin_routes } from '../operator/funding-admin-routes.js';
import { FundingService } from '../services/funding/funding-service.js';
import { build_funding_provider } from '../services/funding/providers.js';
import { make_sandbox_funding_provider } from '../services/funding/sandbox-funding.js';
import { callback_routes } from '../front/routes/callback-routes.js';
import { UpstreamCallbacks } from '../services/upstreams/upstream-callbacks.js';
import { delivery_view } from '../front/routes/webhook-routes.js';
import { SessionStore } from '../dashboard/sessions.js';
import { session_routes } from '../dashboard/session-routes.js';
import { desk_routes } from '../dashboard/desk-routes.js';
import { authorize_session } from '../dashboard/session-auth.js';
import { DashboardRateLimit } from '../dashboard/dashboard-rate-limit.js';
import { StaticSite } from '../dashboard/static-files.js';
import type { ClusterNode } from '../cluster/cluster-node.js';
import { cluster_routes } from '../operator/probe-routes.js';
import type { Store } from '../journal/store.js';
import { fail } from '../lib/assert.js';
import { refusal_error } from '../front/outcome-errors.js';
import { StatementSigner } from '../services/statement-key.js';
import { warm_up_pdf } from '../services/pdf-document.js';
import { StatementBuilds, statement_admin_routes, statement_routes } from '../front/routes/statement-routes.js';
import { ResendLimit, receipt_routes } from '../front/routes/receipt-routes.js';
import type { Basis } from './server-basis.js';
import type { Server } from './running-server.js';
import { operator_authorize } from './operator-authorize.js';
import { cluster_refused } from './cluster-refusal.js';

/** Recovers the store and serves it: a single node at once, a cluster node once it leads. */
export async function serve_store(config: Config, log: Logger, basis: Basis, store: Store, cluster: ClusterNode | null): Promise<Server> {
  const { store_lock, admin_token, secret_box, clock, random } = basis;
  const metrics = new Metrics();
  const wheel = new TimerWheel({
    clock,
    on_error: (error) => {
      log.fatal({ err: error }, 'a scheduled task failed; exiting');
      process.exit(70);
    },
  });
  let engine_ref: Engine | null = null;
  const disk_guard = new DiskGuard(config.data_dir, config.store_free_bytes_min, 250, (low) => engine_ref?.store_space_changed(low));
  const engine = new Engine(store, clock, random, wheel, secret_box, log, metrics, disk_guard);
  engine_ref = engine;
  // Every scrypt of this server runs in one of these two lanes, whichever route asks (lib/secrets.ts).
  const hash_lanes: HashLanes = {
    password: new HashLane('password', config.sign_in.hash_running_max, config.sign_in.hash_waiting_max),
    pin: new HashLane('pin', config.pin_hash_running_max, config.pin_hash_waiting_max),
  };
  engine.pin_cache.use_lane(hash_lanes.pin);
  // Cluster mode: every group commit is replicated before it counts as durable (src/cluster/).
  engine.journal.appender = cluster;
  if (disk_guard.is_low) engine.store_space_changed(true);
  metrics.gauge('billvend_store_disk_free_bytes', 'Free space on the store\'s disk, in bytes (-1 when unknown); below STORE_FREE_BYTES_MIN writes are refused.', () => (Number.isFinite(disk_guard.free) ? disk_guard.free : -1));
  const deps: Deps = { engine, clock, random, wheel, config, log, metrics, secret_box, hash_lanes };
  const catalog = new Catalog(store);
  const pricing = new PriceLists(store, catalog);
  // What VTpass sells, read at start and on a schedule (docs/operations.md "Catalog sync").
  const catalog_sync = new CatalogSync(catalog, engine.journal, store, clock, log, sync_upstream_of(config.upstreams));
  metrics.counter('billvend_catalog_changes_total', 'Catalog items the upstream sync added (disabled) or disabled (vanished upstream, or dearer upstream than our price), since start.', () => catalog_sync.counts.changes_total.new + catalog_sync.counts.changes_total.vanished + catalog_sync.counts.changes_total.price_above);
  metrics.counter('billvend_catalog_disabled_total', 'Catalog items the upstream sync disabled since start (vanished upstream, or dearer upstream than our price).', () => catalog_sync.counts.changes_total.vanished + catalog_sync.counts.changes_total.price_above);
  metrics.gauge('billvend_catalog_drift_items', 'Items out of step with the upstream after the last sync: new and not yet enabled, vanished, or dearer upstream (GET /admin/catalog/drift).', () => catalog_sync.counts.drift_items);
  metrics.counter('billvend_catalog_sync_failures_total', 'Catalog syncs in which some service\'s variations could not be read, since start.', () => catalog_sync.counts.runs_failed_total);
  metrics.upstreams_configured(config.upstreams.map((u) => u.name));
  const router: UpstreamRouter | null = config.upstreams.length === 0 ? null : build_router(config.upstreams, store, catalog, clock, wheel, log, metrics, (account_id) => engine.accounts.get(account_id)?.account.phone ?? null, (account_id) => engine.accounts.get(account_id)?.account.email ?? null);
  // Dedicated-account funding (docs/funding.md): each FUNDING_PROVIDERS entry through its kind's module.
  const funding_providers = config.funding_providers.map((entry) => build_funding_provider(entry, () => clock.now_ms()));
  const funding = new FundingService(deps, secret_box, funding_providers, (tier) => pricing.funding_fee_bearer(tier), {
    exception: () => {},
    credited: () => {},
  });
  metrics.counter('billvend_funding_exceptions_total', 'Funding provider transfers recorded as exceptions (not credited automatically) since start: GET /admin/funding/exceptions.', () => funding.exceptions_recorded);
  const sandbox_funding = make_sandbox_funding_provider(() => clock.now_ms());
  const desk = new OrderDesk(deps, {
    test: new SandboxProvider(wheel, clock),
    live: router ?? new UnconfiguredProvider(),
  }, pricing, PhoneNetworks.load(engine.journal, store, config.ported_numbers_max));
  // Late changes from the upstreams: callbacks and the 24 h re-query of delivered orders (docs/upstreams.md).
  const callbacks = new UpstreamCallbacks(deps, desk, router, config.upstreams, metrics);
  desk.refund_observer = (environment, duration_ms) => metrics.refund_took(environment, duration_ms);
  const signer = new SignerPool();
  const dispatcher = new Dispatcher(deps, new EndpointRegistry(engine), signer, { allow_private: config.webhook_allow_private_targets, timeout_ms: config.webhook_timeout_ms });
  if (router !== null) announce_status_changes(deps, router, dispatcher.endpoints);
  // Webhook endpoints load first, so that events the order desk emits while resuming reach them.
  // Bulk orders (src/services/bulk/): the batch desk follows the orders' final events, so it resumes
  // after the order desk has loaded the open orders.
  const batches: BatchDesk = new BatchDesk(engine, (reference) => item_purchaser.status_of(reference));
  const item_purchaser: RegistryItemPurchaser = new RegistryItemPurchaser(catalog, desk, batches.capture_placed, refusal_error);
  engine.extensions.push(dispatcher, desk, batches, callbacks);
  const event_feed = new EventFeed(engine);
  const outbox = new Outbox(engine, dispatcher, event_feed);
  engine.event_sink = batches.sink(counting_sink(metrics, outbox));
  const sessions = new SessionStore(engine, wheel, clock);
  const dashboard_limits = new DashboardRateLimit(config.dashboard_rate);
  const site = new StaticSite();
  // Gauges read counts kept as they change: walking every account took 37-70 ms per scrape at a
  // million accounts (docs/benchmarks.md "Scale").
  engine.accounts.resident_max = config.actors_resident_max;
  metrics.gauge('billvend_actors_in_memory', 'Account actors held in memory.', () => engine.accounts.size);
  metrics.gauge('billvend_actors_loaded', 'Account actors built from the store since start (first use after start or after being let go).', () => engine.accounts.loads);
  metrics.gauge('billvend_actors_evicted', 'Idle account actors let go since start (ACTORS_RESIDENT_MAX).', () => engine.accounts.evictions);
  // The same two counts as counters named _total, as Prometheus names what only grows; the gauges above stay
  // because docs/operations.md listed them (deprecated there).
  metrics.counter('billvend_actors_loaded_total', 'Account actors built from the store since start (first use after start or after being let go).', () => engine.accounts.loads);
  metrics.counter('billvend_actors_evicted_total', 'Idle account actors let go since start (ACTORS_RESIDENT_MAX).', () => engine.accounts.evictions);
  metrics.wallet_balances(engine.wallet_totals);
  metrics.gauge('billvend_open_orders', 'Orders waiting for the provider\'s final answer (pending or processing).', () => engine.counts.open_orders);
  metrics.gauge('billvend_ported_numbers', 'Numbers the ported-number table holds: learned from live deliveries on a network other than their prefix\'s (PORTED_NUMBERS_MAX).', () => desk.numbers.ported.size);
  metrics.counter('billvend_ported_numbers_refused_total', 'Ported numbers not learned since start because the table held PORTED_NUMBERS_MAX numbers.', () => desk.numbers.ported.refused);
  metrics.gauge('billvend_timers_pending', 'Timers waiting on the timer wheel (retries, re-queries, expiries).', () => wheel.size);
  metrics.counter('billvend_reads_waited_total', 'Reads (GET requests) of an account whose answer waited for a commit of that account\'s changes.', () => engine.counts.reads_waited);
  metrics.gauge('billvend_api_keys_active', 'API keys that are not revoked, across accounts.', () => engine.counts.api_keys_active);
  // scrypt counted where it runs (lib/secrets.ts), not by lane: a route that ran it beside the lanes
  // would show as a peak above the lanes' running_max together.
  metrics.gauge('billvend_scrypt_running', 'scrypt runs (password and PIN hashes and checks) on the thread pool now.', () => scrypt_now().running);
  metrics.gauge('billvend_scrypt_running_peak', 'The most scrypt runs at once since start; at most SIGN_IN_HASH_RUNNING_MAX + PIN_HASH_RUNNING_MAX.', () => scrypt_now().running_peak);
  metrics.counter('billvend_scrypt_runs_total', 'scrypt runs started since start.', () => scrypt_now().started);
  metrics.counter('billvend_password_hash_refused_total', 'Password scrypt runs refused (429) because the password lane was full.', () => hash_lanes.password.refused);
  metrics.counter('billvend_pin_hash_refused_total', 'PIN scrypt runs refused (429) because the PIN lane was full.', () => hash_lanes.pin.refused);
  metrics.counter('billvend_dashboard_rate_limited_total', 'Dashboard changes and costly reads refused (429) by the per-session or per-account rate limit.', () => dashboard_limits.refused);

  let draining = false;
  const accepting = (): ApiError | null => {
    const cluster_refusal = cluster_refused(cluster);
    if (cluster_refusal !== null) return cluster_refusal;
    if (draining) return api_error('service.unavailable', 'The server is shutting down; retry shortly.', { headers: { 'Retry-After': '1' } });
    if (engine.degraded) return api_error('service.unavailable', 'The store cannot take writes right now; retry shortly.', { headers: { 'Retry-After': '5' } });
    if (engine.journal.overloaded) return api_error('service.unavailable', 'The journal is saturated; retry shortly.', { headers: { 'Retry-After': '1' } });
    return null;
  };

  // Statements are signed with the store's key, read once the store is recovered (below).
  const statement_builds = new StatementBuilds(config.statements);

  // One budget of body bytes for every front end of the process (docs/operations.md REQUEST_BODIES_BYTES_MAX).
  const body_budget = new BodyBudget(config.request_bodies_bytes_max);
  metrics.gauge('billvend_request_body_bytes_held', 'Request body bytes held at once across requests in flight; past REQUEST_BODIES_BYTES_MAX a request is answered 503.', () => body_budget.held);

  // The operator API comes up first, so /healthz answers and /readyz says 503 during recovery.
  const operator_front = new HttpFront({
    name: 'operator',
    routes: admin_routes(deps, [
      ...(cluster === null ? [] : cluster_routes(() => cluster.status())),
      ...catalog_admin_routes(deps, catalog, desk, catalog_sync),
      ...pricing_admin_routes(deps, pricing),
      ...upstream_admin_routes(deps, router, catalog),
      ...statement_admin_routes(deps, desk, statement_builds),
      ...funding_admin_routes(deps, funding),
      {
        method: 'get',
        path: '/admin/webhooks/dead',
        auth: 'operator',
        doc: { summary: 'Dead webhook deliveries across accounts, newest first', tags: ['Operator'] },
        handler: (ctx) => success_reply(ctx.request_id, 200, {
          deliveries: dispatcher.dead().map((d) => ({ account_id: d.account_id, environment: d.environment, ...delivery_view(d) })),
        }),
      },
    ]),
    log,
    clock,
    metrics,
    cors_origins: [],
    authorize: operator_authorize(admin_token),
    client_ip: (peer) => peer,
    reads_forwarded_for: false,
    accepting: () => (draining || cluster_refused(cluster) !== null ? accepting() : null),
    body_budget,
  });
  const admin_port = await operator_front.listen(config.admin_host, config.admin_port);

  // One key read is enough to know: getKeysCount counts every account whatever its limit option
  // (1.2 s at a million accounts, docs/benchmarks.md "Scale").
  let store_was_empty = true;
  for (const _ of store.accounts.getKeys({ limit: 1 })) store_was_empty = false;
  const indexed_orders = ensure_order_index(store);
  if (indexed_orders > 0) log.info({ orders: indexed_orders }, 'order index built');
  const resealed = reseal_pin_tokens(store, secret_box);
  if (resealed > 0) log.warn({ orders: resealed }, 'PINs earlier versions kept in the token of exam and internet orders moved into their sealed pins');
  engine.recover();
  // The sum of the wallets' balances: scanned a slice per turn from now on, while the server serves
  // (engine/wallet-totals.ts); /metrics reports it once the scan is complete.
  engine.start_wallet_totals();
  // The statement signing key: made on the first start, sealed in the store (docs/decisions.md "Statements").
  statement_builds.signer = StatementSigner.load_or_create(store, engine.journal, secret_box, clock.now_us());
  // pdfkit's first document loads its fonts: here, before any request, not inside the first statement's build.
  await warm_up_pdf();
  await engine.journal.durable();

  const public_routes: RouteDef[] = [
    ...account_routes(deps),
    ...key_routes(deps),
    ...agent_routes(deps, pricing, desk),
    ...service_routes(deps, catalog, desk),
    ...lookup_routes(desk.numbers),
    ...bulk_routes(deps, batches, item_purchaser),
    ...service_status_routes(deps, router, catalog),
    ...transaction_routes(deps, desk),
    ...order_care_routes(deps, desk),
    ...order_care_session_routes(deps, desk),
    ...webhook_routes(deps, dispatcher),
    ...event_routes(deps, event_feed),
    ...statement_routes(deps, desk, statement_builds),
    ...receipt_routes(deps, desk, outbox, new ResendLimit()),
    ...funding_routes(deps),
    ...dedicated_account_routes(deps, funding, sandbox_funding),
    ...callback_routes(deps, router === null ? null : callbacks),
    ...session_routes(deps, sessions, desk, dispatcher, funding),
    ...site.routes(),
  ];
  public_routes.push(...desk_routes(public_routes));
  let openapi_body = '';
  public_routes.push({
    method: 'get',
    path: '/v1/openapi.json',
    auth: 'none',
    doc: { summary: 'This OpenAPI document', tags: ['Documentation'], content_type: 'application/json' },
    handler: () => ({ status: 200, body: openapi_body, headers: [['Cache-Control', 'no-cache'], ['Access-Control-Allow-Origin', '*']], content_type: 'application/json; charset=utf-8' }),
  });
  const public_front = new HttpFront({
    name: 'public',
    routes: public_routes,
    log,
    clock,
    metrics,
    cors_origins: config.cors_origins,
    authorize: (ctx: RequestContext) => {
      // A cluster node that lost its lease answers nothing from its (now stale) memory, reads included.
      const cluster_refusal = cluster_refused(cluster);
      if (cluster_refusal !== null) return cluster_refusal;
      switch (ctx.route?.auth) {
        case 'api_key':
          return authenticate_api_key(engine, clock, ctx);
        case 'session':
          return authorize_session(engine, sessions, dashboard_limits, ctx, clock.now_ms());
        case 'none':
        case undefined:
          return null;
        default:
          fail(`public route ${ctx.route?.name} has auth ${ctx.route?.auth}`);
      }
    },
    client_ip: (peer, forwarded_for) => client_ip(config.trusted_proxies, peer, forwarded_for),
    reads_forwarded_for: config.trusted_proxies.length > 0,
    accepting,
    body_budget,
    remember_error: (ctx, error) => remembered_error(deps, ctx, error),
    served_over_https: (forwarded_proto, peer) => (config.public_base_url ?? '').startsWith('https:') || forwarded_https(config.trusted_proxies, forwarded_proto, peer),
  });
  const port = await public_front.listen(config.host, config.port);
  const public_url = config.public_base_url ?? `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`;
  openapi_body = JSON.stringify(build_openapi(public_routes, public_url), null, 2);

  if (config.demo === 'on' || (config.demo === 'auto' && store_was_empty)) {
    if (engine.account_by_email('demo@billvend.test') === undefined) await seed_demo(deps, public_url);
  }

  // Expired idempotency records and sessions leave the store a bounded batch at a time (scaled by TIME_SCALE).
  const idempotency_sweeper = new IdempotencySweeper(engine);
  wheel.every(60_000, () => {
    const removed = idempotency_sweeper.sweep(clock.now_ms());
    if (removed > 0) log.debug({ removed }, 'idempotency records expired');
  });
  wheel.every(10 * 60_000, () => sessions.sweep());
  catalog_sync.start(wheel);
  callbacks.start();
  funding.start();
  // Events older than 30 days leave the feed the same way (webhooks/event-feed.ts).
  wheel.every(10 * 60_000, () => {
    const removed = event_feed.sweep(clock.now_us());
    if (removed > 0) log.debug({ removed }, 'feed events expired');
  });

  engine.ready = true;
  // Always logged (even at LOG_LEVEL=warn): supervisors, tests and benches read the ports from it.
  log.child({}, { level: log.level === 'silent' ? 'silent' : 'info' }).info({ port, admin_port, data_dir: config.data_dir, time_scale: clock.time_scale }, 'listening');
  // Production logging buffers 4 KiB before writing: push this line out now.
  log.flush();

  return {
    port,
    admin_port,
    deps,
    async stop() {
      draining = true;
      await public_front.drain();
      await operator_front.drain();
      await engine.journal.drain();
      await cluster?.stop();
      dispatcher.stop();
      await signer.close();
      disk_guard.stop();
      wheel.stop();
      public_front.close();
      operator_front.close();
      await store.root.close();
      store_lock.release();
    },
  };
}
