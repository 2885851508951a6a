// The purchase runner every product family shares (docs/decisions.md "Product families"): validation →
// idempotency → PIN → catalog check → recipient verification → provider availability → daily limit →
// balance → debit; the order desk takes it from there, and purchase-reply.ts answers what it did. A
// family only makes the plan (src/services/products/). Bulk orders check the PIN once and place their
// items through services/bulk/item-purchaser.ts, in one command.
import type { Deps } from './deps.js';
import type { RequestContext } from './route.js';
import type { AccountActor } from '../engine/account-actor.js';
import type { Environment, IdempotencyRecord } from '../engine/records.js';
import { error_reply, type Reply } from '../lib/reply.js';
import { fingerprint, idempotency_key } from './request-helpers.js';
import { api_error, type ApiError } from '../errors.js';
import { peek_idempotent, run_idempotent } from './idempotent-run.js';
import { remembered_error } from './remembered.js';
import type { OrderDesk } from '../services/order-desk.js';
import { provider_unavailable } from '../services/order-desk.js';
import type { VerifyResult } from '../services/provider.js';
import type { PurchasePlan } from '../services/products/family.js';
import type { OrderRequest } from '../engine/account-orders.js';
import type { Authority } from '../engine/authority.js';
import { apply_pin_verdict, check_pin } from './pin-check.js';
import { placement_reply, resumed_reply, AnswerRecorder } from './purchase-reply.js';
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
