// The demo seed (docs/operations.md DEMO, README.md "Quick start"): on an empty store the server seeds a demo
// account with a funded test wallet and prints its key, PIN and dashboard login once, on stderr only.
import t from 'tap';
import { rmSync } from 'node:fs';
import { start_server, temp_dir, TestServer } from './helpers/server.js';
import { wait_for } from './helpers/fixtures-http.js';

const banner_title = /billvend demo/;

function metric(text: string, name: string): number | null {
  const match = new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
  return match === null ? null : Number(match[1]);
}

t.test('an empty store with DEMO unset seeds a demo account once and prints its secrets on stderr only', async (t) => {
  const data_dir = temp_dir();
  const server = new TestServer(data_dir, { DEMO: '' });
  t.teardown(async () => {
    await server.kill();
    rmSync(data_dir, { recursive: true, force: true });
  });
  await server.start();
  const banner = await wait_for(() => {
    const text = server.stderr.join('');
    return /^PIN=\d+$/m.test(text) && /Dashboard:.*login/.test(text) ? text : null;
  }, 5000, 'the demo banner');
  t.match(banner, banner_title, 'the banner is printed on stderr');
  // The key and the PIN are two shell lines to paste as they are (README.md "A first purchase").
  const key = /^KEY=(bv_test_[0-9A-Za-z]{32,})$/m.exec(banner)?.[1];
  const pin = /^PIN=(\d{5})$/m.exec(banner)?.[1];
  const login = /login\s+(\S+@\S+)\s+\/\s+(\S+)/.exec(banner);
  t.ok(key, 'the banner shows a line KEY=bv_test_… to paste');
  t.ok(pin, 'the banner shows a line PIN=<5 digits> to paste');
  t.ok(login, 'the banner shows the dashboard login (email / password)');
  if (!key || !pin || !login) return;
  const [, login_email, password] = login;

  const wallet = await server.api('GET', '/v1/wallet', { key });
  t.equal(wallet.status, 200, 'the demo key works');
  t.same(wallet.body.data, { balance: 1_000_000, bonus_balance: 0, currency: 'NGN' }, 'the test wallet holds 1,000,000 NGN');
  const account = await server.api('GET', '/v1/account', { key });
  t.equal(account.body.data.email, login_email, 'the key belongs to the account of the dashboard login');

  await wait_for(() => server.logs.some((line) => line.includes(wallet.body.request_id)), 3000, 'the wallet read in the log');
  t.ok(server.logs.length > 2, 'the log has lines to check');
  t.notOk(server.logs.some((line) => line.includes(key)), 'the JSON log does not contain the demo key');
  t.notOk(server.logs.some((line) => line.includes(key.slice(8))), 'the JSON log does not contain the key\'s random part');
  t.notOk(server.logs.some((line) => line.includes(password)), 'the JSON log does not contain the dashboard password');
  t.notOk(server.logs.some((line) => line.includes(`"${pin}"`) || new RegExp(`pin\\W+${pin}`, 'i').test(line)), 'the JSON log does not contain the PIN');
  t.notOk(server.logs.some((line) => line.includes('billvend demo')), 'the banner is not in the JSON log');

  const before = await server.admin('GET', '/metrics');
  t.equal(metric(before.text, 'billvend_actors_in_memory'), 1, 'there is one account');

  const stderr_before_restart = server.stderr.length;
  t.equal(await server.stop(), 0, 'the server stops cleanly');
  await server.start();
  // The server writes a banner (stderr is a pipe, written synchronously) before it logs that it
  // listens, which start() waits for; so it is here once an answer of the server is: the metrics read
  // below is the event to wait on, not a sleep.
  const metrics = await server.admin('GET', '/metrics');
  const after_restart = server.stderr.slice(stderr_before_restart).join('');
  t.notMatch(after_restart, banner_title, 'no second banner is printed after a restart');
  t.notMatch(after_restart, /bv_test_/, 'no key is printed after a restart');
  // Actors are built on first use since the scale finding, so the count of accounts is the operator's list.
  const accounts = await server.admin('GET', '/admin/accounts');
  t.equal(accounts.body.data.pagination.total, 1, 'the demo account is not duplicated');
  t.equal(metric(metrics.text, 'billvend_api_keys_active'), 1, 'the demo key is not duplicated');
  const again = await server.api('GET', '/v1/wallet', { key });
  t.equal(again.status, 200, 'the demo key still works after the restart');
  t.equal(again.body.data.balance, 1_000_000, 'the demo wallet was not funded twice');
  const taken = await server.admin('POST', '/admin/accounts', { name: 'Copy', email: login_email, phone: '08012345678', password: 'long enough secret', kyc_level: 1 });
  t.equal(taken.status, 409, 'the demo email is taken by the one demo account');
});

t.test('DEMO=0 on an empty store seeds nothing', async (t) => {
  const server = await start_server(t, { env: { DEMO: '0' } });
  // A banner would be written before the server logs that it listens: it is here once an answer of the server is.
  const metrics = await server.admin('GET', '/metrics');
  const stderr = server.stderr.join('');
  t.notMatch(stderr, banner_title, 'no banner is printed');
  t.notMatch(stderr, /bv_test_/, 'no key is printed');
  t.equal(metric(metrics.text, 'billvend_actors_in_memory'), 0, 'no account was created');
  t.equal(metric(metrics.text, 'billvend_api_keys_active'), 0, 'no key was created');
});
