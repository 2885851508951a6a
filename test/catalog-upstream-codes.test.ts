// The catalog speaks each upstream's codes (docs/upstreams.md "Catalog codes and sync"): a live purchase is
// sent to VTpass with VTpass's serviceID and variation_code of the item (DStv Compact is dstv79, StarTimes
// Nova is nova, MTN's N100 plan mtn-10mb-100), never our catalog id; an item VTpass has no code for is not
// sent to it at all. TV renewals read Current_Bouquet_Code as a list of VTpass codes and the due date from
// DUE_DATE as well as Due_Date. Regression: until this, `dstv-compact` and `mtn-100mb-1d` went out as
// variation_codes, which VTpass refuses (code 010).
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { start_server, type TestServer } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { buy, check_created, data_body, kobo, order, tv_body, warm_up_live, balance_kobo, phone_on } from './helpers/purchases.js';
import { variation_fixtures, variations_of } from './helpers/fake-vtpass-variations.js';

const upstream = await start_upstream(t);
const server = await start_server(t, { env: { TIME_SCALE: '0.5', ...upstream.env(1_000) } });

async function live_reseller(s: TestServer, live_ngn = 100_000) {
  const account = await s.reseller(10_000, {}, { rate_limit_per_minute: 1_000_000 });
  const live = await s.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  await s.credit(account.id, 'live', live_ngn);
  return { ...account, key: live.api_key };
}

const account = await live_reseller(server);
await warm_up_live(server, account.key);

t.test('a live DStv Compact purchase sends VTpass\'s variation_code dstv79, not our dstv-compact', async (t) => {
  const response = await buy(server, account.key, '/v1/services/tv', tv_body('7012340001', 'dstv-compact', 19_000, { provider: 'dstv' }));
  check_created(t, response, 'delivered', 'DStv Compact');
  const pays = upstream.pays_for('7012340001');
  t.equal(pays.length, 1, 'paid once');
  t.equal(pays[0]?.body.serviceID, 'dstv', 'serviceID dstv');
  t.equal(pays[0]?.body.variation_code, 'dstv79', 'variation_code is VTpass\'s dstv79');
  t.equal(response.body.data.package_code, 'dstv-compact', 'the customer still sees our package_code');
});

t.test('StarTimes and GOtv packages go out with their VTpass codes', async (t) => {
  const rows: [string, string, number, string][] = [
    ['startimes', 'startimes-nova', 1_900, 'nova'],
    ['startimes', 'startimes-basic', 3_700, 'basic'],
    ['gotv', 'gotv-max', 8_500, 'gotv-max'],
  ];
  let n = 10;
  for (const [provider, package_code, amount, code] of rows) {
    const smartcard = `70123400${n++}`;
    check_created(t, await buy(server, account.key, '/v1/services/tv', tv_body(smartcard, package_code, amount, { provider })), 'delivered', package_code);
    t.equal(upstream.pays_for(smartcard)[0]?.body.variation_code, code, `${package_code}: variation_code ${code}`);
    t.equal(upstream.pays_for(smartcard)[0]?.body.serviceID, provider, `${package_code}: serviceID ${provider}`);
  }
});

t.test('a data purchase sends VTpass\'s serviceID and variation_code of the plan', async (t) => {
  const rows: [string, string, number, string, string][] = [
    ['mtn', 'mtn-100mb-1d', 100, 'mtn-data', 'mtn-10mb-100'],
    ['glo', 'glo-350mb-2d', 200, 'glo-data', 'glo200'],
    ['9mobile', '9mobile-100mb-1d', 100, 'etisalat-data', 'eti-100'],
  ];
  let n = 20;
  for (const [network, plan, amount, service_id, code] of rows) {
    const phone = phone_on(network, `12340${n++}`);
    check_created(t, await buy(server, account.key, '/v1/services/data/purchase', data_body(plan, amount, phone, { network })), 'delivered', plan);
    const pay = upstream.pays_for(phone)[0];
    t.equal(pay?.body.serviceID, service_id, `${plan}: serviceID ${service_id}`);
    t.equal(pay?.body.variation_code, code, `${plan}: variation_code ${code}`);
  }
});

t.test('a plan VTpass has no code for is never sent to it: the order fails before anything is sent and is refunded', async (t) => {
  const before = await balance_kobo(server, account.key);
  const response = await buy(server, account.key, '/v1/services/data/purchase', data_body('mtn-1gb-1d', 350, '08061234099'));
  t.equal(response.status, 422, 'the purchase failed at once');
  t.equal(response.body.error?.code, 'transaction.failed', 'transaction.failed, refunded');
  t.match(response.body.error?.message, /not offered by upstream/, 'saying the upstream does not offer it');
  const settled = await order(server, account.key, response.body.error?.reference);
  t.equal(settled.status, 'failed', 'the order failed');
  t.equal(upstream.pays_for('08061234099').length, 0, 'VTpass was never asked to sell mtn-1gb-1d');
  t.equal(await balance_kobo(server, account.key), before, 'and the wallet got its money back');
});

t.test('a renewal reads Current_Bouquet_Code as a list of VTpass codes and the due date from DUE_DATE', async (t) => {
  const smartcard = '7012340099';
  // As VTpass answers for a DStv Compact smartcard with the ExtraView add-on, spelling the due date DUE_DATE.
  upstream.verify_content.set(smartcard, { Current_Bouquet_Code: 'dstv79, extraview-access', DUE_DATE: '2026-12-24T00:00:00', Due_Date: undefined, Renewal_Amount: '21500.00' });
  const verified = await server.api('POST', '/v1/services/tv/verify', { key: account.key, body: { provider: 'dstv', smartcard_number: smartcard } });
  t.equal(verified.status, 200, 'verified');
  t.equal(verified.body.data.current_package_code, 'dstv-compact', 'dstv79 is our dstv-compact; the add-on is not a package');
  t.equal(verified.body.data.due_date, '2026-12-24T00:00:00', 'the due date read from DUE_DATE');
  const renewed = await buy(server, account.key, '/v1/services/tv', tv_body(smartcard, 'dstv-compact', 21_500, { provider: 'dstv', subscription_type: 'renew' }));
  check_created(t, renewed, 'delivered', 'the renewal naming the current package');
  t.equal(renewed.body.data.package_code, 'dstv-compact', 'the renewed package is ours');
  const pay = upstream.pays_for(smartcard)[0];
  t.equal(pay?.body.subscription_type, 'renew', 'sent as a renewal');
  t.equal(pay?.body.variation_code, undefined, 'a renewal sends no variation_code');
  t.equal(kobo(pay?.body.amount), 21_500_00, 'at the renewal amount');
  const record = await order(server, account.key, renewed.body.data.reference);
  t.equal(record.package_code, 'dstv-compact', 'the order names our package');
});

t.test('a renewal whose current bouquet is not one of ours names no package and refuses another one', async (t) => {
  const smartcard = '7012340098';
  upstream.verify_content.set(smartcard, { Current_Bouquet_Code: 'hdpvr-access-service', Due_Date: '2026-12-30' });
  const verified = await server.api('POST', '/v1/services/tv/verify', { key: account.key, body: { provider: 'dstv', smartcard_number: smartcard } });
  t.equal(verified.body.data.current_package_code, null, 'no package of ours');
  t.equal(verified.body.data.due_date, '2026-12-30', 'Due_Date still read');
});

t.test('every shipped VTpass code of a documented service is one VTpass documents, or the docs elide it', async (t) => {
  // The documented answers are partial (the pages elide with "..."); a shipped code that appears in none
  // of them is listed here by name, so a typo in data/catalog cannot hide.
  const documented = new Set<string>();
  for (const [service_id, fixture] of variation_fixtures()) for (const v of variations_of(fixture.answer)) documented.add(`${service_id}:${v.variation_code}`);
  const shipped = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'data', 'catalog', 'tv-packages.json'), 'utf8')).packages as { package_code: string; vtpass: { service_id: string; variation_code: string } }[];
  const compact = shipped.find((p) => p.package_code === 'dstv-compact');
  t.same(compact?.vtpass, { service_id: 'dstv', variation_code: 'dstv79' }, 'DStv Compact ships as dstv79');
  t.ok(documented.has('dstv:dstv79'), 'which the DStv page documents');
  const plans = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'data', 'catalog', 'data-plans.json'), 'utf8')).plans as { plan_id: string; vtpass?: { service_id: string; variation_code: string } }[];
  for (const plan of plans) {
    if (plan.vtpass === undefined) continue;
    t.ok(documented.has(`${plan.vtpass.service_id}:${plan.vtpass.variation_code}`), `${plan.plan_id}: ${plan.vtpass.variation_code} is in VTpass's documented ${plan.vtpass.service_id} list`);
  }
});

t.test('Flutterwave\'s DStv codes in the catalog are those of its documented bill categories', async (t) => {
  const categories = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'upstreams', 'flutterwave', 'billers', 'bill-categories.json'), 'utf8'));
  t.match(categories.source, /^https:\/\//, 'the fixture names its source');
  const shipped = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'data', 'catalog', 'tv-packages.json'), 'utf8')).packages as { package_code: string; flutterwave?: { type: string; biller_code: string; item_code: string } }[];
  for (const item of shipped.filter((p) => p.flutterwave !== undefined)) {
    const found = categories.answer.data.find((c: any) => c.biller_code === item.flutterwave!.biller_code && c.item_code === item.flutterwave!.item_code && c.biller_name === item.flutterwave!.type);
    t.ok(found, `${item.package_code}: biller ${item.flutterwave!.biller_code}, item ${item.flutterwave!.item_code}, type ${item.flutterwave!.type} are documented`);
  }
});

t.test('every fixture of a documented answer names its source page', async (t) => {
  for (const [service_id, fixture] of variation_fixtures()) {
    t.match(fixture.source, /^https:\/\/www\.vtpass\.com\/documentation\//, `${service_id}: source is a VTpass documentation page`);
    t.equal(fixture.answer.content.serviceID, service_id, `${service_id}: the answer is of its service`);
  }
});


