// The dashboard's transaction PIN (docs/api.md "Dashboard and documentation"): set the first time with
// the password, changed with the current PIN or the password; either is counted toward its lock-out.
import type { Static } from 'typebox';
import Type from 'typebox';
import type { Deps } from '../front/deps.js';
import type { RouteDef } from '../front/route.js';
import { error_reply, success_reply } from '../lib/reply.js';
import { api_error, invalid } from '../errors.js';
import { refusal_reply } from '../front/outcome-errors.js';
import { password_check_busy_error } from './sessions.js';
import { dashboard_doc as doc } from './route-doc.js';

const PinBody = Type.Object({
  new_pin: Type.String({ pattern: '^[0-9]{5}$', errorMessage: 'must be exactly 5 digits' }),
  current_pin: Type.Optional(Type.String({ pattern: '^[0-9]{5}$', errorMessage: 'must be exactly 5 digits' })),
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

export function pin_session_routes(deps: Deps): RouteDef[] {
  const { engine, clock } = deps;
  return [
    {
      method: 'post',
      path: '/dashboard/api/pin',
      auth: 'session',
      body: PinBody,
      idempotent: false,
      doc: doc('Set or change the transaction PIN, with the current PIN or the password'),
      handler: async (ctx) => {
        const actor = ctx.actor!;
        const body = ctx.body as Static<typeof PinBody>;
        const now_ms = clock.now_ms();
        if (body.current_pin !== undefined && actor.account.pin_hash !== null) {
          const generation = actor.account.pin_generation;
          const correct = actor.pin_lock_remaining_ms(now_ms) > 0 ? false : await engine.pin_cache.verify(actor.id, generation, body.current_pin, actor.account.pin_hash);
          if (correct === 'busy') return refusal_reply(ctx.request_id, { refusal: 'pin_check_busy' });
          const verdict = engine.run(actor, { kind: 'pin_verdict', correct, generation, now_ms: clock.now_ms() });
          if (verdict === 'stale') return error_reply(ctx.request_id, api_error('pin.incorrect', 'The PIN changed meanwhile; try again.'));
          if (verdict !== 'ok') return refusal_reply(ctx.request_id, verdict);
        } else if (body.password !== undefined) {
          // In the password lane, as a sign-in's (regression: it ran beside the lanes, unbounded).
          const correct = actor.password_lock_remaining_ms(now_ms) > 0 ? false : await deps.hash_lanes.password.verify(body.password, actor.account.password_hash);
          if (correct === 'busy') return error_reply(ctx.request_id, password_check_busy_error());
          const verdict = engine.run(actor, { kind: 'password_verdict', correct, now_ms: clock.now_ms() });
          if (verdict !== 'ok') return refusal_reply(ctx.request_id, verdict);
        } else {
          const field = actor.account.pin_hash === null ? 'password' : 'current_pin';
          return error_reply(ctx.request_id, invalid(field, 'is required'));
        }
        // The new PIN's hash in the PIN lane, as every PIN's scrypt (regression: it ran beside the lanes,
        // and 300 changes at once with the cached current PIN took another tenant's p99 to 2.3 s).
        const pin_hash = await deps.hash_lanes.pin.hash(body.new_pin);
        if (pin_hash === 'busy') return refusal_reply(ctx.request_id, { refusal: 'pin_check_busy' });
        engine.run(actor, { kind: 'set_pin', pin_hash });
        return success_reply(ctx.request_id, 200, { pin_set: true }, 'Transaction PIN saved.');
      },
    },
  ];
}
