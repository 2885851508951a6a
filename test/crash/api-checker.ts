// The crash campaign's API checker: after each restart it proves through the public and operator APIs
// that every acknowledged answer is reflected exactly once, and that re-sending each acknowledged
// idempotent request returns the original status and body byte for byte (only the header
// Idempotent-Replayed: true differs). At the end, once nothing is open and the webhook queue is empty,
// it proves the money equations of every wallet and that every event implied by an acknowledged
// operation reached the receiver. Like the journal checker it knows billvend only through its API.
import type { ApiResponse, TestServer } from '../helpers/server.js';
import type { CrashReceiver } from './receiver.js';
import {
  acked_batch,
  acked_reference,
  callback_outcome,
  cancel_answer,
  cancelled_reason,
  expected_charged_kobo,
  final_status_of,
  funding_credit_kobo,
  funding_key,
  kobo_of,
  local_recipient,
  rememberable,
  type FundingTransfer,
  type Model,
  type Op,
  type Wallet,
} from './model.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the API has shown of one wallet's entries, which are immutable once shown. */
interface Ledger {
  /** Entries with ids 1..known have been read and must never change. */
  known: number;
  by_id: Map<number, string>;
  by_reference: Map<string, any[]>;
}

/** Runs tasks with at most `width` in flight. */
async function pooled<T>(items: T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) await task(items[next++]);
  }));
}

export class ApiChecker {
  requests = 0;
  replays = 0;
  replays_skipped_expired = 0;
  private readonly ledgers = new Map<string, Ledger>();

  /**
   * reversed: the references of the orders whose upstream request the fake reversed (campaign.ts); only
   * these may have been answered delivered and end failed (refunded once, transaction.reversed).
   */
  constructor(private readonly server: () => TestServer, private readonly model: Model, private readonly reversed: () => ReadonlySet<string> = () => new Set()) {}

  private wallet(op: Op): Wallet {
    return this.model.accounts.find((a) => a.id === op.account_id)!.wallets[op.environment];
  }

  private async call(method: string, path: string, options: { key?: string | null; body?: unknown; idempotency_key?: string; operator?: boolean } = {}): Promise<ApiResponse> {
    const server = this.server();
    this.requests++;
    // A GET right after a restart may meet a connection the old process left half-open: retry reads once.
    for (let attempt = 0; ; attempt++) {
      try {
        if (options.operator) {
          return await server.request(method, path, { body: options.body, key: null, headers: { authorization: `Bearer ${server.admin_token}` } }, server.admin_base);
        }
        return await server.request(method, path, { key: options.key, body: options.body, ...(options.idempotency_key === undefined ? {} : { idempotency_key: options.idempotency_key }) });
      } catch (error) {
        if (method !== 'GET' || attempt >= 2) throw error;
        await sleep(100);
      }
    }
  }

  /** Re-sends an op exactly as it was first sent. */
  resend(op: Op): Promise<ApiResponse> {
    if (op.funding_callback !== undefined) {
      this.requests++;
      return this.server().request('POST', op.path, { raw_body: op.funding_callback.raw, headers: op.funding_callback.headers });
    }
    const wallet = this.wallet(op);
    return this.call(op.method, op.path, op.operator
      ? { operator: true, body: op.body }
      : { key: wallet.key, body: op.body, ...(op.idem === null ? {} : { idempotency_key: op.idem }) });
  }

  private ledger(wallet: Wallet): Ledger {
    const key = `${wallet.account_id}:${wallet.environment}`;
    let ledger = this.ledgers.get(key);
    if (ledger === undefined) this.ledgers.set(key, (ledger = { known: 0, by_id: new Map(), by_reference: new Map() }));
    return ledger;
  }

  /**
   * Reads the entries the ledger has not seen yet (newest first, page by page) and the page that
   * overlaps what it has seen, which must read exactly as before: an entry the API once showed can
   * never change or vanish, whatever restarts came between.
   */
  private async refresh_ledger(wallet: Wallet, v: string[], from_scratch = false): Promise<Ledger> {
    const ledger = this.ledger(wallet);
    if (from_scratch) ledger.known = 0;
    const what = `wallet ${wallet.account_id}:${wallet.environment}`;
    for (let attempt = 0; attempt < 5; attempt++) {
      const seen = new Map<number, any>();
      let total = -1;
      for (let page = 1; ; page++) {
        const response = await this.call('GET', `/v1/wallet/transactions?per_page=100&page=${page}`, { key: wallet.key });
        if (response.status !== 200) {
          v.push(`${what}: GET /v1/wallet/transactions page ${page} answered ${response.status} ${response.text.slice(0, 200)}`);
          return ledger;
        }
        const data = response.body.data;
        if (total < 0) total = data.pagination.total;
        for (const entry of data.transactions) seen.set(entry.id, entry);
        const oldest = Math.min(...data.transactions.map((e: any) => e.id));
        if (page >= data.pagination.last_page || data.transactions.length === 0 || oldest <= ledger.known) break;
      }
      // Entries only ever arrive at the top, so pages can only repeat items, never skip one.
      let complete = true;
      for (let id = ledger.known + 1; id <= total; id++) if (!seen.has(id)) complete = false;
      if (!complete) continue;
      for (const [id, entry] of seen) {
        const text = JSON.stringify(entry);
        const before = ledger.by_id.get(id);
        if (before !== undefined && before !== text) v.push(`${what}: entry ${id} read ${before} before a restart and ${text} after it`);
        if (before === undefined) {
          ledger.by_id.set(id, text);
          ledger.by_reference.set(entry.reference, [...(ledger.by_reference.get(entry.reference) ?? []), entry]);
        }
      }
      ledger.known = Math.max(ledger.known, total);
      return ledger;
    }
    v.push(`${what}: could not read a consistent run of wallet entries in 5 tries`);
    return ledger;
  }

  private check_answer_replay(op: Op, again: ApiResponse, v: string[], at: string): void {
    const ack = op.ack!;
    if (again.status !== ack.status || again.text !== ack.text) {
      v.push(`${at}: re-sent, answered ${again.status} ${again.text.slice(0, 300)} — the original answer was ${ack.status} ${ack.text.slice(0, 300)}`);
    }
    if (again.headers.get('idempotent-replayed') !== 'true') v.push(`${at}: the re-sent answer lacks Idempotent-Replayed: true`);
  }

  /**
   * Checks the answers acknowledged since the last check: each is reflected exactly once, and each
   * idempotent one replays byte for byte.
   */
  async check_acks(ops: Op[]): Promise<string[]> {
    const v: string[] = [];
    // 1. The orders and bulk orders the answers name, as they stand now, read before the ledgers (2):
    // an order that fails after its ledger was read shows a refund the ledger cannot hold yet. Orders
    // still open here (re-queried after the restart) go on settling while the checks run.
    const orders = new Map<Op, ApiResponse>();
    const batches = new Map<Op, ApiResponse>();
    await pooled(ops.filter((op) => (op.kind === 'purchase' && acked_reference(op.ack!) !== null) || (op.kind === 'bulk' && acked_batch(op.ack!) !== null)), 16, async (op) => {
      if (op.kind === 'purchase') orders.set(op, await this.call('GET', `/v1/transactions/${acked_reference(op.ack!)}`, { key: this.wallet(op).key }));
      else batches.set(op, await this.call('GET', `/v1/services/bulk/${acked_batch(op.ack!)!.id}`, { key: this.wallet(op).key }));
    });
    // 2. The entries of every wallet, read after the orders: a reversal the order shows is in them. A
    // reconcile may have credited any live wallet; the exceptions as the operator lists them.
    const wallets = new Set(ops.map((op) => this.wallet(op)));
    if (ops.some((op) => op.kind === 'funding_reconcile')) for (const account of this.model.accounts) wallets.add(account.wallets.live);
    for (const wallet of wallets) await this.refresh_ledger(wallet, v);
    const exceptions = ops.some((op) => op.kind === 'funding_callback' || op.kind === 'funding_reconcile') ? await this.funding_exceptions(v) : new Set<string>();
    // 3. Each answer.
    await pooled(ops, 16, async (op) => {
      const ack = op.ack!;
      const wallet = this.wallet(op);
      const ledger = this.ledger(wallet);
      const at = `op ${op.n} (round ${op.round}${ack.resent ? `, re-sent in round ${ack.round}` : ''}, ${op.kind} ${op.method} ${op.path}${op.idem ? ` key ${op.idem}` : ''}) answered ${ack.status}`;
      const replayable = op.idem !== null && op.method === 'POST' && rememberable(ack.status);
      // Asked right before each re-send, not once at the start: a partition round's checks can take longer than
      // the scaled TTL (102 s once, against 86.4 s), and a re-send past it runs afresh, as documented.
      const fresh = () => op.sent_ms + this.model.idempotency_ttl_ms / 2 > Date.now();
      switch (op.kind) {
        case 'purchase': {
          const p = op.purchase!;
          const reference = acked_reference(ack);
          if (reference !== null) {
            const response = orders.get(op)!;
            if (response.status !== 200) {
              v.push(`${at}: GET /v1/transactions/${reference} answered ${response.status} ${response.text.slice(0, 200)} — an acknowledged purchase is not there`);
              break;
            }
            const order = response.body.data;
            if (kobo_of(order.amount) !== p.amount_kobo || local_recipient(order.recipient) !== p.recipient || order.service_type !== p.service) {
              v.push(`${at}: order ${reference} is ${order.service_type} ${order.recipient} ${order.amount} NGN; the request was ${p.service} ${p.recipient} ${p.amount_kobo / 100}`);
            }
            const charged = expected_charged_kobo(this.model, op.account_id, { service_type: order.service_type, network: order.network, disco: order.disco, provider: order.provider, amount_kobo: p.amount_kobo });
            if (kobo_of(order.amount_charged) !== charged || kobo_of(order.amount_charged) + kobo_of(order.commission) !== p.amount_kobo) {
              v.push(`${at}: order ${reference} shows amount_charged ${order.amount_charged} and commission ${order.commission} NGN; its tier's price list makes it ${charged / 100} charged of ${p.amount_kobo / 100}`);
            }
            if (ack.status === 201 && kobo_of(ack.body.data.amount_charged) !== charged) v.push(`${at}: the purchase answered amount_charged ${ack.body.data.amount_charged}, the price list makes it ${charged / 100}`);
            const answered = ack.status === 201 ? ack.body.data.status : 'failed';
            // Reversed after its delivery: failed, delivered_at kept; never without the upstream's reversal.
            const reversed_after_delivery = order.status === 'failed' && order.delivered_at !== null;
            if (reversed_after_delivery && !this.reversed().has(reference)) v.push(`${at}: order ${reference} was delivered at ${order.delivered_at} and is now failed and refunded, but the upstream never reversed it`);
            const reversed_ok = answered === 'delivered' && reversed_after_delivery && this.reversed().has(reference);
            if ((answered === 'delivered' || answered === 'failed') && order.status !== answered && !reversed_ok) v.push(`${at}: answered ${answered}, the order now shows ${order.status}`);
            const final = final_status_of(p.expect);
            if (final !== null && (order.status === 'delivered' || order.status === 'failed') && order.status !== final) v.push(`${at}: order ${reference} is ${order.status}; the sandbox says ${p.recipient} ends ${final}`);
            if (order.status === 'failed' && order.reversed !== true) v.push(`${at}: order ${reference} failed but reversed is ${order.reversed}`);
            if (order.status !== 'failed' && order.reversed !== false) v.push(`${at}: order ${reference} is ${order.status} but reversed is ${order.reversed}`);
            const entries = ledger.by_reference.get(reference) ?? [];
            const debits = entries.filter((e) => e.type === 'debit');
            const reversals = entries.filter((e) => e.type === 'reversal');
            if (debits.length !== 1 || kobo_of(debits[0].amount) !== charged) v.push(`${at}: the wallet shows ${debits.length} debits of ${reference} (exactly 1 of amount_charged ${charged / 100} NGN expected)`);
            if (reversals.length === 1 && kobo_of(reversals[0].amount) !== charged) v.push(`${at}: order ${reference} was refunded ${reversals[0].amount} NGN, not the ${charged / 100} debited`);
            if (order.status === 'failed' && reversals.length !== 1) v.push(`${at}: order ${reference} failed; the wallet shows ${reversals.length} refunds (exactly 1 expected)`);
            // A reversal heard between the order's read (1) and the ledger's (2) shows its one refund there.
            const refunds_allowed = this.reversed().has(reference) ? 1 : 0;
            if (order.status === 'delivered' && reversals.length > refunds_allowed) v.push(`${at}: order ${reference} delivered; the wallet shows ${reversals.length} refunds`);
          }
          // By key, the order it created (none for a refusal): every refusal and re-sent answer, a
          // quarter of the rest.
          if (op.idem !== null && fresh() && (reference === null || ack.resent || op.n % 4 === 0)) {
            const found = await this.call('GET', `/v1/transactions?idempotency_key=${encodeURIComponent(op.idem)}`, { key: wallet.key });
            const listed: any[] = found.body?.data?.transactions ?? [];
            const want = reference === null ? [] : [reference];
            if (found.status !== 200 || JSON.stringify(listed.map((o) => o.reference)) !== JSON.stringify(want)) {
              v.push(`${at}: GET /v1/transactions?idempotency_key= lists ${JSON.stringify(listed.map((o) => o.reference))} (${found.status}); expected ${JSON.stringify(want)}`);
            }
          }
          if (op.idem !== null && !fresh()) this.replays_skipped_expired++;
          else if (replayable) {
            this.replays++;
            this.check_answer_replay(op, await this.resend(op), v, at);
            // The same key with another body is refused, and buys nothing (the journal checker
            // counts the orders of each key after the next kill).
            if (op.n % 5 === 0) {
              this.replays++;
              const other = await this.call('POST', op.path, { key: wallet.key, idempotency_key: op.idem!, body: { ...op.body, pin: '12345', amount: Number(op.body!.amount) + 1 } });
              if (other.status !== 422 || other.body?.error?.code !== 'idempotency.key_reused') v.push(`${at}: the same key with another amount answered ${other.status} ${other.text.slice(0, 300)} (422 idempotency.key_reused expected)`);
            }
          } else if (op.idem !== null && p.expect === 'unavailable') {
            // 5xx answers are not remembered: a re-send is refused again, and nothing is debited.
            this.replays++;
            const again = await this.resend(op);
            if (again.status !== 503 || again.body?.error?.code !== 'transaction.provider_unavailable') v.push(`${at}: re-sent, answered ${again.status} ${again.text.slice(0, 200)}`);
          }
          break;
        }
        case 'bulk': {
          // The batch as the answer named it: the same order per item, each an ordinary order with
          // one debit and a refund exactly when it failed; the key replays the 202 byte for byte.
          const batch = acked_batch(ack);
          if (batch === null) break;
          // Read in 1, before the ledger: an item that failed later has its refund in it (see 1).
          const shown = batches.get(op)!;
          if (shown.status !== 200) {
            v.push(`${at}: GET /v1/services/bulk/${batch.id} answered ${shown.status} ${shown.text.slice(0, 200)} — an acknowledged bulk order is not there`);
            break;
          }
          const now_references = (shown.body.data.items as { reference: string | null }[]).map((item) => item.reference);
          if (JSON.stringify(now_references) !== JSON.stringify(batch.references)) v.push(`${at}: batch ${batch.id} now names orders ${JSON.stringify(now_references)}, the answer ${JSON.stringify(batch.references)}`);
          batch.references.forEach((reference, index) => {
            if (reference === null) return;
            const entries = ledger.by_reference.get(reference) ?? [];
            const debits = entries.filter((e) => e.type === 'debit').length;
            const reversals = entries.filter((e) => e.type === 'reversal').length;
            const status = shown.body.data.items[index]?.status;
            if (debits !== 1) v.push(`${at}: item ${index}'s order ${reference} has ${debits} debits (exactly 1 expected)`);
            // As for a single purchase: the batch was read before the ledger, so an item still processing
            // then may have failed and been refunded since (at most once); a final one is as it was.
            const refunds_ok = status === 'failed' ? reversals === 1 : status === 'delivered' ? reversals === 0 : reversals <= 1;
            if (!refunds_ok) v.push(`${at}: item ${index}'s order ${reference} is ${status} with ${reversals} refunds`);
          });
          if (replayable && fresh()) {
            this.replays++;
            this.check_answer_replay(op, await this.resend(op), v, at);
          }
          break;
        }
        case 'credit':
        case 'topup': {
          if (ack.status !== 201) break;
          const reference = op.credit!.reference;
          const credits = (ledger.by_reference.get(reference) ?? []).filter((e) => e.type === 'credit');
          if (credits.length !== 1 || credits[0].id !== ack.body.data.id || kobo_of(credits[0].amount) !== op.credit!.amount_kobo) {
            v.push(`${at}: the wallet shows ${credits.length} credits of ${reference} (${JSON.stringify(credits)}); the answer named entry ${ack.body.data.id}`);
          }
          if (replayable && fresh()) {
            this.replays++;
            this.check_answer_replay(op, await this.resend(op), v, at);
          } else if (op.idem === null) {
            // Idempotent by reference: the same entry again, marked as a replay.
            this.replays++;
            const again = await this.resend(op);
            if (again.status !== 201 || JSON.stringify(again.body?.data) !== JSON.stringify(ack.body.data) || again.headers.get('idempotent-replayed') !== 'true') {
              v.push(`${at}: re-sent by reference, answered ${again.status} ${again.text.slice(0, 300)} (replayed: ${again.headers.get('idempotent-replayed')}); the first answer was ${ack.text.slice(0, 300)}`);
            }
          }
          break;
        }
        case 'key_create': {
          const created = this.model.created_keys.find((k) => k.create_op === op);
          // A revocation the kill left unanswered is re-sent after these checks: until then the key's
          // state is unknown.
          if (ack.status === 201 && created !== undefined && (created.revoke_op === null || created.revoke_op.ack !== null)) {
            await this.check_key(created.api_key, created.id, created.revoked, wallet, v, at);
          }
          if (replayable && fresh()) {
            this.replays++;
            const again = await this.resend(op);
            // Once the key is revoked a replay withholds its secret: 404 keys.not_found (README
            // "Idempotency"). While a revocation's answer is unknown, either answer is right.
            const withheld = created !== undefined && again.status === 404 && again.body?.error?.code === 'keys.not_found'
              && again.headers.get('idempotent-replayed') === 'true' && !again.text.includes(created.api_key);
            if (created?.revoked === true) {
              if (!withheld) v.push(`${at}: re-sent after key ${created.id} was revoked, answered ${again.status} ${again.text.slice(0, 300)} (404 keys.not_found without the secret expected)`);
            } else if (!(withheld && created?.revoke_op !== null)) {
              this.check_answer_replay(op, again, v, at);
            }
          }
          break;
        }
        case 'cancel': {
          // After the restart: a cancel answered 200 left the order failed, reason cancelled, with one debit and
          // one refund; one answered 409 left it not cancelled. Cancelling again answers the same (the lane
          // died with the process: a pending item left is re-queried, never cancelled) and refunds nothing
          // more (the ledger read later and at the end holds every entry once).
          const spec = op.cancel!;
          const answer = cancel_answer(spec, ack);
          if (answer === null) break;
          const shown = await this.call('GET', `/v1/transactions/${spec.reference}`, { key: wallet.key });
          const reason = shown.body?.data?.failure_reason;
          if (shown.status !== 200) v.push(`${at}: GET /v1/transactions/${spec.reference} answered ${shown.status} ${shown.text.slice(0, 200)}`);
          else if (answer === 'cancelled' && (shown.body.data.status !== 'failed' || reason !== cancelled_reason)) v.push(`${at}: cancelled, but after the restart the order is ${shown.body.data.status} (${reason})`);
          else if (answer === 'refused' && reason === cancelled_reason) v.push(`${at}: not cancellable, but after the restart the order is cancelled`);
          if (answer === 'cancelled') {
            const entries = ledger.by_reference.get(spec.reference) ?? [];
            const debits = entries.filter((e) => e.type === 'debit').length;
            const reversals = entries.filter((e) => e.type === 'reversal').length;
            if (debits !== 1 || reversals !== 1) v.push(`${at}: the cancelled order has ${debits} debits and ${reversals} refunds (1 and 1 expected)`);
          }
          this.replays++;
          const again = await this.resend(op);
          const again_answer = cancel_answer(spec, { ...ack, status: again.status, text: again.text, body: again.body });
          if (again_answer !== answer) v.push(`${at}: cancelled again after the restart, answered ${again.status} ${again.text.slice(0, 200)}`);
          break;
        }
        case 'funding_callback': {
          // Credited (or credited already): that transfer's one credit in its account's live wallet, as the
          // provider's record says; an exception: listed for the operator. Sent again after the restart, as a
          // provider repeats a callback, it credits nothing more (the final check counts every credit once).
          const spec = op.funding_callback!;
          const outcome = callback_outcome(ack);
          const about = `${spec.forged ?? 'genuine'} callback of ${spec.provider} ${spec.provider_reference}`;
          if (outcome === 'credited' || outcome === 'already_credited') {
            const transfer = spec.transfer;
            if (transfer === null) v.push(`${at} ${outcome}: the ${about}, a transfer the provider never made`);
            else this.check_funding_credit(transfer, v, `${at} ${outcome} (${about})`);
          } else if (outcome === 'exception' && !exceptions.has(funding_key(spec.provider, spec.provider_reference))) {
            v.push(`${at} exception (${about}): GET /admin/funding/exceptions does not list it`);
          }
          if (outcome === null) break;
          this.replays++;
          const again = await this.resend(op);
          const again_outcome = callback_outcome({ ...ack, status: again.status, text: again.text, body: again.body });
          const wanted = outcome === 'credited' ? 'already_credited' : outcome;
          if (again_outcome !== wanted) v.push(`${at} ${outcome} (${about}): sent again after the restart, answered ${again.status} ${again.text.slice(0, 200)} (${wanted} expected)`);
          break;
        }
        case 'funding_reconcile': {
          // Every transfer recorded before it was sent is credited once (a disputed one may be an exception).
          if (ack.status !== 200) break;
          for (const transfer of this.model.funding.transfers) {
            if (transfer.recorded_ms >= op.reconcile!.last_sent_ms || (op.reconcile!.provider !== null && transfer.provider !== op.reconcile!.provider)) continue;
            if (transfer.disputed && exceptions.has(funding_key(transfer.provider, transfer.provider_reference))) continue;
            this.check_funding_credit(transfer, v, `${at}: ${transfer.provider} transfer ${transfer.provider_reference} (round ${transfer.round}), recorded before it,`);
          }
          break;
        }
        case 'key_revoke': {
          if (ack.status !== 200 && ack.status !== 404) break;
          const target = op.revoke_target!;
          await this.check_key(target.api_key, target.id, true, wallet, v, at);
          this.replays++;
          const again = await this.resend(op);
          if (again.status !== 404 || again.body?.error?.code !== 'keys.not_found') v.push(`${at}: revoking key ${target.id} again answered ${again.status} ${again.text.slice(0, 200)} (404 keys.not_found expected)`);
          break;
        }
      }
      op.api_checked = true;
    });
    return v;
  }

  /** The transfers in exceptions, as GET /admin/funding/exceptions?status=all lists them (funding_key). */
  private async funding_exceptions(v: string[]): Promise<Set<string>> {
    const listed = await this.call('GET', '/admin/funding/exceptions?status=all', { operator: true });
    if (listed.status !== 200) v.push(`GET /admin/funding/exceptions answered ${listed.status} ${listed.text.slice(0, 200)}`);
    return new Set((listed.body?.data?.exceptions ?? []).map((e: { provider: string; provider_reference: string }) => funding_key(e.provider, e.provider_reference)));
  }

  /** The credits of a provider transfer in a ledger (entries carrying its funding). */
  private funding_credits_in(ledger: Ledger, provider: string, reference: string): any[] {
    return (ledger.by_reference.get(reference) ?? []).filter((e) => e.type === 'credit' && e.funding?.provider === provider && e.funding?.provider_reference === reference);
  }

  /** A transfer's one credit, in its account's live wallet as last read, with the provider's amounts. */
  private check_funding_credit(transfer: FundingTransfer, v: string[], at: string): void {
    const wallet = this.model.accounts.find((a) => a.id === transfer.account_id)!.wallets.live;
    const credits = this.funding_credits_in(this.ledger(wallet), transfer.provider, transfer.provider_reference);
    if (credits.length !== 1) {
      v.push(`${at}: wallet ${wallet.account_id}:live shows ${credits.length} credits of it (exactly 1 expected)`);
      return;
    }
    const [credit] = credits;
    const want = funding_credit_kobo(this.model, transfer);
    const f = credit.funding;
    if (kobo_of(credit.amount) !== want || kobo_of(f.amount_paid) !== transfer.amount_kobo || kobo_of(f.fee) !== transfer.fee_kobo || kobo_of(f.settlement_amount) !== transfer.amount_kobo - transfer.fee_kobo) {
      v.push(`${at}: its credit shows ${credit.amount} NGN ${JSON.stringify(f)}; the provider's record makes it ${want / 100} NGN (paid ${transfer.amount_kobo / 100}, fee ${transfer.fee_kobo / 100})`);
    }
  }

  /** A created key works until its revocation is acknowledged, and answers 401 after it. */
  private async check_key(api_key: string, id: number, revoked: boolean, wallet: Wallet, v: string[], at: string): Promise<void> {
    const response = await this.call('GET', '/v1/account', { key: api_key });
    // 429: the key authenticated but its 60/min window is used up; it exists.
    const works = response.status === 200 || response.status === 429;
    if (revoked && !(response.status === 401 && response.body?.error?.code === 'auth.key_not_found')) v.push(`${at}: key ${id} was revoked, yet GET /v1/account with it answered ${response.status} ${response.text.slice(0, 200)}`);
    if (!revoked && !works) v.push(`${at}: key ${id} was created and never revoked, yet GET /v1/account with it answered ${response.status} ${response.text.slice(0, 200)}`);
    const listed = await this.call('GET', '/v1/keys', { key: wallet.key });
    const ids: number[] = (listed.body?.data?.keys ?? []).map((k: any) => k.id);
    if (listed.status !== 200) v.push(`${at}: GET /v1/keys answered ${listed.status}`);
    else if (ids.includes(id) === revoked) v.push(`${at}: key ${id} is ${revoked ? 'revoked' : 'active'} but GET /v1/keys ${revoked ? 'lists' : 'does not list'} it`);
  }

  // ---- The end ------------------------------------------------------------------------------------

  private async all_pages(key: string, path: string, field: string, v: string[]): Promise<any[]> {
    const out: any[] = [];
    for (let page = 1; ; page++) {
      const response = await this.call('GET', `${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}`, { key });
      if (response.status !== 200) {
        v.push(`GET ${path} page ${page} answered ${response.status} ${response.text.slice(0, 200)}`);
        return out;
      }
      out.push(...response.body.data[field]);
      if (page >= response.body.data.pagination.last_page) return out;
    }
  }

  /** Waits until no order is open and no webhook delivery is pending, as the API shows them. */
  async wait_until_settled(receiver: CrashReceiver, timeout_ms: number): Promise<string[]> {
    const v: string[] = [];
    const deadline = Date.now() + timeout_ms;
    const wallets = this.model.accounts.flatMap((a) => Object.values(a.wallets));
    for (;;) {
      const open: string[] = [];
      for (const wallet of wallets) {
        for (const order of await this.all_pages(wallet.key, '/v1/transactions', 'transactions', v)) {
          if (order.status !== 'successful' && order.status !== 'failed') open.push(`${order.reference} ${order.status} (${wallet.account_id}:${wallet.environment})`);
        }
      }
      let pending: string[] = [];
      if (open.length === 0) {
        // Deliveries go on for a moment after the last order settles; wait for a quiet receiver first.
        while (Date.now() - receiver.last_request_ms < 1_000 && Date.now() < deadline) await sleep(200);
        for (const wallet of wallets) {
          for (const delivery of await this.all_pages(wallet.key, `/v1/webhooks/${wallet.endpoint_id}/deliveries`, 'deliveries', v)) {
            if (delivery.status !== 'delivered') pending.push(`delivery ${delivery.id} ${delivery.event} ${delivery.event_id} ${delivery.status}`);
          }
        }
      }
      if ((open.length === 0 && pending.length === 0) || Date.now() > deadline) {
        if (open.length > 0) v.push(`after ${timeout_ms} ms, ${open.length} orders are still open: ${open.slice(0, 20).join(', ')}`);
        if (pending.length > 0) v.push(`after ${timeout_ms} ms, ${pending.length} deliveries are not delivered: ${pending.slice(0, 20).join(', ')}`);
        return v;
      }
      pending = [];
      await sleep(300);
    }
  }

  /**
   * Once everything settled: each wallet equals its credits minus its delivered orders to the kobo,
   * its entries add up, each failed order was refunded once, every acknowledged operation is
   * reflected exactly once, and every event it implies reached the receiver.
   */
  async check_final(receiver: CrashReceiver): Promise<{ violations: string[]; implied_events: number }> {
    const v: string[] = [];
    const orders_by_reference = new Map<string, any>();
    for (const account of this.model.accounts) {
      for (const wallet of Object.values(account.wallets)) {
        const what = `wallet ${wallet.account_id}:${wallet.environment}`;
        const ledger = await this.refresh_ledger(wallet, v, true);
        const entries = [...ledger.by_id.values()].map((text) => JSON.parse(text)).sort((a, b) => a.id - b.id);
        const orders = await this.all_pages(wallet.key, '/v1/transactions', 'transactions', v);
        const balance_response = await this.call('GET', '/v1/wallet', { key: wallet.key });
        const balance = kobo_of(balance_response.body?.data?.balance);
        for (const order of orders) {
          if (orders_by_reference.has(order.reference)) v.push(`${what}: order ${order.reference} is listed twice`);
          orders_by_reference.set(order.reference, { ...order, wallet });
        }
        const credits = entries.filter((e) => e.type === 'credit').reduce((sum, e) => sum + kobo_of(e.amount), 0);
        // The wallet pays amount_charged (docs/api.md "Pricing"): balance = credits − Σ amount_charged of delivered orders.
        const delivered = orders.filter((o) => o.status === 'successful').reduce((sum, o) => sum + kobo_of(o.amount_charged), 0);
        if (balance !== credits - delivered) v.push(`${what}: balance ${balance} kobo ≠ credits ${credits} − Σ amount_charged of delivered orders ${delivered} = ${credits - delivered}`);
        const signed = entries.reduce((sum, e) => sum + (e.type === 'debit' ? -kobo_of(e.amount) : kobo_of(e.amount)), 0);
        if (balance !== signed) v.push(`${what}: balance ${balance} kobo ≠ the sum of its entries ${signed}`);
        entries.forEach((e, i) => {
          if (e.id !== i + 1) v.push(`${what}: entry ids do not run 1..n (position ${i + 1} holds ${e.id})`);
          if (i > 0 && kobo_of(e.balance_before) !== kobo_of(entries[i - 1].balance_after)) v.push(`${what}: entry ${e.id} starts at ${e.balance_before}, entry ${entries[i - 1].id} ended at ${entries[i - 1].balance_after}`);
        });
        const by_reference = new Map<string, any[]>();
        for (const e of entries) by_reference.set(e.reference, [...(by_reference.get(e.reference) ?? []), e]);
        for (const order of orders) {
          const mine = by_reference.get(order.reference) ?? [];
          const debits = mine.filter((e) => e.type === 'debit').length;
          const refunds = mine.filter((e) => e.type === 'reversal').length;
          if (debits !== 1) v.push(`${what}: order ${order.reference} has ${debits} debits`);
          if (order.status === 'failed' && refunds !== 1) v.push(`${what}: failed order ${order.reference} was refunded ${refunds} times`);
          if (order.status !== 'failed' && refunds !== 0) v.push(`${what}: ${order.status} order ${order.reference} was refunded ${refunds} times`);
          if (order.status !== 'successful' && order.status !== 'failed') v.push(`${what}: order ${order.reference} is still ${order.status}`);
        }
        const references = new Set(orders.map((o) => o.reference));
        for (const e of entries) {
          if (e.type !== 'credit' && !references.has(e.reference)) v.push(`${what}: ${e.type} entry ${e.id} of ${e.reference}, which is no order of this wallet`);
        }
      }
    }

    // Every acknowledged operation, reflected exactly once; the events it implies, received.
    const received = new Map<string, Set<string>>();
    /** When each event id first reached the receiver, and when the server made it: to place a repeat in its round. */
    const first_seen = new Map<string, string>();
    const acknowledged = new Set<string>();
    for (const r of receiver.received) {
      if (r.json === null) continue;
      // A batch.completed event is about its batch, named by data.id.
      const name = `${r.tag}|${r.json.event}|${r.json.data?.reference ?? r.json.data?.id}`;
      received.set(name, (received.get(name) ?? new Set()).add(r.event_id ?? '?'));
      if (r.event_id !== undefined && !first_seen.has(r.event_id)) first_seen.set(r.event_id, `first received ${new Date(r.at_ms).toISOString()}, created_at ${r.json.created_at}`);
      if (r.answered === 200) acknowledged.add(name);
    }
    let implied_events = 0;
    const expect_event = (wallet: Wallet, kind: string, reference: string, at: string) => {
      implied_events++;
      if (!acknowledged.has(`${wallet.tag}|${kind}|${reference}`)) v.push(`${at}: the receiver never acknowledged ${kind} of ${reference}`);
    };
    for (const op of this.model.ops) {
      const ack = op.ack;
      if (ack === null) continue;
      const wallet = this.wallet(op);
      const ledger = this.ledger(wallet);
      const at = `op ${op.n} (round ${op.round}, ${op.kind} ${op.path}${op.idem ? ` key ${op.idem}` : ''}) answered ${ack.status}`;
      if (op.kind === 'purchase') {
        const reference = acked_reference(ack);
        if (reference === null) continue;
        const order = orders_by_reference.get(reference);
        if (order === undefined || order.wallet !== wallet) {
          v.push(`${at}: order ${reference} is not in the wallet's history`);
          continue;
        }
        const status = order.status === 'successful' ? 'delivered' : order.status;
        if (kobo_of(order.amount) !== op.purchase!.amount_kobo) v.push(`${at}: order ${reference} is for ${order.amount} NGN`);
        const answered = ack.status === 201 ? ack.body.data.status : 'failed';
        // List views carry no delivered_at: an order the upstream reversed is read in full.
        let reversed_after_delivery = false;
        if (status === 'failed' && this.reversed().has(reference)) {
          const full = await this.call('GET', `/v1/transactions/${reference}`, { key: wallet.key });
          reversed_after_delivery = full.status === 200 && full.body.data.delivered_at !== null;
        }
        if ((answered === 'delivered' || answered === 'failed') && status !== answered && !(answered === 'delivered' && reversed_after_delivery)) v.push(`${at}: answered ${answered}, the order ended ${status}`);
        const final = final_status_of(op.purchase!.expect);
        if (final !== null && status !== final) v.push(`${at}: order ${reference} ended ${status}; the sandbox says ${op.purchase!.recipient} ends ${final}`);
        expect_event(wallet, 'wallet.debited', reference, at);
        if (status === 'delivered' || reversed_after_delivery) expect_event(wallet, 'transaction.completed', reference, at);
        if (status === 'failed') {
          expect_event(wallet, reversed_after_delivery ? 'transaction.reversed' : 'transaction.failed', reference, at);
          expect_event(wallet, 'wallet.reversed', reference, at);
        }
        if (ack.status === 201 && ack.body.data.status === 'processing') expect_event(wallet, 'transaction.processing', reference, at);
      } else if (op.kind === 'bulk') {
        const batch = acked_batch(ack);
        if (batch === null) continue;
        const shown = await this.call('GET', `/v1/services/bulk/${batch.id}`, { key: wallet.key });
        if (shown.status !== 200 || shown.body?.data?.status !== 'completed') {
          v.push(`${at}: batch ${batch.id} is ${shown.status === 200 ? shown.body.data.status : `answered ${shown.status}`} after everything settled`);
          continue;
        }
        // The batch's counts agree with its items (a cancelled item counts failed).
        const shown_statuses: string[] = [];
        batch.references.forEach((reference, index) => {
          if (reference === null) return;
          const item = op.bulk!.items[index];
          const order = orders_by_reference.get(reference);
          if (order === undefined || order.wallet !== wallet) {
            v.push(`${at}: item ${index}'s order ${reference} is not in the wallet's history`);
            return;
          }
          const status = order.status === 'successful' ? 'delivered' : order.status;
          shown_statuses.push(status);
          if (order.client_reference !== item.client_reference) v.push(`${at}: item ${index}'s order ${reference} carries client_reference ${order.client_reference}`);
          if (shown.body.data.items[index]?.status !== status) v.push(`${at}: the batch shows item ${index} ${shown.body.data.items[index]?.status}, its order ended ${status}`);
          const final = final_status_of(item.expect);
          if (final !== null && status !== final) v.push(`${at}: item ${index}'s order ${reference} ended ${status}; the sandbox says ${item.recipient} ends ${final}`);
          expect_event(wallet, 'wallet.debited', reference, at);
          if (status === 'delivered') expect_event(wallet, 'transaction.completed', reference, at);
          if (status === 'failed') {
            expect_event(wallet, 'transaction.failed', reference, at);
            expect_event(wallet, 'wallet.reversed', reference, at);
          }
        });
        const counts = shown.body.data.counts ?? {};
        for (const status of ['delivered', 'failed', 'processing']) {
          const items = shown_statuses.filter((s) => s === status).length;
          if (counts[status] !== items) v.push(`${at}: batch ${batch.id} counts ${counts[status]} ${status}, its orders ${items}`);
        }
        const refused = batch.references.filter((r) => r === null).length;
        if (counts.refused !== refused) v.push(`${at}: batch ${batch.id} counts ${counts.refused} refused, its answer ${refused}`);
        expect_event(wallet, 'batch.completed', batch.id, at);
      } else if (op.kind === 'cancel') {
        // 200: the order is failed with reason cancelled, its transaction.failed says so, and it was received
        // under one event id (checked for every change below); 409: it went on to be delivered or failed
        // otherwise.
        const spec = op.cancel!;
        const answer = cancel_answer(spec, ack);
        if (answer === null) continue;
        const shown = await this.call('GET', `/v1/transactions/${spec.reference}`, { key: wallet.key });
        const data = shown.body?.data;
        if (shown.status !== 200) {
          v.push(`${at}: GET /v1/transactions/${spec.reference} answered ${shown.status}`);
          continue;
        }
        if (answer === 'cancelled' && (data.status !== 'failed' || data.failure_reason !== cancelled_reason)) v.push(`${at}: cancelled ${spec.reference} ended ${data.status} (${data.failure_reason})`);
        if (answer === 'refused' && (!['successful', 'delivered', 'failed'].includes(data.status) || data.failure_reason === cancelled_reason)) v.push(`${at}: ${spec.reference}, not cancellable, ended ${data.status} (${data.failure_reason})`);
        if (answer === 'cancelled') {
          expect_event(wallet, 'transaction.failed', spec.reference, at);
          const failed = receiver.received.filter((r) => r.tag === wallet.tag && r.json?.event === 'transaction.failed' && r.json?.data?.reference === spec.reference);
          if (failed.some((r) => r.json.data.failure_reason !== cancelled_reason)) v.push(`${at}: a transaction.failed of ${spec.reference} says failure_reason ${failed.map((r) => r.json.data.failure_reason).join(', ')}`);
          if (new Set(failed.map((r) => r.event_id)).size !== 1) v.push(`${at}: transaction.failed of ${spec.reference} arrived under ${new Set(failed.map((r) => r.event_id)).size} event ids (exactly 1 expected)`);
          const processing = receiver.received.filter((r) => r.tag === wallet.tag && r.json?.event === 'transaction.processing' && r.json?.data?.reference === spec.reference);
          if (processing.length > 0) v.push(`${at}: the cancelled ${spec.reference} was announced processing`);
        }
      } else if ((op.kind === 'credit' || op.kind === 'topup') && ack.status === 201) {
        const credits = (ledger.by_reference.get(op.credit!.reference) ?? []).filter((e) => e.type === 'credit');
        if (credits.length !== 1) v.push(`${at}: ${credits.length} credits of ${op.credit!.reference} (exactly 1 expected)`);
        expect_event(wallet, 'wallet.credited', op.credit!.reference, at);
      }
    }
    // Funding, after the campaign's last reconcile: every transfer the providers made is credited exactly once,
    // into its account's live wallet, with its wallet.credited received (one whose callback disagreed with the
    // provider may be an exception instead, never both); nothing a provider never made is credited.
    if (this.model.funding.providers.length > 0) {
      const exceptions = await this.funding_exceptions(v);
      const transfers = new Map(this.model.funding.transfers.map((t) => [funding_key(t.provider, t.provider_reference), t]));
      const found = new Map<string, Wallet[]>();
      for (const account of this.model.accounts) {
        const wallet = account.wallets.live;
        for (const text of this.ledger(wallet).by_id.values()) {
          const entry = JSON.parse(text);
          if (entry.type !== 'credit' || entry.funding === undefined) continue;
          const key = funding_key(entry.funding.provider, entry.funding.provider_reference);
          found.set(key, [...(found.get(key) ?? []), wallet]);
          if (!transfers.has(key)) v.push(`wallet ${wallet.account_id}:live entry ${entry.id}: credit of ${entry.funding.provider} ${entry.funding.provider_reference}, a transfer the provider never made`);
        }
      }
      for (const [key, transfer] of transfers) {
        const at = `${transfer.provider} transfer ${transfer.provider_reference} (account ${transfer.account_id}, round ${transfer.round}${transfer.disputed ? ', disputed' : ''})`;
        const wallets = found.get(key) ?? [];
        const excepted = exceptions.has(key);
        if (transfer.disputed && excepted) {
          if (wallets.length > 0) v.push(`${at}: in exceptions, yet credited ${wallets.length} times`);
          continue;
        }
        if (excepted) v.push(`${at}: a genuine transfer in exceptions`);
        if (wallets.length !== 1) {
          v.push(`${at}: credited ${wallets.length} times after the last reconcile (exactly 1 expected)`);
          continue;
        }
        this.check_funding_credit(transfer, v, at);
        expect_event(this.model.accounts.find((a) => a.id === transfer.account_id)!.wallets.live, 'wallet.credited', transfer.provider_reference, at);
      }
    }
    for (const created of this.model.created_keys) {
      await this.check_key(created.api_key, created.id, created.revoked, this.model.accounts.find((a) => a.id === created.account_id)!.wallets[created.environment], v, `key ${created.id} (op ${created.create_op.n})`);
    }

    // Copies of a delivery carry the same event id and the same body; one change, one event id.
    const bodies = new Map<string, Set<string>>();
    for (const r of receiver.received) {
      if (r.event_id === undefined) {
        v.push(`the receiver got a request without webhook-id: ${r.body.slice(0, 200)}`);
        continue;
      }
      bodies.set(r.event_id, (bodies.get(r.event_id) ?? new Set()).add(`${r.tag} ${r.body}`));
      if (!r.service_signature_ok || !r.standard_signature_ok) v.push(`event ${r.event_id} arrived with a bad signature (service ${r.service_signature_ok}, standard ${r.standard_signature_ok})`);
      if (r.json?.id !== r.event_id || r.json?.event !== r.event_header) v.push(`event ${r.event_id}: webhook-id / X-Service-Event differ from the body's id ${r.json?.id} / event ${r.json?.event}`);
    }
    for (const [id, set] of bodies) if (set.size > 1) v.push(`event ${id} arrived with ${set.size} different bodies or endpoints`);
    for (const [name, ids] of received) if (ids.size > 1) v.push(`one change ${name} arrived under ${ids.size} event ids: ${[...ids].map((id) => `${id} (${first_seen.get(id) ?? '?'})`).join(', ')}`);
    return { violations: v, implied_events };
  }
}
