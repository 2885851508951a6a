// What a purchase's wallet entries say (GET /v1/wallet/transactions, the dashboard's wallet, statements):
// what was bought, for whom, in the names people use ("DStv Compact for smartcard 1313131313", "MTN
// airtime for 08031234567", "Ikeja Electric prepaid token for meter 1111111111111"), from the one table
// of display names (engine/display-names.ts). Entries written before (docs/decisions.md "The first ten
// minutes") said "tv 1313131313" and "Refund of failed tv 1313131313"; they stay in the store as they are
// and read in the new words (readable_description).
import { biller_display_name, service_display_name } from './display-names.js';
import { service_type_names, type OrderRecord } from './order-record.js';
import type { WalletEntry } from './records.js';

type Described = Pick<OrderRecord, 'service_type' | 'network' | 'disco' | 'provider' | 'recipient' | 'plan' | 'meter_type' | 'quantity'> & Partial<Pick<OrderRecord, 'foreign'>>;

/** "× 3" after a product bought several times (education PINs, TV months); nothing for one. */
function times(order: Described, unit: string): string {
  const quantity = order.quantity ?? 1;
  return quantity > 1 ? ` × ${quantity}${unit}` : '';
}

/** The debit entry's description of a purchase. */
export function purchase_description(order: Described): string {
  const biller = (code: string | null, fallback: string) => (code === null ? fallback : biller_display_name(code));
  switch (order.service_type) {
    case 'airtime':
      return `${biller(order.network, '')} airtime for ${order.recipient}`.trimStart();
    case 'data':
      return `${order.plan ?? `${biller(order.network, '')} data`.trimStart()} for ${order.recipient}`;
    case 'electricity':
      return `${biller(order.disco, 'Electricity')} ${order.meter_type === 'postpaid' ? 'postpaid bill' : 'prepaid token'} for meter ${order.recipient}`;
    case 'tv':
      return `${order.plan ?? biller(order.provider, 'Cable TV')}${times(order, ' months')} for smartcard ${order.recipient}`;
    case 'education':
      return `${order.plan ?? `${biller(order.provider, 'Exam')} PIN`}${times(order, '')} for ${order.recipient}`;
    case 'internet':
      return `${order.plan ?? `${biller(order.provider, 'Internet')} plan`} for ${order.recipient}`;
    case 'showmax':
      return `${order.plan ?? 'Showmax'} for ${order.recipient}`;
    case 'international': {
      // "Ghana MTN Top Up 10.50 GHS for 233241234567": the product and, when the buyer chose the amount, the
      // foreign value the quote fixed (a fixed product's name already says it).
      const foreign = order.foreign;
      const value = foreign !== undefined && !foreign.fixed_price && foreign.foreign_amount_minor !== null
        ? ` ${Math.trunc(foreign.foreign_amount_minor / 100)}.${String(foreign.foreign_amount_minor % 100).padStart(2, '0')} ${foreign.currency}` : '';
      return `${order.plan ?? `${foreign?.operator ?? 'International'} top-up`}${value} for ${order.recipient}`;
    }
  }
}

/** The reversal entry's description: a failed purchase refunded, or a delivered one its upstream reversed. */
export function refund_description(order: Described, why: 'failed' | 'reversed'): string {
  return `Refund of ${why} purchase: ${purchase_description(order)}`;
}

/** The words entries were written with before: "<family> <recipient>", "Refund of failed|reversed <family> <recipient>". */
const old_words = new RegExp(`^(Refund of (failed|reversed) )?(${service_type_names.join('|')}) (\\S+)$`);

/**
 * An entry's description as shown: as stored, except a purchase's or refund's entry written in the old
 * words, which reads in the new ones. With its order (statements have it) the whole description is
 * written again; without, the family's name stands for what was bought ("Cable TV for 1313131313").
 * A credit's description is the funder's own text and is never rewritten.
 */
export function readable_description(entry: Pick<WalletEntry, 'type' | 'description'>, order: Described | null = null): string {
  if (entry.type === 'credit') return entry.description;
  const old = old_words.exec(entry.description);
  if (old === null) return entry.description;
  const why = old[2] as 'failed' | 'reversed' | undefined;
  if (order !== null && order.service_type === old[3] && order.recipient === old[4]) {
    return why === undefined ? purchase_description(order) : refund_description(order, why);
  }
  const bought = `${service_display_name(old[3]!)} for ${old[4]}`;
  return why === undefined ? bought : `Refund of ${why} purchase: ${bought}`;
}
