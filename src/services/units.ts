// Electricity units as the API shows them ("45.3 kWh", docs/spec.md section 2). The sandbox prices energy at a
// flat tariff; live units come from the upstream as text.

/** NGN 68.00 per kWh, in kobo: roughly the Band C tariff. */
export const sandbox_tariff_kobo_per_kwh = 6800;

/** Units to one decimal, computed in integers: kobo × 10 / tariff, rounded down. */
export function format_units(amount_kobo: number): string {
  const tenths = Math.floor((amount_kobo * 10) / sandbox_tariff_kobo_per_kwh);
  return `${Math.floor(tenths / 10)}.${tenths % 10} kWh`;
}

/** Upstream unit text normalised to carry its suffix ("45.3" → "45.3 kWh"). */
export function normalise_units(text: string | null | undefined): string | null {
  if (text === null || text === undefined || text === '') return null;
  const trimmed = String(text).trim();
  return /[a-z]/i.test(trimmed) ? trimmed : `${trimmed} kWh`;
}
