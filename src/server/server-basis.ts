// What start() settles before it serves (main.ts): the store lock, the operator token, the master key
// behind every sealed secret, and where time and randomness come from. A cluster node settles it once and
// keeps it from standby to leader.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Config } from '../config.js';
import type { Clock } from '../lib/clock.js';
import type { RandomSource } from '../lib/random.js';
import type { SecretBox } from '../lib/secrets.js';
import type { StoreLock } from '../journal/store-lock.js';

export function secret_file(path: string, make: () => string): string {
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const value = make();
  writeFileSync(path, value + '\n', { mode: 0o600, flag: 'wx' });
  return value;
}

export function master_key(config: Config, random: RandomSource): Buffer {
  if (config.master_key !== null) {
    const key = /^[0-9a-f]{64}$/i.test(config.master_key) ? Buffer.from(config.master_key, 'hex') : Buffer.from(config.master_key, 'base64');
    if (key.length !== 32) throw new ConfigError('MASTER_KEY must be 32 bytes, as 64 hex digits or base64');
    return key;
  }
  return Buffer.from(secret_file(join(config.data_dir, 'master.key'), () => random.bytes(32).toString('base64')), 'base64');
}

/** What start() settles before it serves: the lock, the secrets, where time and randomness come from. */
export interface Basis {
  store_lock: StoreLock;
  admin_token: string;
  secret_box: SecretBox;
  clock: Clock;
  random: RandomSource;
}
