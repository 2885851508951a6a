// The journal answers reads with what is staged (read-your-writes), in process against a real LMDB
// store: a staged put or removal is what `read` answers until its batch is durable, a newer batch
// wins over an older one, and a batch that is durable, refused or failed leaves the answer to the
// store. A controlled cluster appender holds a batch short of durable (not written until its append is
// acknowledged), so that reads can be
// checked while it is in flight; a full disk (the disk guard) makes a batch fail. The engine's checks
// that used to keep their own copy of what they staged (emails, funding references, client references)
// are checked here too, in the same commit and after a failed one.
import t, { type Test } from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open_store, type Store } from '../src/journal/store.js';
import { Journal, type JournalAppender, type JournalFailure, type StagedChange } from '../src/journal/journal.js';
import { pino } from 'pino';
import { Engine } from '../src/engine/engine.js';
import { ensure_order_index } from '../src/engine/order-index.js';
import { claim_of } from '../src/engine/client-reference-claims.js';
import type { OrderRequest } from '../src/engine/account-orders.js';
import { ManualClock } from '../src/lib/clock.js';
import { TimerWheel } from '../src/lib/timer-wheel.js';
import { SeededRandom } from '../src/lib/random.js';
import { SecretBox } from '../src/lib/secrets.js';
import { randomBytes } from 'node:crypto';

interface World {
  store: Store;
  journal: Journal;
  failures: JournalFailure[];
  /** Whether the disk guard lets the next batch through. */
  room: { ok: boolean };
}

function open_world(t: Test, on_failure?: (journal: Journal, failure: JournalFailure) => void): World {
  const data_dir = mkdtempSync(join(tmpdir(), 'billvend-ryw-'));
  const store = open_store(data_dir);
  const failures: JournalFailure[] = [];
  const room = { ok: true };
  const journal: Journal = new Journal(
    { on_commit() {} },
    (failure) => {
      failures.push(failure);
      on_failure?.(journal, failure);
    },
    (error) => {
      throw error;
    },
    { room_for: () => room.ok },
  );
  t.teardown(async () => {
    await journal.drain();
    await store.root.close();
    rmSync(data_dir, { recursive: true, force: true });
  });
  return { store, journal, failures, room };
}

/** An appender whose appends are durable only when the test says so: each batch waits for release(). */
class HeldAppender implements JournalAppender {
  readonly held: { changes: readonly StagedChange[]; release: () => void; refuse: (error: Error) => void }[] = [];
  append(changes: readonly StagedChange[]): { changes: StagedChange[]; appended: Promise<void> } {
    let release!: () => void;
    let refuse!: (error: Error) => void;
    const appended = new Promise<void>((resolve, reject) => {
      release = resolve;
      refuse = reject;
    });
    this.held.push({ changes, release, refuse });
    return { changes: [], appended };
  }
}

/** Resolves once the journal handed its `count`th batch to the appender. */
async function until_appended(appender: HeldAppender, count: number): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (appender.held.length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`batch ${count} never reached the appender`);
}

t.test('a staged put is read back before it is durable, as it was when staged', async (t) => {
  const { store, journal } = open_world(t);
  const plan = { amount_kobo: 10_000, enabled: true };
  journal.put(0, store.catalog, 'item:a', plan);
  // The caller goes on mutating its object: the read answers the state as staged.
  plan.amount_kobo = 1;
  t.strictSame(journal.read(store.catalog, 'item:a'), { amount_kobo: 10_000, enabled: true }, 'the read answers the value as staged');
  t.equal(store.catalog.get('item:a'), undefined, 'the store does not hold it yet');
  t.not(journal.read(store.catalog, 'item:a'), journal.read(store.catalog, 'item:a'), 'each read returns its own object');
  await journal.durable();
  t.strictSame(store.catalog.get('item:a'), { amount_kobo: 10_000, enabled: true }, 'the store holds it once durable');
});

t.test('a key of each kind (string, number, tuple) is read back apart from the others', async (t) => {
  const { store, journal } = open_world(t);
  journal.put(0, store.funding_refs, '1', 'string');
  journal.put(0, store.funding_refs, 1, 'number');
  journal.put(0, store.funding_refs, [1], 'tuple');
  journal.put(0, store.funding_refs, ['live', 'ref-1', 7], { account_id: 7, entry_id: 3 });
  t.equal(journal.read(store.funding_refs, '1'), 'string', 'the string key answers its own value');
  t.equal(journal.read(store.funding_refs, 1), 'number', 'the number key answers its own value');
  t.equal(journal.read(store.funding_refs, [1]), 'tuple', 'the tuple key answers its own value');
  t.strictSame(journal.read(store.funding_refs, ['live', 'ref-1', 7]), { account_id: 7, entry_id: 3 }, 'a longer tuple answers its value');
  t.equal(journal.read(store.funding_refs, ['live', 'ref-1']), undefined, 'its parent tuple is absent');
  t.equal(journal.read(store.order_refs, '1'), undefined, 'the same key in another database is absent');
  await journal.durable();
});

t.test('a staged removal answers absent though the store still holds the key', async (t) => {
  const { store, journal } = open_world(t);
  store.catalog.putSync('item:b', { amount_kobo: 500, enabled: true });
  journal.remove(0, store.catalog, 'item:b');
  t.equal(journal.read(store.catalog, 'item:b'), undefined, 'the read answers absent');
  t.strictSame(store.catalog.get('item:b'), { amount_kobo: 500, enabled: true }, 'the store still holds the key');
  journal.put(0, store.catalog, 'item:b', { amount_kobo: 700, enabled: false });
  t.strictSame(journal.read(store.catalog, 'item:b'), { amount_kobo: 700, enabled: false }, 'a put after the removal in the same batch wins');
  journal.remove(0, store.catalog, 'item:b');
  await journal.durable();
  t.equal(store.catalog.get('item:b'), undefined, 'the store lost the key once durable');
});

t.test('with two batches not yet durable, the newer one answers first and the older one still answers', async (t) => {
  const { store, journal } = open_world(t);
  const appender = new HeldAppender();
  journal.appender = appender;
  journal.put(0, store.catalog, 'shared', 'first');
  journal.put(0, store.catalog, 'older only', 'older');
  const first_durable = journal.durable();
  await until_appended(appender, 1);
  t.equal(store.catalog.get('shared'), undefined, 'the first batch waits for its append before anything of it is written');
  journal.put(0, store.catalog, 'shared', 'second');
  t.equal(journal.read(store.catalog, 'shared'), 'second', 'the open batch answers before the appending one');
  t.equal(journal.read(store.catalog, 'older only'), 'older', 'the appending batch answers for a key only it holds');
  const second_durable = journal.durable();
  t.equal(appender.held.length, 1, 'the second batch waits behind the first');
  appender.held[0].release();
  await first_durable;
  t.equal(store.catalog.get('shared'), 'first', 'once the stream took the first batch it is written');
  // The store is written behind the journal's back: once a batch is durable, the store answers for its keys.
  store.catalog.putSync('older only', 'written directly');
  t.equal(journal.read(store.catalog, 'older only'), 'written directly', 'once the first batch is durable the store answers for its keys');
  t.equal(journal.read(store.catalog, 'shared'), 'second', 'the second batch, not durable yet, still answers');
  await until_appended(appender, 2);
  t.equal(store.catalog.get('shared'), 'first', 'the second batch is not written before its append is acknowledged');
  appender.held[1].release();
  await second_durable;
  t.equal(store.catalog.get('shared'), 'second', 'then it is');
  store.catalog.putSync('shared', 'written directly');
  t.equal(journal.read(store.catalog, 'shared'), 'written directly', 'once every batch is durable the store alone answers');
  journal.appender = null;
});

t.test('a durable batch is dropped: the store answers for its keys', async (t) => {
  const { store, journal } = open_world(t);
  journal.put(0, store.catalog, 'item:c', 'staged');
  await journal.durable();
  store.catalog.putSync('item:c', 'written directly');
  t.equal(journal.read(store.catalog, 'item:c'), 'written directly', 'the staged value no longer shadows the store');
});

t.test('a failed batch is dropped before the failure is reported: reads answer what the store holds', async (t) => {
  let seen_in_failure: unknown = 'not called';
  const { store, journal, failures, room } = open_world(t, (journal) => {
    // The engine reloads the touched accounts here: by then reads must answer from the store.
    seen_in_failure = journal.read(store.catalog, 'item:d');
  });
  store.catalog.putSync('item:d', 'committed');
  room.ok = false;
  journal.put(5, store.catalog, 'item:d', 'lost');
  journal.put(5, store.catalog, 'item:e', 'lost');
  t.equal(journal.read(store.catalog, 'item:d'), 'lost', 'before the commit the staged value answers');
  await t.rejects(journal.durable(), 'the batch fails');
  t.equal(failures.length, 1, 'the failure is reported once');
  t.equal(seen_in_failure, 'committed', 'during the failure report the store answers');
  t.equal(journal.read(store.catalog, 'item:d'), 'committed', 'after it the store answers for the failed put');
  t.equal(journal.read(store.catalog, 'item:e'), undefined, 'a key only the failed batch held is absent');
  room.ok = true;
});

t.test('a batch refused by the cluster (its append failed) is dropped with every later one, and nothing of them is written', async (t) => {
  const { store, journal } = open_world(t);
  const appender = new HeldAppender();
  journal.appender = appender;
  journal.put(0, store.catalog, 'item:f', 'refused');
  const refused = journal.durable();
  await until_appended(appender, 1);
  journal.put(0, store.catalog, 'item:g', 'behind it');
  const behind = journal.durable();
  t.equal(journal.read(store.catalog, 'item:f'), 'refused', 'the appending batch answers while it waits');
  t.equal(journal.read(store.catalog, 'item:g'), 'behind it', 'the batch behind it answers while it waits');
  appender.held[0].refuse(new Error('lease lost'));
  // The appender's contract: once an append fails, every later one fails too.
  for (const later of appender.held.slice(1)) later.refuse(new Error('lease lost'));
  await t.rejects(refused, 'the batch is refused');
  await t.rejects(behind, 'the batch behind it is refused');
  t.equal(store.catalog.get('item:f'), undefined, 'nothing of the refused batch was written');
  t.equal(store.catalog.get('item:g'), undefined, 'nor of the batch behind it');
  t.equal(journal.read(store.catalog, 'item:f'), undefined, 'the refused batch no longer answers');
  t.equal(journal.read(store.catalog, 'item:g'), undefined, 'the batch behind it no longer answers either');
  journal.put(0, store.catalog, 'item:h', 'after the refusal');
  await t.rejects(journal.durable(), 'a batch staged after the refusal is refused');
  t.equal(journal.read(store.catalog, 'item:h'), undefined, 'and no longer answers');
  t.equal(store.catalog.get('item:h'), undefined, 'and was not written');
});

t.test('the first key under a tuple prefix counts staged puts and staged removals', async (t) => {
  const { store, journal } = open_world(t);
  const prefix = [1, 'live', 'client_reference', 'cr-1'];
  t.equal(journal.first_key_under(store.order_index, prefix), undefined, 'nothing is under the prefix at first');
  journal.put(1, store.order_index, [...prefix, 9], true);
  journal.put(1, store.order_index, [1, 'live', 'client_reference', 'cr-10', 2], true);
  t.strictSame(journal.first_key_under(store.order_index, prefix), [...prefix, 9], 'a staged put is found');
  await journal.durable();
  t.strictSame(journal.first_key_under(store.order_index, prefix), [...prefix, 9], 'once durable the store finds it');
  store.order_index.putSync([...prefix, 4], true);
  journal.put(1, store.order_index, [...prefix, 12], true);
  t.strictSame(journal.first_key_under(store.order_index, prefix), [...prefix, 4], 'the lowest of staged and stored keys comes first');
  journal.remove(1, store.order_index, [...prefix, 4]);
  t.strictSame(journal.first_key_under(store.order_index, prefix), [...prefix, 9], 'a stored key removed by a staged change is skipped');
  journal.put(1, store.order_index, [...prefix, 2], true);
  t.strictSame(journal.first_key_under(store.order_index, prefix), [...prefix, 2], 'a put staged after the range was first read is found');
  t.equal(journal.first_key_under(store.order_index, [2, 'live', 'client_reference', 'cr-1']), undefined, 'another account\'s prefix finds nothing');
  await journal.durable();
  t.strictSame(journal.first_key_under(store.order_index, prefix), [...prefix, 2], 'after the commit the store agrees');
});

// ---- The engine's checks, read through the journal ----------------------------------------------

interface EngineWorld {
  engine: Engine;
  store: Store;
  room: { ok: boolean };
}

function open_engine(t: Test): EngineWorld {
  const data_dir = mkdtempSync(join(tmpdir(), 'billvend-ryw-engine-'));
  const store = open_store(data_dir);
  ensure_order_index(store);
  const clock = new ManualClock(Date.UTC(2026, 2, 2, 8, 0, 0));
  const room = { ok: true };
  const engine = new Engine(store, clock, new SeededRandom(7), new TimerWheel({ clock }), new SecretBox(randomBytes(32)), pino({ level: 'silent' }), { on_commit() {} }, { room_for: () => room.ok });
  engine.recover();
  t.teardown(async () => {
    room.ok = true;
    await engine.journal.drain();
    await store.root.close();
    rmSync(data_dir, { recursive: true, force: true });
  });
  return { engine, store, room };
}

function new_account(engine: Engine, email: string) {
  return engine.create_account({ name: 'Staged reseller', email, phone: '+2348012345678', tier: 'standard', kyc_level: 3, password_hash: 'password-hash-placeholder', pin_hash: null });
}

function airtime(client_reference: string): OrderRequest {
  return {
    service_type: 'airtime', network: 'mtn', disco: null, provider: null, recipient: '08031234567', plan_code: null, plan: null,
    package_code: null, meter_type: null, amount_kobo: 10_00, customer_name: null, client_reference,
  };
}

let references_made = 0;
function place(engine: Engine, account_id: number, client_reference: string) {
  references_made++;
  return engine.run(engine.accounts.get(account_id)!, {
    kind: 'place_order',
    input: airtime(client_reference),
    placement: { environment: 'test', reference: `BV-RYW-${references_made}`, idempotency_key: null, provider_request_id: `ryw-${references_made}`, indexed: true, commission_kobo: 0, authority: { kind: 'internal' } },
  }, engine.clock.now_us());
}

t.test('an email taken by an account created in the same commit is refused, and stays taken once durable', async (t) => {
  const { engine } = open_engine(t);
  t.ok(new_account(engine, 'twice@example.ng').ok, 'the first account is created');
  const again = new_account(engine, 'TWICE@example.ng');
  t.equal(again.ok ? 'ok' : again.refused.refusal, 'email_taken', 'the second, in the same commit, is refused');
  await engine.journal.durable();
  const later = new_account(engine, 'twice@example.ng');
  t.equal(later.ok ? 'ok' : later.refused.refusal, 'email_taken', 'after the commit it is still refused');
});

t.test('after a failed commit the email of an account it created is free again', async (t) => {
  const { engine, room } = open_engine(t);
  room.ok = false;
  t.ok(new_account(engine, 'lost@example.ng').ok, 'the account is created in memory');
  await t.rejects(engine.journal.durable(), 'its commit fails');
  room.ok = true;
  const again = new_account(engine, 'lost@example.ng');
  t.ok(again.ok, 'the email is free again, as the store never got it');
  await engine.journal.durable();
});

t.test('a funding reference credited twice in one commit, or after it, returns the first credit; a failed commit frees it', async (t) => {
  const { engine, room } = open_engine(t);
  const created = new_account(engine, 'funded@example.ng');
  if (!created.ok) throw new Error('account');
  const actor = created.value;
  const first = engine.run(actor, { kind: 'credit', environment: 'test', amount_kobo: 50_00, reference: 'FUND-1', description: 'Funding' }, engine.clock.now_us());
  const second = engine.run(actor, { kind: 'credit', environment: 'test', amount_kobo: 50_00, reference: 'FUND-1', description: 'Funding' }, engine.clock.now_us());
  t.equal(second.ok && second.value.created, false, 'the repeat in the same commit creates nothing');
  t.equal(second.ok && first.ok && second.value.entry.id, first.ok && first.value.entry.id, 'it returns the first credit\'s entry');
  const other = engine.run(actor, { kind: 'credit', environment: 'test', amount_kobo: 60_00, reference: 'FUND-1', description: 'Funding' }, engine.clock.now_us());
  t.equal(other.ok ? 'ok' : other.refused.refusal, 'funding_reference_amount_differs', 'another amount in the same commit is refused');
  await engine.journal.durable();
  const after = engine.run(actor, { kind: 'credit', environment: 'test', amount_kobo: 50_00, reference: 'FUND-1', description: 'Funding' }, engine.clock.now_us());
  t.equal(after.ok && after.value.created, false, 'after the commit the repeat still creates nothing');
  t.equal(actor.wallets.test.balance_kobo, 50_00, 'one credit moved the balance');
  room.ok = false;
  t.ok(engine.run(actor, { kind: 'credit', environment: 'test', amount_kobo: 20_00, reference: 'FUND-2', description: 'Funding' }, engine.clock.now_us()).ok, 'a credit staged in a commit that will fail');
  await t.rejects(engine.journal.durable(), 'its commit fails');
  room.ok = true;
  const reloaded = engine.accounts.get(actor.id)!;
  const retried = engine.run(reloaded, { kind: 'credit', environment: 'test', amount_kobo: 20_00, reference: 'FUND-2', description: 'Funding' }, engine.clock.now_us());
  t.equal(retried.ok && retried.value.created, true, 'the reference is free again: the credit is made anew');
  t.equal(reloaded.wallets.test.balance_kobo, 70_00, 'the balance holds the first credit and the retried one');
  await engine.journal.durable();
});

t.test('a client reference claimed in the same commit is refused, and a failed commit frees it', async (t) => {
  const { engine, room } = open_engine(t);
  const created = new_account(engine, 'claims@example.ng');
  if (!created.ok) throw new Error('account');
  const id = created.value.id;
  engine.run(created.value, { kind: 'credit', environment: 'test', amount_kobo: 100_00, reference: 'FUND-C', description: 'Funding' }, engine.clock.now_us());
  const first = place(engine, id, 'INV-1');
  t.ok(first.ok, 'the first order claims INV-1');
  const again = place(engine, id, 'INV-1');
  t.equal(again.ok ? 'ok' : again.refused.refusal, 'duplicate_client_reference', 'a second order in the same commit is refused');
  t.equal(claim_of(engine.journal, engine.store, id, 'test', 'INV-1'), first.ok ? first.value.reference : null, 'the claim names the first order before durable');
  await engine.journal.durable();
  t.equal(claim_of(engine.journal, engine.store, id, 'test', 'INV-1'), first.ok ? first.value.reference : null, 'and after');
  room.ok = false;
  t.ok(place(engine, id, 'INV-2').ok, 'an order claiming INV-2 in a commit that will fail');
  await t.rejects(engine.journal.durable(), 'its commit fails');
  room.ok = true;
  t.equal(claim_of(engine.journal, engine.store, id, 'test', 'INV-2'), null, 'INV-2 is free again: the store never got the claim');
  t.ok(place(engine, id, 'INV-2').ok, 'a new order claims it');
  await engine.journal.durable();
});

t.test('a batch writes each key of a coalesced database once, with its last value; other databases keep every change', async (t) => {
  const { store, journal } = open_world(t);
  journal.coalesce(store.wallets, store.meta);
  const appender = new HeldAppender();
  journal.appender = appender;
  store.wallets.putSync([3, 'live'], { balance_kobo: 9 });
  // What a run of purchases of one account stages: the wallet each time, an entry each, the id counter each.
  for (let i = 1; i <= 3; i++) {
    journal.put(1, store.wallets, [1, 'live'], { balance_kobo: 1_000 - i });
    journal.put(1, store.wallet_entries, [1, 'live', i], { amount_kobo: -i });
    journal.put(0, store.meta, 'next_webhook_delivery_id', 10 + i);
    t.strictSame(journal.read(store.wallets, [1, 'live']), { balance_kobo: 1_000 - i }, `read after purchase ${i}: its own wallet`);
  }
  journal.put(2, store.wallets, [2, 'live'], { balance_kobo: 5 });
  // A key of a database that is not coalesced, written twice: both changes stay.
  journal.put(0, store.catalog, 'item:c', 'first');
  journal.put(0, store.catalog, 'item:c', 'second');
  // Put, then removed, in one batch: the removal is the last change.
  journal.put(3, store.wallets, [3, 'live'], { balance_kobo: 8 });
  journal.remove(3, store.wallets, [3, 'live']);
  await until_appended(appender, 1);
  const sent = appender.held[0].changes.map((change) => [change.db === store.wallets ? 'wallets' : change.db === store.meta ? 'meta' : change.db === store.catalog ? 'catalog' : 'entries', change.key, journal.value_of(change)]);
  t.strictSame(sent, [
    ['entries', [1, 'live', 1], { amount_kobo: -1 }],
    ['entries', [1, 'live', 2], { amount_kobo: -2 }],
    ['wallets', [1, 'live'], { balance_kobo: 997 }],
    ['entries', [1, 'live', 3], { amount_kobo: -3 }],
    ['meta', 'next_webhook_delivery_id', 13],
    ['wallets', [2, 'live'], { balance_kobo: 5 }],
    ['catalog', 'item:c', 'first'],
    ['catalog', 'item:c', 'second'],
    ['wallets', [3, 'live'], undefined],
  ], 'the batch (the stream message, the transaction) holds each coalesced key once, at its last change, and every other change in order');
  t.strictSame(journal.read(store.wallets, [1, 'live']), { balance_kobo: 997 }, 'while in flight, reads answer the last value');
  t.equal(journal.read(store.wallets, [3, 'live']), undefined, 'and a removal as absent');
  const durable = journal.durable();
  appender.held[0].release();
  await durable;
  t.strictSame(store.wallets.get([1, 'live']), { balance_kobo: 997 }, 'the store holds the last wallet');
  t.equal(store.meta.get('next_webhook_delivery_id'), 13, 'and the last counter');
  t.strictSame(store.wallet_entries.get([1, 'live', 1]), { amount_kobo: -1 }, 'and every entry');
  t.equal(store.catalog.get('item:c'), 'second', 'the database not coalesced ends at its last value too');
  t.equal(store.wallets.get([3, 'live']), undefined, 'the wallet removed last is gone');
  // The next batch starts afresh: a key written in both batches is written by each.
  journal.put(1, store.wallets, [1, 'live'], { balance_kobo: 996 });
  await until_appended(appender, 2);
  t.equal(appender.held[1].changes.length, 1, 'the next batch writes the key again');
  const next = journal.durable();
  appender.held[1].release();
  await next;
  t.strictSame(store.wallets.get([1, 'live']), { balance_kobo: 996 }, 'the store holds the newer batch\'s value');
});

t.test('what runs at a group\'s end: only inside a group, every one even when one throws, and the group ends anyway', async (t) => {
  const { store, journal } = open_world(t);
  t.equal(journal.at_group_end(() => t.fail('kept outside a group')), false, 'outside a group nothing is kept');
  journal.begin_group();
  journal.begin_group();
  const ran: string[] = [];
  t.ok(journal.at_group_end(() => {
    ran.push('first');
    throw new Error('a staging that failed');
  }), 'kept inside a group');
  journal.at_group_end(() => {
    ran.push('second');
    journal.put(0, store.catalog, 'item:end', 'staged at the end');
  });
  journal.end_group();
  t.strictSame(ran, [], 'an inner group\'s end runs nothing');
  t.throws(() => journal.end_group(), /a staging that failed/, 'the outermost end throws the first failure');
  t.strictSame(ran, ['first', 'second'], 'after every one ran');
  t.throws(() => journal.end_group(), /end_group without begin_group/, 'the group ended in spite of the failure');
  await journal.durable();
  t.equal(store.catalog.get('item:end'), 'staged at the end', 'what the second staged is committed');
});
