// Transaction references that are unique by construction (docs/decisions.md "Names": BV- + UTC date + 12
// Crockford characters, unique forever). The 12 characters carry 60 bits: the top bit 0, then the
// order's place in the store (environment, account id, the order's sequence number in that wallet)
// passed through a keyed permutation, so that a reference names exactly one order, can be looked up
// without an index, and shows nothing of account ids or order counts to whoever holds it.
//
// The place is unique forever because an order's sequence number is the wallet's order count, which is
// written in the same commit as the order, and nothing outside the process sees a reference before that
// commit is durable (the reply and the provider both wait for it). A commit lost to a crash may hand
// the same sequence number out again, but nobody ever saw the lost one.
//
// Places that do not fit (account ids from 2^26, or an account's 2^32nd order in one environment) get a
// random reference with the top bit set instead, checked against the order_refs index as before; so do
// all orders of stores written before this scheme. Both kinds are looked up through the index when the
// decoded place does not hold the order.
import { createHmac } from 'node:crypto';
import type { Environment } from '../engine/records.js';
import type { SecretBox } from '../lib/secrets.js';
import { crockford, random_crockford } from '../lib/ids.js';
import type { RandomSource } from '../lib/random.js';
import { fail } from '../lib/assert.js';

const crockford_value = new Map([...crockford].map((c, i) => [c, i]));

/** The permutation's two halves: 29 and 30 bits (the 60th bit is the kind flag). */
const left_bits = 29;
const right_bits = 30;
const rounds = 8;
export const account_id_limit = 2 ** 26;
export const seq_limit = 2 ** 32;

export interface OrderPlace {
  account_id: number;
  environment: Environment;
  seq: number;
}

/** A 32-bit mixer (murmur3's finaliser) keyed per round. */
function round_function(value: number, key: number): number {
  let h = (value ^ key) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function mask(bits: number): number {
  return 2 ** bits - 1;
}

/** "BV-" + YYYYMMDD + "-": what precedes the 12 characters of every reference. */
const prefix_length = 12;

/** Six Crockford characters of a 30-bit value, most significant first. */
function encode_30(value: number, out: string[]): void {
  for (let shift = 25; shift >= 0; shift -= 5) out.push(crockford[(value >>> shift) & 31]);
}

function decode_30(text: string, from: number): number | null {
  let value = 0;
  for (let i = from; i < from + 6; i++) {
    const digit = crockford_value.get(text[i]);
    if (digit === undefined) return null;
    value = (value << 5) | digit;
  }
  return value >>> 0;
}

export class ReferenceCodec {
  private readonly keys: Uint32Array;

  /** `secret`: at least 32 bytes only this store knows (derived from its master key). */
  constructor(secret: Buffer) {
    if (secret.length < 32) fail('reference secret shorter than 32 bytes');
    const material = createHmac('sha256', secret).update('billvend transaction references v1').digest();
    this.keys = new Uint32Array(rounds);
    for (let i = 0; i < rounds; i++) this.keys[i] = material.readUInt32BE((i * 4) % 32) ^ Math.imul(i + 1, 0x9e3779b9);
  }

  /** Whether a place can be carried by a reference (else the caller draws a random one). */
  static fits(place: OrderPlace): boolean {
    return Number.isSafeInteger(place.account_id) && place.account_id >= 1 && place.account_id < account_id_limit
      && Number.isSafeInteger(place.seq) && place.seq >= 1 && place.seq < seq_limit;
  }

  /** The whole reference of a place (which must fit) on a UTC day (YYYYMMDD). */
  reference(yyyymmdd: string, place: OrderPlace): string {
    return `BV-${yyyymmdd}-${this.encode(place)}`;
  }

  /** The place a whole reference names, or null for a random, legacy or malformed one. */
  place_of(reference: string): OrderPlace | null {
    return reference.length === prefix_length + 12 && reference.startsWith('BV-') ? this.decode(reference.slice(prefix_length)) : null;
  }

  /** The 12 characters for a place (which must fit). */
  encode(place: OrderPlace): string {
    if (!ReferenceCodec.fits(place)) fail(`order place ${place.account_id}/${place.seq} does not fit a reference`);
    // 59 bits: environment (1), account id (26), seq (32), split into 29 + 30.
    let left = (place.environment === 'test' ? 2 ** 28 : 0) + place.account_id * 4 + Math.floor(place.seq / 2 ** 30);
    let right = place.seq % 2 ** 30;
    let left_width = left_bits;
    let right_width = right_bits;
    for (let r = 0; r < rounds; r++) {
      const next_right = (left ^ (round_function(right, this.keys[r]) & mask(left_width))) >>> 0;
      left = right;
      right = next_right;
      [left_width, right_width] = [right_width, left_width];
    }
    const out: string[] = [];
    encode_30(left, out); // 29 bits: the 30th, the kind flag, stays 0
    encode_30(right, out);
    return out.join('');
  }

  /** The place a reference's 12 characters name, or null for a random (or malformed) one. */
  decode(code: string): OrderPlace | null {
    if (code.length !== 12) return null;
    const high = decode_30(code, 0);
    const low = decode_30(code, 6);
    if (high === null || low === null || high >= 2 ** left_bits) return null;
    let left = high;
    let right = low;
    let left_width = left_bits;
    let right_width = right_bits;
    for (let r = rounds - 1; r >= 0; r--) {
      // Undo: (left, right) = (old_right, old_left ^ F(old_right)); widths swap back.
      [left_width, right_width] = [right_width, left_width];
      const old_right = left;
      const old_left = (right ^ (round_function(old_right, this.keys[r]) & mask(left_width))) >>> 0;
      left = old_left;
      right = old_right;
    }
    const environment: Environment = left >= 2 ** 28 ? 'test' : 'live';
    const rest = left % 2 ** 28;
    const account_id = Math.floor(rest / 4);
    const seq = (rest % 4) * 2 ** 30 + right;
    const place = { account_id, environment, seq };
    return ReferenceCodec.fits(place) ? place : null;
  }
}

/** The codec of a store: its key is derived from the store's master key. */
export function reference_codec(secret_box: SecretBox): ReferenceCodec {
  return new ReferenceCodec(secret_box.derive('billvend order references'));
}

/** 12 random Crockford characters with the top bit set: never equal to a constructed reference. */
export function random_reference_code(random: RandomSource): string {
  const code = random_crockford(random, 12);
  return crockford[crockford.indexOf(code[0]) | 16] + code.slice(1);
}
