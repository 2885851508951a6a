// Dashboard, PIN and orders (docs/api.md "Dashboard and documentation", point 2): in headless Chromium against a real server,
// a reseller without a PIN sets one with the password, changes it with the current PIN, buys in the
// sandbox through the API with it, and finds the orders on the dashboard: filtered by service, status
// and date, with the status history, the electricity token and units, the wallet history, both
// balances and today's spend. Money shows as naira with thousands separators and times in
// Africa/Lagos although the browser runs in New York.
//
// TIME_SCALE=0.001: the sandbox's "processing, then delivered after 30 s" number settles in 30 ms.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { api_response, browser_time_zone, launch_browser, open_page, screenshot, settled, shows, sign_in, wait_for_count } from './helpers/browser.js';

/** HH:MM of an instant in a time zone, as the checks below expect it inside a formatted date. */
function clock_time(iso: string, time_zone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: time_zone, hour: '2-digit', minute: '2-digit', hour12: false }).format(Date.parse(iso));
}

/** YYYY-MM-DD of an instant in Lagos (the orders filter takes Lagos calendar dates). */
function lagos_date(ms: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos', year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
}

t.test('a reseller sets the PIN, buys in the sandbox with it through the API and follows the orders on the dashboard', async (t) => {
  const server = await start_server(t, { env: { TIME_SCALE: '0.001' } });
  const account = await server.create_account({ pin: undefined, kyc_level: 2 });
  const key = await server.create_key(account.id, { rate_limit_per_minute: 1_000_000 });
  await server.credit(account.id, 'test', 100_000);
  const browser = await launch_browser(t);
  const { page, problems, csp_violations } = await open_page(browser, server);
  const buy = (path: string, body: Record<string, unknown>) => server.api('POST', path, { key: key.api_key, body });

  await sign_in(page, account.email, account.password);
  await settled(page);
  t.ok(await shows(page.getByText('You have no transaction PIN yet')), 'the overview warns that no PIN is set');
  const refused = await buy('/v1/services/airtime', { network: 'mtn', phone: '08011111111', amount: 500, pin: '12345' });
  t.equal(refused.body?.error?.code, 'pin.not_set', 'without a PIN the API refuses purchases with pin.not_set');

  // Set the PIN with the password (a wrong password first: the server's message shows).
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Transaction PIN' }).click();
  await page.getByRole('heading', { name: 'Set your PIN' }).waitFor();
  await page.getByLabel('New PIN (5 digits)').fill('24680');
  await page.getByLabel('New PIN again').fill('24680');
  await page.getByLabel('Dashboard password').fill('not the password');
  await page.getByRole('button', { name: 'Set PIN' }).click();
  t.equal(await page.getByRole('alert').textContent(), 'Email or password is wrong.', 'a wrong password is refused with the server message');
  await page.getByLabel('Dashboard password').fill(account.password);
  const [set_response] = await Promise.all([api_response(page, 'POST', '/pin'), page.getByRole('button', { name: 'Set PIN' }).click()]);
  t.equal(set_response.status(), 200, 'the server saved the PIN');
  await page.getByText('Transaction PIN saved.').waitFor();
  await page.getByRole('heading', { name: 'Change your PIN' }).waitFor();

  // Change it with the current PIN (a wrong one first).
  await page.getByLabel('New PIN (5 digits)').fill('13579');
  await page.getByLabel('New PIN again').fill('13579');
  await page.getByRole('textbox', { name: 'Current PIN' }).fill('11111');
  await page.getByRole('button', { name: 'Change PIN' }).click();
  t.match(await page.getByRole('alert').textContent(), /^Wrong transaction PIN/, 'a wrong current PIN is refused with the server message');
  await page.getByRole('textbox', { name: 'Current PIN' }).fill('24680');
  await page.getByRole('button', { name: 'Change PIN' }).click();
  await page.getByText('Transaction PIN saved.').waitFor();
  await screenshot(t, page, 'pin');

  // Sandbox purchases through the API with the new PIN.
  const old_pin = await buy('/v1/services/airtime', { network: 'mtn', phone: '08011111111', amount: 500, pin: '24680' });
  t.equal(old_pin.body?.error?.code, 'pin.incorrect', 'the old PIN no longer buys');
  const airtime = await buy('/v1/services/airtime', { network: 'mtn', phone: '08011111111', amount: 500, pin: '13579' });
  t.equal(airtime.status, 201, `airtime is delivered with the new PIN: ${airtime.text}`);
  const power = await buy('/v1/services/electricity', { disco: 'ikeja-electric', meter_number: '1111111111111', meter_type: 'prepaid', amount: 5000, pin: '13579' });
  t.equal(power.status, 201, `electricity is delivered: ${power.text}`);
  const failed = await buy('/v1/services/airtime', { network: 'glo', phone: '08022222222', amount: 100, pin: '13579' });
  t.equal(failed.body?.error?.code, 'transaction.failed', 'the sandbox failure number fails and refunds');
  const delayed = await buy('/v1/services/airtime', { network: 'airtel', phone: '08033333333', amount: 250, pin: '13579' });
  t.equal(delayed.body?.data?.status, 'processing', 'the sandbox delay number answers processing');
  const references = { airtime: airtime.body.data.reference, power: power.body.data.reference, failed: failed.body.error.reference, delayed: delayed.body.data.reference };
  for (let tries = 0; tries < 50; tries++) {
    const order = await server.api('GET', `/v1/transactions/${references.delayed}`, { key: key.api_key });
    if (order.body?.data?.status === 'delivered') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  // The orders, on the test side.
  // The account's activity is all in Test, so the dashboard opened there: the live side is a click away.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Orders' }).click();
  await page.getByRole('group', { name: 'Environment' }).getByRole('button', { name: 'Live' }).click();
  await settled(page);
  t.ok(await shows(page.getByText('No live orders yet.')), 'the live side has no orders');
  await page.getByRole('group', { name: 'Environment' }).getByRole('button', { name: 'Test' }).click();
  const table = page.getByTestId('orders-table');
  await table.waitFor();
  const rows = table.locator('tbody tr');
  t.equal(await rows.count(), 4, 'the test side lists the 4 orders');
  const status_of = (reference: string) => table.locator(`tr[data-reference="${reference}"] [data-status]`).getAttribute('data-status');
  t.equal(await status_of(references.airtime), 'delivered', 'the airtime order shows delivered');
  t.equal(await status_of(references.failed), 'failed', 'the failed order shows failed');
  t.equal(await status_of(references.delayed), 'delivered', 'the delayed order shows delivered once settled');
  const power_row = table.locator(`tr[data-reference="${references.power}"]`);
  t.equal(await power_row.locator('td[data-label="Amount"]').textContent(), '₦5,000.00', 'amounts are naira with a thousands separator and kobo');
  const created_cell = (await power_row.locator('td[data-label="Created"]').textContent()) ?? '';
  const created_at = (await server.api('GET', `/v1/transactions/${references.power}`, { key: key.api_key })).body.data.created_at as string;
  t.ok(created_cell.includes(clock_time(created_at, 'Africa/Lagos')), `times are shown in Lagos time (${created_cell})`);
  t.notOk(created_cell.includes(clock_time(created_at, browser_time_zone)), 'not in the browser\'s own zone');
  await screenshot(t, page, 'orders');

  // Filters: service, status, dates (Lagos calendar days).
  await page.locator('select[name="service"]').selectOption('electricity');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL(/service=electricity/);
  t.equal(await wait_for_count(rows, 1), 1, 'filtering by electricity leaves one order');
  t.equal(await rows.first().getAttribute('data-reference'), references.power, 'the electricity order');
  await page.getByRole('button', { name: 'Clear' }).click();
  t.equal(await wait_for_count(rows, 4), 4, 'clearing the filters shows every order again');
  await page.locator('select[name="status"]').selectOption('failed');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL(/status=failed/);
  t.equal(await wait_for_count(rows, 1), 1, 'filtering by failed leaves one order');
  t.equal(await rows.first().getAttribute('data-reference'), references.failed, 'the failed order');
  await page.getByRole('button', { name: 'Clear' }).click();
  await wait_for_count(rows, 4);
  await page.locator('input[name="from"]').fill(lagos_date(Date.now()));
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL(/from=/);
  await settled(page);
  t.equal(await wait_for_count(rows, 4), 4, 'from today (Lagos) keeps all 4 orders');
  await page.locator('input[name="from"]').fill('');
  await page.locator('input[name="to"]').fill(lagos_date(Date.now() - 86_400_000));
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL(/to=/);
  t.ok(await shows(page.getByText('No orders match these filters.')), 'up to yesterday (Lagos) finds nothing, and says so');
  await screenshot(t, page, 'orders-filtered-empty');
  await page.getByRole('button', { name: 'Clear' }).click();
  await wait_for_count(rows, 4);

  // The electricity order: token, units, status history.
  await table.getByRole('link', { name: references.power }).click();
  await page.getByTestId('order-token').waitFor();
  t.equal(await page.getByTestId('order-token').textContent(), power.body.data.token, 'the detail shows the prepaid token');
  t.equal(await page.getByTestId('order-units').textContent(), power.body.data.units, 'and the units bought');
  t.ok((await page.getByTestId('order-facts').textContent())?.includes('Test Customer'), 'and the customer name');
  const history = await page.getByTestId('status-history').locator('[data-status]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-status')));
  t.equal(history[history.length - 1], 'delivered', `the status history ends delivered (${history.join(' → ')})`);
  t.ok(history.length >= 2, 'the status history has every step');
  await screenshot(t, page, 'order-detail-electricity');
  // The Receipt link opens the customer's copy (GET /dashboard/api/orders/{reference}/receipt) with the session.
  const receipt_href = await page.getByTestId('order-receipt').getAttribute('href');
  t.match(receipt_href, new RegExp(`/dashboard/api/orders/${references.power}/receipt\\?environment=test$`), 'the order page links to its receipt');
  const receipt = await page.evaluate(async (href) => {
    const response = await fetch(href!);
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
  }, receipt_href);
  t.equal(receipt.status, 200, 'the receipt answers the session');
  t.match(receipt.type, /^text\/html/, 'as HTML');
  t.ok(receipt.text.includes(power.body.data.token), 'with the token');

  // The delayed order went through processing before it was delivered.
  await page.goto(`/dashboard/orders/${references.delayed}?env=test`);
  await page.getByTestId('status-history').waitFor();
  const delayed_history = await page.getByTestId('status-history').locator('[data-status]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-status')));
  t.ok(delayed_history.includes('processing') && delayed_history[delayed_history.length - 1] === 'delivered', `processing, then delivered (${delayed_history.join(' → ')})`);
  await page.goto(`/dashboard/orders/${references.delayed}`);
  t.ok(await shows(page.getByText('No such order on this side.')), 'a test order is not found on the live side, and the page says why');

  // Wallet history: the credit, 4 debits and the reversal of the failed order.
  await page.goto('/dashboard/wallet?env=test');
  await page.getByTestId('wallet-table').waitFor();
  await page.locator('[data-testid="wallet-balance"]:has-text("₦")').waitFor();
  const balance = 100_000 - 500 - 5000 - 250;
  t.equal(await page.getByTestId('wallet-balance').textContent(), '₦94,250.00', `the test balance is ${balance} naira, formatted`);
  const types = await page.getByTestId('wallet-table').locator('[data-status]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-status')));
  t.same([...types].sort(), ['credit', 'debit', 'debit', 'debit', 'debit', 'reversal'], 'a credit, four debits and a reversal');
  await screenshot(t, page, 'wallet');

  // Overview: both balances side by side, today's spend against the KYC level 2 limit.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Overview' }).click();
  await page.getByTestId('spent-today').waitFor();
  t.equal(await page.getByTestId('balance-live').textContent(), '₦0.00', 'the live balance');
  t.equal(await page.getByTestId('balance-test').textContent(), '₦94,250.00', 'the test balance beside it');
  t.equal(await page.getByTestId('spent-today').textContent(), '₦5,750.00', 'today\'s spend leaves out the refunded order');
  t.ok(await shows(page.getByText('of ₦200,000.00')), 'against the KYC level 2 daily limit');
  t.equal(await page.getByTestId('orders-table').locator('tbody tr').count(), 4, 'recent orders are listed');
  t.equal(await page.getByText('You have no transaction PIN yet').count(), 0, 'the PIN warning is gone');
  await screenshot(t, page, 'overview');

  t.same(problems, [], 'no script errors in the page');
  t.same(csp_violations, [], 'no Content-Security-Policy violations');
});
