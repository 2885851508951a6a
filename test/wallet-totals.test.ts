// The sum of every wallet's balance (engine/wallet-totals.ts), in process against a real LMDB store:
// the scan reads a few wallets per turn of the event loop while credits, debits and refunds of accounts
// on both sides of its cursor, and of accounts created after it began, are staged and committed between
// its slices; once complete, the total is each environment's balances summed from the store. A failed
// commit (the disk guard refusing a batch) starts the scan over, and the total is right again after it.
import t, { type Test } from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { setImmediate as next_turn } from 'node:timers/promises';
import { pino } from 'pino';
import { open_store, type Store } from '../src/journal/store.js';
import { Engine } from '../src/engine/engine.js';
import { ensure_order_index } from '../src/engine/order-index.js';
import type { OrderRequest } from '../src/engine/account-orders.js';
import { ManualClock } from '../src/lib/clock.js';
import { TimerWheel } from '../src/lib/timer-wheel.js';
import { SeededRandom } from '../src/lib/random.js';
import { SecretBox } from '../src/lib/secrets.js';
import type { Environment, WalletRecord } from '../src/engine/records.js';

interface World {
  engine: Engine;
  store: Store;
  room: { ok: boolean };
}

function open_engine(t: Test): World {
  const data_dir = mkdtempSync(join(tmpdir(), 'billvend-wallet-totals-'));
  const store = open_store(data_dir);
  ensure_order_index(store);
  const clock = new ManualClock(Date.UTC(2026, 10, 27, 8, 0, 0));
  const room = { ok: true };
  const engine = new Engine(store, clock, new SeededRandom(36), new TimerWheel({ clock }), new SecretBox(randomBytes(32)), pino({ level: 'silent' }), { on_commit() {} }, { room_for: () => room.ok });
  engine.recover();
  t.teardown(async () => {
    room.ok = true;
    await engine.journal.drain();
    await store.root.close();
    rmSync(data_dir, { recursive: true, force: true });
  });
  return { engine, store, room };
}

let accounts_made = 0;
function new_account(engine: Engine): number {
  const created = engine.create_account({ name: 'Totals reseller', email: `totals-${++accounts_made}@example.ng`, phone: '+2348012345678', tier: 'standard', kyc_level: 3, password_hash: 'password-hash-placeholder', pin_hash: null });
  if (!created.ok) throw new Error('account not created');
  return created.value.id;
}

let references_made = 0;
function credit(engine: Engine, account_id: number, environment: Environment, amount_kobo: number): void {
  const done = engine.run(engine.accounts.get(account_id)!, { kind: 'credit', environment, amount_kobo, reference: `FUND-${++references_made}`, description: 'Funding' }, engine.clock.now_us());
  if (!done.ok) throw new Error(`credit refused: ${done.refused.refusal}`);
}

function airtime(amount_kobo: number): OrderRequest {
  return {
    service_type: 'airtime', network: 'mtn', disco: null, provider: null, recipient: '08031234567', plan_code: null, plan: null,
    package_code: null, meter_type: null, amount_kobo, customer_name: null, client_reference: null,
  };
}

/** A purchase debited and then, as the sandbox's failure would, refunded: two commands, one after the other. */
function buy_then_refund(engine: Engine, account_id: number, amount_kobo: number, refund: boolean): void {
  const reference = `BV-TOTALS-${++references_made}`;
  const placed = engine.run(engine.accounts.get(account_id)!, {
    kind: 'place_order',
    input: airtime(amount_kobo),
    placement: { environment: 'test', reference, idempotency_key: null, provider_request_id: `totals-${references_made}`, indexed: true, commission_kobo: 0, authority: { kind: 'internal' } },
  }, engine.clock.now_us());
  if (!placed.ok) throw new Error(`purchase refused: ${placed.refused.refusal}`);
  if (!refund) return;
  engine.run(engine.accounts.get(account_id)!, {
    kind: 'provider_result',
    reference,
    result: { outcome: 'failed', reason: 'failed upstream' },
    not_found_is_final: true,
  }, engine.clock.now_us());
}

/** Each environment's balances summed from the store: what the totals must say. */
function stored_sums(store: Store): Record<Environment, number> {
  const sums = { live: 0, test: 0 };
  for (const { key, value } of store.wallets.getRange({})) sums[(key as [number, Environment])[1]] += (value as WalletRecord).balance_kobo;
  return sums;
}

async function scanned(engine: Engine, turn: (turns: number) => void = () => {}): Promise<number> {
  let turns = 0;
  while (!engine.wallet_totals.complete) {
    if (turns > 10_000) throw new Error('the scan never completed');
    turn(turns++);
    await next_turn();
  }
  return turns;
}

t.test('the totals are the stored balances summed, with credits, purchases and refunds on both sides of the scan\'s cursor while it runs', async (t) => {
  const { engine, store } = open_engine(t);
  const ids: number[] = [];
  for (let i = 0; i < 300; i++) {
    const id = new_account(engine);
    ids.push(id);
    credit(engine, id, 'test', 1_000_00 + i);
    if (i % 3 === 0) credit(engine, id, 'live', 500_00 + i);
  }
  await engine.journal.durable();
  t.equal(engine.wallet_totals.total_kobo('test'), null, 'before the scan nothing is known');

  // 600 wallets, 7 per turn: about 86 turns, each with changes staged (and some still in flight) as it reads.
  engine.start_wallet_totals(7);
  const late: number[] = [];
  let reported_early = 0;
  const turns = await scanned(engine, (turn) => {
    if (engine.wallet_totals.total_kobo('live') !== null || engine.wallet_totals.total_kobo('test') !== null) reported_early++;
    const low = ids[(turn * 7) % ids.length]!;
    const high = ids[ids.length - 1 - ((turn * 11) % ids.length)]!;
    credit(engine, low, 'test', 10_00 + turn);
    credit(engine, high, 'live', 20_00 + turn);
    buy_then_refund(engine, high, 1_00 + turn, turn % 2 === 0);
    buy_then_refund(engine, low, 2_00, turn % 3 === 0);
    if (turn % 10 === 0) {
      const id = new_account(engine);
      late.push(id);
      credit(engine, id, 'test', 3_00);
      credit(engine, id, 'live', 4_00);
    }
  });
  t.equal(reported_early, 0, 'while the scan ran the total was never reported');
  t.ok(turns > 50, `the scan took many turns (${turns}), the changes interleaved with its slices`);
  t.ok(late.length > 0, `accounts were created while it ran (${late.length})`);
  await engine.journal.durable();
  const sums = stored_sums(store);
  t.equal(engine.wallet_totals.total_kobo('test'), sums.test, `test: the total is the stored balances summed (${sums.test} kobo)`);
  t.equal(engine.wallet_totals.total_kobo('live'), sums.live, `live: the same (${sums.live} kobo)`);

  // After the scan: every committed change moves the total by its delta.
  credit(engine, ids[5]!, 'live', 123_45);
  buy_then_refund(engine, ids[6]!, 50_00, false);
  t.equal(engine.wallet_totals.total_kobo('live'), sums.live, 'a change not yet durable is not counted yet');
  await engine.journal.durable();
  const after = stored_sums(store);
  t.equal(after.live, sums.live + 123_45, 'the credit is in the store');
  t.equal(engine.wallet_totals.total_kobo('live'), after.live, 'live: counted once durable');
  t.equal(engine.wallet_totals.total_kobo('test'), after.test, 'test: the purchase counted once durable');
});

t.test('a failed commit drops its changes from the totals and starts the scan over; the totals are right again after it', async (t) => {
  const { engine, store, room } = open_engine(t);
  const ids: number[] = [];
  for (let i = 0; i < 40; i++) {
    const id = new_account(engine);
    ids.push(id);
    credit(engine, id, 'test', 100_00);
  }
  await engine.journal.durable();
  engine.start_wallet_totals(5);
  await scanned(engine, (turn) => {
    if (turn === 3) {
      // A batch the disk guard refuses: nothing of it reaches the store. Its credits touch every account,
      // those the scan read already and those it reads next turn, as staged, before the batch is refused.
      room.ok = false;
      for (const id of ids) credit(engine, id, 'test', 7_00);
    }
    if (turn === 4) room.ok = true;
  });
  await engine.journal.durable().catch(() => {});
  // The failure may have come after the first scan completed: the scan it started over must finish too.
  await scanned(engine);
  credit(engine, ids[1]!, 'test', 11_00);
  await engine.journal.durable();
  const sums = stored_sums(store);
  t.equal(sums.test, 40 * 100_00 + 11_00, 'the refused credits are not in the store');
  t.equal(engine.wallet_totals.total_kobo('test'), sums.test, 'nor in the total, which counts the credit after');
});
