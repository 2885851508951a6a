// GET /v1/lookup/phone/{phone} (docs/api.md "Phone lookup"): the network a number is on, from the numbering plan
// or from where a live order was delivered to it. Any valid key may call it, as the catalog lists: it reads
// no account's data (docs/decisions.md "Ported numbers").
import Type from 'typebox';
import type { RouteDef } from '../route.js';
import { error_reply, success_reply } from '../../lib/reply.js';
import { invalid } from '../../errors.js';
import type { PhoneNetworks } from '../../services/phone-networks.js';

export const PhoneLookup = Type.Object({
  phone: Type.String({ description: 'the number in local form (0 and 10 digits)' }),
  network: Type.Union([Type.Enum(['mtn', 'airtel', 'glo', '9mobile']), Type.Null()], { description: 'the network the number is on; null when its prefix belongs to none of the four and no delivery says otherwise' }),
  ported: Type.Boolean({ description: 'true when a live delivery showed the number on a network other than its prefix\'s' }),
  source: Type.Enum(['prefix', 'delivery'], { description: 'prefix: the Nigerian numbering plan; delivery: where a live order was last delivered to it' }),
});

/** 0 and 10 digits, 234 and 10 digits, or +234 and 10 digits: the local form, or null. */
export function local_phone(text: string): string | null {
  const match = /^(?:0|\+?234)([0-9]{10})$/.exec(text);
  return match === null ? null : `0${match[1]}`;
}

export function lookup_routes(numbers: PhoneNetworks): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/v1/lookup/phone/:phone',
      auth: 'api_key',
      scope: null,
      account_state: false,
      doc: {
        summary: 'The network of a Nigerian mobile number: its prefix\'s, or the one a live delivery showed it ported to',
        description: 'phone: 11 digits starting with 0 (08031234567), or 234 / +234 and 10 digits. Airtime and data purchases check their network against this answer (docs/api.md "Phone lookup").',
        tags: ['Lookup'],
        response: PhoneLookup,
        errors: ['validation.failed'],
      },
      handler: (ctx) => {
        // The path comes undecoded: a + may arrive as %2B; anything else undecoded is simply not a number.
        const phone = local_phone((ctx.params.phone ?? '').replace(/^%2B/i, '+'));
        if (phone === null) {
          const message = 'must be a Nigerian number: 0 and 10 digits, or 234 or +234 and 10 digits';
          return error_reply(ctx.request_id, invalid('phone', message));
        }
        return success_reply(ctx.request_id, 200, numbers.lookup(phone));
      },
    },
  ];
}
