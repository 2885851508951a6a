// Schemas of accounts, wallets, wallet entries and API keys (docs/spec.md section 2, docs/decisions.md).
import Type from 'typebox';
import { EnvironmentName, FreeText, Naira, Pagination, Timestamp } from './common.js';
import { scopes } from '../engine/records.js';

export const Account = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  phone: Type.String({ description: 'international format, e.g. +2348012345678' }),
  tier: Type.String(),
  kyc_level: Type.Integer({ minimum: 0, maximum: 3, description: 'governs the daily wallet limit' }),
  created_at: Timestamp,
});

/** GET and PATCH /v1/account: the account, and the key's environment's alert setting. */
export const AccountView = Type.Object({
  ...Account.properties,
  low_balance_threshold: Type.Union([Naira, Type.Null()], { description: 'the wallet.low_balance alert of the key\'s environment: NGN, or null when off' }),
});

export const AccountPatchBody = Type.Object({
  low_balance_threshold: Type.Union([
    Type.Number({ minimum: 0, maximum: 100_000_000, description: 'NGN, at most 2 decimals' }),
    Type.Null(),
  ], { errorMessage: 'must be an NGN amount from 0 to 100000000 with at most 2 decimals, or null' }),
});

export const Wallet = Type.Object({
  balance: Naira,
  bonus_balance: Naira,
  currency: Type.Literal('NGN'),
});

export const WalletEntry = Type.Object({
  id: Type.Integer({ description: 'sequence number within the wallet' }),
  type: Type.Enum(['credit', 'debit', 'reversal', 'transfer_in', 'transfer_out', 'commission', 'commission_reversal']),
  amount: Naira,
  balance_before: Naira,
  balance_after: Naira,
  reference: Type.String({ description: 'the order reference, or the funding reference for a credit' }),
  description: Type.String(),
  created_at: Timestamp,
  counterparty_id: Type.Optional(Type.Integer({ description: 'transfer_in/transfer_out: the other account of the transfer; commission/commission_reversal: the agent whose order it was (docs/api.md "Agents")' })),
});

export const WalletEntryPage = Type.Object({
  transactions: Type.Array(WalletEntry),
  pagination: Pagination,
});

export const Scope = Type.Enum([...scopes]);

export const KeyListItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  environment: EnvironmentName,
  key_hint: Type.String({ description: 'prefix and last 4 characters, e.g. bv_test_…a1B2; never the secret' }),
  scopes: Type.Array(Scope),
  ip_allowlist: Type.Array(Type.String()),
  rate_limit_per_minute: Type.Integer(),
  expires_at: Type.Union([Timestamp, Type.Null()]),
  last_used_at: Type.Union([Timestamp, Type.Null()]),
  created_at: Timestamp,
});

export const CreatedKey = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  api_key: Type.String({ description: 'the full secret; shown only in this response' }),
  environment: EnvironmentName,
  scopes: Type.Array(Scope),
  ip_allowlist: Type.Array(Type.String()),
  rate_limit_per_minute: Type.Integer(),
  expires_at: Type.Union([Timestamp, Type.Null()]),
  created_at: Timestamp,
});

export const key_name_length_max = 100;
export const ip_allowlist_entries_max = 20;

export const CreateKeyBody = Type.Object({
  name: FreeText({ minLength: 1, maxLength: key_name_length_max, errorMessage: `must be a string of 1 to ${key_name_length_max} characters` }),
  environment: Type.Optional(EnvironmentName),
  scopes: Type.Optional(Type.Array(Scope, { minItems: 1, maxItems: 5, uniqueItems: true, errorMessage: `must be a non-empty list of distinct scopes: ${scopes.join(', ')}` })),
  ip_allowlist: Type.Optional(Type.Array(FreeText({ maxLength: 64 }), { maxItems: ip_allowlist_entries_max, errorMessage: `must be a list of at most ${ip_allowlist_entries_max} IPv4/IPv6 addresses or CIDR blocks` })),
  expires_at: Type.Optional(FreeText({ maxLength: 40, errorMessage: 'must be an ISO 8601 timestamp in the future' })),
});
