// A purchase at the front end, every product family's (docs/decisions.md "Product families" and "Transactions"):
// validation → idempotency → PIN → catalog check → recipient verification → provider availability → daily limit →
// balance → debit; the order desk takes it from there (services/order-desk.ts Placement), and its reply is built
// here as the API says. A refusal or an unavailable provider answers at once and nothing was debited; an order
// answers 201 delivered or processing, or 422 transaction.failed once refunded. With an idempotency key, the
// order's answer is remembered under it, in the command that places the order when it is final at once
// (AnswerRecorder), else by the `remember_answer` command, and the reply leaves once that record is durable. A
// family only makes the plan (src/services/products/). Bulk orders check the PIN once and place their items
// through services/bulk/item-purchaser.ts, in one command.
import type { Deps } from './deps.js';
import type { RequestContext } from './route.js';
import type { AccountActor } from '../engine/account-actor.js';
import type { Environment, IdempotencyRecord } from '../engine/records.js';
import { make_record } from '../engine/idempotency.js';
import { error_reply, success_reply, type Reply } from '../lib/reply.js';
import { fingerprint, idempotency_key } from './request-helpers.js';
import { api_error, type ApiError } from '../errors.js';
import { JournalFailure } from '../journal/journal.js';
import { peek_idempotent, run_idempotent } from './idempotent-run.js';
import { remembered_error } from './remembered.js';
import { refusal_reply } from './outcome-errors.js';
import { provider_unavailable, type AnswerRecord, type OrderDesk, type Placement } from '../services/order-desk.js';
import type { OrderRecord } from '../services/order.js';
import { family_of, purchase_result_view } from '../services/products/registry.js';
import type { VerifyResult } from '../services/provider.js';
import type { PurchasePlan } from '../services/products/family.js';
import type { OrderRequest } from '../engine/account-orders.js';
import type { Authority } from '../engine/authority.js';
import { apply_pin_verdict, check_pin } from './pin-check.js';
import { fail } from '../lib/assert.js';

/** One placement: who buys, under which idempotency key, with which of the reseller's references. */
export interface PurchaseRun {
  request_id: string;
  actor: AccountActor;
  environment: Environment;
  /** The idempotency key of this placement, or null (no replay protection). */
  key: string | null;
  /** What a repeat under the same key must match (request_helpers fingerprint: method, URL, body without pin). */
  fingerprint: string;
  client_reference: string | null;
  metadata: Record<string, string> | null;
  /** Who buys: checked again in the command that debits (engine/authority.ts). */
  authority: Authority;
}

/** The POST of a family's purchase route: the body's idempotency key, PIN and references. */
export async function purchase(deps: Deps, desk: OrderDesk, ctx: RequestContext, plan: PurchasePlan | ApiError): Promise<Reply> {
  const key = idempotency_key(ctx);
  if (key !== null && typeof key === 'object') return error_reply(ctx.request_id, key);
  if ('code' in plan) return remembered_error(deps, ctx, plan);
  // Validated by the body schema (docs/api.md "Client references"); claimed in the command that debits.
  const body = ctx.body as { pin: string; client_reference?: string; metadata?: Record<string, string> };
  return run_purchase(deps, desk, {
    request_id: ctx.request_id,
    actor: ctx.actor!,
    environment: ctx.environment,
    key,
    fingerprint: fingerprint(ctx),
    client_reference: body.client_reference ?? null,
    metadata: body.metadata ?? null,
    authority: ctx.authority ?? fail(`purchase route ${ctx.route?.name} ran without an authority`),
  }, plan, body.pin);
}

/** A purchase under its PIN (checked here, with lock-out and attempts counted) and idempotency key. */
export async function run_purchase(deps: Deps, desk: OrderDesk, run: PurchaseRun, plan: PurchasePlan, pin: string): Promise<Reply> {
  const { actor, environment, key, request_id } = run;
  const request = { actor, environment, key, fingerprint: run.fingerprint, request_id, now_ms: deps.clock.now_ms() };
  const answer = { actor, environment, request_id, key, fingerprint: run.fingerprint };
  const resume = (record: IdempotencyRecord) => resumed_reply(deps, answer, record, desk.resume(actor, record));
  // A replay, or a repeat of a request in flight, costs neither a PIN check nor a provider call.
  const earlier = peek_idempotent(request, resume);
  if (earlier !== null) return earlier;
  const place = (verification: VerifyResult | null): Reply | Promise<Reply> => {
    const refused = plan.check ? plan.check() : null;
    if (refused !== null) return error_reply(request_id, refused);
    let customer_name: string | null = null;
    let decided: Partial<OrderRequest> | null = null;
    if (verification !== null) {
      if (verification.outcome === 'invalid') return error_reply(request_id, api_error(plan.invalid_code!));
      if (verification.outcome === 'unavailable') return provider_unavailable(request_id, 60);
      customer_name = verification.customer_name;
      // A refusal or an addition decided from what the provider said (docs/api.md "Deeper verification").
      const outcome = plan.on_verified ? plan.on_verified(verification) : null;
      if (outcome !== null && 'code' in outcome) return error_reply(request_id, outcome);
      decided = outcome;
    }
    // With a key, the answer of an order final at once is remembered in the command that places it.
    const recorder = key === null ? null : new AnswerRecorder(deps, answer);
    return placement_reply(deps, answer, desk.place(actor, environment, key, run.fingerprint, {
      ...plan.order, ...decided, customer_name: customer_name ?? plan.order.customer_name, client_reference: run.client_reference, metadata: run.metadata,
    }, run.authority, false, recorder?.record ?? null), recorder);
  };
  // The recipient is verified only behind a correct PIN that the catalog does not refuse.
  const checking = check_pin(deps, actor, request_id, pin, (correct) => {
    const catalog_error = correct && plan.check ? plan.check() : null;
    return correct && catalog_error === null && plan.verify ? plan.verify() : null;
  });
  const checked = checking instanceof Promise ? await checking : checking;
  if ('status' in checked) return checked;
  return run_idempotent({ ...request, now_ms: deps.clock.now_ms() }, () => {
    const refused = apply_pin_verdict(deps, actor, run.authority, request_id, checked);
    return refused ?? place(checked.behind);
  }, resume, !checked.awaited);
}

// ---- The reply to what the desk did ------------------------------------------------------------------

/** Whose purchase is answered, and under which idempotency key (null: none, nothing is remembered). */
export interface PurchaseAnswer {
  actor: AccountActor;
  environment: Environment;
  request_id: string;
  key: string | null;
  /** What a repeat under the same key must match (front/request-helpers.ts fingerprint). */
  fingerprint: string;
}

/** The reply that shows an order: 201 delivered or processing, or 422 transaction.failed (refunded). */
export function order_reply(deps: Deps, request_id: string, order: OrderRecord): Reply {
  if (order.status === 'failed') {
    return error_reply(request_id, api_error('transaction.failed', `Transaction failed and the wallet was refunded: ${(order.failure_reason ?? 'the provider could not deliver').replace(/\.$/, '')}.`, {
      extra: { reference: order.reference },
    }));
  }
  const { delivered: done, processing } = family_of(order.service_type).messages;
  // A purchase answers delivered or processing (docs/decisions.md); an order not yet handed over counts as
  // processing for the client, since its outcome will come the same way.
  const shown = order.status === 'pending' ? { ...order, status: 'processing' as const } : order;
  const reply = success_reply(request_id, 201, purchase_result_view(shown, deps.engine.secret_box), order.status === 'delivered' ? done : processing);
  // Purchased PINs are a secret: the answer remembered for a replay is sealed like a new API key.
  if (order.pins_sealed !== undefined && order.pins_sealed !== null) reply.secret = true;
  return reply;
}

/**
 * Builds the complete record of an order's answer for the desk to stage in the command that places and
 * answers it (OrderDesk.place answer_record), and keeps the reply it built, so placement_reply sends that
 * same reply: built once, remembered in the purchase's one record.
 */
export class AnswerRecorder {
  reply: Reply | null = null;

  constructor(private readonly deps: Deps, private readonly answer: PurchaseAnswer) {}

  readonly record: AnswerRecord = (order, placed_ms) => {
    const reply = order_reply(this.deps, this.answer.request_id, order);
    this.reply = reply;
    return make_record(this.answer.actor, this.answer.fingerprint, reply, placed_ms, order.reference, true);
  };
}

/**
 * The reply to a placement. Runs synchronously up to the point the desk returned (inside run_idempotent):
 * a refusal is a Reply that run_idempotent remembers itself; an order's answer is a promise, and it is
 * remembered here, in the same synchronous run as the debit for an order final at once.
 */
export function placement_reply(deps: Deps, answer: PurchaseAnswer, placement: Placement, recorder: AnswerRecorder | null = null): Reply | Promise<Reply> {
  const { request_id } = answer;
  switch (placement.kind) {
    case 'unavailable':
      return provider_unavailable(request_id, placement.retry_after_s);
    case 'refused':
      return refusal_reply(request_id, placement.refusal);
    case 'final':
      // Remembered in the command that placed it (AnswerRecorder): a promise, so run_idempotent does not remember
      // it again; the reply it built leaves once durable (the front end's gate).
      if (placement.remembered) return Promise.resolve(recorder?.reply ?? order_reply(deps, request_id, placement.order));
      return finish(deps, answer, placement.order, placement.placed_ms);
    case 'sent': {
      const { placement: durable, order: placed_order, placed_ms } = placement;
      return placement.answered
        .then(async (order) => {
          // A later commit says nothing of an earlier one that failed: if the disk filled under the
          // debit's commit, the account was reloaded without this order, and answering from the wait
          // (which still held it) acknowledged an order that was never saved and whose reference the
          // account then handed out again (fault-disk-full). The order must be durable first.
          if (durable !== null) await durable;
          return finish(deps, answer, order, placed_ms);
        })
        .catch((error: unknown) => answer_as_placed(deps, answer, error, durable, placed_order));
    }
  }
}

/**
 * The reply to a retry of a purchase whose first answer a crash lost (an incomplete record names its
 * order): the order as it stands once the desk's wait ends (OrderDesk.resume), remembered under the key.
 */
export function resumed_reply(deps: Deps, answer: PurchaseAnswer, record: IdempotencyRecord, answered: Promise<OrderRecord>): Promise<Reply> {
  return answered.then((order) => finish(deps, { ...answer, fingerprint: record.fingerprint }, order, record.created_ms));
}

/**
 * Remembers the order's answer for the idempotency key (a complete record) and replies once it is durable.
 * Waited for here, not only at the front end's gate: a commit refused under it is answered as the order was
 * placed (answer_as_placed), not as a failure of the whole request.
 */
function finish(deps: Deps, answer: PurchaseAnswer, order: OrderRecord, created_ms: number): Promise<Reply> {
  const { actor, environment, key } = answer;
  const reply = order_reply(deps, answer.request_id, order);
  if (key !== null) {
    const record = make_record(actor, answer.fingerprint, reply, created_ms, order.reference, true);
    deps.engine.run(actor, { kind: 'remember_answer', environment, key, record });
  }
  const remembered = actor.settled();
  return remembered === null ? Promise.resolve(reply) : remembered.then(() => reply);
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
async function answer_as_placed(deps: Deps, answer: PurchaseAnswer, error: unknown, placement: Promise<void> | null, placed_order: OrderRecord): Promise<Reply> {
  if (!(error instanceof JournalFailure) || placement === null) throw error;
  const saved = await placement.then(() => true, () => false);
  if (!saved) throw error;
  const { request_id, key } = answer;
  deps.log.warn({ reference: placed_order.reference, request_id, with_key: key !== null }, 'the answer of a saved order could not be saved');
  if (key === null) return order_reply(deps, request_id, placed_order);
  return error_reply(request_id, api_error('service.unavailable', 'The purchase was placed, but its answer could not be saved; retry with the same X-Idempotency-Key for its outcome.', {
    extra: { reference: placed_order.reference },
    headers: { 'Retry-After': '1' },
  }));
}
