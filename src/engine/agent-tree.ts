// The tree of accounts (docs/decisions.md "Agents"): a reseller the operator created is at the top; its
// agents name it as their parent (AccountRecord.parent_id), and theirs name them, at most three levels
// (reseller → super-agent → agent). A parent always has a lower id than its agents, so a walk up the
// chain ends; it reads at most two records, from the actors in memory or the store, and builds no actor.
import type { Store } from '../journal/store.js';
import { assert_wallet, new_wallet, type AccountRecord, type Environment, type WalletRecord } from './records.js';
import { fail } from '../lib/assert.js';

/**
 * What a walk of the tree reads (the engine, engine/engine.ts): declared here, so the tree's functions need
 * no import of the engine, which reaches them through the actor's commands (engine/authority.ts).
 */
export interface TreeReader {
  readonly store: Store;
  account_record(id: number): AccountRecord | undefined;
  readonly accounts: { peek(id: number): { readonly wallets: Record<Environment, WalletRecord> } | undefined };
}

/** Levels of a tree: a reseller (1), its super-agents (2), their agents (3). */
export const agent_depth_max = 3;

/** The account's parent's record, or null for an account at the top. */
export function parent_of(engine: TreeReader, account: AccountRecord): AccountRecord | null {
  if (account.parent_id === undefined) return null;
  const parent = engine.account_record(account.parent_id);
  if (parent === undefined) fail(`account ${account.id} names a missing parent ${account.parent_id}`);
  return parent;
}

/** The account's level: 1 at the top, 2 under it, 3 under that. */
export function depth_of(engine: TreeReader, account: AccountRecord): number {
  let depth = 1;
  for (let at = parent_of(engine, account); at !== null; at = parent_of(engine, at)) {
    depth++;
    if (depth > agent_depth_max) fail(`account ${account.id} lies deeper than ${agent_depth_max} levels`);
  }
  return depth;
}

/** Whether the account lies strictly below ancestor_id (its agent, or an agent of its agents). */
export function in_subtree(engine: TreeReader, ancestor_id: number, account: AccountRecord): boolean {
  for (let at = parent_of(engine, account); at !== null; at = parent_of(engine, at)) {
    if (at.id === ancestor_id) return true;
  }
  return false;
}

/** Whether the account, or an account above it, is suspended: its keys are refused (front/auth.ts). */
export function suspended_in_tree(engine: TreeReader, account: AccountRecord): boolean {
  for (let at: AccountRecord | null = account; at !== null; at = parent_of(engine, at)) {
    if (at.status === 'suspended') return true;
  }
  return false;
}

/** Accounts one tree answer holds at most (GET /admin/accounts/{id}/tree, docs/operations.md "Operator API"). */
export const tree_nodes_max = 1_000;

export interface TreeNode {
  account: AccountRecord;
  /** Its level: 1 at the top, as depth_of. */
  depth: number;
  /** Its own agents, every status, whether or not they are in children (children is cut short when truncated). */
  agents_count: number;
  children: TreeNode[];
}

/**
 * The account and the accounts below it, breadth first in creation order (account_children), at most
 * nodes_max of them: a reseller with thousands of agents answers its first levels whole before any deeper one,
 * and truncated says that some were left out. Reads the store's index (the caller waits for the journal first,
 * so what is staged is on it) and the records; builds no actor.
 */
export function subtree_of(engine: TreeReader, root: AccountRecord, nodes_max: number): { root: TreeNode; nodes: number; truncated: boolean } {
  if (!Number.isSafeInteger(nodes_max) || nodes_max < 1) fail(`a tree of ${nodes_max} nodes`);
  const top: TreeNode = { account: root, depth: depth_of(engine, root), agents_count: 0, children: [] };
  const queue: TreeNode[] = [top];
  let nodes = 1;
  let truncated = false;
  for (let at = 0; at < queue.length; at++) {
    const node = queue[at];
    // A new options object each: lmdb-js's getCount marks the one it is given (see GET /v1/agents).
    const range = () => ({ start: [node.account.id], end: [node.account.id + 1] });
    node.agents_count = engine.store.account_children.getCount(range());
    const room = nodes_max - nodes;
    if (node.agents_count > room) truncated = true;
    if (room === 0 || node.agents_count === 0) continue;
    for (const key of engine.store.account_children.getKeys({ ...range(), limit: room })) {
      const id = (key as [number, number])[1];
      const account = engine.account_record(id);
      if (account === undefined || account.parent_id !== node.account.id) fail(`account ${node.account.id} lists agent ${id}, which is not its own`);
      if (node.depth + 1 > agent_depth_max) fail(`account ${id} lies deeper than ${agent_depth_max} levels`);
      const child: TreeNode = { account, depth: node.depth + 1, agents_count: 0, children: [] };
      node.children.push(child);
      queue.push(child);
      nodes++;
    }
  }
  return { root: top, nodes, truncated };
}

/** An account's wallets, from its actor when in memory, else from the store: a tree is read without building actors. */
export function wallets_read(engine: TreeReader, id: number): Record<Environment, WalletRecord> {
  const actor = engine.accounts.peek(id);
  if (actor !== undefined) return actor.wallets;
  const read = (environment: Environment): WalletRecord => {
    const wallet = engine.store.wallets.get([id, environment]) as WalletRecord | undefined;
    if (wallet === undefined) return new_wallet(id, environment);
    assert_wallet(wallet);
    return wallet;
  };
  return { live: read('live'), test: read('test') };
}
