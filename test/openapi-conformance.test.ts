// The OpenAPI document against the ecosystem's tools and the server's real answers (docs/api.md): Redocly's
// recommended lint rules pass with no problem, every operation has an operationId, a summary and tags, and
// a valid request to every documented route gets an answer whose status, body and headers the document
// describes (validated with Ajv, JSON Schema 2020-12, as OpenAPI 3.1 requires).
import t from 'tap';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { start_server } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { load_catalog, make_world, send, header } from './helpers/route-catalog.js';

const funding_secret = 'openapi-conformance-funding-secret';
const server = await start_server(t, {
  env: webhook_env({ PUBLIC_BASE_URL: 'https://api.billvend.ng', FUNDING_WEBHOOK_SECRET: funding_secret, TIME_SCALE: '0.01' }),
});
const receiver = new WebhookReceiver();
await receiver.start();
t.teardown(() => receiver.stop());
const text = (await server.api('GET', '/v1/openapi.json')).text;
const doc = JSON.parse(text) as { paths: Record<string, Record<string, any>>; webhooks: Record<string, any> };
const http_methods = ['get', 'post', 'put', 'patch', 'delete'];

t.test('Redocly lint with the recommended rules finds no problem', async (t) => {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config });
  const listed = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer ?? '?'}`);
  t.same(listed, [], 'no errors and no warnings');
});

t.test('every operation has a unique operationId, a summary and tags', async (t) => {
  const ids = new Set<string>();
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!http_methods.includes(method)) continue;
      t.match(operation.operationId, /^[a-z][A-Za-z]+$/, `${method} ${path} has an operationId`);
      t.notOk(ids.has(operation.operationId), `${operation.operationId} is unique`);
      ids.add(operation.operationId);
      t.ok(typeof operation.summary === 'string' && operation.summary.length > 0, `${method} ${path} has a summary`);
      t.ok(Array.isArray(operation.tags) && operation.tags.length > 0, `${method} ${path} has tags`);
    }
  }
  t.same(Object.keys(doc.webhooks).sort(), ['transaction.completed', 'transaction.failed', 'transaction.processing', 'transaction.delayed', 'transaction.reversed', 'wallet.credited', 'wallet.debited', 'wallet.low_balance', 'wallet.reversed', 'service.status_changed', 'batch.completed'].sort(), 'every event kind is under webhooks');
});

t.test('the limits the server enforces are in the schemas', async (t) => {
  const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema;
  t.equal(body('/v1/services/airtime').properties.amount.minimum, 50, 'airtime amount minimum 50');
  t.equal(body('/v1/services/airtime').properties.amount.maximum, 50_000, 'airtime amount maximum 50,000');
  t.equal(body('/v1/services/electricity').properties.amount.minimum, 500, 'electricity amount minimum 500');
  t.equal(body('/v1/sandbox/wallet/fund').properties.amount.maximum, 10_000_000, 'sandbox funding maximum 10,000,000');
  const page = doc.paths['/v1/transactions'].get.parameters.find((p: any) => p.name === 'page');
  t.equal(page.schema.maximum, 1_000_000, 'page maximum 1,000,000');
  const key = doc.paths['/v1/keys'].post.parameters.find((p: any) => p.name === 'X-Idempotency-Key');
  t.same([key.schema.minLength, key.schema.maxLength, key.schema.pattern], [1, 255, '^[\\x21-\\x7e]+$'], 'X-Idempotency-Key 1-255 printable ASCII');
  const id = doc.paths['/v1/keys/{id}'].delete.parameters.find((p: any) => p.name === 'id');
  t.equal(id.schema.type, 'integer', 'key ids are integers');
  t.ok(doc.paths['/v1/funding/bank-transfer']?.post, 'the bank-transfer funding route is documented');
  const key_body = body('/v1/keys');
  t.equal(key_body.properties.expires_at.format, 'date-time', 'expires_at is a date-time');
  t.match(key_body.properties.ip_allowlist.items.description, /CIDR/, 'ip_allowlist items are addresses or CIDR blocks');
  t.equal(body('/v1/webhooks').properties.url.format, 'uri', 'a webhook url is a URI');
});

t.test('a valid request to every documented route is answered as the document says', async (t) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ ...JSON.parse(text), $id: 'https://billvend.test/openapi.json' });
  const pointer = (parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
  const catalog = await load_catalog(server);
  t.same(catalog.missing_builders, [], 'every documented operation has a request builder');
  const world = await make_world(server, { receiver, funding_secret });
  let checked = 0;
  for (const route of catalog.routes.filter((r) => r.documented)) {
    // Revoking or deleting first would leave later routes without their key or endpoint.
    if (route.method === 'DELETE') continue;
    const response = await send(server, route.build(world));
    const operation = doc.paths[route.template][route.method.toLowerCase()];
    const answer = operation.responses[String(response.status)];
    t.ok(answer !== undefined, `${route.name}: status ${response.status} is documented (${response.body.slice(0, 200)})`);
    if (answer === undefined) continue;
    t.ok(header(response, 'x-request-id'), `${route.name}: X-Request-Id is sent`);
    for (const name of Object.keys(answer.headers ?? {})) {
      if (name === 'Idempotent-Replayed' || name === 'Retry-After') continue;
      t.ok(header(response, name.toLowerCase()) !== undefined, `${route.name}: the documented header ${name} is sent`);
    }
    const media = Object.keys(answer.content ?? {})[0];
    if (media !== 'application/json') continue;
    const validate = ajv.getSchema(`https://billvend.test/openapi.json#/paths/${pointer([route.template, route.method.toLowerCase(), 'responses', String(response.status), 'content', media, 'schema'])}`);
    t.ok(validate, `${route.name}: the ${response.status} schema compiles`);
    if (validate === undefined) continue;
    const valid = validate(JSON.parse(response.body));
    t.ok(valid, `${route.name}: the ${response.status} body matches its schema ${JSON.stringify(validate.errors ?? [])}`);
    checked++;
  }
  t.ok(checked >= 15, `${checked} routes' answers were validated`);
});
