// Schemas of daily statements (docs/api.md "Statements").
import Type from 'typebox';
import { EnvironmentName, Timestamp } from './common.js';
import { service_type_names } from '../services/order.js';

/** An NGN amount that may be below zero: a day's commission net of refunds of earlier days' orders. */
const SignedNaira = Type.Number({ description: 'NGN; below zero only for a day\'s commission net of refunds' });
const Amount = Type.Number({ minimum: 0, description: 'NGN, at most 2 decimals' });
const Sum = Type.Object({ count: Type.Integer({ minimum: 0 }), amount: SignedNaira });

export const StatementEntry = Type.Object({
  id: Type.Integer({ description: 'the wallet entry\'s sequence number (GET /v1/wallet/transactions)' }),
  type: Type.Enum(['credit', 'debit', 'reversal', 'transfer_in', 'transfer_out', 'commission', 'commission_reversal'], { description: 'reversal: the refund of a failed order; transfer_in/transfer_out: money moved between a parent and its agent; commission/commission_reversal: earned on an agent\'s order, and given back on its refund' }),
  amount: Amount,
  reference: Type.String({ description: 'the order reference, or the funding reference for a credit' }),
  balance_before: Amount,
  balance_after: Amount,
  created_at: Timestamp,
  description: Type.String(),
  service_type: Type.Union([Type.Enum([...service_type_names]), Type.Null()], { description: 'the order\'s service; null for a credit' }),
  face_value: Type.Union([Amount, Type.Null()], { description: 'the order\'s amount (what the recipient got); null for a credit' }),
  commission: Type.Union([Amount, Type.Null()], { description: 'the commission the order netted (the debit is face_value − commission); null for a credit' }),
});

export const StatementTotals = Type.Object({
  by_type: Type.Object({
    credit: Sum,
    debit: Sum,
    reversal: Sum,
    commission: Type.Object({ count: Type.Integer({ minimum: 0, description: 'debits that netted a commission' }), amount: SignedNaira }, { description: 'commission of the day\'s debits less that of its reversals' }),
    transfer_in: Type.Optional(Sum),
    transfer_out: Type.Optional(Sum),
    agent_commission: Type.Optional(Sum),
    commission_reversal: Type.Optional(Sum),
  }),
  by_service: Type.Array(Type.Object({
    service_type: Type.Enum([...service_type_names]),
    debits: Sum,
    reversals: Sum,
    face_value: Amount,
    commission: SignedNaira,
  })),
});

export const StatementView = Type.Object({
  account_id: Type.Integer(),
  account_name: Type.String(),
  environment: EnvironmentName,
  date: Type.String({ format: 'date', description: 'the Africa/Lagos day' }),
  time_zone: Type.Literal('Africa/Lagos'),
  from: Timestamp,
  to: Timestamp,
  final: Type.Boolean({ description: 'false for today\'s statement: the day is not over' }),
  generated_at: Timestamp,
  currency: Type.Literal('NGN'),
  opening_balance: Amount,
  closing_balance: Amount,
  entries: Type.Array(StatementEntry),
  totals: StatementTotals,
});

export const StatementPublicKey = Type.Object({
  algorithm: Type.Literal('ed25519'),
  public_key_pem: Type.String({ description: 'SubjectPublicKeyInfo (SPKI) PEM' }),
});

/** POST /v1/transactions/{reference}/resend (docs/api.md "Receipts and re-delivery"). */
export const ResendReceipt = Type.Object({
  reference: Type.String(),
  event: Type.Enum(['transaction.completed', 'transaction.failed']),
  event_id: Type.String({ pattern: '^evt_[0-9A-Za-z]{24}$', description: 'the new event\'s id (the webhook-id header and the feed\'s)' }),
  resent: Type.Literal(true),
  endpoints: Type.Integer({ minimum: 1, description: 'endpoints it is being sent to' }),
});
