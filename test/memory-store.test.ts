// The store in memory (test/helpers/memory-store.ts) answers as the LMDB store does: the same keys in the
// same order, the same ranges, a fresh object on every read. Each read is made of both, over the same
// writes: a real lmdb-js store in a temp folder (src/journal/store.ts open_store) and the store in memory.
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asBinary, type Database, type RangeOptions } from 'lmdb';
import { open_store, type Key } from '../src/journal/store.js';
import { MemoryDisk, open_memory_store } from './helpers/memory-store.js';

/** lmdb-js databases expose their msgpackr encoder, which its types leave out (src/journal/journal.ts reads it so). */
interface Encodable {
  encoder: { encode(value: unknown): Uint8Array };
}

const data_dir = mkdtempSync(join(tmpdir(), 'billvend-memory-store-'));
const lmdb_store = open_store(data_dir);
t.teardown(async () => {
  await lmdb_store.root.close();
  rmSync(data_dir, { recursive: true, force: true });
});

/** The keys the store's databases use: numbers (ids, some negative or fractional), strings, tuples. */
const numbers: Key[] = [0, 1, 2, 9, 10, 11, 100, 255, 256, 65_536, 2 ** 32 + 1, Number.MAX_SAFE_INTEGER, -1, -2.5, 0.5, 1.25, 1e-9];
const strings: Key[] = ['a', 'b', 'B', 'ab', 'aa', 'a b', 'z', '0', '10', '9', 'é', 'ü', '中', '😀', 'live', 'test', 'mtn-airtime', 'MTN:1'];
const tuples: Key[] = [
  [1, 'live'], [1, 'test'], [1, 'test', 0], [1, 'test', 1], [1, 'test', 2], [1, 'test', 10], [1, 'test', 'x'],
  [2, 'live', 1], [10, 'live', 1], [9, 'test', 3], [1, 2], [1, 10], [1, -1], ['a', 1], ['a', 'b'], ['b', 0],
  [3, 'test', 'status', 'delivered', 7], [3, 'test', 'status', 'delivered', 12], [3, 'test', 'status', 'pending', 2],
  [3, 'test', 'client_reference', 'INV-9', 4], [3, 'test', 'client_reference', 'INV-10', 5], [1, 'tes'], [1, 'test\u{10FFFF}'],
];

/** The same keys in a fixed order that is not the sorted one: the store, not the writer, puts them in order. */
function shuffled<T>(values: readonly T[]): T[] {
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    const j = (i * 7919 + 13) % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A value of the shape the engine writes, so that msgpackr shares its structure between entries. */
function value_of(key: Key): unknown {
  return { key, label: `value of ${JSON.stringify(key)}`, amount_kobo: JSON.stringify(key).length * 100, nested: { list: [1, 'two', null] } };
}

/** The same database of both stores, filled with the same keys in the same (shuffled) order. */
function both(name: 'catalog' | 'orders' | 'order_index', keys: Key[]): { lmdb: Database<any, Key>; memory: Database<any, Key> } {
  const memory = open_memory_store(new MemoryDisk())[name] as Database<any, Key>;
  const lmdb = lmdb_store[name] as Database<any, Key>;
  for (const key of shuffled(keys)) {
    lmdb.putSync(key, value_of(key));
    memory.putSync(key, value_of(key));
  }
  return { lmdb, memory };
}

t.test('keys sort as lmdb-js sorts them: numbers, then strings, tuples element by element', async (t) => {
  const { lmdb, memory } = both('catalog', [...numbers, ...strings, ...tuples]);
  const lmdb_keys = [...lmdb.getKeys({})];
  t.equal(lmdb_keys.length, numbers.length + strings.length + tuples.length, 'LMDB holds every key once');
  t.strictSame([...memory.getKeys({})], lmdb_keys, 'the memory store lists the keys in LMDB\'s order');
  t.strictSame([...memory.getKeys({ reverse: true })], [...lmdb.getKeys({ reverse: true })], 'and in reverse');
  const listed = [...memory.getKeys({})];
  const scalars = listed.filter((key) => !Array.isArray(key));
  const first_string = scalars.findIndex((key) => typeof key === 'string');
  t.ok(first_string > 0 && scalars.slice(first_string).every((key) => typeof key === 'string'), 'every number comes before the first string');
  t.strictSame(listed.slice(listed.indexOf(10), listed.indexOf(11) + 1), [10, [10, 'live', 1], 11], 'a tuple sorts after its first element and before the next one');
  t.strictSame(listed.filter((key) => typeof key === 'number'), [...numbers].sort((a, b) => (a as number) - (b as number)), 'numbers in numeric order (negative, fractional, beyond 32 bits)');
  const under_1_test = listed.filter((key) => Array.isArray(key) && key[0] === 1 && key[1] === 'test' && key.length === 3);
  t.strictSame(under_1_test, [[1, 'test', 0], [1, 'test', 1], [1, 'test', 2], [1, 'test', 10], [1, 'test', 'x']], 'a tuple\'s last element: numbers in order, then strings');
});

t.test('ranges read the same keys and values as from LMDB: start, end, reverse, offset, limit', async (t) => {
  const { lmdb, memory } = both('order_index', [...numbers, ...tuples]);
  const ranges: RangeOptions[] = [
    {},
    { start: [1], end: [2] },
    { start: [1, 'test'], end: [1, 'test', Number.MAX_SAFE_INTEGER] },
    { start: [1, 'test'], end: [1, 'test', '\u{10FFFF}'] },
    { start: [3, 'test', 'status', 'delivered', 0], end: [3, 'test', 'status', 'delivered', Number.MAX_SAFE_INTEGER] },
    { start: [3, 'test', 'status', 'delivered', 0], end: [3, 'test', 'status', 'delivered', Number.MAX_SAFE_INTEGER], limit: 1 },
    { start: 2, end: 100 },
    { start: 2.5 },
    { end: 10 },
    { start: 1, end: 1 },
    { start: [5], end: [1] },
    { limit: 3 },
    { offset: 4, limit: 3 },
    { offset: 1_000 },
    { reverse: true },
    { reverse: true, start: [1, 'test', 10] },
    { reverse: true, start: [1, 'test', 5], end: [1, 'test', 0] },
    { reverse: true, start: [2], end: [1] },
    { reverse: true, end: 10 },
    { reverse: true, limit: 2, offset: 1 },
    { reverse: true, start: 100, end: 0, limit: 4 },
    // A start or end given as undefined is no bound at all: lmdb-js then lists the shared structures too.
    { start: undefined, end: 10 },
    { reverse: true, end: undefined },
  ];
  for (const range of ranges) {
    const text = JSON.stringify(range);
    t.strictSame([...memory.getKeys({ ...range })], [...lmdb.getKeys({ ...range })], `getKeys(${text}) as LMDB`);
    t.strictSame([...memory.getRange({ ...range })], [...lmdb.getRange({ ...range })], `getRange(${text}) as LMDB, values included`);
    t.equal(memory.getCount({ ...range }), lmdb.getCount({ ...range }), `getCount(${text}) as LMDB`);
    t.equal(memory.getKeysCount({ ...range }), lmdb.getKeysCount({ ...range }), `getKeysCount(${text}) as LMDB`);
  }
  // What the engine relies on, stated rather than only compared.
  t.strictSame([...memory.getKeys({ start: [1, 'test', 0], end: [1, 'test', Number.MAX_SAFE_INTEGER] })], [[1, 'test', 0], [1, 'test', 1], [1, 'test', 2], [1, 'test', 10]], 'a numeric range under a prefix lists its numbers only');
  t.strictSame([...memory.getKeys({ reverse: true, start: [1, 'test', 5], end: [1, 'test', 0] })], [[1, 'test', 2], [1, 'test', 1]], 'a reverse range starts at or before start and stops after end');
  t.strictSame([...memory.getKeys({ start: 11, end: 256, offset: 1, limit: 1 })], [100], 'offset skips, limit bounds');
  t.equal(memory.getCount({ start: 11, end: 256, offset: 1, limit: 1 }), 2, 'a count skips offset and ignores limit, as lmdb-js does');
  t.throws(() => [...memory.getKeys({ inclusiveEnd: true })], /does not implement the range option inclusiveEnd/, 'an option it does not implement is refused, not ignored');
  t.throws(() => memory.getCount({ exclusiveStart: true }), /does not implement the range option exclusiveStart/, 'by a count too');
});

t.test('a range neither lists the shared structures nor moves under a write', async (t) => {
  const disk = new MemoryDisk();
  const memory = open_memory_store(disk).orders;
  for (let seq = 1; seq <= 5; seq++) memory.putSync([1, 'test', seq], value_of([1, 'test', seq]));
  t.ok(disk.entries('orders').length > 5, 'the database holds its shared structures beside its entries (as lmdb-js keeps them)');
  t.equal([...memory.getRange({})].length, 5, 'a range lists only the entries');
  t.equal([...memory.getRange({ reverse: true })].length, 5, 'a reverse range too');
  const seen: Key[] = [];
  for (const { key } of memory.getRange({})) {
    seen.push(key);
    memory.putSync([1, 'test', 100 + seen.length], value_of(key));
  }
  t.equal(seen.length, 5, 'writes made while a range is read do not join it');
});

t.test('a read returns a fresh object, decoded from what was stored', async (t) => {
  const memory = open_memory_store(new MemoryDisk()).wallets;
  const wallet = { balance_kobo: 10_00, holds: [{ reference: 'R1', amount_kobo: 5_00 }] };
  memory.putSync([1, 'test'], wallet);
  wallet.balance_kobo = 0;
  const first = memory.get([1, 'test']) as typeof wallet;
  t.equal(first.balance_kobo, 10_00, 'a change to the object written after the write is not stored');
  first.holds[0].amount_kobo = 1;
  const second = memory.get([1, 'test']) as typeof wallet;
  t.not(second, first, 'two reads give two objects');
  t.strictSame(second, { balance_kobo: 10_00, holds: [{ reference: 'R1', amount_kobo: 5_00 }] }, 'a change to a read object is not stored either');
  const [entry] = [...memory.getRange({})];
  t.not(entry.value, second, 'a range reads a fresh object too');
  t.equal(memory.get([1, 'live']), undefined, 'an absent key reads undefined');
  t.equal(memory.doesExist([1, 'test']), true, 'doesExist finds a written key');
  t.equal(memory.doesExist([1, 'live']), false, 'and not an absent one');
});

t.test('the journal\'s writes: encoded bytes put, a promise with flushed, and a store opened again reads them', async (t) => {
  const disk = new MemoryDisk();
  const store = open_memory_store(disk);
  const records = Array.from({ length: 40 }, (_, i) => ({ id: i + 1, email: `r${i}@example.ng`, kyc_level: i % 4, tier: 'standard', created_us: 1_700_000_000_000_000 + i }));
  let last: ReturnType<typeof store.accounts.put> | undefined;
  for (const record of records) {
    // As the journal writes (src/journal/journal.ts write_changes): encoded when staged, put as binary.
    last = store.accounts.put(record.id, asBinary((store.accounts as unknown as Encodable).encoder.encode(record)));
  }
  const removed = store.accounts.remove(40);
  t.equal(store.accounts.get(1)?.email, 'r0@example.ng', 'a put is applied when called');
  t.equal(store.accounts.get(40), undefined, 'and so is a remove');
  const flushed = (last as Promise<boolean> & { flushed?: Promise<void> }).flushed;
  t.ok(flushed instanceof Promise, 'a write\'s promise has flushed, as lmdb-js gives it with separateFlushed');
  t.equal(await last, true, 'the write resolves true');
  await flushed;
  t.equal(await removed, true, 'the remove resolves true');
  await store.root.close();
  t.throws(() => store.accounts.get(1), /closed/, 'a closed store answers nothing');
  const reopened = open_memory_store(disk);
  t.not(reopened.accounts, store.accounts, 'the store opened again has databases of its own');
  t.strictSame([...reopened.accounts.getRange({})].map(({ value }) => value), records.slice(0, 39), 'it reads every record written, with the structures saved');
  reopened.accounts.putSync(41, { ...records[0], id: 41 });
  t.equal(reopened.accounts.get(41)?.email, 'r0@example.ng', 'and writes more of the same shape');
});

t.test('a transaction that throws leaves every database as it was', async (t) => {
  const store = open_memory_store(new MemoryDisk());
  store.meta.putSync('version', 1);
  store.account_emails.putSync('a@example.ng', 1);
  t.throws(() => store.root.transactionSync(() => {
    store.account_emails.clearSync();
    store.account_emails.putSync('b@example.ng', 2);
    store.meta.putSync('version', 2);
    throw new Error('rebuild failed');
  }), /rebuild failed/, 'the transaction throws its error');
  t.equal(store.meta.get('version'), 1, 'the version is as before');
  t.strictSame([...store.account_emails.getRange({})], [{ key: 'a@example.ng', value: 1 }], 'the cleared database is as before');
  t.equal(store.root.transactionSync(() => {
    store.meta.putSync('version', 3);
    return 'done';
  }), 'done', 'a transaction that returns gives its value');
  t.equal(store.meta.get('version'), 3, 'and keeps its writes');
});
