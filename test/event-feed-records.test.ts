// The events feed stores the events one command emits for one account and environment as one record (a
// purchase's wallet.debited and transaction.completed: one key, not two), and reads them one by one: `after`
// naming an event in the middle of a record, a limit that ends inside a record, a kind filter. A store written
// before 2026-11-29 (one event per record) reads the same, and the next event follows its last seq. Through a
// real server and its LMDB store.
import t from 'tap';
import { rmSync } from 'node:fs';
import { open_store, start_server } from './helpers/server.js';

interface StoredEvent {
  id: string;
  kind: string;
  created_us: number;
  body: string;
}

async function feed_records(data_dir: string, account_id: number): Promise<{ key: [number, string, number]; value: StoredEvent | StoredEvent[] }[]> {
  const { root, db } = open_store(data_dir);
  try {
    const feed = db('event_feed');
    return [...feed.getRange({ start: [account_id], end: [account_id + 1] })].map(({ key, value }) => ({ key: key as [number, string, number], value: value as StoredEvent | StoredEvent[] }));
  } finally {
    await root.close();
  }
}

t.test('a command\'s events are one record of the feed, read one by one, and a store of one event per record reads the same', async (t) => {
  const server = await start_server(t, { keep_data: true, env: { LOG_LEVEL: 'warn' } });
  t.teardown(() => rmSync(server.data_dir, { recursive: true, force: true }));
  const reseller = await server.reseller(10_000);
  const bought = await server.api('POST', '/v1/services/airtime', { key: reseller.key, body: { network: 'mtn', phone: '08031234567', amount: 100, pin: reseller.pin } });
  t.equal(bought.status, 201, 'a sandbox purchase, delivered at once');
  const feed = async (query: string) => {
    const response = await server.api('GET', `/v1/events${query}`, { key: reseller.key });
    t.equal(response.status, 200, `GET /v1/events${query}`);
    return response.body.data as { events: { id: string; event: string }[]; has_more: boolean };
  };
  const all = await feed('');
  t.strictSame(all.events.map((event) => event.event), ['wallet.credited', 'wallet.debited', 'transaction.completed'], 'the credit, then the purchase\'s two events');
  const [credit, debited, completed] = all.events.map((event) => event.id);

  // One event at a time, across the record boundary and inside the purchase's record.
  const walked: string[] = [];
  let after = '';
  for (let page = 0; page < 5; page++) {
    const one = await feed(`?limit=1${after === '' ? '' : `&after=${after}`}`);
    if (one.events.length === 0) break;
    walked.push(one.events[0].id);
    after = one.events[0].id;
  }
  t.strictSame(walked, [credit, debited, completed], 'a limit of one walks the three events in order, one per page');
  t.strictSame((await feed(`?after=${debited}`)).events.map((event) => event.id), [completed], 'after the first event of a record: the rest of that record');
  t.strictSame((await feed(`?after=${completed}`)).events, [], 'after the last event: nothing');
  t.strictSame((await feed(`?after=${credit}&type=transaction.completed`)).events.map((event) => event.id), [completed], 'a kind filter picks inside a record');

  const account_id = reseller.id as number;
  t.equal(await server.stop(), 0, 'the server stops cleanly');
  // The key's environment's feed: the only one these events went to.
  const live = await feed_records(server.data_dir, account_id);
  t.equal(live.length, 2, 'two records in the feed: the credit\'s and the purchase\'s');
  t.ok(Array.isArray(live[1].value) && live[1].value.length === 2, 'the purchase\'s two events in one record, under the first one\'s seq');
  t.strictSame((live[1].value as StoredEvent[]).map((event) => event.id), [debited, completed], 'in the order they happened');

  // The same events as an earlier version stored them: one per record, under its own seq.
  {
    const { root, db } = open_store(server.data_dir);
    try {
      const feed_db = db('event_feed');
      for (const record of live) {
        await feed_db.remove(record.key);
        const events = Array.isArray(record.value) ? record.value : [record.value];
        for (let i = 0; i < events.length; i++) await feed_db.put([record.key[0], record.key[1], record.key[2] + i], events[i]);
      }
    } finally {
      await root.close();
    }
  }
  await server.start();
  t.strictSame((await feed('')).events.map((event) => event.id), [credit, debited, completed], 'one event per record reads the same');
  t.strictSame((await feed(`?after=${debited}`)).events.map((event) => event.id), [completed], 'and after any of them');
  const again = await server.api('POST', '/v1/services/airtime', { key: reseller.key, body: { network: 'mtn', phone: '08031234567', amount: 100, pin: reseller.pin } });
  t.equal(again.status, 201, 'another purchase');
  const next = await feed(`?after=${completed}`);
  t.strictSame(next.events.map((event) => event.event), ['wallet.debited', 'transaction.completed'], 'its events follow the last one of the older records');
  t.equal(await server.stop(), 0, 'the server stops cleanly');
  const after_upgrade = await feed_records(server.data_dir, account_id);
  t.strictSame(after_upgrade.map((record) => [record.key[2], Array.isArray(record.value) ? record.value.length : 'one event']), [[1, 'one event'], [2, 'one event'], [3, 'one event'], [4, 2]], 'the new record comes under the next seq, after the older records of one event');
});
