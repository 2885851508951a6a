// Dashboard security (docs/api.md "Dashboard and documentation", point 1), in headless Chromium and over plain HTTP against a
// real server: 5 wrong passwords lock sign-in (for that email from that address: see
// hardening-sign-in.test.ts for other addresses) and the lock lifts; the session cookie is HttpOnly,
// SameSite=Strict, Secure behind HTTPS; one account's session sees nothing of another's; a
// cross-site POST, or one without the CSRF token, changes nothing; signing out ends the session.
//
// TIME_SCALE=0.005: the 15-minute sign-in lock lasts 4.5 s, sessions stay usable for minutes.
import t from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { start_server } from './helpers/server.js';
import { launch_browser, open_page, page_fetch, screenshot, session_cookie, settled, shows, sign_in } from './helpers/browser.js';

const server = await start_server(t, { env: { TIME_SCALE: '0.005', WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' } });
const browser = await launch_browser(t);

/** A request to the dashboard API from outside the browser, with a session cookie of our choosing. */
async function raw_dashboard(method: string, path: string, options: { cookie?: string; csrf?: string; origin?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (options.cookie !== undefined) headers.cookie = `bv_session=${options.cookie}`;
  if (options.csrf !== undefined) headers['x-csrf-token'] = options.csrf;
  if (options.origin !== undefined) headers.origin = options.origin;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(server.base + path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  return { status: response.status, headers: response.headers, body: (await response.json().catch(() => null)) as any };
}

t.test('five wrong passwords lock sign-in, the right one is refused while locked, and the lock lifts', async (t) => {
  const account = await server.create_account();
  const { page, problems, csp_violations } = await open_page(browser, server);
  await page.goto('/dashboard/orders');
  await page.getByRole('heading', { name: 'Sign in to your dashboard' }).waitFor();
  t.ok(new URL(page.url()).pathname.endsWith('/dashboard/sign-in'), 'a dashboard page without a session leads to sign-in');
  await screenshot(t, page, 'sign-in');

  const attempt = async (password: string) => {
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(password);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/dashboard/api/session') && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    await page.getByRole('alert').waitFor();
    return { status: response.status(), body: await response.json(), retry_after: Number(response.headers()['retry-after'] ?? 0), shown: (await page.getByRole('alert').textContent()) ?? '' };
  };

  for (let n = 1; n <= 4; n++) {
    const wrong = await attempt(`wrong password ${n}`);
    t.equal(wrong.body.error.code, 'session.invalid_credentials', `wrong password ${n} is refused`);
    t.equal(wrong.shown, 'Email or password is wrong.', `and the page says so (${n})`);
  }
  const fifth = await attempt('wrong password 5');
  t.equal(fifth.status, 429, 'the fifth wrong password locks sign-in (429)');
  t.equal(fifth.body.error.code, 'session.locked', 'with session.locked');
  t.match(fifth.shown, /locked for \d+ more second/, 'the page shows the server\'s message with the time left');
  const right_but_locked = await attempt(account.password);
  t.equal(right_but_locked.body.error.code, 'session.locked', 'while locked even the right password is refused');
  t.ok(right_but_locked.retry_after >= 1, 'with Retry-After');
  await screenshot(t, page, 'sign-in-locked');

  await new Promise((resolve) => setTimeout(resolve, right_but_locked.retry_after * 1000 + 300));
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  t.ok(new URL(page.url()).pathname.endsWith('/dashboard/orders'), 'after the lock the right password signs in, back to the page asked for');
  t.same(problems, [], 'no script errors in the page');
  t.same(csp_violations, [], 'no Content-Security-Policy violations');
});

t.test('the session cookie is HttpOnly and SameSite=Strict, and Secure when the server is behind HTTPS', async (t) => {
  const account = await server.create_account();
  const { context, page } = await open_page(browser, server);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/dashboard/api/session') && r.request().method() === 'POST'),
    sign_in(page, account.email, account.password),
  ]);
  const set_cookie = (await response.headerValue('set-cookie')) ?? '';
  t.match(set_cookie, /^bv_session=[A-Za-z0-9_-]{40,};/, 'the cookie carries a long random id');
  t.match(set_cookie, /; HttpOnly/, 'HttpOnly');
  t.match(set_cookie, /; SameSite=Strict/, 'SameSite=Strict');
  t.match(set_cookie, /; Path=\//, 'for the whole site');
  t.notMatch(set_cookie, /Secure/, 'not Secure over plain HTTP (the browser would drop it)');
  const cookie = (await context.cookies()).find((c) => c.name === 'bv_session');
  t.ok(cookie?.httpOnly, 'the browser holds it as HttpOnly');
  t.equal(cookie?.sameSite, 'Strict', 'and SameSite=Strict');
  t.notOk(String(await page.evaluate(() => (globalThis as any).document.cookie)).includes('bv_session'), 'page scripts cannot read it');

  const https_server = await start_server(t, { env: { PUBLIC_BASE_URL: 'https://dashboard.billvend.example' } });
  const https_account = await https_server.create_account();
  const signed_in = await https_server.request('POST', '/dashboard/api/session', { body: { email: https_account.email, password: https_account.password } });
  t.equal(signed_in.status, 201, 'sign-in works behind an HTTPS base URL');
  t.match(signed_in.headers.get('set-cookie') ?? '', /; Secure/, 'and the cookie is Secure there');
});

t.test('a second account cannot read or change the first account\'s data', async (t) => {
  const first = await server.reseller(10_000);
  const bought = await server.api('POST', '/v1/services/airtime', { key: first.key, body: { network: 'mtn', phone: '08011111111', amount: 100, pin: first.pin } });
  t.equal(bought.status, 201, 'the first account has an order');
  const reference = bought.body.data.reference as string;
  const hook = await server.api('POST', '/v1/webhooks', { key: first.key, body: { url: 'https://localhost:9/hooks', events: ['wallet.credited'] } });
  t.equal(hook.status, 201, `the first account has a webhook endpoint: ${hook.text}`);
  const endpoint_id = hook.body.data.id as number;

  const second = await server.create_account();
  const { page } = await open_page(browser, server);
  await sign_in(page, second.email, second.password, '/dashboard/orders?env=test');
  await settled(page);
  t.ok(await shows(page.getByText('No test orders yet.')), 'the second account sees no orders');
  await page.goto(`/dashboard/orders/${reference}?env=test`);
  t.ok(await shows(page.getByText('No such order on this side.')), 'the first account\'s order cannot be opened by its reference');
  await page.goto('/dashboard/keys');
  await settled(page);
  t.ok(await shows(page.getByText('No API keys yet.')), 'the first account\'s key is not listed');
  await page.goto('/dashboard/webhooks?env=test');
  await settled(page);
  t.ok(await shows(page.getByText('No test webhook endpoints yet.')), 'nor its webhook endpoint');

  const { csrf_token, account } = (await page_fetch(page, 'GET', '/dashboard/api/session')).body.data;
  t.equal(account.email, second.email, 'the session is the second account\'s');
  const overview = await page_fetch(page, 'GET', '/dashboard/api/overview?environment=test');
  t.equal(overview.body.data.wallets.test.balance, 0, 'its overview shows its own empty wallet, not the first account\'s');
  const order = await page_fetch(page, 'GET', `/dashboard/api/orders/${reference}?environment=test`);
  t.equal(order.status, 404, 'reading the first account\'s order answers 404');
  t.equal(order.body.error.code, 'transaction.not_found', 'transaction.not_found');
  const deliveries = await page_fetch(page, 'GET', `/dashboard/api/webhooks/${endpoint_id}/deliveries?environment=test`);
  t.equal(deliveries.body.error.code, 'webhooks.not_found', 'its webhook deliveries: webhooks.not_found');
  const replay = await page_fetch(page, 'POST', `/dashboard/api/webhooks/${endpoint_id}/deliveries/1/replay?environment=test`, { csrf: csrf_token });
  t.equal(replay.body.error.code, 'webhooks.not_found', 'replaying its deliveries: webhooks.not_found');
  const delete_hook = await page_fetch(page, 'DELETE', `/dashboard/api/webhooks/${endpoint_id}?environment=test`, { csrf: csrf_token });
  t.equal(delete_hook.body.error.code, 'webhooks.not_found', 'deleting its endpoint: webhooks.not_found');
  const revoke = await page_fetch(page, 'DELETE', `/dashboard/api/keys/${first.key_id}`, { csrf: csrf_token });
  t.equal(revoke.status, 404, 'revoking the first account\'s key answers 404');
  t.equal(revoke.body.error.code, 'keys.not_found', 'keys.not_found');

  const still = await server.api('GET', '/v1/account', { key: first.key });
  t.equal(still.status, 200, 'the first account\'s key still works');
  t.equal(still.body.data.email, first.email, 'and still names the first account');
  const hooks = await server.api('GET', '/v1/webhooks', { key: first.key });
  t.equal(hooks.body.data.webhooks.length, 1, 'its webhook endpoint is still there');
});

t.test('a cross-site POST, or one without the CSRF token, is refused and changes nothing', async (t) => {
  const account = await server.create_account();
  const { context, page } = await open_page(browser, server);
  await sign_in(page, account.email, account.password, '/dashboard/keys');
  const cookie = await session_cookie(context);
  const { csrf_token } = (await page_fetch(page, 'GET', '/dashboard/api/session')).body.data;
  const key_body = { name: 'forged', environment: 'test' };

  // Without the browser: the session cookie alone is not enough.
  const no_token = await raw_dashboard('POST', '/dashboard/api/keys', { cookie, body: key_body });
  t.equal(no_token.status, 403, 'a POST with the cookie but no X-CSRF-Token is refused (403)');
  t.equal(no_token.body.error.code, 'session.csrf_failed', 'with session.csrf_failed');
  const wrong_token = await raw_dashboard('POST', '/dashboard/api/keys', { cookie, csrf: 'x'.repeat(32), body: key_body });
  t.equal(wrong_token.body.error.code, 'session.csrf_failed', 'a wrong token is refused');
  const foreign_origin = await raw_dashboard('POST', '/dashboard/api/keys', { cookie, csrf: csrf_token, origin: 'https://evil.example', body: key_body });
  t.equal(foreign_origin.body.error.code, 'session.csrf_failed', 'the right token from another origin is refused');
  const sign_out = await raw_dashboard('DELETE', '/dashboard/api/session', { cookie });
  t.equal(sign_out.body.error.code, 'session.csrf_failed', 'even signing out needs the token');
  const pin = await raw_dashboard('POST', '/dashboard/api/pin', { cookie, body: { new_pin: '99999', password: account.password } });
  t.equal(pin.body.error.code, 'session.csrf_failed', 'and so does changing the PIN');

  // In the browser: a page on another site posts a form at the dashboard API.
  const evil = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><form id="f" method="POST" enctype="text/plain" action="${server.base}/dashboard/api/keys?environment=test">
      <input type="hidden" name='{"name":"evil","environment":"test","pad":"' value='"}'></form>
      <script>document.getElementById('f').submit();</script>`);
  });
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => evil.close(() => resolve())));
  const evil_url = `http://localhost:${(evil.address() as AddressInfo).port}/`;
  const [forged] = await Promise.all([
    page.waitForResponse((r) => r.url().startsWith(`${server.base}/dashboard/api/keys`) && r.request().method() === 'POST'),
    page.goto(evil_url),
  ]);
  const forged_body = await forged.json();
  t.ok([401, 403].includes(forged.status()), `the cross-site form POST is refused (${forged.status()})`);
  t.ok(['session.required', 'session.csrf_failed'].includes(forged_body.error.code), `with ${forged_body.error.code}: the SameSite=Strict cookie was not even sent`);

  // Nothing changed; and with the token from the same origin the same request works.
  await page.goto('/dashboard/keys');
  await settled(page);
  t.ok(await shows(page.getByText('No API keys yet.')), 'no key was created by any of the forged requests');
  const made = await page_fetch(page, 'POST', '/dashboard/api/keys', { csrf: csrf_token, body: { name: 'mine', environment: 'test' } });
  t.equal(made.status, 201, 'the same request from the dashboard itself, with the token, works');
});

t.test('signing out ends the session on the server', async (t) => {
  const account = await server.create_account();
  const { context, page } = await open_page(browser, server);
  await sign_in(page, account.email, account.password);
  const cookie = await session_cookie(context);
  t.equal((await raw_dashboard('GET', '/dashboard/api/session', { cookie })).status, 200, 'the session works before signing out');
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/dashboard/api/session') && r.request().method() === 'DELETE'),
    page.getByRole('button', { name: 'Sign out' }).click(),
  ]);
  t.equal(response.status(), 200, 'the server signed the session out');
  t.match((await response.headerValue('set-cookie')) ?? '', /bv_session=;.*Max-Age=0/, 'and told the browser to drop the cookie');
  await page.getByRole('heading', { name: 'Sign in to your dashboard' }).waitFor();
  t.equal(await session_cookie(context), '', 'the browser no longer holds the cookie');
  const after = await raw_dashboard('GET', '/dashboard/api/session', { cookie });
  t.equal(after.status, 401, 'the old cookie no longer opens the session');
  t.equal(after.body.error.code, 'session.required', 'session.required');
});
