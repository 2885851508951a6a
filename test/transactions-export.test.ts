// GET /v1/transactions/export (docs/api.md "Transactions export"): CSV streamed in chunks, one header
// row, the list item's fields plus amount_charged, commission, client_reference and metadata; from and to
// required and at most 31 days apart; the list's filters apply; a client that goes away mid-stream
// leaves the server serving.
import t from 'tap';
import { connect } from 'node:net';
import { start_server } from './helpers/server.js';
import { buy_airtime, check_error, fast_reseller, sandbox } from './helpers/purchases.js';

const server = await start_server(t, { env: { TIME_SCALE: '0.001', LOG_LEVEL: 'warn' } });

const header_row = 'reference,service_type,recipient,amount,status,created_at,amount_charged,commission,client_reference,metadata,subscription_type,quantity';
/** More than two chunks of the export (500 rows each), so the stream's continuation is exercised. */
const large_count = 1_203;

function lagos_date(offset_days: number): string {
  return new Date(Date.now() + 3_600_000 + offset_days * 86_400_000).toISOString().slice(0, 10);
}

function rows_of(text: string): string[][] {
  t.ok(text.endsWith('\r\n'), 'the CSV ends with a line end');
  return text.slice(0, -2).split('\r\n').map((line) => line.split(','));
}

const account = await fast_reseller(server, 1_000_000);
const references: string[] = [];
/** Runs the purchases eight at a time: quick, without flooding a shared machine. */
async function in_parallel(count: number, width: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) await work(next++);
  }));
}

await in_parallel(large_count, 8, async (i) => {
  const phone = i % 3 === 0 ? '08031112222' : '08031113333';
  const response = await buy_airtime(server, account.key, i === 7 ? sandbox.failed : phone, 100 + (i % 10));
  const reference = response.body?.data?.reference ?? response.body?.error?.reference;
  if (typeof reference !== 'string') throw new Error(`purchase ${i}: ${response.status} ${response.text}`);
  references.push(reference);
});

t.test('an export of a range with no order is the header row alone, as text/csv', async (t) => {
  const response = await server.api('GET', '/v1/transactions/export?from=2020-01-01&to=2020-01-31', { key: account.key });
  t.equal(response.status, 200, 'the empty export is 200');
  t.match(response.headers.get('content-type') ?? '', /^text\/csv/, 'it is text/csv');
  t.match(response.headers.get('content-disposition') ?? '', /^attachment; filename="billvend-test-transactions-2020-01-01-2020-01-31\.csv"$/, 'it is a download named after the range');
  t.equal(response.text, header_row + '\r\n', 'it holds the header row and nothing else');
});

t.test('an export of a large range streams every order once, newest first, with the list\'s fields', async (t) => {
  const response = await server.api('GET', `/v1/transactions/export?from=${lagos_date(-1)}&to=${lagos_date(1)}`, { key: account.key });
  t.equal(response.status, 200, 'the export is 200');
  t.equal(response.headers.get('transfer-encoding'), 'chunked', 'it is streamed in chunks');
  const [header, ...rows] = rows_of(response.text);
  t.equal(header.join(','), header_row, 'the header row names the list\'s fields and the six later columns');
  t.equal(rows.length, large_count, `all ${large_count} orders are exported`);
  t.equal(new Set(rows.map((r) => r[0])).size, large_count, 'each order once');
  t.same(new Set(rows.map((r) => r[0])), new Set(references), 'exactly this account\'s orders');
  const list = await server.api('GET', '/v1/transactions?per_page=3', { key: account.key });
  t.same(rows.slice(0, 3).map((r) => r[0]), list.body.data.transactions.map((o: { reference: string }) => o.reference), 'newest first, as the list');
  const first = list.body.data.transactions[0];
  t.same(rows[0].slice(0, 6), [first.reference, first.service_type, first.recipient, first.amount.toFixed(2), first.status, first.created_at], 'a row carries the list item\'s values');
  t.same(rows[0].slice(6), [first.amount_charged.toFixed(2), first.commission.toFixed(2), '', '', '', ''], 'amount_charged and commission as the list shows them; client_reference, metadata, subscription_type and quantity empty');
  const failed = rows.filter((r) => r[4] === 'failed');
  t.equal(failed.length, 1, 'the failed order is listed failed');
  t.ok(rows.filter((r) => r[4] !== 'failed').every((r) => r[4] === 'successful'), 'the delivered ones are listed successful');
});

t.test('the list\'s filters apply to the export', async (t) => {
  const response = await server.api('GET', `/v1/transactions/export?from=${lagos_date(0)}&to=${lagos_date(0)}&recipient=08031112222&status=successful`, { key: account.key });
  t.equal(response.status, 200, 'the filtered export is 200');
  const [, ...rows] = rows_of(response.text);
  const expected = Array.from({ length: large_count }, (_, i) => i).filter((i) => i % 3 === 0 && i !== 7).length;
  t.equal(rows.length, expected, 'exactly the successful orders of that recipient');
  t.ok(rows.every((r) => r[2] === '08031112222' && r[4] === 'successful'), 'each row matches the filters');
  const bad = await server.api('GET', `/v1/transactions/export?from=${lagos_date(0)}&to=${lagos_date(0)}&status=done`, { key: account.key });
  check_error(t, bad, 400, 'validation.failed', 'a bad filter on the export');
});

t.test('an export covers at most 31 days: the edge is accepted, one day or one microsecond more refused', async (t) => {
  const accepted = [
    'from=2026-01-01&to=2026-01-31',
    'from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z',
    'from=2026-01-01T00:00:00Z&to=2026-01-31T23:59:59.999999Z',
    'from=2026-03-05&to=2026-03-05',
  ];
  for (const query of accepted) {
    const response = await server.api('GET', `/v1/transactions/export?${query}`, { key: account.key });
    t.equal(response.status, 200, `${query}: accepted (${response.text.slice(0, 120)})`);
  }
  const refused: [string, string][] = [
    ['from=2026-01-01&to=2026-02-01', 'to'],
    ['from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00.000001Z', 'to'],
    ['from=2026-01-01', 'to'],
    ['to=2026-01-31', 'from'],
    ['', 'from'],
    ['from=2026-01-31&to=2026-01-01', 'to'],
  ];
  for (const [query, field] of refused) {
    const response = await server.api('GET', `/v1/transactions/export?${query}`, { key: account.key });
    check_error(t, response, 400, 'validation.failed', query || 'no range');
    t.same(response.body.error.details?.map((d: { field: string }) => d.field), [field], `${query || 'no range'}: the details name ${field}`);
  }
});

t.test('a client that goes away in the middle of an export leaves the server serving', async (t) => {
  for (let round = 0; round < 3; round++) {
    await new Promise<void>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1');
      socket.on('error', () => resolve());
      socket.on('connect', () => {
        socket.write(`GET /v1/transactions/export?from=${lagos_date(-1)}&to=${lagos_date(1)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${account.key}\r\n\r\n`);
      });
      socket.once('data', () => {
        socket.destroy();
        resolve();
      });
      setTimeout(() => reject(new Error('no answer to the export')), 20_000);
    });
  }
  const after = await server.api('GET', '/v1/transactions?per_page=1', { key: account.key });
  t.equal(after.status, 200, 'the server answers after three abandoned exports');
  const whole = await server.api('GET', `/v1/transactions/export?from=${lagos_date(-1)}&to=${lagos_date(1)}`, { key: account.key });
  t.equal(whole.text.split('\r\n').length - 2, large_count, 'and a full export still holds every order');
});

t.test('the export needs transactions:read, like the list', async (t) => {
  const key = await server.create_key(account.id, { scopes: ['wallet:read'] });
  const response = await server.api('GET', '/v1/transactions/export?from=2026-01-01&to=2026-01-02', { key: key.api_key });
  check_error(t, response, 403, 'auth.insufficient_scope', 'a wallet:read key');
});
