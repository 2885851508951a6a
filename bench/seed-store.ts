// Seeds a store for the `recovery` scenario through billvend's own engine (loaded from dist/), so
// every record is exactly what the server writes: N accounts, each with a test key, a credit and M
// delivered sandbox orders (debit entries, orders, references). Run as a child process:
//   node dist/bench/seed-store.js <data_dir> <accounts> <orders_per_account>
// Passwords and PINs share one precomputed scrypt hash: hashing 100,000 of them would take minutes.
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The engine's modules, loaded at run time from the build: the bench compiles without src/. */
async function load(path: string): Promise<any> {
  return import(new URL(`../${path}`, import.meta.url).href);
}

/** Accounts per group commit wait: keeps the journal's batches and memory bounded. */
const accounts_per_flush = 500;

async function main(): Promise<void> {
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
