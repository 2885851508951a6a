// The journal check's "a key processed twice" against the key's TTL (test/crash/README.md "Partitions"): a retry
// after the key's record expired buys again, as docs/api.md says (24 h, times TIME_SCALE), and the partition rounds'
// re-sends, after a fault and a failover, came 93 s after their first send, past the scaled 86.4 s. Against a real
// server at TIME_SCALE 0.0001 (a TTL of 8.64 s): a keyed sandbox purchase, and its key sent again once the record
// expired, which buys a second order. The check must accept that, and fire on the same store when the model's TTL
// says the key was still remembered. (No live purchase: the fake VTpass is never started, its record empty.)
import t, { type Test } from 'tap';
import { start_server, type ApiResponse } from '../helpers/server.js';
import { wait_for_async } from '../helpers/purchases.js';
import { FakeUpstream } from '../helpers/fake-upstream.js';
import { check_store } from './checker.js';
import type { Ack, Model, Op, PurchaseSpec, Wallet } from './model.js';

t.setTimeout(120_000);

const time_scale = 0.0001;
const ttl_ms = 24 * 60 * 60 * 1000 * time_scale;

/**
 * A keyed airtime purchase on a funded sandbox wallet, then the same request again until its key no longer replays
 * (its record expired and the sweep removed it); the server is stopped after. Returns both answers and, for a model
 * of the re-send (`op`), a check of the stored journal under a given TTL: the violations naming the key or `also`.
 */
async function bought_then_expired(t: Test, name: string, extra: { client_reference?: string }, also: RegExp | null) {
  const server = await start_server(t, { env: { TIME_SCALE: String(time_scale), LOG_LEVEL: 'warn' } });
  const owner = await server.create_account();
  const created = await server.create_key(owner.id, { environment: 'test', rate_limit_per_minute: 1_000_000 });
  await server.request('POST', '/v1/sandbox/wallet/fund', { key: created.api_key, body: { amount: 10_000, reference: `FUND-${name}` }, idempotency_key: `fund-${name}` });
  const wallet: Wallet = { account_id: owner.id, environment: 'test', key: created.api_key, key_id: created.id, endpoint_id: 0, tag: 'a1-test' };
  const body = { network: 'mtn', phone: '08011111111', amount: 100, pin: owner.pin, ...extra };
  const idem = `key-${name}`;
  const sent_ms = Date.now();
  const buy = () => server.request('POST', '/v1/services/airtime', { key: wallet.key, body, idempotency_key: idem });
  const first = await buy();
  t.equal(first.status, 201, `the first purchase is delivered (${first.text.slice(0, 200)})`);
  const second = await wait_for_async(async () => {
    const again = await buy();
    return again.headers.get('idempotent-replayed') === 'true' ? null : again;
  }, 60_000, 'the key to expire');
  await server.stop();

  /** The re-send as the driver records it; `sent` when it was first sent (by default, before the first purchase). */
  const op = (purchase: Omit<PurchaseSpec, 'service' | 'recipient' | 'amount_kobo'>, answer: ApiResponse, sent = sent_ms): Op => ({
    n: 1, kind: 'purchase', round: 1, account_id: owner.id, environment: 'test', method: 'POST', path: '/v1/services/airtime', operator: false,
    body, idem, sent_ms: sent, sends: 2, twin: false, api_checked: true,
    ack: { status: answer.status, text: answer.text, body: answer.body, replayed: false, at_ms: Date.now(), round: 1, resent: true } satisfies Ack,
    purchase: { service: 'airtime', recipient: body.phone, amount_kobo: 100_00, ...purchase },
  });
  const about_the_key = async (resent: Op, ttl: number) => {
    const model: Model = {
      run_id: `checkers-ttl-${name}`, time_scale, idempotency_ttl_ms: ttl,
      accounts: [{ id: owner.id, tier: 'standard', wallets: { test: wallet, live: { ...wallet, environment: 'live' } }, funding_numbers: {} }],
      pricing: {}, ops: [resent], created_keys: [], funding: { providers: [], transfers: [], reseller_fee_tiers: [] },
    };
    const report = await check_store(server.data_dir, model, { snapshot_ms: Date.now(), final: false, upstream: new FakeUpstream(), other_upstreams: [], acked_before_ms: Date.now() });
    return report.violations.filter((v) => v.includes(idem) || (also !== null && also.test(v)));
  };
  return { first, second, op, about_the_key };
}

t.test('a key sent again after its record expired may buy again; within the TTL it may not', async (t) => {
  const { first, second, op, about_the_key } = await bought_then_expired(t, 'buys-again', {}, /processed twice|whose record names/);
  t.equal(second.status, 201, 'the key sent again after its TTL buys again');
  t.not(second.body.data.reference, first.body.data.reference, 'a second order');
  // First sent "now": young enough for the checks of its record, which must pass as well.
  const resent = op({ expect: 'delivered' }, second, Date.now());
  t.same(await about_the_key(resent, ttl_ms), [], 'the journal check accepts the second order bought after the key expired');
  const within = await about_the_key(resent, 10 * 60 * 1000);
  t.ok(within.some((v) => /a key processed twice/.test(v)), `with a TTL that had not run out, the same store is a key processed twice (${within.join(' | ')})`);
  t.ok(within.some((v) => /created 2 orders within its TTL/.test(v)), 'and the acknowledged answer\'s key created two orders');
});

t.test('a key sent again after its record expired, with the client_reference its first send placed, is a 409 naming that order; within the TTL it is a lost record', async (t) => {
  // Seen in the partition campaign of 2026-11-29 (seed 9300, round 111): purchases, a bulk order and key creations sent
  // before a stream-leader cut were answered again after the failover and a kill, past the scaled TTL: each ran afresh
  // and found its own client_reference (409), its batch's (every item refused), or the key limit.
  const { first, second, op, about_the_key } = await bought_then_expired(t, 'refused', { client_reference: 'ttl-ref-2' }, null);
  t.equal(second.status, 409, 'the key sent again after its TTL is refused');
  t.equal(second.body?.error?.code, 'transaction.duplicate_reference', 'by its client_reference');
  t.equal(second.body?.error?.reference, first.body.data.reference, 'naming the order its first send placed');
  const resent = op({ expect: 'delivered', client_reference: 'ttl-ref-2' }, second);
  t.same(await about_the_key(resent, ttl_ms), [], 'the journal check accepts the 409 answered after the key expired');
  const within = await about_the_key(resent, 10 * 60 * 1000);
  t.ok(within.some((v) => /nothing bought\), yet key key-refused created order/.test(v)), `with a TTL that had not run out, the same answer is a lost record (${within.join(' | ')})`);
});

t.test('a key creation sent again after its record expired makes a second key; within the TTL that is one request processed twice', async (t) => {
  // Seen in the partition campaign of 2026-11-29 (seed 9621, rounds 131 and 135): key creations cut by a stream-leader
  // cut were re-sent after the failover, the kill and the checks, past the scaled TTL, and each made a second key of its
  // name. The journal check then counted two keys of one name as a creation processed twice, whatever their times.
  const server = await start_server(t, { env: { TIME_SCALE: String(time_scale), LOG_LEVEL: 'warn' } });
  const owner = await server.create_account();
  const created = await server.create_key(owner.id, { environment: 'test', rate_limit_per_minute: 1_000_000 });
  const wallet: Wallet = { account_id: owner.id, environment: 'test', key: created.api_key, key_id: created.id, endpoint_id: 0, tag: 'a1-test' };
  const key_name = 'crash-key-ttl-1';
  const body = { name: key_name, environment: 'test' };
  const idem = 'key-create-ttl';
  const sent_ms = Date.now();
  const create = () => server.request('POST', '/v1/keys', { key: wallet.key, body, idempotency_key: idem });
  const first = await create();
  t.equal(first.status, 201, `the first creation makes a key (${first.text.slice(0, 200)})`);
  const replayed = await create();
  t.equal(replayed.headers.get('idempotent-replayed'), 'true', 'sent again at once, it replays');
  t.equal(replayed.body?.data?.id, first.body?.data?.id, 'the same key');
  const second = await wait_for_async(async () => {
    const again = await create();
    return again.headers.get('idempotent-replayed') === 'true' ? null : again;
  }, 60_000, 'the creation\'s key to expire');
  t.equal(second.status, 201, 'sent again after its TTL, it makes a key');
  t.not(second.body.data.id, first.body.data.id, 'a second key of the same name');
  await server.stop();

  const about_the_name = async (ttl: number) => {
    const op: Op = {
      n: 1, kind: 'key_create', round: 1, account_id: owner.id, environment: 'test', method: 'POST', path: '/v1/keys', operator: false,
      body, idem, key_name, sent_ms, sends: 2, twin: false, api_checked: true,
      ack: { status: 201, text: second.text, body: second.body, replayed: false, at_ms: Date.now(), round: 1, resent: true } satisfies Ack,
    };
    const model: Model = {
      run_id: 'checkers-ttl-keys', time_scale, idempotency_ttl_ms: ttl,
      accounts: [{ id: owner.id, tier: 'standard', wallets: { test: wallet, live: { ...wallet, environment: 'live' } }, funding_numbers: {} }],
      pricing: {}, ops: [op], created_keys: [], funding: { providers: [], transfers: [], reseller_fee_tiers: [] },
    };
    const report = await check_store(server.data_dir, model, { snapshot_ms: Date.now(), final: false, upstream: new FakeUpstream(), other_upstreams: [], acked_before_ms: Date.now() });
    return report.violations.filter((v) => v.includes(key_name));
  };
  t.same(await about_the_name(ttl_ms), [], 'the journal check accepts two keys of one name made a TTL apart');
  const within = await about_the_name(10 * 60 * 1000);
  t.ok(within.some((v) => /created 2 keys within its key's TTL: processed twice/.test(v)), `with a TTL that had not run out, the same store is a creation processed twice (${within.join(' | ')})`);
  t.ok(within.some((v) => /2 keys are named "crash-key-ttl-1" within its key's TTL of the answered one/.test(v)), 'and the acknowledged answer names one of two');
});
