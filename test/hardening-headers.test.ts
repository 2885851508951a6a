// Issue "Hardening from a hostile review": header bytes and the small header leaks, over raw sockets
// (fetch refuses to send a header that is not ASCII, so every request here is written byte by byte).
//
// uWebSockets.js v20 (uws-pack 20.0.8) hands header values over as Latin-1 but trims them as signed
// chars: bytes 0x80-0xFF at either end of a value vanish like spaces, bytes inside it arrive intact,
// and a control byte anywhere stops uWS from parsing the request at all (it is never answered; the
// idle timeout closes the connection). The review found a purchase with `X-Idempotency-Key: é` taken
// as one without a key (two orders), and keys that differ only by a leading non-ASCII character
// taken as one key. What can be seen is refused with 400 validation.failed before anything is
// debited; what uWS removed without a trace is kept as todo tests (docs/design.md "Known limitations").
import t, { type Test } from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { raw_http, stack_trace_in, type RawResponse } from './helpers/fixtures-http.js';
import { error_log_lines } from './helpers/route-catalog.js';
import { airtime_body, all_orders, balance_kobo, fast_reseller, idem, sandbox } from './helpers/purchases.js';

type HeaderValue = string | Buffer;

const server = await start_server(t);
const reseller = await fast_reseller(server, 100_000);
const purchase_body = JSON.stringify(airtime_body(sandbox.delivered, 100, { pin: reseller.pin }));

/** A request written byte for byte: header values may be Buffers holding any bytes. */
function wire(method: string, path: string, headers: [string, HeaderValue][], body = ''): Buffer {
  const parts: Buffer[] = [Buffer.from(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`, 'latin1')];
  for (const [name, value] of headers) parts.push(Buffer.from(`${name}: `, 'latin1'), typeof value === 'string' ? Buffer.from(value, 'latin1') : value, Buffer.from('\r\n'));
  const body_bytes = Buffer.from(body, 'utf8');
  if (body_bytes.length > 0) parts.push(Buffer.from(`Content-Length: ${body_bytes.length}\r\n`));
  parts.push(Buffer.from('\r\n'), body_bytes);
  return Buffer.concat(parts);
}

function utf8(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

/** The answer, or null when the server closed the connection or stayed silent for timeout_ms. */
async function send(bytes: Buffer, timeout_ms = 5000, port = server.port): Promise<RawResponse | null> {
  try {
    return await raw_http(port, bytes, timeout_ms);
  } catch {
    return null;
  }
}

function code_of(response: RawResponse | null): string | undefined {
  try {
    return JSON.parse(response?.body ?? '').error?.code;
  } catch {
    return undefined;
  }
}

function fields_of(response: RawResponse | null): string[] {
  try {
    return (JSON.parse(response?.body ?? '').error?.details ?? []).map((d: { field: string }) => d.field);
  } catch {
    return [];
  }
}

/** A purchase of 100 NGN of airtime, with the reseller's key unless the headers say otherwise. */
function purchase(headers: [string, HeaderValue][], key_header = true): Buffer {
  const all: [string, HeaderValue][] = [];
  if (key_header) all.push(['Authorization', `Bearer ${reseller.key}`]);
  if (!headers.some(([n]) => n === 'Content-Type')) all.push(['Content-Type', 'application/json']);
  return wire('POST', '/v1/services/airtime', [...all, ...headers], purchase_body);
}

async function order_count(): Promise<number> {
  return (await all_orders(server, reseller.key)).length;
}

/** Checks a 400 validation.failed naming the header, with no stack trace. */
function check_refused(t: Test, response: RawResponse | null, field: string, what: string): void {
  t.equal(response?.status, 400, `${what}: answers 400 (got ${response?.status ?? 'no answer'} ${response?.body.slice(0, 160) ?? ''})`);
  t.equal(code_of(response), 'validation.failed', `${what}: with validation.failed`);
  t.same(fields_of(response), [field], `${what}: the details name ${field}`);
  t.equal(stack_trace_in(response?.body ?? ''), null, `${what}: no stack trace`);
}

t.test('two purchases with X-Idempotency-Key: é are each 400 validation.failed and make no order (they were taken as keyless)', async (t) => {
  const orders = await order_count();
  const balance = await balance_kobo(server, reseller.key);
  for (const round of [1, 2]) {
    const response = await send(purchase([['X-Idempotency-Key', utf8('é')]]));
    check_refused(t, response, 'X-Idempotency-Key', `purchase ${round} with the key é`);
  }
  for (const value of [utf8('éü'), utf8('\u202e'), Buffer.from([0xff]), Buffer.from([0x80, 0x80]), utf8('  é  ')]) {
    check_refused(t, await send(purchase([['X-Idempotency-Key', value]])), 'X-Idempotency-Key', `a key of bytes ${value.toString('hex')}`);
  }
  t.equal(await order_count(), orders, 'no order was made');
  t.equal(await balance_kobo(server, reseller.key), balance, 'nothing was debited');
});

t.test('an X-Idempotency-Key header that is present but empty is 400, not a purchase without a key', async (t) => {
  const orders = await order_count();
  for (const value of ['', '   ', '\t']) {
    check_refused(t, await send(purchase([['X-Idempotency-Key', value]])), 'X-Idempotency-Key', `a key header holding ${JSON.stringify(value)}`);
  }
  t.equal(await order_count(), orders, 'no order was made');
  const without = await send(purchase([]));
  t.equal(without?.status, 201, `a purchase with no X-Idempotency-Key header at all is still served (${without?.body.slice(0, 120)})`);
  t.equal(await order_count(), orders + 1, 'and makes its one order');
});

t.test('non-ASCII and DEL bytes inside an idempotency key are 400, never read as another key', async (t) => {
  const orders = await order_count();
  const base = idem('inner');
  for (const value of [utf8(`${base}-é-42`), utf8(`${base}-ü-42`), Buffer.concat([utf8(base), Buffer.from([0x7f]), utf8('x')]), Buffer.concat([utf8(base), Buffer.from([0xa0]), utf8('x')]), utf8(`${base}\u202e42`)]) {
    check_refused(t, await send(purchase([['X-Idempotency-Key', value]])), 'X-Idempotency-Key', `the key ${JSON.stringify(value.toString('latin1'))}`);
  }
  t.equal(await order_count(), orders, 'no order was made');
  const plain = await send(purchase([['X-Idempotency-Key', base]]));
  t.equal(plain?.status, 201, `the same key in plain ASCII buys (${plain?.body.slice(0, 120)})`);
  t.equal(await order_count(), orders + 1, 'one order, from the plain key');
});

// uWS drops bytes 0x80-0xFF at the ends of a value before billvend sees it, so these keys arrive as
// "-order-42" and "-order-43"; docs/design.md "Known limitations". They turn green with a uWS that trims
// only spaces and tabs.
t.test('X-Idempotency-Key é-order-42 and ü-order-42 are each refused, not taken as one key', { todo: 'uWebSockets.js v20 trims bytes 0x80-0xFF off the ends of header values (signed-char trim), so they cannot be seen' }, async (t) => {
  const tag = idem('lead');
  const orders = await order_count();
  check_refused(t, await send(purchase([['X-Idempotency-Key', utf8(`é-${tag}-42`)]])), 'X-Idempotency-Key', 'é-order-42');
  check_refused(t, await send(purchase([['X-Idempotency-Key', utf8(`ü-${tag}-42`)]])), 'X-Idempotency-Key', 'ü-order-42');
  t.equal(await order_count(), orders, 'no order was made');
});

t.test('X-Idempotency-Key ü-order-43 is refused, so it never shares a purchase with -order-43', { todo: 'uWebSockets.js v20 trims bytes 0x80-0xFF off the ends of header values (signed-char trim), so they cannot be seen' }, async (t) => {
  const tag = idem('share');
  check_refused(t, await send(purchase([['X-Idempotency-Key', utf8(`ü-${tag}-43`)]])), 'X-Idempotency-Key', 'ü-order-43');
  const trailing = await send(purchase([['X-Idempotency-Key', utf8(`${tag}-43ü`)]]));
  check_refused(t, trailing, 'X-Idempotency-Key', 'order-43ü');
});

t.test('non-ASCII bytes inside Authorization, Content-Type or Origin refuse a purchase with 400 before the key is used', async (t) => {
  const orders = await order_count();
  const balance = await balance_kobo(server, reseller.key);
  const rows: [string, [string, HeaderValue][], boolean][] = [
    ['Authorization', [['Authorization', Buffer.concat([utf8(`Bearer ${reseller.key.slice(0, 20)}`), utf8('é'), utf8(reseller.key.slice(20))])]], false],
    ['Authorization', [['Authorization', Buffer.concat([utf8('Bearer'), Buffer.from([0xa0]), utf8(reseller.key)])]], false],
    ['Authorization', [['Authorization', Buffer.concat([utf8(`Bearer ${reseller.key}`), Buffer.from([0x7f]), utf8('x')])]], false],
    ['Content-Type', [['Content-Type', utf8('application/é-json')]], true],
    ['Content-Type', [['Content-Type', utf8('application/json; charset=ü-8')]], true],
    ['Origin', [['Origin', utf8('https://évil.example')]], true],
    ['Origin', [['Origin', utf8('https://app.\u202ebillvend.ng')]], true],
  ];
  for (const [field, headers, key_header] of rows) {
    const value = headers[0][1];
    const response = await send(purchase([...headers, ['X-Idempotency-Key', idem('hdr')]], key_header));
    check_refused(t, response, field, `${field}: ${JSON.stringify(value.toString('latin1'))}`);
    t.equal(response?.headers['x-ratelimit-remaining'], undefined, `${field}: refused before the key's rate limit was counted`);
  }
  t.equal(await order_count(), orders, 'no order was made');
  t.equal(await balance_kobo(server, reseller.key), balance, 'nothing was debited');
});

t.test('Authorization: é and Content-Type: é read as empty are refused as missing (401, 415), and make no order', async (t) => {
  const orders = await order_count();
  const no_key = await send(purchase([['Authorization', utf8('é')], ['X-Idempotency-Key', idem('a')]], false));
  t.equal(no_key?.status, 401, `Authorization: é is 401 like a missing header (${no_key?.body.slice(0, 120)})`);
  t.equal(code_of(no_key), 'auth.invalid_key', 'with auth.invalid_key');
  const no_type = await send(purchase([['Content-Type', utf8('é')], ['X-Idempotency-Key', idem('c')]]));
  t.equal(no_type?.status, 415, `Content-Type: é is 415 like a missing header (${no_type?.body.slice(0, 120)})`);
  t.equal(await order_count(), orders, 'no order was made');
});

t.test('a control byte in any header that matters is never served: uWS leaves the request unparsed and nothing is bought', async (t) => {
  const orders = await order_count();
  const rows: [string, [string, HeaderValue][], boolean][] = [
    ['X-Idempotency-Key', [['X-Idempotency-Key', Buffer.concat([utf8(idem('ctl')), Buffer.from([0x01])])]], true],
    ['X-Idempotency-Key', [['X-Idempotency-Key', Buffer.concat([Buffer.from([0x00]), utf8(idem('ctl'))])]], true],
    ['Authorization', [['Authorization', Buffer.concat([utf8(`Bearer ${reseller.key}`), Buffer.from([0x1b])])]], false],
    ['Content-Type', [['Content-Type', Buffer.concat([utf8('application/json'), Buffer.from([0x0b])])]], true],
    ['Origin', [['Origin', Buffer.concat([utf8('https://app.billvend.ng'), Buffer.from([0x08])])]], true],
  ];
  const answers = await Promise.all(rows.map(([, headers, key_header]) => send(purchase(headers, key_header), 2000)));
  rows.forEach(([field], i) => {
    const response = answers[i];
    t.ok(response === null || (response.status >= 400 && response.status < 500), `${field} with a control byte: not served (${response === null ? 'no answer' : response.status})`);
  });
  t.equal(await order_count(), orders, 'no order was made');
});

/** Signs in to the dashboard and returns the session cookie and CSRF token. */
async function sign_in(target: TestServer, account: { email: string; password: string }): Promise<{ cookie: string; csrf: string }> {
  const response = await target.request('POST', '/dashboard/api/session', { body: { email: account.email, password: account.password } });
  if (response.status !== 201) throw new Error(`sign-in: ${response.status} ${response.text}`);
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0];
  return { cookie, csrf: response.body.data.csrf_token };
}

async function key_count(): Promise<number> {
  const response = await server.api('GET', '/v1/keys', { key: reseller.key });
  return response.body.data.keys.length;
}

t.test('non-ASCII bytes in X-CSRF-Token or Origin refuse a dashboard change with 400, and Origin: é is not taken as no Origin', async (t) => {
  const { cookie, csrf } = await sign_in(server, reseller);
  const keys = await key_count();
  const body = JSON.stringify({ name: 'header bytes', environment: 'test' });
  const change = (headers: [string, HeaderValue][]) => wire('POST', '/dashboard/api/keys', [['Cookie', cookie], ['Content-Type', 'application/json'], ...headers], body);
  const rows: [string, [string, HeaderValue][]][] = [
    ['X-CSRF-Token', [['X-CSRF-Token', Buffer.concat([utf8(csrf.slice(0, 10)), utf8('é'), utf8(csrf.slice(10))])]]],
    ['X-CSRF-Token', [['X-CSRF-Token', Buffer.concat([utf8(csrf), Buffer.from([0x7f]), utf8('x')])]]],
    ['Origin', [['X-CSRF-Token', csrf], ['Origin', utf8('http://127.0.0.1/é/x')]]],
    ['Origin', [['X-CSRF-Token', csrf], ['Origin', utf8('é')]]],
    ['Origin', [['X-CSRF-Token', csrf], ['Origin', '']]],
  ];
  for (const [field, headers] of rows) {
    const value = headers[headers.length - 1][1];
    check_refused(t, await send(change(headers)), field, `dashboard key creation with ${field}: ${JSON.stringify(value.toString('latin1'))}`);
  }
  const emptied = await send(change([['X-CSRF-Token', utf8('é')]]));
  t.equal(emptied?.status, 403, `X-CSRF-Token: é reads as an empty token and fails the CSRF check (${emptied?.body.slice(0, 120)})`);
  t.equal(code_of(emptied), 'session.csrf_failed', 'with session.csrf_failed');
  t.equal(await key_count(), keys, 'no key was created');
  const good = await send(change([['X-CSRF-Token', csrf], ['Origin', 'http://127.0.0.1']]));
  t.equal(good?.status, 201, `the same request with clean headers creates the key (${good?.body.slice(0, 120)})`);
  t.equal(await key_count(), keys + 1, 'one key, from the clean request');
});

t.test('signing in with the empty X-CSRF-Token the dashboard sends before it has one still works', async (t) => {
  const account = await server.create_account();
  const body = JSON.stringify({ email: account.email, password: account.password });
  const response = await send(wire('POST', '/dashboard/api/session', [['Content-Type', 'application/json'], ['X-CSRF-Token', ''], ['Origin', 'http://127.0.0.1']], body));
  t.equal(response?.status, 201, `sign-in with X-CSRF-Token: (empty) is 201 (${response?.body.slice(0, 120)})`);
});

// ---- Security response headers ----------------------------------------------------------------

t.test('/v1/openapi.json and the redirect at / carry nosniff and a Content-Security-Policy', async (t) => {
  for (const path of ['/v1/openapi.json', '/']) {
    const response = await send(wire('GET', path, []));
    t.ok(response?.status === 200 || response?.status === 302, `GET ${path} answers (${response?.status})`);
    t.equal(response?.headers['x-content-type-options'], 'nosniff', `GET ${path} has X-Content-Type-Options: nosniff`);
    t.match(response?.headers['content-security-policy'] ?? '', /default-src 'none'/, `GET ${path} has a Content-Security-Policy that allows nothing to run`);
    t.match(response?.headers['content-security-policy'] ?? '', /frame-ancestors 'none'/, `GET ${path} may not be framed`);
  }
  const page = await send(wire('GET', '/docs/', []));
  t.match(page?.headers['content-security-policy'] ?? '', /script-src 'self'/, 'a page keeps its own policy (scripts from this server), not the document one');
  t.equal((page?.headers['content-security-policy'] ?? '').includes("default-src 'none'"), false, 'and only one policy');
});

t.test('CORS preflights carry Vary: Origin, whether or not the origin is allowed', async (t) => {
  const rows: [string, [string, HeaderValue][]][] = [
    ['an allowed origin', [['Origin', 'https://app.billvend.ng'], ['Access-Control-Request-Method', 'POST']]],
    ['an origin not allowed', [['Origin', 'https://evil.example'], ['Access-Control-Request-Method', 'POST']]],
    ['no origin', [['Access-Control-Request-Method', 'POST']]],
  ];
  for (const [what, headers] of rows) {
    const response = await send(wire('OPTIONS', '/v1/services/airtime', headers));
    t.equal(response?.status, 204, `a preflight from ${what} is 204`);
    t.equal(response?.headers.vary, 'Origin', `a preflight from ${what} carries Vary: Origin`);
  }
});

t.test('dashboard pages carry HSTS when they arrive over HTTPS through a trusted proxy, and not over plain HTTP', async (t) => {
  const plain = await send(wire('GET', '/dashboard/', []));
  t.equal(plain?.status, 200, 'the dashboard page is served');
  t.equal(plain?.headers['strict-transport-security'], undefined, 'no HSTS over plain HTTP');
  const untrusted = await send(wire('GET', '/dashboard/', [['X-Forwarded-Proto', 'https']]));
  t.equal(untrusted?.headers['strict-transport-security'], undefined, 'no HSTS when X-Forwarded-Proto comes from a peer that is not a trusted proxy');

  const proxied = await start_server(t, { env: { TRUSTED_PROXIES: '127.0.0.1' } });
  for (const path of ['/dashboard/', '/dashboard/orders', '/docs/', '/']) {
    const response = await send(wire('GET', path, [['X-Forwarded-For', '203.0.113.9'], ['X-Forwarded-Proto', 'https']]), 5000, proxied.port);
    t.match(response?.headers['strict-transport-security'] ?? '', /^max-age=\d{7,}/, `GET ${path} through a trusted proxy over HTTPS carries HSTS`);
  }
  const proxied_plain = await send(wire('GET', '/dashboard/', [['X-Forwarded-Proto', 'http']]), 5000, proxied.port);
  t.equal(proxied_plain?.headers['strict-transport-security'], undefined, 'no HSTS through the proxy over plain HTTP');
  const appended = await send(wire('GET', '/dashboard/', [['X-Forwarded-Proto', 'https, http']]), 5000, proxied.port);
  t.equal(appended?.headers['strict-transport-security'], undefined, 'the proxy\'s own (last) X-Forwarded-Proto entry counts, not one the client put first');

  const public_https = await start_server(t, { env: { PUBLIC_BASE_URL: 'https://dashboard.billvend.example' } });
  const behind = await send(wire('GET', '/dashboard/', []), 5000, public_https.port);
  t.match(behind?.headers['strict-transport-security'] ?? '', /^max-age=\d{7,}/, 'a server whose PUBLIC_BASE_URL is https serves its pages with HSTS');
});

t.test('the server logged no error and wrote nothing on stderr', async (t) => {
  t.same(error_log_lines(server).map((line) => line.slice(0, 300)), [], 'no error or fatal log line');
  t.same(server.stderr.filter((chunk) => chunk.trim() !== ''), [], 'nothing on stderr');
});
