// A thin client of billvend's API over the global fetch. It adds what every integrator writes by hand: the key,
// an idempotency key on every POST (made for you unless you pass one), retries of 5xx, 429 and lost connections
// with the SAME idempotency key (so nothing is bought twice), honouring Retry-After and bounded in attempts,
// errors thrown by their permanent code, and lists and the events feed as async iterators. Request and answer
// types come from the OpenAPI document (openapi.d.ts, generated).
import type { paths } from './openapi.js';
import { BillvendConnectionError, BillvendError } from './errors.js';
import type { BillvendEvent, DataOf, EventKind, ListItem, Method, PaginatedPaths, PathParamsOf, PathsWith, QueryOf, RequestBody } from './types.js';

export interface BillvendOptions {
  /** An API key, `bv_live_…` or `bv_test_…` (test keys buy from the sandbox). */
  apiKey: string;
  /** Where billvend serves its API; `http://localhost:8080` by default (what `npm start` serves). */
  baseUrl?: string;
  /** Attempts per request, the first included: 4 by default (at least 1, at most 10). */
  maxAttempts?: number;
  /** The first wait before a retry without Retry-After, doubled each time: 1000 ms (1, 2, 4 s), as docs/api.md advises. */
  retryBaseDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown at once (a PIN lock lasts 15 minutes). 60 s by default. */
  maxRetryDelayMs?: number;
  /** Another fetch (a proxy's, a test's); the global one by default. */
  fetch?: typeof fetch;
  /** Waits between attempts; setTimeout by default. */
  sleep?: (ms: number) => Promise<void>;
  /** Makes the idempotency key of a POST that did not get one; a random UUID by default. */
  idempotencyKey?: () => string;
  /**
   * Act for an agent below the key's account (a key with agents:manage): every request is sent with the
   * `Billvend-Account` header and runs as that agent (its wallet, PIN, keys, webhooks). Absent: the key's own account.
   */
  account?: number;
}

export interface RequestOptions<Q = unknown, PP = unknown> {
  query?: Q;
  /** Values of the path's `{parameters}`. */
  path?: PP;
  /** A POST's X-Idempotency-Key; one is made for you when absent. Pass your own to retry across restarts. */
  idempotencyKey?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A success answer with what the envelope and the headers say besides `data`. */
export interface BillvendResponse<D> {
  status: number;
  data: D;
  message: string | null;
  requestId: string;
  /** `Idempotent-Replayed: true`: the remembered answer of an earlier request with the same key. */
  replayed: boolean;
  /** The X-Idempotency-Key sent (POST), null otherwise. */
  idempotencyKey: string | null;
  /** How many attempts it took. */
  attempts: number;
}

export interface EventsOptions {
  /** Start after this event id (exclusive); from the oldest event kept (30 days) when absent. */
  after?: string;
  /** Only events of this kind. */
  type?: EventKind;
  /** Events per request, 1–100 (default 100). */
  limit?: number;
  /** Keep waiting for new events once the feed is read to its end, asking again every pollIntervalMs. */
  follow?: boolean;
  /** 2000 ms by default. */
  pollIntervalMs?: number;
  /** Stops a followed feed. */
  signal?: AbortSignal;
}

const attempts_max = 10;

function parse_retry_after(value: string | null, now_ms: number): number | null {
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now_ms) / 1000));
}

function fill_path(template: string, params: Record<string, unknown> | undefined): string {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new TypeError(`${template} needs path.${name}`);
    return encodeURIComponent(String(value));
  });
  return path;
}

function query_string(query: Record<string, unknown> | undefined): string {
  if (query === undefined) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null) search.set(name, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

const default_sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits ms unless the signal aborts first; resolves false when it did. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve(true);
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

export class Billvend {
  readonly baseUrl: string;
  private readonly api_key: string;
  private readonly max_attempts: number;
  private readonly retry_base_delay_ms: number;
  private readonly max_retry_delay_ms: number;
  private readonly fetch_fn: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly make_key: () => string;
  private readonly account: string | null;

  constructor(options: BillvendOptions) {
    if (typeof options.apiKey !== 'string' || options.apiKey === '') throw new TypeError('apiKey is required');
    this.api_key = options.apiKey;
    this.baseUrl = (options.baseUrl ?? 'http://localhost:8080').replace(/\/+$/, '');
    this.max_attempts = Math.min(attempts_max, Math.max(1, Math.floor(options.maxAttempts ?? 4)));
    this.retry_base_delay_ms = options.retryBaseDelayMs ?? 1000;
    this.max_retry_delay_ms = options.maxRetryDelayMs ?? 60_000;
    this.fetch_fn = options.fetch ?? ((input, init) => fetch(input, init));
    this.sleep = options.sleep ?? default_sleep;
    this.make_key = options.idempotencyKey ?? (() => crypto.randomUUID());
    if (options.account !== undefined && (!Number.isSafeInteger(options.account) || options.account < 1)) throw new TypeError('account must be a positive integer account id');
    this.account = options.account === undefined ? null : String(options.account);
  }

  /** One request with its retries; resolves with the whole success answer, throws BillvendError otherwise. */
  async request<M extends Method, P extends PathsWith<M>>(
    method: M,
    path: P,
    options: RequestOptions<QueryOf<P, M>, PathParamsOf<P, M>> & { body?: RequestBody<P, M> } = {},
  ): Promise<BillvendResponse<DataOf<P, M>>> {
    const url = this.baseUrl + fill_path(path, options.path as Record<string, unknown> | undefined) + query_string(options.query as Record<string, unknown> | undefined);
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers, authorization: `Bearer ${this.api_key}` };
    if (this.account !== null) headers['billvend-account'] = this.account;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    // Made once, before the first attempt: every retry carries the same key, so a purchase whose answer was
    // lost is answered from what the server remembers instead of being bought again.
    const idempotency_key = method === 'post' ? (options.idempotencyKey ?? this.make_key()) : null;
    if (idempotency_key !== null) headers['x-idempotency-key'] = idempotency_key;

    for (let attempt = 1; ; attempt++) {
      let answer: Response;
      try {
        answer = await this.fetch_fn(url, { method: method.toUpperCase(), headers, body, signal: options.signal });
      } catch (error) {
        if (options.signal?.aborted || attempt >= this.max_attempts) {
          throw new BillvendConnectionError(`${method.toUpperCase()} ${path}: no answer after ${attempt} attempt(s): ${(error as Error).message}`, error);
        }
        await this.sleep(this.backoff_ms(attempt));
        continue;
      }
      const text = await answer.text();
      let parsed: unknown = null;
      try {
        parsed = text === '' ? null : JSON.parse(text);
      } catch {
        parsed = null;
      }
      if (answer.ok) {
        const envelope = parsed as { data?: unknown; message?: unknown; request_id?: unknown } | null;
        return {
          status: answer.status,
          data: envelope?.data as DataOf<P, M>,
          message: typeof envelope?.message === 'string' ? envelope.message : null,
          requestId: typeof envelope?.request_id === 'string' ? envelope.request_id : (answer.headers.get('x-request-id') ?? ''),
          replayed: answer.headers.get('idempotent-replayed') === 'true',
          idempotencyKey: idempotency_key,
          attempts: attempt,
        };
      }
      const retry_after_s = parse_retry_after(answer.headers.get('retry-after'), Date.now());
      const error = new BillvendError(answer.status, parsed, retry_after_s);
      if (!error.retryable || attempt >= this.max_attempts) throw error;
      const wait_ms = retry_after_s !== null ? retry_after_s * 1000 : this.backoff_ms(attempt);
      if (wait_ms > this.max_retry_delay_ms) throw error;
      await this.sleep(wait_ms);
    }
  }

  private backoff_ms(attempt: number): number {
    return Math.min(this.max_retry_delay_ms, this.retry_base_delay_ms * 2 ** (attempt - 1));
  }

  /** GET: the answer's `data`. */
  async get<P extends PathsWith<'get'>>(path: P, options: RequestOptions<QueryOf<P, 'get'>, PathParamsOf<P, 'get'>> = {}): Promise<DataOf<P, 'get'>> {
    return (await this.request('get', path, options)).data;
  }

  /** POST with an idempotency key (yours, or one made for you): the answer's `data`. */
  async post<P extends PathsWith<'post'>>(path: P, body: RequestBody<P, 'post'>, options: RequestOptions<QueryOf<P, 'post'>, PathParamsOf<P, 'post'>> = {}): Promise<DataOf<P, 'post'>> {
    return (await this.request('post', path, { ...options, body })).data;
  }

  async patch<P extends PathsWith<'patch'>>(path: P, body: RequestBody<P, 'patch'>, options: RequestOptions<QueryOf<P, 'patch'>, PathParamsOf<P, 'patch'>> = {}): Promise<DataOf<P, 'patch'>> {
    return (await this.request('patch', path, { ...options, body })).data;
  }

  async delete<P extends PathsWith<'delete'>>(path: P, options: RequestOptions<QueryOf<P, 'delete'>, PathParamsOf<P, 'delete'>> = {}): Promise<DataOf<P, 'delete'>> {
    return (await this.request('delete', path, options)).data;
  }

  /**
   * Every item of a paginated list (`/v1/transactions`, `/v1/wallet/transactions`, a webhook's deliveries), page
   * after page until the last. Lists are newest first: an item added meanwhile pushes the others down a place, so
   * an item may be seen twice; de-duplicate on its id or reference if that matters.
   */
  async *paginate<P extends PaginatedPaths>(path: P, options: RequestOptions<QueryOf<P, 'get'>, PathParamsOf<P, 'get'>> = {}): AsyncGenerator<ListItem<DataOf<P, 'get'>>, void, undefined> {
    const query = { ...(options.query as Record<string, unknown> | undefined) };
    let page = Number(query.page ?? 1);
    for (;;) {
      const data = (await this.get(path, { ...options, query: { ...query, page } as unknown as QueryOf<P, 'get'> })) as Record<string, unknown>;
      const list = Object.entries(data).find(([name, value]) => name !== 'pagination' && Array.isArray(value))?.[1] as ListItem<DataOf<P, 'get'>>[] | undefined;
      const pagination = data.pagination as { current_page: number; last_page: number } | undefined;
      if (list === undefined || pagination === undefined) throw new TypeError(`${path} did not answer a paginated list`);
      yield* list;
      if (list.length === 0 || pagination.current_page >= pagination.last_page) return;
      page = pagination.current_page + 1;
    }
  }

  /**
   * The events feed (`GET /v1/events`), oldest first: every event of the key's environment from the last 30 days,
   * each exactly as a webhook delivers it. With `follow`, waits for new ones until `signal` aborts. Keep the last
   * `id` you processed and pass it as `after` to carry on where you stopped.
   */
  async *events(options: EventsOptions = {}): AsyncGenerator<BillvendEvent, void, undefined> {
    let after = options.after;
    const poll_ms = options.pollIntervalMs ?? 2000;
    for (;;) {
      const page = await this.get('/v1/events', {
        query: { after, type: options.type, limit: options.limit ?? 100 } as QueryOf<'/v1/events', 'get'>,
        signal: options.signal,
      });
      for (const event of page.events) yield event;
      if (page.next_after !== null && page.next_after !== undefined) after = page.next_after;
      if (page.has_more) continue;
      if (options.follow !== true) return;
      if (!(await pause(poll_ms, options.signal))) return;
    }
  }
}
