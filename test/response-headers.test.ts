// The headers of an answer depend on who reads it (docs/api.md "Response headers", docs/decisions.md
// "Response headers"): the JSON API's answers carry what an API client needs (Content-Type,
// Cache-Control: no-store, X-Content-Type-Options, X-Request-Id, the rate-limit trio, Retry-After,
// Idempotent-Replayed, CORS) and none of a browser's (Content-Security-Policy, X-Frame-Options, HSTS,
// Referrer-Policy, Cross-Origin-Resource-Policy); the dashboard's JSON answers and the pages keep the
// browser's. Read with node:http's rawHeaders, which shows a header sent twice.
import t, { type Test } from 'tap';
import { request } from 'node:http';
import { start_server } from './helpers/server.js';
import { airtime_body, fast_reseller, idem, sandbox } from './helpers/purchases.js';

const allowed_origin = 'https://app.example.ng';
const server = await start_server(t, { env: { CORS_ORIGINS: allowed_origin } });
const reseller = await fast_reseller(server, 10_000);

interface Raw {
  status: number;
  /** Lower-case header name → every value sent under it. */
  headers: Map<string, string[]>;
  body: string;
}

function raw(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, method, path, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const map = new Map<string, string[]>();
        for (let i = 0; i < response.rawHeaders.length; i += 2) {
          const name = response.rawHeaders[i]!.toLowerCase();
          map.set(name, [...(map.get(name) ?? []), response.rawHeaders[i + 1]!]);
        }
        resolve({ status: response.statusCode ?? 0, headers: map, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** Headers every HTTP answer of uWS carries whoever reads it: not ours to choose. */
const transport = ['date', 'uwebsockets', 'content-length'];
const api_headers = ['content-type', 'x-content-type-options', 'cache-control', 'x-request-id'];
const rate_limit = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
const browser_only = ['content-security-policy', 'x-frame-options', 'strict-transport-security', 'referrer-policy', 'cross-origin-resource-policy'];

function names(response: Raw): string[] {
  return [...response.headers.keys()].filter((name) => !transport.includes(name)).sort();
}

function each_once(t: Test, what: string, response: Raw): void {
  for (const [name, values] of response.headers) t.equal(values.length, 1, `${what} sends ${name} once`);
}

t.test('the JSON API\'s answers carry exactly the API\'s headers, and none of a browser\'s', async (t) => {
  const auth = { authorization: `Bearer ${reseller.key}` };
  const rows: [string, Promise<Raw>, string[]][] = [
    ['a 200 (GET /v1/wallet)', raw(server.port, 'GET', '/v1/wallet', auth), [...api_headers, ...rate_limit]],
    ['a 401 (no key)', raw(server.port, 'GET', '/v1/wallet'), api_headers],
    ['a 404 (no route)', raw(server.port, 'GET', '/v1/nowhere'), api_headers],
    ['a 405', raw(server.port, 'PATCH', '/v1/keys', auth), [...api_headers, 'allow']],
    ['a 400 (bad query)', raw(server.port, 'GET', '/v1/wallet/transactions?per_page=0', auth), [...api_headers, ...rate_limit]],
    ['a 200 without a key (GET /v1/services)', raw(server.port, 'GET', '/v1/services'), api_headers],
    ['an operator answer (GET /admin/accounts)', raw(server.admin_port, 'GET', '/admin/accounts', { authorization: `Bearer ${server.admin_token}` }), api_headers],
  ];
  for (const [what, sent, expected] of rows) {
    const response = await sent;
    t.ok(response.status >= 200, `${what} answers (${response.status} ${response.body.slice(0, 80)})`);
    t.same(names(response), [...expected].sort(), `${what} carries exactly ${expected.join(', ')}`);
    t.same(response.headers.get('content-type'), ['application/json; charset=utf-8'], `${what} is JSON`);
    t.same(response.headers.get('cache-control'), ['no-store'], `${what} is not stored by any cache`);
    t.same(response.headers.get('x-content-type-options'), ['nosniff'], `${what} is not sniffed`);
    for (const name of browser_only) t.equal(response.headers.get(name), undefined, `${what} carries no ${name}`);
    each_once(t, what, response);
  }
});

t.test('a purchase, its replay and a cross-origin read keep the spec\'s headers', async (t) => {
  const key = idem('headers');
  const body = JSON.stringify(airtime_body(sandbox.delivered, 100, { pin: reseller.pin }));
  const headers = { authorization: `Bearer ${reseller.key}`, 'x-idempotency-key': key };
  const first = await raw(server.port, 'POST', '/v1/services/airtime', headers, body);
  t.equal(first.status, 201, `the purchase is 201 (${first.body.slice(0, 120)})`);
  t.same(names(first), [...api_headers, ...rate_limit].sort(), 'the purchase carries exactly the API headers and the rate-limit trio');
  const again = await raw(server.port, 'POST', '/v1/services/airtime', headers, body);
  t.equal(again.status, 201, 'the replay is 201');
  t.same(again.headers.get('idempotent-replayed'), ['true'], 'the replay says Idempotent-Replayed: true');
  t.same(names(again), [...api_headers, ...rate_limit, 'idempotent-replayed'].sort(), 'and carries nothing else beside the API headers');

  const cross = await raw(server.port, 'GET', '/v1/wallet', { authorization: `Bearer ${reseller.key}`, origin: allowed_origin });
  t.same(cross.headers.get('access-control-allow-origin'), [allowed_origin], 'a cross-origin read names its origin');
  t.ok(cross.headers.has('access-control-expose-headers'), 'and exposes the API headers to the page that asked');
  for (const name of browser_only) t.equal(cross.headers.get(name), undefined, `a cross-origin read carries no ${name}`);
});

t.test('an answer that sets its own Cache-Control sends one Cache-Control, its own', async (t) => {
  const response = await raw(server.port, 'GET', '/v1/statements/public-key');
  t.equal(response.status, 200, `GET /v1/statements/public-key answers (${response.body.slice(0, 80)})`);
  t.same(response.headers.get('cache-control'), ['public, max-age=3600'], 'one Cache-Control: the route\'s own (it was sent beside no-store)');
});

t.test('the dashboard\'s JSON answers and its pages keep the browser\'s headers', async (t) => {
  const signed_in = await raw(server.port, 'POST', '/dashboard/api/session', { origin: `http://127.0.0.1:${server.port}` }, JSON.stringify({ email: reseller.email, password: reseller.password }));
  t.equal(signed_in.status, 201, `the account signs in to the dashboard (${signed_in.body.slice(0, 120)})`);
  const cookie = (signed_in.headers.get('set-cookie') ?? [''])[0]!.split(';')[0]!;
  const rows: [string, Raw][] = [
    ['the sign-in (201)', signed_in],
    ['a dashboard read (200)', await raw(server.port, 'GET', '/dashboard/api/overview', { cookie })],
    ['a dashboard read without a session (401)', await raw(server.port, 'GET', '/dashboard/api/overview')],
    ['an unknown dashboard path (404)', await raw(server.port, 'GET', '/dashboard/api/nowhere')],
  ];
  for (const [what, response] of rows) {
    t.same(response.headers.get('content-type'), ['application/json; charset=utf-8'], `${what} is JSON (${response.status} ${response.body.slice(0, 80)})`);
    t.same(response.headers.get('x-frame-options'), ['DENY'], `${what} may not be framed`);
    t.match(response.headers.get('content-security-policy')?.[0] ?? '', /frame-ancestors 'none'/, `${what} carries a Content-Security-Policy`);
    t.match(response.headers.get('strict-transport-security')?.[0] ?? '', /^max-age=\d{7,}/, `${what} carries HSTS`);
    t.same(response.headers.get('cache-control'), ['no-store'], `${what} is not stored`);
    t.same(response.headers.get('x-content-type-options'), ['nosniff'], `${what} is not sniffed`);
    each_once(t, what, response);
  }
  const page = await raw(server.port, 'GET', '/dashboard/');
  t.equal(page.status, 200, 'the dashboard page is served');
  t.match(page.headers.get('content-security-policy')?.[0] ?? '', /script-src 'self'/, 'the page carries its own policy');
  t.same(page.headers.get('x-frame-options'), ['DENY'], 'and may not be framed');
});
