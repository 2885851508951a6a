// Seeds a store for the `recovery` scenario and for `npm run bench:scale` through billvend's own engine
// (loaded from dist/), with no HTTP in between: the engine's commands build every record and its
// journal writes them into LMDB in group commits, so each record is exactly what the server writes.
// Orders are placed as the order desk places a sandbox purchase: a reference from the store's
// reference codec, the debit and the order in one command, paid by the sandbox provider itself.
//
//   node dist/bench/seed-store.js <data_dir> <accounts> <orders> [<load_accounts>]
//
// <orders> in all, spread evenly over the accounts. Every account has a test key, a funded test wallet
// and its share of delivered airtime orders (debit entries, orders, the order index). The first
// <load_accounts> accounts (default 0) are the ones a load may use: PIN bench_pin, the operator's
// highest daily limit and key rate limit, and their keys printed (the others' keys are thrown away).
// Passwords and the other accounts' PINs share one precomputed scrypt hash: hashing a million of
// them would take hours.
//
// The load's accounts' PIN is hashed at a lower scrypt cost (see load_pin_hash): each of them pays one
// scrypt at its first purchase, and 1,000 of them at the full cost took 16 to 42 s of priming.
// Besides the load's keys, the keys of up to history_accounts_max accounts spread evenly over the
// store are printed (history_keys): the scale bench reads their filtered history, cold and warm.
//
// Prints one JSON line on stdout: { accounts, orders, seed_ms, keys: [{ account_id, api_key }], history_keys }.
//
// `node dist/bench/seed-store.js <data_dir> history <orders>` seeds the history-filtered scenario's
// store instead: one account with that many orders over 60 days (seed_history).
import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bench_pin, daily_limit_naira, rate_limit_per_minute_max } from './fixtures.js';

/**
 * The engine's modules, loaded at run time from the build (dist/, beside dist/bench/; or from bench/
 * when the test suite runs this file from the sources): the bench compiles without src/.
 */
async function load(path: string): Promise<any> {
  const build = import.meta.filename.endsWith('.ts') ? '../dist/' : '../';
  return import(new URL(`${build}${path}`, import.meta.url).href);
}

/**
 * Orders staged between two flush points. Each order stages about eight changes (wallet, entry, order,
 * the index keys); the journal closes a batch at 20,000 changes and refuses writes beyond 64 waiting
 * batches, so a flush point comes every three or four batches, well before that bound.
 */
const orders_per_flush = 10_000;
/** Accounts staged between two flush points (each stages about six changes). */
const accounts_per_flush = 2_000;
/** Accounts, spread over the store, whose keys are printed for the scale bench's history reads. */
export const history_accounts_max = 200;
/**
 * scrypt cost of the load accounts' PIN hash. verify_secret reads N from the stored hash, so the server
 * checks it as any other; at N = 1,024 a check costs about a sixteenth of the production cost (16,384),
 * which is what the first purchase of each load account pays before the PIN cache answers. Bench
 * stores only: accounts made through the API get the full cost.
 */
export const load_pin_scrypt_n = 1024;

/** A PIN hash in the store's format (lib/secrets.ts hash_secret: scrypt$N$r$p$salt$key) at the bench's cost. */
export function load_pin_hash(pin: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(pin, salt, 32, { N: load_pin_scrypt_n, r: 8, p: 1 });
  return `scrypt$${load_pin_scrypt_n}$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Progress on stderr every this many accounts. */
const progress_every_accounts = 50_000;
/** Test wallet funding (kobo) of the load's accounts and of the others. */
const load_funding_kobo = 10_000_000_00;
const other_funding_kobo = 1_000_000_00;
const order_kobo = 100_00;

/**
 * Flush points that overlap the commit with the staging: at each point the seeder waits for the point
 * before it, not for this one, so LMDB writes one group of batches while the next is staged. Waiting
 * for every point (as this seeder did) left the seeding process idle for a quarter of its time
 * (13 of 55 s for 100,000 accounts and 1,000,000 orders, --cpu-prof), and one point of staging ahead
 * still bounds the waiting batches to about eight.
 */
export class FlushPipeline {
  private previous: Promise<void> | null = null;
  constructor(private readonly durable: () => Promise<void>) {}

  async point(): Promise<void> {
    const current = this.durable();
    const previous = this.previous;
    this.previous = current;
    if (previous !== null) await previous;
    // A turn of the event loop even when the previous point was already durable: the journal closes
    // its open batch then, and hears of finished commits.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

let cached_minute_ms = -1;
let cached_minute = '';
/** The order desk's provider request id prefix: the Lagos minute as YYYYMMDDHHmm, built once a minute. */
function lagos_minute(now_ms: number): string {
  const minute_ms = Math.floor(now_ms / 60_000) * 60_000;
  if (minute_ms !== cached_minute_ms) {
    cached_minute_ms = minute_ms;
    cached_minute = new Date(minute_ms + 60 * 60 * 1000).toISOString().slice(0, 16).replace(/[-T:]/g, '');
  }
  return cached_minute;
}

function usage(): never {
  process.stderr.write('usage: seed-store <data_dir> <accounts> <orders> [<load_accounts>]\n');
  process.exit(2);
}

function whole(text: string | undefined, fallback?: number): number {
  if (text === undefined && fallback !== undefined) return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) usage();
  return value;
}

/** Distinct phone numbers the history store's orders go to. */
export const history_recipients = 10_000;
/** The history store's orders are spread evenly over this many days, up to the seeding. */
export const history_days = 60;

/** The phone number of the history store's order i, and the meter of its electricity orders. */
export function history_phone(i: number): string {
  return '080' + String(30_000_000 + ((i * 7_919) % history_recipients)).padStart(8, '0');
}

/**
 * The `history-filtered` scenario's store: one account whose test wallet holds `orders` orders spread
 * over history_days (seq grows with time, as in a real store): 60% airtime and 30% data to
 * history_recipients phones, 10% electricity, one in twenty failed and refunded. Prints the API key.
 */
async function seed_history(data_dir: string, orders: number): Promise<void> {
  const { open_store } = await load('journal/store.js');
  const { Engine } = await load('engine/engine.js');
  const { system_clock } = await load('lib/clock.js');
  const { crypto_random } = await load('lib/random.js');
  const { TimerWheel } = await load('lib/timer-wheel.js');
  const { SecretBox, hash_secret, random_crockford } = { ...(await load('lib/secrets.js')), ...(await load('lib/ids.js')) };
  const { create_logger } = await load('log.js');
  const { ensure_order_index } = await load('engine/order-index.js');
  const master_key = randomBytes(32);
  writeFileSync(join(data_dir, 'master.key'), master_key.toString('base64') + '\n', { mode: 0o600 });
  const store = open_store(data_dir);
  // Marks the (empty) store's order index as current, so that the server does not rebuild it at start.
  ensure_order_index(store);
  const engine = new Engine(store, system_clock, crypto_random, new TimerWheel({ clock: system_clock }), new SecretBox(master_key), create_logger('warn', true), { on_commit() {} });
  engine.recover();
  const secret_hash = await hash_secret('bench password 12345');
  const created = engine.create_account({
    name: 'History reseller', email: 'history@example.ng', phone: '+2348012345678', tier: 'standard', kyc_level: 3,
    password_hash: secret_hash, pin_hash: secret_hash,
  });
  if (!created.ok) throw new Error(`account: ${created.refused.refusal}`);
  const actor = created.value;
  engine.run(actor, { kind: 'update_profile', patch: { daily_limit_kobo: 100_000_000_00 } });
  const api_key = `bv_test_${randomBytes(30).toString('base64url').replace(/[-_]/g, 'x')}`;
  engine.run(actor, { kind: 'create_key', input: {
    name: 'bench', environment: 'test', scopes: ['*'], ip_allowlist: [], rate_limit_per_minute: 1_000_000, expires_ms: null,
    key_hash: createHash('sha256').update(api_key).digest('hex'), key_hint: `${api_key.slice(0, 8)}…${api_key.slice(-4)}`,
  } }, system_clock.now_us());
  const credited = engine.run(actor, { kind: 'credit', environment: 'test', amount_kobo: orders * 300_00, reference: 'BENCH-HISTORY-FUND', description: 'Bench funding' }, system_clock.now_us());
  if (!credited.ok) throw new Error(`credit: ${credited.refused.refusal}`);
  const started = performance.now();
  const flushes = new FlushPipeline(() => engine.journal.durable());
  const end_us = system_clock.now_us();
  const start_us = end_us - history_days * 86_400_000_000;
  const step_us = (end_us - start_us) / orders;
  const services = ['airtime', 'airtime', 'airtime', 'airtime', 'airtime', 'airtime', 'data', 'data', 'data', 'electricity'];
  for (let i = 0; i < orders; i++) {
    const now_us = start_us + Math.floor(i * step_us);
    const service_type = services[i % 10];
    const day = new Date(Math.floor(now_us / 1000)).toISOString().slice(0, 10).replaceAll('-', '');
    const result = i % 20 === 13 ? { outcome: 'failed', reason: 'Seeded failure.' } : { outcome: 'delivered' };
    const placed = engine.run(actor, { kind: 'purchase_now', input: {
      service_type, network: service_type === 'electricity' ? null : 'mtn', disco: service_type === 'electricity' ? 'ikeja-electric' : null, provider: null,
      recipient: service_type === 'electricity' ? '11111' + history_phone(i).slice(3) : history_phone(i),
      plan_code: null, plan: null, package_code: null, meter_type: service_type === 'electricity' ? 'prepaid' : null,
      amount_kobo: (100 + (i % 3) * 50) * 100, customer_name: null,
    }, placement: {
      // The seeder places orders as the engine itself, with no caller's credential to check again.
      authority: { kind: 'internal' },
      environment: 'test', reference: `BV-${day}-${random_crockford(crypto_random, 12)}`, idempotency_key: null,
      provider_request_id: `${day}0000${randomBytes(6).toString('hex')}`, indexed: true, commission_kobo: 0,
    }, answer: () => result, remember: null }, now_us);
    if (!placed.ok) throw new Error(`order ${i}: ${placed.refused.refusal}`);
    if ((i + 1) % orders_per_flush === 0) {
      await flushes.point();
      if ((i + 1) % 100_000 === 0) process.stderr.write(`  seeded ${i + 1} orders (${Math.round(performance.now() - started)} ms)\n`);
    }
  }
  await engine.journal.drain();
  await store.root.close();
  process.stdout.write(JSON.stringify({ accounts: 1, orders, seed_ms: Math.round(performance.now() - started), api_key }) + '\n');
}

async function main(): Promise<void> {
  if (process.argv[3] === 'history') {
    await seed_history(process.argv[2], Number(process.argv[4]));
    return;
  }
  const [data_dir, accounts_text, orders_text, load_text] = process.argv.slice(2);
  if (!data_dir) usage();
  const accounts = whole(accounts_text);
  const orders = whole(orders_text);
  const load_accounts = Math.min(accounts, whole(load_text, 0));
  if (accounts < 1) usage();

  const { open_store } = await load('journal/store.js');
  const { Engine } = await load('engine/engine.js');
  const { ensure_order_index } = await load('engine/order-index.js');
  const { system_clock } = await load('lib/clock.js');
  const { crypto_random } = await load('lib/random.js');
  const { TimerWheel } = await load('lib/timer-wheel.js');
  const { SecretBox, hash_secret, sha256_hex } = await load('lib/secrets.js');
  const { new_api_key, random_text } = await load('lib/ids.js');
  const { utc_yyyymmdd } = await load('lib/time-format.js');
  const { reference_codec } = await load('services/references.js');
  const { SandboxProvider } = await load('services/sandbox-provider.js');
  const { key_hint } = await load('front/routes/key-routes.js');
  const { create_logger } = await load('log.js');

  const master_key = randomBytes(32);
  writeFileSync(join(data_dir, 'master.key'), master_key.toString('base64') + '\n', { mode: 0o600 });
  const store = open_store(data_dir);
  // As the server does before recovery: an empty store gets the current index version, so the index
  // keys the orders stage below are the ones it trusts (no rebuild at the server's start).
  ensure_order_index(store);
  const wheel = new TimerWheel({ clock: system_clock });
  const secret_box = new SecretBox(master_key);
  const engine = new Engine(store, system_clock, crypto_random, wheel, secret_box, create_logger('warn', true), { on_commit() {} });
  engine.recover();
  const codec = reference_codec(secret_box);
  const sandbox = new SandboxProvider(wheel, system_clock);
  const [password_hash, pin_hash] = await Promise.all([hash_secret('bench password'), hash_secret(bench_pin)]);
  const load_pin = load_pin_hash(bench_pin);
  // Every history_stride-th account past the load's gives its key to the history reads.
  const history_stride = Math.max(1, Math.floor((accounts - load_accounts) / history_accounts_max));
  const history_keys: { account_id: number; api_key: string }[] = [];

  const started = performance.now();
  const flushes = new FlushPipeline(() => engine.journal.durable());
  const keys: { account_id: number; api_key: string }[] = [];
  const orders_each = Math.floor(orders / accounts);
  const orders_left_over = orders % accounts;
  let staged_orders = 0;
  for (let i = 0; i < accounts; i++) {
    const for_load = i < load_accounts;
    const created = engine.create_account({
      name: `Bench reseller ${i + 1}`,
      email: `bench-${i + 1}@example.ng`,
      phone: '+2348012345678',
      tier: 'standard',
      kyc_level: 3,
      password_hash,
      pin_hash: for_load ? load_pin : pin_hash,
    });
    if (!created.ok) throw new Error(`account ${i + 1}: ${created.refused.refusal}`);
    const actor = created.value;
    if (for_load) {
      const updated = engine.run(actor, { kind: 'update_profile', patch: { daily_limit_kobo: daily_limit_naira * 100 } });
      if (!updated.ok) throw new Error(`daily limit of account ${actor.id}: ${updated.refused.refusal}`);
    }
    const api_key: string = new_api_key(crypto_random, 'test');
    const key = engine.run(actor, { kind: 'create_key', input: {
      name: 'bench', environment: 'test', scopes: ['*'], ip_allowlist: [], expires_ms: null,
      rate_limit_per_minute: for_load ? rate_limit_per_minute_max : 600,
      key_hash: sha256_hex(api_key), key_hint: key_hint(api_key),
    } }, system_clock.now_us());
    if (!key.ok) throw new Error(`key of account ${actor.id}: ${key.refused.refusal}`);
    if (for_load) keys.push({ account_id: actor.id, api_key });
    else if ((i - load_accounts) % history_stride === history_stride - 1 && history_keys.length < history_accounts_max) history_keys.push({ account_id: actor.id, api_key });
    const credited = engine.run(actor, { kind: 'credit', environment: 'test', amount_kobo: for_load ? load_funding_kobo : other_funding_kobo, reference: `BENCH-FUND-${actor.id}`, description: 'Bench funding' }, system_clock.now_us());
    if (!credited.ok) throw new Error(`credit of account ${actor.id}: ${credited.refused.refusal}`);

    const count = orders_each + (i < orders_left_over ? 1 : 0);
    for (let j = 0; j < count; j++) {
      // The order desk's placement of a sandbox purchase (services/order-desk.ts): the reference names
      // the order's place, the provider request id is the minute and 12 random characters.
      const now_ms = system_clock.now_ms();
      const now_us = system_clock.now_us();
      const place = { account_id: actor.id, environment: 'test', seq: actor.wallets.test.orders_count + 1 };
      const reference = codec.reference(utc_yyyymmdd(now_ms), place);
      const minute = lagos_minute(now_ms);
      const placed = engine.run(actor, { kind: 'purchase_now', input: {
        service_type: 'airtime', network: 'mtn', disco: null, provider: null, recipient: '08011111111',
        plan_code: null, plan: null, package_code: null, meter_type: null, amount_kobo: order_kobo, customer_name: null,
      }, placement: {
      // The seeder places orders as the engine itself, with no caller's credential to check again.
      authority: { kind: 'internal' },
        environment: 'test', reference, idempotency_key: null,
        provider_request_id: minute + random_text(crypto_random, 'abcdefghijklmnopqrstuvwxyz0123456789', 12), indexed: false,
        // The standard tier: no commission (docs/api.md "Pricing").
        commission_kobo: 0,
      }, answer: (order: unknown) => sandbox.pay(order), remember: null }, now_us);
      if (!placed.ok) throw new Error(`order ${j + 1} of account ${actor.id}: ${placed.refused.refusal}`);
      const paid = placed.value.answered;
      if (paid.status !== 'delivered') throw new Error(`order ${reference} ended ${paid.status}`);
      if (++staged_orders % orders_per_flush === 0) await flushes.point();
    }
    if ((i + 1) % accounts_per_flush === 0) await flushes.point();
    if ((i + 1) % progress_every_accounts === 0) {
      process.stderr.write(`  seeded ${i + 1} accounts, ${staged_orders} orders (${Math.round((performance.now() - started) / 1000)} s)\n`);
    }
  }
  await engine.journal.drain();
  await store.root.close();
  process.stdout.write(JSON.stringify({ accounts, orders: staged_orders, seed_ms: Math.round(performance.now() - started), keys, history_keys }) + '\n');
}

// Run as a script (the benches spawn it); the test suite imports its bounds.
if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  main().catch((error) => {
    process.stderr.write(`seed-store: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  });
}
