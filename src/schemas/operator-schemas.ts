// Request bodies of the operator API (docs/operations.md).
import Type from 'typebox';
import { EnvironmentName, FreeText, free_text_forbidden } from './common.js';
import { Scope, key_name_length_max, ip_allowlist_entries_max } from './account-schemas.js';
import { scopes } from '../engine/records.js';

export const Pin = Type.String({ pattern: '^[0-9]{5}$', errorMessage: 'must be exactly 5 digits' });
/** The local part and domain hold no spaces, and none of what free text may not hold (common.ts). */
const email_part = `[^\\s@${free_text_forbidden}]+`;
export const Email = Type.String({ maxLength: 254, pattern: `^${email_part}@${email_part}\\.${email_part}$`, errorMessage: 'must be an email address' });
export const Phone = Type.String({ maxLength: 20, pattern: '^(\\+[1-9][0-9]{7,14}|234[0-9]{10}|0[0-9]{10})$', errorMessage: 'must be an international (+234…) or 11-digit local phone number' });
export const KycLevel = Type.Integer({ minimum: 0, maximum: 3, errorMessage: 'must be an integer from 0 to 3' });
export const Tier = Type.String({ pattern: '^[a-z][a-z0-9_]{0,31}$', errorMessage: 'must be a lowercase word such as standard or corporate' });

export const CreateAccountBody = Type.Object({
  name: FreeText({ minLength: 1, maxLength: 100, errorMessage: 'must be a string of 1 to 100 characters' }),
  email: Email,
  phone: Phone,
  password: FreeText({ minLength: 8, maxLength: 200, errorMessage: 'must be 8 to 200 characters' }),
  kyc_level: KycLevel,
  tier: Type.Optional(Tier),
  pin: Type.Optional(Pin),
});

export const UpdateAccountBody = Type.Object({
  kyc_level: Type.Optional(KycLevel),
  tier: Type.Optional(Tier),
  daily_limit: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { errorMessage: 'must be an NGN amount or null' })),
  /** Suspends or reactivates the account and so every account below it (closing is the parent's DELETE /v1/agents/{id}). */
  status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('suspended')], { errorMessage: 'must be active or suspended' })),
});

export const SetPinBody = Type.Object({ pin: Pin });

export const OperatorCreateKeyBody = Type.Object({
  name: FreeText({ minLength: 1, maxLength: key_name_length_max, errorMessage: `must be a string of 1 to ${key_name_length_max} characters` }),
  environment: Type.Optional(EnvironmentName),
  scopes: Type.Optional(Type.Array(Scope, { minItems: 1, maxItems: 5, uniqueItems: true, errorMessage: `must be a non-empty list of distinct scopes: ${scopes.join(', ')}` })),
  ip_allowlist: Type.Optional(Type.Array(FreeText({ maxLength: 64 }), { maxItems: ip_allowlist_entries_max })),
  rate_limit_per_minute: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, errorMessage: 'must be an integer from 1 to 1000000' })),
  expires_at: Type.Optional(FreeText({ maxLength: 40, errorMessage: 'must be an ISO 8601 timestamp in the future' })),
});

export const CreditBody = Type.Object({
  environment: EnvironmentName,
  amount: Type.Number({ errorMessage: 'must be a positive NGN amount with at most 2 decimals' }),
  reference: Type.String({ minLength: 1, maxLength: 100, pattern: '^[\\x21-\\x7e]+$', errorMessage: 'must be 1 to 100 printable characters without spaces' }),
  description: Type.Optional(FreeText({ maxLength: 200 })),
});
