// What the parts built on the engine (the order desk, the webhook dispatcher) need from the process:
// the engine, the one clock, the one random source, the one timer wheel and the log. Defined here, below them, so that they
// do not reach up into the front end for it; the front end's Deps is a superset (src/front/deps.ts).
import type { Logger } from 'pino';
import type { Engine } from './engine.js';
import type { Clock } from '../lib/clock.js';
import type { RandomSource } from '../lib/random.js';
import type { TimerWheel } from '../lib/timer-wheel.js';

export interface EngineContext {
  engine: Engine;
  clock: Clock;
  random: RandomSource;
  wheel: TimerWheel;
  log: Logger;
}
