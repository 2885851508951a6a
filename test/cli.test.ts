// The command line (docs/operations.md "Command line"): help and
// version print and exit without starting a server, every command explains itself, mistakes exit 2,
// `serve` refuses flags that are no setting, and every operator route has a command.
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { randomBytes } from 'node:crypto';
import { cli_path, repo_root, start_server, temp_dir, type TestServer } from './helpers/server.js';
import { run_cli, type CliResult } from './helpers/fixtures-http.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { buy_airtime, check_created, fast_reseller, warm_up_live, wait_for_async } from './helpers/purchases.js';

/** Every command the CLI has: one per operator route, plus serve. */
const commands = [
  'serve',
  'account list', 'account show', 'account tree', 'account create', 'account update',
  'pin set',
  'key create', 'key revoke',
  'wallet credit',
  'plan update',
  'pricing list', 'pricing set', 'pricing delete',
  'report margin',
  'orders review', 'orders resolve',
  'cluster status',
  'webhooks dead',
];
const groups = ['account', 'pin', 'key', 'wallet', 'plan', 'pricing', 'report', 'orders', 'cluster', 'webhooks'];

/** A short deadline: a command that starts a server instead of exiting fails here, not after 20 s. */
const prompt_ms = 10_000;

const package_version = (JSON.parse(readFileSync(join(repo_root, 'package.json'), 'utf8')) as { version: string }).version;

async function free_port(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function port_open(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** Runs the CLI in an environment where a server, if one started by mistake, would use these ports and this store. */
async function run_without_server(args: string[]): Promise<CliResult & { store_created: boolean; ports: number[] }> {
  const data_dir = join(temp_dir('billvend-cli-'), 'store');
  const ports = [await free_port(), await free_port()];
  try {
    const result = await run_cli(args, { DATA_DIR: data_dir, PORT: String(ports[0]), ADMIN_PORT: String(ports[1]), HOST: '127.0.0.1', LOG_LEVEL: 'info' }, prompt_ms)
      .catch((error: Error): CliResult => ({ code: null, stdout: '', stderr: error.message }));
    return { ...result, store_created: existsSync(data_dir), ports };
  } finally {
    rmSync(join(data_dir, '..'), { recursive: true, force: true });
  }
}

t.test('--help, -h, help and --version print and exit 0 without starting a server or creating a store', async (t) => {
  const rows: [string[], RegExp][] = [
    [['--help'], /^usage: billvend <command>/],
    [['-h'], /^usage: billvend <command>/],
    [['help'], /^usage: billvend <command>/],
    [['--version'], new RegExp(`^${package_version.replaceAll('.', '\\.')}\\n$`)],
  ];
  for (const [args, output] of rows) {
    const what = `billvend ${args.join(' ')}`;
    const result = await run_without_server(args);
    t.equal(result.code, 0, `${what} exits 0 promptly (${result.stderr.trim().slice(0, 200)})`);
    t.match(result.stdout, output, `${what} prints ${args[0] === '--version' ? 'the package version' : 'the usage'} on stdout`);
    t.notMatch(result.stdout, /"msg":"listening"/, `${what} logs no listening line`);
    t.equal(result.stderr, '', `${what} writes nothing on stderr`);
    t.equal(result.store_created, false, `${what} creates no store in DATA_DIR`);
    for (const port of result.ports) t.equal(await port_open(port), false, `${what} leaves port ${port} closed`);
  }
  const usage = (await run_without_server(['--help'])).stdout;
  for (const command of commands) t.match(usage, new RegExp(`\\n  ${command} `), `the usage lists "${command}"`);
});

/** Runs the jobs a few at a time: each is a process of its own, and the machine is shared. */
async function in_pool<T>(jobs: (() => Promise<T>)[], width = 4): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

t.test('every command and group answers --help and -h with its usage on stdout and exit 0', async (t) => {
  const cases: [string, string[]][] = [];
  for (const command of [...commands, ...groups]) {
    cases.push([command, [...command.split(' '), '--help']], [command, [...command.split(' '), '-h']], [command, ['help', ...command.split(' ')]]);
  }
  const results = await in_pool(cases.map(([, args]) => () => run_without_server(args)));
  for (let i = 0; i < cases.length; i++) {
    const [command, args] = cases[i];
    const result = results[i];
    const what = `billvend ${args.join(' ')}`;
    t.equal(result.code, 0, `${what} exits 0 (${result.stderr.trim().slice(0, 200)})`);
    t.match(result.stdout, new RegExp(`^usage: billvend ${command}\\b`), `${what} prints the usage of "${command}"`);
    t.match(result.stdout, /--help/, `${what} mentions --help`);
    t.equal(result.stderr, '', `${what} writes nothing on stderr`);
    t.equal(result.store_created, false, `${what} creates no store`);
  }
  // Help wins over missing arguments: an operator asks how before knowing what to pass.
  const bare = await run_without_server(['key', 'revoke', '--help']);
  t.match(bare.stdout, /<account_id> <key_id>/, 'key revoke --help names its arguments although none were given');
});

t.test('unknown commands, unknown flags and stray arguments exit 2 with a clear message on stderr', async (t) => {
  const rows: [string[], RegExp][] = [
    [['frobnicate'], /unknown command "frobnicate"/],
    [['account'], /"account" needs a command/],
    [['account', 'frob'], /unknown command "account frob"/],
    [['account', 'list', '--frob'], /unknown option "--frob"/],
    [['account', 'show', '1', '--verbose'], /unknown option "--verbose"/],
    [['account', 'show', '1', '2'], /unexpected argument "2"/],
    [['account', 'show', 'abc'], /<account_id> must be a positive integer/],
    [['key', 'revoke', '1'], /<key_id> is required/],
    [['key', 'create', '1'], /missing --name/],
    [['key', 'create', '1', '--name', '--environment', 'test'], /--name needs a value/],
    [['wallet', 'credit', '1', '--environment', 'test', '--amount', '1.0000000000000001', '--reference', 'R'], /--amount must be an NGN amount/],
    [['orders', 'resolve', 'BV-1', '--outcome', 'maybe'], /--outcome must be delivered or failed/],
    [['--version', 'now'], /--version takes no arguments/],
    [['--verbose'], /unknown option "--verbose"/],
    [['help', 'nothing'], /no command "nothing"/],
    // Before, any first flag started a server with it.
    [['--port', '0'], /unknown option "--port"; server settings go after "serve"/],
  ];
  const results = await in_pool(rows.map(([args]) => () => run_without_server(args)));
  for (let i = 0; i < rows.length; i++) {
    const [args, message] = rows[i];
    const result = results[i];
    const what = `billvend ${args.join(' ')}`;
    t.equal(result.code, 2, `${what} exits 2 (${result.stderr.trim().split('\n')[0]})`);
    t.match(result.stderr, message, `${what} says what is wrong`);
    t.match(result.stderr, /usage: billvend/, `${what} shows the usage on stderr`);
    t.equal(result.stdout, '', `${what} prints nothing on stdout`);
    t.equal(result.store_created, false, `${what} creates no store`);
  }
});

t.test('serve refuses flags that are not settings, stray arguments and missing values with exit 2 and starts nothing', async (t) => {
  const rows: [string[], RegExp][] = [
    [['serve', '--no-such-flag'], /unknown option "--no-such-flag"/],
    [['serve', '--data-directory', '/tmp/elsewhere'], /unknown option "--data-directory"/],
    [['serve', '--help-me'], /unknown option "--help-me"/],
    [['serve', 'now'], /unexpected argument "now"/],
    [['serve', '--port'], /--port needs a value/],
    [['serve', '-p', '9000'], /unknown option "-p"/],
  ];
  for (const [args, message] of rows) {
    const what = `billvend ${args.join(' ')}`;
    const result = await run_without_server(args);
    t.equal(result.code, 2, `${what} exits 2 (${result.stderr.trim().split('\n')[0]})`);
    t.match(result.stderr, message, `${what} says what is wrong`);
    t.notMatch(result.stdout, /"msg":"listening"/, `${what} does not listen`);
    t.equal(result.store_created, false, `${what} creates no store`);
    for (const port of result.ports) t.equal(await port_open(port), false, `${what} leaves port ${port} closed`);
  }
});

t.test('serve takes the --kebab-case form of every variable src/config.ts reads, and no other', async (t) => {
  const source = readFileSync(join(repo_root, 'src', 'config.ts'), 'utf8');
  const variables = [...new Set([...source.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]))].sort();
  t.ok(variables.length >= 20, `src/config.ts reads the configuration variables (found ${variables.length})`);
  const help = (await run_without_server(['serve', '--help'])).stdout;
  const flags = [...help.matchAll(/^ {2}--([a-z0-9-]+) /gm)].map((m) => m[1].replaceAll('-', '_').toUpperCase()).filter((name) => name !== 'HELP').sort();
  t.same(flags, variables, 'serve --help lists exactly one flag per configuration variable');
});

/** Starts `billvend serve` configured by flags only (no variables but PATH and HOME), as an operator would. */
async function serve_with_flags(t: Test, args: string[]): Promise<{ admin_port: number }> {
  const child = spawn(process.execPath, [cli_path, 'serve', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => {
    child.kill('SIGKILL');
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const lines = createInterface({ input: child.stdout! });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 20_000);
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    lines.on('line', (line) => {
      if (!line.includes('"msg":"listening"')) return;
      clearTimeout(timer);
      resolve({ admin_port: (JSON.parse(line) as { admin_port: number }).admin_port });
    });
  });
}

t.test('serve configured by flags alone listens, and a bare 0/1 flag such as --demo means 1', async (t) => {
  const data_dir = temp_dir();
  t.teardown(() => rmSync(data_dir, { recursive: true, force: true }));
  const token = randomBytes(16).toString('hex');
  const { admin_port } = await serve_with_flags(t, [
    '--port', '0', '--admin-port=0', '--host', '127.0.0.1', '--data-dir', data_dir, '--admin-token', token, '--demo', '--log-level', 'info',
  ]);
  t.ok(existsSync(join(data_dir, 'data.mdb')), 'the store is where --data-dir says');
  const found = await run_cli(['account', 'list', '--email', 'demo@billvend.test'], { ADMIN_TOKEN: token, ADMIN_PORT: String(admin_port) });
  t.equal(found.code, 0, `the operator token of --admin-token is accepted (${found.stderr.trim()})`);
  t.equal(JSON.parse(found.stdout).accounts.length, 1, 'a bare --demo seeded the demo account');
});

async function cli(t: Test, server: TestServer, args: string[], what: string): Promise<any> {
  const result = await run_cli(args, { ADMIN_TOKEN: server.admin_token, ADMIN_PORT: String(server.admin_port) });
  t.equal(result.code, 0, `${what}: exits 0 (${result.stderr.trim()})`);
  t.equal(result.stderr, '', `${what}: nothing on stderr`);
  return JSON.parse(result.stdout);
}

async function cli_fails(t: Test, server: TestServer, args: string[], code: RegExp, what: string): Promise<void> {
  const result = await run_cli(args, { ADMIN_TOKEN: server.admin_token, ADMIN_PORT: String(server.admin_port) });
  t.equal(result.code, 1, `${what}: exits 1`);
  t.match(result.stderr, code, `${what}: stderr names the error code`);
  t.equal(result.stdout, '', `${what}: nothing on stdout`);
}

t.test('account list pages accounts by id and finds one by email; account show prints wallets and keys without secrets', async (t) => {
  const server = await start_server(t);
  const made = [await server.create_account(), await server.create_account(), await server.create_account()];
  const ids = made.map((a) => a.id);

  const first = await cli(t, server, ['account', 'list', '--per-page', '2'], 'account list --per-page 2');
  t.same(first.accounts.map((a: { id: number }) => a.id), ids.slice(0, 2), 'the first page holds the first two accounts by id');
  t.same(first.pagination, { total: 3, per_page: 2, current_page: 1, last_page: 2 }, 'the pagination counts every account');
  t.equal(first.accounts[0].email, made[0].email, 'an account shows its email');
  t.equal(first.accounts[0].pin_set, true, 'and whether its PIN is set');
  t.notOk('password_hash' in first.accounts[0], 'no password hash is shown');
  const second = await cli(t, server, ['account', 'list', '--per-page', '2', '--page', '2'], 'account list --page 2');
  t.same(second.accounts.map((a: { id: number }) => a.id), ids.slice(2), 'the second page holds the third account');
  const by_email = await cli(t, server, ['account', 'list', '--email', made[1].email.toUpperCase()], 'account list --email');
  t.same(by_email.accounts.map((a: { id: number }) => a.id), [ids[1]], '--email finds the account in any letter case');
  const nobody = await cli(t, server, ['account', 'list', '--email', 'nobody@example.ng'], 'account list --email of nobody');
  t.same(nobody.accounts, [], 'an unknown email lists no account');
  await cli_fails(t, server, ['account', 'list', '--per-page', '101'], /validation\.failed[\s\S]*per_page/, 'account list --per-page 101');

  const key = await server.create_key(ids[0]);
  await server.credit(ids[0], 'test', 1234.5);
  const shown = await cli(t, server, ['account', 'show', String(ids[0])], 'account show');
  t.equal(shown.id, ids[0], 'account show prints the account');
  t.same(shown.wallets.test, { balance: 1234.5, bonus_balance: 0, currency: 'NGN' }, 'with its test wallet');
  t.same(shown.wallets.live, { balance: 0, bonus_balance: 0, currency: 'NGN' }, 'and its live wallet');
  t.same(shown.keys.map((k: { id: number }) => k.id), [key.id], 'and its active keys');
  t.notMatch(JSON.stringify(shown), new RegExp(key.api_key), 'but never a key\'s secret');
  t.notOk('password_hash' in shown || 'pin_hash' in shown, 'nor a password or PIN hash');
  await cli_fails(t, server, ['account', 'show', '999999'], /account\.not_found/, 'account show of an unknown id');
});

t.test('key revoke revokes at once; the key then answers 401, and a key of another account is not found', async (t) => {
  const server = await start_server(t);
  const owner = await server.reseller(100);
  const other = await server.reseller(100);
  const before = await server.api('GET', '/v1/wallet', { key: owner.key });
  t.equal(before.status, 200, 'the key works before it is revoked');

  await cli_fails(t, server, ['key', 'revoke', String(other.id), String(owner.key_id)], /keys\.not_found/, 'revoking a key through another account');
  const still = await server.api('GET', '/v1/wallet', { key: owner.key });
  t.equal(still.status, 200, 'the key revoked through another account still works');

  const revoked = await cli(t, server, ['key', 'revoke', String(owner.id), String(owner.key_id)], 'key revoke');
  t.equal(revoked.id, owner.key_id, 'key revoke prints the key');
  t.match(revoked.revoked_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/, 'with the instant it was revoked');
  t.notOk('api_key' in revoked, 'and without its secret');
  const after = await server.api('GET', '/v1/wallet', { key: owner.key });
  t.equal(after.status, 401, 'the revoked key answers 401');
  t.equal(after.body?.error?.code, 'auth.key_not_found', 'as auth.key_not_found');
  const shown = await cli(t, server, ['account', 'show', String(owner.id)], 'account show after the revocation');
  t.same(shown.keys, [], 'the revoked key is no longer listed');
  await cli_fails(t, server, ['key', 'revoke', String(owner.id), String(owner.key_id)], /keys\.not_found/, 'revoking it again');
  await cli_fails(t, server, ['key', 'revoke', '999999', '1'], /account\.not_found/, 'revoking through an unknown account');
  const other_key = await server.api('GET', '/v1/wallet', { key: other.key });
  t.equal(other_key.status, 200, 'the other account\'s key is untouched');
});

t.test('orders review lists an order without an answer for 24 hours and orders resolve refunds it once', async (t) => {
  const quiet = await start_upstream(t);
  quiet.processing_requeries = 1_000_000;
  quiet.default_mode = 'processing';
  // TIME_SCALE=0.0001: the 24 hours before review are 8.64 s.
  const server = await start_server(t, { env: { TIME_SCALE: '0.0001', ...quiet.env(1_000) } });
  const created = await server.create_account();
  const key = (await server.create_key(created.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
  await server.credit(created.id, 'live', 1_000);
  await warm_up_live(server, key);
  const bought = await buy_airtime(server, key, '08160000301', 250);
  check_created(t, bought, 'processing', 'airtime the upstream never settles');
  const reference = bought.body.data.reference;

  await wait_for_async(async () => {
    const listed = await server.admin('GET', '/admin/orders/review');
    return listed.body.data.orders.some((o: { reference: string }) => o.reference === reference) ? listed : null;
  }, 40_000, 'the order to need review');
  const review = await cli(t, server, ['orders', 'review'], 'orders review');
  const listed = review.orders.find((o: { reference: string }) => o.reference === reference);
  t.equal(listed.account_id, created.id, 'orders review names the account');
  t.equal(listed.needs_review, true, 'and shows the order needs review');

  const resolved = await cli(t, server, ['orders', 'resolve', reference, '--outcome', 'failed'], 'orders resolve --outcome failed');
  t.equal(resolved.status, 'failed', 'orders resolve prints the failed order');
  t.equal(resolved.reversed, true, 'which was refunded');
  const wallet = await server.api('GET', '/v1/wallet', { key });
  t.equal(wallet.body.data.balance, 1_000, 'the wallet has its money back');
  await cli_fails(t, server, ['orders', 'resolve', reference, '--outcome', 'delivered'], /transaction\.not_found/, 'deciding the order again');
  const again = await cli(t, server, ['orders', 'review'], 'orders review after the decision');
  t.notOk(again.orders.some((o: { reference: string }) => o.reference === reference), 'the decided order left the review list');
});

t.test('cluster status asks the operator API for GET /admin/cluster; a single node has no cluster and says so', async (t) => {
  const server = await start_server(t);
  await cli_fails(t, server, ['cluster', 'status'], /route\.not_found/, 'cluster status on a single node');
});

t.test('pricing set, list and delete manage a tier\'s price list, and report margin prints the margin report', async (t) => {
  const server = await start_server(t);
  const set = await cli(t, server, ['pricing', 'set', 'gold', '--rules', 'airtime=300,airtime/glo=400,electricity/IKEDC=150,tv/dstv=100'], 'pricing set');
  t.same(set.rules.map((r: Record<string, unknown>) => [r.service_type, r.network ?? r.disco ?? r.provider, r.rate_bp]), [
    ['airtime', null, 300], ['airtime', 'glo', 400], ['electricity', 'ikeja-electric', 150], ['tv', 'dstv', 100],
  ], 'pricing set sends each SERVICE[/NARROW]=BP as a rule, the narrowing field chosen by the service');
  const listed = await cli(t, server, ['pricing', 'list'], 'pricing list');
  t.same(listed.tiers.map((x: { tier: string }) => x.tier), ['gold'], 'pricing list shows the tier');
  await cli_fails(t, server, ['pricing', 'set', 'gold', '--rules', 'airtime/dstv=100'], /validation\.failed[\s\S]*rules\.0\.network/, 'pricing set with a narrowing value that does not fit');
  const malformed = await run_cli(['pricing', 'set', 'gold', '--rules', 'airtime:300'], { ADMIN_TOKEN: server.admin_token, ADMIN_PORT: String(server.admin_port) });
  t.equal(malformed.code, 2, 'pricing set with a malformed rule exits 2');
  t.match(malformed.stderr, /SERVICE\[\/NARROW\]=BP/, 'and says what a rule looks like');
  const account = await fast_reseller(server, 1_000, { tier: 'gold' });
  const bought = await buy_airtime(server, account.key, '08011111111', 100);
  check_created(t, bought, 'delivered', 'a purchase in the gold tier');
  const today = new Date(Date.now() + 60 * 60 * 1000).toISOString().slice(0, 10);
  const report = await cli(t, server, ['report', 'margin', '--from', today, '--to', today, '--environment', 'test'], 'report margin');
  t.equal(report.totals.amount, 100, 'the report counts the face value sold');
  t.equal(report.totals.amount_charged, 97, 'and what the reseller was charged');
  t.equal(report.totals.commission, 3, 'and the reseller\'s commission');
  const removed = await cli(t, server, ['pricing', 'delete', 'gold'], 'pricing delete');
  t.equal(removed.removed, true, 'pricing delete removes the rules');
});
