// The tree of accounts (docs/decisions.md "Agents"): a reseller the operator created is at the top; its
// agents name it as their parent (AccountRecord.parent_id), and theirs name them, at most three levels
// (reseller → super-agent → agent). A parent always has a lower id than its agents, so a walk up the
// chain ends; it reads at most two records, from the actors in memory or the store, and builds no actor.
import type { Engine } from './engine.js';
import type { AccountRecord } from './records.js';
import { fail } from '../lib/assert.js';

/** Levels of a tree: a reseller (1), its super-agents (2), their agents (3). */
export const agent_depth_max = 3;

/** The account's parent's record, or null for an account at the top. */
export function parent_of(engine: Engine, account: AccountRecord): AccountRecord | null {
  if (account.parent_id === undefined) return null;
  const parent = engine.account_record(account.parent_id);
  if (parent === undefined) fail(`account ${account.id} names a missing parent ${account.parent_id}`);
  return parent;
}

/** The account's level: 1 at the top, 2 under it, 3 under that. */
export function depth_of(engine: Engine, account: AccountRecord): number {
  let depth = 1;
  for (let at = parent_of(engine, account); at !== null; at = parent_of(engine, at)) {
    depth++;
    if (depth > agent_depth_max) fail(`account ${account.id} lies deeper than ${agent_depth_max} levels`);
  }
  return depth;
}

/** Whether the account lies strictly below ancestor_id (its agent, or an agent of its agents). */
export function in_subtree(engine: Engine, ancestor_id: number, account: AccountRecord): boolean {
  for (let at = parent_of(engine, account); at !== null; at = parent_of(engine, at)) {
    if (at.id === ancestor_id) return true;
  }
  return false;
}

/** Whether the account, or an account above it, is suspended: its keys are refused (front/auth.ts). */
export function suspended_in_tree(engine: Engine, account: AccountRecord): boolean {
  for (let at: AccountRecord | null = account; at !== null; at = parent_of(engine, at)) {
    if (at.status === 'suspended') return true;
  }
  return false;
}
