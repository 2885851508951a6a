// The contract between billvend's funding core (dedicated accounts, callbacks, verification, the reconciler)
// and one funding provider: Monnify reserved accounts, Paystack dedicated virtual accounts, Flutterwave
// virtual account numbers (docs/funding.md). One module per kind implements FundingProvider; the core never
// reads a provider's wire format, and a provider never touches a wallet.
//
// Money crosses this boundary in integer kobo: a provider converts its own amounts (naira with decimals in
// Monnify's and Flutterwave's answers, kobo in Paystack's) exactly, never through floating point arithmetic
// on the result.

export type FundingKind = 'monnify' | 'paystack' | 'flutterwave';

/** One entry of FUNDING_PROVIDERS (docs/operations.md "Funding providers"). */
export interface FundingProviderConfig {
  /** The operator's name for it: unique, used in URLs (/callbacks/funding/{name}) and on every row. */
  readonly name: string;
  readonly kind: FundingKind;
  /** The bare origin (https://api.monnify.com), as in UPSTREAMS; each module appends its documented paths. */
  readonly base_url: string;
  readonly api_key: string;
  readonly secret_key: string;
  /** Monnify's contract code. */
  readonly contract_code?: string;
  /** Flutterwave's verif-hash secret. */
  readonly secret_hash?: string;
  /** Per-request timeout. */
  readonly timeout_ms: number;
}

/** Who the dedicated accounts are for. */
export interface FundingCustomer {
  readonly account_id: number;
  /** billvend's stable reference for this customer at every provider: a repeat is idempotent with it. */
  readonly reference: string;
  readonly name: string;
  readonly email: string;
  readonly phone: string | null;
  /** Plain only in memory, for the one request that needs it; sealed at rest by the core. */
  readonly bvn: string | null;
  readonly nin: string | null;
}

/** One bank account a provider made for the customer (a provider may give several banks). */
export interface DedicatedAccount {
  readonly bank_name: string;
  readonly account_number: string;
  readonly account_name: string;
  readonly status: 'active' | 'pending';
}

/** A transfer as the provider's own API reports it: what the core credits, never the callback's claim. */
export interface ProviderTransfer {
  /** The provider's unique id for the transfer: Monnify transactionReference, Paystack reference,
   *  Flutterwave's transaction id (never its tx_ref, which repeats for a static account). */
  readonly provider_reference: string;
  readonly status: 'successful' | 'pending' | 'failed';
  readonly amount_paid_kobo: number;
  readonly fee_kobo: number;
  readonly settlement_kobo: number;
  /** The dedicated account the money went into, when the provider says. */
  readonly account_number: string | null;
  /** billvend's customer reference, when the provider echoes it. */
  readonly customer_reference: string | null;
  readonly paid_at: string | null;
}

/** What a signed callback claims; verified through the provider's API before anything counts. */
export interface CallbackClaim {
  readonly provider_reference: string;
  readonly amount_paid_kobo: number;
  readonly account_number: string | null;
  readonly customer_reference: string | null;
}

/** A provider refused or could not be reached; `retryable` when asking again later may succeed. */
export class FundingProviderError extends Error {
  constructor(message: string, readonly retryable: boolean) {
    super(message);
    this.name = 'FundingProviderError';
  }
}

export interface FundingProvider {
  readonly config: FundingProviderConfig;
  /** Creates (or finds again, idempotently by customer.reference) the customer's dedicated accounts.
   *  Throws FundingProviderError. */
  create_accounts(customer: FundingCustomer, signal: AbortSignal): Promise<DedicatedAccount[]>;
  /** The callback's signature over the exact raw bytes, as the provider documents it; header names lower-case. */
  signature_valid(raw: Uint8Array, headers: Readonly<Record<string, string>>): boolean;
  /** The claim of a signed callback body, or null when it is not a completed transfer into a dedicated account
   *  (answered 200 and ignored). Never throws on a malformed body: null. */
  parse_callback(body: unknown): CallbackClaim | null;
  /** The transfer as the provider's API reports it; null when the provider does not know the reference.
   *  Throws FundingProviderError when the provider cannot be asked. */
  verify(provider_reference: string, signal: AbortSignal): Promise<ProviderTransfer | null>;
  /** Every transfer into this provider's dedicated accounts between two instants (ms since the epoch),
   *  all pages read, for the reconciler. Throws FundingProviderError. */
  recent_transfers(from_ms: number, to_ms: number, signal: AbortSignal): Promise<ProviderTransfer[]>;
}
