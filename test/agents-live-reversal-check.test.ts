// An agent's delivered live purchase that VTpass reversed without a callback (issue 33; docs/upstreams.md "The 24 h
// re-query"; docs/decisions.md "Commissions down the tree"): the re-query 24 h after delivery finds the reversal
// and refunds the agent its charge, and each ancestor's commission is reversed once in the same record; days more
// ask nothing again and move nothing. The server runs in this process on a manual clock (test/helpers/in-process.ts).
// test/agents-live-refund.test.ts covers the callback's path.
import t from 'tap';
import { start_in_process, whole_second_ms } from './helpers/in-process.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { buy_airtime, order, wait_for_async, warm_up_live } from './helpers/purchases.js';
import { LiveAgentTree, agent_pin, tree_amount } from './helpers/live-agent-tree.js';
import { reversal_check_after_ms, reversal_sweep_every_ms } from '../src/services/upstreams/upstream-callbacks.js';

t.setTimeout(120_000);

const hour_ms = 60 * 60 * 1000;

t.test('an agent\'s delivered live purchase reversed without a callback: the 24 h re-query refunds the agent and reverses each commission once', async (t) => {
  const vtpass = await start_upstream(t);
  const server = await start_in_process(t, { env: vtpass.env(1_000), start_ms: whole_second_ms() });
  const tree = await new LiveAgentTree(server).open('livegold24');
  await warm_up_live(server, tree.agent.key);

  const phone = '08065033201';
  const before = await tree.balances();
  const bought = await buy_airtime(server, tree.agent.key, phone, tree_amount, { pin: agent_pin });
  t.equal(bought.body.data?.status, 'delivered', `the agent's purchase is delivered (${bought.text.slice(0, 160)})`);
  const reference = bought.body.data.reference;
  const request_id = vtpass.pays_for(phone)[0].body.request_id;
  await tree.commissions_paid(t, reference, before);

  t.ok(vtpass.reverse(request_id), 'VTpass reverses it, and sends no callback');
  for (let hour = 0; hour < 23; hour++) server.clock.advance(hour_ms);
  await warm_up_live(server, tree.agent.key);
  t.equal(vtpass.calls('/api/requery', request_id).length, 0, 'nothing is asked within the 24 hours');
  t.equal((await order(server, tree.agent.key, reference)).status, 'delivered', 'so the order stays delivered meanwhile');

  server.clock.advance(reversal_check_after_ms - 23 * hour_ms + 2 * reversal_sweep_every_ms);
  const reversed = await wait_for_async(async () => {
    const record = await order(server, tree.agent.key, reference);
    return record.status === 'failed' ? record : null;
  }, 10_000, 'the 24 h re-query to refund the reversal');
  t.equal(reversed.reversed, true, 'the order is marked reversed');
  t.equal(vtpass.calls('/api/requery', request_id).length, 1, 'it was re-queried once');
  await tree.refunded_once(t, reference, before);

  const settled = { balances: await tree.balances(), entries: await tree.tree_entries_of(reference) };
  for (let hour = 0; hour < 48; hour++) server.clock.advance(hour_ms);
  await warm_up_live(server, tree.agent.key);
  t.equal(vtpass.calls('/api/requery', request_id).length, 1, 'two days more ask nothing again');
  t.same(await tree.balances(), settled.balances, 'and move no wallet of the tree');
  t.same(await tree.tree_entries_of(reference), settled.entries, 'nor write any entry');
});
