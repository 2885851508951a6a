// The engine owns the account actors, the indexes that span accounts (API key hashes, emails,
// funding references), the id counters, and recovery from the store. Requests reach an actor
// through it; it never changes an account's state itself.
import type { Logger } from 'pino';
import type { Clock } from '../lib/clock.js';
import type { TimerWheel } from '../lib/timer-wheel.js';
import type { SecretBox } from '../lib/secrets.js';
import type { Store } from '../journal/store.js';
import { Journal, type JournalFailure, type JournalObserver } from '../journal/journal.js';
import type { FreeSpace } from '../journal/disk-guard.js';
import { AccountActor, KeyState, failed, ok, type Outcome } from './account-actor.js';
import { PinCache } from './pin-cache.js';
import {
  assert_account,
  assert_key,
  assert_wallet,
  environments,
  new_wallet,
  type AccountRecord,
  type Environment,
  type KeyRecord,
  type WalletEntry,
  type WalletRecord,
} from './records.js';
import { api_error } from '../errors.js';
import { fail } from '../lib/assert.js';

export interface NewAccountInput {
  name: string;
  email: string;
  phone: string;
  tier: string;
  kyc_level: number;
  password_hash: string;
  pin_hash: string | null;
}

interface FundingRef {
  account_id: number;
  entry_id: number;
}

/** Where a funding reference's claim is stored: see Engine.funding_reference. */
function funding_key(environment: Environment, reference: string, owner: number | null): (string | number)[] {
  return owner === null ? [environment, reference] : [environment, reference, owner];
}

export type EventKind =
  | 'transaction.completed'
  | 'transaction.failed'
  | 'transaction.processing'
  | 'wallet.credited'
  | 'wallet.debited'
  | 'wallet.reversed'
  | 'wallet.low_balance'
  /** A product's availability changed (docs/api.md "Service status"); subscribed to explicitly. */
  | 'service.status_changed'
  /** Every item of a bulk order is final (docs/api.md "Bulk orders"). */
  | 'batch.completed';

/** What a service.status_changed event is about: a product's availability (services/upstreams/router.ts). */
export interface ProductStatusSubject {
  product: string;
  service_type: string;
  status: 'available' | 'degraded' | 'unavailable';
  retry_after_s: number | null;
}

/** Receives every event in the command that causes it, so it can stage it in the same commit. */
export interface EventSink {
  emit(actor: AccountActor, environment: Environment, kind: EventKind, subject: { entry?: WalletEntry; order?: import('../services/order.js').OrderRecord; threshold_kobo?: number; status?: ProductStatusSubject; batch?: import('../services/bulk/batch-records.js').BatchRecord }): void;
}

/** Hooks for the parts built on the engine (orders, webhooks): recovery and reloads call them. */
export interface EngineExtension {
  /** After every account is loaded, before traffic. */
  recover?(engine: Engine): void;
  /** After an account was reloaded from the store following a failed commit. */
  reloaded?(actor: AccountActor): void;
}

export class Engine {
  readonly accounts = new Map<number, AccountActor>();
  readonly key_index = new Map<string, KeyState>();
  private readonly email_index = new Map<string, number>();
  /** Funding references staged but maybe not yet committed; the store answers for the rest. */
  private readonly staged_funding = new Map<string, { ref: FundingRef; entry: WalletEntry }>();
  readonly pin_cache = new PinCache();
  readonly journal: Journal;
  readonly extensions: EngineExtension[] = [];
  /** Where events go; the webhook outbox (src/webhooks/) plugs in here. */
  event_sink: EventSink | null = null;
  private next_account = 1;
  private next_key = 1;
  /** Other id counters (webhook endpoints, deliveries), read from the store on first use. */
  private readonly counters = new Map<string, number>();
  /** True after a failed commit until a probe write succeeds: writes answer 503 meanwhile. */
  degraded = false;
  ready = false;

  constructor(
    readonly store: Store,
    readonly clock: Clock,
    readonly wheel: TimerWheel,
    readonly secret_box: SecretBox,
    readonly log: Logger,
    observer: JournalObserver,
    space?: FreeSpace,
  ) {
    this.journal = new Journal(
      observer,
      (failure) => this.on_journal_failure(failure),
      (error) => {
        // A write LMDB failed (I/O error, a disk that filled despite the guard) or a failed fsync
        // leaves lmdb-js unusable; LMDB keeps the last commit on disk intact, so a restart recovers.
        log.fatal({ err: error }, 'the store failed a write; exiting so that recovery starts from the last commit on disk');
        process.exit(70);
      },
      space,
    );
  }

  /** The disk guard's verdict: below the reserve, writes are refused until space is back. */
  store_space_changed(low: boolean): void {
    if (low) {
      this.log.error('the store\'s disk is nearly full: refusing writes (503) until space is freed');
      this.degraded = true;
    } else {
      this.log.warn('the store\'s disk has room again');
      this.schedule_probe();
    }
  }

  // ---- Recovery ---------------------------------------------------------------------------------

  /** Loads every account, wallet and key from the store and checks each record as it is read. */
  recover(): void {
    const started = performance.now();
    this.next_account = (this.store.meta.get('next_account_id') as number | undefined) ?? 1;
    this.next_key = (this.store.meta.get('next_key_id') as number | undefined) ?? 1;
    const wallets = new Map<string, WalletRecord>();
    for (const { value } of this.store.wallets.getRange({})) {
      const wallet = value as WalletRecord;
      assert_wallet(wallet);
      wallets.set(`${wallet.account_id}:${wallet.environment}`, wallet);
    }
    for (const { value } of this.store.accounts.getRange({})) {
      const account = value as AccountRecord;
      this.load_actor(account, wallets.get(`${account.id}:live`), wallets.get(`${account.id}:test`));
    }
    for (const { value } of this.store.keys.getRange({})) {
      const record = value as KeyRecord;
      assert_key(record);
      const actor = this.accounts.get(record.account_id);
      if (actor === undefined) fail(`key ${record.id} belongs to missing account ${record.account_id}`);
      if (record.id >= this.next_key) fail(`key id ${record.id} not below the counter ${this.next_key}`);
      const state = new KeyState(record);
      actor.keys.set(record.id, state);
      if (record.revoked_us === null) this.index_key(state);
    }
    for (const extension of this.extensions) extension.recover?.(this);
    this.log.info({ accounts: this.accounts.size, keys: this.key_index.size, duration_ms: Math.round(performance.now() - started) }, 'recovered');
  }

  private load_actor(account: AccountRecord, live: WalletRecord | undefined, test: WalletRecord | undefined): AccountActor {
    assert_account(account);
    if (live === undefined || test === undefined) fail(`account ${account.id} lacks a wallet`);
    if (account.id >= this.next_account) fail(`account id ${account.id} not below the counter ${this.next_account}`);
    const actor = new AccountActor(this, account, live, test);
    this.accounts.set(account.id, actor);
    this.email_index.set(account.email.toLowerCase(), account.id);
    return actor;
  }

  /**
   * A commit failed, so nothing of it (nor of what was staged after it) reached the disk. Each
   * touched account is reloaded from the store, which holds exactly what was committed; writes are
   * refused with 503 until a probe commit succeeds.
   */
  private on_journal_failure(failure: JournalFailure): void {
    this.log.error({ err: failure.cause_error, accounts: failure.touched_accounts.size }, 'journal commit failed; reloading the accounts it touched');
    this.degraded = true;
    this.staged_funding.clear();
    this.counters.clear();
    this.next_account = (this.store.meta.get('next_account_id') as number | undefined) ?? 1;
    this.next_key = (this.store.meta.get('next_key_id') as number | undefined) ?? 1;
    for (const id of failure.touched_accounts) this.reload_actor(id, failure);
    this.schedule_probe();
  }

  private reload_actor(id: number, failure: JournalFailure): void {
    const old = this.accounts.get(id);
    const key_ids = old === undefined ? [] : [...old.keys.keys()];
    if (old !== undefined) {
      old.retire(failure);
      for (const key of old.keys.values()) this.unindex_key(key);
      this.email_index.delete(old.account.email.toLowerCase());
      this.accounts.delete(id);
    }
    const account = this.store.accounts.get(id) as AccountRecord | undefined;
    if (account === undefined) return; // created in the lost commit
    const actor = this.load_actor(account, this.store.wallets.get([id, 'live']), this.store.wallets.get([id, 'test']));
    // Keys are only ever created by their actor, so the old actor knew every key the store may hold.
    for (const key_id of key_ids) {
      const record = this.store.keys.get(key_id) as KeyRecord | undefined;
      if (record === undefined) continue;
      const state = new KeyState(record);
      actor.keys.set(record.id, state);
      if (record.revoked_us === null) this.index_key(state);
    }
    for (const extension of this.extensions) extension.reloaded?.(actor);
  }

  private probe_scheduled = false;

  private schedule_probe(): void {
    if (this.probe_scheduled) return;
    this.probe_scheduled = true;
    this.wheel.schedule(1000 / this.wheel.time_scale, () => {
      this.probe_scheduled = false;
      this.journal.put(0, this.store.meta, 'probe_ms', this.clock.now_ms());
      this.journal.durable().then(
        () => {
          this.degraded = false;
          this.log.info('journal writes again; leaving degraded mode');
        },
        () => {},
      );
    });
  }

  emit(actor: AccountActor, environment: Environment, kind: EventKind, subject: Parameters<EventSink['emit']>[3]): void {
    this.event_sink?.emit(actor, environment, kind, subject);
  }

  // ---- Indexes and counters ---------------------------------------------------------------------

  index_key(state: KeyState): void {
    this.key_index.set(state.record.key_hash, state);
  }

  unindex_key(state: KeyState): void {
    if (this.key_index.get(state.record.key_hash) === state) this.key_index.delete(state.record.key_hash);
  }

  /** The next value of a named id counter, staged in the same batch as whatever uses it. */
  next_id(name: string): number {
    return this.next_ids(name, 1);
  }

  /** Takes count consecutive ids of a counter at once (one counter write); returns the first. */
  next_ids(name: string, count: number): number {
    const current = this.counters.get(name) ?? ((this.store.meta.get(`next_${name}`) as number | undefined) ?? 1);
    this.counters.set(name, current + count);
    this.journal.put(0, this.store.meta, `next_${name}`, current + count);
    return current;
  }

  next_key_id(): number {
    const id = this.next_key++;
    this.journal.put(0, this.store.meta, 'next_key_id', this.next_key);
    return id;
  }

  /**
   * A funding reference's claim. Operator credits and bank transfers claim a reference for the whole
   * environment, stored under [environment, reference]; sandbox top-ups claim it for one account only,
   * under [environment, reference, account_id], so that another account's reference is no oracle.
   */
  funding_reference(environment: Environment, reference: string, owner: number | null = null): FundingRef | null {
    const key = funding_key(environment, reference, owner);
    const staged = this.staged_funding.get(JSON.stringify(key));
    if (staged !== undefined) return staged.ref;
    return (this.store.funding_refs.get(key) as FundingRef | undefined) ?? null;
  }

  staged_funding_entry(environment: Environment, reference: string, owner: number | null = null): WalletEntry | undefined {
    return this.staged_funding.get(JSON.stringify(funding_key(environment, reference, owner)))?.entry;
  }

  record_funding_reference(actor: AccountActor, environment: Environment, reference: string, entry: WalletEntry, owner: number | null = null): void {
    if (owner !== null && owner !== actor.id) fail('an account-scoped funding reference is claimed for its own account');
    const ref: FundingRef = { account_id: actor.id, entry_id: entry.id };
    const store_key = funding_key(environment, reference, owner);
    const key = JSON.stringify(store_key);
    this.staged_funding.set(key, { ref, entry });
    actor.stage_put(this.store.funding_refs, store_key, ref);
    // Once durable the store answers; the staged map only bridges the gap until then.
    this.journal.durable().then(() => this.staged_funding.delete(key), () => {});
  }

  // ---- Accounts ---------------------------------------------------------------------------------

  account_by_email(email: string): AccountActor | undefined {
    const id = this.email_index.get(email.toLowerCase());
    return id === undefined ? undefined : this.accounts.get(id);
  }

  create_account(input: NewAccountInput): Outcome<AccountActor> {
    if (this.email_index.has(input.email.toLowerCase())) return failed(api_error('account.email_taken'));
    const id = this.next_account++;
    this.journal.put(0, this.store.meta, 'next_account_id', this.next_account);
    const account: AccountRecord = {
      id,
      name: input.name,
      email: input.email,
      phone: input.phone,
      tier: input.tier,
      kyc_level: input.kyc_level,
      daily_limit_kobo: null,
      created_us: this.clock.now_us(),
      password_hash: input.password_hash,
      pin_hash: input.pin_hash,
      pin_generation: input.pin_hash === null ? 0 : 1,
      pin_failures: 0,
      pin_locked_until_ms: 0,
      password_failures: 0,
      password_locked_until_ms: 0,
    };
    const actor = this.load_actor(account, new_wallet(id, 'live'), new_wallet(id, 'test'));
    actor.stage_put(this.store.accounts, id, account);
    for (const environment of environments) actor.stage_wallet(environment);
    return ok(actor);
  }
}
