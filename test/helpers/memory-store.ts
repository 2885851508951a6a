// The store of src/journal/store.ts held in memory, with no LMDB environment opened: the engine's commands
// are functions of state and input (issue 31), and the actor's table (test/actor-table.test.ts) shows it by
// running them over this store.
//
// What it implements: exactly the part of lmdb-js's Database that the engine (src/engine/), the journal
// (src/journal/journal.ts) and Engine construction and recover() call, found by reading them:
// - get, doesExist;
// - put and remove, the journal's group commits (write_changes), a value given as asBinary bytes or as a
//   value to encode; each returns a promise with `flushed` (open_store asks for separateFlushed, and the
//   journal waits for it before a reply leaves);
// - putSync, removeSync, clearSync and the root's transactionSync: the rebuilds recover() runs
//   (ensure_lookup_indexes, ensure_order_index, the PIN token migration);
// - getRange and getKeys with start, end, reverse, offset and limit, and getCount and getKeysCount;
// - encoder and decoder: the journal encodes a value when it stages it and decodes what it staged.
// Nothing else: a call of anything else fails loudly (a TypeError, or an error naming a range option not
// implemented) rather than answering differently from LMDB.
//
// As LMDB does:
// - Keys are compared as their ordered-binary bytes (toBufferKey, the encoding lmdb-js gives keys), byte
//   by byte as LMDB compares them: numbers before strings, tuples element by element, and the order is
//   LMDB's by construction (test/memory-store.test.ts compares it with a real store).
// - Values are stored encoded, by one msgpackr Packr per database made as lmdb-js makes it for a database
//   opened with sharedStructuresKey (lmdb-js open.js, setupSharedStructures): the shared
//   structures are kept in the database itself under that key, and buffers inside values are copied. A
//   read decodes anew, so it returns a fresh object; a store opened again over the same memory starts
//   with new Packrs that read the structures saved, as a restart reads them from disk.
// - A range without `start` begins at lmdb-js's default beginning key (the byte 5), after the symbol
//   keys: the structures entry is not listed. A reverse range without `end` stops there too. A start
//   or end given as undefined is no bound at all, as in lmdb-js (the structures entry is then listed).
// - getCount and getKeysCount skip `offset` and ignore `limit`, as lmdb-js 3 does.
// - A transactionSync that throws leaves the databases as they were (LMDB aborts the transaction).
// Unlike LMDB: a put or remove is applied when it is called, not when its transaction commits; its
// promise and `flushed` resolve on a later turn. The journal reads the store only for keys no batch not
// yet durable holds (Journal.read), so applying early changes none of its answers.
import { Packr } from 'msgpackr';
import { toBufferKey, fromBufferKey, type Key as BinaryKey } from 'ordered-binary';
import { ExtendedIterable } from '@harperfast/extended-iterable';
import * as lmdb from 'lmdb';
import type { Database, RangeOptions, RootDatabase } from 'lmdb';
import { database_names, type Key, type Store } from '../../src/journal/store.js';

/** One entry as LMDB holds it: the key's ordered-binary bytes and the value's encoded bytes. */
interface Entry {
  key: Buffer;
  value: Buffer;
}

/** A database's entries in key order (Buffer.compare of their bytes, LMDB's order). */
type Entries = Entry[];

/**
 * What outlives a store opened over it, as a disk does: each database's entries, by name. A test holds
 * one and opens stores over it (open_memory_store); it is bounded by what the test writes.
 */
export class MemoryDisk {
  readonly databases = new Map<string, Entries>();

  entries(name: string): Entries {
    let entries = this.databases.get(name);
    if (entries === undefined) this.databases.set(name, (entries = []));
    return entries;
  }
}

/** Where lmdb-js keeps a database's shared structures (src/journal/store.ts opens every database with it). */
const structures_key = Symbol.for('structures');
/** lmdb-js's first key of a range without start (open.js DEFAULT_BEGINNING_KEY): past the symbol keys. */
const beginning_key = Buffer.from([5]);
/** The property asBinary wraps bytes in, read from lmdb-js itself rather than written again here. */
const binary_marker = Object.keys(lmdb.asBinary(new Uint8Array(0)))[0];
/** The range options implemented; any other is refused (see the top of this file). */
const range_options = new Set(['start', 'end', 'reverse', 'offset', 'limit']);

type StoreWrite = Promise<boolean> & { flushed: Promise<void> };
/** lmdb-js's RangeIterable<T>, which its types declare but do not export. */
type Range<T> = ReturnType<Database<T, Key>['getValues']>;

/** A write's promise as lmdb-js gives it with separateFlushed: committed on a later turn, then flushed. */
function written_later(): StoreWrite {
  const written = new Promise<boolean>((resolve) => setImmediate(resolve, true)) as StoreWrite;
  written.flushed = written.then(() => {});
  return written;
}

function key_bytes(key: BinaryKey): Buffer {
  // toBufferKey slices a working buffer it goes on writing past; the copy is the entry's own.
  return Buffer.from(toBufferKey(key));
}

/** The index of the first entry whose key is at or after `key` (after it when `after`). */
function position(entries: Entries, key: Buffer, after = false): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = Buffer.compare(entries[middle].key, key);
    if (order < 0 || (after && order === 0)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Whether the store views over a disk may still be used: lmdb-js refuses any call on a closed store. */
interface Opened {
  open: boolean;
}

/** A database of a store in memory (see the top of this file for what it implements). */
export class MemoryDatabase {
  readonly encoder: Packr;
  readonly decoder: Packr;

  constructor(
    readonly name: string,
    private readonly entries: Entries,
    private readonly opened: Opened,
  ) {
    // As lmdb-js builds a database's encoder when it is opened with sharedStructuresKey.
    this.encoder = this.decoder = new Packr({
      // Undefined before any structure is saved, as lmdb-js answers (msgpackr's types leave that out).
      getStructures: () => this.saved_structures() as object[],
      saveStructures: (structures: object[], is_compatible?: ((existing: unknown) => boolean) | number) => {
        const existing = this.saved_structures();
        const compatible = typeof is_compatible === 'function' ? is_compatible(existing) : existing === undefined || existing.length === is_compatible;
        if (!compatible) return false;
        this.write(structures_key, this.encoded(structures));
        return true;
      },
      copyBuffers: true,
    });
  }

  private saved_structures(): object[] | undefined {
    const at = this.find(key_bytes(structures_key));
    return at < 0 ? undefined : (this.decoder.decode(this.entries[at].value) as object[]);
  }

  get(key: Key): any {
    this.check_open();
    const at = this.find(key_bytes(key));
    return at < 0 ? undefined : this.decoder.decode(this.entries[at].value);
  }

  doesExist(key: Key): boolean {
    this.check_open();
    return this.find(key_bytes(key)) >= 0;
  }

  put(key: Key, value: unknown): StoreWrite {
    this.putSync(key, value);
    return written_later();
  }

  remove(key: Key): StoreWrite {
    this.removeSync(key);
    return written_later();
  }

  putSync(key: Key, value: unknown): void {
    this.check_open();
    this.write(key, this.encoded(value));
  }

  removeSync(key: Key): boolean {
    this.check_open();
    const at = this.find(key_bytes(key));
    if (at >= 0) this.entries.splice(at, 1);
    return at >= 0;
  }

  /** Empties the database, its shared structures with it, as lmdb-js's clearSync drops it. */
  clearSync(): void {
    this.check_open();
    this.encoder.clearSharedData();
    this.entries.length = 0;
  }

  getRange(options: RangeOptions = {}): Range<{ key: Key; value: any }> {
    return this.range(options, (entry) => ({ key: fromBufferKey(entry.key) as Key, value: this.decoder.decode(entry.value) }));
  }

  getKeys(options: RangeOptions = {}): Range<Key> {
    return this.range(options, (entry) => fromBufferKey(entry.key) as Key);
  }

  getCount(options: RangeOptions = {}): number {
    return Math.max(0, this.in_range(options).length - (options.offset ?? 0));
  }

  getKeysCount(options: RangeOptions = {}): number {
    return this.getCount(options);
  }

  /** The entries of a range as they stand when it is iterated, each read as `read` makes it. */
  private range<T>(options: RangeOptions, read: (entry: Entry) => T): Range<T> {
    const offset = options.offset ?? 0;
    const limit = options.limit ?? Infinity;
    const source = {
      // Iterating reads a copy of the range, so a write made while it runs does not move it (LMDB
      // reads a range from its transaction's snapshot).
      [Symbol.iterator]: () => this.in_range(options).slice(offset, offset + limit).map(read)[Symbol.iterator](),
    };
    // lmdb-js returns its ranges as this iterable (read.js), with map, filter and the rest.
    const Iterable = ExtendedIterable as unknown as new (source: Iterable<T>) => Range<T>;
    return new Iterable(source);
  }

  /** The entries from start to end, in the range's direction (lmdb-js read.js getRange). */
  private in_range(options: RangeOptions): Entries {
    this.check_open();
    for (const option of Object.keys(options)) {
      if (!range_options.has(option)) throw new Error(`the memory store does not implement the range option ${option}`);
    }
    const { start, end } = options as { start?: Key; end?: Key };
    if (options.reverse) {
      // From the last key at or before start, down to the first key after end.
      const high = start === undefined ? this.entries.length : position(this.entries, key_bytes(start), true);
      const bottom = 'end' in options ? end : beginning_key;
      const low = bottom === undefined ? 0 : position(this.entries, Buffer.isBuffer(bottom) ? bottom : key_bytes(bottom), true);
      return this.entries.slice(low, Math.max(low, high)).reverse();
    }
    const top = 'start' in options ? start : beginning_key;
    const low = top === undefined ? 0 : position(this.entries, Buffer.isBuffer(top) ? top : key_bytes(top));
    const high = end === undefined ? this.entries.length : position(this.entries, key_bytes(end));
    return this.entries.slice(low, Math.max(low, high));
  }

  /** The value's bytes as LMDB would store them: asBinary bytes as given, anything else encoded. */
  private encoded(value: unknown): Buffer {
    const binary = (value as Record<string, unknown> | null)?.[binary_marker];
    // Copied: Packr returns a slice of its working buffer, and the journal's staged bytes are the same.
    return Buffer.from(binary instanceof Uint8Array ? binary : this.encoder.encode(value));
  }

  private write(key: BinaryKey, value: Buffer): void {
    const bytes = key_bytes(key);
    const at = position(this.entries, bytes);
    if (at < this.entries.length && this.entries[at].key.equals(bytes)) this.entries[at] = { key: bytes, value };
    else this.entries.splice(at, 0, { key: bytes, value });
  }

  /** The index of the entry with exactly these key bytes, or -1. */
  private find(bytes: Buffer): number {
    const at = position(this.entries, bytes);
    return at < this.entries.length && this.entries[at].key.equals(bytes) ? at : -1;
  }

  private check_open(): void {
    if (!this.opened.open) throw new Error(`the memory store's database ${this.name} is closed`);
  }
}

/** The root of a store in memory: its transactions and its close. */
export class MemoryRoot {
  private depth = 0;

  constructor(
    private readonly disk: MemoryDisk,
    private readonly opened: Opened,
  ) {}

  /**
   * Runs `action` at once. If it throws, every database is put back as it was before the outermost
   * transaction (LMDB aborts it); a nested transaction is part of the one around it, as in lmdb-js.
   */
  transactionSync<T>(action: () => T): T {
    if (!this.opened.open) throw new Error('the memory store is closed');
    if (this.depth > 0) return action();
    const before = new Map([...this.disk.databases].map(([name, entries]) => [name, entries.slice()]));
    this.depth++;
    try {
      return action();
    } catch (error) {
      for (const [name, entries] of before) {
        const restored = this.disk.entries(name);
        restored.length = 0;
        for (const entry of entries) restored.push(entry);
      }
      throw error;
    } finally {
      this.depth--;
    }
  }

  /** Every database of this store is closed; the disk keeps what was written. */
  async close(): Promise<void> {
    this.opened.open = false;
  }
}

/** A store over a disk in memory: every database of src/journal/store.ts, as open_store opens them. */
export function open_memory_store(disk: MemoryDisk): Store {
  const opened: Opened = { open: true };
  const store: Record<string, unknown> = { root: new MemoryRoot(disk, opened) as unknown as RootDatabase };
  for (const name of database_names) {
    store[name] = new MemoryDatabase(name, disk.entries(name), opened) as unknown as Database<any, Key>;
  }
  return store as unknown as Store;
}

/**
 * How many LMDB databases this process opened: lmdb-js records each one it opens (open.js `allDbs`,
 * exported but not declared in its types). A test over the memory store asserts none.
 */
export function lmdb_databases_opened(): number {
  return (lmdb as unknown as { allDbs: Map<string, unknown> }).allDbs.size;
}
