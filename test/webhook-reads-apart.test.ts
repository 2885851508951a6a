// Webhook delivery state is kept apart from the account (webhooks/dispatcher.ts): an attempt's
// bookkeeping (the delivery record, its queue entry, a dead letter) is staged straight in the journal,
// so it never makes a read of the account wait for a commit. Regression: every attempt was recorded
// through the account actor, so with a receiver failing and deliveries retried constantly, wallet reads
// of that account kept waiting for group commits of webhook bookkeeping.
//
// Not a timing test: the server counts the reads that had to wait for a commit
// (billvend_reads_waited_total on /metrics). The receiver below holds every attempt until the test
// answers it 500 and at once reads the wallet, while the server records that attempt: those reads
// must leave the counter as it was, while a read sent beside a write of the account makes it grow,
// which shows that the counter counts.
import t from 'tap';
import { createServer, type Server } from 'node:https';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import { start_server } from './helpers/server.js';
import { tls_dir, webhook_env } from './helpers/webhook-receiver.js';

// The retry schedule 30 s, 5 min, 30 min, 2 h, 8 h becomes 3 ms, 30 ms, 180 ms, 720 ms, 2.88 s.
const server = await start_server(t, { env: webhook_env({ TIME_SCALE: '0.0001', LOG_LEVEL: 'warn' }) });

/** Deliveries failing at once: 6 attempts each, more than the attempts watched below. */
const deliveries_count = 10;
/** Attempts answered one at a time, each followed by wallet reads. */
const attempts_watched = 30;
/** Wallet reads sent at once after each answered attempt. */
const reads_per_attempt = 3;
/** Tries of a read beside a write before concluding that the counter never counts. */
const write_tries_max = 20;

/** An HTTPS receiver that holds each request until the test answers it. */
class HoldingReceiver {
  private readonly held: ((status: number) => void)[] = [];
  private readonly waiters: (() => void)[] = [];
  private readonly sockets = new Set<Socket>();
  private server: Server | null = null;
  url = '';
  received = 0;

  async start(): Promise<void> {
    this.server = createServer({ key: readFileSync(join(tls_dir, 'receiver-key.pem')), cert: readFileSync(join(tls_dir, 'receiver-cert.pem')) }, (req, res) => {
      req.resume();
      req.on('end', () => {
        this.received++;
        this.held.push((status) => res.writeHead(status, { 'content-type': 'text/plain' }).end('no'));
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
    this.server.on('secureConnection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `https://localhost:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Answers the oldest held request, waiting up to timeout_ms for one to arrive. */
  async answer_next(status: number, timeout_ms: number): Promise<void> {
    const deadline = Date.now() + timeout_ms;
    while (this.held.length === 0) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no webhook attempt arrived in ${timeout_ms} ms (${this.received} so far)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    this.held.shift()!(status);
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

async function reads_waited(): Promise<number> {
  const response = await server.admin('GET', '/metrics');
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  const line = response.text.split('\n').find((each) => each.startsWith('billvend_reads_waited_total '));
  if (line === undefined) throw new Error('/metrics has no billvend_reads_waited_total');
  return Number(line.split(' ')[1]);
}

t.test('wallet reads do not wait for the bookkeeping of webhook deliveries retried constantly, while a read beside a write does wait', async (t) => {
  const receiver = new HoldingReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  const account = await server.reseller(100_000, {}, { rate_limit_per_minute: 1_000_000 });
  const created = await server.api('POST', '/v1/webhooks', { key: account.key, body: { url: receiver.url, events: ['wallet.credited'] } });
  t.equal(created.status, 201, `the endpoint is registered: ${created.text}`);
  const endpoint_id = created.body.data.id;

  // Writes are not counted, only reads: no read runs beside the credits.
  const before = await reads_waited();
  const credits = await Promise.all(Array.from({ length: deliveries_count }, () => server.credit(account.id, 'test', 100, `R-${randomBytes(5).toString('hex')}`)));
  for (const [i, credited] of credits.entries()) t.equal(credited.status, 201, `credit ${i + 1} is made, and with it a delivery: ${credited.text}`);

  // From here on only webhook attempts change anything: each is answered 500 and the wallet read at
  // once, while the server records the failure and plans the retry.
  let reads = 0;
  for (let i = 0; i < attempts_watched; i++) {
    await receiver.answer_next(500, 20_000);
    const answers = await Promise.all(Array.from({ length: reads_per_attempt }, () => server.api('GET', '/v1/wallet', { key: account.key })));
    for (const answer of answers) t.equal(answer.status, 200, `the wallet read after attempt ${i + 1} answers 200`);
    reads += answers.length;
  }
  const after = await reads_waited();
  t.equal(after - before, 0, `none of the ${reads} wallet reads sent as ${attempts_watched} attempts were recorded waited for a commit (counter ${before} -> ${after})`);

  const listed = await server.api('GET', `/v1/webhooks/${endpoint_id}/deliveries?per_page=100`, { key: account.key });
  t.equal(listed.status, 200, `the deliveries are listed: ${listed.text}`);
  const attempts = listed.body.data.deliveries.reduce((sum: number, d: any) => sum + d.attempts.length, 0);
  t.ok(attempts >= attempts_watched, `the deliveries record the attempts answered (${attempts} recorded, at least ${attempts_watched})`);
  t.ok(listed.body.data.deliveries.every((d: any) => d.attempts.every((a: any) => a.status_code === 500)), 'every recorded attempt is the receiver\'s 500');

  // The counter counts: a wallet read sent beside a write of the account waits for that write's commit.
  let tries = 0;
  let grown = 0;
  while (grown === 0 && tries < write_tries_max) {
    tries++;
    const made = await server.api('POST', '/v1/keys', { key: account.key, body: { name: `spare ${tries}`, environment: 'test' } });
    t.equal(made.status, 201, `spare key ${tries} is created: ${made.text}`);
    const start = await reads_waited();
    // A revocation has no body, so the server reads it whole as it arrives, before the read sent after it.
    const write = server.api('DELETE', `/v1/keys/${made.body.data.id}`, { key: account.key });
    const read = server.api('GET', '/v1/wallet', { key: account.key });
    const [written, read_answer] = await Promise.all([write, read]);
    t.equal(written.status, 200, `revocation ${tries} answers 200: ${written.text}`);
    t.equal(read_answer.status, 200, `the read beside write ${tries} answers 200`);
    grown = (await reads_waited()) - start;
  }
  t.ok(grown > 0, `a wallet read sent beside a write of the account was counted as waiting for a commit (after ${tries} tries)`);
});
