// A server started in this process with start() and an injected ManualClock (src/lib/clock.ts), so a
// test moves time itself: every schedule of the server (sandbox answers, re-queries, locks, windows)
// runs when the test advances the clock, never because the test slept. Requests still go through real
// sockets; the fixtures are TestServer's.
import { readFileSync, rmSync } from 'node:fs';
import tls from 'node:tls';
import { load_config } from '../../src/config.js';
import { create_logger } from '../../src/log.js';
import { start } from '../../src/main.js';
import type { Server } from '../../src/server/running-server.js';
import { ManualClock } from '../../src/lib/clock.js';
import type { RandomSource } from '../../src/lib/random.js';
import type { Engine } from '../../src/engine/engine.js';
import { TestServer, temp_dir } from './server.js';

/** CA files this process already trusts for outgoing TLS (see trust_extra_ca). */
const trusted_ca_paths = new Set<string>();

/**
 * What NODE_EXTRA_CA_CERTS does for a server started as a child process, for one started in this
 * process: Node reads that variable only at its own start, so the test receivers' private CA is added
 * to every outgoing TLS connection that names no CA of its own (the webhook transport names none).
 */
function trust_extra_ca(path: string): void {
  if (trusted_ca_paths.has(path)) return;
  trusted_ca_paths.add(path);
  const ca = [...tls.rootCertificates, readFileSync(path, 'utf8')];
  const connect = tls.connect;
  (tls as { connect: typeof tls.connect }).connect = ((...args: any[]) => {
    const options = args.find((a) => typeof a === 'object' && a !== null);
    if (options !== undefined && options.ca === undefined && options.secureContext === undefined) options.ca = ca;
    return (connect as any)(...args);
  }) as typeof tls.connect;
}

export class InProcessServer extends TestServer {
  private server: Server | null = null;

  constructor(data_dir: string, readonly clock: ManualClock, private readonly random: RandomSource | undefined, private readonly extra: Record<string, string>) {
    super(data_dir, extra);
  }

  override async start(): Promise<void> {
    if (this.extra.NODE_EXTRA_CA_CERTS !== undefined) trust_extra_ca(this.extra.NODE_EXTRA_CA_CERTS);
    const config = load_config({
      PORT: '0',
      ADMIN_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: this.data_dir,
      ADMIN_TOKEN: this.admin_token,
      DEMO: '0',
      LOG_LEVEL: 'warn',
      ...this.extra,
    });
    this.server = await start(config, create_logger(config.log_level, false), { clock: this.clock, random: this.random });
    this.port = this.server.port;
    this.admin_port = this.server.admin_port;
  }

  /** The server's engine, for a test that plays a part the process would (a cluster's appender). */
  get engine(): Engine {
    if (this.server === null) throw new Error('the in-process server is not running');
    return this.server.deps.engine;
  }

  override async stop(): Promise<number | null> {
    await this.server?.stop();
    this.server = null;
    return 0;
  }

  override async kill(): Promise<void> {
    await this.stop();
  }
}

/**
 * Starts an in-process server on a fresh temp store and a manual clock at the present; torn down with
 * the test. start_ms sets where the clock starts: a whole second puts it on a boundary of the timer
 * wheel's tick, so that a timer due in a whole number of ticks fires exactly when the clock reaches
 * its due time and not one millisecond before (the present falls anywhere within a tick).
 */
export async function start_in_process(t: { teardown(fn: () => unknown): void }, options: { env?: Record<string, string>; time_scale?: number; random?: RandomSource; start_ms?: number } = {}): Promise<InProcessServer> {
  const data_dir = temp_dir();
  const clock = new ManualClock(options.start_ms ?? Date.now(), options.time_scale ?? 1);
  const server = new InProcessServer(data_dir, clock, options.random, options.env ?? {});
  await server.start();
  t.teardown(async () => {
    await server.stop();
    rmSync(data_dir, { recursive: true, force: true });
  });
  return server;
}

/** The present rounded down to a whole second: a start_ms on a tick boundary of the timer wheel. */
export function whole_second_ms(): number {
  return Math.floor(Date.now() / 1000) * 1000;
}
