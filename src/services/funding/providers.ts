// FUNDING_PROVIDERS' kinds and the module that speaks each (docs/funding.md). One constructor per kind,
// each from its own module; the funding core builds every configured provider through this table.
import type { FundingKind, FundingProvider, FundingProviderConfig } from './funding-provider.js';
import { make_monnify_provider } from './monnify.js';
import { make_paystack_provider } from './paystack.js';
import { make_flutterwave_funding_provider } from './flutterwave-funding.js';

export type FundingProviderConstructor = (config: FundingProviderConfig, now: () => number) => FundingProvider;

/** Every kind has its module (config.ts refuses any other kind). */
export const funding_provider_constructors: Readonly<Record<FundingKind, FundingProviderConstructor>> = {
  monnify: make_monnify_provider,
  paystack: make_paystack_provider,
  flutterwave: make_flutterwave_funding_provider,
};

export function build_funding_provider(config: FundingProviderConfig, now: () => number): FundingProvider {
  return funding_provider_constructors[config.kind](config, now);
}
