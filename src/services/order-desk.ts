// The order desk runs each purchase's life cycle around the account actor (docs/decisions.md
// "Transactions"): the debit and the pending order are one command; the provider is called only once
// that command is durable (or in the same turn for the sandbox, which touches nothing outside);
// the request waits up to 5 s for an answer; open orders are re-queried on a schedule from the timer
// wheel (30 s, 1 min, 2 min, then every 5 min); a failure is refunded in the command that learns
// it; after 24 h without an answer the order waits for the operator. A restart re-queries every
// open order: none is sent twice, lost, or refunded twice.
import type { EngineContext } from '../engine/context.js';
import type { AccountActor } from '../engine/account-actor.js';
import type { Environment, IdempotencyRecord } from '../engine/records.js';
import type { Engine, EngineExtension } from '../engine/engine.js';
import type { OrderRequest } from '../engine/account-orders.js';
import type { Authority } from '../engine/authority.js';
import { make_record } from '../engine/idempotency.js';
import { ok, refused, type Outcome, type RefusalReply } from '../engine/refusal.js';
import { cancelled_reason } from '../engine/account-orders.js';
import { error_reply, success_reply, type Reply } from '../lib/reply.js';
import { api_error, type ApiError } from '../errors.js';
import { random_text } from '../lib/ids.js';
import type { RandomSource } from '../lib/random.js';
import { random_reference_code, reference_codec, ReferenceCodec } from './references.js';
import { utc_yyyymmdd } from '../lib/time-format.js';
import { JournalFailure } from '../journal/journal.js';
import { assert_order, is_final, type OrderRecord } from './order.js';
import { family_of, purchase_result_view } from './products/registry.js';
import { provider_unavailable, type Provider, type ProviderResult } from './provider.js';
import type { TimerHandle } from '../lib/timer-wheel.js';
import { fail } from '../lib/assert.js';
import { commission_kobo, narrow_value, type PriceLists } from './pricing.js';
import type { OrderCommission } from '../engine/order-record.js';
import type { PhoneNetworks } from './phone-networks.js';
import { expected_final_us } from './promised-time.js';
import { ForeignQuotes } from './foreign-quotes.js';

/** How long a purchase request waits for the provider before answering 201 processing. */
export const purchase_wait_ms = 5_000;
/** Re-query delays after the order is sent: 30 s, 1 min, 2 min, then every 5 min. */
export const requery_delays_ms = [30_000, 60_000, 120_000, 300_000];
/** After this long without an answer an order needs an operator decision. */
export const review_after_ms = 24 * 60 * 60 * 1000;
/** A "no such request" from the provider is believed only this long after the order was created. */
export const not_found_grace_ms = 120_000;
/**
 * Requery now (docs/api.md "Requery now"): one per order per this many real milliseconds, read on the
 * clock unscaled (Clock.now_ms, not scaled by TIME_SCALE): the limit protects the upstream, whose
 * seconds are real ones.
 */
export const requery_now_interval_ms = 30_000;
/** Orders whose last requery-now is remembered at once: the limit map's bound. */
export const requery_now_orders_max = 100_000;

/** What a requery-now asks of the desk: the order as it stands after, or how long to wait first. */
export type RequeryNow = { order: Promise<OrderRecord> } | { retry_after_s: number };

let cached_minute = -1;
let cached_minute_text = '';

/** VTpass-style request id: Africa/Lagos YYYYMMDDHHmm (cached per minute) then 12 random characters. */
function provider_request_id(random: RandomSource, now_ms: number): string {
  const minute = Math.floor(now_ms / 60_000);
  if (minute !== cached_minute) {
    cached_minute = minute;
    cached_minute_text = new Date(minute * 60_000 + 60 * 60 * 1000).toISOString().slice(0, 16).replace(/[-T:]/g, '');
  }
  return cached_minute_text + random_text(random, 'abcdefghijklmnopqrstuvwxyz0123456789', 12);
}

/** A bulk order's live items awaiting their upstream's first answer at once, per account (the send lane). */
export const bulk_sends_in_flight_max = 8;

/** Longer than any reference billvend makes (BV- + date + 12 characters), far below LMDB's key limit. */
export const reference_length_max = 64;

/** Told, per refunded order, how long its refund took to be durable (operator/metrics.ts implements it, main.ts wires it). */
export type RefundObserver = (environment: Environment, duration_ms: number) => void;

export class OrderDesk implements EngineExtension {
  /** docs/operations.md billvend_refund_duration_seconds; none by default (tools and engine tests). */
  refund_observer: RefundObserver | null = null;
  /** International airtime's quotes (docs/api.md "International airtime and data"): in memory, bounded. */
  readonly foreign_quotes: ForeignQuotes;
  private readonly waiters = new Map<string, Set<(order: OrderRecord) => void>>();
  private readonly requery_timers = new Map<string, TimerHandle>();
  /**
   * When each order was last re-queried on request (clock ms), oldest first: an entry older than
   * requery_now_interval_ms is dead and dropped when the map is full (requery_now_orders_max).
   */
  private readonly requery_now_at = new Map<string, number>();
  private readonly codec: ReferenceCodec;
  /**
   * Whether the store holds indexed references (random ones, or any order from before references
   * named their place): a new constructed reference is then checked against them too.
   */
  private readonly index_in_use: boolean;

  constructor(
    private readonly deps: EngineContext,
    readonly providers: Record<Environment, Provider>,
    readonly pricing: PriceLists,
    /** The front end's answer to a refusal of the engine (front/outcome-errors.ts), wired in main.ts: the desk answers purchases itself. */
    private readonly refusal_reply: RefusalReply,
    /** The network of a phone number (docs/api.md "Phone lookup"): live deliveries teach its ported numbers. */
    readonly numbers: PhoneNetworks,
  ) {
    this.foreign_quotes = new ForeignQuotes(deps.clock, deps.random);
    this.codec = reference_codec(deps.engine.secret_box);
    // One key read: getKeysCount counts every key whatever its limit option (src/main.ts, the same check).
    this.index_in_use = false;
    for (const _ of deps.engine.store.order_refs.getKeys({ limit: 1 })) this.index_in_use = true;
    for (const provider of Object.values(providers)) {
      provider.on_update((order, result) => this.on_provider_update(order, result));
    }
  }

  private get engine(): Engine {
    return this.deps.engine;
  }

  /**
   * A reference unique forever for the next order of this wallet: its place in the store, permuted
   * (services/references.ts); else random, checked against the index as staged: a random reference
   * is taken once its order's command staged it, durable or not (the journal answers with what is staged).
   */
  private new_reference(actor: AccountActor, environment: Environment, now_ms: number): { reference: string; seq: number | null } {
    const day = utc_yyyymmdd(now_ms);
    const place = { account_id: actor.id, environment, seq: actor.wallets[environment].orders_count + 1 };
    if (ReferenceCodec.fits(place)) {
      const reference = this.codec.reference(day, place);
      if (!this.index_in_use || this.engine.journal.read(this.engine.store.order_refs, reference) === undefined) return { reference, seq: place.seq };
    }
    // seq null: a random reference, kept in the index.
    for (;;) {
      const reference = `BV-${day}-${random_reference_code(this.deps.random)}`;
      if (this.engine.journal.read(this.engine.store.order_refs, reference) !== undefined) continue;
      return { reference, seq: null };
    }
  }

  // ---- Placing ----------------------------------------------------------------------------------

  /**
   * Debits and places an order, then drives it to its first answer. Runs synchronously up to the
   * debit (it is called inside run_idempotent); returns the reply, or a promise of it.
   */
  place(actor: AccountActor, environment: Environment, request_id: string, idempotency_key: string | null, fingerprint: string, input: OrderRequest, authority: Authority, bulk_item = false): Reply | Promise<Reply> {
    const provider = this.providers[environment];
    const intent = { service_type: input.service_type, recipient: input.recipient, network: input.network, disco: input.disco, provider: input.provider };
    const down = provider.unavailable(intent);
    if (down !== null) return provider_unavailable(request_id, down.retry_after_s);
    // A routed provider names the upstream the order goes to first: its first attempt, durable with the debit.
    const upstream = provider.first_upstream?.(intent) ?? undefined;
    if (upstream === null) return provider_unavailable(request_id, 60);
    const now_ms = this.deps.clock.now_ms();
    const now_us = this.deps.clock.now_us();
    const { reference, seq } = this.new_reference(actor, environment, now_ms);
    const indexed = seq === null;
    // The tier is read in the command that debits: a tier or price change applies to the next purchase.
    let commission: number;
    let commissions: OrderCommission[] | undefined;
    if (actor.account.parent_id === undefined) {
      const rate_bp = this.pricing.rate_bp(actor.account.tier, input.service_type, narrow_value(input));
      // A quote fixed its commission (international airtime and data): the debit is exactly the quoted charge.
      commission = input.quoted_commission_kobo ?? commission_kobo(input.amount_kobo, rate_bp);
    } else {
      // An agent buys at its own rate, and each account above it earns its difference (docs/api.md "Agent pricing").
      const chain = [actor.account, ...this.engine.ancestors_of(actor).map((a) => a.account)];
      ({ commission_kobo: commission, commissions } = this.pricing.agent_commissions(chain, input.service_type, narrow_value(input), input.amount_kobo, input.quoted_commission_kobo));
    }
    const expected = expected_final_us(input.service_type, environment, now_us, requery_delays_ms, (ms) => this.deps.clock.scaled(ms));
    const order_placement = { environment, reference, idempotency_key, provider_request_id: provider_request_id(this.deps.random, now_ms), indexed, commission_kobo: commission, commissions, upstream, authority, expected_final_us: expected };
    const placed = this.engine.run(actor, { kind: 'place_order', input, placement: order_placement, stage_pending: !provider.instant }, now_us);
    if (!placed.ok) return this.refusal_reply(request_id, placed.refused);
    if (seq !== null && placed.value.seq !== seq) fail(`order ${reference} took seq ${placed.value.seq}, its reference names ${seq}`);
    let order = placed.value;
    if (provider.instant) {
      // Nothing leaves the process: pay in the same command, one commit for the debit and the
      // answer, and the order is written once, as it ends up.
      const result = provider.pay(order) as ProviderResult;
      order = this.apply(actor, order.reference, result, order) ?? order;
      if (is_final(order.status)) {
        const reply = this.reply_for(request_id, order);
        if (idempotency_key !== null) this.engine.run(actor, { kind: 'remember_answer', environment, key: idempotency_key, record: make_record(actor, fingerprint, reply, now_ms, order.reference, true) });
        return settle_after(actor, reply);
      }
    }
    if (idempotency_key !== null) {
      // The key now names this order, so a retry after a crash finds it (resume) instead of buying
      // again. The record is incomplete (no answer yet); finish() completes it.
      this.engine.run(actor, { kind: 'remember_answer', environment, key: idempotency_key, record: make_record(actor, fingerprint, { status: 0, body: '{}', headers: [] }, now_ms, order.reference, false) });
    }
    // The commit holding the debit and the order. Once it is durable, a later commit that fails (the
    // disk filled while the order waited for its answer) must not be answered "nothing was changed".
    const placement = actor.settled();
    const placed_order = order;
    // A bulk item waits its turn in the account's send lane, and may be cancelled until then.
    const answered = provider.instant ? this.wait_for_answer(actor, reference) : bulk_item ? this.send_queued(actor, reference) : this.send(actor, reference);
    return answered
      .then(async (final_order) => {
        // A later commit says nothing of an earlier one that failed: if the disk filled under the
        // debit's commit, the account was reloaded without this order, and answering from the wait
        // (which still held it) acknowledged an order that was never saved and whose reference the
        // account then handed out again (fault-disk-full). The order must be durable first.
        if (placement !== null) await placement;
        return this.finish(actor, environment, request_id, idempotency_key, fingerprint, final_order, now_ms);
      })
      .catch((error: unknown) => this.answer_as_placed(error, placement, request_id, idempotency_key, placed_order));
  }

  /**
   * A purchase whose answer could not be saved (the disk filled, or in cluster mode this node lost its
   * lease) while its order was saved before. If the order itself was not saved, nothing was: the error
   * stands. With an idempotency key, the answer is 503 with the order's reference: the key's record was
   * saved with the order, so a retry with the key finds the order and answers its outcome, and that
   * answer is the one remembered. A 201 "processing" here would be contradicted by that retry, which
   * answers the order as it ends (found by the cluster crash campaign: leaders deposed mid-purchase
   * answered 201 processing, and the same key then answered 422 transaction.failed). Without a key no
   * answer is remembered, so nothing can contradict the 201 "processing" with the order as saved.
   */
  private async answer_as_placed(error: unknown, placement: Promise<void> | null, request_id: string, idempotency_key: string | null, placed_order: OrderRecord): Promise<Reply> {
    if (!(error instanceof JournalFailure) || placement === null) throw error;
    const saved = await placement.then(() => true, () => false);
    if (!saved) throw error;
    this.deps.log.warn({ reference: placed_order.reference, request_id, with_key: idempotency_key !== null }, 'the answer of a saved order could not be saved');
    if (idempotency_key === null) return this.reply_for(request_id, placed_order);
    return error_reply(request_id, api_error('service.unavailable', 'The purchase was placed, but its answer could not be saved; retry with the same X-Idempotency-Key for its outcome.', {
      extra: { reference: placed_order.reference },
      headers: { 'Retry-After': '1' },
    }));
  }

  /**
   * Sends a live order once its debit is durable, then waits (up to 5 s) for an answer. first_answer is
   * called once the upstream's first answer is applied (or nothing was sent): the send lane's slot.
   */
  private async send(actor: AccountActor, reference: string, first_answer?: () => void): Promise<OrderRecord> {
    try {
      await actor.settled();
    } catch (error) {
      first_answer?.();
      throw error;
    }
    // A fenced engine sends nothing (docs/cluster.md "A deposed leader's local tail"): its journal refused a batch
    // and every one after it, so this order may exist in the local store only. settled() no longer says so once
    // the refusal was heard (the actor then waits on nothing): a bulk item whose turn in its send lane came after
    // the refusal was paid for although the cluster never had its order (cluster crash campaign, 2026-11-28).
    if (this.engine.fenced) {
      first_answer?.();
      throw new JournalFailure(new Error('the engine is fenced: nothing more is sent to an upstream'), new Set());
    }
    let order = actor.open_orders.get(reference);
    if (order === undefined) fail(`order ${reference} vanished before it was sent`);
    const provider = this.providers[order.environment];
    const waiting = this.wait_for_answer(actor, reference);
    order = this.engine.run(actor, { kind: 'mark_processing', order, provider_reference: null }, this.deps.clock.now_us());
    const paid = this.pay(actor, provider, order);
    if (first_answer !== undefined) void paid.finally(first_answer);
    return waiting;
  }

  // ---- The bulk send lane (docs/api.md "Cancel before sending") ---------------------------------
  //
  // A bulk order's live items are placed in one command, then sent through their account's lane, at most
  // bulk_sends_in_flight_max awaiting their upstream's first answer at once: an upstream is not handed a
  // hundred requests in one burst, and an item still waiting in the lane (pending: debited, not sent) can
  // be cancelled and refunded at once. The lane lives in memory: after a restart a pending item may have
  // been sent just before the crash, so it is re-queried like any order (OrderDesk.recover), never cancelled.

  /** Queued or in flight, per account: entries are open orders, so bounded by open_orders_max per account. */
  private readonly send_lanes = new Map<number, { running: number; queue: { reference: string; resolve: (order: Promise<OrderRecord>) => void }[] }>();
  /** References waiting in a lane, not yet sent: the orders a cancel may take. */
  private readonly queued = new Set<string>();

  private send_queued(actor: AccountActor, reference: string): Promise<OrderRecord> {
    let lane = this.send_lanes.get(actor.id);
    if (lane === undefined) this.send_lanes.set(actor.id, (lane = { running: 0, queue: [] }));
    const queued_lane = lane;
    this.queued.add(reference);
    return new Promise<Promise<OrderRecord>>((resolve) => {
      queued_lane.queue.push({ reference, resolve });
      this.pump(actor.id);
    }).then((sent) => sent);
  }

  private pump(account_id: number): void {
    const lane = this.send_lanes.get(account_id);
    if (lane === undefined) return;
    while (lane.running < bulk_sends_in_flight_max && lane.queue.length > 0) {
      const next = lane.queue.shift()!;
      this.queued.delete(next.reference);
      const actor = this.engine.accounts.get(account_id);
      const order = actor?.open_orders.get(next.reference);
      if (actor === undefined || actor.retired || order === undefined || order.status !== 'pending') {
        // Cancelled (or settled, or its account reloaded after a failed commit): nothing to send.
        next.resolve(Promise.resolve(order ?? this.find(next.reference) ?? fail(`queued order ${next.reference} vanished`)));
        continue;
      }
      lane.running++;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        lane.running--;
        this.pump(account_id);
      };
      next.resolve(this.send(actor, next.reference, release));
    }
    if (lane.running === 0 && lane.queue.length === 0) this.send_lanes.delete(account_id);
  }

  /**
   * Cancel before sending (docs/api.md "Cancel before sending"): a bulk item still waiting in its send lane
   * is failed and refunded at once (reason cancelled). An order already cancelled answers as it is; any
   * other (sent, settled, not a bulk item) is refused.
   */
  cancel(actor: AccountActor, reference: string): Outcome<OrderRecord> {
    const open = actor.open_orders.get(reference);
    if (open === undefined) {
      const settled = this.find(reference);
      if (settled === null) return refused({ refusal: 'order_not_open' });
      if (settled.status === 'failed' && settled.failure_reason === cancelled_reason) return ok(settled);
      return refused({ refusal: 'order_not_cancellable', status: settled.status });
    }
    if (!this.queued.has(reference)) return refused({ refusal: 'order_not_cancellable', status: open.status === 'pending' ? 'pending' : open.status });
    const now_ms = this.deps.clock.now_ms();
    const cancelled = this.engine.run(actor, { kind: 'cancel_order', reference }, this.deps.clock.now_us());
    if (!cancelled.ok) return cancelled;
    // It stays in its lane's queue until its turn, which then finds it failed and sends nothing.
    this.queued.delete(reference);
    this.time_refund(actor, cancelled.value, now_ms);
    return cancelled;
  }

  /** Hands an order to its holder; a definite refusal before processing moves it to the next upstream. */
  private pay(actor: AccountActor, provider: Provider, order: OrderRecord): Promise<void> {
    const reference = order.reference;
    return Promise.resolve(provider.pay(order)).then(
      (result) => {
        if (provider.next_upstream !== undefined && refused_before_processing(result)) {
          void this.fail_over(actor, provider, reference, result as { outcome: 'failed' | 'unknown' });
          return;
        }
        this.apply(actor, reference, result);
      },
      (error) => {
        this.apply(actor, reference, { outcome: 'unknown', reason: (error as Error).message });
      },
    );
  }

  /**
   * Failover (docs/decisions.md "Upstream routing and failover"): the order's holder refused it before
   * processing, so it goes to the next healthy upstream of its route under the same reference and a new
   * request id. The move is durable before the next upstream is called, so a restart re-queries the new
   * holder. No upstream left: the answer applies as it would with one upstream (a failure is refunded,
   * a request never sent stays processing and is re-queried).
   */
  private async fail_over(actor: AccountActor, provider: Provider, reference: string, result: { outcome: 'failed' | 'unknown'; reason?: string }): Promise<void> {
    const order = actor.retired ? undefined : actor.open_orders.get(reference);
    if (order === undefined || this.engine.degraded) {
      this.apply(actor, reference, result as ProviderResult);
      return;
    }
    const next = provider.next_upstream!(order);
    if (next === null) {
      this.apply(actor, reference, result as ProviderResult);
      return;
    }
    const now_ms = this.deps.clock.now_ms();
    const from = order.attempts?.[order.attempts.length - 1]?.upstream ?? null;
    const moved = this.engine.run(actor, { kind: 'move_order_upstream', order, refusal: result.outcome === 'failed' ? 'failed' : 'refused', upstream: next, request_id: provider_request_id(this.deps.random, now_ms) }, this.deps.clock.now_us());
    this.deps.log.warn({ reference, from, to: next, reason: result.reason }, 'order refused before processing; sent to the next upstream');
    try {
      await actor.settled();
    } catch {
      // The move was not saved: the account is reloaded from the store, where the order still names the
      // upstream that refused it; its re-queries settle it there. Nothing was sent to the next one.
      return;
    }
    const current = actor.open_orders.get(reference);
    if (actor.retired || current === undefined || current.provider_request_id !== moved.provider_request_id) return;
    this.pay(actor, provider, current);
  }

  /** Resolves with the order once it is final, or as it stands after 5 s (scaled). */
  private wait_for_answer(actor: AccountActor, reference: string): Promise<OrderRecord> {
    const current = actor.open_orders.get(reference);
    if (current === undefined) {
      const stored = this.find(reference);
      if (stored === null) fail(`order ${reference} not found`);
      return Promise.resolve(stored);
    }
    return new Promise((resolve) => {
      let done = false;
      const finish = (order: OrderRecord) => {
        if (done) return;
        done = true;
        timer.cancel();
        this.waiters.get(reference)?.delete(finish);
        if (this.waiters.get(reference)?.size === 0) this.waiters.delete(reference);
        resolve(order);
      };
      const timer = this.deps.wheel.schedule(purchase_wait_ms, () => finish(actor.open_orders.get(reference) ?? this.find(reference)!));
      let set = this.waiters.get(reference);
      if (set === undefined) this.waiters.set(reference, (set = new Set()));
      set.add(finish);
    });
  }

  /** Remembers the first answer for the idempotency key and replies once it is durable. */
  private finish(actor: AccountActor, environment: Environment, request_id: string, idempotency_key: string | null, fingerprint: string, order: OrderRecord, created_ms: number): Promise<Reply> {
    const reply = this.reply_for(request_id, order);
    if (idempotency_key !== null) {
      const record = make_record(actor, fingerprint, reply, created_ms, order.reference, true);
      this.engine.run(actor, { kind: 'remember_answer', environment, key: idempotency_key, record });
    }
    return settle_after(actor, reply);
  }

  reply_for(request_id: string, order: OrderRecord): Reply {
    if (order.status === 'failed') {
      return error_reply(request_id, api_error('transaction.failed', `Transaction failed and the wallet was refunded: ${(order.failure_reason ?? 'the provider could not deliver').replace(/\.$/, '')}.`, {
        extra: { reference: order.reference },
      }));
    }
    const { delivered: done, processing } = family_of(order.service_type).messages;
    // A purchase answers delivered or processing (docs/decisions.md); an order not yet handed over counts as
    // processing for the client, since its outcome will come the same way.
    const shown = order.status === 'pending' ? { ...order, status: 'processing' as const } : order;
    const reply = success_reply(request_id, 201, purchase_result_view(shown, this.deps.engine.secret_box), order.status === 'delivered' ? done : processing);
    // Purchased PINs are a secret: the answer remembered for a replay is sealed like a new API key.
    if (order.pins_sealed !== undefined && order.pins_sealed !== null) reply.secret = true;
    return reply;
  }

  /**
   * A retry of a purchase whose first answer a crash lost: the key names the order, so its answer is
   * built from the order as it stands (waiting up to 5 s if it is still open) and remembered.
   */
  resume(actor: AccountActor, environment: Environment, request_id: string, idempotency_key: string, record: IdempotencyRecord): Promise<Reply> {
    if (record.reference === null) fail('incomplete idempotency record without an order');
    const reference = record.reference;
    return this.wait_for_answer(actor, reference).then((order) => this.finish(actor, environment, request_id, idempotency_key, record.fingerprint, order, record.created_ms));
  }

  // ---- Answers ----------------------------------------------------------------------------------

  /** Applies an answer to an open order, wakes its waiters and plans its next re-query. */
  private apply(held: AccountActor, reference: string, result: ProviderResult, unstaged?: OrderRecord): OrderRecord | null {
    // A provider's answer can arrive after a failed commit replaced the account's actor: it goes to the
    // reloaded one, which holds the order only if its debit was saved (AccountActor.retired_by).
    const actor = held.retired && unstaged === undefined ? this.engine.accounts.get(held.id) : held;
    if (actor === undefined || actor.retired) return null;
    const before = unstaged ?? actor.open_orders.get(reference);
    if (before === undefined) return null;
    const now_ms = this.deps.clock.now_ms();
    const not_found_is_final = now_ms - before.created_us / 1000 >= this.deps.wheel.scaled(not_found_grace_ms);
    if (result.outcome === 'unknown') this.deps.log.warn({ reference, reason: result.reason }, 'provider answer unclear; the order stays processing');
    const order = this.engine.run(actor, { kind: 'provider_result', reference, result, not_found_is_final, unstaged }, this.deps.clock.now_us());
    if (order === null) return null;
    if (order.reversed && !before.reversed) this.time_refund(actor, order, now_ms);
    if (is_final(order.status)) {
      // Outside the command: a platform-wide record, not the account's (docs/decisions.md "Ported numbers").
      this.numbers.delivered(order);
      this.requery_timers.get(reference)?.cancel();
      this.requery_timers.delete(reference);
      this.notify(order);
    } else if (!this.requery_timers.has(reference)) {
      this.plan_requery(actor, order);
    }
    return order;
  }

  /**
   * Measures one refund: from when the failure was known here (the answer's arrival, or our decision) to the
   * commit holding the refund entry on disk. A commit that fails measures nothing: the refund was not made.
   */
  private time_refund(actor: AccountActor, order: OrderRecord, known_ms: number): void {
    const observer = this.refund_observer;
    if (observer === null) return;
    const durable = actor.settled();
    const observe = () => observer(order.environment, this.deps.clock.now_ms() - known_ms);
    if (durable === null) observe();
    else durable.then(observe, () => {});
  }

  private notify(order: OrderRecord): void {
    const set = this.waiters.get(order.reference);
    if (set === undefined) return;
    for (const wake of [...set]) wake(order);
  }

  private on_provider_update(order: OrderRecord, result: ProviderResult): void {
    const actor = this.engine.accounts.get(order.account_id);
    if (actor === undefined || this.engine.degraded) return;
    this.apply(actor, order.reference, result);
  }

  /**
   * Schedules the next re-query, or hands the order to the operator after 24 h. An override is a
   * duration of the spec, or wall time when it is no such duration (the spread at start).
   */
  private plan_requery(actor: AccountActor, held: OrderRecord, delay_override?: { spec_ms: number } | { wall_ms: number }): void {
    const now_ms = this.deps.clock.now_ms();
    const wheel = this.deps.wheel;
    let order = held;
    if (now_ms - order.created_us / 1000 >= wheel.scaled(review_after_ms)) {
      // An escalated order is in review already, and still re-queried until now: the re-queries stop.
      if (!order.needs_review || order.next_requery_ms !== 0) {
        this.engine.run(actor, { kind: 'schedule_requery', order, next_requery_ms: 0, needs_review: true });
        if (order.delayed_us === undefined) this.deps.log.warn({ reference: order.reference, account: actor.id }, 'order has had no answer for 24 hours; it needs an operator decision');
      }
      return;
    }
    // Past its promised time without an answer: escalated once (docs/api.md "A promised time"), and still
    // re-queried on the schedule until an answer or the 24 hours.
    if (order.delayed_us === undefined && order.expected_final_us !== undefined && now_ms * 1000 >= order.expected_final_us) {
      order = this.engine.run(actor, { kind: 'escalate_order', order, review_by_us: order.created_us + Math.round(wheel.scaled(review_after_ms) * 1000) }, this.deps.clock.now_us());
      this.deps.log.warn({ reference: order.reference, account: actor.id }, 'order passed its promised time without an answer; it needs an operator decision');
    }
    const delay_ms = delay_override === undefined ? requery_delays_ms[Math.min(order.requery_count, requery_delays_ms.length - 1)] : 0;
    const updated = delay_override === undefined ? this.engine.run(actor, { kind: 'schedule_requery', order, next_requery_ms: now_ms + wheel.scaled(delay_ms), needs_review: false }) : order;
    const reference = updated.reference;
    const run = () => {
      this.requery_timers.delete(reference);
      this.requery(reference, updated.account_id);
    };
    const timer = delay_override === undefined ? wheel.schedule(delay_ms, run)
      : 'wall_ms' in delay_override ? wheel.schedule_wall(delay_override.wall_ms, run)
      : wheel.schedule(delay_override.spec_ms, run);
    this.requery_timers.set(reference, timer);
  }

  private requery(reference: string, account_id: number): void {
    const actor = this.engine.accounts.get(account_id);
    const order = actor?.open_orders.get(reference);
    if (actor === undefined || order === undefined) return;
    if (this.engine.degraded) {
      // The store refuses writes: try again later rather than lose the answer.
      this.plan_requery(actor, order, { spec_ms: requery_delays_ms[0] });
      return;
    }
    const provider = this.providers[order.environment];
    Promise.resolve(provider.requery(order)).then(
      (result) => this.after_requery(reference, account_id, result),
      (error) => this.after_requery(reference, account_id, { outcome: 'unknown', reason: (error as Error).message }),
    );
  }

  /**
   * Applies a re-query's answer to an open order and plans the next re-query while it stays open. Also the
   * way an upstream's callback settles an open order, after its own re-query (services/upstreams/upstream-callbacks.ts).
   */
  after_requery(reference: string, account_id: number, result: ProviderResult): void {
    const actor = this.engine.accounts.get(account_id);
    if (actor === undefined) return;
    const order = this.apply(actor, reference, result);
    if (order !== null && !is_final(order.status) && !this.requery_timers.has(reference)) this.plan_requery(actor, order);
  }

  /**
   * Requery now (docs/api.md "Requery now"): asks a processing order's holder at once, through the
   * same provider call and command as a scheduled re-query, and gives the order as it stands after.
   * A settled order is answered as it is: no upstream call and no limit; so is an order not yet sent
   * (pending: there is nothing to ask the upstream about yet). Otherwise once per order per
   * requery_now_interval_ms of real time.
   */
  requery_now(actor: AccountActor, reference: string): RequeryNow {
    const order = actor.open_orders.get(reference);
    if (order === undefined || order.status === 'pending') return { order: Promise.resolve(order ?? this.find(reference)!) };
    const now_ms = this.deps.clock.now_ms();
    const last_ms = this.requery_now_at.get(reference);
    if (last_ms !== undefined && now_ms - last_ms < requery_now_interval_ms) {
      return { retry_after_s: Math.max(1, Math.ceil((last_ms + requery_now_interval_ms - now_ms) / 1000)) };
    }
    this.requery_now_at.delete(reference);
    if (this.requery_now_at.size >= requery_now_orders_max) {
      // Oldest first: drop the entries whose 30 s have passed; if none has, every entry still limits its order.
      for (const [each, at_ms] of this.requery_now_at) {
        if (now_ms - at_ms < requery_now_interval_ms) break;
        this.requery_now_at.delete(each);
      }
      if (this.requery_now_at.size >= requery_now_orders_max) {
        const oldest_ms = this.requery_now_at.values().next().value as number;
        return { retry_after_s: Math.max(1, Math.ceil((oldest_ms + requery_now_interval_ms - now_ms) / 1000)) };
      }
    }
    this.requery_now_at.set(reference, now_ms);
    // The store refuses writes: an answer could not be kept; the order is shown as it stands.
    if (this.engine.degraded) return { order: Promise.resolve(order) };
    const provider = this.providers[order.environment];
    const account_id = actor.id;
    const asked = Promise.resolve()
      .then(() => provider.requery(order))
      .then(
        (result) => this.after_requery(reference, account_id, result),
        (error: unknown) => this.after_requery(reference, account_id, { outcome: 'unknown', reason: (error as Error).message }),
      )
      .then(() => this.engine.accounts.get(account_id)?.open_orders.get(reference) ?? this.find(reference) ?? order);
    return { order: asked };
  }

  // ---- Recovery and lookups ---------------------------------------------------------------------

  /** After a restart every open order is re-queried, never sent again (it may have been sent). */
  recover(engine: Engine): void {
    let count = 0;
    for (const { key, value } of engine.store.open_orders.getRange({})) {
      const [account_id, environment, seq] = value as [number, Environment, number];
      const order = engine.store.orders.get([account_id, environment, seq]) as OrderRecord | undefined;
      const actor = engine.accounts.get(account_id);
      if (order === undefined || actor === undefined || order.reference !== key) {
        fail(`open order ${String(key)} does not match its record`);
      }
      assert_order(order);
      actor.open_orders.set(order.reference, order);
      count++;
    }
    // A pending order may have reached the provider just before the crash: it is processing from now
    // on (re-queried, never sent again), and a retry of its purchase answers "processing".
    const now_us = this.deps.clock.now_us();
    for (const actor of engine.accounts.values()) {
      for (const order of [...actor.open_orders.values()]) {
        if (order.status === 'pending') this.engine.run(actor, { kind: 'mark_processing', order, provider_reference: null }, now_us);
      }
    }
    // Re-queries start once the server is up; spread over a second so a large backlog does not burst.
    // plan_requery decides by the order's age: past 24 hours it stays in review without a re-query; an
    // escalated order (needs_review too) is re-queried until then. The stored marker of the 24-hour review
    // (needs_review with no re-query planned) is no test here: an order escalated by the previous start
    // and killed before its first re-query was answered carries it too, and would never be asked again
    // (the 30-round crash campaign with cancels: test/crash/README.md "Cancel runs").
    for (const actor of engine.accounts.values()) {
      for (const order of [...actor.open_orders.values()]) {
        this.plan_requery(actor, order, { wall_ms: Math.floor(this.deps.random.fraction() * 1000) });
      }
    }
    if (count > 0) engine.log.info({ open_orders: count }, 'open orders resumed');
  }

  reloaded(actor: AccountActor): void {
    // The actor was rebuilt from the store after a failed commit: reload its open orders too.
    for (const { key, value } of this.engine.store.open_orders.getRange({})) {
      const [account_id, environment, seq] = value as [number, Environment, number];
      if (account_id !== actor.id) continue;
      const order = this.engine.store.orders.get([account_id, environment, seq]) as OrderRecord | undefined;
      if (order !== undefined && order.reference === key) {
        actor.open_orders.set(order.reference, order);
        if (!this.requery_timers.has(order.reference)) this.plan_requery(actor, order, { spec_ms: requery_delays_ms[0] });
      }
    }
  }

  /**
   * The order with this reference as it stands: memory for open orders, else the store as staged (an
   * order that became final in a commit not yet durable is read through the journal).
   */
  find(reference: string): OrderRecord | null {
    // A reference is 24 characters; a path parameter can be up to the 16 KiB request head, and LMDB refuses
    // a key over 1,978 bytes with a RangeError (a 500 the fuzzer found once the head limit was raised).
    if (reference.length > reference_length_max) return null;
    const place = this.codec.place_of(reference);
    if (place !== null) {
      const open = this.engine.accounts.get(place.account_id)?.open_orders.get(reference);
      if (open !== undefined) return open;
      const stored = this.engine.journal.read(this.engine.store.orders, [place.account_id, place.environment, place.seq]) as OrderRecord | undefined;
      if (stored !== undefined && stored.reference === reference) return stored;
      // Only an indexed reference that happens to decode to a place can still be found.
      if (!this.index_in_use) return null;
    }
    const location = this.engine.journal.read(this.engine.store.order_refs, reference) as [number, Environment, number] | undefined;
    if (location === undefined) return null;
    const open = this.engine.accounts.get(location[0])?.open_orders.get(reference);
    if (open !== undefined) return open;
    return (this.engine.journal.read(this.engine.store.orders, location) as OrderRecord | undefined) ?? null;
  }

  /** Orders without an answer for 24 hours, across accounts (operator API). */
  needing_review(): OrderRecord[] {
    const out: OrderRecord[] = [];
    for (const actor of this.engine.accounts.values()) for (const order of actor.open_orders.values()) if (order.needs_review) out.push(order);
    return out;
  }

  /** After an operator resolved an order: wake anyone waiting on it. */
  resolved(order: OrderRecord): void {
    this.requery_timers.get(order.reference)?.cancel();
    this.requery_timers.delete(order.reference);
    this.notify(order);
  }
}

/**
 * A definite "not processed" (a failure the upstream marks `refused`: VTpass 091 and the other refusals of
 * src/services/upstreams/vtpass-codes.ts, a Flutterwave 4xx on payment), or a request that provably never
 * reached the upstream. A failure of a processed transaction is refunded where it stands, and an unclear
 * answer (VTpass 019 included) is re-queried under its own request id: neither moves (docs/upstreams.md).
 */
function refused_before_processing(result: ProviderResult): boolean {
  return (result.outcome === 'failed' && result.refused === true) || (result.outcome === 'unknown' && result.not_sent === true);
}

function settle_after(actor: AccountActor, reply: Reply): Promise<Reply> {
  const pending = actor.settled();
  return pending === null ? Promise.resolve(reply) : pending.then(() => reply);
}

export { provider_unavailable };

export type { ApiError };
