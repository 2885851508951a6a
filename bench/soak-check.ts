// After the soak: proves through the public API that nothing was lost or doubled. For every account,
// every order is final, each order has exactly one debit and, if it failed, exactly one reversal; the
// orders and top-ups match what the server acknowledged during the run; the entries chain from one
// balance to the next; and the balance equals the credits minus the delivered purchases, to the kobo.
import { api, map_bounded, type Reseller } from './fixtures.js';
import { top_up_kobo, type AccountTally } from './soak-mix.js';

const page_size = 100;
/** Accounts checked at once: each check is a few dozen page reads. */
const accounts_in_flight_max = 4;
/** Problems listed in the report; the count says how many there were in all. */
const problems_listed_max = 20;

export interface SoakCheck {
  accounts: number;
  orders: number;
  delivered: number;
  failed_refunded: number;
  wallet_entries: number;
  /** Orders beyond those acknowledged: allowed only up to the requests that got no answer or were in flight at the end. */
  orders_unacknowledged: number;
  problems: string[];
  problems_total: number;
}

/** Every page of a list, oldest first. */
async function whole_list(base_url: string, reseller: Reseller, path: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const answer = await api(base_url, reseller, 'GET', `${path}?per_page=${page_size}&page=${page}`);
    if (answer.status !== 200) throw new Error(`${path} page ${page}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
    out.push(...answer.body.data.transactions);
    if (page >= answer.body.data.pagination.last_page) return out.reverse();
  }
}

const kobo = (naira: number) => Math.round(naira * 100);

/**
 * `unanswered` is how many requests of the run got no answer (connection errors, timeouts), and each
 * tally says how many of its account's requests were in flight when the load stopped: each of those
 * may or may not have been processed, so orders and top-ups may exceed the acknowledged counts by at
 * most that much, never fall short of them.
 */
export async function check_accounts(base_url: string, resellers: readonly Reseller[], tallies: readonly AccountTally[], funding_kobo: number, unanswered: number): Promise<SoakCheck> {
  const result: SoakCheck = { accounts: resellers.length, orders: 0, delivered: 0, failed_refunded: 0, wallet_entries: 0, orders_unacknowledged: 0, problems: [], problems_total: 0 };
  const problem = (text: string) => {
    result.problems_total++;
    if (result.problems.length < problems_listed_max) result.problems.push(text);
  };
  await map_bounded(resellers, accounts_in_flight_max, async (reseller, index) => {
    const tally = tallies[index];
    const name = `account ${reseller.account_id}`;
    const orders = await whole_list(base_url, reseller, '/v1/transactions');
    const entries = await whole_list(base_url, reseller, '/v1/wallet/transactions');
    const wallet = await api(base_url, reseller, 'GET', '/v1/wallet');
    result.orders += orders.length;
    result.wallet_entries += entries.length;

    const by_reference = new Map<string, { debits: number; reversals: number; debit_kobo: number }>();
    let credits_kobo = 0;
    let credit_entries = 0;
    let running = 0;
    for (const [i, entry] of entries.entries()) {
      if (entry.id !== i + 1) problem(`${name}: entry ${i + 1} has id ${entry.id}`);
      if (kobo(entry.balance_before) !== running) problem(`${name}: entry ${entry.id} starts from ${entry.balance_before}, the previous one left ${running / 100}`);
      running += entry.type === 'debit' ? -kobo(entry.amount) : kobo(entry.amount);
      if (kobo(entry.balance_after) !== running) problem(`${name}: entry ${entry.id} does not add up`);
      if (entry.type === 'credit') {
        credits_kobo += kobo(entry.amount);
        credit_entries++;
        continue;
      }
      const seen = by_reference.get(entry.reference) ?? { debits: 0, reversals: 0, debit_kobo: 0 };
      if (entry.type === 'debit') {
        seen.debits++;
        seen.debit_kobo = kobo(entry.amount);
      } else seen.reversals++;
      by_reference.set(entry.reference, seen);
    }

    let delivered_kobo = 0;
    for (const order of orders) {
      const seen = by_reference.get(order.reference);
      by_reference.delete(order.reference);
      if (seen === undefined || seen.debits !== 1 || seen.debit_kobo !== kobo(order.amount)) problem(`${name}: order ${order.reference} has ${seen?.debits ?? 0} debits`);
      if (order.status === 'successful') {
        result.delivered++;
        delivered_kobo += kobo(order.amount);
        if ((seen?.reversals ?? 0) !== 0) problem(`${name}: delivered order ${order.reference} was also refunded`);
      } else if (order.status === 'failed') {
        result.failed_refunded++;
        if ((seen?.reversals ?? 0) !== 1) problem(`${name}: failed order ${order.reference} has ${seen?.reversals ?? 0} reversals`);
      } else {
        problem(`${name}: order ${order.reference} is still ${order.status}`);
      }
    }
    for (const reference of by_reference.keys()) problem(`${name}: wallet entries for ${reference}, which is no order`);

    // Top-ups: the initial operator credit plus each acknowledged sandbox top-up, once (and at most as
    // many more as requests went unanswered).
    const slack = unanswered + tally.in_flight;
    const extra_top_ups = credit_entries - 1 - tally.top_ups_acknowledged;
    if (extra_top_ups < 0 || extra_top_ups > slack) problem(`${name}: ${credit_entries} credits, expected 1 + ${tally.top_ups_acknowledged} acknowledged top-ups`);
    if (credits_kobo !== funding_kobo + (credit_entries - 1) * top_up_kobo) problem(`${name}: credits of ${credits_kobo / 100} NGN, expected ${(funding_kobo + (credit_entries - 1) * top_up_kobo) / 100}`);
    const extra = orders.length - tally.purchases_acknowledged;
    if (extra < 0 || extra > slack) problem(`${name}: ${orders.length} orders for ${tally.purchases_acknowledged} acknowledged purchases (${tally.in_flight} requests of this account in flight when the load stopped, ${unanswered} unanswered in the run)`);
    result.orders_unacknowledged += Math.max(0, extra);

    const balance = kobo(wallet.body?.data?.balance ?? NaN);
    if (balance !== running) problem(`${name}: balance ${balance / 100} NGN but its entries add up to ${running / 100}`);
    if (balance !== credits_kobo - delivered_kobo) problem(`${name}: balance ${balance / 100} NGN, expected credits ${credits_kobo / 100} minus delivered ${delivered_kobo / 100}`);
  });
  return result;
}
