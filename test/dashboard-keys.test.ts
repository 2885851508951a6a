// Dashboard, API keys (docs/api.md "Dashboard and documentation", point 2): in headless Chromium against a real server, a
// reseller creates a key with a name, an environment, scopes and an IP allowlist, sees its secret
// once (and copies it), uses it, revokes it after confirming, and the API then refuses it with
// 401 auth.key_not_found.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { api_response, launch_browser, open_page, read_clipboard, screenshot, settled, shows, sign_in } from './helpers/browser.js';

t.test('a reseller creates a scoped key, sees its secret once, revokes it and the API refuses it', async (t) => {
  const server = await start_server(t);
  const account = await server.create_account();
  await server.credit(account.id, 'test', 25_000);
  const browser = await launch_browser(t);
  const { page, problems, csp_violations } = await open_page(browser, server);

  await sign_in(page, account.email, account.password);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'API keys' }).click();
  await settled(page);
  t.ok(await shows(page.getByText('No API keys yet.')), 'an account without keys sees the empty state');
  await screenshot(t, page, 'keys-empty');

  // Create: name, test environment, two scopes, an allowlist that admits this machine.
  await page.getByLabel('Name').fill('POS fleet, Ikeja');
  await page.getByLabel('Test (sandbox)').check();
  await page.getByLabel('Full access (every endpoint)').uncheck();
  await page.getByLabel(/wallet:read/).uncheck();
  t.ok(await page.getByLabel(/services:purchase/).isChecked(), 'services:purchase stays chosen');
  t.ok(await page.getByLabel(/transactions:read/).isChecked(), 'transactions:read stays chosen');
  await page.getByLabel('IP allowlist (optional)').fill('127.0.0.1\n10.0.0.0/8');
  const [created_response] = await Promise.all([api_response(page, 'POST', '/keys'), page.getByRole('button', { name: 'Create key' }).click()]);
  t.equal(created_response.status(), 201, 'the server created the key');
  const secret_panel = page.getByTestId('secret-panel');
  await secret_panel.waitFor();
  const secret = (await page.getByTestId('secret-value').textContent()) ?? '';
  t.match(secret, /^bv_test_[0-9A-Za-z]{32,}$/, 'the full test key is shown');
  t.ok(await shows(secret_panel.getByText('It is shown only once')), 'the panel says the secret is shown once');

  await secret_panel.getByRole('button', { name: 'Copy' }).click();
  await secret_panel.getByRole('button', { name: 'Copied ✓' }).waitFor();
  const clipboard = await read_clipboard(page);
  t.equal(clipboard, secret, 'the copy button puts the exact key on the clipboard');
  await screenshot(t, page, 'keys-secret-shown');

  // The key works, within its scopes and allowlist.
  const orders = await server.api('GET', '/v1/transactions', { key: secret });
  t.equal(orders.status, 200, `the new key reads orders (transactions:read): ${orders.text}`);
  const wallet = await server.api('GET', '/v1/wallet', { key: secret });
  t.equal(wallet.status, 403, 'the new key may not read the wallet');
  t.equal(wallet.body?.error?.code, 'auth.insufficient_scope', 'a missing scope answers auth.insufficient_scope');

  // Closing the panel removes the secret for good; the list shows only the hint.
  await secret_panel.getByRole('button', { name: 'I have saved it' }).click();
  t.equal(await page.getByTestId('secret-panel').count(), 0, 'the secret panel is gone');
  t.notOk((await page.content()).includes(secret), 'the secret is nowhere on the page after closing');
  await page.reload();
  await settled(page);
  t.notOk((await page.content()).includes(secret), 'a reload does not bring the secret back');
  const row = page.getByTestId('keys-table').locator('tbody tr', { hasText: 'POS fleet, Ikeja' });
  t.equal(await row.count(), 1, 'the key is listed');
  const row_text = (await row.textContent()) ?? '';
  t.ok(row_text.includes(secret.slice(-4)), 'the list shows the key hint (last characters)');
  t.ok(row_text.includes('services:purchase, transactions:read'), 'the list shows the scopes');
  t.ok(row_text.includes('127.0.0.1, 10.0.0.0/8'), 'the list shows the IP allowlist');
  t.ok(row_text.includes('Just now'), 'the list shows when the key was last used');
  t.ok(await shows(row.getByText('test', { exact: true })), 'the list shows the environment');

  // Revoke: asked first; cancelling changes nothing.
  await row.getByRole('button', { name: 'Revoke' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  t.ok((await dialog.textContent())?.includes('auth.key_not_found'), 'the confirmation says what the API will answer');
  await screenshot(t, page, 'keys-revoke-confirm');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  t.equal((await server.api('GET', '/v1/transactions', { key: secret })).status, 200, 'cancelling the dialog leaves the key working');

  await row.getByRole('button', { name: 'Revoke' }).click();
  const [revoked] = await Promise.all([api_response(page, 'DELETE', '/keys/'), page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click()]);
  t.equal(revoked.status(), 200, 'the server revoked the key');
  await page.getByText('Key “POS fleet, Ikeja” revoked.').waitFor();
  await settled(page);
  t.ok(await shows(page.getByText('No API keys yet.')), 'the revoked key leaves the list');

  const refused = await server.api('GET', '/v1/transactions', { key: secret });
  t.equal(refused.status, 401, 'the API refuses the revoked key');
  t.equal(refused.body?.error?.code, 'auth.key_not_found', 'with auth.key_not_found');

  t.same(problems, [], 'no script errors in the page');
  t.same(csp_violations, [], 'no Content-Security-Policy violations');
});

t.test('a validation error from the server is shown with its message and field', async (t) => {
  const server = await start_server(t);
  const account = await server.create_account();
  const browser = await launch_browser(t);
  const { page } = await open_page(browser, server);
  await sign_in(page, account.email, account.password, '/dashboard/keys');
  await settled(page);
  await page.getByLabel('Name').fill('Bad allowlist');
  await page.getByLabel('IP allowlist (optional)').fill('not-an-address');
  await page.getByRole('button', { name: 'Create key' }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  const text = (await alert.textContent()) ?? '';
  t.ok(text.includes('must be an IPv4/IPv6 address or CIDR block'), `the server's message is shown: ${text}`);
  t.ok(text.includes('ip_allowlist.0'), 'the failing field is named');
  t.equal(await page.getByTestId('secret-panel').count(), 0, 'no secret panel for a refused key');
});
