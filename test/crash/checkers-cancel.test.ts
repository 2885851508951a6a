// The crash campaign's checks of cancels before sending (test/crash/README.md "Cancels before sending"), against a
// real server, its real store and the fake VTpass: a lane-filling live bulk order, a waiting item cancelled (200,
// and 200 again), a sent one refused (409). Both checkers must pass that; and each cancel check must fire when the
// record it guards is falsified: a pay request of the cancelled order's request id at the fake, a 409 recorded as
// a 200, a cancelled order the driver never asked to cancel.
import t from 'tap';
import { start_server, type ApiResponse } from '../helpers/server.js';
import { start_upstream } from '../helpers/fake-upstream.js';
import { wait_for_async, warm_up_live } from '../helpers/purchases.js';
import { ApiChecker } from './api-checker.js';
import { check_store } from './checker.js';
import type { Ack, Model, Op, PurchaseSpec, Wallet } from './model.js';

t.setTimeout(180_000);

function ack_of(response: ApiResponse): Ack {
  return { status: response.status, text: response.text, body: response.body, replayed: false, at_ms: Date.now(), round: 1, resent: false };
}

function op_of(n: number, wallet: Wallet, fields: Partial<Op>): Op {
  return {
    n, kind: 'bulk', round: 1, account_id: wallet.account_id, environment: 'live', method: 'POST', path: '', operator: false,
    body: undefined, idem: null, sent_ms: Date.now(), sends: 1, twin: false, ack: null, api_checked: false, ...fields,
  };
}

t.test('the checkers pass a lane-filling bulk order with a cancel of a waiting item (twice) and of a sent one, and catch each falsified record', async (t) => {
  const upstream = await start_upstream(t);
  upstream.slow_ms = 2_000;
  const server = await start_server(t, { env: { ...upstream.env(10_000), LOG_LEVEL: 'warn' } });
  const owner = await server.create_account();
  const created = await server.create_key(owner.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  await server.credit(owner.id, 'live', 10_000);
  await warm_up_live(server, created.api_key);
  const wallet: Wallet = { account_id: owner.id, environment: 'live', key: created.api_key, key_id: created.id, endpoint_id: 0, tag: 'a1-live' };
  const specs: PurchaseSpec[] = Array.from({ length: 10 }, (_, i) => ({ service: 'airtime', recipient: `080611100${String(i).padStart(2, '0')}`, amount_kobo: 100_00, expect: 'upstream', upstream_mode: 'slow', client_reference: `cc-${i}` }));
  for (const spec of specs) upstream.set_mode(spec.recipient, 'slow');
  const bulk = op_of(1, wallet, {
    path: '/v1/services/bulk',
    body: { pin: '12345', items: specs.map((s) => ({ service_type: 'airtime', network: 'mtn', phone: s.recipient, amount: s.amount_kobo / 100, client_reference: s.client_reference })) },
    bulk: { items: specs },
  });
  bulk.ack = ack_of(await server.request('POST', bulk.path, { key: wallet.key, body: bulk.body }));
  t.equal(bulk.ack.status, 202, `the bulk order is accepted (${bulk.ack.text.slice(0, 200)})`);
  const references: string[] = bulk.ack.body.data.items.map((item: { reference: string }) => item.reference);
  await wait_for_async(async () => (upstream.calls('/api/pay').length >= 8 ? true : null), 10_000, 'the lane to fill');
  const cancel = async (n: number, index: number): Promise<Op> => {
    const op = op_of(n, wallet, { kind: 'cancel', path: `/v1/transactions/${references[index]}/cancel`, cancel: { reference: references[index], bulk_op: 1, index } });
    op.ack = ack_of(await server.request('POST', op.path, { key: wallet.key }));
    return op;
  };
  const waiting = await cancel(2, 9);
  const again = await cancel(3, 9);
  const sent = await cancel(4, 0);
  t.equal(waiting.ack!.status, 200, 'the waiting item is cancelled');
  t.equal(again.ack!.status, 200, 'and cancelling it again answers 200');
  t.equal(sent.ack!.status, 409, 'a sent item is not cancellable');
  const ops = [bulk, waiting, again, sent];
  const model: Model = {
    run_id: 'checkers-cancel', time_scale: 1, idempotency_ttl_ms: 24 * 60 * 60 * 1000,
    accounts: [{ id: owner.id, tier: 'standard', wallets: { live: wallet, test: { ...wallet, environment: 'test' } }, funding_numbers: {} }],
    pricing: {}, ops, created_keys: [], funding: { providers: [], transfers: [], reseller_fee_tiers: [] },
  };
  // The API check of the three cancels (re-read, re-sent) while the lane drains.
  const api_violations = await new ApiChecker(() => server, model).check_acks([waiting, again, sent]);
  t.same(api_violations, [], 'the API check accepts the cancels');
  await wait_for_async(async () => {
    for (const reference of references) {
      const order = await server.request('GET', `/v1/transactions/${reference}`, { key: wallet.key });
      if (!['successful', 'delivered', 'failed'].includes(order.body?.data?.status)) return null;
    }
    return true;
  }, 30_000, 'the lane to drain');
  t.equal(upstream.calls('/api/pay').length, 9, 'every item but the cancelled one was sent');
  await server.stop();

  const judge = async () => {
    const report = await check_store(server.data_dir, model, { snapshot_ms: Date.now(), final: false, upstream, other_upstreams: [], acked_before_ms: Date.now() });
    return { report, about_cancels: report.violations.filter((v) => /cancel/i.test(v)) };
  };
  const clean = await judge();
  t.same(clean.about_cancels, [], 'the journal check accepts the cancels');
  const request_id = [...clean.report.reference_of_request].find(([, reference]) => reference === references[9])?.[0];
  t.ok(request_id, 'the cancelled order carries a request id');

  // 1. The cancelled order's request id paid at the fake (a cancel of a sent item).
  upstream.requests.push({ path: '/api/pay', headers: {}, body: { request_id }, at_ms: Date.now() });
  const paid = (await judge()).about_cancels;
  t.ok(paid.some((v) => /cancelled and refunded, yet an upstream was asked to pay request/.test(v)), `a cancelled order that was sent is caught (${paid.join(' | ')})`);
  upstream.requests.pop();
  // 2. A 409 recorded as a 200: the store must then hold the order cancelled.
  const real = sent.ack!;
  sent.ack = { ...real, status: 200, body: { data: { reference: references[0], status: 'failed', failure_reason: 'cancelled', reversed: true } } };
  const lost = (await judge()).about_cancels;
  t.ok(lost.some((v) => /an acknowledged cancel was lost/.test(v)), `a cancel answered 200 whose order is not cancelled is caught (${lost.join(' | ')})`);
  sent.ack = real;
  // 3. The repeat recorded as a 409: not cancellable, yet cancelled, and one reference answered both ways.
  const real_again = again.ack!;
  again.ack = { ...real_again, status: 409, body: { success: false, error: { code: 'transaction.not_cancellable' } } };
  const both = (await judge()).about_cancels;
  t.ok(both.some((v) => /transaction.not_cancellable, yet the store has the order cancelled/.test(v)) && both.some((v) => /answered both 200/.test(v)), `a 409 for a cancelled order is caught (${both.join(' | ')})`);
  again.ack = real_again;
  // 4. A cancelled order the driver never asked to cancel.
  model.ops = [bulk, sent];
  const unasked = (await judge()).about_cancels;
  t.ok(unasked.some((v) => /the driver never asked to cancel it/.test(v)), `a cancel nobody asked for is caught (${unasked.join(' | ')})`);
});
