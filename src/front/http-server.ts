// The uWebSockets.js front end. Its rules (uWS user manual): always attach onAborted; read every
// header before the first await (the request object dies with the handler); copy onData chunks
// (uWS reuses their memory); cork every write made after an await; never touch res after abort or end.
import * as uWS from 'uWebSockets.js';
import type { Logger } from 'pino';
import type { Clock } from '../lib/clock.js';
import { new_request_id } from '../lib/ids.js';
import { api_error, type ApiError } from '../errors.js';
import { error_reply, type BodyStream, type Reply } from '../lib/reply.js';
import { has_bad_header_byte, invalid_header_bytes } from './request-helpers.js';
import { compile_schema } from './validation.js';
import type { CompiledRoute, RequestContext, RouteDef } from './route.js';
import type { Metrics, RouteStats } from '../operator/metrics.js';
import { JournalFailure } from '../journal/journal.js';
import { free_port, free_port_attempts_max } from '../lib/free-port.js';
import { AssertionError, fail } from '../lib/assert.js';

/** uWS's LIBUS_LISTEN_EXCLUSIVE_PORT; its typings declare the enum, but the module does not export it. */
const listen_exclusive_port = 1;

/** Request bodies over 16 KiB are refused with 413 (docs/decisions.md); a route may allow more (RouteDef.body_bytes_max). */
export const body_bytes_max = 16 * 1024;

function too_large(route: CompiledRoute): ApiError {
  const limit = route.body_bytes_max;
  return limit === undefined ? api_error('request.too_large') : api_error('request.too_large', `The request body is larger than ${limit / 1024} KiB.`);
}

const status_lines: Record<number, string> = {
  200: '200 OK', 201: '201 Created', 202: '202 Accepted', 204: '204 No Content', 301: '301 Moved Permanently',
  302: '302 Found', 304: '304 Not Modified', 400: '400 Bad Request', 401: '401 Unauthorized', 403: '403 Forbidden',
  404: '404 Not Found', 405: '405 Method Not Allowed', 409: '409 Conflict', 410: '410 Gone', 413: '413 Payload Too Large',
  415: '415 Unsupported Media Type', 422: '422 Unprocessable Entity', 429: '429 Too Many Requests',
  500: '500 Internal Server Error', 503: '503 Service Unavailable',
};

/** Headers on every JSON response: an API answer is never cached, framed, sniffed or scripted. */
export const json_security_headers: [string, string][] = [
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'no-referrer'],
  ['Cache-Control', 'no-store'],
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['Cross-Origin-Resource-Policy', 'same-site'],
];

/**
 * Replies that bring their own content type (the OpenAPI document, the redirect at /, preflights,
 * metrics) and set no Content-Security-Policy of their own get these, as one pre-built header tail:
 * none of them is a page, so nothing in them may run or be sniffed as one. Pages set their own policy.
 */
const raw_reply_security_tail = `\r\nX-Content-Type-Options: nosniff\r\nContent-Security-Policy: default-src 'none'; frame-ancestors 'none'`;

function sets_policy(headers: [string, string][]): boolean {
  for (let i = 0; i < headers.length; i++) if (headers[i][0] === 'Content-Security-Policy') return true;
  return false;
}

/** HSTS for replies to requests that arrived over HTTPS (JSON answers carry it always, in the block). */
const hsts_tail = `\r\nStrict-Transport-Security: max-age=31536000; includeSubDomains`;

const cors_allow_headers = 'Authorization, Content-Type, X-Idempotency-Key, X-CSRF-Token';
const cors_expose_headers = 'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Idempotent-Replayed';

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

interface FrontRoute extends CompiledRoute {
  needs: HeaderNeeds;
  stats: RouteStats;
}

function compile_routes(server: string, metrics: Metrics, routes: RouteDef[]): FrontRoute[] {
  return routes.map((route) => {
    const name = `${route.method.toUpperCase()} ${route.path}`;
    return {
      ...route,
      name,
      param_names: route.path.split('/').filter((p) => p.startsWith(':')).map((p) => p.slice(1)),
      body_schema: route.body === undefined ? null : compile_schema(route.body),
      needs: header_needs(route),
      stats: metrics.route_stats(server, name),
    };
  });
}

function is_json_type(content_type: string): boolean {
  const semi = content_type.indexOf(';');
  const base = (semi === -1 ? content_type : content_type.slice(0, semi)).trim().toLowerCase();
  return base === 'application/json';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Two Content-Length headers with different values (identical repeats are harmless, RFC 9112 6.3). */
function duplicated_content_length(req: uWS.HttpRequest): boolean {
  let first: string | null = null;
  let conflict = false;
  req.forEach((name, value) => {
    if (name !== 'content-length') return;
    if (first === null) first = value.trim();
    else if (value.trim() !== first) conflict = true;
  });
  return conflict;
}

/** JSON bodies nest at most this deep: deeper ones are refused before they are parsed. */
export const json_depth_max = 32;

/**
 * The deepest nesting of arrays and objects in a JSON text, scanning its bytes once (strings and their
 * escapes skipped). Refusing deep bodies before JSON.parse keeps recursion over request bodies (the
 * idempotency fingerprint) bounded: a 7 KiB body of 3,500 nested arrays overflowed the stack and
 * ended the process (regression: test/fuzz-routes.test.ts).
 */
export function json_depth(raw: Buffer): number {
  let depth = 0;
  let deepest = 0;
  let in_string = false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i];
    if (in_string) {
      if (byte === 0x5c) i++; // backslash: skip the escaped byte
      else if (byte === 0x22) in_string = false;
    } else if (byte === 0x22) in_string = true;
    else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > deepest) deepest = depth;
    } else if (byte === 0x5d || byte === 0x7d) depth--;
  }
  return deepest;
}

/**
 * The Content-Type of JSON answers and the security headers, as one pre-encoded block written with a
 * single writeHeader call: uWS writes "name: value\r\n", so a value may carry further complete header
 * lines. Eight separate calls (each converting two JS strings) cost about 8% of a purchase's CPU in
 * the purchase-one-account profile; this constant block costs one copy.
 */
const json_header_block = Buffer.from(
  ['application/json; charset=utf-8', ...json_security_headers.map(([name, value]) => `${name}: ${value}`)].join('\r\n'),
);

/**
 * One more header line to append to a combined header value. Values are built by billvend (numbers,
 * configured origins, cookies it made), never copied from a request; a CR or LF would still be a
 * header injection, so it is an assertion.
 */
function header_line([name, value]: [string, string]): string {
  if (value.includes('\n') || value.includes('\r')) fail(`header ${name} carries a line break`);
  return `\r\n${name}: ${value}`;
}

/** Which request headers a route reads, beyond the ones every request needs. */
interface HeaderNeeds {
  session: boolean;
  signature: boolean;
  conditional: boolean;
}

function header_needs(route: RouteDef): HeaderNeeds {
  return {
    session: route.auth === 'session' || route.path.startsWith('/dashboard/api/'),
    signature: route.raw_body === true,
    conditional: route.method === 'get' && route.auth === 'none',
  };
}

const no_needs: HeaderNeeds = { session: false, signature: false, conditional: false };

/**
 * Refuses a request when a header billvend acts on holds bytes other than printable ASCII (docs/api.md
 * "Request headers"), before it is authenticated or its body read, so nothing is debited under a key the
 * client did not send. uWS v20 hands header values over as Latin-1 but trims them as signed chars:
 * a byte 0x80-0xFF at either end of a value is dropped like a space ("é-order-42" arrives as
 * "-order-42", a lone "é" as nothing), while one inside the value arrives intact. So the check is
 * twofold: any byte outside printable ASCII that did arrive refuses the request (a few comparisons per
 * byte), and a header that matters when present, X-Idempotency-Key on an idempotent POST and Origin
 * on a dashboard change, is refused when it is present but arrived empty (one pass over the header
 * names, only when that header read as empty). What uWS trimmed off the ends of a value that kept
 * some ASCII cannot be seen through its API (docs/design.md "Known limitations").
 */
function header_refusal(req: uWS.HttpRequest, headers: RequestContext['headers'], route: FrontRoute): ApiError | null {
  if (has_bad_header_byte(headers.idempotency_key)) return invalid_header_bytes('X-Idempotency-Key');
  if (has_bad_header_byte(headers.authorization)) return invalid_header_bytes('Authorization');
  if (has_bad_header_byte(headers.content_type)) return invalid_header_bytes('Content-Type');
  if (has_bad_header_byte(headers.origin)) return invalid_header_bytes('Origin');
  if (route.needs.session && has_bad_header_byte(headers.csrf_token)) return invalid_header_bytes('X-CSRF-Token');
  const key_matters = headers.idempotency_key === '' && route.method === 'post' && route.idempotent !== false;
  const origin_matters = headers.origin === '' && route.needs.session && route.method !== 'get';
  if (!key_matters && !origin_matters) return null;
  let key_present = false;
  let origin_present = false;
  req.forEach((name) => {
    if (name === 'x-idempotency-key') key_present = true;
    else if (name === 'origin') origin_present = true;
  });
  if (key_matters && key_present) return invalid_header_bytes('X-Idempotency-Key');
  if (origin_matters && origin_present) return invalid_header_bytes('Origin');
  return null;
}

/**
 * One request's context. A class, not an object literal: a literal with a getter (remote_ip) cost a
 * third of the server's CPU in garbage collection. V8 keeps such a literal's accessor pair in old
 * space, where, dead or not, it holds the getter's closure, and through it the whole request, alive
 * across every scavenge until the next full collection (wallet-read: 4 MB promoted per scavenge,
 * 5-8 ms scavenges; with the class, nothing promoted and 0.5 ms).
 */
class FrontRequest implements RequestContext {
  body: unknown = undefined;
  raw_body: Buffer | null = null;
  key: RequestContext['key'] = null;
  actor: RequestContext['actor'] = null;
  environment: RequestContext['environment'] = 'live';
  extra_headers: [string, string][] = [];
  aborted = false;
  done = false;
  /** Counted out of in_flight and observed in the metrics (once, whichever of answer or abort comes first). */
  finished = false;
  session_id?: string = undefined;
  /** Why the request's headers are refused (answered before authentication), or null. */
  header_refusal: ApiError | null = null;
  /** Whether the request arrived over HTTPS (asked only for pages): its reply then carries HSTS. */
  over_https = false;
  private peer_ip: string | null = null;

  constructor(
    readonly request_id: string,
    readonly method: string,
    readonly url: string,
    readonly query: string,
    readonly params: Record<string, string>,
    readonly headers: RequestContext['headers'],
    readonly started_ms: number,
    readonly started_perf: number,
    public route: CompiledRoute | null,
    readonly route_name: string,
    readonly res: uWS.HttpResponse,
    private readonly client_ip: FrontOptions['client_ip'],
  ) {}

  /**
   * The peer address, read only when a check needs it (allowlists, proxies): the response is still
   * open whenever authorisation runs.
   */
  get remote_ip(): string {
    if (this.peer_ip === null) this.peer_ip = this.done ? '' : this.client_ip(Buffer.from(this.res.getRemoteAddressAsText()).toString(), this.headers.forwarded_for);
    return this.peer_ip;
  }
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
    // Every header is read here, before any await (the request object dies with this handler), but
    // only those the route uses: each getHeader is a call into uWS.
    const needs = route?.needs ?? no_needs;
    const headers: RequestContext['headers'] = {
      authorization: req.getHeader('authorization'),
      content_type: req.getHeader('content-type'),
      content_length: req.getHeader('content-length'),
      origin: req.getHeader('origin'),
      idempotency_key: req.getHeader('x-idempotency-key'),
      forwarded_for: this.options.reads_forwarded_for ? req.getHeader('x-forwarded-for') : '',
      cookie: needs.session ? req.getHeader('cookie') : '',
      csrf_token: needs.session ? req.getHeader('x-csrf-token') : '',
      signature: needs.signature ? req.getHeader('x-signature') : '',
      user_agent: '',
      host: needs.session ? req.getHeader('host') : '',
      access_control_request_method: method === 'OPTIONS' ? req.getHeader('access-control-request-method') : '',
      if_none_match: needs.conditional ? req.getHeader('if-none-match') : '',
    };
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
    const cors_origin = headers.origin !== '' && this.cors.has(headers.origin) ? headers.origin : null;
    if (cors_origin !== null) {
      ctx.extra_headers.push(['Access-Control-Allow-Origin', cors_origin], ['Vary', 'Origin'], ['Access-Control-Expose-Headers', cors_expose_headers]);
    }
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
    const declared = headers.content_length === '' ? 0 : Number(headers.content_length);
    if (declared > (route.body_bytes_max ?? body_bytes_max)) {
      this.send(ctx, error_reply(ctx.request_id, too_large(route)), true);
      return;
    }
    this.read_body(res, ctx, route);
  }

  private preflight(ctx: FrontRequest, origin: string | null, allowed: string): void {
    const headers: [string, string][] = [];
    // The answer depends on the Origin (allowed ones get the CORS headers): caches must key on it.
    // An allowed origin's answer already carries Vary: Origin with its other CORS headers.
    if (origin === null) headers.push(['Vary', 'Origin']);
    if (origin !== null) {
      headers.push(
        ['Access-Control-Allow-Methods', allowed.includes('OPTIONS') ? allowed : `${allowed}, OPTIONS`],
        ['Access-Control-Allow-Headers', cors_allow_headers],
        ['Access-Control-Max-Age', '600'],
      );
    }
    this.send(ctx, { status: 204, body: '', headers, content_type: 'text/plain' });
  }

  private read_body(res: uWS.HttpResponse, ctx: FrontRequest, route: FrontRoute): void {
    let chunks: Buffer[] | null = null;
    let size = 0;
    res.onData((chunk, is_last) => {
      if (ctx.done) return;
      size += chunk.byteLength;
      if (size > (route.body_bytes_max ?? body_bytes_max)) {
        this.send(ctx, error_reply(ctx.request_id, too_large(route)), true);
        return;
      }
      // uWS reuses the chunk's memory after this callback returns: copy it.
      const copy = Buffer.from(new Uint8Array(chunk));
      if (is_last) {
        let body: Buffer;
        if (chunks === null) body = copy;
        else {
          chunks.push(copy);
          body = Buffer.concat(chunks, size);
        }
        chunks = null;
        ctx.raw_body = body;
        this.run(ctx, route);
      } else {
        (chunks ??= []).push(copy);
      }
    });
  }

  private run(ctx: FrontRequest, route: FrontRoute): void {
    if (ctx.header_refusal !== null) {
      this.send(ctx, error_reply(ctx.request_id, ctx.header_refusal));
      return;
    }
    let authorization: ApiError | null | Promise<ApiError | null>;
    try {
      authorization = this.options.authorize(ctx);
    } catch (error) {
      this.fail(ctx, error);
      return;
    }
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
      const parsed = this.parse_body(ctx, route);
      if (parsed !== null) {
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
        if (reply instanceof Promise) reply.then((r) => this.send(ctx, r), (e) => this.fail(ctx, e));
        else this.send(ctx, reply);
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
    let reply: Reply | Promise<Reply>;
    try {
      reply = route.handler(ctx);
    } catch (error) {
      this.fail(ctx, error);
      return;
    }
    if (reply instanceof Promise) reply.then((r) => this.send(ctx, r), (e) => this.fail(ctx, e));
    else this.send(ctx, reply);
  }

  /** Content type, JSON syntax and schema, in that order; null when the body is acceptable. */
  private parse_body(ctx: RequestContext, route: FrontRoute): ApiError | null {
    const raw = ctx.raw_body!;
    if (raw.length === 0) {
      ctx.body = {};
    } else {
      if (!is_json_type(ctx.headers.content_type)) {
        return api_error('request.unsupported_media_type', `Content-Type must be application/json, got "${ctx.headers.content_type.slice(0, 100)}".`);
      }
      if (json_depth(raw) > json_depth_max) {
        return api_error('validation.failed', `The request is not valid: body must not nest deeper than ${json_depth_max} levels.`, {
          details: [{ field: 'body', message: `must not nest deeper than ${json_depth_max} levels` }],
        });
      }
      try {
        ctx.body = JSON.parse(utf8.decode(raw));
      } catch {
        return api_error('request.malformed_json');
      }
    }
    if (route.body_schema !== null) {
      const details = route.body_schema.check(ctx.body);
      if (details !== null) return api_error('validation.failed', 'The request is not valid: ' + details.map((d) => `${d.field} ${d.message}`).join('; ') + '.', { details });
    }
    return null;
  }

  private fail(ctx: FrontRequest, error: unknown): void {
    if (error instanceof JournalFailure) {
      // The store refused the commit (disk or map full): nothing of this request was kept.
      this.send(ctx, error_reply(ctx.request_id, api_error('service.unavailable', 'The store could not save this request; nothing was changed. Retry shortly.', { headers: { 'Retry-After': '5' } })));
      return;
    }
    this.options.log.error({ err: error, request_id: ctx.request_id, route: ctx.route?.name }, 'request failed');
    this.send(ctx, error_reply(ctx.request_id, api_error('internal.error')));
    if (error instanceof AssertionError) {
      // An invariant broke: the in-memory state cannot be trusted. Crash loudly; recovery from the
      // journal restores what was durable (docs/style.md).
      this.options.log.fatal({ err: error }, 'assertion failed; exiting');
      this.options.log.flush?.();
      setImmediate(() => process.exit(70));
    }
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
    const res = ctx.res;
    res.cork(() => {
      res.writeStatus(status_lines[reply.status] ?? `${reply.status} Unknown`);
      if (reply.content_type === undefined) {
        res.writeHeader('Content-Type', json_header_block);
      } else if (reply.status !== 204 && reply.status !== 304) {
        res.writeHeader('Content-Type', reply.content_type);
      }
      // X-Request-Id and every other header in one writeHeader call (see json_header_block): each
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
    if (reply.stream !== undefined && ctx.method !== 'HEAD') this.stream(ctx, reply.stream, reply.status);
    else this.finish(ctx, reply.status);
  }

  /**
   * Writes a streamed body (chunked transfer encoding): one chunk per event-loop turn, corked, so other
   * requests run between chunks; when uWS reports backpressure (write returns false) nothing more is
   * asked of the stream until onWritable says the socket drained. After an abort res is never touched.
   */
  private stream(ctx: FrontRequest, body: BodyStream, status: number): void {
    const res = ctx.res;
    let waiting_writable = false;
    const step = (): void => {
      if (ctx.aborted) return;
      let more = true;
      let chunk: string | null;
      try {
        chunk = body.next();
      } catch (error) {
        // The status line has left: the client can only learn of the failure by the connection closing
        // before the final chunk.
        this.options.log.error({ err: error, request_id: ctx.request_id, route: ctx.route?.name }, 'streamed reply failed');
        res.close();
        this.finish(ctx, 500);
        if (error instanceof AssertionError) {
          this.options.log.fatal({ err: error }, 'assertion failed; exiting');
          this.options.log.flush?.();
          setImmediate(() => process.exit(70));
        }
        return;
      }
      res.cork(() => {
        if (chunk === null) {
          res.end();
          more = false;
          return;
        }
        if (!res.write(chunk)) waiting_writable = true;
      });
      if (!more) this.finish(ctx, status);
      else if (!waiting_writable) setImmediate(step);
    };
    res.onWritable(() => {
      if (waiting_writable && !ctx.aborted) {
        waiting_writable = false;
        setImmediate(step);
      }
      return true;
    });
    setImmediate(step);
  }

  private finish(ctx: FrontRequest, status: number): void {
    if (ctx.finished) return;
    ctx.finished = true;
    this.in_flight--;
    const duration_ms = performance.now() - ctx.started_perf;
    const route = ctx.route_name;
    const stats = (ctx.route as FrontRoute | null)?.stats ?? this.stats_of_unmatched(route);
    stats.observe(status, duration_ms);
    if (this.log_requests) {
      this.options.log.info({
        request_id: ctx.request_id,
        account: ctx.actor?.id ?? null,
        key_id: ctx.key?.record.id ?? null,
        environment: ctx.key === null ? null : ctx.environment,
        method: ctx.method,
        route,
        status,
        duration_ms: Math.round(duration_ms * 1000) / 1000,
      }, 'request');
    }
    if (this.draining && this.in_flight === 0 && this.drained !== null) {
      this.drained();
      this.drained = null;
    }
  }
}
