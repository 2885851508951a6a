// Dashboard, webhooks (docs/api.md "Dashboard and documentation", point 2; docs/spec.md section 6 "can be replayed manually from the
// dashboard"): in headless Chromium against a real server and a real HTTPS receiver, a reseller
// registers an endpoint and sees its secret once; the receiver fails every attempt until the
// delivery is dead; the reseller replays it from the dashboard and sees every attempt with its
// status code.
//
// TIME_SCALE=0.0005 makes the whole retry schedule (30 s … 8 h, 10 h 35 min in all) take about
// 19 s. It also shortens the dashboard session (2 h idle → 3.6 s, 12 h → 21.6 s), so the reseller
// signs in again after the wait, which exercises the expired-session path of the app as well; while
// the reseller is "at the keyboard" the test keeps the session in use (keep_session_alive).
import t from 'tap';
import { start_server } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { api_response, keep_session_alive, launch_browser, open_page, screenshot, settled, shows, sign_in } from './helpers/browser.js';

const time_scale = 0.0005;

t.test('a reseller registers a webhook, watches a delivery die and replays it from the dashboard', async (t) => {
  const receiver = new WebhookReceiver();
  receiver.otherwise = 500;
  await receiver.start();
  t.teardown(() => receiver.stop());
  const server = await start_server(t, { env: webhook_env({ TIME_SCALE: String(time_scale) }) });
  // A key that polling cannot push over the rate limit.
  const reseller = await server.reseller(20_000, {}, { rate_limit_per_minute: 1_000_000 });
  const browser = await launch_browser(t);
  const { context, page, problems, csp_violations } = await open_page(browser, server);

  // Register through the dashboard, on the test side, for transaction.completed only.
  await sign_in(page, reseller.email, reseller.password);
  let stop_keeping_alive = keep_session_alive(context, server);
  await page.getByRole('group', { name: 'Environment' }).getByRole('button', { name: 'Test' }).click();
  await page.getByText('Test mode: sandbox wallet').waitFor();
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Webhooks' }).click();
  await settled(page);
  t.equal(new URL(page.url()).search, '?env=test', 'the environment switch carries over to the next page');
  t.ok(await shows(page.getByText('No test webhook endpoints yet.')), 'no endpoints yet: the empty state shows');
  await page.getByLabel('HTTPS URL').fill(receiver.url);
  for (const kind of ['transaction.failed', 'transaction.processing', 'wallet.credited', 'wallet.debited', 'wallet.reversed', 'wallet.low_balance']) {
    await page.getByLabel(kind).uncheck();
  }
  await page.getByLabel('Description (optional)').fill('Shop back office');
  const [created] = await Promise.all([api_response(page, 'POST', '/webhooks'), page.getByRole('button', { name: 'Register endpoint' }).click()]);
  t.equal(created.status(), 201, 'the server registered the endpoint');
  const secret = (await page.getByTestId('secret-value').textContent()) ?? '';
  t.match(secret, /^whsec_[0-9A-Za-z]{32}$/, 'the signing secret is shown once');
  receiver.secret = secret;
  const endpoint_id = (await created.json()).data.id as number;
  await page.getByRole('button', { name: 'I have saved it' }).click();
  t.notOk((await page.content()).includes(secret), 'the secret is gone once the panel is closed');
  const endpoint_row = page.getByTestId('endpoints-table').locator('tbody tr');
  await endpoint_row.first().waitFor();
  const endpoint_text = (await endpoint_row.first().textContent()) ?? '';
  t.ok(endpoint_text.includes(receiver.url), 'the endpoint is listed with its URL');
  t.ok(endpoint_text.includes('transaction.completed') && !endpoint_text.includes('wallet.debited'), 'with the chosen event only');
  t.ok(endpoint_text.includes(`whsec_…${secret.slice(-4)}`), 'and the hint of its secret');

  // A sandbox purchase makes one transaction.completed; the receiver answers 500 to all 6 attempts.
  // The reseller leaves the dashboard alone meanwhile: the session expires.
  stop_keeping_alive();
  const bought = await server.api('POST', '/v1/services/airtime', { key: reseller.key, body: { network: 'mtn', phone: '08011111111', amount: 200, pin: reseller.pin } });
  t.equal(bought.status, 201, `the sandbox purchase is delivered: ${bought.text}`);
  await receiver.wait_for(6, 45_000);
  t.ok(receiver.received.every((r) => r.service_signature_ok && r.json?.event === 'transaction.completed'), 'every attempt is a signed transaction.completed');
  let dead_id = 0;
  for (const deadline = Date.now() + 15_000; Date.now() < deadline && dead_id === 0; await new Promise((r) => setTimeout(r, 200))) {
    const dead = await server.admin('GET', '/admin/webhooks/dead');
    dead_id = dead.body?.data?.deliveries?.find((d: { endpoint_id: number }) => d.endpoint_id === endpoint_id)?.id ?? 0;
  }
  t.ok(dead_id > 0, 'after 5 failed retries the delivery is dead');

  // The session has expired meanwhile: the app sends the reseller to sign in, then back here.
  receiver.otherwise = 200;
  await page.goto('/dashboard/webhooks?env=test');
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  t.ok(new URL(page.url()).pathname.endsWith('/sign-in'), 'an expired session leads to the sign-in page');
  await page.getByLabel('Email').fill(reseller.email);
  await page.getByLabel('Password').fill(reseller.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
  stop_keeping_alive = keep_session_alive(context, server);
  t.teardown(() => stop_keeping_alive());
  t.equal(new URL(page.url()).search, '?env=test', 'after signing in the reseller is back on the test webhooks page');
  await settled(page);

  const dead_section = page.getByTestId('dead-deliveries');
  const dead_row = dead_section.locator(`tr[data-delivery-id="${dead_id}"]`);
  await dead_row.waitFor();
  t.ok((await dead_row.locator('td[data-label="Event"]').textContent())?.includes('transaction.completed'), 'the dead delivery names its event');
  t.equal(await dead_row.getByTestId('attempt-count').textContent(), '6', 'and counts its 6 attempts');
  await dead_row.locator('summary').click();
  const codes = await dead_row.getByTestId('attempt-list').locator('li .badge').allTextContents();
  t.same(codes, ['500', '500', '500', '500', '500', '500'], 'every attempt shows the status code the receiver answered');
  await screenshot(t, page, 'webhooks-dead-delivery');

  const [replayed] = await Promise.all([api_response(page, 'POST', `/webhooks/${endpoint_id}/deliveries/${dead_id}/replay`), dead_row.getByRole('button', { name: 'Replay' }).click()]);
  t.equal(replayed.status(), 202, 'the server accepted the replay');
  await dead_section.getByText('Replay scheduled.').waitFor();
  await receiver.wait_for(7, 15_000);
  const last = receiver.received[6];
  t.equal(last.answered, 200, 'the replayed delivery reaches the mended receiver');
  t.ok(last.service_signature_ok && last.standard_signature_ok, 'the replay is signed like the original');
  t.equal(last.json?.id, receiver.received[0].json?.id, 'the replay carries the same event id');
  await dead_section.getByText('No dead deliveries.').waitFor();

  // The endpoint's page: 6 attempts answered 500 in series 1, then 200 in series 2.
  await page.getByTestId('endpoints-table').getByRole('link', { name: 'Deliveries' }).click();
  await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
  const card = page.locator(`article[data-delivery-id="${dead_id}"]`);
  await page.locator(`article[data-delivery-id="${dead_id}"][data-status="delivered"]`).waitFor();
  const attempts = card.getByTestId('attempts-table').locator('tbody tr');
  t.equal(await attempts.count(), 7, 'the endpoint page lists all 7 attempts');
  const cells = async (row: number) => (await attempts.nth(row).locator('td').allTextContents()).slice(0, 4);
  const first_attempt = await cells(0);
  const replay_attempt = await cells(6);
  t.same([first_attempt[0], first_attempt[1], first_attempt[3]], ['1', '1', '500'], 'the first attempt: series 1, number 1, answered 500');
  t.same([replay_attempt[0], replay_attempt[3]], ['2', '200'], 'the replay: series 2, answered 200');
  t.ok(await shows(card.getByText('delivered', { exact: true })), 'the delivery now shows as delivered');
  await screenshot(t, page, 'webhook-deliveries');
  await page.goto('/dashboard/webhooks?env=test');

  // Deleting the endpoint asks first.
  await settled(page);
  await page.getByTestId('endpoints-table').getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete endpoint' }).click();
  await page.getByText(`Endpoint ${receiver.url} deleted.`).waitFor();
  const listed = await server.api('GET', '/v1/webhooks', { key: reseller.key });
  t.same(listed.body?.data?.webhooks, [], 'the endpoint is gone from the API too');

  t.same(problems, [], 'no script errors in the page');
  t.same(csp_violations, [], 'no Content-Security-Policy violations');
});
