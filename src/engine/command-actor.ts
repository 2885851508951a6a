// An account's actor as its commands see it (engine/account-actor.ts implements it): the functions that run
// inside a command (the order commands, the low-balance check, the idempotency records, the order index, the
// client-reference claims, the authority's checks, the commands across accounts) read the account, stage
// its changes and emit its events through this, read what is staged through the running command's effects
// (command-effects.ts), and reach the engine through ActorEngine. Declared below all of them, so that the
// actor can call them and they can take the actor without either importing the other (test/layers.test.ts).
import type { Journal } from '../journal/journal.js';
import type { Store } from '../journal/store.js';
import type { CommandEffects } from './command-effects.js';
import type { SecretBox } from '../lib/secrets.js';
import type { TimerWheel } from '../lib/timer-wheel.js';
import type { AccountRecord, EntryFunding, Environment, WalletEntry, WalletEntryType, WalletRecord } from './records.js';
import type { EventKind, EventSubject } from './engine-events.js';
import type { OpenOrders } from './open-orders.js';
import type { KeyState } from './key-state.js';

/**
 * The engine (engine/engine.ts) as a command reaches it through its actor. No journal: a command reads
 * what is staged through its effects (CommandActor.effects), which see its own changes first.
 */
export interface ActorEngine {
  readonly store: Store;
  readonly secret_box: SecretBox;
  readonly wheel: TimerWheel;
  readonly accounts: {
    get(id: number): CommandActor | undefined;
    peek(id: number): CommandActor | undefined;
  };
  account_record(id: number): AccountRecord | undefined;
}

/** The account actor (engine/account-actor.ts) as a command's functions read and change it. */
export interface CommandActor {
  readonly id: number;
  readonly engine: ActorEngine;
  account: AccountRecord;
  readonly wallets: Record<Environment, WalletRecord>;
  readonly open_orders: OpenOrders;
  readonly keys: ReadonlyMap<number, KeyState>;
  readonly retired: boolean;
  /** The running command's effects (command-effects.ts): its reads, and the accounts it holds. Throws outside a command. */
  readonly effects: CommandEffects<CommandActor>;
  /** An event of this account, in the running command's effects at the command's now. Throws outside a command. */
  emit(environment: Environment, kind: EventKind, subject: EventSubject): void;
  stage_put(db: Parameters<Journal['put']>[1], key: Parameters<Journal['put']>[2], value: unknown): void;
  stage_remove(db: Parameters<Journal['remove']>[1], key: Parameters<Journal['remove']>[2]): void;
  stage_wallet(environment: Environment): void;
  append_entry(environment: Environment, type: WalletEntryType, amount_kobo: number, reference: string, description: string, now_us: number, funding?: EntryFunding, counterparty_id?: number): WalletEntry;
  settled(): Promise<void> | null;
  daily_spend(environment: Environment, now_ms: number): { spent_kobo: number; limit_kobo: number };
  open_account(email: string): AccountRecord;
  revoke_every_key(now_us: number): number;
  replace_account(next: AccountRecord): void;
}
