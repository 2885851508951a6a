// The sandbox provider for test keys (docs/decisions.md "Sandbox"): answers instantly and by the numbers
// below, so integrators can produce every outcome on purpose. It is stateless: a re-query derives the
// answer from the order itself, so a restart in the middle changes nothing.
import type { TimerWheel } from '../lib/timer-wheel.js';
import type { Clock } from '../lib/clock.js';
import type { OrderRecord } from './order.js';
import type { CustomerCheck, Provider, ProviderResult, PurchaseIntent, UpdateListener, VerifyResult } from './provider.js';
import { family_of } from './products/registry.js';

export const sandbox_numbers = {
  delivered: '08011111111',
  failed: '08022222222',
  delayed_delivered: '08033333333',
  delayed_failed: '08044444444',
  provider_down: '08055555555',
  prepaid_meter: '1111111111111',
  postpaid_meter: '1010101010101',
  invalid_meters: ['0000000000000', '00000000000'],
  valid_smartcard: '1212121212',
  invalid_smartcard: '0000000000',
} as const;

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
    return {
      outcome: 'valid',
      customer_name: 'Test Customer',
      address: meter_type === 'prepaid' ? '1 Sandbox Close, Ikeja, Lagos' : '2 Sandbox Close, Ikeja, Lagos',
    };
  }

  verify_smartcard(provider: string, smartcard_number: string): VerifyResult {
    if (smartcard_number === sandbox_numbers.invalid_smartcard) return { outcome: 'invalid' };
    const due = new Date(this.clock.now_ms() + 30 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    const current = { dstv: 'DStv Compact', gotv: 'GOtv Max', startimes: 'StarTimes Classic' }[provider] ?? null;
    return { outcome: 'valid', customer_name: 'Test Customer', address: null, current_package: current, due_date: due };
  }

  /** Profiles and accounts: the family's sandbox numbers (src/services/products/). */
  verify_customer(check: CustomerCheck): VerifyResult {
    const verify = family_of(check.service_type).sandbox_verify;
    return verify === undefined ? { outcome: 'invalid' } : verify(check);
  }
}
