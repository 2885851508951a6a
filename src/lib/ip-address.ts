// IPv4/IPv6 addresses and CIDR blocks for key allowlists (docs/spec.md section 5.7) and trusted proxies.
// Addresses are normalised to 16-byte IPv6 form (IPv4 as ::ffff:a.b.c.d) so one matcher serves both.
import { isIP } from 'node:net';

export interface CidrBlock {
  text: string;
  bytes: Uint8Array;
  prefix_bits: number;
}

function parse_ipv4(text: string): Uint8Array | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const out = new Uint8Array(16);
  out[10] = 0xff;
  out[11] = 0xff;
  for (let i = 0; i < 4; i++) {
    if (!/^\d{1,3}$/.test(parts[i])) return null;
    const value = Number(parts[i]);
    if (value > 255) return null;
    out[12 + i] = value;
  }
  return out;
}

/** Parses an IPv4 or IPv6 address to 16 bytes, or null. */
export function parse_ip(text: string): Uint8Array | null {
  const kind = isIP(text);
  if (kind === 4) return parse_ipv4(text);
  if (kind !== 6) return null;
  let head = text;
  let tail_v4: Uint8Array | null = null;
  const last_colon = text.lastIndexOf(':');
  if (text.indexOf('.', last_colon) !== -1) {
    tail_v4 = parse_ipv4(text.slice(last_colon + 1));
    if (tail_v4 === null) return null;
    head = text.slice(0, last_colon) + ':0:0';
  }
  const halves = head.split('::');
  const left = halves[0] === '' ? [] : halves[0].split(':');
  const right = halves.length > 1 && halves[1] !== '' ? halves[1].split(':') : [];
  const groups = new Array<string>(8).fill('0');
  for (let i = 0; i < left.length; i++) groups[i] = left[i];
  for (let i = 0; i < right.length; i++) groups[8 - right.length + i] = right[i];
  const out = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    const value = parseInt(groups[i], 16);
    out[i * 2] = value >> 8;
    out[i * 2 + 1] = value & 0xff;
  }
  if (tail_v4 !== null) out.set(tail_v4.subarray(12), 12);
  return out;
}

/** Parses "a.b.c.d", "a.b.c.d/n", "x::y" or "x::y/n". IPv4 prefixes count within the mapped range. */
export function parse_cidr(text: string): CidrBlock | null {
  const slash = text.indexOf('/');
  const address = slash === -1 ? text : text.slice(0, slash);
  const bytes = parse_ip(address);
  if (bytes === null) return null;
  const is_v4 = isIP(address) === 4;
  const max_bits = is_v4 ? 32 : 128;
  let bits = max_bits;
  if (slash !== -1) {
    const prefix = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(prefix)) return null;
    bits = Number(prefix);
    if (bits > max_bits) return null;
  }
  return { text, bytes, prefix_bits: is_v4 ? bits + 96 : bits };
}

export function cidr_contains(block: CidrBlock, address: Uint8Array): boolean {
  let bits = block.prefix_bits;
  for (let i = 0; i < 16 && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((block.bytes[i] & mask) !== (address[i] & mask)) return false;
  }
  return true;
}

export function any_contains(blocks: readonly CidrBlock[], address: Uint8Array | null): boolean {
  if (address === null) return false;
  for (const block of blocks) if (cidr_contains(block, address)) return true;
  return false;
}

function v4_mapped(a: number, b: number, c: number, d: number): Uint8Array {
  const out = new Uint8Array(16);
  out[10] = 0xff;
  out[11] = 0xff;
  out[12] = a;
  out[13] = b;
  out[14] = c;
  out[15] = d;
  return out;
}

function starts_with(bytes: Uint8Array, prefix: readonly number[]): boolean {
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

/**
 * The IPv4 addresses an IPv6 address carries, in the normalised ::ffff:a.b.c.d form, for the ranges
 * whose traffic ends at that IPv4 host: IPv4-compatible ::a.b.c.d (::/96), IPv4-translated
 * ::ffff:0:a.b.c.d (::ffff:0:0:0/96), NAT64 64:ff9b::a.b.c.d (64:ff9b::/96), 6to4 2002:AABB:CCDD::/48
 * (2002::/16) and Teredo 2001:0:SSSS:SSSS:…:CCCC:CCCC (2001::/32: the server, and the client address
 * stored XORed with ones). An IPv4-mapped address is already in the normal form and carries nothing
 * more. A guard that refuses an internal IPv4 address must refuse each of these as well.
 */
export function embedded_ipv4(bytes: Uint8Array): Uint8Array[] {
  const zero_to = (end: number) => bytes.subarray(0, end).every((b) => b === 0);
  if (zero_to(12)) return [v4_mapped(bytes[12], bytes[13], bytes[14], bytes[15])];
  if (zero_to(8) && bytes[8] === 0xff && bytes[9] === 0xff && bytes[10] === 0 && bytes[11] === 0) {
    return [v4_mapped(bytes[12], bytes[13], bytes[14], bytes[15])];
  }
  if (starts_with(bytes, [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return [v4_mapped(bytes[12], bytes[13], bytes[14], bytes[15])];
  if (starts_with(bytes, [0x20, 0x02])) return [v4_mapped(bytes[2], bytes[3], bytes[4], bytes[5])];
  if (starts_with(bytes, [0x20, 0x01, 0x00, 0x00])) {
    return [v4_mapped(bytes[4], bytes[5], bytes[6], bytes[7]), v4_mapped(bytes[12] ^ 0xff, bytes[13] ^ 0xff, bytes[14] ^ 0xff, bytes[15] ^ 0xff)];
  }
  return [];
}
