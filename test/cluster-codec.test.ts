// The replicated journal's message format (src/cluster/codec.ts), in process on real LMDB stores: a
// batch packed on one store reads back, value for value, on another store with its own shared
// structures; version-1 messages (field names in every object) are still read; an unknown version
// is refused. The cluster tests cover the same path end to end through NATS.
import t from 'tap';
import fc from 'fast-check';
import { rmSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { Packr } from 'msgpackr';
import { open_store, type Store } from '../src/journal/store.js';
import type { StagedChange } from '../src/journal/journal.js';
import { StoreNames, decode_message, encode_message, staged_changes } from '../src/cluster/codec.js';
import { temp_dir } from './helpers/server.js';

interface Encodable {
  encoder: { encode(value: unknown): Uint8Array; decode(bytes: Uint8Array): unknown };
}
const codec = (store: Store, db: keyof Store) => store[db] as unknown as Encodable;

t.test('a batch packed on the leader\'s store reads back value for value on a standby\'s store', async (t) => {
  const dirs = [temp_dir('billvend-codec-a-'), temp_dir('billvend-codec-b-')];
  const [leader, standby] = dirs.map((dir) => open_store(dir));
  t.teardown(async () => {
    await leader.root.close();
    await standby.root.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  // The standby's store already has shared structures of its own, numbered differently.
  await standby.orders.put(['x', 1], { zeta: 1, alpha: 'first shape on this store' });
  const [names_leader, names_standby] = [new StoreNames(leader), new StoreNames(standby)];

  // Values as the stores hold them: nested objects, arrays, byte strings, large integers, nulls;
  // many shapes in one message (more than msgpackr's 64 record ids) and the same shape many times.
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.record({ id: fc.integer(), amount_kobo: fc.maxSafeNat(), ref: fc.string(), tags: fc.array(fc.string(), { maxLength: 3 }), hash: fc.uint8Array({ maxLength: 32 }).map((b) => Buffer.from(b)) }),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null)), { maxKeys: 6 }),
  ).filter((v) => !Object.is(v, -0) && !JSON.stringify(v ?? null).includes('-0'));
  let runs = 0;
  await fc.assert(fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 300 }), fc.nat(40), async (values, shapes) => {
    // Extra distinct shapes: objects whose field names differ by an index.
    const all: unknown[] = [...values, ...Array.from({ length: shapes * 5 }, (_, i) => ({ [`field_${i}`]: i, common: 'x' }))];
    const changes: StagedChange[] = all.map((v, i) => ({ db: leader.orders, key: ['k', i], encoded: codec(leader, 'orders').encoder.encode(v) as Buffer }));
    changes.push({ db: leader.wallets, key: ['gone'], encoded: undefined });
    const message = decode_message(encode_message(names_leader, 'batch', 'a', changes));
    const applied = staged_changes(names_standby, message);
    runs++;
    if (applied.length !== changes.length) return false;
    for (const [i, change] of applied.entries()) {
      const sent = changes[i];
      if (!isDeepStrictEqual(change.key, sent.key)) return false;
      if (sent.encoded === undefined) {
        if (change.encoded !== undefined || change.db !== standby.wallets) return false;
        continue;
      }
      const wrote = codec(leader, 'orders').encoder.decode(sent.encoded);
      const read = codec(standby, 'orders').encoder.decode(change.encoded!);
      if (!isDeepStrictEqual(read, wrote)) return false;
    }
    return true;
  }), { numRuns: 60, seed: 20261127 });
  t.equal(runs, 60, 'every generated batch (up to 500 values, up to 200 extra shapes) read back equal on the standby\'s store');

  // A version-1 message (field names in every object), as an older leader appended it.
  const v1 = new Packr({ useRecords: false }).pack({ v: 1, kind: 'batch', node: 'old', changes: [['orders', ['k', 1], { a: 1, b: [2, 3] }], ['wallets', ['w']]] });
  const read_v1 = decode_message(v1);
  t.same(read_v1.changes, [['orders', ['k', 1], { a: 1, b: [2, 3] }], ['wallets', ['w']]], 'a version-1 message is still read');
  // A version this node does not know (a newer leader's) is refused, not applied as something else.
  const v3 = new Packr({ useRecords: false }).pack({ v: 3, kind: 'batch', node: 'new', changes: [] });
  t.throws(() => decode_message(v3), /unknown format/, 'a message of an unknown version is refused');
  // The new format is smaller: records name each shape's fields once.
  const many: StagedChange[] = Array.from({ length: 200 }, (_, i) => ({ db: leader.orders, key: ['o', i], encoded: codec(leader, 'orders').encoder.encode({ reference: `REF-${i}`, amount_kobo: 10_000 + i, status: 'delivered', account_id: 7, created_at_us: 1_764_200_000_000_000 + i }) as Buffer }));
  const v2_bytes = encode_message(names_leader, 'batch', 'a', many).length;
  const v1_bytes = new Packr({ useRecords: false }).pack({ v: 1, kind: 'batch', node: 'a', changes: many.map((c) => ['orders', c.key, codec(leader, 'orders').encoder.decode(c.encoded!)]) }).length;
  t.ok(v2_bytes < v1_bytes * 0.7, `200 orders of one shape: ${v2_bytes} bytes in version 2, ${v1_bytes} in version 1`);
});
