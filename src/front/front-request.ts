// One request as the front end carries it from its headers to its answer.
import type * as uWS from 'uWebSockets.js';
import type { ApiError } from '../errors.js';
import type { CompiledRoute, RequestContext } from './route.js';
import type { HeaderNeeds } from './front-route.js';

/** Client address: the peer, or X-Forwarded-For when the peer is a trusted proxy (FrontOptions.client_ip). */
export type ClientIp = (peer: string, forwarded_for: string) => string;

/**
 * One request's context. A class, not an object literal: a literal with a getter (remote_ip) cost a
 * third of the server's CPU in garbage collection. V8 keeps such a literal's accessor pair in old
 * space, where, dead or not, it holds the getter's closure, and through it the whole request, alive
 * across every scavenge until the next full collection (wallet-read: 4 MB promoted per scavenge,
 * 5-8 ms scavenges; with the class, nothing promoted and 0.5 ms).
 */
export class FrontRequest implements RequestContext {
  body: unknown = undefined;
  raw_body: Buffer | null = null;
  key: RequestContext['key'] = null;
  actor: RequestContext['actor'] = null;
  authority: RequestContext['authority'] = null;
  environment: RequestContext['environment'] = 'live';
  extra_headers: [string, string][] = [];
  aborted = false;
  done = false;
  /** Counted out of in_flight and observed in the metrics (once, whichever of answer or abort comes first). */
  finished = false;
  /** The error code of the answer sent, for its log line (null for a success). */
  error_code: string | null = null;
  /** The answer sent was an idempotent replay (`Idempotent-Replayed: true`), for its log line. */
  replayed = false;
  session_id?: string = undefined;
  /** Set when the key acts for an agent (Billvend-Account): the key's own account; `actor` is the agent's. */
  key_account_id?: number = undefined;
  durable_too: RequestContext['durable_too'] = null;
  /** Bytes of the body budget (request-body.ts BodyBudget) this request holds, given back when it ends. */
  body_bytes_held = 0;
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
    private readonly client_ip: ClientIp,
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

/**
 * Reads the request headers billvend uses, before any await (the request object dies with the handler),
 * but only those the route uses: each getHeader is a call into uWS.
 */
/**
 * The headers a funding provider signs its callbacks with (docs/funding.md): Monnify's monnify-signature,
 * Paystack's x-paystack-signature, Flutterwave's verif-hash.
 */
export const funding_signature_headers = ['monnify-signature', 'x-paystack-signature', 'verif-hash'] as const;

const no_signatures: Record<string, string> = Object.freeze({}) as Record<string, string>;

function read_funding_signatures(req: uWS.HttpRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of funding_signature_headers) {
    const value = req.getHeader(name);
    if (value !== '') out[name] = value;
  }
  return out;
}

export function read_headers(req: uWS.HttpRequest, method: string, needs: HeaderNeeds, reads_forwarded_for: boolean): RequestContext['headers'] {
  return {
    authorization: req.getHeader('authorization'),
    content_type: req.getHeader('content-type'),
    content_length: req.getHeader('content-length'),
    origin: req.getHeader('origin'),
    idempotency_key: req.getHeader('x-idempotency-key'),
    forwarded_for: reads_forwarded_for ? req.getHeader('x-forwarded-for') : '',
    cookie: needs.session ? req.getHeader('cookie') : '',
    csrf_token: needs.session ? req.getHeader('x-csrf-token') : '',
    signature: needs.signature ? req.getHeader('x-signature') : '',
    user_agent: '',
    host: needs.session ? req.getHeader('host') : '',
    access_control_request_method: method === 'OPTIONS' ? req.getHeader('access-control-request-method') : '',
    if_none_match: needs.conditional ? req.getHeader('if-none-match') : '',
    accept: needs.accept ? req.getHeader('accept') : '',
    funding_signatures: needs.funding_signatures ? read_funding_signatures(req) : no_signatures,
    acting_account: needs.acting ? req.getHeader('billvend-account') : '',
  };
}
