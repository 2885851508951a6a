// Agents through the public API (docs/api.md "Agents", docs/decisions.md "Agents"): opening agents under a
// reseller, the tree's depth and subtree limits, KYC and daily-limit edges, transfers both ways with their
// entries and events on both sides, repeats of a reference, 20 concurrent transfers on a balance for 7,
// suspension and closing with a balance.
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { sign_in } from './helpers/route-catalog.js';

const server = await start_server(t);
/** Enough for every request of a test: the rate limit is tested on its own (test/auth.test.ts). */
const fast_key = { rate_limit_per_minute: 100_000 };
let emails = 0;

function agent_body(overrides: Record<string, unknown> = {}) {
  emails++;
  return { name: `Agent ${emails}`, email: `agent${emails}-${Date.now()}@example.ng`, phone: '08031234567', password: 'agent password 1', kyc_level: 1, pin: '54321', ...overrides };
}

/** Opens an agent under the key's account and gives it a full-access test key (the operator's). */
async function open_agent(s: TestServer, parent_key: string, overrides: Record<string, unknown> = {}) {
  const created = await s.api('POST', '/v1/agents', { key: parent_key, body: agent_body(overrides) });
  if (created.status !== 201) throw new Error(`open_agent: ${created.status} ${created.text}`);
  const key = await s.create_key(created.body.data.id, fast_key);
  return { id: created.body.data.id as number, key: key.api_key, view: created.body.data };
}

async function balance(s: TestServer, key: string): Promise<number> {
  const wallet = await s.api('GET', '/v1/wallet', { key });
  return wallet.body.data.balance;
}

async function entries(s: TestServer, key: string): Promise<any[]> {
  const page = await s.api('GET', '/v1/wallet/transactions?per_page=100', { key });
  return page.body.data.transactions;
}

function transfer(key: string, agent_id: number, body: Record<string, unknown>, idempotency_key?: string) {
  return server.api('POST', `/v1/agents/${agent_id}/transfers`, { key, body: { environment: 'test', pin: '12345', ...body }, idempotency_key });
}

t.test('POST /v1/agents opens an agent: an account of its own under the key\'s account, listed and read by its parent', async (t) => {
  const reseller = await server.reseller(0, {}, fast_key);
  const created = await server.api('POST', '/v1/agents', { key: reseller.key, body: agent_body({ name: 'Till 1' }) });
  t.equal(created.status, 201, 'opening an agent is 201');
  const view = created.body.data;
  t.equal(view.parent_id, reseller.id, 'its parent is the key\'s account');
  t.equal(view.status, 'active', 'it is active');
  t.equal(view.name, 'Till 1', 'its name is kept');
  t.equal(view.phone, '+2348031234567', 'its phone is in international format');
  t.equal(view.kyc_level, 1, 'its KYC level is kept');
  t.equal(view.daily_limit, 50_000, 'it buys under its KYC level\'s daily limit');
  t.equal(view.pin_set, true, 'its PIN is set');
  t.same(view.balances, { live: { balance: 0, bonus_balance: 0, currency: 'NGN' }, test: { balance: 0, bonus_balance: 0, currency: 'NGN' } }, 'both wallets start empty');
  t.notOk(created.text.includes('agent password 1'), 'the answer does not hold the password');

  const read = await server.api('GET', `/v1/agents/${view.id}`, { key: reseller.key });
  t.equal(read.status, 200, 'the parent reads it');
  t.same(read.body.data, view, 'it reads as it was opened');
  const listed = await server.api('GET', '/v1/agents', { key: reseller.key });
  t.equal(listed.status, 200, 'the parent lists its agents');
  t.same(listed.body.data.agents.map((a: { id: number }) => a.id), [view.id], 'the list holds its agent');
  t.same(listed.body.data.pagination, { total: 1, per_page: 20, current_page: 1, last_page: 1 }, 'the list is paginated like every list');

  const own_key = await server.create_key(view.id);
  const account = await server.api('GET', '/v1/account', { key: own_key.api_key });
  t.equal(account.status, 200, 'the agent\'s own key works');
  t.equal(account.body.data.id, view.id, 'an agent\'s id is its account id');

  const taken = await server.api('POST', '/v1/agents', { key: reseller.key, body: agent_body({ email: view.email.toUpperCase() }) });
  t.equal(taken.status, 409, 'an email taken (in any case) is refused');
  t.equal(taken.body.error.code, 'account.email_taken', 'with account.email_taken');

  const scoped = await server.create_key(reseller.id, { scopes: ['wallet:read', 'keys:manage'] });
  const refused = await server.api('POST', '/v1/agents', { key: scoped.api_key, body: agent_body() });
  t.equal(refused.status, 403, 'a key without agents:manage cannot open agents');
  t.equal(refused.body.error.code, 'auth.insufficient_scope', 'with auth.insufficient_scope');
  const manager = await server.create_key(reseller.id, { scopes: ['agents:manage'] });
  const allowed = await server.api('GET', '/v1/agents', { key: manager.api_key });
  t.equal(allowed.status, 200, 'a key with agents:manage alone lists agents');
});

t.test('a tree has three levels: an agent at the third level is refused a fourth', async (t) => {
  const reseller = await server.reseller(0, { kyc_level: 3 }, fast_key);
  const super_agent = await open_agent(server, reseller.key, { kyc_level: 3 });
  const agent = await open_agent(server, super_agent.key, { kyc_level: 2 });
  t.equal(agent.view.parent_id, super_agent.id, 'the third level opens under the super-agent (the edge)');
  const fourth = await server.api('POST', '/v1/agents', { key: agent.key, body: agent_body() });
  t.equal(fourth.status, 422, 'a fourth level is refused');
  t.equal(fourth.body.error.code, 'agents.depth_limit_reached', 'with agents.depth_limit_reached');

  const grandchild = await server.api('GET', `/v1/agents/${agent.id}`, { key: reseller.key });
  t.equal(grandchild.status, 200, 'the reseller reads an agent of its super-agent: its subtree');
  const listed = await server.api('GET', '/v1/agents', { key: reseller.key });
  t.same(listed.body.data.agents.map((a: { id: number }) => a.id), [super_agent.id], 'the list holds only its own agents');
  t.equal(listed.body.data.agents[0].agents_open, 1, 'the super-agent counts its open agent');
  const moved = await transfer(reseller.key, agent.id, { direction: 'to_agent', amount: 1, reference: 'skip-1' });
  t.equal(moved.status, 422, 'money moves only between an agent and its own parent');
  t.equal(moved.body.error.code, 'agents.not_direct_agent', 'with agents.not_direct_agent');
});

t.test('an id outside the caller\'s subtree is 404 account.not_found, on every route', async (t) => {
  const a = await server.reseller(1_000, {}, fast_key);
  const b = await server.reseller(1_000, {}, fast_key);
  const a_agent = await open_agent(server, a.key);
  const b_agent = await open_agent(server, b.key);
  const sibling = await open_agent(server, a.key);
  const cases: [string, string, string, unknown?][] = [
    ['stranger\'s agent', b.key, `${a_agent.id}`],
    ['a sibling\'s agent seen by a sibling', sibling.key, `${a_agent.id}`],
    ['its own parent', a_agent.key, `${a.id}`],
    ['itself', a.key, `${a.id}`],
    ['an account never made', a.key, '999999'],
    ['a malformed id', a.key, 'abc'],
  ];
  for (const [what, key, id] of cases) {
    const answers = await Promise.all([
      server.api('GET', `/v1/agents/${id}`, { key }),
      server.api('PATCH', `/v1/agents/${id}`, { key, body: { status: 'suspended' } }),
      server.api('PUT', `/v1/agents/${id}/pin`, { key, body: { pin: '11111' } }),
      server.api('POST', `/v1/agents/${id}/transfers`, { key, body: { direction: 'to_agent', amount: 1, environment: 'test', pin: '12345', reference: `nf-${what.length}` } }),
      server.api('DELETE', `/v1/agents/${id}`, { key }),
    ]);
    for (const answer of answers) {
      t.equal(answer.status, 404, `${what}: 404`);
      t.equal(answer.body.error.code, 'account.not_found', `${what}: account.not_found`);
    }
  }
  const b_read = await server.api('GET', `/v1/agents/${b_agent.id}`, { key: b.key });
  t.equal(b_read.body.data.status, 'active', 'nothing of the refused requests changed the other reseller\'s agent');
  t.equal(await balance(server, a.key), 1_000, 'nor moved money');
});

t.test('kyc_level and daily_limit may not be above the parent\'s, at the kobo', async (t) => {
  const parent = await server.reseller(0, { kyc_level: 2 }, fast_key);
  const equal = await server.api('POST', '/v1/agents', { key: parent.key, body: agent_body({ kyc_level: 2, daily_limit: 200_000 }) });
  t.equal(equal.status, 201, 'the parent\'s own KYC level and daily limit are allowed');
  t.equal(equal.body.data.daily_limit, 200_000, 'the daily limit is kept');
  const kyc = await server.api('POST', '/v1/agents', { key: parent.key, body: agent_body({ kyc_level: 3 }) });
  t.equal(kyc.status, 400, 'a KYC level above the parent\'s is refused');
  t.equal(kyc.body.error.details[0].field, 'kyc_level', 'naming kyc_level');
  const limit = await server.api('POST', '/v1/agents', { key: parent.key, body: agent_body({ kyc_level: 2, daily_limit: 200_000.01 }) });
  t.equal(limit.status, 400, 'a daily limit one kobo above the parent\'s is refused');
  t.equal(limit.body.error.details[0].field, 'daily_limit', 'naming daily_limit');

  const id = equal.body.data.id;
  const patched = await server.api('PATCH', `/v1/agents/${id}`, { key: parent.key, body: { daily_limit: 1_500.5 } });
  t.equal(patched.status, 200, 'the parent lowers its agent\'s daily limit');
  t.equal(patched.body.data.daily_limit, 1_500.5, 'to the kobo');
  const above = await server.api('PATCH', `/v1/agents/${id}`, { key: parent.key, body: { daily_limit: 200_000.01 } });
  t.equal(above.status, 400, 'PATCH one kobo above the parent\'s limit is refused');
  t.equal(above.body.error.details[0].field, 'daily_limit', 'naming daily_limit');
  const at = await server.api('PATCH', `/v1/agents/${id}`, { key: parent.key, body: { daily_limit: 200_000 } });
  t.equal(at.status, 200, 'PATCH to the parent\'s limit is allowed');
  const empty = await server.api('PATCH', `/v1/agents/${id}`, { key: parent.key, body: {} });
  t.equal(empty.status, 400, 'a PATCH that sets nothing is refused');

  // A parent whose operator-set limit is below its KYC level's: an agent without daily_limit gets the parent's.
  await server.admin('PATCH', `/admin/accounts/${parent.id}`, { daily_limit: 1_000 });
  const capped = await server.api('POST', '/v1/agents', { key: parent.key, body: agent_body({ kyc_level: 1 }) });
  t.equal(capped.status, 201, 'an agent opens under a parent with a low limit');
  t.equal(capped.body.data.daily_limit, 1_000, 'it buys under its parent\'s lower limit');
  const back = await server.api('PATCH', `/v1/agents/${capped.body.data.id}`, { key: parent.key, body: { daily_limit: null } });
  t.equal(back.status, 400, 'going back to a KYC level\'s limit above the parent\'s is refused');
});

t.test('transfers move money both ways in one step, with entries naming each other and events on both sides', async (t) => {
  const parent = await server.reseller(1_000, {}, fast_key);
  const agent = await open_agent(server, parent.key);
  const down = await transfer(parent.key, agent.id, { direction: 'to_agent', amount: 250.75, reference: 'float-1' });
  t.equal(down.status, 201, 'to_agent is 201');
  t.same(down.body.data.balances_after, { parent: 749.25, agent: 250.75 }, 'both balances after are in the answer');
  t.equal(down.body.data.direction, 'to_agent', 'the direction is kept');
  t.equal(down.body.data.amount, 250.75, 'the amount is kept');
  t.equal(await balance(server, parent.key), 749.25, 'the parent\'s wallet is debited');
  t.equal(await balance(server, agent.key), 250.75, 'the agent\'s wallet is credited');

  const up = await transfer(parent.key, agent.id, { direction: 'from_agent', amount: 50.25, reference: 'sweep-1' });
  t.equal(up.status, 201, 'from_agent is 201');
  t.same(up.body.data.balances_after, { parent: 799.5, agent: 200.5 }, 'the money came back');

  const parent_entries = await entries(server, parent.key);
  const agent_entries = await entries(server, agent.key);
  const out = parent_entries.find((e) => e.reference === 'float-1');
  const into = agent_entries.find((e) => e.reference === 'float-1');
  t.equal(out.type, 'transfer_out', 'the parent\'s entry is a transfer_out');
  t.equal(out.counterparty_id, agent.id, 'naming the agent');
  t.equal(into.type, 'transfer_in', 'the agent\'s entry is a transfer_in');
  t.equal(into.counterparty_id, parent.id, 'naming the parent');
  t.equal(down.body.data.wallet_transactions.parent, out.id, 'the answer names the parent\'s entry');
  t.equal(down.body.data.wallet_transactions.agent, into.id, 'and the agent\'s');
  const back_out = agent_entries.find((e) => e.reference === 'sweep-1');
  t.equal(back_out.type, 'transfer_out', 'from_agent debits the agent');
  for (const [who, list, now] of [['parent', parent_entries, 799.5], ['agent', agent_entries, 200.5]] as const) {
    const sum = list.reduce((s, e) => s + (e.type === 'transfer_out' || e.type === 'debit' ? -1 : 1) * Math.round(e.amount * 100), 0);
    t.equal(sum, Math.round(now * 100), `the ${who}'s entries sum to its balance`);
  }

  const parent_events = await server.api('GET', '/v1/events?limit=100', { key: parent.key });
  const agent_events = await server.api('GET', '/v1/events?limit=100', { key: agent.key });
  const kinds = (page: any, reference: string) => page.body.data.events.filter((e: any) => e.data.reference === reference).map((e: any) => e.event);
  t.same(kinds(parent_events, 'float-1'), ['wallet.debited'], 'the parent has wallet.debited for to_agent');
  t.same(kinds(agent_events, 'float-1'), ['wallet.credited'], 'the agent has wallet.credited');
  t.same(kinds(parent_events, 'sweep-1'), ['wallet.credited'], 'the parent has wallet.credited for from_agent');
  t.same(kinds(agent_events, 'sweep-1'), ['wallet.debited'], 'the agent has wallet.debited');
  const listed = await server.api('GET', `/v1/agents/${agent.id}/transfers?per_page=1`, { key: parent.key });
  t.equal(listed.status, 200, 'the parent lists the agent\'s transfers');
  t.same(listed.body.data.transfers, [up.body.data], 'newest first, as each was answered');
  t.same(listed.body.data.pagination, { total: 2, per_page: 1, current_page: 1, last_page: 2 }, 'paginated');
  const second = await server.api('GET', `/v1/agents/${agent.id}/transfers?per_page=1&page=2`, { key: parent.key });
  t.same(second.body.data.transfers, [down.body.data], 'the older one on the next page');
  const foreign = await server.api('GET', `/v1/agents/${agent.id}/transfers`, { key: agent.key });
  t.equal(foreign.status, 404, 'an agent does not list its own transfers through the agents routes (it is not below itself)');
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos' }).format(new Date());
  const statement = await server.api('GET', `/v1/statements?date=${today}`, { key: parent.key });
  t.equal(statement.status, 200, 'the parent\'s statement of the day is built');
  t.same(statement.body.data.totals.by_type.transfer_out, { count: 1, amount: 250.75 }, 'its transfers out are summed');
  t.same(statement.body.data.totals.by_type.transfer_in, { count: 1, amount: 50.25 }, 'and its transfers in');
  t.same(statement.body.data.entries.map((e: any) => e.type), ['credit', 'transfer_out', 'transfer_in'], 'each transfer is a line of its type');
  const event = agent_events.body.data.events.find((e: any) => e.data.reference === 'float-1');
  t.equal(event.data.counterparty_id, parent.id, 'the event names the other account');
});

t.test('a reference is the parent\'s for ever: a repeat answers the same, another transfer under it is refused', async (t) => {
  const parent = await server.reseller(1_000, {}, fast_key);
  const agent = await open_agent(server, parent.key);
  const first = await transfer(parent.key, agent.id, { direction: 'to_agent', amount: 100, reference: 'once' });
  t.equal(first.status, 201, 'the first transfer is 201');
  t.equal(first.headers.get('idempotent-replayed'), null, 'it is no replay');
  const again = await transfer(parent.key, agent.id, { direction: 'to_agent', amount: 100, reference: 'once' });
  t.equal(again.status, 201, 'the repeat answers the same status');
  t.same(again.body.data, first.body.data, 'and the same data');
  t.equal(again.headers.get('idempotent-replayed'), 'true', 'with Idempotent-Replayed: true');
  t.equal(await balance(server, parent.key), 900, 'nothing moved twice');
  const other = await transfer(parent.key, agent.id, { direction: 'to_agent', amount: 101, reference: 'once' });
  t.equal(other.status, 422, 'the reference with another amount is refused');
  t.equal(other.body.error.code, 'idempotency.key_reused', 'with idempotency.key_reused');
  const live = await server.api('POST', `/v1/agents/${agent.id}/transfers`, { key: parent.key, body: { environment: 'live', direction: 'to_agent', amount: 1, pin: '12345', reference: 'once' } });
  t.equal(live.status, 403, 'a test key moves no live money');

  const beyond = await transfer(parent.key, agent.id, { direction: 'to_agent', amount: 900.01, reference: 'too-much' });
  t.equal(beyond.status, 422, 'beyond the sender\'s balance is refused');
  t.equal(beyond.body.error.code, 'wallet.insufficient_funds', 'with wallet.insufficient_funds');
  const exact = await transfer(parent.key, agent.id, { direction: 'to_agent', amount: 900, reference: 'too-much' });
  t.equal(exact.status, 201, 'the whole balance moves, under the reference a refusal left unclaimed');
  const nothing_back = await transfer(parent.key, agent.id, { direction: 'from_agent', amount: 1000.01, reference: 'up-too-much' });
  t.equal(nothing_back.body.error.code, 'wallet.insufficient_funds', 'from_agent beyond the agent\'s balance is refused too');

  const wrong_pin = await transfer(parent.key, agent.id, { direction: 'from_agent', amount: 1, reference: 'pin', pin: '00000' });
  t.equal(wrong_pin.status, 403, 'the parent\'s PIN is needed');
  t.equal(wrong_pin.body.error.code, 'pin.incorrect', 'a wrong PIN is pin.incorrect');
  const agents_pin = await transfer(parent.key, agent.id, { direction: 'from_agent', amount: 1, reference: 'pin', pin: '54321' });
  t.equal(agents_pin.body.error.code, 'pin.incorrect', 'the agent\'s PIN does not do (both directions take the parent\'s)');
  const zero = await transfer(parent.key, agent.id, { direction: 'to_agent', amount: 0, reference: 'zero' });
  t.equal(zero.status, 400, 'a zero amount is refused');
  const fraction = await transfer(parent.key, agent.id, { direction: 'to_agent', amount: 1.005, reference: 'fraction' });
  t.equal(fraction.status, 400, 'a third decimal is refused');
  const slash = await transfer(parent.key, agent.id, { direction: 'to_agent', amount: 1, reference: 'close/1' });
  t.equal(slash.status, 400, 'a reference outside its characters is refused');

  const keyed = await transfer(parent.key, agent.id, { direction: 'from_agent', amount: 10, reference: 'keyed' }, 'idem-transfer-1');
  t.equal(keyed.status, 201, 'a transfer under an X-Idempotency-Key is 201');
  const keyed_again = await transfer(parent.key, agent.id, { direction: 'from_agent', amount: 10, reference: 'keyed' }, 'idem-transfer-1');
  t.equal(keyed_again.headers.get('idempotent-replayed'), 'true', 'its repeat under the key is a replay');
  t.same(keyed_again.body, keyed.body, 'of the original body');
  const by_reference = await transfer(parent.key, agent.id, { direction: 'from_agent', amount: 10, reference: 'keyed' }, 'idem-transfer-2');
  t.equal(by_reference.headers.get('idempotent-replayed'), 'true', 'the reference repeated under a new key is a replay');
  const by_both = await transfer(parent.key, agent.id, { direction: 'from_agent', amount: 10, reference: 'keyed' }, 'idem-transfer-2');
  t.equal(by_both.headers.get('idempotent-replayed'), 'true', 'and its repeat under that key says so once');
  const keyed_other = await transfer(parent.key, agent.id, { direction: 'from_agent', amount: 11, reference: 'keyed-2' }, 'idem-transfer-1');
  t.equal(keyed_other.body.error.code, 'idempotency.key_reused', 'the key with another body is idempotency.key_reused');
  t.equal(await balance(server, agent.key), 990, 'the agent holds what moved, once each');
});

t.test('20 concurrent transfers on a balance for 7: exactly 7 move, the rest are 422, and the wallets add up', async (t) => {
  const parent = await server.reseller(700, {}, fast_key);
  const agent = await open_agent(server, parent.key);
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => transfer(parent.key, agent.id, { direction: 'to_agent', amount: 100, reference: `race-${i}` })));
  const created = answers.filter((a) => a.status === 201);
  const refused = answers.filter((a) => a.status === 422);
  t.equal(created.length, 7, 'exactly 7 transfers moved');
  t.equal(refused.length, 13, 'the other 13 were refused');
  t.ok(refused.every((a) => a.body.error.code === 'wallet.insufficient_funds'), 'each with wallet.insufficient_funds');
  t.equal(await balance(server, parent.key), 0, 'the parent is empty');
  t.equal(await balance(server, agent.key), 700, 'the agent holds the 700');
  const parent_out = (await entries(server, parent.key)).filter((e) => e.type === 'transfer_out');
  const agent_in = (await entries(server, agent.key)).filter((e) => e.type === 'transfer_in');
  t.equal(parent_out.length, 7, 'the parent has 7 transfer_out entries');
  t.same(agent_in.map((e) => e.reference).sort(), parent_out.map((e) => e.reference).sort(), 'the agent has a transfer_in for each, by reference');
  t.same(created.map((a) => a.body.data.reference).sort(), parent_out.map((e) => e.reference).sort(), 'and they are the acknowledged ones');
  const afters = created.map((a) => a.body.data.balances_after.parent).sort((x, y) => x - y);
  t.same(afters, [0, 100, 200, 300, 400, 500, 600], 'each acknowledged transfer saw its own balance');
});

t.test('a suspended agent\'s keys are refused, and so are those of every agent below it, until reactivated', async (t) => {
  const reseller = await server.reseller(100, { kyc_level: 3 }, fast_key);
  const super_agent = await open_agent(server, reseller.key, { kyc_level: 2 });
  const agent = await open_agent(server, super_agent.key, { kyc_level: 1 });
  // Signed in before the suspension: a suspended agent's sign-in is refused (test/dashboard-agents.test.ts).
  const session = await sign_in(server, agent.view.email, 'agent password 1');
  const suspended = await server.api('PATCH', `/v1/agents/${super_agent.id}`, { key: reseller.key, body: { status: 'suspended' } });
  t.equal(suspended.status, 200, 'the reseller suspends its super-agent');
  t.equal(suspended.body.data.status, 'suspended', 'which reads suspended');
  for (const [who, key] of [['the super-agent', super_agent.key], ['its agent', agent.key]] as const) {
    const refused = await server.api('GET', '/v1/wallet', { key });
    t.equal(refused.status, 403, `${who}'s key is refused`);
    t.equal(refused.body.error.code, 'account.suspended', `with account.suspended (${who})`);
  }
  const desk = await fetch(`${server.base}/dashboard/api/overview?environment=test`, { headers: { cookie: `bv_session=${session.cookie}` } });
  t.equal(desk.status, 403, 'a dashboard session of an agent below the suspended one is refused too');
  t.equal(((await desk.json()) as any).error.code, 'account.suspended', 'with account.suspended');
  const moved = await transfer(reseller.key, super_agent.id, { direction: 'to_agent', amount: 10, reference: 'to-suspended' });
  t.equal(moved.status, 201, 'its parent still moves money to a suspended agent (it runs its network\'s money)');
  const operator_credit = await server.admin('POST', `/admin/accounts/${super_agent.id}/wallet/credit`, { environment: 'test', amount: 5, reference: 'op-to-suspended' });
  t.equal(operator_credit.status, 201, 'the operator still credits a suspended agent (its network is only paused)');
  const reactivated = await server.api('PATCH', `/v1/agents/${super_agent.id}`, { key: reseller.key, body: { status: 'active' } });
  t.equal(reactivated.body.data.status, 'active', 'the reseller reactivates it');
  const desk_again = await fetch(`${server.base}/dashboard/api/overview?environment=test`, { headers: { cookie: `bv_session=${session.cookie}` } });
  t.equal(desk_again.status, 200, 'and the session works again');
  t.equal((await server.api('GET', '/v1/wallet', { key: agent.key })).status, 200, 'its agent\'s key works again');
  t.equal(await balance(server, super_agent.key), 15, 'and the super-agent holds what was moved and credited meanwhile');
});

t.test('closing an agent sweeps its balances back to its parent in one step and revokes its keys', async (t) => {
  const parent = await server.reseller(1_000, { kyc_level: 3 }, fast_key);
  await server.credit(parent.id, 'live', 500);
  const agent = await open_agent(server, parent.key, { kyc_level: 2 });
  const sub = await open_agent(server, agent.key, { kyc_level: 1 });
  await transfer(parent.key, agent.id, { direction: 'to_agent', amount: 123.45, reference: 'before-close' });
  const live_key = await server.create_key(parent.id, { environment: 'live', ...fast_key });
  const live = await server.api('POST', `/v1/agents/${agent.id}/transfers`, { key: live_key.api_key, body: { environment: 'live', direction: 'to_agent', amount: 77, pin: '12345', reference: 'live-1' } });
  t.equal(live.status, 201, 'a live key moves live money');

  const session = await sign_in(server, agent.view.email, 'agent password 1');
  const busy = await server.api('DELETE', `/v1/agents/${agent.id}`, { key: parent.key });
  t.equal(busy.status, 409, 'an agent with an open agent of its own cannot be closed');
  t.equal(busy.body.error.code, 'agents.not_closable', 'with agents.not_closable');
  const sub_closed = await server.api('DELETE', `/v1/agents/${sub.id}`, { key: parent.key });
  t.equal(sub_closed.status, 200, 'the reseller closes the agent\'s own agent first (its subtree)');
  t.equal(sub_closed.body.data.swept.length, 0, 'an empty agent sweeps nothing');

  const closed = await server.api('DELETE', `/v1/agents/${agent.id}`, { key: parent.key });
  t.equal(closed.status, 200, 'closing is 200');
  t.equal(closed.body.data.agent.status, 'closed', 'the agent is closed');
  t.same(closed.body.data.agent.balances.test.balance, 0, 'its test wallet is empty');
  t.same(closed.body.data.agent.balances.live.balance, 0, 'its live wallet is empty');
  t.equal(closed.body.data.keys_revoked, 1, 'its key was revoked');
  const swept = closed.body.data.swept.map((s: any) => [s.environment, s.amount, s.kind, s.direction, s.reference]);
  t.same(swept, [['live', 77, 'sweep', 'from_agent', `close/${agent.id}`], ['test', 123.45, 'sweep', 'from_agent', `close/${agent.id}`]], 'each balance was swept back, in one record each');
  t.equal(await balance(server, parent.key), 1_000, 'the parent\'s test wallet holds everything again');
  const live_wallet = await server.api('GET', '/v1/wallet', { key: live_key.api_key });
  t.equal(live_wallet.body.data.balance, 500, 'and its live wallet');
  const gone = await server.api('GET', '/v1/wallet', { key: agent.key });
  t.equal(gone.status, 401, 'the closed agent\'s key is refused');
  t.equal(gone.body.error.code, 'auth.key_not_found', 'as a revoked key');
  const desk = await fetch(`${server.base}/dashboard/api/overview?environment=test`, { headers: { cookie: `bv_session=${session.cookie}` } });
  t.equal(desk.status, 401, 'the closed agent\'s dashboard session is refused');
  const read = await server.api('GET', `/v1/agents/${agent.id}`, { key: parent.key });
  t.equal(read.body.data.status, 'closed', 'it still reads, closed');
  const twice = await server.api('DELETE', `/v1/agents/${agent.id}`, { key: parent.key });
  t.equal(twice.body.error.code, 'agents.closed', 'closing it again is agents.closed');
  const after = await transfer(parent.key, agent.id, { direction: 'to_agent', amount: 1, reference: 'after-close' });
  t.equal(after.status, 409, 'no money moves to a closed agent');
  t.equal(after.body.error.code, 'agents.closed', 'with agents.closed');
  const operator_credit = await server.admin('POST', `/admin/accounts/${agent.id}/wallet/credit`, { environment: 'test', amount: 1, reference: 'op-after-close' });
  t.equal(operator_credit.status, 409, 'the operator cannot credit a closed agent either (the money would be stuck)');
  t.equal(operator_credit.body.error.code, 'agents.closed', 'with agents.closed');
  const still = await server.api('GET', `/v1/agents/${agent.id}`, { key: parent.key });
  t.equal(still.body.data.balances.test.balance, 0, 'nothing was credited');
  const replay = await transfer(parent.key, agent.id, { direction: 'to_agent', amount: 123.45, reference: 'before-close' });
  t.equal(replay.status, 201, 'a repeat of a transfer made before still answers it');
  const patched = await server.api('PATCH', `/v1/agents/${agent.id}`, { key: parent.key, body: { status: 'active' } });
  t.equal(patched.body.error.code, 'agents.closed', 'a closed agent cannot be reactivated');
  const listed = await server.api('GET', '/v1/agents', { key: parent.key });
  t.equal(listed.body.data.agents[0].status, 'closed', 'the list shows it closed');
});

t.test('PUT /v1/agents/{id}/pin sets the agent\'s PIN', async (t) => {
  const parent = await server.reseller(0, {}, fast_key);
  const created = await server.api('POST', '/v1/agents', { key: parent.key, body: agent_body({ pin: undefined }) });
  t.equal(created.body.data.pin_set, false, 'an agent opened without a PIN has none');
  const set = await server.api('PUT', `/v1/agents/${created.body.data.id}/pin`, { key: parent.key, body: { pin: '24680' } });
  t.equal(set.status, 200, 'the parent sets it');
  t.same(set.body.data, { pin_set: true }, 'the answer says so');
  const read = await server.api('GET', `/v1/agents/${created.body.data.id}`, { key: parent.key });
  t.equal(read.body.data.pin_set, true, 'the agent has a PIN');
  const bad = await server.api('PUT', `/v1/agents/${created.body.data.id}/pin`, { key: parent.key, body: { pin: '2468' } });
  t.equal(bad.status, 400, 'a PIN of 4 digits is refused');
});

t.test('an agent buys with its own PIN from its own wallet, and cannot be closed while an order is open', async (t) => {
  const parent = await server.reseller(1_000, {}, fast_key);
  const agent = await open_agent(server, parent.key);
  await transfer(parent.key, agent.id, { direction: 'to_agent', amount: 300, reference: 'float' });
  const bought = await server.api('POST', '/v1/services/airtime', { key: agent.key, body: { network: 'mtn', phone: '08033333333', amount: 100, pin: '54321' } });
  t.equal(bought.status, 201, 'the agent\'s purchase is answered');
  t.equal(bought.body.data.status, 'processing', 'and is still processing (the sandbox delays this number 30 s)');
  t.equal(await balance(server, agent.key), 200, 'the agent\'s wallet paid for it');
  t.equal(await balance(server, parent.key), 700, 'not the parent\'s');
  const busy = await server.api('DELETE', `/v1/agents/${agent.id}`, { key: parent.key });
  t.equal(busy.status, 409, 'an agent with an open order cannot be closed');
  t.equal(busy.body.error.code, 'agents.not_closable', 'with agents.not_closable');
  t.match(busy.body.error.message, /open order/, 'saying why');
  t.equal(await balance(server, agent.key), 200, 'nothing was swept');
});
