// The HTTP front end (docs/spec.md section 1 "Response envelope", section 7; docs/decisions.md "Errors we add";
// docs/api.md "Limits"): envelopes, request ids, routing errors, body limits and parsing, CORS, security
// headers, and the one-log-line-per-request rule.
import t from 'tap';
import { start_server, type ApiResponse } from './helpers/server.js';
import { raw_http, request_log_lines, stack_trace_in, log_records, wait_for } from './helpers/fixtures-http.js';

const allowed_origin = 'https://app.example.ng';
const server = await start_server(t, { env: { CORS_ORIGINS: allowed_origin } });
// A generous rate limit: this file makes many requests with one key and is not about the limit.
const reseller = await server.reseller(1000, {}, { rate_limit_per_minute: 100_000 });

/** Every error answer this file sees, checked at the end for stack traces. */
const error_answers: { what: string; text: string }[] = [];

function remember(what: string, response: ApiResponse): ApiResponse {
  if (response.status >= 400) error_answers.push({ what, text: response.text });
  return response;
}

function json_body_of_length(bytes: number): string {
  const head = '{"name":"edge","environment":"test","pad":"';
  const tail = '"}';
  const body = head + 'x'.repeat(bytes - head.length - tail.length) + tail;
  if (Buffer.byteLength(body) !== bytes) throw new Error('json_body_of_length: wrong length');
  return body;
}

t.test('a successful answer is the spec success envelope and its request_id is the X-Request-Id header', async (t) => {
  const response = await server.api('GET', '/v1/wallet', { key: reseller.key });
  t.equal(response.status, 200, 'GET /v1/wallet is 200');
  t.same(Object.keys(response.body).sort(), ['data', 'request_id', 'success'], 'a GET answer has exactly success, data and request_id');
  t.equal(response.body.success, true, 'success is true');
  t.type(response.body.data, 'object', 'data is an object');
  t.match(response.body.request_id, /^req_[0-9A-Za-z]+$/, 'request_id is a req_ id');
  t.equal(response.headers.get('x-request-id'), response.body.request_id, 'X-Request-Id equals the body request_id');
  t.match(response.headers.get('content-type') ?? '', /^application\/json/, 'the answer is JSON');

  const created = await server.api('POST', '/v1/keys', { key: reseller.key, body: { name: 'envelope', environment: 'test' } });
  t.equal(created.status, 201, 'POST /v1/keys is 201');
  t.same(Object.keys(created.body).sort(), ['data', 'message', 'request_id', 'success'], 'a creation answer also carries a message');
  t.type(created.body.message, 'string', 'message is a string');
  t.equal(created.headers.get('x-request-id'), created.body.request_id, 'X-Request-Id equals the body request_id on 201');
});

t.test('an error answer is the spec error envelope and its request_id is the X-Request-Id header', async (t) => {
  const response = remember('no key', await server.api('GET', '/v1/wallet'));
  t.equal(response.status, 401, 'a request without a key is 401');
  t.same(Object.keys(response.body).sort(), ['error', 'request_id', 'success'], 'an error has exactly success, error and request_id');
  t.equal(response.body.success, false, 'success is false');
  t.equal(response.body.error.code, 'auth.invalid_key', 'error.code is the stable code');
  t.type(response.body.error.message, 'string', 'error.message is a string');
  t.ok(response.body.error.message.length > 0, 'error.message is not empty');
  t.match(response.body.request_id, /^req_[0-9A-Za-z]+$/, 'request_id is a req_ id');
  t.equal(response.headers.get('x-request-id'), response.body.request_id, 'X-Request-Id equals the body request_id');
});

t.test('request ids are unique across requests, successful or not', async (t) => {
  const requests: Promise<ApiResponse>[] = [];
  for (let i = 0; i < 40; i++) {
    if (i % 4 === 0) requests.push(server.api('GET', '/v1/nowhere'));
    else if (i % 4 === 1) requests.push(server.api('GET', '/v1/wallet'));
    else requests.push(server.api('GET', '/v1/wallet', { key: reseller.key }));
  }
  const responses = await Promise.all(requests);
  const ids = responses.map((r) => r.body.request_id as string);
  t.equal(ids.filter((id) => typeof id === 'string' && id.length > 0).length, 40, 'every answer has a request_id');
  t.equal(new Set(ids).size, 40, '40 requests got 40 different request ids');
  t.ok(responses.every((r) => r.headers.get('x-request-id') === r.body.request_id), 'each X-Request-Id header equals its body request_id');
});

t.test('an unknown path is 404 route.not_found', async (t) => {
  const rows: [string, string][] = [
    ['GET', '/nowhere'],
    ['GET', '/v1/nowhere'],
    ['POST', '/v1/nowhere'],
    ['GET', '/v2/wallet'],
    ['GET', '/v1/wallet/nowhere'],
  ];
  for (const [method, path] of rows) {
    const response = remember(`${method} ${path}`, await server.api(method, path, { key: reseller.key }));
    t.equal(response.status, 404, `${method} ${path} is 404`);
    t.equal(response.body?.error?.code, 'route.not_found', `${method} ${path} is route.not_found`);
    t.equal(response.headers.get('x-request-id'), response.body?.request_id, `${method} ${path} carries its request id`);
  }
});

t.test('HEAD answers like GET without a body, for pages and API reads', async (t) => {
  for (const path of ['/v1/wallet', '/v1/account']) {
    const get = await server.api('GET', path, { key: reseller.key });
    const head = await server.api('HEAD', path, { key: reseller.key });
    t.equal(head.status, get.status, `HEAD ${path} has the status of GET`);
    t.equal(head.text, '', `HEAD ${path} has no body`);
    t.equal(head.headers.get('content-length'), String(Buffer.byteLength(get.text.replace(get.body.request_id, head.headers.get('x-request-id') ?? ''))), `HEAD ${path} announces the length of the GET body`);
  }
  const unauthorised = await server.api('HEAD', '/v1/wallet');
  t.equal(unauthorised.status, 401, 'HEAD is authenticated like GET');
});

t.test('a known path with another method is 405 route.method_not_allowed with an Allow header', async (t) => {
  const rows: [string, string, string[]][] = [
    ['PATCH', '/v1/keys', ['GET', 'HEAD', 'POST']],
    ['PUT', '/v1/keys', ['GET', 'HEAD', 'POST']],
    ['POST', '/v1/wallet', ['GET', 'HEAD']],
    ['PATCH', '/v1/keys/1', ['DELETE']],
    ['GET', '/v1/keys/1', ['DELETE']],
    ['DELETE', '/v1/account', ['GET', 'HEAD', 'PATCH']],
  ];
  for (const [method, path, allowed] of rows) {
    const response = remember(`${method} ${path}`, await server.api(method, path, { key: reseller.key }));
    t.equal(response.status, 405, `${method} ${path} is 405`);
    t.equal(response.body?.error?.code, 'route.method_not_allowed', `${method} ${path} is route.method_not_allowed`);
    const allow = (response.headers.get('allow') ?? '').split(',').map((m) => m.trim()).filter((m) => m !== '').sort();
    t.same(allow, [...allowed].sort(), `${method} ${path} has Allow: ${allowed.join(', ')}`);
  }
});

t.test('a body of exactly 16384 bytes is accepted and one of 16385 bytes is 413 request.too_large', async (t) => {
  const account = await server.reseller(0, {}, { rate_limit_per_minute: 1000 });
  const at_limit = await server.api('POST', '/v1/keys', {
    key: account.key,
    raw_body: json_body_of_length(16384),
    headers: { 'content-type': 'application/json' },
  });
  t.equal(at_limit.status, 201, 'a 16384-byte body is read, parsed and served (201)');
  t.equal(at_limit.body?.data?.name, 'edge', 'the 16384-byte body was parsed');

  const over = remember('16385 bytes', await server.api('POST', '/v1/keys', {
    key: account.key,
    raw_body: json_body_of_length(16385),
    headers: { 'content-type': 'application/json' },
  }));
  t.equal(over.status, 413, 'a 16385-byte body is 413');
  t.equal(over.body?.error?.code, 'request.too_large', 'a 16385-byte body is request.too_large');
  t.equal(over.headers.get('x-request-id'), over.body?.request_id, 'the 413 carries its request id');

  const list = await server.api('GET', '/v1/keys', { key: account.key });
  t.equal(list.body.data.keys.length, 2, 'only the 16384-byte request created a key');
});

t.test('a declared Content-Length over 16 KiB is 413 request.too_large before any body is sent', async (t) => {
  for (const length of [16385, 1_000_000, 1_000_000_000]) {
    const response = await raw_http(server.port, [
      'POST /v1/keys HTTP/1.1',
      'Host: 127.0.0.1',
      `Authorization: Bearer ${reseller.key}`,
      'Content-Type: application/json',
      `Content-Length: ${length}`,
      '',
      '',
    ].join('\r\n'));
    t.equal(response.status, 413, `Content-Length ${length} is answered 413 without sending the body`);
    const body = JSON.parse(response.body);
    t.equal(body.error.code, 'request.too_large', `Content-Length ${length} is request.too_large`);
    t.equal(response.headers['x-request-id'], body.request_id, `the 413 for ${length} carries its request id`);
    error_answers.push({ what: `Content-Length ${length}`, text: response.body });
  }
});

t.test('a body without Content-Type application/json is 415 request.unsupported_media_type', async (t) => {
  const body = JSON.stringify({ name: 'typed', environment: 'test' });
  const rows: [string, string | null][] = [
    ['text/plain', 'text/plain'],
    ['form', 'application/x-www-form-urlencoded'],
    ['json-ish', 'application/jsonx'],
    ['no Content-Type', null],
  ];
  for (const [what, content_type] of rows) {
    const response = remember(`415 ${what}`, await server.api('POST', '/v1/keys', {
      key: reseller.key,
      raw_body: Buffer.from(body),
      headers: content_type === null ? {} : { 'content-type': content_type },
    }));
    t.equal(response.status, 415, `${what} is 415`);
    t.equal(response.body?.error?.code, 'request.unsupported_media_type', `${what} is request.unsupported_media_type`);
  }
  const account = await server.reseller(0);
  for (const content_type of ['application/json; charset=utf-8', 'Application/JSON']) {
    const response = await server.api('POST', '/v1/keys', { key: account.key, raw_body: Buffer.from(body), headers: { 'content-type': content_type } });
    t.equal(response.status, 201, `Content-Type "${content_type}" is accepted`);
  }
});

t.test('a body that is not valid JSON is 400 request.malformed_json', async (t) => {
  const rows: [string, Buffer][] = [
    ['truncated JSON', Buffer.from('{"name": "half')],
    ['a trailing comma', Buffer.from('{"name": "x",}')],
    ['invalid UTF-8 bytes', Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('","environment":"test"}')])],
    ['an overlong UTF-8 encoding', Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('","environment":"test"}')])],
  ];
  for (const [what, raw_body] of rows) {
    const response = remember(what, await server.api('POST', '/v1/keys', { key: reseller.key, raw_body, headers: { 'content-type': 'application/json' } }));
    t.equal(response.status, 400, `${what} is 400`);
    t.equal(response.body?.error?.code, 'request.malformed_json', `${what} is request.malformed_json`);
  }
});

t.test('a JSON body that is not an object is 400 validation.failed', async (t) => {
  for (const text of ['[]', '[{"name":"x","environment":"test"}]', '42', 'null', '"name"', 'true']) {
    const response = remember(`body ${text}`, await server.api('POST', '/v1/keys', { key: reseller.key, raw_body: Buffer.from(text), headers: { 'content-type': 'application/json' } }));
    t.equal(response.status, 400, `body ${text} is 400`);
    t.equal(response.body?.error?.code, 'validation.failed', `body ${text} is validation.failed`);
    t.ok(Array.isArray(response.body?.error?.details) && response.body.error.details.length > 0, `body ${text} lists what is wrong in error.details`);
  }
});

t.test('a CORS preflight from an allowed origin gets 204 with the allowed methods and headers', async (t) => {
  const response = await server.api('OPTIONS', '/v1/keys', {
    headers: { origin: allowed_origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, x-idempotency-key' },
  });
  t.equal(response.status, 204, 'the preflight is 204');
  t.equal(response.headers.get('access-control-allow-origin'), allowed_origin, 'Access-Control-Allow-Origin is the origin');
  const methods = (response.headers.get('access-control-allow-methods') ?? '').split(',').map((m) => m.trim());
  t.ok(methods.includes('GET') && methods.includes('POST'), 'Access-Control-Allow-Methods lists GET and POST');
  const allow_headers = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',').map((h) => h.trim());
  for (const header of ['authorization', 'content-type', 'x-idempotency-key']) {
    t.ok(allow_headers.includes(header), `Access-Control-Allow-Headers lists ${header}`);
  }
  t.equal(response.text, '', 'the preflight has no body');

  const delete_preflight = await server.api('OPTIONS', '/v1/keys/7', { headers: { origin: allowed_origin, 'access-control-request-method': 'DELETE' } });
  t.equal(delete_preflight.status, 204, 'the preflight of DELETE /v1/keys/{id} is 204');
  t.match(delete_preflight.headers.get('access-control-allow-methods') ?? '', /DELETE/, 'it allows DELETE');
});

t.test('a CORS preflight from another origin gets no Access-Control-Allow-Origin', async (t) => {
  for (const origin of ['https://evil.example', 'https://app.example.ng.evil.example', 'http://app.example.ng', 'null']) {
    const response = await server.api('OPTIONS', '/v1/keys', { headers: { origin, 'access-control-request-method': 'POST' } });
    t.equal(response.headers.get('access-control-allow-origin'), null, `${origin} gets no Access-Control-Allow-Origin`);
    t.equal(response.headers.get('access-control-allow-methods'), null, `${origin} gets no Access-Control-Allow-Methods`);
  }
});

t.test('a request from an allowed origin carries Access-Control-Allow-Origin and Access-Control-Expose-Headers', async (t) => {
  const ok = await server.api('GET', '/v1/wallet', { key: reseller.key, headers: { origin: allowed_origin } });
  t.equal(ok.status, 200, 'the cross-origin read is served');
  t.equal(ok.headers.get('access-control-allow-origin'), allowed_origin, 'Access-Control-Allow-Origin is the origin');
  const exposed = (ok.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(',').map((h) => h.trim());
  for (const header of ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']) {
    t.ok(exposed.includes(header), `Access-Control-Expose-Headers lists ${header}`);
  }
  t.match(ok.headers.get('vary') ?? '', /origin/i, 'Vary names Origin');

  const failed = remember('cors 401', await server.api('GET', '/v1/wallet', { headers: { origin: allowed_origin } }));
  t.equal(failed.status, 401, 'the unauthenticated cross-origin read is 401');
  t.equal(failed.headers.get('access-control-allow-origin'), allowed_origin, 'the browser may read the error too');

  const foreign = await server.api('GET', '/v1/wallet', { key: reseller.key, headers: { origin: 'https://evil.example' } });
  t.equal(foreign.headers.get('access-control-allow-origin'), null, 'another origin gets no Access-Control-Allow-Origin');
});

t.test('every JSON answer of the API carries the API\'s headers and none of a browser\'s (test/response-headers.test.ts has the dashboard\'s)', async (t) => {
  const rows: [string, () => Promise<ApiResponse>][] = [
    ['a 200', () => server.api('GET', '/v1/wallet', { key: reseller.key })],
    ['a 401', () => server.api('GET', '/v1/wallet')],
    ['a 404', () => server.api('GET', '/v1/nowhere')],
    ['a 405', () => server.api('PATCH', '/v1/keys', { key: reseller.key })],
    ['a 400', () => server.api('GET', '/v1/wallet/transactions?per_page=0', { key: reseller.key })],
  ];
  for (const [what, send] of rows) {
    const response = remember(what, await send());
    t.equal(response.headers.get('x-content-type-options'), 'nosniff', `${what} has X-Content-Type-Options: nosniff`);
    t.equal(response.headers.get('cache-control'), 'no-store', `${what} has Cache-Control: no-store`);
    t.equal(response.headers.get('x-frame-options'), null, `${what} has no X-Frame-Options: JSON is never framed (docs/decisions.md "Response headers")`);
    t.equal(response.headers.get('content-security-policy'), null, `${what} has no Content-Security-Policy: nothing in JSON runs`);
  }
});

t.test('one JSON log line per request with request_id, account, route, status and duration_ms', async (t) => {
  const ok = await server.api('GET', '/v1/wallet', { key: reseller.key });
  const lines = await request_log_lines(server, ok.body.request_id);
  t.equal(lines.length, 1, 'the 200 has exactly one log line');
  t.equal(lines[0].account, reseller.id, 'the line names the account');
  t.equal(lines[0].route, 'GET /v1/wallet', 'the line names the route');
  t.equal(lines[0].status, 200, 'the line has the status');
  t.type(lines[0].duration_ms, 'number', 'the line has duration_ms');
  t.ok((lines[0].duration_ms as number) >= 0, 'duration_ms is not negative');

  const denied = await server.api('GET', '/v1/wallet');
  const denied_lines = await request_log_lines(server, denied.body.request_id);
  t.equal(denied_lines.length, 1, 'the 401 has exactly one log line');
  t.equal(denied_lines[0].status, 401, 'the 401 line has status 401');
  t.equal(denied_lines[0].account, null, 'the 401 line has no account');
  t.equal(denied_lines[0].route, 'GET /v1/wallet', 'the 401 line names the route');

  const lost = await server.api('GET', '/v1/nowhere');
  const lost_lines = await request_log_lines(server, lost.body.request_id);
  t.equal(lost_lines.length, 1, 'the 404 has exactly one log line');
  t.equal(lost_lines[0].status, 404, 'the 404 line has status 404');
  t.type(lost_lines[0].route, 'string', 'the 404 line names a route (bounded, not the raw path)');
  t.not(lost_lines[0].route, '/v1/nowhere', 'the 404 line does not use the raw path as the route');

  const created = await server.api('POST', '/v1/keys', { key: reseller.key, body: { name: 'logged', environment: 'test' } });
  t.equal(created.status, 201, 'a key was created');
  const created_lines = await request_log_lines(server, created.body.request_id);
  t.equal(created_lines.length, 1, 'the 201 has exactly one log line');
  t.equal(created_lines[0].status, 201, 'the 201 line has status 201');
  await wait_for(() => log_records(server).length > 0, 1000, 'log lines');
  t.notOk(server.logs.some((line) => line.includes(created.body.data.api_key)), 'no log line contains the new secret key');
  t.notOk(server.logs.some((line) => line.includes(reseller.key)), 'no log line contains the caller\'s key');
  t.ok(server.logs.every((line) => {
    try {
      JSON.parse(line);
      return true;
    } catch {
      return false;
    }
  }), 'every stdout line is JSON');
});

t.test('the log line of a request refused for its rate or its address names the key\'s account', async (t) => {
  const limited = await server.reseller(0, {}, { rate_limit_per_minute: 1 });
  await server.api('GET', '/v1/wallet', { key: limited.key });
  const over = remember('rate limited', await server.api('GET', '/v1/wallet', { key: limited.key }));
  t.equal(over.status, 429, 'the second request of a 1-per-minute key is 429');
  const over_lines = await request_log_lines(server, over.body.request_id);
  t.equal(over_lines.length, 1, 'the 429 has one log line');
  t.equal(over_lines[0].account, limited.id, 'the 429 line names the account whose key was limited');

  const fenced = await server.reseller(0, {}, { ip_allowlist: ['10.0.0.0/8'] });
  const blocked = remember('ip blocked', await server.api('GET', '/v1/wallet', { key: fenced.key }));
  t.equal(blocked.status, 403, 'a request from outside the allowlist is 403');
  const blocked_lines = await request_log_lines(server, blocked.body.request_id);
  t.equal(blocked_lines.length, 1, 'the 403 has one log line');
  t.equal(blocked_lines[0].account, fenced.id, 'the 403 line names the account whose key was used');
});

t.test('no error answer contains a stack trace or a file path', async (t) => {
  t.ok(error_answers.length >= 30, `the file collected ${error_answers.length} error answers to check`);
  for (const { what, text } of error_answers) {
    const pattern = stack_trace_in(text);
    t.equal(pattern, null, `the answer to ${what} has no stack frame or path${pattern === null ? '' : ` (matched ${pattern})`}`);
  }
});
