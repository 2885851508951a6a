// Webhook URLs must be HTTPS and must not point into the operator's network: a host that resolves to
// a loopback, private, link-local or otherwise internal address is refused, at registration and again
// at each delivery (DNS may change), unless WEBHOOK_ALLOW_PRIVATE_TARGETS=1 (decisions.md).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { parse_cidr, any_contains, parse_ip } from '../lib/ip-address.js';

export const url_length_max = 2048;

const internal_blocks = [
  '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24',
  '192.168.0.0/16', '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4',
  '::/128', '::1/128', 'fc00::/7', 'fe80::/10', 'ff00::/8',
].map((text) => parse_cidr(text)!);

export function is_internal_address(address: string): boolean {
  return any_contains(internal_blocks, parse_ip(address));
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
  const host = url.hostname.replace(/^\[|\]$/g, '');
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
