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
