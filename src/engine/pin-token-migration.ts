// Reseals what earlier versions stored in the clear (docs/upstreams.md "Tokens, PINs and names in a delivered
// answer"): before the adapters read exam and Spectranet answers by service, a WAEC, WAEC registration, JAMB or
// Spectranet order whose answer gave its PIN only in VTpass's `purchased_code` kept that text in `token`, which the
// order views, the operator's views and the CSV export show. At start, before recovery (as
// ensure_order_index), every such order's token moves into its sealed `pins` and `token` becomes null.
// Runs once per store (meta `pin_tokens_resealed`), in one LMDB transaction.
import type { Store } from '../journal/store.js';
import type { SecretBox } from '../lib/secrets.js';
import type { DeliveredPin, OrderRecord } from './order-record.js';

export const pin_tokens_version = 1;

const labelled_pin = /(?:serial\s*(?:no|number)?\.?\s*[:\-]?\s*([A-Za-z0-9\-]+)\s*[,;|]?\s*)?pin\s*[:\-]\s*([A-Za-z0-9\-]+)/gi;

/** The PINs a stored token text holds ("Serial No:…, pin: …", "Pin : …"), or the whole text as one. */
export function pins_of_token(text: string): DeliveredPin[] {
  const out: DeliveredPin[] = [];
  for (const match of text.matchAll(labelled_pin)) {
    if (out.length >= 50) break;
    out.push({ serial: match[1] ?? null, pin: match[2] });
  }
  if (out.length === 0) out.push({ serial: null, pin: text.trim().slice(0, 200) });
  return out;
}

/** Whether an order is of a service whose deliverable is a PIN, so its token can only be a PIN in the clear. */
function sells_pins(order: OrderRecord): boolean {
  return order.service_type === 'education' || order.service_type === 'internet';
}

export function reseal_pin_tokens(store: Store, secret_box: SecretBox): number {
  if (store.meta.get('pin_tokens_resealed') === pin_tokens_version) return 0;
  let count = 0;
  store.root.transactionSync(() => {
    for (const { key, value } of store.orders.getRange({})) {
      const order = value as OrderRecord;
      if (!sells_pins(order) || order.token === null || order.token === undefined || order.token.trim() === '') continue;
      const pins_sealed = order.pins_sealed ?? secret_box.seal(JSON.stringify(pins_of_token(order.token)));
      store.orders.putSync(key, { ...order, token: null, pins_sealed });
      count++;
    }
    store.meta.putSync('pin_tokens_resealed', pin_tokens_version);
  });
  return count;
}
