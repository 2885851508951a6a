// Refunds in seconds (docs/operations.md "Metrics", billvend_refund_duration_seconds): every refunded order is
// measured once, from its definite failure reaching us to the commit holding its refund entry on disk; an
// order that is delivered, or still processing, is not measured.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { buy_airtime, fast_reseller, sandbox, settled_order, warm_up_live } from './helpers/purchases.js';

t.setTimeout(120_000);

/** The histogram's count and sum for one environment, from /metrics. */
async function refund_series(server: Awaited<ReturnType<typeof start_server>>, environment: string): Promise<{ count: number; sum: number; buckets: Map<string, number> }> {
  const text = (await server.admin('GET', '/metrics')).text;
  const value = (name: string) => Number(new RegExp(`^${name}\\{environment="${environment}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  const buckets = new Map<string, number>();
  for (const match of text.matchAll(new RegExp(`^billvend_refund_duration_seconds_bucket\\{le="([^"]+)",environment="${environment}"\\} (\\S+)$`, 'gm'))) buckets.set(match[1], Number(match[2]));
  return { count: value('billvend_refund_duration_seconds_count'), sum: value('billvend_refund_duration_seconds_sum'), buckets };
}

t.test('each refunded order is measured once, in seconds, and nothing else is', async (t) => {
  const upstream = await start_upstream(t);
  const server = await start_server(t, { env: upstream.env(2_000) });
  const account = await fast_reseller(server);
  const text = (await server.admin('GET', '/metrics')).text;
  t.match(text, /# TYPE billvend_refund_duration_seconds histogram/, 'the histogram is exported');
  t.equal((await refund_series(server, 'test')).count, 0, 'nothing is measured before a refund');

  t.equal((await buy_airtime(server, account.key, sandbox.delivered, 100)).status, 201, 'a delivered sandbox purchase');
  t.equal((await refund_series(server, 'test')).count, 0, 'a delivery is not measured');
  t.equal((await buy_airtime(server, account.key, sandbox.failed, 100)).status, 422, 'a failed sandbox purchase, refunded');
  t.equal((await buy_airtime(server, account.key, sandbox.failed, 100)).status, 422, 'and another');
  const test = await refund_series(server, 'test');
  t.equal(test.count, 2, 'two refunds, two observations');
  t.ok(test.sum >= 0 && test.sum < 30, `their refunds took under 30 s in all (${test.sum} s)`);
  t.equal(test.buckets.get('30'), 2, 'both in the 30 s bucket');

  // A live failure: the upstream's definite "failed" answer, refunded in the step that learns it.
  const live = await server.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  await server.credit(account.id, 'live', 1_000);
  await warm_up_live(server, live.api_key);
  upstream.set_mode('08030000601', 'fail');
  const failed = await buy_airtime(server, live.api_key, '08030000601', 100);
  t.equal(failed.status, 422, 'the upstream fails a live purchase');
  await settled_order(server, live.api_key, failed.body.error.reference);
  const measured = await refund_series(server, 'live');
  t.equal(measured.count, 1, 'the live refund is measured once');
  t.ok(measured.sum < 30, `within 30 s (${measured.sum} s)`);
  t.equal((await refund_series(server, 'test')).count, 2, 'the test wallet\'s count is its own');
});
