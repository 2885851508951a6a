// The request counters, the latency histogram and the purchase counters are counted as plain numbers and
// handed to prom-client when /metrics is read (src/operator/metrics.ts: prom-client's own inc and observe
// hashed the label set on every request). What a scrape shows must not change: every request counted
// exactly once however many scrapes fall between them, a histogram whose buckets add up, and a series
// listed only once it has counted something.
import t, { type Test } from 'tap';
import { start_server } from './helpers/server.js';
import { buy_airtime, sandbox } from './helpers/purchases.js';

const server = await start_server(t);

/** Value of one exposition line whose labels include all of `labels` (summed over matching lines). */
function series(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const present = match[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => present.includes(`${k}="${v}"`))) total += Number(match[3]);
  }
  return total;
}

async function scrape(t: Test): Promise<string> {
  const response = await server.admin('GET', '/metrics');
  t.equal(response.status, 200, '/metrics answers 200');
  return response.text;
}

const wallet = { server: 'public', route: 'GET /v1/wallet' };

t.test('requests between scrapes are counted once each, whatever the number of scrapes', async (t) => {
  const account = await server.reseller(10_000, {}, { rate_limit_per_minute: 1_000_000 });
  for (let i = 0; i < 3; i++) t.equal((await server.api('GET', '/v1/wallet', { key: account.key })).status, 200, `wallet read ${i + 1}`);
  const first = await scrape(t);
  const again = await scrape(t);
  t.equal(series(again, 'billvend_http_requests_total', { ...wallet, status: '200' }), series(first, 'billvend_http_requests_total', { ...wallet, status: '200' }), 'a second scrape with no request between counts nothing more');
  t.equal(series(again, 'billvend_http_request_duration_seconds_count', wallet), series(first, 'billvend_http_request_duration_seconds_count', wallet), 'nor does the histogram');
  for (let i = 0; i < 4; i++) t.equal((await server.api('GET', '/v1/wallet', { key: account.key })).status, 200, `wallet read ${i + 4}`);
  const after = await scrape(t);
  t.equal(series(after, 'billvend_http_requests_total', { ...wallet, status: '200' }) - series(first, 'billvend_http_requests_total', { ...wallet, status: '200' }), 4, 'the four reads after the scrapes add four to the 200 counter');
  t.equal(series(after, 'billvend_http_request_duration_seconds_count', wallet) - series(first, 'billvend_http_request_duration_seconds_count', wallet), 4, 'and four to the histogram count');
  t.ok(series(after, 'billvend_http_request_duration_seconds_sum', wallet) > series(first, 'billvend_http_request_duration_seconds_sum', wallet), 'and some time to its sum');
  t.equal(series(after, 'billvend_http_requests_total', { ...wallet, status: '200' }), series(after, 'billvend_http_request_duration_seconds_count', wallet), 'every wallet read counted is also timed');
});

t.test('the latency histogram of a route lists its buckets in order, cumulative, ending at +Inf = count', async (t) => {
  const text = await scrape(t);
  const route = 'route="GET /v1/wallet"';
  const buckets = text.split('\n').filter((l) => l.startsWith('billvend_http_request_duration_seconds_bucket{') && l.includes(route) && l.includes('server="public"'));
  t.equal(buckets.length, 15, 'fourteen bounds and +Inf');
  const bounds = buckets.map((l) => /le="([^"]+)"/.exec(l)![1]);
  t.same(bounds, ['0.0005', '0.001', '0.002', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'], 'bounds from 0.5 ms to 10 s, then +Inf');
  const counts = buckets.map((l) => Number(l.slice(l.lastIndexOf(' ') + 1)));
  for (let i = 1; i < counts.length; i++) t.ok(counts[i] >= counts[i - 1], `bucket le="${bounds[i]}" holds at least what le="${bounds[i - 1]}" holds`);
  t.equal(counts[counts.length - 1], series(text, 'billvend_http_request_duration_seconds_count', wallet), '+Inf equals the count');
  const lines = text.split('\n');
  const first_bucket = lines.findIndex((l) => l.startsWith('billvend_http_request_duration_seconds_bucket{') && l.includes(route));
  t.match(lines[first_bucket + 15] ?? '', /^billvend_http_request_duration_seconds_sum\{/, '_sum follows the buckets');
  t.match(lines[first_bucket + 16] ?? '', /^billvend_http_request_duration_seconds_count\{/, 'then _count');
  t.match(text, /# HELP billvend_http_request_duration_seconds Time from a request's arrival to its reply, which waits for the durable commit of its changes\.\n# TYPE billvend_http_request_duration_seconds histogram\n/, 'with its HELP and TYPE lines');
});

t.test('a series appears only once it has counted something', async (t) => {
  const before = await scrape(t);
  t.notMatch(before, /route="GET \/v1\/transactions"/, 'no series for a route nobody called');
  t.notMatch(before, /billvend_purchases_total\{/, 'no purchase series before any purchase');
  const account = await server.reseller(10_000, {}, { rate_limit_per_minute: 1_000_000 });
  t.equal((await server.api('GET', '/v1/transactions', { key: account.key })).status, 200, 'the history is read once');
  t.equal((await buy_airtime(server, account.key, sandbox.delivered, 100)).status, 201, 'a sandbox airtime purchase is delivered');
  t.equal((await buy_airtime(server, account.key, sandbox.failed, 100)).status, 422, 'one fails and is refunded');
  const after = await scrape(t);
  t.equal(series(after, 'billvend_http_requests_total', { route: 'GET /v1/transactions', status: '200' }), 1, 'the history read is counted once');
  t.equal(series(after, 'billvend_http_request_duration_seconds_count', { route: 'GET /v1/transactions' }), 1, 'and timed once');
  t.equal(series(after, 'billvend_purchases_total', { service_type: 'airtime', environment: 'test', outcome: 'placed' }), 2, 'two airtime purchases placed');
  t.equal(series(after, 'billvend_purchases_total', { service_type: 'airtime', environment: 'test', outcome: 'delivered' }), 1, 'one delivered');
  t.equal(series(after, 'billvend_purchases_total', { service_type: 'airtime', environment: 'test', outcome: 'failed' }), 1, 'one failed');
  t.equal(series(after, 'billvend_refunds_total', { service_type: 'airtime', environment: 'test' }), 1, 'one refund (still prom-client\'s own counter)');
});
