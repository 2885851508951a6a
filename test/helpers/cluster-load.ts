// A mixed load for the cluster tests (sandbox top-ups and airtime purchases of two sandbox outcomes)
// against whichever node `target()` names, recording every acknowledged answer, and the checks that
// the new leader holds each acknowledged answer exactly once and that every wallet adds up.
import type { Test } from 'tap';
import type { TestServer } from './server.js';
import { all_orders, all_wallet_entries, balance_kobo, idem, kobo, sandbox } from './purchases.js';

export interface Acknowledged {
  kind: 'top_up' | 'purchase';
  key: string;
  reference: string;
  amount_kobo: number;
  at_ms: number;
}

export interface LoadResult {
  acknowledged: Acknowledged[];
  /** Answers other than 2xx (503 from a standby or a deposed node) and refused connections. */
  refused: number;
}

let counter = 0;

/** Runs `workers` loops until `until()` says stop; each request goes to `target()` at that moment. */
export async function run_load(keys: string[], workers: number, target: () => TestServer, until: () => boolean): Promise<LoadResult> {
  const result: LoadResult = { acknowledged: [], refused: 0 };
  const worker = async (w: number) => {
    for (let i = 0; !until(); i++) {
      const key = keys[(w + i) % keys.length];
      const server = target();
      const n = ++counter;
      try {
        if (n % 2 === 0) {
          const amount = 100 + (n % 7);
          const reference = `LOAD-${process.pid}-${n}`;
          const response = await server.api('POST', '/v1/sandbox/wallet/fund', { key, body: { amount, reference }, idempotency_key: idem('fund') });
          if (response.status === 201) result.acknowledged.push({ kind: 'top_up', key, reference, amount_kobo: kobo(amount), at_ms: Date.now() });
          else result.refused++;
        } else {
          const phone = n % 3 === 0 ? sandbox.failed : sandbox.delivered;
          const amount = 50 + (n % 5);
          const response = await server.api('POST', '/v1/services/airtime', { key, body: { network: 'mtn', phone, amount, pin: '12345' }, idempotency_key: idem('buy') });
          const reference = response.body?.data?.reference;
          if (response.status >= 200 && response.status < 300 && typeof reference === 'string') {
            result.acknowledged.push({ kind: 'purchase', key, reference, amount_kobo: kobo(amount), at_ms: Date.now() });
          } else {
            result.refused++;
          }
        }
      } catch {
        result.refused++; // connection refused or reset: a dead node
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  return result;
}

/**
 * On `server` (the leader now): every acknowledged top-up and purchase is there exactly once, no
 * reference or entry id repeats, each failed order is refunded once, and each wallet's entries chain
 * from one balance to the next up to the balance shown, to the kobo.
 */
export async function check_wallets(t: Test, server: TestServer, keys: string[], acknowledged: Acknowledged[]): Promise<Map<string, number>> {
  const balances = new Map<string, number>();
  for (const [k, key] of keys.entries()) {
    const entries = (await all_wallet_entries(server, key)).reverse();
    const orders = await all_orders(server, key);
    const ids = new Set(entries.map((e) => e.id));
    t.equal(ids.size, entries.length, `wallet ${k}: no entry id repeats`);
    const order_refs = new Set(orders.map((o) => o.reference));
    t.equal(order_refs.size, orders.length, `wallet ${k}: no order reference repeats`);
    let chained = true;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      const sign = e.type === 'debit' ? -1 : 1;
      if (kobo(e.balance_after) !== kobo(e.balance_before) + sign * kobo(e.amount)) chained = false;
      if (i > 0 && kobo(e.balance_before) !== kobo(entries[i - 1].balance_after)) chained = false;
    }
    t.ok(chained, `wallet ${k}: every entry moves the balance by its amount, from the one before it`);
    const balance = await balance_kobo(server, key);
    t.equal(balance, kobo(entries.at(-1)?.balance_after ?? 0), `wallet ${k}: the balance is the last entry's balance_after, to the kobo`);
    balances.set(key, balance);
    const mine = acknowledged.filter((a) => a.key === key);
    let missing = 0;
    let repeated = 0;
    for (const ack of mine) {
      if (ack.kind === 'top_up') {
        const found = entries.filter((e) => e.type === 'credit' && e.reference === ack.reference);
        if (found.length === 0) missing++;
        if (found.length > 1) repeated++;
      } else {
        const found = orders.filter((o) => o.reference === ack.reference);
        if (found.length === 0) missing++;
        if (found.length > 1) repeated++;
        const debits = entries.filter((e) => e.type === 'debit' && e.reference === ack.reference);
        if (debits.length !== 1) repeated++;
      }
    }
    t.equal(missing, 0, `wallet ${k}: all ${mine.length} acknowledged answers are on the new leader`);
    t.equal(repeated, 0, `wallet ${k}: none of them twice`);
    let refunds_wrong = 0;
    for (const o of orders) {
      const reversals = entries.filter((e) => e.type === 'reversal' && e.reference === o.reference).length;
      if (o.status === 'failed' ? reversals !== 1 : reversals !== 0) refunds_wrong++;
    }
    t.equal(refunds_wrong, 0, `wallet ${k}: each failed order is refunded exactly once, no other order is`);
  }
  return balances;
}
