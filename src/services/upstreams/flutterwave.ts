// The Flutterwave Bills v3 adapter: a second live upstream kind, beside VTpass (src/services/live-provider.ts).
// What it follows, from Flutterwave's public v3 documentation ("Bill payments", "Get status of a bill
// payment", "Handling error timeouts") and its Node SDK (flutterwave-node-v3, documentation/billPayments.md):
//   POST {base}/v3/bills                  {country: "NG", customer, amount, recurrence: "ONCE", type, reference}
//   GET  {base}/v3/bills/{reference}      the status of a bill payment by our reference
//   GET  {base}/v3/bill-items/{item_code}/validate?code={biller_code}&customer={customer}
// with the secret key as a bearer token. Answers are {status: "success" | "error", message, data}.
// `type` is a biller_name of GET /v3/bill-categories (AIRTIME, DSTV, EKEDC PREPAID TOPUP, …) and the
// validation's item and biller codes come from the same list; the tables below hold what that list
// documents. A product missing from them is not offered here: the router passes this upstream over
// for it rather than guess a code.
// Our reading (docs/decisions.md): an answer is final only when it says so. A 4xx "error" on payment is a
// refusal before processing (bad customer, balance, credentials), except a duplicate reference, which may
// name a payment made; 5xx, timeouts and unreadable bodies are unclear ("a timeout does not always mean
// failure", Flutterwave's timeout guide): processing, re-queried by reference.
import type { Logger } from 'pino';
import type { Clock } from '../../lib/clock.js';
import type { TimerWheel } from '../../lib/timer-wheel.js';
import type { UpstreamConfig } from '../../config.js';
import type { OrderRecord } from '../order.js';
import type { ProviderResult, PurchaseIntent, UpdateListener, VerifyResult } from '../provider.js';
import type { CircuitBreaker, CircuitState } from '../circuit-breaker.js';
import type { ProductIntent, UpstreamAdapter } from './router.js';
import { UpstreamClient, no_observer, type ProviderObserver } from './upstream-client.js';
import { kobo_to_naira } from '../../lib/money.js';
import { normalise_units } from '../units.js';
import { family_of } from '../products/registry.js';
import { international_phone, type FlutterwaveBill } from '../products/family.js';

/** The Flutterwave bill of a purchase, or null when this upstream does not offer it: the family's table. */
export function flutterwave_bill(intent: Pick<OrderRecord, 'service_type' | 'disco' | 'provider' | 'meter_type'> | ProductIntent): FlutterwaveBill | null {
  return family_of(intent.service_type).upstream.flutterwave_bill({
    service_type: intent.service_type, network: 'network' in intent ? intent.network ?? null : null, disco: intent.disco ?? null, provider: intent.provider ?? null,
    meter_type: 'meter_type' in intent ? intent.meter_type : null,
    // The item's own Flutterwave codes where the catalog has them (src/services/upstream-codes.ts).
    plan_code: (intent as Partial<OrderRecord>).plan_code ?? null, package_code: (intent as Partial<OrderRecord>).package_code ?? null,
  });
}

export { international_phone };

/**
 * Reads a Flutterwave answer into a result; anything unclear is 'unknown' (docs/upstreams.md "Flutterwave Bills (v3)").
 * A payment's own answer is never a delivery: Flutterwave's flow is create, then verify the bill's status
 * ("Verify the payment status", developer.flutterwave.com/docs/making-payments/bill-payments), and its create
 * example answers "Bill payment successful" without any status. So the create answer is at best
 * 'processing'; only a status answer's `data.status` delivers or fails an order. A status answer without a
 * status (the documented status sample has none) is unclear and says so (`unclear: 'no_status'`).
 */
export function interpret_flutterwave(status: number, body: unknown, phase: 'pay' | 'requery'): ProviderResult {
  if (body === null || typeof body !== 'object') return { outcome: 'unknown', reason: 'unreadable answer' };
  const answer = body as Record<string, any>;
  const message = String(answer.message ?? '').slice(0, 200);
  const data = answer.data !== null && typeof answer.data === 'object' ? answer.data as Record<string, any> : null;
  const provider_reference = data?.flw_ref != null ? String(data.flw_ref) : data?.tx_ref != null ? String(data.tx_ref) : null;
  if (answer.status === 'error') {
    if (phase === 'requery' && (status === 404 || /not found|no (bill|transaction)/i.test(message))) return { outcome: 'not_found' };
    // A duplicate reference may name a payment already made: never a failure.
    if (/duplicate|already (exists|been used)/i.test(message)) return { outcome: 'unknown', reason: `Flutterwave: ${message}` };
    if (phase === 'pay' && status >= 400 && status < 500) return { outcome: 'failed', reason: `Provider: ${message || 'refused'}`, provider_reference, refused: true };
    return { outcome: 'unknown', reason: `Flutterwave error: ${message}` };
  }
  if (answer.status !== 'success' || data === null) return { outcome: 'unknown', reason: `unrecognised answer (HTTP ${status})` };
  // The create answer: accepted, to be verified by its status.
  if (phase === 'pay') return { outcome: 'processing', provider_reference };
  const state = String(data.status ?? '').trim().toLowerCase();
  if (state === 'successful' || state === 'success' || state === 'delivered') {
    const extra = data.extra !== null && typeof data.extra === 'object' ? data.extra : {};
    // Electricity tokens: public clients read data.recharge_token; older answers carry token / extra.token.
    const token_text = data.recharge_token ?? data.token ?? extra.recharge_token ?? extra.token ?? (typeof data.extra === 'string' ? data.extra : null);
    const token = token_text === null || token_text === undefined ? null : String(token_text).replace(/^\s*token\s*:\s*/i, '').trim() || null;
    const name = data.customer_name ?? extra.customer_name ?? null;
    return {
      outcome: 'delivered',
      token,
      units: normalise_units(data.units ?? extra.units ?? null),
      customer_name: typeof name === 'string' && name.trim() !== '' && !/^n\/?a$/i.test(name.trim()) ? name.trim() : null,
      provider_reference,
    };
  }
  if (state === 'failed' || state === 'reversed' || state === 'cancelled') return { outcome: 'failed', reason: `Provider: ${message || state}`, provider_reference, ...(state === 'reversed' ? { reversed: true } : {}) };
  if (state === 'pending' || state === 'processing' || state === 'queued') return { outcome: 'processing', provider_reference };
  if (state === '') return { outcome: 'unknown', reason: 'bill status answer without a status', unclear: 'no_status' };
  return { outcome: 'unknown', reason: `unrecognised bill status "${state.slice(0, 40)}"` };
}

export class FlutterwaveProvider implements UpstreamAdapter {
  readonly kind = 'flutterwave';
  readonly instant = false;
  readonly breaker: CircuitBreaker;
  private readonly client: UpstreamClient;
  private readonly headers: Record<string, string>;
  private listeners: UpdateListener[] = [];

  constructor(config: UpstreamConfig, clock: Clock, wheel: TimerWheel, private readonly log: Logger, observer: ProviderObserver = no_observer, on_circuit?: (state: CircuitState) => void) {
    this.name = config.name;
    this.client = new UpstreamClient(config.name, config.base_url, config.timeout_ms, clock, wheel, log, observer, on_circuit);
    this.breaker = this.client.breaker;
    this.headers = { authorization: `Bearer ${config.secret_key}` };
  }

  readonly name: string;

  on_update(listener: UpdateListener): void {
    this.listeners.push(listener);
  }

  offers(intent: ProductIntent): boolean {
    return flutterwave_bill(intent) !== null;
  }

  unavailable(_intent: PurchaseIntent): { retry_after_s: number } | null {
    const retry_after_s = this.breaker.retry_after_s();
    return retry_after_s > 0 ? { retry_after_s: Math.max(retry_after_s, 60) } : null;
  }

  async pay(order: OrderRecord): Promise<ProviderResult> {
    const bill = flutterwave_bill(order);
    // Nothing was sent: the router offers this upstream only products it has codes for.
    if (bill === null) return { outcome: 'failed', reason: `Provider: ${order.service_type} is not offered by upstream ${this.name}` };
    const answer = await this.client.call('pay', 'POST', '/v3/bills', this.headers, {
      country: 'NG',
      customer: family_of(order.service_type).upstream.flutterwave_customer(order),
      amount: kobo_to_naira(order.amount_kobo),
      recurrence: 'ONCE',
      type: bill.type,
      reference: order.provider_request_id,
    });
    if ('error' in answer) {
      this.log.warn({ reference: order.reference, error: answer.error, upstream: this.name }, answer.not_sent ? 'provider pay not sent' : 'provider pay answer unclear; will re-query');
      return { outcome: 'unknown', reason: answer.error, not_sent: answer.not_sent };
    }
    const created = interpret_flutterwave(answer.status, answer.body, 'pay');
    if (created.outcome !== 'processing') return created;
    // Created: verify its status at once (create, then verify); an unclear status is re-queried later.
    const verified = await this.requery(order);
    return verified.outcome === 'unknown' || verified.outcome === 'not_found' ? created : verified;
  }

  async requery(order: OrderRecord): Promise<ProviderResult> {
    const answer = await this.client.call('requery', 'GET', `/v3/bills/${encodeURIComponent(order.provider_request_id)}?verbose=1`, this.headers);
    if ('error' in answer) return { outcome: 'unknown', reason: answer.error };
    const result = interpret_flutterwave(answer.status, answer.body, 'requery');
    if (result.outcome === 'unknown' && result.unclear === 'no_status') {
      this.log.warn({ reference: order.reference, request_id: order.provider_request_id, upstream: this.name }, 'Flutterwave bill status answer without a status: unclear; re-queried');
    }
    return result;
  }

  private async validate(bill: FlutterwaveBill | null, customer: string): Promise<VerifyResult> {
    if (bill === null) return { outcome: 'unavailable', reason: `not offered by upstream ${this.name}` };
    const query = `code=${encodeURIComponent(bill.biller_code)}&customer=${encodeURIComponent(customer)}`;
    const answer = await this.client.call('validate', 'GET', `/v3/bill-items/${encodeURIComponent(bill.item_code)}/validate?${query}`, this.headers);
    if ('error' in answer) return { outcome: 'unavailable', reason: answer.error };
    const body = answer.body as Record<string, any> | null;
    // A refused credential or a rate limit is ours, not the customer's (docs/upstreams.md "Verification: the
    // customer's mistake or ours").
    if (answer.status === 401 || answer.status === 403 || answer.status === 429) return { outcome: 'unavailable', reason: `validation HTTP ${answer.status}` };
    if (body?.status === 'error' && answer.status >= 400 && answer.status < 500) return { outcome: 'invalid' };
    const data = body?.data;
    if (body?.status !== 'success' || data === null || typeof data !== 'object') return { outcome: 'unavailable', reason: 'unrecognised validation answer' };
    const name = typeof data.name === 'string' ? data.name.trim() : '';
    if (name === '' || (data.response_code !== undefined && data.response_code !== '00')) return { outcome: 'invalid' };
    return { outcome: 'valid', customer_name: name, address: typeof data.address === 'string' ? data.address : null };
  }

  verify_meter(disco_service_id: string, meter_number: string, meter_type: 'prepaid' | 'postpaid'): Promise<VerifyResult> {
    return this.validate(flutterwave_bill({ service_type: 'electricity', disco: disco_service_id, provider: null, meter_type }), meter_number);
  }

  verify_smartcard(provider: string, smartcard_number: string): Promise<VerifyResult> {
    return this.validate(flutterwave_bill({ service_type: 'tv', disco: null, provider, meter_type: null }), smartcard_number);
  }

  /** Profiles and accounts of the later families: not in Flutterwave's bill list here (the router skips it). */
  verify_customer(): VerifyResult {
    return { outcome: 'unavailable', reason: `not offered by upstream ${this.name}` };
  }
}
