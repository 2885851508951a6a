// Electricity (docs/spec.md section 4 "Electricity"): NGN 500 or more to a meter of one of the nine distribution
// companies, verified with the provider first; a prepaid meter gets a token.
import type { Static } from 'typebox';
import Type from 'typebox';
import { kobo_to_naira } from '../../lib/money.js';
import { api_error, invalid } from '../../errors.js';
import { error_reply, success_reply, type Reply } from '../../lib/reply.js';
import type { ApiError } from '../../errors.js';
import { FreeText, Naira, Timestamp } from '../../schemas/common.js';
import {
  Amount, AmountCharged, Commission, MeterNumber, MeterType, Pin, Status, VerifyResultView, extras_view, promised_view, purchase_extras,
} from '../../schemas/service-schemas.js';
import { purchase_tail_view, type OrderRecord } from '../order.js';
import type { ProviderResult } from '../provider.js';
import { format_units } from '../units.js';
import {
  amount_in, naira_or_null, sandbox_reference, sandbox_token, verify_reply,
  type FlutterwaveBill, type PlanContext, type ProductFamily, type ProductRequest, type PurchasePlan, type ValidVerification,
} from './family.js';
import { purchase_errors } from './purchase-errors.js';

export const electricity_kobo_min = 500_00;

const disco_rule = 'must be a distribution company service ID or code (GET /v1/services/electricity/discos)';

export const ElectricityBody = Type.Object({
  disco: FreeText({ minLength: 1, maxLength: 64, errorMessage: disco_rule }),
  meter_number: MeterNumber,
  meter_type: MeterType,
  amount: Amount('must be an NGN amount of at least 500 with at most 2 decimals', 500),
  pin: Pin,
  ...purchase_extras,
});

export const VerifyMeterBody = Type.Object({
  disco: ElectricityBody.properties.disco,
  meter_number: MeterNumber,
  meter_type: MeterType,
});

export const DiscoView = Type.Object({
  code: Type.String({ description: 'e.g. IKEDC' }),
  service_id: Type.String({ description: 'the value of the disco field, e.g. ikeja-electric' }),
  name: Type.String(),
});

export const ElectricityResult = Type.Object({
  reference: Type.String(), status: Status,
  token: Type.Union([Type.String({ description: 'prepaid meters: 20 digits in groups of 4' }), Type.Null()]),
  units: Type.Union([Type.String({ description: 'e.g. 45.3 kWh' }), Type.Null()]),
  meter_number: Type.String(), meter_type: MeterType, disco: Type.String(), customer_name: Type.Union([Type.String(), Type.Null()]),
  amount: Naira, amount_charged: AmountCharged, commission: Commission, wallet_balance_after: Naira, delivered_at: Type.Union([Timestamp, Type.Null()]), ...extras_view, ...promised_view,
});

/** Electricity by disco and meter type on Flutterwave (bill categories: EKEDC PREPAID TOPUP UB134, POSTPAID UB135). */
const electricity_bills: Record<string, Record<'prepaid' | 'postpaid', FlutterwaveBill>> = {
  'eko-electric': {
    prepaid: { type: 'EKEDC PREPAID TOPUP', biller_code: 'BIL110', item_code: 'UB134' },
    postpaid: { type: 'EKEDC POSTPAID TOPUP', biller_code: 'BIL110', item_code: 'UB135' },
  },
};

const NullableNaira = (description: string) => Type.Union([Type.Number({ minimum: 0, description }), Type.Null()]);

/** docs/api.md "Deeper verification": the meter's arrears, minimum and whether it can vend, each null when the disco does not say. */
export const MeterVerifyView = Type.Object({
  ...VerifyResultView.properties,
  arrears: NullableNaira('NGN the customer owes the distribution company (VTpass Customer_Arrears)'),
  minimum_amount: NullableNaira('the least NGN a purchase for this meter may be; below it a purchase is 422 service.amount_below_minimum'),
  can_vend: Type.Union([Type.Boolean({ description: 'false: the distribution company takes no payment for this meter now (a purchase is 422 service.meter_cannot_vend)' }), Type.Null()]),
});

function meter_details_view(result: ValidVerification) {
  return { arrears: naira_or_null(result.arrears_kobo), minimum_amount: naira_or_null(result.minimum_amount_kobo), can_vend: result.can_vend ?? null };
}

/**
 * Refusals from the verification the purchase does anyway (docs/api.md "Deeper verification"): a meter
 * the disco takes no payment for, and an amount below the meter's minimum (arrears often set one).
 * Unknown values decide nothing.
 */
function meter_refusal(verification: ValidVerification, amount_kobo: number): ApiError | null {
  if (verification.can_vend === false) {
    return api_error('service.meter_cannot_vend', 'The distribution company takes no payment for this meter now (can_vend is false); nothing was debited.');
  }
  const minimum_kobo = verification.minimum_amount_kobo;
  if (minimum_kobo != null && amount_kobo < minimum_kobo) {
    return api_error('service.amount_below_minimum', `Amount ${kobo_to_naira(amount_kobo)} is below this meter's minimum of ${kobo_to_naira(minimum_kobo)} NGN; nothing was debited.`, {
      details: [{ field: 'amount', message: `must be at least ${kobo_to_naira(minimum_kobo)} NGN for this meter` }],
      extra: { minimum_amount: kobo_to_naira(minimum_kobo) },
    });
  }
  return null;
}

function list_discos(request: ProductRequest): Reply {
  return success_reply(request.request_id, 200, { discos: request.catalog.discos });
}

async function verify_meter(request: ProductRequest): Promise<Reply> {
  const body = request.body as Static<typeof VerifyMeterBody>;
  const disco = request.catalog.disco(body.disco);
  if (disco === undefined) return error_reply(request.request_id, invalid('disco', disco_rule));
  const result = await request.provider.verify_meter(disco.service_id, body.meter_number, body.meter_type);
  return verify_reply(request.request_id, result, 'service.invalid_meter', 'Meter verified.', { disco: disco.service_id, meter_number: body.meter_number, meter_type: body.meter_type }, meter_details_view);
}

function electricity_plan(raw: unknown, context: PlanContext): PurchasePlan | ApiError {
  const body = raw as Static<typeof ElectricityBody>;
  const disco = context.catalog.disco(body.disco);
  if (disco === undefined) return invalid('disco', disco_rule);
  const amount_kobo = amount_in(body.amount, electricity_kobo_min, null, 'must be at least 500 NGN');
  if (typeof amount_kobo !== 'number') return amount_kobo;
  const provider = context.provider;
  return {
    order: {
      service_type: 'electricity', network: null, disco: disco.service_id, provider: null, recipient: body.meter_number,
      plan_code: null, plan: null, package_code: null, meter_type: body.meter_type, amount_kobo, customer_name: null,
    },
    verify: () => provider.verify_meter(disco.service_id, body.meter_number, body.meter_type),
    invalid_code: 'service.invalid_meter',
    on_verified: (verification) => meter_refusal(verification, amount_kobo),
  };
}

function electricity_result_view(order: OrderRecord) {
  return {
    reference: order.reference,
    status: order.status,
    token: order.token,
    units: order.units,
    meter_number: order.recipient,
    meter_type: order.meter_type,
    disco: order.disco,
    customer_name: order.customer_name,
    ...purchase_tail_view(order),
  };
}

function electricity_sandbox_delivered(order: OrderRecord): ProviderResult {
  return {
    outcome: 'delivered',
    token: order.meter_type === 'prepaid' ? sandbox_token(order.reference) : null,
    units: format_units(order.amount_kobo),
    customer_name: 'Test Customer',
    provider_reference: sandbox_reference(order),
  };
}

export const electricity_family: ProductFamily = {
  service_type: 'electricity',
  messages: { delivered: 'Electricity payment successful.', processing: 'Electricity payment is processing; the token follows by webhook and on GET /v1/transactions/{reference}.' },
  routes: [
    {
      method: 'get',
      path: '/v1/services/electricity/discos',
      scope: null,
      doc: { summary: 'The nine distribution companies and their service IDs', tags: ['Electricity'], response: Type.Object({ discos: Type.Array(DiscoView) }) },
      handler: list_discos,
    },
    {
      method: 'post',
      path: '/v1/services/electricity/verify',
      scope: 'services:purchase',
      body: VerifyMeterBody,
      idempotent: false,
      doc: { summary: 'Verify a meter before paying: the customer name and address, and where the disco gives them its arrears, minimum_amount and can_vend', tags: ['Electricity'], response: MeterVerifyView, success_status: 200, errors: ['service.invalid_meter', 'transaction.provider_unavailable'] },
      handler: verify_meter,
    },
  ],
  purchase: {
    path: '/v1/services/electricity',
    body: ElectricityBody,
    doc: {
      summary: 'Pay for electricity (NGN 500 or more, and at least the meter\'s minimum_amount); prepaid meters get a token', tags: ['Electricity'], response: ElectricityResult, success_status: 201,
      errors: [...purchase_errors, 'service.invalid_meter', 'service.amount_below_minimum', 'service.meter_cannot_vend'],
    },
    plan: electricity_plan,
  },
  result_view: electricity_result_view,
  sandbox_delivered: electricity_sandbox_delivered,
  upstream: {
    vtpass_service_id: (order) => order.disco!,
    // No phone in the request: the adapter sends the account's (docs/upstreams.md "The customer's phone").
    vtpass_pay_fields: (order) => ({ billersCode: order.recipient, variation_code: order.meter_type ?? undefined }),
    flutterwave_bill: (product) => {
      const bills = electricity_bills[product.disco ?? ''];
      return bills === undefined ? null : bills[product.meter_type ?? 'prepaid'];
    },
    flutterwave_customer: (order) => order.recipient,
  },
};
