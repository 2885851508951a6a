// An agent tree in cluster mode (docs/cluster.md, docs/api.md "Agents"): accounts with a parent, their statuses,
// transfers (both sides in one journal record) and the reference claimed for ever are journaled state, so the
// standby applies them from the stream. On the leader: a reseller -> super-agent -> agent tree, transfers both
// ways (one repeated by its reference), the agent's purchase made by the reseller's key acting for it, a
// suspension and a closing with a balance; the leader is killed with SIGKILL, and the node that takes over shows
// the same tree (list, balances, statuses, transfers, entries), answers the repeats alike, and moves money anew.
import t from 'tap';
import { cluster_lab, cluster_status, start_node, wait_leading, wait_until } from './helpers/nats-cluster.js';
import type { TestServer } from './helpers/server.js';
import { sandbox } from './helpers/purchases.js';

t.test('an agent tree, its transfers, purchases, suspension and closing survive the leader\'s kill -9', async (t) => {
  const { nats, nodes } = await cluster_lab(t);
  const env = { LOG_LEVEL: 'warn' };
  const a = await start_node(nats, 'a', { env });
  nodes.push(a);
  await wait_leading(a);
  const b = await start_node(nats, 'b', { env });
  nodes.push(b);

  const reseller = await a.create_account({ kyc_level: 3 });
  const key = (await a.create_key(reseller.id, { scopes: ['*'] })).api_key;
  await a.credit(reseller.id, 'test', 100_000);
  const call = (node: TestServer, method: string, path: string, acting: number | null, body?: unknown, idempotency_key?: string) =>
    node.api(method, path, { key, ...(acting === null ? {} : { headers: { 'Billvend-Account': String(acting) } }), ...(body === undefined ? {} : { body }), ...(idempotency_key === undefined ? {} : { idempotency_key }) });
  const open = async (acting: number | null, n: number, pin: string, kyc_level: number) => {
    const made = await call(a, 'POST', '/v1/agents', acting, { name: `Till ${n}`, email: `cluster-agent-${n}-${Date.now()}@example.ng`, phone: '08031234567', password: 'agent password 1', kyc_level, pin });
    t.equal(made.status, 201, `agent ${n} opened`);
    return made.body.data.id as number;
  };
  const move = (node: TestServer, parent: number | null, agent: number, direction: string, amount: number, pin: string, reference: string) =>
    call(node, 'POST', `/v1/agents/${agent}/transfers`, parent, { direction, amount, environment: 'test', pin, reference });

  const super_agent = await open(null, 1, '24680', 2);
  const agent = await open(super_agent, 2, '13579', 1);
  const doomed = await open(super_agent, 3, '11223', 1);
  const first = await move(a, null, super_agent, 'to_agent', 20_000, '12345', 'cl-1');
  t.equal(first.status, 201, 'the reseller funds its super-agent');
  const repeated = await move(a, null, super_agent, 'to_agent', 20_000, '12345', 'cl-1');
  t.same([repeated.status, repeated.headers.get('idempotent-replayed'), repeated.body.data], [201, 'true', first.body.data], 'a repeat of the reference answers the same, moving nothing');
  const down = await move(a, super_agent, agent, 'to_agent', 5_000, '24680', 'cl-2');
  t.equal(down.status, 201, 'the super-agent funds its agent (the reseller acting for it)');
  t.equal((await move(a, super_agent, agent, 'from_agent', 750.25, '24680', 'cl-3')).status, 201, 'and takes some back');
  t.equal((await move(a, super_agent, doomed, 'to_agent', 1_234.56, '24680', 'cl-4')).status, 201, 'and funds the agent it will close');
  const bought = await call(a, 'POST', '/v1/services/airtime', agent, { network: 'mtn', phone: sandbox.delivered, amount: 100, pin: '13579' }, 'cl-buy');
  t.equal(bought.status, 201, 'the agent\'s purchase, made by the reseller acting for it');
  t.equal((await call(a, 'PATCH', `/v1/agents/${agent}`, null, { status: 'suspended' })).status, 200, 'the agent is suspended');
  const closed = await call(a, 'DELETE', `/v1/agents/${doomed}`, null);
  t.equal(closed.status, 200, 'the other agent is closed, its balance swept to the super-agent');

  /** Everything a reseller sees of its tree. */
  const tree_of = async (node: TestServer) => {
    const list = (await call(node, 'GET', '/v1/agents', null)).body.data;
    const below = (await call(node, 'GET', '/v1/agents', super_agent)).body.data;
    const read = async (id: number) => ({
      agent: (await call(node, 'GET', `/v1/agents/${id}`, null)).body.data,
      transfers: (await call(node, 'GET', `/v1/agents/${id}/transfers`, null)).body.data,
    });
    return {
      list, below,
      super_agent: await read(super_agent), agent: await read(agent), doomed: await read(doomed),
      wallet: (await call(node, 'GET', '/v1/wallet', null)).body.data,
      entries: (await call(node, 'GET', '/v1/wallet/transactions?per_page=100', null)).body.data.transactions,
      super_entries: (await call(node, 'GET', '/v1/wallet/transactions?per_page=100', super_agent)).body.data.transactions,
      // The suspended agent's own order, read by the reseller acting for it (as status, whatever a suspension allows).
      agent_order: await call(node, 'GET', `/v1/transactions/${bought.body.data.reference}`, agent).then((r) => [r.status, r.body?.data ?? r.body?.error?.code]),
    };
  };
  const on_a = await tree_of(a);
  t.equal(on_a.agent.agent.status, 'suspended', 'the leader shows the agent suspended');
  t.equal(on_a.doomed.agent.status, 'closed', 'and the other closed, holding nothing');
  t.equal(on_a.doomed.agent.balances.test.balance, 0);
  t.ok(on_a.list.agents.length === 1 && on_a.below.agents.length === 2 && on_a.entries.length === 2 && on_a.super_entries.length === 5 && on_a.agent.transfers.transfers.length === 2,
    'the tree read is not empty: 1 agent of the reseller, 2 of the super-agent, the reseller\'s credit and transfer, the super-agent\'s five transfers, the agent\'s two');

  await wait_until('the standby to catch up', async () => (await cluster_status(b)).applied_seq === (await cluster_status(a)).applied_seq);
  await a.kill();
  await wait_leading(b, 30_000);

  t.same(await tree_of(b), on_a, 'the new leader shows the same tree: agents, statuses, balances, transfers and entries');
  const again = await move(b, null, super_agent, 'to_agent', 20_000, '12345', 'cl-1');
  t.same([again.status, again.headers.get('idempotent-replayed'), again.body.data], [201, 'true', first.body.data], 'the transfer repeated on the new leader answers the same');
  const down_again = await move(b, super_agent, agent, 'to_agent', 5_000, '24680', 'cl-2');
  t.same([down_again.status, down_again.body.data], [201, down.body.data], 'and so does the super-agent\'s');
  t.equal((await call(b, 'PATCH', `/v1/agents/${agent}`, null, { status: 'active' })).status, 200, 'the agent is reactivated on the new leader');
  const bought_again = await call(b, 'POST', '/v1/services/airtime', agent, { network: 'mtn', phone: sandbox.delivered, amount: 100, pin: '13579' }, 'cl-buy');
  t.same([bought_again.status, bought_again.headers.get('idempotent-replayed'), bought_again.body.data], [201, 'true', bought.body.data], 'the purchase repeated by its key answers the same, buying nothing');
  const fresh = await move(b, super_agent, agent, 'to_agent', 10, '24680', 'cl-5');
  t.equal(fresh.status, 201, 'a new transfer works on the new leader');
  const balance = (id: number) => call(b, 'GET', `/v1/agents/${id}`, null).then((r) => r.body.data.balances.test.balance);
  t.equal(await balance(agent), on_a.agent.agent.balances.test.balance + 10, 'the agent got it, once');
  t.equal(await balance(super_agent), on_a.super_agent.agent.balances.test.balance - 10, 'from its super-agent');
  t.equal((await move(b, super_agent, doomed, 'to_agent', 10, '24680', 'cl-6')).body?.error?.code, 'agents.closed', 'the closed agent stays closed');
});
