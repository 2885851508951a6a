// Upstream routing and failover (docs/decisions.md "Upstream routing and failover", docs/operations.md
// "Upstreams and routes"): two live upstreams over real HTTP, one of each kind (a fake VTpass and a fake
// Flutterwave). An order moves to the next upstream only after a refusal before processing (a refused
// connection, an open circuit, a definite "not processed"); after an unclear answer it stays with the
// upstream that may have delivered it and is re-queried there. The reseller sees one order, one debit,
// at most one delivery.
import t, { type Test } from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { start_upstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { start_flutterwave, flutterwave_secret, type FakeFlutterwave } from './helpers/fake-flutterwave.js';
import { wait_for } from './helpers/fixtures-http.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { run_cli } from './helpers/fixtures-http.js';
import {
  balance_kobo, buy, buy_airtime, check_error, data_body, entries_of, order, settled_order, tv_body, warm_up_live,
} from './helpers/purchases.js';

/** UPSTREAMS naming the fake VTpass "vtpass" and the fake Flutterwave "flw", in that order (the default route). */
function upstreams_env(vtpass: FakeUpstream, flw: FakeFlutterwave, vtpass_timeout_ms = 1000): Record<string, string> {
  return {
    UPSTREAMS: JSON.stringify([
      { name: 'vtpass', kind: 'vtpass', base_url: vtpass.base_url, api_key: 'fake-api-key', secret_key: 'fake-secret-key', timeout_ms: vtpass_timeout_ms },
      flw.upstream('flw', 1000),
    ]),
  };
}

async function live_reseller(s: TestServer, live_ngn = 100_000) {
  const account = await s.create_account({ kyc_level: 3 });
  const live = await s.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  await s.credit(account.id, 'live', live_ngn);
  return { ...account, key: live.api_key };
}

async function two_upstreams(t: Test, env: Record<string, string> = {}, vtpass_timeout_ms = 1000) {
  const vtpass = await start_upstream(t);
  const flw = await start_flutterwave(t);
  const server = await start_server(t, { env: { ...env, ...upstreams_env(vtpass, flw, vtpass_timeout_ms) } });
  const account = await live_reseller(server);
  await warm_up_live(server, account.key);
  return { vtpass, flw, server, account };
}

const upstreams_of = (record: any) => (record.attempts ?? []).map((a: any) => `${a.upstream}:${a.outcome}`);

// TIME_SCALE=0.5: a purchase waits up to 2.5 s for its answer, the circuit stays open 30 s.
t.test('with the first upstream refusing connections, purchases are delivered by the second and no order fails', async (t) => {
  const { vtpass, flw, server, account } = await two_upstreams(t, { TIME_SCALE: '0.5' });
  await vtpass.refuse();
  const phones = Array.from({ length: 8 }, (_, i) => `0806200010${i}`);
  const references: string[] = [];
  for (const phone of phones) {
    const response = await buy_airtime(server, account.key, phone, 100);
    t.equal(response.status, 201, `${phone}: the purchase is taken (${response.text.slice(0, 120)})`);
    references.push(response.body.data.reference);
  }
  let failed = 0;
  for (const [i, reference] of references.entries()) {
    const record = await settled_order(server, account.key, reference, 15_000);
    if (record.status !== 'delivered') failed++;
    t.equal(record.status, 'delivered', `${phones[i]}: delivered`);
    const attempts = record.attempts as any[];
    t.equal(attempts[attempts.length - 1].upstream, 'flw', `${phones[i]}: delivered by the second upstream (${upstreams_of(record).join(' → ')})`);
    t.equal(attempts[attempts.length - 1].outcome, 'delivered', `${phones[i]}: its last attempt is delivered`);
    t.ok(attempts.slice(0, -1).every((a) => a.upstream === 'vtpass' && a.outcome === 'refused'), `${phones[i]}: any earlier attempt is vtpass, refused`);
    t.equal(new Set(attempts.map((a) => a.request_id)).size, attempts.length, `${phones[i]}: a new request id for each upstream`);
    t.same((await entries_of(server, account.key, reference)).map((e) => e.type), ['debit'], `${phones[i]}: one debit, no reversal`);
    t.equal(flw.pays_for(phones[i]).length, 1, `${phones[i]}: the second upstream was paid once`);
  }
  t.equal(failed, 0, 'zero failed orders');
  t.equal(vtpass.calls('/api/pay').length, 0, 'nothing reached the refusing upstream');
  t.same(flw.paid_twice(), [], 'no reference was paid twice');
  t.ok(server.logs.some((line) => line.includes('"circuit":"open"') && line.includes('"upstream":"vtpass"')), 'the first upstream\'s circuit opened');
  const last = await order(server, account.key, references[references.length - 1]);
  t.same(upstreams_of(last), ['flw:delivered'], 'once its circuit is open, an order goes straight to the second upstream');
  t.equal(await balance_kobo(server, account.key), 100_000_00 - 8 * 100_00, 'the wallet paid each delivered purchase once');
});

t.test('an order the first upstream answers "not processed" is delivered by the second under the same reference', async (t) => {
  const { vtpass, flw, server, account } = await two_upstreams(t, { TIME_SCALE: '0.5' });
  const phone = '08062000201';
  vtpass.set_mode(phone, 'refuse');
  const response = await buy_airtime(server, account.key, phone, 150);
  t.equal(response.status, 201, `the purchase is taken (${response.text.slice(0, 120)})`);
  const reference = response.body.data.reference;
  const record = await settled_order(server, account.key, reference);
  t.equal(record.status, 'delivered', 'the order is delivered');
  t.equal(record.reference, reference, 'under the reference the reseller was given');
  t.same(upstreams_of(record), ['vtpass:failed', 'flw:delivered'], 'attempts: vtpass refused it (091, not processed), Flutterwave delivered it');
  const [first, second] = record.attempts;
  t.not(first.request_id, second.request_id, 'each upstream got its own request id');
  t.equal(vtpass.pays_for(phone)[0]?.body.request_id, first.request_id, 'the first request id went to vtpass');
  t.equal(flw.pays_for(phone)[0]?.body.reference, second.request_id, 'the second went to Flutterwave as its reference');
  t.equal(flw.pays_for(phone)[0]?.headers.authorization, `Bearer ${flutterwave_secret}`, 'Flutterwave is called with the secret key as a bearer token');
  t.equal(flw.pays_for(phone)[0]?.body.type, 'AIRTIME', 'as an AIRTIME bill');
  t.equal(record.failure_reason, null, 'the order carries no failure');
  t.same((await entries_of(server, account.key, reference)).map((e) => e.type), ['debit'], 'one debit, no reversal');
  t.equal(vtpass.pays_for(phone).length, 1, 'vtpass was asked once');
  t.equal(flw.pays_for(phone).length, 1, 'Flutterwave was asked once');
  const metrics = await server.request('GET', '/metrics', { key: null, headers: { authorization: `Bearer ${server.admin_token}` } }, server.admin_base);
  t.match(metrics.text, /billvend_upstream_failovers_total\{from="vtpass",to="flw"\} [1-9]/, 'the failover is counted per upstream');
  t.match(metrics.text, /billvend_upstream_outcomes_total\{upstream="flw",operation="pay",outcome="delivered"\} [1-9]/, 'the second upstream\'s outcome is counted');
  t.match(metrics.text, /billvend_upstream_circuit_state\{upstream="vtpass"\} 0/, 'each upstream has its circuit series');
});

// TIME_SCALE=0.05: the purchase waits 250 ms; re-queries after 1.5 s, 3 s, 6 s.
t.test('an order whose first upstream times out is never sent to the second: it is re-queried and delivered by the first', async (t) => {
  const { vtpass, flw, server, account } = await two_upstreams(t, { TIME_SCALE: '0.05' }, 300);
  vtpass.slow_ms = 1200;
  const phone = '08062000301';
  vtpass.set_mode(phone, 'slow');
  const response = await buy_airtime(server, account.key, phone, 200);
  t.equal(response.status, 201, `the purchase is taken (${response.text.slice(0, 120)})`);
  t.equal(response.body.data.status, 'processing', 'and answered processing: its outcome is not known');
  const record = await settled_order(server, account.key, response.body.data.reference, 20_000);
  t.equal(record.status, 'delivered', 'the order is delivered');
  t.same(upstreams_of(record), ['vtpass:delivered'], 'by the first upstream, its only attempt');
  t.equal(flw.pays_for(phone).length, 0, 'the second upstream was never asked: it could have delivered twice');
  t.ok(vtpass.calls('/api/requery', record.attempts[0].request_id).length >= 1, 'the first upstream was re-queried');
  t.equal(vtpass.pays_for(phone).length, 1, 'and paid once');
  t.same((await entries_of(server, account.key, record.reference)).map((e) => e.type), ['debit'], 'one debit');
});

// TIME_SCALE=0.1: circuits stay open 6 s; re-queries after 3 s, 6 s, 12 s; "no such request" is believed after 12 s.
t.test('with every upstream of the route down a purchase answers 503 and debits nothing', async (t) => {
  const { vtpass, flw, server, account } = await two_upstreams(t, { TIME_SCALE: '0.1' });
  await vtpass.refuse();
  await flw.refuse();
  const before = await balance_kobo(server, account.key);
  // Five purchases refused by both: each upstream's circuit opens. Nothing reached either, so each order
  // stays processing and is refunded once its holder says it never saw it.
  const early = await Promise.all([0, 1, 2, 3, 4].map((i) => buy_airtime(server, account.key, `0806200040${i}`, 100)));
  for (const [i, response] of early.entries()) t.equal(response.status, 201, `purchase ${i + 1} while both refuse is taken (${response.text.slice(0, 100)})`);
  await wait_for(() => server.logs.some((l) => l.includes('"circuit":"open"') && l.includes('"upstream":"flw"')), 10_000, 'the second circuit to open');
  const after_early = await balance_kobo(server, account.key);
  const refused = await buy_airtime(server, account.key, '08062000410', 100);
  check_error(t, refused, 503, 'transaction.provider_unavailable', 'a purchase with every upstream of its route down');
  t.ok(Number(refused.headers.get('retry-after')) >= 1, 'with Retry-After');
  t.equal(await balance_kobo(server, account.key), after_early, 'the refused purchase debited nothing');
  const status = await server.api('GET', '/v1/services/status', { key: account.key });
  t.equal(status.status, 200, 'the status is readable');
  t.equal(status.body.data.services.find((s: any) => s.product === 'airtime/mtn')?.status, 'unavailable', 'airtime/mtn is unavailable');
  await vtpass.resume();
  await flw.resume();
  for (const [i, response] of early.entries()) {
    const record = await settled_order(server, account.key, response.body.data.reference, 60_000);
    t.equal(record.status, 'failed', `purchase ${i + 1}: it reached no upstream and ends failed`);
    t.same((await entries_of(server, account.key, record.reference)).map((e) => e.type), ['debit', 'reversal'], `purchase ${i + 1}: refunded once`);
  }
  t.equal(vtpass.calls('/api/pay').length + flw.requests.filter((r) => r.method === 'POST').length, 0, 'no upstream was ever asked to pay');
  t.equal(await balance_kobo(server, account.key), before, 'the wallet is whole again');
});

t.test('route changes apply to the next purchase, are refused whole when wrong, and are kept across a restart', async (t) => {
  const { vtpass, flw, server, account } = await two_upstreams(t, { TIME_SCALE: '0.5' });
  const initial = await server.admin('GET', '/admin/routes');
  t.equal(initial.status, 200, 'the routes are readable');
  t.same(initial.body.data.default, ['vtpass', 'flw'], 'the default route is the configured upstreams, in order');
  t.same(initial.body.data.upstreams.map((u: any) => `${u.name}:${u.kind}:${u.circuit}`), ['vtpass:vtpass:closed', 'flw:flutterwave:closed'], 'each upstream with its kind and circuit');

  const bad_rows: [string, unknown, string][] = [
    ['an unknown upstream', { default: ['vtpass', 'nowhere'] }, 'default.1'],
    ['an unknown product', { default: ['vtpass'], routes: [{ product: 'airtime/vodafone', upstreams: ['flw'] }] }, 'routes.0.product'],
    ['an upstream twice', { default: ['vtpass', 'vtpass'] }, 'default.1'],
    ['a product routed twice', { default: ['vtpass'], routes: [{ product: 'tv', upstreams: ['flw'] }, { product: 'tv', upstreams: ['vtpass'] }] }, 'routes.1.product'],
    ['an empty route', { default: [] }, 'default'],
  ];
  for (const [what, body, field] of bad_rows) {
    const response = await server.admin('PUT', '/admin/routes', body);
    check_error(t, response, 400, 'validation.failed', `routes with ${what}`);
    t.ok(response.body.error?.details?.some((d: any) => d.field === field), `routes with ${what}: the detail names ${field} (${JSON.stringify(response.body.error?.details)})`);
  }
  t.same((await server.admin('GET', '/admin/routes')).body.data.default, ['vtpass', 'flw'], 'a refused change changed nothing');

  const put = await server.admin('PUT', '/admin/routes', { default: ['vtpass', 'flw'], routes: [{ product: 'airtime/mtn', upstreams: ['flw', 'vtpass'] }] });
  t.equal(put.status, 200, `the routes are replaced (${put.text.slice(0, 160)})`);
  t.same(put.body.data.routes, [{ product: 'airtime/mtn', upstreams: ['flw', 'vtpass'] }], 'the answer shows the new routes');
  const mtn = await buy_airtime(server, account.key, '08062000501', 100);
  t.same(upstreams_of(await settled_order(server, account.key, mtn.body.data.reference)), ['flw:delivered'], 'MTN airtime now goes to Flutterwave first');
  const airtel = await buy_airtime(server, account.key, '08022000502', 100, { network: 'airtel' });
  t.same(upstreams_of(await settled_order(server, account.key, airtel.body.data.reference)), ['vtpass:delivered'], 'Airtel airtime keeps the default route');
  const data = await buy(server, account.key, '/v1/services/data/purchase', data_body('mtn-100mb-1d', 100, '08062000503'));
  t.same(upstreams_of(await settled_order(server, account.key, data.body.data.reference)), ['vtpass:delivered'], 'MTN data keeps the default route: the route is per product');

  // The command line: the same routes, from the operator's shell.
  const cli_env = { ADMIN_TOKEN: server.admin_token, ADMIN_PORT: String(server.admin_port), ADMIN_HOST: '127.0.0.1' };
  const set = await run_cli(['routes', 'set', '--default', 'flw,vtpass', '--routes', 'airtime/mtn=flw,vtpass;tv=vtpass'], cli_env);
  t.equal(set.code, 0, `billvend routes set succeeds (${set.stderr.slice(0, 200)})`);
  const shown = await run_cli(['routes', 'show'], cli_env);
  t.equal(shown.code, 0, 'billvend routes show succeeds');
  t.same(JSON.parse(shown.stdout).default, ['flw', 'vtpass'], 'routes show prints the default route just set');
  const wrong = await run_cli(['routes', 'set', '--default', 'flw', '--routes', 'airtime/mtn'], cli_env);
  t.equal(wrong.code, 2, 'a --routes entry without "=" is a mistake in the command line');

  await server.stop();
  await server.start();
  const kept = await server.admin('GET', '/admin/routes');
  t.same(kept.body.data.default, ['flw', 'vtpass'], 'the default route is kept across a restart');
  t.same(kept.body.data.routes, [{ product: 'airtime/mtn', upstreams: ['flw', 'vtpass'] }, { product: 'tv', upstreams: ['vtpass'] }], 'and so are the product routes');
  const tv = await buy(server, account.key, '/v1/services/tv', tv_body('7012345501'));
  t.same(upstreams_of(await settled_order(server, account.key, tv.body.data.reference)), ['vtpass:delivered'], 'a TV renewal follows the kept tv route after the restart');
  t.equal(flw.pays_for('7012345501').length, 0, 'and Flutterwave was not asked for it');
  t.ok(vtpass.pays_for('7012345501').length === 1, 'vtpass was paid once for it');
});

// TIME_SCALE=0.1: the circuit stays open 6 s.
t.test('the service status and service.status_changed events follow an upstream circuit opening and closing', async (t) => {
  const { vtpass, flw, server, account } = await two_upstreams(t, { TIME_SCALE: '0.1', ...webhook_env() });
  const receiver = new WebhookReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  const created = await server.api('POST', '/v1/webhooks', { key: account.key, body: { url: receiver.url, events: ['service.status_changed'] } });
  t.equal(created.status, 201, `a live endpoint subscribes to service.status_changed (${created.text.slice(0, 120)})`);
  receiver.secret = created.body.data.secret;
  const others = await server.api('POST', '/v1/webhooks', { key: account.key, body: { url: `${receiver.url}?all` } });
  t.notOk(others.body.data?.events?.includes('service.status_changed'), 'an endpoint registered without events does not get status changes unasked');

  const status_of = async (product: string) => (await server.api('GET', '/v1/services/status', { key: account.key })).body.data.services.find((s: any) => s.product === product);
  t.equal((await status_of('airtime/mtn')).status, 'available', 'airtime/mtn is available with both upstreams up');
  t.equal((await status_of('data/mtn')).status, 'available', 'data/mtn is available');

  await vtpass.refuse();
  const purchases = await Promise.all([0, 1, 2, 3, 4].map((i) => buy_airtime(server, account.key, `0806200060${i}`, 100)));
  for (const response of purchases) t.equal(response.status, 201, `a purchase while vtpass refuses is taken (${response.text.slice(0, 100)})`);
  await wait_for(() => server.logs.some((l) => l.includes('"circuit":"open"')), 10_000, 'the vtpass circuit to open');
  const degraded = await status_of('airtime/mtn');
  t.equal(degraded.status, 'degraded', 'airtime/mtn is degraded: one upstream of its route is down');
  t.equal((await status_of('data/mtn')).status, 'unavailable', 'data/mtn is unavailable: Flutterwave does not sell data here, so its route has no healthy upstream');
  check_error(t, await buy(server, account.key, '/v1/services/data/purchase', data_body('mtn-1gb-1d', 350, '08062000610')), 503, 'transaction.provider_unavailable', 'an MTN data purchase');
  const opened = await wait_for(() => {
    const events = receiver.events('service.status_changed').map((r) => r.json.data);
    return events.some((e) => e.product === 'airtime/mtn' && e.status === 'degraded') && events.some((e) => e.product === 'data/mtn' && e.status === 'unavailable') ? events : null;
  }, 15_000, 'the status events of the circuit opening');
  t.ok(opened.length >= 2, `the endpoint was told of the changes (${opened.length} events)`);
  t.ok(receiver.events('service.status_changed').every((r) => r.service_signature_ok), 'every status event is signed');

  await vtpass.resume();
  await wait_for(() => receiver.events('service.status_changed').some((r) => r.json.data.product === 'airtime/mtn' && r.json.data.status === 'available'), 20_000, 'the status event of the circuit closing');
  t.equal((await status_of('airtime/mtn')).status, 'available', 'airtime/mtn is available again');
  t.equal((await status_of('data/mtn')).status, 'available', 'data/mtn is available again');
  const test_status = await server.api('GET', '/v1/services/status', { key: (await server.reseller(0)).key });
  t.ok(test_status.body.data.services.every((s: any) => s.status === 'available'), 'a test key sees the sandbox: always available');
  t.equal(flw.paid_twice().length, 0, 'Flutterwave was paid once per reference');
});
