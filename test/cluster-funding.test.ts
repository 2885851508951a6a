// Funding state in cluster mode (docs/funding.md "What is kept", docs/cluster.md): dedicated accounts, credits,
// exceptions and the exactly-once claim [environment, provider, provider reference] are journaled state, so the
// standby applies them from the stream. The leader makes a reseller's accounts at two fake providers (Monnify and
// Paystack, each speaking its documented API), credits transfers through their signed callbacks and a reconcile,
// records a callback that disagrees with the provider as an exception; it is killed with SIGKILL, the standby
// takes over and shows the same accounts, entries and exception; a callback already credited, sent again to it,
// credits nothing, the reconcile finds nothing new, and a new transfer's callback credits once.
import t from 'tap';
import { cluster_lab, cluster_status, start_node, wait_leading, wait_until } from './helpers/nats-cluster.js';
import type { TestServer } from './helpers/server.js';
import { start_fake_monnify } from './helpers/fake-monnify.js';
import { start_fake_paystack } from './helpers/fake-paystack.js';
import type { FakeCallback } from './helpers/fake-funding.js';

const post_callback = (server: TestServer, name: string, callback: FakeCallback) =>
  server.api('POST', `/callbacks/funding/${name}`, { raw_body: callback.raw, headers: callback.headers });

t.test('dedicated accounts, credits (once), exceptions and the exactly-once claim survive the leader\'s kill -9', async (t) => {
  const monnify = await start_fake_monnify();
  const paystack = await start_fake_paystack(t);
  t.teardown(() => monnify.stop());
  const { nats, nodes } = await cluster_lab(t);
  const env = { LOG_LEVEL: 'warn', FUNDING_PROVIDERS: JSON.stringify([monnify.entry('monnify'), paystack.entry('paystack')]) };
  const a = await start_node(nats, 'a', { env });
  nodes.push(a);
  await wait_leading(a);
  const b = await start_node(nats, 'b', { env });
  nodes.push(b);

  const reseller = await a.create_account();
  const key = (await a.create_key(reseller.id, { environment: 'live' })).api_key;
  const made = await a.api('POST', '/v1/funding/accounts', { key, body: { bvn: '22212345678' } });
  t.equal(made.status, 201, made.text);
  const rows = made.body.data.accounts as { provider: string; account_number: string; status: string }[];
  t.ok(rows.length >= 2 && rows.every((r) => r.status === 'active'), `${rows.length} dedicated accounts made on the leader`);
  const number = (provider: string) => rows.find((r) => r.provider === provider)!.account_number;

  // On the leader: two callbacks credited (one of them sent twice), a transfer whose callback never comes found
  // by a reconcile, and a callback disagreeing with the provider's record kept as an exception.
  const t1 = monnify.pay_in({ account_number: number('monnify'), amount_kobo: 12_345_67, fee_kobo: 123_46 });
  const t2 = paystack.pay_in({ account_number: number('paystack'), amount_kobo: 2_500_00, fee_kobo: 37_50 });
  t.match((await post_callback(a, 'monnify', t1.callback)).body?.data, { outcome: 'credited' }, 'the Monnify callback is credited');
  t.match((await post_callback(a, 'paystack', t2.callback)).body?.data, { outcome: 'credited' }, 'the Paystack callback is credited');
  t.match((await post_callback(a, 'paystack', t2.callback)).body?.data, { outcome: 'already_credited' }, 'its repeat credits nothing');
  const t3 = paystack.pay_in_silently({ account_number: number('paystack'), amount_kobo: 777_00, fee_kobo: 11_66 });
  const reconciled = await a.admin('POST', '/admin/funding/reconcile', {});
  t.match(reconciled.body?.data, { credited: 1 }, 'the reconcile credits the transfer whose callback never came');
  const t4 = monnify.record_transfer({ account_number: number('monnify'), amount_kobo: 50_000_00 });
  const disagreeing = monnify.callback_for(t4.provider_reference, { amountPaid: 60_000, totalPayable: 60_000 });
  t.match((await post_callback(a, 'monnify', disagreeing)).body?.data, { outcome: 'exception' }, 'a callback that disagrees with Monnify\'s record is an exception');

  const credited_kobo = t1.amount_kobo + t2.amount_kobo + t3.amount_kobo;
  const history_on_a = (await a.api('GET', '/v1/wallet/transactions?per_page=100', { key })).body.data.transactions;
  t.equal(history_on_a.length, 3, 'three credits on the leader');
  const exceptions_on_a = (await a.admin('GET', '/admin/funding/exceptions?status=all')).body.data.exceptions;
  t.equal(exceptions_on_a.length, 1, 'one exception on the leader');
  const report_day = new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);
  const report_on_a = (await a.admin('GET', `/admin/funding/report?date=${report_day}`)).body?.data;

  await wait_until('the standby to catch up', async () => (await cluster_status(b)).applied_seq === (await cluster_status(a)).applied_seq);
  await a.kill();
  await wait_leading(b, 30_000);

  // The new leader holds the same funding state.
  const rows_on_b = await b.api('GET', '/v1/funding/accounts', { key });
  t.same(rows_on_b.body?.data?.accounts, rows, 'the dedicated accounts, as the old leader made them');
  t.same((await b.api('GET', '/v1/wallet/transactions?per_page=100', { key })).body.data.transactions, history_on_a, 'the same credits, entry for entry, funding fields included');
  t.equal(Math.round((await b.api('GET', '/v1/wallet', { key })).body.data.balance * 100), credited_kobo, 'the balance is the three transfers, to the kobo');
  t.same((await b.admin('GET', '/admin/funding/exceptions?status=all')).body.data.exceptions, exceptions_on_a, 'the same exception');
  t.same((await b.admin('GET', `/admin/funding/report?date=${report_day}`)).body?.data, report_on_a, 'the same daily report');

  // The exactly-once claim came across too: repeats credit nothing, a new transfer credits once.
  t.match((await post_callback(b, 'monnify', t1.callback)).body?.data, { outcome: 'already_credited' }, 'the Monnify callback again: already credited');
  t.match((await post_callback(b, 'paystack', t2.callback)).body?.data, { outcome: 'already_credited' }, 'the Paystack callback again: already credited');
  t.match((await post_callback(b, 'monnify', disagreeing)).body?.data, { outcome: 'exception' }, 'the disagreeing callback again: still the exception, nothing credited');
  t.match((await b.admin('POST', '/admin/funding/reconcile', {})).body?.data, { credited: 0, exceptions: 0 }, 'a reconcile on the new leader credits nothing (the exception is left to the operator)');
  const t5 = monnify.pay_in({ account_number: number('monnify'), amount_kobo: 1_000_01 });
  const sends = await Promise.all([post_callback(b, 'monnify', t5.callback), post_callback(b, 'monnify', t5.callback)]);
  t.same(sends.map((s) => s.body?.data?.outcome).sort(), ['already_credited', 'credited'], 'a new transfer\'s callback, sent twice at once, is credited once');
  const after = (await b.api('GET', '/v1/wallet/transactions?per_page=100', { key })).body.data.transactions;
  t.equal(after.length, 4, 'one new entry');
  t.equal(Math.round((await b.api('GET', '/v1/wallet', { key })).body.data.balance * 100), credited_kobo + t5.amount_kobo, 'the balance moved by that transfer alone');
  t.equal(after.filter((e: { reference: string }) => e.reference === t1.provider_reference).length, 1, 'the first transfer is still credited once');
});
