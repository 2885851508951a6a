// What the funding core keeps (docs/funding.md), journaled like every other state so that kill -9 keeps
// it and cluster mode replicates it (journal/store.ts names the databases):
//   funding_accounts   [account, provider] → FundingAccountRecord: the account's dedicated accounts there
//   funding_numbers    [provider, account number] → account id: whose wallet a transfer funds
//   funding_kyc        account → FundingKycRecord: the BVN/NIN given, sealed, never shown again
//   funding_exceptions [provider, provider reference] → FundingExceptionRecord: not credited automatically
//   funding_credits    [environment, provider, provider reference] → the credit (engine: AccountActor.credit_transfer)
// Account rows and the number index change through the account's actor (stage_records), so reads of the
// account wait for them and a failed commit reloads the account without them; exceptions belong to no
// account (an unknown account is one reason for them) and go straight into the journal, as the catalog does.
import { fail } from '../../lib/assert.js';
import { assert_kobo } from '../../lib/money.js';

export type FundingRowStatus = 'active' | 'pending' | 'failed';

export interface FundingBankAccount {
  bank_name: string;
  account_number: string;
  account_name: string;
  status: 'active' | 'pending';
}

export interface FundingAccountRecord {
  account_id: number;
  /** The configured provider's name. */
  provider: string;
  kind: string;
  /** billvend's reference for this customer at the provider (the same on every attempt: a repeat is idempotent). */
  reference: string;
  status: FundingRowStatus;
  /** Why the last attempt failed, for the reseller and the operator; null unless failed. */
  error: string | null;
  accounts: FundingBankAccount[];
  /** Attempts that failed in a row: the background retry's backoff. */
  failures: number;
  updated_us: number;
}

export interface FundingKycRecord {
  /** SecretBox.seal of the 11 digits, or null when not given. */
  bvn_sealed: string | null;
  nin_sealed: string | null;
  updated_us: number;
}

export type FundingExceptionReason =
  | 'unknown_account'
  | 'amount_mismatch'
  | 'account_mismatch'
  | 'not_successful'
  | 'unknown_to_provider'
  | 'fee_exceeds_amount'
  /** Into a closed agent's dedicated account: its balances went back to its parent and nothing moves them again. */
  | 'account_closed';

export interface FundingExceptionRecord {
  id: number;
  provider: string;
  provider_reference: string;
  /** What the callback claimed was paid (the provider's own amount is in `verified`). */
  amount_kobo: number;
  reason: FundingExceptionReason;
  /** The account the transfer seems to be for, when one could be told. */
  account_id: number | null;
  /** The provider's own record of the transfer, when it gave one. */
  verified: { status: string; amount_paid_kobo: number; fee_kobo: number; settlement_kobo: number } | null;
  status: 'open' | 'credited' | 'rejected';
  created_us: number;
  resolved_us: number | null;
  /** The credit a resolve made: [account, wallet entry id]. */
  credited: { account_id: number; entry_id: number } | null;
}

export function assert_funding_account(row: FundingAccountRecord): void {
  if (!Number.isSafeInteger(row.account_id) || row.account_id < 1) fail('funding account row account id');
  if (typeof row.provider !== 'string' || row.provider === '') fail(`funding account row of ${row.account_id} names no provider`);
  if (row.status === 'failed' ? row.error === null : row.accounts.length === 0) fail(`funding account row ${row.account_id}/${row.provider} status ${row.status} does not match its accounts`);
  for (const account of row.accounts) if (!/^\d{6,20}$/.test(account.account_number)) fail(`funding account row ${row.account_id}/${row.provider} has a malformed account number`);
}

export function assert_funding_exception(record: FundingExceptionRecord): void {
  if (!Number.isSafeInteger(record.id) || record.id < 1) fail('funding exception id');
  assert_kobo(record.amount_kobo, 'funding exception amount');
  if (record.status === 'credited' && record.credited === null) fail(`funding exception ${record.id} credited without its credit`);
  if (record.status === 'open' && record.resolved_us !== null) fail(`funding exception ${record.id} open but resolved`);
}
