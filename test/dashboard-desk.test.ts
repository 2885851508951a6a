// The dashboard as a working desk (issue "The dashboard as a working desk"), in headless Chromium
// against a real server: a reseller whose activity is all in Test lands on Test, tops up the sandbox
// wallet, buys airtime (double-clicking Pay), data from the plan picker, electricity and cable TV
// after verifying the meter and the smartcard (the customer's name shows), sees a wrong PIN and a
// failed purchase explained, copies the token, finds orders by number and reference with the filters
// kept in the address across a reload, and downloads the orders and the wallet history as CSV. Every
// purchase is in GET /v1/transactions with the same reference and is debited once; every change still
// needs the session's CSRF token. Screenshots at desktop and phone width; on a phone every section
// link is on screen and "Airtime · GLO" stays in one piece.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { start_server } from './helpers/server.js';
import {
  api_response, launch_browser, open_page, page_fetch, phone, read_clipboard, screenshot, session_cookie, settled, shows, sign_in, unnamed_controls,
  wait_for_count, within_screen,
} from './helpers/browser.js';

const section_names = ['Overview', 'Buy', 'Orders', 'Wallet', 'Funding', 'API keys', 'Webhooks', 'Transaction PIN'];

t.test('a reseller buys every service from the dashboard, once per confirmation, and finds and exports the orders', async (t) => {
  const server = await start_server(t, { env: { TIME_SCALE: '0.001' } });
  const account = await server.create_account({ kyc_level: 2 });
  const key = await server.create_key(account.id, { rate_limit_per_minute: 1_000_000 });
  await server.credit(account.id, 'test', 20_000);
  const browser = await launch_browser(t);
  const { page, problems, csp_violations } = await open_page(browser, server);
  const balance = async () => (await server.api('GET', '/v1/wallet', { key: key.api_key })).body?.data?.balance as number;
  const order_of = async (reference: string) => (await server.api('GET', `/v1/transactions/${reference}`, { key: key.api_key })).body;

  // Landing: nothing live, a test credit: the dashboard opens on Test.
  await sign_in(page, account.email, account.password);
  await page.waitForURL(/env=test/);
  t.equal(await page.getByRole('group', { name: 'Environment' }).getByRole('button', { name: 'Test' }).getAttribute('aria-pressed'), 'true', 'an account with only test activity lands on Test');
  await settled(page);
  await screenshot(t, page, 'desk-landing-test');

  // Sandbox top-up from the wallet page.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Wallet' }).click();
  await page.getByRole('heading', { name: 'Sandbox top-up' }).waitFor();
  await page.getByLabel('Amount (₦)').fill('80000');
  const [fund_response] = await Promise.all([api_response(page, 'POST', '/sandbox/wallet/fund'), page.getByRole('button', { name: 'Add test money' }).click()]);
  t.equal(fund_response.status(), 201, 'the sandbox top-up is accepted');
  await page.getByText('Sandbox wallet funded.').waitFor();
  await page.locator('[data-testid="wallet-balance"]:has-text("100,000.00")').waitFor();
  t.equal(await balance(), 100_000, 'the test wallet holds the credit and the top-up');
  await screenshot(t, page, 'desk-wallet-topup');

  // Airtime, with a double click on Pay.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Buy' }).click();
  await page.getByRole('heading', { name: 'What are you buying?' }).waitFor();
  await page.getByLabel('Network').selectOption('glo');
  await page.getByLabel('Phone number').fill('08011111111');
  await page.getByLabel('Amount (₦)').fill('500');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Confirm the purchase' }).waitFor();
  t.equal(await page.getByTestId('confirm-amount').textContent(), '₦500.00', 'the confirmation says what will be debited');
  t.ok(await shows(page.getByText('Debited from your test wallet (sandbox)')), 'and from which wallet');
  await page.getByLabel('Transaction PIN').fill(account.pin);
  await screenshot(t, page, 'desk-buy-confirm');
  const purchases: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/dashboard/api/services/airtime')) purchases.push(request.headers()['x-idempotency-key'] ?? '');
  });
  await page.getByRole('button', { name: 'Pay ₦500.00' }).dblclick();
  await page.getByTestId('purchase-result').waitFor();
  const airtime_reference = (await page.getByTestId('purchase-reference').textContent()) ?? '';
  t.match(airtime_reference, /^BV-\d{8}-[0-9A-Z]{12}$/, 'the result shows the order reference');
  t.ok(purchases.length >= 1 && purchases.every((k) => k !== '' && k === purchases[0]), `every request of the confirmation carries one idempotency key (${purchases.length} sent)`);
  const airtime = await order_of(airtime_reference);
  t.equal(airtime?.data?.reference, airtime_reference, 'the dashboard purchase is in GET /v1/transactions with the same reference');
  t.equal(airtime?.data?.status, 'delivered', 'and delivered');
  t.equal(await balance(), 99_500, 'a double click debits once');
  const listed = (await server.api('GET', '/v1/transactions', { key: key.api_key })).body?.data?.transactions ?? [];
  t.equal(listed.filter((o: any) => o.reference === airtime_reference).length, 1, 'the order is listed once');

  // The same confirmation repeated by hand (a second tab, a retry after a lost answer): one purchase.
  const csrf = (await page_fetch(page, 'GET', '/dashboard/api/session')).body.data.csrf_token as string;
  const body = { network: 'mtn', phone: '08011111111', amount: 100, pin: account.pin };
  const first = await page_fetch(page, 'POST', '/dashboard/api/services/airtime?environment=test', { csrf, body, idempotency_key: 'desk-repeat-1' });
  const again = await page_fetch(page, 'POST', '/dashboard/api/services/airtime?environment=test', { csrf, body, idempotency_key: 'desk-repeat-1' });
  t.equal(first.status, 201, 'the first request buys');
  t.equal(again.body?.data?.reference, first.body?.data?.reference, 'the repeat answers the same order');
  t.equal(await balance(), 99_400, 'and debits nothing more');

  // CSRF still guards every change, the purchase and the top-up included.
  const no_csrf = await page_fetch(page, 'POST', '/dashboard/api/services/airtime?environment=test', { body, idempotency_key: 'desk-no-csrf' });
  t.equal(no_csrf.body?.error?.code, 'session.csrf_failed', 'a purchase without the CSRF token is refused');
  const wrong_csrf = await page_fetch(page, 'POST', '/dashboard/api/sandbox/wallet/fund?environment=test', { csrf: 'not-the-token', body: { amount: 1000 } });
  t.equal(wrong_csrf.body?.error?.code, 'session.csrf_failed', 'a top-up with a wrong CSRF token is refused');
  const verify_no_csrf = await page_fetch(page, 'POST', '/dashboard/api/services/electricity/verify?environment=test', { body: { disco: 'ikeja-electric', meter_number: '1111111111111', meter_type: 'prepaid' } });
  t.equal(verify_no_csrf.body?.error?.code, 'session.csrf_failed', 'even a verification needs the token');
  const live_fund = await page_fetch(page, 'POST', '/dashboard/api/sandbox/wallet/fund?environment=live', { csrf, body: { amount: 1000 } });
  t.equal(live_fund.body?.error?.code, 'auth.insufficient_scope', 'live money cannot be topped up from the dashboard');
  t.equal(await balance(), 99_400, 'none of the refused changes moved money');

  // Data with the plan picker.
  await page.getByRole('button', { name: 'Buy something else' }).click();
  await page.getByRole('radio', { name: 'Data' }).check();
  await page.locator('select[name="plan_code"] option[value^="glo-"]').first().waitFor({ state: 'attached' });
  // The airtime form left GLO chosen: choosing MTN loads MTN's plans. Every frame painted after the
  // change is watched: none may offer another network's plan as ready to pick (the list of the network
  // chosen before stayed on screen, not busy, until the loader's effect ran after the paint).
  await page.evaluate(() => {
    const doc = (globalThis as any).document;
    const seen: string[] = ((globalThis as any).__stale_plans = []);
    doc.addEventListener('change', (event: any) => {
      if (event.target?.name !== 'network') return;
      let frames = 0;
      const look = () => {
        const network = doc.querySelector('select[name="network"]')?.value ?? '';
        const plans = doc.querySelector('select[name="plan_code"]');
        if (plans !== null && plans.getAttribute('aria-busy') !== 'true') {
          for (const option of plans.options) if (option.value !== '' && !option.value.startsWith(`${network}-`)) seen.push(`${network}: ${option.value}`);
        }
        if (++frames < 30) (globalThis as any).requestAnimationFrame(look);
      };
      (globalThis as any).requestAnimationFrame(look);
    }, true);
  });
  await Promise.all([api_response(page, 'GET', '/services/data/plans'), page.getByLabel('Network').selectOption('mtn')]);
  await settled(page);
  const stale = await page.evaluate(() => (globalThis as any).__stale_plans as string[]);
  t.same(stale.slice(0, 3), [], 'no frame after choosing MTN offers a plan of the network chosen before');
  const plan_select = page.getByLabel('Data plan');
  await plan_select.locator('option:nth-child(2)').waitFor({ state: 'attached' });
  const plan_value = await plan_select.locator('option:nth-child(2)').getAttribute('value');
  await plan_select.selectOption(plan_value!);
  await page.getByLabel('Phone number').fill('08011111111');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Transaction PIN').fill(account.pin);
  await page.getByRole('button', { name: /^Pay ₦/ }).click();
  await page.getByTestId('purchase-result').waitFor();
  const data_reference = (await page.getByTestId('purchase-reference').textContent()) ?? '';
  const data_order = await order_of(data_reference);
  t.equal(data_order?.data?.plan_code, plan_value, 'the data order has the plan picked');

  // Electricity: the meter verified first, a wrong PIN, then the token with a copy button.
  await page.getByRole('button', { name: 'Buy something else' }).click();
  await page.getByRole('radio', { name: 'Electricity' }).check();
  await page.getByLabel('Distribution company').locator('option').first().waitFor({ state: 'attached' });
  await page.getByLabel('Meter number').fill('0000000000000');
  await page.getByRole('button', { name: 'Verify meter' }).click();
  t.ok(await shows(page.locator('[role="alert"][data-error-code="service.invalid_meter"]')), 'an unknown meter is refused with the server\'s error');
  t.ok(await page.getByRole('button', { name: 'Continue' }).isDisabled(), 'no purchase before the meter is verified');
  await page.getByLabel('Meter number').fill('1111111111111');
  await page.getByRole('button', { name: 'Verify meter' }).click();
  await page.getByTestId('verified-customer').waitFor();
  t.match(await page.getByTestId('verified-customer').textContent(), /Test Customer/, 'verification shows the customer\'s name');
  await page.getByLabel('Amount (₦)').fill('5000');
  await screenshot(t, page, 'desk-buy-electricity-verified');
  await page.getByRole('button', { name: 'Continue' }).click();
  t.ok(await shows(page.getByText('Test Customer')), 'the confirmation names the customer');
  await page.getByLabel('Transaction PIN').fill(account.pin === '11111' ? '22222' : '11111');
  await page.getByRole('button', { name: 'Pay ₦5,000.00' }).click();
  await page.locator('[role="alert"][data-error-code="pin.incorrect"]').waitFor();
  t.equal(await balance(), 99_400 - (data_order?.data?.amount ?? 0), 'a wrong PIN debits nothing');
  await page.getByLabel('Transaction PIN').fill(account.pin);
  await page.getByRole('button', { name: 'Pay ₦5,000.00' }).click();
  await page.getByTestId('purchase-token').waitFor();
  const token = (await page.getByTestId('purchase-token').textContent()) ?? '';
  t.match(token, /^\d{4}-\d{4}-\d{4}-\d{4}-\d{4}$/, 'the prepaid token shows');
  await page.getByRole('button', { name: 'Copy token' }).click();
  await page.getByRole('button', { name: 'Copied ✓' }).waitFor();
  t.equal(await read_clipboard(page), token, 'the copy button puts the token on the clipboard');
  const power_reference = (await page.getByTestId('purchase-reference').textContent()) ?? '';
  t.equal((await order_of(power_reference))?.data?.token, token, 'the API shows the same token for that reference');
  await screenshot(t, page, 'desk-buy-electricity-token');

  // Cable TV: the smartcard verified first, then a package.
  await page.getByRole('button', { name: 'Buy something else' }).click();
  await page.getByRole('radio', { name: 'Cable TV' }).check();
  await page.getByLabel('TV provider').selectOption('gotv');
  await page.getByLabel('Smartcard or IUC number').fill('1212121212');
  await page.getByRole('button', { name: 'Verify smartcard' }).click();
  await page.getByTestId('verified-customer').waitFor();
  const package_select = page.getByLabel('Package');
  await package_select.locator('option:nth-child(2)').waitFor({ state: 'attached' });
  await package_select.selectOption((await package_select.locator('option:nth-child(2)').getAttribute('value'))!);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Transaction PIN').fill(account.pin);
  await page.getByRole('button', { name: /^Pay ₦/ }).click();
  await page.getByTestId('purchase-result').waitFor();
  const tv_reference = (await page.getByTestId('purchase-reference').textContent()) ?? '';
  t.equal((await order_of(tv_reference))?.data?.service_type, 'tv', 'the TV order is in the API');

  // A failed purchase: the clear error, refunded.
  await page.getByRole('button', { name: 'Buy something else' }).click();
  await page.getByRole('radio', { name: 'Airtime' }).check();
  await page.getByLabel('Network').selectOption('glo');
  await page.getByLabel('Phone number').fill('08022222222');
  await page.getByLabel('Amount (₦)').fill('200');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Transaction PIN').fill(account.pin);
  const before_failure = await balance();
  await page.getByRole('button', { name: 'Pay ₦200.00' }).click();
  t.ok(await shows(page.locator('[role="alert"][data-error-code="transaction.failed"]')), 'a failed purchase shows the server\'s error');
  t.equal(await balance(), before_failure, 'and the wallet is as before (refunded)');
  await screenshot(t, page, 'desk-buy-failed');

  // Find: by phone number, with a status filter, kept in the address across a reload.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Orders' }).click();
  const table = page.getByTestId('orders-table');
  await table.waitFor();
  const rows = table.locator('tbody tr');
  await page.getByLabel('Search').fill('08011111111');
  await page.getByLabel('Status').selectOption('delivered');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL(/q=08011111111/);
  t.equal(await wait_for_count(rows, 3), 3, 'searching the phone number finds its 3 delivered orders (airtime twice, data)');
  await page.reload();
  await table.waitFor();
  t.equal(await wait_for_count(rows, 3), 3, 'a reload keeps the search and the filter');
  t.equal(await page.getByLabel('Search').inputValue(), '08011111111', 'the search box shows what is searched');
  t.equal(await page.getByLabel('Status').inputValue(), 'delivered', 'the status filter shows too');
  await screenshot(t, page, 'desk-orders-search');
  await page.getByLabel('Search').fill(power_reference.toLowerCase());
  await page.getByLabel('Status').selectOption('');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  t.equal(await wait_for_count(rows, 1), 1, 'searching a reference finds that one order');
  t.equal(await rows.first().getAttribute('data-reference'), power_reference, 'the electricity order');
  await page.getByLabel('Search').fill('1212121212');
  await page.getByLabel('Service').selectOption('tv');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  t.equal(await wait_for_count(rows, 1), 1, 'a smartcard number with the TV filter finds the TV order');
  await page.getByLabel('Search').fill('09099999999');
  await page.getByLabel('Service').selectOption('');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  t.ok(await shows(page.getByText('No orders match these filters.')), 'a number never bought for finds nothing, and says so');
  const bad_search = await page_fetch(page, 'GET', `/dashboard/api/orders?environment=test&q=${'9'.repeat(65)}`);
  t.equal(bad_search.body?.error?.code, 'validation.failed', 'an over-long search is a validation error');

  // Export: the filtered orders, then the wallet history.
  await page.getByLabel('Search').fill('08011111111');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await wait_for_count(rows, 3);
  const [orders_download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  const orders_csv = readFileSync((await orders_download.path())!, 'utf8').trim().split('\r\n');
  t.equal(orders_csv[0], 'reference,service,provider,plan,recipient,customer_name,amount,status,token,units,created_at,amount_charged,commission,client_reference,metadata', 'the orders CSV has its header');
  t.equal(orders_csv.length, 1 + 3, 'and one line per filtered order');
  t.ok(orders_csv.some((line) => line.startsWith(`${airtime_reference},airtime,glo,,08011111111,,500.00,delivered`)), 'with the dashboard\'s airtime order');
  t.match(orders_download.suggestedFilename(), /^billvend-test-orders\.csv$/, 'named after the side');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Wallet' }).click();
  await page.getByTestId('wallet-table').waitFor();
  const [wallet_download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  const wallet_csv = readFileSync((await wallet_download.path())!, 'utf8').trim().split('\r\n');
  t.equal(wallet_csv[0], 'id,type,amount,balance_before,balance_after,reference,description,created_at', 'the wallet CSV has its header');
  const debits = wallet_csv.filter((line) => line.split(',')[1] === 'debit').length;
  t.equal(debits, 6, 'six debits: two airtime, data, electricity, TV and the failed airtime');
  t.equal(wallet_csv.filter((line) => line.split(',')[1] === 'reversal').length, 1, 'and the failed one\'s reversal');
  t.equal(wallet_csv.filter((line) => line.includes(airtime_reference)).length, 1, 'the double-clicked airtime was debited once');

  // Phone: every section reachable, "Airtime · GLO" in one piece.
  await page.goto('/dashboard/?env=test');
  await page.getByTestId('orders-table').waitFor();
  await page.setViewportSize(phone);
  const nav = page.getByRole('navigation', { name: 'Sections' });
  for (const name of section_names) {
    const link = nav.getByRole('link', { name });
    t.ok((await link.isVisible()) && (await within_screen(link)), `on a phone, "${name}" is on screen`);
  }
  // The most recent order (the failed GLO airtime) is among the overview's recent orders.
  const glo_cell = page.getByTestId('orders-table').locator('.service-cell', { hasText: 'Glo' }).first();
  t.equal(await glo_cell.evaluate((node) => (node as any).getClientRects().length), 1, '"Airtime · GLO" is one box');
  const glo_box = await glo_cell.boundingBox();
  t.ok(glo_box !== null && glo_box.height < 30, `and one line high (${glo_box?.height} px)`);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The trend: today's bars hold the six orders and what stayed debited; 5 of 6 finished orders succeeded.
  await page.getByTestId('success-rate').waitFor();
  t.match(await page.getByTestId('success-rate').textContent(), /^83\.3% successful · 5 delivered, 1 failed$/, 'the success rate of the finished orders');
  const today_orders = page.getByTestId('trend-orders').locator('g[data-date]').last();
  t.equal(await today_orders.getAttribute('data-total'), '6', 'today\'s order bar counts all six orders');
  const spent = 500 + 100 + (data_order?.data?.amount ?? 0) + 5000 + ((await order_of(tv_reference))?.data?.amount ?? 0);
  t.equal(Number(await page.getByTestId('trend-spend').locator('g[data-date]').last().getAttribute('data-total')), spent, 'today\'s spend bar is what stayed debited (the failed order left out)');
  t.equal(await page.getByTestId('trend-spend').locator('g[data-date]').count(), 30, 'thirty days are drawn');
  t.equal(await page.getByTestId('trend-orders').locator('rect[data-service="airtime"]').count(), 1, 'airtime has its own colour in the stack');
  await screenshot(t, page, 'desk-overview-test');

  for (const path of ['/dashboard/?env=test', '/dashboard/buy?env=test', '/dashboard/orders?env=test', '/dashboard/wallet?env=test']) {
    await page.goto(path);
    await settled(page);
    t.same(await unnamed_controls(page), [], `every control on ${path} has a name`);
  }
  t.same(problems, [], 'no script errors in the page');
  t.same(csp_violations, [], 'no Content-Security-Policy violations');
});

t.test('an account with live activity opens on Live, and a side in the address is kept', async (t) => {
  const server = await start_server(t);
  const account = await server.create_account({ kyc_level: 2 });
  await server.credit(account.id, 'test', 1_000);
  await server.credit(account.id, 'live', 1_000);
  const browser = await launch_browser(t);
  const { page, problems } = await open_page(browser, server);
  await sign_in(page, account.email, account.password);
  await settled(page);
  t.equal(await page.getByRole('group', { name: 'Environment' }).getByRole('button', { name: 'Live' }).getAttribute('aria-pressed'), 'true', 'live activity: the dashboard opens on Live');
  t.notMatch(page.url(), /env=test/, 'the address stays on Live');

  const quiet = await server.create_account({ kyc_level: 2 });
  await server.credit(quiet.id, 'test', 1_000);
  const other = await open_page(browser, server);
  await sign_in(other.page, quiet.email, quiet.password, '/dashboard/wallet');
  await other.page.getByTestId('wallet-balance').waitFor();
  t.notMatch(other.page.url(), /env=test/, 'a deep link keeps the side its address names (Live without ?env=test)');
  await other.page.goto('/dashboard/');
  t.ok(await other.page.waitForURL(/env=test/, { timeout: 15_000 }).then(() => true, () => false), 'the front page lands an all-test account on Test');
  await other.page.getByRole('group', { name: 'Environment' }).getByRole('button', { name: 'Live' }).click();
  await other.page.waitForURL((url) => !url.search.includes('env=test'));
  await settled(other.page);
  t.equal(await other.page.getByRole('group', { name: 'Environment' }).getByRole('button', { name: 'Live' }).getAttribute('aria-pressed'), 'true', 'choosing Live afterwards stays on Live');
  t.same([...problems, ...other.problems], [], 'no script errors in the pages');
});

t.test('a CSV export defuses spreadsheet formulas and quotes what needs quoting', async (t) => {
  const server = await start_server(t);
  const account = await server.create_account({ kyc_level: 2 });
  const key = await server.create_key(account.id);
  const reference = '=SUM(1,2)"x';
  const funded = await server.api('POST', '/v1/sandbox/wallet/fund', { key: key.api_key, body: { amount: 1000, reference } });
  t.equal(funded.status, 201, 'a sandbox top-up with a formula-like reference is accepted by the API');
  const browser = await launch_browser(t);
  const { context, page } = await open_page(browser, server);
  await sign_in(page, account.email, account.password);
  const cookie = await session_cookie(context);
  const response = await fetch(`${server.base}/dashboard/api/export/wallet?environment=test`, { headers: { cookie: `bv_session=${cookie}` } });
  t.equal(response.status, 200, 'the export answers 200');
  t.match(response.headers.get('content-type'), /^text\/csv; charset=utf-8/, 'as CSV');
  t.match(response.headers.get('content-disposition'), /^attachment; filename="billvend-test-wallet\.csv"$/, 'as a download');
  const lines = (await response.text()).trim().split('\r\n');
  t.equal(lines.length, 2, 'a header and the one top-up');
  t.ok(lines[1].includes(`"'=SUM(1,2)""x"`), `the reference is quoted and cannot run as a formula (${lines[1]})`);
  const signed_out = await fetch(`${server.base}/dashboard/api/export/wallet?environment=test`);
  t.equal(signed_out.status, 401, 'without a session there is no export');
});

t.test('with a priced tier the confirmation shows the face value, the commission and the smaller debit, and the wallet pays that', async (t) => {
  const server = await start_server(t);
  const priced = await server.admin('PUT', '/admin/pricing/deskgold', { rules: [{ service_type: 'airtime', rate_bp: 200 }, { service_type: 'airtime', network: 'glo', rate_bp: 400 }] });
  t.equal(priced.status, 200, `the tier's rules are set (${priced.text.slice(0, 120)})`);
  const account = await server.create_account({ kyc_level: 2, tier: 'deskgold' });
  const key = await server.create_key(account.id, { rate_limit_per_minute: 1_000_000 });
  await server.credit(account.id, 'test', 1_000);
  const browser = await launch_browser(t);
  const { page, problems } = await open_page(browser, server);
  await sign_in(page, account.email, account.password);
  await page.waitForURL(/env=test/);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Buy' }).click();
  await page.getByRole('heading', { name: 'What are you buying?' }).waitFor();
  await settled(page);
  await page.getByLabel('Network').selectOption('glo');
  await page.getByLabel('Phone number').fill('08011111111');
  await page.getByLabel('Amount (₦)').fill('50.01');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Confirm the purchase' }).waitFor();
  // 4% of 5,001 kobo is 200.04 kobo: 200 kobo of commission, rounded down, so 48.01 is debited.
  t.equal(await page.getByTestId('confirm-face-value').textContent(), '₦50.01', 'the face value the recipient gets');
  t.equal(await page.getByTestId('confirm-commission').textContent(), '₦2.00', 'the most specific rule\'s commission (glo, 4%), rounded down to the kobo');
  t.equal(await page.getByTestId('confirm-amount').textContent(), '₦48.01', 'the confirmation says what the wallet will be debited');
  await page.getByLabel('Transaction PIN').fill(account.pin);
  await screenshot(t, page, 'desk-buy-confirm-priced');
  await page.getByRole('button', { name: 'Pay ₦48.01' }).click();
  await page.getByTestId('purchase-result').waitFor();
  t.equal(await page.getByTestId('purchase-amount-charged').textContent(), '₦48.01', 'the result shows the amount charged');
  const wallet = await server.api('GET', '/v1/wallet', { key: key.api_key });
  t.equal(wallet.body?.data?.balance, 951.99, 'the wallet paid exactly what the confirmation said');
  t.same(problems, [], 'no script errors in the page');
});
