// Loads for the cluster tests: a small mix (sandbox top-ups and airtime purchases of two sandbox
// outcomes) and a fuller one (every sandbox outcome, operator credits, key creation and revocation,
// webhooks), each against whichever node `target()` names, recording every acknowledged answer, and the checks that
// the new leader holds each acknowledged answer exactly once and that every wallet adds up.
import type { Test } from 'tap';
import type { TestServer } from './server.js';
import { all_orders, all_wallet_entries, balance_kobo, idem, kobo, sandbox } from './purchases.js';
import { WebhookReceiver } from './webhook-receiver.js';

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
  /** The refusals by status (or 'connection' for a refused or reset connection). */
  refused_by?: Record<string, number>;
}

function refuse(result: LoadResult, why: string | number): void {
  result.refused++;
  result.refused_by ??= {};
  result.refused_by[why] = (result.refused_by[why] ?? 0) + 1;
}

let counter = 0;

/** Runs `workers` loops until `until()` says stop; each request goes to `target()` at that moment. */
export async function run_load(keys: string[], workers: number, target: () => TestServer, until: () => boolean, result: LoadResult = { acknowledged: [], refused: 0 }): Promise<LoadResult> {
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
          else refuse(result, `${response.status} ${response.body?.error?.code ?? ''}`);
        } else {
          const phone = n % 3 === 0 ? sandbox.failed : sandbox.delivered;
          const amount = 50 + (n % 5);
          const response = await server.api('POST', '/v1/services/airtime', { key, body: { network: 'mtn', phone, amount, pin: '12345' }, idempotency_key: idem('buy') });
          const reference = response.body?.data?.reference;
          // 422 transaction.failed names the order it made and refunded: an acknowledged change too.
          const failed_reference = response.status === 422 && response.body?.error?.code === 'transaction.failed' ? response.body.error.reference : undefined;
          if (typeof failed_reference === 'string') {
            result.acknowledged.push({ kind: 'purchase', key, reference: failed_reference, amount_kobo: kobo(amount), at_ms: Date.now() });
          } else if (response.status >= 200 && response.status < 300 && typeof reference === 'string') {
            result.acknowledged.push({ kind: 'purchase', key, reference, amount_kobo: kobo(amount), at_ms: Date.now() });
          } else {
            refuse(result, `${response.status} ${response.body?.error?.code ?? ''}`);
          }
        }
      } catch {
        refuse(result, 'connection'); // connection refused or reset: a dead node
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  return result;
}

/** The longest wait between consecutive acknowledged answers from `from_ms` on (the pause a client saw). */
export function longest_gap_ms(acknowledged: readonly { at_ms: number }[], from_ms: number): number {
  const times = acknowledged.map((a) => a.at_ms).filter((at) => at >= from_ms).sort((x, y) => x - y);
  let longest = times.length > 0 ? times[0] - from_ms : 0;
  for (let i = 1; i < times.length; i++) longest = Math.max(longest, times[i] - times[i - 1]);
  return longest;
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
    const chained = entries_chain(entries);
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

// ---- The fuller mix: every sandbox outcome, operator credits, keys and webhooks -----------------

export interface MixedAccount {
  id: number;
  key: string;
  receiver: WebhookReceiver;
  endpoint_id: number;
}

export type MixedKind = 'top_up' | 'credit' | 'delivered' | 'failed' | 'delayed_delivered' | 'delayed_failed' | 'provider_down' | 'key_created' | 'key_revoked';

export interface MixedAck {
  kind: MixedKind;
  account: MixedAccount;
  /** The wallet or order reference; for keys, the key id. */
  reference: string;
  /** key_created: the secret key; later use of it must work unless revoked, and answer 401 once revoked. */
  api_key?: string;
  at_ms: number;
}

export interface MixedResult {
  acknowledged: MixedAck[];
  refused: number;
  refused_by: Record<string, number>;
  /** Key ids whose revocation was sent: one without an answer (a killed leader) may or may not have happened. */
  revocations_sent?: Set<string>;
}

/** Creates a reseller with a funded test wallet, a fast key and a webhook endpoint on its own receiver. */
export async function mixed_account(server: TestServer, funding_ngn: number): Promise<MixedAccount> {
  const reseller = await server.reseller(funding_ngn, {}, { rate_limit_per_minute: 1_000_000 });
  const receiver = new WebhookReceiver();
  await receiver.start();
  const created = await server.api('POST', '/v1/webhooks', { key: reseller.key, body: { url: receiver.url } });
  if (created.status !== 201) throw new Error(`POST /v1/webhooks: ${created.status} ${created.text}`);
  receiver.secret = created.body.data.secret;
  return { id: reseller.id, key: reseller.key, receiver, endpoint_id: created.body.data.id };
}

const mixed_kinds: MixedKind[] = ['top_up', 'delivered', 'credit', 'failed', 'delayed_delivered', 'top_up', 'delayed_failed', 'provider_down', 'delivered', 'key_created'];
const purchase_phone: Partial<Record<MixedKind, string>> = {
  delivered: sandbox.delivered,
  failed: sandbox.failed,
  delayed_delivered: sandbox.delayed_delivered,
  delayed_failed: sandbox.delayed_failed,
  provider_down: sandbox.provider_down,
};

/**
 * Runs `workers` loops of the mix until `until()`; each request goes to `target()` at that moment.
 * An answer counts as acknowledged when it says the change happened: 201 for credits, top-ups and
 * purchases, 422 transaction.failed with its reference (the order failed and was refunded), 503
 * transaction.provider_unavailable (nothing was charged), 201/200 for a key's creation and revocation.
 */
export async function run_mixed_load(accounts: MixedAccount[], workers: number, target: () => TestServer, until: () => boolean, result: MixedResult = { acknowledged: [], refused: 0, refused_by: {} }): Promise<MixedResult> {
  const refuse_mixed = async (why: string) => {
    result.refused++;
    result.refused_by[why] = (result.refused_by[why] ?? 0) + 1;
    await new Promise((resolve) => setTimeout(resolve, 20)); // a standby or a dead node: do not spin
  };
  const ack = (kind: MixedKind, account: MixedAccount, reference: string, api_key?: string) => {
    result.acknowledged.push({ kind, account, reference, ...(api_key === undefined ? {} : { api_key }), at_ms: Date.now() });
  };
  const worker = async (w: number) => {
    for (let i = 0; !until(); i++) {
      const account = accounts[(w + i) % accounts.length];
      const n = ++counter;
      const kind = mixed_kinds[n % mixed_kinds.length];
      const server = target();
      try {
        if (kind === 'top_up') {
          const reference = `TOPUP-${process.pid}-${n}`;
          const response = await server.api('POST', '/v1/sandbox/wallet/fund', { key: account.key, body: { amount: 100 + (n % 7), reference }, idempotency_key: idem('fund') });
          if (response.status === 201) ack(kind, account, reference);
          else await refuse_mixed(`${kind} ${response.status} ${response.body?.error?.code ?? ''}`);
        } else if (kind === 'credit') {
          const reference = `CREDIT-${process.pid}-${n}`;
          const response = await server.admin('POST', `/admin/accounts/${account.id}/wallet/credit`, { environment: 'test', amount: 200 + (n % 11), reference });
          if (response.status === 201) ack(kind, account, reference);
          else await refuse_mixed(`${kind} ${response.status} ${response.body?.error?.code ?? ''}`);
        } else if (kind === 'key_created') {
          const created = await server.api('POST', '/v1/keys', { key: account.key, body: { name: `mix ${n}`, environment: 'test' } });
          if (created.status !== 201) {
            await refuse_mixed(`${kind} ${created.status} ${created.body?.error?.code ?? ''}`);
            continue;
          }
          const id = String(created.body.data.id);
          ack('key_created', account, id, created.body.data.api_key);
          (result.revocations_sent ??= new Set()).add(id);
          const revoked = await target().api('DELETE', `/v1/keys/${id}`, { key: account.key });
          if (revoked.status === 200) ack('key_revoked', account, id, created.body.data.api_key);
          else await refuse_mixed(`key_revoked ${revoked.status} ${revoked.body?.error?.code ?? ''}`);
        } else {
          const phone = purchase_phone[kind]!;
          const response = await server.api('POST', '/v1/services/airtime', { key: account.key, body: { network: 'mtn', phone, amount: 50 + (n % 5), pin: '12345' }, idempotency_key: idem('buy') });
          const code = response.body?.error?.code;
          if (response.status === 201 && typeof response.body?.data?.reference === 'string') ack(kind, account, response.body.data.reference);
          else if (response.status === 422 && code === 'transaction.failed' && typeof response.body?.error?.reference === 'string') ack(kind, account, response.body.error.reference);
          else if (response.status === 503 && code === 'transaction.provider_unavailable') ack(kind, account, '');
          else await refuse_mixed(`${kind} ${response.status} ${code ?? ''}`);
        }
      } catch {
        await refuse_mixed('connection'); // connection refused or reset: a dead node
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  return result;
}

/** Every order of the accounts settled (delayed outcomes included), on `server`. */
export async function wait_settled(server: TestServer, accounts: MixedAccount[], timeout_ms = 30_000): Promise<void> {
  const deadline = Date.now() + timeout_ms;
  for (const account of accounts) {
    for (;;) {
      // Transaction list items say "successful" for a delivered order (docs/spec.md section 3).
      const open = (await all_orders(server, account.key)).filter((o) => o.status !== 'successful' && o.status !== 'failed');
      if (open.length === 0) break;
      if (Date.now() > deadline) throw new Error(`${open.length} orders still open: ${open.map((o) => `${o.reference} ${o.status}`).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/**
 * On `server` (the leader now), once every order settled: each acknowledged change is there exactly
 * once with the outcome its answer promised, no reference, entry id or event id repeats, each failed
 * order is refunded once and no other, every wallet chains to its balance to the kobo, keys are as
 * their acknowledged creations and revocations left them, and every event the server recorded for the
 * endpoint (those of the acknowledged changes among them) reached the receiver at least once.
 */
export async function check_mixed(t: Test, server: TestServer, accounts: MixedAccount[], load: MixedResult, webhook_timeout_ms = 30_000): Promise<void> {
  const acknowledged = load.acknowledged;
  for (const [k, account] of accounts.entries()) {
    const entries = (await all_wallet_entries(server, account.key)).reverse();
    const orders = await all_orders(server, account.key);
    t.equal(new Set(entries.map((e) => e.id)).size, entries.length, `account ${k}: no wallet entry id repeats`);
    t.equal(new Set(orders.map((o) => o.reference)).size, orders.length, `account ${k}: no order reference repeats`);
    const chained = entries_chain(entries);
    t.ok(chained, `account ${k}: every entry moves the balance by its amount, from the one before it`);
    t.equal(await balance_kobo(server, account.key), kobo(entries.at(-1)?.balance_after ?? 0), `account ${k}: the balance is the last entry's balance_after, to the kobo`);
    const credits = new Map<string, number>();
    for (const e of entries) if (e.type === 'credit') credits.set(e.reference, (credits.get(e.reference) ?? 0) + 1);
    const mine = acknowledged.filter((a) => a.account === account);
    const wrong: string[] = [];
    for (const a of mine) {
      if (a.kind === 'top_up' || a.kind === 'credit') {
        if (credits.get(a.reference) !== 1) wrong.push(`${a.kind} ${a.reference}: ${credits.get(a.reference) ?? 0} credits`);
      } else if (a.kind in purchase_phone && a.kind !== 'provider_down') {
        const found = orders.filter((o) => o.reference === a.reference);
        const expected = a.kind === 'delivered' || a.kind === 'delayed_delivered' ? 'successful' : 'failed';
        if (found.length !== 1 || found[0].status !== expected) wrong.push(`${a.kind} ${a.reference}: ${found.map((o) => o.status).join(',') || 'missing'}`);
        const debits = entries.filter((e) => e.type === 'debit' && e.reference === a.reference).length;
        if (debits !== 1) wrong.push(`${a.kind} ${a.reference}: ${debits} debits`);
      }
    }
    t.same(wrong, [], `account ${k}: all ${mine.length} acknowledged changes are on the new leader once, with the promised outcome`);
    let refunds_wrong = 0;
    for (const o of orders) {
      const reversals = entries.filter((e) => e.type === 'reversal' && e.reference === o.reference).length;
      if (o.status === 'failed' ? reversals !== 1 : reversals !== 0) refunds_wrong++;
    }
    t.equal(refunds_wrong, 0, `account ${k}: each of ${orders.filter((o) => o.status === 'failed').length} failed orders is refunded exactly once, no other order is`);
    // Keys: an acknowledged revocation holds (401), an acknowledged creation not revoked works.
    const listed = await server.api('GET', '/v1/keys', { key: account.key });
    const active = new Set<string>((listed.body?.data?.keys ?? []).map((key: any) => String(key.id)));
    const keys_wrong: string[] = [];
    for (const a of mine.filter((x) => x.kind === 'key_created' || x.kind === 'key_revoked')) {
      const revoked = load.revocations_sent?.has(a.reference) ?? false;
      if (a.kind === 'key_revoked' && active.has(a.reference)) keys_wrong.push(`key ${a.reference} revoked yet listed`);
      if (a.kind === 'key_created' && !revoked && !active.has(a.reference)) keys_wrong.push(`key ${a.reference} created yet not listed`);
    }
    const revocations = mine.filter((x) => x.kind === 'key_revoked');
    for (const a of revocations.slice(-3)) {
      const used = await server.api('GET', '/v1/wallet', { key: a.api_key! });
      if (used.status !== 401) keys_wrong.push(`revoked key ${a.reference} answered ${used.status}`);
    }
    t.same(keys_wrong, [], `account ${k}: ${mine.filter((x) => x.kind === 'key_created').length} key creations and ${revocations.length} revocations stand as acknowledged`);
    // Webhooks: every event the new leader recorded for the endpoint arrives at least once.
    const deliveries: any[] = [];
    for (let page = 1; ; page++) {
      const response = await server.api('GET', `/v1/webhooks/${account.endpoint_id}/deliveries?per_page=100&page=${page}`, { key: account.key });
      if (response.status !== 200) throw new Error(`deliveries: ${response.status} ${response.text}`);
      deliveries.push(...response.body.data.deliveries);
      if (page >= response.body.data.pagination.last_page) break;
    }
    const event_ids = deliveries.map((d) => d.event_id);
    t.equal(new Set(event_ids).size, event_ids.length, `account ${k}: no event id repeats among ${event_ids.length} deliveries`);
    const deadline = Date.now() + webhook_timeout_ms;
    let missing: string[] = [];
    for (;;) {
      const seen = new Set(account.receiver.received.map((r) => r.json?.id));
      missing = event_ids.filter((id) => !seen.has(id));
      if (missing.length === 0 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    t.same(missing, [], `account ${k}: each of the ${event_ids.length} events reached the receiver at least once`);
    const by_reference = new Set(account.receiver.received.map((r) => r.json?.data?.reference));
    const unannounced = mine.filter((a) => a.kind !== 'provider_down' && !a.kind.startsWith('key_') && !by_reference.has(a.reference)).map((a) => `${a.kind} ${a.reference}`);
    t.same(unannounced, [], `account ${k}: every acknowledged change was announced by a webhook`);
    t.ok(account.receiver.received.every((r) => r.service_signature_ok && r.standard_signature_ok), `account ${k}: every webhook is signed with the endpoint's secret`);
  }
}

/** Whether each wallet entry (oldest first) moves the balance by its amount, starting from the one before it. */
function entries_chain(entries: { type: string; amount: number; balance_before: number; balance_after: number }[]): boolean {
  return entries.every((e, i) => {
    const sign = e.type === 'debit' ? -1 : 1;
    const moves = kobo(e.balance_after) === kobo(e.balance_before) + sign * kobo(e.amount);
    return moves && (i === 0 || kobo(e.balance_before) === kobo(entries[i - 1].balance_after));
  });
}
