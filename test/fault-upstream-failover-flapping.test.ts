// Failover under load with one upstream flapping (docs/decisions.md "Upstream routing and failover"): a fake
// VTpass goes up and down in turns (refused connections, HTTP 500 without taking the payment, unreadable
// bodies after delivering) while a fake Flutterwave stays up, and lanes of live airtime purchases keep
// coming on the route [vtpass, flw]. What must hold whatever the timing:
//   - every order ends delivered or failed; a failed order is refunded exactly once;
//   - no order is delivered twice: across both upstreams, at most one delivery per purchase, and exactly
//     one for an order we call delivered, none for one we refunded;
//   - no request id or reference is paid twice at either upstream;
//   - no purchase is refused: the second upstream stays up, so 503 (every upstream down) never happens;
//   - orders did fail over (refused by vtpass, delivered by Flutterwave), and unclear ones did not.
// test/fault-provider-flapping.test.ts is the same load on one upstream.
//
// TIME_SCALE=0.01: circuits stay open 600 ms; re-queries after 300 ms, 600 ms, 1.2 s, then every 3 s;
// "no such request" is believed after 1.2 s; a purchase waits 50 ms for its answer.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { start_server } from './helpers/server.js';
import { start_upstream, type UpstreamMode } from './helpers/fake-upstream.js';
import { start_flutterwave, flw_phone } from './helpers/fake-flutterwave.js';
import { all_orders, all_wallet_entries, balance_kobo, kobo, order, warm_up_live } from './helpers/purchases.js';
import { log_records, sleep } from './helpers/fixtures-http.js';

const lanes = 4;
const pause_ms = 15;
const funding_ngn = 1_000_000;

type Phase = { name: string; ms: number; down: 'refuse' | 'lost' | 'garbage' | null };
const phases: Phase[] = [
  { name: 'up', ms: 1500, down: null },
  { name: 'refusing connections', ms: 1500, down: 'refuse' },
  { name: 'up', ms: 1500, down: null },
  { name: 'HTTP 500 without taking the payment', ms: 1200, down: 'lost' },
  { name: 'up', ms: 1500, down: null },
  { name: 'unreadable bodies after delivering', ms: 1200, down: 'garbage' },
  { name: 'refusing connections', ms: 1500, down: 'refuse' },
  { name: 'up', ms: 1500, down: null },
];

interface Purchase {
  phone: string;
  amount: number;
  phase: string;
  status: number;
  code: string | null;
  reference: string | null;
}

t.test('one of two upstreams flapping under continuous purchases: every order delivered or refunded once, none delivered twice, none refused', async (t) => {
  const vtpass = await start_upstream(t);
  const flw = await start_flutterwave(t);
  const server = await start_server(t, {
    env: {
      TIME_SCALE: '0.01',
      UPSTREAMS: JSON.stringify([
        { name: 'vtpass', kind: 'vtpass', base_url: vtpass.base_url, api_key: 'fake-api-key', secret_key: 'fake-secret-key', timeout_ms: 1000 },
        flw.upstream('flw', 1000),
      ]),
    },
  });
  const made = await server.create_account({ kyc_level: 3 });
  const key = (await server.create_key(made.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
  await server.credit(made.id, 'live', funding_ngn);
  await warm_up_live(server, key);

  const purchases: Purchase[] = [];
  let phase = phases[0];
  let stop = false;
  let n = 0;
  const lane = async () => {
    while (!stop) {
      const i = n++;
      const phone = `0816${String(i).padStart(7, '0')}`;
      // While vtpass is up, some phones are refused there for good (091, not processed: the order moves to Flutterwave),
      // some are refused by both (refunded), and some answer 099 first (they stay with vtpass).
      let mode: UpstreamMode = 'deliver';
      if (phase.down === null && i % 7 === 3) mode = 'refuse';
      else if (phase.down === null && i % 11 === 5) mode = 'processing';
      if (mode !== 'deliver') vtpass.set_mode(phone, mode);
      if (i % 13 === 6) {
        vtpass.set_mode(phone, 'refuse');
        flw.set_mode(phone, 'fail');
      }
      const purchase: Purchase = { phone, amount: 50 + (i % 53) + 0.25, phase: phase.name, status: 0, code: null, reference: null };
      purchases.push(purchase);
      const response = await server.api('POST', '/v1/services/airtime', {
        key,
        idempotency_key: `flap2-${randomBytes(6).toString('hex')}`,
        body: { network: 'mtn', phone, amount: purchase.amount, pin: '12345' },
      });
      purchase.status = response.status;
      purchase.code = response.body?.error?.code ?? null;
      purchase.reference = response.body?.data?.reference ?? response.body?.error?.reference ?? null;
      await sleep(pause_ms);
    }
  };
  const running = Promise.all(Array.from({ length: lanes }, lane));
  for (const next of phases) {
    phase = next;
    if (next.down === 'refuse') await vtpass.refuse();
    else await vtpass.resume();
    vtpass.default_mode = next.down === 'lost' ? 'lost' : next.down === 'garbage' ? 'garbage' : 'deliver';
    await sleep(next.ms);
  }
  stop = true;
  await running;
  await vtpass.resume();
  vtpass.default_mode = 'deliver';

  const answers = new Map<string, number>();
  for (const p of purchases) answers.set(`${p.status} ${p.code ?? ''}`.trim(), (answers.get(`${p.status} ${p.code ?? ''}`.trim()) ?? 0) + 1);
  t.comment(`${purchases.length} purchases; answers: ${JSON.stringify(Object.fromEntries(answers))}`);
  const other = purchases.filter((p) => !(p.status === 201 || (p.status === 422 && p.code === 'transaction.failed')));
  t.same(other.map((p) => `${p.phase}: ${p.status} ${p.code}`), [], 'every purchase was taken (201, or 422 failed and refunded): with one upstream up, none is refused');
  t.ok(purchases.length > 80, `enough purchases to cover every phase (${purchases.length})`);

  // ---- Every order settles ------------------------------------------------------------------------
  const deadline = Date.now() + 40_000;
  let orders: any[] = [];
  for (;;) {
    orders = await all_orders(server, key);
    if (orders.every((o) => o.status === 'successful' || o.status === 'failed') || Date.now() > deadline) break;
    await sleep(300);
  }
  t.same(orders.filter((o) => o.status !== 'successful' && o.status !== 'failed').map((o) => o.reference), [], 'every order ended delivered or failed');
  t.equal(orders.length, purchases.length, 'one order per purchase');

  // ---- At most one delivery per purchase, across both upstreams -----------------------------------
  t.same(vtpass.paid_twice(), [], 'vtpass was asked to pay each request id at most once');
  t.same(flw.paid_twice(), [], 'Flutterwave was asked to pay each reference at most once');
  const entries = await all_wallet_entries(server, key);
  const entries_by_reference = new Map<string, string[]>();
  for (const entry of [...entries].reverse()) entries_by_reference.set(entry.reference, [...(entries_by_reference.get(entry.reference) ?? []), entry.type]);
  const by_reference = new Map(orders.map((o) => [o.reference, o]));
  const problems: string[] = [];
  let delivered = 0;
  let failed = 0;
  let moved = 0;
  let expected_kobo = kobo(funding_ngn);
  for (const p of purchases) {
    const listed = by_reference.get(p.reference!);
    const upstream_deliveries = [...vtpass.transactions.values()].filter((tx) => tx.billers_code === p.phone && tx.status === 'delivered').length
      + [...flw.bills.values()].filter((bill) => bill.customer === flw_phone(p.phone) && bill.status === 'successful').length;
    if (upstream_deliveries > 1) problems.push(`${p.reference}: delivered ${upstream_deliveries} times upstream`);
    const found = JSON.stringify(entries_by_reference.get(p.reference!) ?? []);
    if (listed?.status === 'successful') {
      delivered++;
      expected_kobo -= kobo(p.amount);
      if (upstream_deliveries !== 1) problems.push(`${p.reference}: delivered here, ${upstream_deliveries} deliveries upstream`);
      if (found !== '["debit"]') problems.push(`${p.reference} delivered: entries ${found}`);
    } else if (listed?.status === 'failed') {
      failed++;
      if (upstream_deliveries !== 0) problems.push(`${p.reference}: refunded here but delivered upstream`);
      if (found !== '["debit","reversal"]') problems.push(`${p.reference} failed: entries ${found}`);
    } else {
      problems.push(`${p.reference}: ${listed?.status ?? 'no order'}`);
    }
  }
  t.same(problems.slice(0, 10), [], `each order agrees with the upstreams and the wallet (${problems.length} problems)`);
  t.equal(await balance_kobo(server, key), expected_kobo, 'the balance is the credit minus the delivered purchases, to the kobo');
  t.comment(`orders: ${delivered} delivered, ${failed} failed and refunded`);
  t.ok(delivered > 0 && failed > 0, `both outcomes occurred (${delivered} delivered, ${failed} failed)`);

  // ---- Failover happened where it is safe, and only there ------------------------------------------
  const unclear_stayed: string[] = [];
  for (const p of purchases) {
    const record = await order(server, key, p.reference!);
    const attempts = record.attempts as { upstream: string; outcome: string }[];
    if (attempts.length > 1) moved++;
    // After an unclear answer (timeout, 5xx, unreadable body) the order never moves.
    for (const attempt of attempts.slice(0, -1)) if (attempt.outcome !== 'refused' && attempt.outcome !== 'failed') unclear_stayed.push(`${record.reference}: ${attempts.map((a) => `${a.upstream}:${a.outcome}`).join(' → ')}`);
  }
  t.same(unclear_stayed.slice(0, 10), [], 'an order moved upstream only after a refusal before processing');
  t.ok(moved > 0, `orders failed over to the second upstream (${moved})`);
  const changes = log_records(server).filter((r) => r.msg === 'provider circuit changed' && r.upstream === 'vtpass').map((r) => r.circuit as string);
  t.ok(changes.filter((c) => c === 'open').length >= 1, `the vtpass circuit opened (${changes.join(' → ')})`);
  t.notOk(log_records(server).some((r) => r.msg === 'request failed' || (r.level as number) >= 60), 'no request failed with an internal error and nothing fatal was logged');
});
