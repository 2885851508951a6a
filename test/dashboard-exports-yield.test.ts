// Regression for the second hostile review's row 2 (docs/operations.md "Nothing long on the event loop",
// docs/design.md "One tenant never stalls another"): the dashboard's orders CSV, wallet CSV and 30-day trend were each
// built in one synchronous step over up to 10,000 rows or 20,000 orders, holding the event loop for
// 0.4-0.5 s; another tenant's wallet read waited that long. Now the exports stream a slice per turn,
// as the public export does, and the trend reads its orders in slices that yield. With 20,000 orders,
// another tenant's reads sent every few milliseconds while each runs are answered before it ends, and
// none waits long; the server's own event-loop delay (nodejs_eventloop_lag_max_seconds) says the same.
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { idem } from './helpers/purchases.js';

const server = await start_server(t, { env: { LOG_LEVEL: 'warn' } });

const orders_count = 20_000;
const batch_items = 100;
const batches_in_flight = 4;
/**
 * A probe waits at most this share of the slow request's time. Held in one step, a probe sent at its
 * start waited for all of it (ratio about 1); the machine the suite runs on is shared and busy, so
 * the bound is relative rather than in milliseconds.
 */
const probe_wait_share_max = 0.5;
/** Runs of each slow request at most, stopping at the first that passes (see the loop below). */
const measure_runs_max = 3;
/** How often a probe is sent while the slow request runs. */
const probe_every_ms = 5;

/** The flooder: 20,000 sandbox orders made fast, 100 per bulk call on a few keys at once. */
const heavy = await server.reseller(0, { kyc_level: 3 });
await server.admin('PATCH', `/admin/accounts/${heavy.id}`, { daily_limit: 100_000_000 });
await server.credit(heavy.id, 'test', orders_count * 100 + 1000);
const keys = [heavy.key];
for (let i = 1; i < batches_in_flight; i++) keys.push((await server.create_key(heavy.id, { rate_limit_per_minute: 1_000_000 })).api_key);
const victim = await server.reseller(1000, {}, { rate_limit_per_minute: 1_000_000 });

async function fill(): Promise<void> {
  let next = 0;
  const items = Array.from({ length: batch_items }, () => ({ service_type: 'airtime', network: 'mtn', phone: '08011111111', amount: 100 }));
  const lane = async (key: string) => {
    while (next < orders_count / batch_items) {
      next++;
      const answer = await server.api('POST', '/v1/services/bulk', { key, body: { pin: heavy.pin, items }, idempotency_key: idem('fill') });
      if (answer.status !== 202 && answer.status !== 201) throw new Error(`bulk: ${answer.status} ${answer.text.slice(0, 300)}`);
    }
  };
  await Promise.all(keys.map(lane));
}

async function sign_in(target: TestServer, account: { email: string; password: string }): Promise<string> {
  const response = await target.request('POST', '/dashboard/api/session', { body: { email: account.email, password: account.password } });
  if (response.status !== 201) throw new Error(`sign-in: ${response.status} ${response.text}`);
  return (response.headers.get('set-cookie') ?? '').split(';')[0];
}

/** The server's longest event-loop delay since the last scrape (prom-client resets it on each). */
async function loop_delay_max_ms(): Promise<number> {
  const text = (await server.admin('GET', '/metrics')).text;
  const line = /^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text);
  return line === null ? Number.NaN : Number(line[1]) * 1000;
}

interface Probed {
  /** The slow request's status and body. */
  status: number;
  body: string;
  elapsed_ms: number;
  /** Probes answered before the slow request's body ended. */
  answered_before_end: number;
  /** The longest a probe waited. */
  probe_wait_ms_max: number;
}

/** Runs the slow request while probing another tenant's wallet every few ms. */
async function probed(path: string, cookie: string): Promise<Probed> {
  const started = performance.now();
  let ended_at = Number.POSITIVE_INFINITY;
  let answered_before_end = 0;
  let longest = 0;
  let running = true;
  const probes: Promise<void>[] = [];
  const timer = setInterval(() => {
    if (!running) return;
    const sent = performance.now();
    probes.push(server.api('GET', '/v1/wallet', { key: victim.key }).then((answer) => {
      const now = performance.now();
      if (answer.status !== 200) throw new Error(`probe: ${answer.status}`);
      longest = Math.max(longest, now - sent);
      if (now < ended_at) answered_before_end++;
    }));
  }, probe_every_ms);
  const response = await fetch(server.base + path, { headers: { cookie } });
  const body = await response.text();
  ended_at = performance.now();
  running = false;
  clearInterval(timer);
  await Promise.all(probes);
  return { status: response.status, body, elapsed_ms: ended_at - started, answered_before_end, probe_wait_ms_max: longest };
}

t.test(`with ${orders_count} orders, the dashboard's exports and trend let other requests through while they run`, async (t) => {
  const filled = performance.now();
  await fill();
  t.comment(`${orders_count} orders made in ${((performance.now() - filled) / 1000).toFixed(1)} s`);
  const cookie = await sign_in(server, heavy);
  const rows: [string, string, (p: Probed) => void][] = [
    ['orders CSV', '/dashboard/api/export/orders?environment=test', (p) => {
      const lines = p.body.trimEnd().split('\r\n');
      t.equal(lines.length, 1 + 10_000, 'the orders CSV has its header and the newest 10,000 orders (export_rows_max)');
      t.ok(lines[0].startsWith('reference,service,'), 'the header comes first');
    }],
    ['wallet CSV', '/dashboard/api/export/wallet?environment=test', (p) => {
      const lines = p.body.trimEnd().split('\r\n');
      t.equal(lines.length, 1 + 10_000, 'the wallet CSV has its header and the newest 10,000 entries');
      t.match(lines[1], /^\d+,debit,/, 'newest first: the last debit');
    }],
    ['30-day trend', '/dashboard/api/trend?environment=test', (p) => {
      const data = JSON.parse(p.body).data;
      const total = data.days.reduce((sum: number, day: { orders: Record<string, number> }) => sum + Object.values(day.orders).reduce((a, b) => a + b, 0), 0);
      t.equal(total, orders_count, 'the trend counted every order');
      t.equal(data.truncated, false, 'and is not truncated at exactly trend_orders_max');
    }],
    ['wallet history by type', '/dashboard/api/wallet/transactions?environment=test&type=credit', (p) => {
      const data = JSON.parse(p.body).data;
      // The one credit is the oldest of 20,001 entries: beyond the 20,000 read for a filtered page.
      t.equal(data.truncated, true, 'the filtered wallet page read its 20,000 entries and says it stopped there');
      t.equal(data.transactions.length, 0, 'none of them a credit');
    }],
  ];
  for (const [name, path, check] of rows) {
    // A shared machine can pause either process for tens of milliseconds at any moment (CI once saw a
    // 94 ms pause inside a 149 ms trend). Held in one step the request fails every run; yielding, it
    // passes at least one of a few: the runs stop at the first that passes.
    let p: Probed | undefined;
    const seen: string[] = [];
    for (let run = 1; run <= measure_runs_max; run++) {
      await loop_delay_max_ms();
      p = await probed(path, cookie);
      const delay_ms = await loop_delay_max_ms();
      t.comment(`${name}, run ${run}: ${p.elapsed_ms.toFixed(0)} ms, ${p.answered_before_end} probes answered meanwhile, the longest waited ${p.probe_wait_ms_max.toFixed(1)} ms; the server's longest loop delay ${delay_ms.toFixed(1)} ms`);
      seen.push(`${p.probe_wait_ms_max.toFixed(1)} of ${p.elapsed_ms.toFixed(0)} ms, ${p.answered_before_end} answered`);
      if (p.answered_before_end >= 3 && p.probe_wait_ms_max < p.elapsed_ms * probe_wait_share_max) break;
    }
    if (p === undefined) throw new Error('no run');
    t.equal(p.status, 200, `the ${name} answers 200`);
    check(p);
    t.ok(p.answered_before_end >= 3, `another tenant's reads were answered while the ${name} ran (${seen.join('; ')})`);
    t.ok(p.probe_wait_ms_max < p.elapsed_ms * probe_wait_share_max, `none of them waited half the ${name}'s time or more (${seen.join('; ')})`);
  }
});
