// Regression for the second hostile review's row 1 (docs/design.md "One tenant never stalls another"):
// the dashboard's PIN change ran its password check and the new PIN's scrypt outside the bounded hash
// lanes, on libuv's thread pool that the journal's commits share; 100 at once took another tenant's
// purchase p99 from 16 ms to 4 s. The property, not the route: while one tenant floods every costly
// route it can reach (sign-ins, PIN changes by password and by PIN, purchases with a wrong PIN, both
// exports, the trend, bulk orders), the server never runs more scrypt at once than the two lanes
// allow (billvend_scrypt_running_peak, read from /metrics), and another tenant's purchases are all
// answered, quickly.
import t from 'tap';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawn } from 'node:child_process';
import { repo_root, start_server, type TestServer } from './helpers/server.js';
import { idem } from './helpers/purchases.js';

/** The lanes' running_max as the server below is configured: passwords 1, PINs 2 (the defaults). */
const scrypt_running_allowed = 1 + 2;
const flood_ms = 6000;
const quiet_ms = 2000;
const victim_loops = 4;
/**
 * Victim purchase p99 under the flood, at most. Measured on the shared 2-core VM with a load average of
 * 15-20: 0.5-0.9 s (quiet 0.1-0.2 s); the code before the lanes: 18-30 s, 4 purchases in 6 s. The bound
 * leaves room for the scheduler's own stalls of up to 0.4 s seen there (docs/benchmarks.md "Noisy
 * neighbour"), and still fails the old code tenfold.
 */
const victim_p99_ms_max = 1500;

function source_files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'app' || name === 'node_modules' ? [] : source_files(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

t.test('no module of the server runs scrypt but through the lanes of lib/secrets.ts', async (t) => {
  const offenders: string[] = [];
  for (const path of source_files(join(repo_root, 'src'))) {
    const name = relative(repo_root, path);
    if (name === join('src', 'lib', 'secrets.ts')) continue;
    const text = readFileSync(path, 'utf8');
    // hash_secret and verify_secret run scrypt directly; the lanes call them for everyone else.
    const direct = /\b(hash_secret|verify_secret)\s*\(/.test(text);
    const imported = /import\s*\{[^}]*\bscrypt(Sync)?\b[^}]*\}\s*from\s*'(node:)?crypto'/.test(text) || /\bcrypto\.scrypt/.test(text);
    if (direct || imported) offenders.push(name);
  }
  t.same(offenders, [], 'every scrypt of src/ goes through HashLane.verify or HashLane.hash');
});

interface Metrics {
  scrypt_running_peak: number;
  scrypt_runs: number;
}

async function scrypt_metrics(server: TestServer): Promise<Metrics> {
  const text = (await server.admin('GET', '/metrics')).text;
  const read = (name: string) => {
    const line = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
    return line === null ? Number.NaN : Number(line[1]);
  };
  return { scrypt_running_peak: read('billvend_scrypt_running_peak'), scrypt_runs: read('billvend_scrypt_runs_total') };
}

/**
 * The victim's purchase loops, in a process of their own as another tenant's client would be: the
 * flood's many connections in this process must not delay the victim's timings on the client side.
 * Prints every latency (ms) and status as JSON when done.
 */
const victim_script = `
const [base, key, pin, duration_ms, loops] = process.argv.slice(1);
const latencies = [];
const statuses = {};
const end = performance.now() + Number(duration_ms);
let n = 0;
async function loop() {
  while (performance.now() < end) {
    const sent = performance.now();
    const response = await fetch(base + '/v1/services/airtime', {
      method: 'POST',
      headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json', 'x-idempotency-key': 'victim-' + process.pid + '-' + (++n) },
      body: JSON.stringify({ network: 'mtn', phone: '08011111111', amount: 100, pin }),
    });
    await response.text();
    latencies.push(performance.now() - sent);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  }
}
await Promise.all(Array.from({ length: Number(loops) }, loop));
process.stdout.write(JSON.stringify({ latencies, statuses }));
`;

function victim_purchases(server: TestServer, key: string, pin: string, duration_ms: number, loops: number): Promise<{ latencies: number[]; statuses: Record<string, number> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', victim_script, server.base, key, pin, String(duration_ms), String(loops)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`the victim's process exited with ${code}`))));
  });
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

t.test('while one tenant floods every costly route, scrypt never runs beyond the lanes and another tenant keeps buying', async (t) => {
  // The test server raises the sign-in bounds and the dashboard's rate limit for other tests; here they
  // are the defaults (docs/operations.md), since what one tenant can do to another under them is tested.
  const server = await start_server(t, { env: { LOG_LEVEL: 'warn', SIGN_IN_ADDRESS_PER_MINUTE_MAX: '30', SIGN_IN_GLOBAL_PER_SECOND_MAX: '10', SIGN_IN_HASH_WAITING_MAX: '16', DASHBOARD_SESSION_BURST_MAX: '10', DASHBOARD_ACCOUNT_BURST_MAX: '20', DASHBOARD_SESSION_PER_MINUTE_MAX: '60', DASHBOARD_ACCOUNT_PER_MINUTE_MAX: '120' } });
  const attacker = await server.reseller(1_000_000, { kyc_level: 3 }, { rate_limit_per_minute: 1_000_000 });
  await server.admin('PATCH', `/admin/accounts/${attacker.id}`, { daily_limit: 100_000_000 });
  const victim = await server.reseller(1_000_000, { kyc_level: 3 }, { rate_limit_per_minute: 1_000_000 });
  await server.admin('PATCH', `/admin/accounts/${victim.id}`, { daily_limit: 100_000_000 });
  const buy = (key: string, pin: string) => server.api('POST', '/v1/services/airtime', { key, idempotency_key: idem('v'), body: { network: 'mtn', phone: '08011111111', amount: 100, pin } });
  // The victim's PIN is verified once (scrypt), then cached, as after any first purchase.
  t.equal((await buy(victim.key, victim.pin)).status, 201, 'the victim\'s first purchase is taken');
  // Some orders for the exports and the trend to read.
  const items = Array.from({ length: 100 }, () => ({ service_type: 'airtime', network: 'mtn', phone: '08011111111', amount: 100 }));
  for (let i = 0; i < 5; i++) {
    const bulk = await server.api('POST', '/v1/services/bulk', { key: attacker.key, idempotency_key: idem('b'), body: { pin: attacker.pin, items } });
    if (bulk.status !== 202 && bulk.status !== 201) t.fail(`bulk: ${bulk.status} ${bulk.text.slice(0, 200)}`);
  }

  const quiet_run = await victim_purchases(server, victim.key, victim.pin, quiet_ms, victim_loops);
  const quiet = quiet_run.latencies;

  // The flood: what one signed-in tenant can send, on many connections at once.
  const flood_end = performance.now() + flood_ms;
  const flooding = () => performance.now() < flood_end;
  const answers = new Map<string, number>();
  const count = (what: string, status: number) => answers.set(`${what} ${status}`, (answers.get(`${what} ${status}`) ?? 0) + 1);
  const sign_in = async (): Promise<{ cookie: string; csrf: string } | null> => {
    const response = await server.request('POST', '/dashboard/api/session', { body: { email: attacker.email, password: attacker.password } });
    count('sign-in', response.status);
    if (response.status !== 201) return null;
    return { cookie: (response.headers.get('set-cookie') ?? '').split(';')[0], csrf: response.body.data.csrf_token };
  };
  const session = await sign_in();
  t.ok(session !== null, 'the attacker is signed in');
  const dashboard = (method: string, path: string, body?: unknown) => server.request(method, path, {
    body,
    headers: { cookie: session!.cookie, 'x-csrf-token': session!.csrf },
  });
  const loops: (() => Promise<void>)[] = [];
  const repeat = (n: number, what: string, send: (i: number) => Promise<number>) => {
    for (let c = 0; c < n; c++) {
      loops.push(async () => {
        for (let i = 0; flooding(); i++) count(what, await send(i));
      });
    }
  };
  // PIN changes by password and by the current PIN (the new PIN is the same, so both stay right).
  repeat(50, 'pin-by-password', async () => (await dashboard('POST', '/dashboard/api/pin', { new_pin: attacker.pin, password: attacker.password })).status);
  repeat(50, 'pin-by-pin', async () => (await dashboard('POST', '/dashboard/api/pin', { new_pin: attacker.pin, current_pin: attacker.pin })).status);
  // Sign-ins, right and wrong (made-up emails, so no lock stops them).
  repeat(8, 'sign-in', async () => (await sign_in()) === null ? 401 : 201);
  repeat(8, 'wrong sign-in', async (i) => (await server.request('POST', '/dashboard/api/session', { body: { email: `nobody-${i}-${Math.random()}@example.ng`, password: 'wrong' } })).status);
  // Purchases with a wrong PIN (scrypt each until the PIN locks).
  repeat(8, 'wrong-pin purchase', async () => (await buy(attacker.key, '99999')).status);
  // Exports, trend, bulk orders.
  repeat(2, 'orders export', async () => (await dashboard('GET', '/dashboard/api/export/orders?environment=test')).status);
  repeat(2, 'wallet export', async () => (await dashboard('GET', '/dashboard/api/export/wallet?environment=test')).status);
  repeat(2, 'trend', async () => (await dashboard('GET', '/dashboard/api/trend?environment=test')).status);
  repeat(2, 'bulk', async () => (await server.api('POST', '/v1/services/bulk', { key: attacker.key, idempotency_key: idem('f'), body: { pin: attacker.pin, items } })).status);

  const peaks: number[] = [];
  const watch = async () => {
    while (flooding()) {
      peaks.push((await scrypt_metrics(server)).scrypt_running_peak);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const before = await scrypt_metrics(server);
  const [loud_run] = await Promise.all([
    victim_purchases(server, victim.key, victim.pin, flood_ms, victim_loops),
    ...loops.map((loop) => loop()),
    watch(),
  ]);
  const loud = loud_run.latencies;
  const after = await scrypt_metrics(server);
  const flood_summary = [...answers].sort().map(([k, n]) => `${k}: ${n}`).join(', ');
  t.comment(`flood answers: ${flood_summary}`);
  t.comment(`scrypt runs during the flood: ${after.scrypt_runs - before.scrypt_runs}; peak at once since start: ${after.scrypt_running_peak}`);
  t.comment(`victim purchases: quiet ${quiet.length}, p50 ${percentile(quiet, 50).toFixed(1)} ms, p99 ${percentile(quiet, 99).toFixed(1)} ms; under the flood ${loud.length}, p50 ${percentile(loud, 50).toFixed(1)} ms, p99 ${percentile(loud, 99).toFixed(1)} ms, max ${Math.max(...loud).toFixed(1)} ms`);

  t.ok(after.scrypt_runs - before.scrypt_runs >= 20, `the flood made the server run scrypt (${after.scrypt_runs - before.scrypt_runs} runs)`);
  t.ok(after.scrypt_running_peak >= 2, `the lanes were full at some point (peak ${after.scrypt_running_peak})`);
  t.ok(after.scrypt_running_peak <= scrypt_running_allowed, `never more than ${scrypt_running_allowed} scrypt runs at once (peak ${after.scrypt_running_peak}; read during the flood: ${Math.max(...peaks)})`);
  t.same(Object.keys(quiet_run.statuses), ['201'], `every quiet victim purchase was taken (${JSON.stringify(quiet_run.statuses)})`);
  t.same(Object.keys(loud_run.statuses), ['201'], `every victim purchase under the flood was taken (${JSON.stringify(loud_run.statuses)})`);
  t.ok(loud.length >= 50, `the victim kept buying under the flood (${loud.length} purchases in ${flood_ms / 1000} s)`);
  t.ok(percentile(loud, 99) < victim_p99_ms_max, `the victim's p99 under the flood is below ${victim_p99_ms_max} ms (${percentile(loud, 99).toFixed(1)} ms)`);
  t.ok((answers.get('pin-by-password 429') ?? 0) + (answers.get('pin-by-pin 429') ?? 0) > 0, 'the attacker\'s PIN changes met the dashboard\'s rate limit');
  t.ok((answers.get('pin-by-password 200') ?? 0) + (answers.get('pin-by-pin 200') ?? 0) > 0, 'and some were made (each a password or PIN check and a new hash)');
});
