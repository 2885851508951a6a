// Remembers which PIN last verified for each account, as an HMAC under a key that exists only in
// this process's memory: a purchase with the right PIN then costs one HMAC instead of one scrypt.
// Nothing here is ever stored; a restart starts empty and the first purchase pays for scrypt again.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

interface Entry {
  generation: number;
  digest: Buffer;
}

export class PinCache {
  /** One entry per account that has bought since start; bounded by the number of accounts. */
  private readonly entries = new Map<number, Entry>();
  private readonly key = randomBytes(32);

  private digest(account_id: number, pin: string): Buffer {
    return createHmac('sha256', this.key).update(`${account_id}:${pin}`).digest();
  }

  /** true: this PIN verified at this generation before; undefined: unknown, verify with scrypt. */
  check(account_id: number, generation: number, pin: string): true | undefined {
    const entry = this.entries.get(account_id);
    if (entry === undefined || entry.generation !== generation) return undefined;
    return timingSafeEqual(entry.digest, this.digest(account_id, pin)) ? true : undefined;
  }

  remember(account_id: number, generation: number, pin: string): void {
    this.entries.set(account_id, { generation, digest: this.digest(account_id, pin) });
  }

  forget(account_id: number): void {
    this.entries.delete(account_id);
  }
}
