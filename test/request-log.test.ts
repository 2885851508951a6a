// The request log (docs/operations.md "Logs"): each request's line says the error code of its answer and whether
// the answer was an idempotent replay, so a refusal or a retried purchase is read from the log without the body;
// LOG_FORMAT=pretty writes the same records as pino-pretty lines for a terminal.
import t from 'tap';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { cli_path, start_server, temp_dir } from './helpers/server.js';
import { request_log_lines, run_cli, wait_for } from './helpers/fixtures-http.js';
import { airtime_body, sandbox } from './helpers/purchases.js';

const server = await start_server(t);

t.test('a request\'s log line carries the error code and the replay flag of its answer', async (t) => {
  const account = await server.reseller(10_000, {}, { rate_limit_per_minute: 1_000_000 });
  const line_of = async (response: { headers: Headers }) => {
    const lines = await request_log_lines(server, response.headers.get('x-request-id')!);
    t.equal(lines.length, 1, 'one line per request');
    return lines[0]!;
  };

  const wrong_pin = await server.api('POST', '/v1/services/airtime', { key: account.key, idempotency_key: 'log-1', body: airtime_body(sandbox.delivered, 100, { pin: '99999' }) });
  t.equal(wrong_pin.status, 403, 'a wrong PIN is refused');
  const refused = await line_of(wrong_pin);
  t.equal(refused.error_code, 'pin.incorrect', 'its line names pin.incorrect');
  t.equal(refused.replayed, false, 'and no replay');
  t.equal(refused.status, 403, 'beside its status');

  const bought = await server.api('POST', '/v1/services/airtime', { key: account.key, idempotency_key: 'log-2', body: airtime_body(sandbox.delivered, 100, { pin: account.pin }) });
  t.equal(bought.status, 201, 'a purchase');
  const first = await line_of(bought);
  t.equal(first.error_code, null, 'a success has no error code');
  t.equal(first.replayed, false, 'the first answer is no replay');
  const again = await server.api('POST', '/v1/services/airtime', { key: account.key, idempotency_key: 'log-2', body: airtime_body(sandbox.delivered, 100, { pin: account.pin }) });
  t.equal(again.headers.get('idempotent-replayed'), 'true', 'the same key again is replayed');
  t.equal((await line_of(again)).replayed, true, 'and its line says replayed: true');

  const invalid_body = airtime_body(sandbox.delivered, 100, { pin: account.pin, phone: '12' });
  const invalid = await server.api('POST', '/v1/services/airtime', { key: account.key, idempotency_key: 'log-3', body: invalid_body });
  t.equal((await line_of(invalid)).error_code, 'validation.failed', 'a bad body: validation.failed');
  const invalid_again = await server.api('POST', '/v1/services/airtime', { key: account.key, idempotency_key: 'log-3', body: invalid_body });
  const replayed_refusal = await line_of(invalid_again);
  t.equal(replayed_refusal.error_code, 'validation.failed', 'a replayed refusal keeps its code');
  t.equal(replayed_refusal.replayed, true, 'and says it was replayed');

  const unknown = await server.api('GET', '/v1/nowhere', { key: account.key });
  t.equal((await line_of(unknown)).error_code, 'route.not_found', 'an unknown route: route.not_found');
});

t.test('LOG_FORMAT=pretty writes pino-pretty lines, one per record, and a bad LOG_FORMAT stops the start', async (t) => {
  const data_dir = temp_dir();
  t.teardown(() => rmSync(data_dir, { recursive: true, force: true }));
  const child = spawn(process.execPath, [cli_path, 'serve'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', ADMIN_PORT: '0', HOST: '127.0.0.1', DATA_DIR: data_dir, DEMO: '0', ADMIN_TOKEN: randomBytes(24).toString('base64url'), LOG_FORMAT: 'pretty' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.teardown(() => void child.kill('SIGKILL'));
  const lines: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
  const listening = await wait_for(() => lines.find((line) => / INFO: listening /.test(line)), 20_000, 'the pretty listening line');
  t.match(listening, /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: listening \{.*"port":\d+/, 'a time, the level in words, the message, then its fields on the same line');
  const port = Number(/"port":(\d+)/.exec(listening)![1]);
  const answer = await fetch(`http://127.0.0.1:${port}/v1/wallet`);
  t.equal(answer.status, 401, 'a request without a key');
  const request_line = await wait_for(() => lines.find((line) => / INFO: request /.test(line)), 5000, 'the pretty request line');
  t.match(request_line, /"error_code":"auth\.invalid_key"/, 'the request line carries its error code');
  t.notMatch(lines.join('\n'), /^\{"level"/m, 'no JSON line');
  child.kill('SIGTERM');
  t.equal(await exited, 0, 'the server stops cleanly');

  const bad = await run_cli(['serve'], { PORT: '0', ADMIN_PORT: '0', DATA_DIR: data_dir, LOG_FORMAT: 'colour' });
  t.equal(bad.code, 2, 'LOG_FORMAT=colour exits 2');
  t.match(bad.stderr, /LOG_FORMAT must be json or pretty/, 'and says what it takes');
});
