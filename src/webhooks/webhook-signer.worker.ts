// Runs in a piscina worker thread: signs a batch of webhook bodies. One task signs many bodies,
// because a task's round trip to a worker costs about 20 µs against about 2 µs to sign, and batches
// of 64 bring the cost to about 3 µs per signature (measured for the webhooks issue).
import { createHmac } from 'node:crypto';

export interface SignJob {
  /** The webhook secret, whsec_ followed by base64 text (Standard Webhooks convention). */
  secret: string;
  /** During a rolled secret's grace period, the secret it replaced: the delivery is signed with both. */
  previous_secret?: string;
  event_id: string;
  timestamp_s: number;
  body: string;
}

export interface Signatures {
  /** X-Service-Signature (docs/spec.md section 6): sha256= + hex HMAC-SHA256 of the raw body, keyed with the secret. */
  service: string;
  /**
   * webhook-signature (Standard Webhooks): v1, + base64 HMAC-SHA256 of "id.timestamp.body" with the
   * secret's key bytes. With a previous secret, its signature follows after a space: the Standard
   * Webhooks list form, which its verifiers accept when any one signature matches.
   */
  standard: string;
  /** X-Service-Signature-Previous: the service signature with the previous secret, when there is one. */
  service_previous: string | null;
}

function service_signature(secret: string, body: string): string {
  return 'sha256=' + createHmac('sha256', secret).update(body).digest('hex');
}

function standard_signature(secret: string, job: SignJob): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  return 'v1,' + createHmac('sha256', key).update(`${job.event_id}.${job.timestamp_s}.${job.body}`).digest('base64');
}

export function sign(job: SignJob): Signatures {
  const service = service_signature(job.secret, job.body);
  const standard = standard_signature(job.secret, job);
  if (job.previous_secret === undefined) return { service, standard, service_previous: null };
  return { service, standard: `${standard} ${standard_signature(job.previous_secret, job)}`, service_previous: service_signature(job.previous_secret, job.body) };
}

export default function sign_batch(jobs: SignJob[]): Signatures[] {
  return jobs.map(sign);
}
