// FUNDING_PROVIDERS' kinds and the module that speaks each (docs/funding.md). One constructor per kind,
// each from its own module; the funding core builds every configured provider through this table.
import type { FundingKind, FundingProvider, FundingProviderConfig } from './funding-provider.js';
import { make_monnify_provider } from './monnify.js';
import { make_paystack_provider } from './paystack.js';
import { make_flutterwave_funding_provider } from './flutterwave-funding.js';

export type FundingProviderConstructor = (config: FundingProviderConfig, now: () => number) => FundingProvider;

/** The kinds this build speaks: every kind has its module. */
export const funding_provider_constructors: Partial<Record<FundingKind, FundingProviderConstructor>> = {
  monnify: make_monnify_provider,
  paystack: make_paystack_provider,
  flutterwave: make_flutterwave_funding_provider,
};

/** Thrown when an entry names a kind this build has no module for (main.ts turns it into a ConfigError). */
export class FundingKindUnavailable extends Error {}

export function build_funding_provider(config: FundingProviderConfig, now: () => number): FundingProvider {
  const make = funding_provider_constructors[config.kind];
  if (make === undefined) throw new FundingKindUnavailable(`FUNDING_PROVIDERS entry "${config.name}": kind ${config.kind} is not available in this build`);
  return make(config, now);
}
