// The funding core (docs/funding.md): each reseller's dedicated accounts at every configured provider, the
// providers' callbacks verified through their own API before anything counts, one credit per provider transfer
// for ever, the exceptions only an operator resolves, and the reconciler that credits what no callback brought.
//
// Exactly once: every credit of a provider's transfer is the `credit` command with `funding`, which claims
// [environment, provider, provider reference] in the same command (and so the same commit) as the wallet entry
// (engine/account-actor.ts credit_transfer). A callback repeated 20 times at once, the reconciler finding the
// same transfer, and an operator's resolve all go through it: the first stages the claim, the rest find it.
// Nothing answers 200 before the commit holding the credit is durable (actor.settled()).
import type { EngineContext } from '../../engine/context.js';
import type { AccountActor } from '../../engine/account-actor.js';
import type { SecretBox } from '../../lib/secrets.js';
import { lagos_day } from '../../lib/time-format.js';
import type { WalletEntry } from '../../engine/records.js';
import type { RecordChange } from '../../engine/account-command.js';
import { FundingProviderError, type CallbackClaim, type FundingCustomer, type FundingProvider, type ProviderTransfer } from './funding-provider.js';
import { assert_funding_account, assert_funding_exception, type FundingAccountRecord, type FundingExceptionReason, type FundingExceptionRecord, type FundingKycRecord } from './funding-records.js';

/** How far back the reconciler asks each provider, and how often (real time, not TIME_SCALE'd: docs/funding.md). */
export const reconcile_window_ms = 48 * 3600_000;
export const reconcile_interval_ms = 10 * 60_000;
/** Callbacks being verified at once; beyond it a callback answers 503 and the provider retries (the reconciler would find it too). */
export const callbacks_in_flight_max = 1_000;
/** Account creations at once (each a provider call); beyond it a POST answers its rows as they stand, retried later. */
export const creations_in_flight_max = 256;
/** Exceptions one listing returns. */
export const exceptions_listed_max = 1_000;
/** A provider call's deadline inside a request (the provider's own timeout_ms applies too). */
const call_deadline_ms = 20_000;
/** Background retries of a failed account creation: 1 min doubling to 6 h. */
const retry_base_ms = 60_000;
const retry_max_ms = 6 * 3600_000;

const report_prefix = 'funding_report:';

/** A provider's Africa/Lagos day of live funding (docs/funding.md "Daily report"). */
export interface FundingDayRecord {
  day: number;
  provider: string;
  /** Transfers credited (by a callback, the reconciler or a resolve) that day. */
  credits: number;
  amount_paid_kobo: number;
  fee_kobo: number;
  /** What the wallets got: the amount paid, less the fee where the reseller bears it. */
  credited_kobo: number;
  /** Exceptions recorded that day. */
  exceptions: number;
}

export type FeeBearer = (tier: string) => 'operator' | 'reseller';

export interface FundingObserver {
  exception(provider: string, reason: FundingExceptionReason): void;
  credited(provider: string, via: 'callback' | 'reconcile' | 'resolve' | 'sandbox'): void;
}

/** What a callback comes to; the route answers 401, 404, 503 or 200 (only once durable). */
export type CallbackResult =
  | { kind: 'not_configured' }
  | { kind: 'invalid_signature' }
  | { kind: 'unavailable'; message: string }
  | { kind: 'ignored' }
  | { kind: 'credited'; created: boolean; entry: WalletEntry }
  | { kind: 'pending' }
  | { kind: 'exception'; id: number; reason: FundingExceptionReason };

export interface ReconcileCounts {
  found: number;
  credited: number;
  exceptions: number;
}

export type ResolveResult =
  | { kind: 'not_found' }
  | { kind: 'resolved_already'; record: FundingExceptionRecord }
  | { kind: 'account_needed' }
  | { kind: 'account_not_found' }
  /** The account to credit is a closed agent: the operator names another (its parent is parent_id). */
  | { kind: 'account_closed'; account_id: number; parent_id: number | null }
  | { kind: 'done'; record: FundingExceptionRecord; entry: WalletEntry | null };

function sandbox_account(reference: string | null): number | null {
  const match = reference === null ? null : /^billvend-(\d{1,15})$/.exec(reference);
  return match === null ? null : Number(match[1]);
}

export function customer_reference(account_id: number): string {
  return `billvend-${account_id}`;
}

export class FundingService {
  readonly providers = new Map<string, FundingProvider>();
  private readonly callbacks_in_flight = new Map<string, Promise<CallbackResult>>();
  private readonly creations_in_flight = new Map<string, Promise<void>>();
  private readonly retries = new Map<string, { cancel(): void }>();
  exceptions_recorded = 0;

  constructor(
    private readonly ctx: EngineContext,
    private readonly secret_box: SecretBox,
    providers: readonly FundingProvider[],
    private readonly fee_bearer: FeeBearer,
    private readonly observer: FundingObserver,
  ) {
    for (const provider of providers) this.providers.set(provider.config.name, provider);
  }

  get configured(): boolean {
    return this.providers.size > 0;
  }

  /** At start: failed rows are retried in the background, and the reconciler runs every 10 minutes. */
  start(): void {
    if (!this.configured) return;
    const store = this.ctx.engine.store;
    for (const { value } of store.funding_accounts.getRange({})) {
      const row = value as FundingAccountRecord;
      assert_funding_account(row);
      if (row.status === 'failed' && this.providers.has(row.provider)) this.schedule_retry(row);
    }
    const tick = () => {
      this.reconcile(null).then(
        (counts) => this.ctx.log.info({ ...counts }, 'funding reconcile done'),
        (error) => this.ctx.log.error({ err: error }, 'funding reconcile failed'),
      ).finally(() => {
        if (!this.ctx.engine.fenced) this.ctx.wheel.schedule_wall(reconcile_interval_ms, tick);
      });
    };
    this.ctx.wheel.schedule_wall(reconcile_interval_ms, tick);
  }

  // ---- Dedicated accounts ---------------------------------------------------------------------------

  /** The account's rows, one per configured provider (a provider not yet asked has none), as durable. */
  rows(account_id: number): FundingAccountRecord[] {
    const out: FundingAccountRecord[] = [];
    for (const name of this.providers.keys()) {
      const row = this.ctx.engine.journal.read(this.ctx.engine.store.funding_accounts, [account_id, name]) as FundingAccountRecord | undefined;
      if (row !== undefined) out.push(row);
    }
    return out;
  }

  /**
   * Creates the account's dedicated accounts at every configured provider that has none yet (a failed or
   * never-asked one), the others untouched; kyc (plain, in memory for these requests only) is sealed and kept
   * for retries. Resolves once every row is durable.
   */
  async ensure_accounts(actor: AccountActor, kyc: { bvn: string | null; nin: string | null } | null): Promise<FundingAccountRecord[]> {
    const account_id = actor.id;
    if (kyc !== null && (kyc.bvn !== null || kyc.nin !== null)) {
      const record: FundingKycRecord = {
        bvn_sealed: kyc.bvn === null ? null : this.secret_box.seal(kyc.bvn),
        nin_sealed: kyc.nin === null ? null : this.secret_box.seal(kyc.nin),
        updated_us: this.ctx.clock.now_us(),
      };
      this.stage(actor, [{ db: this.ctx.engine.store.funding_kyc, key: account_id, value: record }]);
    }
    const work: Promise<void>[] = [];
    for (const provider of this.providers.values()) {
      const row = this.ctx.engine.journal.read(this.ctx.engine.store.funding_accounts, [account_id, provider.config.name]) as FundingAccountRecord | undefined;
      if (row !== undefined && row.status !== 'failed') continue;
      work.push(this.create(account_id, provider));
    }
    await Promise.all(work);
    const current = this.ctx.engine.accounts.get(account_id);
    const pending = current?.settled() ?? null;
    if (pending !== null) await pending;
    return this.rows(account_id);
  }

  /** One provider's creation for one account, coalesced with any already running. */
  private create(account_id: number, provider: FundingProvider): Promise<void> {
    const key = `${account_id}:${provider.config.name}`;
    const running = this.creations_in_flight.get(key);
    if (running !== undefined) return running;
    if (this.creations_in_flight.size >= creations_in_flight_max) return Promise.resolve();
    const done = this.create_now(account_id, provider).finally(() => this.creations_in_flight.delete(key));
    this.creations_in_flight.set(key, done);
    return done;
  }

  private async create_now(account_id: number, provider: FundingProvider): Promise<void> {
    const before = this.ctx.engine.accounts.get(account_id);
    if (before === undefined) return;
    const kyc = this.ctx.engine.journal.read(this.ctx.engine.store.funding_kyc, account_id) as FundingKycRecord | undefined;
    const customer: FundingCustomer = {
      account_id,
      reference: customer_reference(account_id),
      name: before.account.name,
      email: before.account.email,
      phone: before.account.phone || null,
      bvn: kyc?.bvn_sealed ? this.secret_box.open(kyc.bvn_sealed) : null,
      nin: kyc?.nin_sealed ? this.secret_box.open(kyc.nin_sealed) : null,
    };
    const previous = this.ctx.engine.journal.read(this.ctx.engine.store.funding_accounts, [account_id, provider.config.name]) as FundingAccountRecord | undefined;
    let row: FundingAccountRecord;
    const records: RecordChange[] = [];
    try {
      const accounts = await provider.create_accounts(customer, AbortSignal.timeout(call_deadline_ms));
      if (accounts.length === 0) throw new FundingProviderError(`${provider.config.name}: no account was made`, true);
      // A number the provider gives for two customers is its error; crediting either would be a guess.
      for (const account of accounts) {
        const owner = this.ctx.engine.journal.read(this.ctx.engine.store.funding_numbers, [provider.config.name, account.account_number]) as number | undefined;
        if (owner !== undefined && owner !== account_id) throw new FundingProviderError(`${provider.config.name}: account number ${account.account_number} already belongs to another reseller`, false);
      }
      row = {
        account_id,
        provider: provider.config.name,
        kind: provider.config.kind,
        reference: customer.reference,
        status: accounts.every((a) => a.status === 'active') ? 'active' : 'pending',
        error: null,
        accounts: accounts.map((a) => ({ bank_name: a.bank_name, account_number: a.account_number, account_name: a.account_name, status: a.status })),
        failures: 0,
        updated_us: this.ctx.clock.now_us(),
      };
      for (const account of accounts) records.push({ db: this.ctx.engine.store.funding_numbers, key: [provider.config.name, account.account_number], value: account_id });
    } catch (error) {
      const message = error instanceof FundingProviderError ? error.message : `${provider.config.name}: ${(error as Error).name === 'TimeoutError' ? 'timed out' : 'could not be reached'}`;
      row = {
        account_id,
        provider: provider.config.name,
        kind: provider.config.kind,
        reference: customer.reference,
        status: 'failed',
        error: message.slice(0, 300),
        accounts: [],
        failures: (previous?.failures ?? 0) + 1,
        updated_us: this.ctx.clock.now_us(),
      };
      this.ctx.log.warn({ account_id, provider: provider.config.name, err: message }, 'dedicated account creation failed; retried later');
    }
    assert_funding_account(row);
    records.unshift({ db: this.ctx.engine.store.funding_accounts, key: [account_id, provider.config.name], value: row });
    // The actor as it is now: a failed commit during the await replaced the one we had.
    const actor = this.ctx.engine.accounts.get(account_id);
    if (actor === undefined) return;
    this.stage(actor, records);
    if (row.status === 'failed') this.schedule_retry(row);
    else this.retries.get(`${account_id}:${provider.config.name}`)?.cancel();
  }

  private schedule_retry(row: FundingAccountRecord): void {
    const key = `${row.account_id}:${row.provider}`;
    this.retries.get(key)?.cancel();
    const delay_ms = Math.min(retry_max_ms, retry_base_ms * 2 ** Math.min(20, Math.max(0, row.failures - 1)));
    const handle = this.ctx.wheel.schedule(delay_ms, () => {
      this.retries.delete(key);
      const provider = this.providers.get(row.provider);
      if (provider === undefined || this.ctx.engine.fenced) return;
      const current = this.ctx.engine.journal.read(this.ctx.engine.store.funding_accounts, [row.account_id, row.provider]) as FundingAccountRecord | undefined;
      if (current?.status !== 'failed') return;
      this.create(row.account_id, provider).catch((error) => this.ctx.log.error({ err: error }, 'dedicated account retry failed'));
    });
    this.retries.set(key, handle);
  }

  private stage(actor: AccountActor, records: RecordChange[]): void {
    this.ctx.engine.run(actor, { kind: 'stage_records', records });
  }

  // ---- Callbacks ----------------------------------------------------------------------------------

  /**
   * A provider's callback: the signature over the raw bytes, then the claim, then the provider's own record
   * (verify) decides. Callbacks about the same transfer while one is being verified share its answer.
   */
  receive_callback(provider_name: string, raw: Buffer, headers: Readonly<Record<string, string>>): CallbackResult | Promise<CallbackResult> {
    const provider = this.providers.get(provider_name);
    if (provider === undefined) return { kind: 'not_configured' };
    if (!provider.signature_valid(raw, headers)) return { kind: 'invalid_signature' };
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return { kind: 'ignored' };
    }
    const claim = provider.parse_callback(body);
    if (claim === null) return { kind: 'ignored' };
    return this.settle_claim(provider, claim, 'callback');
  }

  private settle_claim(provider: FundingProvider, claim: CallbackClaim, via: 'callback' | 'sandbox'): Promise<CallbackResult> {
    const key = `${provider.config.name}\u0000${claim.provider_reference}`;
    // A repeat while the first is being verified shares its outcome; only the first reports the credit as its own.
    const running = this.callbacks_in_flight.get(key);
    if (running !== undefined) return running.then((r) => (r.kind === 'credited' ? { ...r, created: false } : r));
    if (this.callbacks_in_flight.size >= callbacks_in_flight_max) return Promise.resolve({ kind: 'unavailable', message: 'Too many funding callbacks are being verified; retry shortly.' });
    const result = this.settle_claim_now(provider, claim, via).finally(() => this.callbacks_in_flight.delete(key));
    this.callbacks_in_flight.set(key, result);
    return result;
  }

  private async settle_claim_now(provider: FundingProvider, claim: CallbackClaim, via: 'callback' | 'sandbox'): Promise<CallbackResult> {
    const name = provider.config.name;
    const environment = via === 'sandbox' ? 'test' : 'live';
    const repeat = await this.earlier_outcome(environment, name, claim.provider_reference);
    if (repeat !== null) return repeat;
    let verified: ProviderTransfer | null;
    try {
      verified = await provider.verify(claim.provider_reference, AbortSignal.timeout(call_deadline_ms));
    } catch (error) {
      // Not answered 200: the provider sends the callback again, and the reconciler would find the transfer anyway.
      return { kind: 'unavailable', message: `The funding provider could not confirm the transfer (${(error as Error).message.slice(0, 120)}); retry later.` };
    }
    // The sandbox's transfers name the account itself (its reference); a real provider's are looked up.
    const claimed_account = via === 'sandbox' ? sandbox_account(claim.customer_reference) : this.account_of(name, claim.account_number, claim.customer_reference);
    if (verified === null) return this.exception(name, claim.provider_reference, claim.amount_paid_kobo, 'unknown_to_provider', claimed_account, null);
    if (verified.status === 'pending') return { kind: 'pending' };
    if (verified.status !== 'successful') return this.exception(name, claim.provider_reference, claim.amount_paid_kobo, 'not_successful', claimed_account, verified);
    if (verified.amount_paid_kobo !== claim.amount_paid_kobo) return this.exception(name, claim.provider_reference, claim.amount_paid_kobo, 'amount_mismatch', claimed_account, verified);
    const verified_account = via === 'sandbox' ? sandbox_account(verified.customer_reference) : this.account_of(name, verified.account_number, verified.customer_reference);
    if (verified_account !== null && claimed_account !== null && verified_account !== claimed_account) {
      return this.exception(name, claim.provider_reference, claim.amount_paid_kobo, 'account_mismatch', claimed_account, verified);
    }
    const account_id = verified_account ?? claimed_account;
    if (account_id === null) return this.exception(name, claim.provider_reference, claim.amount_paid_kobo, 'unknown_account', null, verified);
    return this.credit(name, environment, verified, account_id, via);
  }

  /** What an earlier callback, reconcile or resolve made of this transfer: its credit or its exception. */
  private async earlier_outcome(environment: 'live' | 'test', provider: string, provider_reference: string): Promise<CallbackResult | null> {
    const claim = this.ctx.engine.funding_credit(environment, provider, provider_reference);
    if (claim !== null) {
      const actor = this.ctx.engine.accounts.get(claim.account_id);
      const pending = actor?.settled() ?? null;
      if (pending !== null) await pending;
      const entry = this.ctx.engine.journal.read(this.ctx.engine.store.wallet_entries, [claim.account_id, environment, claim.entry_id]) as WalletEntry;
      return { kind: 'credited', created: false, entry };
    }
    const exception = this.ctx.engine.journal.read(this.ctx.engine.store.funding_exceptions, [provider, provider_reference]) as FundingExceptionRecord | undefined;
    if (exception !== undefined) {
      await this.ctx.engine.journal.durable();
      return { kind: 'exception', id: exception.id, reason: exception.reason };
    }
    return null;
  }

  /** Whose wallet a transfer funds: by the dedicated account number, else by billvend's customer reference. */
  account_of(provider: string, account_number: string | null, reference: string | null): number | null {
    if (account_number !== null) {
      const owner = this.ctx.engine.journal.read(this.ctx.engine.store.funding_numbers, [provider, account_number]) as number | undefined;
      if (owner !== undefined) return owner;
    }
    if (reference !== null) {
      const match = /^billvend-(\d{1,15})$/.exec(reference);
      if (match !== null) {
        const id = Number(match[1]);
        const row = this.ctx.engine.journal.read(this.ctx.engine.store.funding_accounts, [id, provider]) as FundingAccountRecord | undefined;
        if (row !== undefined && row.reference === reference) return id;
      }
    }
    return null;
  }

  /** The one credit of a provider transfer (exactly once: the command's claim), durable before it resolves. */
  private async credit(provider: string, environment: 'live' | 'test', transfer: ProviderTransfer, account_id: number, via: 'callback' | 'reconcile' | 'resolve' | 'sandbox'): Promise<CallbackResult> {
    const actor = this.ctx.engine.accounts.get(account_id);
    if (actor === undefined) return this.exception(provider, transfer.provider_reference, transfer.amount_paid_kobo, 'unknown_account', null, transfer);
    // A closed agent (docs/decisions.md "Agents"): its balances went back to its parent and nothing moves them
    // again, so money credited there would be stuck. The provider has moved it already: it goes to exceptions, for
    // the operator to credit to another account (its parent, say) or to refund, and the callback is answered as
    // every exception is. Checked in the same event-loop turn as the credit below, so a close cannot come between.
    if (actor.account.status === 'closed') return this.exception(provider, transfer.provider_reference, transfer.amount_paid_kobo, 'account_closed', account_id, transfer);
    const reseller_pays = this.fee_bearer(actor.account.tier) === 'reseller';
    const amount_kobo = reseller_pays ? transfer.amount_paid_kobo - transfer.fee_kobo : transfer.amount_paid_kobo;
    if (amount_kobo <= 0) return this.exception(provider, transfer.provider_reference, transfer.amount_paid_kobo, 'fee_exceeds_amount', account_id, transfer);
    const outcome = this.ctx.engine.run(actor, {
      kind: 'credit',
      environment,
      amount_kobo,
      reference: transfer.provider_reference,
      description: `Bank transfer via ${provider}`,
      funding: {
        provider,
        provider_reference: transfer.provider_reference,
        amount_paid_kobo: transfer.amount_paid_kobo,
        fee_kobo: transfer.fee_kobo,
        settlement_kobo: transfer.settlement_kobo,
      },
    });
    if (!outcome.ok) {
      // Another account holds this transfer's credit (a resolve naming another account after it was credited).
      const earlier = await this.earlier_outcome(environment, provider, transfer.provider_reference);
      return earlier ?? { kind: 'unavailable', message: 'The transfer could not be credited; retry shortly.' };
    }
    // Counted in the same event-loop turn as the credit, so in the same commit (docs/funding.md "Daily report").
    if (outcome.value.created && environment === 'live') this.count(provider, outcome.value.entry.amount_kobo, transfer, false);
    const pending = actor.settled();
    if (pending !== null) await pending;
    if (outcome.value.created) this.observer.credited(provider, via);
    return { kind: 'credited', created: outcome.value.created, entry: outcome.value.entry };
  }

  // ---- Exceptions ---------------------------------------------------------------------------------

  private async exception(provider: string, provider_reference: string, amount_kobo: number, reason: FundingExceptionReason, account_id: number | null, verified: ProviderTransfer | null): Promise<CallbackResult> {
    const journal = this.ctx.engine.journal;
    const store = this.ctx.engine.store;
    // Credited while this was being verified (the reconciler lists a transfer whose disagreeing callback is in
    // flight): that credit is the outcome. Recording an exception now would put a credited transfer in exceptions
    // and answer "nothing was credited". Checked in the same event-loop turn as the put below, as the reconciler
    // checks exceptions in the turn of its credit: a transfer ends credited or in exceptions, never both.
    const environment = provider === 'sandbox' ? 'test' : 'live';
    if (this.ctx.engine.funding_credit(environment, provider, provider_reference) !== null) {
      const credited = await this.earlier_outcome(environment, provider, provider_reference);
      if (credited !== null) return credited;
    }
    const existing = journal.read(store.funding_exceptions, [provider, provider_reference]) as FundingExceptionRecord | undefined;
    if (existing !== undefined) {
      await journal.durable();
      return { kind: 'exception', id: existing.id, reason: existing.reason };
    }
    const record: FundingExceptionRecord = {
      id: this.ctx.engine.next_id('funding_exception'),
      provider,
      provider_reference,
      amount_kobo,
      reason,
      account_id,
      verified: verified === null ? null : { status: verified.status, amount_paid_kobo: verified.amount_paid_kobo, fee_kobo: verified.fee_kobo, settlement_kobo: verified.settlement_kobo },
      status: 'open',
      created_us: this.ctx.clock.now_us(),
      resolved_us: null,
      credited: null,
    };
    assert_funding_exception(record);
    journal.put(0, store.funding_exceptions, [provider, provider_reference], record);
    if (provider !== 'sandbox') this.count(provider, 0, null, true);
    this.exceptions_recorded++;
    this.observer.exception(provider, reason);
    this.ctx.log.warn({ provider, provider_reference, reason, account_id }, 'funding transfer not credited: recorded as an exception');
    await journal.durable();
    return { kind: 'exception', id: record.id, reason };
  }

  /** Exceptions, oldest first: the open ones, or every one. */
  exceptions(status: 'open' | 'all'): FundingExceptionRecord[] {
    const out: FundingExceptionRecord[] = [];
    for (const { value } of this.ctx.engine.store.funding_exceptions.getRange({})) {
      const record = value as FundingExceptionRecord;
      if (status === 'open' && record.status !== 'open') continue;
      out.push(record);
    }
    out.sort((a, b) => a.id - b.id);
    return out.slice(0, exceptions_listed_max);
  }

  private exception_by_id(id: number): FundingExceptionRecord | undefined {
    for (const { value } of this.ctx.engine.store.funding_exceptions.getRange({})) {
      if ((value as FundingExceptionRecord).id === id) return value as FundingExceptionRecord;
    }
    return undefined;
  }

  /**
   * The operator's decision on an exception, the only way one is ever credited: credit (to the account
   * named, else the one it seems to be for) the provider's own amount when it gave one, else the amount
   * claimed; or reject. The credit goes through the same claim, so a transfer is still credited once.
   */
  async resolve(id: number, action: 'credit' | 'reject', account_id: number | null): Promise<ResolveResult> {
    const durable = this.exception_by_id(id);
    if (durable === undefined) return { kind: 'not_found' };
    // Through the journal: a resolve staged a moment ago (not yet durable) has resolved it already.
    const found = this.ctx.engine.journal.read(this.ctx.engine.store.funding_exceptions, [durable.provider, durable.provider_reference]) as FundingExceptionRecord;
    if (found.status !== 'open') return { kind: 'resolved_already', record: found };
    const journal = this.ctx.engine.journal;
    const store = this.ctx.engine.store;
    if (action === 'reject') {
      const record: FundingExceptionRecord = { ...found, status: 'rejected', resolved_us: this.ctx.clock.now_us() };
      journal.put(0, store.funding_exceptions, [found.provider, found.provider_reference], record);
      await journal.durable();
      return { kind: 'done', record, entry: null };
    }
    const target = account_id ?? found.account_id;
    if (target === null) return { kind: 'account_needed' };
    const actor = this.ctx.engine.accounts.get(target);
    if (actor === undefined) return { kind: 'account_not_found' };
    // Nothing is credited into a closed agent, by a resolve neither: an account_closed exception is credited to the
    // account the operator names (its parent, or another), or rejected (refunded outside billvend).
    if (actor.account.status === 'closed') return { kind: 'account_closed', account_id: target, parent_id: actor.account.parent_id ?? null };
    const paid = found.verified?.amount_paid_kobo ?? found.amount_kobo;
    const fee = found.verified === null ? 0 : Math.min(found.verified.fee_kobo, paid);
    const transfer: ProviderTransfer = {
      provider_reference: found.provider_reference,
      status: 'successful',
      amount_paid_kobo: paid,
      fee_kobo: fee,
      settlement_kobo: paid - fee,
      account_number: null,
      customer_reference: null,
      paid_at: null,
    };
    // Marked in the same event-loop turn as the credit, so in the same commit: never credited twice, never lost.
    const settled = this.credit_marking(found, transfer, target);
    const result = await settled;
    if (result.kind !== 'credited') return { kind: 'account_not_found' };
    const record = this.ctx.engine.journal.read(store.funding_exceptions, [found.provider, found.provider_reference]) as FundingExceptionRecord;
    return { kind: 'done', record, entry: result.entry };
  }

  private credit_marking(found: FundingExceptionRecord, transfer: ProviderTransfer, account_id: number): Promise<CallbackResult> {
    const result = this.credit(found.provider, 'live', transfer, account_id, 'resolve');
    // credit() ran its command synchronously before its first await: the claim is staged; mark the exception now.
    const claim = this.ctx.engine.funding_credit('live', found.provider, found.provider_reference);
    if (claim !== null) {
      const record: FundingExceptionRecord = { ...found, status: 'credited', resolved_us: this.ctx.clock.now_us(), credited: { account_id: claim.account_id, entry_id: claim.entry_id } };
      assert_funding_exception(record);
      this.ctx.engine.journal.put(0, this.ctx.engine.store.funding_exceptions, [found.provider, found.provider_reference], record);
    }
    return result;
  }

  // ---- Daily report -------------------------------------------------------------------------------

  /** Adds a live credit or an exception to its provider's Africa/Lagos day (catalog key funding_report:{day}:{provider}). */
  private count(provider: string, credited_kobo: number, transfer: ProviderTransfer | null, exception: boolean): void {
    const day = lagos_day(this.ctx.clock.now_ms());
    const key = `${report_prefix}${day}:${provider}`;
    const current = (this.ctx.engine.journal.read(this.ctx.engine.store.catalog, key) as FundingDayRecord | undefined) ?? { day, provider, credits: 0, amount_paid_kobo: 0, fee_kobo: 0, credited_kobo: 0, exceptions: 0 };
    const next: FundingDayRecord = exception
      ? { ...current, exceptions: current.exceptions + 1 }
      : { ...current, credits: current.credits + 1, amount_paid_kobo: current.amount_paid_kobo + transfer!.amount_paid_kobo, fee_kobo: current.fee_kobo + transfer!.fee_kobo, credited_kobo: current.credited_kobo + credited_kobo };
    this.ctx.engine.journal.put(0, this.ctx.engine.store.catalog, key, next);
  }

  /** One Africa/Lagos day (days since the epoch) per configured provider: credits, amounts, fees, exceptions. */
  report(day: number): FundingDayRecord[] {
    return [...this.providers.keys()].map((provider) => (this.ctx.engine.journal.read(this.ctx.engine.store.catalog, `${report_prefix}${day}:${provider}`) as FundingDayRecord | undefined)
      ?? { day, provider, credits: 0, amount_paid_kobo: 0, fee_kobo: 0, credited_kobo: 0, exceptions: 0 });
  }

  // ---- Reconciler ---------------------------------------------------------------------------------

  /**
   * Asks each provider (or the one named) for the last 48 hours of transfers and credits every successful one
   * that nothing credited yet, through the same claim; a transfer it cannot place becomes an exception, and one
   * already in exceptions is left to the operator.
   */
  async reconcile(only: string | null): Promise<ReconcileCounts> {
    const counts: ReconcileCounts = { found: 0, credited: 0, exceptions: 0 };
    const now_ms = this.ctx.clock.now_ms();
    for (const provider of this.providers.values()) {
      if (only !== null && provider.config.name !== only) continue;
      let transfers: ProviderTransfer[];
      try {
        transfers = await provider.recent_transfers(now_ms - reconcile_window_ms, now_ms, AbortSignal.timeout(120_000));
      } catch (error) {
        this.ctx.log.warn({ provider: provider.config.name, err: (error as Error).message }, 'funding reconcile could not list transfers');
        continue;
      }
      for (const transfer of transfers) {
        if (transfer.status !== 'successful') continue;
        counts.found++;
        const name = provider.config.name;
        if (this.ctx.engine.funding_credit('live', name, transfer.provider_reference) !== null) continue;
        if (this.ctx.engine.journal.read(this.ctx.engine.store.funding_exceptions, [name, transfer.provider_reference]) !== undefined) continue;
        const account_id = this.account_of(name, transfer.account_number, transfer.customer_reference);
        const result = account_id === null
          ? await this.exception(name, transfer.provider_reference, transfer.amount_paid_kobo, 'unknown_account', null, transfer)
          : await this.credit(name, 'live', transfer, account_id, 'reconcile');
        if (result.kind === 'credited' && result.created) counts.credited++;
        else if (result.kind === 'exception') counts.exceptions++;
      }
    }
    // A transfer skipped because a callback's credit (or an exception) claims it may be in a commit not yet durable:
    // the answer waits for it, so that a 200 means every transfer found is credited or in exceptions on disk (a kill
    // before that commit's flush would otherwise leave a found transfer credited nowhere; the crash campaign saw it).
    await this.ctx.engine.journal.durable();
    return counts;
  }

  // ---- Sandbox ------------------------------------------------------------------------------------

  /** A test-wallet transfer through the same path (docs/funding.md "Sandbox"): the sandbox provider's claim, verified by it. */
  sandbox_transfer(sandbox: FundingProvider, raw: Buffer, headers: Readonly<Record<string, string>>): CallbackResult | Promise<CallbackResult> {
    if (!sandbox.signature_valid(raw, headers)) return { kind: 'invalid_signature' };
    const claim = sandbox.parse_callback(JSON.parse(raw.toString('utf8')));
    if (claim === null) return { kind: 'ignored' };
    return this.settle_claim(sandbox, claim, 'sandbox');
  }
}
