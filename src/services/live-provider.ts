// The live upstream: an adapter for an aggregator API of the common Nigerian shape (VTpass style):
//   POST {base}/api/pay            {request_id, serviceID, billersCode, variation_code, amount, phone}
//   POST {base}/api/requery        {request_id}
//   POST {base}/api/merchant-verify {billersCode, serviceID, type}
// with headers api-key and secret-key. Answers carry `code` ("000" processed, "099" processing,
// "016" failed, "040" reversed, "015" unknown request id, ...) and content.transactions.status.
// Rule (docs/decisions.md): an unclear answer (timeout, 5xx, unreadable body, unknown code) means
// processing and a re-query, never a guessed failure; only a definite failure fails an order.
import type { Logger } from 'pino';
import type { Clock } from '../lib/clock.js';
import type { TimerWheel } from '../lib/timer-wheel.js';
import type { ProviderConfig } from '../config.js';
import type { OrderRecord } from './order.js';
import type { CustomerCheck, Provider, ProviderResult, PurchaseIntent, UpdateListener, VerifyResult } from './provider.js';
import type { DeliveredPin } from './order.js';
import type { CircuitBreaker, CircuitState } from './circuit-breaker.js';
import { UpstreamClient, no_observer, type ProviderObserver, type UpstreamAnswer } from './upstreams/upstream-client.js';
import { normalise_units } from './units.js';
import { kobo_to_naira } from '../lib/money.js';
import { family_of } from './products/registry.js';
import { current_package_of_vtpass, due_date_of_vtpass } from './products/tv.js';

/** Codes that say the request was refused before anything was processed. */
const definite_failure_codes = new Set(['011', '012', '013', '016', '017', '018', '019', '021', '022', '023', '024', '027', '030', '034', '035', '040', '085', '087']);

/** The VTpass serviceID of an order: its family's code (src/services/products/). */
export function upstream_service_id(order: Pick<OrderRecord, 'service_type' | 'network' | 'disco' | 'provider'>): string {
  return family_of(order.service_type).upstream.vtpass_service_id(order);
}

const commission_text = /^(\d{1,12})(?:\.(\d+))?$/;

/**
 * VTpass's `commission` (NGN, a number or a string, possibly with more than 2 decimals) in kobo, rounded
 * down, read from its decimal text so no float arithmetic touches it; null when absent or unreadable.
 */
export function commission_kobo_of(value: unknown): number | null {
  if (typeof value !== 'number' && typeof value !== 'string') return null;
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  const match = commission_text.exec(typeof value === 'number' ? String(value) : value.trim());
  if (match === null) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').slice(0, 2).padEnd(2, '0'));
}

const naira_text = /^(\d{1,12})(?:\.(\d+))?$/;

/**
 * An amount VTpass gives in verification (Customer_Arrears, Minimum_Amount, Renewal_Amount: a number or
 * a string such as "12,500.00") in kobo, read from its decimal text, rounded down; null when absent,
 * empty or unreadable, so nothing is decided on a value we could not read.
 */
export function naira_text_kobo(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? commission_kobo_of(value) : null;
  if (typeof value !== 'string') return null;
  const match = naira_text.exec(value.trim().replace(/^(?:NGN|₦|N)\s*/i, '').replace(/,/g, ''));
  if (match === null) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').slice(0, 2).padEnd(2, '0'));
}

/** VTpass Can_Vend: "yes" / "no" (or a boolean); null when absent or anything else. */
export function can_vend_of(value: unknown): boolean | null {
  if (value === true || value === false) return value;
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase();
  return text === 'yes' || text === 'true' ? true : text === 'no' || text === 'false' ? false : null;
}

/** The deeper fields of a VTpass merchant-verify answer's content (docs/api.md "Deeper verification"). */
export function verify_details(content: Record<string, any>): { arrears_kobo: number | null; minimum_amount_kobo: number | null; can_vend: boolean | null; current_package_code: string | null; renewal_amount_kobo: number | null } {
  const code = content.Current_Bouquet_Code;
  return {
    arrears_kobo: naira_text_kobo(content.Customer_Arrears),
    // Some discos answer Minimum_Amount, others Min_Purchase_Amount.
    minimum_amount_kobo: naira_text_kobo(content.Minimum_Amount) ?? naira_text_kobo(content.Min_Purchase_Amount),
    can_vend: can_vend_of(content.Can_Vend),
    current_package_code: typeof code === 'string' && code.trim() !== '' ? code.trim().slice(0, 64) : null,
    renewal_amount_kobo: naira_text_kobo(content.Renewal_Amount),
  };
}

/** PINs a purchase bought, sealed on the order and capped so a runaway answer cannot grow a record. */
export const delivered_pins_max = 50;

/** The text after "Pin :" / "Serial No:" labels VTpass puts in its strings. */
function unlabelled(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value).replace(/^\s*[A-Za-z ]*(pin|serial(\s*no)?|token)\s*[:\-]\s*/i, '').trim();
  return text === '' ? null : text.slice(0, 100);
}

/**
 * Purchased PINs in VTpass's shapes: `cards` [{Serial, Pin}] (WAEC result checker, Spectranet), `tokens`
 * ["..."] (WAEC registration), `Pin` / `purchased_code` "Pin : ..." (JAMB). Absent on other services.
 */
export function vtpass_pins(answer: Record<string, any>): DeliveredPin[] | null {
  const out: DeliveredPin[] = [];
  if (Array.isArray(answer.cards)) {
    for (const card of answer.cards.slice(0, delivered_pins_max)) {
      const pin = unlabelled(card?.Pin ?? card?.pin);
      if (pin !== null) out.push({ serial: unlabelled(card?.Serial ?? card?.serial), pin });
    }
  } else if (Array.isArray(answer.tokens)) {
    for (const token of answer.tokens.slice(0, delivered_pins_max)) {
      const pin = unlabelled(token);
      if (pin !== null) out.push({ serial: null, pin });
    }
  } else {
    const pin = unlabelled(answer.Pin ?? answer.pin ?? null);
    if (pin !== null) out.push({ serial: null, pin });
  }
  return out.length === 0 ? null : out;
}

function pins_field(answer: Record<string, any>): { pins?: DeliveredPin[] } {
  const pins = vtpass_pins(answer);
  return pins === null ? {} : { pins };
}

/** Reads an upstream answer into a result; anything unclear is 'unknown'. */
export function interpret_answer(body: unknown, phase: 'pay' | 'requery'): ProviderResult {
  if (body === null || typeof body !== 'object') return { outcome: 'unknown', reason: 'unreadable answer' };
  const answer = body as Record<string, any>;
  const code = typeof answer.code === 'string' ? answer.code : typeof answer.code === 'number' ? String(answer.code).padStart(3, '0') : null;
  if (code === null) return { outcome: 'unknown', reason: 'answer without a code' };
  const transaction = answer.content?.transactions ?? {};
  const provider_reference = transaction.transactionId != null ? String(transaction.transactionId) : null;
  const description = String(answer.response_description ?? transaction.status ?? code).slice(0, 200);
  if (code === '000') {
    const status = String(transaction.status ?? '').toLowerCase();
    if (status === 'delivered' || status === 'successful') {
      const token_text = answer.token ?? answer.mainToken ?? answer.purchased_code ?? null;
      const token = token_text === null ? null : String(token_text).replace(/^\s*token\s*:\s*/i, '').trim() || null;
      return {
        outcome: 'delivered',
        token,
        units: normalise_units(answer.units ?? answer.mainTokenUnits ?? null),
        customer_name: answer.customerName ?? answer.content?.customerName ?? null,
        provider_reference,
        provider_commission_kobo: commission_kobo_of(transaction.commission ?? answer.commission),
        ...pins_field(answer),
      };
    }
    if (status === 'failed' || status === 'reversed') return { outcome: 'failed', reason: `Provider: ${description}`, provider_reference };
    return { outcome: 'processing', provider_reference };
  }
  if (code === '099') return { outcome: 'processing', provider_reference };
  if (code === '015' && phase === 'requery') return { outcome: 'not_found' };
  if (definite_failure_codes.has(code)) return { outcome: 'failed', reason: `Provider: ${description}`, provider_reference };
  return { outcome: 'unknown', reason: `unrecognised code ${code}` };
}

export type { ProviderObserver } from './upstreams/upstream-client.js';

export class LiveProvider implements Provider {
  readonly kind = 'vtpass';
  readonly instant = false;
  readonly breaker: CircuitBreaker;
  private readonly client: UpstreamClient;
  private listeners: UpdateListener[] = [];
  private readonly headers: Record<string, string>;

  constructor(
    config: ProviderConfig,
    clock: Clock,
    wheel: TimerWheel,
    private readonly log: Logger,
    observer: ProviderObserver = no_observer,
    /** The upstream's name in routes and metrics ("live" when it is the only one, as before). */
    readonly name: string = 'live',
    on_circuit?: (state: CircuitState) => void,
  ) {
    this.client = new UpstreamClient(name, config.base_url, config.timeout_ms, clock, wheel, log, observer, on_circuit);
    this.breaker = this.client.breaker;
    this.headers = { 'api-key': config.api_key, 'secret-key': config.secret_key };
  }

  on_update(listener: UpdateListener): void {
    this.listeners.push(listener);
  }

  unavailable(_intent: PurchaseIntent): { retry_after_s: number } | null {
    const retry_after_s = this.breaker.retry_after_s();
    return retry_after_s > 0 ? { retry_after_s: Math.max(retry_after_s, 60) } : null;
  }

  /** One upstream call, counted and timed for the operator's metrics. */
  private call(path: string, payload: unknown): Promise<UpstreamAnswer> {
    return this.client.call(path.replace(/^\/api\//, ''), 'POST', path, this.headers, payload);
  }

  async pay(order: OrderRecord): Promise<ProviderResult> {
    const family = family_of(order.service_type);
    // VTpass's own codes of the item (src/services/upstream-codes.ts); without them nothing is sent.
    const fields = family.upstream.vtpass_pay_fields(order);
    if (fields === null) return { outcome: 'failed', reason: `Provider: ${order.plan_code ?? order.package_code ?? order.service_type} is not offered by upstream ${this.name}` };
    const answer = await this.call('/api/pay', {
      request_id: order.provider_request_id,
      serviceID: family.upstream.vtpass_service_id(order),
      amount: kobo_to_naira(order.amount_kobo),
      ...fields,
    });
    if ('error' in answer) {
      this.log.warn({ reference: order.reference, error: answer.error, upstream: this.name }, answer.not_sent ? 'provider pay not sent' : 'provider pay answer unclear; will re-query');
      return { outcome: 'unknown', reason: answer.error, not_sent: answer.not_sent };
    }
    return interpret_answer(answer.body, 'pay');
  }

  async requery(order: OrderRecord): Promise<ProviderResult> {
    const answer = await this.call('/api/requery', { request_id: order.provider_request_id });
    if ('error' in answer) return { outcome: 'unknown', reason: answer.error };
    return interpret_answer(answer.body, 'requery');
  }

  private async verify(service_id: string, billers_code: string, type: string | undefined): Promise<VerifyResult> {
    const answer = await this.call('/api/merchant-verify', { billersCode: billers_code, serviceID: service_id, type });
    if ('error' in answer) return { outcome: 'unavailable', reason: answer.error };
    const body = answer.body as Record<string, any>;
    const content = body?.content ?? {};
    if (body?.code !== '000' || content.WrongBillersCode === true || content.error) return { outcome: 'invalid' };
    const name = content.Customer_Name ?? content.customer_name ?? null;
    if (typeof name !== 'string' || name.trim() === '') return { outcome: 'invalid' };
    return {
      outcome: 'valid',
      customer_name: name.trim(),
      address: content.Address ?? null,
      current_package: content.Current_Bouquet ?? null,
      due_date: due_date_of_vtpass(content),
      ...verify_details(content),
      current_package_code: current_package_of_vtpass(service_id, content.Current_Bouquet_Code),
    };
  }

  verify_meter(disco_service_id: string, meter_number: string, meter_type: 'prepaid' | 'postpaid'): Promise<VerifyResult> {
    return this.verify(disco_service_id, meter_number, meter_type);
  }

  verify_smartcard(provider: string, smartcard_number: string): Promise<VerifyResult> {
    return this.verify(provider, smartcard_number, undefined);
  }

  verify_customer(check: CustomerCheck): Promise<VerifyResult> {
    return this.verify(check.service_id, check.billers_code, check.type);
  }

  /** Answers pushed by the upstream (callbacks) would arrive here; re-queries cover their absence. */
  notify(order: OrderRecord, result: ProviderResult): void {
    for (const listener of this.listeners) listener(order, result);
  }
}

/** Live purchases without provider settings answer 503 (docs/operations.md "provider settings"). */
export class UnconfiguredProvider implements Provider {
  readonly name = 'unconfigured';
  readonly instant = false;
  on_update(): void {}
  unavailable(): { retry_after_s: number } {
    return { retry_after_s: 60 };
  }
  pay(): ProviderResult {
    return { outcome: 'unknown', reason: 'no live provider configured' };
  }
  requery(): ProviderResult {
    return { outcome: 'unknown', reason: 'no live provider configured' };
  }
  verify_meter(): VerifyResult {
    return { outcome: 'unavailable', reason: 'no live provider configured' };
  }
  verify_smartcard(): VerifyResult {
    return { outcome: 'unavailable', reason: 'no live provider configured' };
  }
  verify_customer(): VerifyResult {
    return { outcome: 'unavailable', reason: 'no live provider configured' };
  }
}
