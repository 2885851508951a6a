// The order desk runs each purchase's life cycle around the account actor (docs/decisions.md
// "Transactions"): the debit and the pending order are one command; the provider is called only once
// that command is durable (or in the same turn for the sandbox, which touches nothing outside);
// the request waits up to 5 s for an answer; open orders are re-queried on a schedule from the timer
// wheel (30 s, 1 min, 2 min, then every 5 min); a failure is refunded in the command that learns
// it; after 24 h without an answer the order waits for the operator. A restart re-queries every
// open order: none is sent twice, lost, or refunded twice. The desk says what happened to a purchase
// (Placement, the order as it stands); its HTTP reply, the idempotency record of that reply and the wait
// for durability before it leaves are the front end's (front/purchase.ts).
//
// The desk is one object (one set of timers and waiters, shared by every concept), built as a chain of
// classes, one concept per file, each using the ones listed before it (the re-query planning names the
// answer's application, which the next layer defines):
//   order-references.ts   a new order's reference; the order a reference names
//   requery-planning.ts   re-queries on the wheel, escalation past the promised time, review after 24 h, requery-now
//   order-answers.ts      an answer applied, its waiters woken (a purchase waits up to 5 s), its refund timed
//   order-sending.ts      a live order sent once its debit is durable; failover to the next upstream
//   bulk-send-lane.ts     bulk items sent a few at a time per account; cancel before sending
//   order-desk.ts         (this file) placing a purchase, recovery after a restart, an operator's resolution
import type { EngineContext } from '../engine/context.js';
import type { AccountActor } from '../engine/account-actor.js';
import type { Environment, IdempotencyRecord } from '../engine/records.js';
import type { Engine, EngineExtension } from '../engine/engine.js';
import type { OrderRequest } from '../engine/account-orders.js';
import type { Authority } from '../engine/authority.js';
import { make_record } from '../engine/idempotency.js';
import type { Refusal } from '../engine/refusal.js';
import { assert_order, is_final, type OrderRecord } from './order.js';
import { provider_unavailable, type Provider, type ProviderResult } from './provider.js';
import { fail } from '../lib/assert.js';
import { commission_kobo, narrow_value, type PriceLists } from './pricing.js';
import type { OrderCommission } from '../engine/order-record.js';
import type { PhoneNetworks } from './phone-networks.js';
import { expected_final_us } from './promised-time.js';
import { ForeignQuotes } from './foreign-quotes.js';
import { BulkSendLane } from './bulk-send-lane.js';
import { provider_request_id } from './provider-request-id.js';
import { requery_delays_ms } from './requery-planning.js';

/**
 * What placing a purchase did, as data (docs/style.md "Business outcomes are data"): the front end turns
 * it into the purchase's reply (front/purchase.ts), a bulk order into its item (bulk/item-purchaser.ts).
 */
export type Placement =
  /** The provider takes no order for this now: nothing was debited; a retry may succeed after retry_after_s. */
  | { kind: 'unavailable'; retry_after_s: number }
  /** The command that debits refused (balance, daily limit, client reference, authority): nothing was debited. */
  | { kind: 'refused'; refusal: Refusal }
  /**
   * The order was answered in the command that placed it (the sandbox) and is final. remembered: its
   * answer's record (AnswerRecord) was staged in that command under the idempotency key; false without a
   * key, or without a record builder (then the caller remembers it in this same synchronous run).
   */
  | { kind: 'final'; order: OrderRecord; placed_ms: number; remembered: boolean }
  /**
   * The order was placed (with an idempotency key, under an incomplete record naming it) and sent, or
   * queued in the bulk send lane. `answered` resolves with the order once it is final, or as it stands
   * after 5 s (purchase_wait_ms); `placement` is the commit holding the debit and the order (null: durable).
   */
  | { kind: 'sent'; order: OrderRecord; placed_ms: number; placement: Promise<void> | null; answered: Promise<OrderRecord> };

/**
 * The complete idempotency record of a purchase's answer, given the order final and when it was placed:
 * built by whoever answers the purchase (front/purchase.ts), staged by the desk in the command that
 * places and answers it (purchase_now), so the debit and the remembered answer are one record.
 */
export type AnswerRecord = (order: OrderRecord, placed_ms: number) => IdempotencyRecord;

export class OrderDesk extends BulkSendLane implements EngineExtension {
  /** International airtime's quotes (docs/api.md "International airtime and data"): in memory, bounded. */
  readonly foreign_quotes: ForeignQuotes;

  constructor(
    deps: EngineContext,
    providers: Record<Environment, Provider>,
    pricing: PriceLists,
    numbers: PhoneNetworks,
  ) {
    super(deps, providers, pricing, numbers);
    this.foreign_quotes = new ForeignQuotes(deps.clock, deps.random);
    for (const provider of Object.values(providers)) {
      provider.on_update((order, result) => this.on_provider_update(order, result));
    }
  }

  // ---- Placing ----------------------------------------------------------------------------------

  /**
   * Debits and places an order, then drives it to its first answer. Runs synchronously up to the
   * debit (it is called inside run_idempotent) and says what happened (Placement); the front end
   * answers it (front/purchase.ts).
   */
  place(actor: AccountActor, environment: Environment, idempotency_key: string | null, fingerprint: string, input: OrderRequest, authority: Authority, bulk_item = false, answer_record: AnswerRecord | null = null): Placement {
    const provider = this.providers[environment];
    const intent = { service_type: input.service_type, recipient: input.recipient, network: input.network, disco: input.disco, provider: input.provider };
    const down = provider.unavailable(intent);
    if (down !== null) return { kind: 'unavailable', retry_after_s: down.retry_after_s };
    // A routed provider names the upstream the order goes to first: its first attempt, durable with the debit.
    const upstream = provider.first_upstream?.(intent) ?? undefined;
    if (upstream === null) return { kind: 'unavailable', retry_after_s: 60 };
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
    // Under an idempotency key the key names the order from its first commit, so a retry after a crash
    // finds it (resume) instead of buying again: with the answer's record when the order is final at once
    // and the caller gave its builder, else incomplete (no answer yet), for the front end to complete.
    let remembered = false;
    const remember = idempotency_key === null ? null : (order: OrderRecord): IdempotencyRecord => {
      if (answer_record !== null && is_final(order.status)) {
        remembered = true;
        return answer_record(order, now_ms);
      }
      return make_record(actor, fingerprint, { status: 0, body: '{}', headers: [] }, now_ms, order.reference, false);
    };
    let order: OrderRecord;
    if (provider.instant) {
      // Nothing leaves the process: the debit, the provider's answer and the remembered answer are one
      // command, one commit, and the order is written once, as it ends up.
      const bought = this.engine.run(actor, { kind: 'purchase_now', input, placement: order_placement, answer: (placed) => provider.pay(placed) as ProviderResult, remember }, now_us);
      if (!bought.ok) return { kind: 'refused', refusal: bought.refused };
      if (seq !== null && bought.value.placed.seq !== seq) fail(`order ${reference} took seq ${bought.value.placed.seq}, its reference names ${seq}`);
      order = bought.value.answered;
      this.answered(actor, bought.value.placed, order, now_ms);
      if (is_final(order.status)) {
        // Without a builder the record staged is the incomplete one: the caller completes it now.
        return { kind: 'final', order, placed_ms: now_ms, remembered };
      }
    } else {
      const placed = this.engine.run(actor, { kind: 'place_order', input, placement: order_placement }, now_us);
      if (!placed.ok) return { kind: 'refused', refusal: placed.refused };
      if (seq !== null && placed.value.seq !== seq) fail(`order ${reference} took seq ${placed.value.seq}, its reference names ${seq}`);
      order = placed.value;
      if (remember !== null) this.engine.run(actor, { kind: 'remember_answer', environment, key: idempotency_key!, record: remember(order) });
    }
    // The commit holding the debit and the order. Once it is durable, a later commit that fails (the
    // disk filled while the order waited for its answer) must not be answered "nothing was changed".
    const placement = actor.settled();
    // A bulk item waits its turn in the account's send lane, and may be cancelled until then.
    const answered = provider.instant ? this.wait_for_answer(actor, reference) : bulk_item ? this.send_queued(actor, reference) : this.send(actor, reference);
    return { kind: 'sent', order, placed_ms: now_ms, placement, answered };
  }

  /**
   * A retry of a purchase whose first answer a crash lost: the key names the order, so its answer is
   * the order as it stands (waited for up to 5 s if it is still open).
   */
  resume(actor: AccountActor, record: IdempotencyRecord): Promise<OrderRecord> {
    if (record.reference === null) fail('incomplete idempotency record without an order');
    return this.wait_for_answer(actor, record.reference);
  }

  // ---- Recovery and an operator's resolution ----------------------------------------------------

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

  /** After an operator resolved an order: wake anyone waiting on it. */
  resolved(order: OrderRecord): void {
    this.requery_timers.get(order.reference)?.cancel();
    this.requery_timers.delete(order.reference);
    this.notify(order);
  }
}

export { provider_unavailable };
