// Quotes of international airtime and data (docs/api.md "International airtime and data"): the NGN charge of
// a foreign product, shown before the PIN and held for quote_ttl_ms; a purchase names the quote and pays
// exactly that charge. Quotes live in memory only, bounded (quotes_max in all, quotes_per_account_max valid
// ones per account and environment): after a restart every quote is gone and a purchase naming one is told so (404),
// never charged another price (docs/decisions.md "International airtime and data"). Money here is integer kobo and
// integer hundredths of the foreign currency; a rate is decimal text, multiplied exactly (BigInt).
import type { Clock } from '../lib/clock.js';
import type { RandomSource } from '../lib/random.js';
import type { Environment } from '../engine/records.js';
import { random_text } from '../lib/ids.js';

/** How long a quote holds its price (a duration of the spec: TIME_SCALE scales it). */
export const quote_ttl_ms = 10 * 60_000;
/** Quotes held at once, in all: the map's bound. */
export const quotes_max = 100_000;
/** Quotes one account holds at once in one environment: one reseller cannot fill the map for the others. */
export const quotes_per_account_max = 1_000;

export interface ForeignQuote {
  id: string;
  account_id: number;
  environment: Environment;
  country: string;
  currency: string;
  operator_id: string;
  operator: string | null;
  product_type_id: string;
  product_code: string;
  product: string;
  fixed_price: boolean;
  /** Hundredths of the currency the recipient gets; null for a fixed product VTpass names no value of. */
  foreign_amount_minor: number | null;
  rate: string | null;
  /** The NGN face value (what VTpass charges for it) and the wallet's charge: amount − commission. */
  amount_kobo: number;
  commission_kobo: number;
  created_ms: number;
  expires_ms: number;
}

export type QuoteLookup =
  | { found: ForeignQuote }
  | { expired: ForeignQuote }
  | { missing: true };

export class ForeignQuotes {
  /** Insertion order is creation order, and every quote lives as long: the oldest is first. */
  private readonly quotes = new Map<string, ForeignQuote>();
  /** Each account and environment's held quotes: what its bound counts (only the valid ones). */
  private readonly per_account = new Map<string, OwnerQuotes>();

  constructor(private readonly clock: Clock, private readonly random: RandomSource) {}

  get size(): number {
    return this.quotes.size;
  }

  /** How long a quote lives, in wall time (the spec's 10 minutes, scaled). */
  ttl_ms(): number {
    return this.clock.scaled(quote_ttl_ms);
  }

  /** Holds a new quote, or null when the bounds are reached by quotes still valid. */
  add(quote: Omit<ForeignQuote, 'id' | 'created_ms' | 'expires_ms'>): ForeignQuote | null {
    const now_ms = this.clock.now_ms();
    this.sweep(now_ms);
    const owner = owner_key(quote.account_id, quote.environment);
    let own = this.per_account.get(owner);
    if (this.quotes.size >= quotes_max || (own !== undefined && own.valid(now_ms) >= quotes_per_account_max)) return null;
    const held: ForeignQuote = { ...quote, id: `qt_${random_text(this.random, 'abcdefghijklmnopqrstuvwxyz0123456789', 20)}`, created_ms: now_ms, expires_ms: now_ms + this.ttl_ms() };
    this.quotes.set(held.id, held);
    if (own === undefined) this.per_account.set(owner, own = new OwnerQuotes());
    own.held(held.expires_ms);
    return held;
  }

  /**
   * The quote of this account and environment named `id`: another account's or environment's is missing,
   * as an unknown one is. An expired quote is told apart (until it is swept) so the reseller learns why.
   */
  lookup(id: string, account_id: number, environment: Environment): QuoteLookup {
    const quote = this.quotes.get(id);
    if (quote === undefined || quote.account_id !== account_id || quote.environment !== environment) return { missing: true };
    // A quote is valid up to and including its expiry instant (docs/api.md: "valid until expires_at").
    if (this.clock.now_ms() > quote.expires_ms) return { expired: quote };
    return { found: quote };
  }

  /**
   * Drops the quotes expired longer than one lifetime ago: an expired quote is still told apart from an
   * unknown one for a while, and none outlives twice its time.
   */
  private sweep(now_ms: number): void {
    const ttl = this.ttl_ms();
    for (const quote of this.quotes.values()) {
      const long_gone = quote.expires_ms + ttl < now_ms;
      // When full, any expired quote makes room; otherwise only those expired a lifetime ago go.
      if (!long_gone && !(this.quotes.size >= quotes_max && quote.expires_ms < now_ms)) break;
      this.quotes.delete(quote.id);
      const owner = owner_key(quote.account_id, quote.environment);
      if (this.per_account.get(owner)?.dropped() === 0) this.per_account.delete(owner);
    }
  }
}

/**
 * One account and environment's quotes, as their expiry instants in creation order (every quote lives as
 * long, so that is expiry order too): the sweep drops them from the front, and the bound counts only
 * those still valid, so an account whose quotes have expired quotes again at once, not when they are swept.
 */
class OwnerQuotes {
  private readonly expiries: number[] = [];
  /** Index of the first not yet dropped by the sweep. */
  private first = 0;
  /** Index of the first not yet expired (never behind first). */
  private first_valid = 0;

  held(expires_ms: number): void {
    this.expiries.push(expires_ms);
  }

  valid(now_ms: number): number {
    if (this.first_valid < this.first) this.first_valid = this.first;
    // Valid up to and including the expiry instant, as lookup() says.
    while (this.first_valid < this.expiries.length && this.expiries[this.first_valid] < now_ms) this.first_valid++;
    return this.expiries.length - this.first_valid;
  }

  /** The oldest was swept; the number still held. */
  dropped(): number {
    this.first++;
    // At most quotes_per_account_max valid plus those awaiting the sweep: compacted once half is dropped.
    if (this.first >= 1024 && this.first * 2 >= this.expiries.length) {
      this.expiries.splice(0, this.first);
      this.first_valid = Math.max(0, this.first_valid - this.first);
      this.first = 0;
    }
    return this.expiries.length - this.first;
  }
}

function owner_key(account_id: number, environment: Environment): string {
  return `${account_id}/${environment}`;
}

// ---- Exact money ------------------------------------------------------------------------------------

/** "10", "10.5", "10.50" → 1050 hundredths; null for anything else (negative, 3 decimals, exponent, too big). */
export function parse_minor(text: string, max_minor = 100_000_000_00): number | null {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
  if (match === null) return null;
  const minor = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(minor) && minor <= max_minor ? minor : null;
}

/** 1050 → "10.50". */
export function format_minor(minor: number): string {
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}

/** A rate as VTpass writes it ("118.5", "0.3125", 118.5 as a JSON number): micro-units of NGN per unit, or null. */
export function parse_rate_micro(value: unknown): bigint | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : typeof value === 'string' ? value.trim() : '';
  const match = /^(\d{1,9})(?:\.(\d{1,6}))?$/.exec(text);
  if (match === null) return null;
  const micro = BigInt(match[1]) * 1_000_000n + BigInt((match[2] ?? '').padEnd(6, '0'));
  return micro > 0n ? micro : null;
}

/** The canonical text of a rate: "118.5" → "118.500000" trimmed to "118.5". */
export function format_rate(micro: bigint): string {
  const whole = micro / 1_000_000n;
  const fraction = (micro % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}

/**
 * NGN kobo of `minor` hundredths at `rate_micro` NGN per unit, rounded up to the kobo (VTpass charges
 * variation_rate × the amount: we never charge less than it does): kobo = rate × minor / 100 × 100.
 */
export function kobo_at_rate(rate_micro: bigint, minor: number): number {
  const numerator = rate_micro * BigInt(minor);
  const kobo = (numerator + 999_999n) / 1_000_000n;
  return Number(kobo);
}
