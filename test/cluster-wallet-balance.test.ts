// The wallet balance on /metrics in cluster mode (docs/operations.md "Metrics", docs/cluster.md): a standby
// applies the leader's commits to its store but runs no engine, so its /metrics has none of the engine's
// gauges, the wallet balance included, as billvend_open_orders; once it takes over, it scans its store as a
// single node does at start and reports the balance the old leader reported, to the kobo.
import t from 'tap';
import { cluster_lab, cluster_status, start_node, wait_leading, wait_until } from './helpers/nats-cluster.js';

function balance(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const match of text.matchAll(/^billvend_wallet_balance_naira\{environment="(\w+)"\} (\S+)$/gm)) found.set(match[1]!, Math.round(Number(match[2]) * 100));
  return found;
}

t.test('a standby reports no wallet balance; the node that takes over reports the leader\'s, to the kobo', async (t) => {
  const { nats, nodes } = await cluster_lab(t);
  const a = await start_node(nats, 'a', { env: { LOG_LEVEL: 'warn' } });
  nodes.push(a);
  await wait_leading(a);
  const b = await start_node(nats, 'b', { env: { LOG_LEVEL: 'warn' } });
  nodes.push(b);
  for (let i = 0; i < 5; i++) {
    const account = await a.create_account();
    await a.credit(account.id, 'test', 1_000 + i + 0.25);
    await a.credit(account.id, 'live', 500 + i);
  }
  const on_leader = await wait_until('the leader\'s scan', async () => {
    const text = (await a.admin('GET', '/metrics')).text;
    return text.includes('billvend_wallet_balance_scan_complete 1') ? balance(text) : null;
  });
  t.same(on_leader, new Map([['live', (5 * 500 + 10) * 100], ['test', (5 * 1_000 + 10) * 100 + 5 * 25]]), 'the leader reports every wallet summed');
  await wait_until('the standby to catch up', async () => (await cluster_status(b)).applied_seq === (await cluster_status(a)).applied_seq);

  const standby = (await b.admin('GET', '/metrics')).text;
  t.notMatch(standby, /billvend_wallet_balance/, 'the standby reports no wallet balance, nor its scan');
  t.notMatch(standby, /billvend_open_orders/, 'as it reports none of the engine\'s gauges');

  await a.kill();
  await wait_leading(b, 30_000);
  const taken_over = await wait_until('the new leader\'s scan', async () => {
    const text = (await b.admin('GET', '/metrics')).text;
    return text.includes('billvend_wallet_balance_scan_complete 1') ? balance(text) : null;
  });
  t.same(taken_over, on_leader, 'the new leader scanned the store it applied and reports the same balance');
});
