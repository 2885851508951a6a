// What the crash campaign's driver sent and what came back: the record both checkers judge the store
// and the API against. Only record *types* come from src/ (style: the checker is independent of the
// engine, so it can catch the engine's mistakes instead of repeating them).
import type { Environment } from '../../src/engine/records.js';
import type { ServiceType } from '../../src/services/order.js';
import type { UpstreamMode } from '../helpers/fake-upstream.js';
import type { FundingKind } from '../../src/services/funding/funding-provider.js';

export type { Environment, ServiceType };
export const environments: readonly Environment[] = ['test', 'live'];

/** The sandbox table (docs/decisions.md "Sandbox") and the upstream's modes, as outcomes the checker expects. */
export type Expectation =
  | 'delivered' // delivered at once
  | 'failed' // failed at once, refunded
  | 'delayed_delivered' // processing, then delivered
  | 'delayed_failed' // processing, then failed and refunded
  | 'unavailable' // 503 before any debit
  | 'invalid' // 422 invalid meter / smartcard before any debit
  | 'upstream'; // live: whatever the fake upstream did with the order's request_id

export const sandbox_phones = {
  delivered: '08011111111',
  failed: '08022222222',
  delayed_delivered: '08033333333',
  delayed_failed: '08044444444',
  unavailable: '08055555555',
} as const;

/** A response the driver received: the server acknowledged the request. */
export interface Ack {
  status: number;
  text: string;
  body: any;
  /** The Idempotent-Replayed header was "true". */
  replayed: boolean;
  at_ms: number;
  /** Round in which it arrived (the load of that round, or the re-send after its restart). */
  round: number;
  /** It answered a re-send after a restart of a request whose first answer the kill swallowed. */
  resent: boolean;
}

export type OpKind = 'purchase' | 'credit' | 'topup' | 'key_create' | 'key_revoke' | 'bulk' | 'cancel' | 'funding_callback' | 'funding_reconcile';

// ---- Funding (campaign-funding.ts): dedicated accounts, provider callbacks, reconciles --------------------

/**
 * How a callback is forged (campaign-funding.ts): `bad_signature`, a transfer the provider never made, signed
 * with a wrong secret (401); `altered`, a real transfer's signed callback with its amount raised after signing
 * (401 where the signature covers the body; Flutterwave's verif-hash does not, so its verification refuses it);
 * `unknown`, a transfer the provider never made, signed correctly (as if the secret leaked: 200, an exception);
 * `disagrees`, a real transfer's callback claiming another amount, signed correctly (200, an exception, or the
 * earlier credit when the reconciler credited the transfer first). None may ever credit what it claims.
 */
export type FundingForgery = 'bad_signature' | 'altered' | 'unknown' | 'disagrees';

/** A transfer the fake provider recorded into one of an account's dedicated accounts (live wallet). */
export interface FundingTransfer {
  provider: string;
  kind: FundingKind;
  provider_reference: string;
  account_id: number;
  account_number: string;
  amount_kobo: number;
  fee_kobo: number;
  /** Wall-clock ms when the fake recorded it: a reconcile sent after this lists it. */
  recorded_ms: number;
  round: number;
  /**
   * A callback disagreeing with the provider's record was sent for it: it may end in exceptions (only an
   * operator's resolve credits it then) instead of credited, never both, never twice.
   */
  disputed: boolean;
}

export interface FundingCallbackSpec {
  provider: string;
  /** The transfer id the callback claims. */
  provider_reference: string;
  /** The real transfer it is about; null for a transfer the provider never made. */
  transfer: FundingTransfer | null;
  forged: FundingForgery | null;
  /** The exact bytes and headers sent (the provider's signature scheme). */
  raw: string;
  headers: Record<string, string>;
}

export interface FundingReconcileSpec {
  /** The provider asked about, or null for every one. */
  provider: string | null;
  /** Wall-clock ms of the send whose answer was recorded: every transfer recorded before it is listed. */
  last_sent_ms: number;
}

/** A callback's answer (docs/funding.md): 200 with data.outcome, or 401 funding.invalid_signature; null otherwise. */
export function callback_outcome(ack: Ack): 'credited' | 'already_credited' | 'exception' | 'invalid_signature' | null {
  if (ack.status === 401 && ack.body?.error?.code === 'funding.invalid_signature') return 'invalid_signature';
  const outcome = ack.body?.data?.outcome;
  if (ack.status === 200 && ack.body?.data?.received === true && (outcome === 'credited' || outcome === 'already_credited' || outcome === 'exception')) return outcome;
  return null;
}

/** A reconcile's answer: 200 {found, credited, exceptions}, or null. */
export function reconcile_counts(ack: Ack): { found: number; credited: number; exceptions: number } | null {
  const data = ack.body?.data;
  if (ack.status !== 200 || ![data?.found, data?.credited, data?.exceptions].every((n) => Number.isSafeInteger(n) && n >= 0)) return null;
  return { found: data.found, credited: data.credited, exceptions: data.exceptions };
}

/** What the wallet gets for a transfer: the amount paid, less the fee where the account's tier bears it. */
export function funding_credit_kobo(model: Model, transfer: FundingTransfer): number {
  const tier = model.accounts.find((a) => a.id === transfer.account_id)?.tier;
  return tier !== undefined && model.funding.reseller_fee_tiers.includes(tier) ? transfer.amount_kobo - transfer.fee_kobo : transfer.amount_kobo;
}

export const funding_key = (provider: string, provider_reference: string) => `${provider}\u0000${provider_reference}`;

/** The order a cancel asks for (POST /v1/transactions/{reference}/cancel): item index of bulk request bulk_op. */
export interface CancelSpec {
  reference: string;
  /** The live bulk order (its op's n) whose item it is. */
  bulk_op: number;
  index: number;
}

export const cancelled_reason = 'cancelled';

/**
 * A cancel's answer as documented (docs/api.md "Cancel before sending"): 200 with the order failed, reason
 * cancelled and refunded, or 409 transaction.not_cancellable. Which one: 'cancelled', 'refused', or null (neither).
 */
export function cancel_answer(spec: CancelSpec, ack: Ack): 'cancelled' | 'refused' | null {
  const data = ack.body?.data;
  if (ack.status === 200 && data?.reference === spec.reference && data?.status === 'failed' && data?.failure_reason === cancelled_reason && data?.reversed === true) return 'cancelled';
  if (ack.status === 409 && ack.body?.error?.code === 'transaction.not_cancellable') return 'refused';
  return null;
}

/**
 * A bulk order (docs/api.md "Bulk orders"): sandbox items, each with a client_reference of its own, so
 * that the checkers can tell every order an item placed, and that no item was placed twice.
 */
export interface BulkSpec {
  items: PurchaseSpec[];
}

export interface PurchaseSpec {
  service: ServiceType;
  recipient: string;
  amount_kobo: number;
  expect: Expectation;
  upstream_mode?: UpstreamMode;
  /** The body's client_reference (docs/api.md "Client references and metadata"), if any. */
  client_reference?: string;
  /**
   * It repeats the client_reference of an earlier purchase already answered with an order (so durable),
   * named here: the only right answer is 409 transaction.duplicate_reference naming that order.
   */
  reused_of?: string;
}

export interface CreditSpec {
  reference: string;
  amount_kobo: number;
}

export interface CreatedKey {
  create_op: Op;
  id: number;
  api_key: string;
  environment: Environment;
  account_id: number;
  revoke_op: Op | null;
  /** The revocation was acknowledged (200, or 404 on a re-send: an earlier copy revoked it). */
  revoked: boolean;
}

export interface Op {
  n: number;
  kind: OpKind;
  /** Round of its first send (0 = set-up). */
  round: number;
  account_id: number;
  environment: Environment;
  method: 'POST' | 'DELETE';
  path: string;
  /** Sent to the operator API (admin token) rather than with the wallet's API key. */
  operator: boolean;
  body: Record<string, unknown> | undefined;
  /** X-Idempotency-Key, or null when the request goes without one. */
  idem: string | null;
  /** Wall-clock ms of the first send (the idempotency record cannot be older). */
  sent_ms: number;
  sends: number;
  /** Sent as two identical copies at once (same key, same body). */
  twin: boolean;
  purchase?: PurchaseSpec;
  bulk?: BulkSpec;
  credit?: CreditSpec;
  key_name?: string;
  revoke_target?: CreatedKey;
  cancel?: CancelSpec;
  funding_callback?: FundingCallbackSpec;
  reconcile?: FundingReconcileSpec;
  /**
   * A purchase or bulk order racing a revocation: its first copy goes with this created key, whose
   * revocation is sent while it runs (its recipients' verifications take the fake upstream's
   * verify_delay_ms). A re-send after a kill goes with the wallet's key, like every other.
   */
  via_key?: CreatedKey;
  ack: Ack | null;
  /** The API checks (reflection and replay) have run on its ack. */
  api_checked: boolean;
}

export interface Wallet {
  account_id: number;
  environment: Environment;
  /** A full-access key of the operator's with a high rate limit: the driver's own key. */
  key: string;
  key_id: number;
  endpoint_id: number;
  /** The receiver path of the wallet's webhook endpoint. */
  tag: string;
}

export interface Account {
  id: number;
  /** The account's pricing tier (docs/api.md "Pricing"): one with rules, or one without (0%). */
  tier: string;
  wallets: Record<Environment, Wallet>;
  /** The account's dedicated account numbers by configured provider name (none with CRASH_FUNDING=0). */
  funding_numbers: Record<string, string[]>;
}

/** A price rule as the campaign set it: narrow is the network, disco or TV provider, or null. */
export interface PriceRuleSpec {
  service_type: ServiceType;
  narrow: string | null;
  rate_bp: number;
}

/** The API's shape of price rules (the operator's tiers and an agent's list share it). */
export function price_rules_body(rules: readonly PriceRuleSpec[]): Record<string, string | number>[] {
  const field_of = { airtime: 'network', data: 'network', electricity: 'disco', tv: 'provider', education: 'provider', internet: 'provider', showmax: 'provider', international: 'provider' } as const;
  return rules.map((r) => ({ service_type: r.service_type, rate_bp: r.rate_bp, ...(r.narrow === null ? {} : { [field_of[r.service_type]]: r.narrow }) }));
}

export interface Model {
  run_id: string;
  time_scale: number;
  /** Idempotency records live 24 h scaled by TIME_SCALE (docs/decisions.md "Time"). */
  idempotency_ttl_ms: number;
  accounts: Account[];
  /** The price rules of each tier the campaign set (a tier not listed has none). */
  pricing: Record<string, PriceRuleSpec[]>;
  ops: Op[];
  created_keys: CreatedKey[];
  funding: {
    /** The configured provider names (FUNDING_PROVIDERS), empty with CRASH_FUNDING=0. */
    providers: { name: string; kind: FundingKind }[];
    /** Every transfer the fakes recorded, in order. */
    transfers: FundingTransfer[];
    /** Tiers set to funding_fee: reseller (the wallet gets the amount less the fee). */
    reseller_fee_tiers: string[];
  };
  /** The agent tree (campaign-agents.ts), absent with CRASH_AGENTS=0: its accounts are judged by check_agents only. */
  agents?: AgentsModel;
}

// ---- Agents (campaign-agents.ts): a tree reseller -> super-agent -> agent, transfers, agents' purchases ------

/** A transfer between a parent and its direct agent (POST /v1/agents/{agent}/transfers), test money. */
export interface AgentTransferSpec {
  reference: string;
  parent_id: number;
  agent_id: number;
  direction: 'to_agent' | 'from_agent';
  amount_kobo: number;
  round: number;
  sends: number;
  /** The first answer that arrived (the load's, or a re-send's after a restart); null while unknown. */
  ack: Ack | null;
  /** The API check repeated it after a restart (201 answers only). */
  repeated: boolean;
}

export interface AgentsModel {
  /** The reseller at the top (an operator-made account outside model.accounts) and its tier. */
  root_id: number;
  root_tier: string;
  /** Every account of the tree ever opened (closed ones too). */
  ids: number[];
  /** Keys the driver made for the tree (operator-made, outside the key-creation ops). */
  key_ids: number[];
  /** Agents whose closing was acknowledged (200). */
  closed: number[];
  transfers: AgentTransferSpec[];
}

/** NGN in an API answer as integer kobo (the API shows at most 2 decimals). */
export function kobo_of(naira: unknown): number {
  return Math.round(Number(naira) * 100);
}

export function naira_of(kobo: number): number {
  return kobo / 100;
}

/** Order recipients are phone numbers in local form, meters or smartcards; compare in local form. */
export function local_recipient(recipient: string): string {
  return recipient.startsWith('+234') ? '0' + recipient.slice(4) : recipient;
}

/** The reference an acknowledged purchase names (201 result or 422 transaction.failed), or null. */
export function acked_reference(ack: Ack): string | null {
  if (ack.status === 201 && typeof ack.body?.data?.reference === 'string') return ack.body.data.reference;
  if (ack.status === 422 && ack.body?.error?.code === 'transaction.failed' && typeof ack.body?.error?.reference === 'string') return ack.body.error.reference;
  return null;
}

/** The items of an acknowledged bulk order (202), by index: the order each placed, or null when refused. */
export function acked_batch(ack: Ack): { id: string; references: (string | null)[] } | null {
  if (ack.status !== 202 || typeof ack.body?.data?.id !== 'string' || !Array.isArray(ack.body?.data?.items)) return null;
  return { id: ack.body.data.id, references: ack.body.data.items.map((item: { reference: unknown }) => (typeof item.reference === 'string' ? item.reference : null)) };
}

/** Error answers to POSTs are remembered for idempotency except 5xx, 429 and 401 (docs/decisions.md). */
export function rememberable(status: number): boolean {
  return status < 500 && status !== 429 && status !== 401;
}

/** The final status an order must end in, or null when only the upstream can tell. */
export function final_status_of(expect: Expectation): 'delivered' | 'failed' | null {
  switch (expect) {
    case 'delivered':
    case 'delayed_delivered':
      return 'delivered';
    case 'failed':
    case 'delayed_failed':
      return 'failed';
    default:
      return null;
  }
}

/** Caps a list of violations so that a systematic bug does not flood the report. */
export function capped(list: string[], max = 40): string[] {
  return list.length <= max ? list : [...list.slice(0, max), `… and ${list.length - max} more`];
}

/**
 * What the wallet must be debited for an order (docs/api.md "Pricing"), worked out here from the rules
 * the campaign set, not by the engine's code: the most specific rule of the tier (service type and
 * network, disco or provider; else the service type alone; else 0), commission rounded down to the kobo.
 */
export function expected_charged_kobo(model: Model, account_id: number, order: { service_type: ServiceType; network: string | null; disco: string | null; provider: string | null; amount_kobo: number }): number {
  return charged_at_tier(model, model.accounts.find((a) => a.id === account_id)?.tier, order);
}

/** What an account of the tier pays for the order (the tier's price list, 0 bp where it has no rule). */
export function charged_at_tier(model: Model, tier: string | undefined, order: { service_type: ServiceType; network: string | null; disco: string | null; provider: string | null; amount_kobo: number }): number {
  const rules = tier === undefined ? [] : model.pricing[tier] ?? [];
  const narrow = order.service_type === 'electricity' ? order.disco : order.service_type === 'tv' ? order.provider : order.network;
  const exact = rules.find((r) => r.service_type === order.service_type && r.narrow !== null && r.narrow === narrow);
  const broad = rules.find((r) => r.service_type === order.service_type && r.narrow === null);
  const rate_bp = (exact ?? broad)?.rate_bp ?? 0;
  return order.amount_kobo - Math.floor((order.amount_kobo * rate_bp) / 10_000);
}
