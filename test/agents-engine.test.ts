// Money across accounts in the engine (docs/decisions.md "Money across accounts"), in process on a real
// LMDB store: a command over two accounts lands in one commit even when the open batch reaches its bound in
// the middle of it, and a commit that fails reloads both accounts from the store.
import t from 'tap';
import { open_in_process, stored_entries } from './helpers/engine-in-process.js';
import { Journal } from '../src/journal/journal.js';
import type { Engine } from '../src/engine/engine.js';
import type { AccountActor } from '../src/engine/account-actor.js';
import type { WalletRecord } from '../src/engine/records.js';

let accounts = 0;

function open_account(engine: Engine, parent_id?: number): AccountActor {
  accounts++;
  const outcome = engine.create_account({
    name: `Account ${accounts}`, email: `account${accounts}@example.ng`, phone: '+2348031234567', tier: 'standard', kyc_level: 2, password_hash: 'not used', pin_hash: null, parent_id,
  });
  if (!outcome.ok) throw new Error('account not opened');
  return outcome.value;
}

/** A space guard that refuses batches from the given count on (the disk-full path: nothing of them is written). */
function counting_space() {
  const space = { batches: 0, refuse_from: Infinity, room_for: () => ++space.batches < space.refuse_from };
  return space;
}

function stored_balance(engine: Engine, id: number): number {
  return (engine.store.wallets.get([id, 'test']) as WalletRecord).balance_kobo;
}

t.test('a transfer staged as the open batch reaches its bound still lands in one commit', async (t) => {
  const space = counting_space();
  const process = open_in_process(Date.UTC(2026, 10, 28, 12), space);
  t.teardown(() => process.close());
  const { engine, store } = process;
  const parent = open_account(engine);
  const agent = open_account(engine, parent.id);
  engine.run(parent, { kind: 'credit', environment: 'test', amount_kobo: 1_000_00, reference: 'fund', description: 'funding' });
  await engine.journal.durable();
  // The open batch two changes below its bound: the transfer's first two changes (the sender's entry and
  // wallet) would fill it, and without a group it would be sealed there, the receiver's side in the next.
  for (let i = 0; i < Journal.batch_changes_max - 2; i++) engine.journal.put(0, store.meta, `filler_${i}`, i);
  // The batch after the one holding the filler is refused, as a full disk refuses it.
  space.refuse_from = space.batches + 2;
  const outcome = engine.run_across([parent, agent], { kind: 'transfer', environment: 'test', direction: 'to_agent', amount_kobo: 400_00, reference: 'bound' });
  t.ok(outcome.ok, 'the transfer is made');
  await engine.journal.drain();
  const out = stored_entries(store, parent.id, 'test').filter((e) => e.reference === 'bound');
  const into = stored_entries(store, agent.id, 'test').filter((e) => e.reference === 'bound');
  t.equal(out.length, into.length, 'the store holds both sides of the transfer or neither');
  t.equal(out.length, 1, 'both sides were committed together');
  t.equal(stored_balance(engine, parent.id) + stored_balance(engine, agent.id), 1_000_00, 'the two wallets in the store still hold what was funded');
  t.equal(stored_balance(engine, agent.id), 400_00, 'the agent\'s stored wallet holds the transfer');
  // A reseller's records keep the shape they had before agents: an old store and a new one read alike.
  const reseller = store.accounts.get(parent.id) as Record<string, unknown>;
  t.notOk('parent_id' in reseller || 'status' in reseller, 'a reseller\'s record names no parent and no status');
  t.equal(store.accounts.get(agent.id).parent_id, parent.id, 'an agent\'s record names its parent');
});

t.test('a failed commit of a transfer reloads both accounts from the store, and neither keeps it', async (t) => {
  const space = counting_space();
  const process = open_in_process(Date.UTC(2026, 10, 28, 12), space);
  t.teardown(() => process.close());
  const { engine, store } = process;
  const parent = open_account(engine);
  const agent = open_account(engine, parent.id);
  engine.run(parent, { kind: 'credit', environment: 'test', amount_kobo: 1_000_00, reference: 'fund', description: 'funding' });
  await engine.journal.durable();
  space.refuse_from = space.batches + 1;
  const outcome = engine.run_across([parent, agent], { kind: 'transfer', environment: 'test', direction: 'to_agent', amount_kobo: 300_00, reference: 'lost' });
  t.ok(outcome.ok, 'the transfer was made in memory');
  t.equal(parent.wallets.test.balance_kobo, 700_00, 'the parent\'s actor was debited');
  const settled = parent.settled();
  t.equal(agent.settled(), settled, 'both accounts wait for the same commit');
  await settled?.catch(() => undefined);
  t.ok(parent.retired && agent.retired, 'both actors were let go');
  space.refuse_from = Infinity;
  const parent_now = engine.accounts.get(parent.id)!;
  const agent_now = engine.accounts.get(agent.id)!;
  t.not(parent_now, parent, 'the parent was reloaded');
  t.not(agent_now, agent, 'the agent was reloaded');
  t.equal(parent_now.wallets.test.balance_kobo, 1_000_00, 'the parent holds what the store holds');
  t.equal(agent_now.wallets.test.balance_kobo, 0, 'and so does the agent');
  t.equal(stored_entries(store, agent.id, 'test').length, 0, 'no entry of the transfer reached the store');
  t.throws(() => engine.run_across([parent, agent], { kind: 'transfer', environment: 'test', direction: 'to_agent', amount_kobo: 1_00, reference: 'stale' }), 'a command through a retired actor changes nothing');
  t.equal(parent_now.wallets.test.balance_kobo, 1_000_00, 'and moves nothing');
  const again = engine.run_across([parent_now, agent_now], { kind: 'transfer', environment: 'test', direction: 'to_agent', amount_kobo: 300_00, reference: 'lost' });
  t.ok(again.ok && again.value.created, 'the reference the failed commit took back is free again');
  await engine.journal.drain();
  t.equal(stored_balance(engine, agent.id), 300_00, 'and the retried transfer is committed');
});
