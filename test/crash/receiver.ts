// The crash campaign's webhook receiver: one real HTTPS server (the test CA of
// test/helpers/webhook-receiver.ts) for every endpoint of the campaign, each at its own path with its
// own secret, verifying both signatures as a reseller's receiver would. It lives in the test process,
// so it outlives every kill -9 of the server and remembers every request across restarts.
//
// It answers from a worker thread, not from the test's event loop: the campaign's store checks read the
// whole store synchronously for seconds, and a receiver on that loop left the server's deliveries
// unanswered meanwhile (two events went dead in the partition campaign of 2026-11-29, seed 9296). A
// reseller's receiver is not stalled by the reseller's batch jobs either. Each request reaches the test
// as a message, stamped with the worker's own clock.
//
// The first attempt of about one event in six is answered 500, so that retries happen under the kills;
// every later attempt of an event is answered 200. An event can therefore never go dead (6 failures in
// one series), and "delivered at least once" is a strict expectation.
import { Worker } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tls_dir } from '../helpers/webhook-receiver.js';

export interface CrashReceived {
  tag: string;
  at_ms: number;
  event_id: string | undefined;
  event_header: string | undefined;
  body: string;
  json: any;
  service_signature_ok: boolean;
  standard_signature_ok: boolean;
  answered: number;
}

/** Share of events whose first attempt is answered 500. */
export const first_attempt_failure_ratio = 1 / 6;

// CommonJS evaluated in the worker (no TypeScript loader there). The two signature checks are those of
// test/helpers/webhook-receiver.ts (verify_service_signature, verify_standard_signature), written out
// again because the worker cannot import a .ts module; test/crash/receiver.test.ts holds them to the
// same answers.
const worker_source = `
const { workerData, parentPort } = require('node:worker_threads');
const { createServer } = require('node:https');
const { createHash, createHmac, timingSafeEqual } = require('node:crypto');
const { key, cert, failure_ratio } = workerData;
const secrets = new Map();
const attempts = new Map();
const sockets = new Set();
const equal = (a, b) => { const x = Buffer.from(a), y = Buffer.from(b); return x.length === y.length && timingSafeEqual(x, y); };
const service_ok = (secret, body, header) => header !== undefined && equal('sha256=' + createHmac('sha256', secret).update(body).digest('hex'), header);
const standard_ok = (secret, id, timestamp, body, header) => {
  if (id === undefined || timestamp === undefined || header === undefined) return false;
  const expected = 'v1,' + createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64')).update(id + '.' + timestamp + '.' + body).digest('base64');
  return header.split(' ').some((candidate) => equal(expected, candidate));
};
const fails_first_attempt = (event_id) => createHash('sha256').update(event_id).digest()[0] < 256 * failure_ratio;
const server = createServer({ key, cert }, (req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const tag = (req.url || '').replace(/^\\/hooks\\//, '');
    const secret = secrets.get(tag) || '';
    let json = null;
    try { json = JSON.parse(body); } catch { json = null; }
    const h = req.headers;
    const event_id = h['webhook-id'];
    const service_signature_ok = service_ok(secret, body, h['x-service-signature']);
    const standard_signature_ok = standard_ok(secret, event_id, h['webhook-timestamp'], body, h['webhook-signature']);
    const k = tag + ' ' + event_id;
    const attempt = (attempts.get(k) || 0) + 1;
    attempts.set(k, attempt);
    let answered = 200;
    // A bad signature is answered 400, as the spec's sample receivers do; the campaign counts it.
    if (!service_signature_ok || !standard_signature_ok) answered = 400;
    else if (attempt === 1 && event_id !== undefined && fails_first_attempt(event_id)) answered = 500;
    res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered === 200 ? 'ok' : 'no');
    parentPort.postMessage({ type: 'received', record: { tag, at_ms: Date.now(), event_id, event_header: h['x-service-event'], body, json, service_signature_ok, standard_signature_ok, answered } });
  });
});
server.on('secureConnection', (socket) => { sockets.add(socket); socket.on('close', () => sockets.delete(socket)); });
parentPort.on('message', (m) => {
  if (m.type === 'secret') { secrets.set(m.tag, m.secret); parentPort.postMessage({ type: 'ack', id: m.id }); }
  else if (m.type === 'stop') { for (const s of sockets) s.destroy(); server.close(() => parentPort.postMessage({ type: 'stopped' })); }
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ type: 'listening', port: server.address().port }));
`;

export class CrashReceiver {
  readonly received: CrashReceived[] = [];
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, () => void>();
  private next_id = 0;
  port = 0;
  last_request_ms = 0;

  url(tag: string): string {
    return `https://localhost:${this.port}/hooks/${tag}`;
  }

  /** Resolves once the worker holds the secret, so no delivery for `tag` can be checked without it. */
  set_secret(tag: string, secret: string): Promise<void> {
    const id = ++this.next_id;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker!.postMessage({ type: 'secret', tag, secret, id });
    });
  }

  async start(): Promise<void> {
    const worker = new Worker(worker_source, {
      eval: true,
      workerData: { key: readFileSync(join(tls_dir, 'receiver-key.pem'), 'utf8'), cert: readFileSync(join(tls_dir, 'receiver-cert.pem'), 'utf8'), failure_ratio: first_attempt_failure_ratio },
    });
    this.worker = worker;
    this.port = await new Promise<number>((resolve, reject) => {
      worker.once('error', reject);
      worker.on('message', (m: { type: string; port?: number; id?: number; record?: CrashReceived }) => {
        if (m.type === 'listening') resolve(m.port!);
        else if (m.type === 'received') {
          this.received.push(m.record!);
          this.last_request_ms = Math.max(this.last_request_ms, m.record!.at_ms);
        } else if (m.type === 'ack') {
          this.waiting.get(m.id!)?.();
          this.waiting.delete(m.id!);
        }
      });
    });
  }

  /** Event ids the receiver acknowledged (answered 200) with both signatures valid. */
  acknowledged_ids(): Set<string> {
    const out = new Set<string>();
    for (const r of this.received) if (r.answered === 200 && r.event_id !== undefined) out.add(r.event_id);
    return out;
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    if (worker === null) return;
    this.worker = null;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5_000);
      worker.on('message', (m: { type: string }) => {
        if (m.type === 'stopped') {
          clearTimeout(timer);
          resolve();
        }
      });
      worker.postMessage({ type: 'stop' });
    });
    await worker.terminate();
  }
}
