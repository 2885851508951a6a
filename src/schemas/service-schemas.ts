// Schemas of the four services, the catalog and the transaction history (docs/spec.md sections 2 and 4,
// docs/decisions.md "Services" and "Transactions").
import Type from 'typebox';
import { FreeText, free_text_forbidden, Naira, Network, Pagination, Timestamp } from './common.js';

export const Pin = Type.String({ pattern: '^[0-9]{5}$', errorMessage: 'must be the 5-digit transaction PIN' });
export const LocalPhone = Type.String({ pattern: '^0[0-9]{10}$', errorMessage: 'must be an 11-digit local number such as 08012345678' });
export const MeterNumber = Type.String({ pattern: '^([0-9]{11}|[0-9]{13})$', errorMessage: 'must be 11 or 13 digits' });
export const Smartcard = Type.String({ pattern: '^[0-9]{10,12}$', errorMessage: 'must be a 10 to 12 digit smartcard or IUC number' });
export const MeterType = Type.Enum(['prepaid', 'postpaid']);
export const TvProviderName = Type.Enum(['dstv', 'gotv', 'startimes']);
/** Every amount: NGN with at most 2 decimals, at most 100,000,000 (docs/decisions.md "Money"); the routes
 * check the decimals and the plan or package price, the schema states the bounds for the document. */
export const amount_naira_max = 100_000_000;
const Amount = (hint: string, minimum = 0, maximum = amount_naira_max) =>
  Type.Number({ minimum, maximum, description: 'NGN, at most 2 decimals', errorMessage: hint });

// ---- Client reference and metadata (docs/api.md "Client references") --------------------------------

/** The reseller's own reference: 1 to 64 of A-Z a-z 0-9 . _ : - (safe in URLs, CSV and logs). */
export const client_reference_pattern = /^[A-Za-z0-9._:-]{1,64}$/;
export const client_reference_rule = 'must be 1 to 64 characters of A-Z, a-z, 0-9, ".", "_", ":" and "-"';
export const metadata_keys_max = 20;
export const metadata_key_length_max = 40;
export const metadata_value_length_max = 500;

const ClientReference = Type.String({
  pattern: client_reference_pattern.source,
  errorMessage: client_reference_rule,
  description: 'your own reference for this purchase, unique per account and environment for ever: a second purchase with it is 409 transaction.duplicate_reference',
});
// A key outside the pattern (empty, too long, control characters) is an additional property: refused.
// "__proto__" too: the store's encoding would not keep it as sent (it is renamed on the way to disk).
const Metadata = Type.Record(
  Type.String({ pattern: `^(?!__proto__$)[^${free_text_forbidden}]{1,${metadata_key_length_max}}$` }),
  Type.String({ maxLength: metadata_value_length_max, pattern: `^[^${free_text_forbidden}]*$`, errorMessage: `must be a string of at most ${metadata_value_length_max} characters, without control characters` }),
  {
    maxProperties: metadata_keys_max,
    additionalProperties: false,
    errorMessage: `must be an object of at most ${metadata_keys_max} keys of 1 to ${metadata_key_length_max} characters (not "__proto__") with string values of at most ${metadata_value_length_max} characters`,
    description: 'your own notes: stored on the order and echoed back',
  },
);
const purchase_extras = {
  client_reference: Type.Optional(ClientReference),
  metadata: Type.Optional(Metadata),
};
/** Both shown on every order; null when the purchase had none (and on orders from before them). */
const extras_view = {
  client_reference: Type.Union([Type.String(), Type.Null()]),
  metadata: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()]),
};

export const AirtimeBody = Type.Object({
  network: Network,
  phone: LocalPhone,
  amount: Amount('must be an NGN amount from 50 to 50000 with at most 2 decimals', 50, 50_000),
  pin: Pin,
  ...purchase_extras,
});

export const DataBody = Type.Object({
  network: Network,
  plan_code: FreeText({ minLength: 1, maxLength: 64, errorMessage: 'must be a plan_id from GET /v1/services/data/plans' }),
  phone: LocalPhone,
  amount: Amount('must equal the plan price in NGN'),
  pin: Pin,
  ...purchase_extras,
});

export const ElectricityBody = Type.Object({
  disco: FreeText({ minLength: 1, maxLength: 64, errorMessage: 'must be a distribution company service ID or code (GET /v1/services/electricity/discos)' }),
  meter_number: MeterNumber,
  meter_type: MeterType,
  amount: Amount('must be an NGN amount of at least 500 with at most 2 decimals', 500),
  pin: Pin,
  ...purchase_extras,
});

/** Months one TV purchase may pay for, where the provider allows more than one (docs/api.md "TV renewals and months"). */
export const tv_quantity_max = 12;
export const SubscriptionType = Type.Enum(['change', 'renew'], {
  description: 'change (default, as before: buy package_code) or renew (the smartcard\'s current package at its renewal amount; DStv and GOtv)',
  errorMessage: 'must be change or renew',
});

export const TvBody = Type.Object({
  provider: TvProviderName,
  smartcard_number: Smartcard,
  // Required for change, the default; optional for renew (the route checks which).
  package_code: Type.Optional(FreeText({ minLength: 1, maxLength: 64, errorMessage: 'must be a package_code from GET /v1/services/tv/packages' })),
  amount: Amount('must equal the package price (change) or the renewal amount (renew), times quantity, in NGN'),
  pin: Pin,
  subscription_type: Type.Optional(SubscriptionType),
  quantity: Type.Optional(Type.Integer({
    minimum: 1,
    maximum: tv_quantity_max,
    description: `months, 1 to ${tv_quantity_max} (DStv and GOtv; StarTimes: 1), default 1`,
    errorMessage: `must be a whole number of months from 1 to ${tv_quantity_max}`,
  })),
  ...purchase_extras,
});

export const VerifyMeterBody = Type.Object({
  disco: ElectricityBody.properties.disco,
  meter_number: MeterNumber,
  meter_type: MeterType,
});

export const VerifySmartcardBody = Type.Object({
  provider: TvProviderName,
  smartcard_number: Smartcard,
});

export const PlanTypeName = Type.Enum(['sme', 'gifting', 'corporate', 'direct'], { description: 'how the network provisions the bundle (docs/api.md "Data plan types")' });

export const DataPlanView = Type.Object({
  plan_id: Type.String({ description: 'the value used as plan_code on purchase' }),
  name: Type.String(),
  network: Network,
  plan_type: PlanTypeName,
  amount: Naira,
  amount_charged: Type.Number({ minimum: 0, description: 'what the calling account\'s wallet pays for it: amount less its tier\'s commission (docs/api.md "Pricing")' }),
  validity: Type.String(),
});

export const TvPackageView = Type.Object({
  package_code: Type.String(),
  name: Type.String(),
  provider: TvProviderName,
  amount: Naira,
  amount_charged: Type.Number({ minimum: 0, description: 'what the calling account\'s wallet pays for it: amount less its tier\'s commission (docs/api.md "Pricing")' }),
});

export const DiscoView = Type.Object({
  code: Type.String({ description: 'e.g. IKEDC' }),
  service_id: Type.String({ description: 'the value of the disco field, e.g. ikeja-electric' }),
  name: Type.String(),
});

/** docs/api.md "Pricing": amount is the face value, amount_charged what the wallet was debited, commission the difference. */
const AmountCharged = Type.Number({ minimum: 0, description: 'NGN debited from the wallet: amount − commission' });
const Commission = Type.Number({ minimum: 0, description: 'NGN: the tier\'s rate applied to amount, rounded down to the kobo' });

const Status = Type.Enum(['pending', 'processing', 'delivered', 'failed']);

export const AirtimeResult = Type.Object({
  reference: Type.String(), status: Status, network: Network, phone: Type.String(), amount: Naira, amount_charged: AmountCharged, commission: Commission, wallet_balance_after: Naira, ...extras_view,
});
export const DataResult = Type.Object({
  reference: Type.String(), status: Status, network: Network, phone: Type.String(), plan: Type.String(), plan_code: Type.String(),
  amount: Naira, amount_charged: AmountCharged, commission: Commission, wallet_balance_after: Naira, delivered_at: Type.Union([Timestamp, Type.Null()]), ...extras_view,
});
export const ElectricityResult = Type.Object({
  reference: Type.String(), status: Status,
  token: Type.Union([Type.String({ description: 'prepaid meters: 20 digits in groups of 4' }), Type.Null()]),
  units: Type.Union([Type.String({ description: 'e.g. 45.3 kWh' }), Type.Null()]),
  meter_number: Type.String(), meter_type: MeterType, disco: Type.String(), customer_name: Type.Union([Type.String(), Type.Null()]),
  amount: Naira, amount_charged: AmountCharged, commission: Commission, wallet_balance_after: Naira, delivered_at: Type.Union([Timestamp, Type.Null()]), ...extras_view,
});
/** On TV orders whose request set them (docs/api.md "TV renewals and months"). */
const tv_terms_view = {
  subscription_type: Type.Optional(Type.Enum(['change', 'renew'])),
  quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: tv_quantity_max, description: 'months paid for' })),
};
export const TvResult = Type.Object({
  reference: Type.String(), status: Status, provider: TvProviderName, smartcard_number: Type.String(),
  package_code: Type.Union([Type.String(), Type.Null()], { description: 'null only for a renewal whose current package the provider did not name' }),
  amount: Naira, amount_charged: AmountCharged, commission: Commission, customer_name: Type.Union([Type.String(), Type.Null()]), wallet_balance_after: Naira, delivered_at: Type.Union([Timestamp, Type.Null()]), ...extras_view,
  ...tv_terms_view,
});

const NullableNaira = (description: string) => Type.Optional(Type.Union([Type.Number({ minimum: 0, description }), Type.Null()]));
export const VerifyResultView = Type.Object({
  customer_name: Type.String(),
  address: Type.Union([Type.String(), Type.Null()]),
  current_package: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  due_date: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  // Meters (docs/api.md "Deeper verification"): null when the distribution company does not say.
  arrears: NullableNaira('meters: NGN the customer owes the distribution company'),
  minimum_amount: NullableNaira('meters: the least NGN a purchase for this meter may be; a purchase below it is 422 service.amount_below_minimum'),
  can_vend: Type.Optional(Type.Union([Type.Boolean({ description: 'meters: false when the distribution company takes no payment for it now (a purchase is 422 service.meter_cannot_vend)' }), Type.Null()])),
  // Smartcards: null when the provider does not say.
  current_package_code: Type.Optional(Type.Union([Type.String({ description: 'smartcards: the package_code of the current package' }), Type.Null()])),
  renewal_amount: NullableNaira('smartcards: NGN one month of the current package costs with subscription_type renew'),
});

export const OrderListItem = Type.Object({
  reference: Type.String({ description: 'BV-YYYYMMDD-XXXXXXXXXXXX' }),
  service_type: Type.Enum(['airtime', 'data', 'electricity', 'tv']),
  recipient: Type.String(),
  amount: Naira,
  amount_charged: AmountCharged,
  commission: Commission,
  status: Type.Enum(['successful', 'processing', 'pending', 'failed'], { description: 'a delivered order shows as successful' }),
  created_at: Timestamp,
  ...extras_view,
});

export const OrderPage = Type.Object({ transactions: Type.Array(OrderListItem), pagination: Pagination });

const Nullable = (schema: ReturnType<typeof Type.String>) => Type.Union([schema, Type.Null()]);
export const UpstreamAttemptView = Type.Object({
  upstream: Type.String({ description: 'The upstream the order was handed to' }),
  request_id: Type.String({ description: 'The request id sent to that upstream; a new one per upstream' }),
  outcome: Type.Enum(['sent', 'refused', 'failed', 'processing', 'unknown', 'delivered']),
  at: Timestamp,
});

/** GET /v1/services/status: whether each product can be bought now (docs/api.md "Service status"). */
export const ServiceStatusItem = Type.Object({
  product: Type.String({ description: 'service type, or service type/network, disco or TV provider' }),
  service_type: Type.Enum(['airtime', 'data', 'electricity', 'tv']),
  status: Type.Enum(['available', 'degraded', 'unavailable']),
  retry_after_s: Type.Union([Type.Integer(), Type.Null()]),
});
export const ServiceStatusPage = Type.Object({ services: Type.Array(ServiceStatusItem), checked_at: Timestamp });

export const OrderFull = Type.Object({
  reference: Type.String(),
  service_type: Type.Enum(['airtime', 'data', 'electricity', 'tv']),
  environment: Type.Enum(['live', 'test']),
  network: Nullable(Type.String()),
  disco: Nullable(Type.String()),
  provider: Nullable(Type.String()),
  recipient: Type.String(),
  plan: Nullable(Type.String()),
  plan_code: Nullable(Type.String()),
  package_code: Nullable(Type.String()),
  amount: Naira,
  amount_charged: AmountCharged,
  commission: Commission,
  status: Status,
  token: Nullable(Type.String()),
  units: Nullable(Type.String()),
  meter_type: Type.Union([MeterType, Type.Null()]),
  customer_name: Nullable(Type.String()),
  wallet_balance_before: Naira,
  wallet_balance_after: Naira,
  failure_reason: Nullable(Type.String()),
  reversed: Type.Boolean(),
  needs_review: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
  delivered_at: Type.Union([Timestamp, Type.Null()]),
  failed_at: Type.Union([Timestamp, Type.Null()]),
  reversed_at: Type.Union([Timestamp, Type.Null()]),
  status_history: Type.Array(Type.Object({ status: Status, at: Timestamp })),
  ...tv_terms_view,
  /** Live orders: each upstream the order was handed to, in turn (docs/api.md "Upstream attempts"). */
  attempts: Type.Optional(Type.Array(UpstreamAttemptView)),
  ...extras_view,
});
