// `billvend serve`: opens the store, recovers every account, then serves the public API and the
// operator API (docs/operations.md). Exported as start() so the CLI and the benches can run it. start()
// settles the basis (server/server-basis.ts) and serves the store as a single node (server/serve-store.ts)
// or joins the cluster (server/cluster-standby.ts); serve() runs it until a signal and shuts it down.
// First: a Node.js version uWS has binaries for, then uWS's settings, read from the environment when it loads.
import './lib/node-version.js';
import './front/uws-settings.js';
import { join } from 'node:path';
import { load_config, flags_to_env, ConfigError, type Config } from './config.js';
import { create_logger, type Logger } from './log.js';
import { open_store, make_store_dir } from './journal/store.js';
import { lock_store, StoreLockedError } from './journal/store-lock.js';
import { SystemClock, type Clock } from './lib/clock.js';
import { crypto_random, type RandomSource } from './lib/random.js';
import { SecretBox } from './lib/secrets.js';
import { random_base62 } from './lib/ids.js';
import { success_reply } from './lib/reply.js';
import { master_key, secret_file, type Basis } from './server/server-basis.js';
import type { Server } from './server/running-server.js';
import { serve_store } from './server/serve-store.js';
import { start_cluster_node } from './server/cluster-standby.js';

/**
 * Where the server takes time and randomness from (ARCHITECTURE.md "Time and randomness"). A server
 * leaves both out: the system clock scaled by TIME_SCALE, and the OS CSPRNG. An in-process test passes
 * a ManualClock (and may pass a SeededRandom) to drive every schedule without sleeping.
 */
export interface StartOptions {
  clock?: Clock;
  random?: RandomSource;
}

export async function start(config: Config, log: Logger, options: StartOptions = {}): Promise<Server> {
  // Made once here and passed down: nothing below reads TIME_SCALE or draws randomness of its own.
  const clock = options.clock ?? new SystemClock(config.time_scale);
  const random = options.random ?? crypto_random;
  make_store_dir(config.data_dir);
  // First of all: a second process on the same store stops here, having touched nothing.
  const store_lock = lock_store(config.data_dir);
  const admin_token = config.admin_token ?? secret_file(join(config.data_dir, 'admin-token'), () => random_base62(random, 40));
  const basis: Basis = { store_lock, admin_token, secret_box: new SecretBox(master_key(config, random)), clock, random };
  if (config.cluster !== null) return start_cluster_node(config, log, basis);
  return serve_store(config, log, basis, open_store(config.data_dir), null);
}

/** Runs `serve` until SIGTERM/SIGINT: stop accepting, finish in-flight requests, flush, exit 0 within 10 s. */
export async function serve(argv: readonly string[]): Promise<void> {
  let config: Config;
  try {
    config = load_config({ ...process.env, ...flags_to_env(argv) });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`billvend: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const log = create_logger(config.log_level, config.production, config.log_format);
  let server: Server;
  try {
    server = await start(config, log);
  } catch (error) {
    // Another process holding the store is a refusal the operator acts on, not a fault: one clear line in the
    // log as on stderr, without a stack. Anything else keeps its stack in the log (its stderr line stays short).
    if (error instanceof StoreLockedError) log.fatal(`cannot start: ${error.message}`);
    else log.fatal({ err: error }, 'cannot start');
    log.flush();
    process.stderr.write(`billvend: cannot start: ${(error as Error).message}\n`);
    setTimeout(() => process.exit(1), 50);
    return;
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      log.error('shutdown took longer than 10 s; exiting');
      log.flush();
      process.exit(1);
    }, 9_500);
    server.stop().then(
      () => {
        clearTimeout(deadline);
        log.info('stopped');
        log.flush();
        process.exit(0);
      },
      (error) => {
        log.error({ err: error }, 'shutdown failed');
        log.flush();
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

export { success_reply };
