// Daily statements (docs/api.md "Statements"): a Lagos day of the key's wallet with every entry kind,
// reconciled with the wallet's own entries to the kobo; the Ed25519 signature over the exact bytes checked
// by Node's crypto and by openssl; the date's edges; the operator's platform statement and its CLI.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli_path, start_server, type TestServer } from './helpers/server.js';
import { all_wallet_entries, buy, buy_airtime, check_error, fast_reseller, kobo, order } from './helpers/purchases.js';

const server = await start_server(t);

interface Raw {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

async function raw_get(s: TestServer, path: string, key: string | null, base = s.base, token?: string): Promise<Raw> {
  const headers: Record<string, string> = {};
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${base}${path}`, { headers });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

function lagos_date(ms: number): string {
  return new Date(ms + 3_600_000).toISOString().slice(0, 10);
}

const public_key_pem: string = (await server.api('GET', '/v1/statements/public-key', { key: null })).body.data.public_key_pem;

function signature_of(raw: Raw): Buffer {
  const header = raw.headers.get('billvend-signature') ?? '';
  const match = /^ed25519=([A-Za-z0-9+/]+={0,2})$/.exec(header);
  if (match === null) throw new Error(`no Billvend-Signature header: ${header}`);
  return Buffer.from(match[1], 'base64');
}

function node_verifies(raw: Raw): boolean {
  return verify(null, raw.bytes, createPublicKey(public_key_pem), signature_of(raw));
}

/** openssl 3: pkeyutl -verify -rawin over the body bytes (Ed25519 signs the message itself, no digest). */
function openssl_verifies(raw: Raw): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'bv-stmt-'));
  try {
    writeFileSync(join(dir, 'key.pem'), public_key_pem);
    writeFileSync(join(dir, 'body'), raw.bytes);
    writeFileSync(join(dir, 'sig'), signature_of(raw));
    execFileSync('openssl', ['pkeyutl', '-verify', '-pubin', '-inkey', join(dir, 'key.pem'), '-rawin', '-in', join(dir, 'body'), '-sigfile', join(dir, 'sig')], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// A reseller of a tier with commission, over one day: a credit, delivered purchases (airtime and data), a
// failed one (debit and its reversal), and a second credit.
const tier = `stmt_${process.pid % 1000}`;
const priced = await server.admin('PUT', `/admin/pricing/${tier}`, { rules: [{ service_type: 'airtime', rate_bp: 250 }, { service_type: 'data', rate_bp: 150 }] });
if (priced.status !== 200) throw new Error(`pricing: ${priced.text}`);
const reseller = await fast_reseller(server, 50_000, { tier });
const delivered = await buy_airtime(server, reseller.key, '08011111111', 50.01);
const failed = await buy_airtime(server, reseller.key, '08022222222', 200);
const plans = await server.api('GET', '/v1/services/data/plans?network=mtn', { key: reseller.key });
const plan = plans.body.data.plans[0];
const data_order = await buy(server, reseller.key, '/v1/services/data/purchase', { network: 'mtn', plan_id: plan.plan_id, phone: '08031234567', amount: plan.amount, pin: '12345' });
await server.credit(reseller.id, 'test', 123.45);
const today = lagos_date(Date.now());

t.test('a day\'s statement reconciles with the wallet entries to the kobo, every entry kind included', async (t) => {
  t.equal(delivered.status, 201, 'the airtime purchase is delivered');
  t.equal(failed.status, 422, 'the failing number fails and is refunded');
  t.equal(data_order.status, 201, 'the data purchase is delivered');
  const raw = await raw_get(server, `/v1/statements?date=${today}`, reseller.key);
  t.equal(raw.status, 200, `answers 200 (${raw.bytes.toString().slice(0, 300)})`);
  t.match(raw.headers.get('content-type'), /application\/json/, 'JSON by default');
  const statement = JSON.parse(raw.bytes.toString('utf8')).data;
  t.equal(statement.date, today, 'the day asked for');
  t.equal(statement.final, false, 'today\'s statement is provisional');
  t.equal(statement.environment, 'test', 'the key\'s environment');
  const entries = (await all_wallet_entries(server, reseller.key)).reverse();
  t.equal(statement.entries.length, entries.length, 'every entry of the day, and only those');
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const s = statement.entries[i];
    t.same(
      [s.id, s.type, s.amount, s.reference, s.balance_before, s.balance_after, s.created_at, s.description],
      [e.id, e.type, e.amount, e.reference, e.balance_before, e.balance_after, e.created_at, e.description],
      `entry ${e.id} (${e.type}) is the wallet's own`,
    );
  }
  t.same(entries.map((e) => e.type).sort(), ['credit', 'credit', 'debit', 'debit', 'debit', 'reversal'], 'credits, debits and a reversal');
  t.equal(statement.opening_balance, 0, 'the wallet opened the day empty (created today)');
  t.equal(statement.closing_balance, entries.at(-1).balance_after, 'closing balance is the last entry\'s balance after');
  const sum = (type: string) => entries.filter((e) => e.type === type).reduce((a, e) => a + kobo(e.amount), 0);
  const totals = statement.totals.by_type;
  t.equal(kobo(totals.credit.amount), sum('credit'), 'credits to the kobo');
  t.equal(kobo(totals.debit.amount), sum('debit'), 'debits to the kobo');
  t.equal(kobo(totals.reversal.amount), sum('reversal'), 'reversals to the kobo');
  t.same([totals.credit.count, totals.debit.count, totals.reversal.count], [2, 3, 1], 'counts by type');
  t.equal(kobo(statement.opening_balance) + sum('credit') - sum('debit') + sum('reversal'), kobo(statement.closing_balance), 'opening + credits − debits + reversals = closing');
  // Commission from each order's own record: 2.5% of 50.01 rounds down to 1.25; the failed order's is given back.
  const airtime = await order(server, reseller.key, delivered.body.data.reference);
  const data = await order(server, reseller.key, data_order.body.data.reference);
  t.equal(airtime.commission, 1.25, 'the airtime order netted 1.25');
  t.equal(kobo(totals.commission.amount), kobo(airtime.commission) + kobo(data.commission), 'commission earned = the delivered orders\' commissions (the refunded one\'s given back)');
  const by_service = Object.fromEntries(statement.totals.by_service.map((s: any) => [s.service_type, s]));
  t.same(Object.keys(by_service), ['airtime', 'data'], 'totals for the services of the day, in the catalogue\'s order');
  t.equal(by_service.airtime.debits.count, 2, 'two airtime debits');
  t.equal(by_service.airtime.reversals.count, 1, 'one airtime reversal');
  t.equal(kobo(by_service.airtime.face_value), kobo(50.01) + kobo(200), 'airtime face value');
  t.equal(kobo(by_service.airtime.commission), kobo(1.25), 'airtime commission net of the refund');
  t.equal(kobo(by_service.data.debits.amount), kobo(data.amount_charged), 'data debited what the order charged');
  const debit = statement.entries.find((e: any) => e.type === 'debit' && e.reference === airtime.reference);
  t.same([debit.service_type, debit.face_value, debit.commission], ['airtime', 50.01, 1.25], 'a debit names its service, face value and commission');
  const credit = statement.entries.find((e: any) => e.type === 'credit');
  t.same([credit.service_type, credit.face_value, credit.commission], [null, null, null], 'a credit has none');
});

t.test('every format is signed over its exact bytes: Node\'s crypto and openssl verify, a changed byte does not', async (t) => {
  t.match(public_key_pem, /^-----BEGIN PUBLIC KEY-----\n/, 'the public key is SPKI PEM');
  for (const format of ['json', 'csv', 'pdf']) {
    const raw = await raw_get(server, `/v1/statements?date=${today}&format=${format}`, reseller.key);
    t.equal(raw.status, 200, `${format} answers 200`);
    t.ok(node_verifies(raw), `${format}: Node's crypto verifies the signature`);
    t.ok(openssl_verifies(raw), `${format}: openssl pkeyutl -verify -rawin verifies it`);
    const tampered = { ...raw, bytes: Buffer.from(raw.bytes) };
    tampered.bytes[Math.floor(tampered.bytes.length / 2)] ^= 1;
    t.notOk(node_verifies(tampered), `${format}: one changed bit fails Node's check`);
    t.notOk(openssl_verifies(tampered), `${format}: and openssl's`);
  }
  const csv = await raw_get(server, `/v1/statements?date=${today}&format=csv`, reseller.key);
  t.match(csv.headers.get('content-type'), /^text\/csv/, 'csv is text/csv');
  const rows = csv.bytes.toString('utf8').trim().split('\r\n');
  t.equal(rows[0], 'row,id,type,amount,reference,balance_before,balance_after,created_at,service_type,face_value,commission,description', 'the CSV header');
  t.equal(rows.filter((r) => r.startsWith('entry,')).length, 6, 'one entry row per wallet entry');
  t.ok(rows.some((r) => r.startsWith('total,1,reversal,')), 'a total row per entry type');
  const pdf = await raw_get(server, `/v1/statements?date=${today}&format=pdf`, reseller.key);
  t.equal(pdf.headers.get('content-type'), 'application/pdf', 'pdf is application/pdf');
  t.equal(pdf.bytes.subarray(0, 5).toString('latin1'), '%PDF-', 'a PDF document');
  const restarted_key = (await server.api('GET', '/v1/statements/public-key', { key: null })).body.data.public_key_pem;
  t.equal(restarted_key, public_key_pem, 'the key stays the same between calls');
});

t.test('the signing key is kept in the store, sealed, and the same after a restart', async (t) => {
  const s = await start_server(t);
  const before = (await s.api('GET', '/v1/statements/public-key', { key: null })).body.data.public_key_pem;
  await s.stop();
  await s.start();
  const after = (await s.api('GET', '/v1/statements/public-key', { key: null })).body.data.public_key_pem;
  t.equal(after, before, 'the same public key after a restart');
  await s.stop();
  const dump = execFileSync('sh', ['-c', `cat ${JSON.stringify(join(s.data_dir, 'data.mdb'))}`], { maxBuffer: 1 << 30 }).toString('latin1');
  t.notOk(dump.includes('BEGIN PRIVATE KEY'), 'no private key PEM in plain text in the store');
  t.ok(dump.includes('BEGIN PUBLIC KEY'), 'the public key is there');
});

t.test('the date\'s edges: required, a real date, not in the future, not before the account, the key\'s environment only', async (t) => {
  const rows: [string, string, string][] = [
    ['', 'date', 'no date'],
    ['date=2026-02-30', 'date', 'a date that does not exist'],
    ['date=26-11-27', 'date', 'not YYYY-MM-DD'],
    [`date=${lagos_date(Date.now() + 2 * 86_400_000)}`, 'date', 'the day after tomorrow'],
    [`date=${lagos_date(Date.now() - 86_400_000)}`, 'date', 'yesterday, before the account was opened'],
    [`date=${today}&format=xml`, 'format', 'an unknown format'],
    [`date=${today}&environment=live`, 'environment', 'the other environment'],
    [`date=${today}&environment=prod`, 'environment', 'no such environment'],
  ];
  for (const [query, field, what] of rows) {
    const response = await server.api('GET', `/v1/statements?${query}`, { key: reseller.key });
    check_error(t, response, 400, 'validation.failed', what);
    t.equal(response.body.error?.details?.[0]?.field, field, `${what}: names ${field}`);
  }
  const same = await server.api('GET', `/v1/statements?date=${today}&environment=test`, { key: reseller.key });
  t.equal(same.status, 200, 'naming the key\'s own environment is fine');
  const narrow = await server.create_key(reseller.id, { scopes: ['transactions:read'] });
  check_error(t, await server.api('GET', `/v1/statements?date=${today}`, { key: narrow.api_key }), 403, 'auth.insufficient_scope', 'a key without wallet:read');
  const live = await server.create_key(reseller.id, { environment: 'live', scopes: ['wallet:read'] });
  const live_statement = await server.api('GET', `/v1/statements?date=${today}`, { key: live.api_key });
  t.equal(live_statement.status, 200, 'a live key reads the live wallet');
  t.same([live_statement.body.data.entries.length, live_statement.body.data.closing_balance], [0, 0], 'nothing of the test wallet crosses');
});

t.test('the operator\'s platform statement sums every wallet of the environment, by API and CLI', async (t) => {
  const other = await fast_reseller(server, 1_000);
  const raw = await raw_get(server, `/admin/statements?date=${today}&environment=test`, null, server.admin_base, server.admin_token);
  t.equal(raw.status, 200, `answers 200 (${raw.bytes.toString().slice(0, 200)})`);
  t.ok(node_verifies(raw), 'signed like a reseller\'s');
  const data = JSON.parse(raw.bytes.toString()).data;
  const rows = new Map<number, any>(data.accounts.map((r: any) => [r.account_id, r]));
  t.ok(rows.has(reseller.id) && rows.has(other.id), 'a row per account with entries that day');
  const mine = rows.get(reseller.id);
  const own = JSON.parse((await raw_get(server, `/v1/statements?date=${today}`, reseller.key)).bytes.toString()).data;
  t.same([mine.closing_balance, mine.debit.amount, mine.reversal.amount, mine.credit.amount], [own.closing_balance, own.totals.by_type.debit.amount, own.totals.by_type.reversal.amount, own.totals.by_type.credit.amount], 'the account\'s row matches its own statement');
  const sum_rows = (pick: (r: any) => number) => data.accounts.reduce((a: number, r: any) => a + kobo(pick(r)), 0);
  t.equal(kobo(data.closing_balance), sum_rows((r) => r.closing_balance), 'closing = the accounts\' closings (every wallet opened today)');
  t.equal(kobo(data.totals.by_type.debit.amount), sum_rows((r) => r.debit.amount), 'debits = the accounts\' debits');
  const future = await server.admin('GET', `/admin/statements?date=${lagos_date(Date.now() + 2 * 86_400_000)}`);
  t.equal(future.status, 400, 'a future day is refused');
  const out = execFileSync(process.execPath, [cli_path, 'statements', 'show', '--date', today, '--environment', 'test'], {
    env: { ...process.env, ADMIN_TOKEN: server.admin_token, ADMIN_PORT: String(server.admin_port), ADMIN_HOST: '127.0.0.1' },
  }).toString();
  t.equal(JSON.parse(out).date, today, 'billvend statements show prints the day\'s platform statement');
});
