// The Nigerian mobile numbering plan as far as airtime and data need it (docs/api.md "Phone lookup"): which of
// the four networks we sell a number's prefix was allocated to. The one table of prefixes; nothing else in the
// code names a prefix.
//
// Source (read 2026-11-27): the Nigerian Communications Commission's National Numbering Plan allocations as
// listed in "Telephone numbers in Nigeria", https://en.wikipedia.org/wiki/Telephone_numbers_in_Nigeria (read
// through its mirror https://wikimili.com/en/Telephone_numbers_in_Nigeria), cross-checked against phoneng's
// NCC-based list, https://phoneng.vercel.app/docs/network-coverage. Where the two differ the entry says so.
// Prefixes are of the 11-digit local form (0 + 10 digits); a five-digit prefix wins over its four-digit one.
// A prefix of another operator (Smile 0702, ntel 0804, MAFAB/MCom 0801, Multi-Links 07027 and 0709,
// Starcomms 07028, 07029 and 0819) or none at all answers null: we sell none of them.
// Since 2013 numbers may be ported (mobile number portability), so a prefix names the network a number was
// allocated to, not always the one it is on: the ported-number table (ported-numbers.ts) corrects it.
import type { Network } from './catalog.js';

export const numbering_plan_source = 'https://en.wikipedia.org/wiki/Telephone_numbers_in_Nigeria (NCC National Numbering Plan allocations), read 2026-11-27';

/** Prefix (local form) → network. */
export const numbering_plan: Readonly<Record<string, Network>> = {
  // MTN Nigeria.
  '0703': 'mtn', '0706': 'mtn', '0803': 'mtn', '0806': 'mtn', '0810': 'mtn', '0813': 'mtn', '0814': 'mtn', '0816': 'mtn',
  '0903': 'mtn', '0906': 'mtn', '0913': 'mtn', '0916': 'mtn',
  // MTN through its purchase of Visafone (both sources).
  '07025': 'mtn', '07026': 'mtn', '0704': 'mtn',
  // Formerly ZoomMobile: both sources now list it under MTN.
  '0707': 'mtn',
  // Airtel Nigeria.
  '0701': 'airtel', '0708': 'airtel', '0802': 'airtel', '0808': 'airtel', '0812': 'airtel',
  '0901': 'airtel', '0902': 'airtel', '0904': 'airtel', '0907': 'airtel', '0911': 'airtel', '0912': 'airtel',
  // Globacom.
  '0705': 'glo', '0805': 'glo', '0807': 'glo', '0811': 'glo', '0815': 'glo', '0905': 'glo', '0915': 'glo',
  // 9mobile (formerly Etisalat).
  '0809': '9mobile', '0817': '9mobile', '0818': '9mobile', '0908': '9mobile', '0909': '9mobile',
};

/** Indexed once: the first five digits, else the first four. */
const by_prefix = new Map<string, Network>(Object.entries(numbering_plan));

/** The network a local 11-digit number's prefix was allocated to, or null (another operator, or none). */
export function prefix_network(local_phone: string): Network | null {
  return by_prefix.get(local_phone.slice(0, 5)) ?? by_prefix.get(local_phone.slice(0, 4)) ?? null;
}
