// The catalog sync from VTpass's GET /api/service-variations (docs/operations.md "Catalog sync"), against a fake
// that answers VTpass's documented answers (test/fixtures/upstreams/vtpass/service-variations/): at start,
// on demand (operator API and CLI); a new variation appears disabled until the operator prices and enables
// it; a vanished one, and one whose VTpass price moved above ours, is disabled and reported (the log event
// catalog.changed, GET /admin/catalog/drift, `billvend catalog drift`, the metrics); a service whose list
// cannot be read changes nothing; a restart keeps all of it.
import t from 'tap';
import { rmSync } from 'node:fs';
import { TestServer, temp_dir } from './helpers/server.js';
import { run_cli, sleep } from './helpers/fixtures-http.js';
import { VariationsRoute, start_variations_server } from './helpers/fake-vtpass-variations.js';
import { buy, check_created, check_error, data_body, sandbox, tv_body } from './helpers/purchases.js';

const route = new VariationsRoute('fake-api-key', 'fake-public-key');
const fake = await start_variations_server(t, route);
const data_dir = temp_dir();
t.teardown(() => rmSync(data_dir, { recursive: true, force: true }));
const env = {
  PROVIDER_BASE_URL: fake.base_url, PROVIDER_API_KEY: 'fake-api-key', PROVIDER_SECRET_KEY: 'fake-secret-key', PROVIDER_PUBLIC_KEY: 'fake-public-key', PROVIDER_TIMEOUT_MS: '1000',
};
let server = new TestServer(data_dir, env);
t.teardown(() => server.kill());
await server.start();

async function drift(s: TestServer): Promise<any> {
  const response = await s.admin('GET', '/admin/catalog/drift');
  if (response.status !== 200) throw new Error(`drift: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** The sync at start runs on its own: wait for its report. */
/**
 * Waits for this start's sync. A restarted server reports the last sync it stored until its own ends: a
 * report newer than `before` (the last sync before the restart) is this start's.
 */
async function synced_at_start(s: TestServer, before: any = null): Promise<any> {
  for (let i = 0; i < 100; i++) {
    const report = await drift(s);
    if (report.last_sync !== null && (before?.last_sync == null || report.last_sync.at > before.last_sync.at)) return report;
    await sleep(100);
  }
  throw new Error('no sync at start');
}

function item(report: any, id: string): any {
  return (report.items ?? report.changes).find((entry: any) => entry.id === id);
}

async function plans(s: TestServer, key: string, network: string): Promise<string[]> {
  const response = await s.api('GET', `/v1/services/data/plans?network=${network}`, { key });
  return response.body.data.plans.map((p: any) => p.plan_id);
}

async function metric(s: TestServer, name: string): Promise<number> {
  const response = await s.admin('GET', '/metrics');
  const line = response.text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? Number.NaN : Number(line.split(' ')[1]);
}

const account = await server.reseller(100_000, {}, { rate_limit_per_minute: 1_000_000 });

t.test('at start the sync reads every service with the api-key and public-key headers', async (t) => {
  const report = await synced_at_start(server);
  t.equal(report.upstream, 'default', 'from the configured VTpass upstream');
  const asked = new Set(route.requests.map((r) => r.service_id));
  for (const service_id of ['mtn-data', 'airtel-data', 'glo-data', 'etisalat-data', 'dstv', 'gotv', 'startimes', 'waec', 'waec-registration', 'jamb', 'smile-direct', 'spectranet']) {
    t.ok(asked.has(service_id), `asked for ${service_id}`);
  }
  t.ok(route.requests.every((r) => r.headers['api-key'] === 'fake-api-key' && r.headers['public-key'] === 'fake-public-key'), 'every request with api-key and public-key');
  const services = new Map(report.last_sync.services.map((s: any) => [s.service_id, s]));
  t.equal((services.get('mtn-data') as any).ok, true, 'mtn-data read');
  t.equal((services.get('waec') as any).ok, false, 'waec (no documented answer in the fake) not read');
});

t.test('a new variation appears disabled until the operator prices and enables it', async (t) => {
  const report = await drift(server);
  const id = 'vtpass-mtn-data-mtn-50mb-200';
  t.match(item(report, id), { reason: 'new', service_id: 'mtn-data', variation_code: 'mtn-50mb-200', amount: 200, upstream_amount: 200, enabled: false }, 'mtn-50mb-200 is reported new, at VTpass\'s price, disabled');
  t.notOk((await plans(server, account.key, 'mtn')).includes(id), 'and not on sale');
  const enabled = await server.admin('PATCH', `/admin/catalog/data-plans/${id}`, { amount: 250, enabled: true });
  t.equal(enabled.status, 200, 'the operator prices and enables it');
  t.ok((await plans(server, account.key, 'mtn')).includes(id), 'now it is on sale');
  const again = await server.admin('POST', '/admin/catalog/sync');
  t.equal(again.status, 200, 'synced again');
  t.equal(item(again.body.data, id), undefined, 'no change about it');
  t.equal(item(await drift(server), id), undefined, 'and it is no longer drift');
});

t.test('education: JAMB\'s documented list adds its UTME PIN disabled, for the operator to price, and keeps DE', async (t) => {
  const report = await drift(server);
  t.match(item(report, 'vtpass-jamb-utme'), { kind: 'education-products', reason: 'new', service_id: 'jamb', variation_code: 'utme', upstream_amount: 4700, enabled: false }, 'utme is new, disabled');
  t.equal(item(report, 'jamb-de'), undefined, 'jamb-de (VTpass de, N4,700 upstream, N6,200 ours) is in step');
  // Our shipped JAMB UTME product names variation utme-mock, which the documented list does not carry.
  t.match(item(report, 'jamb-utme'), { reason: 'vanished', variation_code: 'utme-mock', enabled: false }, 'jamb-utme (utme-mock) vanished and is off');
  const listed = async () => (await server.api('GET', '/v1/services/education/products', { key: account.key })).body.data.products.map((p: any) => p.product_code);
  t.notOk((await listed()).includes('vtpass-jamb-utme'), 'the new one is not on sale');
  const enabled = await server.admin('PATCH', '/admin/catalog/education-products/vtpass-jamb-utme', { amount: 6_200, enabled: true });
  t.match(enabled.body.data, { code: 'vtpass-jamb-utme', group: 'jamb', amount: 6_200, enabled: true, service_id: 'jamb', variation_code: 'utme', requires_profile: true }, 'priced and enabled, with the family\'s attributes');
  t.ok((await listed()).includes('vtpass-jamb-utme'), 'now on sale');
});

t.test('a vanished variation is disabled and reported', async (t) => {
  t.ok((await plans(server, account.key, 'glo')).includes('glo-350mb-2d'), 'glo-350mb-2d (VTpass glo200) is on sale');
  route.edit('glo-data', (list) => list.filter((v) => v.variation_code !== 'glo200'));
  const sync = await server.admin('POST', '/admin/catalog/sync');
  t.equal(sync.status, 200, 'synced');
  t.match(item(sync.body.data, 'glo-350mb-2d'), { reason: 'vanished', variation_code: 'glo200', enabled: false }, 'the sync names the change');
  t.notOk((await plans(server, account.key, 'glo')).includes('glo-350mb-2d'), 'it is no longer on sale');
  check_error(t, await buy(server, account.key, '/v1/services/data/purchase', data_body('glo-350mb-2d', 200, '08051234567', { network: 'glo' })), 422, 'service.plan_not_found', 'buying it');
  t.match(item(await drift(server), 'glo-350mb-2d'), { reason: 'vanished', enabled: false }, 'the drift report lists it');
});

t.test('a variation whose VTpass price moved above ours is disabled and reported: event, operator API, CLI, metric', async (t) => {
  const changes_before = await metric(server, 'billvend_catalog_changes_total');
  route.edit('mtn-data', (list) => list.map((v) => (v.variation_code === 'mtn-10mb-100' ? { ...v, variation_amount: '120.00' } : v)));
  const sync = await server.admin('POST', '/admin/catalog/sync');
  t.match(item(sync.body.data, 'mtn-100mb-1d'), { reason: 'price_above', amount: 100, upstream_amount: 120, enabled: false }, 'mtn-100mb-1d costs N120 upstream and sells at N100: disabled');
  check_error(t, await buy(server, account.key, '/v1/services/data/purchase', data_body('mtn-100mb-1d', 100)), 422, 'service.plan_not_found', 'never sold at a loss');
  t.match(item(await drift(server), 'mtn-100mb-1d'), { reason: 'price_above', upstream_amount: 120 }, 'the operator API\'s drift report');
  const event = server.logs.map((line) => JSON.parse(line)).find((line) => line.event === 'catalog.changed' && line.changes?.some((c: any) => c.id === 'mtn-100mb-1d'));
  t.ok(event, 'the log event catalog.changed');
  t.match(event?.changes?.find((c: any) => c.id === 'mtn-100mb-1d'), { reason: 'price_above', amount: 100, upstream_amount: 120 }, 'naming the item, the reason and both prices');
  t.equal(await metric(server, 'billvend_catalog_changes_total'), changes_before + 1, 'billvend_catalog_changes_total counts it');
  t.ok(await metric(server, 'billvend_catalog_drift_items') >= 2, 'billvend_catalog_drift_items counts what is out of step');
  const cli = await run_cli(['catalog', 'drift'], { ADMIN_TOKEN: server.admin_token, ADMIN_PORT: String(server.admin_port), ADMIN_HOST: '127.0.0.1' });
  t.equal(cli.code, 0, `billvend catalog drift exits 0 ${cli.stderr}`);
  t.match(JSON.parse(cli.stdout).items.find((i: any) => i.id === 'mtn-100mb-1d'), { reason: 'price_above' }, 'and prints it');
  // Re-priced above VTpass's price and enabled again: on sale, and the next sync leaves it so.
  t.equal((await server.admin('PATCH', '/admin/catalog/data-plans/mtn-100mb-1d', { amount: 130, enabled: true })).status, 200, 're-priced to N130 and enabled');
  const next = await run_cli(['catalog', 'sync'], { ADMIN_TOKEN: server.admin_token, ADMIN_PORT: String(server.admin_port), ADMIN_HOST: '127.0.0.1' });
  t.equal(next.code, 0, `billvend catalog sync exits 0 ${next.stderr}`);
  t.equal(JSON.parse(next.stdout).changes.find((c: any) => c.id === 'mtn-100mb-1d'), undefined, 'the sync changes nothing about it');
  t.ok((await plans(server, account.key, 'mtn')).includes('mtn-100mb-1d'), 'it is on sale');
});

t.test('a service whose list cannot be read changes nothing', async (t) => {
  route.failing.add('glo-data');
  route.edit('glo-data', () => []);
  const sync = await server.admin('POST', '/admin/catalog/sync');
  t.match(sync.body.data.services.find((s: any) => s.service_id === 'glo-data'), { ok: false, error: 'HTTP 500' }, 'glo-data failed');
  t.equal(sync.body.data.changes.filter((c: any) => c.service_id === 'glo-data').length, 0, 'no change to glo-data');
  t.ok((await plans(server, account.key, 'glo')).includes('glo-105mb-1d'), 'glo-105mb-1d still on sale');
  route.failing.delete('glo-data');
});

t.test('the operator disables, re-prices and enables a TV package (API and CLI), and a disabled one is neither listed nor sold', async (t) => {
  const listed = async () => (await server.api('GET', '/v1/services/tv/packages?provider=dstv', { key: account.key })).body.data.packages.map((p: any) => p.package_code);
  t.ok((await listed()).includes('dstv-compact'), 'dstv-compact is on sale');
  const cli_env = { ADMIN_TOKEN: server.admin_token, ADMIN_PORT: String(server.admin_port), ADMIN_HOST: '127.0.0.1' };
  const off = await run_cli(['product', 'update', 'tv-packages', 'dstv-compact', '--enabled', 'false'], cli_env);
  t.equal(off.code, 0, `billvend product update tv-packages exits 0 ${off.stderr}`);
  t.match(JSON.parse(off.stdout), { package_code: 'dstv-compact', provider: 'dstv', amount: 19_000, enabled: false }, 'it prints the package');
  t.notOk((await listed()).includes('dstv-compact'), 'no longer listed');
  check_error(t, await buy(server, account.key, '/v1/services/tv', tv_body(sandbox.valid_smartcard, 'dstv-compact', 19_000, { provider: 'dstv' })), 422, 'service.plan_not_found', 'buying it');
  const on = await server.admin('PATCH', '/admin/catalog/tv-packages/dstv-compact', { enabled: true, amount: 19_500 });
  t.match(on.body.data, { amount: 19_500, enabled: true }, 're-priced and enabled');
  check_created(t, await buy(server, account.key, '/v1/services/tv', tv_body(sandbox.valid_smartcard, 'dstv-compact', 19_500, { provider: 'dstv' })), 'delivered', 'bought at the new price');
  check_error(t, await server.admin('PATCH', '/admin/catalog/tv-packages/dstv-nothing', { enabled: true }), 422, 'service.plan_not_found', 'an unknown package');
  check_error(t, await server.admin('PATCH', '/admin/catalog/tv-packages/dstv-compact', { amount: 0 }), 400, 'validation.failed', 'amount 0');
});

t.test('a restart keeps what the sync learned and disabled', async (t) => {
  const before = await drift(server);
  await server.stop();
  // Every service fails after the restart: what is known comes from the store alone.
  for (const service_id of ['mtn-data', 'airtel-data', 'glo-data', 'etisalat-data', 'dstv', 'gotv', 'startimes', 'waec', 'waec-registration', 'jamb', 'smile-direct', 'spectranet']) route.failing.add(service_id);
  server = new TestServer(data_dir, env);
  await server.start();
  const after = await synced_at_start(server, before);
  t.same(after.items.map((i: any) => `${i.id}:${i.reason}`).sort(), before.items.map((i: any) => `${i.id}:${i.reason}`).sort(), 'the drift report is the same');
  t.ok(after.recent_changes.some((c: any) => c.id === 'glo-350mb-2d' && c.reason === 'vanished'), 'recent changes kept');
  const relisted = await server.api('GET', '/v1/services/data/plans?network=mtn', { key: account.key });
  const ids = relisted.body.data.plans.map((p: any) => p.plan_id);
  t.ok(ids.includes('vtpass-mtn-data-mtn-50mb-200'), 'the learned plan, enabled by the operator, is still on sale');
  t.ok(ids.includes('mtn-100mb-1d'), 'the re-priced plan is on sale');
  const dstv = (await server.api('GET', '/v1/services/tv/packages?provider=dstv', { key: account.key })).body.data.packages;
  t.match(dstv.find((p: any) => p.package_code === 'dstv-compact'), { amount: 19_500 }, 'the re-priced TV package keeps its price');
  t.notOk((await plans(server, account.key, 'glo')).includes('glo-350mb-2d'), 'the vanished plan is still off');
  t.ok(await metric(server, 'billvend_catalog_drift_items') >= 1, 'the gauge reads the stored drift');
});

t.test('a service answering more than 1,000 variations is refused whole; 1,000 are read', async (t) => {
  for (const service_id of ['startimes', 'mtn-data', 'glo-data']) route.failing.delete(service_id);
  const many = (n: number) => Array.from({ length: n }, (_, i) => ({ variation_code: `bulk-${i}`, name: `Bulk ${i} - 1 Month`, variation_amount: '100.00', fixedPrice: 'Yes' }));
  route.edit('startimes', () => many(1_001));
  const refused = await server.admin('POST', '/admin/catalog/sync');
  t.match(refused.body.data.services.find((s: any) => s.service_id === 'startimes'), { ok: false, error: 'more than 1000 variations' }, '1,001: not read');
  t.equal(refused.body.data.changes.filter((c: any) => c.service_id === 'startimes').length, 0, 'and nothing changed for startimes');
  route.edit('startimes', () => many(1_000));
  const read = await server.admin('POST', '/admin/catalog/sync');
  t.match(read.body.data.services.find((s: any) => s.service_id === 'startimes'), { ok: true, variations: 1_000 }, '1,000: read');
  t.equal(read.body.data.changes.filter((c: any) => c.service_id === 'startimes' && c.reason === 'new').length, 1_000, 'each one added, disabled');
  const listed = await server.api('GET', '/v1/services/tv/packages?provider=startimes', { key: account.key });
  t.equal(listed.body.data.packages.length, 0, 'none on sale, and the five shipped StarTimes packages vanished and were disabled');
});

t.test('the sync runs on its schedule: every 6 hours of the spec, scaled by TIME_SCALE', async (t) => {
  const dir = temp_dir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // 6 h × 0.0002 = 4.3 s between syncs.
  const scheduled = new TestServer(dir, { ...env, TIME_SCALE: '0.0002' });
  t.teardown(() => scheduled.kill());
  const before = route.requests.length;
  await scheduled.start();
  const first = await synced_at_start(scheduled);
  t.equal(first.last_sync.trigger, 'start', 'the first sync at start');
  let report = first;
  for (let i = 0; i < 150 && report.last_sync.trigger !== 'schedule'; i++) {
    await sleep(100);
    report = await drift(scheduled);
  }
  t.equal(report.last_sync.trigger, 'schedule', 'then one on the schedule');
  t.ok(route.requests.length - before >= 24, 'each reading every service');
});

t.test('without a VTpass public key nothing is synced and the operator is told so', async (t) => {
  const dir = temp_dir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const { PROVIDER_PUBLIC_KEY: _omitted, ...without } = env;
  const plain = new TestServer(dir, without);
  t.teardown(() => plain.kill());
  const before = route.requests.length;
  await plain.start();
  const sync = await plain.admin('POST', '/admin/catalog/sync');
  t.equal(sync.status, 200, 'answered');
  t.same([sync.body.data.upstream, sync.body.data.services], [null, []], 'no upstream, no service read');
  t.match(sync.body.message, /public_key/, 'the message says why');
  t.equal(route.requests.length, before, 'VTpass was not asked');
  t.same((await drift(plain)).items, [], 'no drift');
});
