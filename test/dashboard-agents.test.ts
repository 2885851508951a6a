// Agents in the dashboard (docs/api.md "Agents", "Dashboard and documentation"): a suspended agent, or one
// under a suspended account, and a closed one neither sign in nor use a session opened before; a parent
// runs its agents from the Agents page in headless Chromium against a real server (open one, the password
// shown once, transfers both ways with its PIN, a double click moving money once, suspend and reactivate,
// close sweeping the balance back) and the agent signs in to its own desk; suspended, its open desk closes with
// the reason; closed, its session leads to the sign-in page. Screenshots at desktop and phone width.
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { api_response, launch_browser, open_page, page_fetch, screenshot, settled, sign_in, unnamed_controls, wait_for_count, wait_for_value } from './helpers/browser.js';

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
  const below_first = await sign_in('till-below@example.ng');
  t.equal(below_first.status, 201, 'an agent below an active one signs in');
  t.equal(below_first.body.data.agents_allowed, false, 'an agent at the third level gets no Agents page');
  t.equal(first.body.data.agents_allowed, true, 'one at the second level does');
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

t.test('a parent opens and runs an agent from the Agents page; the agent signs in to its own desk', async (t) => {
  const server = await start_server(t, { env: { TIME_SCALE: '0.001' } });
  const parent = await server.create_account({ kyc_level: 2 });
  const key = await server.create_key(parent.id, fast_key);
  await server.credit(parent.id, 'test', 10_000);
  const browser = await launch_browser(t);
  const { page, problems, csp_violations } = await open_page(browser, server);
  const parent_balance = async () => (await server.api('GET', '/v1/wallet', { key: key.api_key })).body.data.balance as number;
  const agent_read = async (id: number) => (await server.api('GET', `/v1/agents/${id}`, { key: key.api_key })).body.data;

  // The Agents page is in the parent's navigation; an agent is opened with the API's fields.
  await sign_in(page, parent.email, parent.password, '/dashboard/?env=test');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Agents' }).click();
  await page.getByRole('heading', { name: 'Open an agent' }).waitFor();
  await page.getByLabel('Name').fill('Till Ikeja');
  await page.getByLabel('Email (its sign-in)').fill('till-ikeja@example.ng');
  await page.getByLabel('Phone').fill('0803123');
  await page.getByLabel('Password (8 characters or more)').fill('till password 1');
  await page.getByLabel('KYC level').selectOption('3');
  await page.getByLabel('Transaction PIN (5 digits, optional)').fill('54321');
  const [refused] = await Promise.all([api_response(page, 'POST', '/agents'), page.getByRole('button', { name: 'Open agent' }).click()]);
  t.equal(refused.status(), 400, 'a bad phone is refused');
  t.ok(await page.locator('#agent-phone-error').isVisible(), 'its error shows by its field');
  await page.getByLabel('Phone').fill('08031234567');
  const [above] = await Promise.all([api_response(page, 'POST', '/agents'), page.getByRole('button', { name: 'Open agent' }).click()]);
  t.equal(above.status(), 400, 'a KYC level above the parent\'s is refused');
  t.match(await page.locator('#agent-kyc_level-error').textContent(), /parent/, 'its error shows by its field');
  t.notOk(await page.locator('#agent-phone-error').isVisible(), 'and the phone\'s is gone');
  await page.getByLabel('KYC level').selectOption('1');
  const [created] = await Promise.all([api_response(page, 'POST', '/agents'), page.getByRole('button', { name: 'Open agent' }).click()]);
  t.equal(created.status(), 201, 'the agent is opened');
  const agent_id = (await created.json()).data.id as number;
  await page.getByText('Agent “Till Ikeja” opened.').waitFor();
  t.equal(await page.getByLabel('Password (8 characters or more)').inputValue(), '', 'the password is gone from the form');
  t.notOk((await page.content()).includes('till password 1'), 'and shown nowhere');
  await page.getByTestId('agents-table').getByRole('link', { name: 'Till Ikeja' }).waitFor();
  await screenshot(t, page, 'agents-list');
  t.same(await unnamed_controls(page), [], 'every control of the Agents page has a name');

  // The agent's page: a transfer to it, double-clicked, moves money once.
  await page.getByTestId('agents-table').getByRole('link', { name: 'Till Ikeja' }).click();
  await page.getByRole('heading', { name: 'Move money' }).waitFor();
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes(`/dashboard/api/agents/${agent_id}/transfers`)) sent.push(JSON.parse(request.postData() ?? '{}').reference ?? '');
  });
  await page.getByLabel('Amount (₦)').fill('2500.50');
  await page.getByLabel('Your transaction PIN').fill(parent.pin);
  await page.getByRole('button', { name: 'Send ₦2,500.50 to Till Ikeja' }).dblclick();
  await page.getByText('Sent ₦2,500.50.').waitFor();
  t.ok(sent.length >= 1 && sent.every((reference) => reference !== '' && reference === sent[0]), `every request of the transfer carries one reference (${sent.length} sent)`);
  t.equal(await parent_balance(), 7_499.5, 'the parent is debited once, to the kobo');
  t.equal((await agent_read(agent_id)).balances.test.balance, 2_500.5, 'the agent is credited once, to the kobo');
  // The same reference sent again by hand (a retry after a lost answer): nothing more moves.
  const csrf = (await page_fetch(page, 'GET', '/dashboard/api/session')).body.data.csrf_token as string;
  const again = await page_fetch(page, 'POST', `/dashboard/api/agents/${agent_id}/transfers?environment=test`, { csrf, body: { direction: 'to_agent', amount: 2500.5, environment: 'test', pin: parent.pin, reference: sent[0] } });
  t.equal(again.body?.data?.reference, sent[0], 'a repeat of the reference answers the same transfer');
  const no_csrf = await page_fetch(page, 'POST', `/dashboard/api/agents/${agent_id}/transfers?environment=test`, { body: { direction: 'to_agent', amount: 1, environment: 'test', pin: parent.pin, reference: 'no-csrf-1' } });
  t.equal(no_csrf.body?.error?.code, 'session.csrf_failed', 'a transfer without the CSRF token is refused');
  t.equal(await parent_balance(), 7_499.5, 'and neither moved money');
  // Back from the agent, with the parent's PIN.
  await page.getByLabel('Back from the agent').check();
  await page.getByLabel('Amount (₦)').fill('0.25');
  await page.getByLabel('Your transaction PIN').fill(parent.pin);
  await page.getByRole('button', { name: 'Take ₦0.25 from Till Ikeja' }).click();
  await page.getByText('Took back ₦0.25.').waitFor();
  t.equal(await parent_balance(), 7_499.75, 'money comes back to the parent');
  t.equal((await agent_read(agent_id)).balances.test.balance, 2_500.25, 'from the agent');
  await page.getByTestId('agent-test-balance').filter({ hasText: '₦2,500.25' }).waitFor();
  // The page reads the balance and the transfers apart: the list may show its second row a moment after the balance.
  await page.getByTestId('transfers-table').locator('tbody tr').nth(1).waitFor();
  t.equal(await page.getByTestId('transfers-table').locator('tbody tr').count(), 2, 'both transfers are listed');
  await screenshot(t, page, 'agents-agent');
  t.same(await unnamed_controls(page), [], 'every control of the agent\'s page has a name');

  // Suspended: the agent's sign-in is refused with the message.
  await Promise.all([api_response(page, 'PATCH', `/agents/${agent_id}`), page.getByRole('button', { name: 'Suspend agent' }).click()]);
  await page.getByRole('button', { name: 'Reactivate agent' }).waitFor();
  t.equal((await agent_read(agent_id)).status, 'suspended', 'the agent is suspended');
  const agent_side = await open_page(browser, server);
  await agent_side.page.goto('/dashboard/?env=test');
  await agent_side.page.getByLabel('Email').fill('till-ikeja@example.ng');
  await agent_side.page.getByLabel('Password').fill('till password 1');
  await agent_side.page.getByRole('button', { name: 'Sign in' }).click();
  const banner = agent_side.page.locator('[data-error-code="account.suspended"]');
  await banner.waitFor();
  t.match(await banner.textContent(), /suspended/, 'the suspended agent\'s sign-in says why it is refused');
  await screenshot(t, agent_side.page, 'agents-suspended-sign-in');

  // Reactivated: the agent signs in and sees its own wallet.
  await page.getByRole('button', { name: 'Reactivate agent' }).click();
  await page.getByRole('button', { name: 'Suspend agent' }).waitFor();
  await sign_in(agent_side.page, 'till-ikeja@example.ng', 'till password 1', '/dashboard/wallet?env=test');
  await agent_side.page.locator('[data-testid="wallet-balance"]:has-text("2,500.25")').waitFor();
  t.pass('the agent signs in and sees its own test wallet');
  await settled(agent_side.page);
  await screenshot(t, agent_side.page, 'agents-agent-desk');
  t.same(await unnamed_controls(agent_side.page), [], 'every control of the agent\'s desk has a name');

  // Suspended again while signed in: the open desk is closed with the reason.
  await page.getByRole('button', { name: 'Suspend agent' }).click();
  await page.getByRole('button', { name: 'Reactivate agent' }).waitFor();
  await agent_side.page.reload();
  await agent_side.page.getByText(/suspended: it cannot use the dashboard/).waitFor();
  t.ok(await agent_side.page.getByRole('button', { name: 'Sign in' }).isVisible(), 'a suspended agent\'s open session shows the sign-in page with the reason');
  await page.getByRole('button', { name: 'Reactivate agent' }).click();
  await page.getByRole('button', { name: 'Suspend agent' }).waitFor();
  await agent_side.page.goto('/dashboard/wallet?env=test');
  await agent_side.page.locator('[data-testid="wallet-balance"]:has-text("2,500.25")').waitFor();
  t.pass('reactivated, the same session opens the desk again');

  // Closing, after a confirmation, sweeps the balance back; the agent's session ends.
  await page.getByRole('button', { name: 'Close agent' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText('This cannot be undone.').waitFor();
  await dialog.getByRole('button', { name: 'Close agent' }).click();
  await page.getByText(/Till Ikeja is closed\./).waitFor();
  t.equal(await parent_balance(), 10_000, 'closing swept the agent\'s balance back to the parent');
  const closed = await agent_read(agent_id);
  t.equal(closed.status, 'closed', 'the agent is closed');
  t.equal(closed.balances.test.balance, 0, 'with nothing left');
  await page.getByTestId('transfers-table').getByText('Swept back at closing').waitFor();
  await agent_side.page.reload();
  await agent_side.page.waitForURL(/\/dashboard\/sign-in/);
  await agent_side.page.getByRole('button', { name: 'Sign in' }).waitFor();
  t.pass('the closed agent\'s open session leads to the sign-in page');
  t.same([...problems, ...agent_side.problems], [], 'no page errors');
  t.same([...csp_violations, ...agent_side.csp_violations], [], 'no CSP violations');
});

t.test('a parent reads its agent\'s orders on the agent\'s page, opens one, and edits the agent\'s price list: a rule above its own rate is shown by its field, a valid one is charged', async (t) => {
  const server = await start_server(t);
  // The parent's tier: 5% on MTN airtime, 3% on the other networks (docs/api.md "Agent pricing").
  const tier = await server.admin('PUT', '/admin/pricing/deskgold', { rules: [{ service_type: 'airtime', rate_bp: 300 }, { service_type: 'airtime', network: 'mtn', rate_bp: 500 }] });
  t.equal(tier.status, 200, 'the operator sets the parent\'s tier');
  const parent = await server.create_account({ kyc_level: 2, tier: 'deskgold' });
  const key = await server.create_key(parent.id, fast_key);
  await server.credit(parent.id, 'test', 10_000);
  const created = await server.api('POST', '/v1/agents', { key: key.api_key, body: { name: 'Till Yaba', email: 'till-yaba@example.ng', phone: '08031234567', password: 'till password 1', kyc_level: 1, pin: '54321' } });
  t.equal(created.status, 201, 'the parent opens an agent');
  const agent_id = created.body.data.id as number;
  const moved = await server.api('POST', `/v1/agents/${agent_id}/transfers`, { key: key.api_key, body: { direction: 'to_agent', amount: 2_000, environment: 'test', pin: parent.pin, reference: 'yaba-fund-1' } });
  t.equal(moved.status, 201, 'and funds it');
  const agent_key = await server.create_key(agent_id, fast_key);
  let purchases = 0;
  const agent_buys = async (phone = '08011111111') => {
    const bought = await server.api('POST', '/v1/services/airtime', { key: agent_key.api_key, body: { network: 'mtn', phone, amount: 100, pin: '54321' }, idempotency_key: `yaba-${++purchases}` });
    t.equal(bought.status, 201, `the agent buys airtime with its own key: ${bought.status === 201 ? '' : bought.text}`);
    return bought.body.data;
  };
  const first = await agent_buys();
  t.equal(first.amount_charged, 100, 'without a price list the agent pays face value');

  const browser = await launch_browser(t);
  const { page, problems, csp_violations } = await open_page(browser, server);
  await sign_in(page, parent.email, parent.password, `/dashboard/agents/${agent_id}?env=test`);

  // The agent's orders, read with Billvend-Account on the order reads.
  const orders = page.getByRole('region', { name: 'Its orders (test)' });
  const row = orders.getByTestId('orders-table').locator(`tr[data-reference="${first.reference}"]`);
  await row.waitFor();
  t.equal(await orders.getByTestId('orders-table').locator('tbody tr').count(), 1, 'the agent\'s one order is listed, none of the parent\'s');
  await orders.getByLabel('Status').selectOption('failed');
  await orders.getByRole('button', { name: 'Apply filters' }).click();
  await orders.getByText('No orders match these filters.').waitFor();
  t.match(page.url(), new RegExp(`/dashboard/agents/${agent_id}\\?env=test&status=failed`), 'the filters live in the agent page\'s address');
  await page.goBack();
  await row.waitFor();
  await screenshot(t, page, 'agents-agent-orders');
  t.same(await unnamed_controls(page), [], 'every control of the agent\'s page, its orders and prices included, has a name');

  // An order opens to its detail, read-only.
  await row.getByRole('link', { name: first.reference }).click();
  await page.waitForURL(new RegExp(`/dashboard/agents/${agent_id}/orders/${first.reference}`));
  const facts = page.getByTestId('order-facts');
  await facts.getByText(first.reference).waitFor();
  t.match(await facts.textContent(), /Airtime/, 'the agent\'s order opens to its detail');
  t.equal(await page.getByTestId('order-receipt').count(), 0, 'without the receipt link, which cannot carry the agent\'s id');
  await screenshot(t, page, 'agents-agent-order');
  t.same(await unnamed_controls(page), [], 'every control of the agent\'s order has a name');
  await page.getByRole('link', { name: '← The agent' }).click();

  // The price list: each product the parent has a rate for, its own rate the ceiling.
  const editor = page.getByTestId('agent-price-editor');
  const mtn = editor.getByLabel('Agent\'s discount for Airtime · MTN (%)');
  await mtn.waitFor();
  const mtn_row = editor.locator('tr[data-product="airtime|mtn||"]');
  t.match(await mtn_row.textContent(), /5\.00%/, 'MTN airtime shows the parent\'s own 5% as the ceiling');
  t.equal(await editor.locator('tbody tr').count(), 4, 'one row for each airtime network the parent has a rate for');
  await editor.getByLabel('Agent\'s discount for Airtime · GLO (%)').fill('1');
  await mtn.fill('6');
  const [refused] = await Promise.all([api_response(page, 'PUT', `/agents/${agent_id}/pricing`), editor.getByRole('button', { name: 'Save prices' }).click()]);
  t.equal(refused.status(), 400, 'a discount above the parent\'s own rate is refused');
  const refusal = await refused.json();
  t.same(refusal.error.details.map((d: { field: string }) => d.field), ['rules.0.rate_bp'], 'the server names the MTN rule by its place in the list sent, the first');
  const mtn_error = mtn_row.locator('.form-error');
  await mtn_error.waitFor();
  t.match(await mtn_error.textContent(), /parent's own rate/, 'the refusal shows next to the MTN rule');
  t.equal(await mtn.getAttribute('aria-invalid'), 'true', 'which is marked invalid');
  t.equal(await editor.locator('tr[data-product="airtime|glo||"] .form-error').count(), 0, 'and not next to the valid GLO rule');
  await screenshot(t, page, 'agents-agent-prices-refused');
  t.equal((await agent_buys()).amount_charged, 100, 'nothing was saved: the agent still pays face value');

  await mtn.fill('2.5');
  const [saved] = await Promise.all([api_response(page, 'PUT', `/agents/${agent_id}/pricing`), editor.getByRole('button', { name: 'Save prices' }).click()]);
  t.equal(saved.status(), 200, 'a discount within the parent\'s rate is saved');
  await editor.getByText('Price list saved: 2 rule(s).').waitFor();
  t.equal(await mtn_row.locator('.form-error').count(), 0, 'the field error is gone');
  const stored = (await server.api('GET', `/v1/agents/${agent_id}`, { key: key.api_key })).body.data.pricing.rules;
  t.same(stored.map((r: { network: string; rate_bp: number }) => [r.network, r.rate_bp]), [['mtn', 250], ['glo', 100]], 'the agent\'s price list is what the page shows');
  const charged = await agent_buys();
  t.equal(charged.amount_charged, 97.5, 'the agent\'s next MTN purchase is charged at 2.5% off');
  t.equal(await wait_for_value(mtn, '2.50'), '2.50', 'the page shows the saved rate, once it has reloaded the agent');

  // Removing a rule: the GLO discount is cleared and the list saved again.
  await editor.getByRole('button', { name: 'Remove the discount for Airtime · GLO' }).click();
  await Promise.all([api_response(page, 'PUT', `/agents/${agent_id}/pricing`), editor.getByRole('button', { name: 'Save prices' }).click()]);
  await editor.getByText('Price list saved: 1 rule(s).').waitFor();
  const after = (await server.api('GET', `/v1/agents/${agent_id}`, { key: key.api_key })).body.data.pricing.rules;
  t.same(after.map((r: { network: string }) => r.network), ['mtn'], 'a removed rule is gone from the agent\'s list');
  await screenshot(t, page, 'agents-agent-prices');

  // The new orders show on the agent's page after a reload: three in all.
  await page.reload();
  t.equal(await wait_for_count(orders.getByTestId('orders-table').locator('tbody tr'), 3), 3, 'the agent\'s three orders are listed after a reload');
  t.same(problems, [], 'no page errors');
  t.same(csp_violations, [], 'no CSP violations');
});
