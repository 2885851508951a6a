// The commands of an account (docs/style.md "Shape of the code"): everything that changes an account's
// state is one of these, run by Engine.run(actor, command). AccountActor.execute(command, now_us, random)
// is synchronous and returns the command's outcome (a value or a Refusal, never an HTTP error), the
// changes to stage and the events to emit, collected in the command's own effects (command-effects.ts);
// Engine.run then stages the changes in the journal and hands the events to the event sink, interleaved
// exactly as the command made them. What must be awaited (a PIN's scrypt, a recipient's verification, a
// provider's answer) is done before, by the caller, and comes in as data: a verdict, a provider result.
import type { Database } from 'lmdb';
import type { Key } from '../journal/store.js';
import type { AccountRecord, AgentPriceRule, EntryFunding, Environment, IdempotencyRecord, KeyRecord, Scope, WalletEntry } from './records.js';
import type { AccountStatus } from './records.js';
import type { OrderPlacement, OrderRequest } from './account-orders.js';
import type { OrderRecord, ProviderResult } from './order-record.js';
import type { Outcome, Refusal } from './refusal.js';

/** Who a funding reference is unique for: the environment (operator, bank) or one account (sandbox). */
export type FundingScope = 'environment' | 'account';

export interface NewKeyInput {
  name: string;
  environment: Environment;
  scopes: Scope[];
  ip_allowlist: string[];
  rate_limit_per_minute: number;
  expires_ms: number | null;
  key_hash: string;
  key_hint: string;
}

/** Each command's fields, by kind. */
export interface CommandFields {
  /** Stages a new account's record, email claim and wallets (Engine.create_account). */
  open_account: { email: string };
  /** A credit, idempotent by its funding reference (AccountActor.credit). */
  credit: { environment: Environment; amount_kobo: number; reference: string; description: string; scope?: FundingScope; funding?: EntryFunding };
  create_key: { input: NewKeyInput };
  revoke_key: { key_id: number };
  /** status: an agent suspended or reactivated by an account above it (front/routes/agent-routes.ts); closing is close_agent's. */
  update_profile: { patch: { kyc_level?: number; tier?: string; daily_limit_kobo?: number | null; status?: Exclude<AccountStatus, 'closed'>; price_rules?: AgentPriceRule[] } };
  set_pin: { pin_hash: string };
  set_password: { password_hash: string };
  /**
   * A PIN verdict computed outside (scrypt on the thread pool). now_ms is the caller's wall-clock
   * reading, as the locks have always been measured (Clock.now_ms), not derived from now_us.
   */
  pin_verdict: { correct: boolean; generation: number; now_ms: number };
  password_verdict: { correct: boolean; now_ms: number };
  set_low_balance_threshold: { environment: Environment; threshold_kobo: number | null };
  /** Debits and places an order, pending until its provider answers (a provider_result of its own). */
  place_order: { input: OrderRequest; placement: OrderPlacement };
  /**
   * A purchase whose provider answers in the same turn (the sandbox): the debit and the order, the
   * provider's answer, and the idempotency record of the reply, in one command and one record
   * (account-orders.ts purchase_now). answer and remember are the desk's, given the order as placed and as
   * answered: they read it and change nothing of the account.
   */
  purchase_now: { input: OrderRequest; placement: OrderPlacement; answer: (placed: OrderRecord) => ProviderResult; remember: ((answered: OrderRecord) => IdempotencyRecord) | null };
  /** A provider's answer to an open order. */
  provider_result: { reference: string; result: ProviderResult; not_found_is_final: boolean };
  mark_processing: { order: OrderRecord; provider_reference: string | null };
  move_order_upstream: { order: OrderRecord; refusal: 'failed' | 'refused'; upstream: string; request_id: string };
  schedule_requery: { order: OrderRecord; next_requery_ms: number; needs_review: boolean };
  resolve_order: { reference: string; outcome: 'delivered' | 'failed' };
  /** The upstream reversed a delivered order (read from the upstream, never from a callback's body): refunded once. */
  reverse_delivered_order: { environment: Environment; seq: number; reason: string };
  /** A delivered order's 24 h re-query is done (engine/account-orders.ts close_reversal_check). */
  close_reversal_check: { key: [number, string] };
  /** An open order past its promised time without an answer: to review, with transaction.delayed. */
  escalate_order: { order: OrderRecord; review_by_us: number };
  /** A bulk item not yet sent, cancelled by the reseller: failed and refunded in this command. */
  cancel_order: { reference: string };
  /** The idempotency record of an answer, staged with the change it answers for (engine/idempotency.ts). */
  remember_answer: { environment: Environment; key: string; record: IdempotencyRecord };
  /**
   * Records a layer above keeps beside the account (webhook endpoints, events, their deliveries and
   * the events feed, bulk orders, dashboard sessions), each checked by its owner before: staged as
   * the account's, so that its reads wait for them and a failed commit reloads the account without them.
   */
  stage_records: { records: readonly RecordChange[] };
}

/** One record of a layer above the engine: put (value) or removed (value undefined). */
export interface RecordChange {
  db: Database<any, any>;
  key: Key;
  value: unknown;
}

/** What each command gives back. */
export interface CommandOutcomes {
  open_account: AccountRecord;
  credit: Outcome<{ entry: WalletEntry; created: boolean }>;
  create_key: Outcome<KeyRecord>;
  revoke_key: Outcome<KeyRecord>;
  update_profile: Outcome<AccountRecord>;
  set_pin: Outcome<AccountRecord>;
  set_password: void;
  /** 'stale': the verdict was made against an older PIN; compute it again. */
  pin_verdict: 'ok' | 'stale' | Refusal;
  password_verdict: 'ok' | Refusal;
  set_low_balance_threshold: void;
  place_order: Outcome<OrderRecord>;
  /** The order as placed and as the provider's answer left it. */
  purchase_now: Outcome<{ placed: OrderRecord; answered: OrderRecord }>;
  /** The order as it now stands; null when no open order has the reference (a late answer). */
  provider_result: OrderRecord | null;
  mark_processing: OrderRecord;
  move_order_upstream: OrderRecord;
  schedule_requery: OrderRecord;
  resolve_order: Outcome<OrderRecord>;
  /** The reversed order; null when it was not delivered (open, failed, or reversed already). */
  reverse_delivered_order: OrderRecord | null;
  close_reversal_check: void;
  escalate_order: OrderRecord;
  cancel_order: Outcome<OrderRecord>;
  remember_answer: void;
  stage_records: void;
}

export type CommandKind = keyof CommandFields;
export type AccountCommand = { [K in CommandKind]: { kind: K } & CommandFields[K] }[CommandKind];
export type CommandOutcome<C extends AccountCommand> = CommandOutcomes[C['kind']];
