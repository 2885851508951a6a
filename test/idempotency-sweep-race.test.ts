// The idempotency sweep against a key's new record not yet durable (CI found it: test/crash/
// checkers-idempotency-ttl failed 1 run in 5). A retry that finds its key's record expired buys again and
// stages a new record; the sweep, running before that batch is durable, read the old expired record from
// the store and staged a removal of the key, which landed after the new record and erased it: a second
// retry would have bought a third time. In process against a real LMDB store, with the sweep's real class.
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open_store } from '../src/journal/store.js';
import { Journal } from '../src/journal/journal.js';
import { IdempotencySweeper } from '../src/engine/idempotency.js';
import type { IdempotencyRecord } from '../src/engine/records.js';

const account_id = 7;

function record(created_ms: number, expires_ms: number, reference: string): IdempotencyRecord {
  return { fingerprint: 'f', status: 201, body: '{}', sealed: false, headers: [], created_ms, expires_ms, reference, complete: true };
}

t.test('the sweep removes an expired record, but never a newer one staged for its key', async (t) => {
  const data_dir = mkdtempSync(join(tmpdir(), 'billvend-sweep-race-'));
  const store = open_store(data_dir);
  const journal = new Journal({ on_commit() {} }, () => {}, (error) => {
    throw error;
  });
  t.teardown(async () => {
    await journal.drain();
    await store.root.close();
    rmSync(data_dir, { recursive: true, force: true });
  });
  const db = store.idempotency;
  const renewed = [account_id, 'test', 'renewed-key'];
  const lapsed = [account_id, 'test', 'lapsed-key'];
  const twice = [account_id, 'test', 'lapsed-twice'];
  journal.put(account_id, db, renewed, record(1_000, 2_000, 'BV-OLD'));
  journal.put(account_id, db, lapsed, record(1_000, 2_000, 'BV-LAPSED'));
  journal.put(account_id, db, twice, record(1_000, 2_000, 'BV-TWICE-1'));
  await journal.durable();
  t.equal((db.get(renewed) as IdempotencyRecord).reference, 'BV-OLD', 'the first records are durable');

  // At 5,000 ms all three have expired. A retry of one key bought again and staged its new record (not yet
  // durable); another key's retry staged a record that has itself expired by the sweep's clock.
  journal.put(account_id, db, renewed, record(5_000, 9_000, 'BV-NEW'));
  journal.put(account_id, db, twice, record(3_000, 4_000, 'BV-TWICE-2'));
  const removed = new IdempotencySweeper({ store, journal }).sweep(5_000);
  await journal.durable();

  t.equal(removed, 2, 'the sweep removed two records');
  t.equal((db.get(renewed) as IdempotencyRecord | undefined)?.reference, 'BV-NEW', 'the key bought again keeps its new record: a retry replays it');
  t.equal(db.get(lapsed), undefined, 'an expired record with nothing newer is removed');
  t.equal(db.get(twice), undefined, 'an expired record whose newer record has expired too is removed');
});
