// The store's disk fills up (docs/design.md "Design"; src/journal/disk-guard.ts): the server must answer writes
// with a clear 503 service.unavailable and Retry-After, keep answering reads, never answer 500, never
// crash and never corrupt the store; once space is back, writes resume on their own within seconds,
// and every acknowledged operation is in the store exactly once, with wallets that add up. lmdb-js
// grows its memory map by itself, so a "full map" is the same condition as a file that cannot grow:
// a small tmpfs is both.
//
// The store lives on an 8 MiB tmpfs mounted for this test (it needs root; without the permission the
// test is skipped and says why). A ballast file leaves STORE_FREE_BYTES_MIN plus about 1.25 MiB free,
// so that a few hundred operations fill the disk. Then:
//   1. lanes of purchases (sandbox numbers: delivered, failed, delayed delivered, delayed failed) and
//      operator credits run until the store refuses writes; every answer is recorded;
//   2. the ballast grows below the reserve: the server is degraded; writes are refused, reads go on;
//   3. the ballast goes: writes resume; every refused operation is retried with its idempotency key or
//      funding reference and is processed once;
//   4. the API and then, with the server killed, the store itself (opened read-only with lmdb) show
//      every acknowledged operation exactly once and wallets equal to the sum of their entries;
//   5. a restart on the same store recovers cleanly.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, rmdirSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { open_store, store_reference_codec, TestServer, type ApiResponse } from './helpers/server.js';
import { all_orders, all_wallet_entries, balance_kobo, kobo, sandbox } from './helpers/purchases.js';
import { log_records, sleep, wait_for } from './helpers/fixtures-http.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';

const tmpfs_bytes = 8 * 1024 * 1024;
/** STORE_FREE_BYTES_MIN of the server under test: below this much free space writes are refused. */
const reserve_bytes = 1024 * 1024;
/** Free space above the reserve left by the ballast: a few hundred operations fill it. */
const headroom_bytes = 1280 * 1024;
/** Requests in flight while filling the disk. */
const lanes = 6;
/** Enough refusals to be sure the condition holds, not a single unlucky batch. */
const refusals_wanted = 40;
/**
 * The fill must happen within this; a store that never refuses is a failure, not a hang. An upper
 * bound only (the lanes stop at refusals_wanted): generous for a 2-core machine shared with builds.
 */
const fill_limit_ms = 60_000;
/**
 * Writes must resume this soon after space is back (disk guard: 250 ms refresh, 1 s probe). The bound
 * tells "resumes by itself" from "stays refused"; on a machine at load 25 a probe can wait seconds.
 */
const resume_limit_ms = 15_000;
/** TIME_SCALE 0.001: sandbox delays of 30 s take 30 ms, re-queries after 30 ms, 60 ms, ... */
const time_scale = 0.001;

type Kind = 'credit' | 'delivered' | 'failed' | 'delayed_delivered' | 'delayed_failed';
const kinds_in_turn: Kind[] = ['delivered', 'credit', 'failed', 'delivered', 'delayed_delivered', 'credit', 'delivered', 'delayed_failed'];
const phone_of: Record<Exclude<Kind, 'credit'>, string> = {
  delivered: sandbox.delivered,
  failed: sandbox.failed,
  delayed_delivered: sandbox.delayed_delivered,
  delayed_failed: sandbox.delayed_failed,
};

interface Account {
  id: number;
  key: string;
  /** A second key, left unused until the disk is full: its first request writes last_used_at. */
  idle_key: string;
  funding_kobo: number;
}

/** One operation and what the server answered to it, last answer first-class. */
interface Op {
  kind: Kind;
  account: Account;
  amount: number;
  /** X-Idempotency-Key of a purchase, funding reference of a credit. */
  key: string;
  answers: number[];
  /** Set once an answer acknowledged the operation: the order reference, or the credit's. */
  reference: string | null;
  /**
   * A purchase refused with 503 although its order was placed (its debit saved before the disk filled,
   * its answer not): the reference the 503 names. Its retry resumes that order (docs/decisions.md).
   */
  placed: string | null;
}

function free_bytes(dir: string): number {
  const stats = statfsSync(dir);
  return Number(stats.bavail) * Number(stats.bsize);
}

/** Mounts a tmpfs; null when it worked, else why not (no root, no tmpfs in this container). */
function mount_tmpfs(dir: string): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${tmpfs_bytes}`, 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '').trim();
    return (stderr || (error as Error).message).replace(/\s+/g, ' ');
  }
}

function unmount(dir: string): void {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      execFileSync('umount', [dir], { stdio: 'pipe' });
      return;
    } catch {
      // Busy for a moment after the server was killed: try again, then lazily.
      execFileSync('sleep', ['0.1']);
    }
  }
  execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
}

const mount_point = mkdtempSync(join(tmpdir(), 'billvend-diskfull-'));
const mount_error = mount_tmpfs(mount_point);

if (mount_error !== null) {
  rmdirSync(mount_point);
  t.comment(`cannot mount a tmpfs (${mount_error}); run as root to test a full disk`);
  t.test('the store\'s disk fills up and frees again', { skip: `cannot mount a tmpfs: ${mount_error}` }, async () => {});
} else {
  const data_dir = join(mount_point, 'store');
  mkdirSync(data_dir);
  const ballast = join(mount_point, 'ballast');
  // One webhook receiver per account (each endpoint has its own secret). They hold every request
  // from the first write until space is back, so webhook attempts are in flight when a commit fails
  // and the engine replaces the accounts' actors; each must then be recorded through the reloaded one.
  const receivers = [new WebhookReceiver(), new WebhookReceiver()];
  for (const receiver of receivers) await receiver.start();
  const server = new TestServer(data_dir, webhook_env({
    TIME_SCALE: String(time_scale),
    STORE_FREE_BYTES_MIN: String(reserve_bytes),
    LOG_LEVEL: 'info',
    WEBHOOK_TIMEOUT_MS: '120000',
  }));
  t.teardown(async () => {
    for (const receiver of receivers) await receiver.stop();
    await server.kill();
    unmount(mount_point);
    rmSync(mount_point, { recursive: true, force: true });
  });
  await server.start();

  const accounts: Account[] = [];
  for (let i = 0; i < 2; i++) {
    const made = await server.reseller(1_000_000, { kyc_level: 3 }, { rate_limit_per_minute: 1_000_000 });
    const idle = await server.create_key(made.id, { rate_limit_per_minute: 1_000_000 });
    accounts.push({ id: made.id, key: made.key, idle_key: idle.api_key, funding_kobo: 1_000_000_00 });
    const endpoint = await server.api('POST', '/v1/webhooks', { key: made.key, body: { url: receivers[i].url, events: ['wallet.credited', 'wallet.debited'] } });
    if (endpoint.status !== 201) throw new Error(`webhook endpoint: ${endpoint.status} ${endpoint.text}`);
    receivers[i].secret = endpoint.body.data.secret;
    receivers[i].holding = true;
  }
  const ops: Op[] = [];
  /** Every answer the server gave to a write, by status. */
  const statuses = new Map<number, number>();
  const refusals: ApiResponse[] = [];

  let op_counter = 0;
  function new_op(): Op {
    const n = op_counter++;
    const kind = kinds_in_turn[n % kinds_in_turn.length];
    // Accounts in turn, shifted every round of kinds, so that each account gets every kind.
    const account = accounts[(n + Math.floor(n / kinds_in_turn.length)) % accounts.length];
    // Kobo amounts that are not round, so that a lost or doubled entry shows in the sums.
    const amount = kind === 'credit' ? 1000 + (n % 97) + 0.37 : 50 + (n % 41) + 0.25;
    const op: Op = { kind, account, amount, key: `${kind === 'credit' ? 'FULL-FUND' : 'full-buy'}-${randomBytes(6).toString('hex')}`, answers: [], reference: null, placed: null };
    ops.push(op);
    return op;
  }

  /** Sends an operation once and records the answer; acknowledged answers give its reference. */
  async function send(op: Op): Promise<ApiResponse> {
    let response: ApiResponse;
    if (op.kind === 'credit') {
      response = await server.admin('POST', `/admin/accounts/${op.account.id}/wallet/credit`, { environment: 'test', amount: op.amount, reference: op.key });
    } else {
      response = await server.api('POST', '/v1/services/airtime', {
        key: op.account.key,
        idempotency_key: op.key,
        body: { network: 'mtn', phone: phone_of[op.kind], amount: op.amount, pin: '12345' },
      });
    }
    op.answers.push(response.status);
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    if (response.status === 201) op.reference = response.body?.data?.reference ?? null;
    else if (response.status === 422 && response.body?.error?.code === 'transaction.failed') op.reference = response.body.error.reference ?? null;
    else if (response.status === 503) {
      refusals.push(response);
      if (typeof response.body?.error?.reference === 'string') op.placed = response.body.error.reference;
    }
    return response;
  }

  t.test('writes are refused with 503 service.unavailable and Retry-After once the store\'s disk is nearly full, and nothing else goes wrong', async (t) => {
    const free_before = free_bytes(mount_point);
    const ballast_bytes = free_before - reserve_bytes - headroom_bytes;
    t.ok(ballast_bytes > 0, `the tmpfs has room for a ballast (${free_before} bytes free)`);
    writeFileSync(ballast, Buffer.alloc(ballast_bytes));
    t.comment(`free after the ballast: ${free_bytes(mount_point)} bytes (reserve ${reserve_bytes})`);

    const started = Date.now();
    let sent = 0;
    const lane = async () => {
      while (refusals.length < refusals_wanted && Date.now() - started < fill_limit_ms) {
        await send(new_op());
        sent++;
      }
    };
    // Reads beside the writes: a read waiting for its account's commit when the store refuses that
    // commit is answered from the account as reloaded, never with the refusal.
    const reads = new Map<number, number>();
    const read_failures: string[] = [];
    const reader = async () => {
      for (let n = 0; refusals.length < refusals_wanted && Date.now() - started < fill_limit_ms; n++) {
        const read = await server.api('GET', n % 2 === 0 ? '/v1/wallet' : '/v1/transactions?per_page=5', { key: accounts[n % accounts.length].key });
        reads.set(read.status, (reads.get(read.status) ?? 0) + 1);
        if (read.status !== 200 && read_failures.length < 3) read_failures.push(read.text.slice(0, 200));
      }
    };
    await Promise.all([...Array.from({ length: lanes }, lane), reader(), reader()]);
    const acked_before_fill = ops.filter((o) => o.reference !== null).length;
    t.comment(`${sent} writes in ${Date.now() - started} ms: ${acked_before_fill} acknowledged, ${refusals.length} refused; answers by status ${JSON.stringify(Object.fromEntries(statuses))}`);
    t.ok(refusals.length >= refusals_wanted, `the store refused writes once its disk filled (${refusals.length} refusals in ${fill_limit_ms} ms)`);
    t.ok(acked_before_fill > 100, `hundreds of writes were acknowledged before the disk filled (${acked_before_fill})`);
    const unexpected = [...statuses.keys()].filter((s) => s !== 201 && s !== 422 && s !== 503);
    t.same(unexpected, [], `every write answered 201, 422 (a failed purchase, refunded) or 503; never a 500 (${JSON.stringify(Object.fromEntries(statuses))})`);
    for (const [i, refusal] of refusals.slice(0, 10).entries()) {
      t.equal(refusal.body?.error?.code, 'service.unavailable', `refusal ${i + 1} has the code service.unavailable (${refusal.text.slice(0, 160)})`);
      t.match(refusal.headers.get('retry-after') ?? '', /^\d+$/, `refusal ${i + 1} carries Retry-After in whole seconds (${refusal.headers.get('retry-after')})`);
      t.type(refusal.body?.request_id, 'string', `refusal ${i + 1} carries a request_id`);
    }
    t.ok(refusals.every((r) => r.body?.error?.code === 'service.unavailable' && r.headers.get('retry-after') !== null), 'every refusal is service.unavailable with Retry-After');
    t.same([...reads.keys()], [200], `every read beside the writes answered 200 (${JSON.stringify(Object.fromEntries(reads))}${read_failures.length > 0 ? `; ${read_failures.join(' | ')}` : ''})`);
    t.equal((await server.admin('GET', '/healthz')).status, 200, 'the server is alive after the disk filled');
    t.notOk(log_records(server).some((r) => r.level === 60), 'nothing fatal was logged');
    t.notOk(log_records(server).some((r) => r.msg === 'request failed'), 'no request failed with an internal error');
  });

  t.test('below the reserve the server is degraded: writes answer 503, reads answer 200, /readyz answers 503', async (t) => {
    // The load has stopped; let the last commits finish before the ballast takes the rest of the reserve.
    await sleep(300);
    appendFileSync(ballast, Buffer.alloc(Math.max(0, free_bytes(mount_point) - reserve_bytes / 2)));
    t.ok(free_bytes(mount_point) < reserve_bytes, `free space is below the reserve (${free_bytes(mount_point)} bytes)`);
    await wait_for(() => log_records(server).some((r) => String(r.msg).includes('nearly full')), 3000, 'the server to log that its disk is nearly full');
    const ready = await wait_for_async_status(() => server.admin('GET', '/readyz'), 503, 3000);
    t.equal(ready.status, 503, '/readyz answers 503 while the store refuses writes');
    t.equal(ready.body?.error?.code, 'service.unavailable', '/readyz says service.unavailable');
    t.equal((await server.admin('GET', '/healthz')).status, 200, '/healthz still answers 200: the process is alive');

    const [account] = accounts;
    const purchase = await send(new_op_of('delivered', account));
    t.equal(purchase.status, 503, `a purchase answers 503 (${purchase.text.slice(0, 160)})`);
    t.equal(purchase.body?.error?.code, 'service.unavailable', 'a purchase answers service.unavailable');
    t.equal(purchase.headers.get('retry-after'), '5', 'with Retry-After: 5');
    const credit = await send(new_op_of('credit', account));
    t.equal(credit.status, 503, `an operator credit answers 503 (${credit.text.slice(0, 160)})`);
    t.equal(credit.body?.error?.code, 'service.unavailable', 'an operator credit answers service.unavailable');
    t.ok(credit.headers.get('retry-after') !== null, 'with Retry-After');
    const key = await server.api('POST', '/v1/keys', { key: account.key, body: { name: 'during the fault', environment: 'test' } });
    t.equal(key.status, 503, `creating a key answers 503 (${key.text.slice(0, 120)})`);

    const wallet = await server.api('GET', '/v1/wallet', { key: account.key });
    t.equal(wallet.status, 200, `GET /v1/wallet answers 200 (${wallet.text.slice(0, 160)})`);
    const history = await server.api('GET', '/v1/wallet/transactions?per_page=5', { key: account.key });
    t.equal(history.status, 200, `GET /v1/wallet/transactions answers 200 (${history.text.slice(0, 120)})`);
    const orders = await server.api('GET', '/v1/transactions?per_page=5', { key: account.key });
    t.equal(orders.status, 200, `GET /v1/transactions answers 200 (${orders.text.slice(0, 120)})`);
    const known = ops.find((o) => o.reference !== null && o.kind !== 'credit' && o.account === account)!;
    const one = await server.api('GET', `/v1/transactions/${known.reference}`, { key: account.key });
    t.equal(one.status, 200, `GET /v1/transactions/{reference} answers 200 (${one.text.slice(0, 120)})`);
    const metrics = await server.admin('GET', '/metrics');
    t.equal(metrics.status, 200, '/metrics answers');
    const free_metric = Number(/billvend_store_disk_free_bytes (\d+)/.exec(metrics.text)?.[1]);
    t.ok(free_metric < reserve_bytes, `/metrics shows the free space below the reserve (${free_metric})`);

    // A burst of writes while degraded: each is refused, the process stays up.
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => send(new_op_of(i % 3 === 0 ? 'credit' : 'delivered', accounts[i % 2]))));
    t.same([...new Set(burst.map((r) => r.status))], [503], 'a burst of 30 writes while degraded is refused, every one with 503');
    t.equal((await server.admin('GET', '/healthz')).status, 200, 'the server is alive after the burst');
  });

  t.test('a read with a key not used in the last minute still answers 200 while the disk is full', async (t) => {
    // The first request of a key persists its last_used_at (at most once a minute per key): a write
    // that the full disk refuses. The read must not fail because of that bookkeeping.
    const account = accounts[1];
    const wallet = await server.api('GET', '/v1/wallet', { key: account.idle_key });
    t.equal(wallet.status, 200, `GET /v1/wallet with a key unused until now answers 200 while degraded (got ${wallet.status}: ${wallet.text.slice(0, 200)})`);
    const history = await server.api('GET', '/v1/wallet/transactions?per_page=5', { key: accounts[0].idle_key });
    t.equal(history.status, 200, `GET /v1/wallet/transactions with a key unused until now answers 200 while degraded (got ${history.status}: ${history.text.slice(0, 200)})`);
    t.equal((await server.admin('GET', '/healthz')).status, 200, 'the server is alive');
  });

  t.test('once space is back, writes resume within seconds and every refused operation, retried, is processed once', async (t) => {
    rmSync(ballast);
    const freed_at = Date.now();
    let resumed_ms = -1;
    let probe: ApiResponse | null = null;
    while (Date.now() - freed_at < resume_limit_ms + 2000) {
      probe = await send(new_op_of('credit', accounts[0]));
      if (probe.status === 201) {
        resumed_ms = Date.now() - freed_at;
        break;
      }
      await sleep(100);
    }
    t.ok(resumed_ms >= 0 && resumed_ms <= resume_limit_ms, `a write succeeded ${resumed_ms} ms after the ballast was deleted (limit ${resume_limit_ms} ms; last answer ${probe?.status} ${probe?.text.slice(0, 120)})`);
    const ready = await wait_for_async_status(() => server.admin('GET', '/readyz'), 200, 3000);
    t.equal(ready.status, 200, '/readyz answers 200 again');
    t.ok(receivers.every((r) => r.received.length > 0), `webhook attempts were held across the fault (${receivers.map((r) => r.received.length).join(' and ')})`);
    for (const receiver of receivers) receiver.release();
    // The log line reaches the server's stdout a moment after the write that ended degraded mode answered.
    const left = await wait_for(() => log_records(server).some((r) => r.msg === 'journal writes again; leaving degraded mode'), 3000, 'the log line').catch(() => false);
    t.ok(left, 'the server logged that it left degraded mode');

    // Every operation refused so far is retried as a client would: the same idempotency key, the same
    // funding reference. A 503 is not remembered, so each must now be processed, once.
    const refused = ops.filter((o) => o.reference === null);
    t.ok(refused.length >= refusals_wanted, `${refused.length} refused operations to retry`);
    const retried = await map_lanes(refused, lanes, (op) => send(op));
    const bad = retried.filter((r) => r.status !== 201 && !(r.status === 422 && r.body?.error?.code === 'transaction.failed'));
    t.same(bad.map((r) => `${r.status} ${r.body?.error?.code}`), [], 'every retried operation is taken now');
    // A 503 that named a placed order kept that order: its retry answers for it (a resumed answer, marked
    // as a replay). Every other 503 kept nothing, so its retry is no replay.
    const pairs = refused.map((op, i) => ({ op, r: retried[i] }));
    const replays = pairs.filter(({ op, r }) => op.placed === null && r.headers.get('idempotent-replayed') === 'true');
    t.same(replays.map(({ op, r }) => `${op.kind} ${op.key} answers ${op.answers.join(',')}: ${r.text.slice(0, 300)}`), [], 'no retry of a refusal that kept nothing is a replay');
    const resumed = pairs.filter(({ op }) => op.placed !== null);
    t.same(resumed.filter(({ op, r }) => (r.body?.data?.reference ?? r.body?.error?.reference) !== op.placed).map(({ op, r }) => `${op.key}: ${r.text.slice(0, 200)}`), [], `each of the ${resumed.length} refusals that named a placed order answers, retried, for that order`);
    t.notOk(retried.some((r) => /already credited/i.test(r.body?.message ?? '')), 'no retried credit was already credited');

    // And new work goes through as usual.
    const fresh = await map_lanes(Array.from({ length: 120 }, () => new_op()), lanes, (op) => send(op));
    const fresh_bad = fresh.filter((r) => r.status !== 201 && !(r.status === 422 && r.body?.error?.code === 'transaction.failed'));
    t.same(fresh_bad.map((r) => `${r.status} ${r.body?.error?.code}`), [], 'new writes answer 201, or 422 for a purchase that failed and was refunded');
    t.ok(fresh.filter((r) => r.status === 201).length >= 60, 'most new writes are accepted');
    t.ok(ops.every((o) => o.reference !== null), 'every operation ever sent is acknowledged now');
  });

  t.test('every acknowledged operation is in the wallet exactly once and each wallet equals the sum of its entries (API)', async (t) => {
    for (const account of accounts) {
      const mine = ops.filter((o) => o.account === account);
      const purchases = mine.filter((o) => o.kind !== 'credit');
      // Delayed orders settle by sandbox callbacks and re-queries: wait for them.
      await wait_until(async () => (await all_orders(server, account.key)).every((o) => o.status === 'successful' || o.status === 'failed'), 15_000, `account ${account.id}'s orders to settle`);
      const orders = await all_orders(server, account.key);
      const entries = (await all_wallet_entries(server, account.key)).reverse();
      const by_reference = new Map<string, any[]>();
      for (const entry of entries) by_reference.set(entry.reference, [...(by_reference.get(entry.reference) ?? []), entry]);
      const order_by_reference = new Map(orders.map((o) => [o.reference, o]));

      t.equal(orders.length, purchases.length, `account ${account.id}: one order per acknowledged purchase (${orders.length} orders, ${purchases.length} purchases)`);
      let expected_kobo = account.funding_kobo;
      const problems: string[] = [];
      for (const op of mine) {
        const found = by_reference.get(op.reference!) ?? [];
        if (op.kind === 'credit') {
          expected_kobo += kobo(op.amount);
          if (found.length !== 1 || found[0].type !== 'credit' || kobo(found[0].amount) !== kobo(op.amount)) problems.push(`credit ${op.key}: entries ${JSON.stringify(found)}`);
          continue;
        }
        const order = order_by_reference.get(op.reference!);
        const ends = op.kind === 'delivered' || op.kind === 'delayed_delivered' ? 'successful' : 'failed';
        if (order === undefined) {
          problems.push(`purchase ${op.key}: no order ${op.reference}`);
          continue;
        }
        if (order.status !== ends) problems.push(`purchase ${op.key}: order ${op.reference} is ${order.status}, expected ${ends}`);
        const types = found.map((e) => `${e.type}:${kobo(e.amount)}`);
        const want = ends === 'successful' ? [`debit:${kobo(op.amount)}`] : [`debit:${kobo(op.amount)}`, `reversal:${kobo(op.amount)}`];
        if (JSON.stringify(types) !== JSON.stringify(want)) problems.push(`purchase ${op.key} (${op.kind}): entries ${JSON.stringify(types)}, expected ${JSON.stringify(want)}`);
        if (ends === 'successful') expected_kobo -= kobo(op.amount);
      }
      t.same(problems.slice(0, 10), [], `account ${account.id}: every acknowledged operation has exactly its entries (${problems.length} problems)`);
      const acked_references = new Set(mine.map((o) => o.reference));
      const strangers = entries.filter((e) => !acked_references.has(e.reference) && !e.reference.startsWith('FUND-'));
      t.same(strangers.map((e) => e.reference), [], `account ${account.id}: no entry belongs to an operation that was not acknowledged`);

      let running = 0;
      const chain_breaks: number[] = [];
      for (const entry of entries) {
        if (kobo(entry.balance_before) !== running) chain_breaks.push(entry.id);
        running += entry.type === 'debit' ? -kobo(entry.amount) : kobo(entry.amount);
        if (kobo(entry.balance_after) !== running) chain_breaks.push(entry.id);
      }
      t.same(chain_breaks, [], `account ${account.id}: each entry starts from the balance the previous one left (${entries.length} entries)`);
      t.same(entries.map((e) => e.id), entries.map((_, i) => i + 1), `account ${account.id}: entry ids run 1..${entries.length} without gaps`);
      const balance = await balance_kobo(server, account.key);
      t.equal(balance, running, `account ${account.id}: the balance equals the sum of its ${entries.length} entries`);
      t.equal(balance, expected_kobo, `account ${account.id}: the balance equals credits minus delivered purchases, to the kobo`);
      account.funding_kobo = balance; // what the store must show
    }
  });

  t.test('every acknowledged operation\'s wallet event reaches its receiver, the attempts held across the fault included', async (t) => {
    const missing = () => accounts.flatMap((account, i) => {
      const acknowledged = new Set(receivers[i].received.filter((r) => r.answered === 200 && r.service_signature_ok).map((r) => r.json?.data?.reference));
      return ops.filter((o) => o.account === account && !acknowledged.has(o.reference)).map((o) => `${o.kind} ${o.reference}`);
    });
    await wait_until(async () => missing().length === 0, 20_000, 'every acknowledged operation\'s event to be acknowledged by its receiver').catch(() => {});
    t.same(missing().slice(0, 10), [], `every acknowledged operation's wallet event was acknowledged by its receiver (${missing().length} missing)`);
    const records = log_records(server);
    t.ok(records.some((r) => r.msg === 'webhook attempt recorded through the reloaded account'), 'attempts that started before the failed commit were recorded through the reloaded account');
    t.notOk(records.some((r) => r.msg === 'webhook attempt failed unexpectedly'), 'no webhook attempt failed unexpectedly');
  });

  t.test('killed after the fault, the store read directly holds every acknowledged operation once and wallets that add up', async (t) => {
    await server.kill();
    const { root, db } = open_store(data_dir, { readOnly: true });
    try {
      const wallets = db('wallets');
      const wallet_entries = db('wallet_entries');
      const funding_refs = db('funding_refs');
      const order_refs = db('order_refs');
      const codec = store_reference_codec(data_dir);
      const orders = db('orders');
      const open_orders = db('open_orders');
      for (const account of accounts) {
        const wallet = wallets.get([account.id, 'test']) as any;
        t.ok(wallet !== undefined, `account ${account.id}: the store holds its test wallet`);
        const entries = [...wallet_entries.getRange({ start: [account.id, 'test', 0], end: [account.id, 'test', Number.MAX_SAFE_INTEGER] })].map((e) => e.value as any);
        let sum = 0;
        for (const entry of entries) sum += entry.type === 'debit' ? -entry.amount_kobo : entry.amount_kobo;
        t.equal(entries.length, wallet.entries_count, `account ${account.id}: entries_count ${wallet.entries_count} matches the ${entries.length} entries stored`);
        t.equal(wallet.balance_kobo, sum, `account ${account.id}: the stored balance equals the sum of the stored entries`);
        t.equal(wallet.balance_kobo, wallet.credits_kobo - wallet.debits_kobo + wallet.reversals_kobo, `account ${account.id}: the balance equals credits - debits + reversals`);
        t.equal(wallet.balance_kobo, account.funding_kobo, `account ${account.id}: the stored balance is the one the API showed`);
        const counts = new Map<string, number>();
        for (const entry of entries) counts.set(`${entry.type}:${entry.reference}`, (counts.get(`${entry.type}:${entry.reference}`) ?? 0) + 1);
        const mine = ops.filter((o) => o.account === account);
        const missing_or_doubled = mine.filter((o) => counts.get(`${o.kind === 'credit' ? 'credit' : 'debit'}:${o.reference}`) !== 1).map((o) => o.key);
        t.same(missing_or_doubled, [], `account ${account.id}: each of ${mine.length} acknowledged operations has exactly one credit or debit entry in the store`);
        const credits = mine.filter((o) => o.kind === 'credit');
        const unfunded = credits.filter((o) => {
          const ref = funding_refs.get(['test', o.key]) as any;
          return ref === undefined || ref.account_id !== account.id;
        });
        t.same(unfunded.map((o) => o.key), [], `account ${account.id}: each of ${credits.length} acknowledged credits has its funding reference`);
        const purchases = mine.filter((o) => o.kind !== 'credit');
        const lost_orders = purchases.filter((o) => {
          const named = codec.place_of(o.reference!);
          const location = (order_refs.get(o.reference!) as any) ?? (named === null ? undefined : [named.account_id, named.environment, named.seq]);
          const order = location === undefined ? undefined : orders.get(location) as any;
          return order === undefined || order.reference !== o.reference || (order.status !== 'delivered' && order.status !== 'failed');
        });
        t.same(lost_orders.map((o) => o.reference), [], `account ${account.id}: each of ${purchases.length} acknowledged purchases is a final order in the store`);
      }
      t.equal([...open_orders.getRange({})].length, 0, 'no order is left open in the store');
    } finally {
      await root.close();
    }
  });

  t.test('restarted on the same store, the server recovers cleanly and takes writes', async (t) => {
    await server.start();
    const ready = await server.admin('GET', '/readyz');
    t.equal(ready.status, 200, '/readyz answers 200 after the restart');
    for (const account of accounts) {
      t.equal(await balance_kobo(server, account.key), account.funding_kobo, `account ${account.id}: the wallet is as before the restart`);
    }
    const credit = await send(new_op_of('credit', accounts[0]));
    t.equal(credit.status, 201, 'an operator credit is taken after the restart');
    const purchase = await send(new_op_of('delivered', accounts[1]));
    t.equal(purchase.status, 201, 'a purchase is taken after the restart');
    t.equal(purchase.body?.data?.status, 'delivered', 'and delivered');
    const expected_errors = new Set(['the store\'s disk is nearly full: refusing writes (503) until space is freed', 'journal commit failed; reloading the accounts it touched']);
    const other_errors = log_records(server).filter((r) => (r.level as number) >= 50 && !expected_errors.has(String(r.msg)));
    t.same(other_errors.map((r) => r.msg).slice(0, 5), [], 'no error but the disk-full ones was logged across the run');
  });

  t.test('a purchase whose debit was saved just before the disk filled answers 503 naming its order, and a retry with the key answers its outcome for good', async (t) => {
    // TIME_SCALE 0.2: the purchase waits 1 s for the sandbox, whose delayed number answers after 6 s.
    // The debit and the order commit first; the disk fills during the wait; then the answer's own
    // commit is refused. The client must not be told that nothing was changed (its wallet was debited
    // and its order stands), nor be answered 201 that its key could not replay: the retry resumes the
    // order and answers how it ended (docs/decisions.md "Disk full and refused commits").
    await server.stop();
    await server.start({ TIME_SCALE: '0.2' });
    const account = accounts[0];
    const before = await balance_kobo(server, account.key);
    const key = `straddle-${randomBytes(6).toString('hex')}`;
    const answer_promise = server.api('POST', '/v1/services/airtime', { key: account.key, idempotency_key: key, body: { network: 'mtn', phone: sandbox.delayed_delivered, amount: 100, pin: '12345' } });
    let placed: any = null;
    const placed_deadline = Date.now() + 800;
    while (placed === null && Date.now() < placed_deadline) {
      const found = await server.api('GET', `/v1/transactions?idempotency_key=${key}`, { key: account.key });
      placed = found.body?.data?.transactions?.[0] ?? null;
    }
    t.ok(placed !== null, 'the order is durable and found by its key while the purchase still waits for the sandbox');
    writeFileSync(ballast, Buffer.alloc(Math.max(0, free_bytes(mount_point) - reserve_bytes / 2)));
    const answer = await answer_promise;
    const debited = await balance_kobo(server, account.key);
    t.equal(debited, before - 100_00, 'the wallet was debited for the order');
    t.equal(answer.status, 503, `the purchase answers 503, its answer unsaved (got ${answer.status}: ${answer.text.slice(0, 200)})`);
    t.equal(answer.body?.error?.code, 'service.unavailable', 'with service.unavailable');
    t.match(answer.body?.error?.message, /placed, but its answer could not be saved; retry with the same X-Idempotency-Key/, 'saying the purchase was placed, not that nothing changed');
    t.equal(answer.body?.error?.reference, placed?.reference, 'the answer names the order that was debited');
    t.ok(answer.headers.get('retry-after') !== null, 'with Retry-After');

    rmSync(ballast);
    await wait_for_async_status(() => server.admin('GET', '/readyz'), 200, resume_limit_ms);
    let settled: any = null;
    const settle_deadline = Date.now() + 20_000;
    while (Date.now() < settle_deadline) {
      const found = await server.api('GET', `/v1/transactions?idempotency_key=${key}`, { key: account.key });
      settled = found.body?.data?.transactions?.[0] ?? null;
      if (settled?.status === 'successful' || settled?.status === 'failed') break;
      await sleep(200);
    }
    t.equal(settled?.status, 'successful', 'the order is delivered once the store takes writes again');
    const entries = (await all_wallet_entries(server, account.key)).filter((e) => e.reference === placed?.reference);
    t.same(entries.map((e) => [e.type, kobo(e.amount)]), [['debit', 100_00]], 'the order has one debit and nothing else');
    t.equal(await balance_kobo(server, account.key), before - 100_00, 'the wallet paid once');
    const retry = await server.api('POST', '/v1/services/airtime', { key: account.key, idempotency_key: key, body: { network: 'mtn', phone: sandbox.delayed_delivered, amount: 100, pin: '12345' } });
    t.equal(retry.status, 201, `a retry with the same key answers the order's outcome (${retry.status} ${retry.text.slice(0, 160)})`);
    t.equal(retry.body?.data?.reference, placed?.reference, 'for the same order');
    t.equal(retry.body?.data?.status, 'delivered', 'as it ended: delivered');
    t.equal(await balance_kobo(server, account.key), before - 100_00, 'and debits nothing more');
    const replay = await server.api('POST', '/v1/services/airtime', { key: account.key, idempotency_key: key, body: { network: 'mtn', phone: sandbox.delayed_delivered, amount: 100, pin: '12345' } });
    t.equal(replay.headers.get('idempotent-replayed'), 'true', 'a second retry is a replay');
    t.same(JSON.parse(replay.text).data, JSON.parse(retry.text).data, 'of the retry\'s answer');
  });

  function new_op_of(kind: Kind, account: Account): Op {
    const op = new_op();
    op.kind = kind;
    op.account = account;
    op.amount = kind === 'credit' ? 1234.56 : 77.77;
    op.key = `${kind === 'credit' ? 'FULL-FUND' : 'full-buy'}-${randomBytes(6).toString('hex')}`;
    return op;
  }
}

async function wait_for_async_status(read: () => Promise<ApiResponse>, status: number, limit_ms: number): Promise<ApiResponse> {
  const deadline = Date.now() + limit_ms;
  for (;;) {
    const response = await read();
    if (response.status === status || Date.now() > deadline) return response;
    await sleep(50);
  }
}

async function wait_until(check: () => Promise<boolean>, limit_ms: number, what: string): Promise<void> {
  const deadline = Date.now() + limit_ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${limit_ms} ms waiting for ${what}`);
    await sleep(100);
  }
}

async function map_lanes<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  }));
  return out;
}
