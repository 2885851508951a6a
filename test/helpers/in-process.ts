// A server started in this process with start() and an injected ManualClock (src/lib/clock.ts), so a
// test moves time itself: every schedule of the server (sandbox answers, re-queries, locks, windows)
// runs when the test advances the clock, never because the test slept. Requests still go through real
// sockets; the fixtures are TestServer's.
import { rmSync } from 'node:fs';
import { load_config } from '../../src/config.js';
import { create_logger } from '../../src/log.js';
import { start, type Server } from '../../src/main.js';
import { ManualClock } from '../../src/lib/clock.js';
import type { RandomSource } from '../../src/lib/random.js';
import { TestServer, temp_dir } from './server.js';

export class InProcessServer extends TestServer {
  private server: Server | null = null;

  constructor(data_dir: string, readonly clock: ManualClock, private readonly random: RandomSource | undefined, private readonly extra: Record<string, string>) {
    super(data_dir, extra);
  }

  override async start(): Promise<void> {
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

  override async stop(): Promise<number | null> {
    await this.server?.stop();
    this.server = null;
    return 0;
  }

  override async kill(): Promise<void> {
    await this.stop();
  }
}

/** Starts an in-process server on a fresh temp store and a manual clock at the present; torn down with the test. */
export async function start_in_process(t: { teardown(fn: () => unknown): void }, options: { env?: Record<string, string>; time_scale?: number; random?: RandomSource } = {}): Promise<InProcessServer> {
  const data_dir = temp_dir();
  const clock = new ManualClock(Date.now(), options.time_scale ?? 1);
  const server = new InProcessServer(data_dir, clock, options.random, options.env ?? {});
  await server.start();
  t.teardown(async () => {
    await server.stop();
    rmSync(data_dir, { recursive: true, force: true });
  });
  return server;
}
