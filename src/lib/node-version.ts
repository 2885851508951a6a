// The Node.js versions billvend runs on (docs/operations.md "Runtime"). uWebSockets.js comes as
// uws-pack@20.0.8, whose binaries exist for Node 18, 20, 21 and 22 only (newer uWS builds need glibc 2.38,
// which Debian 12 lacks); of those, 20 and 22 are the long-term releases we test. On any other version the
// server would fail deep inside uWS's loader; it stops here instead, naming the versions it needs.
export const supported_node_majors = [20, 22] as const;

export function node_major(version: string): number {
  return Number.parseInt(/^v?(\d+)\./.exec(version)?.[1] ?? '0', 10);
}

export function is_supported_node(version: string): boolean {
  return (supported_node_majors as readonly number[]).includes(node_major(version));
}

export function check_node_version(version: string = process.version): void {
  if (is_supported_node(version)) return;
  throw new Error(`billvend runs on Node.js ${supported_node_majors.join(' and ')}; this is Node.js ${version}`);
}

check_node_version();
