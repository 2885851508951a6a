// Webhook delivery state is staged apart from the account (webhooks/dispatcher.ts), so a commit that
// fails no longer brings it back with the account's reload: the dispatcher puts its own state back
// (lost()). Regression: a replay of a dead delivery refused by a full disk took the delivery off the
// account's dead list on the dashboard, while the store still held it dead.
//
// The store lives on a small tmpfs mounted for this test (it needs root; without it the test is
// skipped and says why); a ballast file takes the free space below STORE_FREE_BYTES_MIN.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, rmdirSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { TestServer, type ApiResponse } from './helpers/server.js';
import { log_records, sleep, wait_for } from './helpers/fixtures-http.js';
import { sign_in } from './helpers/route-catalog.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';

const tmpfs_bytes = 8 * 1024 * 1024;
/** STORE_FREE_BYTES_MIN of the server under test. */
const reserve_bytes = 1024 * 1024;
/** Free space left above the reserve: less than the room any batch needs (16 pages beyond its bytes). */
const margin_bytes = 32 * 1024;
const batch_room_bytes = 16 * 4096;
/** Upper bounds only, generous for a 2-core machine shared with builds. */
const dead_limit_ms = 30_000;
const resume_limit_ms = 15_000;

function free_bytes(dir: string): number {
  const stats = statfsSync(dir);
  return Number(stats.bavail) * Number(stats.bsize);
}

const mount_point = mkdtempSync(join(tmpdir(), 'billvend-lostcommit-'));
let mount_error: string | null = null;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${tmpfs_bytes}`, 'tmpfs', mount_point], { stdio: 'pipe' });
} catch (error) {
  mount_error = (String((error as { stderr?: Buffer }).stderr ?? '').trim() || (error as Error).message).replace(/\s+/g, ' ');
}

if (mount_error !== null) {
  rmdirSync(mount_point);
  t.test('a replay refused by a full disk leaves the delivery on the dead list', { skip: `cannot mount a tmpfs: ${mount_error}` }, async () => {});
} else {
  const data_dir = join(mount_point, 'store');
  mkdirSync(data_dir);
  const ballast = join(mount_point, 'ballast');
  const receiver = new WebhookReceiver();
  receiver.otherwise = 500;
  await receiver.start();
  // TIME_SCALE 0.001: a dashboard session lasts 43 s (7.2 s idle); the delivery is retried at once
  // (POST .../retry) rather than on the schedule, so it dies in moments.
  const server = new TestServer(data_dir, webhook_env({ TIME_SCALE: '0.001', STORE_FREE_BYTES_MIN: String(reserve_bytes), LOG_LEVEL: 'info' }));
  t.teardown(async () => {
    await receiver.stop();
    await server.kill();
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        execFileSync('umount', [mount_point], { stdio: 'pipe' });
        break;
      } catch {
        execFileSync('sleep', ['0.1']);
      }
    }
    rmSync(mount_point, { recursive: true, force: true });
  });
  await server.start();

  const disk_free_seen = async (): Promise<number> => {
    const metrics = await server.admin('GET', '/metrics');
    const line = metrics.text.split('\n').find((each) => each.startsWith('billvend_store_disk_free_bytes '));
    return Number(line?.split(' ')[1] ?? Number.NaN);
  };
  const dead_list = (session: { cookie: string }): Promise<ApiResponse> =>
    server.request('GET', '/dashboard/api/webhooks-dead?environment=test', { headers: { cookie: `bv_session=${session.cookie}` } });

  t.test('a replay of a dead delivery refused by a full disk leaves it dead on the dashboard\'s list, and it replays once space is back', async (t) => {
    const account = await server.reseller(1_000, {}, { rate_limit_per_minute: 1_000_000 });
    const created = await server.api('POST', '/v1/webhooks', { key: account.key, body: { url: receiver.url, events: ['wallet.credited'] } });
    t.equal(created.status, 201, `the endpoint is registered: ${created.text}`);
    receiver.secret = created.body.data.secret;
    const endpoint_id = created.body.data.id;
    const credited = await server.credit(account.id, 'test', 100, `R-${randomBytes(5).toString('hex')}`);
    t.equal(credited.status, 201, 'a credit makes a delivery');

    const deadline = Date.now() + dead_limit_ms;
    let dead: any = null;
    while (dead === null && Date.now() < deadline) {
      const listed = await server.api('GET', `/v1/webhooks/${endpoint_id}/deliveries`, { key: account.key });
      const delivery = listed.body?.data?.deliveries?.[0];
      if (delivery?.status === 'dead') dead = delivery;
      else if (delivery?.status === 'pending') await server.api('POST', `/v1/webhooks/${endpoint_id}/deliveries/${delivery.id}/retry`, { key: account.key });
      if (dead === null) await sleep(50);
    }
    t.ok(dead !== null, `the delivery is dead after 6 failed attempts (${receiver.received.length} received)`);
    if (dead === null) return;
    const session = await sign_in(server, account.email, account.password);
    const before = await dead_list(session);
    t.same(before.body?.data?.deliveries?.map((d: any) => d.id), [dead.id], 'the dashboard lists the dead delivery');

    // The key was used within the minute, so the replay's request stages nothing but the replay.
    // Just above the reserve: the server still takes writes (a disk below it refuses them at the door),
    // but no batch fits any more, so the replay's commit is the one refused.
    writeFileSync(ballast, Buffer.alloc(Math.max(0, free_bytes(mount_point) - reserve_bytes - margin_bytes)));
    const free = free_bytes(mount_point);
    t.ok(free >= reserve_bytes && free < reserve_bytes + batch_room_bytes, `free space is just above the reserve (${free} bytes)`);
    const seen_by = Date.now() + 5000;
    while (await disk_free_seen() > free && Date.now() < seen_by) await sleep(50);
    t.equal(await disk_free_seen(), free, 'the server has seen the free space as it is now');

    const refused = await server.api('POST', `/v1/webhooks/${endpoint_id}/deliveries/${dead.id}/replay`, { key: account.key });
    t.equal(refused.status, 503, `the replay is refused: its commit cannot be written (${refused.text.slice(0, 200)})`);
    t.equal(refused.body?.error?.code, 'service.unavailable', 'as service.unavailable');
    const heard = await wait_for(() => log_records(server).some((r) => String(r.msg).startsWith('webhook delivery changes lost with a failed commit')), 5000, 'the dispatcher to log the lost delivery').catch(() => false);
    t.ok(heard, 'the dispatcher heard that its staged delivery was lost');
    if (!heard) t.comment(log_records(server).slice(-15).map((r) => r.msg).join(' | '));

    const after = await dead_list(session);
    t.equal(after.status, 200, 'the dead list is read while the disk is full');
    t.same(after.body?.data?.deliveries?.map((d: any) => d.id), [dead.id], 'the dead delivery is still listed: the refused replay changed nothing');
    const listed = await server.api('GET', `/v1/webhooks/${endpoint_id}/deliveries`, { key: account.key });
    t.equal(listed.body?.data?.deliveries?.[0]?.status, 'dead', 'and the delivery reads dead, as the store holds it');
    t.equal(listed.body?.data?.deliveries?.[0]?.series, 1, 'in its first series');

    rmSync(ballast);
    receiver.otherwise = 200;
    const freed_at = Date.now();
    let replay: ApiResponse | null = null;
    while (Date.now() - freed_at < resume_limit_ms) {
      replay = await server.api('POST', `/v1/webhooks/${endpoint_id}/deliveries/${dead.id}/replay`, { key: account.key });
      if (replay.status === 202) break;
      await sleep(200);
    }
    t.equal(replay?.status, 202, `once space is back the replay is accepted (${replay?.text.slice(0, 200)})`);
    t.equal(replay?.body?.data?.series, 2, 'as a second series');
    await receiver.wait_for(7, 15_000);
    t.equal(receiver.received[6].answered, 200, 'the replay reaches the mended receiver');
    // The attempt is recorded once the receiver's answer is back: the list empties then.
    const emptied_by = Date.now() + 10_000;
    let emptied = await dead_list(session);
    while (emptied.body?.data?.deliveries?.length !== 0 && Date.now() < emptied_by) {
      await sleep(100);
      emptied = await dead_list(session);
    }
    t.same(emptied.body?.data?.deliveries, [], 'and the dead list empties once the replay delivered');
  });
}
