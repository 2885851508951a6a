// Seeds a store for the `recovery` scenario through billvend's own engine (loaded from dist/), so
// every record is exactly what the server writes: N accounts, each with a test key, a credit and M
// delivered sandbox orders (debit entries, orders, references). Run as a child process:
//   node dist/bench/seed-store.js <data_dir> <accounts> <orders_per_account>
// Passwords and PINs share one precomputed scrypt hash: hashing 100,000 of them would take minutes.
// `node dist/bench/seed-store.js <data_dir> history <orders>` seeds the history-filtered scenario's
// store instead: one account with that many orders (seed_history).
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The engine's modules, loaded at run time from the build: the bench compiles without src/. From
 * dist/bench/ the build is one folder up; from bench/ (the suite runs this file from its source) it is dist/.
 */
async function load(path: string): Promise<any> {
  return import(new URL(import.meta.url.endsWith('.ts') ? `../dist/${path}` : `../${path}`, import.meta.url).href);
}

/** Accounts per group commit wait: keeps the journal's batches and memory bounded. */
const accounts_per_flush = 500;

/** Orders per group commit wait in the history store. */
const orders_per_flush = 10_000;
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
  const { place_order, apply_provider_result } = await load('engine/account-orders.js');
  const { system_clock } = await load('lib/clock.js');
  const { TimerWheel } = await load('lib/timer-wheel.js');
  const { SecretBox, hash_secret, random_crockford } = { ...(await load('lib/secrets.js')), ...(await load('lib/ids.js')) };
  const { create_logger } = await load('log.js');
  const { ensure_order_index } = await load('engine/account-orders.js');
  const master_key = randomBytes(32);
  writeFileSync(join(data_dir, 'master.key'), master_key.toString('base64') + '\n', { mode: 0o600 });
  const store = open_store(data_dir);
  // Marks the (empty) store's order index as current, so that the server does not rebuild it at start.
  ensure_order_index(store);
  const engine = new Engine(store, system_clock, new TimerWheel({ clock: system_clock }), new SecretBox(master_key), create_logger('warn', true), { on_commit() {} });
  engine.recover();
  const secret_hash = await hash_secret('bench password 12345');
  const created = engine.create_account({
    name: 'History reseller', email: 'history@example.ng', phone: '+2348012345678', tier: 'standard', kyc_level: 3,
    password_hash: secret_hash, pin_hash: secret_hash,
  });
  if (!created.ok) throw new Error(`account: ${created.error.code}`);
  const actor = created.value;
  actor.update_profile({ daily_limit_kobo: 100_000_000_00 });
  const api_key = `bv_test_${randomBytes(30).toString('base64url').replace(/[-_]/g, 'x')}`;
  actor.create_key({
    name: 'bench', environment: 'test', scopes: ['*'], ip_allowlist: [], rate_limit_per_minute: 1_000_000, expires_ms: null,
    key_hash: createHash('sha256').update(api_key).digest('hex'), key_hint: `${api_key.slice(0, 8)}…${api_key.slice(-4)}`,
  }, system_clock.now_us());
  const credited = actor.credit('test', orders * 300_00, 'BENCH-HISTORY-FUND', 'Bench funding', system_clock.now_us());
  if (!credited.ok) throw new Error(`credit: ${credited.error.code}`);
  const started = performance.now();
  const end_us = system_clock.now_us();
  const start_us = end_us - history_days * 86_400_000_000;
  const step_us = (end_us - start_us) / orders;
  const services = ['airtime', 'airtime', 'airtime', 'airtime', 'airtime', 'airtime', 'data', 'data', 'data', 'electricity'];
  for (let i = 0; i < orders; i++) {
    const now_us = start_us + Math.floor(i * step_us);
    const service_type = services[i % 10];
    const day = new Date(Math.floor(now_us / 1000)).toISOString().slice(0, 10).replaceAll('-', '');
    const placed = place_order(actor, {
      service_type, network: service_type === 'electricity' ? null : 'mtn', disco: service_type === 'electricity' ? 'ikeja-electric' : null, provider: null,
      recipient: service_type === 'electricity' ? '11111' + history_phone(i).slice(3) : history_phone(i),
      plan_code: null, plan: null, package_code: null, meter_type: service_type === 'electricity' ? 'prepaid' : null,
      amount_kobo: (100 + (i % 3) * 50) * 100, customer_name: null,
    }, {
      environment: 'test', reference: `BV-${day}-${random_crockford(12)}`, idempotency_key: null,
      provider_request_id: `${day}0000${randomBytes(6).toString('hex')}`, indexed: true,
    }, now_us, false);
    if (!placed.ok) throw new Error(`order ${i}: ${placed.error.code}`);
    const result = i % 20 === 13 ? { outcome: 'failed', reason: 'Seeded failure.' } : { outcome: 'delivered' };
    apply_provider_result(actor, placed.value.reference, result, now_us, false, placed.value);
    if ((i + 1) % orders_per_flush === 0) {
      await engine.journal.durable();
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
  const [data_dir, accounts_text, orders_text] = process.argv.slice(2);
  const accounts = Number(accounts_text);
  const orders_per_account = Number(orders_text);
  if (!data_dir || !Number.isInteger(accounts) || !Number.isInteger(orders_per_account)) {
    process.stderr.write('usage: seed-store <data_dir> <accounts> <orders_per_account>\n');
    process.exit(2);
  }
  const { open_store } = await load('journal/store.js');
  const { Engine } = await load('engine/engine.js');
  const { place_order, apply_provider_result } = await load('engine/account-orders.js');
  const { system_clock } = await load('lib/clock.js');
  const { TimerWheel } = await load('lib/timer-wheel.js');
  const { SecretBox, hash_secret } = await load('lib/secrets.js');
  const { new_reference } = await load('lib/ids.js');
  const { create_logger } = await load('log.js');

  const master_key = randomBytes(32);
  writeFileSync(join(data_dir, 'master.key'), master_key.toString('base64') + '\n', { mode: 0o600 });
  const store = open_store(data_dir);
  const wheel = new TimerWheel({ clock: system_clock });
  const engine = new Engine(store, system_clock, wheel, new SecretBox(master_key), create_logger('warn', true), { on_commit() {} });
  engine.recover();
  const secret_hash = await hash_secret('bench password 12345');
  const started = performance.now();
  const day = new Date().toISOString().slice(0, 10).replaceAll('-', '');
  for (let i = 0; i < accounts; i++) {
    const created = engine.create_account({
      name: `Bench reseller ${i}`,
      email: `bench${i}@example.ng`,
      phone: '+2348012345678',
      tier: 'standard',
      kyc_level: 3,
      password_hash: secret_hash,
      pin_hash: secret_hash,
    });
    if (!created.ok) throw new Error(`account ${i}: ${created.error.code}`);
    const actor = created.value;
    const api_key = `bv_test_${randomBytes(30).toString('base64url').replace(/[-_]/g, 'x')}`;
    actor.create_key({
      name: 'bench', environment: 'test', scopes: ['*'], ip_allowlist: [], rate_limit_per_minute: 60, expires_ms: null,
      key_hash: createHash('sha256').update(api_key).digest('hex'), key_hint: `${api_key.slice(0, 8)}…${api_key.slice(-4)}`,
    }, system_clock.now_us());
    const credited = actor.credit('test', 1_000_000_00, `BENCH-FUND-${i}`, 'Bench funding', system_clock.now_us());
    if (!credited.ok) throw new Error(`credit ${i}: ${credited.error.code}`);
    for (let j = 0; j < orders_per_account; j++) {
      const now_us = system_clock.now_us();
      const placed = place_order(actor, {
        environment: 'test', reference: new_reference(day), service_type: 'airtime', network: 'mtn', disco: null, provider: null,
        recipient: '08011111111', plan_code: null, plan: null, package_code: null, meter_type: null, amount_kobo: 100_00,
        customer_name: null, idempotency_key: null, provider_request_id: `${day}0000${randomBytes(6).toString('hex')}`,
      }, now_us, false);
      if (!placed.ok) throw new Error(`order ${i}/${j}: ${placed.error.code}`);
      apply_provider_result(actor, placed.value.reference, { outcome: 'delivered' }, now_us, false, placed.value);
    }
    if ((i + 1) % accounts_per_flush === 0) {
      await engine.journal.durable();
      if ((i + 1) % (accounts_per_flush * 20) === 0) process.stderr.write(`  seeded ${i + 1} accounts (${Math.round(performance.now() - started)} ms)\n`);
    }
  }
  await engine.journal.drain();
  await store.root.close();
  process.stdout.write(JSON.stringify({ accounts, orders: accounts * orders_per_account, seed_ms: Math.round(performance.now() - started) }) + '\n');
}

main().catch((error) => {
  process.stderr.write(`seed-store: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
