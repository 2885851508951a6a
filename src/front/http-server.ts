// The uWebSockets.js front end: listening, routing each request through its stages and writing the
// answer. Its rules (uWS user manual): always attach onAborted; read every
// header before the first await (the request object dies with the handler); copy onData chunks
// (uWS reuses their memory); cork every write made after an await; never touch res after abort or end.
// One stage per file: front-route.ts (routes compiled once), front-request.ts (a request's context),
// header-refusal.ts (headers refused up front), cors.ts, request-body.ts (reading a bounded body),
// json-body.ts and json-depth.ts (parsing and validating it), request-failure.ts (500, 503 and the exit on
// a broken invariant), status-lines.ts, security-headers.ts and streamed-reply.ts (writing the answer).
import * as uWS from 'uWebSockets.js';
import type { Logger } from 'pino';
import type { Clock } from '../lib/clock.js';
import { new_request_id } from '../lib/ids.js';
import { api_error, type ApiError } from '../errors.js';
import { error_reply, type Reply } from '../lib/reply.js';
import type { CompiledRoute, RequestContext, RouteDef } from './route.js';
import type { Metrics, RouteStats } from '../operator/metrics.js';
import { free_port, free_port_attempts_max } from '../lib/free-port.js';
import { compile_routes, no_needs, type FrontRoute } from './front-route.js';
import { FrontRequest, read_headers } from './front-request.js';
import { duplicated_content_length, header_refusal, transfer_encoding_refusal, unframed_transfer_encoding } from './header-refusal.js';
import { allowed_origin, cors_headers, preflight_headers } from './cors.js';
import { body_bytes_max, declares_too_large, read_body, type BodyBudget } from './request-body.js';
import { parse_body } from './json-body.js';
import { exit_on_assertion, failure_reply, is_store_refusal } from './request-failure.js';
import { status_lines } from './status-lines.js';
import { header_line, hsts_tail, json_header_block_for, raw_reply_security_tail, sets_cache_control, sets_policy } from './security-headers.js';
import { stream_body } from './streamed-reply.js';

// Exported where they were before the split, for the importers of this module.
export { body_bytes_max } from './request-body.js';
export { json_depth, json_depth_max } from './json-depth.js';

/** uWS's LIBUS_LISTEN_EXCLUSIVE_PORT; its typings declare the enum, but the module does not export it. */
const listen_exclusive_port = 1;

/** The answer past the process's budget of body bytes (request-body.ts BodyBudget). */
const bodies_over_budget = api_error('service.unavailable', 'Too many request bodies are being received at once; retry shortly.', { headers: { 'Retry-After': '1' } });

/** The 413 of a route: a route with its own limit (RouteDef.body_bytes_max) names it. */
function too_large(route: CompiledRoute): ApiError {
  const limit = route.body_bytes_max;
  return limit === undefined ? api_error('request.too_large') : api_error('request.too_large', `The request body is larger than ${limit / 1024} KiB.`);
}

export interface FrontOptions {
  name: string;
  routes: RouteDef[];
  log: Logger;
  clock: Clock;
  metrics: Metrics;
  cors_origins: readonly string[];
  /** Authenticates and authorises by the route's auth mode; sets ctx.key/actor; null when allowed. */
  authorize(ctx: RequestContext): ApiError | null | Promise<ApiError | null>;
  /** Client address: the peer, or X-Forwarded-For when the peer is a trusted proxy. */
  client_ip(peer: string, forwarded_for: string): string;
  /** Whether X-Forwarded-For is read at all (only with trusted proxies). */
  reads_forwarded_for: boolean;
  /** The bytes of request bodies the process holds at once, shared by its front ends (request-body.ts). */
  body_budget: BodyBudget;
  /** Whether to accept state-changing requests now (draining, degraded store): else 503. */
  accepting(ctx: RequestContext): ApiError | null;
  /** Answers a body that fails its schema on an idempotent POST, remembering the answer. */
  remember_error?(ctx: RequestContext, error: ApiError): Reply | Promise<Reply>;
  /**
   * Whether a page request arrived over HTTPS, given its X-Forwarded-Proto and (on demand) its peer:
   * its reply then carries HSTS. Asked only for unauthenticated GETs (pages, documents, redirects).
   */
  served_over_https?(forwarded_proto: string, peer: () => string): boolean;
}

export class HttpFront {
  readonly app: uWS.TemplatedApp;
  readonly routes: FrontRoute[];
  /** Whether request lines are logged at all: decided once, the log object is not built otherwise. */
  private readonly log_requests: boolean;
  private readonly unmatched_stats = new Map<string, RouteStats>();
  private listen_socket: uWS.us_listen_socket | null = null;
  private in_flight = 0;
  private draining = false;
  private drained: (() => void) | null = null;
  private readonly cors: Set<string>;

  constructor(private readonly options: FrontOptions) {
    this.app = uWS.App();
    this.routes = compile_routes(options.name, options.metrics, options.routes);
    this.log_requests = options.log.isLevelEnabled('info');
    this.cors = new Set(options.cors_origins);
    const by_path = new Map<string, FrontRoute[]>();
    for (const route of this.routes) {
      const list = by_path.get(route.path) ?? [];
      list.push(route);
      by_path.set(route.path, list);
    }
    for (const [path, list] of by_path) {
      for (const route of list) {
        const register = route.method === 'delete' ? this.app.del.bind(this.app) : this.app[route.method].bind(this.app);
        register(path, (res, req) => this.handle(res, req, route, null));
        // HEAD is GET without the body (RFC 9110): probes and link checkers use it.
        if (route.method === 'get') this.app.head(path, (res, req) => this.handle(res, req, route, null));
      }
      const allowed = [...new Set(list.flatMap((r) => (r.method === 'get' ? ['GET', 'HEAD'] : [r.method.toUpperCase()])))].join(', ');
      // uWS prefers a method's own handler over `any` for the same pattern, so this sees only the rest.
      this.app.any(path, (res, req) => this.handle(res, req, null, allowed, path));
    }
    this.app.any('/*', (res, req) => this.handle(res, req, null, null));
  }

  /**
   * Listens exclusively: uWS sets SO_REUSEPORT unless told otherwise, which let a second server on the
   * same port take half the connections in silence (docs/operations.md "One process per store").
   * Port 0 is resolved to a free port first, because libusockets sets SO_REUSEADDR only on a named port;
   * without it the connections a killed server leaves in TIME_WAIT kept a restart on the same port
   * from listening for about a minute.
   */
  async listen(host: string, port: number): Promise<number> {
    if (port !== 0) return this.listen_on(host, port);
    for (let attempt = 1; ; attempt++) {
      const free = await free_port(host);
      try {
        return await this.listen_on(host, free);
      } catch (error) {
        // Another process took the port between our probe and our listen: try another one.
        if (attempt >= free_port_attempts_max) throw error;
      }
    }
  }

  private listen_on(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      // uWS takes (host, port, options, handler); its typings list only (port, options, handler).
      const listen = this.app.listen as unknown as (host: string, port: number, options: number, handler: (socket: uWS.us_listen_socket | false) => void) => void;
      listen.call(this.app, host, port, listen_exclusive_port, (socket) => {
        if (!socket) {
          reject(new Error(`${this.options.name}: cannot listen on ${host}:${port} (in use, or not an address of this machine)`));
          return;
        }
        this.listen_socket = socket;
        resolve(uWS.us_socket_local_port(socket));
      });
    });
  }

  /** Stops accepting connections and resolves when every request in flight has been answered. */
  drain(): Promise<void> {
    this.draining = true;
    if (this.listen_socket !== null) {
      uWS.us_listen_socket_close(this.listen_socket);
      this.listen_socket = null;
    }
    if (this.in_flight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.drained = resolve;
    });
  }

  close(): void {
    this.app.close();
  }

  // ---- Per request ------------------------------------------------------------------------------

  private handle(res: uWS.HttpResponse, req: uWS.HttpRequest, route: FrontRoute | null, allowed: string | null, pattern?: string): void {
    const started_perf = performance.now();
    const now_ms = this.options.clock.now_ms();
    const params: Record<string, string> = {};
    if (route !== null) for (let i = 0; i < route.param_names.length; i++) params[route.param_names[i]] = req.getParameter(i) ?? '';
    const method = req.getMethod().toUpperCase();
    // Every header is read here, before any await (the request object dies with this handler).
    const needs = route?.needs ?? no_needs;
    const headers = read_headers(req, method, needs, this.options.reads_forwarded_for);
    const ctx = new FrontRequest(
      new_request_id(now_ms),
      method,
      req.getUrl(),
      req.getQuery() ?? '',
      params,
      headers,
      now_ms,
      started_perf,
      route,
      route?.name ?? (pattern === undefined ? 'unmatched' : `${method} ${pattern}`),
      res,
      this.options.client_ip,
    );
    this.in_flight++;
    res.onAborted(() => {
      ctx.aborted = true;
      this.finish(ctx, 499);
    });
    if (route !== null) {
      ctx.header_refusal = header_refusal(req, headers, route);
      if (needs.conditional && this.options.served_over_https !== undefined) {
        ctx.over_https = this.options.served_over_https(req.getHeader('x-forwarded-proto'), () => Buffer.from(res.getRemoteAddressAsText()).toString());
      }
    }
    const cors_origin = allowed_origin(this.cors, headers.origin);
    if (cors_origin !== null) ctx.extra_headers.push(...cors_headers(cors_origin));
    this.dispatch(res, req, ctx, route, allowed, cors_origin);
  }

  /** Refuses, answers or runs a request whose context is built: the stages before authentication. */
  private dispatch(res: uWS.HttpResponse, req: uWS.HttpRequest, ctx: FrontRequest, route: FrontRoute | null, allowed: string | null, cors_origin: string | null): void {
    const headers = ctx.headers;
    if (headers.content_length !== '' && duplicated_content_length(req)) {
      // uWS frames the body by the first of two differing Content-Length headers, so the rest would
      // run as another request (smuggling). RFC 9112 section 6.3 asks for a 400 and a close, but uWS
      // keeps parsing what is already buffered after a closing answer, and a forced close discards an
      // answer still queued: the connection is closed at once, with no answer, and nothing runs.
      ctx.done = true;
      this.finish(ctx, 400);
      res.close();
      return;
    }
    if (unframed_transfer_encoding(req)) {
      // 400 and close, before the body is read (header-refusal.ts). Answered on the next turn, not now:
      // uWS parses what is buffered behind a synchronous closing answer and would run it as a request,
      // while a request pipelined behind a pending answer makes uWS drop the connection unanswered.
      setImmediate(() => this.send(ctx, error_reply(ctx.request_id, transfer_encoding_refusal()), true));
      return;
    }
    if (ctx.method === 'OPTIONS' && headers.access_control_request_method !== '' && (route !== null || allowed !== null)) {
      this.preflight(ctx, cors_origin, allowed ?? route!.method.toUpperCase());
      return;
    }
    if (route === null) {
      if (allowed !== null) {
        ctx.extra_headers.push(['Allow', allowed]);
        this.send(ctx, error_reply(ctx.request_id, api_error('route.method_not_allowed', `Method ${ctx.method} is not allowed here; allowed: ${allowed}.`)));
      } else {
        this.send(ctx, error_reply(ctx.request_id, api_error('route.not_found', `No route ${ctx.method} ${ctx.url}.`)));
      }
      return;
    }
    if (route.method === 'get' || route.method === 'delete') {
      this.run(ctx, route);
      return;
    }
    const limit = route.body_bytes_max ?? body_bytes_max;
    if (declares_too_large(headers.content_length, limit)) {
      this.send(ctx, error_reply(ctx.request_id, too_large(route)), true);
      return;
    }
    this.authorize_then_read(res, ctx, route, limit);
  }

  /**
   * No body before authentication (docs/api.md "Limits"): the key, session or operator token is checked
   * from the headers, here, before a byte of the body is read, and a refused request is answered at
   * once and its connection closed with its body unread: so the 256 KiB of a bulk order, or any body,
   * is held only for a known caller. All of it runs inside uWS's handler, because onData must be
   * attached before the handler returns (body bytes that came with the headers are delivered right
   * after it). Only an authorisation that must wait (a cluster node taking over) reads the body first.
   */
  private authorize_then_read(res: uWS.HttpResponse, ctx: FrontRequest, route: FrontRoute, limit: number): void {
    // An unread body's connection is closed with the answer: nothing more of it is read.
    const unread_body = ctx.headers.content_length !== '0';
    const authorization = this.authorization_of(ctx);
    if (authorization === undefined) return;
    if (authorization instanceof Promise) {
      const later = authorization;
      this.read(res, ctx, route, limit, () => later.then((error) => this.after_auth(ctx, route, error), (error) => this.fail(ctx, error)));
      return;
    }
    if (authorization !== null) {
      this.send(ctx, error_reply(ctx.request_id, authorization), unread_body);
      return;
    }
    this.read(res, ctx, route, limit, () => this.after_auth(ctx, route, null));
  }

  /** Reads an authorised request's body within the route's limit and the process's body budget. */
  private read(res: uWS.HttpResponse, ctx: FrontRequest, route: FrontRoute, limit: number, on_body: () => void): void {
    read_body(res, ctx, limit, this.options.body_budget, on_body,
      () => this.send(ctx, error_reply(ctx.request_id, too_large(route)), true),
      () => this.send(ctx, error_reply(ctx.request_id, bodies_over_budget), true));
  }

  private preflight(ctx: FrontRequest, origin: string | null, allowed: string): void {
    this.send(ctx, { status: 204, body: '', headers: preflight_headers(origin, allowed), content_type: 'text/plain' });
  }

  /**
   * A request's refusal from its headers alone (front/header-refusal.ts), else the route's authorisation:
   * an error, null (allowed) or one still to come. Undefined: authorize threw, and the request is answered.
   */
  private authorization_of(ctx: FrontRequest): ApiError | null | Promise<ApiError | null> | undefined {
    if (ctx.header_refusal !== null) return ctx.header_refusal;
    try {
      return this.options.authorize(ctx);
    } catch (error) {
      this.fail(ctx, error);
      return undefined;
    }
  }

  private run(ctx: FrontRequest, route: FrontRoute): void {
    const authorization = this.authorization_of(ctx);
    if (authorization === undefined) return;
    if (authorization instanceof Promise) {
      authorization.then((error) => this.after_auth(ctx, route, error), (error) => this.fail(ctx, error));
    } else {
      this.after_auth(ctx, route, authorization);
    }
  }

  private after_auth(ctx: FrontRequest, route: FrontRoute, error: ApiError | null): void {
    if (ctx.aborted) return;
    if (error !== null) {
      this.send(ctx, error_reply(ctx.request_id, error));
      return;
    }
    if (ctx.raw_body !== null && !route.raw_body) {
      const parsed = parse_body(ctx, route);
      if (parsed !== null) {
        this.refuse_body(ctx, route, parsed);
        return;
      }
    } else if (route.body_schema !== null && ctx.raw_body === null) {
      ctx.body = {};
    }
    if (route.method !== 'get') {
      const refusal = this.options.accepting(ctx);
      if (refusal !== null) {
        this.send(ctx, error_reply(ctx.request_id, refusal));
        return;
      }
    }
    this.answer(ctx, route, false);
  }

  private answer(ctx: FrontRequest, route: FrontRoute, again: boolean): void {
    let reply: Reply | Promise<Reply>;
    try {
      reply = route.handler(ctx);
    } catch (error) {
      this.handler_failed(ctx, route, error, again);
      return;
    }
    if (reply instanceof Promise) reply.then((r) => this.send_durable(ctx, route, r, again), (e) => this.handler_failed(ctx, route, e, again));
    else this.send_durable(ctx, route, reply, again);
  }

  /**
   * The one durability gate ("reply once durable", front/durable-reply.ts): a handler's reply leaves once the
   * changes staged for the request's account are durable, as of the moment it answered, with whatever else
   * the route declared (ctx.durable_too). A read (GET) that waits is counted (AccountActor.read_settled). A keyed
   * answer waits here too: its flight stands for the key until the same commit (front/idempotent-run.ts track).
   */
  private send_durable(ctx: FrontRequest, route: FrontRoute, reply: Reply, again: boolean): void {
    const actor = route.account_state === false ? null : ctx.actor;
    let gate = actor === null ? null : ctx.method === 'GET' ? actor.read_settled() : actor.settled();
    if (ctx.durable_too !== null) {
      const all = ctx.durable_too.map((pending) => pending()).filter((each) => each !== null);
      if (gate !== null) all.push(gate);
      gate = all.length === 0 ? null : Promise.all(all).then(() => {});
    }
    if (gate === null) this.send(ctx, reply);
    else gate.then(() => this.send(ctx, reply), (e) => this.handler_failed(ctx, route, e, again));
  }

  /**
   * A read that waited for its account's commit, which the store refused (a full disk), read state
   * that is now gone: the engine reloaded the account from the store (Engine.on_journal_failure). The
   * read is answered again, once, from the reloaded account: a read never fails because a write beside
   * it did. Anything else is answered by fail().
   */
  private handler_failed(ctx: FrontRequest, route: FrontRoute, error: unknown, again: boolean): void {
    const actor = ctx.actor;
    if (!again && !ctx.aborted && route.method === 'get' && is_store_refusal(error) && actor !== null && actor.retired) {
      const reloaded = actor.engine.accounts.get(actor.id);
      if (reloaded !== undefined) {
        ctx.actor = reloaded;
        this.answer(ctx, route, true);
        return;
      }
    }
    this.fail(ctx, error);
  }

  /** Answers a body that parse_body refused. */
  private refuse_body(ctx: FrontRequest, route: FrontRoute, parsed: ApiError): void {
    // A body that parsed but failed its schema is an answer to this request: remembered under
    // its idempotency key. Bodies that are not JSON at all (413, 415, malformed) are not.
    const remember = parsed.code === 'validation.failed' && ctx.body !== undefined && route.method === 'post' && route.idempotent !== false && route.auth === 'api_key'
      ? this.options.remember_error
      : undefined;
    let reply: Reply | Promise<Reply>;
    try {
      reply = remember === undefined ? error_reply(ctx.request_id, parsed) : remember(ctx, parsed);
    } catch (error) {
      this.fail(ctx, error);
      return;
    }
    if (reply instanceof Promise) reply.then((r) => this.send_durable(ctx, route, r, true), (e) => this.fail(ctx, e));
    else this.send_durable(ctx, route, reply, true);
  }

  private fail(ctx: FrontRequest, error: unknown): void {
    if (!is_store_refusal(error)) this.options.log.error({ err: error, request_id: ctx.request_id, route: ctx.route?.name }, 'request failed');
    this.send(ctx, failure_reply(ctx.request_id, error));
    exit_on_assertion(error, this.options.log);
  }

  private stats_of_unmatched(route_name: string): RouteStats {
    let stats = this.unmatched_stats.get(route_name);
    if (stats === undefined) {
      stats = this.options.metrics.route_stats(this.options.name, route_name);
      // 405 names carry the method and pattern: bounded by routes × methods.
      if (this.unmatched_stats.size < 1000) this.unmatched_stats.set(route_name, stats);
    }
    return stats;
  }

  /** Writes a reply, corked (harmless inside the handler, required after an await). */
  private send(ctx: FrontRequest, reply: Reply, close_connection = false): void {
    if (ctx.aborted || ctx.done) return;
    ctx.done = true;
    if (this.log_requests) note_for_log(ctx, reply);
    const res = ctx.res;
    res.cork(() => {
      res.writeStatus(status_lines[reply.status] ?? `${reply.status} Unknown`);
      if (reply.content_type === undefined) {
        // The route's block, chosen when it was compiled; a request that matched none (404, 405) by its path.
        const route = ctx.route as FrontRoute | null;
        const block = route !== null ? route.json_headers : json_header_block_for(ctx.url);
        res.writeHeader('Content-Type', reply.headers.length > 0 && sets_cache_control(reply.headers) ? block.own_cache_control : block.standard);
      } else if (reply.status !== 204 && reply.status !== 304) {
        res.writeHeader('Content-Type', reply.content_type);
      }
      // X-Request-Id and every other header in one writeHeader call (see security-headers.ts JsonHeaderBlock): each
      // call into uWS converts its strings, and a purchase carries five to seven of these headers.
      let tail = ctx.request_id;
      for (let i = 0; i < ctx.extra_headers.length; i++) tail += header_line(ctx.extra_headers[i]);
      for (let i = 0; i < reply.headers.length; i++) tail += header_line(reply.headers[i]);
      if (reply.content_type !== undefined) {
        if (!sets_policy(reply.headers)) tail += raw_reply_security_tail;
        if (ctx.over_https) tail += hsts_tail;
      }
      res.writeHeader('X-Request-Id', tail);
      if (reply.stream !== undefined && ctx.method !== 'HEAD') {
        if (reply.body !== '') res.write(reply.body);
        return;
      }
      if (reply.status === 204 || reply.status === 304) res.endWithoutBody(0, close_connection);
      else if (ctx.method === 'HEAD') res.endWithoutBody(Buffer.byteLength(reply.body), close_connection);
      else res.end(reply.body, close_connection);
    });
    if (reply.stream !== undefined && ctx.method !== 'HEAD') stream_body(ctx, reply.stream, reply.status, this.options.log, (status) => this.finish(ctx, status));
    else this.finish(ctx, reply.status);
  }

  private finish(ctx: FrontRequest, status: number): void {
    if (ctx.finished) return;
    ctx.finished = true;
    this.in_flight--;
    if (ctx.body_bytes_held > 0) {
      this.options.body_budget.give(ctx.body_bytes_held);
      ctx.body_bytes_held = 0;
    }
    const duration_ms = performance.now() - ctx.started_perf;
    const route = ctx.route_name;
    const stats = (ctx.route as FrontRoute | null)?.stats ?? this.stats_of_unmatched(route);
    stats.observe(status, duration_ms);
    if (this.log_requests) {
      this.options.log.info({
        request_id: ctx.request_id,
        account: ctx.actor?.id ?? null,
        key_id: ctx.key?.record.id ?? null,
        // A key acting for an agent (Billvend-Account): account is the agent's, key_account the key's own.
        key_account: ctx.key_account_id,
        environment: ctx.key === null ? null : ctx.environment,
        method: ctx.method,
        route,
        status,
        error_code: ctx.error_code,
        replayed: ctx.replayed,
        duration_ms: Math.round(duration_ms * 1000) / 1000,
      }, 'request');
    }
    if (this.draining && this.in_flight === 0 && this.drained !== null) {
      this.drained();
      this.drained = null;
    }
  }
}

/** Every error body starts so (lib/reply.ts error_reply; a replay sends the remembered bytes of one). */
const error_code_pattern = /^\{"success":false,"error":\{"code":"([a-z_.]{1,64})"/;

/**
 * What a request's log line says of its answer besides the status: the error code (read from the start of the
 * body: every error answer is built by error_reply, a replayed one included) and whether it was a replay.
 */
function note_for_log(ctx: FrontRequest, reply: Reply): void {
  if (reply.status >= 400 && typeof reply.body === 'string') ctx.error_code = error_code_pattern.exec(reply.body)?.[1] ?? null;
  for (let i = 0; i < reply.headers.length; i++) {
    if (reply.headers[i][0] === 'Idempotent-Replayed') ctx.replayed = reply.headers[i][1] === 'true';
  }
}
