// FUNDING_PROVIDERS (docs/operations.md "Funding providers"): a mistake stops `serve` at start with a message that
// names the entry and the field, never printing a credential; a kind this build has no module for says so.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cli_path, temp_dir } from './helpers/server.js';

const secret = 'MONNIFY-SECRET-never-printed-91ab';

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

const good = { name: 'monnify', kind: 'monnify', base_url: 'https://sandbox.monnify.com', api_key: 'MK_TEST_X', secret_key: secret, contract_code: '1234567890' };

t.test('bad FUNDING_PROVIDERS settings stop the server naming the entry and the field, and never print a credential', async (t) => {
  const rows: [string, string, RegExp][] = [
    ['not JSON', `[{"name":"a","secret_key":"${secret}"`, /FUNDING_PROVIDERS must be a JSON array/],
    ['not an array', '{}', /FUNDING_PROVIDERS must be a JSON array/],
    ['an unknown kind', JSON.stringify([{ ...good, kind: 'opay' }]), /entry 1 \(monnify\): kind must be one of monnify, paystack, flutterwave/],
    ['a name twice', JSON.stringify([good, { ...good }]), /entry 2: the name "monnify" is used twice/],
    ['a base URL with a path', JSON.stringify([{ ...good, base_url: 'https://api.monnify.com/api/v1' }]), /base_url must be the bare origin/],
    ['monnify without contract_code', JSON.stringify([{ ...good, contract_code: undefined }]), /a monnify provider needs contract_code/],
    ['flutterwave without secret_hash', JSON.stringify([{ name: 'flw', kind: 'flutterwave', base_url: 'https://api.flutterwave.com', api_key: 'x', secret_key: secret }]), /a flutterwave provider needs secret_hash/],
    ['secret_hash on monnify', JSON.stringify([{ ...good, secret_hash: 'h' }]), /secret_hash is for flutterwave providers/],
    ['an unknown field', JSON.stringify([{ ...good, password: secret }]), /unknown field "password"/],
    ['a short timeout', JSON.stringify([{ ...good, timeout_ms: 5 }]), /timeout_ms must be an integer/],
  ];
  for (const [what, value, pattern] of rows) {
    const run = serve({ FUNDING_PROVIDERS: value });
    t.equal(run.status, 2, `${what}: the server does not start (exit 2)`);
    t.match(run.stderr, pattern, `${what}: the message says why`);
    t.notOk(run.stderr.includes(secret) || run.stdout.includes(secret), `${what}: the secret is not printed`);
  }
});
