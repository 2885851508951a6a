// The sandbox provider for test keys (docs/decisions.md "Sandbox"): answers instantly and by the magic numbers
// of sandbox-numbers.ts, so integrators can produce every outcome on purpose. It is stateless: a re-query derives the
// answer from the order itself, so a restart in the middle changes nothing.
import type { TimerWheel } from '../lib/timer-wheel.js';
import type { Clock } from '../lib/clock.js';
import type { OrderRecord } from './order.js';
import type { CustomerCheck, Provider, ProviderResult, PurchaseIntent, UpdateListener, VerifyResult } from './provider.js';
import { family_of } from './products/registry.js';
import { sandbox_numbers } from './sandbox-numbers.js';

export { sandbox_numbers };

/** What the sandbox's arrears meter owes and the least it may buy, in kobo. */
export const sandbox_arrears_kobo = 12_500_00;
export const sandbox_minimum_kobo = 5_000_00;

/**
 * The renewal smartcard's current package per provider, with its renewal amount in kobo. The amounts
 * differ from the catalog prices on purpose, as the real ones do when a smartcard carries add-ons, so a
 * renewal priced at the package price is caught (service.amount_mismatch). StarTimes names the package
 * but gives no renewal amount.
 */
export const sandbox_renewals: Record<string, { name: string; code: string; renewal_kobo: number | null }> = {
  dstv: { name: 'DStv Compact', code: 'dstv-compact', renewal_kobo: 21_500_00 },
  gotv: { name: 'GOtv Max', code: 'gotv-max', renewal_kobo: 8_500_00 },
  startimes: { name: 'StarTimes Classic', code: 'startimes-classic', renewal_kobo: null },
};

/** Sandbox delays (processing, then an answer) last 30 s, scaled by TIME_SCALE. */
export const sandbox_delay_ms = 30_000;

export { sandbox_token } from './products/family.js';

export class SandboxProvider implements Provider {
  readonly name = 'sandbox';
  readonly instant = true;
  private listeners: UpdateListener[] = [];

  constructor(private readonly wheel: TimerWheel, private readonly clock: Clock) {}

  on_update(listener: UpdateListener): void {
    this.listeners.push(listener);
  }

  unavailable(intent: PurchaseIntent): { retry_after_s: number } | null {
    return intent.recipient === sandbox_numbers.provider_down ? { retry_after_s: 60 } : null;
  }

  /** What a delivery carries (token, units, customer name) is the family's (src/services/products/). */
  private delivered(order: OrderRecord): ProviderResult {
    return family_of(order.service_type).sandbox_delivered(order);
  }

  /** The final answer for a delayed number once its 30 s have passed. */
  private settle(order: OrderRecord): ProviderResult {
    return order.recipient === sandbox_numbers.delayed_failed
      ? { outcome: 'failed', reason: 'The sandbox provider could not deliver to this number.' }
      : this.delivered(order);
  }

  pay(order: OrderRecord): ProviderResult {
    switch (order.recipient) {
      case sandbox_numbers.failed:
        return { outcome: 'failed', reason: 'The sandbox provider rejected this number.' };
      case sandbox_numbers.delayed_delivered:
      case sandbox_numbers.delayed_failed: {
        // Like a real upstream's callback: the answer arrives on its own after the delay.
        const snapshot = order;
        this.wheel.schedule(sandbox_delay_ms, () => {
          const result = this.settle(snapshot);
          for (const listener of this.listeners) listener(snapshot, result);
        });
        return { outcome: 'processing', provider_reference: `SBX-${order.provider_request_id}` };
      }
      default:
        return this.delivered(order);
    }
  }

  requery(order: OrderRecord): ProviderResult {
    if (order.recipient === sandbox_numbers.failed) return { outcome: 'failed', reason: 'The sandbox provider rejected this number.' };
    if (order.recipient === sandbox_numbers.delayed_delivered || order.recipient === sandbox_numbers.delayed_failed) {
      const ready_ms = order.created_us / 1000 + this.wheel.scaled(sandbox_delay_ms);
      return this.clock.now_ms() >= ready_ms ? this.settle(order) : { outcome: 'processing' };
    }
    return this.delivered(order);
  }

  verify_meter(_disco: string, meter_number: string, meter_type: 'prepaid' | 'postpaid'): VerifyResult {
    if ((sandbox_numbers.invalid_meters as readonly string[]).includes(meter_number)) return { outcome: 'invalid' };
    const arrears = meter_number === sandbox_numbers.arrears_meter;
    return {
      outcome: 'valid',
      customer_name: 'Test Customer',
      address: meter_type === 'prepaid' ? '1 Sandbox Close, Ikeja, Lagos' : '2 Sandbox Close, Ikeja, Lagos',
      arrears_kobo: arrears ? sandbox_arrears_kobo : 0,
      minimum_amount_kobo: arrears ? sandbox_minimum_kobo : null,
      can_vend: meter_number !== sandbox_numbers.blocked_meter,
    };
  }

  verify_smartcard(provider: string, smartcard_number: string): VerifyResult {
    if (smartcard_number === sandbox_numbers.invalid_smartcard) return { outcome: 'invalid' };
    const due = new Date(this.clock.now_ms() + 30 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    const current = sandbox_renewals[provider];
    const renewal = smartcard_number === sandbox_numbers.renewal_smartcard ? current : undefined;
    return {
      outcome: 'valid',
      customer_name: 'Test Customer',
      address: null,
      current_package: current?.name ?? null,
      due_date: due,
      current_package_code: renewal?.code ?? null,
      renewal_amount_kobo: renewal?.renewal_kobo ?? null,
    };
  }

  /** Profiles and accounts: the family's sandbox numbers (src/services/products/). */
  verify_customer(check: CustomerCheck): VerifyResult {
    const verify = family_of(check.service_type).sandbox_verify;
    return verify === undefined ? { outcome: 'invalid' } : verify(check);
  }
}
