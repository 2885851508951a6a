// An order's reference (docs/decisions.md "Identifiers and formats", services/references.ts): a new order's
// reference, unique forever (its place in the store, permuted, else random and checked against the index), and the
// order a reference names, read from memory, the journal as staged, or the store. The base of the order desk's
// layers (order-desk.ts lists them); it holds what every layer is built with.
import type { EngineContext } from '../engine/context.js';
import type { AccountActor } from '../engine/account-actor.js';
import type { Environment } from '../engine/records.js';
import type { Engine } from '../engine/engine.js';
import { random_reference_code, reference_codec, ReferenceCodec } from './references.js';
import { utc_yyyymmdd } from '../lib/time-format.js';
import type { OrderRecord } from './order.js';
import type { Provider } from './provider.js';
import type { PriceLists } from './pricing.js';
import type { PhoneNetworks } from './phone-networks.js';

/** Longer than any reference billvend makes (BV- + date + 12 characters), far below LMDB's key limit. */
export const reference_length_max = 64;

export abstract class OrderReferences {
  protected readonly codec: ReferenceCodec;
  /**
   * Whether the store holds indexed references (random ones, or any order from before references
   * named their place): a new constructed reference is then checked against them too.
   */
  protected readonly index_in_use: boolean;

  protected constructor(
    protected readonly deps: EngineContext,
    readonly providers: Record<Environment, Provider>,
    readonly pricing: PriceLists,
    /** The network of a phone number (docs/api.md "Phone lookup"): live deliveries teach its ported numbers. */
    readonly numbers: PhoneNetworks,
  ) {
    this.codec = reference_codec(deps.engine.secret_box);
    // One key read: getKeysCount counts every key whatever its limit option (src/server/serve-store.ts, the same check).
    this.index_in_use = false;
    for (const _ of deps.engine.store.order_refs.getKeys({ limit: 1 })) this.index_in_use = true;
  }

  protected get engine(): Engine {
    return this.deps.engine;
  }

  /**
   * A reference unique forever for the next order of this wallet: its place in the store, permuted
   * (services/references.ts); else random, checked against the index as staged: a random reference
   * is taken once its order's command staged it, durable or not (the journal answers with what is staged).
   */
  protected new_reference(actor: AccountActor, environment: Environment, now_ms: number): { reference: string; seq: number | null } {
    const day = utc_yyyymmdd(now_ms);
    const place = { account_id: actor.id, environment, seq: actor.wallets[environment].orders_count + 1 };
    if (ReferenceCodec.fits(place)) {
      const reference = this.codec.reference(day, place);
      if (!this.index_in_use || this.engine.journal.read(this.engine.store.order_refs, reference) === undefined) return { reference, seq: place.seq };
    }
    // seq null: a random reference, kept in the index.
    for (;;) {
      const reference = `BV-${day}-${random_reference_code(this.deps.random)}`;
      if (this.engine.journal.read(this.engine.store.order_refs, reference) !== undefined) continue;
      return { reference, seq: null };
    }
  }

  /**
   * The order with this reference as it stands: memory for open orders, else the store as staged (an
   * order that became final in a commit not yet durable is read through the journal).
   */
  find(reference: string): OrderRecord | null {
    // A reference is 24 characters; a path parameter can be up to the 16 KiB request head, and LMDB refuses
    // a key over 1,978 bytes with a RangeError (a 500 the fuzzer found once the head limit was raised).
    if (reference.length > reference_length_max) return null;
    const place = this.codec.place_of(reference);
    if (place !== null) {
      const open = this.engine.accounts.get(place.account_id)?.open_orders.get(reference);
      if (open !== undefined) return open;
      const stored = this.engine.journal.read(this.engine.store.orders, [place.account_id, place.environment, place.seq]) as OrderRecord | undefined;
      if (stored !== undefined && stored.reference === reference) return stored;
      // Only an indexed reference that happens to decode to a place can still be found.
      if (!this.index_in_use) return null;
    }
    const location = this.engine.journal.read(this.engine.store.order_refs, reference) as [number, Environment, number] | undefined;
    if (location === undefined) return null;
    const open = this.engine.accounts.get(location[0])?.open_orders.get(reference);
    if (open !== undefined) return open;
    return (this.engine.journal.read(this.engine.store.orders, location) as OrderRecord | undefined) ?? null;
  }
}
