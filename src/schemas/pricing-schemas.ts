// Schemas of reseller pricing (docs/api.md "Pricing"): the operator's price lists, an account's
// effective rates and the operator's margin report.
import Type from 'typebox';
import { service_type_names, service_types_text } from '../services/order.js';
import { EnvironmentName, FreeText, Naira } from './common.js';
import { rate_bp_max, rules_max } from '../services/pricing.js';

const ServiceTypeName = Type.Enum([...service_type_names]);
const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Enum>>(schema: T) => Type.Union([schema, Type.Null()]);

export const RateBp = Type.Integer({
  minimum: 0,
  maximum: rate_bp_max,
  description: `discount in basis points: 100 bp = 1%; at most ${rate_bp_max} (an order always costs at least 1 kobo)`,
  errorMessage: `must be an integer number of basis points from 0 to ${rate_bp_max}`,
});

export const PriceRuleBody = Type.Object({
  service_type: FreeText({ minLength: 1, maxLength: 32, description: service_types_text, errorMessage: `must be one of: ${service_type_names.join(', ')}` }),
  network: Type.Optional(Type.Union([FreeText({ maxLength: 32, description: 'airtime and data only: mtn, airtel, glo or 9mobile' }), Type.Null()])),
  disco: Type.Optional(Type.Union([FreeText({ maxLength: 64, description: 'electricity only: a disco service ID or code' }), Type.Null()])),
  provider: Type.Optional(Type.Union([FreeText({ maxLength: 32, description: 'tv: dstv, gotv or startimes; education: waec or jamb; internet: smile or spectranet' }), Type.Null()])),
  rate_bp: RateBp,
});

export const PutPricingBody = Type.Object({
  rules: Type.Array(PriceRuleBody, { maxItems: rules_max, errorMessage: `must be a list of at most ${rules_max} rules (rules_max)` }),
  funding_fee: Type.Optional(Type.Union([Type.Literal('operator'), Type.Literal('reseller')], { description: 'who bears a funding provider\'s fee on a dedicated-account transfer (docs/funding.md "Fees"); operator by default', errorMessage: 'must be operator or reseller' })),
});

export const PriceRuleView = Type.Object({
  service_type: ServiceTypeName,
  network: Nullable(Type.String()),
  disco: Nullable(Type.String()),
  provider: Nullable(Type.String()),
  rate_bp: Type.Integer(),
});

export const TierPricingView = Type.Object({
  tier: Type.String(),
  rules: Type.Array(PriceRuleView),
  funding_fee: Type.Union([Type.Literal('operator'), Type.Literal('reseller')]),
  updated_at: Type.String({ format: 'date-time' }),
});

export const AccountPricingView = Type.Object({
  tier: Type.String({ description: 'the calling account\'s tier' }),
  rounding: Type.String({ description: 'how commission is computed' }),
  rates: Type.Array(PriceRuleView, { description: 'every product\'s effective rate: the most specific rule of the tier, else 0' }),
});

export const MarginRow = Type.Object({
  day: Type.String({ description: 'Africa/Lagos day the order was placed (wallet debited), YYYY-MM-DD' }),
  service_type: ServiceTypeName,
  orders: Type.Integer({ description: 'delivered orders' }),
  amount: Naira,
  amount_charged: Naira,
  commission: Naira,
  provider_commission: Naira,
  provider_commission_unknown: Type.Integer({ description: 'delivered orders whose provider commission is unknown (counted as 0)' }),
  margin: Type.Number({ description: 'provider_commission − commission, NGN; negative when the operator sells below cost' }),
});

export const MarginReport = Type.Object({
  environment: EnvironmentName,
  from: Type.String(),
  to: Type.String(),
  rows: Type.Array(MarginRow),
  totals: Type.Omit(MarginRow, ['day', 'service_type']),
});
