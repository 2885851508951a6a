// Acting for an agent (docs/api.md "Acting for an agent", docs/decisions.md "Agents"): a parent's key with
// agents:manage and a Billvend-Account header calls any /v1 endpoint as one of its agents, a grandchild too,
// with the agent's wallet, PIN, keys, webhooks and idempotency keys; any other id is the same 404, a key
// without agents:manage 403, a malformed value 400, a suspended agent 403.
import t, { type Test } from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { airtime_body, sandbox } from './helpers/purchases.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { sleep } from './helpers/fixtures-http.js';
import { Billvend } from '../sdk/src/index.js';

const app_origin = 'https://app.reseller.example';
const server = await start_server(t, { env: webhook_env({ LOG_LEVEL: 'info', CORS_ORIGINS: app_origin }) });

async function receiver_for(t: Test): Promise<WebhookReceiver> {
  const receiver = new WebhookReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  return receiver;
}
const fast_key = { rate_limit_per_minute: 100_000 };
let emails = 0;

function agent_body(overrides: Record<string, unknown> = {}) {
  emails++;
  return { name: `Till ${emails}`, email: `acting${emails}-${Date.now()}@example.ng`, phone: '08031234567', password: 'agent password 1', kyc_level: 1, pin: '54321', ...overrides };
}

/** Opens an agent under the key's account, funded with amount NGN of test money by a transfer from its parent. */
async function open_agent(s: TestServer, parent_key: string, amount = 0, overrides: Record<string, unknown> = {}) {
  const created = await s.api('POST', '/v1/agents', { key: parent_key, body: agent_body(overrides) });
  if (created.status !== 201) throw new Error(`open_agent: ${created.status} ${created.text}`);
  const id = created.body.data.id as number;
  if (amount > 0) {
    const moved = await s.api('POST', `/v1/agents/${id}/transfers`, { key: parent_key, body: { direction: 'to_agent', amount, environment: 'test', pin: overrides.parent_pin ?? '12345', reference: `fund-${id}` } });
    if (moved.status !== 201) throw new Error(`fund agent: ${moved.status} ${moved.text}`);
  }
  return id;
}

function as(key: string, account: number | string, method: string, path: string, body?: unknown, idempotency_key?: string) {
  return server.api(method, path, { key, headers: { 'Billvend-Account': String(account) }, ...(body === undefined ? {} : { body }), ...(idempotency_key === undefined ? {} : { idempotency_key }) });
}

t.test('a parent acts for its direct agent: the purchase debits the agent with the agent\'s PIN; reads, keys and webhooks are the agent\'s', async (t) => {
  const reseller = await server.reseller(100_000, {}, fast_key);
  const agent = await open_agent(server, reseller.key, 5_000);
  const parent_before = (await server.api('GET', '/v1/wallet', { key: reseller.key })).body.data.balance;

  const account = await as(reseller.key, agent, 'GET', '/v1/account');
  t.equal(account.status, 200, `GET /v1/account as the agent: ${account.text}`);
  t.equal(account.body.data.id, agent, 'answers the agent\'s account');

  const wrong_pin = await as(reseller.key, agent, 'POST', '/v1/services/airtime', airtime_body(sandbox.delivered, 100, { pin: '12345' }));
  t.equal(wrong_pin.status, 403, 'the parent\'s PIN is refused when buying for the agent');
  t.equal(wrong_pin.body.error.code, 'pin.incorrect', 'as a wrong PIN');

  const bought = await as(reseller.key, agent, 'POST', '/v1/services/airtime', airtime_body(sandbox.delivered, 100, { pin: '54321' }));
  t.equal(bought.status, 201, `a purchase with the agent's PIN is made: ${bought.text}`);
  const wallet = await as(reseller.key, agent, 'GET', '/v1/wallet');
  t.equal(wallet.body.data.balance, 5_000 - bought.body.data.amount_charged, 'the agent\'s wallet paid for it');
  t.equal((await server.api('GET', '/v1/wallet', { key: reseller.key })).body.data.balance, parent_before, 'the parent\'s wallet did not move');

  const history = await as(reseller.key, agent, 'GET', '/v1/transactions');
  t.equal(history.status, 200, 'the agent\'s history is read');
  t.ok(JSON.stringify(history.body.data).includes(bought.body.data.reference), 'and holds the purchase');
  const parent_history = await server.api('GET', '/v1/transactions', { key: reseller.key });
  t.notOk(JSON.stringify(parent_history.body.data).includes(bought.body.data.reference), 'the parent\'s own history does not');

  const key = await as(reseller.key, agent, 'POST', '/v1/keys', { name: 'till key', environment: 'test', scopes: ['wallet:read'] });
  t.equal(key.status, 201, `a key created while acting: ${key.text}`);
  const own = await server.api('GET', '/v1/account', { key: key.body.data.api_key });
  t.equal(own.body.data.id, agent, 'belongs to the agent');
  const agent_keys = await as(reseller.key, agent, 'GET', '/v1/keys');
  t.ok(agent_keys.body.data.keys.some((k: { id: number }) => k.id === key.body.data.id), 'and is listed among the agent\'s keys');
  const parent_keys = await server.api('GET', '/v1/keys', { key: reseller.key });
  t.notOk(parent_keys.body.data.keys.some((k: { id: number }) => k.id === key.body.data.id), 'not among the parent\'s');

  const receiver = await receiver_for(t);
  const hook = await as(reseller.key, agent, 'POST', '/v1/webhooks', { url: receiver.url });
  t.equal(hook.status, 201, `a webhook endpoint registered while acting: ${hook.text}`);
  const listed = await as(reseller.key, agent, 'GET', '/v1/webhooks');
  t.same(listed.body.data.webhooks.map((w: { id: number }) => w.id), [hook.body.data.id], 'is the agent\'s');
  const parent_hooks = await server.api('GET', '/v1/webhooks', { key: reseller.key });
  t.same(parent_hooks.body.data.webhooks, [], 'not the parent\'s');
});

t.test('a parent acts for a grandchild through its super-agent', async (t) => {
  const reseller = await server.reseller(100_000, {}, fast_key);
  const super_agent = await open_agent(server, reseller.key, 10_000, { kyc_level: 2 });
  const manager = await server.create_key(super_agent, { scopes: ['*'], ...fast_key });
  const grandchild = await open_agent(server, manager.api_key, 2_000, { parent_pin: '54321' });
  const bought = await as(reseller.key, grandchild, 'POST', '/v1/services/airtime', airtime_body(sandbox.delivered, 100, { pin: '54321' }));
  t.equal(bought.status, 201, `the reseller buys for its agent's agent: ${bought.text}`);
  const wallet = await as(reseller.key, grandchild, 'GET', '/v1/wallet');
  t.equal(wallet.body.data.balance, 2_000 - bought.body.data.amount_charged, 'the grandchild paid');
  const up = await as(manager.api_key, reseller.id, 'GET', '/v1/wallet');
  t.equal(up.status, 404, 'the super-agent cannot act for its parent');
});

t.test('any id outside the caller\'s subtree is the same 404, without the scope 403, malformed 400', async (t) => {
  const reseller = await server.reseller(0, {}, fast_key);
  const agent = await open_agent(server, reseller.key);
  const sibling = await open_agent(server, reseller.key);
  const agent_key = await server.create_key(agent, { scopes: ['*'], ...fast_key });
  const stranger = await server.reseller(0, {}, fast_key);
  const bodies: string[] = [];
  for (const [what, key, id] of [
    ['the caller itself', reseller.key, reseller.id],
    ['the caller\'s parent', agent_key.api_key, reseller.id],
    ['a sibling', agent_key.api_key, sibling],
    ['a stranger', reseller.key, stranger.id],
    ['an id that does not exist', reseller.key, 987_654_321],
  ] as const) {
    const response = await as(key, id, 'GET', '/v1/wallet');
    t.equal(response.status, 404, `${what}: 404`);
    t.equal(response.body.error?.code, 'account.not_found', `${what}: account.not_found`);
    bodies.push(JSON.stringify({ ...response.body, request_id: '' }));
  }
  t.equal(new Set(bodies).size, 1, 'every one of them is the same answer');

  const reader = await server.create_key(reseller.id, { scopes: ['wallet:read'], ...fast_key });
  const scoped = await as(reader.api_key, agent, 'GET', '/v1/wallet');
  t.equal(scoped.status, 403, 'a key without agents:manage sending the header: 403');
  t.equal(scoped.body.error.code, 'auth.insufficient_scope', 'auth.insufficient_scope');
  for (const value of ['abc', '0', '-3', '01', '1.5', '99999999999999999999']) {
    const response = await as(reseller.key, value, 'GET', '/v1/wallet');
    t.equal(response.status, 400, `Billvend-Account: ${value} is 400`);
    t.equal(response.body.error?.code, 'validation.failed', `${value}: validation.failed`);
    t.equal(response.body.error?.details?.[0]?.field, 'Billvend-Account', `${value}: naming the header`);
  }
});

t.test('a suspended agent is refused when acted for; idempotency keys are the agent\'s', async (t) => {
  const reseller = await server.reseller(100_000, {}, fast_key);
  const agent = await open_agent(server, reseller.key, 1_000);
  const first = await as(reseller.key, agent, 'POST', '/v1/services/airtime', airtime_body(sandbox.delivered, 100, { pin: '54321' }), 'shared-idem-1');
  t.equal(first.status, 201, 'a purchase for the agent under an idempotency key');
  const again = await as(reseller.key, agent, 'POST', '/v1/services/airtime', airtime_body(sandbox.delivered, 100, { pin: '54321' }), 'shared-idem-1');
  t.equal(again.headers.get('idempotent-replayed'), 'true', 'the same key again for the agent is a replay');
  t.equal(again.body.data.reference, first.body.data.reference, 'of the same order');
  const own = await server.api('POST', '/v1/services/airtime', { key: reseller.key, body: airtime_body(sandbox.delivered, 100), idempotency_key: 'shared-idem-1' });
  t.equal(own.status, 201, `the parent's own purchase under the same key is a new order: ${own.text}`);
  t.not(own.headers.get('idempotent-replayed'), 'true', 'not a replay');
  t.not(own.body.data.reference, first.body.data.reference, 'another order');

  const suspended = await server.api('PATCH', `/v1/agents/${agent}`, { key: reseller.key, body: { status: 'suspended' } });
  t.equal(suspended.status, 200, 'the parent suspends its agent');
  const refused = await as(reseller.key, agent, 'GET', '/v1/wallet');
  t.equal(refused.status, 403, 'acting for a suspended agent is 403');
  t.equal(refused.body.error.code, 'account.suspended', 'account.suspended');
});

t.test('the operator sets an agent\'s PIN, which then buys for it', async (t) => {
  const reseller = await server.reseller(100_000, {}, fast_key);
  const agent = await open_agent(server, reseller.key, 1_000);
  const set = await server.admin('POST', `/admin/accounts/${agent}/pin`, { pin: '24680' });
  t.equal(set.status, 200, `the operator sets the agent's PIN: ${set.text}`);
  const old = await as(reseller.key, agent, 'POST', '/v1/services/airtime', airtime_body(sandbox.delivered, 100, { pin: '54321' }));
  t.equal(old.body.error?.code, 'pin.incorrect', 'the agent\'s former PIN is refused');
  const bought = await as(reseller.key, agent, 'POST', '/v1/services/airtime', airtime_body(sandbox.delivered, 100, { pin: '24680' }));
  t.equal(bought.status, 201, 'the PIN the operator set buys');
});

t.test('a parent\'s endpoint with include_agents receives its agents\' events carrying account, signed; one without it does not', async (t) => {
  const reseller = await server.reseller(100_000, {}, fast_key);
  const with_agents = await receiver_for(t);
  const own_only = await receiver_for(t);
  const created = await server.api('POST', '/v1/webhooks', { key: reseller.key, body: { url: with_agents.url, include_agents: true, events: ['transaction.completed', 'wallet.debited'] } });
  t.equal(created.status, 201, `an endpoint with include_agents: ${created.text}`);
  t.equal(created.body.data.include_agents, true, 'shows include_agents');
  with_agents.secret = created.body.data.secret;
  const plain = await server.api('POST', '/v1/webhooks', { key: reseller.key, body: { url: own_only.url, events: ['transaction.completed', 'wallet.debited'] } });
  t.equal(plain.body.data.include_agents, false, 'include_agents is false by default');
  own_only.secret = plain.body.data.secret;

  const agent = await open_agent(server, reseller.key, 1_000);
  const bought = await as(reseller.key, agent, 'POST', '/v1/services/airtime', airtime_body(sandbox.delivered, 100, { pin: '54321' }));
  t.equal(bought.status, 201, 'the agent buys');
  const reference = bought.body.data.reference;
  const deadline = Date.now() + 15_000;
  const of_purchase = () => with_agents.received.filter((r) => r.json?.data?.reference === reference);
  while (of_purchase().length < 2 && Date.now() < deadline) await sleep(25);
  const got = of_purchase();
  t.same(got.map((r) => r.json.event).sort(), ['transaction.completed', 'wallet.debited'], 'the parent\'s endpoint gets the agent\'s purchase events');
  for (const r of got) {
    t.equal(r.json.account, agent, `${r.json.event} carries account: the agent`);
    t.same(Object.keys(r.json), ['event', 'id', 'created_at', 'account', 'data'], `${r.json.event}: the spec's envelope, account added`);
    t.ok(r.service_signature_ok && r.standard_signature_ok, `${r.json.event} is signed with the endpoint's secret`);
  }
  const deliveries = await server.api('GET', `/v1/webhooks/${created.body.data.id}/deliveries`, { key: reseller.key });
  t.equal(deliveries.status, 200, 'the parent lists its endpoint\'s deliveries');
  t.ok(deliveries.body.data.deliveries.length >= 2, 'the agent\'s events among them');

  // The parent's own purchase reaches both endpoints; once it has, the agent's would have too.
  const own = await server.api('POST', '/v1/services/airtime', { key: reseller.key, body: airtime_body(sandbox.delivered, 100) });
  t.equal(own.status, 201, 'the parent buys for itself');
  while (!own_only.received.some((r) => r.json?.data?.reference === own.body.data.reference && r.json?.event === 'transaction.completed') && Date.now() < deadline + 15_000) await sleep(25);
  t.ok(own_only.received.some((r) => r.json?.data?.reference === own.body.data.reference), 'the plain endpoint gets the parent\'s own events');
  t.notOk(own_only.received.some((r) => r.json?.data?.reference === reference), 'but none of the agent\'s');
  const top = own_only.received.find((r) => r.json?.data?.reference === own.body.data.reference)!;
  t.same(Object.keys(top.json), ['event', 'id', 'created_at', 'data'], 'the parent\'s own events keep the four fields');

  const feed = await as(reseller.key, agent, 'GET', '/v1/events');
  t.equal(feed.status, 200, 'the agent\'s events feed is read while acting');
  t.ok(feed.body.data.events.every((e: { account: number }) => e.account === agent), 'each event of it carries account');

  const off = await server.api('PATCH', `/v1/webhooks/${created.body.data.id}`, { key: reseller.key, body: { include_agents: false } });
  t.equal(off.status, 200, 'include_agents is turned off');
  t.equal(off.body.data.include_agents, false, 'and shows so');
});

t.test('a closed agent is read when acted for, never changed', async (t) => {
  const reseller = await server.reseller(100_000, {}, fast_key);
  const agent = await open_agent(server, reseller.key, 1_000);
  const closed = await server.api('DELETE', `/v1/agents/${agent}`, { key: reseller.key });
  t.equal(closed.status, 200, `the parent closes its agent: ${closed.text}`);
  const read = await as(reseller.key, agent, 'GET', '/v1/wallet/transactions');
  t.equal(read.status, 200, 'its history is still read');
  const changed = await as(reseller.key, agent, 'POST', '/v1/keys', { name: 'late', environment: 'test' });
  t.equal(changed.status, 409, 'a change is refused');
  t.equal(changed.body.error.code, 'agents.closed', 'with agents.closed');
});

t.test('a grandchild\'s events reach the reseller\'s include_agents endpoint, naming the grandchild', async (t) => {
  const reseller = await server.reseller(100_000, {}, fast_key);
  const receiver = await receiver_for(t);
  const created = await server.api('POST', '/v1/webhooks', { key: reseller.key, body: { url: receiver.url, include_agents: true, events: ['transaction.completed'] } });
  receiver.secret = created.body.data.secret;
  const super_agent = await open_agent(server, reseller.key, 10_000, { kyc_level: 2 });
  const grandchild_id = (await as(reseller.key, super_agent, 'POST', '/v1/agents', agent_body())).body.data.id as number;
  const moved = await as(reseller.key, super_agent, 'POST', `/v1/agents/${grandchild_id}/transfers`, { direction: 'to_agent', amount: 1_000, environment: 'test', pin: '54321', reference: 'g-fund' });
  t.equal(moved.status, 201, `the super-agent funds its agent with its own PIN, driven by the reseller: ${moved.text}`);
  const bought = await as(reseller.key, grandchild_id, 'POST', '/v1/services/airtime', airtime_body(sandbox.delivered, 100, { pin: '54321' }));
  t.equal(bought.status, 201, 'the grandchild buys');
  const deadline = Date.now() + 15_000;
  while (!receiver.received.some((r) => r.json?.data?.reference === bought.body.data.reference) && Date.now() < deadline) await sleep(25);
  const got = receiver.received.find((r) => r.json?.data?.reference === bought.body.data.reference);
  t.equal(got?.json.account, grandchild_id, 'the reseller\'s endpoint gets it, with account: the grandchild');
  t.ok(got?.service_signature_ok && got?.standard_signature_ok, 'signed with the reseller\'s endpoint secret');
});

t.test('a CORS preflight allows Billvend-Account', async (t) => {
  const preflight = await server.api('OPTIONS', '/v1/wallet', { headers: { origin: app_origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, billvend-account' } });
  t.equal(preflight.status, 204, 'the preflight is answered');
  t.match(preflight.headers.get('access-control-allow-headers') ?? '', /\bBillvend-Account\b/, 'and allows the header');
});

t.test('the SDK\'s account option acts for the agent', async (t) => {
  const reseller = await server.reseller(100_000, {}, fast_key);
  const agent = await open_agent(server, reseller.key, 700);
  const client = new Billvend({ apiKey: reseller.key, baseUrl: server.base, account: agent });
  const wallet = await client.request('get', '/v1/wallet');
  t.equal(wallet.data.balance, 700, 'the agent\'s wallet is read');
  t.throws(() => new Billvend({ apiKey: reseller.key, account: 0 }), TypeError, 'an account that is no id is refused up front');
});

t.test('the acting key\'s rate limit applies, and the log line names the agent, the key and the key\'s account', async (t) => {
  const reseller = await server.reseller(0, {}, fast_key);
  const agent = await open_agent(server, reseller.key);
  const agent_key = await server.create_key(agent, { rate_limit_per_minute: 100 });
  const slow = await server.create_key(reseller.id, { rate_limit_per_minute: 3 });
  for (let i = 1; i <= 3; i++) t.equal((await as(slow.api_key, agent, 'GET', '/v1/wallet')).status, 200, `request ${i} for the agent is within the key's limit`);
  const limited = await as(slow.api_key, agent, 'GET', '/v1/wallet');
  t.equal(limited.status, 429, 'the fourth is over the acting key\'s limit');
  t.equal(limited.body.error.code, 'rate_limit.exceeded', 'rate_limit.exceeded');
  t.equal((await server.api('GET', '/v1/wallet', { key: agent_key.api_key })).status, 200, 'the agent\'s own key keeps its own window');

  const read = await as(reseller.key, agent, 'GET', '/v1/account');
  const request_id = read.body.request_id;
  let line: Record<string, unknown> | undefined;
  const deadline = Date.now() + 5_000;
  while (line === undefined && Date.now() < deadline) {
    line = server.logs.map((l) => { try { return JSON.parse(l) as Record<string, unknown>; } catch { return {}; } }).find((l) => l.request_id === request_id && l.msg === 'request');
    if (line === undefined) await sleep(25);
  }
  t.equal(line?.account, agent, 'the log line\'s account is the agent');
  t.equal(line?.key_account, reseller.id, 'key_account is the key\'s own account');
  t.equal(line?.key_id, reseller.key_id, 'key_id is the acting key');
});
