// The dashboard's order page shows the PINs of an education order, each with a copy button
// (docs/api.md "Education and internet": PINs are shown to the account only, on its order).
import t from 'tap';
import { start_server } from './helpers/server.js';
import { launch_browser, open_page, settled, sign_in } from './helpers/browser.js';

t.test('the order page of three WAEC result checkers shows their serials and PINs with a copy button each', async (t) => {
  const server = await start_server(t, { env: { TIME_SCALE: '0.001' } });
  const account = await server.reseller(50_000);
  const bought = await server.api('POST', '/v1/services/education', { key: account.key, body: { product: 'waec-result-checker', quantity: 3, phone: '08031234567', amount: 11_700, pin: '12345' } });
  t.equal(bought.status, 201, `the purchase answers 201 (${bought.text.slice(0, 200)})`);
  const browser = await launch_browser(t);
  const { page } = await open_page(browser, server);
  await sign_in(page, account.email, account.password);
  await settled(page);
  await page.goto(`/dashboard/orders/${bought.body.data.reference}?env=test`);
  const rows = page.getByTestId('order-pin');
  await rows.first().waitFor();
  t.equal(await rows.count(), 3, 'three PIN rows');
  for (const [index, item] of (bought.body.data.pins as { serial: string; pin: string }[]).entries()) {
    const text = await rows.nth(index).textContent();
    t.ok(text?.includes(item.pin), `row ${index + 1} shows its PIN`);
    t.ok(text?.includes(item.serial), `row ${index + 1} shows its serial`);
  }
  t.equal(await page.getByRole('button', { name: /Copy PIN/ }).count(), 3, 'each PIN has a copy button');
});
