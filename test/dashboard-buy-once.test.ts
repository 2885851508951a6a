// The dashboard never buys twice by accident (docs/api.md "Buying, finding and exporting in the
// dashboard"; the new user of 2026-11-27, item 9: a failed purchase left the PIN filled and Pay armed,
// and one more click bought again). In headless Chromium against a real server: a wrong PIN, then the
// right one under the same idempotency key (it runs: docs/decisions.md "Idempotency"), to the sandbox's
// failing number; after the failure the PIN field is empty, Pay is disabled, the failed order's
// reference and refund show, and two more clicks on Pay (and Enter in the PIN field) buy nothing.
// "Buy again" is a new intent: a new key, and only then a second order.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { api_response, launch_browser, open_page, settled, sign_in } from './helpers/browser.js';
import { all_orders } from './helpers/purchases.js';
import { service_type_names } from '../src/engine/order-record.js';

t.test('after a failed purchase the Pay step is disarmed: two more clicks on Pay place no second order', async (t) => {
  const server = await start_server(t);
  const account = await server.create_account({ kyc_level: 2 });
  const key = await server.create_key(account.id, { rate_limit_per_minute: 1_000_000 });
  await server.credit(account.id, 'test', 10_000);
  const balance = async () => (await server.api('GET', '/v1/wallet', { key: key.api_key })).body?.data?.balance as number;
  const browser = await launch_browser(t);
  const { page, problems } = await open_page(browser, server);
  const purchases: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/dashboard/api/services/airtime')) purchases.push(request.headers()['x-idempotency-key'] ?? '');
  });
  const answers: string[] = [];
  page.on('response', (response) => {
    if (response.request().method() === 'POST' && response.url().includes('/dashboard/api/services/airtime')) {
      void response.text().then((text) => answers.push(`${response.status()} ${response.headers()['idempotent-replayed'] ?? ''} ${text.slice(0, 90)}`), () => undefined);
    }
  });

  await sign_in(page, account.email, account.password);
  await page.waitForURL(/env=test/);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Buy' }).click();
  await page.getByRole('heading', { name: 'What are you buying?' }).waitFor();
  await settled(page);
  await page.getByLabel('Network').selectOption('glo');
  await page.getByLabel('Phone number').fill('08022222222');
  await page.getByLabel('Amount (₦)').fill('200');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Confirm the purchase' }).waitFor();
  const pin_field = page.getByLabel('Transaction PIN');
  const pay = page.getByRole('button', { name: 'Pay ₦200.00' });
  t.ok(await pay.isDisabled(), 'Pay is disabled before a PIN is typed');

  // A wrong PIN: refused, the field cleared, Pay disarmed until a PIN is typed again.
  await pin_field.fill(account.pin === '11111' ? '22222' : '11111');
  await Promise.all([api_response(page, 'POST', '/services/airtime'), pay.click()]);
  await page.locator('[role="alert"][data-error-code="pin.incorrect"]').waitFor();
  t.equal(await pin_field.inputValue(), '', 'after the wrong PIN the PIN field is cleared');
  t.ok(await pay.isDisabled(), 'and Pay is disabled until a PIN is typed');

  // The right PIN under the same key: it runs (a PIN refusal is not remembered) and the order fails.
  await pin_field.fill(account.pin);
  t.ok(await pay.isEnabled(), 'typing the PIN arms Pay again');
  const [failed_response] = await Promise.all([api_response(page, 'POST', '/services/airtime'), pay.click()]);
  t.equal(failed_response.status(), 422, 'the sandbox failing number fails');
  t.equal(await failed_response.headerValue('idempotent-replayed'), null, 'the purchase ran: not a replay of the wrong PIN');
  t.equal(purchases.length, 2, 'two purchase requests so far');
  t.equal(purchases[1], purchases[0], 'the right PIN was sent under the same idempotency key as the wrong one');
  await page.locator('[role="alert"][data-error-code="transaction.failed"]').waitFor();
  // Read without waiting long, so that a page without it still goes on to the clicks below.
  const shown_reference = (await page.getByTestId('failed-reference').textContent({ timeout: 3_000 }).catch(() => null)) ?? '';
  const orders = await all_orders(server, key.api_key);
  t.equal(orders.length, 1, 'one order was placed');
  t.equal(shown_reference, orders[0]?.reference, `the failed order's reference is shown (${shown_reference})`);
  t.equal(await page.getByTestId('failed-refund').textContent({ timeout: 3_000 }).catch(() => null), '₦200.00', 'with its refund');
  t.equal(await pin_field.inputValue(), '', 'after the failure the PIN field is cleared');
  t.ok(await pay.isDisabled(), 'and Pay is disabled');

  // Two more clicks on Pay, and Enter in the PIN field: nothing is sent, nothing is bought.
  for (let click = 1; click <= 2; click++) {
    await pay.click({ force: true, timeout: 2_000 }).catch(() => undefined);
    await page.waitForTimeout(300);
  }
  await pin_field.press('Enter', { timeout: 2_000 }).catch(() => undefined);
  await page.waitForTimeout(300);
  await page.waitForTimeout(1_000);
  t.equal(purchases.length, 2, `the clicks after the failure sent no purchase (${purchases.length - 2} sent: ${answers.slice(2).join(' | ')})`);
  const after_clicks = await all_orders(server, key.api_key);
  t.equal(after_clicks.length, 1, `exactly one order (${after_clicks.map((o: any) => o.status).join(', ')})`);
  t.equal(await balance(), 10_000, 'and the wallet holds what it held (the failure was refunded)');

  // "Buy again" is a new intent: a new key, the PIN typed again, a second order on purpose.
  await page.getByRole('button', { name: 'Buy again' }).click();
  t.ok(await pay.isDisabled(), 'after Buy again, Pay waits for the PIN');
  await pin_field.fill(account.pin);
  await Promise.all([api_response(page, 'POST', '/services/airtime'), pay.click()]);
  await page.locator('[role="alert"][data-error-code="transaction.failed"]').waitFor();
  t.equal(purchases.length, 3, 'Buy again sent one purchase');
  t.not(purchases[2], purchases[0], 'under a new idempotency key');
  t.equal((await all_orders(server, key.api_key)).length, 2, 'and placed the second order');

  // The Orders filter offers every family the API sells, education, internet and Showmax included.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Orders' }).click();
  await page.getByTestId('orders-table').waitFor();
  const service_choices = await page.locator('select[name="service"] option').evaluateAll((nodes) => nodes.map((n) => (n as any).value as string));
  t.same(service_choices, ['', ...service_type_names], 'the service filter lists every family, in the one list\'s order');
  await page.locator('select[name="service"]').selectOption('education');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL(/service=education/);
  await page.getByText('No orders match these filters.').waitFor();
  t.same(problems, [], 'no script errors in the page');
});
