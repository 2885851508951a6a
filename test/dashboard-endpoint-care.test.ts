// Dashboard, the rest of the desk (docs/api.md "Testing, rolling and retrying", "Rolling a secret",
// "Buying, finding and exporting in the dashboard"): in headless Chromium against a real server and a
// real HTTPS receiver, a reseller sends a test event to an endpoint, edits its events, rolls its
// secret (the new one shown once, both signatures sent meanwhile) and retries a failing delivery now;
// reads how to fund the live wallet; filters the wallet history by type and dates. Every change is
// refused without the CSRF token; every page has names for its controls, no script errors, and
// nothing wider than a phone.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { WebhookReceiver, verify_service_signature, webhook_env } from './helpers/webhook-receiver.js';
import { api_response, launch_browser, open_page, page_fetch, phone, screenshot, settled, shows, sign_in, unnamed_controls, wait_for_count, within_screen } from './helpers/browser.js';

const all_kinds = ['transaction.completed', 'transaction.failed', 'transaction.processing', 'wallet.credited', 'wallet.debited', 'wallet.reversed'];

/** The Africa/Lagos calendar date (UTC+1 all year) of an instant, YYYY-MM-DD. */
function lagos_date(ms: number): string {
  return new Date(ms + 3_600_000).toISOString().slice(0, 10);
}

t.test('a reseller tests an endpoint, edits its events, rolls its secret and retries a failing delivery from the dashboard', async (t) => {
  const receiver = new WebhookReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  const server = await start_server(t, { env: webhook_env({ LOG_LEVEL: 'warn' }) });
  const reseller = await server.reseller(20_000, {}, { rate_limit_per_minute: 1_000_000 });
  const registered = await server.api('POST', '/v1/webhooks', { key: reseller.key, body: { url: receiver.url, events: ['transaction.completed'], description: 'Shop back office' } });
  t.equal(registered.status, 201, 'an endpoint is registered through the API');
  const endpoint_id = registered.body.data.id as number;
  const old_secret = registered.body.data.secret as string;
  receiver.secret = old_secret;

  const browser = await launch_browser(t);
  const { page, problems, csp_violations } = await open_page(browser, server);
  await sign_in(page, reseller.email, reseller.password, '/dashboard/webhooks?env=test');
  await settled(page);
  const row = page.getByTestId('endpoints-table').locator(`tr[data-endpoint-id="${endpoint_id}"]`);
  await row.waitFor();

  // Send a test event.
  const [tested] = await Promise.all([api_response(page, 'POST', `/webhooks/${endpoint_id}/test`), row.getByRole('button', { name: 'Send test event' }).click()]);
  t.equal(tested.status(), 202, 'the server accepted the test event');
  t.ok(await shows(page.getByText('Test event (webhook.test) sent to')), 'the page says the test event was sent');
  const [first] = await receiver.wait_for(1);
  t.equal(first.json?.event, 'webhook.test', 'the receiver gets webhook.test although the endpoint subscribes to transaction.completed only');
  t.ok(first.service_signature_ok && first.standard_signature_ok, 'signed with the endpoint\'s secret');
  await screenshot(t, page, 'webhooks-test-event');

  // Edit the events.
  await row.getByRole('button', { name: 'Edit events' }).click();
  const dialog = page.getByRole('dialog', { name: 'Events for this endpoint' });
  await dialog.waitFor();
  t.ok(await dialog.getByLabel('transaction.completed').isChecked(), 'the dialog starts from the endpoint\'s events');
  await dialog.getByLabel('wallet.credited').check();
  await dialog.getByLabel('transaction.completed').uncheck();
  t.same(await unnamed_controls(page), [], 'every control of the edit dialog has a name');
  await screenshot(t, page, 'webhooks-edit-events');
  const [edited] = await Promise.all([api_response(page, 'PATCH', `/webhooks/${endpoint_id}`), dialog.getByRole('button', { name: 'Save events' }).click()]);
  t.equal(edited.status(), 200, 'the server saved the events');
  t.ok(await shows(page.getByText('now receives wallet.credited')), 'the page says what the endpoint now receives');
  t.ok(await shows(row.locator('td[data-label="Events"]', { hasText: 'wallet.credited' })), 'the row shows the new events');
  const listed = await server.api('GET', '/v1/webhooks', { key: reseller.key });
  t.same(listed.body.data.webhooks[0].events, ['wallet.credited'], 'the API sees the edit');

  // Roll the secret: confirm, see the new secret once.
  await row.getByRole('button', { name: 'Roll secret' }).click();
  const confirm = page.getByRole('dialog', { name: 'Roll this endpoint\'s secret?' });
  await confirm.waitFor();
  t.ok(((await confirm.textContent()) ?? '').includes('For 24 hours every delivery is signed with the old secret as well'), 'the confirmation explains the grace period');
  const [rolled] = await Promise.all([api_response(page, 'POST', `/webhooks/${endpoint_id}/roll-secret`), confirm.getByRole('button', { name: 'Roll secret' }).click()]);
  t.equal(rolled.status(), 200, 'the server rolled the secret');
  const new_secret = (await page.getByTestId('secret-value').textContent()) ?? '';
  t.match(new_secret, /^whsec_[0-9A-Za-z]{32}$/, 'the new secret is shown');
  t.not(new_secret, old_secret, 'and it is not the old one');
  t.ok(await shows(page.getByText(/old secret as well until/)), 'the page says until when the old secret still signs');
  await screenshot(t, page, 'webhooks-roll-secret');
  await page.getByRole('button', { name: 'I have saved it' }).click();
  t.notOk((await page.content()).includes(new_secret), 'the new secret is gone once the panel is closed');
  t.ok(await shows(row.getByText(`whsec_…${new_secret.slice(-4)}`)), 'the row shows the new secret\'s hint');
  t.ok(await shows(row.getByText(/old secret also signs until/)), 'and that the old one still signs');

  // The receiver still holds the old secret: the next delivery verifies with it, and with the new one.
  await row.getByRole('button', { name: 'Send test event' }).click();
  const [, second] = await receiver.wait_for(2);
  t.ok(verify_service_signature(old_secret, second.body, second.headers['x-service-signature-previous'] as string), 'X-Service-Signature-Previous verifies with the old secret');
  t.ok(verify_service_signature(new_secret, second.body, second.headers['x-service-signature'] as string), 'X-Service-Signature verifies with the new secret');
  t.ok(second.standard_signature_ok, 'webhook-signature verifies with the old secret, one of its two values');
  receiver.secret = new_secret;

  // Retry a failing delivery now: the receiver fails the next attempt; its retry is 30 s away.
  receiver.script = [500];
  await page.goto(`/dashboard/webhooks/${endpoint_id}?env=test`);
  await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
  await settled(page);
  const [sent] = await Promise.all([api_response(page, 'POST', `/webhooks/${endpoint_id}/test`), page.getByRole('button', { name: 'Send test event' }).click()]);
  const failing_id = (await sent.json()).data.id as number;
  await receiver.wait_for(3);
  const card = page.locator(`article[data-delivery-id="${failing_id}"]`);
  await card.getByRole('button', { name: 'Retry now' }).waitFor();
  t.ok(await shows(card.getByText(/next attempt/)), 'the failing delivery shows when its next attempt is due');
  await screenshot(t, page, 'webhooks-retry-now');
  const [retried] = await Promise.all([api_response(page, 'POST', `/webhooks/${endpoint_id}/deliveries/${failing_id}/retry`), card.getByRole('button', { name: 'Retry now' }).click()]);
  t.equal(retried.status(), 202, 'the server accepted the retry');
  await receiver.wait_for(4, 10_000);
  t.equal(receiver.received[3].json?.id, receiver.received[2].json?.id, 'the same event is attempted again at once');
  await page.locator(`article[data-delivery-id="${failing_id}"][data-status="delivered"]`).waitFor();
  t.equal(await card.getByTestId('attempts-table').locator('tbody tr').count(), 2, 'both attempts are listed');
  t.same(await unnamed_controls(page), [], 'every control on the deliveries page has a name');

  // Without the CSRF token, every one of these changes is refused and changes nothing.
  const before = (await server.api('GET', '/v1/webhooks', { key: reseller.key })).body.data.webhooks[0];
  const received_before = receiver.received.length;
  const changes: [string, string, unknown][] = [
    ['PATCH', `/dashboard/api/webhooks/${endpoint_id}?environment=test`, { events: all_kinds }],
    ['POST', `/dashboard/api/webhooks/${endpoint_id}/test?environment=test`, undefined],
    ['POST', `/dashboard/api/webhooks/${endpoint_id}/roll-secret?environment=test`, undefined],
    ['POST', `/dashboard/api/webhooks/${endpoint_id}/deliveries/${failing_id}/retry?environment=test`, undefined],
  ];
  for (const [method, path, body] of changes) {
    const refused = await page_fetch(page, method, path, { body });
    t.equal(refused.status, 403, `${method} ${path.split('?')[0]} without the CSRF token is refused`);
    t.equal(refused.body?.error?.code, 'session.csrf_failed', `with session.csrf_failed (${method} ${path.split('?')[0]})`);
  }
  const after = (await server.api('GET', '/v1/webhooks', { key: reseller.key })).body.data.webhooks[0];
  t.same(after, before, 'the endpoint is unchanged: same events, same secret');
  // A barrier instead of a wait: a test event sent through the API after the refused changes, so that
  // anything they had sent would have been started first.
  const barrier = await server.api('POST', `/v1/webhooks/${endpoint_id}/test`, { key: reseller.key });
  t.equal(barrier.status, 202, 'a test event is sent through the API after the refused changes');
  await receiver.wait_for(received_before + 1);
  t.equal(receiver.received[received_before].json?.id, barrier.body.data.event_id, 'and nothing was sent: the next request is that test event');

  // Phone: the endpoint's actions are all on screen.
  await page.goto('/dashboard/webhooks?env=test');
  await settled(page);
  await page.setViewportSize(phone);
  for (const name of ['Deliveries', 'Send test event', 'Edit events', 'Roll secret', 'Delete']) {
    const control = row.getByRole(name === 'Deliveries' ? 'link' : 'button', { name });
    await control.scrollIntoViewIfNeeded();
    t.ok(await within_screen(control), `on a phone, "${name}" is on screen`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  t.same(await unnamed_controls(page), [], 'every control on the webhooks page has a name');
  await screenshot(t, page, 'webhooks-endpoint-actions');
  t.same(problems, [], 'no script errors in the page');
  t.same(csp_violations, [], 'no Content-Security-Policy violations');
});

t.test('the Funding page shows the operator\'s bank account and the reference to quote; the wallet history filters by type and dates', async (t) => {
  const server = await start_server(t, {
    env: { LOG_LEVEL: 'warn', FUNDING_BANK_NAME: 'Providus Bank', FUNDING_ACCOUNT_NUMBER: '9912345678', FUNDING_ACCOUNT_NAME: 'Billvend Collections Ltd' },
  });
  const reseller = await server.reseller(5_000, {}, { rate_limit_per_minute: 1_000_000 });
  await server.credit(reseller.id, 'live', 2_500);
  // The sandbox delivers to 08011111111 and fails at once for 08022222222 (refunded: a reversal).
  for (const [phone_number, status] of [['08011111111', 201], ['08022222222', 422]] as const) {
    const bought = await server.api('POST', '/v1/services/airtime', { key: reseller.key, body: { network: 'mtn', phone: phone_number, amount: 100, pin: reseller.pin } });
    t.equal(bought.status, status, `the sandbox purchase for ${phone_number} answers ${status}`);
  }
  const browser = await launch_browser(t);
  const { page, problems, csp_violations } = await open_page(browser, server);
  await sign_in(page, reseller.email, reseller.password, '/dashboard/funding');
  await page.getByRole('heading', { name: 'Fund your live wallet' }).waitFor();
  await settled(page);
  t.equal(await page.getByTestId('funding-bank-name').textContent(), 'Providus Bank', 'the bank the operator configured');
  t.equal(await page.getByTestId('funding-account-number').textContent(), '9912345678', 'its account number');
  t.equal(await page.getByTestId('funding-account-name').textContent(), 'Billvend Collections Ltd', 'its account name');
  t.equal(await page.getByTestId('funding-reference').textContent(), String(reseller.id), 'the funding reference is the account id the bank notification names');
  t.match(await page.getByTestId('live-balance').textContent(), /2,500\.00/, 'the live balance');
  t.ok(await page.getByRole('button', { name: 'Copy account number' }).isVisible(), 'the account number has a copy button');
  t.same(await unnamed_controls(page), [], 'every control on the Funding page has a name');
  await screenshot(t, page, 'funding');
  await page.setViewportSize(phone);
  const funding_link = page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Funding' });
  t.ok((await funding_link.isVisible()) && (await within_screen(funding_link)), 'on a phone, "Funding" is on screen in the sections');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Wallet history of the test side: one credit, two debits, one reversal.
  await page.goto('/dashboard/wallet?env=test');
  await settled(page);
  const rows = page.getByTestId('wallet-table').locator('tbody tr');
  t.equal(await wait_for_count(rows, 4), 4, 'unfiltered: the credit, both debits and the reversal');
  await page.getByLabel('Entry type').selectOption('debit');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  t.equal(await wait_for_count(rows, 2), 2, 'debits only: two rows');
  t.ok(new URL(page.url()).search.includes('type=debit'), 'the filter is in the address');
  t.match(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href') ?? '', /type=debit/, 'the CSV export follows the filter');
  const today = lagos_date(Date.now());
  await page.getByLabel('From', { exact: true }).fill(today);
  await page.getByLabel('To', { exact: true }).fill(today);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  t.equal(await wait_for_count(rows, 2), 2, 'today\'s debits: still two rows');
  t.same(await unnamed_controls(page), [], 'every control on the wallet page has a name');
  await screenshot(t, page, 'wallet-filtered');
  const yesterday = lagos_date(Date.now() - 86_400_000);
  await page.goto(`/dashboard/wallet?env=test&type=credit&from=${yesterday}&to=${yesterday}`);
  t.ok(await shows(page.getByText('No wallet entries match these filters.')), 'yesterday had no entries');
  await page.goto('/dashboard/wallet?env=test&type=credit');
  t.equal(await wait_for_count(rows, 1), 1, 'a link with type=credit shows the credit only');
  await page.goto('/dashboard/wallet?env=test&type=reversal');
  t.equal(await wait_for_count(rows, 1), 1, 'type=reversal shows the failed purchase\'s refund only');
  t.ok(await shows(rows.first().getByText('reversal')), 'marked as a reversal');
  const bad = await page_fetch(page, 'GET', '/dashboard/api/wallet/transactions?environment=test&type=bonus');
  t.equal(bad.status, 400, 'an unknown entry type is refused');
  t.equal(bad.body?.error?.code, 'validation.failed', 'as validation.failed');
  t.same(problems, [], 'no script errors in the page');
  t.same(csp_violations, [], 'no Content-Security-Policy violations');
});

t.test('without the funding settings the Funding page says the bank details are not set up', async (t) => {
  const server = await start_server(t, { env: { LOG_LEVEL: 'warn' } });
  const reseller = await server.reseller(0);
  const browser = await launch_browser(t);
  const { page, problems } = await open_page(browser, server);
  await sign_in(page, reseller.email, reseller.password, '/dashboard/funding');
  t.ok(await shows(page.getByText('Bank details are not set up yet.')), 'the page says so');
  const answer = await page_fetch(page, 'GET', '/dashboard/api/funding?environment=live');
  t.equal(answer.body?.data?.bank, null, 'and the API answers bank: null');
  t.same(problems, [], 'no script errors in the page');
});
