// Runs in a piscina worker thread: signs a batch of webhook bodies. One task signs many bodies,
// because a task's round trip to a worker costs about 20 µs against about 2 µs to sign, and batches
// of 64 bring the cost to about 3 µs per signature (measured for the webhooks issue).
import { createHmac } from 'node:crypto';

export interface SignJob {
  /** The webhook secret, whsec_ followed by base64 text (Standard Webhooks convention). */
  secret: string;
  event_id: string;
  timestamp_s: number;
  body: string;
}

export interface Signatures {
  /** X-Service-Signature (docs/spec.md section 6): sha256= + hex HMAC-SHA256 of the raw body, keyed with the secret. */
  service: string;
  /** webhook-signature (Standard Webhooks): v1, + base64 HMAC-SHA256 of "id.timestamp.body" with the secret's key bytes. */
  standard: string;
}

export function sign(job: SignJob): Signatures {
  const service = 'sha256=' + createHmac('sha256', job.secret).update(job.body).digest('hex');
  const key = Buffer.from(job.secret.startsWith('whsec_') ? job.secret.slice(6) : job.secret, 'base64');
  const standard = 'v1,' + createHmac('sha256', key).update(`${job.event_id}.${job.timestamp_s}.${job.body}`).digest('base64');
  return { service, standard };
}

export default function sign_batch(jobs: SignJob[]): Signatures[] {
  return jobs.map(sign);
}
