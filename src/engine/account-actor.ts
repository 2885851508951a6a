// The account actor: the only code that changes an account's state (docs/style.md "Shape of the code").
// It holds the account's profile, wallets, keys, PIN state and open orders in memory. A command
// (engine/account-command.ts) reaches it through Engine.run: execute runs validate → prepare → apply
// synchronously and returns its outcome as data (a Refusal, never an HTTP error) with the changes and
// events it made, kept in the command's own effects (command-effects.ts), which the engine stages and
// emits; the caller replies once the journal says the changes are durable.
// Because a command never awaits, the event loop is the actor's mailbox: two commands of one account
// never interleave.
import type { Journal, JournalFailure } from '../journal/journal.js';
import {
  assert_account,
  assert_entry,
  assert_key,
  assert_wallet,
  type AccountRecord,
  type EntryFunding,
  type Environment,
  type KeyRecord,
  type WalletEntry,
  type WalletEntryType,
  type WalletRecord,
  environments,
  is_outflow,
} from './records.js';
import { lagos_day } from '../lib/time-format.js';
import { fail } from '../lib/assert.js';
import { ok, refused, type Outcome, type Refusal } from './refusal.js';
import type { RandomSource } from '../lib/random.js';
import type { AccountCommand, CommandFields, CommandOutcome, CommandOutcomes, FundingScope, NewKeyInput } from './account-command.js';
import { CommandEffects, type Executed } from './command-effects.js';
import type { ActorEngine } from './command-actor.js';
import type { EventKind, EventSubject } from './engine-events.js';
import type { ActorCache } from './actor-cache.js';
import type { PinCache } from './pin-cache.js';
import type { Clock } from '../lib/clock.js';
import { OpenOrders } from './open-orders.js';
import { KeyState, key_is_active } from './key-state.js';
import { apply_provider_result, cancel_order, close_reversal_check, escalate_order, mark_processing, move_order_upstream, place_order, resolve_order, reverse_delivered_order, schedule_order_requery, purchase_now } from './account-orders.js';
import { set_low_balance_threshold } from './low-balance.js';
import { stage_record } from './idempotency.js';

/** Daily purchase limits by KYC level in kobo (docs/decisions.md, CBN tiered KYC), live and test alike. */
export const kyc_daily_limit_kobo: readonly number[] = [0, 50_000_00, 200_000_00, 5_000_000_00];

export const active_keys_max = 5;

/** A key's rate-limit window (front/auth.ts); an actor with a window still open stays in memory. */
export const rate_window_ms = 60_000;

export const pin_failures_max = 5;
export const pin_lock_ms = 30 * 60 * 1000;
export const password_failures_max = 5;
export const password_lock_ms = 15 * 60 * 1000;


/**
 * The engine (engine/engine.ts) as its actors reach it: what a command's functions reach (ActorEngine), and
 * what the actor itself and the code that holds an actor use. Declared here, so that the actor does not
 * import the engine that builds it (test/layers.test.ts).
 */
export interface ActorHost extends ActorEngine {
  readonly journal: Journal;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly counts: { open_orders: number; api_keys_active: number; reads_waited: number };
  readonly pin_cache: PinCache;
  readonly accounts: ActorCache<AccountActor>;
  readonly degraded: boolean;
  run<C extends AccountCommand>(actor: AccountActor, command: C, now_us?: number, random?: RandomSource): CommandOutcome<C>;
  next_id(name: string): number;
  next_ids(name: string, count: number): number;
  next_key_id(effects: CommandEffects<AccountActor>): number;
  index_key(actor: AccountActor, state: KeyState): void;
  unindex_key(actor: AccountActor, state: KeyState): void;
  funding_reference(environment: Environment, reference: string, owner: number | null, reader: Pick<Journal, 'read'>): { account_id: number; entry_id: number } | null;
  funding_credit(environment: Environment, provider: string, provider_reference: string, reader: Pick<Journal, 'read'>): { account_id: number; entry_id: number } | null;
  record_funding_reference(actor: AccountActor, environment: Environment, reference: string, entry: WalletEntry, owner?: number | null): void;
}

export class AccountActor {
  readonly wallets: Record<Environment, WalletRecord>;
  readonly keys = new Map<number, KeyState>();
  /** Orders still pending or processing, by reference (bounded by open_orders_max). */
  readonly open_orders: OpenOrders;
  /** Resolves when every change this actor has staged is durable; reads wait on it. */
  private pending: Promise<void> | null = null;
  /**
   * The failed commit after which the engine replaced this actor with one reloaded from the store
   * (Engine.reload_actor). Work that still holds this object across an await (a PIN check, a provider
   * call, a webhook attempt) must not stage through it: it would write back state that the failure
   * took away, beside the reloaded actor's. Staging then throws the failure, which the front end
   * answers 503 "nothing was changed".
   */
  private retired_by: JournalFailure | null = null;
  /**
   * The running command's effects while this account is in a command (execute, or enter_command for a
   * command across accounts): where stage_put, emit and append_entry put what the command does.
   */
  private running: CommandEffects<AccountActor> | null = null;
  /** Held by the engine's actor cache (engine/actor-cache.ts); false once let go. */
  resident = false;
  /** Used since the cache last looked at it: its second chance before being let go. */
  recent = false;

  constructor(
    readonly engine: ActorHost,
    public account: AccountRecord,
    live: WalletRecord,
    test: WalletRecord,
  ) {
    this.wallets = { live, test };
    this.open_orders = new OpenOrders(engine.counts, () => this.running);
  }

  get id(): number {
    return this.account.id;
  }

  /** Called by the engine when it replaces this actor after a failed commit (see retired_by). */
  retire(failure: JournalFailure): void {
    this.retired_by = failure;
    this.open_orders.detach();
  }

  get retired(): boolean {
    return this.retired_by !== null;
  }

  /** Throws the failure that retired this actor, if one did: nothing may be staged through it any more. */
  check_current(): void {
    if (this.retired_by !== null) throw this.retired_by;
  }

  // ---- Commands -----------------------------------------------------------------------------------

  /**
   * Runs one command (engine/account-command.ts) synchronously and returns its outcome, the changes it
   * made and the events it emitted, from the command's own effects (command-effects.ts), none of them in
   * the journal or the event sink yet: Engine.run stages and emits them, in the order the command made
   * them. A command that throws (a bug, or a retired actor: see retired_by) gives nothing to stage. No
   * command draws randomness yet (the order desk draws a purchase's references before placing it);
   * `random` is the one it would use.
   */
  execute<C extends AccountCommand>(command: C, now_us: number, random: RandomSource): Executed<CommandOutcome<C>, AccountActor> {
    const effects = new CommandEffects<AccountActor>(this.engine.journal, [this], now_us);
    // No retired check here: a command that changes nothing (a refusal, a stale verdict) still answers;
    // staging through a retired actor throws its failure (stage_put).
    this.begin(effects);
    try {
      return effects.finish(this.apply(command, now_us, random) as CommandOutcome<C>);
    } finally {
      this.running = null;
    }
  }

  /**
   * A command across accounts (Engine.run_across) hands each of its actors the command's effects, as
   * execute does for one. A retired actor throws its failure here, before the command changes anything.
   */
  enter_command(effects: CommandEffects<AccountActor>): void {
    if (this.retired_by !== null) throw this.retired_by;
    this.begin(effects);
  }

  leave_command(): void {
    this.running = null;
  }

  private begin(effects: CommandEffects<AccountActor>): void {
    if (this.running !== null) fail(`account ${this.id} is in a command already`);
    effects.enter(this);
    this.running = effects;
  }

  /** Whether this account is in a running command (Engine.emit refuses its events then: they belong to the command). */
  get in_command(): boolean {
    return this.running !== null;
  }

  /** The running command's effects: its reads (read-your-writes within the command) and the accounts it holds. */
  get effects(): CommandEffects<AccountActor> {
    const effects = this.running;
    if (effects === null) fail(`account ${this.id} reached its command's effects outside a command`);
    return effects;
  }

  /** An event of this account, in the running command's effects: the sink has it once Engine.run stages the command. */
  emit(environment: Environment, kind: EventKind, subject: EventSubject): void {
    const effects = this.running;
    if (effects === null) fail(`account ${this.id} emitted ${kind} outside a command`);
    effects.event(this, environment, kind, subject);
  }

  /** An agent's order command inside Engine.run_across (engine/agent-commands.ts agent_order), entered already. */
  apply_command(command: AccountCommand, now_us: number): CommandOutcomes[AccountCommand['kind']] {
    if (this.running === null) fail(`account ${this.id} applies a command it has not entered`);
    return this.apply(command, now_us, this.engine.random);
  }

  private apply(command: AccountCommand, now_us: number, _random: RandomSource): CommandOutcomes[AccountCommand['kind']] {
    switch (command.kind) {
      case 'open_account': return this.open_account(command.email);
      case 'credit': return command.funding === undefined
        ? this.credit(command.environment, command.amount_kobo, command.reference, command.description, now_us, command.scope)
        : this.credit_transfer(command.environment, command.amount_kobo, command.description, command.funding, now_us);
      case 'create_key': return this.create_key(command.input, now_us);
      case 'revoke_key': return this.revoke_key(command.key_id, now_us);
      case 'update_profile': return this.update_profile(command.patch);
      case 'set_pin': return this.set_pin(command.pin_hash);
      case 'set_password': return this.set_password(command.password_hash);
      case 'pin_verdict': return this.apply_pin_verdict(command.correct, command.generation, command.now_ms);
      case 'password_verdict': return this.apply_password_verdict(command.correct, command.now_ms);
      case 'set_low_balance_threshold': return set_low_balance_threshold(this, command.environment, command.threshold_kobo);
      case 'place_order': return place_order(this, command.input, command.placement, now_us);
      case 'purchase_now': return purchase_now(this, command.input, command.placement, command.answer, command.remember, now_us);
      case 'provider_result': return apply_provider_result(this, command.reference, command.result, now_us, command.not_found_is_final);
      case 'mark_processing': return mark_processing(this, command.order, now_us, command.provider_reference);
      case 'move_order_upstream': return move_order_upstream(this, command.order, command.refusal, command.upstream, command.request_id, now_us);
      case 'schedule_requery': return schedule_order_requery(this, command.order, command.next_requery_ms, command.needs_review);
      case 'resolve_order': return resolve_order(this, command.reference, command.outcome, now_us);
      case 'reverse_delivered_order': return reverse_delivered_order(this, command.environment, command.seq, command.reason, now_us);
      case 'close_reversal_check': return close_reversal_check(this, command.key);
      case 'escalate_order': return escalate_order(this, command.order, command.review_by_us, now_us);
      case 'cancel_order': return cancel_order(this, command.reference, now_us);
      case 'remember_answer': return stage_record(this, command.environment, command.key, command.record);
      case 'stage_records':
        for (const { db, key, value } of command.records) {
          if (value === undefined) this.stage_remove(db, key);
          else this.stage_put(db, key, value);
        }
        return;
    }
  }

  // ---- Journal plumbing -------------------------------------------------------------------------

  /**
   * Stages a change of this account, only ever inside a command (execute): the command's effects keep it,
   * and Engine.run stages it and marks the actor pending, so that reads wait for it. The order commands
   * (account-orders.ts), the engine's indexes and the idempotency records call it from their commands;
   * a layer above stages its own records beside the account with the stage_records command
   * (test/layers.test.ts checks that no module outside engine/ calls it).
   */
  stage_put(db: Parameters<ActorHost['journal']['put']>[1], key: Parameters<ActorHost['journal']['put']>[2], value: unknown): void {
    const effects = this.running;
    if (effects === null) fail(`account ${this.id} staged a change outside a command`);
    if (this.retired_by !== null) throw this.retired_by;
    effects.put(this.id, db, key, value);
  }

  stage_remove(db: Parameters<ActorHost['journal']['remove']>[1], key: Parameters<ActorHost['journal']['remove']>[2]): void {
    const effects = this.running;
    if (effects === null) fail(`account ${this.id} staged a change outside a command`);
    if (this.retired_by !== null) throw this.retired_by;
    effects.remove(this.id, db, key);
  }

  /** Called by Engine.run after it stages each of a command's changes of this account. */
  mark_pending(): void {
    // An actor let go while work still held it is taken back before it changes: the cache must hold
    // it until its changes are durable (engine/actor-cache.ts).
    if (!this.resident) this.engine.accounts.admit(this);
    const durable = this.engine.journal.durable();
    if (this.pending === durable) return;
    this.pending = durable;
    durable.then(
      () => {
        if (this.pending === durable) this.pending = null;
      },
      () => {
        if (this.pending === durable) this.pending = null;
      },
    );
  }

  /** Null when everything this actor has said is already durable (the common case: reply at once). */
  settled(): Promise<void> | null {
    return this.pending;
  }

  /**
   * settled() for a read of the account's state (wallet, entries, profile), counting the reads that
   * had to wait for a commit (billvend_reads_waited_total): webhook bookkeeping is not account state
   * and never makes a read wait (webhooks/dispatcher.ts stages it apart).
   */
  read_settled(): Promise<void> | null {
    if (this.pending !== null) this.engine.counts.reads_waited++;
    return this.pending;
  }

  private stage_account(): void {
    assert_account(this.account);
    this.stage_put(this.engine.store.accounts, this.id, this.account);
  }

  stage_wallet(environment: Environment): void {
    const wallet = this.wallets[environment];
    assert_wallet(wallet);
    this.stage_put(this.engine.store.wallets, [this.id, environment], wallet);
  }

  /**
   * A new account's record, email claim and wallets (Engine.create_account hands out its id first); an
   * agent's opening (engine/agent-commands.ts) stages the same inside its parent's command.
   */
  open_account(email: string): AccountRecord {
    this.stage_put(this.engine.store.accounts, this.id, this.account);
    this.stage_put(this.engine.store.account_emails, email, this.id);
    for (const environment of environments) this.stage_wallet(environment);
    return this.account;
  }

  // ---- Wallet -----------------------------------------------------------------------------------

  /**
   * Appends an entry to a wallet and moves its balance. The caller has checked that a debit is
   * covered; the assertion here is the second line of defence (a balance never goes below zero).
   */
  append_entry(environment: Environment, type: WalletEntryType, amount_kobo: number, reference: string, description: string, now_us: number, funding?: EntryFunding, counterparty_id?: number): WalletEntry {
    const wallet = this.wallets[environment];
    const before = wallet.balance_kobo;
    const after = is_outflow(type) ? before - amount_kobo : before + amount_kobo;
    const entry: WalletEntry = {
      id: wallet.entries_count + 1,
      type,
      amount_kobo,
      balance_before_kobo: before,
      balance_after_kobo: after,
      reference,
      description,
      created_us: now_us,
    };
    if (funding !== undefined) entry.funding = funding;
    if (counterparty_id !== undefined) entry.counterparty_id = counterparty_id;
    assert_entry(entry);
    wallet.entries_count = entry.id;
    wallet.balance_kobo = after;
    if (type === 'credit') wallet.credits_kobo += amount_kobo;
    else if (type === 'debit') wallet.debits_kobo += amount_kobo;
    else if (type === 'reversal') wallet.reversals_kobo += amount_kobo;
    else if (type === 'transfer_in') wallet.transfers_in_kobo = (wallet.transfers_in_kobo ?? 0) + amount_kobo;
    else if (type === 'transfer_out') wallet.transfers_out_kobo = (wallet.transfers_out_kobo ?? 0) + amount_kobo;
    else if (type === 'commission') wallet.commissions_in_kobo = (wallet.commissions_in_kobo ?? 0) + amount_kobo;
    else wallet.commissions_out_kobo = (wallet.commissions_out_kobo ?? 0) + amount_kobo;
    this.stage_put(this.engine.store.wallet_entries, [this.id, environment, entry.id], entry);
    this.stage_wallet(environment);
    this.effects.balance_moved(this, environment, after - before);
    return entry;
  }

  /**
   * Credits a wallet, idempotent by the funding reference. Operator credits and bank transfers hold a
   * reference for the whole environment ('environment'): another account's reference is refused.
   * Sandbox top-ups hold it for this account only ('account'): another account's reference is simply
   * a new top-up, so that the answer tells nothing about other tenants. Either way a reference this
   * account already used, under either kind of claim (claims made before sandbox references were
   * scoped are environment-wide), returns the first credit.
   */
  private credit(environment: Environment, amount_kobo: number, reference: string, description: string, now_us: number, scope: FundingScope = 'environment'): Outcome<{ entry: WalletEntry; created: boolean }> {
    if (amount_kobo <= 0) return refused({ refusal: 'amount_not_positive' });
    const claim = this.funding_claim(environment, reference, scope);
    if (claim === 'foreign') {
      return refused({ refusal: 'funding_reference_foreign' });
    }
    if (claim !== null) {
      const entry = this.effects.read(this.engine.store.wallet_entries, [this.id, environment, claim.entry_id]) as WalletEntry | undefined;
      if (entry === undefined) fail(`funding reference ${reference} points at a missing entry`);
      if (entry.amount_kobo !== amount_kobo) {
        return refused({ refusal: 'funding_reference_amount_differs' });
      }
      return ok({ entry, created: false });
    }
    const entry = this.append_entry(environment, 'credit', amount_kobo, reference, description, now_us);
    this.engine.record_funding_reference(this, environment, reference, entry, scope === 'account' ? this.id : null);
    this.emit(environment, 'wallet.credited', { entry });
    return ok({ entry, created: true });
  }

  /**
   * Credits a funding provider's transfer, exactly once for ever: the claim [environment, provider,
   * provider reference] is staged in this command beside the entry (docs/funding.md "Exactly once"), so a
   * repeat (a callback again, the reconciler, a resolve) finds it, staged or durable, and credits nothing.
   * Another account's claim of the same transfer is refused: a transfer funds one wallet.
   */
  private credit_transfer(environment: Environment, amount_kobo: number, description: string, funding: EntryFunding, now_us: number): Outcome<{ entry: WalletEntry; created: boolean }> {
    if (amount_kobo <= 0) return refused({ refusal: 'amount_not_positive' });
    const claim = this.engine.funding_credit(environment, funding.provider, funding.provider_reference, this.effects);
    if (claim !== null) {
      if (claim.account_id !== this.id) return refused({ refusal: 'funding_reference_foreign' });
      const entry = this.effects.read(this.engine.store.wallet_entries, [this.id, environment, claim.entry_id]) as WalletEntry | undefined;
      if (entry === undefined) fail(`funding credit ${funding.provider}/${funding.provider_reference} points at a missing entry`);
      return ok({ entry, created: false });
    }
    const entry = this.append_entry(environment, 'credit', amount_kobo, funding.provider_reference, description, now_us, funding);
    this.stage_put(this.engine.store.funding_credits, [environment, funding.provider, funding.provider_reference], { account_id: this.id, entry_id: entry.id });
    this.emit(environment, 'wallet.credited', { entry });
    return ok({ entry, created: true });
  }

  /** This account's earlier claim of a funding reference, 'foreign' when another account holds it for the environment. */
  private funding_claim(environment: Environment, reference: string, scope: FundingScope): { entry_id: number; owner: number | null } | 'foreign' | null {
    const shared = this.engine.funding_reference(environment, reference, null, this.effects);
    if (shared !== null && shared.account_id === this.id) return { entry_id: shared.entry_id, owner: null };
    const own = this.engine.funding_reference(environment, reference, this.id, this.effects);
    if (own !== null) {
      if (own.account_id !== this.id) fail(`account ${this.id}'s claim of ${reference} names account ${own.account_id}`);
      return { entry_id: own.entry_id, owner: this.id };
    }
    if (shared !== null && scope === 'environment') return 'foreign';
    return null;
  }

  /** Today's purchase spend in kobo and the day's limit (null: no limit applies). */
  daily_spend(environment: Environment, now_ms: number): { spent_kobo: number; limit_kobo: number } {
    const wallet = this.wallets[environment];
    const today = lagos_day(now_ms);
    const spent_kobo = wallet.spend_day === today ? wallet.spend_day_kobo : 0;
    const limit_kobo = this.account.daily_limit_kobo ?? kyc_daily_limit_kobo[this.account.kyc_level];
    return { spent_kobo, limit_kobo };
  }

  // ---- Keys -------------------------------------------------------------------------------------

  /**
   * Keys neither revoked nor expired: the ones listed and counted against active_keys_max. An expired
   * key answers 401 auth.key_expired and can never work again, so it takes no place (it may still be
   * revoked, to tidy up).
   */
  active_keys(now_ms: number = this.engine.clock.now_ms()): KeyState[] {
    const out: KeyState[] = [];
    for (const key of this.keys.values()) if (key_is_active(key.record, now_ms)) out.push(key);
    return out;
  }

  private create_key(input: NewKeyInput, now_us: number): Outcome<KeyRecord> {
    if (this.active_keys(Math.floor(now_us / 1000)).length >= active_keys_max) return refused({ refusal: 'keys_limit_reached' });
    const record: KeyRecord = {
      id: this.engine.next_key_id(this.effects),
      account_id: this.id,
      name: input.name,
      environment: input.environment,
      key_hash: input.key_hash,
      key_hint: input.key_hint,
      scopes: input.scopes,
      ip_allowlist: input.ip_allowlist,
      rate_limit_per_minute: input.rate_limit_per_minute,
      created_us: now_us,
      expires_ms: input.expires_ms,
      last_used_us: null,
      revoked_us: null,
    };
    const state = new KeyState(record);
    this.keys.set(record.id, state);
    this.stage_put(this.engine.store.keys, record.id, record);
    this.engine.index_key(this, state);
    return ok(record);
  }

  /** Every key not yet revoked, revoked now (an agent closed: engine/agent-commands.ts); inside a command. */
  revoke_every_key(now_us: number): number {
    let revoked = 0;
    for (const state of this.keys.values()) {
      if (state.record.revoked_us !== null) continue;
      this.revoke_key(state.record.id, now_us);
      revoked++;
    }
    return revoked;
  }

  /** Replaces the account record (engine/agent-commands.ts: its open agents counted, closed); inside a command. */
  replace_account(next: AccountRecord): void {
    if (next.id !== this.id) fail(`account ${this.id} replaced by the record of ${next.id}`);
    this.account = next;
    this.stage_account();
  }

  /** Revocation is immediate and irreversible (docs/spec.md section 3): the key leaves the index at once. */
  private revoke_key(key_id: number, now_us: number): Outcome<KeyRecord> {
    const state = this.keys.get(key_id);
    if (state === undefined || state.record.revoked_us !== null) return refused({ refusal: 'key_not_found' });
    state.record = { ...state.record, revoked_us: now_us };
    this.stage_put(this.engine.store.keys, key_id, state.record);
    this.engine.unindex_key(this, state);
    return ok(state.record);
  }

  /**
   * Persists last_used_at at most once a minute per key: a write per request would double the
   * journal's work. It is bookkeeping, not an answer: the request that touches a key does not wait
   * for it to be durable, and while the store refuses writes (disk full) it stays in memory only, so
   * that reads go on answering.
   */
  touch_key(state: KeyState, now_us: number): void {
    if (now_us - state.last_used_persisted_us < 60_000_000 || this.engine.degraded || this.retired_by !== null) {
      state.record.last_used_us = now_us;
      return;
    }
    state.last_used_persisted_us = now_us;
    state.record = { ...state.record, last_used_us: now_us };
    assert_key(state.record);
    this.engine.journal.put(this.id, this.engine.store.keys, state.record.id, state.record);
  }

  // ---- Profile, PIN -----------------------------------------------------------------------------

  private update_profile(patch: CommandFields['update_profile']['patch']): Outcome<AccountRecord> {
    if (this.account.status === 'closed') return refused({ refusal: 'agent_closed' });
    const next = { ...this.account };
    if (patch.status !== undefined) next.status = patch.status;
    if (patch.kyc_level !== undefined) next.kyc_level = patch.kyc_level;
    if (patch.tier !== undefined) next.tier = patch.tier;
    if (patch.daily_limit_kobo !== undefined) next.daily_limit_kobo = patch.daily_limit_kobo;
    if (patch.price_rules !== undefined) next.price_rules = patch.price_rules;
    this.account = next;
    this.stage_account();
    return ok(next);
  }

  private set_pin(pin_hash: string): Outcome<AccountRecord> {
    // Every change to a closed agent is refused (docs/decisions.md "Agents"), a PIN set by the operator too.
    if (this.account.status === 'closed') return refused({ refusal: 'agent_closed' });
    this.account = {
      ...this.account,
      pin_hash,
      pin_generation: this.account.pin_generation + 1,
      pin_failures: 0,
      pin_locked_until_ms: 0,
    };
    const id = this.id;
    const cache = this.engine.pin_cache;
    this.effects.afterwards(() => cache.forget(id));
    this.stage_account();
    return ok(this.account);
  }

  /** Milliseconds sign-in stays locked after repeated wrong passwords, or 0. */
  password_lock_remaining_ms(now_ms: number): number {
    return Math.max(0, this.account.password_locked_until_ms - now_ms);
  }

  /**
   * Applies a password verdict computed outside the actor (scrypt), for a signed-in session that
   * confirms its password (setting the PIN): 5 consecutive wrong passwords lock that for 15 minutes
   * (scaled by TIME_SCALE); a correct one resets the count. Sign-in does not use this lock, which
   * anyone could set: it locks by address instead (SignInGuard, src/dashboard/sessions.ts).
   */
  private apply_password_verdict(correct: boolean, now_ms: number): 'ok' | Refusal {
    const locked_ms = this.password_lock_remaining_ms(now_ms);
    if (locked_ms > 0) return { refusal: 'password_locked', remaining_ms: locked_ms };
    if (correct) {
      if (this.account.password_failures !== 0) {
        this.account = { ...this.account, password_failures: 0 };
        this.stage_account();
      }
      return 'ok';
    }
    const failures = this.account.password_failures + 1;
    const locked_until = failures >= password_failures_max ? now_ms + this.engine.wheel.scaled(password_lock_ms) : 0;
    this.account = { ...this.account, password_failures: locked_until > 0 ? 0 : failures, password_locked_until_ms: locked_until };
    this.stage_account();
    if (locked_until > 0) return { refusal: 'password_locked', remaining_ms: locked_until - now_ms };
    return { refusal: 'password_incorrect' };
  }

  private set_password(password_hash: string): void {
    this.account = { ...this.account, password_hash, password_failures: 0, password_locked_until_ms: 0 };
    this.stage_account();
  }

  /** Milliseconds the PIN stays locked, or 0. */
  pin_lock_remaining_ms(now_ms: number): number {
    return Math.max(0, this.account.pin_locked_until_ms - now_ms);
  }

  /**
   * What a PIN verdict computed outside the actor (scrypt runs on the thread pool) comes to, read only: a
   * refusal (no PIN set, locked), 'stale' (made against an older PIN generation: compute it again), 'ok'
   * (correct, and no failed attempt to reset: applying it changes nothing), or 'changes' (the pin_verdict
   * command must apply it: a count reset or a wrong PIN counted). The caller runs the command only for
   * 'changes', so a purchase with a correct PIN runs no command for it (one Engine.run per state change).
   */
  judge_pin_verdict(correct: boolean, generation: number, now_ms: number): 'ok' | 'stale' | 'changes' | Refusal {
    if (this.account.pin_hash === null) return { refusal: 'pin_not_set' };
    const locked_ms = this.pin_lock_remaining_ms(now_ms);
    if (locked_ms > 0) return { refusal: 'pin_locked', remaining_ms: locked_ms };
    if (generation !== this.account.pin_generation) return 'stale';
    return correct && this.account.pin_failures === 0 ? 'ok' : 'changes';
  }

  /** Applies a PIN verdict (judge_pin_verdict): a correct one resets the failed attempts, a wrong one counts. */
  private apply_pin_verdict(correct: boolean, generation: number, now_ms: number): 'ok' | 'stale' | Refusal {
    const judged = this.judge_pin_verdict(correct, generation, now_ms);
    if (judged !== 'changes') return judged;
    if (correct) {
      this.account = { ...this.account, pin_failures: 0 };
      this.stage_account();
      return 'ok';
    }
    const failures = this.account.pin_failures + 1;
    // 5 consecutive wrong PINs lock purchases for 30 minutes, across both environments (docs/decisions.md).
    const locked_until = failures >= pin_failures_max ? now_ms + this.engine.wheel.scaled(pin_lock_ms) : 0;
    this.account = { ...this.account, pin_failures: locked_until > 0 ? 0 : failures, pin_locked_until_ms: locked_until };
    this.stage_account();
    if (locked_until > 0) return { refusal: 'pin_locked', remaining_ms: locked_until - now_ms };
    return { refusal: 'pin_incorrect', attempts_left: pin_failures_max - failures };
  }
}
