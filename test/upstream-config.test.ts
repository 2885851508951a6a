// Upstream settings (docs/operations.md "Upstreams and routes"): UPSTREAMS names several live upstreams, checked whole
// before anything starts (a mistake is exit 2 naming the entry and the field, never a credential);
// today's PROVIDER_* settings still work and become the one upstream named "default".
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cli_path, start_server, temp_dir } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';

const secret = 'SECRET-never-printed-7f3a';

function serve(env: Record<string, string>): { status: number | null; stderr: string; stdout: string } {
  const data_dir = temp_dir();
  const run = spawnSync(process.execPath, [cli_path, 'serve'], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', ADMIN_PORT: '0', HOST: '127.0.0.1', DATA_DIR: data_dir, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  rmSync(data_dir, { recursive: true, force: true });
  return { status: run.status, stderr: run.stderr, stdout: run.stdout };
}

const good = { name: 'vtpass', kind: 'vtpass', base_url: 'https://vtpass.example', api_key: secret, secret_key: secret };

t.test('bad UPSTREAMS settings exit 2 naming the entry and the field, and never print a credential', async (t) => {
  const rows: [string, string, RegExp][] = [
    ['not JSON', `[{"name":"a","secret_key":"${secret}"`, /UPSTREAMS must be a JSON array/],
    ['an empty list', '[]', /non-empty JSON array/],
    ['an unknown kind', JSON.stringify([{ ...good, kind: 'paystack' }]), /entry 1 \(vtpass\): kind must be one of vtpass, flutterwave/],
    ['a bad name', JSON.stringify([{ ...good, name: 'Bad Name' }]), /entry 1: name must be/],
    ['a name twice', JSON.stringify([good, { ...good }]), /entry 2: the name "vtpass" is used twice/],
    ['a bad base URL', JSON.stringify([{ ...good, base_url: 'ftp://x' }]), /entry 1 \(vtpass\): base_url must be an http\(s\) URL/],
    ['a short timeout', JSON.stringify([{ ...good, timeout_ms: 5 }]), /timeout_ms must be an integer/],
    ['an unknown field', JSON.stringify([{ ...good, password: secret }]), /unknown field "password"/],
    ['flutterwave without its key', JSON.stringify([{ name: 'flw', kind: 'flutterwave', base_url: 'https://api.flutterwave.com', api_key: secret }]), /flutterwave upstream needs secret_key/],
    ['a short callback token', JSON.stringify([{ ...good, callback_token: `${secret.slice(0, 20)}!` }]), /entry 1 \(vtpass\): callback_token must be 32-128 letters/],
    ['a callback token on flutterwave', JSON.stringify([{ name: 'flw', kind: 'flutterwave', base_url: 'https://api.flutterwave.com', secret_key: secret, callback_token: 'x'.repeat(40) }]), /callback_token is for vtpass upstreams/],
  ];
  for (const [what, value, pattern] of rows) {
    const run = serve({ UPSTREAMS: value });
    t.equal(run.status, 2, `${what}: exit 2`);
    t.match(run.stderr, pattern, `${what}: the message says what is wrong (${run.stderr.trim().slice(0, 160)})`);
    t.notMatch(run.stderr + run.stdout, secret, `${what}: no credential is printed`);
  }
  const both = serve({ UPSTREAMS: JSON.stringify([good]), PROVIDER_BASE_URL: 'https://vtpass.example' });
  t.equal(both.status, 2, 'UPSTREAMS and PROVIDER_BASE_URL together: exit 2');
  t.match(both.stderr, /either UPSTREAMS or PROVIDER_BASE_URL/, 'UPSTREAMS and PROVIDER_BASE_URL together: the message names both');
});

t.test('PROVIDER_* settings become the one upstream named "default"; a server with UPSTREAMS never shows a credential', async (t) => {
  const upstream = await start_upstream(t);
  const single = await start_server(t, { env: upstream.env(1000) });
  const routes = await single.admin('GET', '/admin/routes');
  t.equal(routes.status, 200, 'the routes are readable');
  t.same(routes.body.data.default, ['default'], 'the default route is the one upstream of the PROVIDER_* settings');
  t.same(routes.body.data.upstreams.map((u: any) => `${u.name}:${u.kind}`), ['default:vtpass'], 'named "default", of kind vtpass');
  await single.stop();

  const several = await start_server(t, {
    env: {
      UPSTREAMS: JSON.stringify([
        { name: 'vtpass', kind: 'vtpass', base_url: upstream.base_url, api_key: secret, secret_key: secret },
        { name: 'flw', kind: 'flutterwave', base_url: 'http://127.0.0.1:9', secret_key: secret },
      ]),
      LOG_LEVEL: 'debug',
    },
  });
  const shown = await several.admin('GET', '/admin/routes');
  t.same(shown.body.data.default, ['vtpass', 'flw'], 'the default route lists UPSTREAMS in order');
  t.notMatch(shown.text, secret, 'GET /admin/routes shows no credential');
  const metrics = await several.request('GET', '/metrics', { key: null, headers: { authorization: `Bearer ${several.admin_token}` } }, several.admin_base);
  t.notMatch(metrics.text, secret, '/metrics shows no credential');
  t.notOk(several.logs.some((line) => line.includes(secret)), 'no log line carries a credential');
});
