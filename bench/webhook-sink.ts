// An HTTPS webhook receiver for the `purchase-with-webhooks` scenario: answers 200 at once and counts
// events by kind. It uses the test CA of test/fixtures/tls, which the server trusts through
// NODE_EXTRA_CA_CERTS, so deliveries go over real TLS with keep-alive, as in production.
import { createServer, type Server } from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import { repo_root } from './server-process.js';

export const tls_dir = join(repo_root, 'test', 'fixtures', 'tls');

export class WebhookSink {
  readonly by_kind = new Map<string, number>();
  /** Event ids seen, to count duplicates (delivery is at least once). */
  private readonly ids = new Set<string>();
  duplicates = 0;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  get url(): string {
    return `https://localhost:${this.port}/billvend-events`;
  }

  get received(): number {
    let total = 0;
    for (const count of this.by_kind.values()) total += count;
    return total;
  }

  async start(): Promise<void> {
    this.server = createServer({ key: readFileSync(join(tls_dir, 'receiver-key.pem')), cert: readFileSync(join(tls_dir, 'receiver-cert.pem')) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        const kind = String(req.headers['x-service-event'] ?? 'unknown');
        const id = String(req.headers['webhook-id'] ?? '');
        if (this.ids.has(id)) this.duplicates++;
        else {
          this.ids.add(id);
          this.by_kind.set(kind, (this.by_kind.get(kind) ?? 0) + 1);
        }
        res.writeHead(200).end();
      });
    });
    this.server.on('secureConnection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Waits until `expected` distinct events arrived, or the deadline; returns how many did. */
  async wait_for(expected: number, timeout_ms: number): Promise<number> {
    const deadline = Date.now() + timeout_ms;
    while (this.received < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    return this.received;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
