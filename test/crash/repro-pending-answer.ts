// Reproduces the crash campaign's finding "a retried live purchase answers 201 with status pending".
// Not a tap test (it is expected to find the bug until it is fixed); run it with
//   node --import=./node_modules/@tapjs/typescript/dist/esm/import.mjs test/crash/repro-pending-answer.ts
// It sends live purchases with idempotency keys, kills the server with SIGKILL right after a commit
// lands (in its flush window), restarts it with LMDB_RESTORE=safe and sends the same requests again
// at once. A live order whose debit was durable but whose "processing" commit was not is recovered as
// `pending`; the retry resumes it, waits its 5 s (scaled) for an answer, and answers with the order as
// it stands: 201 with status "pending", which docs/decisions.md does not allow (201 is "delivered" or
// "processing"). The idempotency record keeps that answer, so every later replay repeats it.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { TestServer, temp_dir } from '../helpers/server.js';
import { FakeUpstream } from '../helpers/fake-upstream.js';
import { warm_up_live } from '../helpers/purchases.js';
import { kill_in_flush_window } from './flush-window.js';

const data_dir = temp_dir('billvend-repro-');
const upstream = new FakeUpstream();
await upstream.start();
const server = new TestServer(data_dir, { TIME_SCALE: '0.001', LOG_LEVEL: 'warn', ...upstream.env(2_000) });
await server.start();
const account = await server.create_account({ kyc_level: 3 });
const key = (await server.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
await server.credit(account.id, 'live', 1_000_000);
await warm_up_live(server, key);

let found = false;
let n = 0;
for (let attempt = 1; attempt <= 40 && !found; attempt++) {
  const requests = Array.from({ length: 16 }, () => {
    n++;
    return { idempotency_key: `repro-${process.pid}-${n}`, body: { network: 'mtn', phone: `0803100${String(n).padStart(4, '0')}`, amount: 100, pin: account.pin } };
  });
  const first = requests.map((r) => server.api('POST', '/v1/services/airtime', { key, ...r }).catch(() => null));
  await kill_in_flush_window(join(data_dir, 'data.mdb'), server.pid!, 1_000, 1);
  await server.kill();
  await Promise.all(first);
  await server.start({ LMDB_RESTORE: 'safe' });
  const again = await Promise.all(requests.map((r) => server.api('POST', '/v1/services/airtime', { key, ...r })));
  for (const [i, response] of again.entries()) {
    if (response.status === 201 && response.body.data.status === 'pending') {
      found = true;
      const order = await server.api('GET', `/v1/transactions/${response.body.data.reference}`, { key });
      const replay = await server.api('POST', '/v1/services/airtime', { key, ...requests[i] });
      console.log(`attempt ${attempt}: the retry of ${requests[i].idempotency_key} after the restart answered`);
      console.log(`  ${response.status} ${response.text}`);
      console.log(`  the order now: ${order.body.data.status}, history ${JSON.stringify(order.body.data.status_history)}`);
      console.log(`  a later replay: ${replay.status} ${replay.text} (Idempotent-Replayed: ${replay.headers.get('idempotent-replayed')})`);
      break;
    }
  }
}
console.log(found ? 'reproduced' : 'not reproduced in 40 attempts');
await server.kill();
await upstream.stop();
rmSync(data_dir, { recursive: true, force: true });
