// Reseller price lists (docs/api.md "Pricing", docs/decisions.md "Pricing"): per tier, discount rates in
// basis points by product. A purchase of face value `amount` debits the wallet
//   amount_charged = amount − commission,  commission = floor(amount_kobo × rate_bp / 10000)
// in integer kobo. The rate is the tier's most specific rule: service type and network (airtime, data),
// disco (electricity) or TV provider (tv) beats the service type alone; no rule is 0 bp. An account's
// tier without rules (any name) is simply 0%.
//
// Rules are journaled into the catalog database under `pricing:{tier}` like the operator's plan
// changes (services/catalog.ts), so they survive restarts and replicate in cluster mode, and they are
// resolved once per change into nested maps: a purchase's rate is three Map lookups, no allocation.
import type { Journal } from '../journal/journal.js';
import type { Store } from '../journal/store.js';
import { service_type_names, type ServiceType } from './order.js';
import { networks, tv_providers, type Catalog } from './catalog.js';
import { fail } from '../lib/assert.js';
import type { AccountRecord, AgentPriceRule } from '../engine/records.js';
import type { OrderCommission } from '../engine/order-record.js';

/** Every service type can be priced: the one list (engine/order-record.ts). */
export const pricing_service_types: readonly ServiceType[] = service_type_names;
/** Rules of one tier: one per product is at most 4 + 4 + 9 + 3 + 4 = 24 today; room for services to come. */
export const rules_max = 200;
/** Tiers that may hold rules at once (accounts may name any tier; those without rules are 0%). */
export const tiers_max = 1_000;
/**
 * The highest rate. 10000 bp (100%) would make an order free, and an order is always a wallet debit of
 * at least 1 kobo: entries are positive, a refund gives back what was debited, the daily limit counts
 * it. With rate_bp ≤ 9999 every positive amount leaves a charge of at least 1 kobo.
 */
export const rate_bp_max = 9_999;
export const basis_points = 10_000;
export const pricing_rounding_rule = 'commission = floor(amount_kobo * rate_bp / 10000) in integer kobo; amount_charged = amount - commission';

/** Which field narrows a rule of each service type. */
export type NarrowField = 'network' | 'disco' | 'provider';
export const narrow_field_of: Record<ServiceType, NarrowField> = { airtime: 'network', data: 'network', electricity: 'disco', tv: 'provider', education: 'provider', internet: 'provider', showmax: 'provider', international: 'provider' };
/** The providers of the families narrowed by provider (exam bodies for education, ISPs for internet). */
const providers_of: Partial<Record<ServiceType, readonly string[]>> = { tv: tv_providers, education: ['waec', 'jamb'], internet: ['smile', 'spectranet'], showmax: ['showmax'], international: ['foreign-airtime'] };
const narrow_fields: readonly NarrowField[] = ['network', 'disco', 'provider'];

export interface PriceRule {
  service_type: ServiceType;
  network: string | null;
  disco: string | null;
  provider: string | null;
  rate_bp: number;
}

interface StoredTier {
  tier: string;
  rules: PriceRule[];
  updated_us: number;
  /** Who bears a funding provider's fee (docs/funding.md "Fees"); absent in tiers stored before: the operator. */
  funding_fee?: 'operator' | 'reseller';
}

/** One service type's rates in one tier: the base rate and the narrowed ones. */
interface ServiceRates {
  base_bp: number;
  narrowed: Map<string, number>;
}

/** commission = floor(amount_kobo × rate_bp / 10000), exact: amount_kobo ≤ 10^10 and rate_bp < 10^4 keep the product below 2^53. */
export function commission_kobo(amount_kobo: number, rate_bp: number): number {
  const product = amount_kobo * rate_bp;
  return (product - (product % basis_points)) / basis_points;
}

export interface RuleProblem {
  field: string;
  message: string;
}

/** What the narrowing value of an order is, for the rate lookup. */
export function narrow_value(order: { service_type: ServiceType; network: string | null; disco: string | null; provider: string | null }): string | null {
  switch (order.service_type) {
    case 'airtime':
    case 'data':
      return order.network;
    case 'electricity':
      return order.disco;
    case 'tv':
    case 'education':
    case 'internet':
    case 'showmax':
    case 'international':
      return order.provider;
  }
}

export class PriceLists {
  private readonly stored = new Map<string, StoredTier>();
  private readonly resolved = new Map<string, Map<ServiceType, ServiceRates>>();

  constructor(private readonly store: Store, private readonly catalog: Catalog) {
    for (const { key, value } of store.catalog.getRange({ start: 'pricing:', end: 'pricing;' })) {
      const tier = value as StoredTier;
      if (`pricing:${tier.tier}` !== key) fail(`price list ${String(key)} names tier ${tier.tier}`);
      this.install(tier);
    }
  }

  private install(tier: StoredTier): void {
    const by_service = new Map<ServiceType, ServiceRates>();
    for (const rule of tier.rules) {
      if (!Number.isSafeInteger(rule.rate_bp) || rule.rate_bp < 0 || rule.rate_bp > rate_bp_max) fail(`price rule of ${tier.tier} has rate ${rule.rate_bp}`);
      let rates = by_service.get(rule.service_type);
      if (rates === undefined) by_service.set(rule.service_type, (rates = { base_bp: 0, narrowed: new Map() }));
      const narrow = rule[narrow_field_of[rule.service_type]];
      if (narrow === null) rates.base_bp = rule.rate_bp;
      else rates.narrowed.set(narrow, rule.rate_bp);
    }
    this.stored.set(tier.tier, tier);
    this.resolved.set(tier.tier, by_service);
  }

  /** The rate of a product for a tier: the most specific rule, else 0. Runs on every purchase. */
  rate_bp(tier: string, service_type: ServiceType, narrow: string | null): number {
    const rates = this.resolved.get(tier)?.get(service_type);
    if (rates === undefined) return 0;
    if (narrow !== null) {
      const narrowed = rates.narrowed.get(narrow);
      if (narrowed !== undefined) return narrowed;
    }
    return rates.base_bp;
  }

  rules_of(tier: string): PriceRule[] | null {
    return this.stored.get(tier)?.rules ?? null;
  }

  tiers(): StoredTier[] {
    return [...this.stored.values()].sort((a, b) => (a.tier < b.tier ? -1 : a.tier > b.tier ? 1 : 0));
  }

  /**
   * Checks a tier's new rules: known service types, a narrowing field that applies to the type and
   * names a known network, disco or provider, a rate within bounds, no two rules for one product.
   * Returns the rules in canonical form (a disco's code becomes its service ID), or the problems.
   */
  check_rules(input: readonly Record<string, unknown>[]): { rules: PriceRule[] } | { problems: RuleProblem[] } {
    const problems: RuleProblem[] = [];
    if (input.length > rules_max) return { problems: [{ field: 'rules', message: `must hold at most ${rules_max} rules (rules_max)` }] };
    const rules: PriceRule[] = [];
    const seen = new Map<string, number>();
    input.forEach((raw, index) => {
      const at = `rules.${index}`;
      const service_type = raw.service_type as ServiceType;
      if (!pricing_service_types.includes(service_type)) {
        problems.push({ field: `${at}.service_type`, message: `must be one of: ${pricing_service_types.join(', ')}` });
        return;
      }
      const allowed = narrow_field_of[service_type];
      const rule: PriceRule = { service_type, network: null, disco: null, provider: null, rate_bp: raw.rate_bp as number };
      for (const field of narrow_fields) {
        const value = raw[field];
        if (value === undefined || value === null) continue;
        if (field !== allowed) {
          problems.push({ field: `${at}.${field}`, message: `does not apply to ${service_type} (only ${allowed} narrows it)` });
          continue;
        }
        const text = String(value);
        if (field === 'network') {
          if (!(networks as readonly string[]).includes(text)) problems.push({ field: `${at}.network`, message: `must be one of: ${networks.join(', ')}` });
          else rule.network = text;
        } else if (field === 'provider') {
          // The providers of this family: TV's, the exam bodies of education, the ISPs of internet.
          const providers = providers_of[service_type] ?? [];
          if (!providers.includes(text)) problems.push({ field: `${at}.provider`, message: `must be one of: ${providers.join(', ')}` });
          else rule.provider = text;
        } else {
          const disco = this.catalog.disco(text);
          if (disco === undefined) problems.push({ field: `${at}.disco`, message: 'must be a distribution company service ID or code (GET /v1/services/electricity/discos)' });
          else rule.disco = disco.service_id;
        }
      }
      const product = `${service_type}/${rule[allowed] ?? '*'}`;
      const first = seen.get(product);
      if (first !== undefined) problems.push({ field: at, message: `duplicates rules.${first} (${product})` });
      else seen.set(product, index);
      rules.push(rule);
    });
    return problems.length > 0 ? { problems } : { rules };
  }

  /** Who bears a funding provider's fee for an account of this tier: the operator unless the tier says reseller. */
  funding_fee_bearer(tier: string): 'operator' | 'reseller' {
    return this.stored.get(tier)?.funding_fee ?? 'operator';
  }

  /** Whether replacing this tier's rules would exceed tiers_max. */
  would_exceed_tiers(tier: string): boolean {
    return !this.stored.has(tier) && this.stored.size >= tiers_max;
  }

  /** Operator change: journaled (replicated in cluster mode), effective for the next purchase. */
  replace(journal: Journal, tier: string, rules: PriceRule[], now_us: number, funding_fee?: 'operator' | 'reseller'): StoredTier {
    const next: StoredTier = { tier, rules, updated_us: now_us };
    if (funding_fee === 'reseller') next.funding_fee = funding_fee;
    this.install(next);
    journal.put(0, this.store.catalog, `pricing:${tier}`, next);
    return next;
  }

  /** Removes a tier's rules; false when it had none. */
  remove(journal: Journal, tier: string): boolean {
    if (!this.stored.delete(tier)) return false;
    this.resolved.delete(tier);
    journal.remove(0, this.store.catalog, `pricing:${tier}`);
    return true;
  }

  // ---- Prices down the tree (docs/api.md "Agent pricing", docs/decisions.md "Commissions down the tree") ----

  /**
   * An account's effective rate for a product: an account at the top, its tier's; an agent, its own rule
   * (the most specific, else 0) clamped to its parent's effective rate, so that no ancestor ever earns a
   * negative commission even when the parent's own rate dropped after the agent's list was set.
   * `chain` is the account and its ancestors, nearest first (at most agent_depth_max).
   */
  chain_rate_bp(chain: readonly AccountRecord[], service_type: ServiceType, narrow: string | null): number[] {
    const rates = new Array<number>(chain.length);
    const top = chain.length - 1;
    rates[top] = this.rate_bp(chain[top].tier, service_type, narrow);
    for (let i = top - 1; i >= 0; i--) rates[i] = Math.min(rule_rate_bp(chain[i].price_rules, service_type, narrow), rates[i + 1]);
    return rates;
  }

  /**
   * An agent's purchase priced down its chain (nearest first): the agent's commission (its discount) and
   * what each ancestor earns, the difference between its child's charge and its own. A quote's fixed
   * commission stands for the agent's; an ancestor whose own charge would be above its child's earns 0.
   */
  agent_commissions(chain: readonly AccountRecord[], service_type: ServiceType, narrow: string | null, amount_kobo: number, quoted_commission_kobo: number | undefined): { commission_kobo: number; commissions: OrderCommission[] } {
    const rates = this.chain_rate_bp(chain, service_type, narrow);
    const commission = quoted_commission_kobo ?? commission_kobo(amount_kobo, rates[0]);
    let child_charge = amount_kobo - commission;
    const commissions: OrderCommission[] = [];
    for (let i = 1; i < chain.length; i++) {
      const own_charge = amount_kobo - commission_kobo(amount_kobo, rates[i]);
      const earned = Math.max(0, child_charge - own_charge);
      if (earned > 0) commissions.push({ account_id: chain[i].id, amount_kobo: earned });
      child_charge -= earned;
    }
    return { commission_kobo: commission, commissions };
  }

  /** The products a service type's rules cover: its networks, discos or providers. */
  products_of(service_type: ServiceType): readonly string[] {
    const field = narrow_field_of[service_type];
    return field === 'network' ? networks : field === 'provider' ? providers_of[service_type] ?? [] : this.catalog.discos.map((d) => d.service_id);
  }

  /**
   * Checks an agent's new rules against its parent (chain: the parent and its ancestors, nearest first):
   * each rule's rate may not exceed the parent's effective rate on any product the rule decides (a base
   * rule decides every product of its service type that no narrowed rule of the list names). A product the
   * parent has no rate for is 0 bp for it. Returns the problems, each naming the rule's rate_bp.
   */
  check_agent_rules(rules: readonly PriceRule[], parent_chain: readonly AccountRecord[]): RuleProblem[] {
    const problems: RuleProblem[] = [];
    rules.forEach((rule, index) => {
      const field = narrow_field_of[rule.service_type];
      const narrowed = rule[field];
      const decided = narrowed !== null ? [narrowed]
        : this.products_of(rule.service_type).filter((p) => !rules.some((r) => r.service_type === rule.service_type && r[field] === p));
      let allowed = decided.length === 0 ? this.chain_rate_bp(parent_chain, rule.service_type, null)[0] : rate_bp_max;
      for (const product of decided) allowed = Math.min(allowed, this.chain_rate_bp(parent_chain, rule.service_type, product)[0]);
      if (rule.rate_bp > allowed) {
        const product = `${rule.service_type}${narrowed === null ? '' : `/${narrowed}`}`;
        problems.push({ field: `rules.${index}.rate_bp`, message: `must not be above the parent's own rate for ${product} (${allowed} bp)` });
      }
    });
    return problems;
  }

  /** Every product's effective rate for a tier: each service type and each network, disco or provider. */
  effective_rates(tier: string): { service_type: ServiceType; network: string | null; disco: string | null; provider: string | null; rate_bp: number }[] {
    return this.rates_by_product((service_type, value) => this.rate_bp(tier, service_type, value));
  }

  /** Every product's effective rate for an account and its ancestors (nearest first): an agent's, clamped (chain_rate_bp). */
  chain_rates(chain: readonly AccountRecord[]): { service_type: ServiceType; network: string | null; disco: string | null; provider: string | null; rate_bp: number }[] {
    return this.rates_by_product((service_type, value) => this.chain_rate_bp(chain, service_type, value)[0]);
  }

  private rates_by_product(rate: (service_type: ServiceType, value: string) => number): { service_type: ServiceType; network: string | null; disco: string | null; provider: string | null; rate_bp: number }[] {
    const out: { service_type: ServiceType; network: string | null; disco: string | null; provider: string | null; rate_bp: number }[] = [];
    for (const service_type of pricing_service_types) {
      const values = narrow_field_of[service_type] === 'network' ? networks
        : narrow_field_of[service_type] === 'provider' ? providers_of[service_type] ?? []
          : this.catalog.discos.map((d) => d.service_id);
      for (const value of values) {
        out.push({
          service_type,
          network: narrow_field_of[service_type] === 'network' ? value : null,
          disco: narrow_field_of[service_type] === 'disco' ? value : null,
          provider: narrow_field_of[service_type] === 'provider' ? value : null,
          rate_bp: rate(service_type, value),
        });
      }
    }
    return out;
  }
}

/** The most specific of an agent's rules for a product, else 0 (as a tier's: PriceLists.rate_bp). Agents only: at most rules_max rules. */
export function rule_rate_bp(rules: readonly AgentPriceRule[] | undefined, service_type: ServiceType, narrow: string | null): number {
  if (rules === undefined) return 0;
  let base = 0;
  const field = narrow_field_of[service_type];
  for (const rule of rules) {
    if (rule.service_type !== service_type) continue;
    const value = rule[field];
    if (value === null) base = rule.rate_bp;
    else if (value === narrow) return rule.rate_bp;
  }
  return base;
}
