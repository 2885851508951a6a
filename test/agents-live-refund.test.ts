// An agent's purchase on the live path, refunded (issue 33; docs/decisions.md "Commissions down the tree",
// docs/upstreams.md "Callbacks and reversals"): a three-level tree (reseller → super-agent → agent) with price
// lists buys live through the doc-faithful fake VTpass (test/helpers/fake-upstream.ts, recorded answers in
// test/fixtures/upstreams/vtpass/). Each ancestor earns its commission in the record of the agent's debit; when
// VTpass's re-query (asked for by its transaction-update callback) says the order failed, or that a delivered one
// was reversed, the agent gets back exactly its charge and each commission is reversed once, in the record of the
// agent's refund; repeated callbacks move nothing more; an ancestor that spent its commission gives back what it
// holds and the order records the rest as its commission shortfall. test/agents-pricing.test.ts covers the same
// in the sandbox, where the refund comes in the command that placed the order.
import t, { type Test } from 'tap';
import { open_store, start_server, type TestServer } from './helpers/server.js';
import { start_upstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { all_wallet_entries, balance_kobo, buy_airtime, kobo, order, wait_for_async, warm_up_live } from './helpers/purchases.js';

const callback_token = 'cb-token-33a9e1c07b5d4f2a8e6c1b9d0f3a7e52';
const fast_key = { environment: 'live', rate_limit_per_minute: 1_000_000 };
const reseller_pin = '12345';
const agent_pin = '54321';
// Face value 333.33 (33,333 kobo): the reseller's tier gives 500 bp on MTN airtime (its charge 31,667), the
// super-agent's list 400 bp (32,000), the agent's 250 bp (32,500). The super-agent earns 500, the reseller 333.
const amount = 333.33;
const agent_charge = 32_500;
const sup_commission = 500;
const reseller_commission = 333;

const vtpass: FakeUpstream = await start_upstream(t);
const upstreams = [{ name: 'vtpass', kind: 'vtpass', base_url: vtpass.base_url, api_key: 'fake-api-key', secret_key: 'fake-secret-key', timeout_ms: 1000, callback_token }];
// TIME_SCALE 1: an order's first scheduled re-query is 30 s away, so here only the callbacks' re-queries move it.
const server: TestServer = await start_server(t, { env: { UPSTREAMS: JSON.stringify(upstreams) } });
const callback_url = `${server.base}/callbacks/vtpass/vtpass/${callback_token}`;

let agents_opened = 0;
async function open_agent(parent_key: string): Promise<{ id: number; key: string }> {
  agents_opened++;
  const body = { name: `Live agent ${agents_opened}`, email: `live-agent${agents_opened}-${Date.now()}@example.ng`, phone: '08031234567', password: 'agent password 1', kyc_level: 3, pin: agent_pin };
  const created = await server.api('POST', '/v1/agents', { key: parent_key, body });
  if (created.status !== 201) throw new Error(`open_agent: ${created.status} ${created.text}`);
  const key = await server.create_key(created.body.data.id, fast_key);
  return { id: created.body.data.id as number, key: key.api_key };
}

let transfers = 0;
async function transfer(parent_key: string, pin: string, agent_id: number, direction: 'to_agent' | 'from_agent', naira: number): Promise<void> {
  const body = { environment: 'live', pin, direction, amount: naira, reference: `live-refund-${++transfers}-${Date.now()}` };
  const moved = await server.api('POST', `/v1/agents/${agent_id}/transfers`, { key: parent_key, body });
  if (moved.status !== 201) throw new Error(`transfer: ${moved.status} ${moved.text}`);
}

async function set_pricing(parent_key: string, agent_id: number, rate_bp: number): Promise<void> {
  const set = await server.api('PUT', `/v1/agents/${agent_id}/pricing`, { key: parent_key, body: { rules: [{ service_type: 'airtime', network: 'mtn', rate_bp }] } });
  if (set.status !== 200) throw new Error(`pricing: ${set.status} ${set.text}`);
}

// The tree, all on live money.
const tier = await server.admin('PUT', '/admin/pricing/livegold', { rules: [{ service_type: 'airtime', network: 'mtn', rate_bp: 500 }] });
if (tier.status !== 200) throw new Error(`tier: ${tier.text}`);
const reseller_account = await server.create_account({ kyc_level: 3, tier: 'livegold' });
const reseller = { id: reseller_account.id, key: (await server.create_key(reseller_account.id, fast_key)).api_key };
await server.credit(reseller.id, 'live', 100_000);
const sup = await open_agent(reseller.key);
const agent = await open_agent(sup.key);
await set_pricing(reseller.key, sup.id, 400);
await set_pricing(sup.key, agent.id, 250);
await transfer(reseller.key, reseller_pin, sup.id, 'to_agent', 10_000);
await transfer(sup.key, agent_pin, agent.id, 'to_agent', 5_000);
await warm_up_live(server, agent.key);

const tree = [['reseller', () => reseller.key], ['super-agent', () => sup.key], ['agent', () => agent.key]] as const;
const outflows = new Set(['debit', 'transfer_out', 'commission_reversal']);

async function balances(): Promise<number[]> {
  return Promise.all(tree.map(([, key]) => balance_kobo(server, key())));
}

/** One wallet's entries of one order reference, oldest first: [type, kobo, created_at]. */
async function entries_of(key: string, reference: string): Promise<[string, number, string][]> {
  return (await all_wallet_entries(server, key)).filter((e) => e.reference === reference).reverse().map((e) => [e.type, kobo(e.amount), e.created_at]);
}

async function tree_entries_of(reference: string) {
  return { reseller: await entries_of(reseller.key, reference), sup: await entries_of(sup.key, reference), agent: await entries_of(agent.key, reference) };
}

/** Every wallet of the tree: its entries, signed, sum to its balance. */
async function every_wallet_adds_up(t: Test, when: string): Promise<void> {
  for (const [who, key] of tree) {
    const entries = await all_wallet_entries(server, key());
    const sum = entries.reduce((total, e) => total + (outflows.has(e.type) ? -1 : 1) * kobo(e.amount), 0);
    t.equal(sum, await balance_kobo(server, key()), `${when}: the ${who}'s live entries sum to its balance`);
  }
}

/** The order's wallet.credited / wallet.debited events on one wallet. */
async function wallet_events_of(key: string, reference: string): Promise<string[]> {
  const response = await server.api('GET', '/v1/events?limit=100', { key });
  return (response.body.data.events as any[]).filter((e) => e.data.reference === reference && e.event.startsWith('wallet.')).map((e) => e.event).sort();
}

/** At the debit: the agent paid its charge, each ancestor earned its commission, all in one record. */
async function commissions_paid(t: Test, reference: string, before: number[]): Promise<void> {
  t.same(await balances(), [before[0] + reseller_commission, before[1] + sup_commission, before[2] - agent_charge], 'at the debit: the agent paid 325.00, the super-agent earned 5.00, the reseller 3.33');
  const at_debit = await tree_entries_of(reference);
  t.same(at_debit.agent.map(([type, k]) => [type, k]), [['debit', agent_charge]], 'the agent\'s debit of its own charge');
  t.same(at_debit.sup.map(([type, k]) => [type, k]), [['commission', sup_commission]], 'the super-agent\'s commission');
  t.same(at_debit.reseller.map(([type, k]) => [type, k]), [['commission', reseller_commission]], 'the reseller\'s commission');
  t.same([at_debit.sup[0]?.[2], at_debit.reseller[0]?.[2]], [at_debit.agent[0]?.[2], at_debit.agent[0]?.[2]], 'the commissions carry the debit\'s instant: one journal record');
}

/** After the refund: every wallet back where it was, each commission reversed once, in the refund's record. */
async function refunded_once(t: Test, reference: string, before: number[]): Promise<void> {
  t.same(await balances(), before, 'every wallet of the tree is back where it was before the purchase');
  const after = await tree_entries_of(reference);
  t.same(after.agent.map(([type, k]) => [type, k]), [['debit', agent_charge], ['reversal', agent_charge]], 'the agent: its debit and one refund of exactly its charge');
  t.same(after.sup.map(([type, k]) => [type, k]), [['commission', sup_commission], ['commission_reversal', sup_commission]], 'the super-agent: its commission and one reversal of it');
  t.same(after.reseller.map(([type, k]) => [type, k]), [['commission', reseller_commission], ['commission_reversal', reseller_commission]], 'the reseller: its commission and one reversal of it');
  t.same([after.sup[1]?.[2], after.reseller[1]?.[2]], [after.agent[1]?.[2], after.agent[1]?.[2]], 'the reversals carry the refund\'s instant: one journal record');
  t.same(await wallet_events_of(sup.key, reference), ['wallet.credited', 'wallet.debited'], 'the super-agent heard of its commission and of its reversal, once each');
  t.same(await wallet_events_of(reseller.key, reference), ['wallet.credited', 'wallet.debited'], 'the reseller too');
  await every_wallet_adds_up(t, 'after the refund');
}

/** Callbacks again: answered 200, nothing asked of VTpass, nothing moved. */
async function repeats_move_nothing(t: Test, reference: string, request_id: string, kind: 'callback-transaction-update' | 'callback-transaction-reversal'): Promise<void> {
  const settled = { balances: await balances(), entries: await tree_entries_of(reference), requeries: vtpass.calls('/api/requery', request_id).length };
  const again = await Promise.all([1, 2].map(() => vtpass.send_callback(callback_url, request_id, kind)));
  t.same(again.map((a) => a.status), [200, 200], 'the same callback twice more: each answered 200');
  // A final order asks nothing; the re-query a bug would start is given time to land before the reads below.
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.equal(vtpass.calls('/api/requery', request_id).length, settled.requeries, 'a refunded order is final: the repeats ask VTpass nothing');
  t.same(await balances(), settled.balances, 'and move no wallet of the tree');
  t.same(await tree_entries_of(reference), settled.entries, 'nor write any entry');
}

t.test('an agent\'s live purchase left pending, then failed by VTpass\'s re-query: the agent gets back its charge and each commission is reversed once', async (t) => {
  const phone = '08064033001';
  vtpass.set_mode(phone, 'hold_fail');
  const before = await balances();
  const bought = await buy_airtime(server, agent.key, phone, amount, { pin: agent_pin });
  t.equal(bought.status, 201, `the agent's purchase is taken (${bought.text.slice(0, 160)})`);
  t.equal(bought.body.data?.status, 'processing', 'VTpass answered pending: the order is processing');
  t.equal(kobo(bought.body.data.amount_charged), agent_charge, 'charged at the agent\'s own 250 bp');
  const reference = bought.body.data.reference;
  const request_id = vtpass.pays_for(phone)[0].body.request_id;
  await commissions_paid(t, reference, before);

  // VTpass settles it as failed and says so in its transaction-update callback; the re-query it prompts reads it.
  t.equal(vtpass.release(phone), 1, 'VTpass settles the held payment (as failed)');
  const first = await vtpass.send_callback(callback_url, request_id);
  t.equal(first.status, 200, 'the callback is answered 200');
  const failed = await wait_for_async(async () => {
    const record = await order(server, agent.key, reference);
    return record.status === 'processing' ? null : record;
  }, 10_000, 'the re-query to settle the order');
  t.equal(failed.status, 'failed', 'the re-query failed the order');
  t.equal(failed.reversed, true, 'and refunded it');
  t.equal(vtpass.calls('/api/requery', request_id).length, 1, 'one re-query for the callback');
  t.equal(vtpass.pays_for(phone).length, 1, 'nothing was paid again');
  await refunded_once(t, reference, before);
  await repeats_move_nothing(t, reference, request_id, 'callback-transaction-update');
});

t.test('an agent\'s delivered live purchase that VTpass reverses later: the commissions are reversed once with the agent\'s refund', async (t) => {
  const phone = '08064033002';
  const before = await balances();
  const bought = await buy_airtime(server, agent.key, phone, amount, { pin: agent_pin });
  t.equal(bought.body.data?.status, 'delivered', `the agent's purchase is delivered (${bought.text.slice(0, 160)})`);
  const reference = bought.body.data.reference;
  const request_id = vtpass.pays_for(phone)[0].body.request_id;
  await commissions_paid(t, reference, before);

  t.ok(vtpass.reverse(request_id), 'VTpass reverses the delivered transaction');
  // VTpass sends its reversal callback up to 5 times: three at once here, two more once it is refunded.
  const answers = await Promise.all([1, 2, 3].map(() => vtpass.send_callback(callback_url, request_id, 'callback-transaction-reversal')));
  t.same(answers.map((a) => a.status), [200, 200, 200], 'each reversal callback is answered 200');
  const reversed = await wait_for_async(async () => {
    const record = await order(server, agent.key, reference);
    return record.status === 'failed' ? record : null;
  }, 10_000, 'the reversal to be refunded');
  t.equal(reversed.reversed, true, 'the order is marked reversed');
  t.match(reversed.failure_reason, /reversed/i, `its failure reason says VTpass reversed it (${reversed.failure_reason})`);
  await refunded_once(t, reference, before);
  await repeats_move_nothing(t, reference, request_id, 'callback-transaction-reversal');
});

t.test('an ancestor that spent its commission before the failure gives back what it holds: the agent is refunded in full, the order records the shortfall', async (t) => {
  const phone = '08064033003';
  vtpass.set_mode(phone, 'hold_fail');
  const before = await balances();
  const bought = await buy_airtime(server, agent.key, phone, amount, { pin: agent_pin });
  t.equal(bought.body.data?.status, 'processing', `the order waits for VTpass (${bought.text.slice(0, 160)})`);
  const reference = bought.body.data.reference;
  const request_id = vtpass.pays_for(phone)[0].body.request_id;
  await commissions_paid(t, reference, before);

  // The reseller pulls back everything the super-agent holds, its 5.00 commission included.
  const held_kobo = await balance_kobo(server, sup.key);
  await transfer(reseller.key, reseller_pin, sup.id, 'from_agent', held_kobo / 100);
  t.equal(await balance_kobo(server, sup.key), 0, 'the super-agent holds nothing');
  const spent = await balances();

  vtpass.release(phone);
  await vtpass.send_callback(callback_url, request_id);
  const failed = await wait_for_async(async () => {
    const record = await order(server, agent.key, reference);
    return record.status === 'processing' ? null : record;
  }, 10_000, 'the re-query to settle the order');
  t.equal(failed.status, 'failed', 'the re-query failed the order');
  t.same(await balances(), [spent[0] - reseller_commission, 0, spent[2] + agent_charge], 'the agent got back all 325.00, the reseller gave back its 3.33, the super-agent stayed at zero');
  const after = await tree_entries_of(reference);
  t.same(after.sup.map(([type, k]) => [type, k]), [['commission', sup_commission]], 'the super-agent had nothing to give back: no reversal entry');
  t.same(after.reseller.map(([type, k]) => [type, k]), [['commission', reseller_commission], ['commission_reversal', reseller_commission]], 'the reseller reversed once');
  t.same(after.agent.map(([type, k]) => [type, k]), [['debit', agent_charge], ['reversal', agent_charge]], 'the agent: one refund of its charge');
  await every_wallet_adds_up(t, 'after the refund with a shortfall');
  await repeats_move_nothing(t, reference, request_id, 'callback-transaction-update');

  // The shortfall is on the order record (not in the API): read from the stopped server's store.
  const sup_final = await balance_kobo(server, sup.key);
  await server.stop();
  const store = open_store(server.data_dir, { readOnly: true });
  let stored: any = undefined;
  for (const { value } of store.db('orders').getRange()) {
    if (value.reference === reference) stored = value;
  }
  await store.root.close();
  t.equal(stored?.commission_shortfall_kobo, sup_commission, 'the order records the 5.00 the super-agent could not give back as commission_shortfall_kobo');
  t.equal(sup_final, 0, 'the super-agent\'s balance never went below zero');
});
