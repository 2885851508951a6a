// Sending a live order to its upstream once its debit is durable, and failover (docs/decisions.md
// "Upstream routing and failover"): an upstream's refusal before processing moves the order to the next
// healthy upstream of its route under a new request id. A layer of the order desk (order-desk.ts).
import type { AccountActor } from '../engine/account-actor.js';
import type { OrderRecord } from './order.js';
import type { Provider, ProviderResult } from './provider.js';
import { fail } from '../lib/assert.js';
import { JournalFailure } from '../journal/journal.js';
import { OrderAnswers } from './order-answers.js';
import { provider_request_id } from './provider-request-id.js';

export abstract class OrderSending extends OrderAnswers {
  /**
   * Sends a live order once its debit is durable, then waits (up to 5 s) for an answer. first_answer is
   * called once the upstream's first answer is applied (or nothing was sent): the send lane's slot.
   */
  protected async send(actor: AccountActor, reference: string, first_answer?: () => void): Promise<OrderRecord> {
    try {
      await actor.settled();
    } catch (error) {
      first_answer?.();
      throw error;
    }
    // A fenced engine pays no upstream (Engine.fence; docs/cluster.md "A deposed leader's local tail"). When the
    // cluster refuses a batch, the accounts keep in memory what it staged and no longer wait for it: a bulk
    // order's items past the lane's eighth, sent as earlier ones freed their slots, found settled() empty and were
    // paid for orders the stream never took (found by the crash campaign with partitions;
    // test/engine-fence.test.ts). The next leader recovers every order the stream holds.
    if (this.engine.fenced) {
      first_answer?.();
      throw new JournalFailure(new Error('this node is fenced: nothing more is sent to an upstream'), new Set());
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

  /** Hands an order to its holder; a definite refusal before processing moves it to the next upstream. */
  protected pay(actor: AccountActor, provider: Provider, order: OrderRecord): Promise<void> {
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
  protected async fail_over(actor: AccountActor, provider: Provider, reference: string, result: { outcome: 'failed' | 'unknown'; reason?: string }): Promise<void> {
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
    if (actor.retired || this.engine.fenced || current === undefined || current.provider_request_id !== moved.provider_request_id) return;
    this.pay(actor, provider, current);
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
