// The dashboard's order page shows the purchase's client_reference and metadata (docs/api.md "Client
// references and metadata"), in headless Chromium against a real server.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { launch_browser, open_page, page_fetch, settled, sign_in } from './helpers/browser.js';

t.test('the order page shows the client_reference and every metadata key and value', async (t) => {
  const server = await start_server(t);
  const account = await server.reseller(10_000, {}, { rate_limit_per_minute: 1_000_000 });
  const bought = await server.api('POST', '/v1/services/airtime', {
    key: account.key,
    body: { network: 'mtn', phone: '08011111111', amount: 100, pin: '12345', client_reference: 'invoice:2026-11/042', metadata: { cart: 'C-77', note: 'for Ada' } },
  });
  t.equal(bought.status, 400, 'a slash is outside the client_reference alphabet');
  const ok = await server.api('POST', '/v1/services/airtime', {
    key: account.key,
    body: { network: 'mtn', phone: '08011111111', amount: 100, pin: '12345', client_reference: 'invoice:2026-11.042', metadata: { cart: 'C-77', note: 'for Ada' } },
  });
  t.equal(ok.status, 201, 'the purchase is taken');
  const browser = await launch_browser(t);
  const { page, problems } = await open_page(browser, server);
  await sign_in(page, account.email, account.password);
  await page.goto(`/dashboard/orders/${ok.body.data.reference}?env=test`);
  await settled(page);
  await page.getByTestId('order-client-reference').waitFor();
  t.equal(await page.getByTestId('order-client-reference').textContent(), 'invoice:2026-11.042', 'the page shows the client reference');
  const metadata = await page.getByTestId('order-metadata').textContent();
  for (const text of ['cart', 'C-77', 'note', 'for Ada']) t.ok(metadata?.includes(text), `the metadata shows ${text}`);
  // Find: the orders search takes a client reference and finds its one order.
  const found = await page_fetch(page, 'GET', `/dashboard/api/orders?environment=test&q=${encodeURIComponent('invoice:2026-11.042')}`);
  t.equal(found.status, 200, 'a search by client reference is answered');
  t.same((found.body as any)?.data?.orders?.map((o: { reference: string }) => o.reference), [ok.body.data.reference], 'and finds exactly the order that carries it');
  const none = await page_fetch(page, 'GET', `/dashboard/api/orders?environment=test&q=${encodeURIComponent('invoice:2026-11.043')}`);
  t.same((none.body as any)?.data?.orders, [], 'another client reference finds nothing');
  t.same(problems, [], 'no page errors');
});
