// A funding transfer into a closed agent's dedicated account (docs/funding.md "Exceptions", docs/decisions.md
// "Agents"): never credited there (its balances went back to its parent and nothing moves them again); it is an
// account_closed exception, acknowledged 200 as every exception is, from a callback or the reconciler, at each of
// the three providers (fakes speaking their documented APIs over HTTP). The operator credits it to another
// account once, however often the callback, a reconcile or a resolve come again, or rejects it.
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { start_fake_monnify } from './helpers/fake-monnify.js';
import { start_fake_paystack } from './helpers/fake-paystack.js';
import { start_fake_flutterwave_funding } from './helpers/fake-flutterwave-funding.js';
import type { FakeCallback, FakeFundingProvider, FakeTransfer } from './helpers/fake-funding.js';

function post_callback(server: TestServer, name: string, callback: FakeCallback) {
  return server.api('POST', `/callbacks/funding/${name}`, { raw_body: callback.raw, headers: callback.headers });
}

async function live_balance(server: TestServer, account_id: number): Promise<number> {
  const account = await server.admin('GET', `/admin/accounts/${account_id}`);
  return account.body.data.wallets.live.balance;
}

t.test('a transfer into a closed agent\'s dedicated account is an account_closed exception at every provider, never credited there; a resolve credits the parent once', async (t) => {
  const monnify = await start_fake_monnify();
  t.teardown(() => monnify.stop());
  const paystack = await start_fake_paystack(t);
  const flutterwave = await start_fake_flutterwave_funding(t);
  const server = await start_server(t, {
    env: { FUNDING_PROVIDERS: JSON.stringify([monnify.entry('monnify'), paystack.entry('paystack'), flutterwave.entry('flw')]), TIME_SCALE: '50' },
  });
  const reseller = await server.create_account();
  const parent_key = (await server.create_key(reseller.id, { environment: 'live', rate_limit_per_minute: 100_000 })).api_key;
  const opened = await server.api('POST', '/v1/agents', { key: parent_key, body: { name: 'Till 9', email: `till9-${Date.now()}@example.ng`, phone: '08031234567', password: 'agent password 1', kyc_level: 1 } });
  t.equal(opened.status, 201, `the agent is opened: ${opened.text}`);
  const agent_id = opened.body.data.id as number;
  const made = await server.admin('POST', `/admin/accounts/${agent_id}/funding/accounts`, { bvn: '22212345678' });
  t.equal(made.status, 201, `the agent's dedicated accounts: ${made.text}`);
  const fakes: [string, FakeFundingProvider][] = [['monnify', monnify], ['paystack', paystack], ['flw', flutterwave]];
  const number_at = (name: string): string => made.body.data.accounts.find((r: { provider: string }) => r.provider === name).account_number;
  for (const [name] of fakes) t.match(number_at(name), /^\d{10}$/, `the agent has an account at ${name}`);

  // While it is open, a transfer is credited to the agent as to anyone.
  const open_paid = monnify.pay_in({ account_number: number_at('monnify'), amount_kobo: 100_00 });
  const open_answer = await post_callback(server, 'monnify', open_paid.callback);
  t.equal(open_answer.body.data.outcome, 'credited', 'before closing, a transfer is credited to the agent');
  t.equal(await live_balance(server, agent_id), 100, 'the agent holds it');

  const closed = await server.api('DELETE', `/v1/agents/${agent_id}`, { key: parent_key });
  t.equal(closed.status, 200, `the parent closes the agent: ${closed.text}`);
  const parent_before = await live_balance(server, reseller.id);
  t.equal(parent_before, 100, 'the agent\'s balance went back to its parent');

  // After the close: the callback of each provider, twice.
  const paid = new Map<string, FakeTransfer & { callback: FakeCallback }>();
  const amounts_kobo: Record<string, number> = { monnify: 2_000_00, paystack: 3_000_00, flw: 4_000_00 };
  for (const [name, fake] of fakes) {
    const transfer = fake.pay_in({ account_number: number_at(name), amount_kobo: amounts_kobo[name] });
    paid.set(name, transfer);
    for (const attempt of ['the callback', 'its repeat']) {
      const answer = await post_callback(server, name, transfer.callback);
      t.equal(answer.status, 200, `${name}: ${attempt} is acknowledged 200, so the provider stops retrying`);
      t.equal(answer.body.data.outcome, 'exception', `${name}: ${attempt} is an exception, not a credit`);
    }
  }
  t.equal(await live_balance(server, agent_id), 0, 'nothing was credited to the closed agent');
  t.equal(await live_balance(server, reseller.id), parent_before, 'nor to its parent');
  const agent_entries = await server.admin('GET', `/admin/accounts/${agent_id}`);
  t.same(agent_entries.body.data.wallets.live.balance, 0, 'the closed agent\'s wallet is still empty');

  // Transfers whose callback never comes: the reconciler finds them, and records them the same way.
  const silent_monnify = monnify.record_transfer({ account_number: number_at('monnify'), amount_kobo: 500_00 });
  const silent_paystack = paystack.pay_in_silently({ account_number: number_at('paystack'), amount_kobo: 600_00 });
  const reconcile = await server.admin('POST', '/admin/funding/reconcile', {});
  t.equal(reconcile.status, 200, 'the reconciler runs');
  t.equal(reconcile.body.data.credited, 0, 'and credits nothing into the closed agent');
  t.equal(reconcile.body.data.exceptions, 2, 'the two transfers without a callback become exceptions');
  t.equal(await live_balance(server, agent_id), 0, 'the closed agent is still at 0');
  t.equal(await live_balance(server, reseller.id), parent_before, 'its parent is unchanged');

  const listed = await server.admin('GET', '/admin/funding/exceptions');
  const ours = listed.body.data.exceptions.filter((e: { account_id: number | null }) => e.account_id === agent_id);
  t.equal(ours.length, 5, 'five exceptions for the closed agent: one per transfer, not per callback');
  t.ok(ours.every((e: { reason: string; status: string }) => e.reason === 'account_closed' && e.status === 'open'), 'each open, with reason account_closed');
  const of = (reference: string) => ours.find((e: { provider_reference: string }) => e.provider_reference === reference);
  t.match(of(paid.get('paystack')!.provider_reference), { provider: 'paystack', amount: 3000, provider_amount: 3000 }, 'with the amount paid');
  t.ok(of(silent_monnify.provider_reference) && of(silent_paystack.provider_reference), 'the reconciler\'s are among them');

  // The operator decides: never into the closed agent; into its parent, once.
  const exception = of(paid.get('monnify')!.provider_reference);
  const into_closed = await server.admin('POST', `/admin/funding/exceptions/${exception.id}/resolve`, { action: 'credit' });
  t.equal(into_closed.status, 409, 'crediting the closed agent itself is refused');
  t.equal(into_closed.body.error.code, 'agents.closed', 'with agents.closed');
  t.match(into_closed.body.error.message, `its parent is account ${reseller.id}`, 'naming its parent');
  t.equal(await live_balance(server, agent_id), 0, 'nothing credited by the refusal');
  const resolves = await Promise.all([1, 2, 3].map(() => server.admin('POST', `/admin/funding/exceptions/${exception.id}/resolve`, { action: 'credit', account_id: reseller.id })));
  t.equal(resolves.filter((r) => r.status === 200).length, 1, 'of three resolves at once, one credits');
  t.ok(resolves.filter((r) => r.status !== 200).every((r) => r.body.error.code === 'funding.exception_resolved'), 'the others see it resolved');
  const done = resolves.find((r) => r.status === 200)!;
  t.match(done.body.data.exception, { status: 'credited', reason: 'account_closed' }, 'the exception is credited');
  t.equal(done.body.data.wallet_transaction.amount, 2000, 'the provider\'s amount');
  t.equal(await live_balance(server, reseller.id), parent_before + 2000, 'the parent got it once');
  const again = await post_callback(server, 'monnify', paid.get('monnify')!.callback);
  t.equal(again.body.data.outcome, 'already_credited', 'the callback once more answers the credit, and credits nothing');
  const reconcile_again = await server.admin('POST', '/admin/funding/reconcile', {});
  t.same([reconcile_again.body.data.credited, reconcile_again.body.data.exceptions], [0, 0], 'a reconcile afterwards credits nothing and records nothing');
  t.equal(await live_balance(server, reseller.id), parent_before + 2000, 'still once');
  t.equal(await live_balance(server, agent_id), 0, 'and the closed agent still at 0');

  const rejected = await server.admin('POST', `/admin/funding/exceptions/${of(paid.get('flw')!.provider_reference).id}/resolve`, { action: 'reject' });
  t.equal(rejected.status, 200, 'an exception is rejected (to refund outside billvend)');
  t.equal(rejected.body.data.exception.status, 'rejected', 'and reads rejected');
  const flw_again = await post_callback(server, 'flw', paid.get('flw')!.callback);
  t.equal(flw_again.body.data.outcome, 'exception', 'its callback again is still the exception, not a credit');
  t.equal(await live_balance(server, reseller.id), parent_before + 2000, 'the rejected transfer credited nothing');
});
