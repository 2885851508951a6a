// Webhook records are checked when they are read back, not only when written (src/webhooks/records.ts,
// ARCHITECTURE.md "Invariants"): a feed event that the store gives back broken is a failed assertion, so
// the request is answered 500 internal.error without a stack trace and the process exits 70, to be
// restarted on what is durable, rather than serving a broken event to a reseller.
import t from 'tap';
import { rmSync } from 'node:fs';
import { open_store, start_server } from './helpers/server.js';
import { sleep } from './helpers/fixtures-http.js';

t.test('a feed event read back broken from the store is a 500 and an exit, never served', async (t) => {
  const server = await start_server(t, { keep_data: true, env: { LOG_LEVEL: 'warn' } });
  t.teardown(() => rmSync(server.data_dir, { recursive: true, force: true }));
  const reseller = await server.reseller(10_000);
  const before = await server.api('GET', '/v1/events', { key: reseller.key });
  t.equal(before.status, 200, 'the feed is read');
  t.equal(before.body.data.events.length, 1, 'it holds the credit');
  t.equal(await server.stop(), 0, 'the server stops cleanly');

  const { root, db } = open_store(server.data_dir);
  let broken = 0;
  try {
    const feed = db('event_feed');
    for (const { key, value } of feed.getRange({ start: [0] })) {
      if (!Array.isArray(key)) continue;
      // A record is one command's events (an array), or one event as written before 2026-11-29.
      const record = value as { body: string } | { body: string }[];
      await feed.put(key, Array.isArray(record) ? [{ ...record[0], body: record[0].body.slice(0, 20) }, ...record.slice(1)] : { ...record, body: record.body.slice(0, 20) });
      broken++;
    }
  } finally {
    await root.close();
  }
  t.equal(broken, 1, 'the credit\'s feed event is cut short in the store');

  await server.start();
  const after = await server.api('GET', '/v1/events', { key: reseller.key });
  t.equal(after.status, 500, 'the broken event is not served');
  t.equal(after.body?.error?.code, 'internal.error', 'the answer is internal.error');
  t.notMatch(after.text, /at .*\.js:\d+/, 'without a stack trace');
  // Bounded, so that a server that keeps running fails this test rather than hanging it.
  const exited = await Promise.race([server.exit_code(), sleep(60_000).then(() => 'still running')]);
  t.equal(exited, 70, 'the process exits 70 on the failed assertion');
});
