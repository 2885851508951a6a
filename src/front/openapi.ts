// The OpenAPI 3.1 document, generated at start-up from the same route definitions and TypeBox
// schemas that validate requests, so the document cannot drift from what the server accepts.
// test/openapi.test.ts lints it with Redocly's recommended rules and validates real answers of every
// route against it.
import Type, { type TSchema } from 'typebox';
import { service_type_names, service_types_sentence } from '../services/order.js';
import type { RouteDef } from './route.js';
import { ErrorBody, Naira, Timestamp, success_envelope } from '../schemas/common.js';
import { EventKindName } from '../schemas/webhook-schemas.js';
import { BatchView } from '../schemas/bulk-schemas.js';
import { ForeignOrderView } from '../schemas/service-schemas.js';
import { error_catalogue } from '../errors.js';
import { fail } from '../lib/assert.js';
import { publish_portable_patterns } from './portable-pattern.js';
import { product_families } from '../services/products/registry.js';

const status_text: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 400: 'Bad request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not found',
  405: 'Method not allowed', 409: 'Conflict', 413: 'Payload too large', 415: 'Unsupported media type',
  422: 'Unprocessable', 429: 'Too many requests', 431: 'Request header fields too large', 500: 'Server error', 503: 'Unavailable',
};

/** JSON Schema without TypeBox's internal symbols and our errorMessage hints. */
function plain(schema: TSchema): unknown {
  return JSON.parse(JSON.stringify(schema, (key, value) => (key === 'errorMessage' ? undefined : value)));
}

/**
 * Formats the routes check by hand (a strict RFC 3339 parser, the URL and address parsers) rather than through
 * the schema, stated in the document so that clients and testers know them (docs/api.md).
 */
const field_formats: Record<string, Record<string, unknown>> = {
  expires_at: { format: 'date-time' },
  url: { format: 'uri', pattern: '^https://' },
};

function with_formats(schema: unknown): unknown {
  const object = schema as { properties?: Record<string, Record<string, unknown>> };
  for (const [name, property] of Object.entries(object?.properties ?? {})) {
    if (field_formats[name] !== undefined && property.type === 'string') Object.assign(property, field_formats[name]);
    if (name === 'ip_allowlist' && property.type === 'array') {
      (property.items as Record<string, unknown>).description = 'an IPv4 or IPv6 address, or a CIDR block';
    }
  }
  return schema;
}

/** Path parameters that are integer ids; the rest (references) are strings. */
const integer_params = new Set(['id', 'delivery_id']);

const header = (description: string, schema: unknown = { type: 'string' }) => ({ description, schema });
const request_id_header = header('The request\'s id, also `request_id` in the body.', { type: 'string', pattern: '^req_' });
const rate_limit_headers = {
  'X-RateLimit-Limit': header('Requests allowed per minute for this key.', { type: 'integer' }),
  'X-RateLimit-Remaining': header('Requests left in the current one-minute window.', { type: 'integer' }),
  'X-RateLimit-Reset': header('Unix seconds when the window ends.', { type: 'integer' }),
};
const retry_after_header = header('Seconds to wait before retrying with the same X-Idempotency-Key.', { type: 'integer' });
const replayed_header = header('`true` when this is the remembered answer of an earlier request with the same X-Idempotency-Key.', { type: 'string', enum: ['true'] });

/** `get /v1/wallet/transactions` → `getWalletTransactions`; path parameters become `ByX`. */
export function operation_id(method: string, path: string): string {
  const words = path.replace(/^\/v1\//, '').split('/').flatMap((part) => {
    const param = /^:([a-z_]+)$/.exec(part);
    const text = param === null ? part : `by_${param[1]}`;
    return text.split(/[-_.]/);
  });
  return method + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/** Follow-up calls a tool can chain from an answer (OpenAPI links): ids live at /data/… in the envelope. */
const links: Record<string, Record<string, { operationId: string; parameters: Record<string, string>; description: string }>> = {
  'post /v1/keys': {
    RevokeKey: { operationId: 'deleteKeysById', parameters: { id: '$response.body#/data/id' }, description: 'Revoke the key just created.' },
  },
  'post /v1/webhooks': {
    DeleteEndpoint: { operationId: 'deleteWebhooksById', parameters: { id: '$response.body#/data/id' }, description: 'Delete the endpoint just registered.' },
    ListDeliveries: { operationId: 'getWebhooksByIdDeliveries', parameters: { id: '$response.body#/data/id' }, description: 'Its deliveries.' },
  },
};
const order_link = { GetOrder: { operationId: 'getTransactionsByReference', parameters: { reference: '$response.body#/data/reference' }, description: 'The order\'s full record.' } };
for (const family of product_families) links[`post ${family.purchase.path}`] = order_link;

/**
 * A request example per operation with a body: the bodies of docs/api.md "Every endpoint by example", with the
 * sandbox's always-delivered numbers (docs/api.md "Sandbox"); test/api-doc-examples.test.ts keeps the two equal.
 */
const examples: Record<string, unknown> = {
  'post /v1/services/airtime': { network: 'mtn', phone: '08011111111', amount: 100, pin: '12345' },
  'post /v1/services/data/purchase': { network: 'mtn', plan_code: 'mtn-1gb-1d', phone: '08011111111', amount: 350, pin: '12345', client_reference: 'inv-20261127-0001' },
  'post /v1/services/electricity/verify': { disco: 'ikeja-electric', meter_number: '1111111111111', meter_type: 'prepaid' },
  'post /v1/services/electricity': { disco: 'ikeja-electric', meter_number: '1111111111111', meter_type: 'prepaid', amount: 5000, pin: '12345' },
  'post /v1/services/tv/verify': { provider: 'dstv', smartcard_number: '1313131313' },
  'post /v1/services/tv': { provider: 'gotv', smartcard_number: '1212121212', package_code: 'gotv-max', amount: 8500, pin: '12345' },
  'post /v1/services/education/verify': { product: 'jamb-utme', profile_id: '1234567890' },
  'post /v1/services/education': { product: 'waec-result-checker', quantity: 2, phone: '08011111111', amount: 7800, pin: '12345' },
  'post /v1/services/internet/verify': { provider: 'smile', account: '08011111111' },
  'post /v1/services/internet': { provider: 'smile', plan_code: 'smile-1-5gb-7d', account: '08011111111', phone: '08011111111', amount: 1000, pin: '12345' },
  'post /v1/services/showmax': { phone: '08011111111', plan_code: 'showmax-mobile-3m', amount: 3800, pin: '12345' },
  'post /v1/services/international/quote': { country: 'GH', operator: '5', product_type: '1', product_code: 'gh-mtn-topup', foreign_amount: '10.50' },
  'post /v1/services/international': { quote_id: 'qt_8k2m4q6s8u0w2y4a6c8e', phone: '233241234567', pin: '12345' },
  'post /v1/services/bulk': {
    pin: '12345',
    items: [
      { service_type: 'airtime', network: 'mtn', phone: '08011111111', amount: 100, client_reference: 'inv-0001' },
      { service_type: 'data', network: 'mtn', plan_code: 'mtn-1gb-1d', phone: '08011111111', amount: 350 },
    ],
  },
  'patch /v1/account': { low_balance_threshold: 5000 },
  'post /v1/sandbox/wallet/fund': { amount: 50000, reference: 'topup-0001' },
  'post /v1/funding/accounts': { bvn: '22212345678' },
  'post /v1/sandbox/funding/transfer': { amount: 25000 },
  'post /v1/keys': { name: 'Shop till 2', environment: 'test', scopes: ['services:purchase', 'transactions:read'], ip_allowlist: [] },
  'post /v1/webhooks': { url: 'https://example.ng/billvend/hooks', events: ['transaction.completed', 'transaction.failed'], description: 'Order updates' },
  'patch /v1/webhooks/:id': { events: ['transaction.completed', 'transaction.failed', 'wallet.low_balance'] },
  'post /v1/funding/bank-transfer': { reference: 'NIP-000123', account_id: 1, amount: 25000, sender_name: 'Ada Stores' },
  'post /v1/agents': { name: 'Ikeja Till 4', email: 'till4@shop.example.ng', phone: '08031234567', password: 'correct horse battery', kyc_level: 1 },
  'patch /v1/agents/:id': { status: 'suspended', daily_limit: 20000 },
  'put /v1/agents/:id/pin': { pin: '24680' },
  'put /v1/agents/:id/pricing': { rules: [{ service_type: 'airtime', rate_bp: 200 }, { service_type: 'airtime', network: 'mtn', rate_bp: 400 }] },
  'post /v1/agents/:id/transfers': { direction: 'to_agent', amount: 2500, environment: 'test', pin: '12345', reference: 'float-2026-11-28-till4' },
};

function error_response(status: number, codes: string[]): unknown {
  const headers: Record<string, unknown> = { 'X-Request-Id': request_id_header };
  if (status === 429 || status === 503) headers['Retry-After'] = retry_after_header;
  return {
    description: `${status_text[status] ?? 'Error'}: ${codes.join(', ')}`,
    headers,
    content: {
      'application/json': {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/Error' },
            { type: 'object', properties: { error: { type: 'object', properties: { code: { type: 'string', enum: codes } } } } },
          ],
        },
      },
    },
  };
}

/** The error envelope, its code one of the catalogue's (every code, permanent: docs/api.md "Errors"). */
function error_schema(): unknown {
  const schema = plain(ErrorBody) as { properties: { error: { properties: Record<string, unknown> } } };
  schema.properties.error.properties.code = { $ref: '#/components/schemas/ErrorCodes' };
  return schema;
}

// ---- Event payloads (docs/api.md "Webhooks") ----------------------------------------------------

const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);
const ServiceFields = {
  reference: Type.String(),
  service_type: Type.Enum([...service_type_names]),
  network: Nullable(Type.String()),
  disco: Type.Optional(Type.String()),
  provider: Type.Optional(Type.String()),
  recipient: Type.String(),
  amount: Naira,
  amount_charged: Type.Number({ minimum: 0, description: 'NGN debited from the wallet: amount − commission (docs/api.md "Pricing")' }),
  commission: Type.Number({ minimum: 0, description: 'NGN: the tier\'s rate applied to amount, rounded down to the kobo' }),
  status: Type.String(),
  international: Type.Optional(ForeignOrderView),
};
const event_payloads: Record<string, TSchema> = {
  'transaction.completed': Type.Object({
    ...ServiceFields,
    token: Type.Optional(Nullable(Type.String())),
    units: Type.Optional(Nullable(Type.String())),
    meter_type: Type.Optional(Nullable(Type.String())),
    plan: Type.Optional(Type.String()),
    delivered_at: Timestamp,
  }),
  'transaction.processing': Type.Object({ ...ServiceFields, expected_final_at: Type.Union([Timestamp, Type.Null()]), at: Timestamp }),
  'transaction.delayed': Type.Object({ ...ServiceFields, expected_final_at: Type.Union([Timestamp, Type.Null()], { description: 'the operator\'s decision is due by then: 24 hours after the order' }), at: Timestamp }),
  'transaction.failed': Type.Object({ ...ServiceFields, failure_reason: Nullable(Type.String()), at: Timestamp }),
  'transaction.reversed': Type.Object({ ...ServiceFields, failure_reason: Nullable(Type.String()), delivered_at: Nullable(Timestamp), at: Timestamp }),
};
const WalletEventData = Type.Object({
  wallet_transaction_id: Type.Integer(),
  type: Type.Enum(['credit', 'debit', 'reversal', 'transfer_in', 'transfer_out', 'commission', 'commission_reversal']),
  amount: Naira,
  balance_after: Naira,
  reference: Type.String(),
  created_at: Timestamp,
  counterparty_id: Type.Optional(Type.Integer({ description: 'a transfer between a parent and its agent: the other account; a commission or its reversal: the agent whose order it was' })),
});
for (const kind of ['wallet.credited', 'wallet.debited', 'wallet.reversed']) event_payloads[kind] = WalletEventData;
event_payloads['wallet.low_balance'] = Type.Object({
  balance: Naira,
  threshold: Naira,
  wallet_transaction_id: Type.Integer({ description: 'the debit that took the balance below the threshold' }),
  reference: Type.String(),
  created_at: Timestamp,
});

event_payloads['service.status_changed'] = Type.Object({
  product: Type.String(),
  service_type: Type.Enum([...service_type_names]),
  status: Type.Enum(['available', 'degraded', 'unavailable']),
  retry_after_s: Type.Union([Type.Integer(), Type.Null()]),
  at: Timestamp,
});

event_payloads['batch.completed'] = BatchView;

function webhooks(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kind of (plain(EventKindName) as { enum: string[] }).enum) {
    out[kind] = {
      post: {
        operationId: `event${kind.split('.').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}`,
        summary: `The ${kind} event`,
        description: 'POSTed to every enabled endpoint subscribed to this kind. Verify X-Service-Signature (sha256= + hex HMAC-SHA256 of the raw body keyed with the endpoint secret) or webhook-signature (Standard Webhooks); deduplicate on webhook-id. Answer 2xx within 10 s; other answers are retried 30 s, 5 min, 30 min, 2 h and 8 h later; 410 disables the endpoint.',
        tags: ['Webhooks'],
        security: [],
        parameters: [
          { name: 'X-Service-Signature', in: 'header', required: true, schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' } },
          { name: 'X-Service-Event', in: 'header', required: true, schema: { type: 'string', enum: [kind] } },
          { name: 'webhook-id', in: 'header', required: true, schema: { type: 'string', pattern: '^evt_' } },
          { name: 'webhook-timestamp', in: 'header', required: true, schema: { type: 'integer' } },
          { name: 'webhook-signature', in: 'header', required: true, schema: { type: 'string', pattern: '^v1,' } },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: plain(Type.Object({ event: Type.Literal(kind), id: Type.String({ pattern: '^evt_' }), created_at: Timestamp, data: event_payloads[kind] })),
            },
          },
        },
        responses: { 200: { description: 'Any 2xx delivers the event' }, 410: { description: 'Gone: the endpoint is disabled' } },
      },
    };
  }
  return out;
}

/** Billvend-Account, on every API-key route (docs/api.md "Acting for an agent"). */
const acting_parameter = {
  name: 'Billvend-Account',
  in: 'header',
  required: false,
  description: 'Act for an agent: the id of an account below the key\'s account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found.',
  schema: { type: 'string', pattern: '^[1-9][0-9]{0,15}$' },
};

export function build_openapi(routes: RouteDef[], server_url: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.doc.hidden || route.auth === 'operator' || route.auth === 'session') continue;
    const path = route.path.replace(/:([a-z_]+)/g, '{$1}');
    const key = `${route.method} ${route.path}`;
    const parameters: unknown[] = [];
    for (const match of route.path.matchAll(/:([a-z_]+)/g)) {
      const schema = integer_params.has(match[1]) ? { type: 'integer', minimum: 1 } : { type: 'string', minLength: 1 };
      parameters.push({ name: match[1], in: 'path', required: true, schema });
    }
    for (const [name, q] of Object.entries(route.doc.query ?? {})) {
      parameters.push({ name, in: 'query', required: q.required ?? false, description: q.description, schema: plain(q.schema) });
    }
    const idempotent = route.method === 'post' && route.idempotent !== false && route.auth === 'api_key';
    if (idempotent) {
      parameters.push({
        name: 'X-Idempotency-Key',
        in: 'header',
        required: false,
        description: 'Unique string per operation; a retry with the same key returns the original response with `Idempotent-Replayed: true`. Kept 24 hours.',
        schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
      });
    }
    for (const [name, description] of Object.entries(route.doc.headers ?? {})) {
      parameters.push({ name, in: 'header', required: true, description, schema: { type: 'string' } });
    }
    if (route.auth === 'api_key') parameters.push(acting_parameter);
    const success_status = route.doc.success_status ?? (route.method === 'post' ? 201 : 200);
    const success_headers: Record<string, unknown> = { 'X-Request-Id': request_id_header };
    if (route.auth === 'api_key') Object.assign(success_headers, rate_limit_headers);
    if (idempotent) success_headers['Idempotent-Replayed'] = replayed_header;
    const responses: Record<string, unknown> = {};
    for (const [name, description] of Object.entries(route.doc.response_headers ?? {})) success_headers[name] = { description, schema: { type: 'string' } };
    if (route.doc.content_type !== undefined) {
      const raw: Record<string, unknown> = { description: status_text[success_status] ?? 'OK', content: { [route.doc.content_type]: { schema: { type: 'object' } } } };
      for (const media of route.doc.alternatives ?? []) (raw.content as Record<string, unknown>)[media] = { schema: { type: 'string', format: 'binary' } };
      if (route.doc.response_headers !== undefined) raw.headers = success_headers;
      responses[String(success_status)] = raw;
    } else {
      const with_message = route.doc.message ?? route.method !== 'get';
      responses[String(success_status)] = {
        description: status_text[success_status] ?? 'OK',
        headers: success_headers,
        content: { 'application/json': { schema: plain(success_envelope(route.doc.response ?? Type.Null(), with_message)) } },
      };
      const content = (responses[String(success_status)] as { content: Record<string, unknown> }).content;
      for (const media of route.doc.alternatives ?? []) content[media] = { schema: { type: 'string', format: 'binary' } };
      if (links[key] !== undefined) (responses[String(success_status)] as Record<string, unknown>).links = links[key];
    }
    for (const status of route.doc.also_success ?? []) {
      responses[String(status)] = {
        description: status_text[status] ?? 'OK',
        headers: success_headers,
        content: { 'application/json': { schema: plain(success_envelope(route.doc.response ?? Type.Null(), route.method !== 'get')) } },
      };
    }
    const codes = new Set<string>(route.doc.errors ?? []);
    if (route.auth === 'api_key') {
      for (const code of ['auth.invalid_key', 'auth.key_not_found', 'auth.key_expired', 'auth.ip_not_allowed', 'auth.insufficient_scope', 'rate_limit.exceeded']) codes.add(code);
      // Billvend-Account: a malformed value, an id outside the key's tree, a suspended agent, a closed agent changed.
      for (const code of ['validation.failed', 'account.not_found', 'account.suspended']) codes.add(code);
      if (route.method !== 'get') codes.add('agents.closed');
    }
    if (route.body !== undefined) for (const code of ['validation.failed', 'request.malformed_json', 'request.too_large', 'request.unsupported_media_type']) codes.add(code);
    if (idempotent) codes.add('idempotency.key_reused');
    if (route.method !== 'get') codes.add('service.unavailable');
    codes.add('internal.error');
    const by_status = new Map<number, string[]>();
    for (const code of codes) {
      const entry = error_catalogue[code as keyof typeof error_catalogue];
      if (entry === undefined) fail(`route ${route.path} documents unknown error code ${code}`);
      by_status.set(entry.status, [...(by_status.get(entry.status) ?? []), code]);
    }
    for (const [status, list] of [...by_status].sort((a, b) => a[0] - b[0])) responses[String(status)] = error_response(status, list);
    responses['431'] = { description: 'The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope.' };
    const operation: Record<string, unknown> = {
      operationId: operation_id(route.method, route.path),
      summary: route.doc.summary,
      tags: route.doc.tags,
      parameters,
      responses,
    };
    if (route.doc.description !== undefined) operation.description = route.doc.description;
    if (route.auth === 'api_key') {
      operation.security = [{ bearer: [] }];
      operation['x-required-scope'] = route.scope ?? 'any';
    } else {
      operation.security = [];
    }
    // doc.request, when given, describes the body more closely than the schema that validates it
    // (bulk orders validate each item apart, docs/api.md "Bulk orders").
    const request_schema = route.doc.request ?? route.body;
    if (request_schema !== undefined) {
      const media: Record<string, unknown> = { schema: with_formats(plain(request_schema)) };
      if (examples[key] !== undefined) media.example = examples[key];
      operation.requestBody = { required: true, content: { 'application/json': media } };
    }
    (paths[path] ??= {})[route.method] = operation;
  }
  const tags = [...new Set(Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((op) => (op as { tags: string[] }).tags)))];
  // A copy, so that rewriting its patterns for other engines (front/portable-pattern.ts) leaves the schemas the
  // server validates with as they are.
  const document = JSON.parse(JSON.stringify({
    openapi: '3.1.0',
    info: {
      title: 'billvend API',
      version: '1.0.0',
      description: `Wallet-funded vending of ${service_types_sentence} in Nigeria. Amounts are NGN numbers with at most 2 decimals. Every response carries request_id; errors carry a stable error.code. Limits: 5 active API keys per account, 10 webhook endpoints per account and environment, request bodies up to 16 KiB (bulk orders 256 KiB), request heads up to 16 KiB.`,
      // An SPDX identifier of our own (LicenseRef-…) made viewers link to spdx.org, where no such page exists: the
      // licence is stated on this server's own documentation page instead.
      license: { name: 'Proprietary', url: `${server_url}/docs/#licence` },
    },
    servers: [{ url: server_url }],
    security: [{ bearer: [] }],
    tags: [...tags, 'Webhooks'].filter((t, i, all) => all.indexOf(t) === i).map((name) => ({ name, description: `${name} operations` })),
    paths,
    webhooks: webhooks(),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API key: bv_live_… (real money) or bv_test_… (sandbox)' },
      },
      schemas: {
        Error: error_schema(),
        ErrorCodes: { type: 'string', enum: Object.keys(error_catalogue) },
      },
    },
  })) as Record<string, unknown>;
  publish_portable_patterns(document);
  return document;
}
