// The account actor's order commands (docs/style.md: one place mutates account state; these functions are
// that place for orders, kept in their own file): the order's state transitions from its placement (the
// debit) through the provider's answers, a move to the next upstream, re-query schedules, escalation,
// cancellation and the operator's resolution, to its refund or a reversal after delivery. Each runs
// synchronously inside AccountActor.execute (the place_order, provider_result, mark_processing,
// move_order_upstream, schedule_requery and resolve_order commands), stages its changes through the actor
// and returns its outcome as data. Not here: the order index and its counts (order-index.ts), the
// client-reference claims (client-reference-claims.ts), the history queries (order-history.ts), the
// order record and its assertion (order-record.ts).
import { purchase_description, refund_description } from './entry-descriptions.js';
import type { CommandActor } from './command-actor.js';
import { ok, refused, type Outcome } from './refusal.js';
import type { Environment, IdempotencyRecord } from './records.js';
import { stage_record } from './idempotency.js';
import { lagos_day } from '../lib/time-format.js';
import { assert_order, charged_kobo, is_final, type OrderCommission, type OrderRecord, type OrderStatus, type ProviderResult, type UpstreamAttempt } from './order-record.js';
import { fail } from '../lib/assert.js';
import { check_low_balance } from './low-balance.js';
import { authority_refusal, type Authority } from './authority.js';
import { stage_order_index } from './order-index.js';
import { claim_of } from './client-reference-claims.js';

/** Open orders one account may hold at once (pending or processing): the in-memory bound. */
export const open_orders_max = 100_000;

/**
 * What the reseller asked for, validated and priced: the order record's fields of the same name and
 * meaning (src/engine/order-record.ts documents each).
 */
export type OrderRequest = Pick<
  OrderRecord,
  | 'service_type' | 'network' | 'disco' | 'provider' | 'recipient' | 'plan_code' | 'plan' | 'package_code'
  | 'meter_type' | 'amount_kobo' | 'customer_name' | 'client_reference' | 'metadata' | 'quantity' | 'customer_id'
  | 'subscription_type' | 'foreign'
> & {
  /**
   * The commission a quote fixed (international airtime and data): the debit is then exactly the quoted
   * charge, whatever the tier's rate is now (docs/api.md "International airtime and data"). Absent: the
   * tier's rate at the debit decides.
   */
  quoted_commission_kobo?: number;
};

/** What the order desk assigns to a request when it places it. */
export interface OrderPlacement {
  environment: Environment;
  reference: string;
  idempotency_key: string | null;
  provider_request_id: string;
  /** Whether the reference needs the order_refs index (a random one: see services/references.ts). */
  indexed: boolean;
  /** The reseller's commission from the account's tier, read in this command (services/pricing.ts). */
  commission_kobo: number;
  /**
   * An agent's order: what each account above it earns (services/pricing.ts agent_commissions), nearest
   * first, credited in this command. Absent or empty for an account at the top.
   */
  commissions?: OrderCommission[];
  /** The upstream a routed live order goes to first: its first attempt (docs/api.md "Upstream attempts"). */
  upstream?: string;
  /** Who the order is placed for: checked again here, in the command that debits (engine/authority.ts). */
  authority: Authority;
  /** When the order is expected to be final (services/promised-time.ts); absent: no promise (engine tests). */
  expected_final_us?: number;
}

export function stage_order(actor: CommandActor, order: OrderRecord): void {
  assert_order(order);
  const store = actor.engine.store;
  actor.stage_put(store.orders, [actor.id, order.environment, order.seq], order);
  stage_order_index(actor, order, actor.open_orders.get(order.reference));
  if (is_final(order.status)) {
    if (actor.open_orders.delete(order.reference)) actor.stage_remove(store.open_orders, order.reference);
  } else {
    if (!actor.open_orders.has(order.reference)) actor.stage_put(store.open_orders, order.reference, [actor.id, order.environment, order.seq]);
    actor.open_orders.set(order.reference, order);
  }
}

/**
 * Checks the KYC daily limit and the balance, then debits the wallet and creates the order as
 * pending, all in one command: 200 concurrent purchases against a wallet that affords 100 deliver
 * exactly 100, because each check and its debit run without interruption.
 */
export function place_order(actor: CommandActor, input: OrderRequest, placement: OrderPlacement, now_us: number, stage_pending = true): Outcome<OrderRecord> {
  const { environment, reference } = placement;
  const now_ms = Math.floor(now_us / 1000);
  const wallet = actor.wallets[environment];
  // First of all: a key revoked or a session ended while the request awaited pays for nothing, and is
  // answered as a request arriving with it now (docs/decisions.md "Authority at the debit").
  const denied = authority_refusal(actor, placement.authority, now_ms);
  if (denied !== null) return refused(denied);
  // Checked and claimed in this command, before the debit (docs/api.md "Client references").
  const client_reference = input.client_reference ?? null;
  if (client_reference !== null) {
    const existing = claim_of(actor.effects, actor.engine.store, actor.id, environment, client_reference);
    if (existing !== null) {
      return refused({ refusal: 'duplicate_client_reference', client_reference, reference: existing });
    }
  }
  // The wallet pays the discounted price: the daily limit and the balance are judged on it (docs/api.md "Pricing").
  const charged = input.amount_kobo - placement.commission_kobo;
  if (!(placement.commission_kobo >= 0 && charged > 0)) fail(`order ${reference} commission ${placement.commission_kobo} of ${input.amount_kobo}`);
  const { spent_kobo, limit_kobo } = actor.daily_spend(environment, now_ms);
  if (spent_kobo + charged > limit_kobo) {
    return refused({ refusal: 'daily_limit_exceeded', limit_kobo, left_kobo: Math.max(0, limit_kobo - spent_kobo) });
  }
  if (charged > wallet.balance_kobo) {
    return refused({ refusal: 'insufficient_funds', balance_kobo: wallet.balance_kobo, charged_kobo: charged });
  }
  if (actor.open_orders.size >= open_orders_max) {
    return refused({ refusal: 'open_orders_full' });
  }
  const today = lagos_day(now_ms);
  // Spend and order count first, so that the debit's single wallet write carries them too.
  if (wallet.spend_day !== today) {
    wallet.spend_day = today;
    wallet.spend_day_kobo = 0;
  }
  wallet.spend_day_kobo += charged;
  wallet.orders_count += 1;
  const entry = actor.append_entry(environment, 'debit', charged, reference, purchase_description(input), now_us);
  const order: OrderRecord = {
    reference,
    account_id: actor.id,
    environment,
    seq: wallet.orders_count,
    service_type: input.service_type,
    network: input.network,
    disco: input.disco,
    provider: input.provider,
    recipient: input.recipient,
    plan_code: input.plan_code,
    plan: input.plan,
    package_code: input.package_code,
    meter_type: input.meter_type,
    amount_kobo: input.amount_kobo,
    amount_charged_kobo: charged,
    commission_kobo: placement.commission_kobo,
    provider_commission_kobo: null,
    status: 'pending',
    token: null,
    units: null,
    customer_name: input.customer_name,
    wallet_balance_before_kobo: entry.balance_before_kobo,
    wallet_balance_after_kobo: entry.balance_after_kobo,
    failure_reason: null,
    reversed: false,
    created_us: now_us,
    updated_us: now_us,
    delivered_us: null,
    failed_us: null,
    reversed_us: null,
    status_history: [{ status: 'pending', at_us: now_us }],
    idempotency_key: placement.idempotency_key,
    provider_request_id: placement.provider_request_id,
    provider_reference: null,
    spend_day: today,
    requery_count: 0,
    next_requery_ms: 0,
    needs_review: false,
    client_reference,
    metadata: input.metadata ?? null,
  };
  if (placement.expected_final_us !== undefined) order.expected_final_us = placement.expected_final_us;
  if (input.quantity !== undefined) order.quantity = input.quantity;
  if (input.customer_id !== undefined) order.customer_id = input.customer_id;
  if (input.subscription_type !== undefined) order.subscription_type = input.subscription_type;
  if (input.foreign !== undefined) order.foreign = { ...input.foreign };
  if (placement.upstream !== undefined) {
    order.attempts = [{ upstream: placement.upstream, request_id: placement.provider_request_id, outcome: 'sent', at_us: now_us }];
    stage_provider_request(actor, order, placement.provider_request_id);
  }
  if (placement.indexed) actor.stage_put(actor.engine.store.order_refs, order.reference, [actor.id, order.environment, order.seq]);
  const earned = placement.commissions?.filter((c) => c.amount_kobo > 0) ?? [];
  if (earned.length > 0) order.commissions = earned.map((c) => ({ account_id: c.account_id, amount_kobo: c.amount_kobo }));
  // An order paid in the same command (the sandbox) is written once, as it ends up; the caller stages it.
  if (stage_pending) stage_order(actor, order);
  actor.emit(order.environment, 'wallet.debited', { entry, order });
  check_low_balance(actor, order.environment, entry);
  if (order.commissions !== undefined) credit_commissions(actor, order, now_us);
  return ok(order);
}

/**
 * A purchase whose provider answers at once (the sandbox), as one command: placed (place_order, the order
 * not staged yet), answered (apply_provider_result: the order is staged once, as it ends up), and the
 * reply remembered under the request's idempotency key (engine/idempotency.ts), so the debit, the order,
 * its index, its events and the remembered answer are one record. A refused placement asks the provider
 * nothing. The order the answer completes is a copy of the one placed: the wallet.debited event holds the
 * order as placed, and its body is built after the command returns.
 */
export function purchase_now(actor: CommandActor, input: OrderRequest, placement: OrderPlacement, answer: (placed: OrderRecord) => ProviderResult, remember: ((answered: OrderRecord) => IdempotencyRecord) | null, now_us: number): Outcome<{ placed: OrderRecord; answered: OrderRecord }> {
  const placed = place_order(actor, input, placement, now_us, false);
  if (!placed.ok) return placed;
  const order = placed.value;
  const unstaged: OrderRecord = { ...order, status_history: [...order.status_history] };
  const answered = apply_provider_result(actor, order.reference, answer(order), now_us, false, unstaged);
  if (answered === null) fail(`order ${order.reference} placed and not found by its answer`);
  if (remember !== null) {
    if (placement.idempotency_key === null) fail(`order ${order.reference} remembered without an idempotency key`);
    stage_record(actor, placement.environment, placement.idempotency_key, remember(answered));
  }
  return ok({ placed: order, answered });
}

/**
 * Each ancestor's commission on an agent's order, in the command that debits the agent (Engine.run runs it
 * over the agent and its ancestors): an entry of type commission carrying the order's reference and naming
 * the agent, and wallet.credited (docs/decisions.md "Commissions down the tree").
 */
function credit_commissions(actor: CommandActor, order: OrderRecord, now_us: number): void {
  for (const c of order.commissions!) {
    const ancestor = actor.effects.held(c.account_id);
    const entry = ancestor.append_entry(order.environment, 'commission', c.amount_kobo, order.reference, `Commission on ${actor.account.name}'s order ${order.reference} (account ${actor.id})`, now_us, undefined, actor.id);
    ancestor.emit(order.environment, 'wallet.credited', { entry });
  }
}

/**
 * Reverses an agent's order's commissions once, with its refund: each ancestor gives back its commission
 * (commission_reversal, wallet.debited), or what its balance holds when it has spent it (a balance never
 * goes below zero); the rest is returned as the shortfall, the operator's loss, recorded on the order.
 */
function reverse_commissions(actor: CommandActor, order: OrderRecord, now_us: number): number {
  let shortfall = 0;
  for (const c of order.commissions ?? []) {
    const ancestor = actor.effects.held(c.account_id);
    const taken = Math.min(c.amount_kobo, ancestor.wallets[order.environment].balance_kobo);
    shortfall += c.amount_kobo - taken;
    if (taken === 0) continue;
    const entry = ancestor.append_entry(order.environment, 'commission_reversal', taken, order.reference, `Commission reversed: ${actor.account.name}'s order ${order.reference} refunded (account ${actor.id})`, now_us, undefined, actor.id);
    ancestor.emit(order.environment, 'wallet.debited', { entry });
    check_low_balance(ancestor, order.environment, entry);
  }
  return shortfall;
}

/** Purchased PINs are sealed before they reach the order record, so the store never holds them in plain text. */
function seal_pins(actor: CommandActor, pins: readonly { serial: string | null; pin: string }[]): string {
  return actor.engine.secret_box.seal(JSON.stringify(pins.map((p) => ({ serial: p.serial, pin: p.pin }))));
}

function with_status(order: OrderRecord, status: OrderStatus, now_us: number, changes: Partial<OrderRecord> = {}): OrderRecord {
  const base = changes.status_history ?? order.status_history;
  const history = order.status === status ? base : [...base, { status, at_us: now_us }];
  return { ...order, ...changes, status, status_history: history, updated_us: now_us };
}

/** Why an order failed on an upstream's "no such request" believed after the not-found grace (services/order-answers.ts). */
export const not_found_reason = 'The provider has no record of this order; it was not processed.';

/**
 * Applies a provider's answer to an open order. A final order ignores later answers (a late
 * callback after a re-query settled it), so each order is delivered or refunded exactly once.
 * Returns the order as it now stands.
 */
export function apply_provider_result(actor: CommandActor, reference: string, result: ProviderResult, now_us: number, not_found_is_final: boolean, unstaged?: OrderRecord): OrderRecord | null {
  const order = unstaged ?? actor.open_orders.get(reference);
  if (order === undefined) return null;
  if (unstaged !== undefined && result.outcome === 'delivered') {
    // Paid in the command that placed it (the sandbox): the order object is not staged nor shared
    // yet, so it becomes delivered in place rather than through a copy of its 35 fields.
    order.status = 'delivered';
    order.token = result.token ?? null;
    order.units = result.units ?? null;
    order.customer_name = result.customer_name ?? order.customer_name;
    order.provider_reference = result.provider_reference ?? null;
    order.provider_commission_kobo = result.provider_commission_kobo ?? order.provider_commission_kobo ?? null;
    if (result.pins) order.pins_sealed = seal_pins(actor, result.pins);
    order.delivered_us = now_us;
    order.updated_us = now_us;
    order.status_history.push({ status: 'processing', at_us: now_us }, { status: 'delivered', at_us: now_us });
    stage_order(actor, order);
    actor.emit(order.environment, 'transaction.completed', { order });
    return order;
  }
  switch (result.outcome) {
    case 'delivered': {
      const delivered = with_status(order, 'delivered', now_us, {
        token: result.token ?? order.token,
        units: result.units ?? order.units,
        customer_name: result.customer_name ?? order.customer_name,
        provider_reference: result.provider_reference ?? order.provider_reference,
        provider_commission_kobo: result.provider_commission_kobo ?? order.provider_commission_kobo ?? null,
        ...(result.pins ? { pins_sealed: seal_pins(actor, result.pins) } : {}),
        ...(result.bonus_token ? { bonus_token: result.bonus_token } : {}),
        ...(result.key_change_tokens && result.key_change_tokens.length > 0 ? { key_change_tokens: result.key_change_tokens } : {}),
        delivered_us: now_us,
        next_requery_ms: 0,
        status_history: ensure_processing(order, now_us),
        ...answered(order, 'delivered', now_us),
      });
      stage_order(actor, delivered);
      // A delivered live order is asked once more after 24 h, for a reversal whose callback never came.
      if (delivered.attempts !== undefined && delivered.attempts.length > 0) {
        actor.stage_put(actor.engine.store.reversal_checks, reversal_check_key(delivered), [actor.id, delivered.environment, delivered.seq]);
      }
      actor.emit(order.environment, 'transaction.completed', { order: delivered });
      return delivered;
    }
    case 'failed':
      return fail_and_refund(actor, { ...order, ...answered(order, 'failed', now_us) }, result.reason, now_us);
    case 'not_found':
      if (not_found_is_final) return fail_and_refund(actor, { ...order, ...answered(order, 'failed', now_us) }, not_found_reason, now_us);
      return mark_processing(actor, order, now_us, null);
    case 'processing':
      return mark_processing(actor, order, now_us, result.provider_reference ?? null, first_answer(order, 'processing', now_us));
    case 'unknown':
      return mark_processing(actor, order, now_us, null, first_answer(order, result.not_sent === true ? 'refused' : 'unknown', now_us));
  }
}

/** The attempts with the holder's (the last one's) outcome set, for a routed order; {} otherwise. */
function answered(order: OrderRecord, outcome: UpstreamAttempt['outcome'], _now_us: number): { attempts?: UpstreamAttempt[] } {
  const attempts = order.attempts;
  if (attempts === undefined || attempts.length === 0) return {};
  const last = attempts[attempts.length - 1];
  if (last.outcome === outcome) return {};
  return { attempts: [...attempts.slice(0, -1), { ...last, outcome }] };
}

/** Like answered(), but only the first answer to an attempt is kept while the order stays open. */
function first_answer(order: OrderRecord, outcome: UpstreamAttempt['outcome'], now_us: number): { attempts?: UpstreamAttempt[] } {
  const attempts = order.attempts;
  if (attempts === undefined || attempts.length === 0 || attempts[attempts.length - 1].outcome !== 'sent') return {};
  return answered(order, outcome, now_us);
}

/**
 * Failover (docs/decisions.md "Upstream routing and failover"): the holder refused the order before
 * processing it (a definite "not processed", a refused connection, an open circuit), so it moves to
 * the next upstream under the same reference and a new request id. Staged, and durable before the next
 * upstream is called: a restart then re-queries the new holder, never the one that refused.
 */
export function move_order_upstream(actor: CommandActor, order: OrderRecord, refusal: 'failed' | 'refused', upstream: string, request_id: string, now_us: number): OrderRecord {
  if (is_final(order.status)) fail(`order ${order.reference} moved upstream after it ended ${order.status}`);
  const attempts = order.attempts ?? [];
  const closed = attempts.length === 0 ? [] : [...attempts.slice(0, -1), { ...attempts[attempts.length - 1], outcome: refusal }];
  const next = with_status(order, 'processing', now_us, {
    provider_request_id: request_id,
    provider_reference: null,
    attempts: [...closed, { upstream, request_id, outcome: 'sent', at_us: now_us }],
  });
  stage_order(actor, next);
  stage_provider_request(actor, next, request_id);
  if (order.status === 'pending') actor.emit(order.environment, 'transaction.processing', { order: next });
  return next;
}

function ensure_processing(order: OrderRecord, now_us: number): OrderRecord['status_history'] {
  return order.status_history.some((h) => h.status === 'processing')
    ? order.status_history
    : [...order.status_history, { status: 'processing' as const, at_us: now_us }];
}

/** The order has been handed to the provider (or its answer is not known yet). */
export function mark_processing(actor: CommandActor, order: OrderRecord, now_us: number, provider_reference: string | null, changes: { attempts?: UpstreamAttempt[] } = {}): OrderRecord {
  if (order.status === 'processing' && provider_reference === null && changes.attempts === undefined && actor.open_orders.has(order.reference)) return order;
  const next = with_status(order, 'processing', now_us, { provider_reference: provider_reference ?? order.provider_reference, ...changes });
  stage_order(actor, next);
  if (order.status === 'pending') actor.emit(order.environment, 'transaction.processing', { order: next });
  return next;
}

/** Records the re-query schedule of an order that is still open. */
export function schedule_order_requery(actor: CommandActor, order: OrderRecord, next_requery_ms: number, needs_review: boolean): OrderRecord {
  // An escalated order stays in review while its re-queries go on (docs/api.md "A promised time").
  const next: OrderRecord = { ...order, requery_count: order.requery_count + (needs_review ? 0 : 1), next_requery_ms, needs_review: needs_review || order.needs_review };
  stage_order(actor, next);
  return next;
}

/**
 * Escalates an open order that passed its promised time without an answer (docs/api.md "A promised time"):
 * it goes to the operator's review, its promise becomes the operator's decision (review_by_us, 24 hours
 * after its creation), and the reseller hears of it (transaction.delayed). Once per order.
 */
export function escalate_order(actor: CommandActor, order: OrderRecord, review_by_us: number, now_us: number): OrderRecord {
  if (is_final(order.status)) fail(`order ${order.reference} escalated after it ended ${order.status}`);
  if (order.delayed_us !== undefined) return order;
  const next: OrderRecord = { ...order, needs_review: true, delayed_us: now_us, expected_final_us: Math.max(review_by_us, order.expected_final_us ?? 0) };
  stage_order(actor, next);
  actor.emit(order.environment, 'transaction.delayed', { order: next });
  return next;
}

/**
 * Fails an order and refunds it in the same command: a reversal entry of exactly what was debited, the day's
 * spend given back when the debit counted today. `reversed` makes a second refund impossible.
 */
export function fail_and_refund(actor: CommandActor, order: OrderRecord, reason: string, now_us: number, sent = true): OrderRecord {
  if (order.reversed) fail(`order ${order.reference} refunded twice`);
  const refund_kobo = charged_kobo(order);
  const entry = actor.append_entry(order.environment, 'reversal', refund_kobo, order.reference, refund_description(order, 'failed'), now_us);
  const wallet = actor.wallets[order.environment];
  if (wallet.spend_day === order.spend_day) {
    wallet.spend_day_kobo = Math.max(0, wallet.spend_day_kobo - refund_kobo);
    actor.stage_wallet(order.environment);
  }
  const failed_order = with_status(order, 'failed', now_us, {
    failure_reason: reason,
    failed_us: now_us,
    reversed: true,
    reversed_us: now_us,
    next_requery_ms: 0,
    // An order cancelled before it was sent never was processing: its history says pending, then failed.
    status_history: sent ? ensure_processing(order, now_us) : order.status_history,
  });
  const shortfall = reverse_commissions(actor, order, now_us);
  if (shortfall > 0) failed_order.commission_shortfall_kobo = shortfall;
  stage_order(actor, failed_order);
  actor.emit(order.environment, 'transaction.failed', { order: failed_order });
  actor.emit(order.environment, 'wallet.reversed', { entry, order: failed_order });
  return failed_order;
}

/**
 * The reseller cancels a bulk item not yet sent (docs/api.md "Cancel before sending"): refunded in this command,
 * one record with its reversal entry, as every refund. The order desk checks that the item waits in its send
 * lane; here only its status is checked: a pending order has not been handed to an upstream.
 */
export const cancelled_reason = 'cancelled';

export function cancel_order(actor: CommandActor, reference: string, now_us: number): Outcome<OrderRecord> {
  const order = actor.open_orders.get(reference);
  if (order === undefined) return refused({ refusal: 'order_not_open' });
  if (order.status !== 'pending') return refused({ refusal: 'order_not_cancellable', status: order.status });
  return ok(fail_and_refund(actor, order, cancelled_reason, now_us, false));
}

/** Operator decision on an order that had no answer for 24 hours. */
export function resolve_order(actor: CommandActor, reference: string, outcome: 'delivered' | 'failed', now_us: number): Outcome<OrderRecord> {
  const order = actor.open_orders.get(reference);
  if (order === undefined) return refused({ refusal: 'order_not_open' });
  const result: ProviderResult = outcome === 'delivered'
    ? { outcome: 'delivered' }
    : { outcome: 'failed', reason: 'Failed by the operator after the provider gave no answer.' };
  return ok(apply_provider_result(actor, reference, result, now_us, true)!);
}


// ---- Reversals after delivery ----------------------------------------------------------------------
//
// An upstream may reverse a purchase it delivered (VTpass: status "reversed", code 040, pushed by its
// transaction-update callback or read by a re-query; docs/upstreams.md "Callbacks and reversals"). The
// services read it from the upstream itself, never from a callback's body, and hand it here.

/** The request id an upstream knows the order by, so that its callback finds the order (store.provider_requests). */
function stage_provider_request(actor: CommandActor, order: OrderRecord, request_id: string): void {
  actor.stage_put(actor.engine.store.provider_requests, request_id, [actor.id, order.environment, order.seq]);
}

/**
 * Refunds a delivered order its upstream reversed: one reversal wallet entry of what was debited, the
 * order failed with `reversed` set, transaction.reversed and wallet.reversed. Null when the order is not
 * delivered (still open, already failed, or already reversed): a reversal is refunded exactly once.
 */
export function reverse_delivered_order(actor: CommandActor, environment: Environment, seq: number, reason: string, now_us: number): OrderRecord | null {
  const store = actor.engine.store;
  const order = actor.effects.read(store.orders, [actor.id, environment, seq]) as OrderRecord | undefined;
  if (order === undefined || order.status !== 'delivered' || order.reversed) return null;
  const refund_kobo = charged_kobo(order);
  const entry = actor.append_entry(environment, 'reversal', refund_kobo, order.reference, refund_description(order, 'reversed'), now_us);
  const wallet = actor.wallets[environment];
  if (wallet.spend_day === order.spend_day) {
    wallet.spend_day_kobo = Math.max(0, wallet.spend_day_kobo - refund_kobo);
    actor.stage_wallet(environment);
  }
  const reversed = with_status(order, 'failed', now_us, { failure_reason: reason, failed_us: now_us, reversed: true, reversed_us: now_us, next_requery_ms: 0 });
  const shortfall = reverse_commissions(actor, order, now_us);
  if (shortfall > 0) reversed.commission_shortfall_kobo = shortfall;
  assert_order(reversed);
  actor.stage_put(store.orders, [actor.id, environment, seq], reversed);
  stage_order_index(actor, reversed, order);
  if (order.delivered_us !== null) actor.stage_remove(store.reversal_checks, reversal_check_key(order));
  actor.emit(environment, 'transaction.reversed', { order: reversed });
  actor.emit(environment, 'wallet.reversed', { entry, order: reversed });
  return reversed;
}

/**
 * The key of a delivered order's 24 h re-query in store.reversal_checks: [delivered ms, reference], so that
 * the checks due by an instant are one range read from the start (services/upstreams/upstream-callbacks.ts).
 */
export function reversal_check_key(order: Pick<OrderRecord, 'delivered_us' | 'reference'>): [number, string] {
  return [Math.floor((order.delivered_us ?? 0) / 1000), order.reference];
}

/** The 24 h re-query of a delivered order is done: it is not asked again. */
export function close_reversal_check(actor: CommandActor, key: [number, string]): void {
  if (actor.effects.read(actor.engine.store.reversal_checks, key) !== undefined) actor.stage_remove(actor.engine.store.reversal_checks, key);
}
