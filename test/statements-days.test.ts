// Statements across Lagos days on a manual clock (docs/api.md "Statements"): an entry at 23:59:59.999 WAT is
// the day's, one a millisecond later the next day's; a day's opening balance is the day before's closing; a day
// without entries opens and closes alike; a past day is final; the PDF statement renders and reads. And the
// bounds at their edges: entries per statement, statements built at once, re-sends per order.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start_in_process } from './helpers/in-process.js';
import { buy_airtime, check_error, fast_reseller, kobo } from './helpers/purchases.js';
import { account_statement } from '../src/services/statements.js';
import { StatementBuilds } from '../src/front/routes/statement-routes.js';
import { ResendLimit, resend_interval_s } from '../src/front/routes/receipt-routes.js';

// 2026-11-20 23:59:00 WAT (22:59:00 UTC): the account is opened a minute before a Lagos midnight.
const start_ms = Date.UTC(2026, 10, 20, 22, 59, 0);
const server = await start_in_process(t, { start_ms });
const reseller = await fast_reseller(server, 1_000);
server.clock.advance(58_999); // 23:59:58.999 WAT
const late = await buy_airtime(server, reseller.key, '08011111111', 100);
server.clock.advance(1_000); // 23:59:59.999 WAT, the day's last millisecond
const last = await buy_airtime(server, reseller.key, '08022222222', 50);
server.clock.advance(1); // 00:00:00.000 WAT on 2026-11-21
const first = await buy_airtime(server, reseller.key, '08011111111', 200);
server.clock.advance(3 * 86_400_000); // 2026-11-24 WAT

async function statement(date: string) {
  const response = await server.api('GET', `/v1/statements?date=${date}`, { key: reseller.key });
  if (response.status !== 200) throw new Error(`${date}: ${response.status} ${response.text}`);
  return response.body.data;
}

t.test('the Lagos day\'s edges: the last millisecond is the day\'s, the next one the next day\'s', async (t) => {
  t.same([late.status, last.status, first.status], [201, 422, 201], 'a purchase, a refunded failure at 23:59:59.999, a purchase at midnight');
  const day1 = await statement('2026-11-20');
  t.equal(day1.final, true, 'a past day is final');
  t.same(day1.entries.map((e: any) => e.type), ['credit', 'debit', 'debit', 'reversal'], 'the credit, both debits and the refund at 23:59:59.999');
  t.equal(day1.entries.at(-1).created_at, '2026-11-20T22:59:59.999000Z', 'the refund at the day\'s last millisecond is in it');
  t.equal(day1.opening_balance, 0, 'the first day opens at 0');
  t.equal(kobo(day1.closing_balance), kobo(1_000) - kobo(100), 'and closes after the day\'s entries');
  const day2 = await statement('2026-11-21');
  t.same(day2.entries.map((e: any) => e.reference), [first.body.data.reference], 'the next day holds the midnight purchase only');
  t.equal(day2.entries[0].created_at, '2026-11-20T23:00:00.000000Z', 'made at 00:00 WAT');
  t.equal(day2.opening_balance, day1.closing_balance, 'a day opens at the day before\'s closing');
  t.equal(kobo(day2.closing_balance), kobo(day2.opening_balance) - kobo(200), 'and closes to the kobo');
  const day3 = await statement('2026-11-22');
  t.same([day3.entries.length, day3.opening_balance, day3.closing_balance], [0, day2.closing_balance, day2.closing_balance], 'a day without entries opens and closes at the balance it had');
  t.same(day3.totals.by_service, [], 'with no service totals');
  const today = await statement('2026-11-24');
  t.equal(today.final, false, 'today (on the server\'s clock) is provisional');
  check_error(t, await server.api('GET', '/v1/statements?date=2026-11-19', { key: reseller.key }), 400, 'validation.failed', 'the day before the account was opened');
  check_error(t, await server.api('GET', '/v1/statements?date=2026-11-25', { key: reseller.key }), 400, 'validation.failed', 'tomorrow on the server\'s clock');
});

t.test('the PDF statement renders to an A4 page and reads: reference, amounts, balances', async (t) => {
  const response = await fetch(`${server.base}/v1/statements?date=2026-11-20&format=pdf`, { headers: { authorization: `Bearer ${reseller.key}` } });
  t.equal(response.status, 200, 'answers 200');
  const dir = mkdtempSync(join(tmpdir(), 'bv-statement-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'statement.pdf'), Buffer.from(await response.arrayBuffer()));
  execFileSync('pdftoppm', ['-png', '-r', '50', join(dir, 'statement.pdf'), join(dir, 'page')]);
  const pages = readdirSync(dir).filter((f) => f.endsWith('.png'));
  t.equal(pages.length, 1, 'one page');
  const text = execFileSync('pdftotext', ['-layout', join(dir, 'statement.pdf'), '-']).toString();
  t.ok(text.includes(late.body.data.reference), 'the reference of a debit');
  t.ok(text.includes('-NGN 100.00') && text.includes('+NGN 50.00'), 'the debit and the refund');
  t.ok(text.includes('Opening balance NGN 0.00') && text.includes('Closing balance NGN 900.00'), 'the balances');
  t.ok(text.includes('Final: the day is over.'), 'final');
});

t.test('entries per statement at the edge: a day of exactly entries_max entries is built, one more is refused', async (t) => {
  const store = server.engine.store;
  const actor = server.engine.accounts.get(reseller.id)!;
  const input = {
    store, account_id: reseller.id, account_name: 'x', environment: 'test' as const, total: actor.wallets.test.entries_count,
    day: Math.floor(Date.UTC(2026, 10, 20) / 86_400_000), now_us: server.clock.now_us(), find_order: () => null, // the lines' orders do not matter to the bound
    next_turn: () => new Promise<void>((resolve) => setImmediate(resolve)), gone: () => false,
  };
  const at_edge = await account_statement(input, 4);
  t.ok(at_edge !== null && !('too_many' in at_edge) && at_edge.lines.length === 4, 'four entries with entries_max 4: built');
  const over = await account_statement(input, 3);
  t.same(over, { too_many: 4 }, 'four entries with entries_max 3: refused, saying how many');
});

t.test('statements built at once at the edge: the one past statement_builds_max is refused', async (t) => {
  const builds = new StatementBuilds({ builds_max: 2 });
  t.equal(await builds.run(async () => 1), 'starting', 'no key yet: starting');
  builds.signer = {} as never;
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const a = builds.run(() => held.then(() => 'a'));
  const b = builds.run(() => held.then(() => 'b'));
  t.equal(await builds.run(async () => 'c'), 'busy', 'a third while two run: busy');
  release();
  t.same(await Promise.all([a, b]), ['a', 'b'], 'the two finish');
  t.equal(await builds.run(async () => 'd'), 'd', 'then another runs');
});

t.test('re-sends per order at the edge: one a minute, and the remembered orders are bounded', async (t) => {
  const limit = new ResendLimit(2);
  t.equal(limit.take('A', 0), 0, 'the first re-send');
  t.equal(limit.take('A', resend_interval_s * 1000 - 1), 1, 'a millisecond before the minute: wait 1 s');
  t.equal(limit.take('A', resend_interval_s * 1000), 0, 'at the minute: allowed');
  limit.take('B', 60_000);
  limit.take('C', 60_000);
  t.equal(limit.take('A', 60_001), 0, 'past orders_max the oldest (A) was forgotten, so it may go again');
  t.equal(limit.take('C', 60_002), 60, 'a remembered one still waits');
  limit.give_back('C');
  t.equal(limit.take('C', 60_003), 0, 'a re-send given back does not count');
});
