// The dashboard's order page shows the upstream attempts of a live order (docs/api.md "Upstream attempts"):
// an order the first upstream refused ("not processed") and the second delivered shows both, in turn,
// with their request ids, in headless Chromium against a real server and two fake upstreams.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { start_flutterwave } from './helpers/fake-flutterwave.js';
import { launch_browser, open_page, screenshot, settled, sign_in } from './helpers/browser.js';
import { buy_airtime, settled_order, warm_up_live } from './helpers/purchases.js';

t.test('the order page lists each upstream an order was handed to, with its request id and outcome', async (t) => {
  const vtpass = await start_upstream(t);
  const flw = await start_flutterwave(t);
  const server = await start_server(t, {
    env: {
      TIME_SCALE: '0.5',
      UPSTREAMS: JSON.stringify([
        { name: 'vtpass', kind: 'vtpass', base_url: vtpass.base_url, api_key: 'fake-api-key', secret_key: 'fake-secret-key', timeout_ms: 1000 },
        flw.upstream('flw', 1000),
      ]),
    },
  });
  const account = await server.create_account({ kyc_level: 2 });
  const key = (await server.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
  await server.credit(account.id, 'live', 1_000);
  await warm_up_live(server, key);
  vtpass.set_mode('08062000901', 'refuse');
  const bought = await buy_airtime(server, key, '08062000901', 100);
  t.equal(bought.status, 201, `the purchase is taken (${bought.text.slice(0, 100)})`);
  const record = await settled_order(server, key, bought.body.data.reference);
  t.equal(record.status, 'delivered', 'and delivered by the second upstream');

  const browser = await launch_browser(t);
  const { page } = await open_page(browser, server);
  await sign_in(page, account.email, account.password, `/dashboard/orders/${record.reference}?env=live`);
  await settled(page);
  const table = page.getByTestId('upstream-attempts');
  await table.waitFor();
  const rows = await table.locator('tbody tr').allTextContents();
  t.equal(rows.length, 2, 'two attempts are listed');
  t.match(rows[0], /vtpass/, 'the first names vtpass');
  t.match(rows[0], /failed/, 'which refused it');
  t.match(rows[0], new RegExp(record.attempts[0].request_id), 'with the request id it was sent');
  t.match(rows[1], /flw/, 'the second names Flutterwave');
  t.match(rows[1], /delivered/, 'which delivered it');
  t.match(rows[1], new RegExp(record.attempts[1].request_id), 'with its own request id');
  await screenshot(t, page, 'order-upstream-attempts');
});
