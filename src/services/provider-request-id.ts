// The request id an order is sent under (VTpass's form, docs/upstreams.md): a new one for each upstream the
// order is sent to (order-sending.ts's failover), the first made with the order (order-desk.ts).
import { random_text } from '../lib/ids.js';
import type { RandomSource } from '../lib/random.js';

let cached_minute = -1;
let cached_minute_text = '';

/** VTpass-style request id: Africa/Lagos YYYYMMDDHHmm (cached per minute) then 12 random characters. */
export function provider_request_id(random: RandomSource, now_ms: number): string {
  const minute = Math.floor(now_ms / 60_000);
  if (minute !== cached_minute) {
    cached_minute = minute;
    cached_minute_text = new Date(minute * 60_000 + 60 * 60 * 1000).toISOString().slice(0, 16).replace(/[-T:]/g, '');
  }
  return cached_minute_text + random_text(random, 'abcdefghijklmnopqrstuvwxyz0123456789', 12);
}
