// Agents in the dashboard (docs/api.md "Agents", "Dashboard and documentation"): a suspended agent, or one
// under a suspended account, and a closed one neither sign in nor use a session opened before; a parent
// runs its agents from the Agents page in headless Chromium against a real server (open one, the password
// shown once, transfers both ways with its PIN, a double click moving money once, suspend and reactivate,
// close sweeping the balance back) and the agent signs in to its own desk.
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';

const fast_key = { rate_limit_per_minute: 1_000_000 };

async function dashboard(server: TestServer, method: string, path: string, options: { cookie?: string; csrf?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (options.cookie !== undefined) headers.cookie = `bv_session=${options.cookie}`;
  if (options.csrf !== undefined) headers['x-csrf-token'] = options.csrf;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${server.base}/dashboard/api${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), cookie: /bv_session=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')?.[1] };
}

t.test('a suspended or closed agent neither signs in to the dashboard nor uses a session it opened before', async (t) => {
  const server = await start_server(t);
  const reseller = await server.reseller(0, {}, fast_key);
  const open = async (key: string, email: string) => {
    const created = await server.api('POST', '/v1/agents', { key, body: { name: 'Till', email, phone: '08031234567', password: 'agent password 1', kyc_level: 1, pin: '54321' } });
    if (created.status !== 201) throw new Error(`open agent: ${created.status} ${created.text}`);
    return created.body.data.id as number;
  };
  const agent_id = await open(reseller.key, 'till-suspended@example.ng');
  const sign_in = (email: string, password = 'agent password 1') => dashboard(server, 'POST', '/session', { body: { email, password } });

  const first = await sign_in('till-suspended@example.ng');
  t.equal(first.status, 201, 'an active agent signs in with the password its parent set');
  const session = { cookie: first.cookie!, csrf: first.body.data.csrf_token as string };
  t.equal((await dashboard(server, 'GET', '/overview', session)).status, 200, 'and reads its desk');

  t.equal((await server.api('PATCH', `/v1/agents/${agent_id}`, { key: reseller.key, body: { status: 'suspended' } })).status, 200, 'the parent suspends it');
  const refused = await sign_in('till-suspended@example.ng');
  t.equal(refused.status, 403, 'a suspended agent\'s sign-in is refused');
  t.equal(refused.body.error.code, 'account.suspended', 'as account.suspended');
  t.match(refused.body.error.message, /suspended/, 'saying so');
  t.equal(refused.cookie, undefined, 'and no session is opened');
  const wrong = await sign_in('till-suspended@example.ng', 'not the password');
  t.equal(wrong.body.error.code, 'session.invalid_credentials', 'a wrong password says nothing about the suspension');
  const overview = await dashboard(server, 'GET', '/overview', session);
  t.equal(overview.body.error?.code, 'account.suspended', 'the session opened before is refused');
  const probe = await dashboard(server, 'GET', '/session/probe', session);
  t.equal(probe.body.data.session, null, 'the app\'s probe opens no desk');
  t.equal(probe.body.data.refused?.code, 'account.suspended', 'and says why');

  // Under a suspended account: the reseller's agent opens one of its own, then is suspended.
  const super_key = await server.create_key(agent_id, fast_key);
  t.equal((await server.api('PATCH', `/v1/agents/${agent_id}`, { key: reseller.key, body: { status: 'active' } })).status, 200, 'reactivated');
  const below_id = await open(super_key.api_key, 'till-below@example.ng');
  t.equal((await sign_in('till-below@example.ng')).status, 201, 'an agent below an active one signs in');
  t.equal((await sign_in('till-suspended@example.ng')).status, 201, 'the reactivated agent signs in again');
  t.equal((await dashboard(server, 'GET', '/overview', session)).status, 200, 'and its old session works again');
  await server.api('PATCH', `/v1/agents/${agent_id}`, { key: reseller.key, body: { status: 'suspended' } });
  t.equal((await sign_in('till-below@example.ng')).body.error?.code, 'account.suspended', 'an agent under a suspended account is refused too');
  await server.api('PATCH', `/v1/agents/${agent_id}`, { key: reseller.key, body: { status: 'active' } });

  // Closed: gone for good, answered as a wrong password.
  const below_session = await sign_in('till-below@example.ng');
  t.equal((await server.api('DELETE', `/v1/agents/${below_id}`, { key: super_key.api_key })).status, 200, 'its parent closes the agent below');
  const closed = await sign_in('till-below@example.ng');
  t.equal(closed.status, wrong.status, 'a closed agent\'s sign-in is refused as a wrong password');
  t.equal(closed.body.error.code, 'session.invalid_credentials', 'with the same code');
  t.equal(closed.cookie, undefined, 'and no session');
  const closed_read = await dashboard(server, 'GET', '/overview', { cookie: below_session.cookie! });
  t.equal(closed_read.body.error?.code, 'session.required', 'its open session is as if signed out');
});
