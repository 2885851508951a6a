// The network of a phone number (docs/api.md "Phone lookup"): where a live order was delivered to it on a network
// other than its prefix's, that network (ported-numbers.ts); else the network its prefix was allocated to
// (numbering-plan.ts); else none. GET /v1/lookup/phone/{phone} answers it, and airtime and data purchases
// check the network they name against it, or take it when they name none.
import type { Journal } from '../journal/journal.js';
import type { Store } from '../journal/store.js';
import type { Environment } from '../engine/records.js';
import { api_error, type ApiError } from '../errors.js';
import { networks, type Network } from './catalog.js';
import { prefix_network } from './numbering-plan.js';
import { PortedNumbers } from './ported-numbers.js';
import { sandbox_phones } from './sandbox-numbers.js';
import type { OrderRecord } from './order.js';

export interface PhoneNetwork {
  phone: string;
  network: Network | null;
  /** Whether the number was learned on a network other than its prefix's. */
  ported: boolean;
  source: 'prefix' | 'delivery';
}

/** What a purchase says about the network: the field (optional) and the reseller's ported switch. */
export interface NetworkClaim {
  network?: Network | undefined;
  ported?: boolean | undefined;
  phone: string;
}

export class PhoneNetworks {
  constructor(private readonly journal: Journal, private readonly store: Store, readonly ported: PortedNumbers) {}

  /** Builds the table from the store (at start). */
  static load(journal: Journal, store: Store, ported_numbers_max?: number): PhoneNetworks {
    const ported = new PortedNumbers(ported_numbers_max);
    ported.load(store);
    return new PhoneNetworks(journal, store, ported);
  }

  lookup(phone: string): PhoneNetwork {
    const learned = this.ported.get(phone);
    if (learned !== null) return { phone, network: learned, ported: true, source: 'delivery' };
    return { phone, network: prefix_network(phone), ported: false, source: 'prefix' };
  }

  /**
   * The network a purchase goes out on, or its refusal: the named one when the number is on it, when the
   * reseller says the number was ported, when nothing is known of the number, or when a test key buys for one
   * of the sandbox's magic phones (they take any network); the detected one when none is named.
   */
  network_of(claim: NetworkClaim, environment: Environment): Network | ApiError {
    if (claim.network !== undefined && (claim.ported === true || (environment === 'test' && sandbox_phones.has(claim.phone)))) return claim.network;
    const detected = this.lookup(claim.phone).network;
    if (claim.network === undefined) {
      if (detected !== null) return detected;
      return api_error('validation.failed', 'The request is not valid: network is required: the network of this number cannot be told from its prefix.', {
        details: [{ field: 'network', message: `is required: the network of this number cannot be told from its prefix (one of: ${networks.join(', ')})` }],
      });
    }
    if (detected === null || detected === claim.network) return claim.network;
    return api_error('service.network_mismatch', `The number ${claim.phone} is on ${detected}, not ${claim.network}; send ported: true if it was ported to ${claim.network}.`, {
      extra: { detected_network: detected },
    });
  }

  /** A final order: a live airtime or data delivery teaches the table the number's network. */
  delivered(order: OrderRecord): void {
    if (order.environment !== 'live' || order.status !== 'delivered') return;
    if (order.service_type !== 'airtime' && order.service_type !== 'data') return;
    const network = order.network as Network | null;
    if (network === null || !(networks as readonly string[]).includes(network)) return;
    this.ported.learn(this.journal, this.store, order.recipient, network);
  }
}
