// What the store holds (journal/store.ts names the databases). Amounts are integer kobo, times are
// epoch microseconds (_us) or milliseconds (_ms). Each record is checked before it is written and
// after it is read back (assert_* below): a failed check is a bug and crashes the process.
import { assert_kobo } from '../lib/money.js';
import { fail } from '../lib/assert.js';

export type Environment = 'live' | 'test';
export const environments: readonly Environment[] = ['live', 'test'];

export const scopes = ['*', 'wallet:read', 'services:purchase', 'transactions:read', 'keys:manage', 'account:manage'] as const;
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
}

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
}

export type WalletEntryType = 'credit' | 'debit' | 'reversal';

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
  if (wallet.balance_kobo !== wallet.credits_kobo - wallet.debits_kobo + wallet.reversals_kobo) {
    fail(`wallet ${wallet.account_id}/${wallet.environment} balance ${wallet.balance_kobo} != credits - debits + reversals`);
  }
  if (wallet.spend_day_kobo < 0) fail(`wallet ${wallet.account_id}/${wallet.environment} daily spend is negative`);
  if (wallet.low_balance_threshold_kobo != null) assert_kobo(wallet.low_balance_threshold_kobo, 'low balance threshold');
}

export function assert_entry(entry: WalletEntry): void {
  assert_kobo(entry.amount_kobo, 'entry amount');
  if (entry.amount_kobo <= 0) fail(`wallet entry ${entry.id} amount is not positive`);
  const delta = entry.type === 'debit' ? -entry.amount_kobo : entry.amount_kobo;
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
