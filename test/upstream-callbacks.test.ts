// Late changes are heard (finding row 4, docs/upstreams.md "Callbacks and reversals"): VTpass's transaction-
// update callbacks at POST /callbacks/vtpass/{upstream}/{callback_token} on the public port, against the
// doc-faithful fake VTpass, which sends the recorded callbacks (test/fixtures/upstreams/vtpass/callback-*.json).
// A callback is a hint: the order moves only on what a re-query of VTpass answers; a reversal of a delivered
// order refunds it exactly once (one reversal entry, transaction.reversed, wallet.reversed). Every test here
// failed before the receiver existed: the path answered 404 and a reversal was never seen.
import t, { type Test } from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { start_upstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { fixture } from './helpers/upstream-fixtures.js';
import { all_wallet_entries, balance_kobo, buy_airtime, entries_of, order, settled_order, wait_for_async, warm_up_live } from './helpers/purchases.js';

const callback_token = 'cb-token-4f0e9a2b7c1d8e3f5a6b0c9d2e7f1a4b';

async function metrics_text(server: TestServer): Promise<string> {
  return (await server.request('GET', '/metrics', { key: null, headers: { authorization: `Bearer ${server.admin_token}` } }, server.admin_base)).text;
}

function metric(text: string, name: string, labels: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

async function events_of(server: TestServer, key: string, kind: string, reference: string): Promise<any[]> {
  const response = await server.api('GET', `/v1/events?type=${kind}&limit=100`, { key });
  return (response.body.data.events as any[]).filter((e) => e.data.reference === reference);
}

async function setup(t: Test) {
  const vtpass: FakeUpstream = await start_upstream(t);
  const upstreams = [{ name: 'vtpass', kind: 'vtpass', base_url: vtpass.base_url, api_key: 'fake-api-key', secret_key: 'fake-secret-key', timeout_ms: 1000, callback_token }];
  // TIME_SCALE 1: the first scheduled re-query is 30 s away, so only the callbacks re-query here.
  const server = await start_server(t, { env: { UPSTREAMS: JSON.stringify(upstreams) } });
  const created = await server.create_account({ kyc_level: 3, phone: '08031112222' });
  const key = (await server.create_key(created.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
  await server.credit(created.id, 'live', 100_000);
  await warm_up_live(server, key);
  const url = `${server.base}/callbacks/vtpass/vtpass/${callback_token}`;
  return { vtpass, server, key, url };
}

t.test('VTpass callbacks', async (t) => {
  const { vtpass, server, key, url } = await setup(t);

  await t.test('a processing order moves on what the re-query says, never on the callback\'s body', async (t) => {
    const phone = '08064000101';
    vtpass.set_mode(phone, 'hold');
    const response = await buy_airtime(server, key, phone, 200);
    t.equal(response.body.data?.status, 'processing', `the purchase is processing (${response.text.slice(0, 120)})`);
    const reference = response.body.data.reference;
    const request_id = vtpass.pays_for(phone)[0].body.request_id;

    // The documented callback says "delivered"; VTpass's own re-query still says pending.
    const first = await vtpass.send_callback(url, request_id);
    t.equal(first.status, 200, 'the callback is answered 200');
    t.same(JSON.parse(first.text), fixture('vtpass', 'callback-expected-response'), 'with {"response":"success"}, as VTpass expects');
    await wait_for_async(async () => (vtpass.calls('/api/requery', request_id).length >= 1 ? true : null), 5_000, 'the re-query the callback asked for');
    await new Promise((resolve) => setTimeout(resolve, 200));
    t.equal((await order(server, key, reference)).status, 'processing', 'the order stays processing: the callback\'s body is not the truth');

    // VTpass settles it; the next callback's re-query delivers the order.
    vtpass.release(phone);
    await vtpass.send_callback(url, request_id);
    const settled = await settled_order(server, key, reference, 5_000);
    t.equal(settled.status, 'delivered', 'the re-query after the second callback delivers it');
    t.equal(vtpass.calls('/api/requery', request_id).length, 2, 'one re-query per callback');
    t.equal(vtpass.pays_for(phone).length, 1, 'nothing was paid again');
  });

  await t.test('a delivered order VTpass reversed is refunded exactly once, however often the callback comes', async (t) => {
    const phone = '08064000102';
    const before = await balance_kobo(server, key);
    const response = await buy_airtime(server, key, phone, 300);
    t.equal(response.body.data?.status, 'delivered', 'the purchase is delivered');
    const reference = response.body.data.reference;
    const request_id = vtpass.pays_for(phone)[0].body.request_id;
    const charged = before - (await balance_kobo(server, key));
    t.ok(charged > 0, `the wallet was debited (${charged} kobo)`);

    // A reversal callback while VTpass's re-query still says delivered: nothing happens.
    await vtpass.send_callback(url, request_id, 'callback-transaction-reversal');
    await wait_for_async(async () => (vtpass.calls('/api/requery', request_id).length >= 1 ? true : null), 5_000, 'the re-query');
    await new Promise((resolve) => setTimeout(resolve, 200));
    t.equal((await order(server, key, reference)).status, 'delivered', 'a reversal callback alone refunds nothing');

    t.ok(vtpass.reverse(request_id), 'VTpass reverses the transaction');
    // VTpass sends its callback up to 5 times; here 3 at once and 2 after.
    const answers = await Promise.all([1, 2, 3].map(() => vtpass.send_callback(url, request_id, 'callback-transaction-reversal')));
    t.same(answers.map((a) => a.status), [200, 200, 200], 'each is answered 200');
    const reversed = await wait_for_async(async () => {
      const record = await order(server, key, reference);
      return record.status === 'failed' ? record : null;
    }, 5_000, 'the reversal');
    const requeries = vtpass.calls('/api/requery', request_id).length;
    t.ok(requeries <= 2, `the three callbacks at once joined one re-query (${requeries - 1})`);
    for (let i = 0; i < 2; i++) t.equal((await vtpass.send_callback(url, request_id, 'callback-transaction-reversal')).status, 200, `repeat ${i + 1} is answered 200`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.equal(vtpass.calls('/api/requery', request_id).length, requeries, 'a refunded order is final: later callbacks ask nothing');

    t.equal(reversed.status, 'failed', 'the order is failed');
    t.match(reversed.failure_reason, /reversed/i, `its failure reason says it was reversed (${reversed.failure_reason})`);
    const entries = await entries_of(server, key, reference);
    t.same(entries.map((e) => e.type), ['debit', 'reversal'], 'one debit and exactly one reversal entry');
    t.equal(Math.round(Number(entries[1].amount) * 100), charged, 'the reversal gives back what was debited');
    t.equal(await balance_kobo(server, key), before, 'the balance is what it was before the purchase');
    const all = await all_wallet_entries(server, key);
    const sum = all.reduce((total, e) => total + (e.type === 'debit' ? -1 : 1) * Math.round(Number(e.amount) * 100), 0);
    t.equal(sum, await balance_kobo(server, key), 'the wallet entries sum to the balance');
    t.equal((await events_of(server, key, 'transaction.reversed', reference)).length, 1, 'one transaction.reversed event');
    t.equal((await events_of(server, key, 'wallet.reversed', reference)).length, 1, 'one wallet.reversed event');
    t.equal((await events_of(server, key, 'transaction.failed', reference)).length, 0, 'no transaction.failed: the delivery was not a failure to deliver');
    const metrics = await metrics_text(server);
    t.equal(metric(metrics, 'billvend_upstream_reversals_total', 'upstream="vtpass",via="callback"'), 1, 'the reversal is counted once');
  });

  await t.test('a wrong token or an upstream without callbacks is a 404 like a path that does not exist, and nothing is asked', async (t) => {
    const requeries = vtpass.calls('/api/requery').length;
    const phone = '08064000103';
    await buy_airtime(server, key, phone, 100);
    const request_id = vtpass.pays_for(phone)[0].body.request_id;
    for (const wrong of [`${server.base}/callbacks/vtpass/vtpass/${callback_token.slice(0, -1)}x`, `${server.base}/callbacks/vtpass/other/${callback_token}`]) {
      const answer = await vtpass.send_callback(wrong, request_id, 'callback-transaction-reversal');
      t.equal(answer.status, 404, 'answered 404');
      t.equal(JSON.parse(answer.text).error.code, 'route.not_found', 'route.not_found, as any path that is not there');
    }
    const unmatched = await fetch(`${server.base}/callbacks/nothing/here`, { method: 'POST', body: '{}' });
    t.equal(unmatched.status, 404, 'a path that does not exist is 404 too');
    t.equal(((await unmatched.json()) as any).error.code, 'route.not_found', 'with the same code');
    await new Promise((resolve) => setTimeout(resolve, 200));
    t.equal(vtpass.calls('/api/requery').length, requeries, 'no re-query was made');
    t.ok(metric(await metrics_text(server), 'billvend_upstream_callbacks_total', 'upstream="vtpass",outcome="refused"') >= 1, 'the refusal is counted');
  });

  await t.test('a callback for a request id never sent is answered as VTpass expects and changes nothing', async (t) => {
    const requeries = vtpass.calls('/api/requery').length;
    const answer = await vtpass.send_callback(url, '202611271200zzzzzzzzzzzz');
    t.equal(answer.status, 200, 'answered 200');
    t.same(JSON.parse(answer.text), { response: 'success' }, 'with {"response":"success"}: VTpass stops sending it');
    const variations = await vtpass.send_callback(url, 'x', 'callback-transaction-update', JSON.stringify({ type: 'variations-update', serviceID: 'smile-direct' }));
    t.equal(variations.status, 200, 'another type of callback is answered 200 too');
    t.equal(vtpass.calls('/api/requery').length, requeries, 'nothing was re-queried');
    const metrics = await metrics_text(server);
    t.equal(metric(metrics, 'billvend_upstream_callbacks_total', 'upstream="vtpass",outcome="unknown_request"'), 1, 'counted as an unknown request');
    t.equal(metric(metrics, 'billvend_upstream_callbacks_total', 'upstream="vtpass",outcome="ignored"'), 1, 'the other type counted as ignored');
  });

  await t.test('a body that is not JSON, or too large, is refused in the error shape', async (t) => {
    const garbled = await vtpass.send_callback(url, 'x', 'callback-transaction-update', '{"type": "transaction-update", ');
    t.equal(garbled.status, 400, 'a body that is not JSON: 400');
    t.equal(JSON.parse(garbled.text).error.code, 'request.malformed_json', 'request.malformed_json');
    const no_request = await vtpass.send_callback(url, 'x', 'callback-transaction-update', JSON.stringify({ type: 'transaction-update', data: {} }));
    t.equal(no_request.status, 400, 'a transaction-update without data.requestId: 400');
    t.equal(JSON.parse(no_request.text).error.code, 'validation.failed', 'validation.failed');
    const large = await vtpass.send_callback(url, 'x', 'callback-transaction-update', JSON.stringify({ type: 'transaction-update', data: { requestId: 'x', pad: 'a'.repeat(8 * 1024) } }));
    t.equal(large.status, 413, 'a body over 8 KiB: 413');
  });
});
