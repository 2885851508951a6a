// Schemas of agents and their transfers (docs/api.md "Agents").
import Type from 'typebox';
import { EnvironmentName, FreeText, Naira, Pagination, Timestamp } from './common.js';
import { Email, KycLevel, Phone, Pin } from './operator-schemas.js';
import { Wallet } from './account-schemas.js';
import { PriceRuleBody, PriceRuleView } from './pricing-schemas.js';
import { rules_max } from '../services/pricing.js';

/** GET /v1/agents/commissions: the days one report spans at most, and the wallet entries it reads at most. */
export const commission_report_days_max = 92;
export const commission_report_entries_max = 100_000;

/** A transfer's reference: the parent's own, unique for ever per environment; '/' is kept for the sweep of a closed agent. */
export const transfer_reference_pattern = '^[A-Za-z0-9._:-]{1,64}$';
const DailyLimit = Type.Number({ minimum: 0, maximum: 100_000_000, description: 'NGN, at most 2 decimals' });

export const CreateAgentBody = Type.Object({
  name: FreeText({ minLength: 1, maxLength: 100, errorMessage: 'must be a string of 1 to 100 characters' }),
  email: Email,
  phone: Phone,
  password: FreeText({ minLength: 8, maxLength: 200, errorMessage: 'must be 8 to 200 characters' }),
  kyc_level: KycLevel,
  daily_limit: Type.Optional(Type.Number({ minimum: 0, maximum: 100_000_000, errorMessage: 'must be an NGN amount from 0 to 100000000 with at most 2 decimals' })),
  pin: Type.Optional(Pin),
});

export const PatchAgentBody = Type.Object({
  status: Type.Optional(Type.Enum(['active', 'suspended'], { errorMessage: 'must be active or suspended' })),
  daily_limit: Type.Optional(Type.Union([DailyLimit, Type.Null()], { errorMessage: 'must be an NGN amount from 0 to 100000000 with at most 2 decimals, or null' })),
}, { minProperties: 1, errorMessage: 'must set status or daily_limit' });

export const AgentPinBody = Type.Object({ pin: Pin });

export const TransferBody = Type.Object({
  direction: Type.Enum(['to_agent', 'from_agent'], { errorMessage: 'must be to_agent or from_agent' }),
  amount: Type.Number({ errorMessage: 'must be a positive NGN amount with at most 2 decimals' }),
  environment: EnvironmentName,
  pin: Pin,
  reference: Type.String({ pattern: transfer_reference_pattern, errorMessage: 'must be 1 to 64 of A-Z a-z 0-9 . _ : -' }),
});

export const AgentView = Type.Object({
  id: Type.Integer({ description: 'the agent\'s account id' }),
  parent_id: Type.Integer({ description: 'the account that manages it' }),
  name: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  tier: Type.String({ description: 'its parent\'s tier when opened' }),
  kyc_level: Type.Integer({ minimum: 0, maximum: 3 }),
  status: Type.Enum(['active', 'suspended', 'closed']),
  daily_limit: Naira,
  pin_set: Type.Boolean(),
  agents_open: Type.Integer({ minimum: 0, description: 'its own agents not closed' }),
  balances: Type.Object({ live: Wallet, test: Wallet }),
  pricing: Type.Object({ rules: Type.Array(PriceRuleView, { description: 'its price list, set by its parent (PUT /v1/agents/{id}/pricing); a product without a rule is 0 bp' }) }),
  created_at: Timestamp,
});

export const AgentPricingBody = Type.Object({
  rules: Type.Array(PriceRuleBody, { maxItems: rules_max, errorMessage: `must be a list of at most ${rules_max} rules (rules_max)` }),
});

export const AgentPricingView = Type.Object({
  agent_id: Type.Integer(),
  rules: Type.Array(PriceRuleView),
  rounding: Type.String({ description: 'how a discount is computed' }),
});

export const CommissionRow = Type.Object({
  day: Type.String({ description: 'Africa/Lagos day of the entries, YYYY-MM-DD' }),
  agent_id: Type.Integer({ description: 'the agent whose order earned it (any level below the caller)' }),
  service_type: Type.String(),
  product: Type.Union([Type.String(), Type.Null()], { description: 'the network, disco or provider, when the order names one' }),
  orders: Type.Integer({ description: 'commission entries (orders that earned)' }),
  earned: Naira,
  reversed: Naira,
  net: Naira,
});

export const CommissionReport = Type.Object({
  environment: EnvironmentName,
  from: Type.String(),
  to: Type.String(),
  rows: Type.Array(CommissionRow),
  totals: Type.Object({ earned: Naira, reversed: Naira, net: Naira }),
  complete: Type.Boolean({ description: `false when more than ${commission_report_entries_max} wallet entries lay in the range (commission_report_entries_max): the rows sum the first ones` }),
});

export const AgentPage = Type.Object({ agents: Type.Array(AgentView), pagination: Pagination });

export const TransferView = Type.Object({
  reference: Type.String(),
  kind: Type.Enum(['transfer', 'sweep'], { description: 'sweep: the agent\'s balance moved back when it was closed' }),
  direction: Type.Enum(['to_agent', 'from_agent']),
  environment: EnvironmentName,
  amount: Naira,
  parent_id: Type.Integer(),
  agent_id: Type.Integer(),
  balances_after: Type.Object({ parent: Naira, agent: Naira }),
  wallet_transactions: Type.Object({ parent: Type.Integer(), agent: Type.Integer() }, { description: 'the id of each side\'s wallet entry (GET /v1/wallet/transactions)' }),
  created_at: Timestamp,
});

export const ClosedAgentView = Type.Object({
  agent: AgentView,
  swept: Type.Array(TransferView),
  keys_revoked: Type.Integer({ minimum: 0 }),
});

export const TransferPage = Type.Object({ transfers: Type.Array(TransferView), pagination: Pagination });
