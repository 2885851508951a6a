// The journal check's "failed and refunded, but the upstream delivered" against the not-found grace (test/crash/README.md
// "Partitions"). A re-query's "no such request" (VTpass 015) is believed only 120 s after the order's creation
// (src/services/order-answers.ts): that long a pay request may still be on its way, as a deposed leader's is when a
// partition holds it and its socket retransmits. The campaign's TIME_SCALE shrinks the grace (120 ms at 0.001) but not the
// network: in the partition campaign of 2026-11-29 (seed 9621, from round 79) two live orders were failed on a 015 and
// their pay request, sent by the leader a flaky-links round deposed, reached the fake VTpass after it. At the documented
// grace the re-query that failed them would have come after their pay. The check must tell that (counted apart) from a
// refund of a delivery the grace would not have saved: a pay that reached the upstream before the failure, or more than
// the unscaled grace after the order's creation.
//
// Against a real server at TIME_SCALE 0.001 and the fake VTpass: a live purchase whose pay the fake never takes ('lost':
// HTTP 500, then 015), failed and refunded once the scaled grace passed. Then the fake's record is made to say the pay
// arrived later and was delivered, at three times.
import t from 'tap';
import { start_server } from '../helpers/server.js';
import { start_upstream } from '../helpers/fake-upstream.js';
import { wait_for_async, warm_up_live } from '../helpers/purchases.js';
import { check_store } from './checker.js';
import type { Model, Op, Wallet } from './model.js';
import { not_found_grace_ms } from '../../src/services/order-answers.js';
import { not_found_reason } from '../../src/engine/account-orders.js';

t.setTimeout(120_000);

t.test('a 015 believed under the scaled grace whose pay arrived later, within the unscaled grace, is the time scale\'s; any other refund of a delivery is a violation', async (t) => {
  const upstream = await start_upstream(t);
  const server = await start_server(t, { env: { TIME_SCALE: '0.001', ...upstream.env(10_000), LOG_LEVEL: 'warn' } });
  const owner = await server.create_account();
  const created = await server.create_key(owner.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  await server.credit(owner.id, 'live', 10_000);
  await warm_up_live(server, created.api_key);
  const wallet: Wallet = { account_id: owner.id, environment: 'live', key: created.api_key, key_id: created.id, endpoint_id: 0, tag: 'a1-live' };
  const phone = '08061100177';
  upstream.set_mode(phone, 'lost');
  const body = { network: 'mtn', phone, amount: 100, pin: '12345' };
  const bought = await server.request('POST', '/v1/services/airtime', { key: wallet.key, body, idempotency_key: 'grace-1' });
  t.ok(bought.status === 201 || bought.status === 200, `the purchase is answered (${bought.status} ${bought.text.slice(0, 200)})`);
  const reference: string = bought.body.data.reference;
  const order = await wait_for_async(async () => {
    const read = await server.request('GET', `/v1/transactions/${reference}`, { key: wallet.key });
    return read.body?.data?.status === 'failed' ? read.body.data : null;
  }, 20_000, 'the order to fail on the 015');
  t.equal(order.failure_reason, not_found_reason, 'it failed on the upstream\'s "no such request"');
  const seen_failed_ms = Date.now();
  await server.stop();

  const op: Op = {
    n: 1, kind: 'purchase', round: 1, account_id: owner.id, environment: 'live', method: 'POST', path: '/v1/services/airtime', operator: false,
    body, idem: 'grace-1', sent_ms: Date.now(), sends: 1, twin: false, api_checked: true,
    ack: { status: bought.status, text: bought.text, body: bought.body, replayed: false, at_ms: Date.now(), round: 1, resent: false },
    purchase: { service: 'airtime', recipient: phone, amount_kobo: 100_00, expect: 'upstream', upstream_mode: 'lost' },
  };
  const model: Model = {
    run_id: 'checkers-not-found-grace', time_scale: 0.001, idempotency_ttl_ms: 24 * 60 * 60 * 1000 * 0.001,
    accounts: [{ id: owner.id, tier: 'standard', wallets: { live: wallet, test: { ...wallet, environment: 'test' } }, funding_numbers: {} }],
    pricing: {}, ops: [op], created_keys: [], funding: { providers: [], transfers: [], reseller_fee_tiers: [] },
  };
  const check = () => check_store(server.data_dir, model, { snapshot_ms: Date.now(), final: false, upstream, other_upstreams: [], acked_before_ms: Date.now() });
  const about = (report: Awaited<ReturnType<typeof check>>) => ({
    scaled: report.stats.not_found_scaled_grace,
    refunds: report.violations.filter((v) => /failed and refunded, but the upstream delivered/.test(v)),
  });
  const judge = async () => about(await check());
  const untouched = await check();
  t.same(about(untouched), { scaled: 0, refunds: [] }, 'as the fake recorded it (never taken), nothing to say');

  // The stored order's request id, and its pay as the fake logged it (the 500's request).
  const request_id = [...untouched.reference_of_request].find(([, r]) => r === reference)?.[0];
  t.ok(request_id, 'the order carries a request id');
  const pay = upstream.requests.find((r) => r.path === '/api/pay' && r.body?.request_id === request_id);
  t.ok(pay, 'the fake logged the pay request');
  const created_ms = Date.parse(order.created_at);
  t.ok(Number.isFinite(created_ms), `the order shows its creation (${order.created_at})`);
  upstream.transactions.set(request_id!, {
    request_id: request_id!, billers_code: phone, service_id: 'mtn', variation_code: undefined, amount: 100,
    status: 'delivered', becomes: null, requeries_left: 0, transaction_id: '17000000000000000001', quantity: 1,
  });
  const arriving = async (at_ms: number) => {
    pay!.at_ms = at_ms;
    return judge();
  };
  // 1. Later than the failure, within the unscaled grace: what the campaign met.
  t.same(await arriving(seen_failed_ms + 1_000), { scaled: 1, refunds: [] }, 'arrived after the failure, within 120 s of the creation: counted as the time scale\'s, not a violation');
  // 2. Past the unscaled grace: the documented grace would not have waited for it.
  const late = await arriving(created_ms + not_found_grace_ms + 1_000);
  t.equal(late.scaled, 0, 'arrived past the unscaled grace: not the time scale\'s');
  t.equal(late.refunds.length, 1, `a refund of a delivery (${late.refunds.join(' | ')})`);
  // 3. Before the failure: the 015 was wrong when given, whatever the grace.
  const early = await arriving(created_ms - 1_000);
  t.equal(early.scaled, 0, 'arrived before the failure: not the time scale\'s');
  t.equal(early.refunds.length, 1, `a refund of a delivery (${early.refunds.join(' | ')})`);
});
