// What a cluster node knows of itself (docs/cluster.md): its role, the leader it knows of, the store it
// holds and the last batch in it, how far the stream and the acknowledgements stand, whether it was
// stopped or its store diverged, and how it ends when deposed or when a repair gives up. The base of the
// node's layers (cluster-node.ts lists them); the snapshot store (snapshots.ts) reads the node through it.
// Not here: how any of it changes: the NATS connection (nats-link.ts), the lease (lease.ts), the stream's
// appender and follower, the repair and the take-over each in their own file.
import type { Logger } from 'pino';
import type { ClusterConfig } from '../config.js';
import type { Store } from '../journal/store.js';
import type { AppliedPosition, StoreNames } from './codec.js';
import { deposed_exit_code, diverged_exit_code } from './cluster-errors.js';

export type ClusterRole = 'standby' | 'leader' | 'deposed';

export abstract class NodeState {
  role: ClusterRole = 'standby';
  protected leader: string | null = null;
  protected store: Store | null = null;
  protected names: StoreNames | null = null;
  /** The last batch this store holds (standby: applied; leader: appended locally, maybe not yet acked). */
  protected applied: AppliedPosition = { seq: 0, digest: '' };
  /** Leader: the last sequence the stream acknowledged. */
  acked_seq = 0;
  protected stream_seq = 0;
  protected stopped = false;
  /** Why this standby's store must be repaired from the stream leader's history (see repair); null when it need not. */
  protected diverged: string | null = null;

  protected constructor(
    readonly config: ClusterConfig,
    protected readonly data_dir: string,
    protected readonly log: Logger,
    /**
     * Called once when this node is deposed (exit_code deposed_exit_code) or gives up repairing its
     * store (diverged_exit_code); the caller ends the process with that code.
     */
    private readonly on_deposed: (reason: string, exit_code: number) => void,
  ) {}

  get node(): string {
    return this.config.node_name;
  }

  depose(reason: string): void {
    if (this.role === 'deposed' || this.stopped) return;
    const was = this.role;
    this.role = 'deposed';
    this.leader = null;
    this.log.error({ reason, was, acked_seq: this.acked_seq, applied_seq: this.applied.seq }, 'cluster: deposed; refusing every write and restarting as a standby');
    this.on_deposed(reason, deposed_exit_code);
  }

  /** The last resort of a repair (see repair): the process ends with diverged_exit_code, which a supervisor does not restart. */
  protected give_up(message: string): void {
    if (this.role === 'deposed' || this.stopped) return;
    this.role = 'deposed';
    this.leader = null;
    this.on_deposed(message, diverged_exit_code);
  }
}
