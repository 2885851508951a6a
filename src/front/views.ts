// How records look in the API (docs/spec.md section 2, docs/decisions.md): NGN numbers, ISO timestamps, no secrets.
import type { AccountRecord, EntryFunding, KeyRecord, WalletEntry, WalletRecord } from '../engine/records.js';
import { readable_description } from '../engine/entry-descriptions.js';
import { kobo_to_naira } from '../lib/money.js';
import { iso_ms, iso_us } from '../lib/time-format.js';

export function account_view(account: AccountRecord) {
  return {
    id: account.id,
    name: account.name,
    email: account.email,
    phone: account.phone,
    tier: account.tier,
    kyc_level: account.kyc_level,
    created_at: iso_us(account.created_us),
  };
}

export function wallet_view(wallet: WalletRecord) {
  return {
    balance: kobo_to_naira(wallet.balance_kobo),
    bonus_balance: kobo_to_naira(wallet.bonus_kobo),
    currency: 'NGN',
  };
}

export function wallet_entry_view(entry: WalletEntry) {
  return {
    id: entry.id,
    type: entry.type,
    amount: kobo_to_naira(entry.amount_kobo),
    balance_before: kobo_to_naira(entry.balance_before_kobo),
    balance_after: kobo_to_naira(entry.balance_after_kobo),
    reference: entry.reference,
    // Entries written before the names people use read in them too (engine/entry-descriptions.ts).
    description: readable_description(entry),
    created_at: iso_us(entry.created_us),
    ...(entry.funding === undefined ? {} : { funding: entry_funding_view(entry.funding) }),
    // A transfer's entry names the other account (docs/api.md "Agents").
    ...(entry.counterparty_id === undefined ? {} : { counterparty_id: entry.counterparty_id }),
  };
}

/** The funding a provider transfer's credit carries (docs/funding.md "How a credit lands"). */
export function entry_funding_view(funding: EntryFunding) {
  return {
    provider: funding.provider,
    provider_reference: funding.provider_reference,
    amount_paid: kobo_to_naira(funding.amount_paid_kobo),
    fee: kobo_to_naira(funding.fee_kobo),
    settlement_amount: kobo_to_naira(funding.settlement_kobo),
  };
}

/** A key in lists: never the secret (docs/spec.md section 2). */
export function key_view(key: KeyRecord) {
  return {
    id: key.id,
    name: key.name,
    environment: key.environment,
    key_hint: key.key_hint,
    scopes: key.scopes,
    ip_allowlist: key.ip_allowlist,
    rate_limit_per_minute: key.rate_limit_per_minute,
    expires_at: key.expires_ms === null ? null : iso_ms(key.expires_ms),
    last_used_at: key.last_used_us === null ? null : iso_us(key.last_used_us),
    created_at: iso_us(key.created_us),
  };
}

/** The creation response: the only place the full key ever appears (docs/spec.md section 5.4). */
export function created_key_view(key: KeyRecord, api_key: string) {
  return {
    id: key.id,
    name: key.name,
    api_key,
    environment: key.environment,
    scopes: key.scopes,
    ip_allowlist: key.ip_allowlist,
    rate_limit_per_minute: key.rate_limit_per_minute,
    expires_at: key.expires_ms === null ? null : iso_ms(key.expires_ms),
    created_at: iso_us(key.created_us),
  };
}

export interface Pagination {
  total: number;
  per_page: number;
  current_page: number;
  last_page: number;
}

export function pagination(total: number, per_page: number, page: number): Pagination {
  return { total, per_page, current_page: page, last_page: Math.max(1, Math.ceil(total / per_page)) };
}
