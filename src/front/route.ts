// A route: method, uWS path pattern, who may call it, what it accepts, and its handler. The route
// table is built once at start-up; the OpenAPI document is generated from the same definitions.
import type { TSchema } from 'typebox';
import type { Scope, Environment } from '../engine/records.js';
import type { AccountActor } from '../engine/account-actor.js';
import type { KeyState } from '../engine/key-state.js';
import type { Authority } from '../engine/authority.js';
import type { CompiledSchema } from '../lib/validation.js';
import type { Reply } from '../lib/reply.js';
import type { HttpResponse } from 'uWebSockets.js';

export type Method = 'get' | 'post' | 'delete' | 'patch' | 'put';

/** api_key: Bearer API key (docs/spec.md section 5); operator: ADMIN_TOKEN; session: dashboard cookie; none. */
export type AuthMode = 'api_key' | 'operator' | 'session' | 'none';

export interface RouteDoc {
  summary: string;
  description?: string;
  tags: string[];
  /** Schema of `data` in the success envelope. */
  response?: TSchema;
  success_status?: number;
  /** Error codes this route can answer with, for the document. */
  errors?: string[];
  query?: Record<string, { schema: TSchema; description: string; required?: boolean }>;
  /** Routes that only serve the browser (dashboard) stay out of the public document. */
  hidden?: boolean;
  /** Raw (non-JSON) responses such as pages and metrics. */
  content_type?: string;
  /** Other media types of the success answer beside the JSON envelope (a statement's CSV and PDF). */
  alternatives?: string[];
  /** Headers of the success answer beyond the usual ones, by name, with what they carry. */
  response_headers?: Record<string, string>;
  /** Whether the success envelope carries `message`; by default changes (not GET) do. */
  message?: boolean;
  /** Other success statuses with the same body (a funding notification repeated answers 200). */
  also_success?: number[];
  /** The body's schema where the route reads it raw (verified over its bytes) rather than through `body`. */
  request?: TSchema;
  /** Required request headers beyond Authorization, by name, with what they carry. */
  headers?: Record<string, string>;
}

export interface RouteDef {
  method: Method;
  path: string;
  auth: AuthMode;
  /** Scope an API key needs (docs/spec.md section 5.6); null: any valid key. */
  scope?: Scope | null;
  body?: TSchema;
  /** POSTs honour X-Idempotency-Key unless this is false. */
  idempotent?: boolean;
  /** A larger body limit than the front end's body_bytes_max, for this route only (bulk orders). */
  body_bytes_max?: number;
  /** Accept a raw body of another type (bank notifications are verified over their raw bytes). */
  raw_body?: boolean;
  /** The handler reads the Accept header (receipts: HTML or PDF). */
  reads_accept?: boolean;
  /** The handler reads the funding providers' signature headers (POST /callbacks/funding/{provider}). */
  reads_funding_signatures?: boolean;
  /**
   * False for a read whose answer says nothing of the calling account's state (the catalog, look-ups, the
   * services' status): its reply does not wait for the account's pending commits (HttpFront.send_durable).
   * Only for GETs that run no command.
   */
  account_state?: false;
  doc: RouteDoc;
  handler: (ctx: RequestContext) => Reply | Promise<Reply>;
}

export interface CompiledRoute extends RouteDef {
  /** "POST /v1/keys/:id": how logs and metrics name the route. */
  name: string;
  param_names: string[];
  body_schema: CompiledSchema | null;
}

/** Everything a handler may use: read from the uWS request before the first await, then frozen. */
export interface RequestContext {
  readonly request_id: string;
  readonly method: string;
  readonly url: string;
  readonly query: string;
  readonly params: Record<string, string>;
  readonly remote_ip: string;
  readonly headers: RequestHeaders;
  readonly started_ms: number;
  readonly started_perf: number;
  route: CompiledRoute | null;
  /** How logs and metrics name the request: the route, "PATCH /v1/keys" for a 405, or "unmatched". */
  readonly route_name: string;
  /** Parsed JSON body (validated when the route has a body schema). */
  body: unknown;
  raw_body: Buffer | null;
  key: KeyState | null;
  actor: AccountActor | null;
  /**
   * Who the request acts for, set by authentication (API key or session): the command that debits
   * checks it again (engine/authority.ts), since a purchase awaits between the two.
   */
  authority: Authority | null;
  environment: Environment;
  /** Headers added to whatever reply leaves (rate limit, CORS, cookies). */
  extra_headers: [string, string][];
  aborted: boolean;
  done: boolean;
  /** Whether the handler has returned to uWS: writes after that must be corked. */
  res: HttpResponse;
  /** Set by session routes: the account the dashboard session belongs to. */
  session_id?: string;
  /**
   * Set when an API key acts for an agent (Billvend-Account): the key's own account, while `actor` is the
   * agent's. Logged as key_account beside the key id.
   */
  key_account_id?: number;
  /**
   * What the reply waits for besides its own account's commit (front/durable-reply.ts reply_waits_for,
   * acts_on), asked once the handler has answered; null when nothing.
   */
  durable_too: (() => Promise<void> | null)[] | null;
}

export interface RequestHeaders {
  authorization: string;
  content_type: string;
  content_length: string;
  origin: string;
  idempotency_key: string;
  forwarded_for: string;
  cookie: string;
  csrf_token: string;
  signature: string;
  user_agent: string;
  host: string;
  access_control_request_method: string;
  if_none_match: string;
  /** Read only for routes with reads_accept (receipts); '' otherwise. */
  accept: string;
  /**
   * The funding providers' signature headers (front/front-request.ts funding_signature_headers), by lower-case
   * name, read only for routes with reads_funding_signatures; empty otherwise.
   */
  funding_signatures: Record<string, string>;
  /**
   * Billvend-Account: the id of the agent an API key acts for (docs/api.md "Acting for an agent"), read
   * for API-key routes only; '' when absent.
   */
  acting_account: string;
}
