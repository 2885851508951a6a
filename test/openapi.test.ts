// The OpenAPI document (docs/api.md): generated from the route table and the TypeBox
// schemas, served without a key at GET /v1/openapi.json.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { error_catalogue } from '../src/errors.js';

const server = await start_server(t);

/** The public routes of the foundation; later features add more, which the document must list too. */
const foundation_routes: [string, string[]][] = [
  ['/v1/account', ['get']],
  ['/v1/wallet', ['get']],
  ['/v1/wallet/transactions', ['get']],
  ['/v1/keys', ['get', 'post']],
  ['/v1/keys/{id}', ['delete']],
  ['/v1/openapi.json', ['get']],
];
const http_methods = ['get', 'post', 'put', 'patch', 'delete'];

const response = await server.api('GET', '/v1/openapi.json');
const doc = response.body as {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: any; responses: Record<string, { description: string }> }>>;
  components: { schemas: Record<string, any> };
};

t.test('GET /v1/openapi.json answers an OpenAPI 3.1 document without a key', async (t) => {
  t.equal(response.status, 200, 'the document is served without a key');
  t.match(response.headers.get('content-type') ?? '', /^application\/json/, 'the document is JSON');
  t.match(doc.openapi, /^3\.1\.\d+$/, 'the document is OpenAPI 3.1');
  t.type(doc.paths, 'object', 'the document has paths');
});

t.test('the licence link leads to a page of this server that states the licence', async (t) => {
  const license = (response.body as { info: { license: { name: string; url?: string; identifier?: string } } }).info.license;
  t.equal(license.identifier, undefined, 'no SPDX identifier of our own, which viewers link to a page spdx.org does not have');
  t.ok(license.url?.startsWith(`${server.base.replace('127.0.0.1', 'localhost')}/`) || license.url?.startsWith(`${server.base}/`), `the link is on this server (${license.url})`);
  const [page, fragment] = (license.url ?? '').split('#');
  const answer = await fetch(page!.replace('localhost', '127.0.0.1'));
  t.equal(answer.status, 200, 'the page answers 200');
  const html = await answer.text();
  t.match(html, new RegExp(`id="${fragment}"[^>]*>[^<]*(<a[^>]*>[^<]*</a>[^<]*)*Licence: proprietary`), 'and its anchor states the licence');
});

t.test('the document lists every public /v1 route with its methods', async (t) => {
  for (const [path, methods] of foundation_routes) {
    t.ok(doc.paths[path] !== undefined, `${path} is listed`);
    const listed = Object.keys(doc.paths[path] ?? {}).filter((m) => http_methods.includes(m)).sort();
    for (const method of methods) t.ok(listed.includes(method), `${method.toUpperCase()} ${path} is listed`);
  }
  // Whatever the document lists must be what the server routes: another method on a listed path is
  // a 405 whose Allow header names exactly the listed methods, plus HEAD wherever GET is (RFC 9110
  // 9.3.2: a server that answers GET answers HEAD; OpenAPI documents need not list it).
  for (const [path, operations] of Object.entries(doc.paths)) {
    t.match(path, /^\/v1\//, `${path} is a /v1 path`);
    const listed = Object.keys(operations).filter((m) => http_methods.includes(m)).map((m) => m.toUpperCase()).sort();
    const other = ['PUT', 'PATCH', 'POST', 'DELETE', 'GET'].find((m) => !listed.includes(m))!;
    const concrete = path.replace(/\{[^}]+\}/g, '1');
    const probe = await server.api(other, concrete);
    t.equal(probe.status, 405, `${other} ${concrete} is 405, so the path is routed`);
    const allow = (probe.headers.get('allow') ?? '').split(',').map((m) => m.trim()).filter((m) => m !== '').sort();
    const expected = (listed.includes('GET') ? [...listed, 'HEAD'] : listed).sort();
    t.same(allow, expected, `the server allows exactly the methods the document lists for ${path}`);
  }
});

t.test('POST /v1/keys documents its request body with name of at most 100 characters', async (t) => {
  const schema = doc.paths['/v1/keys']?.post?.requestBody?.content?.['application/json']?.schema;
  t.ok(schema, 'POST /v1/keys has a JSON request body schema');
  t.equal(schema?.type, 'object', 'the body is an object');
  t.equal(schema?.properties?.name?.maxLength, 100, 'name has maxLength 100');
  t.equal(schema?.properties?.name?.minLength, 1, 'name has minLength 1');
  t.ok(schema?.required?.includes('name'), 'name is required');
  t.same([...(schema?.properties?.environment?.enum ?? [])].sort(), ['live', 'test'], 'environment is live or test');
  t.notOk(JSON.stringify(schema).includes('errorMessage'), 'internal validation hints are not published');
});

t.test('the document has no operator paths', async (t) => {
  const paths = Object.keys(doc.paths);
  t.same(paths.filter((p) => p.startsWith('/admin') || p === '/metrics' || p === '/healthz' || p === '/readyz'), [], 'no /admin, /metrics or probe paths');
  t.notOk(response.text.includes('/admin/'), 'the text never mentions /admin/');
});

t.test('every error code the document mentions is in the catalogue, under its status', async (t) => {
  const catalogue = error_catalogue as Record<string, { status: number }>;
  let mentioned = 0;
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!http_methods.includes(method)) continue;
      for (const [status, answer] of Object.entries(operation.responses ?? {})) {
        // 431 is uWebSockets.js's own answer to an oversized request head, not one of our error codes.
        if (Number(status) < 400 || status === '431') continue;
        const codes_enum = (answer as any).content?.['application/json']?.schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum ?? [];
        const listed = answer.description.slice(answer.description.indexOf(':') + 1).split(',').map((c) => c.trim()).filter((c) => c !== '');
        t.ok(listed.length > 0, `${method.toUpperCase()} ${path} ${status} names its error codes`);
        t.same([...codes_enum].sort(), [...listed].sort(), `${method.toUpperCase()} ${path} ${status}: the schema's code enum is the codes named`);
        for (const code of listed) {
          mentioned++;
          t.ok(code in catalogue, `${method.toUpperCase()} ${path} ${status}: ${code} is in src/errors.ts`);
          t.equal(catalogue[code]?.status, Number(status), `${method.toUpperCase()} ${path}: ${code} is listed under its status ${catalogue[code]?.status}`);
        }
      }
    }
  }
  t.ok(mentioned > 0, `the document mentions ${mentioned} error codes`);
  const enum_codes = doc.components?.schemas?.ErrorCodes?.enum ?? [];
  t.same([...enum_codes].sort(), Object.keys(catalogue).sort(), 'the ErrorCodes schema is exactly the catalogue');
  const keys_errors = doc.paths['/v1/keys']?.post?.responses ?? {};
  t.match(keys_errors['422']?.description ?? '', /keys\.limit_reached/, 'POST /v1/keys documents keys.limit_reached');
  t.match(keys_errors['401']?.description ?? '', /auth\.invalid_key/, 'POST /v1/keys documents the authentication errors');
});
