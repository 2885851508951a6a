// The right network for every number (docs/api.md "Phone lookup", docs/decisions.md "Ported numbers"): the
// lookup from the numbering plan, a ported number learned from a live delivery through the doc-faithful
// VTpass fake (kept across a restart), the mismatch refusal, omitted networks (single, data by its plan,
// bulk), the ported switch and the sandbox's magic numbers, which take any network.
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { airtime_body, balance_kobo, check_created, check_error, data_body, warm_up_live } from './helpers/purchases.js';

const upstream = await start_upstream(t);
const server = await start_server(t, { env: { TIME_SCALE: '0.5', ...upstream.env(1_000) } });

async function live_reseller(s: TestServer, live_ngn = 100_000) {
  const account = await s.reseller(10_000, {}, { rate_limit_per_minute: 1_000_000 });
  const live = await s.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  if (live_ngn > 0) await s.credit(account.id, 'live', live_ngn);
  return { ...account, test_key: account.key, key: live.api_key };
}

const buyer = await live_reseller(server);
await warm_up_live(server, buyer.key);

async function lookup(phone: string, key = buyer.key) {
  return server.api('GET', `/v1/lookup/phone/${phone}`, { key });
}

t.test('the lookup answers each network from its prefix, null for another operator\'s, and refuses what is not a number', async (t) => {
  const rows: [string, string | null][] = [
    ['08031234567', 'mtn'], ['07031234567', 'mtn'], ['09161234567', 'mtn'], ['07025123456', 'mtn'],
    ['08021234567', 'airtel'], ['09121234567', 'airtel'], ['07011234567', 'airtel'],
    ['08051234567', 'glo'], ['09151234567', 'glo'],
    ['08091234567', '9mobile'], ['08181234567', '9mobile'],
    // Smile's 0702 (07025 and 07026 are MTN's), ntel's 0804, MAFAB's 0801: none of the four.
    ['07021234567', null], ['08041234567', null], ['08011234567', null], ['01234567890', null],
  ];
  for (const [phone, network] of rows) {
    const answer = await lookup(phone);
    t.equal(answer.status, 200, `${phone} answers 200`);
    t.same(answer.body.data, { phone, network, ported: false, source: 'prefix' }, `${phone} is ${network}, from its prefix`);
  }
  t.same((await lookup('2348031234567')).body.data?.phone, '08031234567', '234 and 10 digits is read in local form');
  t.same((await lookup('%2B2348051234567')).body.data, { phone: '08051234567', network: 'glo', ported: false, source: 'prefix' }, '+234 and 10 digits too');
  for (const bad of ['0803123456', '080312345678', '0803123456x', 'abc', '%E0%A4%A']) {
    check_error(t, await lookup(bad), 400, 'validation.failed', `${bad} is refused`);
  }
  const wallet_only = await server.create_key(buyer.id, { environment: 'live', scopes: ['wallet:read'] });
  t.equal((await lookup('08031234567', wallet_only.api_key)).status, 200, 'a key of the narrowest scope may look up (it reads no account\'s data)');
  t.equal((await server.api('GET', '/v1/lookup/phone/08031234567', { key: null })).status, 401, 'without a key it is refused');
});

t.test('a purchase may omit the network: it is detected from the number, or for data from the plan', async (t) => {
  const account = await server.reseller(10_000);
  const { network: _network, ...airtime } = airtime_body('08051230001', 100);
  const bought = await server.api('POST', '/v1/services/airtime', { key: account.key, body: airtime });
  check_created(t, bought, 'delivered', 'airtime without a network');
  t.equal(bought.body.data?.network, 'glo', 'the order is on the detected network');
  const unknown = await server.api('POST', '/v1/services/airtime', { key: account.key, body: { ...airtime, phone: '07021230001' } });
  check_error(t, unknown, 400, 'validation.failed', 'a number of no known network without a network');
  t.equal(unknown.body.error?.details?.[0]?.field, 'network', 'the refusal names the network field');
  const { network: _n, ...data } = data_body('mtn-100mb-1d', 100, '08031230002');
  const bundle = await server.api('POST', '/v1/services/data/purchase', { key: account.key, body: data });
  check_created(t, bundle, 'delivered', 'data without a network');
  t.equal(bundle.body.data?.network, 'mtn', 'the data order is on the plan\'s network');
  const wrong_plan = await server.api('POST', '/v1/services/data/purchase', { key: account.key, body: { ...data, phone: '08051230002' } });
  check_error(t, wrong_plan, 422, 'service.network_mismatch', 'an MTN plan for a Glo number');
  t.equal(wrong_plan.body.error?.detected_network, 'glo', 'the refusal names the number\'s network');
  const batch = await server.api('POST', '/v1/services/bulk', {
    key: account.key,
    body: { pin: '12345', items: [{ service_type: 'airtime', phone: '08091230003', amount: 50 }] },
  });
  t.equal(batch.body.data?.items?.[0]?.status, 'delivered', `a bulk item without a network is delivered (${batch.text})`);
  const order = await server.api('GET', `/v1/transactions/${batch.body.data?.items?.[0]?.reference}`, { key: account.key });
  t.equal(order.body.data?.network, '9mobile', 'on the detected network');
});

t.test('a network the number is not on is 422 service.network_mismatch and debits nothing; ported: true buys it', async (t) => {
  const account = await server.reseller(10_000);
  const before = await balance_kobo(server, account.key);
  const refused = await server.api('POST', '/v1/services/airtime', { key: account.key, body: airtime_body('08031230010', 100, { network: 'airtel' }) });
  check_error(t, refused, 422, 'service.network_mismatch', 'airtel airtime for an MTN number');
  t.equal(refused.body.error?.detected_network, 'mtn', 'error.detected_network names the number\'s network');
  t.equal(await balance_kobo(server, account.key), before, 'nothing was debited');
  const ported = await server.api('POST', '/v1/services/airtime', { key: account.key, body: airtime_body('08031230010', 100, { network: 'airtel', ported: true }) });
  check_created(t, ported, 'delivered', 'airtel airtime for a number said ported');
  t.equal(ported.body.data?.network, 'airtel', 'the order is on the network given');
  const unknown_prefix = await server.api('POST', '/v1/services/airtime', { key: account.key, body: airtime_body('07021230010', 100, { network: 'glo' }) });
  check_created(t, unknown_prefix, 'delivered', 'a named network for a number of no known network is taken');
});

t.test('the sandbox\'s magic numbers take any network with a test key, not with a live one', async (t) => {
  const account = await server.reseller(10_000);
  // 08022222222 is an Airtel prefix: the sandbox fails it on purpose, whatever the network.
  const failed = await server.api('POST', '/v1/services/airtime', { key: account.key, body: airtime_body('08022222222', 100) });
  check_error(t, failed, 422, 'transaction.failed', 'mtn to the sandbox\'s failing number reaches the sandbox');
  for (const phone of ['08011111111', '08033333333', '08044444444']) {
    for (const network of ['mtn', 'airtel', 'glo', '9mobile']) {
      const answer = await server.api('POST', '/v1/services/airtime', { key: account.key, body: airtime_body(phone, 50, { network }) });
      t.equal(answer.status, 201, `${network} to ${phone} is taken`);
    }
  }
  const live = await server.api('POST', '/v1/services/airtime', { key: buyer.key, body: airtime_body('08055555555', 100, { network: 'mtn' }) });
  check_error(t, live, 422, 'service.network_mismatch', 'a live key buying mtn for the Glo number 08055555555');
});

t.test('a live delivery on another network teaches the lookup, a test one does not, and the table survives a restart', async (t) => {
  const phone = '08031239999';
  const sandbox = await server.api('POST', '/v1/services/airtime', { key: buyer.test_key, body: airtime_body(phone, 100, { network: 'glo', ported: true }) });
  check_created(t, sandbox, 'delivered', 'a sandbox delivery to a ported number');
  t.same((await lookup(phone)).body.data, { phone, network: 'mtn', ported: false, source: 'prefix' }, 'a test delivery teaches nothing');

  const live = await server.api('POST', '/v1/services/airtime', { key: buyer.key, body: airtime_body(phone, 100, { network: 'glo', ported: true }) });
  check_created(t, live, 'delivered', 'a live delivery on glo');
  t.equal(upstream.pays_for(phone).at(-1)?.body.serviceID, 'glo', 'VTpass was paid on glo');
  t.same((await lookup(phone)).body.data, { phone, network: 'glo', ported: true, source: 'delivery' }, 'the number is now known on glo');
  t.same((await lookup(phone, buyer.test_key)).body.data?.network, 'glo', 'for every key: the table is the platform\'s');
  const other = await live_reseller(server, 1_000);
  const accepted = await server.api('POST', '/v1/services/airtime', { key: other.key, body: airtime_body(phone, 100, { network: 'glo' }) });
  t.equal(accepted.status, 201, `another account buys glo for it without ported (${accepted.text.slice(0, 200)})`);
  const mismatch = await server.api('POST', '/v1/services/airtime', { key: other.key, body: airtime_body(phone, 100, { network: 'mtn' }) });
  check_error(t, mismatch, 422, 'service.network_mismatch', 'mtn, its prefix\'s network, is now a mismatch');
  t.equal(mismatch.body.error?.detected_network, 'glo', 'detected from the delivery');
  const { network: _network, ...omitted } = airtime_body(phone, 100);
  const detected = await server.api('POST', '/v1/services/airtime', { key: other.key, body: omitted });
  t.equal(detected.body.data?.network, 'glo', 'an omitted network is the learned one');

  await server.stop();
  await server.start();
  t.same((await lookup(phone)).body.data, { phone, network: 'glo', ported: true, source: 'delivery' }, 'the learned number survives a restart');

  // Ported back: a live delivery on the prefix's own network removes it.
  check_created(t, await server.api('POST', '/v1/services/airtime', { key: buyer.key, body: airtime_body(phone, 100, { network: 'mtn', ported: true }) }), 'delivered', 'a live delivery on mtn');
  t.same((await lookup(phone)).body.data, { phone, network: 'mtn', ported: false, source: 'prefix' }, 'back on its prefix\'s network');
  await server.stop();
  await server.start();
  t.same((await lookup(phone)).body.data?.source, 'prefix', 'and the removal survives a restart');
});
