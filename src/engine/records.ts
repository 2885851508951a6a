// What the store holds (journal/store.ts names the databases). Amounts are integer kobo, times are
// epoch microseconds (_us) or milliseconds (_ms). Each record is checked before it is written and
// after it is read back (assert_* below): a failed check is a bug and crashes the process.
import { assert_kobo } from '../lib/money.js';
import { fail } from '../lib/assert.js';

export type Environment = 'live' | 'test';
export const environments: readonly Environment[] = ['live', 'test'];

export const scopes = ['*', 'wallet:read', 'services:purchase', 'transactions:read', 'keys:manage', 'account:manage', 'agents:manage'] as const;
export type Scope = (typeof scopes)[number];

export interface AccountRecord {
  id: number;
  name: string;
  email: string;
  phone: string;
  tier: string;
  kyc_level: number;
  /** Operator-set daily limit replacing the KYC level's (docs/decisions.md), or null. */
  daily_limit_kobo: number | null;
  created_us: number;
  password_hash: string;
  pin_hash: string | null;
  /** Bumped on every PIN change, so a verification made against an old PIN is not trusted. */
  pin_generation: number;
  pin_failures: number;
  pin_locked_until_ms: number;
  password_failures: number;
  password_locked_until_ms: number;
  /**
   * The account's parent when it is an agent (docs/decisions.md "Agents"): absent for a reseller the
   * operator created, and in every account written before agents existed. Always a lower id (a parent
   * exists before its agents), so the parent chain has no cycle by construction; at most 2 links
   * (reseller → super-agent → agent, engine/agent-tree.ts agent_depth_max).
   */
  parent_id?: number;
  /** active (absent: written before agents existed), suspended by an account above it, or closed for good. */
  status?: AccountStatus;
  /** Agents opened under this account and not closed (absent: none); an account with open agents cannot be closed. */
  agents_open?: number;
  /**
   * An agent's price list, set by its parent (PUT /v1/agents/{id}/pricing, docs/api.md "Agent pricing"):
   * the operator's tier rule shapes (services/pricing.ts), never above the parent's rate when set. Absent:
   * no rules, 0 bp on every product. Only an agent's is read; a reseller's rates are its tier's.
   */
  price_rules?: AgentPriceRule[];
}

/** One rule of an agent's price list: the shape of the operator's tier rules (services/pricing.ts PriceRule). */
export interface AgentPriceRule {
  service_type: string;
  network: string | null;
  disco: string | null;
  provider: string | null;
  rate_bp: number;
}

export const account_statuses = ['active', 'suspended', 'closed'] as const;
export type AccountStatus = (typeof account_statuses)[number];

export interface WalletRecord {
  account_id: number;
  environment: Environment;
  balance_kobo: number;
  bonus_kobo: number;
  /** Number of wallet entries; entry ids are 1..entries_count. */
  entries_count: number;
  /** Number of service orders; order sequence numbers are 1..orders_count. */
  orders_count: number;
  credits_kobo: number;
  debits_kobo: number;
  reversals_kobo: number;
  /** Africa/Lagos day (days since epoch) that spend_day_kobo counts. */
  spend_day: number;
  spend_day_kobo: number;
  /** PATCH /v1/account low_balance_threshold (engine/low-balance.ts); absent in wallets written before: none. */
  low_balance_threshold_kobo?: number | null;
  /**
   * Money moved in from and out to other accounts of the tree (transfer_in / transfer_out entries,
   * docs/decisions.md "Agents"); absent in wallets written before: 0. Kept apart from credits and debits,
   * so that credits stay what was funded and debits what was bought.
   */
  transfers_in_kobo?: number;
  transfers_out_kobo?: number;
  /**
   * An ancestor's earnings on its agents' purchases (commission entries) and their reversals on a refund
   * (commission_reversal entries, docs/decisions.md "Commissions down the tree"); absent: 0.
   */
  commissions_in_kobo?: number;
  commissions_out_kobo?: number;
}

export type WalletEntryType = 'credit' | 'debit' | 'reversal' | 'transfer_in' | 'transfer_out' | 'commission' | 'commission_reversal';
export const wallet_entry_types: readonly WalletEntryType[] = ['credit', 'debit', 'reversal', 'transfer_in', 'transfer_out', 'commission', 'commission_reversal'];

/** Whether an entry takes money out of its wallet. */
export function is_outflow(type: WalletEntryType): boolean {
  return type === 'debit' || type === 'transfer_out' || type === 'commission_reversal';
}

/** Whether an entry names another account (counterparty_id): a transfer's other side, or the agent whose order earned a commission. */
export function names_counterparty(type: WalletEntryType): boolean {
  return type === 'transfer_in' || type === 'transfer_out' || type === 'commission' || type === 'commission_reversal';
}

/** What a credit from a funding provider's transfer carries (docs/funding.md "How a credit lands"). */
export interface EntryFunding {
  /** The configured provider's name (FUNDING_PROVIDERS), or "sandbox". */
  provider: string;
  /** The provider's unique id of the transfer: the credit's key, for ever. */
  provider_reference: string;
  amount_paid_kobo: number;
  fee_kobo: number;
  settlement_kobo: number;
}

export interface WalletEntry {
  id: number;
  type: WalletEntryType;
  amount_kobo: number;
  balance_before_kobo: number;
  balance_after_kobo: number;
  reference: string;
  description: string;
  created_us: number;
  /** Present on a credit from a funding provider's transfer; absent on every other entry. */
  funding?: EntryFunding;
  /**
   * A transfer_in or transfer_out entry: the other account of the transfer (its entry has this one's id
   * here); a commission or commission_reversal entry: the agent whose order it was.
   */
  counterparty_id?: number;
}

/**
 * A transfer between a parent and its agent (engine/agent-commands.ts), stored under [environment, parent id,
 * reference]: the reference is the parent's, claimed for ever. A sweep is the transfer that closed the agent.
 */
export interface TransferRecord {
  reference: string;
  environment: Environment;
  kind: 'transfer' | 'sweep';
  parent_id: number;
  agent_id: number;
  direction: 'to_agent' | 'from_agent';
  amount_kobo: number;
  parent_entry_id: number;
  agent_entry_id: number;
  parent_balance_after_kobo: number;
  agent_balance_after_kobo: number;
  created_us: number;
}

export function assert_transfer(transfer: TransferRecord): void {
  assert_kobo(transfer.amount_kobo, 'transfer amount');
  if (transfer.amount_kobo <= 0) fail(`transfer ${transfer.reference} amount is not positive`);
  if (transfer.environment !== 'live' && transfer.environment !== 'test') fail(`transfer ${transfer.reference} environment`);
  if (transfer.direction !== 'to_agent' && transfer.direction !== 'from_agent') fail(`transfer ${transfer.reference} direction`);
  if (transfer.kind !== 'transfer' && transfer.kind !== 'sweep') fail(`transfer ${transfer.reference} kind`);
  if (!(transfer.parent_id >= 1 && transfer.parent_id < transfer.agent_id)) fail(`transfer ${transfer.reference}: the parent ${transfer.parent_id} is not an earlier account than the agent ${transfer.agent_id}`);
  if (!(transfer.parent_entry_id >= 1 && transfer.agent_entry_id >= 1)) fail(`transfer ${transfer.reference} entries`);
  assert_kobo(transfer.parent_balance_after_kobo, 'transfer parent balance');
  assert_kobo(transfer.agent_balance_after_kobo, 'transfer agent balance');
  if (transfer.parent_balance_after_kobo < 0 || transfer.agent_balance_after_kobo < 0) fail(`transfer ${transfer.reference} leaves a negative balance`);
}

export interface KeyRecord {
  id: number;
  account_id: number;
  name: string;
  environment: Environment;
  /** SHA-256 of the full key; the key itself is never stored. */
  key_hash: string;
  /** Prefix and last four characters, for people to recognise a key: bv_test_…a1B2. */
  key_hint: string;
  scopes: Scope[];
  ip_allowlist: string[];
  rate_limit_per_minute: number;
  created_us: number;
  expires_ms: number | null;
  last_used_us: number | null;
  revoked_us: number | null;
}

export interface IdempotencyRecord {
  /** Keyed digest of method, path and the request's fields (the PIN excluded). */
  fingerprint: string;
  status: number;
  /** The response body as sent; sealed when it carries a secret. */
  body: string;
  sealed: boolean;
  headers: [string, string][];
  created_ms: number;
  expires_ms: number;
  /** The order this key created, for GET /v1/transactions?idempotency_key= and for crash recovery. */
  reference: string | null;
  /** False while a purchase is still waiting for its first answer. */
  complete: boolean;
}

export function new_wallet(account_id: number, environment: Environment): WalletRecord {
  return {
    account_id,
    environment,
    balance_kobo: 0,
    bonus_kobo: 0,
    entries_count: 0,
    orders_count: 0,
    credits_kobo: 0,
    debits_kobo: 0,
    reversals_kobo: 0,
    spend_day: 0,
    spend_day_kobo: 0,
  };
}

/** Wallet invariants: integer kobo, never negative, and the running totals explain the balance. */
export function assert_wallet(wallet: WalletRecord): void {
  assert_kobo(wallet.balance_kobo, 'wallet balance');
  assert_kobo(wallet.credits_kobo, 'wallet credits');
  assert_kobo(wallet.debits_kobo, 'wallet debits');
  assert_kobo(wallet.reversals_kobo, 'wallet reversals');
  if (wallet.balance_kobo < 0) fail(`wallet ${wallet.account_id}/${wallet.environment} balance is negative`);
  const transfers_in = wallet.transfers_in_kobo ?? 0;
  const transfers_out = wallet.transfers_out_kobo ?? 0;
  assert_kobo(transfers_in, 'wallet transfers in');
  assert_kobo(transfers_out, 'wallet transfers out');
  if (transfers_in < 0 || transfers_out < 0) fail(`wallet ${wallet.account_id}/${wallet.environment} transfers are negative`);
  const commissions_in = wallet.commissions_in_kobo ?? 0;
  const commissions_out = wallet.commissions_out_kobo ?? 0;
  assert_kobo(commissions_in, 'wallet commissions in');
  assert_kobo(commissions_out, 'wallet commissions out');
  if (commissions_in < 0 || commissions_out < 0) fail(`wallet ${wallet.account_id}/${wallet.environment} commissions are negative`);
  if (wallet.balance_kobo !== wallet.credits_kobo - wallet.debits_kobo + wallet.reversals_kobo + transfers_in - transfers_out + commissions_in - commissions_out) {
    fail(`wallet ${wallet.account_id}/${wallet.environment} balance ${wallet.balance_kobo} != credits - debits + reversals + transfers in - transfers out + commissions in - out`);
  }
  if (wallet.spend_day_kobo < 0) fail(`wallet ${wallet.account_id}/${wallet.environment} daily spend is negative`);
  if (wallet.low_balance_threshold_kobo != null) assert_kobo(wallet.low_balance_threshold_kobo, 'low balance threshold');
}

export function assert_entry(entry: WalletEntry): void {
  assert_kobo(entry.amount_kobo, 'entry amount');
  if (entry.amount_kobo <= 0) fail(`wallet entry ${entry.id} amount is not positive`);
  if (!wallet_entry_types.includes(entry.type)) fail(`wallet entry ${entry.id} type ${entry.type}`);
  const delta = is_outflow(entry.type) ? -entry.amount_kobo : entry.amount_kobo;
  if (names_counterparty(entry.type) !== (entry.counterparty_id !== undefined)) fail(`wallet entry ${entry.id}: a transfer or a commission names its counterparty, and only they do`);
  if (entry.counterparty_id !== undefined && !(Number.isSafeInteger(entry.counterparty_id) && entry.counterparty_id >= 1)) fail(`wallet entry ${entry.id} counterparty`);
  if (entry.balance_after_kobo !== entry.balance_before_kobo + delta) fail(`wallet entry ${entry.id} does not add up`);
  if (entry.balance_after_kobo < 0) fail(`wallet entry ${entry.id} leaves a negative balance`);
  if (entry.funding !== undefined) {
    const f = entry.funding;
    assert_kobo(f.amount_paid_kobo, 'funding amount paid');
    assert_kobo(f.fee_kobo, 'funding fee');
    assert_kobo(f.settlement_kobo, 'funding settlement');
    if (entry.type !== 'credit') fail(`wallet entry ${entry.id} carries funding but is a ${entry.type}`);
    if (f.fee_kobo < 0 || f.settlement_kobo !== f.amount_paid_kobo - f.fee_kobo) fail(`wallet entry ${entry.id} funding does not add up`);
    // The operator bears the fee (the wallet gets what was paid) or the reseller does (what was paid less the fee).
    if (entry.amount_kobo !== f.amount_paid_kobo && entry.amount_kobo !== f.amount_paid_kobo - f.fee_kobo) fail(`wallet entry ${entry.id} amount is neither the amount paid nor it less the fee`);
  }
}

export function assert_account(account: AccountRecord): void {
  if (!Number.isSafeInteger(account.id) || account.id < 1) fail('account id');
  if (account.kyc_level < 0 || account.kyc_level > 3) fail(`account ${account.id} kyc level`);
  if (account.daily_limit_kobo !== null) assert_kobo(account.daily_limit_kobo, 'daily limit');
  if (account.pin_failures < 0) fail(`account ${account.id} pin failures`);
  if (account.parent_id !== undefined && !(Number.isSafeInteger(account.parent_id) && account.parent_id >= 1 && account.parent_id < account.id)) {
    fail(`account ${account.id} parent ${account.parent_id} is not an earlier account`);
  }
  if (account.status !== undefined && !account_statuses.includes(account.status)) fail(`account ${account.id} status ${account.status}`);
  if (account.agents_open !== undefined && !(Number.isSafeInteger(account.agents_open) && account.agents_open >= 0)) fail(`account ${account.id} open agents`);
  if (account.price_rules !== undefined) {
    if (account.parent_id === undefined) fail(`account ${account.id} holds an agent's price list but has no parent`);
    for (const rule of account.price_rules) {
      if (!(Number.isSafeInteger(rule.rate_bp) && rule.rate_bp >= 0 && rule.rate_bp < 10_000)) fail(`account ${account.id} price rule rate ${rule.rate_bp}`);
    }
  }
}

/** Key invariants: a positive id of an account, a SHA-256 hash (never the key), scopes, a positive rate limit. */
export function assert_key(key: KeyRecord): void {
  if (!Number.isSafeInteger(key.id) || key.id < 1) fail('key id');
  if (!Number.isSafeInteger(key.account_id) || key.account_id < 1) fail(`key ${key.id} account id`);
  if (!/^[0-9a-f]{64}$/.test(key.key_hash)) fail(`key ${key.id} is not stored as a SHA-256 hash`);
  if (key.environment !== 'live' && key.environment !== 'test') fail(`key ${key.id} environment`);
  if (!Array.isArray(key.scopes) || key.scopes.length === 0) fail(`key ${key.id} scopes`);
  if (!Number.isSafeInteger(key.rate_limit_per_minute) || key.rate_limit_per_minute < 1) fail(`key ${key.id} rate limit`);
  if (key.revoked_us !== null && key.revoked_us < key.created_us) fail(`key ${key.id} revoked before it was created`);
}

/** Idempotency record invariants: an HTTP status, a JSON body (sealed when it holds a secret), a lifetime. */
export function assert_idempotency_record(record: IdempotencyRecord): void {
  // An incomplete record (a purchase waiting for its first answer) holds status 0 until finish() completes it.
  if (record.complete ? !(Number.isInteger(record.status) && record.status >= 200 && record.status <= 599) : record.status !== 0) {
    fail(`idempotency record status ${record.status} (complete: ${record.complete})`);
  }
  if (!record.complete && record.reference === null) fail('an incomplete idempotency record names no order');
  if (typeof record.body !== 'string' || record.body.length === 0) fail('idempotency record body');
  if (typeof record.fingerprint !== 'string' || record.fingerprint.length === 0) fail('idempotency record fingerprint');
  if (!(record.expires_ms > record.created_ms)) fail('idempotency record expires before it is created');
  if (!record.sealed && record.body.charAt(0) !== '{') fail('idempotency record body is not JSON');
}
