// What every fake funding provider offers a test (test/helpers/fake-monnify.ts, fake-paystack.ts,
// fake-flutterwave-funding.ts). Each fake speaks its provider's documented HTTP API on a real socket, answering
// with the recorded answers of test/fixtures/funding/<kind>/ (one file per documented answer, with its page),
// and keeps the provider's own record of every dedicated account and transfer, which its verify and list
// endpoints report.
import type { FundingKind } from '../../src/services/funding/funding-provider.js';

export interface FakeTransfer {
  readonly provider_reference: string;
  readonly account_number: string;
  readonly amount_kobo: number;
  readonly fee_kobo: number;
}

/** A callback as the provider would send it: the exact bytes and the documented signature header. */
export interface FakeCallback {
  readonly raw: Buffer;
  readonly headers: Record<string, string>;
}

export interface FakeFundingProvider {
  readonly kind: FundingKind;
  /** The bare origin to put in FUNDING_PROVIDERS' base_url. */
  readonly base_url: string;
  /** One FUNDING_PROVIDERS entry pointing at this fake, with the credentials it accepts. */
  entry(name: string): Record<string, string>;
  /** Money arrives in a dedicated account the fake made: recorded as the provider's API will report it, and
   *  the callback the provider would send returned (signed as documented), not sent. */
  pay_in(args: { account_number: string; amount_kobo: number; fee_kobo?: number }): FakeTransfer & { callback: FakeCallback };
  /** Every dedicated account the fake has made, in order. */
  accounts(): ReadonlyArray<{ account_number: string; bank_name: string; account_name: string; customer_reference: string }>;
  /** While true, every API request answers as the provider does when it is down (a 5xx). */
  down: boolean;
  /** The requests received whose path starts with the prefix. */
  calls(path_prefix: string): ReadonlyArray<{ method: string; path: string; body: unknown }>;
  stop(): Promise<void>;
}
