// The dashboard's order page cares for an open order (docs/api.md "Order care"): it shows the order's age and
// when it is expected to be final, a Requery button that asks the upstream now (a second press within 30 s
// is refused with the wait), and for a bulk item still waiting to be sent a Cancel button that refunds it.
// Headless Chromium against a real server and a fake upstream that holds each payment's answer for 90 s, so the
// lane stays full however slowly the browser starts (a 4 s hold was outlived on CI).
import t from 'tap';
import { start_server } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { launch_browser, open_page, screenshot, settled, shows, sign_in } from './helpers/browser.js';
import { balance_kobo, order, wait_for_async, warm_up_live } from './helpers/purchases.js';
import { bulk_sends_in_flight_max } from '../src/services/bulk-send-lane.js';

t.setTimeout(180_000);

t.test('the order page shows age and promise, requeries once per 30 s, and cancels an item not yet sent', async (t) => {
  const upstream = await start_upstream(t);
  const server = await start_server(t, { env: upstream.env(120_000) });
  const account = await server.create_account({ kyc_level: 2 });
  const key = (await server.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
  await server.credit(account.id, 'live', 10_000);
  await warm_up_live(server, key);
  upstream.slow_ms = 90_000;
  upstream.default_mode = 'slow';
  const count = bulk_sends_in_flight_max + 1;
  const items = Array.from({ length: count }, (_, i) => ({ service_type: 'airtime', network: 'mtn', phone: `080300008${String(i).padStart(2, '0')}`, amount: 100 }));
  const placed = await server.api('POST', '/v1/services/bulk', { key, body: { pin: '12345', items } });
  t.equal(placed.status, 202, 'a live bulk order is accepted');
  const references: string[] = placed.body.data.items.map((item: { reference: string }) => item.reference);
  await wait_for_async(async () => (upstream.calls('/api/pay').length >= bulk_sends_in_flight_max ? true : null), 10_000, 'the lane to fill');
  const waiting = references[count - 1];
  t.equal((await order(server, key, waiting)).status, 'pending', 'the last item waits to be sent');

  const browser = await launch_browser(t);
  const { page } = await open_page(browser, server);
  await sign_in(page, account.email, account.password, `/dashboard/orders/${references[0]}?env=live`);
  await settled(page);
  const care = page.getByTestId('order-care');
  await care.waitFor();
  t.match(await page.getByTestId('order-age').textContent(), /^\d+ s$/, 'the processing order shows its age in seconds');
  t.match(await page.getByTestId('order-expected-final').textContent(), /\(in \d+ min \d+ s\)/, 'and when it is expected to be final, minutes away');
  t.equal(await care.getByRole('button', { name: 'Cancel order' }).count(), 0, 'a sent item has no Cancel button');
  const requeries = upstream.calls('/api/requery').length;
  await care.getByRole('button', { name: 'Requery now' }).click();
  t.ok(await shows(care.getByText(/Asked the provider/)), 'Requery now answers what the provider said');
  t.ok(upstream.calls('/api/requery').length > requeries, 'and asked the upstream');
  await care.getByRole('button', { name: 'Requery now' }).click();
  t.ok(await shows(page.getByText(/re-queried less than 30 seconds ago/)), 'a second press at once says to wait');
  await screenshot(t, page, 'order-care-processing');

  await page.goto(`/dashboard/orders/${waiting}?env=live`);
  await settled(page);
  await care.waitFor();
  const before = await balance_kobo(server, key);
  await care.getByRole('button', { name: 'Cancel order' }).click();
  t.ok(await shows(page.getByText('Cancelled before it was sent; the wallet was refunded.')), 'Cancel says the item was refunded');
  t.equal(await balance_kobo(server, key), before + 100_00, 'the wallet got the item back');
  const record = await order(server, key, waiting);
  t.equal(record.failure_reason, 'cancelled', 'the item failed, cancelled');
  await screenshot(t, page, 'order-care-cancelled');
});
