// Client-reference claims (docs/api.md "Client references"): which order took a client reference, read
// while the claim may still be staged (claim_of, in the command that debits) or from what is committed
// (claimed_seq, for a filtered history). Not here: the index that stores the claims (order-index.ts) and
// the command that makes them (place_order in account-orders.ts).
import type { Journal } from '../journal/journal.js';
import type { Environment } from './records.js';
import type { OrderRecord } from './order-record.js';
import type { Store } from '../journal/store.js';
import { fail } from '../lib/assert.js';

// ---- Client references -----------------------------------------------------------------------------
//
// A client reference is claimed by the command that debits (place_order), so two purchases with the
// same one, even at once, make exactly one order. The claim is the order's index key
// [account, environment, 'client_reference', value, seq], staged in the same commit as the order: it
// survives a restart and is rebuilt with the index. A claim staged but not yet durable is found through
// the journal (first_key_under answers with what is staged, reached through the command's effects, which
// refuse it once the command has changed the index); a failed commit drops what it staged and replaces the
// actor (Engine.reload_actor), so a claim the store never got is free again.

/** What reads the claims as staged: the journal, or inside the command that debits its effects (command-effects.ts). */
export type ClaimReader = Pick<Journal, 'read' | 'first_key_under'>;

/** The reference of the order that claimed this client reference in this environment, or null. */
export function claim_of(reader: ClaimReader, store: Store, account_id: number, environment: Environment, client_reference: string): string | null {
  const key = reader.first_key_under(store.order_index, [account_id, environment, 'client_reference', client_reference]);
  if (key === undefined) return null;
  const seq = (key as (string | number)[])[4] as number;
  const order = reader.read(store.orders, [account_id, environment, seq]) as OrderRecord | undefined;
  if (order === undefined) fail(`client reference ${client_reference} names missing order ${account_id}/${environment}/${seq}`);
  return order.reference;
}

/** The seq of the committed order holding this client reference, or null. */
export function claimed_seq(store: Store, account_id: number, environment: Environment, client_reference: string): number | null {
  const prefix = [account_id, environment, 'client_reference', client_reference];
  for (const key of store.order_index.getKeys({ start: prefix, end: [...prefix, Number.MAX_SAFE_INTEGER], limit: 1 })) return (key as (string | number)[])[4] as number;
  return null;
}
