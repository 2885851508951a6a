// Cluster settings are checked before anything starts: a bad one is exit 2 with a clear message.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cli_path, temp_dir } from './helpers/server.js';

function serve(env: Record<string, string>): { status: number | null; stderr: string } {
  const data_dir = temp_dir();
  const run = spawnSync(process.execPath, [cli_path, 'serve'], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', ADMIN_PORT: '0', HOST: '127.0.0.1', DATA_DIR: data_dir, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  rmSync(data_dir, { recursive: true, force: true });
  return { status: run.status, stderr: run.stderr };
}

t.test('cluster mode without MASTER_KEY exits 2 and says every node needs the same key', async (t) => {
  const run = serve({ CLUSTER_NATS_URL: 'nats://127.0.0.1:1' });
  t.equal(run.status, 2, 'exit 2');
  t.match(run.stderr, /MASTER_KEY.*same value on every node/, 'the message names MASTER_KEY');
});

t.test('bad cluster settings exit 2 with the setting named', async (t) => {
  const key = 'a'.repeat(64);
  for (const [env, pattern] of [
    [{ CLUSTER_NATS_URL: 'http://x/y', MASTER_KEY: key }, /CLUSTER_NATS_URL/],
    [{ CLUSTER_NATS_URL: 'nats://127.0.0.1:1', MASTER_KEY: key, CLUSTER_LEASE_MS: '10' }, /CLUSTER_LEASE_MS/],
    [{ CLUSTER_NATS_URL: 'nats://127.0.0.1:1', MASTER_KEY: key, CLUSTER_REPLICAS: '7' }, /CLUSTER_REPLICAS/],
    [{ CLUSTER_NATS_URL: 'nats://127.0.0.1:1', MASTER_KEY: key, NODE_NAME: 'a b' }, /NODE_NAME/],
    [{ CLUSTER_NATS_URL: 'nats://127.0.0.1:1', MASTER_KEY: key, CLUSTER_START_WAIT_MS_MAX: '0' }, /CLUSTER_START_WAIT_MS_MAX/],
  ] as [Record<string, string>, RegExp][]) {
    const run = serve(env);
    t.equal(run.status, 2, `${JSON.stringify(env)}: exit 2`);
    t.match(run.stderr, pattern, `${JSON.stringify(env)}: names the setting`);
  }
});
