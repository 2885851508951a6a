// The commands that span accounts (docs/decisions.md "Agents", "Money across accounts"): an agent opened
// under its parent, a transfer between them, an agent closed with its balances swept back. Each is run by
// Engine.run_across over actors the caller loaded first; it runs synchronously over all of them, and what
// it stages on each lands in one journal group (one commit), or nothing does. Outcomes are data, as for
// one account's commands (engine/account-command.ts): a value or a Refusal.
import type { AccountActor } from './account-actor.js';
import type { CommandEffects } from './command-effects.js';
import { check_low_balance } from './low-balance.js';
import { ok, refused, type Outcome } from './refusal.js';
import { assert_transfer, environments, type AccountRecord, type Environment, type TransferRecord } from './records.js';
import { fail } from '../lib/assert.js';
import type { AccountCommand } from './account-command.js';

export type TransferDirection = 'to_agent' | 'from_agent';

/** Each command across accounts, by kind; the actors are always [parent, agent]. */
export interface CrossFields {
  /** The agent's record, email claim and wallets, and the parent's index entry and count of open agents. */
  open_agent: { email: string };
  /** Moves amount_kobo between the parent's and the agent's wallets of the environment, once per reference. */
  transfer: { environment: Environment; direction: TransferDirection; amount_kobo: number; reference: string };
  /** Sweeps the agent's balances back to the parent, revokes its keys and closes it. */
  close_agent: Record<never, never>;
  /**
   * An order command of an agent (a debit or a refund) run over [agent, parent, grandparent?]: its
   * ancestors' commission entries land in the same record (engine/account-orders.ts). Engine.run routes it.
   */
  agent_order: { command: AccountCommand };
}

export interface CrossOutcomes {
  open_agent: AccountRecord;
  /** created false: the reference named this same transfer already (a repeat), nothing moved. */
  transfer: Outcome<{ transfer: TransferRecord; created: boolean }>;
  close_agent: Outcome<{ swept: TransferRecord[]; keys_revoked: number; account: AccountRecord }>;
  agent_order: unknown;
}

export type CrossKind = keyof CrossFields;
export type CrossCommand = { [K in CrossKind]: { kind: K } & CrossFields[K] }[CrossKind];
export type CrossOutcome<C extends CrossCommand> = CrossOutcomes[C['kind']];

/** The reference of a closed agent's sweep: '/' is never in a reference a parent gives (schemas/agent-schemas.ts). */
export function sweep_reference(agent_id: number): string {
  return `close/${agent_id}`;
}

/**
 * Called by Engine.run_across, with every actor of the command entered in its effects: the accounts it
 * holds (effects.actors, in the caller's order), the command's now (effects.now_us), its reads.
 */
export function execute_across<C extends CrossCommand>(effects: CommandEffects<AccountActor>, command: C): CrossOutcome<C> {
  const { actors, now_us } = effects;
  if (command.kind === 'agent_order') {
    for (let i = 1; i < actors.length; i++) if (actors[i - 1].account.parent_id !== actors[i].id) fail(`agent_order: account ${actors[i].id} is not the parent of ${actors[i - 1].id}`);
    return actors[0].apply_command(command.command, now_us) as CrossOutcome<C>;
  }
  if (actors.length !== 2) fail(`${command.kind} runs over a parent and its agent, not ${actors.length} accounts`);
  const [parent, agent] = actors;
  if (agent.account.parent_id !== parent.id) fail(`${command.kind}: account ${agent.id} is not an agent of ${parent.id}`);
  switch (command.kind) {
    case 'open_agent': return open_agent(parent, agent, command.email) as CrossOutcome<C>;
    case 'transfer': return transfer(effects, parent, agent, command) as CrossOutcome<C>;
    case 'close_agent': return close_agent(parent, agent, now_us) as CrossOutcome<C>;
  }
  return fail('unknown command across accounts');
}

function open_agent(parent: AccountActor, agent: AccountActor, email: string): AccountRecord {
  const opened = agent.open_account(email);
  parent.replace_account({ ...parent.account, agents_open: (parent.account.agents_open ?? 0) + 1 });
  parent.stage_put(parent.engine.store.account_children, [parent.id, agent.id], true);
  return opened;
}

function transfer(effects: CommandEffects<AccountActor>, parent: AccountActor, agent: AccountActor, command: CrossFields['transfer']): CrossOutcomes['transfer'] {
  const now_us = effects.now_us;
  // Through the command's effects and the journal: a reference claimed in a commit not yet durable is claimed already.
  const claimed = effects.read(parent.engine.store.agent_transfers, [command.environment, parent.id, command.reference]) as TransferRecord | undefined;
  if (claimed !== undefined) {
    assert_transfer(claimed);
    if (claimed.kind !== 'transfer' || claimed.agent_id !== agent.id || claimed.direction !== command.direction || claimed.amount_kobo !== command.amount_kobo) {
      return refused({ refusal: 'transfer_reference_differs' });
    }
    return ok({ transfer: claimed, created: false });
  }
  if (agent.account.status === 'closed') return refused({ refusal: 'agent_closed' });
  if (command.amount_kobo <= 0) return refused({ refusal: 'amount_not_positive' });
  const sender = command.direction === 'to_agent' ? parent : agent;
  const balance_kobo = sender.wallets[command.environment].balance_kobo;
  if (balance_kobo < command.amount_kobo) return refused({ refusal: 'insufficient_funds', balance_kobo, charged_kobo: command.amount_kobo });
  return ok({ transfer: move(parent, agent, command.environment, command.direction, command.amount_kobo, command.reference, 'transfer', now_us), created: true });
}

function close_agent(parent: AccountActor, agent: AccountActor, now_us: number): CrossOutcomes['close_agent'] {
  if (agent.account.status === 'closed') return refused({ refusal: 'agent_closed' });
  // Its own agents would be left without a parent that can act; its open orders would refund into a closed wallet.
  if ((agent.account.agents_open ?? 0) > 0) return refused({ refusal: 'agent_not_closable', reason: 'agents', count: agent.account.agents_open! });
  if (agent.open_orders.size > 0) return refused({ refusal: 'agent_not_closable', reason: 'orders', count: agent.open_orders.size });
  const swept: TransferRecord[] = [];
  for (const environment of environments) {
    const balance_kobo = agent.wallets[environment].balance_kobo;
    if (balance_kobo > 0) swept.push(move(parent, agent, environment, 'from_agent', balance_kobo, sweep_reference(agent.id), 'sweep', now_us));
  }
  const keys_revoked = agent.revoke_every_key(now_us);
  agent.replace_account({ ...agent.account, status: 'closed' });
  const open = parent.account.agents_open ?? 0;
  if (open < 1) fail(`account ${parent.id} closes agent ${agent.id} with no open agent counted`);
  parent.replace_account({ ...parent.account, agents_open: open - 1 });
  return ok({ swept, keys_revoked, account: agent.account });
}

/**
 * The two entries of a transfer, each naming the other account, their events on both sides, and the
 * transfer's record under the parent's reference. The caller has checked the sender's balance; the
 * entries' assertions are the second line of defence.
 */
function move(parent: AccountActor, agent: AccountActor, environment: Environment, direction: TransferDirection, amount_kobo: number, reference: string, kind: TransferRecord['kind'], now_us: number): TransferRecord {
  const engine = parent.engine;
  const [sender, receiver] = direction === 'to_agent' ? [parent, agent] : [agent, parent];
  const what = kind === 'sweep' ? 'Balance swept back on closing' : 'Transfer';
  const out = sender.append_entry(environment, 'transfer_out', amount_kobo, reference, `${what} to ${receiver.account.name} (account ${receiver.id})`, now_us, undefined, receiver.id);
  const into = receiver.append_entry(environment, 'transfer_in', amount_kobo, reference, `${what} from ${sender.account.name} (account ${sender.id})`, now_us, undefined, sender.id);
  sender.emit(environment, 'wallet.debited', { entry: out });
  check_low_balance(sender, environment, out);
  receiver.emit(environment, 'wallet.credited', { entry: into });
  const [parent_entry, agent_entry] = direction === 'to_agent' ? [out, into] : [into, out];
  const record: TransferRecord = {
    reference,
    environment,
    kind,
    parent_id: parent.id,
    agent_id: agent.id,
    direction,
    amount_kobo,
    parent_entry_id: parent_entry.id,
    agent_entry_id: agent_entry.id,
    parent_balance_after_kobo: parent_entry.balance_after_kobo,
    agent_balance_after_kobo: agent_entry.balance_after_kobo,
    created_us: now_us,
  };
  assert_transfer(record);
  parent.stage_put(engine.store.agent_transfers, [environment, parent.id, reference], record);
  // The agent's entry ids grow with its wallet, so its transfers list in order, newest last.
  agent.stage_put(engine.store.agent_transfer_index, [agent.id, environment, agent_entry.id], [parent.id, reference]);
  return record;
}
