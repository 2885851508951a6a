// /v1/agents/{id}/transfers (docs/api.md "Agents"): money moved between an account and one of its own
// agents with the parent's PIN, both wallets in one commit (Engine.run_across), and an agent's transfers
// listed.
import type { Static } from 'typebox';
import type { Deps } from '../deps.js';
import type { RequestContext, RouteDef } from '../route.js';
import { error_reply, success_reply } from '../../lib/reply.js';
import { refusal_reply } from '../outcome-errors.js';
import { apply_pin_verdict, check_pin } from '../pin-check.js';
import { pagination } from '../views.js';
import { fingerprint, idempotency_key, parse_pagination, query_params } from '../request-helpers.js';
import { page_query } from '../../schemas/common.js';
import { TransferBody, TransferPage, TransferView } from '../../schemas/agent-schemas.js';
import { api_error, invalid, type ApiError } from '../../errors.js';
import { kobo_to_naira, naira_to_kobo } from '../../lib/money.js';
import { iso_us } from '../../lib/time-format.js';
import type { AccountActor } from '../../engine/account-actor.js';
import { assert_transfer, type TransferRecord } from '../../engine/records.js';
import { peek_idempotent, replayed, run_idempotent } from '../idempotent-run.js';
import { remembered_under as remembered } from '../remembered.js';
import { fail } from '../../lib/assert.js';

export function transfer_view(transfer: TransferRecord) {
  return {
    reference: transfer.reference,
    kind: transfer.kind,
    direction: transfer.direction,
    environment: transfer.environment,
    amount: kobo_to_naira(transfer.amount_kobo),
    parent_id: transfer.parent_id,
    agent_id: transfer.agent_id,
    balances_after: { parent: kobo_to_naira(transfer.parent_balance_after_kobo), agent: kobo_to_naira(transfer.agent_balance_after_kobo) },
    wallet_transactions: { parent: transfer.parent_entry_id, agent: transfer.agent_entry_id },
    created_at: iso_us(transfer.created_us),
  };
}

/** below_caller: the agent the path's id names, when it lies below the caller (agent-routes.ts). */
export function agent_transfer_routes(deps: Deps, below_caller: (ctx: RequestContext) => AccountActor | ApiError): RouteDef[] {
  const { engine, clock } = deps;
  const tags = ['Agents'];
  return [
    {
      method: 'get',
      path: '/v1/agents/:id/transfers',
      auth: 'api_key',
      scope: 'agents:manage',
      doc: {
        summary: 'An agent\'s transfers with its parent in the key\'s environment, newest first',
        description: 'Transfers and the sweeps of a closing, of an agent anywhere below the key\'s account.',
        tags,
        response: TransferPage,
        query: page_query,
        errors: ['validation.failed', 'account.not_found'],
      },
      handler: async (ctx) => {
        const paging = parse_pagination(query_params(ctx));
        if ('code' in paging) return error_reply(ctx.request_id, paging);
        const agent = below_caller(ctx);
        if ('code' in agent) return error_reply(ctx.request_id, agent);
        // The index entries are the agent's changes: once they are durable the store lists them.
        await agent.read_settled();
        const environment = ctx.environment;
        // A new options object each: lmdb-js's getCount marks the one it is given (see GET /v1/agents).
        const range = () => ({ start: [agent.id, environment, Number.MAX_SAFE_INTEGER], end: [agent.id, environment, 0], reverse: true });
        const total = engine.store.agent_transfer_index.getCount(range());
        const transfers: ReturnType<typeof transfer_view>[] = [];
        for (const { value } of engine.store.agent_transfer_index.getRange({ ...range(), offset: (paging.page - 1) * paging.per_page, limit: paging.per_page })) {
          const [parent_id, reference] = value as [number, string];
          const transfer = engine.store.agent_transfers.get([environment, parent_id, reference]) as TransferRecord | undefined;
          if (transfer === undefined) fail(`agent ${agent.id} lists a missing transfer ${reference}`);
          assert_transfer(transfer);
          transfers.push(transfer_view(transfer));
        }
        return success_reply(ctx.request_id, 200, { transfers, pagination: pagination(total, paging.per_page, paging.page) });
      },
    },
    {
      method: 'post',
      path: '/v1/agents/:id/transfers',
      auth: 'api_key',
      scope: 'agents:manage',
      body: TransferBody,
      doc: {
        summary: 'Move money between the key\'s account and one of its own agents',
        description: 'direction to_agent debits the parent and credits the agent, from_agent the reverse; both take the parent\'s PIN. Both wallets change in one step, each with an entry (transfer_out, transfer_in) naming the other account, and wallet.debited / wallet.credited on both sides. reference is the parent\'s, unique for ever per environment: a repeat of the same transfer answers it again with Idempotent-Replayed: true; the reference with another transfer is 422 idempotency.key_reused. A test key moves only test money.',
        tags,
        response: TransferView,
        success_status: 201,
        errors: ['validation.failed', 'account.not_found', 'agents.not_direct_agent', 'agents.closed', 'wallet.insufficient_funds', 'pin.incorrect', 'pin.locked', 'pin.not_set', 'auth.insufficient_scope', 'idempotency.key_reused', 'rate_limit.exceeded'],
      },
      handler: async (ctx) => {
        const key = idempotency_key(ctx);
        if (key !== null && typeof key === 'object') return error_reply(ctx.request_id, key);
        const body = ctx.body as Static<typeof TransferBody>;
        const print = fingerprint(ctx);
        const amount = naira_to_kobo(body.amount);
        if (!amount.ok) return remembered(deps, ctx, key, print, invalid('amount', amount.reason));
        if (amount.kobo === 0) return remembered(deps, ctx, key, print, invalid('amount', 'must be greater than 0'));
        if (ctx.environment === 'test' && body.environment === 'live') return remembered(deps, ctx, key, print, api_error('auth.insufficient_scope', 'A test key cannot move live money.'));
        const found = below_caller(ctx);
        if ('code' in found) return remembered(deps, ctx, key, print, found);
        const parent = ctx.actor!;
        if (found.account.parent_id !== parent.id) return remembered(deps, ctx, key, print, api_error('agents.not_direct_agent', `Account ${found.id} is an agent of account ${found.account.parent_id}: money moves only between it and that account.`));
        const request = { actor: parent, environment: ctx.environment, key, fingerprint: print, request_id: ctx.request_id, now_ms: clock.now_ms() };
        // A replay, or a repeat of a request in flight, costs no PIN check.
        const earlier = peek_idempotent(request);
        if (earlier !== null) return earlier;
        // The PIN checked as a purchase's is (front/pin-check.ts): the same refusals, the same lock-out.
        const checking = check_pin(deps, parent, ctx.request_id, body.pin, () => null);
        const checked = checking instanceof Promise ? await checking : checking;
        if ('status' in checked) return checked;
        return run_idempotent({ ...request, now_ms: clock.now_ms() }, () => {
          // The caller's actor is the one the PIN was judged against (as purchases do): if a failed commit
          // replaced it meanwhile, staging through it throws that failure, answered 503 "nothing was changed".
          // The agent as it is now.
          const sender = parent;
          const agent = engine.accounts.get(found.id) ?? fail('an agent vanished');
          // A key revoked, or the caller suspended, while the PIN was checked moves nothing (docs/api.md "Limits").
          const refused = apply_pin_verdict(deps, sender, ctx.authority ?? fail('a change without an authority'), ctx.request_id, checked);
          if (refused !== null) return refused;
          const outcome = engine.run_across([sender, agent], {
            kind: 'transfer', environment: body.environment, direction: body.direction, amount_kobo: amount.kobo, reference: body.reference,
          }, clock.now_us());
          if (!outcome.ok) return refusal_reply(ctx.request_id, outcome.refused);
          const reply = success_reply(ctx.request_id, 201, transfer_view(outcome.value.transfer), 'Transfer made.');
          return outcome.value.created ? reply : replayed(reply);
        }, undefined, !checked.awaited);
      },
    },
  ];
}
