// Schemas of the four services, the catalog and the transaction history (docs/spec.md sections 2 and 4,
// docs/decisions.md "Services" and "Transactions").
import Type from 'typebox';
import { service_type_names } from '../services/order.js';
import { free_text_forbidden, Naira, Network, Pagination, Timestamp } from './common.js';

export const Pin = Type.String({ pattern: '^[0-9]{5}$', errorMessage: 'must be the 5-digit transaction PIN' });
export const LocalPhone = Type.String({ pattern: '^0[0-9]{10}$', errorMessage: 'must be an 11-digit local number such as 08012345678' });
/**
 * Airtime and data: the network, optional (docs/api.md "Phone lookup"): without it the network is detected from
 * the number; with it, it must match the detected one unless `ported` is true.
 */
export const PurchaseNetwork = Type.Optional(Type.Enum(['mtn', 'airtel', 'glo', '9mobile'], {
  description: 'mtn, airtel, glo or 9mobile; optional: without it the network is detected from the number (GET /v1/lookup/phone/{phone}); a network the number is not on is 422 service.network_mismatch unless ported is true',
}));
export const Ported = Type.Optional(Type.Boolean({
  description: 'true when the number was ported to the network given: the network is then not checked against the number\'s prefix',
}));
export const MeterNumber = Type.String({ pattern: '^([0-9]{11}|[0-9]{13})$', errorMessage: 'must be 11 or 13 digits' });
export const Smartcard = Type.String({ pattern: '^[0-9]{10,12}$', errorMessage: 'must be a 10 to 12 digit smartcard or IUC number' });
export const MeterType = Type.Enum(['prepaid', 'postpaid']);
export const TvProviderName = Type.Enum(['dstv', 'gotv', 'startimes']);
/** Every amount: NGN with at most 2 decimals, at most 100,000,000 (docs/decisions.md "Money"); the routes
 * check the decimals and the plan or package price, the schema states the bounds for the document. */
export const amount_naira_max = 100_000_000;
export const Amount = (hint: string, minimum = 0, maximum = amount_naira_max) =>
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
export const purchase_extras = {
  client_reference: Type.Optional(ClientReference),
  metadata: Type.Optional(Metadata),
};
/** Both shown on every order; null when the purchase had none (and on orders from before them). */
export const extras_view = {
  client_reference: Type.Union([Type.String(), Type.Null()]),
  metadata: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()]),
};

/** docs/api.md "A promised time": on every purchase answer and full record. */
export const promised_view = {
  expected_final_at: Type.Union([Timestamp, Type.Null()], { description: 'when the order is expected to be final (never earlier than its next re-query); null once it is settled' }),
};

/** docs/api.md "Pricing": amount is the face value, amount_charged what the wallet was debited, commission the difference. */
export const AmountCharged = Type.Number({ minimum: 0, description: 'NGN debited from the wallet: amount − commission' });
export const Commission = Type.Number({ minimum: 0, description: 'NGN: the tier\'s rate applied to amount, rounded down to the kobo' });

export const Status = Type.Enum(['pending', 'processing', 'delivered', 'failed']);

/** What a verification answers (electricity, TV and the families after them add their own fields). */
export const VerifyResultView = Type.Object({
  customer_name: Type.String(),
  address: Type.Union([Type.String(), Type.Null()]),
  current_package: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  due_date: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

export const OrderListItem = Type.Object({
  reference: Type.String({ description: 'BV-YYYYMMDD-XXXXXXXXXXXX' }),
  service_type: Type.Enum([...service_type_names]),
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
  service_type: Type.Enum([...service_type_names]),
  status: Type.Enum(['available', 'degraded', 'unavailable']),
  retry_after_s: Type.Union([Type.Integer(), Type.Null()]),
});
export const ServiceStatusPage = Type.Object({ services: Type.Array(ServiceStatusItem), checked_at: Timestamp });

/** The foreign side of an international order (docs/api.md "International airtime and data"). */
export const ForeignOrderView = Type.Object({
  quote_id: Type.String({ description: 'the quote the purchase named' }),
  country: Type.String({ description: 'ISO 3166 alpha-2 country code, as GET /v1/services/international/countries lists it' }),
  currency: Type.String({ description: 'the operator\'s currency (ISO 4217)' }),
  operator_id: Type.String(),
  operator: Nullable(Type.String()),
  product_type_id: Type.String(),
  fixed_price: Type.Boolean(),
  foreign_amount: Nullable(Type.String({ pattern: '^[0-9]+\\.[0-9]{2}$', description: 'what the recipient gets, in currency, as decimal text with 2 decimals; null for a fixed product whose value VTpass gives only in its name' })),
  rate: Nullable(Type.String({ description: 'NGN per one unit of currency as decimal text, as VTpass priced it; null when VTpass gave none (fixed products)' })),
});

export const OrderFull = Type.Object({
  reference: Type.String(),
  service_type: Type.Enum([...service_type_names]),
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
  ...promised_view,
  created_at: Timestamp,
  updated_at: Timestamp,
  delivered_at: Type.Union([Timestamp, Type.Null()]),
  failed_at: Type.Union([Timestamp, Type.Null()]),
  reversed_at: Type.Union([Timestamp, Type.Null()]),
  status_history: Type.Array(Type.Object({ status: Status, at: Timestamp })),
  /** Live orders: each upstream the order was handed to, in turn (docs/api.md "Upstream attempts"). */
  attempts: Type.Optional(Type.Array(UpstreamAttemptView)),
  /** Education: PINs bought; internet and JAMB: the account or profile (docs/api.md "Education and internet"). */
  quantity: Type.Optional(Type.Integer({ minimum: 1 })),
  customer_id: Type.Optional(Nullable(Type.String())),
  /** TV orders whose request set it (docs/api.md "TV renewals and months"). */
  subscription_type: Type.Optional(Type.Enum(['change', 'renew'])),
  /** The purchased PINs, on the key's own fetch only: never in lists, webhooks or exports. */
  pins: Type.Optional(Type.Array(Type.Object({ serial: Nullable(Type.String()), pin: Type.String() }))),
  /**
   * Electricity, where the distribution company gave them: the bonus token and key-change tokens (docs/api.md
   * "Education and internet", its order record additions).
   */
  bonus_token: Type.Optional(Type.String()),
  key_change_tokens: Type.Optional(Type.Array(Type.String())),
  /** International airtime and data: the foreign side the quote fixed (docs/api.md "International airtime and data"). */
  international: Type.Optional(ForeignOrderView),
  ...extras_view,
});
