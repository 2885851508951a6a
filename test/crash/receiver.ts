// The crash campaign's webhook receiver: one real HTTPS server (the test CA of
// test/helpers/webhook-receiver.ts) for every endpoint of the campaign, each at its own path with its
// own secret, verifying both signatures as a reseller's receiver would. It lives in the test process,
// so it outlives every kill -9 of the server and remembers every request across restarts.
//
// The first attempt of about one event in six is answered 500, so that retries happen under the kills;
// every later attempt of an event is answered 200. An event can therefore never go dead (6 failures in
// one series), and "delivered at least once" is a strict expectation.
import { createServer, type Server } from 'node:https';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import { tls_dir, verify_service_signature, verify_standard_signature } from '../helpers/webhook-receiver.js';

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

function fails_first_attempt(event_id: string): boolean {
  return createHash('sha256').update(event_id).digest()[0] < 256 * first_attempt_failure_ratio;
}

export class CrashReceiver {
  readonly received: CrashReceived[] = [];
  private readonly secrets = new Map<string, string>();
  private readonly attempts = new Map<string, number>();
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;
  last_request_ms = 0;

  url(tag: string): string {
    return `https://localhost:${this.port}/hooks/${tag}`;
  }

  set_secret(tag: string, secret: string): void {
    this.secrets.set(tag, secret);
  }

  async start(): Promise<void> {
    this.server = createServer({ key: readFileSync(join(tls_dir, 'receiver-key.pem')), cert: readFileSync(join(tls_dir, 'receiver-cert.pem')) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const tag = (req.url ?? '').replace(/^\/hooks\//, '');
        const secret = this.secrets.get(tag) ?? '';
        let json: any = null;
        try {
          json = JSON.parse(body);
        } catch {
          json = null;
        }
        const headers = req.headers;
        const event_id = headers['webhook-id'] as string | undefined;
        const service_signature_ok = verify_service_signature(secret, body, headers['x-service-signature'] as string | undefined);
        const standard_signature_ok = verify_standard_signature(secret, event_id, headers['webhook-timestamp'] as string | undefined, body, headers['webhook-signature'] as string | undefined);
        const key = `${tag} ${event_id}`;
        const attempt = (this.attempts.get(key) ?? 0) + 1;
        this.attempts.set(key, attempt);
        let answered = 200;
        // A bad signature is answered 400, as the spec's sample receivers do; the campaign counts it.
        if (!service_signature_ok || !standard_signature_ok) answered = 400;
        else if (attempt === 1 && event_id !== undefined && fails_first_attempt(event_id)) answered = 500;
        this.last_request_ms = Date.now();
        this.received.push({
          tag,
          at_ms: this.last_request_ms,
          event_id,
          event_header: headers['x-service-event'] as string | undefined,
          body,
          json,
          service_signature_ok,
          standard_signature_ok,
          answered,
        });
        res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered === 200 ? 'ok' : 'no');
      });
    });
    this.server.on('secureConnection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Event ids the receiver acknowledged (answered 200) with both signatures valid. */
  acknowledged_ids(): Set<string> {
    const out = new Set<string>();
    for (const r of this.received) if (r.answered === 200 && r.event_id !== undefined) out.add(r.event_id);
    return out;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
