// A running server as start() hands it back (main.ts): its two ports, what its routes use, and how it stops.
// A single node and a cluster node (standby, then leader) answer with the same shape (cluster-standby.ts).
import type { Deps } from '../front/deps.js';

export interface Server {
  port: number;
  admin_port: number;
  deps: Deps;
  stop(): Promise<void>;
}
