// Remembers which PIN last verified for each account, as an HMAC under a key that exists only in
// this process's memory: a purchase with the right PIN then costs one HMAC instead of one scrypt.
// Nothing here is ever stored; a restart starts empty and the first purchase pays for scrypt again.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { HashLane, type HashBusy } from '../lib/secrets.js';

interface Entry {
  generation: number;
  digest: Buffer;
}

/** Concurrent verifications of one PIN share a single scrypt run (bounded by accounts × PINs tried). */
const verifications_in_flight_max = 10_000;
/**
 * PIN scrypt checks running at once and waiting behind them, unless PIN_HASH_RUNNING_MAX and
 * PIN_HASH_WAITING_MAX say otherwise. Two running: a core's worth each on this 2-core target, and
 * with the sign-in lane's one, still below libuv's 4 threads. 256 waiting: every account's first
 * purchase after a restart pays one scrypt, and a burst of those should wait (~5 s at most), not fail.
 */
export const pin_hash_running_max_default = 2;
export const pin_hash_waiting_max_default = 256;

export class PinCache {
  /** One entry per account that has bought since start; bounded by the number of accounts. */
  private readonly entries = new Map<number, Entry>();
  private readonly in_flight = new Map<string, Promise<boolean | HashBusy>>();
  private readonly key = randomBytes(32).toString('hex');
  private lane = new HashLane('pin', pin_hash_running_max_default, pin_hash_waiting_max_default);

  /** Sets the PIN lane's bounds from the configuration (server/serve-store.ts), before traffic. */
  use_lane(lane: HashLane): void {
    this.lane = lane;
  }

  /**
   * A keyed digest of the PIN: SHA-256 of a secret prefix and the PIN. The inputs have a fixed shape
   * and only whole digests are compared, so the prefix key serves like an HMAC here at an eighth of
   * its cost (0.5 µs against 4 µs per purchase, measured).
   */
  private digest(account_id: number, pin: string): Buffer {
    return hash('sha256', `${this.key}:${account_id}:${pin}`, 'buffer');
  }

  /** true: this PIN verified at this generation before; undefined: unknown, verify with scrypt. */
  check(account_id: number, generation: number, pin: string): true | undefined {
    const entry = this.entries.get(account_id);
    if (entry === undefined || entry.generation !== generation) return undefined;
    return timingSafeEqual(entry.digest, this.digest(account_id, pin)) ? true : undefined;
  }

  /**
   * Whether the PIN matches the stored scrypt hash; remembered on success. 'busy' when the PIN lane
   * is full: no verdict, so it must not count as a wrong PIN (refused as { refusal: 'pin_check_busy' }, engine/refusal.ts).
   */
  verify(account_id: number, generation: number, pin: string, stored_hash: string): boolean | Promise<boolean | HashBusy> {
    if (this.check(account_id, generation, pin) === true) return true;
    const flight_key = `${account_id}:${generation}:${this.digest(account_id, pin).toString('base64')}`;
    const running = this.in_flight.get(flight_key);
    if (running !== undefined) return running;
    const verification = this.lane.verify(pin, stored_hash).then((correct) => {
      if (correct === true) this.entries.set(account_id, { generation, digest: this.digest(account_id, pin) });
      return correct;
    });
    if (this.in_flight.size < verifications_in_flight_max) {
      this.in_flight.set(flight_key, verification);
      const clear = () => this.in_flight.delete(flight_key);
      verification.then(clear, clear);
    }
    return verification;
  }

  forget(account_id: number): void {
    this.entries.delete(account_id);
  }
}
