// Identifiers (docs/decisions.md "Names"). The random ones are drawn from the RandomSource start()
// passes down (src/lib/random.ts): the OS CSPRNG in a server.
import { crypto_random, type RandomSource } from './random.js';

export const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform random text over an alphabet. */
export function random_text(random: RandomSource, alphabet: string, length: number): string {
  return random.text(alphabet, length);
}

export function random_base62(random: RandomSource, length: number): string {
  return random.text(base62, length);
}

export function random_crockford(random: RandomSource, length: number): string {
  return random.text(crockford, length);
}

function crockford_number(value: number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = crockford[value % 32] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

// Drawn once at load, before start() runs: it only tells processes apart in request ids, which decide nothing.
const process_tag = random_crockford(crypto_random, 4);
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

export function new_api_key(random: RandomSource, environment: 'live' | 'test'): string {
  return `bv_${environment}_${random_base62(random, api_key_random_length)}`;
}

export function new_webhook_secret(random: RandomSource): string {
  return 'whsec_' + random_base62(random, 32);
}

export function new_event_id(random: RandomSource): string {
  return 'evt_' + random_base62(random, 24);
}

export const reference_pattern = /^BV-\d{8}-[0-9A-HJKMNP-TV-Z]{12}$/;
