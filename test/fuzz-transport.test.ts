// Hostile input below JSON (issue "Reliability and security campaign", item 3), over raw sockets:
// bodies just under and over 16 KiB and huge declared Content-Lengths on every route that takes a
// body, invalid UTF-8, wrong content types, duplicated Authorization / Content-Length /
// X-Idempotency-Key headers, non-ASCII and control bytes in every header billvend acts on,
// conflicting framing (request smuggling), slow-loris clients (a valid
// request sent byte by byte; requests that stall in the headers or the body, measured until the
// server's idle timeout closes them, while other clients are served), pipelining, and a fast-check run
// of garbled request lines and header blocks. Never a 500, never a crash.
//
// FUZZ_RUNS=<n> multiplies the run counts; FUZZ_SEED=<n> replays the garbled-request run.
import { body_bytes_max } from '../src/front/request-body.js';
import { bulk_body_bytes_max } from '../src/front/routes/bulk-routes.js';
import t from 'tap';
import fc from 'fast-check';
import { connect, type Socket } from 'node:net';
import { start_server } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import {
  body_length_placeholder, error_log_lines, exchange, fuzz_scale, fuzz_seed, header, judge, load_catalog, make_world, mutate, send, sign_in,
  snapshot, snapshot_difference, still_serving, to_wire, type RequestSpec, type RouteEntry, type WireResponse,
} from './helpers/route-catalog.js';

const funding_secret = 'transport-funding-secret';
const receiver = new WebhookReceiver();
await receiver.start();
t.teardown(() => receiver.stop());
const server = await start_server(t, { env: webhook_env({ FUNDING_WEBHOOK_SECRET: funding_secret }) });
const catalog = await load_catalog(server);
const world = await make_world(server, { receiver, funding_secret });
const observer = { server, test_key: world.key, live_key: world.live_key };
const body_routes = catalog.routes.filter((r) => r.method === 'POST' || r.method === 'PATCH');
/** Routes whose body is JSON read by the front end (the bank notification is verified raw first). */
const json_routes = body_routes.filter((r) => r.auth !== 'signature');
const scale = fuzz_scale();
const seed = fuzz_seed();
let requests_sent = 0;

/** The body limit the front end enforces on a route: 16 KiB, the bulk route's own 256 KiB (docs/api.md "Limits"). */
function body_limit(route: RouteEntry): number {
  return route.name === 'POST /v1/services/bulk' ? bulk_body_bytes_max : body_bytes_max;
}

function padded(route: RouteEntry, bytes: number): RequestSpec {
  return mutate(route, world, [{ kind: 'pad', bytes }]).spec;
}

function parsed(response: WireResponse): any {
  try {
    return JSON.parse(response.body);
  } catch {
    return undefined;
  }
}

async function answer(spec: RequestSpec): Promise<WireResponse> {
  requests_sent++;
  return send(server, spec);
}

t.test('a body at the route\'s limit is read and one byte more is 413 request.too_large, on every route that takes a body (16 KiB; the bulk route 256 KiB)', async (t) => {
  for (const route of body_routes) {
    const limit = body_limit(route);
    const at_limit = padded(route, limit);
    t.equal(at_limit.raw_body?.length, limit, `${route.name}: the padded body is ${limit} bytes`);
    const under = await answer(at_limit);
    t.not(under.status, 413, `${route.name}: ${limit} bytes are read (${under.status} ${under.body.slice(0, 120)})`);
    t.same(judge(under).problems, [], `${route.name}: the answer to ${limit} bytes passes every check`);
    const over = await answer(padded(route, limit + 1));
    t.equal(over.status, 413, `${route.name}: ${limit + 1} bytes are 413`);
    t.equal(parsed(over)?.error?.code, 'request.too_large', `${route.name}: ${limit + 1} bytes are request.too_large`);
    t.same(judge(over).problems, [], `${route.name}: the 413 passes every check`);
    const chunked = await answer({ ...padded(route, limit + 23_616), chunked: true });
    t.equal(chunked.status, 413, `${route.name}: a chunked body of ${limit + 23_616} bytes (no Content-Length) is 413`);
  }
});

t.test('a declared Content-Length over 16 KiB is refused before any body is sent, on every route that takes a body', async (t) => {
  const before = await snapshot(observer);
  for (const route of body_routes) {
    for (const length of [String(body_limit(route) + 1), '1000000000', '9007199254740993', '99999999999999999999']) {
      const spec = route.build(world);
      spec.body = undefined;
      spec.headers = [...spec.headers.filter(([n]) => n.toLowerCase() !== 'content-length'), ['Content-Length', length]];
      requests_sent++;
      const response = await exchange(route.port === 'public' ? server.port : server.admin_port, to_wire(spec));
      t.ok(response.status === 413 || (response.status === 400 && header(response, 'x-request-id') === undefined), `${route.name}: Content-Length ${length} is 413 (or the parser's 400 for a number it cannot read): ${response.status}`);
      if (response.status === 413) t.equal(parsed(response)?.error?.code, 'request.too_large', `${route.name}: Content-Length ${length} is request.too_large`);
      t.ok(response.closed, `${route.name}: the connection is closed after refusing Content-Length ${length}`);
    }
  }
  t.equal(await snapshot(observer), before, 'nothing changed');
});

t.test('a body that is not UTF-8 is 400 request.malformed_json on every route that takes a body', async (t) => {
  const before = await snapshot(observer);
  for (const route of body_routes) {
    for (const bytes of [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
      const field = route.body_fields[0] ?? null;
      const { spec } = mutate(route, world, [{ kind: 'invalid_utf8', field, bytes }, { kind: 'header', name: 'Content-Type', value: 'application/json', mode: 'replace' }]);
      const response = await answer(spec);
      const what = `${route.name}: bytes ${bytes.map((b) => b.toString(16)).join(' ')}`;
      t.equal(response.status, 400, `${what} are 400`);
      t.equal(parsed(response)?.error?.code, 'request.malformed_json', `${what} are request.malformed_json`);
    }
  }
  t.equal(await snapshot(observer), before, 'no request with invalid UTF-8 changed anything');
});

t.test('a JSON body sent without Content-Type application/json is 415 on every route that takes a JSON body', async (t) => {
  const before = await snapshot(observer);
  for (const route of json_routes) {
    for (const content_type of [null, 'text/plain', 'application/x-www-form-urlencoded', 'application/jsonx', 'text/json']) {
      const { spec } = mutate(route, world, content_type === null
        ? [{ kind: 'header', name: 'Content-Type', value: '', mode: 'drop' }]
        : [{ kind: 'header', name: 'Content-Type', value: content_type, mode: 'replace' }]);
      if (spec.raw_body === undefined || spec.raw_body.length === 0) spec.raw_body = Buffer.from('{"pad":1}');
      const response = await answer(spec);
      t.equal(response.status, 415, `${route.name} with ${content_type ?? 'no Content-Type'} is 415`);
      t.equal(parsed(response)?.error?.code, 'request.unsupported_media_type', `${route.name} with ${content_type ?? 'no Content-Type'} is request.unsupported_media_type`);
    }
  }
  t.equal(await snapshot(observer), before, 'no refused request changed anything');
});

t.test('duplicated Authorization, Content-Length and X-Idempotency-Key headers never get a 500 on any route', async (t) => {
  const bad_tokens: Record<string, string> = { api_key: `bv_test_${'Z'.repeat(40)}`, operator: 'not-the-token', session: 'x', signature: 'x', none: 'x' };
  let answered = 0;
  for (const route of catalog.routes) {
    const variants: [string, RequestSpec][] = [];
    const valid_auth = route.build(world).headers.find(([n]) => n === 'Authorization');
    if (valid_auth !== undefined) {
      const bad: [string, string] = ['Authorization', `Bearer ${bad_tokens[route.auth]}`];
      variants.push(['a wrong Authorization before the right one', { ...route.build(world), headers: [bad, ...route.build(world).headers] }]);
      variants.push(['a wrong Authorization after the right one', { ...route.build(world), headers: [...route.build(world).headers, bad] }]);
    }
    const spec = route.build(world);
    variants.push(['Content-Length twice with the same value', { ...spec, headers: [...spec.headers, ['Content-Length', body_length_placeholder], ['Content-Length', body_length_placeholder]] }]);
    if (route.method === 'POST') {
      const twice = route.build(world);
      variants.push(['two X-Idempotency-Key headers', { ...twice, headers: [...twice.headers, ['X-Idempotency-Key', `second-${Date.now()}-${route.name.length}`]] }]);
    }
    for (const [what, variant] of variants) {
      const response = await answer(variant);
      answered++;
      t.same(judge(response).problems, [], `${route.name} with ${what}: ${response.status} passes every check`);
    }
  }
  t.ok(answered > catalog.routes.length * 2, `every route was sent duplicated headers (${answered} requests)`);
  // uWS reads the first of duplicated headers; a wrong key first must not open the account.
  const wrong_first = await answer({ ...catalog.routes.find((r) => r.name === 'GET /v1/wallet')!.build(world), headers: [['Authorization', `Bearer bv_test_${'Z'.repeat(40)}`], ['Authorization', `Bearer ${world.key}`]] });
  t.equal(wrong_first.status, 401, 'with a wrong key first and the right key second, GET /v1/wallet is refused (the first header counts)');
  t.equal(await still_serving(world), null, 'the server still serves');
});

/** Reads everything the server sends on a connection until it closes or goes quiet. */
function read_all(port: number, bytes: Buffer, quiet_ms = 800): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let timer = setTimeout(() => socket.destroy(), quiet_ms * 3);
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      clearTimeout(timer);
      timer = setTimeout(() => socket.destroy(), quiet_ms);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
    socket.write(bytes);
  });
}

t.test('conflicting framing is refused, so that no request can be smuggled inside another one\'s body', async (t) => {
  // A front proxy that believes the other Content-Length (or Transfer-Encoding) would forward the
  // inner request as body; the server must refuse the message (RFC 9112 section 6.3), not run it.
  const inner = `GET /v1/account HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${world.key}\r\n\r\n`;
  const rows: [string, string][] = [
    ['Content-Length 0 then Content-Length of the inner request', `GET /v1/wallet HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${world.key}\r\nContent-Length: 0\r\nContent-Length: ${inner.length}\r\n\r\n${inner}`],
    ['Content-Length of the inner request then Content-Length 0', `GET /v1/wallet HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${world.key}\r\nContent-Length: ${inner.length}\r\nContent-Length: 0\r\n\r\n${inner}`],
    ['Content-Length with Transfer-Encoding: chunked', `POST /v1/sandbox/wallet/fund HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${world.key}\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${inner}`],
  ];
  for (const [what, request] of rows) {
    const text = await read_all(server.port, Buffer.from(request, 'latin1'));
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
    t.ok(!text.includes('"email"'), `${what}: the smuggled GET /v1/account was not answered (statuses ${statuses.join(', ')})`);
    // uWS answers CL + TE with 400 itself; for two Content-Lengths billvend closes the connection
    // without an answer (docs/decisions.md "Bodies and headers": uWS cannot send a 400 and stop parsing the buffered rest).
    t.ok(statuses.length === 0 || (statuses[0] === 400 && statuses.length === 1), `${what}: the message is refused (400, or the connection closed unanswered): ${statuses.join(', ')}`);
  }
  t.equal(await still_serving(world), null, 'the server still serves');
});

// Known limitations of uWebSockets.js v20 (uws-pack 20.0.8, the version this project is pinned to),
// kept as todo tests so that they show in every run and turn green on an upgrade (docs/design.md "Known
// limitations"): a pipelined request behind an answer given after an await aborts both
// (uWebSockets.js #277, #1301), and a request line split across TCP segments before its CRLF is
// answered 505 (uWebSockets #1776).
t.test('pipelined requests behind one that is answered after its journal commit are each answered, in order', { todo: 'uWebSockets.js v20 drops pipelined requests behind a deferred answer (#277, #1301)' }, async (t) => {
  // HTTP/1.1 lets a client send requests without waiting for answers. A POST is answered only once
  // its commit is durable (after the handler returned); the requests behind it must still be served.
  const before = await snapshot(observer);
  const fund = `POST /v1/sandbox/wallet/fund HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${world.key}\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n{"amount":1.25}`;
  const wallet = `GET /v1/wallet HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${world.key}\r\n\r\n`;
  const text = await read_all(server.port, Buffer.from(fund + wallet, 'latin1'));
  requests_sent += 2;
  const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
  const after = await snapshot(observer);
  const credited = JSON.parse(after).entries.test[0] > JSON.parse(before).entries.test[0];
  t.same(statuses, [201, 200], `a pipelined top-up and a balance read get 201 and 200 (got ${JSON.stringify(statuses)}; the top-up was ${credited ? '' : 'not '}credited)`);
});

t.test('pipelined reads of a quiet account on one connection are each answered, in order', async (t) => {
  // A fresh account with no endpoint and nothing in flight: every read is answered at once.
  const quiet = await server.create_account();
  const key = (await server.create_key(quiet.id, { rate_limit_per_minute: 1000 })).api_key;
  // A key's first use in a minute persists its last_used_at, and that answer waits for the commit:
  // use it once first, so that the pipelined reads below are all answered at once.
  t.equal((await server.api('GET', '/v1/account', { key })).status, 200, 'the quiet account\'s key works');
  const paths = ['/v1/account', '/v1/wallet', '/v1/nowhere', '/v1/keys', '/v1/transactions?per_page=1'];
  const bytes = paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`).join('');
  const text = await read_all(server.port, Buffer.from(bytes, 'latin1'));
  requests_sent += paths.length;
  const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
  t.same(statuses, [200, 200, 404, 200, 200], 'five pipelined requests get five answers in order');
});

/** Writes bytes one at a time, delay_ms apart. */
function trickle(bytes: Buffer, delay_ms: number): (socket: Socket) => Promise<void> {
  return async (socket) => {
    for (let i = 0; i < bytes.length; i++) {
      if (socket.destroyed) return;
      socket.write(bytes.subarray(i, i + 1));
      await new Promise((resolve) => setTimeout(resolve, delay_ms));
    }
  };
}

t.test('a valid request that arrives in pieces is served, wherever the pieces split it', { todo: 'uWebSockets v20 answers 505 to a request line split before its CRLF (#1776)' }, async (t) => {
  // TCP may cut a request anywhere; a slow client sends it a byte at a time. Either way it is the
  // same request and must get the same answer.
  const wallet = catalog.routes.find((r) => r.name === 'GET /v1/wallet')!;
  const fund = catalog.routes.find((r) => r.name === 'POST /v1/sandbox/wallet/fund')!;
  const bytes = to_wire(wallet.build(world));
  const line_end = bytes.indexOf('\r\n');
  const splits: [string, number][] = [
    ['inside the method', 2],
    ['inside the path', 8],
    ['before the HTTP version', line_end - 8],
    ['inside the HTTP version', line_end - 3],
    ['before the end of the request line', line_end],
    ['inside the headers', line_end + 10],
  ];
  for (const [where, at] of splits) {
    requests_sent++;
    const response = await exchange(server.port, null, {
      timeout_ms: 20_000,
      write: async (socket) => {
        socket.write(bytes.subarray(0, at));
        await new Promise((resolve) => setTimeout(resolve, 30));
        socket.write(bytes.subarray(at));
      },
    });
    t.equal(response.status, 200, `GET /v1/wallet split ${where} (after ${JSON.stringify(bytes.subarray(0, at).toString('latin1').slice(-12))}) is served: ${response.status} ${response.body.slice(0, 80)}`);
  }
  for (const route of [wallet, fund]) {
    const whole = to_wire(route.build(world));
    requests_sent++;
    const response = await exchange(server.port, null, { write: trickle(whole, 3), timeout_ms: 30_000 });
    t.ok(response.status === 200 || response.status === 201, `${route.name} sent byte by byte (${whole.length} bytes, 3 ms apart) is served: ${response.status} ${response.body.slice(0, 80)}`);
  }
});

interface Stalled {
  what: string;
  closed_after_ms: number | null;
  answer: string;
}

/** Opens a connection that sends `first` and then (optionally) one byte per second, and records when the server closes it. */
function stall(what: string, first: string, drip: string | null, give_up_ms: number): Promise<Stalled> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(server.port, '127.0.0.1');
    let answer = '';
    let drip_timer: NodeJS.Timeout | null = null;
    const give_up = setTimeout(() => {
      if (drip_timer !== null) clearInterval(drip_timer);
      socket.destroy();
      resolve({ what, closed_after_ms: null, answer });
    }, give_up_ms);
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(give_up);
      if (drip_timer !== null) clearInterval(drip_timer);
      resolve({ what, closed_after_ms: performance.now() - started, answer });
    });
    socket.on('connect', () => {
      socket.write(first);
      if (drip !== null) drip_timer = setInterval(() => socket.write(drip), 1000);
    });
  });
}

t.test('stalled and dribbling requests do not hold up other clients, change nothing, and are closed by the server\'s idle timeout', async (t) => {
  const before = await snapshot(observer);
  const give_up_ms = 45_000;
  const fund_head = `POST /v1/sandbox/wallet/fund HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${world.key}\r\nContent-Type: application/json\r\nX-Idempotency-Key: stalled-${Date.now()}\r\nContent-Length: 200\r\n\r\n`;
  const stalls: Promise<Stalled>[] = [];
  for (let i = 0; i < 10; i++) {
    stalls.push(stall('headers stalled', `GET /v1/wallet HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${world.key}\r\n`, null, give_up_ms));
    stalls.push(stall('body stalled after 20 of 200 bytes', fund_head + '{"amount": 1000, "re', null, give_up_ms));
    stalls.push(stall('body dribbling one byte a second', fund_head + '{"amount": 1000, "reference": "', 'a', give_up_ms));
    stalls.push(stall('headers dribbling one line a second', `GET /v1/wallet HTTP/1.1\r\nHost: 127.0.0.1\r\n`, 'X-Slow: 1\r\n', give_up_ms));
  }
  // Meanwhile other clients are served as usual.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const latencies: number[] = [];
  for (let round = 0; round < 10; round++) {
    const answers = await Promise.all(Array.from({ length: 10 }, () => answer(catalog.routes.find((r) => r.name === 'GET /v1/wallet')!.build(world))));
    for (const response of answers) {
      latencies.push(response.duration_ms);
      if (response.status !== 200) t.fail(`a normal request during the stall answered ${response.status}`);
    }
  }
  latencies.sort((a, b) => a - b);
  t.equal(latencies.length, 100, '100 normal requests were answered while 40 connections stalled');
  t.ok(latencies[latencies.length - 1] < 5000, `no normal request waited 5 s (slowest ${Math.round(latencies[latencies.length - 1])} ms, median ${Math.round(latencies[50])} ms)`);
  const results = await Promise.all(stalls);
  for (const kind of [...new Set(results.map((r) => r.what))]) {
    const of_kind = results.filter((r) => r.what === kind);
    const closed = of_kind.filter((r) => r.closed_after_ms !== null).map((r) => r.closed_after_ms!);
    t.equal(closed.length, of_kind.length, `${kind}: the server closed all ${of_kind.length} connections within ${give_up_ms / 1000} s`);
    if (closed.length > 0) {
      t.comment(`${kind}: closed by the server after ${(Math.min(...closed) / 1000).toFixed(1)}–${(Math.max(...closed) / 1000).toFixed(1)} s`);
      t.ok(Math.min(...closed) > 2000, `${kind}: not cut off before 2 s (a slow client on a bad link still gets through): ${Math.round(Math.min(...closed))} ms`);
    }
    t.ok(of_kind.every((r) => !/HTTP\/1\.1 [25]\d\d/.test(r.answer)), `${kind}: no stalled request was served or answered with a 5xx`);
  }
  t.equal(await snapshot(observer), before, 'the stalled top-ups credited nothing');
  t.equal(await still_serving(world), null, 'the server still serves');
});

const header_line = fc.oneof(
  fc.constantFrom('Host: 127.0.0.1', `Authorization: Bearer ${world.key}`, 'Content-Length: 5', 'Content-Length: -5', 'Content-Length: 0x10', 'Content-Length: 5, 5', 'Content-Length: 12', 'Transfer-Encoding: chunked', 'Transfer-Encoding: gzip, chunked', 'Transfer-Encoding: identity', 'Content-Type: application/json', ' folded: continuation', 'NoColonHere', ': empty-name', 'X-A:\u0000b', `X-Long: ${'x'.repeat(9000)}`, 'Connection: close', 'Expect: 100-continue', 'Upgrade: websocket', 'X-Idempotency-Key: garbled', `Cookie: bv_session=${'a'.repeat(43)}`),
  fc.tuple(fc.string({ unit: 'binary-ascii', maxLength: 12 }), fc.string({ unit: 'binary-ascii', maxLength: 30 })).map(([n, v]) => `${n}: ${v}`),
);
const garbled_body = fc.oneof(fc.constant(''), fc.constantFrom('{"amount":5}', '{"amount":5.5,"reference":"G"}', '0\r\n\r\n', '5\r\nhello\r\n0\r\n\r\n', 'zz\r\n'), fc.string({ unit: 'binary', maxLength: 40 }));
const request_line = fc.tuple(
  fc.oneof(fc.constantFrom('GET', 'POST', 'DELETE', 'PATCH', 'PUT', 'OPTIONS', 'CONNECT', 'TRACE', 'PRI', 'get', '', 'G ET', 'POST\u0000'), fc.string({ unit: 'binary-ascii', maxLength: 10 })),
  fc.oneof(
    fc.constantFrom('/v1/wallet', '/v1/keys', '/v1/sandbox/wallet/fund', '*', 'http://127.0.0.1/v1/wallet', '//v1/wallet', '/v1/wallet#frag', '/v1/wallet?%', '', ' ', '/v1/../../etc/passwd', `/v1/${'a'.repeat(6000)}`, '/dashboard/api/session', '/admin/accounts'),
    fc.string({ unit: 'binary-ascii', maxLength: 40 }),
  ),
  fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1x', 'http/1.1', '', 'HTTP/0.9', 'HTTP/1.1 extra'),
).map(([method, target, version]) => `${method} ${target} ${version}`);
/** A well-formed request line of a real route, so that garbled headers and bodies reach billvend. */
const good_line = fc.constantFrom('GET /v1/wallet HTTP/1.1', 'POST /v1/sandbox/wallet/fund HTTP/1.1', 'POST /v1/keys HTTP/1.1', 'DELETE /v1/keys/999 HTTP/1.1', 'GET /dashboard/api/overview HTTP/1.1', 'POST /v1/funding/bank-transfer HTTP/1.1');
const garbled_request: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)) },
  { weight: 2, arbitrary: fc.tuple(request_line, fc.array(header_line, { maxLength: 6 }), garbled_body).map(([line, headers, body]) => Buffer.from(`${line}\r\n${headers.join('\r\n')}\r\n\r\n${body}`, 'utf8')) },
  { weight: 3, arbitrary: fc.tuple(good_line, fc.array(header_line, { maxLength: 6 }), garbled_body).map(([line, headers, body]) => Buffer.from(`${line}\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${world.key}\r\n${headers.join('\r\n')}\r\n\r\n${body}`, 'utf8')) },
);

t.test('garbled request lines, header blocks and random bytes never get a 500 or crash the server', async (t) => {
  const before = await snapshot(observer);
  const problems: string[] = [];
  let runs = 0;
  const statuses = new Map<string, number>();
  const details = await fc.check(fc.asyncProperty(fc.array(garbled_request, { minLength: 8, maxLength: 8 }), async (batch) => {
    runs++;
    await Promise.all(batch.map(async (bytes) => {
      requests_sent++;
      // Bytes that announce more than they send wait for the idle timeout: give up early instead.
      const response = await exchange(server.port, bytes, { timeout_ms: 400 }).then((r) => r, (e: Error) => e);
      if (response instanceof Error) {
        // Closing the connection without an answer is a fair reply to bytes that are not HTTP, and
        // so is waiting for the rest of a request that never comes (the idle timeout ends it).
        statuses.set('closed or waiting', (statuses.get('closed or waiting') ?? 0) + 1);
        return;
      }
      statuses.set(String(response.status), (statuses.get(String(response.status)) ?? 0) + 1);
      const verdict = judge(response);
      for (const problem of verdict.problems) problems.push(`${problem} — ${JSON.stringify(bytes.subarray(0, 200).toString('latin1'))}`);
    }));
    const serving = await still_serving(world);
    if (serving !== null) {
      problems.push(`the server stopped serving after: ${batch.map((b) => JSON.stringify(b.subarray(0, 120).toString('latin1'))).join(' || ')}`);
      return false;
    }
    return true;
  }), { numRuns: Math.ceil(20 * scale), seed, endOnFailure: true });
  t.comment(`seed ${seed}: ${runs} runs of 8 garbled requests; answers ${[...statuses].map(([s, n]) => `${s}×${n}`).join(' ')}`);
  t.notOk(details.failed, `the server kept serving through every garbled request${details.failed ? `: ${problems.at(-1)}` : ''}`);
  t.same(problems.slice(0, 10), [], 'every answer to a garbled request passed every check');
  const after = await snapshot(observer);
  t.equal(after, before, `garbled requests changed nothing${after === before ? '' : `: ${snapshot_difference(before, after)}`}`);
});

// ---- Non-ASCII and control bytes in the headers billvend acts on (issue "Hardening from a hostile
// review") ----------------------------------------------------------------------------------------

/**
 * What uWebSockets.js v20 hands billvend of a header value: null when it holds a control byte (uWS then
 * never parses the request), else the value with bytes below 33 or above 127 trimmed off both ends
 * (it compares signed chars), everything inside kept byte for byte.
 */
function as_uws_delivers(value: Buffer): Buffer | null {
  if (value.some((byte) => byte < 0x20 && byte !== 0x09)) return null;
  let start = 0;
  let end = value.length;
  while (end > start && (value[end - 1] < 33 || value[end - 1] > 127)) end--;
  while (start < end && (value[start] < 33 || value[start] > 127)) start++;
  return value.subarray(start, end);
}

/** A run of bytes: printable ASCII, Latin-1 and UTF-8 of any script, DEL, space, tab and control bytes (never CR or LF). */
const header_noise: fc.Arbitrary<Buffer> = fc.array(fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 3 }).map((text) => Buffer.from(text, 'latin1')) },
  { weight: 3, arbitrary: fc.integer({ min: 0x80, max: 0xff }).map((byte) => Buffer.from([byte])) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 2 }).map((text) => Buffer.from(text, 'utf8')) },
  { weight: 1, arbitrary: fc.constantFrom(Buffer.from([0x7f]), Buffer.from(' '), Buffer.from('\t'), Buffer.from('\u202e\u0000', 'utf8'), Buffer.from('\ud800', 'utf8')) },
  { weight: 1, arbitrary: fc.integer({ min: 0x00, max: 0x1f }).filter((byte) => byte !== 0x0d && byte !== 0x0a).map((byte) => Buffer.from([byte])) },
), { maxLength: 4 }).map((parts) => Buffer.concat(parts));

type FuzzedHeader = 'X-Idempotency-Key' | 'Authorization' | 'Content-Type' | 'Origin' | 'X-CSRF-Token';

interface HeaderCase {
  header: FuzzedHeader;
  /** The header's value: noise around (or, for the key, in the middle of) a value that would work. */
  value: Buffer;
}

let fuzz_key_counter = 0;
/** A dashboard session of the world's account, signed in afresh (earlier tests sign the world's own out). */
let fuzz_session = world.session;
const header_case: fc.Arbitrary<HeaderCase> = fc.tuple(
  fc.constantFrom<FuzzedHeader>('X-Idempotency-Key', 'X-Idempotency-Key', 'Authorization', 'Content-Type', 'Origin', 'X-CSRF-Token'),
  header_noise, header_noise, header_noise, fc.boolean(),
).map(([header, before, inside, after, bare]) => {
  const good: Record<FuzzedHeader, string> = {
    'X-Idempotency-Key': `hb-${seed}-${++fuzz_key_counter}-${Date.now()}`,
    Authorization: `Bearer ${world.key}`,
    'Content-Type': 'application/json',
    Origin: 'https://app.billvend.ng',
    'X-CSRF-Token': fuzz_session.csrf,
  };
  const text = good[header];
  // A value of noise alone (an idempotency key of "é"), or noise around and inside a working value.
  const value = bare ? Buffer.concat([before, inside]) : Buffer.concat([before, Buffer.from(text.slice(0, 6)), inside, Buffer.from(text.slice(6)), after]);
  return { header, value };
});

function header_block(headers: [string, Buffer | string][]): Buffer {
  return Buffer.concat(headers.map(([name, value]) => Buffer.concat([Buffer.from(`${name}: `), typeof value === 'string' ? Buffer.from(value, 'latin1') : value, Buffer.from('\r\n')])));
}

/** A purchase of 50 NGN (or, for X-CSRF-Token, a dashboard change that finds nothing) carrying the fuzzed header. */
function header_case_request(c: HeaderCase): Buffer {
  if (c.header === 'X-CSRF-Token') {
    return Buffer.concat([Buffer.from('DELETE /dashboard/api/keys/999999 HTTP/1.1\r\nHost: 127.0.0.1\r\n'), header_block([['Cookie', `bv_session=${fuzz_session.cookie}`], ['X-CSRF-Token', c.value]]), Buffer.from('\r\n')]);
  }
  const body = JSON.stringify({ network: 'mtn', phone: '08011111111', amount: 50, pin: world.pin });
  const headers: [string, Buffer | string][] = [
    ['Authorization', c.header === 'Authorization' ? c.value : `Bearer ${world.key}`],
    ['Content-Type', c.header === 'Content-Type' ? c.value : 'application/json'],
    ['X-Idempotency-Key', c.header === 'X-Idempotency-Key' ? c.value : `hb-${seed}-${++fuzz_key_counter}-${Date.now()}`],
  ];
  if (c.header === 'Origin') headers.push(['Origin', c.value]);
  return Buffer.concat([Buffer.from('POST /v1/services/airtime HTTP/1.1\r\nHost: 127.0.0.1\r\n'), header_block(headers), Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)]);
}

async function test_order_total(): Promise<number> {
  return (await server.api('GET', '/v1/transactions?per_page=1', { key: world.key })).body.data.pagination.total;
}

t.test('non-ASCII and control bytes in every header that matters never get a 500 or a stack trace, and never buy under a mangled key', async (t) => {
  const problems: string[] = [];
  const outcomes = new Map<string, number>();
  let created = 0;
  let runs = 0;
  fuzz_session = await sign_in(server, world.email, world.password);
  const orders_before = await test_order_total();
  const details = await fc.check(fc.asyncProperty(fc.array(header_case, { minLength: 8, maxLength: 8 }), async (batch) => {
    runs++;
    await Promise.all(batch.map(async (c) => {
      requests_sent++;
      const shown = `${c.header}: ${JSON.stringify(c.value.toString('latin1'))}`;
      const delivered = as_uws_delivers(c.value);
      const response = await exchange(server.port, header_case_request(c), { timeout_ms: 400 }).then((r) => r, (e: Error) => e);
      if (response instanceof Error) {
        // uWS leaves a request with a control byte unparsed until its idle timeout: nothing runs.
        if (delivered !== null) problems.push(`${shown}: no answer (${response.message})`);
        outcomes.set('unanswered', (outcomes.get('unanswered') ?? 0) + 1);
        return;
      }
      outcomes.set(String(response.status), (outcomes.get(String(response.status)) ?? 0) + 1);
      for (const problem of judge(response).problems) problems.push(`${shown}: ${problem}`);
      if (response.status === 201 && header(response, 'idempotent-replayed') === undefined) created++;
      if (delivered === null) {
        problems.push(`${shown}: answered ${response.status} although it holds a control byte`);
        return;
      }
      // Whatever of the value reaches billvend: a byte outside printable ASCII in it, or a key header
      // that arrives empty, is refused before anything is bought.
      const must_refuse = delivered.some((byte) => byte > 0x7e) || (c.header === 'X-Idempotency-Key' && delivered.length === 0);
      if (must_refuse) {
        let body: any = undefined;
        try {
          body = JSON.parse(response.body);
        } catch {
          // judged above
        }
        const fields = (body?.error?.details ?? []).map((d: { field: string }) => d.field);
        if (response.status !== 400 || body?.error?.code !== 'validation.failed' || fields[0] !== c.header) {
          problems.push(`${shown}: expected 400 validation.failed on ${c.header}, got ${response.status} ${response.body.slice(0, 160)}`);
        }
      }
    }));
    return problems.length === 0;
  }), { numRuns: Math.ceil(12 * scale), seed, endOnFailure: true });
  t.comment(`seed ${seed}: ${runs} runs of 8 requests with hostile header bytes; answers ${[...outcomes].map(([s, n]) => `${s}×${n}`).join(' ')}`);
  t.notOk(details.failed, `every request with hostile header bytes was answered as it should be${details.failed ? `: ${problems[0]}` : ''}`);
  t.same(problems.slice(0, 10), [], 'no 500, no stack trace, and every byte that reached billvend outside printable ASCII was refused');
  t.equal(await test_order_total(), orders_before + created, `only answered purchases made orders (${created} created, each with a 201 of its own)`);
  t.equal(await still_serving(world), null, 'the server still serves');
});

t.test('the server logged no error or fatal line and still answers normal requests', async (t) => {
  t.comment(`${requests_sent} raw requests over ${catalog.routes.length} routes in this file`);
  t.equal(await still_serving(world), null, '/readyz is 200 and GET /v1/account is 200');
  t.same(error_log_lines(server).map((line) => line.slice(0, 400)), [], 'no log line at level error or fatal');
  t.same(server.stderr.filter((chunk) => chunk.trim() !== ''), [], 'nothing on stderr');
});
