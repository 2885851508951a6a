// A purchase's reply (docs/decisions.md "Transactions"): what the order desk did with a purchase
// (services/order-desk.ts Placement) answered as the API says. A refusal or an unavailable provider
// answers at once and nothing was debited; an order answers 201 delivered or processing, or 422
// transaction.failed once refunded. With an idempotency key, the order's answer is remembered under it,
// in the command that places the order when it is final at once (AnswerRecorder), else by the
// `remember_answer` command, and the reply leaves once that record is durable.
import type { Deps } from './deps.js';
import type { AccountActor } from '../engine/account-actor.js';
import type { Environment, IdempotencyRecord } from '../engine/records.js';
import { make_record } from '../engine/idempotency.js';
import { error_reply, success_reply, type Reply } from '../lib/reply.js';
import { api_error } from '../errors.js';
import { JournalFailure } from '../journal/journal.js';
import { refusal_reply } from './outcome-errors.js';
import type { OrderRecord } from '../services/order.js';
import { provider_unavailable, type AnswerRecord, type Placement } from '../services/order-desk.js';
import { family_of, purchase_result_view } from '../services/products/registry.js';

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
