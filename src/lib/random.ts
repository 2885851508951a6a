// Where randomness comes from (ARCHITECTURE.md "Time and randomness"). start() makes one RandomSource
// and passes it down: ids, keys, secrets, references and retry jitter are drawn from it, so that a
// test can hand in a seeded one and get the same draws each run.
import { randomFillSync } from 'node:crypto';

export interface RandomSource {
  /** Uniform text over an alphabet (at most 256 characters): ids, keys, secrets, references. */
  text(alphabet: string, length: number): string;
  /** length uniform bytes: session ids and tokens. */
  bytes(length: number): Buffer;
  /** A uniform fraction in [0, 1): jitter and spreads, never secrets. */
  fraction(): number;
}

const alphabet_length_max = 256;

/** Uniform text by rejection sampling over bytes (no modulo bias). */
function text_from_bytes(next_byte: () => number, alphabet: string, length: number): string {
  if (alphabet.length === 0 || alphabet.length > alphabet_length_max) throw new RangeError(`alphabet of ${alphabet.length} characters`);
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    const byte = next_byte();
    if (byte < limit) out += alphabet[byte % alphabet.length];
  }
  return out;
}

const crypto_pool_bytes_max = 8192;

/**
 * The OS CSPRNG, drawn from a pooled buffer so that the request path does not make one syscall per
 * id. What it hands out is unpredictable: API keys and webhook secrets are drawn from it.
 */
export class CryptoRandom implements RandomSource {
  private readonly pool = Buffer.allocUnsafe(crypto_pool_bytes_max);
  private offset = crypto_pool_bytes_max;

  private next_byte(): number {
    if (this.offset === crypto_pool_bytes_max) {
      randomFillSync(this.pool);
      this.offset = 0;
    }
    return this.pool[this.offset++];
  }

  text(alphabet: string, length: number): string {
    return text_from_bytes(() => this.next_byte(), alphabet, length);
  }

  bytes(length: number): Buffer {
    return randomFillSync(Buffer.allocUnsafe(length));
  }

  fraction(): number {
    // 48 bits: as fine as Math.random's draws, from the same pool as everything else.
    let value = 0;
    for (let i = 0; i < 6; i++) value = value * 256 + this.next_byte();
    return value / 2 ** 48;
  }
}

/** The process's CSPRNG-backed source: what start() uses unless a test passes another. */
export const crypto_random: RandomSource = new CryptoRandom();

/**
 * A predictable source (SplitMix32) for tests: the same seed gives the same draws. Never for a
 * server that holds real keys: anyone who learns the seed can compute every secret.
 */
export class SeededRandom implements RandomSource {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  private next_u32(): number {
    this.state = (this.state + 0x9e3779b9) >>> 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad) >>> 0;
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97) >>> 0;
    return (z ^ (z >>> 15)) >>> 0;
  }

  text(alphabet: string, length: number): string {
    return text_from_bytes(() => this.next_u32() & 0xff, alphabet, length);
  }

  bytes(length: number): Buffer {
    const out = Buffer.allocUnsafe(length);
    for (let i = 0; i < length; i++) out[i] = this.next_u32() & 0xff;
    return out;
  }

  fraction(): number {
    return this.next_u32() / 2 ** 32;
  }
}
