// The statement bounds through the real server (docs/operations.md "Nothing long on the event loop"): a
// statement holds at most STATEMENT_ENTRIES_MAX entries (a PDF STATEMENT_PDF_ENTRIES_MAX), past it 422
// statement.too_large saying how many and the bound; at most STATEMENT_BUILDS_MAX statements are built at once,
// past it 429 rate_limit.exceeded with Retry-After 1. Small bounds through the environment make the edges cheap
// to reach: N entries are served, N+1 refused; N builds at once run, the one more is refused.
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { check_error, sandbox } from './helpers/purchases.js';
import { lagos_day } from '../src/lib/time-format.js';
import { day_text } from '../src/services/statements.js';

t.setTimeout(120_000);

const today = () => day_text(lagos_day(Date.now()));

function statement(server: TestServer, key: string, format: 'json' | 'csv' | 'pdf') {
  return server.api('GET', `/v1/statements?date=${today()}&format=${format}`, { key });
}

t.test('entries per statement at the edge: STATEMENT_ENTRIES_MAX entries are served, one more is 422; a PDF at STATEMENT_PDF_ENTRIES_MAX', async (t) => {
  const server = await start_server(t, { env: { STATEMENT_ENTRIES_MAX: '7', STATEMENT_PDF_ENTRIES_MAX: '5' } });
  const reseller = await server.reseller(0);
  // Each operator credit is one wallet entry of today. A statement asked just after midnight in Lagos could
  // straddle two days: the day is read again at the end.
  const day = today();
  const credit = () => server.credit(reseller.id, 'test', 10);
  for (let i = 0; i < 5; i++) await credit();

  const pdf_at_edge = await statement(server, reseller.key, 'pdf');
  t.equal(pdf_at_edge.status, 200, 'five entries in a PDF with STATEMENT_PDF_ENTRIES_MAX 5: served');
  t.equal(pdf_at_edge.headers.get('content-type'), 'application/pdf', 'as a PDF');
  await credit();
  const pdf_over = await statement(server, reseller.key, 'pdf');
  check_error(t, pdf_over, 422, 'statement.too_large', 'six entries in a PDF');
  t.equal(pdf_over.body.error.entries, 6, 'it says how many entries the day has');
  t.equal(pdf_over.body.error.entries_max, 5, 'and the bound of a PDF');
  t.match(pdf_over.body.error.message, /at most 5: ask for format=json or csv/, 'and points to JSON or CSV');
  const json_six = await statement(server, reseller.key, 'json');
  t.equal(json_six.status, 200, 'the same day as JSON is served');
  t.equal(json_six.body.data.entries.length, 6, 'with its six entries');

  await credit();
  const json_at_edge = await statement(server, reseller.key, 'json');
  t.equal(json_at_edge.status, 200, 'seven entries with STATEMENT_ENTRIES_MAX 7: JSON served');
  t.equal(json_at_edge.body.data.entries.length, 7, 'with its seven entries');
  t.equal((await statement(server, reseller.key, 'csv')).status, 200, 'and CSV served');
  await credit();
  for (const format of ['json', 'csv'] as const) {
    const over = await statement(server, reseller.key, format);
    check_error(t, over, 422, 'statement.too_large', `eight entries as ${format}`);
    t.equal(over.body.error.entries, 8, `${format}: it says how many entries the day has`);
    t.equal(over.body.error.entries_max, 7, `${format}: and the bound`);
  }
  t.equal(today(), day, 'the Lagos day did not change during the test');
});

t.test('statements built at once at the edge: STATEMENT_BUILDS_MAX run together, one more is 429 with Retry-After, then the bound frees', async (t) => {
  const builds_max = 2;
  const server = await start_server(t, { env: { STATEMENT_BUILDS_MAX: String(builds_max) } });
  const reseller = await server.reseller(200_000, {}, { rate_limit_per_minute: 1_000_000 });
  // A day of about 2,000 entries: its PDF takes a few hundred milliseconds to build (docs/operations.md), so
  // statements asked at once all overlap.
  const items = Array.from({ length: 100 }, () => ({ service_type: 'airtime', network: 'mtn', phone: sandbox.delivered, amount: 50 }));
  for (let i = 0; i < 20; i++) {
    const placed = await server.api('POST', '/v1/services/bulk', { key: reseller.key, body: { pin: '12345', items } });
    if (placed.status !== 202) throw new Error(`bulk: ${placed.status} ${placed.text.slice(0, 300)}`);
  }
  const at_once = await Promise.all(Array.from({ length: builds_max + 1 }, () => statement(server, reseller.key, 'pdf')));
  const statuses = at_once.map((r) => r.status).sort();
  t.same(statuses, [200, 200, 429], `${builds_max} built at once, the one more refused (${statuses.join(', ')})`);
  const refused = at_once.find((r) => r.status === 429)!;
  check_error(t, refused, 429, 'rate_limit.exceeded', 'the statement past STATEMENT_BUILDS_MAX');
  t.equal(refused.headers.get('retry-after'), '1', 'with Retry-After: 1');
  t.match(refused.body.error.message, new RegExp(`At most ${builds_max} statements are built at once`), 'saying the bound');
  for (const served of at_once.filter((r) => r.status === 200)) t.equal(served.headers.get('content-type'), 'application/pdf', 'the others are PDFs');
  const after = await statement(server, reseller.key, 'pdf');
  t.equal(after.status, 200, 'once they are done, another is built');
  const exactly = await Promise.all(Array.from({ length: builds_max }, () => statement(server, reseller.key, 'pdf')));
  t.same(exactly.map((r) => r.status), Array(builds_max).fill(200), `${builds_max} asked at once: all built`);
});
