// kill -9 with orders in flight (docs/decisions.md "Transactions", "Idempotency"; src/services/order-desk.ts
// recover): sandbox orders waiting for their delayed answer and live orders waiting on a slow or
// processing upstream are open when the server dies. After each restart (LMDB_RESTORE=safe: only
// flushed commits survive, as after a power cut) every open order is re-queried, never re-sent.
// Once nothing is open: every order is delivered or failed and refunded, each wallet equals its
// credits minus its delivered orders to the kobo and the sum of its entries, no reference appears
// twice, every acknowledged answer still holds, and the upstream saw each request_id paid at most once.
import t from 'tap';
import { rmSync } from 'node:fs';
import { TestServer, temp_dir, type ApiResponse } from './helpers/server.js';
import { FakeUpstream } from './helpers/fake-upstream.js';
import { sleep } from './helpers/fixtures-http.js';
import { airtime_body, all_orders, all_wallet_entries, balance_kobo, electricity_body, kobo, order, sandbox, tv_body, warm_up_live } from './helpers/purchases.js';

interface Attempt {
  wallet: Wallet;
  path: string;
  body: Record<string, unknown>;
  idempotency_key: string;
  /** The answer before the kill, or null when the connection died first. */
  answer: ApiResponse | null;
}

interface Wallet {
  account_id: number;
  environment: 'test' | 'live';
  key: string;
}

/** One purchase kind per row; the writers take them in turn. */
const kinds: { environment: 'test' | 'live'; path: string; body: (n: number) => Record<string, unknown>; mode?: Parameters<FakeUpstream['set_mode']>[1] }[] = [
  { environment: 'test', path: '/v1/services/airtime', body: () => airtime_body(sandbox.delivered, 100) },
  { environment: 'test', path: '/v1/services/airtime', body: () => airtime_body(sandbox.delayed_delivered, 150.5) },
  { environment: 'test', path: '/v1/services/airtime', body: () => airtime_body(sandbox.delayed_failed, 200.25) },
  { environment: 'test', path: '/v1/services/airtime', body: () => airtime_body(sandbox.failed, 75) },
  { environment: 'test', path: '/v1/services/electricity', body: () => electricity_body(sandbox.prepaid_meter, 650.1) },
  { environment: 'test', path: '/v1/services/tv', body: () => tv_body(sandbox.valid_smartcard) },
  { environment: 'live', path: '/v1/services/airtime', body: (n) => airtime_body(`0813100${String(n).padStart(4, '0')}`, 100.01), mode: 'deliver' },
  { environment: 'live', path: '/v1/services/airtime', body: (n) => airtime_body(`0813200${String(n).padStart(4, '0')}`, 120), mode: 'slow' },
  { environment: 'live', path: '/v1/services/airtime', body: (n) => airtime_body(`0813300${String(n).padStart(4, '0')}`, 130), mode: 'processing' },
  { environment: 'live', path: '/v1/services/airtime', body: (n) => airtime_body(`0813400${String(n).padStart(4, '0')}`, 140), mode: 'processing_fail' },
  { environment: 'live', path: '/v1/services/airtime', body: (n) => airtime_body(`0813500${String(n).padStart(4, '0')}`, 160), mode: 'fail' },
  { environment: 'live', path: '/v1/services/electricity', body: (n) => electricity_body(`45020${String(n).padStart(8, '0')}`, 700), mode: 'slow' },
];

t.test('after kill -9 with orders in flight, every order ends delivered or refunded exactly once and every wallet adds up', async (t) => {
  const data_dir = temp_dir();
  t.teardown(() => rmSync(data_dir, { recursive: true, force: true }));
  const upstream = new FakeUpstream();
  await upstream.start();
  t.teardown(() => upstream.stop());
  upstream.slow_ms = 500;
  upstream.processing_requeries = 2;
  // TIME_SCALE 0.01: the sandbox's delayed answers come after 300 ms, re-queries after 0.3, 0.6,
  // 1.2 s then every 3 s, the "no such request" grace is 1.2 s.
  const server = new TestServer(data_dir, { TIME_SCALE: '0.01', LOG_LEVEL: 'info', ...upstream.env(200) });
  t.teardown(() => server.kill());
  await server.start();

  const wallets: Wallet[] = [];
  const credited_kobo = new Map<Wallet, number>();
  for (let i = 0; i < 3; i++) {
    const account = await server.create_account({ kyc_level: 3 });
    for (const environment of ['test', 'live'] as const) {
      const key = await server.create_key(account.id, { environment, rate_limit_per_minute: 1_000_000 });
      const wallet = { account_id: account.id, environment, key: key.api_key };
      // Enough that no wallet runs dry however many purchases get in before the kills: every answer
      // below must be a purchase result, not a refusal for funds.
      await server.credit(account.id, environment, 1_000_000);
      wallets.push(wallet);
      credited_kobo.set(wallet, 1_000_000_00);
    }
  }

  await warm_up_live(server, wallets.find((w) => w.environment === 'live')!.key);

  const attempts: Attempt[] = [];
  let sequence = 0;
  /** Writers buy in turn until the server dies under them. */
  async function load_until_killed(writers: number, acks_min: number, load_ms_min: number): Promise<void> {
    let alive = true;
    const writer = async () => {
      while (alive) {
        const n = sequence++;
        const kind = kinds[n % kinds.length];
        const environment_wallets = wallets.filter((w) => w.environment === kind.environment);
        const wallet = environment_wallets[Math.floor(n / kinds.length) % environment_wallets.length];
        const body = kind.body(n);
        const billers = String(body.phone ?? body.meter_number ?? body.smartcard_number);
        if (kind.mode !== undefined) upstream.set_mode(billers, kind.mode);
        const attempt: Attempt = { wallet, path: kind.path, body, idempotency_key: `crash-${n}`, answer: null };
        attempts.push(attempt);
        try {
          attempt.answer = await server.api('POST', kind.path, { key: wallet.key, body, idempotency_key: attempt.idempotency_key });
        } catch {
          return; // the connection died with the server
        }
      }
    };
    const started = Date.now();
    const acked_before = attempts.filter((a) => a.answer !== null).length;
    const running = Array.from({ length: writers }, writer);
    while (attempts.filter((a) => a.answer !== null).length < acked_before + acks_min || Date.now() - started < load_ms_min) await sleep(10);
    await server.kill();
    alive = false;
    await Promise.all(running);
  }

  for (let round = 1; round <= 2; round++) {
    await load_until_killed(16, 40, 1_000);
    const logged_before = server.logs.length;
    await server.start({ LMDB_RESTORE: 'safe' });
    const resumed = server.logs.slice(logged_before).map((line) => /"open_orders":(\d+).*"msg":"open orders resumed"/.exec(line)).find((m) => m !== null);
    t.ok(resumed && Number(resumed[1]) > 0, `restart ${round}: orders were open at the kill and were resumed (${resumed?.[1] ?? 0})`);
  }
  const acked = attempts.filter((a) => a.answer !== null);
  t.ok(acked.length >= 80, `${acked.length} of ${attempts.length} purchases were answered before the kills`);
  const answer_kinds = new Set(acked.map((a) => `${a.answer!.status} ${a.answer!.body?.data?.status ?? a.answer!.body?.error?.code}`));
  t.ok(answer_kinds.has('201 processing'), `some orders were still processing when answered, so orders were open at the kills (answers seen: ${[...answer_kinds].join(', ')})`);
  t.same([...answer_kinds].filter((k) => !['201 delivered', '201 processing', '422 transaction.failed', '503 transaction.provider_unavailable'].includes(k)), [], 'every answer before the kills was a purchase result, a refunded failure or a refusal before any debit');

  // Every request is sent again with its idempotency key: an answered one gets its answer again, an
  // unanswered one finds its order (or, when nothing of it survived, is processed now) — never twice.
  let resent = 0;
  for (let i = 0; i < attempts.length; i += 20) {
    await Promise.all(attempts.slice(i, i + 20).map(async (attempt) => {
      const again = await server.api('POST', attempt.path, { key: attempt.wallet.key, body: attempt.body, idempotency_key: attempt.idempotency_key });
      resent++;
      if (attempt.answer !== null && attempt.answer.status !== 503) {
        if (again.status !== attempt.answer.status || again.text !== attempt.answer.text) {
          t.fail(`${attempt.idempotency_key}: answered ${attempt.answer.status} ${attempt.answer.text} before the kill, ${again.status} ${again.text} after`);
        }
      } else if (![201, 422, 503].includes(again.status)) {
        t.fail(`${attempt.idempotency_key}: the retry after the restart answered ${again.status} ${again.text}`);
      }
      if (attempt.answer === null || attempt.answer.status === 503) attempt.answer = again;
    }));
  }
  t.equal(resent, attempts.length, `all ${attempts.length} requests were sent again after the last restart, each answered as above`);

  // Wait until no order is open anywhere.
  const deadline = Date.now() + 40_000;
  let open: string[] = [];
  for (;;) {
    open = [];
    for (const wallet of wallets) {
      for (const o of await all_orders(server, wallet.key)) if (o.status !== 'successful' && o.status !== 'failed') open.push(`${o.reference} ${o.status}`);
    }
    if (open.length === 0 || Date.now() > deadline) break;
    await sleep(200);
  }
  t.same(open, [], 'no order is still open');

  const all_references = new Set<string>();
  let orders_checked = 0;
  for (const wallet of wallets) {
    const what = `account ${wallet.account_id} ${wallet.environment}`;
    const orders = await all_orders(server, wallet.key);
    const entries = await all_wallet_entries(server, wallet.key);
    const balance = await balance_kobo(server, wallet.key);

    const references = orders.map((o) => o.reference);
    t.equal(new Set(references).size, references.length, `${what}: no reference appears twice in the order history`);
    for (const reference of references) {
      if (all_references.has(reference)) t.fail(`${reference} appears in two wallets`);
      all_references.add(reference);
    }
    const reversals = entries.filter((e) => e.type === 'reversal').map((e) => e.reference);
    t.equal(new Set(reversals).size, reversals.length, `${what}: no reference appears twice among reversals`);
    const debits = entries.filter((e) => e.type === 'debit').map((e) => e.reference);
    t.equal(new Set(debits).size, debits.length, `${what}: no order was debited twice`);
    t.same([...debits].sort(), [...references].sort(), `${what}: each order has exactly one debit, and each debit an order`);

    const failed = orders.filter((o) => o.status === 'failed');
    t.same([...reversals].sort(), failed.map((o) => o.reference).sort(), `${what}: exactly the failed orders were reversed`);
    for (const f of failed) {
      const record = await order(server, wallet.key, f.reference);
      if (record.reversed !== true) t.fail(`${what}: failed order ${f.reference} is not marked reversed`);
    }
    const delivered_kobo = orders.filter((o) => o.status === 'successful').reduce((sum, o) => sum + kobo(o.amount), 0);
    t.equal(balance, credited_kobo.get(wallet)! - delivered_kobo, `${what}: the balance equals credits − delivered orders to the kobo`);
    const sum_kobo = entries.reduce((sum, e) => sum + (e.type === 'debit' ? -kobo(e.amount) : kobo(e.amount)), 0);
    t.equal(balance, sum_kobo, `${what}: the balance equals credits − debits + reversals of its entries`);
    const ids = entries.map((e) => e.id).sort((a, b) => a - b);
    t.same(ids, Array.from({ length: ids.length }, (_, i) => i + 1), `${what}: entry ids run 1..${ids.length} without gaps`);
    for (let i = 0; i < entries.length - 1; i++) {
      if (kobo(entries[i].balance_before) !== kobo(entries[i + 1].balance_after)) t.fail(`${what}: entry ${entries[i].id} does not start where entry ${entries[i + 1].id} ended`);
    }
    orders_checked += orders.length;
  }
  t.ok(orders_checked >= acked.length / 2, `${orders_checked} orders were checked`);

  // Each key names at most one order, and the answer it gave names that order and its outcome.
  let keys_checked = 0;
  for (const attempt of attempts) {
    const found = await server.api('GET', `/v1/transactions?idempotency_key=${encodeURIComponent(attempt.idempotency_key)}`, { key: attempt.wallet.key });
    const listed: { reference: string; status: string }[] = found.body.data.transactions;
    if (listed.length > 1) t.fail(`${attempt.idempotency_key} names ${listed.length} orders`);
    const answer = attempt.answer!;
    const reference = answer.body?.data?.reference ?? answer.body?.error?.reference ?? null;
    if (reference !== null && listed[0]?.reference !== reference) t.fail(`${attempt.idempotency_key}: answered ${reference} but the key names ${listed[0]?.reference}`);
    if (answer.status === 201 && answer.body.data.status === 'delivered' && listed[0]?.status !== 'successful') t.fail(`${attempt.idempotency_key}: answered delivered, now ${listed[0]?.status}`);
    if (answer.status === 422 && answer.body?.error?.code === 'transaction.failed' && listed[0]?.status !== 'failed') t.fail(`${attempt.idempotency_key}: answered failed, now ${listed[0]?.status}`);
    keys_checked++;
  }
  t.equal(keys_checked, attempts.length, 'every idempotency key names at most one order, consistent with its answer');

  t.same(upstream.paid_twice(), [], 'the upstream saw each request_id paid at most once');
  const live_orders = (await Promise.all(wallets.filter((w) => w.environment === 'live').map((w) => all_orders(server, w.key)))).flat();
  t.ok(upstream.calls('/api/pay').length <= live_orders.length, `the upstream was paid ${upstream.calls('/api/pay').length} times for ${live_orders.length} live orders`);
});
