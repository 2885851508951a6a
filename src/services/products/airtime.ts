// Airtime (docs/spec.md section 4 "Airtime"): any amount from NGN 50 to 50,000 to a phone of one of the four networks.
import type { Static } from 'typebox';
import Type from 'typebox';
import { kobo_to_naira } from '../../lib/money.js';
import { Amount, AmountCharged, Commission, LocalPhone, Pin, Ported, PurchaseNetwork, Status, extras_view, promised_view, purchase_extras } from '../../schemas/service-schemas.js';
import { Naira, Network } from '../../schemas/common.js';
import { charged_kobo, client_reference_of, commission_of, metadata_of, type OrderRecord } from '../order.js';
import {
  amount_in, international_phone, sandbox_delivered, vtpass_network,
  type FlutterwaveBill, type PlanContext, type ProductFamily, type PurchasePlan,
} from './family.js';
import type { ApiError } from '../../errors.js';
import { purchase_errors } from './purchase-errors.js';

export const airtime_kobo_min = 50_00;
export const airtime_kobo_max = 50_000_00;

export const AirtimeBody = Type.Object({
  network: PurchaseNetwork,
  ported: Ported,
  phone: LocalPhone,
  amount: Amount('must be an NGN amount from 50 to 50000 with at most 2 decimals', 50, 50_000),
  pin: Pin,
  ...purchase_extras,
});

export const AirtimeResult = Type.Object({
  reference: Type.String(), status: Status, network: Network, phone: Type.String(), amount: Naira, amount_charged: AmountCharged, commission: Commission, wallet_balance_after: Naira, ...extras_view, ...promised_view,
});

/** Airtime of every Nigerian network is one Flutterwave biller (BIL099/AT099); the network follows the number. */
const airtime_bill: FlutterwaveBill = { type: 'AIRTIME', biller_code: 'BIL099', item_code: 'AT099' };

function airtime_plan(raw: unknown, context: PlanContext): PurchasePlan | ApiError {
  const body = raw as Static<typeof AirtimeBody>;
  const amount_kobo = amount_in(body.amount, airtime_kobo_min, airtime_kobo_max, 'must be from 50 to 50000 NGN');
  if (typeof amount_kobo !== 'number') return amount_kobo;
  const network = context.numbers.network_of(body, context.environment);
  if (typeof network !== 'string') return network;
  return {
    order: {
      service_type: 'airtime', network, disco: null, provider: null, recipient: body.phone,
      plan_code: null, plan: null, package_code: null, meter_type: null, amount_kobo, customer_name: null,
    },
  };
}

function airtime_result_view(order: OrderRecord) {
  return {
    reference: order.reference, status: order.status, network: order.network, phone: order.recipient, amount: kobo_to_naira(order.amount_kobo),
    amount_charged: kobo_to_naira(charged_kobo(order)), commission: kobo_to_naira(commission_of(order)),
    wallet_balance_after: kobo_to_naira(order.wallet_balance_after_kobo), client_reference: client_reference_of(order), metadata: metadata_of(order),
  };
}


export const airtime_family: ProductFamily = {
  service_type: 'airtime',
  messages: { delivered: 'Airtime purchase successful.', processing: 'Airtime purchase is processing; the outcome follows by webhook and on GET /v1/transactions/{reference}.' },
  routes: [],
  purchase: {
    path: '/v1/services/airtime',
    body: AirtimeBody,
    doc: { summary: 'Buy airtime (NGN 50 to 50,000)', tags: ['Airtime'], response: AirtimeResult, success_status: 201, errors: [...purchase_errors, 'service.network_mismatch'] },
    plan: airtime_plan,
  },
  result_view: airtime_result_view,
  sandbox_delivered,
  upstream: {
    vtpass_service_id: (order) => vtpass_network(order.network!),
    vtpass_pay_fields: (order) => ({ billersCode: order.recipient, variation_code: undefined, phone: order.recipient }),
    flutterwave_bill: () => airtime_bill,
    flutterwave_customer: (order) => international_phone(order.recipient),
  },
};
