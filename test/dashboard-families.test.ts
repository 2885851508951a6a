// The dashboard sells what the API sells (issue "The first ten minutes", finding 5, 6, 10 and 16): in headless
// Chromium against a real server, an education PIN (WAEC, two PINs) and an internet plan (Smile, its account
// verified) are bought from the Buy page, whose result card names the recipient and the network (and shows the
// PINs); the orders filter and the overview's charts name every family of service_type_names, as people
// write them; the sign-in page prints no 401 in the console; and a CSV upload is previewed (a bad row shown
// and not sent) and answered row by row through the dashboard's twin of POST /v1/services/bulk.
import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { start_server } from './helpers/server.js';
import { api_response, launch_browser, open_page, screenshot, settled, sign_in } from './helpers/browser.js';
import { service_type_names } from '../src/services/order.js';

/** Display names as people write them: the test's own copy, so a change to the app's table shows here. */
const family_label: Record<string, string> = {
  airtime: 'Airtime', data: 'Data', electricity: 'Electricity', tv: 'Cable TV', education: 'Education', internet: 'Internet', showmax: 'Showmax', international: 'International',
};

t.test('education and internet from the Buy page; every family in the filters and the charts; no 401 at sign-in', async (t) => {
  const server = await start_server(t);
  const account = await server.create_account({ kyc_level: 2 });
  const key = await server.create_key(account.id, { rate_limit_per_minute: 1_000_000 });
  await server.credit(account.id, 'test', 50_000);
  const browser = await launch_browser(t);
  const { page, problems } = await open_page(browser, server);
  const console_lines: string[] = [];
  page.on('console', (message) => console_lines.push(`${message.type()}: ${message.text()}`));
  await page.goto('/dashboard/');
  await page.getByLabel('Email').waitFor();
  await settled(page);
  t.same(console_lines.filter((line) => /401/.test(line)), [], 'the sign-in page logs no 401 (the session probe answers 200 signed out)');
  await sign_in(page, account.email, account.password);
  await page.waitForURL(/env=test/);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Buy' }).click();
  await page.getByRole('heading', { name: 'What are you buying?' }).waitFor();
  await settled(page);
  const offered = await page.locator('input[name="service"]').evaluateAll((inputs) => inputs.map((input) => (input as any).value));
  t.same(offered, [...service_type_names], 'the Buy page offers every family the API sells, in its order');

  // An exam PIN: WAEC result checker, two of them.
  await Promise.all([api_response(page, 'GET', '/services/education/products'), page.getByRole('radio', { name: 'Education' }).check()]);
  await settled(page);
  const product = page.getByLabel('Exam PIN');
  await product.locator('option[value="waec-result-checker"]').waitFor({ state: 'attached' });
  t.match(await product.locator('option[value="waec-result-checker"]').textContent(), /^WAEC · /, 'the exam as people write it');
  await product.selectOption('waec-result-checker');
  await page.getByLabel(/Quantity/).fill('2');
  await page.getByLabel('Buyer\'s phone number').fill('08011111111');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Confirm the purchase' }).waitFor();
  await page.getByLabel('Transaction PIN').fill(account.pin);
  await Promise.all([api_response(page, 'POST', '/services/education'), page.getByRole('button', { name: 'Pay ₦7,800.00' }).click()]);
  await page.getByTestId('purchase-result').waitFor();
  t.equal(await page.getByTestId('purchase-recipient').textContent(), '08011111111', 'the result card names the recipient');
  t.equal(await page.getByTestId('purchase-network').textContent(), 'WAEC', 'and the exam body as people write it');
  t.equal(await page.getByTestId('purchase-pin').count(), 2, 'and shows both PINs');
  const education_reference = (await page.getByTestId('purchase-reference').textContent()) ?? '';
  const education = await server.api('GET', `/v1/transactions/${education_reference}`, { key: key.api_key });
  t.equal(education.body?.data?.service_type, 'education', 'the education order is in the API');
  t.equal(education.body?.data?.pins?.length, 2, 'with its two PINs');
  t.equal(await page.getByTestId('purchase-pin').first().textContent(), education.body?.data?.pins?.[0]?.pin, 'the PIN shown is the order\'s');
  await screenshot(t, page, 'dashboard-buy-education');
  await page.getByRole('button', { name: 'Buy something else' }).click();

  // An internet plan: Smile, the account verified first.
  await page.getByRole('heading', { name: 'What are you buying?' }).waitFor();
  await Promise.all([api_response(page, 'GET', '/services/internet/plans'), page.getByRole('radio', { name: 'Internet' }).check()]);
  await settled(page);
  t.same(await page.getByLabel('Provider').locator('option').allTextContents(), ['Smile', 'Spectranet'], 'internet providers as people write them');
  const plan = page.getByLabel('Internet plan');
  await plan.locator('option[value="smile-1-5gb-7d"]').waitFor({ state: 'attached' });
  await plan.selectOption('smile-1-5gb-7d');
  await page.getByLabel(/Smile account/).fill('08022220000');
  await page.getByLabel('Phone number').fill('08011111111');
  await Promise.all([api_response(page, 'POST', '/services/internet/verify'), page.getByRole('button', { name: 'Verify account' }).click()]);
  t.match(await page.getByTestId('verified-customer').textContent(), /Test Subscriber/, 'the Smile subscriber is named before paying');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Confirm the purchase' }).waitFor();
  await page.getByLabel('Transaction PIN').fill(account.pin);
  await Promise.all([api_response(page, 'POST', '/services/internet'), page.getByRole('button', { name: 'Pay ₦1,000.00' }).click()]);
  await page.getByTestId('purchase-result').waitFor();
  t.equal(await page.getByTestId('purchase-recipient').textContent(), '08022220000', 'the result card names the Smile account');
  t.equal(await page.getByTestId('purchase-network').textContent(), 'Smile', 'and the provider as people write it');
  const internet_reference = (await page.getByTestId('purchase-reference').textContent()) ?? '';
  const internet = await server.api('GET', `/v1/transactions/${internet_reference}`, { key: key.api_key });
  t.equal(internet.body?.data?.service_type, 'internet', 'the internet order is in the API');
  t.equal(internet.body?.data?.status, 'delivered', 'and delivered');
  t.equal((await server.api('GET', '/v1/wallet', { key: key.api_key })).body?.data?.balance, 50_000 - 7_800 - 1_000, 'the wallet paid both');

  // The orders filter and the list name every family.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Orders' }).click();
  await settled(page);
  const choices = await page.getByLabel('Service').locator('option').allTextContents();
  t.same(choices, ['All services', ...service_type_names.map((name) => family_label[name])], 'the orders filter offers every family');
  await page.getByLabel('Service').selectOption('education');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL(/service=education/);
  await settled(page);
  t.match(await page.getByTestId('orders-table').textContent(), /Education · WAEC/, 'an education order, its exam as people write it');

  // The event kinds' checkboxes (finding 16): each box as wide as the others and level with its kind's name,
  // service.status_changed's "(only when chosen)" included.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Webhooks' }).click();
  await page.locator('input[name="events"][value="service.status_changed"]').waitFor();
  await settled(page);
  const boxes = await page.locator('input[name="events"]').evaluateAll((inputs) => inputs.map((input: any) => {
    const box = input.getBoundingClientRect();
    const name = input.parentElement.querySelector('code').getBoundingClientRect();
    return { kind: input.value, width: Math.round(box.width), level: box.top + box.height / 2 >= name.top && box.top + box.height / 2 <= name.bottom };
  }));
  t.ok(boxes.length >= 5, `${boxes.length} event kinds`);
  for (const box of boxes) {
    t.equal(box.width, boxes[0].width, `${box.kind}: its box is not squeezed`);
    t.ok(box.level, `${box.kind}: its box is level with its name`);
  }
  await page.locator('input[name="events"][value="service.status_changed"]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(process.cwd(), 'test-output', 'screenshots', 'dashboard-event-kinds.png') });

  // The overview's charts: every family in the legend, education and internet in the bars.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Overview' }).click();
  await page.getByTestId('trend-orders').waitFor();
  await settled(page);
  t.same(await page.getByTestId('trend-legend').locator('li').allTextContents(), service_type_names.map((name) => family_label[name]), 'the legend names every family');
  for (const family of ['education', 'internet']) {
    t.equal(await page.getByTestId('trend-orders').locator(`rect[data-service="${family}"]`).count(), 1, `${family} has its bar in the orders chart`);
    t.equal(await page.getByTestId('trend-spend').locator(`rect[data-service="${family}"]`).count(), 1, `and in the spend chart`);
  }
  const spend_total = Number(await page.getByTestId('trend-spend').locator('g[data-total]').last().getAttribute('data-total'));
  t.equal(spend_total, 8_800, 'today\'s spend bar adds every family (what "Spent today" says)');
  await screenshot(t, page, 'dashboard-overview-families');
  t.same(problems, [], 'no console errors or failed requests');
});

t.test('a CSV upload: parsed safely, a bad row shown and not sent, a result per row', async (t) => {
  const server = await start_server(t);
  const account = await server.create_account({ kyc_level: 2 });
  const key = await server.create_key(account.id, { rate_limit_per_minute: 1_000_000 });
  await server.credit(account.id, 'test', 20_000);
  const browser = await launch_browser(t);
  const { page, problems } = await open_page(browser, server);
  await sign_in(page, account.email, account.password);
  await page.waitForURL(/env=test/);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Buy' }).click();
  await page.getByRole('link', { name: 'Buy in bulk (CSV)' }).click();
  await page.getByRole('heading', { name: 'Upload a CSV file' }).waitFor();

  // A byte order mark, CRLF line ends, quoted cells (one with a comma, doubled quotes and markup: shown as
  // text, never as HTML), a blank line, a row with a bad phone (refused before sending) and a row the server
  // refuses (a plan that does not exist).
  const csv = '\uFEFFservice_type,network,provider,phone,amount,plan_code,client_reference\r\n'
    + 'airtime,mtn,,"08011111111",100,,"inv-1"\r\n'
    + '\r\n'
    + 'data,mtn,,08011111111,350,mtn-1gb-1d,inv-2\r\n'
    + 'airtime,mtn,,0801,100,,"<b>bad</b>, ""x"""\r\n'
    + 'data,mtn,,08011111111,350,no-such-plan,inv-4\r\n'
    + 'internet,,spectranet,08011111111,7000,spectranet-7000,inv-5\r\n';
  const dir = join(process.cwd(), 'test-output', 'bulk-upload');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `upload-${process.pid}.csv`);
  writeFileSync(file, csv);
  await page.getByTestId('bulk-file').setInputFiles(file);
  await page.getByTestId('bulk-preview').waitFor();
  const rows = page.getByTestId('bulk-row');
  t.equal(await rows.count(), 5, 'five rows: the blank line is none');
  t.same(await rows.evaluateAll((list) => list.map((row) => (row as any).dataset.line)), ['2', '4', '5', '6', '7'], 'each row with its line in the file');
  t.match(await page.locator('[data-line="5"] [data-testid="bulk-row-check"]').textContent(), /phone must be an 11-digit number.*not sent/, 'the bad row says what is wrong before sending');
  t.equal(await page.locator('[data-testid="bulk-preview"] b').count(), 0, 'markup in a cell is shown as text, never as HTML');
  t.equal(await page.locator('[data-line="5"] [data-testid="bulk-row-reference"]').textContent(), '<b>bad</b>, "x"', 'a quoted cell read whole: its comma and doubled quotes');
  t.equal(await page.locator('[data-line="2"] [data-testid="bulk-row-reference"]').textContent(), 'inv-1', 'quotes around a plain cell are not part of it');
  t.equal(await page.getByTestId('bulk-valid-count').textContent(), '4', 'four rows ready');
  t.equal(await page.getByTestId('bulk-total').textContent(), '₦7,800.00', 'their face value');
  await screenshot(t, page, 'dashboard-bulk-preview');

  await page.getByLabel('Transaction PIN').fill(account.pin);
  await Promise.all([api_response(page, 'POST', '/services/bulk'), page.getByRole('button', { name: 'Place 4 purchases' }).click()]);
  await page.getByTestId('bulk-result').waitFor();
  const results = page.getByTestId('bulk-result-row');
  t.equal(await results.count(), 4, 'a result per row sent');
  t.same(await results.evaluateAll((list) => list.map((row) => [(row as any).dataset.line, (row as any).dataset.status])),
    [['2', 'delivered'], ['4', 'delivered'], ['6', 'refused'], ['7', 'delivered']], 'each row\'s result, by its line');
  t.match(await page.locator('[data-testid="bulk-result-row"][data-line="6"] [data-testid="bulk-result-error"]').textContent(), /plan/i, 'the refused row says why');
  await screenshot(t, page, 'dashboard-bulk-result');

  const list = await server.api('GET', '/v1/transactions?per_page=10', { key: key.api_key });
  const orders = list.body?.data?.transactions ?? list.body?.data?.orders ?? [];
  t.same(orders.map((o: any) => o.client_reference).sort(), ['inv-1', 'inv-2', 'inv-5'], 'three orders placed, with their references');
  t.equal((await server.api('GET', '/v1/wallet', { key: key.api_key })).body?.data?.balance, 20_000 - 100 - 350 - 7_000, 'the wallet paid the three');
  t.same(problems, [], 'no console errors or failed requests');
});
