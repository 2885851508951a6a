// The fakes check what the real upstreams check (docs/upstreams.md), so the suite cannot pass on a request
// VTpass or Flutterwave would refuse: VTpass's api-key and secret-key (087), request_id format (085) and
// reuse (014), a known serviceID (012), its duplicate guard (019 within 30 s) and, when switched on, a known
// variation_code (010); Flutterwave's bearer key (401) and its create-then-verify answers.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { start_upstream, lagos_minute, variations_beyond_stored_copy } from './helpers/fake-upstream.js';
import { repo_root } from './helpers/server.js';
import { start_flutterwave, flutterwave_secret } from './helpers/fake-flutterwave.js';

async function post(base: string, path: string, body: unknown, headers: Record<string, string> = { 'api-key': 'fake-api-key', 'secret-key': 'fake-secret-key' }) {
  const response = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() as any };
}

const request_id = (suffix: string) => `${lagos_minute(Date.now())}${suffix}`;

t.test('the fake VTpass refuses what VTpass refuses, with its documented answers', async (t) => {
  const vtpass = await start_upstream(t);
  const pay = (body: Record<string, unknown>, headers?: Record<string, string>) => post(vtpass.base_url, '/api/pay', { serviceID: 'mtn', billersCode: '08011111111', amount: 100, phone: '08011111111', ...body }, headers);
  t.equal((await pay({ request_id: request_id('a1') }, { 'api-key': 'wrong', 'secret-key': 'fake-secret-key' })).body.code, '087', 'a wrong api-key: 087 INVALID CREDENTIALS');
  t.equal((await pay({ request_id: 'abc123' })).body.code, '085', 'a request id without today\'s Lagos date: 085');
  t.equal((await pay({ request_id: request_id('b1'), serviceID: 'dstv-compact', billersCode: '08011111112' })).body.code, '012', 'an unknown serviceID: 012 PRODUCT DOES NOT EXIST');
  const first = await pay({ request_id: request_id('c1'), billersCode: '08011111113' });
  t.equal(first.body.code, '000', 'a good purchase: 000');
  t.equal(first.body.content.transactions.status, 'delivered', 'delivered');
  t.equal((await pay({ request_id: request_id('c1'), billersCode: '08011111114' })).body.code, '014', 'the same request id again: 014');
  t.equal((await pay({ request_id: request_id('c2'), billersCode: '08011111113' })).body.code, '019', 'the same service for the same biller within 30 s: 019');
  t.equal((await pay({ request_id: request_id('c3'), serviceID: 'airtel', billersCode: '08011111113' })).body.code, '000', 'another service for that biller is not a duplicate');
  vtpass.check_variation_codes = true;
  vtpass.variations.set('mtn-data', new Set(['mtn-10mb-100']));
  t.equal((await pay({ request_id: request_id('d1'), serviceID: 'mtn-data', billersCode: '08011111115', variation_code: 'mtn-100mb-1d' })).body.code, '010', 'with the switch on, an unknown variation_code: 010');
  t.equal((await pay({ request_id: request_id('d2'), serviceID: 'mtn-data', billersCode: '08011111116', variation_code: 'mtn-10mb-100' })).body.code, '000', 'and a known one is sold');
  t.equal((await post(vtpass.base_url, '/api/requery', { request_id: request_id('zz') })).body.code, '015', 'a re-query of an unknown request id: 015');
  const smile = await post(vtpass.base_url, '/api/merchant-verify/smile/email', { billersCode: 'tester@example.ng', serviceID: 'smile-direct' });
  t.equal(smile.body.content.Customer_Name, 'Adaeze Okafor', 'a Smile e-mail is verified at its own endpoint');
  const wrong_path = await post(vtpass.base_url, '/api/merchant-verify', { billersCode: 'tester@example.ng', serviceID: 'smile-direct', type: 'email' });
  t.equal(wrong_path.body.content.WrongBillersCode, true, 'and not at the generic one');
});

t.test('the fake VTpass checks variation codes by default: our own catalog ids are refused, every code the catalog ships is VTpass\'s', async (t) => {
  const vtpass = await start_upstream(t);
  t.equal(vtpass.check_variation_codes, true, 'the check is on without a test asking for it');
  const pay = (suffix: string, body: Record<string, unknown>) => post(vtpass.base_url, '/api/pay', { request_id: request_id(suffix), amount: 100, phone: '08011111111', ...body });
  t.equal((await pay('v1', { serviceID: 'dstv', billersCode: '1212121201', variation_code: 'dstv-compact' })).body.code, '010', 'DStv Compact under our own id: 010 VARIATION CODE DOES NOT EXIST');
  t.equal((await pay('v2', { serviceID: 'dstv', billersCode: '1212121202', variation_code: 'dstv79' })).body.code, '000', 'under VTpass\'s dstv79: sold');
  t.equal((await pay('v3', { serviceID: 'mtn-data', billersCode: '08011111117', variation_code: 'mtn-100mb-1d' })).body.code, '010', 'an MTN plan under our own plan id: 010');
  t.equal((await pay('v4', { serviceID: 'ikeja-electric', billersCode: '1111111111111', variation_code: 'prepaid' })).body.code, '000', 'a meter type is a documented electricity variation');
  // Every VTpass code the shipped catalog sends is one the fake knows (or of a service it holds no list for).
  const shipped: [string, string][] = [];
  const catalog_dir = join(repo_root, 'data', 'catalog');
  for (const plan of JSON.parse(readFileSync(join(catalog_dir, 'data-plans.json'), 'utf8')).plans) if (plan.vtpass) shipped.push([plan.vtpass.service_id, plan.vtpass.variation_code]);
  for (const item of JSON.parse(readFileSync(join(catalog_dir, 'tv-packages.json'), 'utf8')).packages) if (item.vtpass) shipped.push([item.vtpass.service_id, item.vtpass.variation_code]);
  for (const name of ['education-products.json', 'internet-plans.json']) {
    for (const item of JSON.parse(readFileSync(join(catalog_dir, name), 'utf8')).items ?? []) if (item.service_id && item.variation_code) shipped.push([item.service_id, item.variation_code]);
  }
  t.ok(shipped.length >= 40, `the catalog ships VTpass codes (${shipped.length})`);
  for (const [service_id, code] of shipped) {
    const known = vtpass.variations.get(service_id);
    t.ok(known === undefined || known.has(code), `${service_id} ${code}: ${known === undefined ? 'no recorded list for the service' : 'a code VTpass sells'}`);
  }
  t.ok(Object.values(variations_beyond_stored_copy).flat().length <= 15, 'the codes taken beyond the recorded answers stay few and listed');
});

t.test('the fake Flutterwave needs the bearer key and answers a create without a status', async (t) => {
  const flw = await start_flutterwave(t);
  const bill = { country: 'NG', customer: '+2348011111111', amount: 100, recurrence: 'ONCE', type: 'AIRTIME', reference: 'ref-1' };
  t.equal((await post(flw.base_url, '/v3/bills', bill, { authorization: 'Bearer wrong' })).status, 401, 'a wrong key: 401');
  const created = await post(flw.base_url, '/v3/bills', bill, { authorization: `Bearer ${flutterwave_secret}` });
  t.equal(created.body.message, 'Bill payment successful', 'the documented create answer');
  t.equal(created.body.data.status, undefined, 'which carries no status');
  const status = await fetch(`${flw.base_url}/v3/bills/ref-1`, { headers: { authorization: `Bearer ${flutterwave_secret}` } });
  t.equal(((await status.json()) as any).data.status, 'successful', 'the bill\'s status says it');
});
