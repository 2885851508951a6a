// Idempotency records are kept 24 hours (docs/decisions.md): after that a key is new again, and the sweep
// frees the store of expired records. TIME_SCALE=0.0001 turns 24 hours into 8.64 s.
import t from 'tap';
import { open_store, start_server } from './helpers/server.js';

const scale = 0.0001;
const ttl_ms = 24 * 60 * 60 * 1000 * scale;

t.test('after 24 hours an idempotency key is forgotten: it replays before, processes anew after, and the sweep removes it', async (t) => {
  const server = await start_server(t, { env: { TIME_SCALE: String(scale) }, keep_data: true });
  const reseller = await server.reseller(0);
  const first = await server.api('POST', '/v1/keys', { key: reseller.key, idempotency_key: 'expiring-key', body: { name: 'first', environment: 'test' } });
  t.equal(first.status, 201, 'the first request creates a key');
  const replay = await server.api('POST', '/v1/keys', { key: reseller.key, idempotency_key: 'expiring-key', body: { name: 'first', environment: 'test' } });
  t.equal(replay.headers.get('idempotent-replayed'), 'true', 'within 24 hours the same key replays');
  t.equal(replay.text, first.text, 'the replay is the original body');
  const reused = await server.api('POST', '/v1/keys', { key: reseller.key, idempotency_key: 'expiring-key', body: { name: 'other', environment: 'test' } });
  t.equal(reused.status, 422, 'within 24 hours another body with the key is refused');

  await new Promise((resolve) => setTimeout(resolve, ttl_ms + 500));
  const again = await server.api('POST', '/v1/keys', { key: reseller.key, idempotency_key: 'expiring-key', body: { name: 'other', environment: 'test' } });
  t.equal(again.status, 201, 'after 24 hours the key is new: another body is processed');
  t.not(again.headers.get('idempotent-replayed'), 'true', 'and not a replay');
  t.not(again.body.data.api_key, first.body.data.api_key, 'a second key was created');

  // The sweep runs every minute (6 ms here); give it time to pass over the store, then look inside.
  const older = await server.api('POST', '/v1/keys', { key: reseller.key, idempotency_key: 'short-lived', body: { name: 'third', environment: 'test' } });
  t.equal(older.status, 201, 'a third key is created');
  await new Promise((resolve) => setTimeout(resolve, ttl_ms + 1000));
  await server.kill();
  const { root, db } = open_store(server.data_dir, { readOnly: true });
  const idempotency = db('idempotency');
  const left = [...idempotency.getRange({})].length;
  await root.close();
  t.equal(left, 0, 'the sweep removed every expired idempotency record from the store');
});
