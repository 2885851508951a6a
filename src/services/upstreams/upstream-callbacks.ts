// Late changes from the upstreams (docs/upstreams.md "Callbacks and reversals"): VTpass's transaction-update
// callbacks, and the re-query of every delivered live order 24 h after its delivery. VTpass does not sign its
// callbacks, so a callback is a hint and never the truth: the secret token in its URL (per upstream, kept as a
// SHA-256, compared in constant time) says it is worth a look, and the order moves only on what a re-query of
// the upstream itself answers. An open order is settled through the order desk as any re-query settles it; a
// delivered order the upstream says it reversed is refunded exactly once (engine/account-orders.ts
// reverse_delivered_order), with transaction.reversed and wallet.reversed.
import { createHash } from 'node:crypto';
import type { EngineContext } from '../../engine/context.js';
import type { Engine, EngineExtension } from '../../engine/engine.js';
import type { Environment } from '../../engine/records.js';
import type { UpstreamConfig } from '../../config.js';
import { reversal_check_key } from '../../engine/account-orders.js';
import { is_final, type OrderRecord } from '../order.js';
import type { OrderDesk } from '../order-desk.js';
import type { Provider, ProviderResult } from '../provider.js';
import { constant_time_equal } from '../../lib/secrets.js';
import { error_reply, type Reply } from '../../lib/reply.js';
import { api_error } from '../../errors.js';

/** Re-queries callbacks started and not yet answered, across upstreams; one more is answered 503 (VTpass retries). */
export const callback_requeries_max = 64;
/** How long after its delivery a delivered live order is re-queried once more. */
export const reversal_check_after_ms = 24 * 60 * 60 * 1000;
/** How often the due 24 h re-queries are looked for (a duration of the spec). */
export const reversal_sweep_every_ms = 60_000;
/** 24 h re-queries started by one sweep; the rest wait for the next. */
export const reversal_checks_per_sweep_max = 200;
/** A 24 h re-query whose answer is unclear is asked again at the next sweeps, this many times in all. */
export const reversal_check_attempts_max = 3;
/** A callback's body: VTpass's is about 1 KiB (test/fixtures/upstreams/vtpass/callback-*.json). */
export const callback_body_bytes_max = 8 * 1024;

/** What the receiver tells the operator's metrics (docs/upstreams.md "Metrics"). */
export type CallbackOutcome = 'accepted' | 'refused' | 'unreadable' | 'ignored' | 'unknown_request' | 'stale' | 'busy';
export type ReversalVia = 'callback' | 'check_24h';

export interface CallbackObserver {
  upstream_callback(upstream: string, outcome: CallbackOutcome): void;
  upstream_reversal(upstream: string, via: ReversalVia): void;
}

/** The answer VTpass waits for; anything else is sent again, up to 5 times (docs/upstreams.md). */
const vtpass_success: Reply = { status: 200, body: '{"response":"success"}', headers: [], content_type: 'application/json' };

type Location = [number, Environment, number];

export class UpstreamCallbacks implements EngineExtension {
  /** Upstream name → SHA-256 of its callback token: only upstreams with a token take callbacks. */
  private readonly tokens = new Map<string, string>();
  /** Re-queries in flight by request id: a repeated callback joins its re-query. Bound: callback_requeries_max. */
  private readonly in_flight = new Map<string, Promise<void>>();
  /** Unclear answers of 24 h re-queries by reference, until reversal_check_attempts_max. Bound: the checks due. */
  private readonly check_attempts = new Map<string, number>();
  /** 24 h re-queries in flight by reference. Bound: reversal_checks_per_sweep_max per sweep, each ends. */
  private readonly checks_running = new Set<string>();
  private stopped = false;

  constructor(
    private readonly ctx: EngineContext,
    private readonly desk: OrderDesk,
    /** The live provider (the router): a re-query goes to the upstream that holds the order. */
    private readonly provider: Provider | null,
    upstreams: readonly UpstreamConfig[],
    private readonly observer: CallbackObserver,
  ) {
    for (const upstream of upstreams) {
      if (upstream.kind === 'vtpass' && upstream.callback_token_sha256 != null) this.tokens.set(upstream.name, upstream.callback_token_sha256);
    }
  }

  private get engine(): Engine {
    return this.ctx.engine;
  }

  // ---- Callbacks --------------------------------------------------------------------------------

  /**
   * POST /callbacks/vtpass/{upstream}/{token}. A wrong token and an upstream without callbacks are
   * answered as a path that does not exist (404), and nothing else happens; a known token gets VTpass's
   * {"response":"success"} whatever the callback names, once the re-query it asks for has started.
   */
  receive(upstream: string, token: string, raw: Buffer, request_id: string, url: string): Reply {
    const expected = this.tokens.get(upstream);
    const presented = createHash('sha256').update(token).digest('hex');
    // Hashes of equal length, compared in constant time, for a known and an unknown upstream alike.
    if (!constant_time_equal(presented, expected ?? '0'.repeat(64)) || expected === undefined) {
      this.observer.upstream_callback(expected === undefined ? 'unknown' : upstream, 'refused');
      this.ctx.log.warn({ upstream: expected === undefined ? null : upstream }, 'upstream callback refused: unknown upstream or wrong token');
      return error_reply(request_id, api_error('route.not_found', `No route POST ${url}.`));
    }
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      this.observer.upstream_callback(upstream, 'unreadable');
      return error_reply(request_id, api_error('request.malformed_json', 'The callback body is not JSON.'));
    }
    const callback = body !== null && typeof body === 'object' && !Array.isArray(body) ? body as Record<string, unknown> : null;
    if (callback === null || typeof callback.type !== 'string') {
      this.observer.upstream_callback(upstream, 'unreadable');
      return error_reply(request_id, api_error('validation.failed', 'The callback is not valid: it needs a type.', { details: [{ field: 'type', message: 'must be a string' }] }));
    }
    // VTpass also sends variations-update; the catalog sync reads the variations on its own schedule.
    if (callback.type !== 'transaction-update') {
      this.observer.upstream_callback(upstream, 'ignored');
      this.ctx.log.info({ upstream, type: callback.type.slice(0, 40) }, 'upstream callback of another type: nothing to do');
      return vtpass_success;
    }
    const data = callback.data !== null && typeof callback.data === 'object' ? callback.data as Record<string, unknown> : null;
    const named = data?.requestId ?? data?.request_id;
    if (typeof named !== 'string' || named === '' || named.length > 64) {
      this.observer.upstream_callback(upstream, 'unreadable');
      return error_reply(request_id, api_error('validation.failed', 'The callback is not valid: data.requestId must name a request.', { details: [{ field: 'data.requestId', message: 'must be a string of 1-64 characters' }] }));
    }
    const location = this.engine.journal.read(this.engine.store.provider_requests, named) as Location | undefined;
    const order = location === undefined ? undefined : this.order_at(location);
    if (order === undefined) {
      this.observer.upstream_callback(upstream, 'unknown_request');
      this.ctx.log.warn({ upstream, provider_request_id: named }, 'upstream callback for a request id we never sent: nothing done');
      return vtpass_success;
    }
    const holder = order.attempts?.[order.attempts.length - 1]?.upstream;
    if (order.provider_request_id !== named || holder !== upstream) {
      // An attempt the upstream refused before the order moved on: the order's holder answers for it now.
      this.observer.upstream_callback(upstream, 'stale');
      this.ctx.log.warn({ upstream, reference: order.reference, provider_request_id: named, holder }, 'upstream callback for an attempt that no longer holds the order: nothing done');
      return vtpass_success;
    }
    if (!this.in_flight.has(named)) {
      if (this.in_flight.size >= callback_requeries_max || this.engine.degraded) {
        this.observer.upstream_callback(upstream, 'busy');
        return error_reply(request_id, api_error('service.unavailable', 'Too many callbacks being checked; send it again later.', { headers: { 'Retry-After': '60' } }));
      }
      const running = this.check(order.reference, location!, 'callback').finally(() => this.in_flight.delete(named));
      this.in_flight.set(named, running);
    }
    this.observer.upstream_callback(upstream, 'accepted');
    return vtpass_success;
  }

  /** Settles once every re-query that callbacks started has been applied (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.in_flight.size > 0) await Promise.all([...this.in_flight.values()]);
  }

  /** The order stored at a location, as it stands (open orders from memory, through the desk). */
  private order_at(location: Location): OrderRecord | undefined {
    const stored = this.engine.journal.read(this.engine.store.orders, location) as OrderRecord | undefined;
    if (stored === undefined) return undefined;
    return this.desk.find(stored.reference) ?? stored;
  }

  /**
   * Asks the order's holder where the order stands and acts on that answer: an open order as any
   * re-query settles it (the order desk), a delivered one refunded when the upstream reversed it.
   */
  private async check(reference: string, location: Location, via: ReversalVia): Promise<void> {
    const before = this.order_at(location);
    if (before === undefined || before.reference !== reference || this.provider === null || this.stopped) return;
    // A pending order has not been sent yet; a failed one was refunded already and stays so.
    if (before.status === 'pending' || before.status === 'failed') {
      if (via === 'check_24h') this.close_check(before);
      return;
    }
    let result: ProviderResult;
    try {
      result = await this.provider.requery(before);
    } catch (error) {
      result = { outcome: 'unknown', reason: (error as Error).message };
    }
    if (this.stopped || this.engine.degraded) return;
    const now = this.order_at(location);
    if (now === undefined) return;
    if (!is_final(now.status)) {
      // Through the desk, as its own re-queries: delivered, failed and refunded, or still open.
      this.desk.after_requery(now.reference, now.account_id, result);
      return;
    }
    if (now.status !== 'delivered') return;
    this.after_delivered(now, location, result, via);
  }

  /** What a re-query said of a delivered order: a reversal refunds it; anything else leaves it delivered. */
  private after_delivered(order: OrderRecord, location: Location, result: ProviderResult, via: ReversalVia): void {
    const actor = this.engine.accounts.get(order.account_id);
    if (actor === undefined) return;
    const upstream = order.attempts?.[order.attempts.length - 1]?.upstream ?? 'unknown';
    if (result.outcome === 'failed' && result.reversed === true) {
      const reversed = this.engine.run(actor, { kind: 'reverse_delivered_order', environment: location[1], seq: location[2], reason: `${result.reason.replace(/\.$/, '')}; reversed after delivery and refunded.` }, this.ctx.clock.now_us());
      this.check_attempts.delete(order.reference);
      if (reversed !== null) {
        this.observer.upstream_reversal(upstream, via);
        this.ctx.log.warn({ reference: order.reference, account: order.account_id, upstream, via }, 'the upstream reversed a delivered order; refunded');
      }
      return;
    }
    if (result.outcome === 'failed') {
      // Only a reversal read from the upstream undoes a delivery (docs/upstreams.md): the operator looks.
      this.ctx.log.warn({ reference: order.reference, upstream, via, reason: result.reason }, 'the upstream calls a delivered order failed without reversing it: left delivered for the operator');
    }
    if (via !== 'check_24h') return;
    if (result.outcome === 'unknown' || result.outcome === 'processing' || result.outcome === 'not_found') {
      const attempts = (this.check_attempts.get(order.reference) ?? 0) + 1;
      if (attempts < reversal_check_attempts_max) {
        this.check_attempts.set(order.reference, attempts);
        return;
      }
      this.ctx.log.warn({ reference: order.reference, upstream, attempts }, 'the 24 h re-query of a delivered order got no clear answer; no longer asked');
    }
    this.close_check(order);
  }

  private close_check(order: OrderRecord): void {
    this.check_attempts.delete(order.reference);
    if (order.delivered_us === null) return;
    const actor = this.engine.accounts.get(order.account_id);
    if (actor === undefined) return;
    this.engine.run(actor, { kind: 'close_reversal_check', key: reversal_check_key(order) });
  }

  // ---- The 24 h re-query of delivered orders ------------------------------------------------------

  /** Starts the sweep: every minute (scaled), the delivered orders whose 24 h have passed are re-queried. */
  start(): void {
    if (this.provider === null) return;
    this.ctx.wheel.every(reversal_sweep_every_ms, () => this.sweep());
  }

  /** Re-queries the due checks, oldest delivery first, at most reversal_checks_per_sweep_max at a time. */
  sweep(): void {
    if (this.stopped || this.engine.degraded || this.provider === null) return;
    const cutoff_ms = this.ctx.clock.now_ms() - this.ctx.wheel.scaled(reversal_check_after_ms);
    let started = 0;
    for (const { key, value } of this.engine.store.reversal_checks.getRange({ start: [0], end: [cutoff_ms + 1] })) {
      if (started >= reversal_checks_per_sweep_max) break;
      const reference = (key as [number, string])[1];
      if (this.checks_running.has(reference)) continue;
      this.checks_running.add(reference);
      started++;
      void this.check(reference, value as Location, 'check_24h').finally(() => this.checks_running.delete(reference));
    }
  }

  fenced(): void {
    this.stopped = true;
  }
}
