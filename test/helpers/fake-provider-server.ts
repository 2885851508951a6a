// The HTTP plumbing the fake Paystack and Flutterwave funding providers share: a real server on
// 127.0.0.1 and a random port, every request recorded (method, path with its query, parsed JSON body,
// headers), JSON answers, an optional delay before every answer (to outlast a module's timeout), and a stop
// that drops open connections. What is answered is each fake's: it speaks its provider's documented API.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface RecordedCall {
  method: string;
  /** The path without its query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface Answer {
  status: number;
  /** A JSON value, or undefined for an empty body. */
  body?: unknown;
}

/** Bodies past this are not read: no documented request comes near it. */
const request_bytes_max = 1024 * 1024;
/** Recorded calls kept, oldest dropped first. */
const calls_max = 10_000;

export class FakeProviderServer {
  port = 0;
  /** Milliseconds every answer waits before it is sent. */
  delay_ms = 0;
  readonly recorded: RecordedCall[] = [];
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly route: (call: RecordedCall) => Answer) {}

  get base_url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The calls whose path starts with the prefix, each with its query as an object. */
  calls(path_prefix: string): ReadonlyArray<{ method: string; path: string; query: Record<string, string>; body: unknown }> {
    return this.recorded.filter((call) => call.path.startsWith(path_prefix))
      .map(({ method, path, query, body }) => ({ method, path, query: Object.fromEntries(query), body }));
  }

  async start(): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      request.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes <= request_bytes_max) chunks.push(Buffer.from(chunk));
      });
      request.on('end', () => {
        let body: unknown;
        try {
          body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          body = undefined;
        }
        const url = new URL(request.url ?? '/', 'http://fake');
        const call: RecordedCall = { method: request.method ?? '', path: url.pathname, query: url.searchParams, headers: request.headers, body };
        this.recorded.push(call);
        if (this.recorded.length > calls_max) this.recorded.shift();
        const answer = this.route(call);
        if (this.delay_ms <= 0) return this.send(response, answer);
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          this.send(response, answer);
        }, this.delay_ms);
        this.timers.add(timer);
      });
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.port = (server.address() as { port: number }).port;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const server = this.server;
    if (server === null) return;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private send(response: ServerResponse, answer: Answer): void {
    if (response.destroyed || response.writableEnded) return;
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    response.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    response.end(text);
  }
}
