// Schemas of dedicated accounts, funding exceptions and the reconciler (docs/funding.md, docs/api.md "Funding").
import Type from 'typebox';
import { Naira, Timestamp } from './common.js';

const eleven_digits = { pattern: '^[0-9]{11}$', minLength: 11, maxLength: 11 } as const;

export const FundingAccountsBody = Type.Object({
  bvn: Type.Optional(Type.String({ ...eleven_digits, description: 'the reseller\'s BVN, where a provider requires one; sealed at rest, never shown again', errorMessage: 'must be the 11 digits of a BVN' })),
  nin: Type.Optional(Type.String({ ...eleven_digits, description: 'the reseller\'s NIN, where a provider requires one; sealed at rest, never shown again', errorMessage: 'must be the 11 digits of a NIN' })),
});

export const FundingAccountRow = Type.Object({
  provider: Type.String({ description: 'the configured funding provider\'s name' }),
  kind: Type.String({ description: 'monnify, paystack or flutterwave' }),
  bank_name: Type.Union([Type.String(), Type.Null()]),
  account_number: Type.Union([Type.String(), Type.Null()]),
  account_name: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([Type.Literal('active'), Type.Literal('pending'), Type.Literal('failed')]),
  error: Type.Optional(Type.String({ description: 'why the provider could not make the account (status failed); retried in the background and by repeating the POST' })),
});

export const FundingAccountsView = Type.Object({ accounts: Type.Array(FundingAccountRow) });

export const SandboxTransferBody = Type.Object({
  amount: Type.Number({ minimum: 0.01, maximum: 10_000_000, description: 'NGN, at most 2 decimals', errorMessage: 'must be an NGN amount from 0.01 to 10000000 with at most 2 decimals' }),
});

export const FundingExceptionView = Type.Object({
  id: Type.Integer(),
  provider: Type.String(),
  provider_reference: Type.String(),
  amount: Naira,
  reason: Type.String({ description: 'unknown_account, amount_mismatch, account_mismatch, not_successful, unknown_to_provider, fee_exceeds_amount or account_closed' }),
  account_id: Type.Union([Type.Integer(), Type.Null()]),
  provider_amount: Type.Union([Naira, Type.Null()]),
  status: Type.Union([Type.Literal('open'), Type.Literal('credited'), Type.Literal('rejected')]),
  created_at: Timestamp,
  resolved_at: Type.Union([Timestamp, Type.Null()]),
});

export const ResolveExceptionBody = Type.Object({
  action: Type.Union([Type.Literal('credit'), Type.Literal('reject')], { errorMessage: 'must be credit or reject' }),
  account_id: Type.Optional(Type.Integer({ minimum: 1, errorMessage: 'must be an account id' })),
});

export const ReconcileBody = Type.Object({
  provider: Type.Optional(Type.String({ minLength: 1, maxLength: 32, errorMessage: 'must be a configured funding provider\'s name' })),
});

export const ReconcileView = Type.Object({ found: Type.Integer(), credited: Type.Integer(), exceptions: Type.Integer() });

export const FundingReportView = Type.Object({
  date: Type.String(),
  providers: Type.Array(Type.Object({
    provider: Type.String(),
    count: Type.Integer({ description: 'transfers credited that day' }),
    amount_paid: Naira,
    fees: Naira,
    credited: Naira,
    exceptions: Type.Integer(),
  })),
});
