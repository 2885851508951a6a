// A callback that disagrees with the provider, verified while the reconciler credits the same transfer
// (docs/funding.md "Exceptions"; found while adding funding to the crash campaign, test/crash/README.md
// "Funding callbacks and reconciles"). The reconcile lists the transfer and credits it; the callback, whose
// verification began before that credit and ended after it, must not then record an exception for a transfer
// that is credited and answer "nothing was credited": it answers the credit (already_credited), and the
// transfer is in exceptions nowhere. Paystack's fake answers every call after 400 ms, which orders the two.
import t from 'tap';
import { createHmac } from 'node:crypto';
import { start_server } from './helpers/server.js';
import { paystack_secret_key, start_fake_paystack } from './helpers/fake-paystack.js';
import { start_fake_monnify } from './helpers/fake-monnify.js';
import { start_in_process } from './helpers/in-process.js';
import type { StagedChange } from '../src/journal/journal.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('a disagreeing callback verified while a reconcile credits its transfer answers that credit and records no exception', async (t) => {
  const paystack = await start_fake_paystack(t);
  const server = await start_server(t, { env: { FUNDING_PROVIDERS: JSON.stringify([paystack.entry('paystack')]) } });
  const account = await server.create_account();
  const key = (await server.create_key(account.id, { environment: 'live' })).api_key;
  const made = await server.api('POST', '/v1/funding/accounts', { key, body: {} });
  t.equal(made.status, 201, made.text);
  const number = made.body.data.accounts[0].account_number;

  const paid = paystack.pay_in({ account_number: number, amount_kobo: 4_000_00, fee_kobo: 60_00 });
  // The same event claiming 1 NGN more, signed as Paystack signs (as if the key had leaked, or Paystack erred).
  const event = JSON.parse(paid.callback.raw.toString('utf8'));
  event.data.amount += 100;
  const raw = Buffer.from(JSON.stringify(event));
  const headers = { 'content-type': 'application/json', 'x-paystack-signature': createHmac('sha512', paystack_secret_key).update(raw).digest('hex') };

  paystack.delay_ms = 400;
  const reconcile = server.admin('POST', '/admin/funding/reconcile', {});
  await sleep(150);
  const callback = server.api('POST', '/callbacks/funding/paystack', { raw_body: raw, headers });
  const [reconciled, answered] = await Promise.all([reconcile, callback]);
  paystack.delay_ms = 0;
  t.match(reconciled.body?.data, { found: 1, credited: 1 }, 'the reconcile credits the transfer');
  t.equal(answered.status, 200, answered.text);
  t.equal(answered.body?.data?.outcome, 'already_credited', 'the callback answers the credit the reconcile made, not "recorded as an exception, nothing credited"');
  const exceptions = (await server.admin('GET', '/admin/funding/exceptions?status=all')).body.data.exceptions;
  t.same(exceptions, [], 'no exception for a credited transfer');
  const entries = (await server.api('GET', '/v1/wallet/transactions', { key })).body.data.transactions;
  t.equal(entries.length, 1, 'credited once');
  t.equal(entries[0].amount, 4_000, 'for the provider\'s amount');
});

t.test('a reconcile that finds its transfers credited by a callback whose commit is not yet durable answers once it is', async (t) => {
  // Found by the crash campaign (round 25 of seed 900900900): a reconcile answered 200 having skipped a transfer
  // that a concurrent callback's credit had claimed in a commit not yet durable; the kill then discarded that
  // commit, and the transfer the acknowledged reconcile had found was credited nowhere. In process, the test
  // holds every commit's durability as a cluster's stream would (the journal's appender hook).
  const monnify = await start_fake_monnify();
  t.teardown(() => monnify.stop());
  const server = await start_in_process(t, { env: { FUNDING_PROVIDERS: JSON.stringify([monnify.entry('monnify')]), LOG_LEVEL: 'warn' } });
  const account = await server.create_account();
  const key = (await server.create_key(account.id, { environment: 'live' })).api_key;
  const made = await server.api('POST', '/v1/funding/accounts', { key, body: {} });
  t.equal(made.status, 201, made.text);
  const paid = monnify.pay_in({ account_number: made.body.data.accounts[0].account_number, amount_kobo: 2_000_00 });
  server.clock.advance(60_000);

  const held: (() => void)[] = [];
  server.engine.journal.appender = {
    append(_changes: readonly StagedChange[]) {
      const appended = new Promise<void>((resolve) => held.push(resolve));
      return { changes: [], appended };
    },
  };
  const callback = server.api('POST', '/callbacks/funding/monnify', { raw_body: paid.callback.raw, headers: paid.callback.headers });
  for (const deadline = Date.now() + 10_000; held.length === 0; await sleep(5)) if (Date.now() > deadline) throw new Error('the credit was never committed');
  let reconciled: { status: number; body: any } | null = null;
  const reconcile = server.admin('POST', '/admin/funding/reconcile', {}).then((answer) => (reconciled = answer));
  await sleep(500);
  t.equal(reconciled, null, 'the reconcile does not answer while the credit it found is not durable');
  server.engine.journal.appender = null;
  for (const release of held.splice(0)) release();
  await Promise.all([callback, reconcile]);
  t.match(reconciled!.body?.data, { found: 1, credited: 0 }, 'then it answers: found, credited by the callback');
  t.equal((await callback).body?.data?.outcome, 'credited', 'the callback credited it');
});
