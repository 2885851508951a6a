// The engine owns the account actors, the indexes that span accounts (API key hashes, emails,
// funding references), the id counters, and recovery from the store. Requests reach an actor
// through it; it never changes an account's state itself.
import type { Logger } from 'pino';
import type { Clock } from '../lib/clock.js';
import type { RandomSource } from '../lib/random.js';
import type { TimerWheel } from '../lib/timer-wheel.js';
import type { SecretBox } from '../lib/secrets.js';
import type { Store } from '../journal/store.js';
import { Journal, type JournalFailure, type JournalObserver } from '../journal/journal.js';
import type { FreeSpace } from '../journal/disk-guard.js';
import { AccountActor, rate_window_ms } from './account-actor.js';
import { KeyState } from './key-state.js';
import type { EventKind, EventSubject } from './engine-events.js';

export type { EventKind, BatchSubject, ProductStatusSubject, EventSubject } from './engine-events.js';
import { ok, refused, type Outcome } from './refusal.js';
import type { AccountCommand, CommandOutcome, RecordChange } from './account-command.js';
import type { AccountChange } from '../journal/journal.js';
import { CommandEffects, type Executed } from './command-effects.js';
import { execute_across, type CrossCommand, type CrossOutcome } from './agent-commands.js';
import { ActorCache } from './actor-cache.js';
import { PinCache } from './pin-cache.js';
import { WalletTotals } from './wallet-totals.js';
import {
  assert_account,
  assert_key,
  assert_wallet,
  new_wallet,
  type AccountRecord,
  type Environment,
  type KeyRecord,
  type WalletEntry,
  type WalletRecord,
} from './records.js';
import { fail } from '../lib/assert.js';

export interface NewAccountInput {
  name: string;
  email: string;
  phone: string;
  tier: string;
  kyc_level: number;
  password_hash: string;
  pin_hash: string | null;
  /** An agent's parent (docs/decisions.md "Agents"): opened under it in one command across both accounts. */
  parent_id?: number;
  daily_limit_kobo?: number | null;
}

/** What reads staged changes: the journal, or inside a command its effects (command-effects.ts), which see the command's own first. */
type StagedReader = Pick<Journal, 'read'>;

interface FundingRef {
  account_id: number;
  entry_id: number;
}

/** Where a funding reference's claim is stored: see Engine.funding_reference. */
function funding_key(environment: Environment, reference: string, owner: number | null): (string | number)[] {
  return owner === null ? [environment, reference] : [environment, reference, owner];
}

/**
 * Stages the records an event adds (its feed entry, its webhook deliveries) in the group of the command
 * that emitted it, beside the account's own changes: one commit, no command of its own.
 */
export type StageEventRecords = (records: readonly RecordChange[]) => void;

/** Receives every event in the command that causes it, so it can stage its records in the same commit. */
export interface EventSink {
  /**
   * now_us: when the event happened, read once from the engine's clock; the sink reads no clock of its own.
   * stage: where the event's records go (StageEventRecords); the sink runs no command.
   */
  emit(actor: AccountActor, environment: Environment, kind: EventKind, subject: EventSubject, now_us: number, stage: StageEventRecords): void;
}

/** Hooks for the parts built on the engine (orders, webhooks): recovery and reloads call them. */
export interface EngineExtension {
  /**
   * At start, before traffic. Accounts are built from the store on first use (engine/actor-cache.ts):
   * an extension that keeps state in actors (open orders) loads the accounts it needs, and those stay
   * in memory while they hold that state (Engine.evictable). State an extension keeps apart from the
   * actors (the webhook endpoints, webhooks/endpoint-registry.ts) does not hold an actor in memory.
   */
  recover?(engine: Engine): void;
  /** After an account was reloaded from the store following a failed commit. */
  reloaded?(actor: AccountActor): void;
  /**
   * After a failed commit that created the account: the store never had it, and no actor replaces the
   * one let go. What an extension keeps of the account apart from its actor is read again (none is left).
   */
  vanished?(account_id: number): void;
  /** The engine was fenced (Engine.fence): stop every effect outside the process at once. */
  fenced?(): void;
}

/** The order commands that may debit or refund: an agent's run over it and its ancestors (Engine.run). */
const commission_commands: ReadonlySet<AccountCommand['kind']> = new Set(['place_order', 'purchase_now', 'provider_result', 'resolve_order', 'reverse_delivered_order', 'cancel_order']);

/** Version of the lookup databases (account_emails, key_hashes, account_keys): a change rebuilds them at start. */
export const lookup_index_version = 1;

export class Engine {
  /** Account actors in memory, built from the store on first use and let go when idle (actor-cache.ts). */
  readonly accounts = new ActorCache<AccountActor>({
    load: (id) => this.load_stored(id),
    evictable: (actor, now_ms) => this.evictable(actor, now_ms),
    now_ms: () => this.clock.now_ms(),
    admitted: (actor) => this.actor_admitted(actor),
    released: (actor) => this.actor_released(actor),
  });
  /** Keys of resident actors by hash: the hot path of authentication; the store's key_hashes answers for the rest. */
  private readonly resident_keys = new Map<string, KeyState>();
  /** Counts kept as they change, for the metrics gauges (no walk over accounts). */
  readonly counts = { open_orders: 0, api_keys_active: 0, reads_waited: 0 };
  readonly pin_cache = new PinCache();
  readonly journal: Journal;
  /** Every wallet's balance summed per environment, for /metrics (engine/wallet-totals.ts); scanned once started. */
  readonly wallet_totals: WalletTotals;
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
  /**
   * Set once the journal refused a batch (cluster mode: this node was deposed). Its store may hold
   * batches the cluster never took, so nothing acts on it any more: no timer fires, no webhook
   * leaves; the process is about to exit and come back as a standby.
   */
  fenced = false;

  constructor(
    readonly store: Store,
    readonly clock: Clock,
    readonly random: RandomSource,
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
      (failure) => this.fence(failure.message),
    );
    // Written by every purchase of an account (its wallet) and by every event (the delivery id counter).
    this.journal.coalesce(store.wallets, store.meta);
    this.wallet_totals = new WalletTotals(store.wallets, this.journal, (figures) => {
      log.info({ wallets: figures.wallets, slices: figures.slices, duration_ms: Math.round(figures.duration_ms), longest_slice_ms: Math.round(figures.longest_slice_ms * 10) / 10 }, 'wallet totals scanned');
    });
  }

  /**
   * Starts the scan behind the wallet totals (engine/wallet-totals.ts), in slices on later turns. The
   * server calls it once recovered, before it serves; a test of the engine alone need not.
   */
  start_wallet_totals(slice_max?: number): void {
    this.wallet_totals.start(this.next_account, slice_max);
  }

  /**
   * Stops every effect of this process on the world: the timer wheel (re-queries, webhook retries
   * and sweeps, expiries) and each extension (the dispatcher drops what it holds). Called when the
   * journal refuses a batch and when the cluster deposes this node, whichever comes first: the accounts
   * in memory still hold what the refused batches staged (a delivery, a bulk item in its send lane), and
   * acting on it would announce or pay for a change the next leader does not have (docs/cluster.md
   * "A deposed leader's local tail").
   */
  fence(reason: string): void {
    if (this.fenced) return;
    this.fenced = true;
    this.log.error({ reason }, 'engine fenced: no timer, webhook or re-query runs from now on');
    this.wheel.stop();
    for (const extension of this.extensions) extension.fenced?.();
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

  /**
   * Reads the counters and lets the extensions resume their work. No account is read here: each is
   * built from the store, and its records checked, when first used (load_stored), so the time to
   * ready does not grow with the accounts (docs/benchmarks.md "Scale").
   */
  recover(): void {
    const started = performance.now();
    const indexed = ensure_lookup_indexes(this.store);
    if (indexed > 0) this.log.info({ records: indexed }, 'account lookup indexes built');
    this.next_account = (this.store.meta.get('next_account_id') as number | undefined) ?? 1;
    this.next_key = (this.store.meta.get('next_key_id') as number | undefined) ?? 1;
    this.counts.api_keys_active = (this.store.meta.get('api_keys_active') as number | undefined) ?? 0;
    for (const extension of this.extensions) extension.recover?.(this);
    this.log.info({ accounts: this.next_account - 1, resident: this.accounts.size, duration_ms: Math.round(performance.now() - started) }, 'recovered');
  }

  /** Builds an account's actor from the store (wallets, keys), checking each record as it is read. */
  private load_stored(id: number): AccountActor | undefined {
    const account = this.store.accounts.get(id) as AccountRecord | undefined;
    if (account === undefined) return undefined;
    const actor = this.build_actor(account, this.store.wallets.get([id, 'live']), this.store.wallets.get([id, 'test']));
    for (const { key } of this.store.account_keys.getRange({ start: [id], end: [id + 1] })) {
      const key_id = (key as [number, number])[1];
      const record = this.store.keys.get(key_id) as KeyRecord | undefined;
      if (record === undefined) fail(`account ${id} lists missing key ${key_id}`);
      assert_key(record);
      if (record.account_id !== id) fail(`key ${record.id} listed under account ${id} belongs to ${record.account_id}`);
      if (record.id >= this.next_key) fail(`key id ${record.id} not below the counter ${this.next_key}`);
      actor.keys.set(record.id, new KeyState(record));
    }
    return actor;
  }

  private build_actor(account: AccountRecord, live: WalletRecord | undefined, test: WalletRecord | undefined): AccountActor {
    assert_account(account);
    if (live === undefined || test === undefined) fail(`account ${account.id} lacks a wallet`);
    assert_wallet(live);
    assert_wallet(test);
    if (account.id >= this.next_account) fail(`account id ${account.id} not below the counter ${this.next_account}`);
    return new AccountActor(this, account, live, test);
  }

  /**
   * Whether an actor holds nothing that only memory knows, so that it may be let go and built again
   * from the store: no change staged but not yet durable, no open order (the order desk's re-queries
   * and timers work on them), no rate-limit window still open (its count would start again). Its PIN
   * and password locks are in its account record, which is stored with every change; its webhook
   * endpoints are held by the webhooks layer (webhooks/endpoint-registry.ts), not by the actor.
   */
  evictable(actor: AccountActor, now_ms: number): boolean {
    if (actor.retired || actor.settled() !== null || actor.open_orders.size > 0) return false;
    for (const key of actor.keys.values()) if (now_ms - key.window_start_ms < rate_window_ms) return false;
    return true;
  }

  /** Called by the cache when an actor becomes resident or stops being so: its keys join or leave resident_keys. */
  actor_admitted(actor: AccountActor): void {
    for (const key of actor.keys.values()) if (key.record.revoked_us === null) this.resident_keys.set(key.record.key_hash, key);
  }

  actor_released(actor: AccountActor): void {
    for (const key of actor.keys.values()) if (this.resident_keys.get(key.record.key_hash) === key) this.resident_keys.delete(key.record.key_hash);
  }

  /**
   * A commit failed, so nothing of it (nor of what was staged after it) reached the disk. Each
   * touched account is reloaded from the store, which holds exactly what was committed; writes are
   * refused with 503 until a probe commit succeeds.
   */
  private on_journal_failure(failure: JournalFailure): void {
    this.log.error({ err: failure.cause_error, accounts: failure.touched_accounts.size }, 'journal commit failed; reloading the accounts it touched');
    this.degraded = true;
    this.counters.clear();
    this.next_account = (this.store.meta.get('next_account_id') as number | undefined) ?? 1;
    this.next_key = (this.store.meta.get('next_key_id') as number | undefined) ?? 1;
    this.counts.api_keys_active = (this.store.meta.get('api_keys_active') as number | undefined) ?? 0;
    for (const id of failure.touched_accounts) this.reload_actor(id, failure);
    // The scan may have read wallets as staged in the refused batches: the totals start over from the
    // store, which holds exactly what was committed (engine/wallet-totals.ts).
    if (this.wallet_totals.started) this.wallet_totals.start(this.next_account);
    this.schedule_probe();
  }

  private reload_actor(id: number, failure: JournalFailure): void {
    const old = this.accounts.peek(id);
    if (old !== undefined) {
      old.retire(failure);
      this.actor_released(old);
      this.accounts.forget(id);
    }
    // The store holds exactly what was committed: the account's keys (account_keys) included.
    const actor = this.accounts.get(id);
    if (actor === undefined) {
      // Created in the lost commit.
      for (const extension of this.extensions) extension.vanished?.(id);
      return;
    }
    for (const extension of this.extensions) extension.reloaded?.(actor);
  }

  private probe_scheduled = false;

  private schedule_probe(): void {
    if (this.probe_scheduled) return;
    this.probe_scheduled = true;
    this.wheel.schedule_wall(1000, () => {
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

  // ---- Commands ---------------------------------------------------------------------------------

  /**
   * True while a command runs (run, run_across). Not the command's state, which its effects hold
   * (command-effects.ts): only the guard that commands never nest, one running to its end before the next.
   */
  private command_running = false;

  /**
   * The one way an account's state changes: the actor executes the command (synchronously, staging
   * nothing itself) and returns its effects, then its changes are staged in the journal and its events
   * handed to the sink, interleaved as the command made them, so the batch holds exactly what it held
   * when commands staged and emitted as they went. The actor is marked pending at each of its changes,
   * so that its reads wait for the commit. Returns the command's outcome.
   */
  run<C extends AccountCommand>(actor: AccountActor, command: C, now_us: number = this.clock.now_us(), random: RandomSource = this.random): CommandOutcome<C> {
    // An agent's debit or refund moves its ancestors' commissions too (docs/decisions.md "Commissions down
    // the tree"): the same command, run over the agent and its ancestors, in one record. An account at the
    // top takes the single-account path, as it always did.
    if (actor.account.parent_id !== undefined && commission_commands.has(command.kind)) {
      return this.run_across([actor, ...this.ancestors_of(actor)], { kind: 'agent_order', command }, now_us) as CommandOutcome<C>;
    }
    this.begin_command();
    let executed: Executed<CommandOutcome<C>, AccountActor>;
    try {
      executed = actor.execute(command, now_us, random);
    } finally {
      this.command_running = false;
    }
    this.stage_executed([actor], executed);
    return executed.outcome;
  }

  /**
   * A command over several accounts (engine/agent-commands.ts: an agent opened under its parent, a
   * transfer, an agent closed with its balances swept back): every actor is loaded by the caller first
   * (engine.accounts.get), the command runs synchronously over all of them with one collector of its
   * effects, and its changes, every account's, with its events' records, are staged as one journal group
   * (Journal.begin_group): one commit, one stream append in cluster mode, or none. Each actor is marked
   * pending on that commit, so every account's reads and the reply wait for it; a failed commit reloads
   * every account it touched (on_journal_failure). A retired actor (replaced after a failed commit while
   * the caller awaited) throws its failure before anything changes, which the front end answers 503
   * "nothing was changed".
   */
  run_across<C extends CrossCommand>(actors: readonly AccountActor[], command: C, now_us: number = this.clock.now_us()): CrossOutcome<C> {
    for (let i = 0; i < actors.length; i++) {
      for (let j = 0; j < i; j++) if (actors[i].id === actors[j].id) fail(`account ${actors[i].id} given twice to one command`);
    }
    this.begin_command();
    const effects = new CommandEffects<AccountActor>(this.journal, actors, now_us);
    let entered = 0;
    let executed: Executed<CrossOutcome<C>, AccountActor>;
    try {
      for (const actor of actors) {
        actor.enter_command(effects);
        entered++;
      }
      executed = effects.finish(execute_across(effects, command));
    } finally {
      for (let i = 0; i < entered; i++) actors[i].leave_command();
      this.command_running = false;
    }
    this.stage_executed(actors, executed);
    return executed.outcome;
  }

  private begin_command(): void {
    if (this.command_running) fail('an account command ran inside another one');
    this.command_running = true;
  }

  /** The actors of the accounts above an agent, nearest first, loaded (built from the store if need be). */
  ancestors_of(actor: AccountActor): AccountActor[] {
    const ancestors: AccountActor[] = [];
    for (let id = actor.account.parent_id; id !== undefined;) {
      const ancestor = this.accounts.get(id);
      if (ancestor === undefined) fail(`account ${actor.id} names a missing ancestor ${id}`);
      ancestors.push(ancestor);
      id = ancestor.account.parent_id;
    }
    return ancestors;
  }

  /**
   * Stages an executed command's changes and hands its events to the sink, as one journal group: each
   * event's records (StageEventRecords) go in after the changes the command made before it.
   */
  private stage_executed(actors: readonly AccountActor[], { changes, events, moved, afterwards }: Executed<unknown, AccountActor>): void {
    this.journal.begin_group();
    try {
      let staged = 0;
      for (const event of events) {
        this.stage_changes(actors, changes, staged, event.after_changes);
        staged = event.after_changes;
        const sink = this.event_sink;
        if (sink !== null) sink.emit(event.actor, event.environment, event.kind, event.subject, event.now_us, (records) => this.stage_event_records(event.actor, records));
      }
      this.stage_changes(actors, changes, staged, changes.length);
    } finally {
      this.journal.end_group();
    }
    for (const change of afterwards) change();
    // After staging: durable() is now the promise of the batch that holds the command's wallet writes.
    for (const [actor, delta] of moved) {
      if (delta.live !== 0 || delta.test !== 0) this.wallet_totals.moved(actor.id, delta.live, delta.test, this.journal.durable());
    }
  }

  private stage_changes(actors: readonly AccountActor[], changes: readonly AccountChange[], from: number, to: number): void {
    this.journal.stage_changes(changes, from, to);
    // Once per actor, after the range: the newest batch's durability covers any earlier one the range filled.
    for (const actor of actors) {
      for (let i = from; i < to; i++) {
        if (changes[i].account_id === actor.id) {
          actor.mark_pending();
          break;
        }
      }
    }
  }

  /**
   * An event of an account outside any command (a product's status): to the sink at once. A command's
   * events are its own (AccountActor.emit), handed to the sink by run after the changes made before them.
   */
  emit(actor: AccountActor, environment: Environment, kind: EventKind, subject: Parameters<EventSink['emit']>[3]): void {
    if (actor.in_command) fail(`an event of account ${actor.id} emitted beside its running command, not in it`);
    const sink = this.event_sink;
    if (sink === null) return;
    this.journal.begin_group();
    try {
      sink.emit(actor, environment, kind, subject, this.clock.now_us(), (records) => this.stage_event_records(actor, records));
    } finally {
      this.journal.end_group();
    }
  }

  /**
   * Stages records of an account's event beside its changes (StageEventRecords), never inside a running
   * command (its effects are staged when it returns), and marks the actor pending so that its reads wait
   * for them. A retired actor throws its failure, as staging through it in a command would.
   */
  stage_event_records(actor: AccountActor, records: readonly RecordChange[]): void {
    if (actor.in_command) fail(`records of account ${actor.id}'s event staged while its command runs`);
    actor.check_current();
    if (records.length === 0) return;
    for (const { db, key, value } of records) {
      if (value === undefined) this.journal.remove(actor.id, db, key);
      else this.journal.put(actor.id, db, key, value);
    }
    actor.mark_pending();
  }

  // ---- Indexes and counters ---------------------------------------------------------------------

  /**
   * The key with this SHA-256 hash, neither revoked nor unknown, its account's actor built from the
   * store if need be (front/auth.ts). Resident actors' keys answer from memory.
   */
  key_by_hash(key_hash: string): KeyState | undefined {
    const resident = this.resident_keys.get(key_hash);
    if (resident !== undefined) {
      this.accounts.get(resident.record.account_id);
      return resident;
    }
    const found = this.store.key_hashes.get(key_hash) as [number, number] | undefined;
    if (found === undefined) return undefined;
    const actor = this.accounts.get(found[0]);
    if (actor === undefined) fail(`key ${found[1]} indexed without its account ${found[0]}`);
    const state = actor.keys.get(found[1]);
    if (state === undefined || state.record.key_hash !== key_hash || state.record.revoked_us !== null) return undefined;
    return state;
  }

  /**
   * A new key: findable by its hash and listed under its account, in the same commit as its record; in
   * memory once the command is staged (CommandEffects.afterwards).
   */
  index_key(actor: AccountActor, state: KeyState): void {
    actor.stage_put(this.store.key_hashes, state.record.key_hash, [actor.id, state.record.id]);
    actor.stage_put(this.store.account_keys, [actor.id, state.record.id], true);
    this.count_active_keys(actor.effects, +1);
    actor.effects.afterwards(() => this.resident_keys.set(state.record.key_hash, state));
  }

  /** A revoked key leaves the hash lookup as soon as its command is staged; it stays listed under its account. */
  unindex_key(actor: AccountActor, state: KeyState): void {
    actor.stage_remove(this.store.key_hashes, state.record.key_hash);
    this.count_active_keys(actor.effects, -1);
    actor.effects.afterwards(() => {
      if (this.resident_keys.get(state.record.key_hash) === state) this.resident_keys.delete(state.record.key_hash);
    });
  }

  /**
   * The count of active keys, staged with the command that changes it (a key created or revoked; an agent
   * closed revokes several in one command): counted on from what the command staged before, and in
   * memory for /metrics once it is staged.
   */
  private count_active_keys(effects: CommandEffects<AccountActor>, delta: number): void {
    const count = ((effects.read(this.store.meta, 'api_keys_active') as number | undefined) ?? 0) + delta;
    effects.put(0, this.store.meta, 'api_keys_active', count);
    effects.afterwards(() => {
      this.counts.api_keys_active = count;
    });
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

  /**
   * A new key's id, taken in the command that creates the key (AccountActor.create_key) and staged with it;
   * the engine's counter moves once the command is staged (a command that throws takes no id).
   */
  next_key_id(effects: CommandEffects<AccountActor>): number {
    const id = (effects.read(this.store.meta, 'next_key_id') as number | undefined) ?? this.next_key;
    effects.put(0, this.store.meta, 'next_key_id', id + 1);
    effects.afterwards(() => {
      this.next_key = id + 1;
    });
    return id;
  }

  /**
   * A funding reference's claim. Operator credits and bank transfers claim a reference for the whole
   * environment, stored under [environment, reference]; sandbox top-ups claim it for one account only,
   * under [environment, reference, account_id], so that another account's reference is no oracle.
   */
  funding_reference(environment: Environment, reference: string, owner: number | null = null, reader: StagedReader = this.journal): FundingRef | null {
    // Through the journal (inside a command, through its effects): a reference claimed in a commit not yet
    // durable is claimed already.
    return (reader.read(this.store.funding_refs, funding_key(environment, reference, owner)) as FundingRef | undefined) ?? null;
  }

  /**
   * Who a provider's transfer was credited to, staged or durable (AccountActor.credit_transfer reads it
   * through its command's effects; the funding service through the journal); null: never.
   */
  funding_credit(environment: Environment, provider: string, provider_reference: string, reader: StagedReader = this.journal): FundingRef | null {
    return (reader.read(this.store.funding_credits, [environment, provider, provider_reference]) as FundingRef | undefined) ?? null;
  }

  record_funding_reference(actor: AccountActor, environment: Environment, reference: string, entry: WalletEntry, owner: number | null = null): void {
    if (owner !== null && owner !== actor.id) fail('an account-scoped funding reference is claimed for its own account');
    const ref: FundingRef = { account_id: actor.id, entry_id: entry.id };
    actor.stage_put(this.store.funding_refs, funding_key(environment, reference, owner), ref);
  }

  // ---- Accounts ---------------------------------------------------------------------------------

  /** Accounts created, committed or staged (ids are handed out in order from 1, never deleted). */
  account_count(): number {
    return this.next_account - 1;
  }

  /** An account's record as it stands, from its actor when in memory, else from the store (no actor is built). */
  account_record(id: number): AccountRecord | undefined {
    return this.accounts.peek(id)?.account ?? (this.store.accounts.get(id) as AccountRecord | undefined);
  }

  /** The account with this email (any case), from account_emails as staged (the journal answers for accounts not yet durable). */
  private account_id_by_email(lower: string): number | undefined {
    return this.journal.read(this.store.account_emails, lower) as number | undefined;
  }

  account_by_email(email: string): AccountActor | undefined {
    const id = this.account_id_by_email(email.toLowerCase());
    return id === undefined ? undefined : this.accounts.get(id);
  }

  create_account(input: NewAccountInput): Outcome<AccountActor> {
    const email = input.email.toLowerCase();
    if (this.account_id_by_email(email) !== undefined) return refused({ refusal: 'email_taken' });
    const id = this.next_account++;
    this.journal.put(0, this.store.meta, 'next_account_id', this.next_account);
    const account: AccountRecord = {
      id,
      name: input.name,
      email: input.email,
      phone: input.phone,
      tier: input.tier,
      kyc_level: input.kyc_level,
      daily_limit_kobo: input.daily_limit_kobo ?? null,
      created_us: this.clock.now_us(),
      password_hash: input.password_hash,
      pin_hash: input.pin_hash,
      pin_generation: input.pin_hash === null ? 0 : 1,
      pin_failures: 0,
      pin_locked_until_ms: 0,
      password_failures: 0,
      password_locked_until_ms: 0,
    };
    if (input.parent_id !== undefined) {
      account.parent_id = input.parent_id;
      account.status = 'active';
    }
    const actor = this.build_actor(account, new_wallet(id, 'live'), new_wallet(id, 'test'));
    this.accounts.admit(actor);
    if (input.parent_id === undefined) this.run(actor, { kind: 'open_account', email });
    else {
      const parent = this.accounts.get(input.parent_id);
      if (parent === undefined) fail(`agent ${id} opened under a missing parent ${input.parent_id}`);
      this.run_across([parent, actor], { kind: 'open_agent', email });
    }
    return ok(actor);
  }
}

/**
 * The lookup databases that let an account be found without holding every account in memory:
 * account_emails (lower-case email → account id, dashboard sign-in and uniqueness), key_hashes
 * (SHA-256 of an unrevoked key → [account id, key id], authentication) and account_keys
 * ([account id, key id], an account's keys when its actor is built). The engine writes them with the
 * records they index; a store written before they existed gets them built here, once, at start.
 * Returns the records indexed (0 when they were current).
 */
export function ensure_lookup_indexes(store: Store): number {
  if (store.meta.get('lookup_index_version') === lookup_index_version) return 0;
  let count = 0;
  store.root.transactionSync(() => {
    store.account_emails.clearSync();
    store.key_hashes.clearSync();
    store.account_keys.clearSync();
    for (const { value } of store.accounts.getRange({})) {
      const account = value as AccountRecord;
      store.account_emails.putSync(account.email.toLowerCase(), account.id);
      count++;
    }
    let active = 0;
    for (const { value } of store.keys.getRange({})) {
      const record = value as KeyRecord;
      store.account_keys.putSync([record.account_id, record.id], true);
      if (record.revoked_us === null) {
        store.key_hashes.putSync(record.key_hash, [record.account_id, record.id]);
        active++;
      }
      count++;
    }
    store.meta.putSync('api_keys_active', active);
    store.meta.putSync('lookup_index_version', lookup_index_version);
  });
  return count;
}
