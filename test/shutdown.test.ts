// Signals (docs/operations.md "Signals"): SIGTERM stops accepting, finishes in-flight requests,
// flushes the journal and exits 0 within 10 s.
import t from 'tap';
import { rmSync } from 'node:fs';
import { temp_dir, TestServer } from './helpers/server.js';
import { wait_for } from './helpers/fixtures-http.js';

t.test('SIGTERM exits 0 within 10 s and keeps every acknowledged change', async (t) => {
  const data_dir = temp_dir();
  const server = new TestServer(data_dir, {});
  t.teardown(async () => {
    await server.kill();
    rmSync(data_dir, { recursive: true, force: true });
  });
  await server.start();
  const ready = await server.admin('GET', '/readyz', undefined, null);
  t.equal(ready.status, 200, '/readyz answers 200 on the running server');
  t.equal(ready.body?.data?.status, 'ready', '/readyz says ready');

  const reseller = await server.reseller(0);
  const credits = await Promise.all(Array.from({ length: 20 }, (_, i) => server.credit(reseller.id, 'test', 1.25, `SHUTDOWN-${i}`)));
  t.ok(credits.every((c) => c.status === 201), '20 credits were acknowledged');

  const started = performance.now();
  const code = await server.stop();
  const elapsed_ms = performance.now() - started;
  t.equal(code, 0, 'the server exits with status 0');
  t.ok(elapsed_ms < 10_000, `the server exits within 10 s (${Math.round(elapsed_ms)} ms)`);
  await wait_for(() => server.logs.some((line) => line.includes('"msg":"stopped"')), 1000, 'the stopped line');
  t.ok(server.logs.some((line) => line.includes('"signal":"SIGTERM"')), 'the log says SIGTERM started the shutdown');

  await server.start();
  const wallet = await server.api('GET', '/v1/wallet', { key: reseller.key });
  t.equal(wallet.body?.data?.balance, 25, 'after a restart the 20 acknowledged credits are all there');
  const history = await server.api('GET', '/v1/wallet/transactions?per_page=100', { key: reseller.key });
  t.equal(history.body?.data?.pagination?.total, 20, 'the wallet has exactly 20 entries');
});

t.test('SIGTERM in the middle of a stream of writes answers what it accepted and loses none of it', async (t) => {
  const data_dir = temp_dir();
  const server = new TestServer(data_dir, {});
  t.teardown(async () => {
    await server.kill();
    rmSync(data_dir, { recursive: true, force: true });
  });
  await server.start();
  const reseller = await server.reseller(0);
  let acknowledged = 0;
  let refused = 0;
  let sequence = 0;
  let stopping = false;
  // Four writers credit as fast as they can until the server stops answering with 201.
  const writer = async () => {
    for (;;) {
      const reference = `STREAM-${sequence++}`;
      const response = await server.admin('POST', `/admin/accounts/${reseller.id}/wallet/credit`, { environment: 'test', amount: 1, reference }).catch(() => null);
      if (response?.status === 201) acknowledged++;
      else {
        if (response !== null && response.status !== 503) t.fail(`a write during shutdown got ${response.status} ${response.text}`);
        refused++;
        if (stopping) return;
      }
    }
  };
  const writers = [writer(), writer(), writer(), writer()];
  await wait_for(() => acknowledged >= 20, 5000, '20 acknowledged credits');
  stopping = true;
  const code = await server.stop();
  await Promise.all(writers);
  t.equal(code, 0, 'the server exits with status 0');
  t.comment(`${acknowledged} credits acknowledged, ${refused} refused or unanswered`);
  t.ok(acknowledged >= 20, 'writes were acknowledged while the server ran');
  await server.start();
  const wallet = await server.api('GET', '/v1/wallet', { key: reseller.key });
  t.equal(wallet.body?.data?.balance, acknowledged, `the balance is exactly the ${acknowledged} acknowledged credits`);
  const history = await server.api('GET', '/v1/wallet/transactions?per_page=1', { key: reseller.key });
  t.equal(history.body?.data?.pagination?.total, acknowledged, 'the wallet has exactly one entry per acknowledged credit');
});
