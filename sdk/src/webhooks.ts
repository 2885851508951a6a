// Verifying a webhook delivery exactly as billvend signs it (its docs/api.md "Webhooks"): `webhook-signature` is
// `v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part
// of the endpoint's secret after `whsec_` (the Standard Webhooks scheme). During the 24 hours after a secret roll
// the header lists two values separated by a space; one match is enough. The comparison is WebCrypto's HMAC
// verify, which compares in constant time, so no byte of the expected signature leaks through timing; it runs on
// Node 20+, Deno, Bun, Workers and browsers alike.
import { WebhookVerificationError } from './errors.js';
import type { BillvendEvent } from './types.js';

/** Headers as fetch (`Headers`) or node:http (`req.headers`) give them. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far the delivery's timestamp may be from now, in seconds; 300 by default (Standard Webhooks). */
  toleranceS?: number;
  /** Now, in Unix seconds (tests pass a fixed one). */
  nowS?: number;
}

const tolerance_s_default = 300;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

function base64_bytes(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * Checks a delivery's `webhook-signature` and timestamp and returns its event, parsed. `body` is the raw body as
 * received (a string or its bytes): parse it only after this resolves. Throws WebhookVerificationError otherwise.
 */
export async function verifyWebhook(body: string | Uint8Array, headers: HeaderSource, secret: string, options: VerifyOptions = {}): Promise<BillvendEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (id === undefined || timestamp === undefined || signatures === undefined) {
    throw new WebhookVerificationError('the delivery lacks webhook-id, webhook-timestamp or webhook-signature');
  }
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not Unix seconds');
  const now_s = options.nowS ?? Math.floor(Date.now() / 1000);
  const tolerance_s = options.toleranceS ?? tolerance_s_default;
  if (Math.abs(now_s - Number(timestamp)) > tolerance_s) {
    throw new WebhookVerificationError(`webhook-timestamp is more than ${tolerance_s} s from now: a replayed or delayed delivery`);
  }
  const key_bytes = base64_bytes(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  if (key_bytes === null || key_bytes.length === 0) throw new WebhookVerificationError('the secret is not whsec_ followed by base64');
  const key = await crypto.subtle.importKey('raw', key_bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${text}`);
  let verified = false;
  // Every listed value is checked, matched or not, so the time taken does not say which one matched.
  for (const candidate of signatures.split(' ')) {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || value === undefined) continue;
    const signature = base64_bytes(value);
    if (signature === null) continue;
    if (await crypto.subtle.verify('HMAC', key, signature, signed)) verified = true;
  }
  if (!verified) throw new WebhookVerificationError('no webhook-signature value matches the body and the secret');
  try {
    return JSON.parse(text) as BillvendEvent;
  } catch {
    throw new WebhookVerificationError('the signed body is not JSON');
  }
}
