// The OpenAPI 3.1 document, generated at start-up from the same route definitions and TypeBox
// schemas that validate requests, so the document cannot drift from what the server accepts.
import type { TSchema } from 'typebox';
import type { RouteDef } from '../front/route.js';
import { ErrorBody, success_envelope } from './common.js';
import { error_catalogue } from '../errors.js';

const status_text: Record<number, string> = {
  200: 'OK', 201: 'Created', 400: 'Bad request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not found',
  405: 'Method not allowed', 409: 'Conflict', 413: 'Payload too large', 415: 'Unsupported media type',
  422: 'Unprocessable', 429: 'Too many requests', 500: 'Server error', 503: 'Unavailable',
};

/** JSON Schema without TypeBox's internal symbols and our errorMessage hints. */
function plain(schema: TSchema): unknown {
  return JSON.parse(JSON.stringify(schema, (key, value) => (key === 'errorMessage' ? undefined : value)));
}

export function build_openapi(routes: RouteDef[], server_url: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.doc.hidden || route.auth === 'operator' || route.auth === 'session') continue;
    const path = route.path.replace(/:([a-z_]+)/g, '{$1}');
    const parameters: unknown[] = [];
    for (const match of route.path.matchAll(/:([a-z_]+)/g)) {
      parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
    }
    for (const [name, q] of Object.entries(route.doc.query ?? {})) {
      parameters.push({ name, in: 'query', required: q.required ?? false, description: q.description, schema: plain(q.schema) });
    }
    if (route.method === 'post' && route.idempotent !== false && route.auth === 'api_key') {
      parameters.push({
        name: 'X-Idempotency-Key',
        in: 'header',
        required: false,
        description: 'Unique string per operation (1-255 printable ASCII); a retry with the same key returns the original response. Kept 24 hours.',
        schema: { type: 'string', maxLength: 255 },
      });
    }
    const success_status = route.doc.success_status ?? (route.method === 'post' ? 201 : 200);
    const responses: Record<string, unknown> = {};
    if (route.doc.content_type !== undefined) {
      responses[String(success_status)] = { description: status_text[success_status] ?? 'OK', content: { [route.doc.content_type]: {} } };
    } else {
      responses[String(success_status)] = {
        description: status_text[success_status] ?? 'OK',
        content: { 'application/json': { schema: plain(success_envelope(route.doc.response ?? ({} as TSchema), route.method !== 'get')) } },
      };
    }
    const codes = new Set<string>(route.doc.errors ?? []);
    if (route.auth === 'api_key') {
      for (const code of ['auth.invalid_key', 'auth.key_not_found', 'auth.key_expired', 'auth.ip_not_allowed', 'auth.insufficient_scope', 'rate_limit.exceeded']) codes.add(code);
    }
    if (route.body !== undefined) for (const code of ['validation.failed', 'request.malformed_json', 'request.too_large', 'request.unsupported_media_type']) codes.add(code);
    codes.add('internal.error');
    const by_status = new Map<number, string[]>();
    for (const code of codes) {
      const entry = error_catalogue[code as keyof typeof error_catalogue];
      if (entry === undefined) throw new Error(`assertion failed: route ${route.path} documents unknown error code ${code}`);
      by_status.set(entry.status, [...(by_status.get(entry.status) ?? []), code]);
    }
    for (const [status, list] of [...by_status].sort((a, b) => a[0] - b[0])) {
      responses[String(status)] = {
        description: `${status_text[status] ?? 'Error'}: ${list.join(', ')}`,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    const operation: Record<string, unknown> = {
      summary: route.doc.summary,
      tags: route.doc.tags,
      parameters,
      responses,
    };
    if (route.doc.description !== undefined) operation.description = route.doc.description;
    if (route.auth === 'api_key') {
      const scope = route.scope ?? null;
      operation.security = [{ bearer: [] }];
      operation['x-required-scope'] = scope ?? 'any';
    } else {
      operation.security = [];
    }
    if (route.body !== undefined) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: plain(route.body) } } };
    }
    (paths[path] ??= {})[route.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'billvend API',
      version: '1.0.0',
      description: 'Wallet-funded vending of airtime, data bundles, electricity and cable TV in Nigeria. Amounts are NGN numbers with at most 2 decimals. Every response carries request_id; errors carry a stable error.code.',
    },
    servers: [{ url: server_url }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API key: bv_live_… (real money) or bv_test_… (sandbox)' },
      },
      schemas: {
        Error: plain(ErrorBody),
        ErrorCodes: { type: 'string', enum: Object.keys(error_catalogue) },
      },
    },
  };
}
