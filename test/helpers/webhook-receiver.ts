// A real HTTPS webhook receiver for the tests, with a private CA the server trusts through
// NODE_EXTRA_CA_CERTS. It verifies both signatures in constant time, as a reseller's receiver would:
// X-Service-Signature (sha256= + hex HMAC of the raw body with the secret) and the Standard Webhooks
// webhook-signature (v1, + base64 HMAC of "id.timestamp.body" with the secret's base64 key bytes).
import { createServer, type Server } from 'node:https';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { repo_root } from './server.js';

export const tls_dir = join(repo_root, 'test', 'fixtures', 'tls');
export const ca_path = join(tls_dir, 'ca.pem');

export interface Received {
  at_ms: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: any;
  service_signature_ok: boolean;
  standard_signature_ok: boolean;
  answered: number | 'hang' | 'reset';
}

export type Behaviour = number | 'hang' | 'reset';

function equal(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

export function verify_service_signature(secret: string, body: string, header: string | undefined): boolean {
  const expected = 'sha256=' + createHmac('sha256', secret).update(body).digest('hex');
  return header !== undefined && equal(expected, header);
}

export function verify_standard_signature(secret: string, id: string | undefined, timestamp: string | undefined, body: string, header: string | undefined): boolean {
  if (id === undefined || timestamp === undefined || header === undefined) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = 'v1,' + createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return header.split(' ').some((candidate) => equal(expected, candidate));
}

export class WebhookReceiver {
  readonly received: Received[] = [];
  /** Secret to verify with (set after registration). */
  secret = '';
  /** Answers for the next requests, in order; when empty, `otherwise` applies. */
  script: Behaviour[] = [];
  otherwise: Behaviour = 200;
  /** While set, requests wait unanswered until release() (then get their behaviour). */
  holding = false;
  private held: (() => void)[] = [];
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private waiters: (() => void)[] = [];
  port = 0;

  get url(): string {
    return `https://localhost:${this.port}/hooks`;
  }

  async start(): Promise<void> {
    this.server = createServer({ key: readFileSync(join(tls_dir, 'receiver-key.pem')), cert: readFileSync(join(tls_dir, 'receiver-cert.pem')) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const behaviour = this.script.length > 0 ? this.script.shift()! : this.otherwise;
        let json: any = null;
        try {
          json = JSON.parse(body);
        } catch {
          json = null;
        }
        const headers = req.headers;
        const service_signature_ok = verify_service_signature(this.secret, body, headers['x-service-signature'] as string | undefined);
        const standard_signature_ok = verify_standard_signature(this.secret, headers['webhook-id'] as string | undefined, headers['webhook-timestamp'] as string | undefined, body, headers['webhook-signature'] as string | undefined);
        this.received.push({ at_ms: Date.now(), headers, body, json, service_signature_ok, standard_signature_ok, answered: behaviour });
        for (const wake of this.waiters.splice(0)) wake();
        if (behaviour === 'hang') return; // never answers
        if (behaviour === 'reset') {
          req.socket.destroy();
          return;
        }
        const answer = () => {
          // The sample receivers answer 400 on a bad signature (docs/spec.md section 6).
          if (!service_signature_ok) res.writeHead(400).end('bad signature');
          else res.writeHead(behaviour, { 'content-type': 'text/plain' }).end('ok');
        };
        if (this.holding) this.held.push(answer);
        else answer();
      });
    });
    this.server.on('secureConnection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Resolves when at least n requests have arrived (or rejects after timeout_ms). */
  async wait_for(n: number, timeout_ms = 15_000): Promise<Received[]> {
    const deadline = Date.now() + timeout_ms;
    while (this.received.length < n) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`receiver got ${this.received.length} of ${n} requests in ${timeout_ms} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.received;
  }

  /** Stops holding and answers every held request. */
  release(): void {
    this.holding = false;
    for (const answer of this.held.splice(0)) answer();
  }

  events(kind?: string): Received[] {
    return this.received.filter((r) => kind === undefined || r.json?.event === kind);
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Env for a server that delivers to receivers with the test CA. */
export function webhook_env(extra: Record<string, string> = {}): Record<string, string> {
  return { NODE_EXTRA_CA_CERTS: ca_path, WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', ...extra };
}
