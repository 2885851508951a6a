// Secrets are never stored or logged in plain text (docs/design.md "Design"):
// - API keys are high-entropy random strings; the store keeps their SHA-256 and looks keys up by it.
// - Passwords and transaction PINs are hashed with scrypt and a per-secret salt. A PIN has only
//   100,000 values, so what protects it is the lock after 5 wrong tries, not the hash alone.
// - scrypt costs ~40 ms of a core, so checks that anyone can ask for (sign-ins, purchases' PINs) run in
//   bounded lanes (HashLane): a flood gets 429, it does not queue work without bound.
// - Secrets we must be able to use again (webhook signing secrets, replayable responses that carry a
//   new key) are sealed with AES-256-GCM under the store's master key.
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hash,
  randomBytes,
  scrypt as scrypt_callback,
  timingSafeEqual,
} from 'node:crypto';
import { fail } from './assert.js';

/** One-shot SHA-256 (crypto.hash: about 0.5 µs against 1.3 µs for createHash on this machine). */
export function sha256_hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/** Constant-time comparison of two strings of any length (hashes first, so lengths do not leak). */
export function constant_time_equal(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

const scrypt_n = 16384;
const scrypt_r = 8;
const scrypt_p = 1;
const scrypt_key_bytes = 32;

/**
 * Every scrypt this process runs, counted where it starts and ends, whatever asked for it: the figure
 * operators and tests read (billvend_scrypt_running and its peak in /metrics) to see that no route
 * runs scrypt beside the lanes. Process-wide, as libuv's thread pool it measures.
 */
export interface ScryptFigures {
  /** scrypt runs started and not yet finished. */
  running: number;
  /** The most that were ever running at once since start. */
  running_peak: number;
  /** scrypt runs started since start. */
  started: number;
}

const scrypt_figures: ScryptFigures = { running: 0, running_peak: 0, started: 0 };

/** A copy of the figures now. */
export function scrypt_now(): ScryptFigures {
  return { ...scrypt_figures };
}

function scrypt(secret: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  scrypt_figures.started++;
  scrypt_figures.running++;
  if (scrypt_figures.running > scrypt_figures.running_peak) scrypt_figures.running_peak = scrypt_figures.running;
  return new Promise<Buffer>((resolve, reject) => {
    scrypt_callback(secret, salt, scrypt_key_bytes, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (error, key) => {
      scrypt_figures.running--;
      if (error) reject(error);
      else resolve(key);
    });
  });
}

/**
 * scrypt$N$r$p$salt$hash, computed on libuv's thread pool so the event loop stays free. Not for a
 * request's path: there, HashLane.hash (test/scrypt-lanes-only checks that src/ calls it nowhere else).
 */
export async function hash_secret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(secret, salt, scrypt_n, scrypt_r, scrypt_p);
  return `scrypt$${scrypt_n}$${scrypt_r}$${scrypt_p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/**
 * A hash in hash_secret's format that no secret matches (random salt and key): checking a password
 * against it costs the same scrypt as checking a real one, so an unknown email answers in the same
 * time as a known one.
 */
export function dummy_secret_hash(): string {
  return `scrypt$${scrypt_n}$${scrypt_r}$${scrypt_p}$${randomBytes(16).toString('base64')}$${randomBytes(scrypt_key_bytes).toString('base64')}`;
}

/** Not for a request's path: there, HashLane.verify (as hash_secret). */
export async function verify_secret(secret: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const expected = Buffer.from(parts[5], 'base64');
  const key = await scrypt(secret, Buffer.from(parts[4], 'base64'), Number(parts[1]), Number(parts[2]), Number(parts[3]));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A lane's answer when it is full: the caller answers 429 rate_limit.exceeded, with Retry-After. */
export type HashBusy = 'busy';

/**
 * A bounded queue of scrypt runs (checks and new hashes). scrypt runs on libuv's thread pool (4 threads by default), whose
 * own queue is unbounded and first come, first served, and which the journal's LMDB commits share
 * (lmdb-js writes as libuv work). Unbounded, 50 made-up sign-ins a second filled it: commits took
 * 776 ms instead of 17 and purchases fell from 2,981/s to 30/s (bench purchase-under-sign-in-flood).
 * A lane lets at most running_max of its jobs run at once and at most waiting_max wait behind them;
 * past that a job is refused at once ('busy'). Passwords (sign-ins, the dashboard's password checks,
 * the operator's new passwords) and PINs (purchases' and the dashboard's checks, every new PIN's hash)
 * have a lane each (HashLanes), and their running_max together stay below the pool's size (1 + 2 < 4):
 * a PIN check never waits in libuv's queue behind a sign-in, and a thread is always left for the
 * journal. No route runs scrypt outside them (regression: the dashboard's PIN change did, and 100 at
 * once took another tenant's purchase p99 from 16 ms to 4 s; test/hardening-noisy-neighbour).
 */
export class HashLane {
  private running = 0;
  /** Jobs waiting for a slot, oldest first; bounded by waiting_max. */
  private readonly waiting: (() => void)[] = [];
  /** Jobs refused because the lane was full, since start (operator figures, tests). */
  refused = 0;

  constructor(readonly name: string, readonly running_max: number, readonly waiting_max: number) {
    if (!(running_max >= 1 && waiting_max >= 0)) fail(`hash lane ${name} needs running_max ≥ 1 and waiting_max ≥ 0`);
  }

  get busy(): boolean {
    return this.running >= this.running_max && this.waiting.length >= this.waiting_max;
  }

  async run<T>(job: () => Promise<T>): Promise<T | HashBusy> {
    if (this.running < this.running_max) this.running++;
    else if (this.waiting.length < this.waiting_max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else {
      this.refused++;
      return 'busy';
    }
    try {
      return await job();
    } finally {
      // The slot passes straight to the oldest waiting job, so running stays counted.
      const next = this.waiting.shift();
      if (next !== undefined) next();
      else this.running--;
    }
  }

  /** verify_secret in this lane. */
  verify(secret: string, stored: string): Promise<boolean | HashBusy> {
    return this.run(() => verify_secret(secret, stored));
  }

  /** hash_secret in this lane. */
  hash(secret: string): Promise<string | HashBusy> {
    return this.run(() => hash_secret(secret));
  }
}

/** The two lanes every scrypt of a running server goes through; made once in server/serve-store.ts. */
export interface HashLanes {
  /** Passwords: SIGN_IN_HASH_RUNNING_MAX and SIGN_IN_HASH_WAITING_MAX. */
  password: HashLane;
  /** Transaction PINs: PIN_HASH_RUNNING_MAX and PIN_HASH_WAITING_MAX. */
  pin: HashLane;
}

/**
 * Seals secrets under a 32-byte master key (DATA_DIR/master.key, mode 0600, or MASTER_KEY).
 * Format: v1.<iv>.<tag>.<ciphertext>, base64url.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) fail('master key must be 32 bytes');
  }

  /** A key for another purpose, derived from the master key (HMAC-SHA256 of the purpose). */
  derive(purpose: string): Buffer {
    return createHmac('sha256', this.key).update(purpose).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1.${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1') fail('unknown sealed secret version');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

}
