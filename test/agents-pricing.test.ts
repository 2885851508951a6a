// Prices down the tree (docs/api.md "Agent pricing", docs/decisions.md "Commissions down the tree"): a parent
// sets its own agent's price list, never above its own rate; an agent's purchase debits it at its rate and
// credits each account above it the difference between its child's charge and its own, in the same record;
// a refund reverses them exactly once; a repeat moves nothing more; a restart keeps it; the report sums it.
import t, { type Test } from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { airtime_body, kobo, sandbox } from './helpers/purchases.js';

// Time scaled so that the sandbox's delayed failure (30 s) comes after 3 s: a refund after the commission is spent.
const server = await start_server(t, { env: { TIME_SCALE: '0.1' } });
const fast_key = { rate_limit_per_minute: 100_000 };
let emails = 0;

function agent_body() {
  emails++;
  return { name: `Priced agent ${emails}`, email: `priced${emails}-${Date.now()}@example.ng`, phone: '08031234567', password: 'agent password 1', kyc_level: 1, pin: '54321' };
}

async function open_agent(s: TestServer, parent_key: string) {
  const created = await s.api('POST', '/v1/agents', { key: parent_key, body: agent_body() });
  if (created.status !== 201) throw new Error(`open_agent: ${created.status} ${created.text}`);
  const key = await s.create_key(created.body.data.id, fast_key);
  return { id: created.body.data.id as number, key: key.api_key };
}

async function give(s: TestServer, parent_key: string, agent_id: number, amount: number, pin: string) {
  const moved = await s.api('POST', `/v1/agents/${agent_id}/transfers`, { key: parent_key, body: { environment: 'test', pin, direction: 'to_agent', amount, reference: `give-${agent_id}-${Date.now()}` } });
  if (moved.status !== 201) throw new Error(`transfer: ${moved.status} ${moved.text}`);
}

function put_pricing(key: string, agent_id: number, rules: unknown[]) {
  return server.api('PUT', `/v1/agents/${agent_id}/pricing`, { key, body: { rules } });
}

async function entries(s: TestServer, key: string): Promise<any[]> {
  const page = await s.api('GET', '/v1/wallet/transactions?per_page=100', { key });
  return page.body.data.transactions;
}

async function balance_kobo(s: TestServer, key: string): Promise<number> {
  return kobo((await s.api('GET', '/v1/wallet', { key })).body.data.balance);
}

const outflows = new Set(['debit', 'transfer_out', 'commission_reversal']);

/** The wallet's entries, signed, in kobo: they must sum to its balance. */
async function entries_explain_balance(t: Test, s: TestServer, key: string, who: string) {
  const list = await entries(s, key);
  const sum = list.reduce((acc, e) => acc + (outflows.has(e.type) ? -1 : 1) * kobo(e.amount), 0);
  t.equal(sum, await balance_kobo(s, key), `${who}: the entries sum to the balance`);
}

// Tiers: the reseller gets 5% on MTN airtime, 3% on other airtime, nothing on data.
const tier = await server.admin('PUT', '/admin/pricing/treegold', { rules: [{ service_type: 'airtime', rate_bp: 300 }, { service_type: 'airtime', network: 'mtn', rate_bp: 500 }] });
if (tier.status !== 200) throw new Error(`tier: ${tier.text}`);
const reseller = await server.reseller(100_000, { tier: 'treegold' }, fast_key);
const sup = await open_agent(server, reseller.key);
const agent = await open_agent(server, sup.key);

t.test('PUT /v1/agents/{id}/pricing: at its edge, by the direct parent only', async (t) => {
  const equal = await put_pricing(reseller.key, sup.id, [{ service_type: 'airtime', network: 'mtn', rate_bp: 500 }]);
  t.equal(equal.status, 200, `a rule equal to the parent's own rate is accepted: ${equal.text}`);
  const above = await put_pricing(reseller.key, sup.id, [{ service_type: 'airtime', rate_bp: 100 }, { service_type: 'airtime', network: 'mtn', rate_bp: 501 }]);
  t.equal(above.status, 400, 'a rule 1 bp above the parent\'s rate is refused');
  t.equal(above.body.error.code, 'validation.failed', 'as validation.failed');
  t.equal(above.body.error.details[0].field, 'rules.1.rate_bp', 'naming the rule');
  const base_above = await put_pricing(reseller.key, sup.id, [{ service_type: 'airtime', rate_bp: 301 }]);
  t.equal(base_above.status, 400, 'a service-wide rule above the parent\'s rate on a product it decides (glo at 300 bp) is refused');
  t.equal(base_above.body.error.details[0].field, 'rules.0.rate_bp', 'naming the rule');
  const no_parent_rate = await put_pricing(reseller.key, sup.id, [{ service_type: 'data', rate_bp: 1 }]);
  t.equal(no_parent_rate.status, 400, 'a discount on a product the parent has no rate for (0 bp) is refused');
  t.equal(no_parent_rate.body.error.details[0].field, 'rules.0.rate_bp', 'naming the rule');
  const zero = await put_pricing(reseller.key, sup.id, [{ service_type: 'data', rate_bp: 0 }]);
  t.equal(zero.status, 200, '0 bp on it is accepted');
  const unknown = await put_pricing(reseller.key, sup.id, [{ service_type: 'airtime', network: 'vodafone', rate_bp: 1 }]);
  t.equal(unknown.status, 400, 'an unknown network is refused as in the operator\'s tiers');
  t.equal(unknown.body.error.details[0].field, 'rules.0.network', 'naming the field');

  const set = await put_pricing(reseller.key, sup.id, [{ service_type: 'airtime', rate_bp: 200 }, { service_type: 'airtime', network: 'mtn', rate_bp: 400 }]);
  t.equal(set.status, 200, 'the super-agent\'s list is set');
  t.same(set.body.data.rules.map((r: any) => [r.service_type, r.network, r.rate_bp]), [['airtime', null, 200], ['airtime', 'mtn', 400]], 'and answered');
  // The agent's parent is the super-agent: its rules are judged against the super-agent's.
  const over_sup = await put_pricing(sup.key, agent.id, [{ service_type: 'airtime', network: 'mtn', rate_bp: 401 }]);
  t.equal(over_sup.status, 400, 'the agent may not get more than the super-agent\'s 400 bp');
  const by_grandparent = await put_pricing(reseller.key, agent.id, [{ service_type: 'airtime', network: 'mtn', rate_bp: 250 }]);
  t.equal(by_grandparent.status, 422, 'the grandparent does not set the agent\'s prices');
  t.equal(by_grandparent.body.error.code, 'agents.not_direct_agent', 'with agents.not_direct_agent');
  const stranger = await server.reseller(0, {}, fast_key);
  const outside = await put_pricing(stranger.key, agent.id, [{ service_type: 'airtime', rate_bp: 0 }]);
  t.equal(outside.status, 404, 'outside the caller\'s subtree is 404');
  t.equal(outside.body.error.code, 'account.not_found', 'with account.not_found');
  const ok = await put_pricing(sup.key, agent.id, [{ service_type: 'airtime', network: 'mtn', rate_bp: 250 }]);
  t.equal(ok.status, 200, 'the super-agent sets its agent\'s list');
  const read = await server.api('GET', `/v1/agents/${agent.id}`, { key: reseller.key });
  t.same(read.body.data.pricing.rules, [{ service_type: 'airtime', network: 'mtn', disco: null, provider: null, rate_bp: 250 }], 'GET /v1/agents/{id} shows the agent\'s price list');
  const own = await server.api('GET', '/v1/pricing', { key: agent.key });
  const rate = (network: string) => own.body.data.rates.find((r: any) => r.service_type === 'airtime' && r.network === network)?.rate_bp;
  t.same([rate('mtn'), rate('glo')], [250, 0], 'the agent\'s GET /v1/pricing shows its own rates, not its tier\'s');
});

t.test('a purchase at each level: each debited at its own rate, each ancestor credited its difference to the kobo', async (t) => {
  await give(server, reseller.key, sup.id, 10_000, '12345');
  await give(server, sup.key, agent.id, 5_000, '54321');
  const amount = 333.33; // 33,333 kobo: every rate's commission is rounded down
  const before = { r: await balance_kobo(server, reseller.key), s: await balance_kobo(server, sup.key), a: await balance_kobo(server, agent.key) };

  const top = await server.api('POST', '/v1/services/airtime', { key: reseller.key, body: airtime_body(sandbox.delivered, amount) });
  t.equal(top.status, 201, `the reseller buys: ${top.text}`);
  t.equal(kobo(top.body.data.amount_charged), 33_333 - 1_666, 'at its tier\'s 500 bp');
  const mid = await server.api('POST', '/v1/services/airtime', { key: sup.key, body: airtime_body(sandbox.delivered, amount, { pin: '54321' }) });
  t.equal(mid.status, 201, 'the super-agent buys');
  t.equal(kobo(mid.body.data.amount_charged), 33_333 - 1_333, 'at its own 400 bp');
  const low = await server.api('POST', '/v1/services/airtime', { key: agent.key, body: airtime_body(sandbox.delivered, amount, { pin: '54321' }) });
  t.equal(low.status, 201, 'the agent buys');
  t.equal(kobo(low.body.data.amount_charged), 33_333 - 833, 'at its own 250 bp');

  t.equal(await balance_kobo(server, agent.key), before.a - 32_500, 'the agent paid 32,500 kobo');
  t.equal(await balance_kobo(server, sup.key), before.s - 32_000 + 500, 'the super-agent paid 32,000 and earned 500 (32,500 − 32,000)');
  t.equal(await balance_kobo(server, reseller.key), before.r - 31_667 + 333 + 333, 'the reseller paid 31,667 and earned 333 (32,000 − 31,667) on each of the two orders below it');

  const sup_commissions = (await entries(server, sup.key)).filter((e) => e.type === 'commission');
  t.same(sup_commissions.map((e) => [e.reference, kobo(e.amount), e.counterparty_id]), [[low.body.data.reference, 500, agent.id]], 'the super-agent\'s commission entry carries the order\'s reference and names the agent');
  const r_commissions = (await entries(server, reseller.key)).filter((e) => e.type === 'commission');
  t.same(r_commissions.map((e) => [e.reference, kobo(e.amount), e.counterparty_id]).sort(), [[mid.body.data.reference, 333, sup.id], [low.body.data.reference, 333, agent.id]].sort(), 'the reseller\'s entries: one per order below it');
  for (const [who, key] of [['reseller', reseller.key], ['super-agent', sup.key], ['agent', agent.key]] as const) await entries_explain_balance(t, server, key, who);
  const events = await server.api('GET', '/v1/events?limit=100', { key: sup.key });
  t.same(events.body.data.events.filter((e: any) => e.data.reference === low.body.data.reference).map((e: any) => e.event), ['wallet.credited'], 'the commission is announced to the super-agent as wallet.credited');

  const repeat_body = airtime_body(sandbox.delivered, amount, { pin: '54321' });
  const first = await server.api('POST', '/v1/services/airtime', { key: agent.key, body: repeat_body, idempotency_key: 'tree-repeat-1' });
  t.equal(first.status, 201, 'a purchase under an idempotency key');
  const balances = [await balance_kobo(server, reseller.key), await balance_kobo(server, sup.key), await balance_kobo(server, agent.key)];
  const again = await server.api('POST', '/v1/services/airtime', { key: agent.key, body: repeat_body, idempotency_key: 'tree-repeat-1' });
  t.equal(again.body.data.reference, first.body.data.reference, 'its repeat answers the same order');
  t.same([await balance_kobo(server, reseller.key), await balance_kobo(server, sup.key), await balance_kobo(server, agent.key)], balances, 'and moves nothing more on any wallet');
});

t.test('a refund reverses every commission exactly once, in the record of the agent\'s refund', async (t) => {
  const before = { r: await balance_kobo(server, reseller.key), s: await balance_kobo(server, sup.key), a: await balance_kobo(server, agent.key) };
  const failed = await server.api('POST', '/v1/services/airtime', { key: agent.key, body: airtime_body(sandbox.failed, 333.33, { pin: '54321' }) });
  const reference = failed.body.data?.reference ?? failed.body.error?.reference;
  t.ok(reference, `the failed purchase names its order: ${failed.text}`);
  const order = await server.api('GET', `/v1/transactions/${reference}`, { key: agent.key });
  t.equal(order.body.data.status, 'failed', 'the order failed');
  t.same([await balance_kobo(server, reseller.key), await balance_kobo(server, sup.key), await balance_kobo(server, agent.key)], [before.r, before.s, before.a], 'every wallet is back where it was');
  const of = async (key: string) => (await entries(server, key)).filter((e) => e.reference === reference).map((e) => [e.type, kobo(e.amount)]).sort();
  t.same(await of(agent.key), [['debit', 32_500], ['reversal', 32_500]].sort(), 'the agent: its debit and its refund');
  t.same(await of(sup.key), [['commission', 500], ['commission_reversal', 500]].sort(), 'the super-agent: its commission and its reversal, once');
  t.same(await of(reseller.key), [['commission', 333], ['commission_reversal', 333]].sort(), 'the reseller: its commission and its reversal, once');
  for (const [who, key] of [['reseller', reseller.key], ['super-agent', sup.key], ['agent', agent.key]] as const) await entries_explain_balance(t, server, key, who);
});

t.test('a refund after an ancestor spent its commission: it gives back what its balance holds, never below zero', async (t) => {
  const before = { r: await balance_kobo(server, reseller.key), a: await balance_kobo(server, agent.key) };
  const pending = await server.api('POST', '/v1/services/airtime', { key: agent.key, body: airtime_body(sandbox.delayed_failed, 333.33, { pin: '54321' }) });
  t.ok(pending.status === 201 || pending.status === 202, `the order waits for its answer: ${pending.text}`);
  const reference = pending.body.data.reference;
  // The super-agent moves everything it holds, its 5.00 commission too, to another agent of its own.
  const other = await open_agent(server, sup.key);
  const held = (await server.api('GET', '/v1/wallet', { key: sup.key })).body.data.balance;
  await give(server, sup.key, other.id, held, '54321');
  t.equal(await balance_kobo(server, sup.key), 0, 'the super-agent holds nothing');
  for (let i = 0; i < 200; i++) {
    const order = await server.api('GET', `/v1/transactions/${reference}`, { key: agent.key });
    if (order.body.data.status === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.equal(await balance_kobo(server, agent.key), before.a, 'the agent got back all it paid');
  t.equal(await balance_kobo(server, sup.key), 0, 'the super-agent\'s balance stays at zero, not below');
  t.equal(await balance_kobo(server, reseller.key), before.r, 'the reseller gave back its 3.33');
  const of = async (key: string) => (await entries(server, key)).filter((e) => e.reference === reference).map((e) => [e.type, kobo(e.amount)]).sort();
  t.same(await of(sup.key), [['commission', 500]], 'the super-agent had nothing to give back');
  t.same(await of(reseller.key), [['commission', 333], ['commission_reversal', 333]].sort(), 'the reseller reversed once');
  for (const [who, key] of [['reseller', reseller.key], ['super-agent', sup.key], ['agent', agent.key]] as const) await entries_explain_balance(t, server, key, who);
  // Back to work: the super-agent gets its float again for the tests after.
  await server.api('POST', `/v1/agents/${other.id}/transfers`, { key: sup.key, body: { environment: 'test', pin: '54321', direction: 'from_agent', amount: held, reference: `back-${other.id}` } });
});

t.test('the parent\'s rate dropping later clamps its agents\' rates: no ancestor earns a negative commission', async (t) => {
  const lowered = await server.admin('PUT', '/admin/pricing/treegold', { rules: [{ service_type: 'airtime', network: 'mtn', rate_bp: 300 }] });
  t.equal(lowered.status, 200, 'the operator lowers the reseller\'s MTN rate to 300 bp, below the super-agent\'s 400');
  let before = { r: await balance_kobo(server, reseller.key), s: await balance_kobo(server, sup.key) };
  const mid = await server.api('POST', '/v1/services/airtime', { key: sup.key, body: airtime_body(sandbox.delivered, 100, { pin: '54321' }) });
  t.equal(kobo(mid.body.data.amount_charged), 9_700, 'the super-agent buys at the reseller\'s 300 bp, not its own 400');
  t.same([await balance_kobo(server, reseller.key), await balance_kobo(server, sup.key)], [before.r, before.s - 9_700], 'the reseller earns nothing, and loses nothing');
  before = { r: await balance_kobo(server, reseller.key), s: await balance_kobo(server, sup.key) };
  const low = await server.api('POST', '/v1/services/airtime', { key: agent.key, body: airtime_body(sandbox.delivered, 100, { pin: '54321' }) });
  t.equal(kobo(low.body.data.amount_charged), 9_750, 'the agent still buys at its own 250 bp, below the clamp');
  t.same([await balance_kobo(server, reseller.key), await balance_kobo(server, sup.key)], [before.r, before.s + 50], 'the super-agent earns 9,750 − 9,700; the reseller 0');
  await server.admin('PUT', '/admin/pricing/treegold', { rules: [{ service_type: 'airtime', rate_bp: 300 }, { service_type: 'airtime', network: 'mtn', rate_bp: 500 }] });
});

t.test('GET /v1/agents/commissions sums the earnings by agent and product', async (t) => {
  const report = await server.api('GET', '/v1/agents/commissions', { key: reseller.key });
  t.equal(report.status, 200, `the report: ${report.text}`);
  const rows = report.body.data.rows as any[];
  const of_agent = rows.filter((r) => r.agent_id === agent.id);
  t.equal(of_agent.length, 1, 'one row for the agent\'s MTN airtime today');
  t.match(of_agent[0], { service_type: 'airtime', product: 'mtn', orders: 4, earned: 13.32, reversed: 6.66, net: 6.66 }, 'its four earning orders, two refunded');
  t.match(rows.find((r) => r.agent_id === sup.id), { orders: 1, earned: 3.33, reversed: 0, net: 3.33 }, 'the super-agent\'s own order');
  t.same(report.body.data.totals, { earned: 16.65, reversed: 6.66, net: 9.99 }, 'the totals');
  const filtered = await server.api('GET', `/v1/agents/commissions?agent_id=${sup.id}`, { key: reseller.key });
  t.same(filtered.body.data.rows.map((r: any) => r.agent_id), [sup.id], 'agent_id= keeps one agent');
  const longest = await server.api('GET', '/v1/agents/commissions?from=2026-01-01&to=2026-04-02', { key: reseller.key });
  t.equal(longest.status, 200, '92 days (commission_report_days_max) are accepted');
  t.same(longest.body.data.rows, [], 'with no earnings then');
  const too_long = await server.api('GET', '/v1/agents/commissions?from=2026-01-01&to=2026-04-03', { key: reseller.key });
  t.equal(too_long.status, 400, '93 days are refused');
  t.equal(too_long.body.error.details[0].field, 'to', 'naming to');
  const bad_day = await server.api('GET', '/v1/agents/commissions?from=2026-02-30', { key: reseller.key });
  t.equal(bad_day.status, 400, 'a date that does not exist is refused');
  t.equal(bad_day.body.error.details[0].field, 'from', 'naming from');
  const live = await server.api('GET', '/v1/agents/commissions?environment=live', { key: reseller.key });
  t.equal(live.status, 403, 'a test key does not read live earnings');
  t.equal(live.body.error.code, 'auth.insufficient_scope', 'with auth.insufficient_scope');
  const closed = await open_agent(server, reseller.key);
  t.equal((await server.api('DELETE', `/v1/agents/${closed.id}`, { key: reseller.key })).status, 200, 'an agent closed');
  const on_closed = await put_pricing(reseller.key, closed.id, [{ service_type: 'airtime', rate_bp: 0 }]);
  t.equal(on_closed.status, 409, 'a closed agent\'s prices do not change');
  t.equal(on_closed.body.error.code, 'agents.closed', 'with agents.closed');
});

t.test('a bulk order of an agent: each item credits the ancestors, each failed item reverses them once', async (t) => {
  const before = { r: await balance_kobo(server, reseller.key), s: await balance_kobo(server, sup.key), a: await balance_kobo(server, agent.key) };
  const placed = await server.api('POST', '/v1/services/bulk', { key: agent.key, body: { pin: '54321', items: [
    { service_type: 'airtime', network: 'mtn', phone: sandbox.delivered, amount: 333.33 },
    { service_type: 'airtime', network: 'mtn', phone: sandbox.failed, amount: 333.33 },
  ] } });
  t.ok(placed.status === 200 || placed.status === 201 || placed.status === 202, `the bulk order is placed: ${placed.text}`);
  const id = placed.body.data.id;
  let batch: any = null;
  for (let i = 0; i < 200; i++) {
    batch = (await server.api('GET', `/v1/services/bulk/${id}`, { key: agent.key })).body.data;
    if (batch.status === 'completed') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.equal(batch.status, 'completed', 'it completes');
  t.equal(await balance_kobo(server, agent.key), before.a - 32_500, 'the agent paid for the delivered item only');
  t.equal(await balance_kobo(server, sup.key), before.s + 500, 'the super-agent kept one commission');
  t.equal(await balance_kobo(server, reseller.key), before.r + 333, 'the reseller kept one commission');
  const references = batch.items.map((item: any) => item.reference);
  const sup_entries = (await entries(server, sup.key)).filter((e) => references.includes(e.reference));
  t.same(sup_entries.map((e) => e.type).sort(), ['commission', 'commission', 'commission_reversal'], 'two commissions and one reversal on the super-agent');
  for (const [who, key] of [['reseller', reseller.key], ['super-agent', sup.key], ['agent', agent.key]] as const) await entries_explain_balance(t, server, key, who);
});

t.test('a statement of an ancestor shows its commissions apart from its own discount, and explains its balance', async (t) => {
  const report = await server.api('GET', '/v1/agents/commissions', { key: reseller.key });
  const day = report.body.data.to;
  const statement = await server.api('GET', `/v1/statements?date=${day}&environment=test`, { key: reseller.key });
  t.equal(statement.status, 200, `the reseller's statement of the day: ${statement.status}`);
  const by_type = statement.body.data.totals.by_type;
  t.ok(by_type.agent_commission.count >= 1, 'its commissions are summed as agent_commission');
  t.ok(by_type.commission_reversal.count >= 1, 'and their reversals as commission_reversal');
  const csv = await server.api('GET', `/v1/statements?date=${day}&environment=test&format=csv`, { key: sup.key });
  t.equal(csv.status, 200, 'the super-agent\'s CSV statement is made too');
  t.match(csv.text, /commission_reversal/, 'and holds the reversal');
});

t.test('a restart keeps the price lists, the commissions and the balances', async (t) => {
  const before = [await balance_kobo(server, reseller.key), await balance_kobo(server, sup.key), await balance_kobo(server, agent.key)];
  const sup_entries = await entries(server, sup.key);
  await server.stop();
  await server.start();
  t.same([await balance_kobo(server, reseller.key), await balance_kobo(server, sup.key), await balance_kobo(server, agent.key)], before, 'the balances');
  t.same(await entries(server, sup.key), sup_entries, 'the super-agent\'s entries');
  const read = await server.api('GET', `/v1/agents/${agent.id}`, { key: sup.key });
  t.same(read.body.data.pricing.rules.map((r: any) => r.rate_bp), [250], 'the agent\'s price list');
  const bought = await server.api('POST', '/v1/services/airtime', { key: agent.key, body: airtime_body(sandbox.delivered, 100, { pin: '54321' }) });
  t.equal(kobo(bought.body.data.amount_charged), 9_750, 'and is applied after it');
});
