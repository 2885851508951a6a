// The operator's view of a tree of accounts (docs/operations.md "Operator API", docs/decisions.md "Agents"):
// GET /admin/accounts/{id}/tree, the account and every account below it with status and balances, bounded by
// `limit` (at most tree_nodes_max accounts, breadth first, `truncated` when some were left out).
import Type from 'typebox';
import type { Deps } from '../front/deps.js';
import type { RouteDef } from '../front/route.js';
import { error_reply, success_reply } from '../lib/reply.js';
import { parse_id, query_params } from '../front/request-helpers.js';
import { wallet_view } from '../front/views.js';
import { api_error, invalid } from '../errors.js';
import { subtree_of, tree_nodes_max, wallets_read, type TreeNode } from '../engine/agent-tree.js';
import type { Engine } from '../engine/engine.js';

export interface TreeNodeView {
  id: number;
  parent_id: number | null;
  name: string;
  status: 'active' | 'suspended' | 'closed';
  depth: number;
  balances: { live: ReturnType<typeof wallet_view>; test: ReturnType<typeof wallet_view> };
  agents_count: number;
  children: TreeNodeView[];
}

function node_view(engine: Engine, node: TreeNode): TreeNodeView {
  const wallets = wallets_read(engine, node.account.id);
  return {
    id: node.account.id,
    parent_id: node.account.parent_id ?? null,
    name: node.account.name,
    status: node.account.status ?? 'active',
    depth: node.depth,
    balances: { live: wallet_view(wallets.live), test: wallet_view(wallets.test) },
    agents_count: node.agents_count,
    children: node.children.map((child) => node_view(engine, child)),
  };
}

const Balance = Type.Object({ balance: Type.Number(), bonus_balance: Type.Number(), currency: Type.String() });
const TreeNodeSchema = Type.Object({
  id: Type.Integer(),
  parent_id: Type.Union([Type.Integer(), Type.Null()]),
  name: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('suspended'), Type.Literal('closed')]),
  depth: Type.Integer({ minimum: 1, maximum: 3 }),
  balances: Type.Object({ live: Balance, test: Balance }),
  agents_count: Type.Integer({ description: 'its own agents, every status; more than children holds when the tree was truncated' }),
  children: Type.Array(Type.Object({}, { additionalProperties: true }), { description: 'its agents in the tree, each a node like this one' }),
});

export function account_tree_routes(deps: Deps): RouteDef[] {
  const { engine } = deps;
  return [
    {
      method: 'get',
      path: '/admin/accounts/:id/tree',
      auth: 'operator',
      doc: {
        summary: 'An account and every account below it: status and balances, breadth first, bounded by limit',
        description: `Each node: id, parent_id, name, status, depth (1 for a reseller, 2 and 3 below), balances (live and test), agents_count (its own agents) and children. At most limit accounts (1 to ${tree_nodes_max}, default ${tree_nodes_max}), taken level by level in creation order; truncated is true when some were left out, and a node whose children are fewer than its agents_count was cut there.`,
        tags: ['Operator'],
        query: { limit: { schema: Type.Integer({ minimum: 1, maximum: tree_nodes_max, default: tree_nodes_max }), description: `accounts in the answer at most, 1 to ${tree_nodes_max}` } },
        response: Type.Object({ tree: TreeNodeSchema, nodes: Type.Integer(), limit: Type.Integer(), truncated: Type.Boolean() }),
        errors: ['account.not_found', 'validation.failed'],
      },
      handler: async (ctx) => {
        const limit_text = query_params(ctx).get('limit');
        let limit = tree_nodes_max;
        if (limit_text !== null) {
          if (!/^\d{1,7}$/.test(limit_text) || Number(limit_text) < 1 || Number(limit_text) > tree_nodes_max) {
            return error_reply(ctx.request_id, invalid('limit', `must be an integer from 1 to ${tree_nodes_max}`));
          }
          limit = Number(limit_text);
        }
        const id = parse_id(ctx.params.id);
        if (id === null || engine.account_record(id) === undefined) return error_reply(ctx.request_id, api_error('account.not_found'));
        // The tree's index entries and balances are staged by many accounts' commands: once everything staged so far
        // is durable, the store holds it, and what is shown is what a restart keeps.
        await engine.journal.durable();
        const root = engine.account_record(id);
        if (root === undefined) return error_reply(ctx.request_id, api_error('account.not_found'));
        const { root: top, nodes, truncated } = subtree_of(engine, root, limit);
        return success_reply(ctx.request_id, 200, { tree: node_view(engine, top), nodes, limit, truncated });
      },
    },
  ];
}
