// Headless Chromium for the dashboard's end-to-end tests: Debian's /usr/bin/chromium driven by
// playwright-core (which never downloads a browser). Each test gets a fresh browser profile, a
// browser clock in a zone other than Lagos (so that the Africa/Lagos formatting is really tested),
// a watch on console errors and Content-Security-Policy violations, and a helper that saves a
// screenshot of the current page at desktop and at phone width under test-output/screenshots/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Test } from 'tap';
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type Response } from 'playwright-core';
import { repo_root, type TestServer } from './server.js';

// The tests type-check without the DOM library (they are Node programs): functions that run inside
// the page reach the browser's globals as (globalThis as any), since playwright sends their source
// text to the page, not their closures.

export const chromium_path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const screenshots_dir = join(repo_root, 'test-output', 'screenshots');
export const desktop = { width: 1280, height: 800 };
export const phone = { width: 375, height: 812 };
/** The browser's own time zone in the tests: far from Lagos, so that a wrong zone shows. */
export const browser_time_zone = 'America/New_York';

/**
 * The machine has no network: Chromium's background services (updates, sync, field trials) would
 * only try to connect and fail, so they are switched off.
 */
const chromium_args = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** Launches Chromium with a fresh temporary profile (playwright's launch() makes one per browser). */
export async function launch_browser(t: Teardown): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: chromium_path, headless: true, args: chromium_args, timeout: 30_000 });
  t.teardown(() => browser.close());
  return browser;
}

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors other than failed loads (4xx answers are expected). */
  problems: string[];
  /** Console messages about the Content-Security-Policy. */
  csp_violations: string[];
}

/** A new browser context (its own cookies) on the server, with a page and the watches attached. */
export async function open_page(browser: Browser, server: TestServer): Promise<BrowserSession> {
  const context = await browser.newContext({
    baseURL: server.base,
    viewport: desktop,
    timezoneId: browser_time_zone,
    locale: 'en-US',
    reducedMotion: 'reduce',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const problems: string[] = [];
  const csp_violations: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|Content-Security-Policy/i.test(text)) csp_violations.push(text);
    else if (message.type() === 'error' && !/Failed to load resource/.test(text)) problems.push(`console error: ${text}`);
  });
  return { context, page, problems, csp_violations };
}

/** Signs in through the sign-in form and waits for the dashboard to show. */
export async function sign_in(page: Page, email: string, password: string, path = '/dashboard/'): Promise<void> {
  await page.goto(path);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await Promise.all([
    page.waitForResponse((response) => response.url().includes('/dashboard/api/session') && response.request().method() === 'POST'),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Waits until no loading indicator is on the page (data arrived or an error shows). */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => (globalThis as any).document.querySelector('.loading, [aria-busy="true"]') === null, undefined, { timeout: 15_000 });
}

/**
 * Whether the locator becomes visible within timeout_ms. isVisible() answers at once, and right after a
 * click settled() can pass before the next page has started loading: on a loaded machine (a CI run with
 * busy neighbours) the empty state was not drawn yet and the check failed.
 */
export async function shows(locator: Locator, timeout_ms = 15_000): Promise<boolean> {
  return locator.waitFor({ state: 'visible', timeout: timeout_ms }).then(() => true, () => false);
}

export interface Screenshots {
  paths: string[];
  /** True when, at phone width, something made the page wider than the screen. */
  phone_overflows: boolean;
}

/**
 * Saves the page as it is at 1280×800 and at 375×812 (full page height), as
 * test-output/screenshots/<name>-desktop.png and <name>-phone.png, checks that nothing overflows
 * sideways at phone width, then returns to desktop width.
 */
export async function screenshot(t: Test, page: Page, name: string): Promise<Screenshots> {
  mkdirSync(screenshots_dir, { recursive: true });
  const paths: string[] = [];
  let phone_overflows = false;
  for (const [label, size] of [['desktop', desktop], ['phone', phone]] as const) {
    await page.setViewportSize(size);
    await settled(page);
    // From the top, so that the sticky header is drawn where it belongs in a full-page picture.
    await page.evaluate(() => (globalThis as any).scrollTo(0, 0));
    if (label === 'phone') phone_overflows = await overflows_sideways(page);
    const path = join(screenshots_dir, `${name}-${label}.png`);
    await page.screenshot({ path, fullPage: true, animations: 'disabled' });
    paths.push(path);
  }
  await page.setViewportSize(desktop);
  t.notOk(phone_overflows, `${name}: nothing is wider than a 375 px screen`);
  return { paths, phone_overflows };
}

/** True when the page's content is wider than its viewport (something overflows sideways). */
export async function overflows_sideways(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const root = (globalThis as any).document.documentElement;
    return root.scrollWidth > root.clientWidth + 1;
  });
}

/** Calls the dashboard API from inside the page, with the page's cookie, as the app does. */
export async function page_fetch(page: Page, method: string, path: string, options: { csrf?: string; body?: unknown; idempotency_key?: string } = {}): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ({ method, path, csrf, body, idempotency_key }) => {
      const headers: Record<string, string> = {};
      if (csrf !== undefined) headers['x-csrf-token'] = csrf;
      if (idempotency_key !== undefined) headers['x-idempotency-key'] = idempotency_key;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
      return { status: response.status, body: await response.json().catch(() => null) };
    },
    { method, path, csrf: options.csrf, body: options.body, idempotency_key: options.idempotency_key },
  );
}

/** What the page's clipboard holds (the context may read it: see open_page). */
export async function read_clipboard(page: Page): Promise<string> {
  return page.evaluate(() => (globalThis as any).navigator.clipboard.readText());
}

/** The session cookie's value in a context (for requests made outside the browser). */
export async function session_cookie(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name === 'bv_session');
  return cookie?.value ?? '';
}

/**
 * Tests that run the server with a tiny TIME_SCALE also shrink the session's idle timeout (2 h idle
 * becomes a few seconds): this keeps the context's session in use, as a reseller clicking around
 * would, while the test does slow things such as screenshots. Returns the function that stops it.
 */
export function keep_session_alive(context: BrowserContext, server: TestServer, every_ms = 500): () => void {
  const timer = setInterval(() => {
    session_cookie(context).then(
      (cookie) => (cookie === '' ? undefined : fetch(`${server.base}/dashboard/api/session`, { headers: { cookie: `bv_session=${cookie}` } }).catch(() => undefined)),
      () => undefined,
    );
  }, every_ms);
  return () => clearInterval(timer);
}

/**
 * Waits until a locator matches `count` elements (a list re-rendering after a filter) and returns
 * how many it matches in the end, for the caller's assertion.
 */
export async function wait_for_count(locator: Locator, count: number, timeout_ms = 10_000): Promise<number> {
  const deadline = Date.now() + timeout_ms;
  let seen = await locator.count();
  while (seen !== count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    seen = await locator.count();
  }
  return seen;
}

/**
 * Waits until a form field holds `value` (a field re-filled once the page reloads what was saved) and
 * returns what it holds in the end, for the caller's assertion.
 */
export async function wait_for_value(locator: Locator, value: string, timeout_ms = 10_000): Promise<string> {
  const deadline = Date.now() + timeout_ms;
  let seen = await locator.inputValue();
  while (seen !== value && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    seen = await locator.inputValue();
  }
  return seen;
}

/** Waits for the app's answer to one dashboard API call. */
export function api_response(page: Page, method: string, path_part: string): Promise<Response> {
  return page.waitForResponse((response) => response.request().method() === method && new URL(response.url()).pathname.startsWith(`/dashboard/api${path_part}`));
}

/**
 * Controls on the page that the accessibility tree would leave unnamed: buttons and links without
 * text or aria-label, form fields without a label. Each is described by its tag, name and id.
 */
export async function unnamed_controls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const doc = (globalThis as any).document;
    const unnamed: string[] = [];
    for (const element of doc.querySelectorAll('button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], [role="link"]')) {
      const tag = element.tagName.toLowerCase();
      const aria = (element.getAttribute('aria-label') ?? '').trim() !== '' || (element.getAttribute('aria-labelledby') ?? '') !== '';
      let named = aria;
      if (!named && (tag === 'input' || tag === 'select' || tag === 'textarea')) named = element.labels !== null && element.labels.length > 0;
      if (!named && tag !== 'input' && tag !== 'select' && tag !== 'textarea') named = (element.textContent ?? '').trim() !== '' || element.querySelector('img[alt]:not([alt=""])') !== null;
      if (!named) unnamed.push(`${tag}${element.name ? `[name=${element.name}]` : ''}${element.id ? `#${element.id}` : ''}`);
    }
    return unnamed;
  });
}

/** Whether the element lies wholly inside the current viewport's width (not pushed off-screen sideways). */
export async function within_screen(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const width = locator.page().viewportSize()?.width ?? 0;
  return box !== null && box.x >= 0 && box.x + box.width <= width + 1;
}
