// The operator's view of a tree of agents (docs/operations.md "Operator API", docs/decisions.md "Agents"):
// parent_id and status on the operator's accounts, the list's parent_id and status filters, the tree of an
// account with its bound at the edge, the operator's suspension of any account of a tree, and no PIN set on a
// closed agent. Through the real server on random ports.
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { run_cli } from './helpers/fixtures-http.js';

const server = await start_server(t);
const fast_key = { rate_limit_per_minute: 100_000 };
let emails = 0;

function agent_body(name: string) {
  emails++;
  return { name, email: `op-agent${emails}-${Date.now()}@example.ng`, phone: '08031234567', password: 'agent password 1', kyc_level: 1, pin: '54321' };
}

async function open_agent(s: TestServer, parent_key: string, name: string): Promise<{ id: number; key: string }> {
  const created = await s.api('POST', '/v1/agents', { key: parent_key, body: agent_body(name) });
  if (created.status !== 201) throw new Error(`open_agent: ${created.status} ${created.text}`);
  const key = await s.create_key(created.body.data.id, fast_key);
  return { id: created.body.data.id as number, key: key.api_key };
}

/** A transfer to an agent: the reseller's PIN is 12345 (test/helpers/server.ts), an agent's 54321 (agent_body). */
function move(key: string, agent_id: number, amount: number, pin = '12345') {
  return server.api('POST', `/v1/agents/${agent_id}/transfers`, { key, body: { environment: 'test', pin, direction: 'to_agent', amount, reference: `OP-${agent_id}-${Date.now()}-${Math.random()}` } });
}

/**
 * reseller (5,000 test NGN, 1,000 after moves)
 *   ├─ super A (2,500, 1,000 after moves)  ├─ a1 (closed: its 300 swept back to A)  └─ a2 (1,200)
 *   └─ super B (1,500, suspended)           └─ b1 (0)
 */
async function three_levels() {
  const reseller = await server.reseller(5_000, {}, fast_key);
  const a = await open_agent(server, reseller.key, 'Super A');
  const b = await open_agent(server, reseller.key, 'Super B');
  for (const [id, amount] of [[a.id, 2_500], [b.id, 1_500]] as const) {
    const moved = await move(reseller.key, id, amount);
    if (moved.status !== 201) throw new Error(`transfer: ${moved.status} ${moved.text}`);
  }
  const a1 = await open_agent(server, a.key, 'Till a1');
  const a2 = await open_agent(server, a.key, 'Till a2');
  const b1 = await open_agent(server, b.key, 'Till b1');
  for (const [id, amount] of [[a1.id, 300], [a2.id, 1_200]] as const) {
    const moved = await move(a.key, id, amount, '54321');
    if (moved.status !== 201) throw new Error(`transfer: ${moved.status} ${moved.text}`);
  }
  const closed = await server.api('DELETE', `/v1/agents/${a1.id}`, { key: a.key });
  if (closed.status !== 200) throw new Error(`close: ${closed.status} ${closed.text}`);
  const suspended = await server.api('PATCH', `/v1/agents/${b.id}`, { key: reseller.key, body: { status: 'suspended' } });
  if (suspended.status !== 200) throw new Error(`suspend: ${suspended.status} ${suspended.text}`);
  return { reseller, a, b, a1, a2, b1 };
}

const built = await three_levels();

t.test('GET /admin/accounts and /admin/accounts/{id} show parent_id and status', async (t) => {
  const { reseller, a, b, a1 } = built;
  const top = await server.admin('GET', `/admin/accounts/${reseller.id}`);
  t.equal(top.status, 200, 'the reseller reads');
  t.equal(top.body.data.parent_id, null, 'a reseller the operator created has no parent');
  t.equal(top.body.data.status, 'active', 'and is active');
  const closed = await server.admin('GET', `/admin/accounts/${a1.id}`);
  t.equal(closed.body.data.parent_id, a.id, 'an agent names its parent');
  t.equal(closed.body.data.status, 'closed', 'a closed agent reads closed');
  t.same(closed.body.data.wallets.test.balance, 0, 'its balance went back to its parent');
  const page = await server.admin('GET', `/admin/accounts?per_page=100`);
  const listed = page.body.data.accounts.find((x: { id: number }) => x.id === b.id);
  t.equal(listed.parent_id, reseller.id, 'the list names each account\'s parent');
  t.equal(listed.status, 'suspended', 'and its status');
});

t.test('GET /admin/accounts filters by parent_id and by status, paginated, and refuses a bad filter', async (t) => {
  const { reseller, a, b, a1, a2, b1 } = built;
  const children = await server.admin('GET', `/admin/accounts?parent_id=${reseller.id}`);
  t.equal(children.status, 200, 'parent_id lists');
  t.same(children.body.data.accounts.map((x: { id: number }) => x.id), [a.id, b.id], 'the reseller\'s own agents, not their agents');
  t.equal(children.body.data.pagination.total, 2, 'counted');
  const second = await server.admin('GET', `/admin/accounts?parent_id=${a.id}&per_page=1&page=2`);
  t.same(second.body.data.accounts.map((x: { id: number }) => x.id), [a2.id], 'a page of an account\'s agents');
  t.same(second.body.data.pagination, { total: 2, per_page: 1, current_page: 2, last_page: 2 }, 'with its pagination');
  const closed_under_a = await server.admin('GET', `/admin/accounts?parent_id=${a.id}&status=closed`);
  t.same(closed_under_a.body.data.accounts.map((x: { id: number }) => x.id), [a1.id], 'parent_id and status together');
  const suspended = await server.admin('GET', '/admin/accounts?status=suspended&per_page=100');
  t.ok(suspended.body.data.accounts.some((x: { id: number }) => x.id === b.id), 'status=suspended lists the suspended super-agent');
  t.ok(suspended.body.data.accounts.every((x: { status: string }) => x.status === 'suspended'), 'and only suspended accounts');
  t.notOk(suspended.body.data.accounts.some((x: { id: number }) => x.id === b1.id), 'not the agents below it, whose own status is active');
  const closed = await server.admin('GET', '/admin/accounts?status=closed&per_page=100');
  t.equal(closed.body.data.pagination.total, closed.body.data.accounts.length, 'the total counts the matches');
  t.ok(closed.body.data.accounts.some((x: { id: number }) => x.id === a1.id), 'status=closed lists the closed agent');
  const none = await server.admin('GET', `/admin/accounts?parent_id=${b1.id}`);
  t.same(none.body.data.accounts, [], 'an account without agents lists none');
  for (const [query, field] of [['parent_id=0', 'parent_id'], ['parent_id=x', 'parent_id'], ['status=open', 'status'], ['status=', 'status']] as const) {
    const bad = await server.admin('GET', `/admin/accounts?${query}`);
    t.equal(bad.status, 400, `${query} is refused`);
    t.equal(bad.body.error.code, 'validation.failed', `${query}: validation.failed`);
    t.equal(bad.body.error.details[0].field, field, `${query}: naming ${field}`);
  }
});

t.test('GET /admin/accounts/{id}/tree: the account and its subtree, three levels, statuses and balances per environment', async (t) => {
  const { reseller, a, b, a1, a2, b1 } = built;
  const answer = await server.admin('GET', `/admin/accounts/${reseller.id}/tree`);
  t.equal(answer.status, 200, 'the tree reads');
  const { tree, nodes, truncated, limit } = answer.body.data;
  t.equal(nodes, 6, 'six accounts');
  t.equal(truncated, false, 'none left out');
  t.equal(limit, 1000, 'the default limit is the bound');
  const test_balance = (node: any) => node.balances.test.balance;
  t.same({ id: tree.id, parent_id: tree.parent_id, depth: tree.depth, status: tree.status, agents_count: tree.agents_count }, { id: reseller.id, parent_id: null, depth: 1, status: 'active', agents_count: 2 }, 'the root');
  t.equal(test_balance(tree), 1_000, 'the reseller\'s test balance, in naira');
  t.same(tree.balances.live, { balance: 0, bonus_balance: 0, currency: 'NGN' }, 'and its live wallet');
  t.same(tree.children.map((n: any) => [n.id, n.name, n.status, n.depth]), [[a.id, 'Super A', 'active', 2], [b.id, 'Super B', 'suspended', 2]], 'its agents, oldest first, with their status');
  const [node_a, node_b] = tree.children;
  t.equal(test_balance(node_a), 1_300, 'A kept 1,000 and got the closed agent\'s 300 back');
  t.equal(test_balance(node_b), 1_500, 'B\'s balance');
  t.same(node_a.children.map((n: any) => [n.id, n.status, n.depth, test_balance(n), n.parent_id]), [[a1.id, 'closed', 3, 0, a.id], [a2.id, 'active', 3, 1_200, a.id]], 'A\'s agents, the closed one included');
  t.same(node_b.children.map((n: any) => [n.id, n.status, n.depth]), [[b1.id, 'active', 3]], 'B\'s agent');
  t.same(node_a.children[1].children, [], 'the last level has no children');

  const sub = await server.admin('GET', `/admin/accounts/${a.id}/tree`);
  t.equal(sub.body.data.tree.depth, 2, 'a subtree keeps its accounts\' levels');
  t.equal(sub.body.data.nodes, 3, 'a super-agent\'s tree is it and its agents');
  const leaf = await server.admin('GET', `/admin/accounts/${a1.id}/tree`);
  t.same([leaf.body.data.nodes, leaf.body.data.tree.status, leaf.body.data.tree.children], [1, 'closed', []], 'a closed agent\'s tree is itself');
  const missing = await server.admin('GET', '/admin/accounts/999999/tree');
  t.equal(missing.status, 404, 'an unknown account is 404');
  t.equal(missing.body.error.code, 'account.not_found', 'account.not_found');
  const no_token = await server.admin('GET', `/admin/accounts/${reseller.id}/tree`, undefined, null);
  t.equal(no_token.status, 401, 'the tree needs the operator\'s token');
});

t.test('the tree is bounded by limit, level by level: truncated at the edge and not one below it', async (t) => {
  const { reseller, a, b } = built;
  const whole = await server.admin('GET', `/admin/accounts/${reseller.id}/tree?limit=6`);
  t.same([whole.body.data.nodes, whole.body.data.truncated], [6, false], 'limit equal to the tree\'s size: everything, not truncated');
  const cut = await server.admin('GET', `/admin/accounts/${reseller.id}/tree?limit=5`);
  t.same([cut.body.data.nodes, cut.body.data.truncated, cut.body.data.limit], [5, true, 5], 'one less: five accounts, truncated');
  const [node_a, node_b] = cut.body.data.tree.children;
  t.equal(node_a.children.length, 2, 'the levels above are whole (breadth first): A\'s agents are in');
  t.same([node_b.id, node_b.children.length, node_b.agents_count], [b.id, 0, 1], 'B\'s agent was left out, and agents_count says B has one');
  const top = await server.admin('GET', `/admin/accounts/${reseller.id}/tree?limit=1`);
  t.same([top.body.data.nodes, top.body.data.truncated, top.body.data.tree.children, top.body.data.tree.agents_count], [1, true, [], 2], 'limit=1: the account alone, with its count of agents');
  const three = await server.admin('GET', `/admin/accounts/${reseller.id}/tree?limit=3`);
  t.same(three.body.data.tree.children.map((n: any) => [n.id, n.children.length]), [[a.id, 0], [b.id, 0]], 'limit=3: the first two levels');
  const max = await server.admin('GET', `/admin/accounts/${reseller.id}/tree?limit=1000`);
  t.equal(max.status, 200, 'limit=1000 (the bound) is accepted');
  for (const limit of ['0', '1001', '-1', '1.5', 'ten', '']) {
    const bad = await server.admin('GET', `/admin/accounts/${reseller.id}/tree?limit=${limit}`);
    t.equal(bad.status, 400, `limit=${limit} is refused`);
    t.same([bad.body.error.code, bad.body.error.details[0].field], ['validation.failed', 'limit'], `limit=${limit}: validation.failed naming limit`);
  }
});

t.test('the operator suspends and reactivates any account of a tree; its keys and those below it follow', async (t) => {
  const { reseller, a, a2 } = built;
  const suspended = await server.admin('PATCH', `/admin/accounts/${reseller.id}`, { status: 'suspended' });
  t.equal(suspended.status, 200, 'the operator suspends a reseller');
  t.equal(suspended.body.data.status, 'suspended', 'which reads suspended');
  for (const [who, key] of [['the reseller', reseller.key], ['its super-agent', a.key], ['an agent two levels down', a2.key]] as const) {
    const refused = await server.api('GET', '/v1/wallet', { key });
    t.equal(refused.status, 403, `${who}'s key is refused`);
    t.equal(refused.body.error.code, 'account.suspended', `${who}: account.suspended`);
  }
  const back = await server.admin('PATCH', `/admin/accounts/${reseller.id}`, { status: 'active' });
  t.equal(back.body.data.status, 'active', 'the operator reactivates it');
  t.equal((await server.api('GET', '/v1/wallet', { key: a2.key })).status, 200, 'the agent two levels down works again');
  const agent = await server.admin('PATCH', `/admin/accounts/${a2.id}`, { status: 'suspended' });
  t.equal(agent.body.data.status, 'suspended', 'the operator suspends an agent');
  t.equal((await server.api('GET', '/v1/wallet', { key: a2.key })).status, 403, 'whose key is refused');
  t.equal((await server.api('GET', '/v1/wallet', { key: a.key })).status, 200, 'while its parent\'s works');
  await server.admin('PATCH', `/admin/accounts/${a2.id}`, { status: 'active' });
  const closing = await server.admin('PATCH', `/admin/accounts/${a2.id}`, { status: 'closed' });
  t.equal(closing.status, 400, 'the operator does not close through PATCH (closing sweeps money: the parent\'s DELETE)');
  t.equal(closing.body.error.details[0].field, 'status', 'naming status');
});

t.test('regression: the operator\'s PIN on a closed agent is 409 agents.closed and sets nothing', async (t) => {
  const { a1 } = built;
  const before = await server.admin('GET', `/admin/accounts/${a1.id}`);
  const refused = await server.admin('POST', `/admin/accounts/${a1.id}/pin`, { pin: '11111' });
  t.equal(refused.status, 409, 'a PIN for a closed agent is refused');
  t.equal(refused.body.error.code, 'agents.closed', 'with agents.closed');
  const after = await server.admin('GET', `/admin/accounts/${a1.id}`);
  t.same(after.body.data, before.body.data, 'the agent is unchanged');
  const reactivate = await server.admin('PATCH', `/admin/accounts/${a1.id}`, { status: 'active' });
  t.equal(reactivate.status, 409, 'a closed agent is not reactivated');
  t.equal(reactivate.body.error.code, 'agents.closed', 'agents.closed');
});

function cli(args: string[]) {
  return run_cli(args, { ADMIN_TOKEN: server.admin_token, ADMIN_PORT: String(server.admin_port) });
}

t.test('billvend account tree prints the tree indented by level, with status and balances in naira; --json prints the answer', async (t) => {
  const { reseller, a, b, a1, a2, b1 } = built;
  const printed = await cli(['account', 'tree', String(reseller.id)]);
  t.equal(printed.code, 0, `account tree exits 0 (${printed.stderr.trim()})`);
  t.equal(printed.stderr, '', 'nothing on stderr');
  const line = (indent: string, name: string, id: number, status: string, test: string) => `${indent}${name} (account ${id})  ${status}  live NGN 0.00  test NGN ${test}`;
  t.equal(printed.stdout, [
    line('', 'Reseller 1', reseller.id, 'active', '1,000.00'),
    line('  ', 'Super A', a.id, 'active', '1,300.00'),
    line('    ', 'Till a1', a1.id, 'closed', '0.00'),
    line('    ', 'Till a2', a2.id, 'active', '1,200.00'),
    line('  ', 'Super B', b.id, 'suspended', '1,500.00'),
    line('    ', 'Till b1', b1.id, 'active', '0.00'),
    '6 accounts',
    '',
  ].join('\n'), 'one account a line, indented by level, oldest first, with status and balances');

  const cut = await cli(['accounts', 'tree', String(reseller.id), '--limit', '5']);
  t.equal(cut.code, 0, '"accounts tree" (plural) is the same command');
  t.ok(cut.stdout.includes(`${line('  ', 'Super B', b.id, 'suspended', '1,500.00')}\n    … 1 more agent not shown\n`), 'a node cut short says, under it, how many of its agents are not shown');
  t.match(cut.stdout, /5 accounts shown, truncated at --limit 5/, 'and the last line says the tree was truncated');

  const json = await cli(['account', 'tree', String(a.id), '--json']);
  t.equal(json.code, 0, 'account tree --json exits 0');
  const data = JSON.parse(json.stdout);
  t.same([data.tree.id, data.nodes, data.truncated, data.tree.children.map((n: { id: number }) => n.id)], [a.id, 3, false, [a1.id, a2.id]], '--json prints the answer\'s data');

  const missing = await cli(['account', 'tree', '999999']);
  t.equal(missing.code, 1, 'an unknown account exits 1');
  t.match(missing.stderr, /account\.not_found/, 'naming account.not_found');
  const bad_limit = await cli(['account', 'tree', String(a.id), '--limit', '1001']);
  t.equal(bad_limit.code, 1, '--limit 1001 is refused by the server: exit 1');
  t.match(bad_limit.stderr, /validation\.failed[\s\S]*limit/, 'naming limit');
  const no_id = await cli(['account', 'tree']);
  t.equal(no_id.code, 2, 'without an account id: exit 2');
  const stray = await cli(['account', 'tree', String(a.id), '--json=yes']);
  t.equal(stray.code, 2, '--json takes no value: exit 2');
});

t.test('billvend account list filters by --parent and --status; account update --status suspends and reactivates', async (t) => {
  const { a, a1, a2 } = built;
  const listed = await cli(['account', 'list', '--parent', String(a.id)]);
  t.equal(listed.code, 0, `account list --parent exits 0 (${listed.stderr.trim()})`);
  t.same(JSON.parse(listed.stdout).accounts.map((x: { id: number; parent_id: number; status: string }) => [x.id, x.parent_id, x.status]), [[a1.id, a.id, 'closed'], [a2.id, a.id, 'active']], 'the parent\'s agents, with parent_id and status');
  const closed = await cli(['account', 'list', '--parent', String(a.id), '--status', 'closed']);
  t.same(JSON.parse(closed.stdout).accounts.map((x: { id: number }) => x.id), [a1.id], '--status narrows the list');
  const wrong = await cli(['account', 'list', '--status', 'gone']);
  t.equal(wrong.code, 2, 'a status that is none: exit 2');
  const suspended = await cli(['account', 'update', String(a2.id), '--status', 'suspended']);
  t.equal(suspended.code, 0, 'account update --status suspended exits 0');
  t.equal(JSON.parse(suspended.stdout).status, 'suspended', 'the agent is suspended');
  const active = await cli(['account', 'update', String(a2.id), '--status', 'active']);
  t.equal(JSON.parse(active.stdout).status, 'active', 'and reactivated');
});
