// The sandbox's magic numbers (docs/api.md "Sandbox"): what a test key's purchase to each of them does. Apart
// from the sandbox provider so that the product families can read them (a purchase to one of the phones takes
// any network, docs/api.md "Phone lookup") without importing the provider, which imports the families.
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
  // Deeper verification (docs/api.md "Deeper verification", "TV renewals and months").
  /** Any disco, prepaid or postpaid: owes NGN 12,500 and may not buy below NGN 5,000. */
  arrears_meter: '1313131313131',
  /** Any disco, prepaid or postpaid: can_vend false, so a purchase is 422 service.meter_cannot_vend. */
  blocked_meter: '1414141414141',
  /** DStv and GOtv: a current package with a renewal amount (StarTimes gives none). */
  renewal_smartcard: '1313131313',
} as const;

/** The sandbox's magic phones: with a test key, a purchase to one of them takes any network. */
export const sandbox_phones: ReadonlySet<string> = new Set([
  sandbox_numbers.delivered, sandbox_numbers.failed, sandbox_numbers.delayed_delivered, sandbox_numbers.delayed_failed, sandbox_numbers.provider_down,
]);
