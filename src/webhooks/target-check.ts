// Webhook URLs must be HTTPS and must not point into the operator's network: a host that resolves to
// a loopback, private, link-local or otherwise internal address is refused, at registration and again
// at each delivery (DNS may change), unless WEBHOOK_ALLOW_PRIVATE_TARGETS=1 (docs/decisions.md).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { parse_cidr, any_contains, embedded_ipv4, parse_ip } from '../lib/ip-address.js';

export const url_length_max = 2048;

const internal_blocks = [
  '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24',
  '192.168.0.0/16', '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4',
  '::/128', '::1/128', 'fc00::/7', 'fe80::/10', 'ff00::/8',
  // Local-use NAT64 (RFC 8215): the IPv4 address sits at a place that depends on the operator's prefix
  // length, so the whole range, which is never global, is refused.
  '64:ff9b:1::/48',
].map((text) => parse_cidr(text)!);

/**
 * Whether an address (literal in the URL or resolved by DNS: both come here) is internal. An IPv6
 * address that embeds an IPv4 address (IPv4-compatible, NAT64, 6to4, Teredo) is judged by that IPv4
 * address too, so that https://[::127.0.0.1]/ or https://[2002:7f00:1::]/ cannot reach the loopback.
 * What does not parse as an address is refused.
 */
export function is_internal_address(address: string): boolean {
  const bytes = parse_ip(address);
  if (bytes === null || any_contains(internal_blocks, bytes)) return true;
  for (const inner of embedded_ipv4(bytes)) if (any_contains(internal_blocks, inner)) return true;
  return false;
}

/** The URL's host without the brackets of an IPv6 literal. */
export function url_host(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * A host given as an IP literal never goes through DNS, so the delivery's guarded lookup does not
 * see it: the dispatcher asks this before each attempt (an endpoint registered under an older,
 * laxer guard is refused too).
 */
export function is_internal_literal(url: URL): boolean {
  const host = url_host(url);
  return isIP(host) !== 0 && is_internal_address(host);
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** Shape checks that need no network: HTTPS, no credentials, a host, a sane length. */
export function check_url_shape(text: string): UrlCheck {
  if (text.length > url_length_max) return { ok: false, reason: `must be at most ${url_length_max} characters` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'must be an absolute URL' };
  }
  if (url.protocol === 'http:') return { ok: false, reason: 'must be HTTPS: plain HTTP endpoints receive nothing' };
  if (url.protocol !== 'https:') return { ok: false, reason: 'must be an https:// URL' };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'must not carry credentials' };
  if (url.hostname === '') return { ok: false, reason: 'must name a host' };
  return { ok: true, url };
}

/** Resolves the host and refuses internal addresses unless allowed. */
export async function check_target(url: URL, allow_private: boolean): Promise<UrlCheck> {
  if (allow_private) return { ok: true, url };
  const host = url_host(url);
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true })).map((a) => a.address);
    } catch {
      return { ok: false, reason: 'host does not resolve' };
    }
  }
  if (addresses.length === 0 || addresses.some(is_internal_address)) {
    return { ok: false, reason: 'must not point at a loopback, private or link-local address' };
  }
  return { ok: true, url };
}
