// A parent's dashboard session reads its agents' orders (docs/api.md "Agents in the dashboard",
// docs/decisions.md "The agent's orders and prices in the dashboard"): the app sends Billvend-Account on GET
// /dashboard/api/orders and /dashboard/api/orders/{reference}, judged as an API key acting for an agent
// is. Its own agents and their agents are read; its own account, its parent, a sibling, a stranger and an
// id never made are the same 404 account.not_found; a session whose account cannot have agents is 403
// auth.insufficient_scope, as a key without agents:manage; every other dashboard route refuses the header.
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { airtime_body, sandbox } from './helpers/purchases.js';

const fast_key = { rate_limit_per_minute: 1_000_000 };
const server = await start_server(t);
let emails = 0;

async function open_agent(s: TestServer, parent_key: string, parent_pin: string, amount: number, overrides: Record<string, unknown> = {}) {
  emails++;
  const created = await s.api('POST', '/v1/agents', { key: parent_key, body: { name: `Till ${emails}`, email: `agent-orders${emails}-${Date.now()}@example.ng`, phone: '08031234567', password: 'agent password 1', kyc_level: 1, pin: '54321', ...overrides } });
  if (created.status !== 201) throw new Error(`open agent: ${created.status} ${created.text}`);
  const id = created.body.data.id as number;
  const moved = await s.api('POST', `/v1/agents/${id}/transfers`, { key: parent_key, body: { direction: 'to_agent', amount, environment: 'test', pin: parent_pin, reference: `fund-${id}` } });
  if (moved.status !== 201) throw new Error(`fund agent: ${moved.status} ${moved.text}`);
  return { id, email: created.body.data.email as string };
}

/** A purchase by the agent itself, with a key of its own. */
async function agent_buys(s: TestServer, agent_id: number): Promise<string> {
  const key = await s.create_key(agent_id, fast_key);
  const bought = await s.api('POST', '/v1/services/airtime', { key: key.api_key, body: airtime_body(sandbox.delivered, 100, { pin: '54321' }), idempotency_key: `agent-orders-${agent_id}-${Date.now()}` });
  if (bought.status !== 201) throw new Error(`agent buys: ${bought.status} ${bought.text}`);
  return bought.body.data.reference as string;
}

async function sign_in(s: TestServer, email: string, password: string) {
  const response = await fetch(`${s.base}/dashboard/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const body = (await response.json()) as any;
  if (response.status !== 201) throw new Error(`sign in: ${response.status} ${JSON.stringify(body)}`);
  return { cookie: /bv_session=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')![1], csrf: body.data.csrf_token as string };
}

async function read(s: TestServer, session: { cookie: string; csrf: string }, method: string, path: string, account: number | string | null, body?: unknown) {
  const headers: Record<string, string> = { cookie: `bv_session=${session.cookie}` };
  if (account !== null) headers['billvend-account'] = String(account);
  if (method !== 'GET') headers['x-csrf-token'] = session.csrf;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${s.base}/dashboard/api${path}${path.includes('?') ? '&' : '?'}environment=test`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

// One tree, and a stranger's: reseller → super-agent → till, a sibling of the super-agent, and another reseller.
const reseller = await server.reseller(100_000, { kyc_level: 2 }, fast_key);
const super_agent = await open_agent(server, reseller.key, reseller.pin, 10_000, { kyc_level: 2 });
const super_key = await server.create_key(super_agent.id, { scopes: ['*'], ...fast_key });
const till = await open_agent(server, super_key.api_key, '54321', 2_000);
const sibling = await open_agent(server, reseller.key, reseller.pin, 1_000);
const stranger = await server.reseller(10_000, {}, fast_key);
const orders = {
  reseller: (await server.api('POST', '/v1/services/airtime', { key: reseller.key, body: airtime_body(sandbox.delivered, 100, { pin: reseller.pin }), idempotency_key: `agent-orders-reseller-${Date.now()}` })).body.data.reference as string,
  super_agent: await agent_buys(server, super_agent.id),
  till: await agent_buys(server, till.id),
  sibling: await agent_buys(server, sibling.id),
  stranger: (await server.api('POST', '/v1/services/airtime', { key: stranger.key, body: airtime_body(sandbox.delivered, 100, { pin: stranger.pin }), idempotency_key: `agent-orders-stranger-${Date.now()}` })).body.data.reference as string,
};

t.test('a parent\'s session lists and opens its agent\'s and its grandchild\'s orders, not its own with the header', async (t) => {
  const session = await sign_in(server, reseller.email, reseller.password);
  const listed = await read(server, session, 'GET', '/orders', super_agent.id);
  t.equal(listed.status, 200, `the super-agent's orders are listed: ${JSON.stringify(listed.body.error ?? null)}`);
  t.same(listed.body.data.orders.map((o: { reference: string }) => o.reference), [orders.super_agent], 'they are the super-agent\'s, and only its');
  t.equal(listed.body.data.pagination.total, 1, 'with their paging');
  const filtered = await read(server, session, 'GET', '/orders?status=failed', super_agent.id);
  t.same(filtered.body.data.orders, [], 'the list\'s filters apply');
  const searched = await read(server, session, 'GET', `/orders?q=${orders.super_agent}`, super_agent.id);
  t.same(searched.body.data.orders.map((o: { reference: string }) => o.reference), [orders.super_agent], 'a search by reference finds the agent\'s order');
  const one = await read(server, session, 'GET', `/orders/${orders.super_agent}`, super_agent.id);
  t.equal(one.status, 200, 'the order opens');
  t.equal(one.body.data.reference, orders.super_agent, 'to its detail');
  const grandchild = await read(server, session, 'GET', `/orders/${orders.till}`, till.id);
  t.equal(grandchild.body.data?.reference, orders.till, 'a grandchild\'s order is read too');
  const crossed = await read(server, session, 'GET', `/orders/${orders.till}`, super_agent.id);
  t.equal(crossed.body.error?.code, 'transaction.not_found', 'an order of another agent is not found under this one');
  const own = await read(server, session, 'GET', '/orders', null);
  t.same(own.body.data.orders.map((o: { reference: string }) => o.reference), [orders.reseller], 'without the header the session reads its own orders');
  const own_not_agent = await read(server, session, 'GET', `/orders/${orders.super_agent}`, null);
  t.equal(own_not_agent.body.error?.code, 'transaction.not_found', 'and not its agent\'s');
});

t.test('the session reading anything outside its subtree gets the same 404 account.not_found', async (t) => {
  const reseller_session = await sign_in(server, reseller.email, reseller.password);
  const super_session = await sign_in(server, super_agent.email, 'agent password 1');
  const cases: [string, { cookie: string; csrf: string }, number | string, string][] = [
    ['its own account', reseller_session, reseller.id, orders.reseller],
    ['a stranger', reseller_session, stranger.id, orders.stranger],
    ['an id never made', reseller_session, 9_999_999, orders.stranger],
    ['its parent', super_session, reseller.id, orders.reseller],
    ['a sibling', super_session, sibling.id, orders.sibling],
    ['its own account (an agent)', super_session, super_agent.id, orders.super_agent],
  ];
  for (const [who, session, account, reference] of cases) {
    for (const path of ['/orders', `/orders/${reference}`]) {
      const refused = await read(server, session, 'GET', path, account);
      t.equal(refused.status, 404, `${who}, GET ${path}: 404`);
      t.equal(refused.body.error?.code, 'account.not_found', `${who}, GET ${path}: account.not_found`);
    }
  }
  const malformed = await read(server, reseller_session, 'GET', '/orders', '01');
  t.equal(malformed.body.error?.code, 'validation.failed', 'a malformed id is 400 validation.failed');
  t.equal(malformed.body.error?.details?.[0]?.field, 'Billvend-Account', 'naming the header');
  const own_agent = await read(server, super_session, 'GET', `/orders/${orders.till}`, till.id);
  t.equal(own_agent.status, 200, 'a super-agent\'s session reads its own agent\'s order');
});

t.test('a session whose account cannot have agents is refused as a key without agents:manage', async (t) => {
  const till_session = await sign_in(server, till.email, 'agent password 1');
  for (const [path, account] of [['/orders', super_agent.id], [`/orders/${orders.till}`, till.id], ['/orders', 9_999_999]] as const) {
    const refused = await read(server, till_session, 'GET', path, account);
    t.equal(refused.status, 403, `an agent at the third level, GET ${path} for ${account}: 403`);
    t.equal(refused.body.error?.code, 'auth.insufficient_scope', `an agent at the third level, GET ${path} for ${account}: auth.insufficient_scope`);
  }
  t.equal((await read(server, till_session, 'GET', '/orders', null)).status, 200, 'its own orders are read without the header');
});

t.test('every other dashboard route refuses Billvend-Account: the session reads for an agent, never changes or exports for it', async (t) => {
  const session = await sign_in(server, reseller.email, reseller.password);
  const before = (await server.api('GET', '/v1/wallet', { key: reseller.key })).body.data.balance;
  const agent_wallet = () => server.api('GET', '/v1/wallet', { key: reseller.key, headers: { 'Billvend-Account': String(super_agent.id) } });
  const agent_before = (await agent_wallet()).body.data.balance;
  const cases: [string, string, unknown][] = [
    ['GET', '/overview', undefined],
    ['GET', '/wallet/transactions', undefined],
    ['GET', '/export/orders', undefined],
    ['GET', '/keys', undefined],
    ['POST', '/services/airtime', airtime_body(sandbox.delivered, 100, { pin: '54321' })],
    ['POST', `/agents/${till.id}/transfers`, { direction: 'to_agent', amount: 1, environment: 'test', pin: reseller.pin, reference: 'acting-transfer-1' }],
    ['PUT', `/agents/${till.id}/pricing`, { rules: [] }],
  ];
  for (const [method, path, body] of cases) {
    const refused = await read(server, session, method, path, super_agent.id, body);
    t.equal(refused.status, 400, `${method} ${path} with the header: 400`);
    t.equal(refused.body.error?.details?.[0]?.field, 'Billvend-Account', `${method} ${path}: naming the header`);
  }
  t.equal((await server.api('GET', '/v1/wallet', { key: reseller.key })).body.data.balance, before, 'no money moved');
  t.equal((await agent_wallet()).body.data.balance, agent_before, 'nor in the agent\'s wallet');
});
