// The dashboard's Buy page fills the network in as the number is typed (docs/api.md "Phone lookup"), keeps a
// network the person chose, and sells Showmax plans (docs/api.md "Showmax"). In headless Chromium against a real
// server, through the dashboard's twins of GET /v1/lookup/phone/{phone} and POST /v1/services/showmax.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { api_response, launch_browser, open_page, settled, sign_in } from './helpers/browser.js';

t.test('typing a number fills its network; a chosen network stays; a Showmax plan is bought', async (t) => {
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

  const network = page.getByLabel('Network');
  t.equal(await network.inputValue(), 'mtn', 'MTN is shown before a number is typed');
  await Promise.all([api_response(page, 'GET', '/lookup/phone/08051234567'), page.getByLabel('Phone number').fill('08051234567')]);
  await page.getByTestId('detected-network').waitFor();
  t.equal(await network.inputValue(), 'glo', 'a Glo number fills in GLO');
  t.match(await page.getByTestId('detected-network').textContent(), /On Glo/, 'and says so, as people write it');
  await Promise.all([api_response(page, 'GET', '/lookup/phone/08091234567'), page.getByLabel('Phone number').fill('08091234567')]);
  await page.getByTestId('detected-network').waitFor();
  t.equal(await network.inputValue(), '9mobile', 'another number, another network');

  await network.selectOption('airtel');
  await Promise.all([api_response(page, 'GET', '/lookup/phone/08031234567'), page.getByLabel('Phone number').fill('08031234567')]);
  await page.getByTestId('detected-network').waitFor();
  t.equal(await network.inputValue(), 'airtel', 'a network the person chose is kept');
  t.match(await page.getByTestId('detected-network').textContent(), /On MTN/, 'while the number\'s network is shown');

  await Promise.all([api_response(page, 'GET', '/services/showmax/plans'), page.getByRole('radio', { name: 'Showmax' }).check()]);
  await settled(page);
  const plan_select = page.getByLabel('Showmax plan');
  await plan_select.locator('option[value="showmax-mobile-3m"]').waitFor({ state: 'attached' });
  await plan_select.selectOption('showmax-mobile-3m');
  await page.getByLabel('Phone number').fill('08011111111');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Confirm the purchase' }).waitFor();
  await page.getByLabel('Transaction PIN').fill(account.pin);
  await Promise.all([api_response(page, 'POST', '/services/showmax'), page.getByRole('button', { name: 'Pay ₦3,800.00' }).click()]);
  await page.getByTestId('purchase-result').waitFor();
  const reference = (await page.getByTestId('purchase-reference').textContent()) ?? '';
  const order = await server.api('GET', `/v1/transactions/${reference}`, { key: key.api_key });
  t.equal(order.body?.data?.service_type, 'showmax', 'the Showmax order is in the API');
  t.equal(order.body?.data?.status, 'delivered', 'and delivered');
  t.equal((await server.api('GET', '/v1/wallet', { key: key.api_key })).body?.data?.balance, 16_200, 'the wallet paid the plan');
  t.same(problems, [], 'no console errors or failed requests');
});
