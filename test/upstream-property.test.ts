// A property over upstream answers (docs/upstreams.md): for any documented answer VTpass or Flutterwave
// may give, any sequence of re-query answers, timeouts, 5xx and unreadable bodies, and restarts of
// billvend in the middle, an order is delivered at most once across all upstreams, never refunded once an
// upstream delivered it (unless a reversal was read from that upstream), and the wallet's entries add up
// to its balance. Each run buys once through the real server against the fakes built on the recorded
// answers; the upstream's truth for the run (delivered, failed, reversed, refused, duplicate, lost) is drawn
// first, and only answers consistent with it are given. VTpass's duplicate guard (019) is never walked
// around: an order it refused as a likely duplicate is never bought from the next upstream.
// VTpass's transaction-update callbacks come in between (0 to 3, update or reversal, some while the order
// is open), and VTpass may reverse a transaction after it delivered it (then calls back 1 to 3 times): a
// callback is only a hint, so an order is refunded after its delivery only when a re-query read the
// reversal, and at most once however many callbacks come.
import t from 'tap';
import fc from 'fast-check';
import { start_server } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { start_flutterwave, type FlutterwaveMode } from './helpers/fake-flutterwave.js';
import { all_wallet_entries, balance_kobo, buy_airtime, entries_of, kobo, order, warm_up_live } from './helpers/purchases.js';

type Truth = 'delivered' | 'failed' | 'reversed' | 'refused' | 'duplicate' | 'lost';

/** The answers VTpass may give for each truth (recorded answers, or '#500', '#timeout', '#garbage'). */
const pay_answers: Record<Truth, string[]> = {
  delivered: ['pay-delivered', 'pay-initiated', 'pay-pending', 'pay-099', 'requery-001-delivered', '#500', '#timeout', '#garbage'],
  failed: ['pay-016', 'pay-099', 'requery-failed-status', '#500'],
  reversed: ['pay-099', 'pay-pending', '#500', '#timeout'],
  refused: ['pay-091', 'pay-010', 'pay-011', 'pay-012', 'pay-018', 'pay-085'],
  duplicate: ['pay-019'],
  lost: ['#500', '#timeout', '#garbage'],
};
const unclear_requeries = ['pay-099', 'pay-pending', 'requery-044-no-status', 'pay-014'];
const final_requery: Partial<Record<Truth, string>> = { delivered: 'requery-delivered', failed: 'requery-failed-status', reversed: 'requery-reversed' };
/** Flutterwave behaviours and whether the bill is delivered upstream. */
const flw_modes: Record<string, boolean> = { deliver: true, processing: true, no_status: true, error_500: true, fail: false, lost: false };

const scenario = fc.record({
  truth: fc.constantFrom<Truth>('delivered', 'failed', 'reversed', 'refused', 'duplicate', 'lost'),
  pay_pick: fc.nat(),
  unclear: fc.array(fc.constantFrom(...unclear_requeries), { maxLength: 3 }),
  settles: fc.boolean(),
  flw: fc.constantFrom(...Object.keys(flw_modes)),
  restart: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
  /** Callbacks while the order is open: each an update or a reversal notice (a hint only). */
  early_callbacks: fc.array(fc.constantFrom('callback-transaction-update', 'callback-transaction-reversal') as fc.Arbitrary<'callback-transaction-update' | 'callback-transaction-reversal'>, { maxLength: 3 }),
  /** After the order settles: VTpass reverses what it delivered, and calls back this many times (0: no reversal). */
  reversal_callbacks: fc.integer({ min: 0, max: 3 }),
  /** A reversal callback comes although VTpass reversed nothing (its re-query still says delivered). */
  false_alarm: fc.boolean(),
});
const callback_token = 'prop-callback-0f1e2d3c4b5a69788796a5b4c3d2e1f0';

const runs = Number(process.env.UPSTREAM_PROPERTY_RUNS ?? 25);

t.test(`an order is delivered at most once across upstreams and never refunded once delivered (${runs} runs)`, async (t) => {
  const vtpass = await start_upstream(t);
  vtpass.slow_ms = 700;
  const flw = await start_flutterwave(t);
  flw.pending_fetches = 2;
  const server = await start_server(t, {
    keep_data: false,
    env: {
      // TIME_SCALE 0.02: re-queries after 0.6 s, 1.2 s, 2.4 s, then 6 s; "no such request" believed after 2.4 s.
      TIME_SCALE: '0.02',
      UPSTREAMS: JSON.stringify([
        { name: 'vtpass', kind: 'vtpass', base_url: vtpass.base_url, api_key: 'fake-api-key', secret_key: 'fake-secret-key', timeout_ms: 400, callback_token },
        flw.upstream('flw', 1000),
      ]),
    },
  });
  const account = await server.create_account({ kyc_level: 3 });
  const key = (await server.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
  await server.credit(account.id, 'live', 1_000_000);
  await warm_up_live(server, key);
  let n = 0;
  let restarts = 0;
  let callbacks = 0;
  let reversals = 0;
  const callback = async (request_id: string, kind: 'callback-transaction-update' | 'callback-transaction-reversal') => {
    callbacks++;
    const answer = await vtpass.send_callback(`${server.base}/callbacks/vtpass/vtpass/${callback_token}`, request_id, kind);
    if (answer.status !== 200) throw new Error(`a callback was answered ${answer.status} ${answer.text.slice(0, 200)}`);
  };
  const outcomes = new Map<string, number>();
  await fc.assert(fc.asyncProperty(scenario, async (s) => {
    const phone = `0813${String(3_000_000 + n++).padStart(7, '0')}`;
    const pays = pay_answers[s.truth];
    const final = final_requery[s.truth];
    const known = s.truth === 'delivered' || s.truth === 'failed' || s.truth === 'reversed';
    // A known request is re-queried through the drawn unclear answers, then (when it settles) its final
    // answer; an unclear one repeats when it never settles. An unknown one answers 015.
    const requery = known ? [...s.unclear, s.settles ? final! : 'pay-099'] : ['requery-015'];
    vtpass.scripts.set(phone, { pay: pays[s.pay_pick % pays.length], known, requery });
    flw.set_mode(phone, s.flw as FlutterwaveMode);
    const response = await buy_airtime(server, key, phone, 100);
    if (response.status !== 201 && response.status !== 422 && response.status !== 503) throw new Error(`unexpected answer ${response.status} ${response.text.slice(0, 200)}`);
    const reference = response.body.data?.reference ?? response.body.error?.reference;
    const vtpass_request = vtpass.pays_for(phone)[0]?.body?.request_id as string | undefined;
    if (vtpass_request !== undefined) for (const kind of s.early_callbacks) await callback(vtpass_request, kind);
    if (s.restart && reference !== undefined) {
      await server.kill();
      await server.start();
      restarts++;
    }
    let record: any = null;
    if (reference !== undefined) {
      const deadline = Date.now() + 9_000;
      for (;;) {
        record = await order(server, key, reference);
        if (record.status === 'delivered' || record.status === 'failed' || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    // After it settled: a reversal notice VTpass's re-query does not bear out; then (maybe) a real reversal
    // of what VTpass delivered, with its callbacks.
    const delivered_here = record?.status === 'delivered';
    if (delivered_here && vtpass_request !== undefined && s.false_alarm) {
      await callback(vtpass_request, 'callback-transaction-reversal');
      await new Promise((r) => setTimeout(r, 150));
      const after = await order(server, key, reference);
      if (after.status !== 'delivered') throw new Error(`${phone}: a reversal callback alone moved a delivered order to ${after.status}`);
    }
    let reversed_upstream = false;
    if (delivered_here && s.truth === 'delivered' && vtpass_request !== undefined && s.reversal_callbacks > 0 && record.attempts?.at(-1)?.upstream === 'vtpass') {
      vtpass.scripts.set(phone, { pay: pays[0], known: true, requery: ['requery-reversed'] });
      reversed_upstream = true;
      reversals++;
      await Promise.all(Array.from({ length: s.reversal_callbacks }, () => callback(vtpass_request, 'callback-transaction-reversal')));
      const deadline = Date.now() + 9_000;
      for (;;) {
        record = await order(server, key, reference);
        if (record.status === 'failed' || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      if (record.status !== 'failed') throw new Error(`${phone}: VTpass reversed the delivered order and called back ${s.reversal_callbacks} times; the order is still ${record.status}`);
      if (record.delivered_at === null || record.reversed !== true) throw new Error(`${phone}: reversed after delivery but delivered_at ${record.delivered_at}, reversed ${record.reversed}`);
    }
    // Never refunded once delivered unless a reversal was read from the upstream.
    if (record?.status === 'failed' && record.delivered_at !== null && !reversed_upstream) throw new Error(`${phone}: refunded after its delivery, but no upstream reversed it`);
    const vtpass_paid = vtpass.pays_for(phone).length > 0;
    const flw_paid = flw.pays_for(phone).length > 0;
    const delivered_upstream = (vtpass_paid && s.truth === 'delivered' && !reversed_upstream ? 1 : 0) + (flw_paid && flw_modes[s.flw] ? 1 : 0);
    const status = record?.status ?? `answer ${response.status}`;
    outcomes.set(status, (outcomes.get(status) ?? 0) + 1);
    if (delivered_upstream > 1) throw new Error(`${phone}: delivered by ${delivered_upstream} upstreams (truth ${s.truth}, flw ${s.flw})`);
    if (record?.status === 'delivered' && delivered_upstream !== 1) throw new Error(`${phone}: delivered though no upstream delivered it`);
    if (record?.status === 'failed' && delivered_upstream !== 0) throw new Error(`${phone}: refunded though an upstream delivered it (truth ${s.truth}, flw ${s.flw}, attempts ${JSON.stringify(record.attempts)})`);
    // VTpass's duplicate guard (019: the same service for the same biller within 30 s) is never walked
    // around: what it refused as a likely duplicate is never bought elsewhere.
    if (s.truth === 'duplicate' && flw_paid) throw new Error(`${phone}: VTpass answered 019 and the order was bought from Flutterwave`);
    if (vtpass.paid_twice().length > 0 || flw.paid_twice().length > 0) throw new Error('a request id was paid twice');
    if (reference !== undefined) {
      const types = (await entries_of(server, key, reference)).map((e) => e.type);
      // Refunded at most once, whatever the callbacks: one reversal entry exactly when failed.
      const expected = record?.status === 'failed' ? ['debit', 'reversal'] : ['debit'];
      if (JSON.stringify(types) !== JSON.stringify(expected)) throw new Error(`${phone}: entries ${types.join(', ')} for a ${record?.status} order`);
    }
  }), { numRuns: runs, endOnFailure: true });
  t.pass(`${runs} runs, ${restarts} restarts, ${callbacks} callbacks, ${reversals} reversals of a delivered order; orders: ${[...outcomes].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  // The wallet: every entry moves the balance by its amount, and the last leaves it where it is.
  const entries = (await all_wallet_entries(server, key)).reverse();
  let balance = 0;
  let chained = true;
  for (const entry of entries) {
    const signed = entry.type === 'debit' ? -kobo(entry.amount) : kobo(entry.amount);
    if (kobo(entry.balance_before) !== balance || kobo(entry.balance_after) !== balance + signed) chained = false;
    balance += signed;
  }
  t.ok(chained, 'each wallet entry moves the balance by its amount');
  t.equal(balance, await balance_kobo(server, key), 'the entries add up to the balance');
});
