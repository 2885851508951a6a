// The soak's traffic: what a reseller's integration sends all day. Purchases over the four services
// with the sandbox numbers (delivered, failed at once, delivered or failed after 30 s), look-ups of
// earlier purchases, balance and history reads, sandbox top-ups and meter verifications, spread over
// many accounts. It counts, per account, what the server acknowledged, so that the end check can
// prove every acknowledged operation is in the wallet exactly once.
import { randomBytes } from 'node:crypto';
import type autocannon from 'autocannon';
import { api, bench_pin, type Reseller } from './fixtures.js';

type Request = autocannon.Request;

/** What each draw of the generator becomes; shares add up to 1. */
export const mix_shares = {
  airtime_delivered: 0.335,
  airtime_failed: 0.04,
  airtime_delayed_delivered: 0.015,
  airtime_delayed_failed: 0.01,
  data: 0.06,
  electricity: 0.06,
  tv: 0.02,
  sandbox_top_up: 0.03,
  meter_verification: 0.03,
  order_lookup: 0.20,
  wallet_read: 0.12,
  order_list: 0.04,
  wallet_history: 0.04,
} as const;

export type MixKind = keyof typeof mix_shares;

/** Sandbox numbers (decisions.md "Sandbox"). */
const phones: Partial<Record<MixKind, string>> = {
  airtime_delivered: '08011111111',
  airtime_failed: '08022222222',
  airtime_delayed_delivered: '08033333333',
  airtime_delayed_failed: '08044444444',
};
/** Every sandbox top-up of the mix is this much. */
export const top_up_kobo = 500_00;
/** Recent references kept for look-ups, as a reseller checks recent orders. */
const references_max = 10_000;

export interface PurchaseOrder {
  path: string;
  body: string;
}

/** Per account: what the server acknowledged. */
export interface AccountTally {
  purchases_acknowledged: number;
  top_ups_acknowledged: number;
  top_ups_kobo: number;
  /**
   * Requests drawn and not answered yet. When the run ends autocannon drops the requests in flight
   * without counting them as errors; the server may still have processed them.
   */
  in_flight: number;
}

/** The reads of the mix that need nothing but the account's key. */
const read_paths = {
  wallet_read: '/v1/wallet',
  order_list: '/v1/transactions?per_page=20',
  wallet_history: '/v1/wallet/transactions?per_page=20',
} as const;

/** Purchases of the sandbox's delayed numbers wait the full 5 s for the provider, by design. */
const waits_by_design = new Set<MixKind>(['airtime_delayed_delivered', 'airtime_delayed_failed']);

/** A non-2xx answer by kind of request, status and error code, e.g. "order_lookup 404 transactions.not_found". */
export type AnswerCounts = Map<string, number>;

const reference_in_body = /"reference":"([^"]+)"/;
const code_in_body = /"code":"([^"]{1,100})"/;
/** Distinct unexpected kinds of answer kept; more would only repeat. */
const answer_kinds_max = 50;

export class SoakMix {
  readonly tallies: AccountTally[];
  readonly unexpected: AnswerCounts = new Map();
  /**
   * Requests that got no answer within the timeout (autocannon gave up on them and reconnected), by
   * kind: what the end verdict's "no answer" was.
   */
  readonly unanswered: AnswerCounts = new Map();
  /** Requests drawn and not answered yet, by draw number (autocannon drops timed-out ones silently). */
  private readonly outstanding = new Map<number, { kind: MixKind; drawn_ms: number }>();
  private drawn = 0;

  /** Counts, by kind, the requests still unanswered older than limit_ms, and forgets them. */
  collect_unanswered(limit_ms: number): void {
    const now = Date.now();
    for (const [id, { kind, drawn_ms }] of this.outstanding) {
      if (now - drawn_ms < limit_ms) continue;
      this.outstanding.delete(id);
      this.unanswered.set(kind, (this.unanswered.get(kind) ?? 0) + 1);
    }
  }
  /** Called with each answer: whether it was expected (2xx, or the sandbox's failed number's 422). */
  on_answer: (expected_non_2xx: boolean, unexpected_non_2xx: boolean) => void = () => {};
  /**
   * Whether the answer just handled was one that waits 5 s by design. autocannon calls a request's
   * onResponse and then, synchronously, emits the run's 'response' event with the latency, so the
   * soak reads this there to leave those answers out of the latency figures.
   */
  last_waited_by_design = false;
  private readonly kinds: MixKind[] = [];
  private readonly cumulative: number[] = [];
  private readonly ring_owner: number[] = [];
  private readonly ring_reference: string[] = [];
  private ring_next = 0;
  private next_account = 0;
  private counter = 0;
  private readonly tag = randomBytes(4).toString('hex');

  constructor(
    private readonly resellers: readonly Reseller[],
    private readonly orders: { data: PurchaseOrder; electricity: PurchaseOrder; tv: PurchaseOrder },
    private readonly random: () => number,
  ) {
    this.tallies = resellers.map(() => ({ purchases_acknowledged: 0, top_ups_acknowledged: 0, top_ups_kobo: 0, in_flight: 0 }));
    let sum = 0;
    for (const [kind, share] of Object.entries(mix_shares) as [MixKind, number][]) {
      sum += share;
      this.kinds.push(kind);
      this.cumulative.push(sum);
    }
    if (Math.abs(sum - 1) > 1e-9) throw new Error(`assertion failed: the mix's shares add up to ${sum}, not 1`);
  }

  private draw(): MixKind {
    const x = this.random();
    for (let i = 0; i < this.cumulative.length; i++) if (x < this.cumulative[i]) return this.kinds[i];
    return this.kinds[this.kinds.length - 1];
  }

  remember(owner: number, reference: string): void {
    if (this.ring_reference.length < references_max) {
      this.ring_owner.push(owner);
      this.ring_reference.push(reference);
    } else {
      this.ring_owner[this.ring_next] = owner;
      this.ring_reference[this.ring_next] = reference;
      this.ring_next = (this.ring_next + 1) % references_max;
    }
  }

  private purchase_body(kind: MixKind): PurchaseOrder {
    const phone = phones[kind];
    if (phone !== undefined) return { path: '/v1/services/airtime', body: JSON.stringify({ network: 'mtn', phone, amount: 100, pin: bench_pin }) };
    if (kind === 'data') return this.orders.data;
    if (kind === 'electricity') return this.orders.electricity;
    return this.orders.tv;
  }

  /** The autocannon request list: one entry whose setupRequest draws each request anew. */
  requests(): Request[] {
    return [{
      setupRequest: (request, context) => {
        const owner = this.next_account;
        this.next_account = owner + 1 === this.resellers.length ? 0 : owner + 1;
        let kind = this.draw();
        if (kind === 'order_lookup' && this.ring_reference.length === 0) kind = 'wallet_read';
        const authorization = this.resellers[owner].authorization;
        context.owner = owner;
        context.kind = kind;
        const id = ++this.drawn;
        context.id = id;
        this.outstanding.set(id, { kind, drawn_ms: Date.now() });
        this.tallies[owner].in_flight++;
        switch (kind) {
          case 'sandbox_top_up':
            request.method = 'POST';
            request.path = '/v1/sandbox/wallet/fund';
            request.body = JSON.stringify({ amount: top_up_kobo / 100, reference: `SOAK-${this.tag}-${++this.counter}` });
            request.headers = { authorization, 'content-type': 'application/json', 'x-idempotency-key': `soak-${this.tag}-${this.counter}` };
            break;
          case 'meter_verification':
            request.method = 'POST';
            request.path = '/v1/services/electricity/verify';
            request.body = JSON.stringify({ disco: 'ikeja-electric', meter_number: '1111111111111', meter_type: 'prepaid' });
            request.headers = { authorization, 'content-type': 'application/json' };
            break;
          case 'order_lookup': {
            const index = Math.floor(this.random() * this.ring_reference.length);
            request.method = 'GET';
            request.path = `/v1/transactions/${encodeURIComponent(this.ring_reference[index])}`;
            request.headers = { authorization: this.resellers[this.ring_owner[index]].authorization };
            request.body = undefined;
            break;
          }
          case 'wallet_read':
          case 'order_list':
          case 'wallet_history':
            request.method = 'GET';
            request.path = read_paths[kind];
            request.headers = { authorization };
            request.body = undefined;
            break;
          default: {
            const order = this.purchase_body(kind);
            request.method = 'POST';
            request.path = order.path;
            request.body = order.body;
            request.headers = { authorization, 'content-type': 'application/json', 'x-idempotency-key': `soak-${this.tag}-${++this.counter}` };
          }
        }
        return request;
      },
      onResponse: (status, body, context) => {
        const owner = context.owner as number;
        const kind = context.kind as MixKind;
        this.outstanding.delete(context.id as number);
        this.tallies[owner].in_flight--;
        this.last_waited_by_design = waits_by_design.has(kind);
        const purchase = kind in phones || kind === 'data' || kind === 'electricity' || kind === 'tv';
        const ok = status >= 200 && status <= 299;
        const failed_purchase = status === 422 && purchase && code_in_body.exec(body)?.[1] === 'transaction.failed';
        if (purchase && (ok || failed_purchase)) {
          this.tallies[owner].purchases_acknowledged++;
          const found = reference_in_body.exec(body);
          if (found !== null) this.remember(owner, found[1]);
        } else if (kind === 'sandbox_top_up' && status === 201) {
          this.tallies[owner].top_ups_acknowledged++;
          this.tallies[owner].top_ups_kobo += top_up_kobo;
        }
        const expected_non_2xx = failed_purchase && kind === 'airtime_failed';
        const unexpected_non_2xx = !ok && !expected_non_2xx;
        if (unexpected_non_2xx) {
          const answer = `${kind} ${status} ${code_in_body.exec(body)?.[1] ?? '(no code)'}`;
          if (this.unexpected.has(answer) || this.unexpected.size < answer_kinds_max) this.unexpected.set(answer, (this.unexpected.get(answer) ?? 0) + 1);
        }
        this.on_answer(expected_non_2xx, unexpected_non_2xx);
      },
    }];
  }
}

/** The first item of a catalog list. */
function first_item(body: any, lists: string[]): Record<string, unknown> | null {
  const data = body?.data;
  for (const name of lists) {
    const list = Array.isArray(data) ? data : data?.[name];
    if (Array.isArray(list) && list.length > 0 && typeof list[0] === 'object') return list[0] as Record<string, unknown>;
  }
  return null;
}

/** Data and TV orders need a plan or package and its price from the catalog. */
export async function discover_orders(base_url: string, reseller: Reseller): Promise<{ data: PurchaseOrder; electricity: PurchaseOrder; tv: PurchaseOrder }> {
  const plans = await api(base_url, reseller, 'GET', '/v1/services/data/plans?network=mtn');
  const plan = first_item(plans.body, ['plans']);
  if (plan === null || typeof plan.plan_id !== 'string' || typeof plan.amount !== 'number') throw new Error(`no MTN data plan in the catalog: ${plans.status} ${JSON.stringify(plans.body).slice(0, 200)}`);
  const packages = await api(base_url, reseller, 'GET', '/v1/services/tv/packages?provider=dstv');
  const tv_package = first_item(packages.body, ['packages', 'plans']);
  if (tv_package === null || typeof tv_package.package_code !== 'string' || typeof tv_package.amount !== 'number') throw new Error(`no DStv package in the catalog: ${packages.status} ${JSON.stringify(packages.body).slice(0, 200)}`);
  return {
    data: { path: '/v1/services/data/purchase', body: JSON.stringify({ network: 'mtn', plan_code: plan.plan_id, phone: '08011111111', amount: plan.amount, pin: bench_pin }) },
    electricity: { path: '/v1/services/electricity', body: JSON.stringify({ disco: 'ikeja-electric', meter_number: '1111111111111', meter_type: 'prepaid', amount: 1000, pin: bench_pin }) },
    tv: { path: '/v1/services/tv', body: JSON.stringify({ provider: 'dstv', smartcard_number: '1212121212', package_code: tv_package.package_code, amount: tv_package.amount, pin: bench_pin }) },
  };
}
