// The funding bank settings (docs/operations.md "Configuration"): FUNDING_BANK_NAME,
// FUNDING_ACCOUNT_NUMBER and FUNDING_ACCOUNT_NAME go together and are checked before anything starts,
// so that a half-configured server never shows resellers an account they cannot pay into.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cli_path, temp_dir } from './helpers/server.js';

function serve(env: Record<string, string>): { status: number | null; stderr: string } {
  const data_dir = temp_dir();
  const run = spawnSync(process.execPath, [cli_path, 'serve'], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', ADMIN_PORT: '0', HOST: '127.0.0.1', DATA_DIR: data_dir, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  rmSync(data_dir, { recursive: true, force: true });
  return { status: run.status, stderr: run.stderr };
}

t.test('incomplete or malformed funding bank settings exit 2 with the setting named', async (t) => {
  const whole = { FUNDING_BANK_NAME: 'Providus Bank', FUNDING_ACCOUNT_NUMBER: '9912345678', FUNDING_ACCOUNT_NAME: 'Billvend Collections Ltd' };
  for (const [env, pattern] of [
    [{ FUNDING_BANK_NAME: 'Providus Bank' }, /FUNDING_BANK_NAME, FUNDING_ACCOUNT_NUMBER and FUNDING_ACCOUNT_NAME go together/],
    [{ ...whole, FUNDING_ACCOUNT_NAME: '' }, /go together/],
    [{ ...whole, FUNDING_ACCOUNT_NUMBER: '99-123' }, /FUNDING_ACCOUNT_NUMBER must be 6 to 20 digits/],
    [{ ...whole, FUNDING_BANK_NAME: 'x'.repeat(101) }, /FUNDING_BANK_NAME must be at most 100 printable characters/],
    [{ ...whole, FUNDING_ACCOUNT_NAME: 'Billvend\u0007Ltd' }, /FUNDING_ACCOUNT_NAME must be at most 100 printable characters/],
  ] as [Record<string, string>, RegExp][]) {
    const run = serve(env);
    t.equal(run.status, 2, `${JSON.stringify(env)}: exit 2`);
    t.match(run.stderr, pattern, `${JSON.stringify(env)}: names the setting`);
  }
});
