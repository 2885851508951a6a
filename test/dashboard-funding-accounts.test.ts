// Dashboard, the Funding page with dedicated accounts (docs/funding.md, issue 32): in headless Chromium against a
// real server with a fake Monnify, the reseller sees its own bank accounts with a copy button for each number, and
// the live balance updates by itself when a transfer into one of them is credited.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { start_fake_monnify } from './helpers/fake-monnify.js';
import { launch_browser, open_page, settled, shows, sign_in, unnamed_controls } from './helpers/browser.js';

t.test('the Funding page lists the reseller\'s dedicated accounts with copy buttons, and its live balance follows a transfer', async (t) => {
  const fake = await start_fake_monnify();
  t.teardown(() => fake.stop());
  const server = await start_server(t, { env: { LOG_LEVEL: 'warn', FUNDING_PROVIDERS: JSON.stringify([fake.entry('monnify')]) } });
  const reseller = await server.reseller(0);
  const made = await server.admin('POST', `/admin/accounts/${reseller.id}/funding/accounts`, {});
  t.equal(made.status, 201, made.text);
  const numbers: string[] = made.body.data.accounts.map((a: { account_number: string }) => a.account_number);

  const browser = await launch_browser(t);
  const { page, problems, csp_violations } = await open_page(browser, server);
  await sign_in(page, reseller.email, reseller.password);
  await page.goto('/dashboard/funding');
  await settled(page);
  const section = page.getByTestId('dedicated-accounts');
  t.ok(await shows(section), 'the dedicated accounts are shown');
  t.same(await section.getByTestId('dedicated-account-number').allTextContents(), numbers, 'every account number, in order');
  for (const bank of ['Moniepoint Microfinance Bank', 'Sterling bank', 'Wema bank']) {
    t.ok(await shows(section.getByRole('button', { name: `Copy ${bank} account number` })), `a copy button for the ${bank} number`);
  }
  t.same(await unnamed_controls(page), [], 'every control has a name');
  t.ok(await shows(page.getByTestId('live-balance').getByText('₦0.00')), 'the live balance starts at 0');

  const paid = fake.pay_in({ account_number: numbers[1]!, amount_kobo: 4_200_00, fee_kobo: 0 });
  const callback = await server.api('POST', '/callbacks/funding/monnify', { raw_body: paid.callback.raw, headers: paid.callback.headers });
  t.equal(callback.body?.data?.outcome, 'credited', 'the transfer was credited');
  t.ok(await shows(page.getByTestId('live-balance').getByText('₦4,200.00'), 20_000), 'the page\'s live balance updates by itself');
  t.same(problems, [], 'no script errors in the page');
  t.same(csp_violations, [], 'no Content-Security-Policy violations');
});
