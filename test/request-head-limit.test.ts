// The request head limit (docs/api.md "Limits"): a request line and headers up to 16 KiB are served; uWS's
// default of 4 KiB answered a 4,000-byte header with its own 431 page (outside OpenAPI tester, 2026-11-24).
import t from 'tap';
import { start_server } from './helpers/server.js';
import { raw_http } from './helpers/fixtures-http.js';

const server = await start_server(t);
const account = await server.reseller(0);

function get_with_header(bytes: number): string {
  return `GET /v1/account HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${account.key}\r\nX-Padding: ${'a'.repeat(bytes)}\r\nConnection: close\r\n\r\n`;
}

t.test('a request with a 4,000-byte header is served (it was 431 under the 4 KiB default)', async (t) => {
  const response = await raw_http(server.port, get_with_header(4_000));
  t.equal(response.status, 200, 'a 4,000-byte header is 200');
});

t.test('a request head of nearly 16 KiB is served', async (t) => {
  const response = await raw_http(server.port, get_with_header(15_000));
  t.equal(response.status, 200, 'a 15,000-byte header is 200');
});

t.test('a request head over 16 KiB is refused with 431 and never reaches a route', async (t) => {
  const response = await raw_http(server.port, get_with_header(17_000));
  t.equal(response.status, 431, 'a 17,000-byte header is 431');
});

t.test('a 4,000-digit query value is answered by billvend in its JSON shape, not by uWS', async (t) => {
  const response = await raw_http(server.port, `GET /v1/transactions?per_page=${'0'.repeat(4_000)}1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${account.key}\r\nConnection: close\r\n\r\n`);
  t.not(response.status, 431, 'the head is within the limit');
  t.equal(JSON.parse(response.body).success, response.status === 200, 'the answer is the JSON envelope');
  t.ok(response.headers['x-request-id'], 'with a request id');
});

t.test('a 10,000-character reference in the path is 404, not a 500 from the store\'s key limit', async (t) => {
  const reference = 'A'.repeat(10_000);
  const response = await raw_http(server.port, `GET /v1/transactions/${reference} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${account.key}\r\nConnection: close\r\n\r\n`);
  t.equal(response.status, 404, 'the long reference is 404');
  t.equal(JSON.parse(response.body).error.code, 'transaction.not_found', 'transaction.not_found');
});
