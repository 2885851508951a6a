// kill -9 during concurrent transfers between a parent and its agents (docs/decisions.md "Money across
// accounts"): after a restart keeping only flushed commits (LMDB_RESTORE=safe), every acknowledged transfer
// is on both sides exactly once, no transfer is on one side only, every wallet's entries sum to its balance,
// and the tree's money is conserved.
import t from 'tap';
import { start_server, temp_dir, type TestServer } from './helpers/server.js';

const fast_key = { rate_limit_per_minute: 100_000 };
const agents_count = 3;
const transfers_count = 240;

async function all_entries(server: TestServer, key: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const answer = await server.api('GET', `/v1/wallet/transactions?per_page=100&page=${page}`, { key });
    if (answer.status !== 200) throw new Error(`entries: ${answer.status} ${answer.text}`);
    out.push(...answer.body.data.transactions);
    if (page >= answer.body.data.pagination.last_page) return out;
  }
}

function kobo(naira: number): number {
  return Math.round(naira * 100);
}

t.test('kill -9 during concurrent transfers: every acknowledged transfer is on both sides once, the tree\'s money conserved', async (t) => {
  const data_dir = temp_dir();
  const server = await start_server(t, { data_dir, keep_data: true });
  const funded_kobo = 10_000_00;
  const parent = await server.reseller(funded_kobo / 100, {}, fast_key);
  const agents: { id: number; key: string }[] = [];
  for (let i = 0; i < agents_count; i++) {
    const created = await server.api('POST', '/v1/agents', { key: parent.key, body: { name: `Till ${i}`, email: `till${i}-${Date.now()}@example.ng`, phone: '08031234567', password: 'till password', kyc_level: 1 } });
    t.equal(created.status, 201, `agent ${i} is opened`);
    const key = await server.create_key(created.body.data.id, fast_key);
    agents.push({ id: created.body.data.id, key: key.api_key });
    const seeded = await server.api('POST', `/v1/agents/${created.body.data.id}/transfers`, { key: parent.key, body: { direction: 'to_agent', amount: 1_000, environment: 'test', pin: '12345', reference: `seed-${i}` } });
    t.equal(seeded.status, 201, `agent ${i} is seeded with 1,000`);
  }

  const acknowledged = new Map<string, any>();
  // Killed in the middle: once a sixth of the transfers were acknowledged, the others still on their way.
  let reached!: () => void;
  const kill_at = new Promise<void>((r) => (reached = r));
  const sent = Array.from({ length: transfers_count }, (_, i) => {
    const agent = agents[i % agents_count];
    const direction = i % 2 === 0 ? 'to_agent' : 'from_agent';
    const body = { direction, amount: 1 + (i % 7) / 100, environment: 'test', pin: '12345', reference: `load-${i}` };
    return new Promise((r) => setTimeout(r, Math.floor(i / 4) * 6))
      .then(() => server.api('POST', `/v1/agents/${agent.id}/transfers`, { key: parent.key, body }))
      .then((answer) => {
        if (answer.status === 201) acknowledged.set(body.reference, answer.body.data);
        if (acknowledged.size >= transfers_count / 6) reached();
      }, () => undefined);
  });
  await Promise.race([kill_at, new Promise((r) => setTimeout(r, 20_000))]);
  await server.kill();
  await Promise.all(sent);
  t.ok(acknowledged.size >= 1, `some transfers were acknowledged before the kill (${acknowledged.size})`);
  t.ok(acknowledged.size < transfers_count, 'the kill came while transfers were still under way');
  await server.start({ LMDB_RESTORE: 'safe' });

  const parent_entries = await all_entries(server, parent.key);
  const agent_entries = new Map<number, any[]>();
  for (const agent of agents) agent_entries.set(agent.id, await all_entries(server, agent.key));

  // Each side's entries by reference: a transfer is on both sides or on neither.
  let on_both = 0;
  for (let i = 0; i < transfers_count; i++) {
    const reference = `load-${i}`;
    const agent = agents[i % agents_count];
    const mine = parent_entries.filter((e) => e.reference === reference);
    const theirs = agent_entries.get(agent.id)!.filter((e) => e.reference === reference);
    if (mine.length !== theirs.length || mine.length > 1) {
      t.fail(`${reference}: ${mine.length} parent entries and ${theirs.length} agent entries`);
      continue;
    }
    if (mine.length === 1) {
      on_both++;
      const [out, into] = i % 2 === 0 ? [mine[0], theirs[0]] : [theirs[0], mine[0]];
      if (out.type !== 'transfer_out' || into.type !== 'transfer_in' || out.amount !== into.amount) t.fail(`${reference}: entries ${out.type}/${into.type} of ${out.amount}/${into.amount}`);
    }
    const answer = acknowledged.get(reference);
    if (answer !== undefined) {
      if (mine.length !== 1) t.fail(`acknowledged ${reference} is missing after the restart`);
      else if (mine[0].id !== answer.wallet_transactions.parent || theirs[0].id !== answer.wallet_transactions.agent) t.fail(`acknowledged ${reference} names other entries than were answered`);
    }
  }
  t.pass(`every transfer is on both sides or neither (${on_both} of ${transfers_count} survived, ${acknowledged.size} acknowledged)`);
  t.ok(on_both >= acknowledged.size, 'every acknowledged transfer survived');

  // Each wallet's entries sum to its balance; the tree's money is conserved.
  let total_kobo = 0;
  for (const [key, list] of [[parent.key, parent_entries], ...agents.map((a) => [a.key, agent_entries.get(a.id)!] as const)] as const) {
    const sum = list.reduce((s: number, e: any) => s + (e.type === 'transfer_out' || e.type === 'debit' ? -1 : 1) * kobo(e.amount), 0);
    const wallet = await server.api('GET', '/v1/wallet', { key });
    t.equal(kobo(wallet.body.data.balance), sum, 'a wallet\'s entries sum to its balance');
    total_kobo += sum;
  }
  t.equal(total_kobo, funded_kobo, 'the sum over the tree\'s wallets is what was funded');

  // A repeat of an acknowledged transfer answers it again: its reference was kept with it.
  const some = [...acknowledged.keys()].slice(0, 5);
  for (const reference of some) {
    const i = Number(reference.slice('load-'.length));
    const repeat = await server.api('POST', `/v1/agents/${agents[i % agents_count].id}/transfers`, {
      key: parent.key, body: { direction: i % 2 === 0 ? 'to_agent' : 'from_agent', amount: 1 + (i % 7) / 100, environment: 'test', pin: '12345', reference },
    });
    t.equal(repeat.headers.get('idempotent-replayed'), 'true', `${reference} repeated is a replay`);
    t.same(repeat.body.data, acknowledged.get(reference), `${reference} answers as it was acknowledged`);
  }
});
