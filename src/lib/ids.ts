// Identifiers (docs/decisions.md "Names"). Randomness comes from the OS CSPRNG, drawn from a pooled buffer
// so that the request path does not make one syscall per id.
import { randomFillSync } from 'node:crypto';

export const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const random_pool_bytes_max = 8192;
const random_pool = Buffer.allocUnsafe(random_pool_bytes_max);
let random_pool_offset = random_pool_bytes_max;

function random_byte(): number {
  if (random_pool_offset === random_pool_bytes_max) {
    randomFillSync(random_pool);
    random_pool_offset = 0;
  }
  return random_pool[random_pool_offset++];
}

/** Uniform random text over an alphabet, by rejection sampling (no modulo bias). */
export function random_text(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    const byte = random_byte();
    if (byte < limit) out += alphabet[byte % alphabet.length];
  }
  return out;
}

export function random_base62(length: number): string {
  return random_text(base62, length);
}

export function random_crockford(length: number): string {
  return random_text(crockford, length);
}

function crockford_number(value: number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = crockford[value % 32] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

const process_tag = random_crockford(4);
let request_counter = 0;

/**
 * Time-ordered request id: 10 characters of millisecond time, a per-process tag and a counter,
 * so ids sort by time, never repeat within a process and practically never across processes.
 */
export function new_request_id(now_ms: number): string {
  request_counter = (request_counter + 1) % 32 ** 5;
  return 'req_' + crockford_number(now_ms, 10) + process_tag + crockford_number(request_counter, 5);
}

export const api_key_random_length = 40;

export function new_api_key(environment: 'live' | 'test'): string {
  return `bv_${environment}_${random_base62(api_key_random_length)}`;
}

export function new_webhook_secret(): string {
  return 'whsec_' + random_base62(32);
}

export function new_event_id(): string {
  return 'evt_' + random_base62(24);
}

export const reference_pattern = /^BV-\d{8}-[0-9A-HJKMNP-TV-Z]{12}$/;
