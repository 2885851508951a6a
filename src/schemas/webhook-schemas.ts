// Schemas of webhook endpoints, deliveries and funding (docs/spec.md section 6, docs/decisions.md "Webhooks").
import Type from 'typebox';
import { EnvironmentName, FreeText, Naira, Pagination, Timestamp } from './common.js';

const event_kind_names = ['transaction.completed', 'transaction.failed', 'transaction.processing', 'transaction.delayed', 'transaction.reversed', 'wallet.credited', 'wallet.debited', 'wallet.reversed', 'wallet.low_balance', 'service.status_changed', 'batch.completed'] as const;
export const EventKindName = Type.Enum([...event_kind_names]);

/** What a delivery carries: a subscribed event kind or the on-demand test event (never subscribed to). */
export const DeliveryKindName = Type.Enum(['transaction.completed', 'transaction.failed', 'transaction.processing', 'transaction.delayed', 'transaction.reversed', 'wallet.credited', 'wallet.debited', 'wallet.reversed', 'wallet.low_balance', 'service.status_changed', 'batch.completed', 'webhook.test']);

export const CreateWebhookBody = Type.Object({
  url: FreeText({ minLength: 1, maxLength: 2048, errorMessage: 'must be an https:// URL' }),
  events: Type.Optional(Type.Array(EventKindName, { minItems: 1, maxItems: event_kind_names.length, uniqueItems: true, errorMessage: 'must be a non-empty list of distinct event kinds' })),
  description: Type.Optional(FreeText({ maxLength: 200 })),
  include_agents: Type.Optional(Type.Boolean({ description: 'also receive the events of every agent below the account (each carries account); default false' })),
});

export const UpdateWebhookBody = Type.Object({
  events: Type.Optional(CreateWebhookBody.properties.events),
  description: Type.Optional(FreeText({ maxLength: 200 })),
  include_agents: Type.Optional(CreateWebhookBody.properties.include_agents),
});

export const WebhookView = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  environment: EnvironmentName,
  events: Type.Array(EventKindName),
  description: Type.String(),
  secret_hint: Type.String(),
  previous_secret_expires_at: Type.Union([Timestamp, Type.Null()], { description: 'after a roll: until when deliveries are also signed with the previous secret; null otherwise' }),
  enabled: Type.Boolean(),
  disabled_reason: Type.Union([Type.String(), Type.Null()]),
  include_agents: Type.Boolean({ description: 'whether the endpoint also receives the events of the agents below the account' }),
  created_at: Timestamp,
});

export const CreatedWebhook = Type.Object({
  ...WebhookView.properties,
  secret: Type.String({ description: 'whsec_…: shown only in this response' }),
});

export const RolledSecret = Type.Object({
  ...WebhookView.properties,
  secret: Type.String({ description: 'the new whsec_…: shown only in this response' }),
});

export const AttemptView = Type.Object({
  series: Type.Integer({ description: 'a replay starts a new series' }),
  number: Type.Integer(),
  at: Timestamp,
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  duration_ms: Type.Number(),
  error: Type.Union([Type.String(), Type.Null()]),
});

export const DeliveryView = Type.Object({
  id: Type.Integer(),
  endpoint_id: Type.Integer(),
  event_id: Type.String(),
  event: DeliveryKindName,
  status: Type.Enum(['pending', 'delivered', 'dead', 'cancelled']),
  series: Type.Integer(),
  next_attempt_at: Type.Union([Timestamp, Type.Null()]),
  attempts: Type.Array(AttemptView),
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** GET /v1/events: each event is its webhook payload (its `data` per kind, see the webhooks of the document). */
export const FeedEvent = Type.Object({
  event: EventKindName,
  id: Type.String({ pattern: '^evt_[0-9A-Za-z]{24}$', description: 'the same id as the webhook-id of its deliveries' }),
  created_at: Timestamp,
  data: Type.Object({}, { additionalProperties: true, description: 'the payload of the event kind, as delivered by webhook' }),
});

export const EventFeedPage = Type.Object({
  events: Type.Array(FeedEvent, { description: 'oldest first' }),
  has_more: Type.Boolean({ description: 'more events follow: call again with after = next_after' }),
  next_after: Type.Union([Type.String(), Type.Null()], { description: 'the id to pass as after next: the last event returned, or the last examined when type skipped events; null while the feed is empty' }),
});

export const DeliveryPage = Type.Object({ deliveries: Type.Array(DeliveryView), pagination: Pagination });

export const SandboxFundBody = Type.Object({
  amount: Type.Number({ minimum: 0.01, maximum: 10_000_000, description: 'NGN, at most 2 decimals', errorMessage: 'must be an NGN amount from 0.01 to 10000000 with at most 2 decimals' }),
  reference: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[\\x21-\\x7e]+$', errorMessage: 'must be 1 to 100 printable characters without spaces' })),
});

export const BankTransferBody = Type.Object({
  reference: Type.String({ minLength: 1, maxLength: 100, pattern: '^[\\x21-\\x7e]+$', errorMessage: 'must be the bank\'s transfer reference' }),
  account_id: Type.Integer({ minimum: 1 }),
  amount: Type.Number({ errorMessage: 'must be a positive NGN amount with at most 2 decimals' }),
  currency: Type.Optional(Type.Literal('NGN')),
  sender_name: Type.Optional(FreeText({ maxLength: 200 })),
  narration: Type.Optional(FreeText({ maxLength: 200 })),
});

/** A credit from a funding provider's transfer (docs/funding.md "How a credit lands"). */
export const EntryFundingView = Type.Object({
  provider: Type.String({ description: 'the configured funding provider\'s name, or sandbox' }),
  provider_reference: Type.String({ description: 'the provider\'s unique id of the transfer (Monnify transactionReference)' }),
  amount_paid: Naira,
  fee: Naira,
  settlement_amount: Naira,
});

export const WalletEntryView = Type.Object({
  id: Type.Integer(), type: Type.String(), amount: Naira, balance_before: Naira, balance_after: Naira, reference: Type.String(), description: Type.String(), created_at: Timestamp,
  funding: Type.Optional(EntryFundingView),
});
