// The live upstream: an adapter for an aggregator API of the common Nigerian shape (VTpass style):
//   POST {base}/api/pay            {request_id, serviceID, billersCode, variation_code, amount, phone}
//   POST {base}/api/requery        {request_id}
//   POST {base}/api/merchant-verify {billersCode, serviceID, type}
//   POST {base}/api/merchant-verify/smile/email {billersCode, serviceID} (a Smile account's e-mail)
// with headers api-key and secret-key. Every fact relied on, with its source: docs/upstreams.md.
// An answer is read status-first: `content.transactions.status` decides whenever present, whatever the
// code; a code decides only without one, by the one table of src/services/upstreams/vtpass-codes.ts.
// Rule (docs/decisions.md): an unclear answer (timeout, 5xx, unreadable body, unknown code, 019) means
// processing and a re-query, never a guessed failure; only a definite failure fails an order.
import type { Logger } from 'pino';
import type { Clock } from '../lib/clock.js';
import type { TimerWheel } from '../lib/timer-wheel.js';
import type { ProviderConfig } from '../config.js';
import type { OrderRecord, ServiceType } from './order.js';
import type { CatalogAnswer, CustomerCheck, Provider, ProviderResult, PurchaseIntent, UpdateListener, VerifyResult } from './provider.js';
import type { DeliveredPin } from './order.js';
import type { CircuitBreaker, CircuitState } from './circuit-breaker.js';
import { UpstreamClient, no_observer, type ProviderObserver, type UpstreamAnswer } from './upstreams/upstream-client.js';
import { normalise_units } from './units.js';
import { kobo_to_naira } from '../lib/money.js';
import { family_of } from './products/registry.js';
import { current_package_of_vtpass, due_date_of_vtpass } from './products/tv.js';
import { vtpass_code, vtpass_status } from './upstreams/vtpass-codes.js';

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

/** "Serial No:WRN123, pin: 0987…" / "Pin : 3678…" pairs in a purchased_code text, in order. */
const labelled_pin = /(?:serial\s*(?:no|number)?\.?\s*[:\-]?\s*([A-Za-z0-9\-]+)\s*[,;|]?\s*)?pin\s*[:\-]\s*([A-Za-z0-9\-]+)/gi;

/** PINs written in a `purchased_code` text (WAEC: "Serial No:…, pin: …", JAMB: "Pin : …"). */
export function pins_in_text(value: unknown): DeliveredPin[] {
  if (typeof value !== 'string' || value.trim() === '') return [];
  const out: DeliveredPin[] = [];
  for (const match of value.matchAll(labelled_pin)) {
    if (out.length >= delivered_pins_max) break;
    out.push({ serial: match[1] ?? null, pin: match[2] });
  }
  // A text that holds a secret in a shape we cannot read is sealed whole, never shown as a token.
  if (out.length === 0) out.push({ serial: null, pin: value.trim().slice(0, 200) });
  return out;
}

/**
 * Purchased PINs in VTpass's shapes: `cards` [{Serial, Pin}] (WAEC result checker, Spectranet), `tokens`
 * ["..."] (WAEC registration), `Pin` "Pin : ..." (JAMB), else `purchased_code` ("Serial No:…, pin: …").
 * Only for services that sell PINs (education, internet): their text never becomes the order's token.
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
  } else if (answer.Pin != null || answer.pin != null) {
    const pin = unlabelled(answer.Pin ?? answer.pin);
    if (pin !== null) out.push({ serial: null, pin });
  } else {
    out.push(...pins_in_text(answer.purchased_code));
  }
  return out.length === 0 ? null : out;
}

/** A value VTpass fills when it has nothing: absent, empty, "N/A", "null". */
function meaningful(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value).trim();
  return text === '' || /^(n\/?a|null|none|-)$/i.test(text) ? null : text.slice(0, 200);
}

/**
 * An electricity answer's tokens (docs/upstreams.md "Tokens"): the main token (`token`, `mainToken`, else
 * the "Token : X" of `purchased_code`), the bonus token (`bonusToken`, else "Bonus Token : Y" of
 * `purchased_code`, as some EKEDC answers give it) and the key-change tokens (`kct1`, `kct2`).
 */
export function electricity_tokens(answer: Record<string, any>): { token: string | null; bonus_token: string | null; key_change_tokens: string[] } {
  const code = typeof answer.purchased_code === 'string' ? answer.purchased_code : '';
  const bonus_in_code = /bonus\s*token\s*:\s*([0-9][0-9\- ]*[0-9])/i.exec(code)?.[1]?.trim() ?? null;
  const main_in_code = /^\s*(?:token\s*:\s*)?([0-9][0-9\- ]*[0-9])/i.exec(code.replace(/bonus\s*token\s*:.*$/i, ''))?.[1]?.trim() ?? null;
  const strip = (text: string | null) => text === null ? null : text.replace(/^\s*token\s*:\s*/i, '').trim() || null;
  const key_change_tokens = [answer.kct1, answer.kct2, answer.KCT1, answer.KCT2].map(meaningful).filter((t): t is string => t !== null).slice(0, 2);
  return {
    token: strip(meaningful(answer.token) ?? meaningful(answer.mainToken) ?? main_in_code),
    bonus_token: strip(meaningful(answer.bonusToken) ?? bonus_in_code),
    key_change_tokens,
  };
}

/** The customer's name a pay answer gives: never "N/A" (IKEDC), which must not overwrite the verified name. */
export function answer_customer_name(answer: Record<string, any>): string | null {
  return meaningful(answer.customerName) ?? meaningful(answer.content?.customerName) ?? null;
}

/** A delivered answer read for the order's service: tokens for electricity, PINs for the services that sell them. */
function delivered_result(answer: Record<string, any>, transaction: Record<string, any>, service_type: ServiceType | null, provider_reference: string | null): ProviderResult {
  const base = {
    outcome: 'delivered' as const,
    token: null as string | null,
    units: null as string | null,
    customer_name: answer_customer_name(answer),
    provider_reference,
    provider_commission_kobo: commission_kobo_of(transaction.commission ?? answer.commission),
  };
  if (service_type === 'electricity') {
    const tokens = electricity_tokens(answer);
    return {
      ...base,
      token: tokens.token,
      units: normalise_units(answer.units ?? answer.mainTokenUnits ?? null),
      ...(tokens.bonus_token === null ? {} : { bonus_token: tokens.bonus_token }),
      ...(tokens.key_change_tokens.length === 0 ? {} : { key_change_tokens: tokens.key_change_tokens }),
    };
  }
  if (service_type === 'education' || service_type === 'internet') {
    const pins = vtpass_pins(answer);
    return pins === null ? base : { ...base, pins };
  }
  return base;
}

/**
 * Reads a VTpass answer into a result, status-first (docs/upstreams.md "Reading an answer: status first"): the
 * transaction's status decides whenever present; otherwise the code's class in the one table
 * (src/services/upstreams/vtpass-codes.ts); anything unclear is 'unknown', which is re-queried.
 */
export function interpret_answer(body: unknown, phase: 'pay' | 'requery', service_type: ServiceType | null = null): ProviderResult {
  if (body === null || typeof body !== 'object') return { outcome: 'unknown', reason: 'unreadable answer' };
  const answer = body as Record<string, any>;
  const code = typeof answer.code === 'string' ? answer.code : typeof answer.code === 'number' ? String(answer.code).padStart(3, '0') : null;
  const transaction = answer.content?.transactions !== null && typeof answer.content?.transactions === 'object' ? answer.content.transactions as Record<string, any> : {};
  const provider_reference = transaction.transactionId != null ? String(transaction.transactionId) : null;
  const entry = code === null ? null : vtpass_code(code);
  const description = String(answer.response_description ?? entry?.meaning ?? code ?? 'no code').slice(0, 200);
  const status_text = typeof transaction.status === 'string' ? transaction.status.trim().toLowerCase() : '';
  if (status_text !== '') {
    switch (vtpass_status(status_text)) {
      case 'delivered':
        return delivered_result(answer, transaction, service_type, provider_reference);
      case 'failed':
        return { outcome: 'failed', reason: `Provider: ${description}`, provider_reference, ...(entry?.class === 'refused' ? { refused: true } : {}) };
      case 'reversed':
        return { outcome: 'failed', reason: `Provider: the transaction was reversed (${description})`, provider_reference, reversed: true };
      case 'processing':
        return { outcome: 'processing', provider_reference };
      case null:
        return { outcome: 'unknown', reason: `unrecognised transaction status "${status_text.slice(0, 40)}" (code ${code ?? 'none'})` };
    }
  }
  if (code === null) return { outcome: 'unknown', reason: 'answer without a code or a status' };
  switch (entry?.class) {
    case 'status':
      return { outcome: 'unknown', reason: `code ${code} without a transaction status`, unclear: 'no_status' };
    case 'processing':
      return { outcome: 'processing', provider_reference };
    case 'refused':
      return { outcome: 'failed', reason: `Provider: ${description}`, provider_reference, refused: true };
    case 'failed':
      // 040 TRANSACTION REVERSAL: the transaction was reversed, whatever it was before.
      return { outcome: 'failed', reason: `Provider: ${description}`, provider_reference, ...(code === '040' ? { reversed: true } : {}) };
    case 'duplicate':
      return { outcome: 'unknown', reason: `code 019 ${entry.meaning}: re-queried under its own request id`, unclear: 'duplicate' };
    case 'not_found':
      return phase === 'requery' ? { outcome: 'not_found' } : { outcome: 'unknown', reason: `code ${code} on payment` };
    case 'unclear':
      return { outcome: 'unknown', reason: `code ${code} ${entry.meaning}` };
    default:
      return { outcome: 'unknown', reason: `unrecognised code ${code}` };
  }
}

/**
 * Reads a merchant-verify answer (docs/upstreams.md "Verification: the customer's mistake or ours"): only a 000
 * answer that says `WrongBillersCode` or carries an `error` (or names no customer) is the customer's mistake; any
 * other code (020 aside), an HTTP 4xx (bad credentials) or a non-JSON body is the upstream's, and is unavailable,
 * so the router asks the next upstream.
 */
export function interpret_verify(status: number, body: unknown, service_id?: string): VerifyResult {
  if (body === null || typeof body !== 'object') return { outcome: 'unavailable', reason: 'unreadable verification answer' };
  const answer = body as Record<string, any>;
  const code = typeof answer.code === 'string' ? answer.code : typeof answer.code === 'number' ? String(answer.code).padStart(3, '0') : null;
  if (status >= 400) return { outcome: 'unavailable', reason: `verification HTTP ${status}` };
  if (code !== '000' && code !== '020') return { outcome: 'unavailable', reason: `verification code ${code ?? 'none'} ${String(answer.response_description ?? '').slice(0, 80)}`.trim() };
  const content = answer.content !== null && typeof answer.content === 'object' ? answer.content as Record<string, any> : {};
  if (content.WrongBillersCode === true || content.WrongBillersCode === 'true' || (content.error != null && content.error !== '')) return { outcome: 'invalid' };
  const name = meaningful(content.Customer_Name ?? content.customer_name ?? content.Name ?? null);
  if (name === null) return { outcome: 'invalid' };
  return {
    outcome: 'valid',
    customer_name: name,
    address: meaningful(content.Address) ?? null,
    current_package: content.Current_Bouquet ?? null,
    due_date: due_date_of_vtpass(content),
    ...verify_details(content),
    ...(service_id === undefined ? {} : { current_package_code: current_package_of_vtpass(service_id, content.Current_Bouquet_Code) }),
  };
}

export type { ProviderObserver } from './upstreams/upstream-client.js';

export class LiveProvider implements Provider {
  readonly kind = 'vtpass';
  readonly instant = false;
  readonly breaker: CircuitBreaker;
  private readonly client: UpstreamClient;
  private listeners: UpdateListener[] = [];
  private readonly headers: Record<string, string>;
  /** GET requests take api-key and public-key (https://www.vtpass.com/documentation/authentication/). */
  private readonly get_headers: Record<string, string> | null;

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
    this.get_headers = config.public_key === '' ? null : { 'api-key': config.api_key, 'public-key': config.public_key };
  }

  on_update(listener: UpdateListener): void {
    this.listeners.push(listener);
  }

  unavailable(_intent: PurchaseIntent): { retry_after_s: number } | null {
    const retry_after_s = this.breaker.retry_after_s();
    return retry_after_s > 0 ? { retry_after_s: Math.max(retry_after_s, 60) } : null;
  }

  /**
   * The customer's phone for an order whose request has none (electricity, TV): the account's phone,
   * set by build_router (docs/upstreams.md "The customer's phone"). Null: none is known.
   */
  phone_of: (account_id: number) => string | null = () => null;
  /** The account's e-mail, sent where VTpass requires the customer's (international airtime: `email`, M). */
  email_of: (account_id: number) => string | null = () => null;

  /** A GET of VTpass's catalog endpoints (international airtime), with the public key; none configured: no answer. */
  vtpass_get(path: string, operation: string): Promise<CatalogAnswer> {
    if (this.get_headers === null) return Promise.resolve({ error: `upstream ${this.name} has no public key: VTpass GET requests take api-key and public-key` });
    return this.client.call(operation, 'GET', path, this.get_headers);
  }

  /** One upstream call, counted and timed for the operator's metrics. */
  private call(path: string, payload: unknown, operation = path.replace(/^\/api\//, '')): Promise<UpstreamAnswer> {
    return this.client.call(operation, 'POST', path, this.headers, payload);
  }

  /** What /api/pay is sent: the family's fields, with the customer's real phone where the family has none. */
  pay_body(order: OrderRecord): Record<string, unknown> | null {
    const family = family_of(order.service_type);
    // VTpass's own codes of the item (src/services/upstream-codes.ts); without them nothing is sent.
    const item_fields = family.upstream.vtpass_pay_fields(order);
    if (item_fields === null) return null;
    const fields: Record<string, unknown> = { ...item_fields };
    if (fields.phone === undefined || fields.phone === null || fields.phone === '') {
      const phone = this.phone_of(order.account_id);
      // Accounts keep phones internationally (+234…); VTpass's examples are local (080…).
      if (phone !== null) fields.phone = /^\+234\d{10}$/.test(phone) ? `0${phone.slice(4)}` : phone;
    }
    // A family that must send the customer's e-mail asks for it with null (international airtime).
    if (fields.email === null) fields.email = this.email_of(order.account_id) ?? '';
    return {
      request_id: order.provider_request_id,
      serviceID: family.upstream.vtpass_service_id(order),
      amount: kobo_to_naira(order.amount_kobo),
      ...fields,
    };
  }

  async pay(order: OrderRecord): Promise<ProviderResult> {
    const body = this.pay_body(order);
    // Refused before sending, as VTpass would (010): the order may move to the next upstream of its route.
    if (body === null) return { outcome: 'failed', reason: `Provider: ${order.plan_code ?? order.package_code ?? order.service_type} is not offered by upstream ${this.name}`, refused: true };
    const answer = await this.call('/api/pay', body);
    if ('error' in answer) {
      this.log.warn({ reference: order.reference, error: answer.error, upstream: this.name }, answer.not_sent ? 'provider pay not sent' : 'provider pay answer unclear; will re-query');
      return { outcome: 'unknown', reason: answer.error, not_sent: answer.not_sent };
    }
    return this.read(order, answer.body, 'pay');
  }

  async requery(order: OrderRecord): Promise<ProviderResult> {
    const answer = await this.call('/api/requery', { request_id: order.provider_request_id });
    if ('error' in answer) return { outcome: 'unknown', reason: answer.error };
    return this.read(order, answer.body, 'requery');
  }

  private read(order: OrderRecord, body: unknown, phase: 'pay' | 'requery'): ProviderResult {
    const result = interpret_answer(body, phase, order.service_type);
    if (result.outcome === 'unknown' && result.unclear !== undefined) {
      this.log.warn({ reference: order.reference, request_id: order.provider_request_id, upstream: this.name, phase, reason: result.reason }, result.unclear === 'duplicate'
        ? 'VTpass answered 019 (likely duplicate): never sent elsewhere; re-queried under its own request id'
        : 'VTpass answer without a transaction status: unclear; re-queried');
    }
    return result;
  }

  private async verify(service_id: string, billers_code: string, type: string | undefined): Promise<VerifyResult> {
    // A Smile account's e-mail has its own endpoint (https://www.vtpass.com/documentation/smile-network-payment-api-2/).
    const answer = type === 'email'
      ? await this.call('/api/merchant-verify/smile/email', { billersCode: billers_code, serviceID: service_id }, 'merchant-verify')
      : await this.call('/api/merchant-verify', { billersCode: billers_code, serviceID: service_id, type }, 'merchant-verify');
    if ('error' in answer) return { outcome: 'unavailable', reason: answer.error };
    return interpret_verify(answer.status, answer.body, service_id);
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

/** Live purchases without provider settings answer 503 (docs/operations.md "Configuration"). */
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
