// Reading a funding provider's amounts into integer kobo, exactly (docs/funding.md "Flutterwave", "Amounts").
// Flutterwave answers in naira with decimals, as a JSON number (1234.56, 1.4) or a decimal string ("100.00");
// Paystack answers in kobo, as an integer. Nothing here multiplies a float: a naira amount is read through its
// decimal text (for a number, the shortest text that round-trips, as src/lib/money.ts does), so 1234.56 is
// 123456 kobo and never 123455.99999999999. An amount that is not exactly a whole number of kobo, negative,
// or beyond the safe integers is unreadable (null): the caller treats the answer as unclear, never guesses.

const naira_text = /^(\d+)(?:\.(\d+))?$/;

/** Whole-naira digits past this would leave the safe integers once in kobo. */
const naira_digits_max = 13;

/** A provider's naira amount (number or decimal string) as integer kobo, or null when it is not exact. */
export function provider_naira_to_kobo(value: unknown): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  const match = naira_text.exec(text);
  if (match === null) return null;
  const whole = match[1].replace(/^0+(?=\d)/, '');
  if (whole.length > naira_digits_max) return null;
  const fraction = match[2] ?? '';
  // Digits past the kobo must all be zeros ("500.0000" is 50000 kobo); "1.005" is not a kobo amount.
  if (/[1-9]/.test(fraction.slice(2))) return null;
  const kobo = Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'));
  return Number.isSafeInteger(kobo) ? kobo : null;
}

/** A provider's kobo amount (an integer, or its decimal text), or null when it is not one. */
export function provider_kobo(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return null;
}
