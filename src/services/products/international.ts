// International airtime and data (docs/api.md "International airtime and data"): a top-up or bundle of a
// foreign operator, priced in its currency and paid in NGN. VTpass sells it as serviceID `foreign-airtime`:
// countries, then a country's product types, then the operators of a country and product type, then the
// variations of an operator and product type (docs/upstreams.md "International airtime and data"). A
// purchase is two steps: POST …/quote fixes the NGN charge for quote_ttl_ms (src/services/foreign-quotes.ts),
// then POST /v1/services/international names the quote and is debited exactly that charge. Test keys read
// the sandbox's own catalog below (Ghana among its countries); live keys read VTpass at the time.
import type { Static } from 'typebox';
import Type from 'typebox';
import { kobo_to_naira } from '../../lib/money.js';
import { error_reply, success_reply, type Reply } from '../../lib/reply.js';
import { iso_ms } from '../../lib/time-format.js';
import { api_error, invalid, type ApiError } from '../../errors.js';
import { FreeText, Naira, Timestamp } from '../../schemas/common.js';
import { AmountCharged, Commission, ForeignOrderView, Pin, Status, extras_view, promised_view, purchase_extras } from '../../schemas/service-schemas.js';
import { foreign_view, purchase_tail_view, type OrderRecord } from '../order.js';
import { provider_unavailable, type Provider } from '../provider.js';
import {
  format_minor, format_rate, kobo_at_rate, parse_minor, parse_rate_micro, type ForeignQuote,
} from '../foreign-quotes.js';
import {
  sandbox_delivered,
  type PlanContext, type ProductFamily, type ProductRequest, type PurchasePlan,
} from './family.js';
import { purchase_errors } from './purchase-errors.js';

/** The pricing and routing narrow value of every international order: VTpass's serviceID. */
export const international_provider = 'foreign-airtime';

// Bounds on what one VTpass answer may make us hold or send on (docs/style.md: every list has a _max).
export const countries_max = 300;
export const product_types_max = 10;
export const operators_max = 200;
export const products_max = 500;

// ---- The catalog: VTpass's four lists, read from VTpass (live) or the sandbox's own (test) ----------------

export interface ForeignCountry { code: string; name: string; currency: string; prefix: string; flag: string | null }
export interface ForeignProductType { product_type_id: string; name: string }
export interface ForeignOperator { operator_id: string; name: string; image: string | null }
export interface ForeignProduct {
  code: string;
  name: string;
  fixed_price: boolean;
  /** The foreign value of a fixed product, when VTpass states it (variation_amount above 0), in hundredths. */
  foreign_amount_minor: number | null;
  /** A flexible product's bounds, in hundredths, when VTpass states them. */
  min_minor: number | null;
  max_minor: number | null;
  /** NGN per unit (VTpass variation_rate), micro-units. */
  rate_micro: bigint | null;
  /** A fixed product's NGN price (VTpass charged_amount), in kobo. */
  price_kobo: number | null;
}

type Listed<T> = T[] | { unavailable: string };

interface ForeignCatalog {
  countries(): Promise<Listed<ForeignCountry>>;
  product_types(country: string): Promise<Listed<ForeignProductType>>;
  operators(country: string, product_type_id: string): Promise<Listed<ForeignOperator>>;
  products(operator_id: string, product_type_id: string): Promise<Listed<ForeignProduct>>;
}

/**
 * The sandbox's catalog (docs/api.md "International airtime and data", "Sandbox"): Ghana and Cameroon with
 * the currencies, prefixes, product types and operator VTpass's page lists for them (Ghana MTN, operator 5),
 * and products of our own at fixed rates, so quotes and purchases with a test key always succeed.
 */
const sandbox_countries: ForeignCountry[] = [
  { code: 'CM', name: 'Cameroon', currency: 'XAF', prefix: '237', flag: null },
  { code: 'GH', name: 'Ghana', currency: 'GHS', prefix: '233', flag: null },
];
const sandbox_product_types: Record<string, ForeignProductType[]> = {
  GH: [{ product_type_id: '4', name: 'Mobile Data' }, { product_type_id: '1', name: 'Mobile Top Up' }],
  CM: [{ product_type_id: '1', name: 'Mobile Top Up' }],
};
const sandbox_operators: Record<string, ForeignOperator[]> = {
  'GH/1': [{ operator_id: '5', name: 'Ghana MTN', image: null }],
  'GH/4': [{ operator_id: '5', name: 'Ghana MTN', image: null }],
  'CM/1': [{ operator_id: '9', name: 'Cameroon MTN', image: null }],
};
const sandbox_products: Record<string, ForeignProduct[]> = {
  '5/1': [{ code: 'gh-mtn-topup', name: 'Ghana MTN Top Up', fixed_price: false, foreign_amount_minor: null, min_minor: 1_00, max_minor: 500_00, rate_micro: 118_500_000n, price_kobo: null }],
  '5/4': [
    { code: 'gh-mtn-data-1gb', name: 'Ghana MTN 1GB Mobile Data', fixed_price: true, foreign_amount_minor: 10_00, min_minor: null, max_minor: null, rate_micro: 118_500_000n, price_kobo: 1_185_00 },
    { code: 'gh-mtn-data-5gb', name: 'Ghana MTN 5GB Mobile Data', fixed_price: true, foreign_amount_minor: 40_00, min_minor: null, max_minor: null, rate_micro: 118_500_000n, price_kobo: 4_740_00 },
  ],
  '9/1': [{ code: 'cm-mtn-topup', name: 'Cameroon MTN Top Up', fixed_price: false, foreign_amount_minor: null, min_minor: 100_00, max_minor: 50_000_00, rate_micro: 2_350_000n, price_kobo: null }],
};

const sandbox_catalog: ForeignCatalog = {
  countries: async () => sandbox_countries,
  product_types: async (country) => sandbox_product_types[country] ?? [],
  operators: async (country, type) => sandbox_operators[`${country}/${type}`] ?? [],
  products: async (operator, type) => sandbox_products[`${operator}/${type}`] ?? [],
};

/** VTpass's lists through the live provider's route (docs/upstreams.md "International airtime and data"). */
function vtpass_catalog(get: NonNullable<Provider['vtpass_get']>): ForeignCatalog {
  async function content(path: string, operation: string): Promise<unknown> {
    const answer = await get(path, operation);
    if ('error' in answer) return { unavailable: answer.error };
    const body = answer.body as { response_description?: unknown; content?: unknown } | null;
    // The lists answer response_description "000" with their content; anything else is no list.
    if (answer.status !== 200 || body === null || typeof body !== 'object' || body.response_description !== '000') {
      return { unavailable: `VTpass ${operation} answered HTTP ${answer.status} ${String((body as { response_description?: unknown } | null)?.response_description ?? '')}`.trim() };
    }
    return { content: body.content };
  }
  const q = encodeURIComponent;
  return {
    async countries() {
      const read = await content('/api/get-international-airtime-countries', 'international-countries') as { content?: { countries?: unknown } } | { unavailable: string };
      if ('unavailable' in read) return read;
      return list_of(read.content?.countries, countries_max, read_country);
    },
    async product_types(country) {
      const read = await content(`/api/get-international-airtime-product-types?code=${q(country)}`, 'international-product-types') as { content?: unknown } | { unavailable: string };
      if ('unavailable' in read) return read;
      return list_of(read.content, product_types_max, read_product_type);
    },
    async operators(country, type) {
      const read = await content(`/api/get-international-airtime-operators?code=${q(country)}&product_type_id=${q(type)}`, 'international-operators') as { content?: unknown } | { unavailable: string };
      if ('unavailable' in read) return read;
      return list_of(read.content, operators_max, read_operator);
    },
    async products(operator, type) {
      const read = await content(`/api/service-variations?serviceID=foreign-airtime&operator_id=${q(operator)}&product_type_id=${q(type)}`, 'international-variations') as { content?: { variations?: unknown; varations?: unknown } } | { unavailable: string };
      if ('unavailable' in read) return read;
      return list_of(read.content?.variations ?? read.content?.varations, products_max, read_product);
    },
  };
}

/** The items of a list VTpass gave that we can read, at most `max`; an answer without a list is none. */
function list_of<T>(raw: unknown, max: number, read: (item: Record<string, unknown>) => T | null): T[] {
  if (!Array.isArray(raw)) return [];
  const out: T[] = [];
  for (const item of raw) {
    if (out.length >= max) break;
    if (item === null || typeof item !== 'object') continue;
    const read_item = read(item as Record<string, unknown>);
    if (read_item !== null) out.push(read_item);
  }
  return out;
}

function text_of(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function read_country(item: Record<string, unknown>): ForeignCountry | null {
  const code = text_of(item.code);
  const currency = text_of(item.currency);
  if (code === null || !/^[A-Z]{2}$/.test(code) || currency === null || !/^[A-Z]{3}$/.test(currency)) return null;
  return { code, name: text_of(item.name) ?? code, currency, prefix: text_of(item.prefix) ?? '', flag: text_of(item.flag) };
}

function read_product_type(item: Record<string, unknown>): ForeignProductType | null {
  const id = text_of(item.product_type_id);
  return id === null ? null : { product_type_id: id, name: text_of(item.name) ?? id };
}

function read_operator(item: Record<string, unknown>): ForeignOperator | null {
  const id = text_of(item.operator_id);
  return id === null ? null : { operator_id: id, name: text_of(item.name) ?? id, image: text_of(item.operator_image) };
}

/** Decimal text or a JSON number of at most 2 decimals → hundredths; 0 and anything unreadable → null. */
function minor_of(value: unknown): number | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? value.toFixed(2) : '') : typeof value === 'string' ? value.trim() : '';
  const minor = parse_minor(text);
  return minor === null || minor === 0 ? null : minor;
}

/**
 * A variation as VTpass's page describes it: fixedPrice "Yes" with its NGN charged_amount, or a flexible price
 * whose NGN charge is variation_rate × the amount in the operator's currency.
 */
function read_product(item: Record<string, unknown>): ForeignProduct | null {
  const code = text_of(item.variation_code);
  if (code === null || code.length > 64) return null;
  const fixed_price = String(item.fixedPrice ?? '').toLowerCase() === 'yes';
  return {
    code,
    name: text_of(item.name) ?? code,
    fixed_price,
    foreign_amount_minor: fixed_price ? minor_of(item.variation_amount) : null,
    min_minor: fixed_price ? null : minor_of(item.variation_amount_min),
    max_minor: fixed_price ? null : minor_of(item.variation_amount_max),
    rate_micro: parse_rate_micro(item.variation_rate),
    price_kobo: fixed_price ? minor_of(item.charged_amount) : null,
  };
}

/** The catalog a request reads: the sandbox's for test keys; VTpass's for live keys, or null when none is set up. */
function catalog_for(context: Pick<PlanContext, 'environment' | 'provider'>): ForeignCatalog | null {
  if (context.environment === 'test') return sandbox_catalog;
  const get = context.provider.vtpass_get;
  return get === undefined ? null : vtpass_catalog(get.bind(context.provider));
}

/** The NGN face value of a product for a foreign amount (hundredths), or why it has none. */
function price_kobo_of(product: ForeignProduct, foreign_minor: number | null): number | null {
  if (product.fixed_price) {
    if (product.price_kobo !== null) return product.price_kobo;
    if (product.rate_micro !== null && product.foreign_amount_minor !== null) return kobo_at_rate(product.rate_micro, product.foreign_amount_minor);
    return null;
  }
  if (product.rate_micro === null || foreign_minor === null) return null;
  return kobo_at_rate(product.rate_micro, foreign_minor);
}

// ---- Schemas ------------------------------------------------------------------------------------------

const CountryCode = Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166 alpha-2 country code, as GET /v1/services/international/countries lists it', errorMessage: 'must be a 2-letter country code such as GH' });
const OperatorId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$', description: 'operator_id, as GET /v1/services/international/operators lists it', errorMessage: 'must be an operator_id from GET /v1/services/international/operators' });
const ProductTypeId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,16}$', description: 'product_type_id, as GET /v1/services/international/operators lists it (1 Mobile Top Up, 4 Mobile Data in VTpass\'s example)', errorMessage: 'must be a product_type_id from GET /v1/services/international/operators' });
const ForeignAmountText = Type.String({ pattern: '^[0-9]{1,12}(\\.[0-9]{1,2})?$', description: 'an amount in the operator\'s currency as decimal text with at most 2 decimals, such as "10.50"', errorMessage: 'must be decimal text with at most 2 decimals, such as "10.50"' });
/** The recipient abroad: digits only, international (233…) or as the operator writes it locally; 7 to 15 digits. */
const ForeignPhone = Type.String({ pattern: '^[0-9]{7,15}$', description: 'the number to top up: 7 to 15 digits, such as 233241234567', errorMessage: 'must be 7 to 15 digits such as 233241234567' });
const DecimalText = Type.String({ pattern: '^[0-9]+\\.[0-9]{2}$' });

export const QuoteBody = Type.Object({
  country: CountryCode,
  operator: OperatorId,
  product_type: ProductTypeId,
  product_code: FreeText({ minLength: 1, maxLength: 64, description: 'a product_code from GET /v1/services/international/products', errorMessage: 'must be a product_code from GET /v1/services/international/products' }),
  foreign_amount: Type.Optional(ForeignAmountText),
});

export const InternationalBody = Type.Object({
  quote_id: Type.String({ pattern: '^qt_[a-z0-9]{20}$', description: 'the quote_id of POST /v1/services/international/quote', errorMessage: 'must be a quote_id from POST /v1/services/international/quote' }),
  phone: ForeignPhone,
  pin: Pin,
  ...purchase_extras,
});

const CountryView = Type.Object({ code: Type.String(), name: Type.String(), currency: Type.String(), prefix: Type.String(), flag: Type.Union([Type.String(), Type.Null()]) });
const OperatorView = Type.Object({ operator_id: Type.String(), name: Type.String(), image: Type.Union([Type.String(), Type.Null()]), product_type_id: Type.String(), product_type: Type.String() });
const ProductView = Type.Object({
  product_code: Type.String({ description: 'a quote takes it as product_code' }),
  name: Type.String(),
  fixed_price: Type.Boolean({ description: 'true: one price; false: any foreign_amount from foreign_amount_min to foreign_amount_max' }),
  currency: Type.String(),
  foreign_amount: Type.Union([DecimalText, Type.Null()], { description: 'a fixed product\'s value in currency, when the provider states it' }),
  foreign_amount_min: Type.Union([DecimalText, Type.Null()]),
  foreign_amount_max: Type.Union([DecimalText, Type.Null()]),
  rate: Type.Union([Type.String(), Type.Null()], { description: 'NGN per one unit of currency, as decimal text; null when the provider gives none' }),
  amount: Type.Union([Naira, Type.Null()], { description: 'a fixed product\'s NGN price; null for a flexible one (rate × foreign_amount, see the quote)' }),
  amount_charged: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description: 'what the calling account\'s wallet would pay for a fixed product (docs/api.md "Pricing")' }),
});
export const QuoteView = Type.Object({
  quote_id: Type.String(),
  country: Type.String(), currency: Type.String(), operator_id: Type.String(), operator: Type.Union([Type.String(), Type.Null()]),
  product_type_id: Type.String(), product_code: Type.String(), product: Type.String(), fixed_price: Type.Boolean(),
  foreign_amount: Type.Union([DecimalText, Type.Null()]),
  rate: Type.Union([Type.String(), Type.Null()]),
  amount: Naira, amount_charged: AmountCharged, commission: Commission,
  expires_at: Timestamp,
  valid_for_seconds: Type.Integer({ minimum: 1, description: 'how long the quote holds from now: 600 (10 minutes)' }),
});
export const InternationalResult = Type.Object({
  reference: Type.String(), status: Status, phone: Type.String(), product_code: Type.String(), product: Type.Union([Type.String(), Type.Null()]),
  international: ForeignOrderView,
  amount: Naira, amount_charged: AmountCharged, commission: Commission, wallet_balance_after: Naira, delivered_at: Type.Union([Timestamp, Type.Null()]),
  ...extras_view, ...promised_view,
});

// ---- Routes -------------------------------------------------------------------------------------------

const query_country = { schema: CountryCode, description: 'the country code', required: true };
const not_found = (request_id: string, what: string): Reply => error_reply(request_id, api_error('service.product_not_found', `${what} is not sold for international airtime and data.`));

/** A query parameter checked as its schema's pattern says, or the 400. */
function query_value(request: ProductRequest, name: string, pattern: RegExp, rule: string, required: boolean): string | null | ApiError {
  const value = request.query.get(name);
  if (value === null || value === '') return required ? invalid(name, 'is required') : null;
  return pattern.test(value) ? value : invalid(name, rule);
}

async function country_of(catalog: ForeignCatalog, code: string): Promise<ForeignCountry | null | { unavailable: string }> {
  const countries = await catalog.countries();
  if ('unavailable' in countries) return countries;
  return countries.find((c) => c.code === code) ?? null;
}

async function list_countries(request: ProductRequest): Promise<Reply> {
  const catalog = catalog_for(request);
  if (catalog === null) return provider_unavailable(request.request_id, 60);
  const countries = await catalog.countries();
  if ('unavailable' in countries) return provider_unavailable(request.request_id, 60);
  return success_reply(request.request_id, 200, { countries: countries.map((c) => ({ code: c.code, name: c.name, currency: c.currency, prefix: c.prefix, flag: c.flag })) });
}

async function list_operators(request: ProductRequest): Promise<Reply> {
  const country_text = query_value(request, 'country', /^[A-Za-z]{2}$/, 'must be a 2-letter country code such as GH', true);
  if (typeof country_text !== 'string') return error_reply(request.request_id, country_text ?? invalid('country', 'is required'));
  const type_filter = query_value(request, 'product_type', /^[A-Za-z0-9_-]{1,16}$/, 'must be a product_type_id', false);
  if (type_filter !== null && typeof type_filter !== 'string') return error_reply(request.request_id, type_filter);
  const catalog = catalog_for(request);
  if (catalog === null) return provider_unavailable(request.request_id, 60);
  const code = country_text.toUpperCase();
  const country = await country_of(catalog, code);
  if (country !== null && 'unavailable' in country) return provider_unavailable(request.request_id, 60);
  if (country === null) return not_found(request.request_id, `Country ${code}`);
  const types = await catalog.product_types(code);
  if ('unavailable' in types) return provider_unavailable(request.request_id, 60);
  const wanted = type_filter === null ? types : types.filter((t) => t.product_type_id === type_filter);
  if (type_filter !== null && wanted.length === 0) return not_found(request.request_id, `Product type ${type_filter} of ${code}`);
  const operators: Static<typeof OperatorView>[] = [];
  // One operator list per product type (VTpass lists operators by country and product type).
  const lists = await Promise.all(wanted.map((type) => catalog.operators(code, type.product_type_id)));
  for (const [index, list] of lists.entries()) {
    if ('unavailable' in list) return provider_unavailable(request.request_id, 60);
    const type = wanted[index];
    for (const operator of list) operators.push({ operator_id: operator.operator_id, name: operator.name, image: operator.image, product_type_id: type.product_type_id, product_type: type.name });
  }
  return success_reply(request.request_id, 200, { country: code, currency: country.currency, product_types: types, operators });
}

function product_view(request: ProductRequest, currency: string, product: ForeignProduct): Static<typeof ProductView> {
  const amount_kobo = product.fixed_price ? price_kobo_of(product, null) : null;
  return {
    product_code: product.code,
    name: product.name,
    fixed_price: product.fixed_price,
    currency,
    foreign_amount: product.foreign_amount_minor === null ? null : format_minor(product.foreign_amount_minor),
    foreign_amount_min: product.min_minor === null ? null : format_minor(product.min_minor),
    foreign_amount_max: product.max_minor === null ? null : format_minor(product.max_minor),
    rate: product.rate_micro === null ? null : format_rate(product.rate_micro),
    amount: amount_kobo === null ? null : kobo_to_naira(amount_kobo),
    amount_charged: amount_kobo === null ? null : request.charged_naira('international', international_provider, amount_kobo),
  };
}

/** The product named by country, operator, type and code, with its country and operator, or the reply that ends the request. */
async function find_product(request: ProductRequest, catalog: ForeignCatalog, code: string, operator_id: string, type_id: string):
Promise<{ country: ForeignCountry; operator: ForeignOperator; products: ForeignProduct[] } | Reply> {
  const country = await country_of(catalog, code);
  if (country !== null && 'unavailable' in country) return provider_unavailable(request.request_id, 60);
  if (country === null) return not_found(request.request_id, `Country ${code}`);
  const operators = await catalog.operators(code, type_id);
  if ('unavailable' in operators) return provider_unavailable(request.request_id, 60);
  const operator = operators.find((o) => o.operator_id === operator_id);
  if (operator === undefined) return not_found(request.request_id, `Operator ${operator_id} with product type ${type_id} in ${code}`);
  const products = await catalog.products(operator_id, type_id);
  if ('unavailable' in products) return provider_unavailable(request.request_id, 60);
  return { country, operator, products };
}

async function list_products(request: ProductRequest): Promise<Reply> {
  const country_text = query_value(request, 'country', /^[A-Za-z]{2}$/, 'must be a 2-letter country code such as GH', true);
  if (typeof country_text !== 'string') return error_reply(request.request_id, country_text ?? invalid('country', 'is required'));
  const operator = query_value(request, 'operator', /^[A-Za-z0-9_-]{1,32}$/, 'must be an operator_id', true);
  if (typeof operator !== 'string') return error_reply(request.request_id, operator ?? invalid('operator', 'is required'));
  const type = query_value(request, 'product_type', /^[A-Za-z0-9_-]{1,16}$/, 'must be a product_type_id', true);
  if (typeof type !== 'string') return error_reply(request.request_id, type ?? invalid('product_type', 'is required'));
  const catalog = catalog_for(request);
  if (catalog === null) return provider_unavailable(request.request_id, 60);
  const code = country_text.toUpperCase();
  const found = await find_product(request, catalog, code, operator, type);
  if (!('country' in found)) return found;
  return success_reply(request.request_id, 200, {
    country: code, currency: found.country.currency, operator_id: operator, operator: found.operator.name, product_type_id: type,
    products: found.products.map((product) => product_view(request, found.country.currency, product)),
  });
}

async function make_quote(request: ProductRequest): Promise<Reply> {
  const body = request.body as Static<typeof QuoteBody>;
  const catalog = catalog_for(request);
  if (catalog === null) return provider_unavailable(request.request_id, 60);
  const code = body.country.toUpperCase();
  const found = await find_product(request, catalog, code, body.operator, body.product_type);
  if (!('country' in found)) return found;
  const product = found.products.find((p) => p.code === body.product_code);
  if (product === undefined) return not_found(request.request_id, `Product ${body.product_code} of operator ${body.operator}`);
  let foreign_minor: number | null = null;
  if (product.fixed_price) {
    if (body.foreign_amount !== undefined) return error_reply(request.request_id, invalid('foreign_amount', 'must be left out: the product has a fixed price'));
    foreign_minor = product.foreign_amount_minor;
  } else {
    if (body.foreign_amount === undefined) return error_reply(request.request_id, invalid('foreign_amount', `is required: the product takes an amount in ${found.country.currency}`));
    foreign_minor = parse_minor(body.foreign_amount);
    if (foreign_minor === null || foreign_minor === 0) return error_reply(request.request_id, invalid('foreign_amount', 'must be above 0 with at most 2 decimals'));
    const min = product.min_minor ?? 1;
    if (foreign_minor < min || (product.max_minor !== null && foreign_minor > product.max_minor)) {
      return error_reply(request.request_id, invalid('foreign_amount', `must be from ${format_minor(min)}${product.max_minor === null ? '' : ` to ${format_minor(product.max_minor)}`} ${found.country.currency}`));
    }
  }
  const amount_kobo = price_kobo_of(product, foreign_minor);
  if (amount_kobo === null || amount_kobo <= 0) return not_found(request.request_id, `Product ${product.code} has no NGN price from the provider, so it`);
  const commission = request.commission_kobo('international', international_provider, amount_kobo);
  const quote = request.quotes.add({
    account_id: request.account_id, environment: request.environment, country: code, currency: found.country.currency,
    operator_id: body.operator, operator: found.operator.name, product_type_id: body.product_type, product_code: product.code, product: product.name,
    fixed_price: product.fixed_price, foreign_amount_minor: foreign_minor, rate: product.rate_micro === null ? null : format_rate(product.rate_micro),
    amount_kobo, commission_kobo: commission,
  });
  if (quote === null) {
    return error_reply(request.request_id, api_error('service.unavailable', 'Too many quotes are held; retry once older ones expire (10 minutes).', { headers: { 'Retry-After': '60' } }));
  }
  return success_reply(request.request_id, 201, quote_view(quote), `Quote valid until ${iso_ms(quote.expires_ms)}.`);
}

function quote_view(quote: ForeignQuote): Static<typeof QuoteView> {
  return {
    quote_id: quote.id,
    country: quote.country, currency: quote.currency, operator_id: quote.operator_id, operator: quote.operator,
    product_type_id: quote.product_type_id, product_code: quote.product_code, product: quote.product, fixed_price: quote.fixed_price,
    foreign_amount: quote.foreign_amount_minor === null ? null : format_minor(quote.foreign_amount_minor),
    rate: quote.rate,
    amount: kobo_to_naira(quote.amount_kobo),
    amount_charged: kobo_to_naira(quote.amount_kobo - quote.commission_kobo),
    commission: kobo_to_naira(quote.commission_kobo),
    expires_at: iso_ms(quote.expires_ms),
    valid_for_seconds: Math.max(1, Math.round((quote.expires_ms - quote.created_ms) / 1000)),
  };
}

// ---- The purchase -------------------------------------------------------------------------------------

function quote_refusal(context: PlanContext, quote_id: string): ForeignQuote | ApiError {
  const lookup = context.quotes.lookup(quote_id, context.account_id, context.environment);
  if ('missing' in lookup) return api_error('service.quote_not_found', `Quote ${quote_id} is unknown to this account and environment (quotes last 10 minutes and do not survive a restart).`);
  if ('expired' in lookup) {
    return api_error('service.quote_expired', `Quote ${quote_id} expired at ${iso_ms(lookup.expired.expires_ms)}; ask for a new one.`, { extra: { expired_at: iso_ms(lookup.expired.expires_ms) } });
  }
  return lookup.found;
}

function international_plan(raw: unknown, context: PlanContext): PurchasePlan | ApiError {
  const body = raw as Static<typeof InternationalBody>;
  const quote = quote_refusal(context, body.quote_id);
  if ('code' in quote) return quote;
  return {
    order: {
      service_type: 'international', network: null, disco: null, provider: international_provider, recipient: body.phone,
      plan_code: quote.product_code, plan: quote.product, package_code: null, meter_type: null, amount_kobo: quote.amount_kobo, customer_name: null,
      quoted_commission_kobo: quote.commission_kobo,
      foreign: {
        quote_id: quote.id, country: quote.country, currency: quote.currency, operator_id: quote.operator_id, operator: quote.operator,
        product_type_id: quote.product_type_id, foreign_amount_minor: quote.foreign_amount_minor, rate: quote.rate, fixed_price: quote.fixed_price,
      },
    },
    // Read again right before the debit (after the PIN): a quote that expired meanwhile pays nothing.
    check: () => {
      const again = quote_refusal(context, body.quote_id);
      return 'code' in again ? again : null;
    },
  };
}

function international_result_view(order: OrderRecord) {
  return {
    reference: order.reference,
    status: order.status,
    phone: order.recipient,
    product_code: order.plan_code ?? '',
    product: order.plan,
    international: foreign_view(order.foreign!),
    ...purchase_tail_view(order),
  };
}


export const international_family: ProductFamily = {
  service_type: 'international',
  messages: {
    delivered: 'International top-up successful.',
    processing: 'International top-up is processing; the outcome follows by webhook and on GET /v1/transactions/{reference}.',
  },
  routes: [
    {
      method: 'get',
      path: '/v1/services/international/countries',
      scope: null,
      doc: { summary: 'Countries international airtime and data is sold for, with their currency and dialling prefix', tags: ['International'], response: Type.Object({ countries: Type.Array(CountryView) }), errors: ['transaction.provider_unavailable'] },
      handler: list_countries,
    },
    {
      method: 'get',
      path: '/v1/services/international/operators',
      scope: null,
      doc: {
        summary: 'A country\'s product types and the operators of each',
        tags: ['International'],
        query: { country: query_country, product_type: { schema: ProductTypeId, description: 'only this product type\'s operators' } },
        response: Type.Object({ country: Type.String(), currency: Type.String(), product_types: Type.Array(Type.Object({ product_type_id: Type.String(), name: Type.String() })), operators: Type.Array(OperatorView) }),
        errors: ['validation.failed', 'service.product_not_found', 'transaction.provider_unavailable'],
      },
      handler: list_operators,
    },
    {
      method: 'get',
      path: '/v1/services/international/products',
      scope: null,
      doc: {
        summary: 'The products of an operator and product type, with their currency, rate and NGN price',
        tags: ['International'],
        query: {
          country: query_country,
          operator: { schema: OperatorId, description: 'the operator_id', required: true },
          product_type: { schema: ProductTypeId, description: 'the product_type_id', required: true },
        },
        response: Type.Object({ country: Type.String(), currency: Type.String(), operator_id: Type.String(), operator: Type.String(), product_type_id: Type.String(), products: Type.Array(ProductView) }),
        errors: ['validation.failed', 'service.product_not_found', 'transaction.provider_unavailable'],
      },
      handler: list_products,
    },
    {
      method: 'post',
      path: '/v1/services/international/quote',
      scope: 'services:purchase',
      body: QuoteBody,
      idempotent: false,
      doc: {
        summary: 'The NGN charge of an international product, held for 10 minutes: the purchase names the quote',
        tags: ['International'], response: QuoteView, success_status: 201,
        errors: ['validation.failed', 'service.product_not_found', 'service.unavailable', 'transaction.provider_unavailable'],
      },
      handler: make_quote,
    },
  ],
  purchase: {
    path: '/v1/services/international',
    body: InternationalBody,
    doc: {
      summary: 'Buy the product of a quote for a phone abroad; the wallet pays exactly the quoted charge',
      tags: ['International'], response: InternationalResult, success_status: 201,
      errors: [...purchase_errors, 'service.quote_not_found', 'service.quote_expired'],
    },
    plan: international_plan,
  },
  result_view: international_result_view,
  sandbox_delivered,
  upstream: {
    vtpass_service_id: () => international_provider,
    // VTpass's purchase payload for foreign-airtime (docs/upstreams.md "International airtime and data"): the
    // number as billersCode and phone, the variation, operator, country and product type as listed, and the
    // account's e-mail (null asks the adapter for it). A flexible product's amount is in the operator's currency.
    vtpass_pay_fields: (order) => {
      const foreign = order.foreign;
      if (foreign === undefined || order.plan_code === null) return null;
      return {
        billersCode: order.recipient,
        variation_code: order.plan_code,
        phone: order.recipient,
        operator_id: foreign.operator_id,
        country_code: foreign.country,
        product_type_id: foreign.product_type_id,
        email: null,
        ...(foreign.fixed_price || foreign.foreign_amount_minor === null ? {} : { amount: Number(format_minor(foreign.foreign_amount_minor)) }),
      };
    },
    // Flutterwave's bills are Nigerian: no international airtime there.
    flutterwave_bill: () => null,
    flutterwave_customer: (order) => order.recipient,
  },
};
