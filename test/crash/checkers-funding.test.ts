// The crash campaign's funding checks (test/crash/README.md "Funding callbacks and reconciles"), against a real
// server, its real store and the fake Monnify: a callback credited, a transfer found by a reconcile, a callback
// disagreeing with Monnify's record and one claiming a transfer Monnify never made (both exceptions). Both checkers
// must pass that; and each funding check must fire when the record it guards is falsified: a credit of a transfer
// the provider never made, another amount, a genuine transfer in exceptions, a transfer a reconcile should have
// found, an acknowledged credit missing, two callbacks of one transfer both answered "credited".
import t from 'tap';
import { start_server, type ApiResponse } from '../helpers/server.js';
import { start_fake_monnify } from '../helpers/fake-monnify.js';
import type { FakeCallback } from '../helpers/fake-funding.js';
import { ApiChecker } from './api-checker.js';
import { check_store } from './checker.js';
import type { Ack, FundingForgery, FundingTransfer, Model, Op, Wallet } from './model.js';

t.setTimeout(180_000);

function ack_of(response: ApiResponse): Ack {
  return { status: response.status, text: response.text, body: response.body, replayed: false, at_ms: Date.now(), round: 1, resent: false };
}

t.test('the checkers pass credited, reconciled and refused funding, and catch each falsified record', async (t) => {
  const monnify = await start_fake_monnify();
  t.teardown(() => monnify.stop());
  const server = await start_server(t, { env: { FUNDING_PROVIDERS: JSON.stringify([monnify.entry('monnify')]), LOG_LEVEL: 'warn' } });
  const owner = await server.create_account();
  const created = await server.create_key(owner.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  const made = await server.api('POST', '/v1/funding/accounts', { key: created.api_key, body: {} });
  t.equal(made.status, 201, made.text);
  const numbers: string[] = made.body.data.accounts.map((row: { account_number: string }) => row.account_number);
  const wallet: Wallet = { account_id: owner.id, environment: 'live', key: created.api_key, key_id: created.id, endpoint_id: 0, tag: 'a1-live' };
  const model: Model = {
    run_id: 'checkers-funding', time_scale: 1, idempotency_ttl_ms: 24 * 60 * 60 * 1000,
    accounts: [{ id: owner.id, tier: 'standard', wallets: { live: wallet, test: { ...wallet, environment: 'test' } }, funding_numbers: { monnify: numbers } }],
    pricing: {}, ops: [], created_keys: [], funding: { providers: [{ name: 'monnify', kind: 'monnify' }], transfers: [], reseller_fee_tiers: [] },
  };
  const transfer = (reference: string, amount_kobo: number, fee_kobo: number): FundingTransfer => {
    const made = { provider: 'monnify', kind: 'monnify' as const, provider_reference: reference, account_id: owner.id, account_number: numbers[0], amount_kobo, fee_kobo, recorded_ms: Date.now(), round: 1, disputed: false };
    model.funding.transfers.push(made);
    return made;
  };
  let n = 0;
  const callback = async (reference: string, about: FundingTransfer | null, forged: FundingForgery | null, sent: FakeCallback): Promise<Op> => {
    const op: Op = {
      n: ++n, kind: 'funding_callback', round: 1, account_id: owner.id, environment: 'live', method: 'POST', path: '/callbacks/funding/monnify', operator: false,
      body: undefined, idem: null, sent_ms: Date.now(), sends: 1, twin: false, ack: null, api_checked: false,
      funding_callback: { provider: 'monnify', provider_reference: reference, transfer: about, forged, raw: sent.raw.toString(), headers: sent.headers },
    };
    op.ack = ack_of(await server.request('POST', op.path, { raw_body: sent.raw, headers: sent.headers }));
    model.ops.push(op);
    return op;
  };

  const paid = monnify.pay_in({ account_number: numbers[0], amount_kobo: 3_000_00, fee_kobo: 30_00 });
  const t1 = transfer(paid.provider_reference, paid.amount_kobo, paid.fee_kobo);
  const credited = await callback(t1.provider_reference, t1, null, paid.callback);
  t.equal(credited.ack!.body?.data?.outcome, 'credited', credited.ack!.text);
  const silent = monnify.record_transfer({ account_number: numbers[0], amount_kobo: 7_500_00, fee_kobo: 75_00 });
  transfer(silent.provider_reference, silent.amount_kobo, silent.fee_kobo);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const reconcile: Op = {
    n: ++n, kind: 'funding_reconcile', round: 1, account_id: owner.id, environment: 'live', method: 'POST', path: '/admin/funding/reconcile', operator: true,
    body: {}, idem: null, sent_ms: Date.now(), sends: 1, twin: false, ack: null, api_checked: false, reconcile: { provider: null, last_sent_ms: Date.now() },
  };
  reconcile.ack = ack_of(await server.admin('POST', reconcile.path, {}));
  model.ops.push(reconcile);
  t.match(reconcile.ack.body?.data, { credited: 1 }, 'the reconcile credits the transfer whose callback never came');
  const disputed = monnify.record_transfer({ account_number: numbers[0], amount_kobo: 1_000_00 });
  const t3 = transfer(disputed.provider_reference, disputed.amount_kobo, disputed.fee_kobo);
  t3.disputed = true;
  const disagreeing = await callback(t3.provider_reference, t3, 'disagrees', monnify.callback_for(t3.provider_reference, { amountPaid: 1_001, totalPayable: 1_001 }));
  t.equal(disagreeing.ack!.body?.data?.outcome, 'exception', disagreeing.ack!.text);
  const never = 'MNFY|04|20261128000000|F00001';
  const unknown = await callback(never, null, 'unknown', monnify.callback_for(t1.provider_reference, { transactionReference: never, paymentReference: never }));
  t.equal(unknown.ack!.body?.data?.outcome, 'exception', unknown.ack!.text);

  t.same(await new ApiChecker(() => server, model).check_acks(model.ops), [], 'the API check accepts them (each callback sent again answers as before)');
  await server.stop();
  // This account has no webhook endpoint (the campaign's have one, so every change has its event): those checks aside.
  const judge = async () => (await check_store(server.data_dir, model, { snapshot_ms: Date.now(), final: false, upstream: { transactions: new Map(), requests: [], paid_twice: () => [] } as never, acked_before_ms: Date.now() }))
    .violations.filter((v) => !/webhook endpoint|event: the change was committed without its event/.test(v));
  t.same(await judge(), [], 'the journal check accepts them');

  // 1. A credit of a transfer the provider never made (the model forgets it), as a credited forged callback would be.
  model.funding.transfers.splice(0, 1);
  const forged = await judge();
  t.ok(forged.some((v) => /the provider never made this transfer: a forged callback was credited/.test(v)), `a credit of a transfer the provider never made is caught (${forged.join(' | ')})`);
  model.funding.transfers.unshift(t1);
  // 2. Another amount than the provider's record.
  t1.amount_kobo += 1;
  const amount = await judge();
  t.ok(amount.some((v) => /the provider's record makes it/.test(v)), `a credit of another amount is caught (${amount.join(' | ')})`);
  t1.amount_kobo -= 1;
  // 3. A transfer no callback disagreed about, in exceptions.
  t3.disputed = false;
  const genuine = await judge();
  t.ok(genuine.some((v) => /a genuine transfer \(no callback disagreed with the provider\) was put in exceptions/.test(v)), `a genuine transfer in exceptions is caught (${genuine.join(' | ')})`);
  t3.disputed = true;
  // 4. A transfer recorded before the acknowledged reconcile that nothing credited.
  const missed = transfer('MNFY|04|20261128000000|000999', 5_00, 0);
  missed.recorded_ms = reconcile.reconcile!.last_sent_ms - 1;
  const lost = await judge();
  t.ok(lost.some((v) => /was recorded before it, yet has 0 credits/.test(v)), `a transfer the reconcile should have credited is caught (${lost.join(' | ')})`);
  model.funding.transfers.pop();
  // 5. The forged callback recorded as credited: its credit must then be in the store.
  const real = unknown.ack!;
  unknown.ack = { ...real, body: { success: true, data: { received: true, outcome: 'credited' } } };
  const missing = await judge();
  t.ok(missing.some((v) => /0 credits in the store \(exactly 1 expected\) — an acknowledged credit was lost/.test(v)), `an acknowledged credit missing is caught (${missing.join(' | ')})`);
  unknown.ack = real;
  // 6. Two callbacks of one transfer both answered "credited": two creations of one credit.
  model.ops.push({ ...credited, n: ++n });
  const twice = await judge();
  t.ok(twice.some((v) => /were each answered credited/.test(v)), `two creations of one transfer are caught (${twice.join(' | ')})`);
});
