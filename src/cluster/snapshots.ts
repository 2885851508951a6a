// Snapshots keep the stream bounded. The leader copies its store now and then (an LMDB copy taken in
// one read transaction, so it holds exactly the batches up to the `cluster_applied` it records),
// waits until the stream has acknowledged that batch, uploads the copy to a JetStream object store
// and then removes the stream's messages before it. A node whose store cannot follow the stream
// (empty, too far behind, or holding a tail the stream lacks) installs the latest copy instead.
import type { Logger } from 'pino';
import { chmodSync, createReadStream, createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { StorageType, type JetStreamManager } from '@nats-io/jetstream';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { open_store, store_file_mode, type Store } from '../journal/store.js';
import { applied_position, stream_name, type AppliedPosition } from './codec.js';
import type { NodeState } from './node-state.js';

export const snapshot_bucket = 'billvend-snapshots';
const snapshot_object = 'store';
/** How often the leader checks whether a snapshot is due. */
const check_interval_ms_max = 1000;
/** A failing snapshot check is logged once in this many (a check a second at most: about half a minute). */
const failures_per_log = 30;
/** How long a snapshot waits for the stream to acknowledge the batch it holds before giving up. */
const ack_wait_ms_max = 30_000;

export class Snapshots {
  private bucket: ObjectStore | null = null;
  private timer: NodeJS.Timeout | null = null;
  private taking = false;
  private stopped = false;

  constructor(
    private readonly node: NodeState,
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly data_dir: string,
    private readonly log: Logger,
  ) {}

  async open(replicas: number): Promise<void> {
    this.bucket = await new Objm(this.nc).create(snapshot_bucket, { replicas, storage: StorageType.File });
  }

  /** The latest snapshot's position, or null when none was taken yet. */
  async latest(): Promise<AppliedPosition | null> {
    return (await this.latest_taken())?.position ?? null;
  }

  /** The latest snapshot's position and when it was uploaded (the object's modification time), or null. */
  private async latest_taken(): Promise<{ position: AppliedPosition; taken_ms: number } | null> {
    const info = await this.bucket!.info(snapshot_object);
    if (info === null || info.deleted) return null;
    const position = JSON.parse(info.description ?? 'null') as AppliedPosition | null;
    if (position === null) return null;
    const taken_ms = Date.parse(info.mtime);
    return { position, taken_ms: Number.isFinite(taken_ms) ? taken_ms : Date.now() };
  }

  // ---- Installing -------------------------------------------------------------------------------

  /** Replaces DATA_DIR's store (closed) by the latest snapshot. */
  async install(): Promise<void> {
    const dir = join(this.data_dir, 'cluster-snapshot-in');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, 'data.mdb');
    const result = await this.bucket!.get(snapshot_object);
    if (result === null) throw new Error('cluster: the snapshot vanished while it was being fetched');
    await pipeline(Readable.fromWeb(result.data as import('node:stream/web').ReadableStream<Uint8Array>), createWriteStream(path, { mode: store_file_mode }));
    const error = await result.error;
    if (error) throw error;
    this.wipe_store();
    renameSync(path, join(this.data_dir, 'data.mdb'));
    chmodSync(join(this.data_dir, 'data.mdb'), store_file_mode);
    rmSync(dir, { recursive: true, force: true });
    this.log.info({ snapshot: JSON.parse(result.info.description ?? 'null'), bytes: result.info.size }, 'cluster: installed the latest snapshot');
  }

  /** Removes the (closed) local store: the node then rebuilds it from a snapshot or the stream. */
  wipe_store(): void {
    for (const file of ['data.mdb', 'lock.mdb']) rmSync(join(this.data_dir, file), { force: true });
  }

  // ---- Taking (leader) ----------------------------------------------------------------------------

  /**
   * Checks every second whether a snapshot is due: none exists yet (the first leader of a cluster: a node joining
   * later needs a base), or the stream acknowledged CLUSTER_SNAPSHOT_BATCHES_MAX batches past the latest one, or it
   * is CLUSTER_SNAPSHOT_INTERVAL_MS old and batches came since. Both are counted from the latest snapshot, whoever
   * took it: counted from this leader's take-over, as they were, a cluster whose leader changed more often than that
   * never took one after its first (the partition campaign of 2026-11-29: 116,000 batches in 45 minutes, every
   * rebuild replaying them all from the first snapshot).
   */
  start_leading(store: Store): void {
    const config = this.node.config;
    const check = async (): Promise<void> => {
      if (this.stopped || this.node.role !== 'leader') return;
      const latest = await this.latest_taken();
      const acked = this.node.acked_seq;
      const due = latest === null
        || (acked > latest.position.seq && (acked - latest.position.seq >= config.snapshot_batches_max || Date.now() - latest.taken_ms >= config.snapshot_interval_ms));
      if (due) await this.take(store);
    };
    // A check that fails is tried again at the next tick; said once, then once every failures_per_log ticks: while
    // JetStream has no meta-group leader every check fails (24 s in the partition campaign of 2026-11-29, one error
    // line a second before).
    let failures = 0;
    const tick = (first: boolean) => {
      this.timer = setTimeout(() => {
        check().then(() => {
          if (failures > 0) this.log.info({ failures }, 'cluster: snapshot checks answered again');
          failures = 0;
        }, (error) => {
          if (failures++ % failures_per_log === 0) this.log.error({ err: error, failures }, 'cluster: snapshot failed; the stream keeps its messages until the next one');
        }).finally(() => { if (!this.stopped) tick(false); });
      }, first ? 0 : Math.min(check_interval_ms_max, config.snapshot_interval_ms));
    };
    tick(true);
  }

  /** Takes a snapshot now (the leader only). */
  async take(store: Store): Promise<AppliedPosition | null> {
    if (this.taking) return null;
    this.taking = true;
    const dir = join(this.data_dir, 'cluster-snapshot-out');
    try {
      const started = performance.now();
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const path = join(dir, 'data.mdb');
      // lmdb-js copies a directory store into a directory: DIR/data.mdb.
      await store.root.backup(dir, false);
      const copy = open_store(dir, { read_only: true });
      const position = applied_position(copy);
      await copy.root.close();
      if (position === null) return null;
      // The copy may hold a batch the stream has not acknowledged yet: wait for it, and give up if the
      // append fails (this node is then deposed and the copy holds a batch the cluster does not).
      const deadline = Date.now() + ack_wait_ms_max;
      while (this.node.acked_seq < position.seq) {
        if (this.node.role !== 'leader' || Date.now() > deadline) return null;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const source = Readable.toWeb(createReadStream(path)) as unknown as ReadableStream<Uint8Array>;
      const info = await this.bucket!.put({ name: snapshot_object, description: JSON.stringify(position) }, source);
      // Everything before the snapshot's batch goes; the batch itself stays, so a node standing exactly
      // there can still check its digest.
      // nats-server reads a purge up to sequence 0 or 1 as "purge everything" (filestore PurgeEx), which
      // would also take the snapshot's own batch and any acknowledged after it: at 1 nothing precedes it.
      const purged = position.seq > 1 ? await this.jsm.streams.purge(stream_name, { seq: position.seq }) : { purged: 0 };
      this.log.info({ seq: position.seq, bytes: info.size, purged: purged.purged, duration_ms: Math.round(performance.now() - started) }, 'cluster: snapshot taken; stream trimmed');
      return position;
    } finally {
      rmSync(dir, { recursive: true, force: true });
      this.taking = false;
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
  }
}
