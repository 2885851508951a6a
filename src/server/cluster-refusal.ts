// What a cluster node answers while it does not lead (docs/cluster.md): 503 service.unavailable with
// Retry-After, on the public and the operator front ends alike.
import { api_error, type ApiError } from '../errors.js';
import type { ClusterNode } from '../cluster/cluster-node.js';

/** A cluster node's refusal while it does not lead (a standby, or a leader whose lease ran out). */
export function cluster_refused(cluster: ClusterNode | null): ApiError | null {
  const reason = cluster?.refusal_reason() ?? null;
  return reason === null ? null : api_error('service.unavailable', reason, { headers: { 'Retry-After': '1' } });
}
