// Dashboard, the orders list and its export with the reseller's own references (docs/api.md "Client
// references and metadata", "The integrator's toolkit in the dashboard"): each order row shows the
// client_reference under our reference (the list did not show it), the search form finds an order by
// it and keeps it in the address, Clear empties the filters, and the orders CSV ends with
// client_reference and metadata as the API's export writes them (the dashboard's export had neither).
// In headless Chromium against a real server.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { launch_browser, open_page, screenshot, session_cookie, settled, shows, sign_in, wait_for_count } from './helpers/browser.js';

t.test('the orders list shows each order\'s client reference, finds an order by it, and the CSV carries client_reference and metadata', async (t) => {
  const server = await start_server(t, { env: { LOG_LEVEL: 'warn' } });
  const reseller = await server.reseller(10_000, {}, { rate_limit_per_minute: 1_000_000 });
  const metadata = { cart: 'C-77', note: 'for Ada, "urgent"' };
  const tagged = await server.api('POST', '/v1/services/airtime', {
    key: reseller.key,
    body: { network: 'mtn', phone: '08011111111', amount: 100, pin: reseller.pin, client_reference: 'INV-2026.0042', metadata },
  });
  t.equal(tagged.status, 201, `the purchase with a client reference is taken (${tagged.text.slice(0, 200)})`);
  const plain = await server.api('POST', '/v1/services/airtime', { key: reseller.key, body: { network: 'glo', phone: '08011111111', amount: 200, pin: reseller.pin } });
  t.equal(plain.status, 201, 'a purchase without one is taken');
  const tagged_reference = tagged.body.data.reference as string;
  const plain_reference = plain.body.data.reference as string;

  const browser = await launch_browser(t);
  const { context, page, problems, csp_violations } = await open_page(browser, server);
  await sign_in(page, reseller.email, reseller.password, '/dashboard/orders?env=test');
  await settled(page);
  const rows = page.getByTestId('orders-table').locator('tbody tr');
  t.equal(await wait_for_count(rows, 2), 2, 'both orders are listed');
  const tagged_row = page.locator(`tr[data-reference="${tagged_reference}"]`);
  t.equal(await tagged_row.getByTestId('order-row-client-reference').textContent(), 'INV-2026.0042', 'the row shows the client reference');
  t.equal(await page.locator(`tr[data-reference="${plain_reference}"]`).getByTestId('order-row-client-reference').count(), 0, 'an order without one shows none');
  await screenshot(t, page, 'orders-client-reference');

  await page.getByLabel('Search').fill('INV-2026.0042');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  t.equal(await wait_for_count(rows, 1), 1, 'a search by the client reference finds its one order');
  t.equal(await rows.first().getAttribute('data-reference'), tagged_reference, 'the tagged order');
  t.equal(new URL(page.url()).searchParams.get('q'), 'INV-2026.0042', 'the search is in the address');
  await page.reload();
  await settled(page);
  t.equal(await page.getByLabel('Search').inputValue(), 'INV-2026.0042', 'after a reload the form shows the search');
  t.equal(await wait_for_count(rows, 1), 1, 'and the list is still filtered');

  const href = (await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')) ?? '';
  t.match(href, /q=INV-2026\.0042/, 'the CSV export follows the search');
  const cookie = await session_cookie(context);
  const exported = await fetch(`${server.base}${href}`, { headers: { cookie: `bv_session=${cookie}` } });
  t.equal(exported.status, 200, 'the export answers 200');
  const lines = (await exported.text()).trim().split('\r\n');
  t.equal(lines[0], 'reference,service,provider,plan,recipient,customer_name,amount,status,token,units,created_at,amount_charged,commission,client_reference,metadata', 'the header ends with client_reference and metadata');
  t.equal(lines.length, 2, 'one order');
  t.ok(lines[1].startsWith(`${tagged_reference},airtime,mtn,`), `the tagged order (${lines[1]})`);
  t.ok(lines[1].endsWith(`,INV-2026.0042,"${JSON.stringify(metadata).replace(/"/g, '""')}"`), `its client reference, then its metadata as quoted JSON (${lines[1]})`);

  await page.getByRole('button', { name: 'Clear' }).click();
  t.equal(await wait_for_count(rows, 2), 2, 'Clear shows every order again');
  t.equal(await page.getByLabel('Search').inputValue(), '', 'and empties the search');
  t.notOk(new URL(page.url()).searchParams.has('q'), 'and the address');
  const all = await fetch(`${server.base}/dashboard/api/export/orders?environment=test`, { headers: { cookie: `bv_session=${cookie}` } });
  const plain_line = (await all.text()).trim().split('\r\n').find((line) => line.startsWith(plain_reference)) ?? '';
  t.ok(plain_line.endsWith(',,'), `an order without a client reference or metadata ends with two empty cells (${plain_line})`);

  // The overview's recent orders use the same table.
  await page.goto('/dashboard/?env=test');
  await settled(page);
  t.ok(await shows(page.locator(`tr[data-reference="${tagged_reference}"]`).getByTestId('order-row-client-reference')), 'the overview\'s recent orders show it too');
  t.same(problems, [], 'no script errors in the page');
  t.same(csp_violations, [], 'no Content-Security-Policy violations');
});
