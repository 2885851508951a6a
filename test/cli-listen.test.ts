// `billvend listen` and `billvend trigger` (docs/api.md "Webhooks on your laptop"): listen follows the events feed
// and forwards each new event to a local plain-HTTP receiver, signed as a real delivery; the receiver verifies it
// with the reference Standard Webhooks verifier (the `standardwebhooks` package), not with our own code, and with
// X-Service-Signature. trigger makes the sandbox purchase that emits the kind asked.
import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { Webhook } from 'standardwebhooks';
import { cli_path, repo_root, start_server } from './helpers/server.js';
import { run_cli, wait_for } from './helpers/fixtures-http.js';
import { verify_service_signature } from './helpers/webhook-receiver.js';

const server = await start_server(t, { env: { TIME_SCALE: '0.001', LOG_LEVEL: 'warn' } });

interface Got {
  id: string;
  kind: string;
  body: string;
  headers: Record<string, string>;
  standard_ok: boolean;
  service_ok: boolean;
}

/** A reseller's receiver on a laptop: plain HTTP, verifying with the standardwebhooks package. */
class LocalReceiver {
  readonly got: Got[] = [];
  secret = '';
  /** Status answered to the nth request (1-based); 200 otherwise. */
  answers = new Map<number, number>();
  private http: Server | null = null;
  port = 0;

  async start(): Promise<void> {
    this.http = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = Object.fromEntries(Object.entries(request.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
        let standard_ok = false;
        try {
          new Webhook(this.secret).verify(body, headers);
          standard_ok = true;
        } catch {
          standard_ok = false;
        }
        const service_ok = verify_service_signature(this.secret, body, headers['x-service-signature']);
        this.got.push({ id: headers['webhook-id'] ?? '', kind: headers['x-service-event'] ?? '', body, headers, standard_ok, service_ok });
        response.writeHead(this.answers.get(this.got.length) ?? 200, { 'content-type': 'text/plain' });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.http!.listen(0, '127.0.0.1', resolve));
    this.port = (this.http.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.http?.closeAllConnections();
    await new Promise<void>((resolve) => (this.http === null ? resolve() : this.http.close(() => resolve())));
  }
}

interface Listening {
  child: ChildProcess;
  lines: string[];
  secret: string;
  exited: Promise<number | null>;
}

async function listen(args: string[], env: Record<string, string>): Promise<Listening> {
  const child = spawn(process.execPath, [cli_path, 'listen', ...args], { cwd: repo_root, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
  const ready = await wait_for(() => lines.find((line) => line.startsWith('Ready.')), 10_000, `listen's Ready line (stderr: ${stderr})`);
  const secret = /signing secret is (whsec_\S+)/.exec(ready)?.[1] ?? '';
  return { child, lines, secret, exited };
}

t.test('listen forwards each new event, signed so that the standardwebhooks verifier accepts it, and prints its answer', async (t) => {
  const account = await server.reseller(100_000, {}, { rate_limit_per_minute: 1_000_000 });
  const receiver = new LocalReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  const api = { BILLVEND_API_URL: server.base, BILLVEND_KEY: account.key };

  // Made before listen starts: not forwarded (listen forwards events from now on).
  const earlier = await run_cli(['trigger', 'wallet.credited'], api);
  t.equal(earlier.code, 0, `trigger wallet.credited exits 0: ${earlier.stderr}`);
  const before = (await server.api('GET', '/v1/events?limit=100', { key: account.key })).body.data.events as { event: string }[];
  t.same(before.map((event) => event.event), ['wallet.credited', 'wallet.credited'], 'before listen: the account\'s funding and the triggered credit');

  const listening = await listen(['--forward-to', `http://127.0.0.1:${receiver.port}/hooks`, '--poll-ms', '100'], api);
  t.teardown(() => void listening.child.kill('SIGKILL'));
  t.match(listening.secret, /^whsec_[A-Za-z0-9]{32}$/, 'listen prints a whsec_ secret as the API makes them');
  receiver.secret = listening.secret;
  receiver.answers.set(2, 500);

  const completed = await run_cli(['trigger', 'transaction.completed', '--pin', account.pin], api);
  t.equal(completed.code, 0, `trigger transaction.completed exits 0: ${completed.stderr}`);
  t.match(completed.stderr, /triggered transaction\.completed: .*BV-\d{8}-[0-9A-Z]{12}; events: wallet\.debited, transaction\.completed/, 'it says what it made and which events follow');
  const reference = JSON.parse(completed.stdout).reference as string;
  const failed = await run_cli(['trigger', 'transaction.failed'], { ...api, BILLVEND_PIN: account.pin });
  t.equal(failed.code, 0, `trigger transaction.failed exits 0 (the refusal is what it asked for): ${failed.stderr}`);

  await wait_for(() => receiver.got.length >= 5, 10_000, 'five forwarded events');
  const feed = await server.api('GET', '/v1/events?limit=100', { key: account.key });
  const feed_events = feed.body.data.events as { id: string; event: string }[];
  const since_listen = feed_events.slice(before.length);
  t.same(receiver.got.map((got) => [got.kind, got.id]), since_listen.map((event) => [event.event, event.id]), 'the receiver got every event since listen started, in the feed\'s order, and not the earlier one');
  t.same(receiver.got.map((got) => got.kind), ['wallet.debited', 'transaction.completed', 'wallet.debited', 'transaction.failed', 'wallet.reversed'], 'the events the two triggers emit');
  for (const got of receiver.got) {
    t.ok(got.standard_ok, `${got.kind} ${got.id}: the standardwebhooks verifier accepts the webhook-signature`);
    t.ok(got.service_ok, `${got.kind} ${got.id}: X-Service-Signature verifies too`);
    t.equal(got.headers['content-type'], 'application/json', 'sent as JSON, as a delivery is');
    t.equal(got.headers['user-agent'], 'billvend-webhooks/1', 'with a delivery\'s user agent');
  }
  const feed_text = feed.text;
  for (const got of receiver.got) t.ok(feed_text.includes(got.body), `${got.kind}: the body is the event's JSON byte for byte`);
  t.equal(JSON.parse(receiver.got[1]!.body).data.reference, reference, 'transaction.completed names the order trigger bought');

  const tampered = { ...receiver.got[0]!.headers };
  t.throws(() => new Webhook(listening.secret).verify(receiver.got[0]!.body.replace('"amount":100', '"amount":101'), tampered), 'a changed body fails the same verifier: the check above can fail');

  await wait_for(() => listening.lines.length >= 6, 5000, 'one line per event');
  const event_lines = listening.lines.slice(1);
  t.equal(event_lines.length, 5, 'one line per forwarded event');
  for (const [i, got] of receiver.got.entries()) {
    t.match(event_lines[i], new RegExp(`^\\d{2}:\\d{2}:\\d{2}  --> ${got.kind.replace('.', '\\.')} \\[${got.id}\\]  <-- ${i === 1 ? 500 : 200}$`), `line ${i + 1}: time, kind, id and the local answer's status`);
  }

  listening.child.kill('SIGINT');
  t.equal(await listening.exited, 0, 'Ctrl-C stops listen with exit 0');
});

t.test('listen with --secret and --events signs with that secret and forwards only those kinds', async (t) => {
  const account = await server.reseller(100_000, {}, { rate_limit_per_minute: 1_000_000 });
  const receiver = new LocalReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  const api = { BILLVEND_API_URL: server.base, BILLVEND_KEY: account.key };
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const listening = await listen(['--forward-to', `http://127.0.0.1:${receiver.port}/hooks`, '--poll-ms', '100', '--secret', secret, '--events', 'batch.completed,transaction.failed'], api);
  t.teardown(() => void listening.child.kill('SIGKILL'));
  t.equal(listening.secret, secret, 'the secret given is the one announced');
  receiver.secret = secret;
  const batch = await run_cli(['trigger', 'batch.completed', '--pin', account.pin], api);
  t.equal(batch.code, 0, `trigger batch.completed exits 0: ${batch.stderr}`);
  await wait_for(() => receiver.got.length >= 2, 10_000, 'the failed item and the batch');
  t.same(receiver.got.map((got) => got.kind).sort(), ['batch.completed', 'transaction.failed'], 'only the kinds asked for');
  t.ok(receiver.got.every((got) => got.standard_ok), 'signed with the given secret');
  listening.child.kill('SIGTERM');
  t.equal(await listening.exited, 0, 'SIGTERM stops it too');
});

t.test('trigger refuses a live key, an unknown kind and a purchase without a PIN; listen needs a key and a URL', async (t) => {
  const account = await server.reseller(100_000, {}, { rate_limit_per_minute: 1_000_000 });
  const api = { BILLVEND_API_URL: server.base, BILLVEND_KEY: account.key };
  const live = await run_cli(['trigger', 'wallet.credited', '--key', 'bv_live_abc'], { BILLVEND_API_URL: server.base });
  t.equal(live.code, 2, 'a live key is a usage mistake');
  t.match(live.stderr, /test key/, 'it says a test key is needed');
  const unknown = await run_cli(['trigger', 'wallet.emptied'], api);
  t.equal(unknown.code, 2, 'an unknown kind exits 2');
  t.match(unknown.stderr, /transaction\.completed/, 'and lists the kinds');
  const no_pin = await run_cli(['trigger', 'transaction.completed'], api);
  t.equal(no_pin.code, 2, 'a purchase without a PIN exits 2');
  const wrong_pin = await run_cli(['trigger', 'transaction.completed', '--pin', '00000'], api);
  t.equal(wrong_pin.code, 1, 'a refused purchase exits 1');
  t.match(wrong_pin.stderr, /pin\.incorrect/, 'with the error code');
  const no_key = await run_cli(['listen', '--forward-to', 'http://localhost:3000/hooks'], { BILLVEND_API_URL: server.base });
  t.equal(no_key.code, 2, 'listen without a key exits 2');
  const no_url = await run_cli(['listen'], api);
  t.equal(no_url.code, 2, 'listen without --forward-to exits 2');
  const help = await run_cli(['trigger', '--help'], {});
  t.equal(help.code, 0, 'trigger --help exits 0');
  t.match(help.stdout, /batch\.completed +a bulk order/, 'and explains each kind');
});
