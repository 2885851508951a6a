// An agent's purchase on the live path, refunded (issue 33; docs/decisions.md "Commissions down the tree",
// docs/upstreams.md "Callbacks and reversals"): a three-level tree (reseller → super-agent → agent) with price
// lists buys live through the doc-faithful fake VTpass (test/helpers/fake-upstream.ts, recorded answers in
// test/fixtures/upstreams/vtpass/). Each ancestor earns its commission in the record of the agent's debit; when
// VTpass's re-query (asked for by its transaction-update callback) says the order failed, or that a delivered one
// was reversed, the agent gets back exactly its charge and each commission is reversed once, in the record of the
// agent's refund; repeated callbacks move nothing more; an ancestor that spent its commission gives back what it
// holds and the order records the rest as its commission shortfall. test/agents-pricing.test.ts covers the same
// in the sandbox, where the refund comes in the command that placed the order.
import t, { type Test } from 'tap';
import { open_store, start_server, type TestServer } from './helpers/server.js';
import { start_upstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { balance_kobo, buy_airtime, kobo, order, wait_for_async, warm_up_live } from './helpers/purchases.js';
import { LiveAgentTree, agent_charge, agent_pin, reseller_commission, reseller_pin, sup_commission, tree_amount as amount } from './helpers/live-agent-tree.js';

const callback_token = 'cb-token-33a9e1c07b5d4f2a8e6c1b9d0f3a7e52';

const vtpass: FakeUpstream = await start_upstream(t);
const upstreams = [{ name: 'vtpass', kind: 'vtpass', base_url: vtpass.base_url, api_key: 'fake-api-key', secret_key: 'fake-secret-key', timeout_ms: 1000, callback_token }];
// TIME_SCALE 1: an order's first scheduled re-query is 30 s away, so here only the callbacks' re-queries move it.
const server: TestServer = await start_server(t, { env: { UPSTREAMS: JSON.stringify(upstreams) } });
const callback_url = `${server.base}/callbacks/vtpass/vtpass/${callback_token}`;
const tree = await new LiveAgentTree(server).open('livegold');
const { reseller, sup, agent } = tree;
await warm_up_live(server, agent.key);

/** Callbacks again: answered 200, nothing asked of VTpass, nothing moved. */
async function repeats_move_nothing(t: Test, reference: string, request_id: string, kind: 'callback-transaction-update' | 'callback-transaction-reversal'): Promise<void> {
  const settled = { balances: await tree.balances(), entries: await tree.tree_entries_of(reference), requeries: vtpass.calls('/api/requery', request_id).length };
  const again = await Promise.all([1, 2].map(() => vtpass.send_callback(callback_url, request_id, kind)));
  t.same(again.map((a) => a.status), [200, 200], 'the same callback twice more: each answered 200');
  // A final order asks nothing; the re-query a bug would start is given time to land before the reads below.
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.equal(vtpass.calls('/api/requery', request_id).length, settled.requeries, 'a refunded order is final: the repeats ask VTpass nothing');
  t.same(await tree.balances(), settled.balances, 'and move no wallet of the tree');
  t.same(await tree.tree_entries_of(reference), settled.entries, 'nor write any entry');
}

t.test('an agent\'s live purchase left pending, then failed by VTpass\'s re-query: the agent gets back its charge and each commission is reversed once', async (t) => {
  const phone = '08064033001';
  vtpass.set_mode(phone, 'hold_fail');
  const before = await tree.balances();
  const bought = await buy_airtime(server, agent.key, phone, amount, { pin: agent_pin });
  t.equal(bought.status, 201, `the agent's purchase is taken (${bought.text.slice(0, 160)})`);
  t.equal(bought.body.data?.status, 'processing', 'VTpass answered pending: the order is processing');
  t.equal(kobo(bought.body.data.amount_charged), agent_charge, 'charged at the agent\'s own 250 bp');
  const reference = bought.body.data.reference;
  const request_id = vtpass.pays_for(phone)[0].body.request_id;
  await tree.commissions_paid(t, reference, before);

  // VTpass settles it as failed and says so in its transaction-update callback; the re-query it prompts reads it.
  t.equal(vtpass.release(phone), 1, 'VTpass settles the held payment (as failed)');
  const first = await vtpass.send_callback(callback_url, request_id);
  t.equal(first.status, 200, 'the callback is answered 200');
  const failed = await wait_for_async(async () => {
    const record = await order(server, agent.key, reference);
    return record.status === 'processing' ? null : record;
  }, 10_000, 'the re-query to settle the order');
  t.equal(failed.status, 'failed', 'the re-query failed the order');
  t.equal(failed.reversed, true, 'and refunded it');
  t.equal(vtpass.calls('/api/requery', request_id).length, 1, 'one re-query for the callback');
  t.equal(vtpass.pays_for(phone).length, 1, 'nothing was paid again');
  await tree.refunded_once(t, reference, before);
  await repeats_move_nothing(t, reference, request_id, 'callback-transaction-update');
});

t.test('an agent\'s delivered live purchase that VTpass reverses later: the commissions are reversed once with the agent\'s refund', async (t) => {
  const phone = '08064033002';
  const before = await tree.balances();
  const bought = await buy_airtime(server, agent.key, phone, amount, { pin: agent_pin });
  t.equal(bought.body.data?.status, 'delivered', `the agent's purchase is delivered (${bought.text.slice(0, 160)})`);
  const reference = bought.body.data.reference;
  const request_id = vtpass.pays_for(phone)[0].body.request_id;
  await tree.commissions_paid(t, reference, before);

  t.ok(vtpass.reverse(request_id), 'VTpass reverses the delivered transaction');
  // VTpass sends its reversal callback up to 5 times: three at once here, two more once it is refunded.
  const answers = await Promise.all([1, 2, 3].map(() => vtpass.send_callback(callback_url, request_id, 'callback-transaction-reversal')));
  t.same(answers.map((a) => a.status), [200, 200, 200], 'each reversal callback is answered 200');
  const reversed = await wait_for_async(async () => {
    const record = await order(server, agent.key, reference);
    return record.status === 'failed' ? record : null;
  }, 10_000, 'the reversal to be refunded');
  t.equal(reversed.reversed, true, 'the order is marked reversed');
  t.match(reversed.failure_reason, /reversed/i, `its failure reason says VTpass reversed it (${reversed.failure_reason})`);
  await tree.refunded_once(t, reference, before);
  await repeats_move_nothing(t, reference, request_id, 'callback-transaction-reversal');
});

t.test('an ancestor that spent its commission before the failure gives back what it holds: the agent is refunded in full, the order records the shortfall', async (t) => {
  const phone = '08064033003';
  vtpass.set_mode(phone, 'hold_fail');
  const before = await tree.balances();
  const bought = await buy_airtime(server, agent.key, phone, amount, { pin: agent_pin });
  t.equal(bought.body.data?.status, 'processing', `the order waits for VTpass (${bought.text.slice(0, 160)})`);
  const reference = bought.body.data.reference;
  const request_id = vtpass.pays_for(phone)[0].body.request_id;
  await tree.commissions_paid(t, reference, before);

  // The reseller pulls back everything the super-agent holds, its 5.00 commission included.
  const held_kobo = await balance_kobo(server, sup.key);
  await tree.transfer(reseller.key, reseller_pin, sup.id, 'from_agent', held_kobo / 100);
  t.equal(await balance_kobo(server, sup.key), 0, 'the super-agent holds nothing');
  const spent = await tree.balances();

  vtpass.release(phone);
  await vtpass.send_callback(callback_url, request_id);
  const failed = await wait_for_async(async () => {
    const record = await order(server, agent.key, reference);
    return record.status === 'processing' ? null : record;
  }, 10_000, 'the re-query to settle the order');
  t.equal(failed.status, 'failed', 'the re-query failed the order');
  t.same(await tree.balances(), [spent[0] - reseller_commission, 0, spent[2] + agent_charge], 'the agent got back all 325.00, the reseller gave back its 3.33, the super-agent stayed at zero');
  const after = await tree.tree_entries_of(reference);
  t.same(after.sup.map(([type, k]) => [type, k]), [['commission', sup_commission]], 'the super-agent had nothing to give back: no reversal entry');
  t.same(after.reseller.map(([type, k]) => [type, k]), [['commission', reseller_commission], ['commission_reversal', reseller_commission]], 'the reseller reversed once');
  t.same(after.agent.map(([type, k]) => [type, k]), [['debit', agent_charge], ['reversal', agent_charge]], 'the agent: one refund of its charge');
  await tree.every_wallet_adds_up(t, 'after the refund with a shortfall');
  await repeats_move_nothing(t, reference, request_id, 'callback-transaction-update');

  // The shortfall is on the order record (not in the API): read from the stopped server's store.
  const sup_final = await balance_kobo(server, sup.key);
  await server.stop();
  const store = open_store(server.data_dir, { readOnly: true });
  let stored: any = undefined;
  for (const { value } of store.db('orders').getRange()) {
    if (value.reference === reference) stored = value;
  }
  await store.root.close();
  t.equal(stored?.commission_shortfall_kobo, sup_commission, 'the order records the 5.00 the super-agent could not give back as commission_shortfall_kobo');
  t.equal(sup_final, 0, 'the super-agent\'s balance never went below zero');
});
