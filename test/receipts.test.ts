// Receipts and re-delivery (docs/api.md "Receipts and re-delivery"): an order's customer copy as HTML or PDF
// (token, units, PINs where the key may see them, the reseller's name, everything escaped), other tenants'
// references 404, the dashboard's copy; a settled order's final event re-sent with a new id and resent: true,
// in the feed too, 409 without an endpoint or for an open order, once a minute per order. The PDFs are
// rendered with poppler (pdftoppm, pdftotext) as a printer would get them.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start_server, type TestServer } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { buy, buy_airtime, check_error, electricity_body, fast_reseller, idem } from './helpers/purchases.js';

const server = await start_server(t, { env: webhook_env() });
const receiver = new WebhookReceiver();
await receiver.start();
t.teardown(() => receiver.stop());

async function get_raw(s: TestServer, path: string, headers: Record<string, string>): Promise<{ status: number; type: string; bytes: Buffer; headers: Headers }> {
  const response = await fetch(`${s.base}${path}`, { headers });
  return { status: response.status, type: response.headers.get('content-type') ?? '', bytes: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}

const hostile = '<script>alert(1)</script>"\'&';
const reseller = await fast_reseller(server, 100_000, { name: `Mama <b>Ngozi</b> & Sons "POS"` });
const auth = { authorization: `Bearer ${reseller.key}` };
const power = await buy(server, reseller.key, '/v1/services/electricity', electricity_body('1111111111111', 1500, { client_reference: `POS-${process.pid}-0001`, metadata: { note: hostile, customer: '<img src=x onerror=alert(1)>', [`k${'<'}x`]: '</dd><script>x()</script>' } }));
const exam = await buy(server, reseller.key, '/v1/services/education', { product: 'waec-result-checker', quantity: 2, phone: '08011111111', amount: 7800, pin: '12345' });
const failed = await buy_airtime(server, reseller.key, '08022222222', 100);
const slow = await buy_airtime(server, reseller.key, '08033333333', 100);

function render(pdf: Buffer): { text: string; pages: { width: number; height: number; bytes: number }[]; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bv-receipt-'));
  writeFileSync(join(dir, 'doc.pdf'), pdf);
  execFileSync('pdftoppm', ['-png', '-r', '60', join(dir, 'doc.pdf'), join(dir, 'page')]);
  const text = execFileSync('pdftotext', ['-layout', join(dir, 'doc.pdf'), '-']).toString();
  const pages = readdirSync(dir).filter((f) => f.endsWith('.png')).sort().map((f) => {
    const png = readFileSync(join(dir, f));
    // The PNG's IHDR: width and height, big-endian, at bytes 16 and 20.
    return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), bytes: png.length };
  });
  return { text, pages, dir };
}

t.test('the receipt is HTML by default, the customer\'s copy: reference, amount, token, units, the reseller\'s name', async (t) => {
  t.equal(power.status, 201, `the electricity purchase is delivered (${power.text.slice(0, 200)})`);
  const raw = await get_raw(server, `/v1/transactions/${power.body.data.reference}/receipt`, auth);
  t.equal(raw.status, 200, 'answers 200');
  t.match(raw.type, /^text\/html/, 'text/html');
  const html = raw.bytes.toString('utf8');
  t.ok(html.includes(power.body.data.reference), 'the reference');
  t.ok(html.includes(power.body.data.token), 'the token');
  t.ok(html.includes(power.body.data.units), 'the units');
  t.ok(html.includes('NGN 1,500.00'), 'the amount');
  t.ok(html.includes('Mama &lt;b&gt;Ngozi&lt;/b&gt; &amp; Sons &quot;POS&quot;'), 'the reseller\'s name, escaped');
  t.notOk(html.includes('amount_charged') || html.includes('Commission'), 'never what the reseller paid');
  t.match(raw.headers.get('content-security-policy'), /default-src 'none'.*style-src 'sha256-/, 'a policy that lets only its own style in');
  t.equal(raw.headers.get('x-content-type-options'), 'nosniff', 'nosniff');
});

t.test('HTML escapes everything from outside: hostile metadata and the reseller\'s name stay text', async (t) => {
  const html = (await get_raw(server, `/v1/transactions/${power.body.data.reference}/receipt`, auth)).bytes.toString('utf8');
  t.notOk(/<script|<img|<b>|<\/dd><script/i.test(html), 'no markup from the input survives (every < of it is &lt;)');
  t.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;'), 'the metadata is shown, escaped');
  t.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'), 'an HTML tag in a value is shown as text');
  t.ok(html.includes(`POS-${process.pid}-0001`), 'the client reference is shown');
  t.ok(html.includes('k&lt;x'), 'a metadata key is escaped too');
});

t.test('PDF by Accept or format=pdf; rendered, it shows the reference, amount and token', async (t) => {
  const by_accept = await get_raw(server, `/v1/transactions/${power.body.data.reference}/receipt`, { ...auth, accept: 'application/pdf' });
  t.equal(by_accept.status, 200, 'Accept: application/pdf answers 200');
  t.equal(by_accept.type, 'application/pdf', 'application/pdf');
  const by_format = await get_raw(server, `/v1/transactions/${power.body.data.reference}/receipt?format=pdf`, auth);
  t.equal(by_format.type, 'application/pdf', 'format=pdf too');
  const html_wins = await get_raw(server, `/v1/transactions/${power.body.data.reference}/receipt?format=html`, { ...auth, accept: 'application/pdf' });
  t.match(html_wins.type, /^text\/html/, 'format wins over Accept');
  const { text, pages, dir } = render(by_format.bytes);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  t.equal(pages.length, 1, 'one page');
  t.ok(pages[0].width > 400 && pages[0].width < 600 && pages[0].height > 600 && pages[0].height < 800, `an A4 page at 60 dpi (${pages[0].width}×${pages[0].height})`);
  t.ok(pages[0].bytes > 3_000, `the page is not blank (${pages[0].bytes} bytes of PNG)`);
  t.ok(text.includes(power.body.data.reference), 'pdftotext finds the reference');
  t.ok(text.includes('NGN 1,500.00'), 'the amount');
  t.ok(text.includes(power.body.data.token), 'the token');
  t.ok(text.includes('Mama <b>Ngozi</b> & Sons "POS"'), 'the reseller\'s name as written');
  if (process.env.RECEIPT_PNG_OUT) execFileSync('cp', [join(dir, readdirSync(dir).find((f) => f.endsWith('.png'))!), process.env.RECEIPT_PNG_OUT]);
});

t.test('exam PINs are on the receipt for the key that may see them, as on the full record', async (t) => {
  t.equal(exam.status, 201, 'the exam PINs are delivered');
  const html = (await get_raw(server, `/v1/transactions/${exam.body.data.reference}/receipt`, auth)).bytes.toString('utf8');
  for (const pin of exam.body.data.pins) t.ok(html.includes(pin.pin) && html.includes(pin.serial), `PIN ${pin.serial} is on the receipt`);
  const pdf = render((await get_raw(server, `/v1/transactions/${exam.body.data.reference}/receipt?format=pdf`, auth)).bytes);
  t.teardown(() => rmSync(pdf.dir, { recursive: true, force: true }));
  for (const pin of exam.body.data.pins) t.ok(pdf.text.includes(pin.pin), `and in the PDF`);
  const failed_html = (await get_raw(server, `/v1/transactions/${failed.body.error.reference}/receipt`, auth)).bytes.toString('utf8');
  t.ok(failed_html.includes('FAILED (refunded)'), 'a failed order\'s receipt says it failed and was refunded');
});

t.test('another tenant\'s reference, an unknown one and a bad format', async (t) => {
  const other = await fast_reseller(server, 1_000);
  const response = await server.api('GET', `/v1/transactions/${power.body.data.reference}/receipt`, { key: other.key });
  check_error(t, response, 404, 'transaction.not_found', 'another account\'s order');
  check_error(t, await server.api('GET', '/v1/transactions/BV-20260101-AAAAAAAAAAAA/receipt', { key: reseller.key }), 404, 'transaction.not_found', 'an unknown reference');
  check_error(t, await server.api('GET', `/v1/transactions/${power.body.data.reference}/receipt?format=doc`, { key: reseller.key }), 400, 'validation.failed', 'format=doc');
  const live = await server.create_key(reseller.id, { environment: 'live' });
  check_error(t, await server.api('GET', `/v1/transactions/${power.body.data.reference}/receipt`, { key: live.api_key }), 404, 'transaction.not_found', 'the test order with a live key');
});

t.test('the dashboard serves the same receipt to the session', async (t) => {
  const signed = await server.api('POST', '/dashboard/api/session', { key: null, body: { email: reseller.email, password: reseller.password } });
  t.equal(signed.status, 201, 'signed in');
  const cookie = (signed.headers.get('set-cookie') ?? '').split(';')[0];
  const raw = await get_raw(server, `/dashboard/api/orders/${power.body.data.reference}/receipt?environment=test`, { cookie });
  t.equal(raw.status, 200, 'answers 200');
  t.ok(raw.bytes.toString().includes(power.body.data.token), 'with the token');
  const anonymous = await get_raw(server, `/dashboard/api/orders/${power.body.data.reference}/receipt?environment=test`, {});
  t.equal(anonymous.status, 401, 'without a session: 401');
});

t.test('resend: 409 without an endpoint, 202 with one, a new event id and resent: true, in the feed too', async (t) => {
  const reference = power.body.data.reference;
  const none = await server.api('POST', `/v1/transactions/${reference}/resend`, { key: reseller.key, idempotency_key: idem('rs') });
  check_error(t, none, 409, 'webhooks.no_endpoint', 'no endpoint subscribed');
  const created = await server.api('POST', '/v1/webhooks', { key: reseller.key, body: { url: receiver.url, events: ['transaction.completed', 'transaction.failed'] } });
  t.equal(created.status, 201, 'an endpoint for the final events');
  receiver.secret = created.body.data.secret;
  const feed_before = await server.api('GET', '/v1/events?type=transaction.completed&limit=100', { key: reseller.key });
  const original = feed_before.body.data.events.find((e: any) => e.data.reference === reference);
  t.ok(original, 'the original event is in the feed');
  const sent = await server.api('POST', `/v1/transactions/${reference}/resend`, { key: reseller.key, idempotency_key: idem('rs') });
  t.equal(sent.status, 202, `answers 202 (${sent.text.slice(0, 200)})`);
  t.same([sent.body.data.event, sent.body.data.resent, sent.body.data.endpoints], ['transaction.completed', true, 1], 'the final event, resent, to one endpoint');
  t.not(sent.body.data.event_id, original.id, 'a new event id');
  const [delivered] = await receiver.wait_for(1);
  t.equal(delivered.json.id, sent.body.data.event_id, 'the endpoint gets the new id');
  t.equal(delivered.json.resent, true, 'marked resent: true');
  t.same(delivered.json.data, original.data, 'the same payload as the first time');
  t.ok(delivered.service_signature_ok && delivered.standard_signature_ok, 'signed like every delivery');
  const feed_after = await server.api('GET', '/v1/events?type=transaction.completed&limit=100', { key: reseller.key });
  const listed = feed_after.body.data.events.find((e: any) => e.id === sent.body.data.event_id);
  t.ok(listed && listed.resent === true, 'the re-sent event is in GET /v1/events');
  const again = await server.api('POST', `/v1/transactions/${reference}/resend`, { key: reseller.key, idempotency_key: idem('rs') });
  check_error(t, again, 429, 'rate_limit.exceeded', 'a second re-send within a minute');
  const wait = Number(again.headers.get('retry-after'));
  t.ok(wait >= 1 && wait <= 60, `Retry-After says when (${wait} s)`);
  const key = idem('rs');
  const failed_sent = await server.api('POST', `/v1/transactions/${failed.body.error.reference}/resend`, { key: reseller.key, idempotency_key: key });
  t.equal(failed_sent.status, 202, 'a failed order\'s final event is re-sent too');
  t.equal(failed_sent.body.data.event, 'transaction.failed', 'as transaction.failed');
  await receiver.wait_for(2);
  const replayed = await server.api('POST', `/v1/transactions/${failed.body.error.reference}/resend`, { key: reseller.key, idempotency_key: key });
  t.equal(replayed.status, 202, 'the same X-Idempotency-Key answers the first 202 again');
  t.equal(replayed.headers.get('idempotent-replayed'), 'true', 'as a replay');
  t.equal(replayed.body.data.event_id, failed_sent.body.data.event_id, 'naming the same event');
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.equal(receiver.received.length, 2, 'and nothing more is sent');
});

t.test('resend: a processing order is 409 transaction.not_final; other tenants and scopes are refused', async (t) => {
  t.equal(slow.body.data?.status, 'processing', 'the slow number is processing');
  const open = await server.api('POST', `/v1/transactions/${slow.body.data.reference}/resend`, { key: reseller.key, idempotency_key: idem('rs') });
  check_error(t, open, 409, 'transaction.not_final', 'a processing order');
  const other = await fast_reseller(server, 1_000);
  check_error(t, await server.api('POST', `/v1/transactions/${power.body.data.reference}/resend`, { key: other.key, idempotency_key: idem('rs') }), 404, 'transaction.not_found', 'another tenant\'s order');
  const reader = await server.create_key(reseller.id, { scopes: ['transactions:read'] });
  check_error(t, await server.api('POST', `/v1/transactions/${power.body.data.reference}/resend`, { key: reader.api_key, idempotency_key: idem('rs') }), 403, 'auth.insufficient_scope', 'a key without services:purchase');
});
