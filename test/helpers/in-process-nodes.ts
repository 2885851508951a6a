// Billvend cluster nodes whose lease, take-over and journal code runs in the test's own process, on real
// NATS servers (test/cluster-double-grant, test/cluster-phantom-batch): each joins through the server given,
// with its own store folder and its logs and exit requests kept for the test to read.
import { rmSync } from 'node:fs';
import { pino } from 'pino';
import type { Test } from 'tap';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { NatsCluster, test_lease_ms } from './nats-cluster.js';
import { NatsReplicaProxy } from './nats-replica-proxy.js';
import { stream_name } from '../../src/cluster/codec.js';
import { temp_dir } from './server.js';
import { ClusterNode } from '../../src/cluster/cluster-node.js';
import type { Store } from '../../src/journal/store.js';
import { open_store } from '../../src/journal/store.js';
import type { ClusterConfig } from '../../src/config.js';
import { write_changes, type StagedChange } from '../../src/journal/journal.js';

export interface Member {
  name: string;
  node: ClusterNode;
  dir: string;
  logs: string[];
  exits: string[];
  store: Store | null;
}

export interface InProcessNodes {
  /**
   * A node named `name` dialling NATS server `server` (null: every server), its store prepared. snapshots:
   * false stops its snapshots; url dials that address instead (a proxy in front of a server); snapshot_batches_max is
   * its CLUSTER_SNAPSHOT_BATCHES_MAX (default 100,000).
   */
  join(name: string, server: number | null, options?: { snapshots?: boolean; url?: string; snapshot_batches_max?: number }): Promise<Member>;
  /** Stops every node, closes its store and removes its folder (call it before the NATS servers stop). */
  stop_all(): Promise<void>;
}

export function in_process_nodes(nats: NatsCluster): InProcessNodes {
  const members: Member[] = [];
  return {
    async join(name, server, options = {}) {
      const dir = temp_dir(`billvend-${name}-`);
      const logs: string[] = [];
      const exits: string[] = [];
      const log = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
      const config: ClusterConfig = {
        nats_urls: options.url !== undefined ? [options.url] : server === null ? nats.url.split(',') : [`nats://127.0.0.1:${nats.nodes[server].client_port}`],
        node_name: name,
        lease_ms: test_lease_ms,
        replicas: 3,
        snapshot_batches_max: options.snapshot_batches_max ?? 100_000,
        snapshot_interval_ms: 15 * 60_000,
        start_wait_ms_max: 30_000,
      };
      const node = await ClusterNode.connect(config, dir, log, (reason, code) => void exits.push(`${code}: ${reason}`));
      await node.prepare_store(() => open_store(dir));
      if (options.snapshots === false) node.snapshots.stop();
      const member: Member = { name, node, dir, logs, exits, store: null };
      members.push(member);
      return member;
    },
    async stop_all() {
      for (const member of members) {
        await member.node.stop().catch(() => {});
        await member.node.current_store()?.root.close().catch(() => {});
        rmSync(member.dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Appends batches as a leading node's journal does: each one change (`batch-<n>` in the meta database), taken by the
 * stream, then written to the node's store; resolves once the stream acknowledged it.
 */
export function batch_appender(member: Member, store: Store): () => Promise<void> {
  let appended = 0;
  return async () => {
    const encoded = (store.meta as any).encoder.encode(`batch ${appended}`);
    const changes: StagedChange[] = [{ db: store.meta, key: `batch-${appended++}`, encoded }];
    const { changes: position, appended: acked } = member.node.append(changes);
    await write_changes([...changes, ...position]);
    await acked;
  };
}

/**
 * Three NATS servers and the in-process nodes on them, all stopped when the test ends; with `proxy`, a NatsReplicaProxy in
 * front of server 0 (a node dials it by `url: proxy.url`); with `client`, a connection of the test's own to every server.
 */
export async function in_process_cluster(t: Test, options: { proxy?: boolean; client?: boolean } = {}): Promise<{
  nats: NatsCluster; nodes: InProcessNodes; proxy: NatsReplicaProxy; nc: NatsConnection | null;
}> {
  const nats = await NatsCluster.start(3);
  const proxy = new NatsReplicaProxy(nats.nodes[0].client_port, stream_name);
  if (options.proxy === true) await proxy.start();
  const nodes = in_process_nodes(nats);
  const nc = options.client === true ? await connect({ servers: nats.url.split(','), timeout: 5000 }) : null;
  t.teardown(async () => {
    await nodes.stop_all();
    await nc?.close();
    if (options.proxy === true) await proxy.stop();
    await nats.stop();
  });
  return { nats, nodes, proxy, nc };
}
