// The headers of a webhook delivery (docs/api.md "Webhooks"), in one place: the dispatcher's POST
// (delivery-transport.ts) and `billvend listen`'s forwarded events (operator/cli-listen.ts) send exactly these.
import type { Signatures } from './webhook-signer.worker.js';

export const delivery_user_agent = 'billvend-webhooks/1';

export function delivery_headers(event: { id: string; kind: string }, body_bytes: number, signatures: Signatures, timestamp_s: number): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(body_bytes),
    'user-agent': delivery_user_agent,
    'x-service-signature': signatures.service,
    'x-service-event': event.kind,
    'webhook-id': event.id,
    'webhook-timestamp': String(timestamp_s),
    'webhook-signature': signatures.standard,
  };
  // A second header, not a second value: receivers comparing X-Service-Signature with one
  // expected value keep working (docs/api.md "Rolling a secret").
  if (signatures.service_previous !== null) headers['x-service-signature-previous'] = signatures.service_previous;
  return headers;
}
