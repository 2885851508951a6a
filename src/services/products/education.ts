// Education (docs/api.md "Education and internet"): WAEC result checker and registration PINs, JAMB UTME and Direct
// Entry PINs. A product has a price per PIN; an order buys `quantity` of them (up to the product's
// quantity_max) for price × quantity. JAMB PINs are bought for a candidate's profile ID, verified first.
// The PINs are the deliverable: sealed on the order as they arrive and shown only to the reseller's key
// (the 201, GET /v1/transactions/{reference}, the dashboard); never in webhooks, exports or logs.
import { createHash } from 'node:crypto';
import type { Static } from 'typebox';
import Type from 'typebox';
import { kobo_to_naira, naira_to_kobo } from '../../lib/money.js';
import { error_reply, success_reply, type Reply } from '../../lib/reply.js';
import { api_error, invalid, type ApiError } from '../../errors.js';
import { FreeText, Naira, Timestamp } from '../../schemas/common.js';
import { Amount, AmountCharged, Commission, LocalPhone, Pin, Status, extras_view, promised_view, purchase_extras } from '../../schemas/service-schemas.js';
import type { Catalog } from '../catalog.js';
import { pins_of, type DeliveredPin, purchase_tail_view, type OrderRecord } from '../order.js';
import type { CustomerCheck, ProviderResult, VerifyResult } from '../provider.js';
import { provider_unavailable } from '../provider.js';
import type { CatalogItem } from './item-list.js';
import { upstream_code } from '../upstream-codes.js';
import {
  sandbox_reference,
  type PlanContext, type ProductFamily, type ProductRequest, type PurchasePlan, type Unsealer,
} from './family.js';
import { purchase_errors } from './purchase-errors.js';

export const education_kind = 'education-products';
export const exams = ['waec', 'jamb'] as const;
/** PINs one order may buy at most, whatever a product says (VTpass sells result checkers by the 10). */
export const education_quantity_max = 10;

/** Sandbox profile IDs (docs/api.md "Sandbox"): this one is unknown; every other 10-digit ID is valid. */
export const sandbox_invalid_profile = '0000000000';

const product_rule = 'must be a product_code from GET /v1/services/education/products';
const ProfileId = Type.String({ pattern: '^[0-9]{10}$', errorMessage: 'must be the 10-digit JAMB profile ID' });

export const EducationBody = Type.Object({
  product: FreeText({ minLength: 1, maxLength: 64, errorMessage: product_rule }),
  quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: education_quantity_max, errorMessage: `must be a whole number from 1 to ${education_quantity_max}`, description: 'PINs to buy (default 1), up to the product\'s quantity_max' })),
  phone: LocalPhone,
  profile_id: Type.Optional(ProfileId),
  amount: Amount('must equal the product price × quantity in NGN'),
  pin: Pin,
  ...purchase_extras,
});

export const VerifyProfileBody = Type.Object({
  product: FreeText({ minLength: 1, maxLength: 64, errorMessage: 'must be a JAMB product_code (jamb-utme, jamb-de)' }),
  profile_id: ProfileId,
});

export const EducationProductView = Type.Object({
  product_code: Type.String({ description: 'the value of product on purchase' }),
  name: Type.String(),
  exam: Type.Enum([...exams]),
  amount: Naira,
  amount_charged: Type.Number({ minimum: 0, description: 'what the calling account\'s wallet pays per PIN: amount less its tier\'s commission (docs/api.md "Pricing")' }),
  quantity_max: Type.Integer({ minimum: 1, maximum: education_quantity_max }),
  requires_profile: Type.Boolean({ description: 'a JAMB product: profile_id is required and verified' }),
});

export const ProfileView = Type.Object({ product: Type.String(), profile_id: Type.String(), customer_name: Type.String() });

export const PinView = Type.Object({
  serial: Type.Union([Type.String(), Type.Null()], { description: 'the serial number, where the exam body gives one' }),
  pin: Type.String(),
});

export const EducationResult = Type.Object({
  reference: Type.String(), status: Status, product: Type.String(), product_name: Type.Union([Type.String(), Type.Null()]), exam: Type.String(),
  quantity: Type.Integer(), phone: Type.String(), profile_id: Type.Union([Type.String(), Type.Null()]), customer_name: Type.Union([Type.String(), Type.Null()]),
  pins: Type.Union([Type.Array(PinView), Type.Null()], { description: 'the purchased PINs once delivered; null while processing (fetch them again on GET /v1/transactions/{reference})' }),
  amount: Naira, amount_charged: AmountCharged, commission: Commission, wallet_balance_after: Naira, delivered_at: Type.Union([Timestamp, Type.Null()]), ...extras_view, ...promised_view,
});

const attribute_text = (item: CatalogItem, name: string): string => String(item.attributes[name] ?? '');
const quantity_max_of = (item: CatalogItem): number => Math.min(education_quantity_max, Number(item.attributes.quantity_max ?? 1));
const requires_profile = (item: CatalogItem): boolean => item.attributes.requires_profile === true;

function education_items(catalog: Catalog) {
  return catalog.item_list(education_kind);
}

function list_education_products(request: ProductRequest): Reply {
  const exam = request.query.get('exam');
  if (exam !== null && !(exams as readonly string[]).includes(exam)) return error_reply(request.request_id, invalid('exam', `must be one of: ${exams.join(', ')}`));
  return success_reply(request.request_id, 200, {
    products: education_items(request.catalog).list(exam).map((item) => ({
      product_code: item.code, name: item.name, exam: item.group, amount: kobo_to_naira(item.amount_kobo),
      amount_charged: request.charged_naira('education', item.group, item.amount_kobo), quantity_max: quantity_max_of(item), requires_profile: requires_profile(item),
    })),
  });
}

function profile_check(item: CatalogItem, profile_id: string): CustomerCheck {
  return { service_type: 'education', provider: item.group, service_id: attribute_text(item, 'service_id'), billers_code: profile_id, type: attribute_text(item, 'variation_code') };
}

async function verify_profile(request: ProductRequest): Promise<Reply> {
  const body = request.body as Static<typeof VerifyProfileBody>;
  const item = education_items(request.catalog).get(body.product);
  if (item === undefined || !requires_profile(item)) return error_reply(request.request_id, invalid('product', 'must be a JAMB product_code (jamb-utme, jamb-de)'));
  const result: VerifyResult = await request.provider.verify_customer(profile_check(item, body.profile_id));
  if (result.outcome === 'invalid') return error_reply(request.request_id, api_error('service.invalid_profile'));
  if (result.outcome === 'unavailable') return provider_unavailable(request.request_id, 60);
  return success_reply(request.request_id, 200, { product: item.code, profile_id: body.profile_id, customer_name: result.customer_name }, 'Profile verified.');
}

function education_plan(raw: unknown, context: PlanContext): PurchasePlan | ApiError {
  const body = raw as Static<typeof EducationBody>;
  const amount = naira_to_kobo(body.amount);
  if (!amount.ok) return invalid('amount', amount.reason);
  const quantity = body.quantity ?? 1;
  const items = education_items(context.catalog);
  const item = items.get(body.product);
  // An unknown product is refused after the PIN, like a data plan (service.plan_not_found); what depends
  // on a known product's shape is a validation error before it.
  if (item !== undefined && quantity > quantity_max_of(item)) return invalid('quantity', `must be from 1 to ${quantity_max_of(item)} for ${item.code}`);
  const profile = item !== undefined && requires_profile(item) ? body.profile_id ?? null : null;
  if (item !== undefined && requires_profile(item) && profile === null) return invalid('profile_id', 'is required for JAMB products');
  const provider = context.provider;
  return {
    order: {
      service_type: 'education', network: null, disco: null, provider: item?.group ?? null, recipient: body.phone,
      plan_code: body.product, plan: item?.name ?? null, package_code: null, meter_type: null, amount_kobo: amount.kobo, customer_name: null,
      quantity, customer_id: profile,
    },
    check: () => {
      // Read at execution: the operator may have re-priced or disabled the product meanwhile.
      const current = items.get(body.product);
      if (current === undefined || !current.enabled) return api_error('service.plan_not_found', `Education product "${body.product}" is missing or disabled.`);
      if (current.amount_kobo * quantity !== amount.kobo) {
        return api_error('service.amount_mismatch', `Amount ${body.amount} differs from the price ${kobo_to_naira(current.amount_kobo)} × ${quantity} = ${kobo_to_naira(current.amount_kobo * quantity)}.`);
      }
      return null;
    },
    ...(item !== undefined && profile !== null ? { verify: () => provider.verify_customer(profile_check(item, profile)), invalid_code: 'service.invalid_profile' as const } : {}),
  };
}

function education_result_view(order: OrderRecord, secrets: Unsealer) {
  return {
    reference: order.reference,
    status: order.status,
    product: order.plan_code,
    product_name: order.plan,
    exam: order.provider,
    quantity: order.quantity ?? 1,
    phone: order.recipient,
    profile_id: order.customer_id ?? null,
    customer_name: order.customer_name,
    pins: pins_of(order, secrets),
    ...purchase_tail_view(order),
  };
}

/** Sandbox PINs: digits derived from the reference and the PIN's index, so every re-query repeats them. */
function sandbox_digits(reference: string, index: number, length: number): string {
  const digest = createHash('sha256').update(`${reference}#${index}`).digest();
  let digits = '';
  for (let i = 0; digits.length < length; i++) digits += String(digest[i % digest.length] % 10);
  return digits;
}

function education_sandbox_delivered(order: OrderRecord): ProviderResult {
  const pins: DeliveredPin[] = [];
  for (let i = 0; i < (order.quantity ?? 1); i++) {
    pins.push(order.provider === 'jamb'
      ? { serial: null, pin: sandbox_digits(order.reference, i, 16) }
      : { serial: `WRN${sandbox_digits(order.reference, i + 100, 9)}`, pin: sandbox_digits(order.reference, i, 12) });
  }
  return { outcome: 'delivered', customer_name: order.customer_name, provider_reference: sandbox_reference(order), pins };
}

function education_sandbox_verify(check: CustomerCheck): VerifyResult {
  return check.billers_code === sandbox_invalid_profile ? { outcome: 'invalid' } : { outcome: 'valid', customer_name: 'Test Candidate', address: null };
}

export const education_family: ProductFamily = {
  service_type: 'education',
  messages: {
    delivered: 'Education PINs purchased.',
    processing: 'Education PIN purchase is processing; the PINs follow on GET /v1/transactions/{reference} (webhooks never carry them).',
  },
  catalog_kinds: [education_kind],
  routes: [
    {
      method: 'get',
      path: '/v1/services/education/products',
      scope: null,
      doc: {
        summary: 'Enabled education products (WAEC, JAMB PINs), optionally of one exam body',
        tags: ['Education'],
        response: Type.Object({ products: Type.Array(EducationProductView) }),
        query: { exam: { schema: Type.Enum([...exams]), description: 'waec or jamb' } },
        errors: ['validation.failed'],
      },
      handler: list_education_products,
    },
    {
      method: 'post',
      path: '/v1/services/education/verify',
      scope: 'services:purchase',
      body: VerifyProfileBody,
      idempotent: false,
      doc: { summary: 'Verify a JAMB profile ID before buying: the candidate\'s name', tags: ['Education'], response: ProfileView, success_status: 200, errors: ['validation.failed', 'service.invalid_profile', 'transaction.provider_unavailable'] },
      handler: verify_profile,
    },
  ],
  purchase: {
    path: '/v1/services/education',
    body: EducationBody,
    doc: {
      summary: 'Buy WAEC or JAMB PINs; amount must equal the price × quantity; the PINs are in the answer',
      tags: ['Education'], response: EducationResult, success_status: 201,
      errors: [...purchase_errors, 'validation.failed', 'service.plan_not_found', 'service.amount_mismatch', 'service.invalid_profile'],
    },
    plan: education_plan,
  },
  result_view: education_result_view,
  sandbox_delivered: education_sandbox_delivered,
  sandbox_verify: education_sandbox_verify,
  upstream: {
    vtpass_service_id: (order) => upstream_code(order, 'vtpass')?.service_id ?? (order.provider === 'jamb' ? 'jamb' : order.plan_code === 'waec-registration' ? 'waec-registration' : 'waec'),
    vtpass_pay_fields: (order) => {
      const code = upstream_code(order, 'vtpass');
      if (code === null) return null;
      return { billersCode: order.customer_id ?? order.recipient, variation_code: code.variation_code, quantity: order.quantity ?? 1, phone: order.recipient };
    },
    flutterwave_bill: () => null,
    flutterwave_customer: (order) => order.recipient,
  },
};

