// Every response code VTpass documents, with what it means and how billvend handles it (docs/upstreams.md
// "VTpass response codes", which holds the same table with its sources). One table, read by the adapter
// (src/services/live-provider.ts) and checked against the document by test/upstream-fidelity.test.ts.
//
// The status inside an answer (`content.transactions.status`) decides whenever it is present, whatever the
// code; a code decides only for an answer without one. VTpass: "Take any response that differs from the
// guidelines provided here as pending, and initiate a transaction requery", so a code missing here is
// unclear, never a failure.

/**
 * - status: the answer carries the transaction's status, which decides; without one it is unclear.
 * - processing: accepted, not finished: re-query under the same request id.
 * - refused: not processed and not charged: a definite refusal before processing; the order may move to
 *   the next upstream of its route (docs/decisions.md "Upstream routing and failover").
 * - failed: a definite failure of this transaction: refunded, never sent elsewhere.
 * - duplicate: 019, VTpass's duplicate guard. The same service for the same biller within 30 s may be a
 *   purchase already made: never a failure and never a failover; the order is re-queried under its own
 *   request id and refunded only on a definite answer.
 * - not_found: the request id is unknown (re-query only): believed after a grace (order-desk not_found_grace_ms).
 * - unclear: anything else: re-query.
 */
export type VtpassCodeClass = 'status' | 'processing' | 'refused' | 'failed' | 'duplicate' | 'not_found' | 'unclear';

export interface VtpassCode {
  code: string;
  meaning: string;
  class: VtpassCodeClass;
}

/** https://www.vtpass.com/documentation/response-codes/ (both tables: transaction/requery and verification). */
export const vtpass_codes: readonly VtpassCode[] = [
  { code: '000', meaning: 'TRANSACTION PROCESSED', class: 'status' },
  { code: '001', meaning: 'TRANSACTION QUERY', class: 'status' },
  { code: '044', meaning: 'TRANSACTION RESOLVED', class: 'status' },
  { code: '099', meaning: 'TRANSACTION IS PROCESSING', class: 'processing' },
  { code: '089', meaning: 'REQUEST IS BEING PROCESSED', class: 'processing' },
  { code: '091', meaning: 'TRANSACTION NOT PROCESSED', class: 'refused' },
  { code: '016', meaning: 'TRANSACTION FAILED', class: 'failed' },
  { code: '040', meaning: 'TRANSACTION REVERSAL', class: 'failed' },
  { code: '010', meaning: 'VARIATION CODE DOES NOT EXIST', class: 'refused' },
  { code: '011', meaning: 'INVALID ARGUMENTS', class: 'refused' },
  { code: '012', meaning: 'PRODUCT DOES NOT EXIST', class: 'refused' },
  { code: '013', meaning: 'BELOW MINIMUM AMOUNT ALLOWED', class: 'refused' },
  { code: '014', meaning: 'REQUEST ID ALREADY EXIST', class: 'unclear' },
  { code: '015', meaning: 'INVALID REQUEST ID', class: 'not_found' },
  { code: '017', meaning: 'ABOVE MAXIMUM AMOUNT ALLOWED', class: 'refused' },
  { code: '018', meaning: 'LOW WALLET BALANCE', class: 'refused' },
  { code: '019', meaning: 'LIKELY DUPLICATE TRANSACTION', class: 'duplicate' },
  { code: '020', meaning: 'BILLER CONFIRMED', class: 'refused' },
  { code: '021', meaning: 'ACCOUNT LOCKED', class: 'refused' },
  { code: '022', meaning: 'ACCOUNT SUSPENDED', class: 'refused' },
  { code: '023', meaning: 'API ACCESS NOT ENABLE FOR USER', class: 'refused' },
  { code: '024', meaning: 'ACCOUNT INACTIVE', class: 'refused' },
  { code: '025', meaning: 'RECIPIENT BANK INVALID', class: 'refused' },
  { code: '026', meaning: 'RECIPIENT ACCOUNT COULD NOT BE VERIFIED', class: 'refused' },
  { code: '027', meaning: 'IP NOT WHITELISTED', class: 'refused' },
  { code: '028', meaning: 'PRODUCT IS NOT WHITELISTED ON YOUR ACCOUNT', class: 'refused' },
  { code: '030', meaning: 'BILLER NOT REACHABLE AT THIS POINT', class: 'refused' },
  { code: '031', meaning: 'BELOW MINIMUM QUANTITY ALLOWED', class: 'refused' },
  { code: '032', meaning: 'ABOVE MAXIMUM QUANTITY ALLOWED', class: 'refused' },
  { code: '034', meaning: 'SERVICE SUSPENDED', class: 'refused' },
  { code: '035', meaning: 'SERVICE INACTIVE', class: 'refused' },
  { code: '083', meaning: 'SYSTEM ERROR', class: 'unclear' },
  { code: '085', meaning: 'IMPROPER REQUEST ID', class: 'refused' },
  { code: '087', meaning: 'INVALID CREDENTIALS', class: 'refused' },
];

const by_code = new Map(vtpass_codes.map((c) => [c.code, c]));

/** The documented entry of a code, or null for one VTpass does not document (unclear). */
export function vtpass_code(code: string): VtpassCode | null {
  return by_code.get(code) ?? null;
}

/**
 * VTpass's transaction statuses (`content.transactions.status`): initiated, pending, delivered, successful,
 * failed, reversed (https://www.vtpass.com/documentation/response-codes/, "It would contain the actual
 * state like initiated, pending, delivered, reversed, resolved"). What each one makes of an order.
 */
export type VtpassStatusClass = 'delivered' | 'failed' | 'reversed' | 'processing';

export function vtpass_status(status: string): VtpassStatusClass | null {
  switch (status) {
    case 'delivered':
    case 'successful':
      return 'delivered';
    case 'failed':
      return 'failed';
    case 'reversed':
      return 'reversed';
    case 'initiated':
    case 'pending':
    case 'processing':
      return 'processing';
    default:
      return null;
  }
}

/**
 * A request id as VTpass asks for it (https://www.vtpass.com/documentation/buying-services/): 12
 * characters or more, the first 12 numeric and today's date and time in Africa/Lagos (YYYYMMDDHHII).
 */
export const vtpass_request_id_pattern = /^\d{12}[A-Za-z0-9]*$/;
