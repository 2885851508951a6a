// The built browser side (docs/api.md "Dashboard and documentation", points 3 and 4): the documentation site at /docs with
// the getting-started page and the OpenAPI document rendered by Swagger UI from our own server (no
// CDN, nothing blocked by the Content-Security-Policy), and the dashboard's files served with the
// right content types and cache headers: pages revalidated, fingerprinted assets immutable.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { launch_browser, open_page, read_clipboard, screenshot, settled, shows, sign_in } from './helpers/browser.js';

const server = await start_server(t);
const browser = await launch_browser(t);

/** The script and stylesheet URLs a built page loads. */
function asset_urls(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="(\/[^"]+\/assets\/[^"]+)"/g)].map((m) => m[1]);
}

t.test('pages are revalidated and fingerprinted assets are cached for a year, each with its content type', async (t) => {
  for (const page of ['/dashboard/', '/docs/', '/docs/reference']) {
    const response = await fetch(server.base + page);
    const html = await response.text();
    t.equal(response.status, 200, `${page} answers 200`);
    t.equal(response.headers.get('content-type'), 'text/html; charset=utf-8', `${page} is HTML`);
    t.equal(response.headers.get('cache-control'), 'no-cache', `${page} is revalidated on every load`);
    t.match(response.headers.get('content-security-policy') ?? '', /script-src 'self'/, `${page} runs only our own scripts`);
    t.notMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, `${page} has no inline script`);
    const etag = response.headers.get('etag') ?? '';
    const again = await fetch(server.base + page, { headers: { 'if-none-match': etag } });
    t.equal(again.status, 304, `${page} answers 304 to its own ETag`);

    const assets = asset_urls(html);
    t.ok(assets.length >= 2, `${page} loads a script and a stylesheet from assets/`);
    for (const url of assets) {
      const asset = await fetch(server.base + url);
      await asset.arrayBuffer();
      t.equal(asset.status, 200, `${url} answers 200`);
      t.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable', `${url} is cached for a year, immutable`);
      const expected = url.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8';
      t.equal(asset.headers.get('content-type'), expected, `${url} is served as ${expected}`);
    }
  }
  const app_route = await fetch(`${server.base}/dashboard/orders/BV-20260101-ABCDEFGHJKMN?env=test`);
  t.equal(app_route.status, 200, 'an app route that is no file answers with the app page (client-side routing)');
  t.match(await app_route.text(), /<div id="app">/, 'that page is the dashboard app');
  const front = await fetch(server.base + '/', { redirect: 'manual' });
  t.equal(front.headers.get('location'), '/docs/', 'the front page leads to the documentation');
});

t.test('the getting-started page shows curl examples for the sandbox numbers against this server', async (t) => {
  const { page, problems, csp_violations } = await open_page(browser, server);
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(server.base) && !request.url().startsWith('data:')) foreign.push(request.url());
  });
  await page.goto('/docs/');
  await page.getByRole('heading', { name: 'Getting started' }).waitFor();
  const setup = page.locator('code[data-base-line]');
  t.match(await setup.textContent(), new RegExp(`^export BASE=${server.base.replace(/[.]/g, '\\.')}$`, 'm'), 'the examples name this server');
  const text = (await page.locator('main').textContent()) ?? '';
  for (const number of ['08011111111', '08022222222', '08033333333', '08044444444', '08055555555', '1111111111111', '1212121212']) {
    t.ok(text.includes(number), `the sandbox number ${number} is documented`);
  }
  t.ok(text.includes('curl -s -X POST "$BASE/v1/services/airtime"'), 'with a curl purchase');
  await page.locator('#airtime pre').first().getByRole('button', { name: 'Copy' }).click();
  t.match(await read_clipboard(page), /^curl -s -X POST "\$BASE\/v1\/services\/airtime"/, 'an example copies with one click');
  await screenshot(t, page, 'docs-getting-started');
  t.same(foreign, [], 'the page loads nothing from other sites');
  t.same(problems, [], 'no script errors in the page');
  t.same(csp_violations, [], 'no Content-Security-Policy violations');
});

t.test('the API reference renders the generated OpenAPI document with Swagger UI served locally', async (t) => {
  const { page, problems, csp_violations } = await open_page(browser, server);
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(server.base) && !request.url().startsWith('data:')) foreign.push(request.url());
  });
  const [document_response] = await Promise.all([
    page.waitForResponse((r) => r.url() === `${server.base}/v1/openapi.json`),
    page.goto('/docs/reference'),
  ]);
  const openapi = await document_response.json();
  await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
  t.ok(((await page.locator('.swagger-ui .title').textContent()) ?? '').includes(openapi.info.title), 'the document\'s title shows');
  const shown = await page.locator('.opblock-summary-path').allTextContents();
  const paths = Object.keys(openapi.paths);
  t.ok(paths.length > 10, 'the document lists the API');
  for (const path of ['/v1/services/airtime', '/v1/transactions/{reference}', '/v1/keys/{id}']) {
    t.ok(shown.some((s) => s.replace(/\u200b/g, '') === path), `${path} is rendered`);
  }
  await page.locator('.opblock-summary-path', { hasText: '/v1/services/airtime' }).first().click();
  await page.locator('.opblock.is-open').first().waitFor();
  t.ok(await shows(page.locator('.opblock.is-open .responses-wrapper').first()), 'an operation opens with its responses');
  await screenshot(t, page, 'docs-reference');
  t.same(foreign, [], 'the viewer loads nothing from other sites (no CDN)');
  t.same(problems, [], 'no script errors in the page');
  t.same(csp_violations, [], 'the viewer runs under the strict Content-Security-Policy');
});

t.test('a new account sees empty states, and an unknown dashboard page says so', async (t) => {
  const account = await server.create_account({ kyc_level: 1 });
  const { page, problems, csp_violations } = await open_page(browser, server);
  await sign_in(page, account.email, account.password);
  await settled(page);
  t.equal(await page.getByTestId('balance-live').textContent(), '₦0.00', 'an empty live wallet');
  t.ok(await shows(page.getByText('of ₦50,000.00')), 'the KYC level 1 daily limit is shown');
  t.ok(await shows(page.getByText('No live orders yet.')), 'no orders yet: the empty state shows');
  await screenshot(t, page, 'overview-new-account');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Wallet' }).click();
  t.ok(await shows(page.getByText('No wallet movements yet.')), 'the wallet history has an empty state');
  await page.goto('/dashboard/no-such-page');
  t.ok(await shows(page.getByText('There is no such page.')), 'an unknown dashboard address shows a not-found page inside the app');
  await screenshot(t, page, 'not-found');
  t.same(problems, [], 'no script errors in the page');
  t.same(csp_violations, [], 'no Content-Security-Policy violations');
});
