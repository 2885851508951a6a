// Names as people write them (issue 36 "The first ten minutes"; docs/decisions.md "The first ten minutes"):
// the one table of display names for the product families and for networks, discos, TV, exam and
// internet providers. Wallet entry descriptions are written with it (engine/entry-descriptions.ts), and
// the dashboard, which imports nothing from the server, receives it with the session (display_names)
// rather than keeping a copy of its own.
import type { ServiceType } from './order-record.js';

/** Each family's label. */
export const service_display_names: Readonly<Record<ServiceType, string>> = {
  airtime: 'Airtime', data: 'Data', electricity: 'Electricity', tv: 'Cable TV', education: 'Education', internet: 'Internet', showmax: 'Showmax', international: 'International',
};

/** Networks, discos (by service ID), TV, exam and internet providers, as people write them. */
export const biller_display_names: Readonly<Record<string, string>> = {
  mtn: 'MTN', airtel: 'Airtel', glo: 'Glo', '9mobile': '9mobile',
  dstv: 'DStv', gotv: 'GOtv', startimes: 'StarTimes', showmax: 'Showmax', 'foreign-airtime': 'International',
  waec: 'WAEC', jamb: 'JAMB', smile: 'Smile', spectranet: 'Spectranet',
  'eko-electric': 'Eko Electric', 'ikeja-electric': 'Ikeja Electric', 'abuja-electric': 'Abuja Electric',
  'ibadan-electric': 'Ibadan Electric', 'portharcourt-electric': 'Port Harcourt Electric', 'kaduna-electric': 'Kaduna Electric',
  'jos-electric': 'Jos Electric', 'kano-electric': 'Kano Electric', 'benin-electric': 'Benin Electric',
};

/** A family's label; an unknown code shows as it is. */
export function service_display_name(service_type: string): string {
  return (service_display_names as Record<string, string>)[service_type] ?? service_type;
}

/** A network, disco or provider as people write it ("DStv", "Ikeja Electric", "WAEC"); an unknown code shows as it is. */
export function biller_display_name(code: string): string {
  return biller_display_names[code] ?? code;
}
