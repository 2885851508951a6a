// Idempotency records are kept 24 hours (docs/decisions.md): after that a key is new again, and the sweep
// frees the store of expired records. The server runs in this process on a manual clock, so the 24 hours
// are real ones the test moves through, and the edge is checked to the millisecond: a record replays
// up to one millisecond before its expiry and is gone at it.
import t from 'tap';
import { open_store } from './helpers/server.js';
import { start_in_process } from './helpers/in-process.js';
import { idempotency_ttl_ms } from '../src/engine/idempotency.js';

t.setTimeout(120_000);

/** The sweep runs every minute of the clock; two minutes make sure one has passed over the store. */
const sweep_period_ms = 60_000;

t.test('after 24 hours an idempotency key is forgotten: it replays before, processes anew after, and the sweep removes it', async (t) => {
  const server = await start_in_process(t);
  const reseller = await server.reseller(0);
  const first = await server.api('POST', '/v1/keys', { key: reseller.key, idempotency_key: 'expiring-key', body: { name: 'first', environment: 'test' } });
  t.equal(first.status, 201, 'the first request creates a key');
  const replay = await server.api('POST', '/v1/keys', { key: reseller.key, idempotency_key: 'expiring-key', body: { name: 'first', environment: 'test' } });
  t.equal(replay.headers.get('idempotent-replayed'), 'true', 'within 24 hours the same key replays');
  t.equal(replay.text, first.text, 'the replay is the original body');
  const reused = await server.api('POST', '/v1/keys', { key: reseller.key, idempotency_key: 'expiring-key', body: { name: 'other', environment: 'test' } });
  t.equal(reused.status, 422, 'within 24 hours another body with the key is refused');

  // The clock has not moved since the first request, so its record expires exactly 24 hours from now.
  server.clock.advance(idempotency_ttl_ms - 1);
  const last_moment = await server.api('POST', '/v1/keys', { key: reseller.key, idempotency_key: 'expiring-key', body: { name: 'first', environment: 'test' } });
  t.equal(last_moment.headers.get('idempotent-replayed'), 'true', 'one millisecond before 24 hours the key still replays');
  t.equal(last_moment.text, first.text, 'with the original body');
  server.clock.advance(1);
  const again = await server.api('POST', '/v1/keys', { key: reseller.key, idempotency_key: 'expiring-key', body: { name: 'other', environment: 'test' } });
  t.equal(again.status, 201, 'at 24 hours the key is new: another body is processed');
  t.not(again.headers.get('idempotent-replayed'), 'true', 'and not a replay');
  t.not(again.body.data.api_key, first.body.data.api_key, 'a second key was created');

  const older = await server.api('POST', '/v1/keys', { key: reseller.key, idempotency_key: 'short-lived', body: { name: 'third', environment: 'test' } });
  t.equal(older.status, 201, 'a third key is created');
  // Past every record's expiry, then two sweeps of the clock: the sweep has passed over the store.
  server.clock.advance(idempotency_ttl_ms);
  server.clock.advance(sweep_period_ms);
  server.clock.advance(sweep_period_ms);
  await server.stop();
  const { root, db } = open_store(server.data_dir, { readOnly: true });
  const idempotency = db('idempotency');
  const left = [...idempotency.getRange({})].length;
  await root.close();
  t.equal(left, 0, 'the sweep removed every expired idempotency record from the store');
});
