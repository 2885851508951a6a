// The crash campaign's agent-tree checks (test/crash/README.md "Agent trees"), against a real server and its real
// store: a tree reseller -> super-agent -> agent, transfers both ways, the agent's purchases (one delivered, one
// failed and refunded) made by the reseller's key acting for it, a second agent closed with a balance. check_agents
// must pass that store, and each check must fire on a record falsified in the snapshot it read: a transfer with one
// side only, a transfer reference used twice, a closed agent's balance moved after its sweep, a commission outside
// the record of a debit, a commission reversed twice, an acknowledged transfer lost.
import t from 'tap';
import { start_server, type ApiResponse } from '../helpers/server.js';
import { check_agents, read_snapshot, type Snapshot } from './checker.js';
import { sandbox_phones, type Ack, type AgentTransferSpec, type Model } from './model.js';
import type { WalletEntry } from '../../src/engine/records.js';

t.setTimeout(120_000);

function ack_of(response: ApiResponse): Ack {
  return { status: response.status, text: response.text, body: response.body, replayed: false, at_ms: Date.now(), round: 1, resent: false };
}

/** A copy of the parts of a snapshot the agent checks read, safe to falsify. */
function copy(snapshot: Snapshot): Snapshot {
  return {
    ...snapshot,
    accounts: new Map([...snapshot.accounts].map(([k, a]) => [k, { ...a }])),
    wallets: new Map([...snapshot.wallets].map(([k, w]) => [k, { ...w }])),
    entries: new Map([...snapshot.entries].map(([k, list]) => [k, list.map(({ key_id, entry }) => ({ key_id, entry: { ...entry } }))])),
    agent_transfers: new Map([...snapshot.agent_transfers].map(([k, tr]) => [k, { ...tr }])),
  };
}

/** Appends an entry to a wallet, keeping its chain and its balance right: only the agent check can object. */
function append(snapshot: Snapshot, wk: string, fields: Partial<WalletEntry> & Pick<WalletEntry, 'type' | 'amount_kobo' | 'reference'>): WalletEntry {
  const wallet = snapshot.wallets.get(wk)!;
  const list = snapshot.entries.get(wk) ?? [];
  const adds = ['credit', 'reversal', 'transfer_in', 'commission'].includes(fields.type);
  const before = wallet.balance_kobo;
  const entry = { id: list.length + 1, description: 'falsified', created_us: Date.now() * 1000, ...fields, balance_before_kobo: before, balance_after_kobo: before + (adds ? fields.amount_kobo : -fields.amount_kobo) } as WalletEntry;
  list.push({ key_id: entry.id, entry });
  snapshot.entries.set(wk, list);
  wallet.balance_kobo = entry.balance_after_kobo;
  wallet.entries_count = list.length;
  return entry;
}

t.test('check_agents passes a real tree and catches each falsified record', async (t) => {
  const server = await start_server(t, { env: { LOG_LEVEL: 'warn' } });
  const root = await server.create_account({ kyc_level: 3 });
  const key = (await server.create_key(root.id, { scopes: ['*'], rate_limit_per_minute: 1_000_000 })).api_key;
  await server.credit(root.id, 'test', 100_000);
  const call = (method: string, path: string, acting: number | null, body?: unknown, idempotency_key?: string) =>
    server.api(method, path, { key, ...(acting === null ? {} : { headers: { 'Billvend-Account': String(acting) } }), ...(body === undefined ? {} : { body }), ...(idempotency_key === undefined ? {} : { idempotency_key }) });
  let opened = 0;
  const open = async (acting: number | null, pin: string, kyc_level: number) => {
    const made = await call('POST', '/v1/agents', acting, { name: `Till ${++opened}`, email: `checker-agent-${opened}-${Date.now()}@example.ng`, phone: '08031234567', password: 'agent password 1', kyc_level, pin });
    t.equal(made.status, 201, made.text);
    return made.body.data.id as number;
  };
  const transfers: AgentTransferSpec[] = [];
  const transfer = async (parent_id: number, agent_id: number, direction: 'to_agent' | 'from_agent', amount_kobo: number, pin: string) => {
    const spec: AgentTransferSpec = { reference: `chk-${transfers.length + 1}`, parent_id, agent_id, direction, amount_kobo, round: 1, sends: 1, ack: null, repeated: false };
    spec.ack = ack_of(await call('POST', `/v1/agents/${agent_id}/transfers`, parent_id === root.id ? null : parent_id, { direction, amount: amount_kobo / 100, environment: 'test', pin, reference: spec.reference }));
    transfers.push(spec);
    return spec;
  };
  const super_id = await open(null, '24680', 2);
  const agent_id = await open(super_id, '13579', 1);
  const doomed = await open(super_id, '11223', 1);
  t.equal((await transfer(root.id, super_id, 'to_agent', 50_000_00, '12345')).ack!.status, 201);
  t.equal((await transfer(super_id, agent_id, 'to_agent', 10_000_00, '24680')).ack!.status, 201);
  t.equal((await transfer(super_id, agent_id, 'from_agent', 1_000_00, '24680')).ack!.status, 201);
  t.equal((await transfer(super_id, doomed, 'to_agent', 2_000_00, '24680')).ack!.status, 201);
  const refused = await transfer(super_id, agent_id, 'to_agent', 90_000_000_00, '24680');
  t.equal(refused.ack!.body?.error?.code, 'wallet.insufficient_funds', refused.ack!.text);
  const bought = await call('POST', '/v1/services/airtime', agent_id, { network: 'mtn', phone: sandbox_phones.delivered, amount: 100, pin: '13579' }, 'chk-buy-1');
  t.equal(bought.status, 201, bought.text);
  const failed = await call('POST', '/v1/services/airtime', agent_id, { network: 'mtn', phone: sandbox_phones.failed, amount: 200, pin: '13579' }, 'chk-buy-2');
  t.equal(failed.body?.error?.code, 'transaction.failed', failed.text);
  const closed = await call('DELETE', `/v1/agents/${doomed}`, null);
  t.equal(closed.status, 200, closed.text);
  t.equal(await server.stop(), 0);

  const model = {
    run_id: 'checkers-agents', time_scale: 1, idempotency_ttl_ms: 0, accounts: [], pricing: {}, ops: [], created_keys: [],
    funding: { providers: [], transfers: [], reseller_fee_tiers: [] },
    agents: { root_id: root.id, root_tier: 'standard', ids: [root.id, super_id, agent_id, doomed], key_ids: [], closed: [doomed], transfers },
  } as Model;
  const options = { acked_before_ms: Date.now() };
  const snapshot = await read_snapshot(server.data_dir);
  const clean = check_agents(snapshot, model, options);
  t.same(clean.violations, [], 'the real tree keeps every agent invariant');
  t.equal(clean.balances.get(doomed), 0, 'the closed agent holds nothing');

  const fires = (what: string, falsify: (s: Snapshot) => void, pattern: RegExp) => {
    const falsified = copy(snapshot);
    falsify(falsified);
    const found = check_agents(falsified, model, options).violations;
    t.ok(found.some((line) => pattern.test(line)), `${what}: ${found.find((line) => pattern.test(line)) ?? JSON.stringify(found)}`);
  };
  const agent_wk = `${agent_id}:test`;
  const super_wk = `${super_id}:test`;
  fires('a transfer with one side only', (s) => {
    const record = s.agent_transfers.get(`test:${super_id}:chk-2`)!;
    // The agent's side dropped (as a commit staging one side only would leave it), its chain kept whole.
    const list = s.entries.get(agent_wk)!;
    const dropped = list.find(({ entry }) => entry.id === record.agent_entry_id)!.entry;
    dropped.type = 'credit';
    delete dropped.counterparty_id;
    s.agent_transfers.delete(`test:${super_id}:chk-2`);
    append(s, super_wk, { type: 'transfer_out', amount_kobo: 5, reference: 'chk-lonely', counterparty_id: agent_id });
  }, /no transfer record has it \(a transfer with one side only\)/);
  fires('a transfer reference used twice', (s) => {
    append(s, super_wk, { type: 'transfer_out', amount_kobo: 1_00, reference: 'chk-2', counterparty_id: agent_id });
  }, /transfer reference chk-2 with account \d+ is on 2 entries \(a reference used twice\)/);
  fires('a closed agent\'s balance moved after its sweep', (s) => {
    append(s, `${doomed}:test`, { type: 'credit', amount_kobo: 7_00, reference: 'after-close' });
  }, new RegExp(`closed agent ${doomed}: wallet test (holds 700 kobo|has 1 entries after its sweep)`));
  fires('a commission outside the record of a debit', (s) => {
    append(s, super_wk, { type: 'commission' as WalletEntry['type'], amount_kobo: 3_00, reference: bought.body.data.reference, created_us: 1 });
  }, /commission entry \d+ of account \d+ is not in the record of a debit below it/);
  fires('a commission reversed twice', (s) => {
    const debit = s.entries.get(agent_wk)!.find(({ entry }) => entry.type === 'debit' && entry.reference === failed.body.error.reference)!.entry;
    append(s, super_wk, { type: 'commission' as WalletEntry['type'], amount_kobo: 3_00, reference: debit.reference, created_us: debit.created_us });
    append(s, super_wk, { type: 'commission_reversal' as WalletEntry['type'], amount_kobo: 3_00, reference: debit.reference });
    append(s, super_wk, { type: 'commission_reversal' as WalletEntry['type'], amount_kobo: 3_00, reference: debit.reference });
  }, /2 commission reversals for 1 commissions/);
  fires('the tree\'s money not conserved for an order', (s) => {
    append(s, super_wk, { type: 'reversal', amount_kobo: 1_00, reference: bought.body.data.reference });
  }, /its entries over the tree sum to/);
  fires('an acknowledged transfer lost', (s) => {
    s.agent_transfers.delete(`test:${root.id}:chk-1`);
  }, /transfer chk-1 answered 201 is not in the store/);
});
