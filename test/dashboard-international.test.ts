// The dashboard's Buy page sells international airtime (docs/api.md "International airtime and data"): in headless
// Chromium against a real server, Ghana, its operator and a flexible top-up are chosen, "Get the price" asks the
// dashboard's twin of POST /v1/services/international/quote, the confirmation shows the quoted NGN charge before
// the PIN, and the purchase names the quote: the wallet pays exactly that.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { api_response, launch_browser, open_page, settled, sign_in } from './helpers/browser.js';

t.test('a Ghana top-up is quoted, confirmed at the quoted charge and bought from the Buy page', async (t) => {
  const server = await start_server(t);
  const account = await server.create_account({ kyc_level: 2 });
  const key = await server.create_key(account.id, { rate_limit_per_minute: 1_000_000 });
  await server.credit(account.id, 'test', 20_000);
  const browser = await launch_browser(t);
  const { page, problems } = await open_page(browser, server);
  await sign_in(page, account.email, account.password);
  await page.waitForURL(/env=test/);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Buy' }).click();
  await page.getByRole('heading', { name: 'What are you buying?' }).waitFor();
  await settled(page);

  await Promise.all([api_response(page, 'GET', '/services/international/countries'), page.getByRole('radio', { name: 'International' }).check()]);
  await settled(page);
  await page.getByLabel('Country').locator('option[value="GH"]').waitFor({ state: 'attached' });
  t.equal(await page.getByLabel('Country').inputValue(), 'GH', 'Ghana is chosen');
  const operator = page.getByLabel('Operator');
  await operator.locator('option[value="5/1"]').waitFor({ state: 'attached' });
  await Promise.all([api_response(page, 'GET', '/services/international/products'), operator.selectOption('5/1')]);
  const product = page.getByLabel('Product');
  await product.locator('option[value="gh-mtn-topup"]').waitFor({ state: 'attached' });
  await product.selectOption('gh-mtn-topup');
  await page.getByLabel('Amount (GHS)').fill('10.50');
  await page.getByLabel('Phone number abroad').fill('233241234567');
  await Promise.all([api_response(page, 'POST', '/services/international/quote'), page.getByRole('button', { name: 'Get the price' }).click()]);
  await page.getByRole('heading', { name: 'Confirm the purchase' }).waitFor();
  const confirmation = (await page.locator('main').textContent()) ?? '';
  t.match(confirmation, /10\.50 GHS/, 'the confirmation says what they get abroad');
  t.match(confirmation, /118\.5 per GHS/, 'and at which rate');
  await page.getByLabel('Transaction PIN').fill(account.pin);
  // 10.50 GHS × 118.5 = NGN 1,244.25: the quote's charge, shown on the button before the PIN is sent.
  await Promise.all([api_response(page, 'POST', '/services/international'), page.getByRole('button', { name: 'Pay ₦1,244.25' }).click()]);
  await page.getByTestId('purchase-result').waitFor();
  const reference = (await page.getByTestId('purchase-reference').textContent()) ?? '';
  const order = await server.api('GET', `/v1/transactions/${reference}`, { key: key.api_key });
  t.equal(order.body?.data?.service_type, 'international', 'the international order is in the API');
  t.equal(order.body?.data?.status, 'delivered', 'and delivered');
  t.equal(order.body?.data?.international?.foreign_amount, '10.50', 'with its foreign amount');
  t.equal((await server.api('GET', '/v1/wallet', { key: key.api_key })).body?.data?.balance, 18_755.75, 'the wallet paid exactly the quote');
  t.same(problems, [], 'no console errors or failed requests');
});
