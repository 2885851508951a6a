// Dashboard, the low-balance alert (docs/api.md "Low-balance alert", "The integrator's toolkit in the
// dashboard"): in headless Chromium against a real server, a reseller sets the threshold of each side
// on the Wallet page, sees it kept after a reload, has a bad value refused with the server's message,
// and turns it off; at desktop width on the test side and at phone width on the live side, each side
// keeping its own. The setting is the API's own (GET /v1/account shows it, a debit that crosses it
// sends wallet.low_balance), and a change without the session's CSRF token is refused.
import t from 'tap';
import type { Page } from 'playwright-core';
import { start_server, type TestServer } from './helpers/server.js';
import { buy_airtime } from './helpers/purchases.js';
import { api_response, desktop, launch_browser, open_page, page_fetch, phone, screenshot, settled, shows, sign_in, unnamed_controls, within_screen } from './helpers/browser.js';

async function threshold_of(server: TestServer, key: string): Promise<number | null> {
  const response = await server.api('GET', '/v1/account', { key });
  if (response.status !== 200) throw new Error(`GET /v1/account answered ${response.status} ${response.text}`);
  return response.body.data.low_balance_threshold;
}

/** Types a threshold into the Wallet page's form and saves it; returns the server's answer status. */
async function save_threshold(page: Page, text: string): Promise<number> {
  const card = page.getByTestId('low-balance-alert');
  await card.getByLabel('Alert below (₦)').fill(text);
  const [answer] = await Promise.all([api_response(page, 'PATCH', '/account'), card.getByRole('button', { name: 'Save alert' }).click()]);
  return answer.status();
}

t.test('a reseller sets, sees after a reload, is refused a bad value and clears the low-balance alert of each side, at desktop and phone width', async (t) => {
  const server = await start_server(t, { env: { LOG_LEVEL: 'warn' } });
  const reseller = await server.reseller(1_000, {}, { rate_limit_per_minute: 1_000_000 });
  const live = await server.create_key(reseller.id, { environment: 'live' });
  const keys = { test: reseller.key, live: live.api_key };
  const browser = await launch_browser(t);
  const { page, problems, csp_violations } = await open_page(browser, server);
  await sign_in(page, reseller.email, reseller.password);

  for (const [side, size, other] of [['test', desktop, 'live'], ['live', phone, 'test']] as const) {
    const width = size === phone ? 'phone' : 'desktop';
    await page.setViewportSize(size);
    await page.goto(`/dashboard/wallet${side === 'test' ? '?env=test' : ''}`);
    await settled(page);
    const card = page.getByTestId('low-balance-alert');
    const current = card.getByTestId('low-balance-current');
    t.ok(await shows(current.getByText('Off: no alert is sent.')), `${side} side (${width}): the alert starts off`);
    for (const name of ['Save alert']) {
      const control = card.getByRole('button', { name });
      await control.scrollIntoViewIfNeeded();
      t.ok(await within_screen(control), `${side} side (${width}): "${name}" is on screen`);
    }

    t.equal(await save_threshold(page, '5,000.50'), 200, `${side} side (${width}): the server saved the threshold`);
    t.ok(await shows(card.getByText(/Low-balance alert saved: below ₦5,000\.50\./)), `${side} side (${width}): the page says it was saved`);
    t.equal(await threshold_of(server, keys[side]), 5000.5, `${side} side: GET /v1/account with a ${side} key shows NGN 5,000.50`);
    t.equal(await threshold_of(server, keys[other]), null, `${side} side: the ${other} side keeps its own setting (off)`);
    await page.reload();
    await settled(page);
    t.ok(await shows(current.getByText(/Alert below ₦5,000\.50\./)), `${side} side (${width}): after a reload the page shows the saved threshold`);

    for (const bad of ['12.345', '-5', 'lots']) {
      t.equal(await save_threshold(page, bad), 400, `${side} side (${width}): "${bad}" is refused by the server`);
      const banner = card.getByRole('alert');
      t.ok(await shows(banner), `${side} side (${width}): "${bad}": an error shows`);
      t.equal(await banner.getAttribute('data-error-code'), 'validation.failed', `${side} side: "${bad}" is validation.failed`);
      t.match((await banner.textContent()) ?? '', /low_balance_threshold/, `${side} side: "${bad}": the message names the field`);
      t.equal(await threshold_of(server, keys[side]), 5000.5, `${side} side: "${bad}" changed nothing`);
    }
    t.same(await unnamed_controls(page), [], `${side} side (${width}): every control on the Wallet page has a name`);
    await screenshot(t, page, `wallet-low-balance-${side}`);
    await page.setViewportSize(size);

    const turn_off = card.getByRole('button', { name: 'Turn off' });
    await turn_off.scrollIntoViewIfNeeded();
    t.ok(await within_screen(turn_off), `${side} side (${width}): "Turn off" is on screen`);
    const [cleared] = await Promise.all([api_response(page, 'PATCH', '/account'), turn_off.click()]);
    t.equal(cleared.status(), 200, `${side} side (${width}): the server cleared the threshold`);
    t.ok(await shows(card.getByText('Low-balance alert turned off.')), `${side} side (${width}): the page says it is off`);
    t.equal(await threshold_of(server, keys[side]), null, `${side} side: GET /v1/account shows no threshold`);
    await page.reload();
    await settled(page);
    t.ok(await shows(current.getByText('Off: no alert is sent.')), `${side} side (${width}): after a reload the alert is still off`);
    t.equal(await card.getByRole('button', { name: 'Turn off' }).count(), 0, `${side} side (${width}): nothing to turn off`);
  }
  t.same(problems, [], 'no script errors in the page');
  t.same(csp_violations, [], 'no Content-Security-Policy violations');
});

t.test('a threshold set in the dashboard is the one a debit crosses, and the route refuses a change without the CSRF token', async (t) => {
  const server = await start_server(t, { env: { LOG_LEVEL: 'warn' } });
  const reseller = await server.reseller(1_000, {}, { rate_limit_per_minute: 1_000_000 });
  const browser = await launch_browser(t);
  const { page } = await open_page(browser, server);
  await sign_in(page, reseller.email, reseller.password, '/dashboard/wallet?env=test');
  await settled(page);
  t.equal(await save_threshold(page, '950'), 200, 'NGN 950 saved from the dashboard');
  await buy_airtime(server, reseller.key, '08031234567', 100); // 1,000 → 900: below 950
  const events = await server.api('GET', '/v1/events?limit=100&type=wallet.low_balance', { key: reseller.key });
  t.equal(events.body.data.events.length, 1, 'the debit that crossed it sent one wallet.low_balance');
  t.equal(events.body.data.events[0]?.data?.threshold, 950, 'naming the dashboard\'s threshold');

  const refused = await page_fetch(page, 'PATCH', '/dashboard/api/account?environment=test', { body: { low_balance_threshold: 10 } });
  t.equal(refused.status, 403, 'PATCH /dashboard/api/account without the CSRF token is refused');
  t.equal(refused.body?.error?.code, 'session.csrf_failed', 'with session.csrf_failed');
  const wrong = await page_fetch(page, 'PATCH', '/dashboard/api/account?environment=test', { csrf: 'not-the-token', body: { low_balance_threshold: 10 } });
  t.equal(wrong.status, 403, 'a wrong CSRF token is refused too');
  t.equal(await threshold_of(server, reseller.key), 950, 'neither changed the threshold');
  const session = await page_fetch(page, 'GET', '/dashboard/api/session');
  const csrf = session.body.data.csrf_token as string;
  const bad = await page_fetch(page, 'PATCH', '/dashboard/api/account?environment=test', { csrf, body: { low_balance_threshold: '950' } });
  t.equal(bad.status, 400, 'with the token, a string threshold is 400');
  t.same(bad.body?.error?.details?.map((d: { field: string }) => d.field), ['low_balance_threshold'], 'naming low_balance_threshold');
  const missing = await page_fetch(page, 'PATCH', '/dashboard/api/account?environment=test', { csrf, body: {} });
  t.equal(missing.status, 400, 'a body without the threshold is 400');
  t.equal(await threshold_of(server, reseller.key), 950, 'and neither changed it');
  const ok = await page_fetch(page, 'PATCH', '/dashboard/api/account?environment=test', { csrf, body: { low_balance_threshold: null } });
  t.equal(ok.status, 200, 'with the token, null clears it');
  t.equal(ok.body?.data?.low_balance_threshold, null, 'and the answer says so');
  const signed_out = await fetch(`${server.base}/dashboard/api/account?environment=test`);
  t.equal(signed_out.status, 401, 'without a session the setting is not shown');
});
