// The journal's promise: a reply leaves only once its commit is flushed to disk. kill -9 alone keeps
// the OS page cache, which would hide a reply sent before the flush, so the server is restarted with
// LMDB_RESTORE=safe: lmdb-js then opens the last *flushed* transaction, as after a power cut.
import t from 'tap';
import { TestServer, temp_dir } from './helpers/server.js';
import { rmSync } from 'node:fs';

interface Ack {
  account_id: number;
  reference: string;
  amount: number;
  entry_id: number;
}

async function all_entries(server: TestServer, key: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const response = await server.api('GET', `/v1/wallet/transactions?per_page=100&page=${page}`, { key });
    if (response.status !== 200) {
      await new Promise((r) => setTimeout(r, 200));
      const errors = server.logs.filter((line) => /"level":"(error|fatal)"/.test(line)).slice(-3).join('\n');
      throw new Error(`wallet transactions: ${response.status} ${response.text}\n${errors}`);
    }
    out.push(...response.body.data.transactions);
    if (page >= response.body.data.pagination.last_page) return out;
  }
}

t.test('every credit acknowledged before a kill -9 survives a restart that keeps only flushed commits, exactly once', async (t) => {
  const data_dir = temp_dir();
  t.teardown(() => rmSync(data_dir, { recursive: true, force: true }));
  const server = new TestServer(data_dir, { LOG_LEVEL: 'warn' });
  t.teardown(() => server.kill());
  await server.start();

  const accounts: { id: number; key: string }[] = [];
  for (let i = 0; i < 4; i++) {
    const account = await server.create_account();
    const key = await server.create_key(account.id, { rate_limit_per_minute: 1_000_000 });
    accounts.push({ id: account.id, key: key.api_key });
  }

  const acks: Ack[] = [];
  const rounds = 3;
  let sequence = 0;
  for (let round = 0; round < rounds; round++) {
    // 40 concurrent writers credit random accounts until the server dies under them.
    let alive = true;
    const writer = async () => {
      while (alive) {
        const account = accounts[sequence % accounts.length];
        const reference = `R${round}-${sequence}`;
        const amount = 1 + (sequence % 97) + (sequence % 7) / 100;
        sequence++;
        try {
          const response = await server.admin('POST', `/admin/accounts/${account.id}/wallet/credit`, { environment: 'test', amount, reference });
          if (response.status === 201) acks.push({ account_id: account.id, reference, amount, entry_id: response.body.data.id });
        } catch {
          return; // the connection died with the server
        }
      }
    };
    const writers = Array.from({ length: 40 }, writer);
    const acked_before = acks.length;
    while (acks.length < acked_before + 300) await new Promise((r) => setTimeout(r, 5));
    await server.kill();
    alive = false;
    await Promise.all(writers);
    await server.start({ LMDB_RESTORE: 'safe' });
  }
  t.ok(acks.length >= rounds * 300, `${acks.length} credits were acknowledged across ${rounds} kills`);

  let total_checked = 0;
  for (const account of accounts) {
    const entries = await all_entries(server, account.key);
    const wallet = await server.api('GET', '/v1/wallet', { key: account.key });
    const by_reference = new Map<string, number>();
    for (const entry of entries) by_reference.set(entry.reference, (by_reference.get(entry.reference) ?? 0) + 1);
    const duplicated = [...by_reference].filter(([, count]) => count > 1);
    t.same(duplicated, [], `account ${account.id}: no reference appears twice`);
    const mine = acks.filter((a) => a.account_id === account.id);
    const missing = mine.filter((a) => !by_reference.has(a.reference));
    t.same(missing, [], `account ${account.id}: all ${mine.length} acknowledged credits are present`);
    const sum_kobo = entries.reduce((sum, e) => sum + Math.round(e.amount * 100), 0);
    t.equal(Math.round(wallet.body.data.balance * 100), sum_kobo, `account ${account.id}: the balance equals the sum of the wallet entries`);
    const ids = entries.map((e) => e.id).sort((a, b) => a - b);
    t.same(ids, Array.from({ length: ids.length }, (_, i) => i + 1), `account ${account.id}: entry ids run 1..${ids.length} without gaps`);
    total_checked += mine.length;
  }
  t.equal(total_checked, acks.length, 'every acknowledgement was checked');

  // Re-sending each acknowledged request changes nothing.
  const balances_before = await Promise.all(accounts.map((a) => server.api('GET', '/v1/wallet', { key: a.key })));
  for (let i = 0; i < acks.length; i += 25) {
    await Promise.all(acks.slice(i, i + 25).map(async (ack) => {
      const response = await server.admin('POST', `/admin/accounts/${ack.account_id}/wallet/credit`, { environment: 'test', amount: ack.amount, reference: ack.reference });
      if (response.status !== 201 || response.body.data.id !== ack.entry_id || response.headers.get('idempotent-replayed') !== 'true') {
        t.fail(`re-sent ${ack.reference} answered ${response.status} ${response.text}`);
      }
    }));
  }
  const balances_after = await Promise.all(accounts.map((a) => server.api('GET', '/v1/wallet', { key: a.key })));
  t.same(balances_after.map((b) => b.body.data.balance), balances_before.map((b) => b.body.data.balance), 're-sending every acknowledged credit changed no balance');
});
