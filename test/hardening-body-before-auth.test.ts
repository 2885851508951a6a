// No body before authentication (docs/api.md "Limits"): a request's API key, session or operator token is
// checked from its headers before a byte of its body is read, so an unauthenticated request that declares
// a body is answered 401 at once and its connection closed, its body never read; and the body bytes the
// process holds at once are bounded (REQUEST_BODIES_BYTES_MAX, docs/operations.md), 503 past the bound.
// Before this, the 256 KiB body of a bulk order was read and held before its key was checked: 1,000
// unauthenticated connections sending it slowly took 244 MiB (the hostile review of 2026-11-27, finding 4).
import t from 'tap';
import { connect, type Socket } from 'node:net';
import { start_server, type TestServer } from './helpers/server.js';
import { raw_http } from './helpers/fixtures-http.js';
import { airtime_body, fast_reseller, sandbox } from './helpers/purchases.js';

/** The value of one unlabelled series in the operator's /metrics. */
async function metric(server: TestServer, name: string): Promise<number> {
  const text = (await server.admin('GET', '/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (line === undefined) throw new Error(`no series ${name}`);
  return Number(line.slice(name.length + 1));
}

/** A request head that declares a body of `length` bytes; the body itself is not sent. */
function head(path: string, length: number, headers: Record<string, string> = {}): string {
  const lines = [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json', `Content-Length: ${length}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return lines.join('\r\n') + '\r\n\r\n';
}

/** Opens a connection, sends a head (and maybe part of the body), and keeps the connection open. */
async function hold_open(port: number, bytes: string): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => {});
  socket.write(bytes);
  return socket;
}

/** A JSON body padded with trailing spaces (still valid JSON) to exactly `bytes` bytes. */
function padded(body: unknown, bytes: number): string {
  const text = JSON.stringify(body);
  if (Buffer.byteLength(text) > bytes) throw new Error('body longer than asked');
  return text + ' '.repeat(bytes - Buffer.byteLength(text));
}

t.test('an unauthenticated request declaring a body is refused 401 at once, its body never read', async (t) => {
  const server = await start_server(t);
  const rows: { what: string; path: string; length: number; headers: Record<string, string>; code: string }[] = [
    { what: 'a bulk order without Authorization', path: '/v1/services/bulk', length: 250 * 1024, headers: {}, code: 'auth.invalid_key' },
    { what: 'a bulk order with an unknown key', path: '/v1/services/bulk', length: 250 * 1024, headers: { Authorization: `Bearer bv_test_${'A'.repeat(40)}` }, code: 'auth.key_not_found' },
    { what: 'an airtime purchase without Authorization', path: '/v1/services/airtime', length: 15 * 1024, headers: {}, code: 'auth.invalid_key' },
    { what: 'a dashboard purchase without a session', path: '/dashboard/api/services/airtime', length: 15 * 1024, headers: {}, code: 'session.required' },
  ];
  for (const row of rows) {
    const started = Date.now();
    // Only the head is sent: a server that waits for the body answers nothing before the 2 s run out.
    const response = await raw_http(server.port, head(row.path, row.length, row.headers), 2_000);
    t.equal(response.status, 401, `${row.what}: 401 without the body`);
    t.equal(JSON.parse(response.body).error.code, row.code, `${row.what}: ${row.code}`);
    t.equal(response.headers.connection, 'close', `${row.what}: the connection is closed, nothing more of it is read`);
    t.ok(Date.now() - started < 1_500, `${row.what}: answered at once (${Date.now() - started} ms)`);
  }
  const operator = await raw_http(server.admin_port, head('/admin/accounts', 10_000, { Authorization: 'Bearer wrong' }), 2_000);
  t.equal(operator.status, 401, 'the operator API too refuses a wrong token before the body');
  t.equal(JSON.parse(operator.body).error.code, 'operator.unauthorized', 'as operator.unauthorized');
  t.equal(await metric(server, 'billvend_request_body_bytes_held'), 0, 'no body byte was taken for any of them');

  // The same routes with a known key read the body as before.
  const account = await fast_reseller(server, 1_000);
  const bought = await server.api('POST', '/v1/services/airtime', { key: account.key, body: airtime_body(sandbox.delivered, 100) });
  t.equal(bought.status, 201, 'an authenticated purchase is read and placed');
});

t.test('the body bytes held at once are bounded: the request that would pass REQUEST_BODIES_BYTES_MAX is 503', async (t) => {
  const server = await start_server(t, { env: { REQUEST_BODIES_BYTES_MAX: '20000' } });
  const account = await fast_reseller(server, 10_000);
  // One request declares 15,000 bytes and sends 10 of them: it holds its declared 15,000 from its first byte.
  const slow = await hold_open(server.port, head('/v1/services/airtime', 15_000, { Authorization: `Bearer ${account.key}` }) + '{"network"');
  const held = await (async () => {
    for (let i = 0; i < 200; i++) {
      const value = await metric(server, 'billvend_request_body_bytes_held');
      if (value === 15_000) return value;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return metric(server, 'billvend_request_body_bytes_held');
  })();
  t.equal(held, 15_000, 'the slow request holds its declared length');

  const buy = (bytes: number) => server.api('POST', '/v1/services/airtime', { key: account.key, raw_body: padded(airtime_body(sandbox.delivered, 100), bytes), headers: { 'content-type': 'application/json' } });
  const at_edge = await buy(5_000);
  t.equal(at_edge.status, 201, `a body of 5,000 bytes fits exactly (15,000 + 5,000 = 20,000): ${at_edge.text.slice(0, 200)}`);
  const past_edge = await buy(5_001);
  t.equal(past_edge.status, 503, 'a body of 5,001 bytes does not fit: 503');
  t.equal(past_edge.body?.error?.code, 'service.unavailable', 'as service.unavailable');
  t.equal(past_edge.headers.get('retry-after'), '1', 'with Retry-After: 1');
  t.type(past_edge.body?.request_id, 'string', 'in the spec\'s error shape');
  const stranger = await raw_http(server.port, head('/v1/services/bulk', 100_000), 2_000);
  t.equal(stranger.status, 401, 'an unauthenticated body is still 401, not 503: it never reaches the budget');

  slow.destroy();
  for (let i = 0; i < 200 && (await metric(server, 'billvend_request_body_bytes_held')) !== 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  t.equal(await metric(server, 'billvend_request_body_bytes_held'), 0, 'the aborted request gave its bytes back');
  const after = await buy(5_001);
  t.equal(after.status, 201, 'once it is gone the same body fits');
});
