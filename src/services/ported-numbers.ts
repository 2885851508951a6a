// The platform's ported-number table (docs/api.md "Phone lookup", docs/decisions.md "Ported numbers"): numbers a
// live order was delivered to on a network other than the one their prefix was allocated to. Only live
// deliveries teach it (a test key's sandbox delivers anything, so it would teach nonsense), and it serves every
// account: a number ported away from its prefix is the same number whoever tops it up.
//
// Kept compact because it may hold millions of numbers: an open-addressing hash table (linear probing) of two
// typed arrays, a Uint32 per slot for the number and a Uint8 for its network, never more than 3/4 full. A
// mobile number is 10 national digits starting with 7, 8 or 9, so number − 7,000,000,000 fits in 32 bits
// (stored + 1, so that 0 marks an empty slot). That is 5 bytes a slot, about 10.5 bytes a number at a
// million numbers (2^21 slots; measured by bench/ported-numbers-memory.ts, docs/benchmarks.md), where a
// Map<number, string> costs several times that. Bounded by ported_numbers_max: past it, new numbers are not
// learned (counted in `refused`); numbers already held still change.
//
// Persisted in the store's catalog database, one record per number (`ported:<10 digits>` → network), staged
// in the journal's next group commit like the catalog's other platform-wide records, and read back at start.
// A delivery on the prefix's own network removes the number (ported back, or learned wrongly).
import type { Journal } from '../journal/journal.js';
import type { Store } from '../journal/store.js';
import { fail } from '../lib/assert.js';
import { ported_numbers_max_default } from '../config.js';
import { networks, type Network } from './catalog.js';
import { prefix_network } from './numbering-plan.js';

const national_base = 7_000_000_000;
const slots_initial = 1024;
const store_prefix = 'ported:';

/** The 10-digit national number of a local 11-digit mobile number, as a key; null when it cannot be one. */
function key_of(local_phone: string): number | null {
  // Read digit by digit: a regular expression and a Number() per lookup cost twice as much (bench/ported-numbers-memory.ts).
  if (local_phone.length !== 11 || local_phone.charCodeAt(0) !== 48) return null;
  let national = 0;
  for (let i = 1; i < 11; i++) {
    const digit = local_phone.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return null;
    national = national * 10 + digit;
  }
  const key = national - national_base + 1;
  return key > 0 && key <= 0xffff_ffff ? key : null;
}

function hash(key: number, mask: number): number {
  return (Math.imul(key, 0x9e37_79b1) >>> 0) & mask;
}

export class PortedNumbers {
  private keys = new Uint32Array(slots_initial);
  private values = new Uint8Array(slots_initial);
  private count = 0;
  /** Numbers not learned because the table was full. */
  refused = 0;

  constructor(readonly ported_numbers_max = ported_numbers_max_default) {}

  get size(): number {
    return this.count;
  }

  /** Bytes the table's arrays hold. */
  get bytes(): number {
    return this.keys.byteLength + this.values.byteLength;
  }

  /** The network a number was learned on, or null. */
  get(local_phone: string): Network | null {
    const key = key_of(local_phone);
    if (key === null) return null;
    const mask = this.keys.length - 1;
    for (let slot = hash(key, mask); ; slot = (slot + 1) & mask) {
      const held = this.keys[slot];
      if (held === 0) return null;
      if (held === key) return networks[this.values[slot] - 1];
    }
  }

  /**
   * Sets the number's network (null: removes it). Answers whether the table changed; a new number past
   * ported_numbers_max is not taken.
   */
  set(local_phone: string, network: Network | null): boolean {
    const key = key_of(local_phone);
    if (key === null) return false;
    const mask = this.keys.length - 1;
    let slot = hash(key, mask);
    for (; ; slot = (slot + 1) & mask) {
      const held = this.keys[slot];
      if (held === 0) break;
      if (held === key) {
        if (network === null) {
          this.remove_at(slot);
          return true;
        }
        const value = networks.indexOf(network) + 1;
        if (this.values[slot] === value) return false;
        this.values[slot] = value;
        return true;
      }
    }
    if (network === null) return false;
    if (this.count >= this.ported_numbers_max) {
      this.refused++;
      return false;
    }
    if ((this.count + 1) * 4 > this.keys.length * 3) {
      this.grow();
      return this.set(local_phone, network);
    }
    this.keys[slot] = key;
    this.values[slot] = networks.indexOf(network) + 1;
    this.count++;
    return true;
  }

  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    this.keys = new Uint32Array(keys.length * 2);
    this.values = new Uint8Array(keys.length * 2);
    const mask = this.keys.length - 1;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === 0) continue;
      let slot = hash(keys[i], mask);
      while (this.keys[slot] !== 0) slot = (slot + 1) & mask;
      this.keys[slot] = keys[i];
      this.values[slot] = values[i];
    }
  }

  /** Backward-shift deletion: later entries of the run move up so that no lookup stops early. */
  private remove_at(slot: number): void {
    const mask = this.keys.length - 1;
    let hole = slot;
    for (let next = (hole + 1) & mask; this.keys[next] !== 0; next = (next + 1) & mask) {
      const home = hash(this.keys[next], mask);
      // The entry at `next` may fill the hole if its home is not in (hole, next], cyclically.
      const stays = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (stays) continue;
      this.keys[hole] = this.keys[next];
      this.values[hole] = this.values[next];
      hole = next;
    }
    this.keys[hole] = 0;
    this.values[hole] = 0;
    this.count--;
  }

  /** Reads every persisted number (at start). */
  load(store: Store): void {
    for (const { key, value } of store.catalog.getRange({ start: store_prefix, end: 'ported;' })) {
      const network = value as Network;
      if (!(networks as readonly string[]).includes(network)) fail(`ported number ${key} holds ${String(value)}`);
      this.set(`0${key.slice(store_prefix.length)}`, network);
    }
  }

  /**
   * What a live delivery teaches: the network a number took a top-up on. Staged in the journal when the
   * table changed; the caller runs outside any account's command.
   */
  learn(journal: Journal, store: Store, local_phone: string, delivered_on: Network): void {
    const allocated = prefix_network(local_phone);
    const network = delivered_on === allocated ? null : delivered_on;
    if (!this.set(local_phone, network)) return;
    const record_key = `${store_prefix}${local_phone.slice(1)}`;
    if (network === null) journal.remove(0, store.catalog, record_key);
    else journal.put(0, store.catalog, record_key, network);
  }
}
