// The operator's command line, as a newcomer met it (finding new-user-2026-11-27 items 7 and 16): `pricing set`
// narrows education and internet rules by provider (it sent the value as `network`, refused with "rules.4.network
// does not apply to education"), and `wallet credit` with a used reference says it was a replay instead of
// exiting 0 in silence (docs/operations.md "Command line").
import t from 'tap';
import { start_server } from './helpers/server.js';
import { run_cli } from './helpers/fixtures-http.js';

const server = await start_server(t);
const env = () => ({ ADMIN_TOKEN: server.admin_token, ADMIN_PORT: String(server.admin_port) });

t.test('pricing set narrows every family by its own field: education/waec and internet/smile by provider', async (t) => {
  const set = await run_cli(['pricing', 'set', 'gold', '--rules', 'airtime/mtn=100,electricity/IKEDC=150,tv/dstv=100,education/waec=200,internet/smile=250,data=50'], env());
  t.equal(set.code, 0, `pricing set succeeds (${set.stderr})`);
  const rules = set.code === 0 ? (JSON.parse(set.stdout) as { rules: Record<string, unknown>[] }).rules : [];
  t.same(rules.map((r) => [r.service_type, r.network ?? null, r.disco ?? null, r.provider ?? null, r.rate_bp]), [
    ['airtime', 'mtn', null, null, 100],
    ['electricity', null, 'ikeja-electric', null, 150],
    ['tv', null, null, 'dstv', 100],
    ['education', null, null, 'waec', 200],
    ['internet', null, null, 'smile', 250],
    ['data', null, null, null, 50],
  ], 'each rule is narrowed by the field of its service type');
});

t.test('wallet credit with a used reference prints the first credit, says it was a replay, and exits 0', async (t) => {
  const account = await server.create_account();
  const args = ['wallet', 'credit', String(account.id), '--environment', 'test', '--amount', '2500', '--reference', 'BANK-FIRST-TEN-1'];
  const first = await run_cli(args, env());
  t.equal(first.code, 0, 'the first credit succeeds');
  t.equal(first.stderr, '', 'and says nothing on stderr');
  const again = await run_cli(args, env());
  t.equal(again.code, 0, 'the same credit again exits 0, as docs/operations.md says');
  t.match(again.stderr, /^billvend: replayed, nothing changed: .*reference/m, 'stderr says it was a replay and nothing changed');
  t.same(JSON.parse(again.stdout), JSON.parse(first.stdout), 'stdout is the first credit');
  const wallet = await server.admin('GET', `/admin/accounts/${account.id}`);
  t.equal(wallet.body.data.wallets.test.balance, 2500, 'the wallet was credited once');
  const other = await run_cli(['wallet', 'credit', String(account.id), '--environment', 'test', '--amount', '9000', '--reference', 'BANK-FIRST-TEN-1'], env());
  t.equal(other.code, 1, 'another amount under the used reference exits 1');
  t.match(other.stderr, /idempotency\.key_reused/, 'as idempotency.key_reused');
});
