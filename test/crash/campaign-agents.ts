// The crash campaign's agent turns (test/crash/README.md "Agent trees"): one tree, reseller -> super-agent ->
// agent, opened at set-up and used every round: concurrent transfers both ways at both levels (some repeating an
// earlier reference, some beyond the sender's balance), the agent's and the super-agent's purchases made by the
// reseller's key acting for them (`Billvend-Account`, the agent's own PIN; sandbox numbers that deliver and that
// fail, so refunds), suspensions and reactivations, and now and then the agent's closing with its balance (a new
// agent is opened in its place after the restart). Test money only, sandbox numbers that settle at once, so that
// no balance of the tree moves between the kill and the API check. The kill cuts some requests: after the restart
// each is sent again with its reference or idempotency key. The journal checker judges the tree with
// check_agents (checker.ts); after every restart `after_restart` checks through the API.
import type { TestServer, ApiResponse } from '../helpers/server.js';
import { kobo_of, price_rules_body, sandbox_phones, type Ack, type AgentTransferSpec, type AgentsModel, type Model } from './model.js';

/** Agent turns are part of every campaign; CRASH_AGENTS=0 leaves them out. */
export const agents_on = process.env.CRASH_AGENTS !== '0';

const pins = { root: '12345', super: '24680', agent: '13579' };
const fast_key = { rate_limit_per_minute: 1_000_000 };
/** Concurrent loops of agent turns during a round's load. */
const loops = 2;
/**
 * Transfers answered 201 repeated after each restart, oldest first (each verifies the parent's PIN, which costs a
 * hash: all of them doubled the suite's rounds); the rest wait for the next restarts.
 */
const repeats_per_restart_max = 8;

/** A request of the tree a deposed leader refused (cluster mode): unanswered, as if the kill had cut it. */
export class AgentRefused extends Error {}

export interface AgentsHost {
  random(): number;
  server(): TestServer;
  /** The load goes on (false once the kill began). */
  alive(): boolean;
  /** Cluster mode: a deposed leader's 503 service.unavailable is a refusal, not an answer. */
  cluster: boolean;
  /** Counts such a refusal with the campaign's (its summary's "answers 503 service.unavailable"). */
  refused(): void;
}

interface CutRequest {
  what: string;
  method: 'POST' | 'PATCH' | 'DELETE';
  path: string;
  acting: number | null;
  body: Record<string, unknown> | undefined;
  idem: string | undefined;
}

export class AgentsDriver {
  readonly model: AgentsModel;
  private root_key = '';
  private super_id = 0;
  private agent_id = 0;
  private agents_opened = 0;
  private serial = 0;
  /** Requests other than transfers the kill cut (purchases, suspensions, closings): sent again after the restart. */
  private cut: CutRequest[] = [];
  private suspended = false;
  readonly totals = { turns: 0, transfers: 0, transfers_201: 0, insufficient: 0, repeats: 0, replayed: 0, purchases: 0, purchases_201: 0, purchases_failed: 0, suspensions: 0, refused_suspended: 0, closings: 0, closed: 0, resent: 0, checked_after_restart: 0 };

  constructor(private readonly campaign: Model, private readonly host: AgentsHost) {
    this.model = { root_id: 0, root_tier: 'crash_gold', ids: [], key_ids: [], closed: [], transfers: [] };
    campaign.agents = this.model;
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.host.random() * items.length)];
  }

  private async call(method: string, path: string, acting: number | null, body?: unknown, idem?: string): Promise<ApiResponse> {
    const answer = await this.host.server().api(method, path, {
      key: this.root_key,
      ...(acting === null ? {} : { headers: { 'Billvend-Account': String(acting) } }),
      ...(body === undefined ? {} : { body }),
      ...(idem === undefined ? {} : { idempotency_key: idem }),
    });
    // Cluster mode, during the load: a leader deposed in a NATS round refuses every request 503
    // service.unavailable (docs/cluster.md "Deposition"). Like the campaign's own requests, the request is
    // then unanswered: thrown as a cut one, so a transfer keeps no answer and is sent again with its reference
    // after the failover, and a purchase, suspension or closing goes with the requests the kill cut (found by
    // the first long cluster run with agents, 2026-11-28, round 42: counted as violations before).
    if (this.host.cluster && answer.status === 503 && answer.body?.error?.code === 'service.unavailable') {
      this.host.refused();
      throw new AgentRefused(`refused: ${answer.text.slice(0, 200)}`);
    }
    return answer;
  }

  /** The tree, once: a reseller (operator-made, 10,000,000 NGN of test money), its super-agent, its agent. */
  async setup(): Promise<void> {
    const server = this.host.server();
    const root = await server.create_account({ kyc_level: 3, tier: this.model.root_tier });
    const patched = await server.admin('PATCH', `/admin/accounts/${root.id}`, { daily_limit: 100_000_000 });
    if (patched.status !== 200) throw new Error(`agents: daily limit ${patched.status} ${patched.text}`);
    const key = await server.create_key(root.id, { environment: 'test', name: 'agents driver', scopes: ['*'], ...fast_key });
    this.root_key = key.api_key;
    this.model.root_id = root.id;
    this.model.ids.push(root.id);
    this.model.key_ids.push(key.id);
    await server.credit(root.id, 'test', 10_000_000);
    this.super_id = await this.open(root.id, null, pins.super, 2);
    await this.fund(root.id, this.super_id, null, 2_000_000, pins.root);
    this.agent_id = await this.open(this.super_id, this.super_id, pins.agent, 1);
    await this.fund(this.super_id, this.agent_id, this.super_id, 200_000, pins.super);
    // Prices down the tree: the reseller buys at the campaign's discounted tier, its super-agent at about half
    // of each rate, the agent at about a quarter, so every agent's purchase pays commissions up two levels.
    await this.set_prices(this.super_id, null, 2);
    await this.set_prices(this.agent_id, this.super_id, 4);
  }

  private async set_prices(agent_id: number, acting: number | null, divisor: number): Promise<void> {
    const rules = (this.campaign.pricing[this.model.root_tier] ?? []).map((r) => ({ ...r, rate_bp: Math.floor(r.rate_bp / divisor) }));
    const priced = await this.call('PUT', `/v1/agents/${agent_id}/pricing`, acting, { rules: price_rules_body(rules) });
    if (priced.status !== 200) throw new Error(`agents: prices of ${agent_id}: ${priced.status} ${priced.text}`);
  }

  private async open(parent_id: number, acting: number | null, pin: string, kyc_level: number): Promise<number> {
    const n = ++this.agents_opened;
    const created = await this.call('POST', '/v1/agents', acting, { name: `Crash till ${n}`, email: `crash-agent-${n}-${Date.now()}@example.ng`, phone: '08031234567', password: 'crash agent password', kyc_level, pin });
    if (created.status !== 201 || created.body.data.parent_id !== parent_id) throw new Error(`agents: open under ${parent_id}: ${created.status} ${created.text}`);
    this.model.ids.push(created.body.data.id);
    return created.body.data.id;
  }

  private async fund(parent_id: number, agent_id: number, acting: number | null, ngn: number, pin: string): Promise<void> {
    const spec = this.transfer_spec(0, parent_id, agent_id, 'to_agent', ngn * 100);
    await this.send_transfer(spec, acting, pin);
    if (spec.ack?.status !== 201) throw new Error(`agents: fund ${agent_id}: ${spec.ack?.status} ${spec.ack?.text}`);
  }

  private transfer_spec(round: number, parent_id: number, agent_id: number, direction: 'to_agent' | 'from_agent', amount_kobo: number): AgentTransferSpec {
    const spec: AgentTransferSpec = { reference: `tr-${round}-${++this.serial}`, parent_id, agent_id, direction, amount_kobo, round, sends: 0, ack: null, repeated: false };
    this.model.transfers.push(spec);
    return spec;
  }

  private pin_of(parent_id: number): string {
    return parent_id === this.model.root_id ? pins.root : parent_id === this.super_id ? pins.super : pins.agent;
  }

  /** Sends a transfer (the parent's PIN; the reseller's key acting for the super-agent when it is the parent). */
  private async send_transfer(spec: AgentTransferSpec, acting = spec.parent_id === this.model.root_id ? null : spec.parent_id, pin = this.pin_of(spec.parent_id)): Promise<ApiResponse> {
    spec.sends++;
    this.totals.transfers++;
    const answer = await this.call('POST', `/v1/agents/${spec.agent_id}/transfers`, acting, { direction: spec.direction, amount: spec.amount_kobo / 100, environment: 'test', pin, reference: spec.reference });
    spec.ack ??= ack_of(answer);
    return answer;
  }

  /** One kind of a transfer's answer the documentation allows: 201, or 422 beyond the balance, or 409/403 for a closed or suspended agent. */
  private transfer_allowed(answer: ApiResponse): boolean {
    const code = answer.body?.error?.code;
    if (answer.status === 201) this.totals.transfers_201++;
    if (code === 'wallet.insufficient_funds') this.totals.insufficient++;
    return answer.status === 201 || (answer.status === 422 && code === 'wallet.insufficient_funds') || code === 'agents.closed' || code === 'account.suspended' || code === 'account.not_found';
  }

  /** The agent turns of a round, until the kill: each step's requests at once. */
  async turn(round: number, violations: string[]): Promise<void> {
    await Promise.all(Array.from({ length: loops }, (_, n) => this.loop(n, round, violations)));
  }

  /** One of the concurrent loops; only loop 0 suspends and closes the agent (the others go on around it). */
  private async loop(n: number, round: number, violations: string[]): Promise<void> {
    while (this.host.alive()) {
      this.totals.turns++;
      const roll = this.host.random();
      if (roll < 0.5 || (n > 0 && roll >= 0.85) || this.agent_id === -1) await this.transfers(round, violations);
      else if (roll < 0.85) await this.purchases(round, violations);
      else if (roll < 0.97) await this.suspension(round, violations);
      else await this.closing(round, violations);
    }
  }

  private async transfers(round: number, violations: string[]): Promise<void> {
    const count = 2 + Math.floor(this.host.random() * 4);
    const specs: AgentTransferSpec[] = [];
    for (let i = 0; i < count; i++) {
      const acked = this.model.transfers.filter((s) => s.ack?.status === 201 && s.round > 0);
      if (acked.length > 0 && this.host.random() < 0.15) {
        specs.push(this.pick(acked.slice(-20)));
        this.totals.repeats++;
        continue;
      }
      const lower = this.agent_id !== -1 && this.host.random() < 0.5;
      const [parent_id, agent_id] = lower ? [this.super_id, this.agent_id] : [this.model.root_id, this.super_id];
      const beyond = this.host.random() < 0.1;
      const amount_kobo = beyond ? 90_000_000_00 : 100 + Math.floor(this.host.random() * (lower ? 5_000_00 : 50_000_00));
      specs.push(this.transfer_spec(round, parent_id, agent_id, this.host.random() < 0.5 ? 'to_agent' : 'from_agent', amount_kobo));
    }
    const answers = await Promise.all(specs.map((spec) => this.send_transfer(spec)));
    answers.forEach((answer, i) => {
      if (!this.transfer_allowed(answer)) violations.push(`round ${round}: transfer ${specs[i].reference} answered ${answer.status} ${answer.text.slice(0, 300)}`);
      const first = specs[i].ack!;
      if (first.status === 201 && answer !== null && specs[i].sends > 1 && !same_answer(first, answer)) violations.push(`round ${round}: transfer ${specs[i].reference} repeated answered ${answer.status} ${answer.text.slice(0, 300)}, first ${first.status} ${first.text.slice(0, 300)}`);
    });
  }

  private async purchases(round: number, violations: string[]): Promise<void> {
    const count = 1 + Math.floor(this.host.random() * 3);
    const requests = Array.from({ length: count }, () => {
      const by_agent = this.agent_id !== -1 && this.host.random() < 0.7;
      const acting = by_agent ? this.agent_id : this.super_id;
      const phone = this.host.random() < 0.7 ? sandbox_phones.delivered : sandbox_phones.failed;
      const body = { network: 'mtn', phone, amount: 50 + Math.floor(this.host.random() * 450), pin: by_agent ? pins.agent : pins.super };
      return { what: `purchase for ${acting}`, method: 'POST' as const, path: '/v1/services/airtime', acting, body, idem: `ap-${round}-${++this.serial}` };
    });
    this.totals.purchases += count;
    await Promise.all(requests.map(async (request) => {
      let answer: ApiResponse;
      try {
        answer = await this.call(request.method, request.path, request.acting, request.body, request.idem);
      } catch (error) {
        this.cut.push(request);
        throw error;
      }
      this.judge_purchase(round, request, answer, violations);
    }));
  }

  private judge_purchase(round: number, request: CutRequest, answer: ApiResponse, violations: string[]): void {
    const code = answer.body?.error?.code;
    if (answer.status === 201) this.totals.purchases_201++;
    else if (answer.status === 422 && code === 'transaction.failed') this.totals.purchases_failed++;
    else if (code === 'account.suspended' || code === 'wallet.insufficient_funds' || code === 'account.not_found' || code === 'agents.closed' || code === 'auth.account_closed') this.totals.refused_suspended++;
    else violations.push(`round ${round}: ${request.what} (${request.idem}) answered ${answer.status} ${answer.text.slice(0, 300)}`);
  }

  private async suspension(round: number, violations: string[]): Promise<void> {
    this.totals.suspensions++;
    for (const status of ['suspended', 'active']) {
      const request: CutRequest = { what: `status ${status}`, method: 'PATCH', path: `/v1/agents/${this.agent_id}`, acting: null, body: { status }, idem: undefined };
      let answer: ApiResponse;
      try {
        answer = await this.call(request.method, request.path, request.acting, request.body);
      } catch (error) {
        this.cut.push(request);
        throw error;
      }
      if (answer.status !== 200 || answer.body.data.status !== status) violations.push(`round ${round}: agent ${this.agent_id} ${status}: ${answer.status} ${answer.text.slice(0, 300)}`);
      this.suspended = status === 'suspended';
      if (this.suspended) await this.purchases(round, violations);
    }
  }

  /** The agent closed with its balance (swept to the super-agent); a new one is opened after the restart. */
  private async closing(round: number, violations: string[]): Promise<void> {
    this.totals.closings++;
    const id = this.agent_id;
    const request: CutRequest = { what: `close ${id}`, method: 'DELETE', path: `/v1/agents/${id}`, acting: null, body: undefined, idem: undefined };
    let answer: ApiResponse;
    try {
      answer = await this.call(request.method, request.path, request.acting);
    } catch (error) {
      this.cut.push(request);
      this.agent_id = -1;
      throw error;
    }
    if (answer.status === 200) {
      this.model.closed.push(id);
      this.totals.closed++;
      this.agent_id = -1;
      // The rest of this round's load goes without the lower level (a new agent comes after the restart).
    } else if (answer.body?.error?.code !== 'agents.not_closable') violations.push(`round ${round}: close ${id}: ${answer.status} ${answer.text.slice(0, 300)}`);
  }

  /**
   * After a restart, before any other request of the tree: balances through the API equal the journal's (read
   * at the kill); every request the kill cut is sent again with its reference or key; every transfer answered
   * 201 since the last restart is repeated and must answer the same with Idempotent-Replayed: true; the tree
   * is made whole again (the agent active, a new one if it was closed).
   */
  async after_restart(round: number, journal_balances: Map<number, number> | null): Promise<string[]> {
    const v: string[] = [];
    const through_api = await this.api_balances(v, `round ${round}: `);
    if (journal_balances !== null) {
      for (const [id, kobo] of through_api) if (kobo !== (journal_balances.get(id) ?? 0)) v.push(`round ${round}: account ${id}'s test balance through the API is ${kobo} kobo, the journal's ${journal_balances.get(id) ?? 0} kobo`);
    }
    for (const spec of this.model.transfers) {
      if (spec.ack !== null) continue;
      this.totals.resent++;
      const answer = await this.send_transfer(spec);
      (spec.ack as Ack | null)!.resent = true;
      if (!this.transfer_allowed(answer)) v.push(`round ${round}: transfer ${spec.reference} re-sent answered ${answer.status} ${answer.text.slice(0, 300)}`);
    }
    for (const request of this.cut.splice(0)) {
      this.totals.resent++;
      const answer = await this.call(request.method, request.path, request.acting, request.body, request.idem);
      if (request.method === 'POST') this.judge_purchase(round, request, answer, v);
      else if (request.method === 'DELETE') {
        if (answer.status === 200 || answer.body?.error?.code === 'agents.closed') this.model.closed.push(Number(request.path.split('/').pop()));
        else if (answer.body?.error?.code !== 'agents.not_closable') v.push(`round ${round}: ${request.what} re-sent answered ${answer.status} ${answer.text.slice(0, 300)}`);
      }
    }
    for (const spec of this.model.transfers.filter((s) => s.ack?.status === 201 && !s.repeated).slice(0, repeats_per_restart_max)) {
      const first = spec.ack!;
      spec.repeated = true;
      this.totals.checked_after_restart++;
      const again = await this.send_transfer(spec, spec.parent_id === this.model.root_id ? null : spec.parent_id, this.pin_of(spec.parent_id));
      if (!same_answer(first, again) || again.headers.get('idempotent-replayed') !== 'true') v.push(`round ${round}: transfer ${spec.reference} acknowledged ${first.status} ${first.text.slice(0, 300)} answers ${again.status} ${again.text.slice(0, 300)} (replayed: ${again.headers.get('idempotent-replayed')}) after the restart`);
      else this.totals.replayed++;
    }
    // The tree whole again for the next round.
    if (this.agent_id === -1 || this.model.closed.includes(this.agent_id)) {
      this.agent_id = await this.open(this.super_id, this.super_id, pins.agent, 1);
      const spec = this.transfer_spec(round, this.super_id, this.agent_id, 'to_agent', 100_000_00);
      await this.send_transfer(spec);
    } else {
      const active = await this.call('PATCH', `/v1/agents/${this.agent_id}`, null, { status: 'active' });
      if (active.status !== 200) v.push(`round ${round}: agent ${this.agent_id} could not be reactivated: ${active.status} ${active.text.slice(0, 200)}`);
    }
    this.suspended = false;
    return v;
  }

  /** Every tree account's test balance (kobo) through the API; a closing answered 200 must read closed. */
  async api_balances(v: string[], at = 'at the end: '): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (const id of this.model.ids) {
      const answer = id === this.model.root_id ? await this.call('GET', '/v1/wallet', null) : await this.call('GET', `/v1/agents/${id}`, null);
      const balance = id === this.model.root_id ? answer.body?.data?.balance : answer.body?.data?.balances?.test?.balance;
      if (answer.status !== 200) v.push(`${at}account ${id} of the tree could not be read: ${answer.status} ${answer.text.slice(0, 200)}`);
      else out.set(id, kobo_of(balance));
      if (answer.status === 200 && id !== this.model.root_id && this.model.closed.includes(id) && answer.body.data.status !== 'closed') v.push(`${at}agent ${id} was closed (200) but reads ${answer.body.data.status}`);
    }
    return out;
  }

  summary(): string {
    const t = this.totals;
    return `agents: ${this.model.ids.length} accounts in the tree (${this.model.closed.length} closed), turns ${t.turns}, transfers sent ${t.transfers} (201 ${t.transfers_201}, beyond the balance ${t.insufficient}, repeats of a reference ${t.repeats}), `
      + `purchases ${t.purchases} (201 ${t.purchases_201}, failed and refunded ${t.purchases_failed}, refused ${t.refused_suspended}), suspensions ${t.suspensions}, closings ${t.closings} (${t.closed} answered 200), re-sent after a restart ${t.resent}, transfers repeated after a restart ${t.checked_after_restart} (${t.replayed} replayed alike)`;
  }
}

function ack_of(answer: ApiResponse): Ack {
  return { status: answer.status, text: answer.text, body: answer.body, replayed: answer.headers.get('idempotent-replayed') === 'true', at_ms: Date.now(), round: 0, resent: false };
}

/** The same status and data (docs/api.md: a repeated reference answers the same status and `data`). */
function same_answer(first: Ack, again: ApiResponse): boolean {
  return first.status === again.status && JSON.stringify(first.body?.data ?? first.body?.error?.code) === JSON.stringify(again.body?.data ?? again.body?.error?.code);
}
