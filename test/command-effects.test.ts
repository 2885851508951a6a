// A command's effects (src/engine/command-effects.ts): what one command did, kept in its own collector and
// handed back with its outcome, with no mode of the journal or the engine switched while it runs (issue 31).
// In process, over a real LMDB store in a temp folder (test/helpers/engine-in-process.ts): the overlay a
// command reads through, the guards that keep one collector to one command and commands from nesting, and
// the events' time, the command's now.
import t from 'tap';
import { createHash } from 'node:crypto';
import { CommandEffects } from '../src/engine/command-effects.js';
import { JournalFailure } from '../src/journal/journal.js';
import { OpenOrders } from '../src/engine/open-orders.js';
import type { OrderRecord } from '../src/engine/order-record.js';
import type { AccountActor } from '../src/engine/account-actor.js';
import type { Engine } from '../src/engine/engine.js';
import { open_in_process } from './helpers/engine-in-process.js';

const start_ms = Date.UTC(2026, 2, 2, 8, 0, 0);
const world = open_in_process(start_ms);
const { engine, store, clock } = world;
t.teardown(() => world.close());

let accounts_made = 0;
function new_account(engine: Engine): AccountActor {
  accounts_made++;
  const created = engine.create_account({ name: `Effects reseller ${accounts_made}`, email: `effects-${accounts_made}@example.ng`, phone: '+2348012345678', tier: 'standard', kyc_level: 3, password_hash: 'password-hash-placeholder', pin_hash: null });
  if (!created.ok) throw new Error('account not created');
  return created.value;
}

t.test('a command reads its own puts and removes through its effects, the last one of a key deciding', async (t) => {
  const db = store.catalog;
  engine.journal.put(0, db, 'effects:a', { n: 1 });
  await engine.journal.durable();
  const effects = new CommandEffects(engine.journal, [{ id: 1 }], clock.now_us());
  t.same(effects.read(db, 'effects:a'), { n: 1 }, 'a key the command has not changed reads as the journal has it');
  effects.put(1, db, 'effects:a', { n: 2 });
  t.same(effects.read(db, 'effects:a'), { n: 2 }, 'the command reads its own put');
  t.same(engine.journal.read(db, 'effects:a'), { n: 1 }, 'the journal has nothing of the running command');
  effects.remove(1, db, 'effects:a');
  t.equal(effects.read(db, 'effects:a'), undefined, 'a remove reads as absent');
  effects.put(1, db, 'effects:a', { n: 3 });
  t.same(effects.read(db, 'effects:a'), { n: 3 }, 'a put after the remove reads again: the last change wins');
  const read = effects.read(db, 'effects:a') as { n: number };
  read.n = 99;
  t.same(effects.read(db, 'effects:a'), { n: 3 }, 'each read decodes anew: changing what was read changes nothing staged');
  effects.remove(1, db, 'effects:b');
  t.equal(effects.read(db, 'effects:b'), undefined, 'removing a key nobody wrote reads as absent');
  t.equal(effects.changes.length, 4, 'the command holds its four changes, in order');
  t.same(effects.changes.map((c) => c.account_id), [1, 1, 1, 1], 'each under the account that made it');
});

t.test('keys are told apart as the journal tells them: a string, a number and a tuple are three keys', async (t) => {
  const db = store.wallets;
  const effects = new CommandEffects(engine.journal, [{ id: 7 }], clock.now_us());
  effects.put(7, db, [7, 'test'], { tuple: true });
  t.equal(effects.read(db, ['7', 'test']), undefined, 'the tuple with a string where the number was is another key');
  t.equal(effects.read(db, [7, 'test', 1]), undefined, 'a longer tuple is another key');
  t.same(effects.read(db, [7, 'test']), { tuple: true }, 'the same tuple, another array, is the same key');
  effects.put(0, store.meta, 1 as unknown as string, 'number');
  t.equal(effects.read(store.meta, 'effects-one'), undefined, 'an unrelated string key reads from the journal (absent)');
  t.equal(effects.read(store.meta, '1'), undefined, 'the string 1 is not the number 1');
  t.equal(effects.read(store.meta, 1 as unknown as string), 'number', 'the number 1 is');
  t.equal(effects.read(store.wallet_entries, [7, 'test']), undefined, 'the same key in another database is another key');
});

t.test('first_key_under of a database the running command changed fails loudly; of another it asks the journal', async (t) => {
  const effects = new CommandEffects(engine.journal, [{ id: 3 }], clock.now_us());
  t.equal(effects.first_key_under(store.order_index, [3, 'test', 'client_reference', 'INV-9']), undefined, 'before any change the journal answers');
  effects.put(3, store.orders, [3, 'test', 1], { seq: 1 });
  t.equal(effects.first_key_under(store.order_index, [3, 'test', 'client_reference', 'INV-9']), undefined, 'a change of another database does not stop it');
  effects.put(3, store.order_index, [3, 'test', 'client_reference', 'INV-9', 1], true);
  t.throws(() => effects.first_key_under(store.order_index, [3, 'test', 'client_reference', 'INV-9']), /first_key_under of a database the running command has changed/, 'after the command changed the index, the range read throws');
});

t.test('events take the command\'s now and their place among its changes; moves add up; only held accounts', async (t) => {
  const a = { id: 11 };
  const b = { id: 12 };
  const now_us = 1_772_352_000_123_456;
  const effects = new CommandEffects(engine.journal, [a, b], now_us);
  effects.put(11, store.catalog, 'effects:e', 1);
  effects.event(a, 'test', 'wallet.credited', {});
  effects.put(12, store.catalog, 'effects:f', 2);
  effects.put(12, store.catalog, 'effects:g', 3);
  effects.event(b, 'live', 'wallet.debited', {});
  t.same(effects.events.map((e) => [e.actor.id, e.kind, e.now_us, e.after_changes]), [[11, 'wallet.credited', now_us, 1], [12, 'wallet.debited', now_us, 3]], 'each event at the command\'s now, after the changes made before it');
  effects.balance_moved(a, 'test', 500);
  effects.balance_moved(a, 'test', -200);
  effects.balance_moved(a, 'live', 70);
  t.same(effects.moved.get(a), { live: 70, test: 300 }, 'the balances moved add up per account and environment');
  t.equal(effects.held(12), b, 'held finds an account of the command');
  t.throws(() => effects.held(13), /account 13 is not held by the running command/, 'held refuses an account the command does not hold');
  t.throws(() => effects.event({ id: 13 }, 'test', 'wallet.credited', {}), /emitted an event of account 13, which it does not hold/, 'an event of an account not held throws');
  t.throws(() => effects.balance_moved({ id: 13 }, 'test', 1), /balance moved outside its command/, 'a balance of an account not held throws');
});

t.test('two commands cannot share a collector', async (t) => {
  const a = new_account(engine);
  const b = new_account(engine);
  const effects = new CommandEffects<AccountActor>(engine.journal, [a], clock.now_us());
  t.throws(() => b.enter_command(effects), /account \d+ entered a command over \d+/, 'an account the collector does not name cannot enter it');
  a.enter_command(effects);
  t.throws(() => a.enter_command(new CommandEffects<AccountActor>(engine.journal, [a], clock.now_us())), /is in a command already/, 'an account in a command cannot enter a second one');
  a.leave_command();
  const executed = effects.finish('done');
  t.equal(executed.outcome, 'done', 'finish hands back the outcome with the effects');
  t.throws(() => a.enter_command(effects), /the effects of a command that has returned were used again/, 'a collector whose command returned serves no other');
  t.throws(() => effects.put(a.id, store.catalog, 'effects:late', 1), /used again/, 'nor takes a change after it');
  t.throws(() => effects.finish('again'), /used again/, 'nor finishes twice');
  t.throws(() => a.stage_put(store.catalog, 'effects:outside', 1), /staged a change outside a command/, 'outside a command an account stages nothing');
  t.throws(() => a.emit('test', 'wallet.credited', {}), /emitted wallet.credited outside a command/, 'outside a command an account emits nothing of its own');
});

t.test('a command cannot run inside another, and the guard lets the next command run', async (t) => {
  const a = new_account(engine);
  const b = new_account(engine);
  const next_key_id = engine.next_key_id;
  const key_input = (text: string) => ({ name: text, environment: 'test' as const, scopes: ['*' as const], ip_allowlist: [], rate_limit_per_minute: 60, expires_ms: null, key_hash: createHash('sha256').update(text).digest('hex'), key_hint: 'bv_test_…nest' });
  const before = engine.run(a, { kind: 'create_key', input: key_input('key before') });
  if (!before.ok) throw new Error('create_key refused');
  const counted = engine.counts.api_keys_active;
  const input = key_input('nested command key');
  const key_hash = input.key_hash;
  // create_key takes its id from the engine inside its command: the one hook a test can reach there.
  engine.next_key_id = (effects) => {
    const id = next_key_id.call(engine, effects);
    engine.run(b, { kind: 'set_password', password_hash: 'nested' });
    return id;
  };
  try {
    t.throws(() => engine.run(a, { kind: 'create_key', input }), /an account command ran inside another one/, 'a command run inside a command throws');
  } finally {
    engine.next_key_id = next_key_id;
  }
  t.equal(a.in_command, false, 'the outer account left its command');
  t.equal(b.account.password_hash, 'password-hash-placeholder', 'the inner command changed nothing');
  t.equal(engine.journal.read(store.key_hashes, key_hash), undefined, 'nothing of the outer command reached the journal');
  // What the process holds beside the accounts moves only once a command is staged (CommandEffects.afterwards).
  t.equal(engine.key_by_hash(key_hash), undefined, 'the key of the command that threw is not found by its hash');
  t.equal(engine.counts.api_keys_active, counted, 'nor counted among the active keys');
  const made = engine.run(a, { kind: 'create_key', input: key_input('next key') });
  if (!made.ok) throw new Error('create_key refused');
  t.equal(made.value.id, before.value.id + 1, 'the next key takes the id the command that threw did not use');
  t.equal(engine.counts.api_keys_active, counted + 1, 'and is counted once staged');
  // A retired actor (replaced after a failed commit) throws its failure at its first staged change: nothing
  // of the key it was making is found by its hash or counted.
  const retired = new_account(engine);
  retired.retire(new JournalFailure(new Error('a failed commit'), new Set([retired.id])));
  const orphan = key_input('key of a retired actor');
  t.throws(() => engine.run(retired, { kind: 'create_key', input: orphan }), /a failed commit/, 'a retired actor\'s command throws its failure');
  t.equal(engine.key_by_hash(orphan.key_hash), undefined, 'and the key it was making is not found by its hash');
  t.equal(engine.counts.api_keys_active, counted + 1, 'nor counted');
  const outcome = engine.run(a, { kind: 'set_password', password_hash: 'after' });
  t.equal(outcome, undefined, 'the next command runs');
  await engine.journal.durable();
  t.equal((store.accounts.get(a.id) as { password_hash: string }).password_hash, 'after', 'and its change is durable');
  const inside = new_account(engine);
  const effects = new CommandEffects<AccountActor>(engine.journal, [inside], clock.now_us());
  inside.enter_command(effects);
  t.throws(() => engine.emit(inside, 'live', 'service.status_changed', { status: { product: 'mtn-airtime', service_type: 'airtime', status: 'available', retry_after_s: null } }), /emitted beside its running command/, 'an event of an account in a command goes through the command, not around it');
  inside.leave_command();
});

t.test('the events of a command carry the command\'s now, not the clock\'s when the sink hears them', async (t) => {
  const a = new_account(engine);
  const heard: { kind: string; now_us: number }[] = [];
  const sink = engine.event_sink;
  engine.event_sink = { emit: (actor, environment, kind, subject, now_us, stage) => { heard.push({ kind, now_us }); sink?.emit(actor, environment, kind, subject, now_us, stage); } };
  t.teardown(() => { engine.event_sink = sink; });
  const then_us = clock.now_us() - 3_600_000_000;
  const credited = engine.run(a, { kind: 'credit', environment: 'test', amount_kobo: 50_00, reference: 'EFFECTS-NOW-1', description: 'Funding' }, then_us);
  if (!credited.ok) throw new Error('credit refused');
  t.equal(credited.value.entry.created_us, then_us, 'the entry is made at the command\'s now');
  t.same(heard, [{ kind: 'wallet.credited', now_us: then_us }], 'its event is at the same now, an hour before the clock');
  heard.length = 0;
  engine.emit(a, 'live', 'service.status_changed', { status: { product: 'mtn-airtime', service_type: 'airtime', status: 'available', retry_after_s: null } });
  t.same(heard, [{ kind: 'service.status_changed', now_us: clock.now_us() }], 'an event outside any command goes to the sink at once, at the clock\'s now');
});

t.test('the open orders\' count moves once a command is staged, never from inside it', async (t) => {
  // The map alone: inside a command, a change of the count waits for the command's afterwards.
  const counts = { open_orders: 0 };
  let command: { afterwards(change: () => void): void } | null = null;
  const orders = new OpenOrders(counts, () => command);
  const order = {} as OrderRecord;
  orders.set('BV-OUTSIDE', order);
  t.equal(counts.open_orders, 1, 'outside a command (an actor loading its orders) the count moves at once');
  const later: (() => void)[] = [];
  command = { afterwards: (change) => later.push(change) };
  orders.set('BV-INSIDE', order);
  orders.set('BV-INSIDE', order);
  orders.delete('BV-OUTSIDE');
  t.equal(counts.open_orders, 1, 'inside a command the map changes and the count does not');
  t.equal(orders.size, 1, 'the map holds what the command left');
  for (const change of later) change();
  command = null;
  t.equal(counts.open_orders, 1, 'once staged, the count is the map\'s size (+1 -1)');
  command = { afterwards: () => {} };
  orders.set('BV-THROWN', order);
  command = null;
  t.equal(counts.open_orders, 1, 'a command that throws before it is staged leaves the count as it was');
  orders.detach();
  t.equal(counts.open_orders, 0, 'a replaced actor\'s map takes back what it added, not its size');
  orders.set('BV-DETACHED', order);
  t.equal(counts.open_orders, 0, 'and counts no more');

  // Through the engine: placing an order counts it once run returns; a sandbox purchase answered in its own
  // command never counts.
  const a = new_account(engine);
  const funded = engine.run(a, { kind: 'credit', environment: 'test', amount_kobo: 500_00, reference: 'EFFECTS-OPEN-1', description: 'Funding' });
  if (!funded.ok) throw new Error('credit refused');
  const before = engine.counts.open_orders;
  const order_of = (n: number) => ({
    input: { service_type: 'airtime' as const, network: 'mtn', disco: null, provider: null, recipient: '08031234567', plan_code: null, plan: null, package_code: null, meter_type: null, amount_kobo: 100_00, customer_name: null, client_reference: null },
    placement: { environment: 'test' as const, reference: `BV-EFFECTS-OPEN-${n}`, idempotency_key: null, provider_request_id: `effects-open-${n}`, indexed: true, commission_kobo: 0, authority: { kind: 'internal' as const } },
  });
  const placed = engine.run(a, { kind: 'place_order', ...order_of(1) });
  t.ok(placed.ok, 'an order is placed');
  t.equal(engine.counts.open_orders, before + 1, 'and counted open');
  const bought = engine.run(a, { kind: 'purchase_now', ...order_of(2), answer: () => ({ outcome: 'delivered' }), remember: null });
  t.ok(bought.ok, 'a purchase answered at once is made');
  t.equal(engine.counts.open_orders, before + 1, 'and never counted open');
  engine.run(a, { kind: 'provider_result', reference: 'BV-EFFECTS-OPEN-1', result: { outcome: 'delivered' }, not_found_is_final: false });
  t.equal(engine.counts.open_orders, before, 'the placed order, answered, is counted no more');
});
