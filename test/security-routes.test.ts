// Authorisation on every route (issue "Reliability and security campaign", item 4; docs/spec.md section 5;
// docs/decisions.md "Scopes, allowlists, keys"): a key with one scope gets 403 auth.insufficient_scope on
// exactly the routes whose x-required-scope (GET /v1/openapi.json) it lacks; an IP allowlist that
// excludes the caller closes every key-authenticated route; a revoked key is refused from the very next
// request on, also concurrently and after a restart; every dashboard route needs its session (and its
// CSRF token for changes); wrong operator tokens of every length are 401 operator.unauthorized; and the
// operator API is bound to loopback unless the operator says otherwise.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { connect } from 'node:net';
import { start_server } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { exchange, judge, load_catalog, make_world, send, to_wire, type RequestSpec, type RouteEntry, type WireResponse, type World } from './helpers/route-catalog.js';

const receiver = new WebhookReceiver();
await receiver.start();
t.teardown(() => receiver.stop());
const server = await start_server(t, { env: webhook_env() });
const catalog = await load_catalog(server);
const key_routes = catalog.routes.filter((r) => r.auth === 'api_key');
const session_routes = catalog.routes.filter((r) => r.auth === 'session');
const operator_routes = catalog.routes.filter((r) => r.auth === 'operator');
const scopes = ['*', 'wallet:read', 'services:purchase', 'transactions:read', 'keys:manage', 'account:manage', 'agents:manage'];

function code(response: WireResponse): string | undefined {
  try {
    return JSON.parse(response.body)?.error?.code;
  } catch {
    return undefined;
  }
}

/** The request of a route made with another key (and, for key creation, asking only for what that key may grant). */
function with_key(route: RouteEntry, world: World, key: string, scope: string): RequestSpec {
  const spec = route.build({ ...world, key });
  if (route.name === 'POST /v1/keys') spec.body = { ...(spec.body as object), scopes: [scope] };
  return spec;
}

t.test('the catalogue names the scope of every key-authenticated route from the OpenAPI document', async (t) => {
  t.same(catalog.missing_builders, [], 'every documented operation has a request builder');
  t.ok(key_routes.length >= 23, `the key-authenticated routes are all there (${key_routes.length})`);
  for (const route of key_routes) t.ok(route.scope === 'any' || scopes.includes(route.scope ?? ''), `${route.name} has x-required-scope ${route.scope}`);
});

t.test('a key with one scope gets 403 auth.insufficient_scope on exactly the routes whose scope it lacks', async (t) => {
  for (const scope of scopes) {
    // One account per scope, so that each route's valid request (a revocation, a deletion) runs once.
    const world = await make_world(server, { receiver });
    const made = await server.create_key(world.account_id, { name: `only ${scope}`, environment: 'test', scopes: [scope], rate_limit_per_minute: 100_000 });
    let granted = 0;
    for (const route of key_routes) {
      const held = route.scope === 'any' || scope === '*' || scope === route.scope;
      const response = await send(server, with_key(route, world, made.api_key, scope));
      t.same(judge(response).problems, [], `${route.name} with a ${scope} key: the answer passes every check`);
      if (held) {
        granted++;
        // Served: past the scope check, the route's usual answer (valid_status: a cancel of an order already sent is 409).
        const served = route.valid_status === undefined ? response.status >= 200 && response.status < 300 : response.status === route.valid_status;
        t.ok(served, `${route.name} (scope ${route.scope}) is served to a key with ${scope}: ${response.status} ${response.body.slice(0, 140)}`);
      } else {
        t.equal(response.status, 403, `${route.name} (scope ${route.scope}) is 403 for a key with only ${scope}`);
        t.equal(code(response), 'auth.insufficient_scope', `${route.name} (scope ${route.scope}) is auth.insufficient_scope for a key with only ${scope}`);
      }
    }
    t.ok(granted > 0, `a ${scope} key is served somewhere (${granted} routes)`);
  }
});

t.test('a key whose IP allowlist excludes the caller gets 403 auth.ip_not_allowed on every key-authenticated route, X-Forwarded-For or not', async (t) => {
  const world = await make_world(server, { receiver });
  const fenced = await server.create_key(world.account_id, { name: 'fenced', environment: 'test', ip_allowlist: ['10.0.0.0/8'], rate_limit_per_minute: 100_000 });
  const admitted = await server.create_key(world.account_id, { name: 'admitted', environment: 'test', ip_allowlist: ['10.0.0.0/8', '127.0.0.1'], rate_limit_per_minute: 100_000 });
  const before = await server.api('GET', '/v1/wallet/transactions?per_page=1', { key: world.key });
  for (const route of key_routes) {
    for (const [what, extra] of [['directly', []], ['claiming X-Forwarded-For: 10.1.2.3', [['X-Forwarded-For', '10.1.2.3']]]] as [string, [string, string][]][]) {
      const spec = with_key(route, world, fenced.api_key, '*');
      spec.headers.push(...extra);
      const response = await send(server, spec);
      t.equal(response.status, 403, `${route.name} ${what} from 127.0.0.1 is 403 for a 10.0.0.0/8 key`);
      t.equal(code(response), 'auth.ip_not_allowed', `${route.name} ${what} is auth.ip_not_allowed`);
    }
  }
  // The same routes are open to a key whose allowlist holds the caller (reads only: nothing to undo).
  for (const route of key_routes.filter((r) => r.method === 'GET')) {
    const response = await send(server, with_key(route, world, admitted.api_key, '*'));
    t.ok(response.status < 400 || (response.status !== 403 && response.status !== 401), `${route.name} is open to a key whose allowlist holds 127.0.0.1: ${response.status}`);
  }
  const after = await server.api('GET', '/v1/wallet/transactions?per_page=1', { key: world.key });
  t.same(after.body.data, before.body.data, 'the refused requests moved no money');
});

t.test('every key-authenticated route refuses a missing, malformed or unknown key', async (t) => {
  const world = await make_world(server, { receiver });
  for (const route of key_routes) {
    const rows: [string, [string, string][], string][] = [
      ['no Authorization', [], 'auth.invalid_key'],
      ['Basic credentials', [['Authorization', `Basic ${Buffer.from(`x:${world.key}`).toString('base64')}`]], 'auth.invalid_key'],
      ['an unknown well-formed key', [['Authorization', `Bearer bv_test_${'Q'.repeat(40)}`]], 'auth.key_not_found'],
      ['the key with its last character changed', [['Authorization', `Bearer ${world.key.slice(0, -1)}${world.key.endsWith('A') ? 'B' : 'A'}`]], 'auth.key_not_found'],
      ['the operator token', [['Authorization', `Bearer ${server.admin_token}`]], 'auth.key_not_found'],
    ];
    for (const [what, headers, expected] of rows) {
      const spec = route.build(world);
      spec.headers = [...spec.headers.filter(([n]) => n !== 'Authorization'), ...headers];
      const response = await send(server, spec);
      t.equal(response.status, 401, `${route.name} with ${what} is 401`);
      t.equal(code(response), expected, `${route.name} with ${what} is ${expected}`);
    }
  }
});

t.test('a revoked key is refused on every route from the very next request on', async (t) => {
  const world = await make_world(server, { receiver });
  const doomed = await server.create_key(world.account_id, { name: 'doomed', environment: 'test', rate_limit_per_minute: 100_000 });
  const before = await server.api('GET', '/v1/account', { key: doomed.api_key });
  t.equal(before.status, 200, 'the key works before it is revoked');
  const revoked = await server.api('DELETE', `/v1/keys/${doomed.id}`, { key: world.key });
  t.equal(revoked.status, 200, 'DELETE /v1/keys/{id} revokes it');
  for (const route of key_routes) {
    const response = await send(server, with_key(route, world, doomed.api_key, '*'));
    t.equal(response.status, 401, `${route.name} with the revoked key is 401`);
    t.equal(code(response), 'auth.key_not_found', `${route.name} with the revoked key is auth.key_not_found`);
  }
});

t.test('a revocation and the next request on the same keep-alive connection: the revoked key is refused', async (t) => {
  const world = await make_world(server, { receiver });
  const doomed = await server.create_key(world.account_id, { name: 'next in line', environment: 'test', rate_limit_per_minute: 100_000 });
  const revoke = `DELETE /v1/keys/${doomed.id} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${world.key}\r\n\r\n`;
  const use = `GET /v1/wallet HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${doomed.api_key}\r\n\r\n`;
  // The second request is written the moment the first answer's last byte arrives.
  const answers = await new Promise<string[]>((resolve) => {
    const socket = connect(server.port, '127.0.0.1');
    let got = '';
    let sent_second = false;
    const timer = setTimeout(() => socket.destroy(), 10_000);
    socket.on('data', (chunk) => {
      got += chunk.toString('latin1');
      const count = (got.match(/HTTP\/1\.1 \d{3}/g) ?? []).length;
      if (count === 1 && !sent_second && got.trimEnd().endsWith('}')) {
        sent_second = true;
        socket.write(use);
      }
      if (count === 2 && got.trimEnd().endsWith('}')) {
        clearTimeout(timer);
        socket.destroy();
      }
    });
    socket.on('close', () => resolve(got.split(/(?=HTTP\/1\.1 \d{3})/)));
    socket.on('error', () => {});
    socket.write(revoke);
  });
  t.match(answers[0] ?? '', /^HTTP\/1\.1 200/, 'the revocation answers 200');
  t.match(answers[1] ?? '', /^HTTP\/1\.1 401/, 'the very next request on the connection, with the revoked key, is 401');
  t.match(answers[1] ?? '', /auth\.key_not_found/, 'as auth.key_not_found');
});

t.test('requests racing a revocation are served or refused, never anything else, and every request sent after it is refused', async (t) => {
  const world = await make_world(server, { receiver });
  const doomed = await server.create_key(world.account_id, { name: 'raced', environment: 'test', rate_limit_per_minute: 100_000 });
  const wallet = catalog.routes.find((r) => r.name === 'GET /v1/wallet')!;
  const racing: Promise<WireResponse>[] = [];
  for (let i = 0; i < 40; i++) racing.push(send(server, with_key(wallet, world, doomed.api_key, '*')));
  const revocation = send(server, catalog.routes.find((r) => r.name === 'DELETE /v1/keys/{id}')!.build({ ...world, victim_key_id: doomed.id }));
  for (let i = 0; i < 40; i++) racing.push(send(server, with_key(wallet, world, doomed.api_key, '*')));
  const revoked = await revocation;
  t.equal(revoked.status, 200, 'the revocation is served');
  const after = await Promise.all(Array.from({ length: 30 }, () => send(server, with_key(wallet, world, doomed.api_key, '*'))));
  const raced = await Promise.all(racing);
  t.ok(raced.every((r) => r.status === 200 || (r.status === 401 && code(r) === 'auth.key_not_found')), `every racing request is 200 or 401 auth.key_not_found (${[...new Set(raced.map((r) => r.status))].join(', ')})`);
  t.ok(after.every((r) => r.status === 401 && code(r) === 'auth.key_not_found'), `all 30 requests sent after the revocation answered are 401 auth.key_not_found (${[...new Set(after.map((r) => r.status))].join(', ')})`);
});

t.test('a key revoked through the dashboard, or revoking itself, is refused at once and still refused after a restart', async (t) => {
  const world = await make_world(server, { receiver });
  const by_dashboard = await server.create_key(world.account_id, { name: 'dashboard victim', environment: 'test' });
  const by_itself = await server.create_key(world.account_id, { name: 'self', environment: 'test' });
  const dashboard = await send(server, catalog.routes.find((r) => r.name === 'DELETE /dashboard/api/keys/{id}')!.build({ ...world, victim_key_id: by_dashboard.id }));
  t.equal(dashboard.status, 200, 'the dashboard revokes the key');
  const next = await server.api('GET', '/v1/account', { key: by_dashboard.api_key });
  t.equal(next.status, 401, 'the key revoked in the dashboard is 401 on the next request');
  t.equal(next.body?.error?.code, 'auth.key_not_found', 'as auth.key_not_found');
  const suicide = await server.api('DELETE', `/v1/keys/${by_itself.id}`, { key: by_itself.api_key });
  t.equal(suicide.status, 200, 'a key may revoke itself');
  const after_suicide = await server.api('GET', '/v1/account', { key: by_itself.api_key });
  t.equal(after_suicide.status, 401, 'and is refused on its next request');
  await server.stop();
  await server.start();
  for (const [what, key] of [['the key revoked in the dashboard', by_dashboard.api_key], ['the key that revoked itself', by_itself.api_key]]) {
    const response = await server.api('GET', '/v1/account', { key });
    t.equal(response.status, 401, `${what} is still 401 after a restart`);
  }
  const alive = await server.api('GET', '/v1/account', { key: world.key });
  t.equal(alive.status, 200, 'the account\'s other key still works after the restart');
});

/**
 * The token with its last character changed. Replacing it with a fixed 'x' left the token right
 * whenever it already ended in 'x' (1 in 64): the "wrong" token then signed the session out, and
 * every later row of the test saw 401 (CI, once).
 */
function wrong_token(token: string): string {
  return token.slice(0, -1) + (token.endsWith('x') ? 'y' : 'x');
}

t.test('every dashboard route needs its session, and every dashboard change its CSRF token and this origin', async (t) => {
  const world = await make_world(server, { receiver });
  for (const route of session_routes) {
    const rows: [string, (spec: RequestSpec) => void, number, string][] = [
      ['no session cookie', (s) => (s.headers = s.headers.filter(([n]) => n !== 'Cookie')), 401, 'session.required'],
      ['an unknown session cookie', (s) => (s.headers = [...s.headers.filter(([n]) => n !== 'Cookie'), ['Cookie', `bv_session=${'x'.repeat(43)}`]]), 401, 'session.required'],
      ['an API key instead of a session', (s) => (s.headers = [...s.headers.filter(([n]) => n !== 'Cookie'), ['Authorization', `Bearer ${world.key}`]]), 401, 'session.required'],
    ];
    if (route.method !== 'GET') {
      rows.push(
        ['no X-CSRF-Token', (s) => (s.headers = s.headers.filter(([n]) => n !== 'X-CSRF-Token')), 403, 'session.csrf_failed'],
        ['a wrong X-CSRF-Token', (s) => (s.headers = [...s.headers.filter(([n]) => n !== 'X-CSRF-Token'), ['X-CSRF-Token', wrong_token(world.session.csrf)]]), 403, 'session.csrf_failed'],
        ['another site\'s Origin', (s) => s.headers.push(['Origin', 'https://evil.example']), 403, 'session.csrf_failed'],
      );
    }
    for (const [what, change, status, expected] of rows) {
      const spec = route.build(world);
      change(spec);
      const response = await send(server, spec);
      t.equal(response.status, status, `${route.name} with ${what} is ${status}`);
      t.equal(code(response), expected, `${route.name} with ${what} is ${expected}`);
    }
  }
  const sign_in = catalog.routes.find((r) => r.name === 'POST /dashboard/api/session')!;
  const cross_site = sign_in.build(world);
  cross_site.headers.push(['Origin', 'https://evil.example']);
  const refused = await send(server, cross_site);
  t.equal(code(refused), 'session.csrf_failed', 'signing in from another site\'s page is session.csrf_failed');
});

t.test('wrong operator tokens of every length are 401 operator.unauthorized on every operator route, never a 500', async (t) => {
  const world = await make_world(server, { receiver });
  const token = server.admin_token;
  const wrong: [string, string | null][] = [
    ['no Authorization', null],
    ['Bearer with nothing', 'Bearer'],
    ['the token without Bearer', token],
    ['Basic with the token', `Basic ${token}`],
    ['the token with its last character changed', `Bearer ${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`],
    ['the token with its first character changed', `Bearer ${token.startsWith('a') ? 'b' : 'a'}${token.slice(1)}`],
    ['the token minus its last character', `Bearer ${token.slice(0, -1)}`],
    ['the token plus one character', `Bearer ${token}x`],
    ['the token in upper case', `Bearer ${token.toUpperCase()}`],
    ['the token twice', `Bearer ${token}${token}`],
    ['an API key', `Bearer ${world.key}`],
    ['a token of 3000 characters', `Bearer ${'t'.repeat(3000)}`],
  ];
  for (let length = 1; length <= 80; length += 7) wrong.push([`a random token of ${length} characters`, `Bearer ${'k'.repeat(length)}`]);
  let sent = 0;
  for (const route of operator_routes) {
    for (const [what, value] of wrong) {
      const spec = route.build(world);
      spec.headers = spec.headers.filter(([n]) => n !== 'Authorization');
      if (value !== null) spec.headers.push(['Authorization', value]);
      const response = await send(server, spec);
      sent++;
      t.equal(response.status, 401, `${route.name} with ${what} is 401`);
      t.equal(code(response), 'operator.unauthorized', `${route.name} with ${what} is operator.unauthorized`);
    }
    // A wrong token after the right one is ignored (the first header counts); a wrong one first refuses.
    const spec = route.build(world);
    spec.headers = [['Authorization', 'Bearer wrong'], ...spec.headers];
    const first_wrong = await send(server, spec);
    t.equal(first_wrong.status, 401, `${route.name} with a wrong token before the right one is 401`);
  }
  t.comment(`${sent} requests with wrong operator tokens over ${operator_routes.length} routes`);
  const metrics = await server.admin('GET', '/metrics');
  t.equal(metrics.status, 200, 'the right token opens /metrics');
  for (const path of ['/healthz', '/readyz']) {
    const probe = await server.admin('GET', path, undefined, null);
    t.equal(probe.status, 200, `${path} needs no token (probes call it)`);
  }
});

function non_loopback_ipv4(): string | null {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) if (address.family === 'IPv4' && !address.internal) return address.address;
  }
  return null;
}

/** Whether a TCP connection to host:port is accepted within the time. */
function accepts(host: string, port: number, timeout_ms = 3000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, timeout_ms);
    socket.on('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

const outside_address = non_loopback_ipv4();

t.test('the operator API listens on loopback only unless ADMIN_HOST says otherwise, while the public API is reachable from outside', {
  skip: outside_address === null ? 'this machine has no non-loopback IPv4 address to try the operator port from' : false,
}, async (t) => {
  const address = outside_address!;
  const open = await start_server(t, { env: { HOST: '0.0.0.0' } });
  // The harness passes an explicit environment (HOST=0.0.0.0 here), never ADMIN_HOST: the default applies.
  let environ = '';
  try {
    environ = readFileSync(`/proc/${open.pid}/environ`, 'latin1');
  } catch {
    environ = '';
  }
  if (environ !== '') t.notOk(environ.split('\0').some((v) => v.startsWith('ADMIN_HOST=')), 'the server runs without ADMIN_HOST in its environment');
  t.ok(await accepts(address, open.port), `the public port answers on ${address}`);
  const public_answer = await exchange(open.port, to_wire({ method: 'GET', template: '/v1/openapi.json', params: {}, query: '', headers: [], port: 'public' }), { host: address });
  t.equal(public_answer.status, 200, `GET /v1/openapi.json is served on ${address}`);
  t.notOk(await accepts(address, open.admin_port), `the operator port refuses connections on ${address}`);
  t.ok(await accepts('127.0.0.1', open.admin_port), 'the operator port accepts connections on 127.0.0.1');
  const ready = await open.admin('GET', '/readyz', undefined, null);
  t.equal(ready.status, 200, 'the operator API serves /readyz on 127.0.0.1');
});
