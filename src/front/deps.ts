// What route handlers may use. Built once in server/serve-store.ts.
import type { Logger } from 'pino';
import type { Engine } from '../engine/engine.js';
import type { Clock } from '../lib/clock.js';
import type { TimerWheel } from '../lib/timer-wheel.js';
import type { HashLanes, SecretBox } from '../lib/secrets.js';
import type { Config } from '../config.js';
import type { Metrics } from '../operator/metrics.js';
import type { EngineContext } from '../engine/context.js';

export interface Deps extends EngineContext {
  engine: Engine;
  clock: Clock;
  wheel: TimerWheel;
  config: Config;
  log: Logger;
  metrics: Metrics;
  secret_box: SecretBox;
  /** The bounded lanes every scrypt goes through (lib/secrets.ts HashLane). */
  hash_lanes: HashLanes;
}
