// One writer per store (docs/operations.md "One process per store"): a second server on the same
// DATA_DIR or the same port stops at start with a clear message and touches nothing; the kernel frees
// the store's lock when its holder dies, even by kill -9. Also the store's file modes and names.
import t, { type Test } from 'tap';
import { chmodSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { TestServer, start_server, temp_dir } from './helpers/server.js';
import { stack_trace_in, wait_for } from './helpers/fixtures-http.js';

async function sandbox_topup(server: TestServer, key: string, reference: string) {
  return server.api('POST', '/v1/sandbox/wallet/fund', { key, body: { amount: 100, reference } });
}

async function start_fails(server: TestServer, t: Test): Promise<string> {
  const failed = await server.start().then(() => null, (error: Error) => error);
  t.not(failed, null, 'the second server does not start');
  if (failed === null) await server.kill();
  return server.stderr.join('');
}

t.test('a second server on the same store exits 1 naming the store and the holder, and the first goes on serving', async (t) => {
  const first = await start_server(t, { keep_data: true });
  t.teardown(() => rmSync(first.data_dir, { recursive: true, force: true }));
  const account = await first.reseller(0);
  for (let i = 0; i < 4; i++) t.equal((await sandbox_topup(first, account.key, `TOPUP-A${i}`)).status, 201, `top-up ${i} before the second start is 201`);

  // The same store and its own ports: only the lock can stop it.
  const second = new TestServer(first.data_dir, { ADMIN_TOKEN: first.admin_token });
  const stderr = await start_fails(second, t);
  t.match(stderr, first.data_dir, 'the message names the store directory');
  t.match(stderr, `pid ${first.pid}`, 'the message names the pid that holds the store');
  t.match(stderr, /one process per store/, 'the message says what to do');
  t.equal(stderr.trim().split('\n').length, 1, 'stderr says it in one line');
  const fatal = await wait_for(() => second.logs.find((line) => line.includes('"level":"fatal"')), 3000, 'the fatal log line');
  t.match(fatal, /"msg":"cannot start: the store .* is in use by another billvend process/, 'the log\'s fatal line says the same');
  t.equal(stack_trace_in(`${stderr}\n${second.logs.join('\n')}`), null, 'with no stack trace, on stderr or in the log');

  for (let i = 0; i < 4; i++) t.equal((await sandbox_topup(first, account.key, `TOPUP-B${i}`)).status, 201, `top-up ${i} after the refused start is 201`);
  const before = await first.api('GET', '/v1/wallet', { key: account.key });
  t.equal(before.body.data.balance, 800, 'the first server holds all eight top-ups');

  await first.stop();
  await first.start();
  const after = await first.api('GET', '/v1/wallet', { key: account.key });
  t.equal(after.body.data.balance, 800, 'after a restart the store holds all eight top-ups: the refused server wrote nothing');
});

t.test('a second server on the same port with another store exits 1 with a clear message, never a silent second listener', async (t) => {
  const first = await start_server(t);
  const other_store = temp_dir();
  t.teardown(() => rmSync(other_store, { recursive: true, force: true }));
  const second = new TestServer(other_store, { PORT: String(first.port) });
  const stderr = await start_fails(second, t);
  t.match(stderr, `cannot listen on 127.0.0.1:${first.port}`, 'the message names the address in use');
  const health = await first.request('GET', '/healthz', {}, first.admin_base);
  t.equal(health.status, 200, 'the first server goes on answering');
  const account = await first.reseller(0);
  for (let i = 0; i < 8; i++) {
    // Fresh connections each time: with SO_REUSEPORT the kernel would spread them over both servers.
    const response = await first.request('GET', '/v1/account', { key: account.key, headers: { connection: 'close' } });
    t.equal(response.status, 200, `connection ${i} reaches the first server`);
  }
});

t.test('kill -9 of the holder frees the store at once for a restart', async (t) => {
  const server = await start_server(t, { keep_data: true });
  t.teardown(() => rmSync(server.data_dir, { recursive: true, force: true }));
  const account = await server.reseller(0);
  t.equal((await sandbox_topup(server, account.key, 'BEFORE-KILL')).status, 201, 'a top-up before the kill is 201');
  await server.kill();
  await server.start();
  const wallet = await server.api('GET', '/v1/wallet', { key: account.key });
  t.equal(wallet.body.data.balance, 100, 'the restarted server recovered the acknowledged top-up');
});

t.test('a server given PORT=0, killed with -9 and restarted on the port it had listens at once (TIME_WAIT)', async (t) => {
  const server = await start_server(t, { keep_data: true });
  t.teardown(() => rmSync(server.data_dir, { recursive: true, force: true }));
  const port = server.port;
  const account = await server.reseller(0);
  // Keep-alive connections that the killed server closes first leave sockets in TIME_WAIT on its port.
  const agent = new Agent({ connections: 8 });
  await Promise.all(Array.from({ length: 8 }, async () => {
    const response = await request(`${server.base}/v1/account`, { headers: { authorization: `Bearer ${account.key}` }, dispatcher: agent });
    await response.body.text();
  }));
  await server.kill();
  await agent.close();
  await server.start({ PORT: String(port) });
  t.equal(server.port, port, 'the restarted server listens on the same port');
  const response = await server.api('GET', '/v1/account', { key: account.key });
  t.equal(response.status, 200, 'and answers on it');
});

t.test('the store directory and its files are owner-only', async (t) => {
  const server = await start_server(t);
  t.equal(statSync(server.data_dir).mode & 0o777, 0o700, 'DATA_DIR is 0700');
  for (const file of ['data.mdb', 'lock.mdb', 'LOCK', 'master.key']) {
    t.equal(statSync(join(server.data_dir, file)).mode & 0o777, 0o600, `${file} is 0600`);
  }
});

t.test('an existing store made 0755 by an older version is made owner-only at start', async (t) => {
  const data_dir = temp_dir();
  t.teardown(() => rmSync(data_dir, { recursive: true, force: true }));
  const server = await start_server(t, { data_dir, keep_data: true });
  await server.stop();
  chmodSync(data_dir, 0o755);
  chmodSync(join(data_dir, 'data.mdb'), 0o644);
  await server.start();
  t.equal(statSync(data_dir).mode & 0o777, 0o700, 'DATA_DIR is 0700 again');
  t.equal(statSync(join(data_dir, 'data.mdb')).mode & 0o777, 0o600, 'data.mdb is 0600 again');
});

t.test('a DATA_DIR whose name has a dot works', async (t) => {
  const parent = temp_dir();
  t.teardown(() => rmSync(parent, { recursive: true, force: true }));
  const data_dir = join(parent, 'billvend.data');
  mkdirSync(data_dir);
  const server = await start_server(t, { data_dir, keep_data: true });
  const account = await server.reseller(0);
  t.equal((await sandbox_topup(server, account.key, 'DOTTED')).status, 201, 'a top-up on a dotted store is 201');
  await server.stop();
  await server.start();
  const wallet = await server.api('GET', '/v1/wallet', { key: account.key });
  t.equal(wallet.body.data.balance, 100, 'the dotted store kept it across a restart');
  t.ok(statSync(join(data_dir, 'data.mdb')).isFile(), 'the store lives inside the directory');
});
