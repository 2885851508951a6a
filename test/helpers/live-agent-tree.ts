// A three-level tree on live money (reseller → super-agent → agent) with price lists down it, and the reads a
// test of its commissions needs (docs/api.md "Agent pricing"; docs/decisions.md "Commissions down the tree").
// Face value 333.33 (33,333 kobo): the reseller's tier gives 500 bp on MTN airtime (its charge 31,667), the
// super-agent's list 400 bp (32,000), the agent's 250 bp (32,500): the super-agent earns 500, the reseller 333.
import type { Test } from 'tap';
import type { TestServer } from './server.js';
import { all_wallet_entries, balance_kobo, kobo } from './purchases.js';

export const tree_amount = 333.33;
export const agent_charge = 32_500;
export const sup_commission = 500;
export const reseller_commission = 333;
export const reseller_pin = '12345';
export const agent_pin = '54321';

const fast_key = { environment: 'live', rate_limit_per_minute: 1_000_000 };
const outflows = new Set(['debit', 'transfer_out', 'commission_reversal']);

export interface Member {
  id: number;
  key: string;
}

export class LiveAgentTree {
  private transfers = 0;
  private agents_opened = 0;
  reseller!: Member;
  sup!: Member;
  agent!: Member;

  constructor(readonly server: TestServer) {}

  /** The tree, its price lists, 10,000 NGN to the super-agent and 5,000 to the agent, all live. */
  async open(tier: string): Promise<this> {
    const set = await this.server.admin('PUT', `/admin/pricing/${tier}`, { rules: [{ service_type: 'airtime', network: 'mtn', rate_bp: 500 }] });
    if (set.status !== 200) throw new Error(`tier: ${set.text}`);
    const account = await this.server.create_account({ kyc_level: 3, tier });
    this.reseller = { id: account.id, key: (await this.server.create_key(account.id, fast_key)).api_key };
    await this.server.credit(this.reseller.id, 'live', 100_000);
    this.sup = await this.open_agent(this.reseller.key);
    this.agent = await this.open_agent(this.sup.key);
    await this.set_pricing(this.reseller.key, this.sup.id, 400);
    await this.set_pricing(this.sup.key, this.agent.id, 250);
    await this.transfer(this.reseller.key, reseller_pin, this.sup.id, 'to_agent', 10_000);
    await this.transfer(this.sup.key, agent_pin, this.agent.id, 'to_agent', 5_000);
    return this;
  }

  async open_agent(parent_key: string): Promise<Member> {
    const n = ++this.agents_opened;
    const body = { name: `Live agent ${n}`, email: `live-agent${n}-${Date.now()}@example.ng`, phone: '08031234567', password: 'agent password 1', kyc_level: 3, pin: agent_pin };
    const created = await this.server.api('POST', '/v1/agents', { key: parent_key, body });
    if (created.status !== 201) throw new Error(`open_agent: ${created.status} ${created.text}`);
    return { id: created.body.data.id as number, key: (await this.server.create_key(created.body.data.id, fast_key)).api_key };
  }

  async transfer(parent_key: string, pin: string, agent_id: number, direction: 'to_agent' | 'from_agent', naira: number): Promise<void> {
    const body = { environment: 'live', pin, direction, amount: naira, reference: `live-tree-${++this.transfers}-${Date.now()}` };
    const moved = await this.server.api('POST', `/v1/agents/${agent_id}/transfers`, { key: parent_key, body });
    if (moved.status !== 201) throw new Error(`transfer: ${moved.status} ${moved.text}`);
  }

  private async set_pricing(parent_key: string, agent_id: number, rate_bp: number): Promise<void> {
    const set = await this.server.api('PUT', `/v1/agents/${agent_id}/pricing`, { key: parent_key, body: { rules: [{ service_type: 'airtime', network: 'mtn', rate_bp }] } });
    if (set.status !== 200) throw new Error(`pricing: ${set.status} ${set.text}`);
  }

  private members(): [string, Member][] {
    return [['reseller', this.reseller], ['super-agent', this.sup], ['agent', this.agent]];
  }

  /** [reseller, super-agent, agent] live balances in kobo. */
  balances(): Promise<number[]> {
    return Promise.all(this.members().map(([, m]) => balance_kobo(this.server, m.key)));
  }

  /** One wallet's entries of one order reference, oldest first: [type, kobo, created_at]. */
  async entries_of(key: string, reference: string): Promise<[string, number, string][]> {
    return (await all_wallet_entries(this.server, key)).filter((e) => e.reference === reference).reverse().map((e) => [e.type, kobo(e.amount), e.created_at]);
  }

  async tree_entries_of(reference: string) {
    return { reseller: await this.entries_of(this.reseller.key, reference), sup: await this.entries_of(this.sup.key, reference), agent: await this.entries_of(this.agent.key, reference) };
  }

  /** Every wallet of the tree: its entries, signed, sum to its balance. */
  async every_wallet_adds_up(t: Test, when: string): Promise<void> {
    for (const [who, member] of this.members()) {
      const entries = await all_wallet_entries(this.server, member.key);
      const sum = entries.reduce((total, e) => total + (outflows.has(e.type) ? -1 : 1) * kobo(e.amount), 0);
      t.equal(sum, await balance_kobo(this.server, member.key), `${when}: the ${who}'s live entries sum to its balance`);
    }
  }

  /** The order's wallet.credited / wallet.debited events on one wallet, sorted. */
  async wallet_events_of(key: string, reference: string): Promise<string[]> {
    const response = await this.server.api('GET', '/v1/events?limit=100', { key });
    return (response.body.data.events as any[]).filter((e) => e.data.reference === reference && e.event.startsWith('wallet.')).map((e) => e.event).sort();
  }

  /** At the debit: the agent paid its charge, each ancestor earned its commission, all in one record. */
  async commissions_paid(t: Test, reference: string, before: number[]): Promise<void> {
    t.same(await this.balances(), [before[0] + reseller_commission, before[1] + sup_commission, before[2] - agent_charge], 'at the debit: the agent paid 325.00, the super-agent earned 5.00, the reseller 3.33');
    const at_debit = await this.tree_entries_of(reference);
    t.same(at_debit.agent.map(([type, k]) => [type, k]), [['debit', agent_charge]], 'the agent\'s debit of its own charge');
    t.same(at_debit.sup.map(([type, k]) => [type, k]), [['commission', sup_commission]], 'the super-agent\'s commission');
    t.same(at_debit.reseller.map(([type, k]) => [type, k]), [['commission', reseller_commission]], 'the reseller\'s commission');
    t.same([at_debit.sup[0]?.[2], at_debit.reseller[0]?.[2]], [at_debit.agent[0]?.[2], at_debit.agent[0]?.[2]], 'the commissions carry the debit\'s instant: one journal record');
  }

  /** After the refund: every wallet back where it was, each commission reversed once, in the refund's record. */
  async refunded_once(t: Test, reference: string, before: number[]): Promise<void> {
    t.same(await this.balances(), before, 'every wallet of the tree is back where it was before the purchase');
    const after = await this.tree_entries_of(reference);
    t.same(after.agent.map(([type, k]) => [type, k]), [['debit', agent_charge], ['reversal', agent_charge]], 'the agent: its debit and one refund of exactly its charge');
    t.same(after.sup.map(([type, k]) => [type, k]), [['commission', sup_commission], ['commission_reversal', sup_commission]], 'the super-agent: its commission and one reversal of it');
    t.same(after.reseller.map(([type, k]) => [type, k]), [['commission', reseller_commission], ['commission_reversal', reseller_commission]], 'the reseller: its commission and one reversal of it');
    t.same([after.sup[1]?.[2], after.reseller[1]?.[2]], [after.agent[1]?.[2], after.agent[1]?.[2]], 'the reversals carry the refund\'s instant: one journal record');
    t.same(await this.wallet_events_of(this.sup.key, reference), ['wallet.credited', 'wallet.debited'], 'the super-agent heard of its commission and of its reversal, once each');
    t.same(await this.wallet_events_of(this.reseller.key, reference), ['wallet.credited', 'wallet.debited'], 'the reseller too');
    await this.every_wallet_adds_up(t, 'after the refund');
  }
}
