// The crash campaign's two checkers on bulk orders (test/crash/README.md), against a real server and its
// real store, for the two false findings of a full campaign run (seed 1803280861):
//
// 1. The API check read the wallet history before the batch, so an item that failed (re-queried after
//    the restart) between the two reads showed as "failed with 0 refunds": the refund was simply newer
//    than the history it was looked for in. Single purchases read their order before the history.
//    Read the other way round, an item still processing when the batch is read may show its refund in
//    the history read after it, as a single purchase's order may (the next run, seed 424242017).
// 2. The journal check matched a stored batch to the request that made it only through an item with a
//    client_reference of its own, so a batch whose every item repeats a purchase's client_reference
//    (one item to the provider-down number, refused transaction.provider_unavailable) belonged to "no
//    bulk order the driver sent".
import t from 'tap';
import { start_server, type ApiResponse, type TestServer } from '../helpers/server.js';
import { fast_reseller, sandbox, wait_for_async } from '../helpers/purchases.js';
import { ApiChecker } from './api-checker.js';
import { check_store } from './checker.js';
import type { Ack, Model, Op, PurchaseSpec, Wallet } from './model.js';

const time_scale = 0.2;

function ack_of(response: ApiResponse, round = 1): Ack {
  return { status: response.status, text: response.text, body: response.body, replayed: false, at_ms: Date.now(), round, resent: false };
}

function model_of(wallet: Wallet, ops: Op[]): Model {
  return {
    run_id: 'checkers-bulk',
    time_scale,
    idempotency_ttl_ms: 24 * 60 * 60 * 1000 * time_scale,
    accounts: [{ id: wallet.account_id, tier: 'standard', wallets: { test: wallet, live: { ...wallet, environment: 'live' } }, funding_numbers: {} }],
    pricing: {},
    ops,
    created_keys: [],
    funding: { providers: [], transfers: [], reseller_fee_tiers: [] },
  };
}

function bulk_op(n: number, wallet: Wallet, items: PurchaseSpec[], idem: string | null): Op {
  return {
    n, kind: 'bulk', round: 1, account_id: wallet.account_id, environment: 'test', method: 'POST', path: '/v1/services/bulk', operator: false,
    body: { pin: '12345', items: items.map((item) => ({ service_type: 'airtime', network: 'mtn', phone: item.recipient, amount: item.amount_kobo / 100, client_reference: item.client_reference })) },
    idem, sent_ms: Date.now(), sends: 1, twin: false, bulk: { items }, ack: null, api_checked: false,
  };
}

async function send(server: TestServer, wallet: Wallet, op: Op): Promise<Op> {
  const response = await server.request(op.method, op.path, { key: wallet.key, body: op.body, ...(op.idem === null ? {} : { idempotency_key: op.idem }) });
  op.ack = ack_of(response);
  return op;
}

t.test('the API check of a bulk order finds the refund of an item that failed after the check began', async (t) => {
  const server = await start_server(t, { env: { TIME_SCALE: String(time_scale), LOG_LEVEL: 'warn' } });
  const reseller = await fast_reseller(server);
  const wallet: Wallet = { account_id: reseller.id, environment: 'test', key: reseller.key, key_id: reseller.key_id, endpoint_id: 0, tag: 'a1-test' };
  // A delayed failure (30 s scaled to 6 s): the order is processing when the check starts.
  const op = await send(server, wallet, bulk_op(1, wallet, [{ service: 'airtime', recipient: sandbox.delayed_failed, amount_kobo: 10_615, expect: 'delayed_failed', client_reference: 'cb-1-0' }], 'checkers-bulk-1'));
  t.equal(op.ack!.status, 202, `the bulk order is accepted (${op.ack!.text.slice(0, 200)})`);
  const reference = op.ack!.body.data.items[0].reference as string;
  t.equal(op.ack!.body.data.items[0].status, 'processing', 'its item is still processing');

  // The server as the checker sees it, except that a read of the batch waits until the item's order has
  // failed: the failure lands between the checker's reads, where the re-query after a restart put it.
  let batch_reads = 0;
  const watched = Object.create(server) as TestServer;
  watched.request = async (method, path, options, base) => {
    if (method === 'GET' && path.startsWith('/v1/services/bulk/')) {
      batch_reads++;
      await wait_for_async(async () => {
        const order = await server.request('GET', `/v1/transactions/${reference}`, { key: wallet.key });
        return order.body?.data?.status === 'failed' ? true : null;
      }, 60_000, `order ${reference} to fail`);
    }
    return server.request(method, path, options, base);
  };
  const checker = new ApiChecker(() => watched, model_of(wallet, [op]));
  const violations = await checker.check_acks([op]);
  t.ok(batch_reads > 0, 'the check read the batch');
  t.same(violations, [], 'the item shows failed, and the wallet history read after the batch holds its one refund');
});

t.test('the API check of a bulk order accepts the refund of an item that was processing when the batch was read and failed before the wallet history was', async (t) => {
  const server = await start_server(t, { env: { TIME_SCALE: String(time_scale), LOG_LEVEL: 'warn' } });
  const reseller = await fast_reseller(server);
  const wallet: Wallet = { account_id: reseller.id, environment: 'test', key: reseller.key, key_id: reseller.key_id, endpoint_id: 0, tag: 'a1-test' };
  const op = await send(server, wallet, bulk_op(1, wallet, [{ service: 'airtime', recipient: sandbox.delayed_failed, amount_kobo: 20_000, expect: 'delayed_failed', client_reference: 'cb-2-0' }], 'checkers-bulk-3'));
  t.equal(op.ack!.status, 202, `the bulk order is accepted (${op.ack!.text.slice(0, 200)})`);
  const reference = op.ack!.body.data.items[0].reference as string;
  // Now the failure lands after the batch is read, before the wallet history is: as a single purchase's
  // order may (round 17 of seed 424242017 after the fix above).
  let shown_processing = false;
  const watched = Object.create(server) as TestServer;
  watched.request = async (method, path, options, base) => {
    if (method === 'GET' && path.startsWith('/v1/wallet/transactions')) {
      await wait_for_async(async () => {
        const order = await server.request('GET', `/v1/transactions/${reference}`, { key: wallet.key });
        return order.body?.data?.status === 'failed' ? true : null;
      }, 60_000, `order ${reference} to fail`);
    }
    const response = await server.request(method, path, options, base);
    if (method === 'GET' && path.startsWith('/v1/services/bulk/') && response.body?.data?.items?.[0]?.status === 'processing') shown_processing = true;
    return response;
  };
  const violations = await new ApiChecker(() => watched, model_of(wallet, [op])).check_acks([op]);
  t.ok(shown_processing, 'the check read the item as processing');
  t.same(violations, [], 'an item read as processing may show its one refund in the history read after it');
});

t.test('the journal check finds the request of a bulk order whose every item repeats a purchase\'s client_reference, and accepts the refusal the documented order of checks gives', async (t) => {
  const server = await start_server(t, { env: { TIME_SCALE: String(time_scale), LOG_LEVEL: 'warn' } });
  const reseller = await fast_reseller(server);
  const wallet: Wallet = { account_id: reseller.id, environment: 'test', key: reseller.key, key_id: reseller.key_id, endpoint_id: 0, tag: 'a1-test' };
  const purchase = await server.request('POST', '/v1/services/airtime', { key: wallet.key, body: { network: 'mtn', phone: sandbox.delivered, amount: 120, pin: '12345', client_reference: 'cb-used' } });
  t.equal(purchase.status, 201, `the purchase that takes the client_reference is delivered (${purchase.text.slice(0, 200)})`);
  const original = purchase.body.data.reference as string;
  const purchase_op: Op = {
    n: 1, kind: 'purchase', round: 1, account_id: wallet.account_id, environment: 'test', method: 'POST', path: '/v1/services/airtime', operator: false,
    body: { network: 'mtn', phone: sandbox.delivered, amount: 120, pin: '12345', client_reference: 'cb-used' }, idem: null, sent_ms: Date.now(), sends: 1, twin: false,
    purchase: { service: 'airtime', recipient: sandbox.delivered, amount_kobo: 12_000, expect: 'delivered', client_reference: 'cb-used' }, ack: ack_of(purchase), api_checked: false,
  };
  // The provider is down for this number: that check comes before the claim of the client_reference,
  // as for a single purchase, so the item is refused transaction.provider_unavailable.
  const down = await send(server, wallet, bulk_op(2, wallet, [{ service: 'airtime', recipient: sandbox.provider_down, amount_kobo: 19_194, expect: 'unavailable', client_reference: 'cb-used', reused_of: original }], 'checkers-bulk-2'));
  t.equal(down.ack!.body?.data?.items?.[0]?.error?.code, 'transaction.provider_unavailable', `the provider-down item is refused as unavailable (${down.ack!.text.slice(0, 300)})`);
  // The same for a single purchase: 503, not 409.
  const single = await server.request('POST', '/v1/services/airtime', { key: wallet.key, body: { network: 'mtn', phone: sandbox.provider_down, amount: 191.94, pin: '12345', client_reference: 'cb-used' } });
  t.equal(single.body?.error?.code, 'transaction.provider_unavailable', `a single purchase with both is refused the same way (${single.status} ${single.text.slice(0, 200)})`);
  // A number the provider serves: the reused client_reference is what refuses it.
  const reused = await send(server, wallet, bulk_op(3, wallet, [{ service: 'airtime', recipient: sandbox.delivered, amount_kobo: 15_000, expect: 'delivered', client_reference: 'cb-used', reused_of: original }], null));
  t.equal(reused.ack!.body?.data?.items?.[0]?.error?.code, 'transaction.duplicate_reference', `the other item is refused as a duplicate reference (${reused.ack!.text.slice(0, 300)})`);
  // The same request once more without a key: a second batch, made by a request the driver also sent.
  const again = await send(server, wallet, bulk_op(4, wallet, [{ service: 'airtime', recipient: sandbox.delivered, amount_kobo: 15_000, expect: 'delivered', client_reference: 'cb-used', reused_of: original }], null));
  t.equal(again.ack!.status, 202, 'the repeat is a second bulk order');
  await server.stop();

  const model = model_of(wallet, [purchase_op, down, reused, again]);
  const report = await check_store(server.data_dir, model, { snapshot_ms: Date.now(), final: false, upstream: { transactions: new Map(), requests: [], paid_twice: () => [] } as never, acked_before_ms: Date.now() });
  // The model knows only these requests (no webhook endpoint, no keys): only the bulk checks are judged here.
  const about_batches = report.violations.filter((v) => v.startsWith('batch ') || v.startsWith('bulk request') || v.includes('of a bulk item'));
  t.same(about_batches, [], 'each stored batch is the one its request made, once, its items refused as documented');
});
